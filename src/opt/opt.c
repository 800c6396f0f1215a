/* opt.c - optimal cell sizes for a given number of levels (KOL 2014
 * section 5.2.4) and T as a function of L for every recipe, for any cost
 * model (hg_model.h).
 *
 * Parametrisation: with Lambda = ln(s_L / s_0) and weights w_i = exp(u_i)
 * (i = 1..L, u_L = 0), ln s_h = ln s_0 + Lambda S_h / S_L where
 * S_h = w_1 + ... + w_h. Every u in R^(L-1) gives strictly increasing sizes
 * between s_0 and s_L, so the ordering constraint disappears and NLopt's
 * unconstrained LD_LBFGS can be used with the chain rule
 *   dT/du_i = w_i Lambda [ sum_{h>=i} g_h / S_L - sum_h g_h S_h / S_L^2 ],
 *   g_h = s_h dT/ds_h (the model's gradient).
 * Collapsed levels (w_i -> 0) are reached as the limit; they are handled by
 * comparing with the optimum for fewer levels. */
#include "hg_opt.h"
#include "opt_internal.h"

#include <math.h>
#include <nlopt.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const hg_model *model;
    hg_model_input in; /* psd, system, parameters, smoothing; sizes = s */
    int L;
    double y0, lam, sL;
    double *s, *g, *w, *S;
    double run_best; /* best T evaluated in the current NLopt run */
    double *run_u;   /* its parameters */
    long nevals;
} opt_ctx;

/* u (L-1 values) -> s (L values). */
static void u_to_s(opt_ctx *c, const double *u)
{
    int L = c->L;
    double acc = 0.0, umax = 0.0;
    for (int i = 0; i < L - 1; i++)
        umax = fmax(umax, u[i]);
    for (int i = 0; i < L; i++) {
        c->w[i] = exp((i < L - 1 ? u[i] : 0.0) - umax);
        acc += c->w[i];
        c->S[i] = acc;
    }
    for (int h = 0; h < L - 1; h++)
        c->s[h] = fmin(exp(c->y0 + c->lam * c->S[h] / acc), c->sL);
    c->s[L - 1] = c->sL; /* exactly 2 r_max: no sliver of a level above */
}

/* s (L sizes, non-decreasing) -> u, with increments floored at a tiny
 * fraction of Lambda so that a collapsed start stays representable. */
static void s_to_u(opt_ctx *c, const double *s, double *u)
{
    int L = c->L;
    double prev = c->y0, floor_ = 1e-6 * c->lam;
    double wl = fmax(c->lam - (log(s[L - 2]) - c->y0), floor_);
    for (int i = 0; i < L - 1; i++) {
        double y = log(s[i]);
        u[i] = log(fmax(y - prev, floor_) / wl);
        prev = fmax(y, prev);
    }
}

static double objective(unsigned n, const double *u, double *grad, void *p)
{
    opt_ctx *c = p;
    int L = c->L;
    u_to_s(c, u);
    c->nevals++;
    double T = HUGE_VAL;
    int st = hg_model_gradient(c->model, &c->in, &T, grad ? c->g : NULL,
                               NULL);
    if (st || !isfinite(T)) {
        if (grad)
            for (unsigned i = 0; i < n; i++)
                grad[i] = 0.0;
        return HUGE_VAL;
    }
    if (grad) {
        double SL = c->S[L - 1], tail = 0.0, mix = 0.0;
        for (int h = 0; h < L - 1; h++)
            mix += c->g[h] * c->s[h] * c->S[h];
        mix /= SL * SL;
        for (int i = L - 2; i >= 0; i--) {
            tail += c->g[i] * c->s[i];
            grad[i] = c->w[i] * c->lam * (tail / SL - mix);
        }
    }
    /* NLopt may stop with a failure code (e.g. a line search that cannot
     * progress at round-off level): the best point seen is kept here. */
    if (T < c->run_best) {
        c->run_best = T;
        memcpy(c->run_u, u, sizeof *u * n);
    }
    return T;
}

