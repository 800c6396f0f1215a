/* engine.c - the bundled HGrid as an engine: the KOL 2014 cost models of
 * its grid (Top-Down, Bottom-Up, the linked cell as one level, the `bin`
 * baseline) and K, the cost of a cell access in pair checks (this
 * machine's calibration for the dimension, else the shipped default:
 * hg_K_resolve), and C, the cost of a cell of its tables per rebuild and
 * detection (shipped). */
#include "hg_calib.h"
#include "hg_engine.h"


static const char *const models[] = {"hgrid-top-down", "hgrid-bottom-up",
                                     "linked-cell", "bin", NULL};

static const hg_engine_K K = {
    .target = "bundled HGrid",
    .article = "the ",
    .own = 1,
    .shipped_for = "the bundled HGrid",
    .shipped = hg_K_shipped,
    .calibration_path = hg_calibration_default_path,
    .C = hg_C_shipped,
};

const hg_engine hg_engine_hgrid = {
    .name = "hgrid",
    .help = "the bundled HGrid (validate, calibrate, bench and tune "
            "measure it in this process)",
    .code = "the bundled HGrid",
    .modelled = "the bundled HGrid's detection",
    .models = models,
    .K = &K,
    /* settings: the cell sizes of the table and JSON; validate and
     * calibrate: the hgrid forms of those commands */
    .tune = hg_hgrid_tune,
};
