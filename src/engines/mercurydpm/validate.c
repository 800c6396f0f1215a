/* validate.c - validate --engine mercurydpm: the recommendation (K for
 * MercuryDPM) measured in MercuryDPM against its defaults, its neighbours
 * (the other algorithm, a level fewer and more, the single level, inner
 * sizes scaled) and the settings a user's trial and error would try. */
#include "hg_mercurydpm.h"
#include "hg_model.h"
#include "hg_opt.h"
#include "mercurydpm_engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define VAL_CAP 24

/* s with its inner sizes (not the top) scaled by f, kept non-decreasing
 * and below the top. */
static void scaled(const hg_mercurydpm_setting *s, double f,
                   hg_mercurydpm_setting *o)
{
    *o = *s;
    double top = s->sizes[s->levels - 1];
    for (int h = 0; h + 1 < s->levels; h++) {
        o->sizes[h] = fmin(s->sizes[h] * f, top);
        if (h > 0 && o->sizes[h] < o->sizes[h - 1])
            o->sizes[h] = o->sizes[h - 1];
    }
}

static int single_level(const hg_mercurydpm_pack *m,
                        hg_mercurydpm_setting *s, hg_err *e)
{
    return hg_mercurydpm_exponential(m, HG_TOP_DOWN, 1, s, e);
}

/* Measure list[0..n-1] on packing m and add every point to out with its
 * role and predicted seconds (N a T). */
static int measure_into(const hg_mercurydpm_pack *m,
                        const hg_mercurydpm_setting *list,
                        const char *const *roles, int n, int dflt,
                        const hg_engine_run *run, double K, double a,
                        hg_engine_report *out, hg_err *e)
{
    hg_work *w = malloc(sizeof *w * (size_t)n);
    hg_mercurydpm_timing *t = malloc(sizeof *t * (size_t)n);
    int st = !w || !t ? hg_fail(e, HG_ENOMEM, "out of memory") : HG_OK;
    if (st == HG_OK)
        st = hg_mercurydpm_measure(m, list, n, run, K, w, t, e);
    for (int i = 0; i < n && st == HG_OK; i++) {
        double sizes[HG_MERCURYDPM_MAX_LEVELS];
        if ((st = hg_mercurydpm_setting_sizes(m, &list[i], sizes, e)) ==
            HG_OK)
            st = hg_mercurydpm_report_add(out, roles[i], i == dflt, m, K,
                                          &list[i], sizes,
                                          t[i].with_ghosts * a * w[i].T,
                                          &t[i], e);
    }
    free(w);
    free(t);
    return st;
}

/* The rest of validate's search, after the recommendation and its
 * neighbours: MercuryDPM-style exponential sizes of 2..5 levels with
 * either algorithm and the model's optima for K/4 and 4K, the way the
 * settings of a user's trial and error spread. Settings predicted slower
 * than HG_MERCURYDPM_SLOWEST times the recommendation are left out (they
 * cost seconds per step and their rank is never in doubt). */
static int search_settings(const hg_mercurydpm_pack *m, double K, int maxL,
                           hg_mercurydpm_setting *list, const char **roles,
                           int *n, hg_err *e)
{
    hg_work w0, w;
    hg_mercurydpm_setting o, d; /* d: MercuryDPM's defaults as sizes */
    hg_mercurydpm_setting_default(&d);
    int st = hg_mercurydpm_predict(m, &list[0], K, &w0, e);
    if (st == HG_OK)
        st = hg_mercurydpm_exponential(m, d.algorithm, d.levels, &d, e);
    for (int L = 2; L <= 5 && L <= maxL && st == HG_OK; L++)
        for (int a = 0; a < 2 && st == HG_OK; a++) {
            hg_algorithm alg = a ? HG_BOTTOM_UP : HG_TOP_DOWN;
            if ((st = hg_mercurydpm_exponential(m, alg, L, &o, e)) ||
                (st = hg_mercurydpm_predict(m, &o, K, &w, e)))
                break;
            int k;
            if (w.T <= HG_MERCURYDPM_SLOWEST * w0.T &&
                !hg_mercurydpm_setting_same(&o, &d) &&
                (k = hg_mercurydpm_setting_add(list, n, VAL_CAP, &o)) ==
                    *n - 1)
                roles[k] = "exponential sizes";
        }
    static const double f[] = {0.25, 4.0};
    static const char *const fr[] = {"optimum for K / 4", "optimum for 4 K"};
    for (int i = 0; i < 2 && st == HG_OK; i++) {
        int k;
        if ((st = hg_mercurydpm_optimum(m, f[i] * K, HG_GRID_NONE, maxL, &o,
                                        e)) == HG_OK &&
            (k = hg_mercurydpm_setting_add(list, n, VAL_CAP, &o)) == *n - 1)
            roles[k] = fr[i];
    }
    return st;
}

/* The recommendation's neighbours after it and the defaults in list (n
 * entries): the other algorithm, one level fewer and one more (the sizes
 * optimised for L + 1 levels), the single level unless the model puts it
 * far beyond the recommendation (then a note in out), and the inner sizes
 * scaled by 0.8 and 1.25. */
