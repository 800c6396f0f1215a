/* calibrate.c - the LIGGGHTS cost constants: fitted to measured Neigh
 * times (hg_lsq_fit) and, stored and loaded as every code's (hg_consts.h); and
 * measuring bin sizes on a packing with the model's prediction beside. */
#include "hg_io.h"
#include "hg_lammps.h"
#include "hg_liggghts.h"
#include "hg_snapshot.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void work_terms(const hg_liggghts_work *w, double *x)
{
    x[0] = w->checks;
    x[1] = w->visits;
    x[2] = w->lines;
    x[3] = w->bins;
    x[4] = w->binned;
    x[5] = w->neighbours;
}

/* The terms of the fit (M, in the order of work_terms) and the first M1
 * of them, those that change with the bin size. */
enum { M = HG_LIGGGHTS_NTERMS, M1 = 4 };

/* The systems of the n rows (rows sharing binned and neighbours): each
 * row's terms into X (n x M), its system into grp, and per system g its
 * mean terms, mean time and row count into gm[g * (M + 2) ...] (zeroed by
 * the caller). Returns the number of systems. */
static int system_means(const hg_liggghts_work *w, const double *y, int n,
                        double *X, int *grp, double *gm)
{
    int ng = 0;
    for (int i = 0; i < n; i++) {
        work_terms(&w[i], X + (size_t)i * M);
        int g = 0;
        for (; g < i; g++)
            if (w[g].binned == w[i].binned &&
                w[g].neighbours == w[i].neighbours)
                break;
        grp[i] = g < i ? grp[g] : ng++;
        double *m = gm + (size_t)grp[i] * (M + 2);
        for (int k = 0; k < M; k++)
            m[k] += X[(size_t)i * M + k];
        m[M] += y[i];
        m[M + 1] += 1.0;
    }
    for (int g = 0; g < ng; g++) {
        double *m = gm + (size_t)g * (M + 2);
        for (int k = 0; k <= M; k++)
            m[k] /= m[M + 1];
    }
    return ng;
}

/* Stage 1: coef and se of the M1 bin-size terms, from the deviations of
 * the rows from their system's means, relative to the system's mean
 * time. */
static int fit_within_systems(const double *X, const double *y, int n,
                              const int *grp, const double *gm, double *coef,
                              double *se, hg_err *e)
{
    double *X1 = malloc(sizeof *X1 * (size_t)n * M1);
    double *d = malloc(sizeof *d * (size_t)n);
    double *wt = malloc(sizeof *wt * (size_t)n);
    int st = HG_OK;
    hg_lsq f1;
    if (!X1 || !d || !wt) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        const double *m = gm + (size_t)grp[i] * (M + 2);
        for (int k = 0; k < M1; k++)
            X1[(size_t)i * M1 + k] = X[(size_t)i * M + k] - m[k];
        d[i] = y[i] - m[M];
        wt[i] = 1.0 / (m[M] * m[M]);
    }
    if (hg_lsq_fit(X1, d, wt, n, M1, 1, &f1)) {
        st = hg_fail(e, HG_ENUMERIC, "LIGGGHTS fit: least squares failed "
                                     "(degenerate bin sizes?)");
        goto done;
    }
    for (int k = 0; k < M1; k++) {
        coef[k] = f1.coef[k];
        se[k] = f1.se[k];
    }
done:
    free(X1);
    free(d);
    free(wt);
    return st;
}

/* Stage 2: c2 and s2 of binned and neighbours, from what the bin-size
 * terms coef leave of the first 64 systems' mean times (at least a
 * thousandth of each); binned alone with fewer than three systems or when
 * that fit fails. */
static void fit_between_systems(const double *gm, int ng, const double *coef,
                                double c2[2], double s2[2])
{
    double X2[2 * 64], r[64];
    c2[0] = c2[1] = s2[0] = s2[1] = 0.0;
    int n2 = ng < 64 ? ng : 64;
    for (int g = 0; g < n2; g++) {
        const double *m = gm + (size_t)g * (M + 2);
        double rest = m[M];
        for (int k = 0; k < M1; k++)
            rest -= coef[k] * m[k];
        r[g] = fmax(rest, 1e-3 * m[M]);
        X2[2 * g] = m[M1];
        X2[2 * g + 1] = m[M1 + 1];
    }
    hg_lsq f2;
    if (n2 >= 3) {
        if (hg_lsq_fit(X2, r, NULL, n2, 2, 1, &f2))
            n2 = -1;
        for (int k = 0; n2 >= 3 && k < 2; k++) {
            c2[k] = f2.coef[k];
            s2[k] = f2.se[k];
        }
    }
    if (n2 < 3) { /* binned alone */
        double a = 0.0, b = 0.0;
        for (int g = 0; g < ng && g < 64; g++) {
            a += r[g] / X2[2 * g];
            b += 1.0;
        }
        c2[0] = b > 0.0 ? a / b : 0.0;
        c2[1] = 0.0;
    }
}

