/* recommend.c - from T(L) curves of candidate cost models to a
 * recommendation: the fewest non-empty levels whose T is within a tolerance
 * of the best T found, the comparison with the best single-level method
 * (linked cell or bin) and the sensitivity of the optimum. */
#include "hg_opt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hg_recommend_options_default(hg_recommend_options *o)
{
    memset(o, 0, sizeof *o);
    o->recipe = HG_RECIPE_OPTIMAL;
    o->q = 1.0;
    o->max_levels = 32;
    o->tolerance = 0.01;
}

int hg_recommend_options_check(const hg_recommend_options *o, hg_err *e)
{
    if (o->n_models < 0 || o->n_models > HG_RECOMMEND_MAX_MODELS)
        return hg_fail(e, HG_EINVAL, "models: %d candidates (0..%d)",
                       o->n_models, HG_RECOMMEND_MAX_MODELS);
    for (int i = 0; i < o->n_models; i++)
        if (!o->models[i])
            return hg_fail(e, HG_EINVAL, "models: candidate %d is NULL",
                           i + 1);
    if ((unsigned)o->recipe >= HG_RECIPE_COUNT)
        return hg_fail(e, HG_EINVAL, "method: %d is unknown", (int)o->recipe);
    if (!(o->q > 0.0) || !isfinite(o->q))
        return hg_fail(e, HG_EINVAL,
                       "q: %g must be a finite ratio > 0 (m_{h+1} = q m_h)",
                       o->q);
    if (o->max_levels < 1 || o->max_levels > 256)
        return hg_fail(e, HG_EINVAL, "max-levels: %d is outside 1..256",
                       o->max_levels);
    if (!(o->tolerance >= 0.0 && o->tolerance < 1.0))
        return hg_fail(e, HG_EINVAL, "tolerance: %g is outside [0, 1)",
                       o->tolerance);
    return HG_OK;
}

void hg_recommendation_clear(hg_recommendation *r)
{
    if (!r)
        return;
    free(r->cell_sizes);
    r->cell_sizes = NULL;
    hg_cost_clear(&r->cost);
    for (int i = 0; i < r->n_curves; i++)
        hg_curve_clear(&r->curves[i]);
    free(r->curves);
    r->curves = NULL;
    r->n_curves = 0;
}

/* Copy the sizes of pt without its empty levels: an empty level h has the
 * same radius interval as nothing, so dropping s_h leaves every other
 * level's interval unchanged; an empty top level is dropped and the level
 * below becomes the top. */