static int neighbours(const hg_mercurydpm_pack *m, double K, int maxL,
                      const hg_mercurydpm_setting *s,
                      hg_mercurydpm_setting *list, const char **roles,
                      int *n, hg_engine_report *out, hg_err *e)
{
    hg_mercurydpm_setting o;
    int st = HG_OK, k;
    hg_algorithm other = s->algorithm == HG_TOP_DOWN ? HG_BOTTOM_UP
                                                     : HG_TOP_DOWN;
    if (s->levels > 1 &&
        (st = hg_mercurydpm_optimum(m, K, other, maxL, &o, e)) == HG_OK &&
        (k = hg_mercurydpm_setting_add(list, n, VAL_CAP, &o)) == *n - 1)
        roles[k] = "other algorithm";
    if (st == HG_OK && s->levels > 1 &&
        (st = hg_mercurydpm_optimum(m, K, s->algorithm, s->levels - 1, &o,
                                    e)) == HG_OK &&
        (k = hg_mercurydpm_setting_add(list, n, VAL_CAP, &o)) == *n - 1)
        roles[k] = "one level fewer";
    if (st == HG_OK && s->levels < maxL) {
        int L = s->levels + 1;
        double T;
        hg_model_values v;
        o = *s;
        o.levels = L;
        if ((st = hg_mercurydpm_values(&v, K, e)) == HG_OK &&
            (st = hg_opt_sizes(hg_mercurydpm_model(s->algorithm), m->psd,
                               &m->sys, &v, L, NULL, o.sizes, &T, e)) ==
                HG_OK &&
            (k = hg_mercurydpm_setting_add(list, n, VAL_CAP, &o)) == *n - 1)
            roles[k] = "one level more";
    }
    /* the single level, unless the model puts it far beyond the
     * recommendation: its seconds per step would decide nothing */
    hg_work w1, w0;
    if (st == HG_OK && (st = single_level(m, &o, e)) == HG_OK &&
        (st = hg_mercurydpm_predict(m, &o, K, &w1, e)) == HG_OK &&
        (st = hg_mercurydpm_predict(m, &list[0], K, &w0, e)) == HG_OK) {
        if (w1.T > HG_MERCURYDPM_SLOWEST * w0.T)
            snprintf(out->note, sizeof out->note,
                     "the single-level grid (cells %.6g) is left out: the "
                     "model puts it at %.3g times the recommendation's "
                     "work (over %.0f), where timing it decides nothing "
                     "and costs minutes",
                     o.sizes[0], w1.T / w0.T, HG_MERCURYDPM_SLOWEST);
        else if ((k = hg_mercurydpm_setting_add(list, n, VAL_CAP, &o)) ==
                 *n - 1)
            roles[k] = "single level";
    }
    if (st == HG_OK && s->levels > 1) {
        scaled(s, 0.8, &o);
        if ((k = hg_mercurydpm_setting_add(list, n, VAL_CAP, &o)) == *n - 1)
            roles[k] = "inner sizes x 0.8";
        scaled(s, 1.25, &o);
        if ((k = hg_mercurydpm_setting_add(list, n, VAL_CAP, &o)) == *n - 1)
            roles[k] = "inner sizes x 1.25";
    }
    return st;
}

int hg_mercurydpm_validate(const hg_engine_run *run, hg_engine_report *out,
                           hg_err *e)
{
    hg_engine_report_init(out);
    int st = hg_mercurydpm_run_check(run, 1, e);
    if (st)
        return st;
    double t0 = hg_wall_seconds();
    hg_mercurydpm_pack m;
    if ((st = hg_mercurydpm_pack_init(run, run->packings[0], 1, &m, e)))
        return st;
    double K, a;
    int maxL = run->max_levels > 0 ? run->max_levels : 16;
    if (maxL > HG_MERCURYDPM_MAX_LEVELS)
        maxL = HG_MERCURYDPM_MAX_LEVELS;
    hg_mercurydpm_setting list[VAL_CAP], s;
    const char *roles[VAL_CAP];
    int n = 0;
    if ((st = hg_mercurydpm_K_resolve(m.sys.dim, &K, &a, out->constants,
                                      sizeof out->constants, e)) ||
        (st = hg_mercurydpm_optimum(&m, K, HG_GRID_NONE, maxL, &s, e)))
        goto done;
    hg_mercurydpm_report_program(out, run);
    hg_mercurydpm_setting_normalize(&s, &list[n]);
    roles[n++] = "recommended";
    const int dflt = n; /* MercuryDPM's default: the report's baseline */
    hg_mercurydpm_setting_default(&list[n]);
    roles[n++] = "default";
    st = neighbours(&m, K, maxL, &s, list, roles, &n, out, e);
    if (st == HG_OK)
        st = search_settings(&m, K, maxL, list, roles, &n, e);
    if (st ||
        (st = measure_into(&m, list, roles, n, dflt, run, K, a, out, e)))
        goto done;
    out->recommended = 0;
    out->settings_measured = n * run->repeats;
    out->rounds = 1;
    hg_engine_report_finish(out);
done:
    hg_mercurydpm_pack_clear(&m);
    out->seconds = hg_wall_seconds() - t0;
    return st;
}
