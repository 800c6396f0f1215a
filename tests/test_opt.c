/* test_opt.c - cell-size recipes, the optimiser and the recommendation
 * against the reference values of KOL 2014 section 5 (gradients of every
 * model: test_model.c). */
#include "hgridopt.h"
#include "psd_internal.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int curve_argmin(const hg_curve *c)
{
    int b = 0;
    for (int i = 1; i < c->n; i++)
        if (c->points[i].T < c->points[b].T)
            b = i;
    return b;
}

static const hg_model *grid_model(int a)
{
    return hg_model_for_grid((hg_algorithm)a);
}

static hg_model_values K_is(double K)
{
    hg_model_values v = {0};
    CHECK(hg_model_values_set(&v, "K", K, NULL) == HG_OK);
    return v;
}

/* Recipes: closed forms, end points, constant ratio of particles per cell. */
static void test_recipes(void)
{
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=100", 3);
    if (!p) {
        CHECK(0);
        return;
    }
    double s[12];
    CHECK(hg_sizes_linear(p, 4, s, NULL) == HG_OK);
    CHECK_CLOSE(s[0], 2.0 * (1.0 + 99.0 / 4.0), 1e-14, 0.0);
    CHECK(s[3] == 200.0);
    CHECK(hg_sizes_exponential(p, 4, s, NULL) == HG_OK);
    CHECK_CLOSE(s[1], 2.0 * 10.0, 1e-14, 0.0);
    CHECK(s[3] == 200.0);
    hg_system sys = {3, 0.7};
    const double qs[3] = {1.0, 2.0, 0.5};
    for (int k = 0; k < 3; k++) {
        int L = 8;
        CHECK(hg_sizes_constant_m(p, 3, L, qs[k], s, NULL) == HG_OK);
        CHECK(s[L - 1] == 200.0);
        hg_cost c = {0};
        CHECK(hg_cost_evaluate(grid_model(HG_TOP_DOWN), p, &sys, NULL, L, s,
                               &c, NULL, NULL) == HG_OK);
        for (int h = 0; h + 1 < c.levels; h++)
            CHECK_CLOSE(c.per_level[h + 1].particles_per_cell /
                            c.per_level[h].particles_per_cell,
                        qs[k], 1e-8, 0.0);
        hg_cost_clear(&c);
    }
    /* 2D too, and L = 1, 2 (a single equation). */
    hg_psd *p2 = hg_test_psd("powerlaw:alpha=-3,omega=20", 2);
    if (p2) {
        for (int L = 1; L <= 3; L++) {
            CHECK(hg_sizes_constant_m(p2, 2, L, 1.0, s, NULL) == HG_OK);
            CHECK(s[L - 1] == 40.0);
        }
        CHECK_CLOSE(s[0], 5.4288, 1e-4, 0.0);
        hg_psd_free(p2);
    }
    hg_psd_free(p);
}

/* Reference case of KOL 2014 section 5: alpha = -3, omega = 100, nu = 0.7,
 * K = 0.2, 3D, Top-Down. */
