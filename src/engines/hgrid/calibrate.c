/* calibrate.c - measure K = (seconds per cell access) / (seconds per pair
 * check) of the bundled HGrid on this machine. */
#include "hg_calib.h"
#include "hg_consts.h"
#include "psd_internal.h"
#include "hg_grid.h"
#include "hg_opt.h"
#include "hg_pack_gen.h"
#include "hg_validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void hg_calibration_clear(hg_calibration *c)
{
    if (!c)
        return;
    free(c->points);
    memset(c, 0, sizeof *c);
}

void hg_calibrate_params_default(hg_calibrate_params *p)
{
    memset(p, 0, sizeof *p);
    p->sys.dim = 3;
    p->sys.nu = 0.3;
    p->n = 200000;
    p->seed = 1;
    p->max_levels = 5;
    p->repeats = 3;
    p->budget = 5e8;
}

/* Most levels of a timed grid (max_levels). */
#define CALIB_MAX_LEVELS 64

/* One grid calibrate times: its model and sizes, and what was measured. */
typedef struct calib_grid {
    const hg_model *m;
    int L;
    double sizes[CALIB_MAX_LEVELS];
    double T_cd, T_ca; /* counted, per particle */
    double best;       /* fastest detection, seconds */
} calib_grid;

/* Queue the grid unless its predicted work exceeds the budget. */
static int add_grid(const hg_psd *psd, const hg_calibrate_params *prm,
                    const hg_particles *p, const hg_model *m, int L,
                    const double *sizes, calib_grid *gs, int *ng, hg_err *e)
{
    hg_work w;
    if (m->grid_algorithm == HG_GRID_NONE)
        return hg_fail(e, HG_EINVAL,
                       "model: %s describes no grid of hgridopt to time",
                       m->name);
    int st = hg_cost_evaluate(m, psd, &prm->sys, NULL, L, sizes, NULL, &w, e);
    if (st)
        return st;
    if ((w.T_cd + w.T_ca) * (double)p->n > prm->budget)
        return HG_OK;
    calib_grid *c = &gs[(*ng)++];
    c->m = m;
    c->L = L;
    memcpy(c->sizes, sizes, (size_t)L * sizeof *sizes);
    c->best = INFINITY;
    return HG_OK;
}

/* Build grid c and time one detection (the first time, a counted one
 * first: the counts, and warm caches; later a warm-up one). */
static int time_grid(calib_grid *c, const hg_particles *p, int first,
                     hg_pairs *pairs, hg_err *e)
{
    hg_grid *g = NULL;
    hg_grid_counts cnt = {0};
    int st;
    if ((st = hg_grid_create(p->dim, c->L, c->sizes, c->m->grid_algorithm,
                             &g, e)) ||
        (st = hg_grid_build(g, p, e)) ||
        (st = hg_grid_find_contacts(g, pairs, first ? &cnt : NULL, e)))
        goto done;
    if (first) {
        c->T_cd = (double)cnt.pair_checks / (double)p->n;
        c->T_ca = (double)cnt.cell_accesses / (double)p->n;
    }
    double t0 = hg_wall_seconds();
    if ((st = hg_grid_find_contacts(g, pairs, NULL, e)))
        goto done;
    double dt = hg_wall_seconds() - t0;
    if (dt < c->best)
        c->best = dt;
done:
    hg_grid_counts_clear(&cnt);
    hg_grid_free(g);
    return st;
}

