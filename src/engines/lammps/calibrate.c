/* calibrate.c - fitting the LAMMPS cost constants to measured Neigh
 * times, storing them, and the measured search of `tune --engine lammps`.
 */
#include "hg_io.h"
#include "hg_lammps.h"
#include "psd_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void work_terms(const hg_lammps_work *w, double *x)
{
    x[0] = w->checks;
    x[1] = w->visits;
    x[2] = w->bins;
    x[3] = w->binned;
    x[4] = w->coll_loops;
    x[5] = w->neighbours;
}

int hg_lammps_fit(const hg_lammps_work *w, const double *y, int n,
                  hg_consts *c, hg_err *e)
{
    double *X = malloc(sizeof *X * (size_t)(n > 0 ? n : 1) * HG_LAMMPS_NTERMS);
    if (!X)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        work_terms(&w[i], X + (size_t)i * HG_LAMMPS_NTERMS);
    int st = hg_consts_fit(&hg_lammps_consts_kind, X, y, n, c, e);
    free(X);
    return st;
}