static void test_spec_3d(void)
{
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=100", 3);
    if (!p) {
        CHECK(0);
        return;
    }
    hg_system sys = {3, 0.7};
    hg_err e = {0};
    hg_curve c = {0};
    CHECK(hg_curve_compute(grid_model(HG_TOP_DOWN), p, &sys, NULL,
                           HG_RECIPE_LINEAR, 1.0, 50, &c, &e) == HG_OK);
    int b = curve_argmin(&c);
    CHECK(b + 1 == 43);
    CHECK_CLOSE(c.points[b].T, 12.3975, 0.0, 5e-4);
    hg_curve_clear(&c);

    /* constant m: min T ~ 11.60 at L* = 12-13; KOL 2014 5.3 says
     * L* = 12, +10 % at L = 8 and L = 19. */
    CHECK(hg_curve_compute(grid_model(HG_TOP_DOWN), p, &sys, NULL,
                           HG_RECIPE_CONSTANT_M, 1.0, 32, &c, &e) == HG_OK);
    b = curve_argmin(&c);
    printf("constant-m: min T = %.6f at L = %d\n", c.points[b].T, b + 1);
    CHECK(b + 1 == 12 || b + 1 == 13);
    CHECK_CLOSE(c.points[b].T, 11.595, 0.0, 5e-4);
    CHECK_CLOSE(c.points[7].T / c.points[b].T, 1.10, 0.0, 0.01);
    CHECK_CLOSE(c.points[18].T / c.points[b].T, 1.10, 0.0, 0.01);
    hg_curve_clear(&c);

    CHECK(hg_curve_compute(grid_model(HG_TOP_DOWN), p, &sys, NULL,
                           HG_RECIPE_OPTIMAL, 1.0, 16, &c, &e) == HG_OK);
    b = curve_argmin(&c);
    printf("optimal: min T = %.7f at L = %d (%d non-empty)\n", c.points[b].T,
           b + 1, c.points[b].nonempty_levels);
    CHECK(c.points[b].T <= 11.5737);
    CHECK(c.points[b].T > 11.57);
    hg_curve_clear(&c);

    double T;
    CHECK(hg_opt_sizes(grid_model(HG_TOP_DOWN), p, &sys, NULL, 1, NULL,
                       (double[1]){0}, &T, NULL) == HG_OK);
    CHECK_CLOSE(T, 91146.0, 1e-4, 0.0);
    hg_psd_free(p);
}

/* The 2D reference (KOL 2014 section 5): 5 levels at s/r_min = 4.01, 7.88, 15.05, 27.22, 40,
 * T_LC / T = 34.9. */
static void test_spec_2d(void)
{
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=20", 2);
    if (!p) {
        CHECK(0);
        return;
    }
    hg_system sys = {2, 0.4};
    hg_recommend_options o;
    hg_recommend_options_default(&o);
    o.n_models = 1;
    o.models[0] = grid_model(HG_TOP_DOWN);
    hg_recommendation r;
    hg_err e = {0};
    CHECK(hg_recommend(p, &sys, NULL, &o, &r, &e) == HG_OK);
    CHECK(r.best_levels == 5);
    CHECK_CLOSE(r.best_T, 4.403, 0.0, 5e-4);
    CHECK_CLOSE(r.linked_cell_T / r.best_T, 34.9, 0.0, 0.05);
    /* With the 1 % rule, 4 levels (T = 4.411) are within tolerance. */
    printf("2D: recommended %d levels T = %.5f; best %d levels T = %.5f\n",
           r.levels, r.cost.T, r.best_levels, r.best_T);
    CHECK(r.levels == 4);
    CHECK(r.cost.T <= 1.01 * r.best_T);
    CHECK(!r.linked_cell);
    CHECK_CLOSE(r.speedup, r.linked_cell_T / r.cost.T, 1e-12, 0.0);
    hg_recommendation_clear(&r);

    o.tolerance = 0.0;
    CHECK(hg_recommend(p, &sys, NULL, &o, &r, &e) == HG_OK);
    CHECK(r.levels == 5);
    const double ref[5] = {4.01, 7.88, 15.05, 27.22, 40.0};
    for (int h = 0; h < 5 && r.levels == 5; h++)
        CHECK_CLOSE(r.cell_sizes[h], ref[h], 0.01, 0.0);
    CHECK_CLOSE(r.speedup, 34.9, 0.0, 0.05);
    CHECK(r.cost.levels == 5 && r.cost.nonempty_levels == 5);
    hg_recommendation_clear(&r);
    hg_psd_free(p);
}

/* Reference: alpha = -3, omega = 50, nu = 0.62, K = 0.3: L* = 7. */
static void test_spec_omega50(void)
{
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=50", 3);
    if (!p) {
        CHECK(0);
        return;
    }
    hg_system sys = {3, 0.62};
    hg_model_values kv = K_is(0.3);
    hg_recommend_options o;
    hg_recommend_options_default(&o);
    o.n_models = 1;
    o.models[0] = grid_model(HG_TOP_DOWN);
    hg_recommendation r;
    CHECK(hg_recommend(p, &sys, &kv, &o, &r, NULL) == HG_OK);
    printf("omega=50: best %d levels T = %.6f; recommended %d levels "
           "T = %.6f\n",
           r.best_levels, r.best_T, r.levels, r.cost.T);
    CHECK(r.best_levels == 7);
    CHECK(r.levels <= r.best_levels);
    hg_recommendation_clear(&r);
    hg_psd_free(p);
}

