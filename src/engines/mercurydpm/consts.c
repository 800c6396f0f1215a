/* consts.c - K for MercuryDPM: the file of the stored calibration, the
 * shipped K, the fit of K to measured times, and the K and seconds per
 * pair check the runners predict with.
 *
 * The model is KOL 2014's (eq. 27: T = T_cd + K T_ca per particle); one
 * MercuryDPM step also does work every grid shares (the forces of the
 * contacts found, refilling the hash buckets), so the fit is
 *     seconds per step = N (a T_cd + b T_ca) + c_p
 * with an offset c_p per packing, and K = b / a. N counts the particles in
 * the grid, periodic ghosts included. */
#include "hg_calib.h"
#include "hg_consts.h"
#include "hg_mercurydpm.h"
#include "mercurydpm_engine.h"

#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the stored and the shipped K ---- */

int hg_mercurydpm_calibration_path(char *buf, size_t len, hg_err *e)
{
    return hg_config_path("HGRIDOPT_MERCURYDPM_CALIBRATION",
                          "mercurydpm.json", "MercuryDPM calibration file",
                          buf, len, e);
}

/* The shipped K of MercuryDPM, fitted in MercuryDPM itself: the library's
 * hg_mercurydpm_calibrate (calibrate --engine mercurydpm) on three RSA
 * packings at nu 0.3 of N = 10000 spheres in periodic cubes, made with
 * `hgridopt pack --generator rsa --nu 0.3 --n 10000 --dim 3 --psd` with
 * powerlaw:alpha=0,omega=10 (uniform radii on [1, 10]),
 * powerlaw:alpha=-3,omega=10 and
 * discrete:r=0.5;2.5,frac=0.5;0.5,basis=volume (bidisperse, equal
 * volumes); 5 timed steps after 2 untimed, 5 alternating repeats, CPU time
 * of the driver; 16, 19 and 12 grids (MercuryDPM's defaults, exponential
 * L = 1..5 both algorithms, the optima for K = 0.2 .. 4); kuwt/
 * MercuryDPM_fork fb0ebf1 kernel (Release, gcc 12) on a shared 2-core
 * x86_64 Debian 12 machine, 2026-11-25: K = 0.736 +- 0.081, a = 27.1 ns
 * per pair check, b = 20.0 ns per cell access; fitted times within 8 %
 * (median), 25 % at most; Spearman of T = T_cd + K T_ca against the
 * measured times per packing 0.80, 0.92, 0.94. Earlier wall-clock
 * measurements (5000 spheres) gave least-squares K 0.36 and 1.46. */
static const double shipped_K3 = 0.74;
static const double shipped_a = 27.1e-9; /* seconds per pair check */
static const char shipped_where[] =
    "calibrate --engine mercurydpm on 3 RSA packings of 10000 spheres "
    "(uniform [1,10], r^-3 on [1,10], bidisperse 1:5), kuwt/MercuryDPM_fork "
    "fb0ebf1, 2-core x86_64 Debian 12, 2026-11-25";

/* In 2D the 3D value stands in: K was fitted from MercuryDPM's times, and
 * no disk packing was timed (a shared, loaded machine). How much that can
 * cost was measured with the model on RSA disk packings (nu 0.3, 10^4
 * disks) of the three systems above (tests/mercurydpm_2d_K.sh): for 2D's
 * K anywhere in 0.2..1.5 (the papers' 0.2-0.45, the 3D fits 0.36-1.46)
 * the grid chosen with 0.74 does at most 15 % more work than the grid
 * chosen with the right K (uniform radii at K = 0.2), at most 7.5 % for K
 * in 0.3..1.5 (docs/measurements/mercurydpm.md). */
static const char shipped_where_2d[] =
    "the 3D value, not measured on disks: if 2D's K is in 0.2-1.5 the grid "
    "chosen with 0.74 does at most 15 % more work than with it (model, disk "
    "packings; docs/measurements/mercurydpm.md); fitted on 3 RSA sphere "
    "packings, MercuryDPM_fork fb0ebf1";

double hg_mercurydpm_K_shipped(int dim, const char **where)
{
    if (where)
        *where = dim == 2 ? shipped_where_2d : shipped_where;
    /* MercuryDPM's 2D grid (4 half-neighbours) was not timed; the 3D
     * value is used for both and says so in 2D */
    return dim == 2 || dim == 3 ? shipped_K3 : NAN;
}

/* ---- the fit ---- */

