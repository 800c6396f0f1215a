/* lammps_opt.c - the collection cutoffs that minimise the predicted Neigh
 * time of LAMMPS' multi build (models/lammps.c).
 *
 * The predicted time is piecewise smooth: the stencil sizes and bin counts
 * are integers that jump where a cutoff ratio or box/bin ratio crosses a
 * threshold, so the optimiser is derivative-free (NLopt LN_SBPLX on the
 * logarithms of the interior cutoffs) from several starts: geometric
 * spacing, equal numbers of atoms, equal volumes, the best setting with
 * one collection fewer split at each gap, and for two collections a scan
 * of the single cutoff.
 */
#include "hg_lammps.h"

#include <math.h>
#include <nlopt.h>
#include <stdlib.h>
#include <string.h>

typedef struct opt_ctx {
    const hg_psd *psd;
    const hg_lammps_system *sys;
    const hg_consts *c;
    int n;         /* collections */
    double dmax;
    int fail;
} opt_ctx;

/* Setting from n-1 log cutoffs (sorted; equal ones pushed apart). */
static void setting_of(const opt_ctx *c, const double *x,
                       hg_lammps_setting *s)
{
    memset(s, 0, sizeof *s);
    s->ncoll = c->n;
    for (int i = 0; i < c->n - 1; i++)
        s->cut[i] = exp(x[i]);
    qsort(s->cut, (size_t)(c->n - 1), sizeof s->cut[0], hg_cmp_double);
    s->cut[c->n - 1] = c->dmax;
    for (int i = 1; i < c->n; i++)
        if (!(s->cut[i] > s->cut[i - 1]))
            s->cut[i - 1] = s->cut[i] * (1.0 - 1e-9 * (c->n - i));
    for (int i = c->n - 2; i > 0; i--)
        if (!(s->cut[i] > s->cut[i - 1]))
            s->cut[i - 1] = s->cut[i] * (1.0 - 1e-9);
}

static double time_of(const opt_ctx *c, const hg_lammps_setting *s)
{
    hg_lammps_work w;
    if (hg_lammps_work_eval(c->psd, c->sys, s, &w, NULL))
        return HUGE_VAL;
    return hg_lammps_predict(c->c, &w);
}

static double objective(unsigned n, const double *x, double *grad,
                        void *data)
{
    (void)n;
    (void)grad;
    opt_ctx *c = data;
    hg_lammps_setting s;
    setting_of(c, x, &s);
    return time_of(c, &s);
}

/* Minimise from start x (n-1 logs); keeps the best in *best. */
static void descend(opt_ctx *c, const double *x0, double lo, double hi,
                    hg_lammps_setting *best, double *tbest)
{
    int m = c->n - 1;
    double x[HG_LAMMPS_MAX_COLLECTIONS], lb[HG_LAMMPS_MAX_COLLECTIONS],
        ub[HG_LAMMPS_MAX_COLLECTIONS], step[HG_LAMMPS_MAX_COLLECTIONS];
    for (int i = 0; i < m; i++) {
        lb[i] = lo;
        ub[i] = hi;
        x[i] = fmin(fmax(x0[i], lo), hi);
        step[i] = 0.15 * (hi - lo) / (m + 1);
    }
    nlopt_opt o = nlopt_create(NLOPT_LN_SBPLX, (unsigned)m);
    if (!o) {
        c->fail = 1;
        return;
    }
    nlopt_set_min_objective(o, objective, c);
    nlopt_set_lower_bounds(o, lb);
    nlopt_set_upper_bounds(o, ub);
    nlopt_set_initial_step(o, step);
    nlopt_set_xtol_rel(o, 1e-5);
    nlopt_set_maxeval(o, 300 * m);
    double f = HUGE_VAL;
    nlopt_optimize(o, x, &f);
    nlopt_destroy(o);
    hg_lammps_setting s;
    setting_of(c, x, &s);
    double t = time_of(c, &s);
    if (t < *tbest) {
        *tbest = t;
        *best = s;
    }
}

/* Radius at which the partial moment k reaches the share u of its total. */
static double moment_quantile(const hg_psd *psd, int k, double u)
{
    double rmin = hg_psd_rmin(psd), rmax = hg_psd_rmax(psd);
    double total = hg_psd_moment(psd, k, 0.0, rmax);
    double a = rmin, b = rmax;
    for (int it = 0; it < 60; it++) {
        double m = 0.5 * (a + b);
        if (hg_psd_moment(psd, k, 0.0, m) < u * total)
            a = m;
        else
            b = m;
    }
    return 0.5 * (a + b);
}