/* The optimum is never worse than any recipe at the same L, and every
 * method gives non-decreasing sizes between 2 r_min and 2 r_max. */
static void test_optimum_vs_recipes(void)
{
    const struct {
        const char *spec;
        int dim;
        double nu, K;
    } cases[] = {{"powerlaw:alpha=-3,omega=30", 3, 0.7, 0.2},
                 {"powerlaw:alpha=0,omega=8", 3, 0.5, 0.3},
                 {"powerlaw:alpha=-2,omega=15", 2, 0.6, 0.2}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        hg_psd *p = hg_test_psd(cases[k].spec, cases[k].dim);
        if (!p) {
            CHECK(0);
            continue;
        }
        hg_system sys = {cases[k].dim, cases[k].nu};
        hg_model_values kv = K_is(cases[k].K);
        double dmin = 2.0 * hg_psd_rmin(p), dmax = 2.0 * hg_psd_rmax(p);
        for (int a = 0; a < 2; a++) {
            hg_curve c[HG_RECIPE_COUNT];
            int ok = 1;
            for (int m = 0; m < HG_RECIPE_COUNT; m++)
                ok &= hg_curve_compute(grid_model(a), p, &sys, &kv,
                                       (hg_recipe)m, 1.0, 12, &c[m],
                                       NULL) == HG_OK;
            CHECK(ok);
            if (!ok)
                continue;
            for (int m = 0; m < HG_RECIPE_COUNT; m++) {
                for (int i = 0; i < c[m].n; i++) {
                    const hg_curve_point *pt = &c[m].points[i];
                    CHECK(pt->levels == i + 1);
                    CHECK(pt->nonempty_levels >= 1 &&
                          pt->nonempty_levels <= pt->levels);
                    CHECK(pt->sizes[0] >= dmin);
                    CHECK(pt->sizes[pt->levels - 1] == dmax);
                    for (int h = 1; h < pt->levels; h++)
                        CHECK(pt->sizes[h] >= pt->sizes[h - 1]);
                    if (m != HG_RECIPE_OPTIMAL)
                        CHECK(c[HG_RECIPE_OPTIMAL].points[i].T <=
                              pt->T * (1.0 + 1e-7));
                }
                if (m == HG_RECIPE_OPTIMAL)
                    for (int i = 1; i < c[m].n; i++)
                        CHECK(c[m].points[i].T <= c[m].points[i - 1].T);
            }
            for (int m = 0; m < HG_RECIPE_COUNT; m++)
                hg_curve_clear(&c[m]);
        }
        hg_psd_free(p);
    }
}

/* A monodisperse system gains nothing from levels: linked cell. */
static void test_mono(void)
{
    for (int d = 2; d <= 3; d++) {
        hg_psd *p = hg_test_psd("mono:r=0.5", d);
        if (!p) {
            CHECK(0);
            continue;
        }
        hg_system sys = {d, 0.5};
        for (int m = 0; m < HG_RECIPE_COUNT; m++) {
            hg_recommend_options o;
            hg_recommend_options_default(&o);
            o.recipe = (hg_recipe)m;
            hg_recommendation r;
            CHECK(hg_recommend(p, &sys, NULL, &o, &r, NULL) == HG_OK);
            CHECK(r.linked_cell == 1);
            CHECK(r.levels == 1);
            CHECK(r.cell_sizes && r.cell_sizes[0] == 1.0);
            CHECK_CLOSE(r.speedup, 1.0, 1e-12, 0.0);
            CHECK(strstr(r.decision, "single-level linked cell") != NULL);
            hg_recommendation_clear(&r);
        }
        hg_psd_free(p);
    }
}