int hg_calibration_fit(hg_calibration *c, hg_err *e)
{
    if (!c || !c->points || c->npoints < 3)
        return hg_fail(e, HG_EINVAL, "calibration: %d points (need >= 3)",
                       c ? c->npoints : 0);
    for (int i = 0; i < c->npoints; i++) {
        const hg_calib_point *p = &c->points[i];
        if (!(isfinite(p->seconds) && p->seconds > 0.0 && isfinite(p->T_cd) &&
              p->T_cd >= 0.0 && isfinite(p->T_ca) && p->T_ca >= 0.0))
            return hg_fail(e, HG_EINVAL,
                           "calibration: point %d (seconds %g, T_cd %g, "
                           "T_ca %g) must be finite, seconds > 0",
                           i, p->seconds, p->T_cd, p->T_ca);
    }
    int n = c->npoints;
    double *X = malloc(sizeof *X * 2 * (size_t)n);
    double *y = malloc(sizeof *y * (size_t)n);
    if (!X || !y) {
        free(X);
        free(y);
        return hg_fail(e, HG_ENOMEM, "out of memory for the fit");
    }
    for (int i = 0; i < n; i++) {
        X[2 * i] = c->points[i].T_cd;
        X[2 * i + 1] = c->points[i].T_ca;
        y[i] = c->points[i].seconds;
    }
    hg_lsq f;
    int st = hg_lsq_fit(X, y, NULL, n, 2, 0, &f);
    free(X);
    free(y);
    if (st == HG_ENOMEM)
        return hg_fail(e, st, "out of memory for the fit");
    if (st)
        return hg_fail(e, HG_ENUMERIC, "calibration: the least-squares fit "
                       "failed");
    c->a = f.coef[0];
    c->b = f.coef[1];
    c->a_se = f.se[0];
    c->b_se = f.se[1];
    c->r2 = f.r2;
    if (!(c->a > 0.0 && c->b > 0.0 && isfinite(c->a) && isfinite(c->b)))
        return hg_fail(e, HG_ENUMERIC,
                       "calibration: fitted a = %g s per pair check, b = %g "
                       "s per cell access (both must be > 0); the timings "
                       "are too noisy - use more particles or repeats",
                       c->a, c->b);
    c->K = c->b / c->a;
    /* delta method: var(b/a) */
    double K = c->K, vaa = f.cov[0], vbb = f.cov[3], vab = f.cov[1];
    double vk = K * K * (vbb / (c->b * c->b) + vaa / (c->a * c->a) -
                         2.0 * vab / (c->a * c->b));
    c->K_se = vk > 0 ? sqrt(vk) : 0.0;
    return HG_OK;
}

/* calibrate's arguments checked: the system into *sys, the models timed
 * into models and *nm (none given: models keeps both HGrid algorithms). */
static int calibrate_check(const hg_psd *psd, const hg_calibrate_params *prm,
                           hg_system *sys, const hg_model **models, int *nm,
                           hg_err *e)
{
    if (!psd || !prm)
        return hg_fail(e, HG_EINVAL, "calibrate: NULL argument");
    *sys = prm->sys;
    int st;
    if ((st = hg_system_check(sys, e)))
        return st;
    *nm = prm->n_models;
    if (*nm < 0 || *nm > HG_CALIB_MAX_MODELS)
        return hg_fail(e, HG_EINVAL, "models: %d is not in [0, %d]", *nm,
                       HG_CALIB_MAX_MODELS);
    if (*nm == 0)
        *nm = 2;
    else
        memcpy(models, prm->models, sizeof *models * (size_t)*nm);
    if (prm->n < 1000)
        return hg_fail(e, HG_EINVAL, "n: %zu particles are too few to time "
                       "(>= 1000)", prm->n);
    if (prm->max_levels < 1 || prm->max_levels > CALIB_MAX_LEVELS)
        return hg_fail(e, HG_EINVAL, "max_levels: %d is not in [1, %d]",
                       prm->max_levels, CALIB_MAX_LEVELS);
    if (prm->repeats < 1)
        return hg_fail(e, HG_EINVAL, "repeats: %d must be >= 1",
                       prm->repeats);
    if (!(prm->budget > 0.0))
        return hg_fail(e, HG_EINVAL, "budget: %g must be > 0", prm->budget);
    return HG_OK;
}

/* The grids to time into gs (*ng of them): for each L up to max_levels,
 * three variants of the geometric sizes (the one level widened, or the
 * lower levels scaled) rounded to whole cells of the box edge, each with
 * every model (one level: the first); a grid with cells wider than the
 * box or over the work budget is left out. */
static int queue_grids(const hg_psd *psd, const hg_calibrate_params *prm,
                       const hg_particles *p, const hg_model *const *models,
                       int nm, calib_grid *gs, int *ng, hg_err *e)
{
    static const double scale[3] = {1.0, 0.6, 1.6};
    double A = p->hi[0] - p->lo[0];
    int Lmax = prm->max_levels;
    double *s = malloc((size_t)Lmax * sizeof *s);
    double *r = malloc((size_t)Lmax * sizeof *r);
    int st = !s || !r ? hg_fail(e, HG_ENOMEM, "out of memory") : HG_OK;
    for (int L = 1; st == HG_OK && L <= Lmax; L++) {
        for (int v = 0; v < 3; v++) {
            if ((st = hg_sizes_exponential(psd, L, s, e)))
                break;
            if (L == 1) {
                s[0] *= v == 0 ? 1.0 : v == 1 ? 1.3 : 1.7;
                if (s[0] > A)
                    continue;
            } else {
                for (int h = 0; h < L - 1; h++) {
                    s[h] *= scale[v];
                    if (s[h] > s[L - 1])
                        s[h] = s[L - 1];
                }
            }
            if (s[L - 1] > A)
                continue;
            if ((st = hg_pack_round_sizes(A, L, s, r, e)))
                break;
            for (int a = 0; st == HG_OK && a < (L == 1 ? 1 : nm); a++)
                st = add_grid(psd, prm, p, models[a], L, r, gs, ng, e);
            if (st)
                break;
        }
    }
    free(s);
    free(r);
    return st;
}

