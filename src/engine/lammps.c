/* lammps.c - LAMMPS as an engine: the model of its neighbor build
 * (models/lammps.c: multi with collections, or bin) with the fitted
 * seconds per counted unit (hg_lammps_consts_auto: the stored
 * `calibrate --engine lammps --save` constants, else the shipped ones);
 * its settings are the input-script lines of --format lammps. */
#include "hg_engine.h"
#include "hg_lammps.h"

#include <stdio.h>
#include <string.h>

static const char *const models[] = {"lammps-multi", "lammps-bin", NULL};

static int constants(int dim, char *buf, size_t len, hg_err *e)
{
    (void)dim; /* one set for both dimensions */
    hg_lammps_consts c;
    int from_file = 0;
    int st = hg_lammps_consts_auto(&c, &from_file, e);
    if (st)
        return st;
    char path[4096] = "";
    if (from_file && hg_lammps_consts_default_path(path, sizeof path, NULL))
        path[0] = '\0';
    size_t n = (size_t)snprintf(buf, len, "ns per unit:");
    for (int t = 0; t < HG_LAMMPS_NTERMS && n < len; t++)
        n += (size_t)snprintf(buf + n, len - n, " %s %.3g",
                              hg_lammps_term_name(t), 1e9 * c.c[t]);
    if (n < len)
        snprintf(buf + n, len - n, " (%s%s%s)",
                 from_file ? "stored calibration" : "shipped defaults",
                 path[0] ? " " : "", path);
    return HG_OK;
}

const hg_engine hg_engine_lammps = {
    "lammps",
    "LAMMPS' neighbor build, multi or bin (validate, calibrate and tune "
    "--engine lammps run lmp)",
    models,
    "lammps",
    constants,
};