/* Recommendation bookkeeping: auto picks Top-Down for alpha = -3, the
 * per-level breakdown matches the totals, sensitivity is around L*. */
static void test_recommend_fields(void)
{
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=100", 3);
    if (!p) {
        CHECK(0);
        return;
    }
    hg_system sys = {3, 0.7};
    hg_recommendation r;
    hg_err e = {0};
    CHECK(hg_recommend(p, &sys, NULL, NULL, &r, &e) == HG_OK);
    CHECK(r.n_curves == 2);
    CHECK(r.model == grid_model(HG_TOP_DOWN));
    CHECK(r.best_model == grid_model(HG_TOP_DOWN));
    CHECK(r.options.n_models == 2 &&
          r.options.models[1] == grid_model(HG_BOTTOM_UP));
    CHECK(r.best_T <= 11.5737);
    CHECK(r.cost.T <= 1.01 * r.best_T);
    CHECK(r.levels <= r.best_levels);
    CHECK(r.cost.nonempty_levels == r.levels);
    double sum = 0.0;
    for (int h = 0; h < r.cost.levels; h++)
        sum += r.cost.per_level[h].T;
    CHECK_CLOSE(sum, r.cost.T, 1e-12, 0.0);
    CHECK_CLOSE(r.linked_cell_T, 91146.0, 1e-4, 0.0);
    CHECK(r.n_sens == 5 && r.sens_L[2] == r.levels);
    CHECK(r.within5_lo >= 1 && r.within5_lo <= r.levels);
    CHECK(r.within5_hi >= r.best_levels);
    CHECK(!r.best_at_max_levels);
    CHECK(strstr(r.decision, "top-down") != NULL);
    printf("3D: recommended %d levels T = %.6f, best %d levels T = %.7f, "
           "L within 5 %%: %d..%d\n",
           r.levels, r.cost.T, r.best_levels, r.best_T, r.within5_lo,
           r.within5_hi);
    hg_recommendation_clear(&r);
    hg_recommend_options o;
    hg_recommend_options_default(&o);
    o.recipe = HG_RECIPE_LINEAR; /* its optimum is at L = 43 */
    o.max_levels = 20;
    CHECK(hg_recommend(p, &sys, NULL, &o, &r, &e) == HG_OK);
    CHECK(r.best_at_max_levels && r.best_levels == 20);
    hg_recommendation_clear(&r);
    hg_recommendation_clear(&r); /* idempotent */
    hg_recommendation_clear(NULL);
    hg_psd_free(p);
}

/* A discrete test family: three atoms r = 1, 3, 10 with number fractions
 * 0.9, 0.09, 0.01 (no pdf: the derivative-free path). */
static const double atom_r[3] = {1.0, 3.0, 10.0};
static const double atom_w[3] = {0.9, 0.09, 0.01};
static int atoms_create(const hg_kv *kv, const hg_psd_ctx *ctx, void **st,
                        hg_err *e)
{
    (void)kv;
    (void)ctx;
    (void)e;
    *st = NULL;
    return HG_OK;
}
static void atoms_destroy(void *s) { (void)s; }
static void atoms_range(const void *s, double *lo, double *hi)
{
    (void)s;
    *lo = atom_r[0];
    *hi = atom_r[2];
}
static double atoms_cdf(const void *s, double r)
{
    (void)s;
    double c = 0.0;
    for (int i = 0; i < 3; i++)
        if (atom_r[i] <= r)
            c += atom_w[i];
    return c;
}
static double atoms_quantile(const void *s, double u)
{
    (void)s;
    double c = 0.0;
    for (int i = 0; i < 3; i++) {
        c += atom_w[i];
        if (u <= c)
            return atom_r[i];
    }
    return atom_r[2];
}
static double atoms_moment(const void *s, int k, double a, double b)
{
    (void)s;
    double m = 0.0;
    for (int i = 0; i < 3; i++)
        if (atom_r[i] > a && atom_r[i] <= b)
            m += atom_w[i] * pow(atom_r[i], k);
    return m;
}
static const char *const atoms_keys[] = {NULL};
static const hg_psd_family atoms_family = {
    "atoms3", "test", atoms_keys, 1, atoms_create, atoms_destroy,
    atoms_range, NULL, atoms_cdf, atoms_quantile, atoms_moment};