static int merge_empty(const hg_model *m, const hg_psd *psd,
                       const hg_system *sys, const hg_model_values *v,
                       const hg_curve_point *pt, double **sizes, int *n,
                       hg_err *e)
{
    hg_cost c = {0};
    int st = hg_cost_evaluate(m, psd, sys, v, pt->levels, pt->sizes, &c,
                              NULL, e);
    if (st)
        return st;
    double *s = malloc(sizeof *s * (size_t)pt->levels);
    if (!s) {
        hg_cost_clear(&c);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    int k = 0;
    for (int h = 0; h < pt->levels; h++)
        if (c.per_level[h].fraction > 0.0)
            s[k++] = pt->sizes[h];
    hg_cost_clear(&c);
    if (k == 0) { /* cannot happen for a normalised distribution */
        free(s);
        return hg_fail(e, HG_ENUMERIC, "recommend: every level is empty");
    }
    s[k - 1] = fmax(s[k - 1], 2.0 * hg_psd_rmax(psd));
    *sizes = s;
    *n = k;
    return HG_OK;
}

/* The decision in words, with the work against both single-level
 * methods. */
static void decide(hg_recommendation *out, const hg_recommend_options *o)
{
    char *d = out->decision;
    size_t n = sizeof out->decision;
    double tol = 100.0 * o->tolerance;
    char why[96] = ""; /* only when the HGrid was compared */
    if (out->single_level)
        snprintf(why, sizeof why,
                 ": a hierarchical grid gains less than %g %%", tol);
    if (out->model == hg_model_find("bin"))
        snprintf(d, n,
                 "use a single-level grid with cells of half the cutoff "
                 "(bin, cutoff %g)%s; %.3g times less work than a linked "
                 "cell",
                 out->cell_sizes[0], why, out->speedup);
    else if (out->linked_cell)
        snprintf(d, n,
                 "use a single-level linked cell (cell size %g)%s; %.3g "
                 "times less work than bin",
                 out->cell_sizes[0], why, out->speedup_bin);
    else if (out->model->grid_algorithm != HG_GRID_NONE)
        snprintf(d, n,
                 "use a %s hierarchical grid with %d level%s (%s cell "
                 "sizes): T = %.6g per particle, %.3g times less work than a "
                 "linked cell, %.3g times less than bin",
                 hg_algorithm_name(out->model->grid_algorithm), out->levels,
                 out->levels == 1 ? "" : "s", hg_recipe_name(o->recipe), out->cost.T, out->speedup,
                 out->speedup_bin);
    else
        snprintf(d, n,
                 "use %s with %d level%s (%s cell sizes): T = %.6g per "
                 "particle, %.3g times less work than a linked cell, %.3g "
                 "times less than bin",
                 out->model->name, out->levels, out->levels == 1 ? "" : "s",
                 hg_recipe_name(o->recipe),
                 out->cost.T, out->speedup, out->speedup_bin);
}

/* The single-level baselines: users of LAMMPS get `bin` (bins of half
 * the cutoff, stencil pruned to reach), often cheaper than the linked
 * cell; an HGrid is worth its levels only if it beats the better one. */
static int evaluate_baselines(const hg_psd *psd, const hg_system *sys,
                              const hg_model_values *v,
                              hg_recommendation *out, hg_err *e)
{
    hg_single_level *sl = &out->baselines;
    int st = hg_single_level_evaluate(psd, sys, v, sl, e);
    if (st)
        return st;
    out->linked_cell_T = sl->linked_cell.T;
    out->linked_cell_T_cd = sl->linked_cell.T_cd;
    out->linked_cell_T_ca = sl->linked_cell.T_ca;
    out->bin_T = sl->bin.T;
    out->bin_T_cd = sl->bin.T_cd;
    out->bin_T_ca = sl->bin.T_ca;
    out->single_model = sl->cheaper;
    out->single_T = sl->T;
    return HG_OK;
}

/* The T(L) curve of every candidate model of o into out->curves. */
static int compute_curves(const hg_recommend_options *o, const hg_psd *psd,
                          const hg_system *sys, const hg_model_values *v,
                          hg_recommendation *out, hg_err *e)
{
    int nalg = o->n_models;
    if (nalg < 1 || !(out->curves = calloc((size_t)nalg,
                                           sizeof *out->curves)))
        return hg_fail(e, HG_ENOMEM, "out of memory");
    for (int a = 0; a < nalg; a++) {
        int st = hg_curve_compute(o->models[a], psd, sys, v, o->recipe, o->q,
                                  o->max_levels, &out->curves[a], e);
        if (st)
            return st;
        out->n_curves++;
    }
    return HG_OK;
}

/* The point of lowest T over all curves (*best_a: its curve), or NULL. */
static const hg_curve_point *best_point(const hg_recommendation *out,
                                        int *best_a)
{
    const hg_curve_point *best = NULL;
    *best_a = 0;
    for (int a = 0; a < out->n_curves; a++)
        for (int i = 0; i < out->curves[a].n; i++) {
            const hg_curve_point *p = &out->curves[a].points[i];
            if (!best || p->T < best->T) {
                best = p;
                *best_a = a;
            }
        }
    return best;
}

/* The fewest non-empty levels whose T is within the tolerance of the
 * best T (*rec_a: its curve): fewer levels, then a one-level model
 * (LAMMPS' bin before multi with one collection), then the lower T. */
static const hg_curve_point *recommended_point(const hg_recommendation *out,
                                               const hg_recommend_options *o,
                                               double best_T, int *rec_a)
{
    const hg_curve_point *rec = NULL;
    double limit = best_T * (1.0 + o->tolerance);
    *rec_a = 0;
    for (int a = 0; a < out->n_curves; a++)
        for (int i = 0; i < out->curves[a].n; i++) {
            const hg_curve_point *p = &out->curves[a].points[i];
            if (!(p->T <= limit))
                continue;
            int one = o->models[a]->max_levels == 1,
                rec_one = rec && o->models[*rec_a]->max_levels == 1;
            if (!rec || p->nonempty_levels < rec->nonempty_levels ||
                (p->nonempty_levels == rec->nonempty_levels &&
                 (one > rec_one || (one == rec_one && p->T < rec->T)))) {
                rec = p;
                *rec_a = a;
            }
        }
    return rec;
}

/* Sensitivity on the recommended model's curve cv around L*: T at
 * L* - 2 .. L* + 2, and the levels within 5 % of the best T. */
static void sensitivity(hg_recommendation *out, const hg_curve *cv,
                        double best_T)
{
    out->sens_model = cv->model;
    int Ls = out->levels;
    for (int L = Ls - 2; L <= Ls + 2; L++)
        if (L >= 1 && L <= cv->n) {
            out->sens_L[out->n_sens] = L;
            out->sens_T[out->n_sens] = cv->points[L - 1].T;
            out->n_sens++;
        }
    out->within5_lo = out->within5_hi = 0;
    for (int i = 0; i < cv->n; i++)
        if (cv->points[i].T <= 1.05 * best_T) {
            if (!out->within5_lo)
                out->within5_lo = i + 1;
            out->within5_hi = i + 1;
        }
}

int hg_recommend(const hg_psd *psd, const hg_system *sys,
                 const hg_model_values *v, const hg_recommend_options *opt,
                 hg_recommendation *out, hg_err *e)
{
    memset(out, 0, sizeof *out);
    hg_recommend_options o;
    if (opt)
        o = *opt;
    else
        hg_recommend_options_default(&o);
    int st;
    if ((st = hg_recommend_options_check(&o, e)) ||
        (st = hg_system_check(sys, e)))
        return st;
    if (o.n_models == 0) {
        o.models[o.n_models++] = hg_model_find("hgrid-top-down");
        o.models[o.n_models++] = hg_model_find("hgrid-bottom-up");
    }
    out->options = o;
    const hg_model *bin_model = hg_model_find("bin");
    if ((st = evaluate_baselines(psd, sys, v, out, e)))
        return st;
    /* the comparison needs T in the same units: the bundled HGrid's
     * multi-level models (the linked cell is their L = 1); a single-level
     * candidate asked for by name is answered as such */
    int comparable = !o.grid_only;
    for (int a = 0; a < o.n_models; a++)
        comparable &= o.models[a]->grid_algorithm != HG_GRID_NONE &&
                      o.models[a]->max_levels != 1;
    if ((st = compute_curves(&o, psd, sys, v, out, e)))
        goto fail;
    int best_a, rec_a;
    const hg_curve_point *best = best_point(out, &best_a);
    if (!best) {
        st = hg_fail(e, HG_ENUMERIC, "recommend: no grid could be evaluated");
        goto fail;
    }
    const hg_curve_point *rec = recommended_point(out, &o, best->T, &rec_a);
    out->best_T = best->T;
    out->best_at_max_levels = best->levels == o.max_levels &&
                              o.max_levels > 1 &&
                              best->T < best[-1].T * (1.0 - 1e-7);
    out->best_levels = best->nonempty_levels;
    out->best_model = out->curves[best_a].model;
    out->model = out->curves[rec_a].model;
    out->single_level = comparable && !(best->T * (1.0 + o.tolerance) <
                                        out->single_T);
    if (out->single_level && out->single_model == bin_model) {
        out->model = bin_model;
        out->levels = 1;
        if (!(out->cell_sizes = malloc(sizeof *out->cell_sizes))) {
            st = hg_fail(e, HG_ENOMEM, "out of memory");
            goto fail;
        }
        out->cell_sizes[0] = 2.0 * hg_psd_rmax(psd);
    } else if ((st = merge_empty(out->model, psd, sys, v, rec,
                                 &out->cell_sizes, &out->levels, e))) {
        goto fail;
    }
    st = hg_cost_evaluate(out->model, psd, sys, v, out->levels,
                          out->cell_sizes, &out->cost, NULL, e);
    if (st)
        goto fail;
    /* an HGrid of one level is the linked cell */
    out->linked_cell = out->levels == 1 && out->model != bin_model;
    out->speedup = out->linked_cell_T / out->cost.T;
    out->speedup_bin = out->bin_T / out->cost.T;
    sensitivity(out, &out->curves[rec_a], best->T);
    decide(out, &o);
    return HG_OK;
fail:
    hg_recommendation_clear(out);
    return st;
}