int hg_lammps_optimise(const hg_psd *psd, const hg_lammps_system *sys,
                       const hg_consts *c, int max_coll, double tol,
                       hg_lammps_optimum *out, hg_err *e)
{
    memset(out, 0, sizeof *out);
    if (max_coll < 1 || max_coll > HG_LAMMPS_MAX_COLLECTIONS)
        return hg_fail(e, HG_EINVAL, "max collections: %d is outside 1..%d",
                       max_coll, HG_LAMMPS_MAX_COLLECTIONS);
    if (!(tol >= 0.0 && tol < 1.0))
        return hg_fail(e, HG_EINVAL, "tolerance: %g is outside [0, 1)", tol);
    int st = hg_lammps_system_check(sys, e);
    if (st)
        return st;
    double dmin = 2.0 * hg_psd_rmin(psd), dmax = 2.0 * hg_psd_rmax(psd);
    out->max_coll = max_coll;
    opt_ctx ctx = {psd, sys, c, 1, dmax, 0};
    hg_lammps_work w;
    hg_lammps_setting bin = {0};
    if ((st = hg_lammps_work_eval(psd, sys, &bin, &w, e)))
        return st;
    out->by_n_seconds[0] = out->bin_seconds = hg_lammps_predict(c, &w);
    out->by_n[1].ncoll = 1;
    out->by_n[1].cut[0] = dmax;
    out->by_n_seconds[1] = time_of(&ctx, &out->by_n[1]);
    /* interior cutoffs between just above the smallest diameter and just
     * below the largest */
    double lo = log(dmin), hi = log(dmax) - 1e-6;
    for (int n = 2; n <= max_coll && dmax > dmin * (1.0 + 1e-6); n++) {
        ctx.n = n;
        int m = n - 1;
        hg_lammps_setting best = {0};
        double tbest = HUGE_VAL;
        double x[HG_LAMMPS_MAX_COLLECTIONS];
        for (int i = 0; i < m; i++) /* geometric */
            x[i] = lo + (hi - lo) * (i + 1) / n;
        descend(&ctx, x, lo, hi, &best, &tbest);
        for (int k = 0; k <= sys->dim; k += sys->dim) {
            for (int i = 0; i < m; i++) /* equal shares of number/volume */
                x[i] = log(2.0 * moment_quantile(psd, k, (i + 1.0) / n));
            descend(&ctx, x, lo, hi, &best, &tbest);
        }
        const hg_lammps_setting *prev = &out->by_n[n - 1];
        for (int gap = 0; gap < n - 1; gap++) { /* split a gap */
            int k = 0;
            for (int i = 0; i < n - 2; i++)
                x[k++] = log(prev->cut[i]);
            double a = gap == 0 ? dmin : prev->cut[gap - 1];
            x[k++] = 0.5 * (log(a) + log(prev->cut[gap]));
            descend(&ctx, x, lo, hi, &best, &tbest);
        }
        if (n == 2)
            for (int i = 1; i < 40; i++) {
                x[0] = lo + (hi - lo) * i / 40.0;
                hg_lammps_setting s;
                setting_of(&ctx, x, &s);
                double t = time_of(&ctx, &s);
                if (t < tbest) {
                    tbest = t;
                    best = s;
                    descend(&ctx, x, lo, hi, &best, &tbest);
                }
            }
        if (ctx.fail)
            return hg_fail(e, HG_ENOMEM, "out of memory (NLopt)");
        out->by_n[n] = best;
        out->by_n_seconds[n] = tbest;
        if (!isfinite(tbest))
            return hg_fail(e, HG_ENUMERIC,
                           "no finite predicted time with %d collections",
                           n);
    }
    int top = max_coll;
    if (!(dmax > dmin * (1.0 + 1e-6)))
        top = 1;
    double tmin = out->by_n_seconds[0];
    for (int n = 1; n <= top; n++)
        tmin = fmin(tmin, out->by_n_seconds[n]);
    /* the fewest collections within tol; bin before one collection */
    for (int n = 0; n <= top; n++)
        if (out->by_n_seconds[n] <= tmin * (1.0 + tol)) {
            out->best = out->by_n[n];
            out->seconds = out->by_n_seconds[n];
            break;
        }
    for (int n = top + 1; n <= HG_LAMMPS_MAX_COLLECTIONS; n++)
        out->by_n_seconds[n] = NAN;
    return HG_OK;
}