/* The ng grids timed in rounds, each round every grid once (in a rotated
 * order): a change of the machine's speed during the calibration then
 * reaches every grid alike, and the fastest of a grid's rounds is taken
 * from all along the run. */
static int time_rounds(calib_grid *gs, int ng, const hg_particles *p,
                       const hg_calibrate_params *prm, hg_pairs *pairs,
                       hg_err *e)
{
    int st;
    for (int k = 0; k < prm->repeats; k++) {
        for (int u = 0; u < ng; u++)
            if ((st = time_grid(&gs[(u + k) % ng], p, k == 0, pairs, e)))
                return st;
        if (prm->progress)
            prm->progress("grids", (double)(k + 1) / prm->repeats,
                          prm->progress_params);
    }
    return HG_OK;
}

/* The ng grids' points (counts and fastest detection per particle of the
 * n) into out, and the fit of K through them (at least 3). */
static int fit_points(hg_calibration *out, const calib_grid *gs, int ng,
                      size_t n, double budget, hg_err *e)
{
    for (int u = 0; u < ng; u++) {
        hg_calib_point *pt = &out->points[out->npoints++];
        pt->levels = gs[u].L;
        pt->T_cd = gs[u].T_cd;
        pt->T_ca = gs[u].T_ca;
        pt->seconds = gs[u].best / (double)n;
    }
    if (out->npoints < 3)
        return hg_fail(e, HG_ELIMIT,
                       "calibration: only %d grid(s) fit the work budget %g "
                       "(need 3); raise the budget or use fewer particles",
                       out->npoints, budget);
    return hg_calibration_fit(out, e);
}

int hg_calibrate(const hg_psd *psd, const hg_calibrate_params *prm,
                 hg_calibration *out, hg_err *e)
{
    hg_particles p = {0};
    hg_pairs pairs = {0};
    calib_grid *gs = NULL;
    int ng = 0;
    int st;
    memset(out, 0, sizeof *out);
    hg_system sys;
    int nm = 0;
    const hg_model *models[HG_CALIB_MAX_MODELS] = {
        hg_model_find("hgrid-top-down"), hg_model_find("hgrid-bottom-up")};
    if ((st = calibrate_check(psd, prm, &sys, models, &nm, e)))
        return st;
    /* time the grids on the structure the system has: hard spheres fill
     * cells more evenly than Poisson centres */
    hg_pack_params pp = {sys.dim, prm->n, sys.nu, prm->seed, 1};
    hg_pack_options po;
    hg_pack_options_init(&po);
    po.progress = prm->progress;
    po.progress_params = prm->progress_params;
    hg_pack_choice ch;
    if ((st = hg_pack_structure_run(psd, &pp, sys.structure, &po, &p, NULL,
                                    &ch, e)))
        return st;
    /* at most 3 size variants per L, each with every model */
    const size_t maxg = (size_t)prm->max_levels * 3 * (size_t)nm;
    out->points = calloc(maxg, sizeof *out->points);
    gs = calloc(maxg, sizeof *gs);
    if (!out->points || !gs) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto fail;
    }
    if ((st = queue_grids(psd, prm, &p, models, nm, gs, &ng, e)) ||
        (st = time_rounds(gs, ng, &p, prm, &pairs, e)) ||
        (st = fit_points(out, gs, ng, p.n, prm->budget, e)))
        goto fail;
    out->dim = sys.dim;
    out->n = prm->n;
    out->nu = sys.nu;
    snprintf(out->psd, sizeof out->psd, "%s", hg_psd_spec(psd));
    snprintf(out->packing, sizeof out->packing, "%s", ch.generator);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out->created, sizeof out->created, "%Y-%m-%dT%H:%M:%SZ", &tm);
    hg_calibration_describe_host(out);
    free(gs);
    hg_pairs_clear(&pairs);
    hg_particles_clear(&p);
    return HG_OK;
fail:
    free(gs);
    hg_pairs_clear(&pairs);
    hg_particles_clear(&p);
    hg_calibration_clear(out);
    return st;
}