/* Discrete distribution: the derivative-free optimum is at least as good
 * as a brute-force grid search for L = 2 and 3, and the recommendation
 * merges empty levels (3 atoms: never more than 3 non-empty levels). */
static void test_discrete(void)
{
    hg_psd *p = NULL;
    void *st = NULL;
    atoms_create(NULL, NULL, &st, NULL);
    CHECK(hg_psd_wrap(&atoms_family, st, NULL, 3, &p, NULL) == HG_OK);
    if (!p)
        return;
    CHECK(hg_psd_is_discrete(p));
    hg_system sys = {3, 0.5};
    for (int a = 0; a < 2; a++) {
        hg_curve c;
        CHECK(hg_curve_compute(grid_model(a), p, &sys, NULL, HG_RECIPE_OPTIMAL,
                               1.0, 6, &c, NULL) == HG_OK);
        if (!c.points)
            continue;
        double b2 = HUGE_VAL, b3 = HUGE_VAL, T;
        for (double s1 = 2.0; s1 <= 20.0; s1 += 0.01) {
            double s[2] = {s1, 20.0};
            T = hg_test_T(grid_model(a), p, &sys, NULL, 2, s);
            b2 = fmin(b2, T);
        }
        for (double s1 = 2.0; s1 <= 20.0; s1 += 0.05)
            for (double s2 = s1; s2 <= 20.0; s2 += 0.05) {
                double s[3] = {s1, s2, 20.0};
                T = hg_test_T(grid_model(a), p, &sys, NULL, 3, s);
                b3 = fmin(b3, T);
            }
        printf("discrete %s: T(2) = %.8f (grid %.8f), T(3) = %.8f (grid "
               "%.8f)\n",
               hg_algorithm_name(a), c.points[1].T, b2, c.points[2].T, b3);
        CHECK(c.points[1].T <= b2 * (1.0 + 1e-7));
        CHECK(c.points[2].T <= b3 * (1.0 + 1e-7));
        for (int i = 0; i < c.n; i++)
            CHECK(c.points[i].nonempty_levels <= 3);
        hg_curve_clear(&c);
    }
    /* Between atoms T is smooth in the sizes: the gradient (explicit terms
     * only, no pdf) matches finite differences. */
    double sg[3] = {2.5, 7.0, 20.0}, g[3], T0;
    for (int a = 0; a < 2; a++) {
        CHECK(hg_test_gradient(grid_model(a), p, &sys, NULL, 3, sg, &T0, g,
                               NULL) == HG_OK);
        for (int h = 0; h < 2; h++) {
            double d = 1e-6 * sg[h], sp[3], sm[3], Tp, Tm;
            memcpy(sp, sg, sizeof sg);
            memcpy(sm, sg, sizeof sg);
            sp[h] += d;
            sm[h] -= d;
            Tp = hg_test_T(grid_model(a), p, &sys, NULL, 3, sp);
            Tm = hg_test_T(grid_model(a), p, &sys, NULL, 3, sm);
            CHECK_CLOSE(g[h], (Tp - Tm) / (2.0 * d), 1e-5, 1e-9);
        }
    }
    double s[4];
    CHECK(hg_sizes_constant_m(p, 3, 4, 1.0, s, NULL) == HG_OK);
    for (int h = 1; h < 4; h++)
        CHECK(s[h] >= s[h - 1]);
    CHECK(s[3] == 20.0);
    hg_recommendation r;
    hg_recommend_options o;
    hg_recommend_options_default(&o);
    o.tolerance = 0.0;
    CHECK(hg_recommend(p, &sys, NULL, &o, &r, NULL) == HG_OK);
    CHECK(r.levels == 3 && r.cost.nonempty_levels == 3);
    CHECK(r.cell_sizes && r.cell_sizes[r.levels - 1] == 20.0);
    CHECK(r.cost.T <= r.best_T * (1.0 + 1e-12));
    hg_recommendation_clear(&r);
    hg_psd_free(p);
}

