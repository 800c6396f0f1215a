/* consts.c - the shipped LIGGGHTS constants (seconds per counted unit of
 * the neighbour build, fitted on the development machine) and the names
 * of the counted terms. */
#include "hg_lammps.h"
#include "hg_liggghts.h"
#include "shipped.h"

#include <stdio.h>
#include <string.h>

static const char *const terms[HG_LIGGGHTS_NTERMS] = {
    "checks", "visits", "lines", "bins", "binned", "neighbours"};

static void shipped(hg_consts *c)
{
    static const double def[HG_LIGGGHTS_NTERMS] = {
        HG_LIGGGHTS_DEFAULT_CHECK, HG_LIGGGHTS_DEFAULT_VISIT,
        HG_LIGGGHTS_DEFAULT_LINE,  HG_LIGGGHTS_DEFAULT_BIN,
        HG_LIGGGHTS_DEFAULT_BINNED, HG_LIGGGHTS_DEFAULT_NEIGH};
    static const double se[HG_LIGGGHTS_NTERMS] = {
        HG_LIGGGHTS_DEFAULT_CHECK_SE, HG_LIGGGHTS_DEFAULT_VISIT_SE,
        HG_LIGGGHTS_DEFAULT_LINE_SE,  HG_LIGGGHTS_DEFAULT_BIN_SE,
        HG_LIGGGHTS_DEFAULT_BINNED_SE, HG_LIGGGHTS_DEFAULT_NEIGH_SE};
    for (int i = 0; i < HG_LIGGGHTS_NTERMS; i++) {
        c->c[i] = def[i];
        c->se[i] = se[i];
    }
    c->r2 = HG_LIGGGHTS_DEFAULT_R2;
    c->npoints = HG_LIGGGHTS_DEFAULT_NPOINTS;
    snprintf(c->machine, sizeof c->machine, "%s",
             HG_LIGGGHTS_DEFAULT_MACHINE);
    snprintf(c->version, sizeof c->version, "%s",
             HG_LIGGGHTS_DEFAULT_VERSION);
    snprintf(c->created, sizeof c->created, "%s", HG_LIGGGHTS_DEFAULT_DATE);
}

const hg_consts_kind hg_liggghts_consts_kind = {
    .code = "LIGGGHTS",
    .schema = "hgridopt.liggghts-calibration/1",
    .version_key = "liggghts",
    .env = "HGRIDOPT_LIGGGHTS_CALIBRATION",
    .file = "liggghts.json",
    .nterms = HG_LIGGGHTS_NTERMS,
    .terms = terms,
    .positive = 0,
    .shipped = shipped,
};

/* ---- the pair loop: seconds per step of LIGGGHTS' Pair time ---- */

static const char *const pair_terms[2] = {"neighbours", "atoms"};

static void pair_shipped(hg_consts *c)
{
    /* see shipped.h */
    c->c[0] = HG_LIGGGHTS_PAIR_NEIGHBOUR;
    c->c[1] = HG_LIGGGHTS_PAIR_ATOM;
    c->se[0] = HG_LIGGGHTS_PAIR_NEIGHBOUR_SE;
    c->r2 = HG_LIGGGHTS_PAIR_R2;
    c->npoints = HG_LIGGGHTS_PAIR_NPOINTS;
    snprintf(c->machine, sizeof c->machine, "%s", HG_LIGGGHTS_PAIR_MACHINE);
    snprintf(c->version, sizeof c->version, "%s", HG_LIGGGHTS_PAIR_VERSION);
    snprintf(c->created, sizeof c->created, "%s", HG_LIGGGHTS_PAIR_DATE);
}

const hg_consts_kind hg_liggghts_pair_kind = {
    .code = "LIGGGHTS",
    .schema = "hgridopt.liggghts-pair-calibration/1",
    .version_key = "liggghts",
    .env = "HGRIDOPT_LIGGGHTS_PAIR_CALIBRATION",
    .beside_env = "HGRIDOPT_LIGGGHTS_CALIBRATION",
    .beside_suffix = "pair",
    .file = "liggghts-pair.json",
    .nterms = 2,
    .terms = pair_terms,
    .positive = 0,
    .shipped = pair_shipped,
};

/* ---- many ranks: what a ghost atom costs per step and per build ---- */

static const char *const comm_terms[2] = {"ghost_step", "ghost_build"};

static void comm_shipped(hg_consts *c)
{
    /* not measured in LIGGGHTS on the development machine: LAMMPS' values
     * (hg_lammps_comm_kind), until calibrate --engine liggghts --mpi P
     * stores this machine's */
    hg_consts_shipped(&hg_lammps_comm_kind, c);
    snprintf(c->version, sizeof c->version, "%s",
             "LAMMPS' 29 Sep 2021 values");
}

const hg_consts_kind hg_liggghts_comm_kind = {
    .code = "LIGGGHTS",
    .schema = "hgridopt.liggghts-comm-calibration/1",
    .version_key = "liggghts",
    .env = "HGRIDOPT_LIGGGHTS_COMM_CALIBRATION",
    .beside_env = "HGRIDOPT_LIGGGHTS_CALIBRATION",
    .beside_suffix = "comm",
    .file = "liggghts-comm.json",
    .nterms = 2,
    .terms = comm_terms,
    .positive = 0,
    .shipped = comm_shipped,
};