/* Run every start (the first to full accuracy, the others to a loose
 * tolerance, continued only if then already better) and keep the best in
 * *best / best_u. */
static void run_starts(nlopt_opt o, opt_ctx *c, int n,
                       const double *const *starts, int nstarts, double *u,
                       double *best, double *best_u)
{
    int first = 1;
    for (int k = 0; k < nstarts; k++) {
        if (!starts[k])
            continue;
        s_to_u(c, starts[k], u);
        for (int pass = first ? 1 : 0; pass < 2; pass++) {
            nlopt_set_ftol_rel(o, pass ? 1e-11 : 1e-5);
            nlopt_set_xtol_rel(o, pass ? 1e-9 : 1e-4);
            nlopt_set_maxeval(o, pass ? 200 + 60 * n : 20 + 3 * n);
            double f = HUGE_VAL;
            c->run_best = HUGE_VAL;
            nlopt_optimize(o, u, &f); /* any outcome: use the best seen */
            if (!(c->run_best < *best))
                break; /* not (yet) better than an earlier start */
            memcpy(u, c->run_u, sizeof *u * (size_t)n);
            if (pass == 1) {
                *best = c->run_best;
                memcpy(best_u, u, sizeof *u * (size_t)n);
            }
        }
        first = 0;
    }
}

/* T of the sizes the optimiser found (or of the fixed ones). */
static int final_T(const hg_model *m, const hg_model_input *in, int L,
                   const double *sizes, double *T, hg_err *e)
{
    hg_model_input at = *in;
    hg_work w;
    at.L = L;
    at.sizes = sizes;
    int st = hg_model_evaluate(m, &at, NULL, &w, e);
    if (!st && T)
        *T = w.T;
    return st;
}