/* R^2 of the whole prediction, relative residuals. */
static double fit_r2(const hg_consts *c, const hg_liggghts_work *w,
                     const double *y, int n)
{
    double sw = 0.0, swy = 0.0, tss = 0.0, rss = 0.0;
    for (int i = 0; i < n; i++) {
        sw += 1.0 / (y[i] * y[i]);
        swy += 1.0 / y[i];
    }
    for (int i = 0; i < n; i++) {
        double pr = hg_liggghts_predict(c, &w[i]);
        tss += (y[i] - swy / sw) * (y[i] - swy / sw) / (y[i] * y[i]);
        rss += (y[i] - pr) * (y[i] - pr) / (y[i] * y[i]);
    }
    return tss > 0.0 ? 1.0 - rss / tss : 0.0;
}

/* Two stages, so that the noise between systems (whose per-system work,
 * binned atoms and stored neighbours, does not change with the bin size)
 * does not bend the constants that rank bin sizes:
 *  1. within each system (the rows sharing binned and neighbours), the
 *     deviations of the times from the system's mean against those of
 *     checks, visits, lines and bins, relative to the system's mean time;
 *  2. what is left of each system's mean against binned and neighbours
 *     (relative residuals; binned alone with fewer than three systems). */
int hg_liggghts_fit(const hg_liggghts_work *w, const double *y, int n,
                    hg_consts *c, hg_err *e)
{
    if (n < M + 2)
        return hg_fail(e, HG_EINVAL,
                       "LIGGGHTS fit: %d measurements, at least %d needed", n,
                       M + 2);
    for (int i = 0; i < n; i++)
        if (!(y[i] > 0.0) || !isfinite(y[i]))
            return hg_fail(e, HG_EINVAL,
                           "LIGGGHTS fit: measured time %d is %g, not > 0", i,
                           y[i]);
    int *grp = malloc(sizeof *grp * (size_t)n);
    double *X = malloc(sizeof *X * (size_t)n * M);
    double *gm = calloc((size_t)n * (M + 2), sizeof *gm);
    double coef[M] = {0}, se[M] = {0}, c2[2], s2[2];
    int st = HG_OK;
    if (!grp || !X || !gm) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    int ng = system_means(w, y, n, X, grp, gm);
    if ((st = fit_within_systems(X, y, n, grp, gm, coef, se, e)))
        goto done;
    fit_between_systems(gm, ng, coef, c2, s2);
    if (!(coef[0] > 0.0)) {
        st = hg_fail(e, HG_ENUMERIC,
                     "LIGGGHTS fit: the fetched atoms got no cost (too few "
                     "or too noisy measurements: more steps or repeats)");
        goto done;
    }
    coef[M1] = c2[0];
    coef[M1 + 1] = c2[1];
    se[M1] = s2[0];
    se[M1 + 1] = s2[1];
    for (int k = 0; k < M; k++) {
        c->c[k] = coef[k];
        c->se[k] = se[k];
    }
    c->r2 = fit_r2(c, w, y, n);
    c->npoints = n;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(c->created, sizeof c->created, "%Y-%m-%dT%H:%M:%SZ", &tm);
done:
    free(grp);
    free(X);
    free(gm);
    return st;
}

int hg_liggghts_system_of(const hg_particles *p, const hg_system *sys,
                          double skin, int nprocs, hg_liggghts_system *out,
                          hg_err *e)
{
    memset(out, 0, sizeof *out);
    out->dim = p->dim;
    out->atoms = (double)p->n;
    out->skin = skin;
    out->nprocs = nprocs;
    out->nu = hg_particles_packing_fraction(p);
    if (sys) {
        out->structure = sys->structure;
        out->snapshot = sys->snapshot;
        if (sys->nu > 0.0 && sys->nu < 1.0)
            out->nu = sys->nu;
    }
    for (int c = 0; c < p->dim; c++) {
        out->box[c] = p->hi[c] - p->lo[c];
        out->boundary[c] = hg_particles_axis_periodic(p, c) ? 'p' : 'f';
    }
    return hg_liggghts_system_check(out, e);
}

int hg_liggghts_measure(const hg_particles *p, const hg_psd *psd,
                        const hg_liggghts_system *sys, const double *b,
                        int n, const hg_liggghts_run_options *o,
                        const hg_consts *c, hg_liggghts_point *out,
                        hg_err *e)
{
    if (n < 1)
        return hg_fail(e, HG_EINVAL, "no bin size to measure");
    hg_liggghts_timing *t = calloc((size_t)n, sizeof *t);
    if (!t)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    int st = HG_OK;
    for (int i = 0; st == HG_OK && i < n; i++) {
        out[i].binsize = b[i];
        st = hg_liggghts_work_eval(psd, sys, b[i], &out[i].work, e);
        out[i].predicted = c ? hg_liggghts_predict(c, &out[i].work) : 0.0;
    }
    if (st == HG_OK)
        st = hg_liggghts_run(p, b, n, o, t, e);
    for (int i = 0; st == HG_OK && i < n; i++)
        out[i].timing = t[i];
    free(t);
    return st;
}

int hg_liggghts_scan_sizes(double cut, double *out, int cap)
{
    static const double f[] = {0.25, 0.35, 0.5, 0.7, 1.0, 1.25, 1.5};
    int k = 0;
    for (size_t i = 0; i < sizeof f / sizeof f[0] && k < cap; i++)
        out[k++] = f[i] * cut;
    return k;
}
