/* consts.c - the shipped LAMMPS constants (seconds per counted unit of
 * the neighbour build, fitted on the development machine) and the names
 * of the counted terms. */
#include "hg_lammps.h"
#include "shipped.h"

#include <stdio.h>
#include <string.h>

static const char *const terms[HG_LAMMPS_NTERMS] = {
    "checks", "visits", "bins", "binned", "coll_loops", "neighbours"};

static void shipped(hg_consts *c)
{
    /* hgridopt calibrate --engine lammps on the development machine (2
     * shared cores, Debian 12, lmp 29 Sep 2021 - Update 2, one rank): see
     * docs/measurements/lammps.md. Seconds per unit. */
    static const double def[HG_LAMMPS_NTERMS] = {
        HG_LAMMPS_DEFAULT_CHECK, HG_LAMMPS_DEFAULT_VISIT,
        HG_LAMMPS_DEFAULT_BIN,   HG_LAMMPS_DEFAULT_BINNED,
        HG_LAMMPS_DEFAULT_COLL,  HG_LAMMPS_DEFAULT_NEIGH};
    static const double se[HG_LAMMPS_NTERMS] = {
        HG_LAMMPS_DEFAULT_CHECK_SE, HG_LAMMPS_DEFAULT_VISIT_SE,
        HG_LAMMPS_DEFAULT_BIN_SE,   HG_LAMMPS_DEFAULT_BINNED_SE,
        HG_LAMMPS_DEFAULT_COLL_SE,  HG_LAMMPS_DEFAULT_NEIGH_SE};
    for (int i = 0; i < HG_LAMMPS_NTERMS; i++) {
        c->c[i] = def[i];
        c->se[i] = se[i];
    }
    c->r2 = HG_LAMMPS_DEFAULT_R2;
    c->npoints = HG_LAMMPS_DEFAULT_NPOINTS;
    snprintf(c->machine, sizeof c->machine, "%s", HG_LAMMPS_DEFAULT_MACHINE);
    snprintf(c->version, sizeof c->version, "%s", HG_LAMMPS_DEFAULT_VERSION);
    snprintf(c->created, sizeof c->created, "%s", HG_LAMMPS_DEFAULT_DATE);
}

const hg_consts_kind hg_lammps_consts_kind = {
    .code = "LAMMPS",
    .schema = "hgridopt.lammps-calibration/1",
    .version_key = "lammps",
    .env = "HGRIDOPT_LAMMPS_CALIBRATION",
    .file = "lammps.json",
    .nterms = HG_LAMMPS_NTERMS,
    .terms = terms,
    .positive = -1,
    .shipped = shipped,
};

/* ---- the pair loop: seconds per step of LAMMPS' Pair time ---- */

static const char *const pair_terms[2] = {"neighbours", "atoms"};

static void pair_shipped(hg_consts *c)
{
    /* hgridopt calibrate --engine lammps on the development machine (see
     * shipped.h): Pair seconds per step over lists kept, against the
     * stored neighbour pairs and the atoms, the skin 1x to 4x. */
    c->c[0] = HG_LAMMPS_PAIR_NEIGHBOUR;
    c->c[1] = HG_LAMMPS_PAIR_ATOM;
    c->se[0] = HG_LAMMPS_PAIR_NEIGHBOUR_SE;
    c->se[1] = HG_LAMMPS_PAIR_ATOM_SE;
    c->r2 = HG_LAMMPS_PAIR_R2;
    c->npoints = HG_LAMMPS_PAIR_NPOINTS;
    snprintf(c->machine, sizeof c->machine, "%s", HG_LAMMPS_PAIR_MACHINE);
    snprintf(c->version, sizeof c->version, "%s", HG_LAMMPS_PAIR_VERSION);
    snprintf(c->created, sizeof c->created, "%s", HG_LAMMPS_PAIR_DATE);
}

const hg_consts_kind hg_lammps_pair_kind = {
    .code = "LAMMPS",
    .schema = "hgridopt.lammps-pair-calibration/1",
    .version_key = "lammps",
    .env = "HGRIDOPT_LAMMPS_PAIR_CALIBRATION",
    .beside_env = "HGRIDOPT_LAMMPS_CALIBRATION",
    .beside_suffix = "pair",
    .file = "lammps-pair.json",
    .nterms = 2,
    .terms = pair_terms,
    .positive = 0,
    .shipped = pair_shipped,
};

double hg_lammps_pair_predict(const hg_consts *c, double neighbours,
                              double atoms)
{
    return c->c[0] * neighbours + c->c[1] * atoms;
}

/* ---- many ranks: what a ghost atom costs per step and per build ---- */

static const char *const comm_terms[2] = {"ghost_step", "ghost_build"};

static void comm_shipped(hg_consts *c)
{
    /* the development machine (2-core VM, Debian 12, lmp 29 Sep 2021 -
     * Update 2, Open MPI 4.1.4, 2 ranks; 2026-12-05): `ROUNDS=5 STEPS=400
     * bash tests/bench_ranks_comm.sh` on LAMMPS' drum bed, 509 to 5563
     * ghosts (docs/measurements/ranks.md) */
    c->c[0] = 3.07e-8;
    c->c[1] = 1.23e-8;
    c->npoints = 10;
    snprintf(c->machine, sizeof c->machine, "%s",
             "2-core VM, Debian 12, Open MPI 4.1.4, 2 ranks");
    snprintf(c->version, sizeof c->version, "%s", "29 Sep 2021 - Update 2");
    snprintf(c->created, sizeof c->created, "%s", "2026-12-05");
}

const hg_consts_kind hg_lammps_comm_kind = {
    .code = "LAMMPS",
    .schema = "hgridopt.lammps-comm-calibration/1",
    .version_key = "lammps",
    .env = "HGRIDOPT_LAMMPS_COMM_CALIBRATION",
    .beside_env = "HGRIDOPT_LAMMPS_CALIBRATION",
    .beside_suffix = "comm",
    .file = "lammps-comm.json",
    .nterms = 2,
    .terms = comm_terms,
    .positive = 0,
    .shipped = comm_shipped,
};