/* Wide, narrow, steep and increasing distributions in 2D and 3D: every
 * recommendation succeeds (NLopt line-search failures at round-off level
 * once lost whole starts here), sizes are ordered, T(L) never increases. */
static void test_robust(void)
{
    const char *specs[] = {"powerlaw:alpha=-3,omega=10000",
                           "powerlaw:alpha=2,omega=50",
                           "powerlaw:alpha=-1,omega=1.01",
                           "powerlaw:alpha=-6,omega=3",
                           "powerlaw:alpha=-4,omega=1000"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        for (int d = 2; d <= 3; d++) {
            hg_psd *p = hg_test_psd(specs[i], d);
            if (!p) {
                CHECK(0);
                continue;
            }
            hg_system sys = {d, 0.5};
            hg_recommendation r;
            hg_err e = {0};
            int st = hg_recommend(p, &sys, NULL, NULL, &r, &e);
            CHECK(st == HG_OK);
            if (st) {
                fprintf(stderr, "%s d=%d: %s\n", specs[i], d, e.msg);
            } else {
                for (int h = 1; h < r.levels; h++)
                    CHECK(r.cell_sizes[h] > r.cell_sizes[h - 1]);
                CHECK(r.cell_sizes[r.levels - 1] == 2.0 * hg_psd_rmax(p));
                CHECK(r.cost.T <= r.linked_cell_T * (1.0 + 1e-12));
                for (int a = 0; a < r.n_curves; a++)
                    for (int k = 1; k < r.curves[a].n; k++)
                        CHECK(r.curves[a].points[k].T <=
                              r.curves[a].points[k - 1].T);
            }
            hg_recommendation_clear(&r);
            hg_psd_free(p);
        }
}

static void test_rejections(void)
{
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=10", 3);
    if (!p) {
        CHECK(0);
        return;
    }
    hg_system sys = {3, 0.5};
    hg_err e = {0};
    hg_recommendation r;
    hg_recommend_options o;
#define REJECT(field, value, text)                                          \
    do {                                                                    \
        hg_recommend_options_default(&o);                                   \
        o.field = value;                                                    \
        CHECK(hg_recommend(p, &sys, NULL, &o, &r, &e) == HG_EINVAL);        \
        CHECK(strstr(e.msg, text) != NULL);                                 \
        CHECK(r.cell_sizes == NULL && r.n_curves == 0);                     \
    } while (0)
    REJECT(max_levels, 0, "max-levels: 0");
    REJECT(max_levels, 257, "max-levels: 257");
    REJECT(tolerance, -0.5, "tolerance: -0.5");
    REJECT(tolerance, 1.0, "tolerance: 1");
    REJECT(tolerance, NAN, "tolerance: nan");
    REJECT(q, 0.0, "q: 0");
    REJECT(n_models, 9, "models: 9");
    REJECT(n_models, -1, "models: -1");
    REJECT(recipe, (hg_recipe)9, "method: 9");
#undef REJECT
    hg_recipe m;
    CHECK(hg_recipe_parse("simplex", &m, &e) == HG_EUNKNOWN);
    CHECK(strstr(e.msg, "'simplex'") != NULL);
    for (int i = 0; i < HG_RECIPE_COUNT; i++) {
        CHECK(hg_recipe_parse(hg_recipe_name((hg_recipe)i), &m, NULL) ==
              HG_OK);
        CHECK(m == (hg_recipe)i);
    }
    double s[4];
    CHECK(hg_sizes_constant_m(p, 3, 4, -1.0, s, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "q: -1") != NULL);
    CHECK(hg_sizes_constant_m(p, 4, 4, 1.0, s, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "dim: 4") != NULL);
    CHECK(hg_sizes_linear(p, 0, s, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "levels: 0") != NULL);
    CHECK(hg_opt_sizes(grid_model(HG_TOP_DOWN), p, &sys, NULL, -2, NULL, s,
                       NULL, &e) == HG_EINVAL);
    hg_curve c;
    CHECK(hg_curve_compute(grid_model(HG_TOP_DOWN), p, &sys, NULL,
                           HG_RECIPE_LINEAR, 1.0, 0, &c, &e) == HG_EINVAL);
    CHECK(c.points == NULL);
    sys.nu = 1.5;
    CHECK(hg_curve_compute(grid_model(HG_TOP_DOWN), p, &sys, NULL,
                           HG_RECIPE_LINEAR, 1.0, 4, &c, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "nu: 1.5") != NULL);
    CHECK(hg_recommend(p, &sys, NULL, NULL, &r, &e) == HG_EINVAL);
    double g[2], s2[2] = {30.0, 4.0};
    sys.nu = 0.5;
    CHECK(hg_test_gradient(grid_model(HG_TOP_DOWN), p, &sys, NULL, 2, s2, NULL,
                           g, &e) == HG_EINVAL);
    hg_psd_free(p);
}

/* hg_sweep_powerlaw: one row per (alpha, omega, recipe, model), each the
 * lowest T of the curve it reports, and the same as a recommendation's
 * best T for the optimal recipe. */
static void test_sweep(void)
{
    hg_system sys = {0};
    sys.dim = 3;
    sys.nu = 0.4;
    const hg_model *models[2] = {hg_model_find("hgrid-top-down"),
                                 hg_model_find("hgrid-bottom-up")};
    hg_recipe recipes[2] = {HG_RECIPE_OPTIMAL, HG_RECIPE_EXPONENTIAL};
    double alphas[2] = {-3.0, -2.0}, omegas[2] = {10.0, 40.0};
    hg_sweep sw;
    hg_err e = {0};
    CHECK(hg_sweep_powerlaw(&sys, NULL, models, 2, recipes, 2, 1.0, 8, alphas,
                            2, omegas, 2, &sw, &e) == HG_OK);
    CHECK(sw.n == 16);
    for (size_t i = 0; i < sw.n; i++) {
        const hg_sweep_row *r = &sw.rows[i];
        CHECK(r->T > 0.0 && r->T <= r->T_linked_cell * (1.0 + 1e-9));
        CHECK(r->levels >= 1 && r->levels <= 8);
        CHECK(fabs(r->T - (r->T_cd + 0.2 * r->T_ca)) <= 1e-9 * r->T);
    }
    /* the optimal recipe is never worse than the exponential one */
    for (size_t i = 0; i + 2 < sw.n; i += 4) {
        CHECK(sw.rows[i].T <= sw.rows[i + 2].T * (1.0 + 1e-9));
        CHECK(sw.rows[i + 1].T <= sw.rows[i + 3].T * (1.0 + 1e-9));
    }
    /* the first row is recommend's best T of top-down alone */
    hg_psd *psd = NULL;
    hg_psd_ctx ctx = {3, NULL};
    CHECK(hg_psd_parse("powerlaw:alpha=-3,omega=10", &ctx, &psd, &e) ==
          HG_OK);
    hg_recommend_options o;
    hg_recommend_options_default(&o);
    o.n_models = 1;
    o.models[0] = models[0];
    o.max_levels = 8;
    hg_recommendation rec;
    CHECK(hg_recommend(psd, &sys, NULL, &o, &rec, &e) == HG_OK);
    CHECK(fabs(rec.best_T - sw.rows[0].T) <= 1e-9 * rec.best_T);
    hg_recommendation_clear(&rec);
    hg_psd_free(psd);
    hg_sweep_clear(&sw);
    CHECK(hg_sweep_powerlaw(&sys, NULL, models, 0, recipes, 2, 1.0, 8, alphas,
                            2, omegas, 2, &sw, &e) == HG_EINVAL);
}

int main(void)
{
    test_recipes();
    test_spec_3d();
    test_spec_2d();
    test_spec_omega50();
    test_optimum_vs_recipes();
    test_mono();
    test_recommend_fields();
    test_discrete();
    test_robust();
    test_rejections();
    test_sweep();
    return hg_test_summary("test_opt");
}
