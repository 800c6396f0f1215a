/* consts.c - the shipped LIGGGHTS constants (seconds per counted unit of
 * the neighbour build, fitted on the development machine) and the names
 * of the counted terms. */
#include "hg_liggghts.h"
#include "shipped.h"

#include <stdio.h>
#include <string.h>

static const char *const term_names[HG_LIGGGHTS_NTERMS] = {
    "checks", "visits", "lines", "bins", "binned", "neighbours"};


void hg_liggghts_consts_default(hg_liggghts_consts *c)
{
    memset(c, 0, sizeof *c);
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

const char *hg_liggghts_term_name(int i)
{
    return i >= 0 && i < HG_LIGGGHTS_NTERMS ? term_names[i] : "?";
}
