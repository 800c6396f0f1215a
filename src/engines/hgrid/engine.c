/* engine.c - the bundled HGrid as an engine: the KOL 2014 cost models of
 * its grid (Top-Down, Bottom-Up, the linked cell as one level, the `bin`
 * baseline) and K, the cost of a cell access in pair checks, as
 * hg_K_resolve chooses it for the bundled HGrid (this machine's
 * calibration for the dimension, else the shipped default), and C, the
 * cost of a cell of its tables per rebuild and detection (shipped). */
#include "hg_calib.h"
#include "hg_engine.h"

#include <stdio.h>

static const char *const models[] = {"hgrid-top-down", "hgrid-bottom-up",
                                     "linked-cell", "bin", NULL};

static int constants(int dim, char *buf, size_t len, hg_err *e)
{
    hg_K_request rq = {HG_K_TARGET_HGRID, dim, NULL, 0, 0.0, NULL, NULL};
    hg_K_choice c;
    int st = hg_K_resolve(&rq, &c, e);
    if (st)
        return st;
    const char *where;
    double C = hg_C_shipped(dim, &where);
    snprintf(buf, len, "K = %g (%s: %s); C = %g per table cell (%s)", c.K,
             hg_K_source_name(c.source), c.detail, C, where);
    return HG_OK;
}

const hg_engine hg_engine_hgrid = {
    "hgrid",
    "the bundled HGrid (validate, calibrate, bench and tune measure it "
    "in this process)",
    models,
    NULL,
    constants,
    0,
    NULL,
    NULL,          /* settings: the cell sizes of the table and JSON */
    NULL,          /* validate: the hgrid form of `validate` */
    hg_hgrid_tune,
    NULL,          /* calibrate: the hgrid form of `calibrate` (K) */
};
