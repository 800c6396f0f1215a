/* lammps.c - LAMMPS as an engine: the model of its neighbor build
 * (models/lammps.c: multi with collections, or bin) with the fitted
 * seconds per counted unit, resolved here once (consts_resolve:
 * hg_lammps_consts_auto, the stored `calibrate --engine lammps --save`
 * constants, else the shipped ones) and passed to the models as a value;
 * its settings are the input-script lines of --format lammps. */
#include "hg_engine.h"
#include "hg_lammps.h"

#include <stdio.h>
#include <string.h>

static const char *const models[] = {"lammps-multi", "lammps-bin", NULL};

/* The constants of lammps-multi and lammps-bin: the stored calibration,
 * else the shipped ones (one set for both dimensions). */
static int consts_resolve(int dim, void *out, char *source, size_t len,
                          hg_err *e)
{
    (void)dim;
    int from_file = 0;
    int st = hg_lammps_consts_auto(out, &from_file, e);
    if (st || !source || !len)
        return st;
    char path[4096] = "";
    if (from_file && hg_lammps_consts_default_path(path, sizeof path, NULL))
        path[0] = '\0';
    snprintf(source, len, "%s%s%s",
             from_file ? "stored calibration" : "shipped defaults",
             path[0] ? " " : "", path);
    return HG_OK;
}

static int constants(int dim, char *buf, size_t len, hg_err *e)
{
    hg_lammps_consts c;
    char source[4200];
    int st = consts_resolve(dim, &c, source, sizeof source, e);
    if (st)
        return st;
    size_t n = (size_t)snprintf(buf, len, "ns per unit:");
    for (int t = 0; t < HG_LAMMPS_NTERMS && n < len; t++)
        n += (size_t)snprintf(buf + n, len - n, " %s %.3g",
                              hg_lammps_term_name(t), 1e9 * c.c[t]);
    if (n < len)
        snprintf(buf + n, len - n, " (%s)", source);
    return HG_OK;
}

const hg_engine hg_engine_lammps = {
    "lammps",
    "LAMMPS' neighbor build, multi or bin (validate, calibrate and tune "
    "--engine lammps run lmp)",
    models,
    "lammps",
    constants,
    sizeof(hg_lammps_consts),
    consts_resolve,
};
