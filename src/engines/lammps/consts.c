/* consts.c - the shipped LAMMPS constants (seconds per counted unit of
 * the neighbour build, fitted on the development machine) and the names
 * of the counted terms. */
#include "hg_lammps.h"
#include "shipped.h"

#include <stdio.h>
#include <string.h>

static const char *const term_names[HG_LAMMPS_NTERMS] = {
    "checks", "visits", "bins", "binned", "coll_loops", "neighbours"};


void hg_lammps_consts_default(hg_lammps_consts *c)
{
    memset(c, 0, sizeof *c);
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
    snprintf(c->lammps, sizeof c->lammps, "%s", HG_LAMMPS_DEFAULT_VERSION);
    snprintf(c->created, sizeof c->created, "%s", HG_LAMMPS_DEFAULT_DATE);
}

const char *hg_lammps_term_name(int i)
{
    return i >= 0 && i < HG_LAMMPS_NTERMS ? term_names[i] : "?";
}