int hg_opt_sizes_with(const hg_model *m, const hg_psd *psd,
                      const hg_system *sys, const hg_model_values *v, int L,
                      const double *const *starts, int nstarts, int algorithm,
                      double *sizes, double *T, long *nevals, hg_err *e)
{
    hg_model_input in;
    int st;
    if ((st = hg_model_prepare(m, psd, sys, v, &in, e)))
        return st;
    if (L < 1 || L > 100000)
        return hg_fail(e, HG_EINVAL, "levels: %d is outside 1..100000", L);
    double s0 = 2.0 * hg_psd_rmin(psd), sL = 2.0 * hg_psd_rmax(psd);
    if (L == 1 || !(sL > s0) || m->max_levels == 1) {
        for (int h = 0; h < L; h++)
            sizes[h] = sL;
        return final_T(m, &in, L, sizes, T, e);
    }
    int n = L - 1, hybrid = algorithm == HG_OPT_SMOOTHED_THEN_SBPLX;
    double *mem = malloc(sizeof *mem * (size_t)(7 * L));
    nlopt_opt o = nlopt_create(
        hybrid ? NLOPT_LD_LBFGS : (nlopt_algorithm)algorithm, (unsigned)n);
    nlopt_opt polish =
        hybrid ? nlopt_create(NLOPT_LN_SBPLX, (unsigned)n) : NULL;
    if (!mem || !o || (hybrid && !polish)) {
        free(mem);
        nlopt_destroy(o);
        nlopt_destroy(polish);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    opt_ctx c = {m,           in,          L,           log(s0),
                 log(sL / s0), sL,         mem,         mem + L,
                 mem + 2 * L, mem + 3 * L, HUGE_VAL,    mem + 6 * L,
                 0};
    c.in.L = L;
    c.in.sizes = c.s;
    c.in.smooth = hybrid ? 0.02 : 0.0;
    double *u = mem + 4 * L, *best_u = mem + 5 * L;
    double best = HUGE_VAL;
    nlopt_set_min_objective(o, objective, &c);
    if (algorithm == NLOPT_LD_LBFGS || hybrid)
        nlopt_set_vector_storage(o, n < 10 ? (unsigned)n : 10u);
    if (algorithm == NLOPT_LN_SBPLX || algorithm == NLOPT_LN_NELDERMEAD)
        nlopt_set_initial_step1(o, 0.5);
    run_starts(o, &c, n, starts, nstarts, u, &best, best_u);
    if (hybrid && best < HUGE_VAL) {
        /* T of a discrete distribution jumps where a boundary crosses an
         * atom: the smoothed gradient gets close, a derivative-free search
         * on the exact T finishes. */
        nlopt_set_min_objective(polish, objective, &c);
        nlopt_set_initial_step1(polish, 0.05);
        nlopt_set_ftol_rel(polish, 1e-11);
        nlopt_set_xtol_rel(polish, 1e-9);
        nlopt_set_maxeval(polish, 200 + 60 * n);
        memcpy(u, best_u, sizeof *u * (size_t)n);
        double f = HUGE_VAL;
        c.run_best = HUGE_VAL;
        nlopt_optimize(polish, u, &f);
        if (c.run_best < best) {
            best = c.run_best;
            memcpy(best_u, c.run_u, sizeof *u * (size_t)n);
        }
    }
    nlopt_destroy(o);
    nlopt_destroy(polish);
    if (!(best < HUGE_VAL)) {
        free(mem);
        return hg_fail(e, HG_ENUMERIC,
                       "optimal: NLopt found no finite T for L = %d", L);
    }
    u_to_s(&c, best_u);
    memcpy(sizes, c.s, sizeof *sizes * (size_t)L);
    if (nevals)
        *nevals += c.nevals;
    free(mem);
    /* Evaluate exactly (the objective may have seen rounding at s_L). */
    return final_T(m, &in, L, sizes, T, e);
}

int hg_opt_default_algorithm(const hg_psd *psd)
{
    return hg_psd_is_discrete(psd) ? HG_OPT_SMOOTHED_THEN_SBPLX
                                   : NLOPT_LD_LBFGS;
}

int hg_opt_sizes(const hg_model *m, const hg_psd *psd, const hg_system *sys,
                 const hg_model_values *v, int L, const double *start,
                 double *sizes, double *T, hg_err *e)
{
    int st;
    if ((st = hg_system_check(sys, e)))
        return st;
    if (L < 1 || L > 100000)
        return hg_fail(e, HG_EINVAL, "levels: %d is outside 1..100000", L);
    double *buf = malloc(sizeof *buf * 2 * (size_t)L);
    if (!buf)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    st = hg_sizes_exponential(psd, L, buf, e);
    if (!st)
        st = hg_sizes_constant_m_tol(psd, sys->dim, L, 1.0, 1e-6, buf + L, e);
    if (!st) {
        const double *starts[3] = {start ? start : buf, start ? buf : buf + L,
                                  start ? buf + L : NULL};
        st = hg_opt_sizes_with(m, psd, sys, v, L, starts, 3,
                               hg_opt_default_algorithm(psd), sizes, T, NULL,
                               e);
    }
    free(buf);
    return st;
}

/* ---- curves ---- */

/* An extra level must lower T by this relative amount to be kept: below
 * it, optima that differ by slivers of levels holding ~1e-10 of the
 * particles would count as more levels. */
#define MIN_GAIN 1e-7

void hg_curve_clear(hg_curve *c)
{
    if (!c)
        return;
    for (int i = 0; c->points && i < c->n; i++)
        free(c->points[i].sizes);
    free(c->points);
    c->points = NULL;
    c->n = 0;
}

static int fill_point(const hg_model *m, const hg_model_input *in,
                      hg_curve_point *pt, hg_err *e)
{
    hg_cost cost = {0};
    hg_model_input at = *in;
    at.L = pt->levels;
    at.sizes = pt->sizes;
    int st = hg_model_evaluate(m, &at, &cost, NULL, e);
    if (st)
        return st;
    pt->T = cost.T;
    pt->T_cd = cost.T_cd;
    pt->T_ca = cost.T_ca;
    pt->nonempty_levels = cost.nonempty_levels;
    hg_cost_clear(&cost);
    return HG_OK;
}

/* Starting point for L levels from the L-1 optimum prev: split the level
 * with the largest work in two (geometric mean of its bounds). */
static int split_start(const hg_model *m, const hg_model_input *in, int L,
                       const double *prev, double *out, hg_err *e)
{
    hg_cost cost = {0};
    hg_model_input at = *in;
    at.L = L - 1;
    at.sizes = prev;
    int st = hg_model_evaluate(m, &at, &cost, NULL, e);
    if (st)
        return st;
    int hb = 0;
    for (int h = 1; h < L - 1; h++)
        if (cost.per_level[h].T > cost.per_level[hb].T)
            hb = h;
    hg_cost_clear(&cost);
    double lo = hb == 0 ? 2.0 * hg_psd_rmin(in->psd) : prev[hb - 1];
    int k = 0;
    for (int h = 0; h < L - 1; h++) {
        if (h == hb)
            out[k++] = sqrt(lo * prev[h]);
        out[k++] = prev[h];
    }
    return HG_OK;
}

static int check_curve_args(hg_recipe recipe, double q, int max_levels,
                            hg_err *e)
{
    if (max_levels < 1 || max_levels > 256)
        return hg_fail(e, HG_EINVAL, "max-levels: %d is outside 1..256",
                       max_levels);
    if ((unsigned)recipe >= HG_RECIPE_COUNT)
        return hg_fail(e, HG_EINVAL, "method: %d is unknown", (int)recipe);
    if (recipe == HG_RECIPE_CONSTANT_M && (!(q > 0.0) || !isfinite(q)))
        return hg_fail(e, HG_EINVAL,
                       "q: %g must be a finite ratio > 0 (m_{h+1} = q m_h)",
                       q);
    return HG_OK;
}

/* The sizes of point pt (L levels) as those of the previous point,
 * padded with a collapsed (empty) level at s_L. */
static void pad_previous(const hg_curve *c, hg_curve_point *pt, int L)
{
    const hg_curve_point *pv = &c->points[L - 2];
    memcpy(pt->sizes, pv->sizes, sizeof *pt->sizes * (size_t)(L - 1));
    pt->sizes[L - 1] = pv->sizes[L - 2];
}

/* Where the model optimises itself (m->optimise), its optima for every L
 * up to max_levels: T in own_T[L-1], the sizes of L levels from
 * own_s[(L-1) max_levels]. Nothing for other models or recipes. */
static int own_optima(const hg_model *m, const hg_model_input *in,
                      hg_recipe recipe, int max_levels, double **own_T,
                      double **own_s, hg_err *e)
{
    *own_T = *own_s = NULL;
    if (recipe != HG_RECIPE_OPTIMAL || !m->optimise)
        return HG_OK;
    *own_T = malloc(sizeof **own_T * (size_t)max_levels);
    *own_s = malloc(sizeof **own_s * (size_t)max_levels * (size_t)max_levels);
    if (!*own_T || !*own_s)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    return m->optimise(in, max_levels, *own_T, *own_s, e);
}

/* The optimal sizes of L levels into pt: the model's own optimum (own_T,
 * own_s of max_levels), else hg_opt_sizes from the L-1 optimum split
 * (split: scratch of L doubles); L levels only where they beat fewer,
 * else the fewer padded with collapsed levels (*stale: how many L in a
 * row did not beat fewer; from 2 on the padding goes on). */
static int optimal_sizes(const hg_model *m, const hg_model_input *in,
                         const hg_psd *psd, const hg_system *sys,
                         const hg_model_values *v, const hg_curve *c, int L,
                         const double *own_T, const double *own_s,
                         int max_levels, double *split, int *stale,
                         hg_err *e)
{
    hg_curve_point *pt = &c->points[L - 1];
    double T = HUGE_VAL;
    if (own_T) {
        if (L == 1 || (isfinite(own_T[L - 1]) &&
                       own_T[L - 1] < c->points[L - 2].T * (1.0 - MIN_GAIN)))
            memcpy(pt->sizes, own_s + (size_t)(L - 1) * max_levels,
                   sizeof *pt->sizes * (size_t)L);
        else
            pad_previous(c, pt, L);
        return HG_OK;
    }
    if (*stale >= 2) {
        /* Two successive L did not beat fewer levels: the interior optima
         * have turned into collapsing levels; keep padding. */
        pad_previous(c, pt, L);
        return HG_OK;
    }
    int st;
    if (L > 1 &&
        (st = split_start(m, in, L, c->points[L - 2].sizes, split, e)))
        return st;
    st = hg_opt_sizes(m, psd, sys, v, L, L > 1 ? split : NULL,
                      pt->sizes, &T, e);
    if (!st && L > 1)
        *stale = T < c->points[L - 2].T * (1.0 - MIN_GAIN) ? 0 : *stale + 1;
    if (!st && *stale)
        pad_previous(c, pt, L); /* fewer levels are as good: keep them */
    return st;
}

int hg_curve_compute(const hg_model *m, const hg_psd *psd,
                     const hg_system *sys, const hg_model_values *v,
                     hg_recipe recipe, double q, int max_levels,
                     hg_curve *out, hg_err *e)
{
    memset(out, 0, sizeof *out);
    hg_model_input in;
    int st;
    if ((st = hg_model_prepare(m, psd, sys, v, &in, e)) ||
        (st = check_curve_args(recipe, q, max_levels, e)))
        return st;
    if (m->max_levels > 0 && max_levels > m->max_levels)
        max_levels = m->max_levels;
    out->model = m;
    out->recipe = recipe;
    out->q = q;
    out->points = calloc((size_t)max_levels, sizeof *out->points);
    double *tmp = malloc(sizeof *tmp * 3 * (size_t)(max_levels + 1));
    double *own_T = NULL, *own_s = NULL;
    if (!out->points || !tmp) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto fail;
    }
    out->n = max_levels;
    /* a model with its own optimiser: every L at once */
    if ((st = own_optima(m, &in, recipe, max_levels, &own_T, &own_s, e)))
        goto fail;
    int stale = 0;
    for (int L = 1; L <= max_levels; L++) {
        hg_curve_point *pt = &out->points[L - 1];
        pt->levels = L;
        pt->sizes = malloc(sizeof *pt->sizes * (size_t)L);
        if (!pt->sizes) {
            st = hg_fail(e, HG_ENOMEM, "out of memory");
            goto fail;
        }
        switch (recipe) {
        case HG_RECIPE_LINEAR:
            st = hg_sizes_linear(psd, L, pt->sizes, e);
            break;
        case HG_RECIPE_EXPONENTIAL:
            st = hg_sizes_exponential(psd, L, pt->sizes, e);
            break;
        case HG_RECIPE_CONSTANT_M:
            st = hg_sizes_constant_m(psd, sys->dim, L, q, pt->sizes, e);
            break;
        case HG_RECIPE_OPTIMAL:
            st = optimal_sizes(m, &in, psd, sys, v, out, L, own_T, own_s,
                               max_levels, tmp, &stale, e);
            break;
        }
        if (st || (st = fill_point(m, &in, pt, e)))
            goto fail;
    }
    free(own_T);
    free(own_s);
    free(tmp);
    return HG_OK;
fail:
    free(own_T);
    free(own_s);
    free(tmp);
    hg_curve_clear(out);
    return st;
}