int hg_mercurydpm_fit_K(const hg_mercurydpm_sample *x, int m,
                        hg_mercurydpm_fit *out, hg_err *e)
{
    memset(out, 0, sizeof *out);
    int np = 0;
    int count[8] = {0};
    for (int i = 0; i < m; i++) {
        if (x[i].packing < 0 || x[i].packing >= 8)
            return hg_fail(e, HG_EINVAL, "MercuryDPM fit: packing %d not in "
                           "0..7", x[i].packing);
        if (!(x[i].seconds > 0.0 && isfinite(x[i].seconds) && x[i].n > 0.0 &&
              isfinite(x[i].T_cd) && isfinite(x[i].T_ca)))
            return hg_fail(e, HG_EINVAL, "MercuryDPM fit: sample %d is not "
                           "finite and positive", i);
        count[x[i].packing]++;
        if (x[i].packing + 1 > np)
            np = x[i].packing + 1;
    }
    for (int p = 0; p < np; p++)
        if (count[p] < 2)
            return hg_fail(e, HG_EINVAL, "MercuryDPM fit: packing %d has %d "
                           "samples (need >= 2)", p, count[p]);
    int k = 2 + np;
    if (m < k + 1)
        return hg_fail(e, HG_EINVAL, "MercuryDPM fit: %d samples for %d "
                       "unknowns (need more)", m, k);
    /* scaled to nanoseconds for a well-conditioned matrix */
    double *X = calloc((size_t)m * (size_t)k, sizeof *X);
    double *y = malloc(sizeof *y * (size_t)m);
    if (!X || !y) {
        free(X);
        free(y);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    for (int i = 0; i < m; i++) {
        X[(size_t)i * k] = x[i].n * x[i].T_cd * 1e-9;
        X[(size_t)i * k + 1] = x[i].n * x[i].T_ca * 1e-9;
        X[(size_t)i * k + 2 + x[i].packing] = 1.0;
        y[i] = x[i].seconds;
    }
    hg_lsq f;
    int st = hg_lsq_fit(X, y, NULL, m, k, 0, &f);
    free(X);
    free(y);
    if (st == HG_ENOMEM)
        return hg_fail(e, st, "out of memory");
    if (st)
        return hg_fail(e, HG_ENUMERIC, "MercuryDPM fit: least squares "
                       "failed");
    double a = f.coef[0] * 1e-9, b = f.coef[1] * 1e-9;
    if (!(a > 0.0 && b > 0.0))
        return hg_fail(e, HG_ENUMERIC, "MercuryDPM fit: seconds per pair "
                       "check %g and per cell access %g are not both > 0 "
                       "(the settings do not separate the two costs)",
                       a, b);
    double va = f.cov[0] * 1e-18, vb = f.cov[k + 1] * 1e-18;
    double cab = f.cov[1] * 1e-18;
    out->a = a;
    out->b = b;
    out->K = b / a;
    double rel = vb / (b * b) + va / (a * a) - 2.0 * cab / (a * b);
    out->K_se = out->K * sqrt(rel > 0.0 ? rel : 0.0);
    out->n_packings = np;
    for (int p = 0; p < np; p++)
        out->c[p] = f.coef[2 + p];
    double *err = malloc(sizeof *err * (size_t)m);
    if (!err)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    for (int i = 0; i < m; i++) {
        double f = x[i].n * (a * x[i].T_cd + b * x[i].T_ca) +
                   out->c[x[i].packing];
        err[i] = fabs(f / x[i].seconds - 1.0);
        if (err[i] > out->max_error)
            out->max_error = err[i];
    }
    gsl_sort(err, 1, (size_t)m);
    out->median_error = gsl_stats_median_from_sorted_data(err, 1, (size_t)m);
    free(err);
    return HG_OK;
}

/* ---- K for the runners ---- */

int hg_mercurydpm_K_resolve(int dim, double *K, double *a, char *src,
                            size_t len, hg_err *e)
{
    hg_K_request rq = {.engine = &hg_engine_mercurydpm, .dim = dim};
    hg_K_choice c;
    int st = hg_K_resolve(&rq, &c, e);
    if (st)
        return st;
    *K = c.K;
    *a = shipped_a;
    if (c.source == HG_K_SOURCE_CALIBRATION) {
        char path[4096];
        hg_calibration cal;
        if (hg_mercurydpm_calibration_path(path, sizeof path, NULL) ==
                HG_OK &&
            hg_calibration_load(path, dim, &cal, NULL) == HG_OK &&
            cal.a > 0.0)
            *a = cal.a;
    }
    snprintf(src, len, "K = %g (%s: %.300s); predicted: the detection work N a "
             "(T_cd + K T_ca), a = %.3g ns per pair check, without the work "
             "every setting shares", c.K, hg_K_source_name(c.source),
             c.detail, 1e9 * *a);
    return HG_OK;
}
