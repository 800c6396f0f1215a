/* test_model.c - the cost models: reference values of KOL 2014 and
 * hand-computed monodisperse values, then properties checked for EVERY
 * registered model (gradient against central finite differences, T > 0 and
 * finite, L = 1 equals the linked cell, invariance under an empty level),
 * including a test-only model registered here at run time: a new model
 * needs no change outside its own file and the registry line. */
#include "hgridopt.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const hg_model *model(const char *name)
{
    const hg_model *m = hg_model_find(name);
    CHECK(m != NULL);
    return m;
}

/* ---- a test-only model: the better of Top-Down and Bottom-Up for the
 * given sizes, plus a fixed number of pair checks per particle ("extra",
 * default 0). Defined with the public API only, registered at run time. */

static const hg_model_param best_params[] = {
    HG_MODEL_PARAM_K,
    {"extra", 0.0, 0.0, 1e6, 0, "pair checks per particle added to T_cd"}};

/* The pair of HGrid models and the value of "extra". */
static int best_pick(const hg_model_input *in, const hg_model **pick,
                     double *T, hg_err *e)
{
    const hg_model *td = hg_model_find("hgrid-top-down");
    const hg_model *bu = hg_model_find("hgrid-bottom-up");
    hg_work a, b;
    int st = hg_model_evaluate(td, in, NULL, &a, e);
    if (!st)
        st = hg_model_evaluate(bu, in, NULL, &b, e);
    if (st)
        return st;
    *pick = a.T <= b.T ? td : bu;
    *T = fmin(a.T, b.T);
    return HG_OK;
}

static int best_evaluate(const hg_model_input *in, hg_cost *out, hg_work *w,
                         hg_err *e)
{
    const hg_model *pick;
    double T;
    int st = best_pick(in, &pick, &T, e);
    if (st || (st = hg_model_evaluate(pick, in, out, w, e)))
        return st;
    double extra = in->params[1];
    w->T_cd += extra;
    w->T += extra;
    if (out) {
        out->T_cd = w->T_cd;
        out->T = w->T;
    }
    return HG_OK;
}

static int best_gradient(const hg_model_input *in, double *T, double *dT_ds,
                         hg_err *e)
{
    const hg_model *pick;
    double t;
    int st = best_pick(in, &pick, &t, e);
    if (st || (st = hg_model_gradient(pick, in, T, dT_ds, e)))
        return st;
    *T += in->params[1];
    return HG_OK;
}

static const hg_model best_model = {
    "test-hgrid-best",
    "the better HGrid algorithm for the given sizes (test only)",
    HG_GRID_NONE,
    0,
    best_params,
    2,
    best_evaluate,
    best_gradient};

/* ---- KOL 2014 reference values ---- */

static void test_reference_3d(void)
{
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=100", 3);
    CHECK(p != NULL);
    if (!p)
        return;
    hg_system sys = {3, 0.7};
    int L = 43;
    double s[43];
    for (int h = 1; h <= L; h++)
        s[h - 1] = 2.0 * (1.0 + h * 99.0 / L);
    CHECK_CLOSE(hg_test_T(model("hgrid-top-down"), p, &sys, NULL, L, s),
                12.3975,
                0.0, 0.001);
    hg_cost lc = {0};
    CHECK(hg_cost_evaluate(model("linked-cell"), p, &sys, NULL, 0, NULL, &lc,
                           NULL, NULL) == HG_OK);
    CHECK_CLOSE(lc.T, 91146.0, 1e-4, 0.0);
    CHECK(lc.levels == 1 && lc.nonempty_levels == 1);
    CHECK(lc.model == model("linked-cell") && lc.K == HG_K_PAPER);
    CHECK_CLOSE(lc.per_level[0].fraction, 1.0, 1e-12, 0.0);
    CHECK(lc.per_level[0].cell_size == 200.0);
    hg_cost_clear(&lc);
    hg_cost_clear(&lc); /* idempotent */
    hg_cost_clear(NULL);
    hg_psd_free(p);
}

static void test_reference_2d(void)
{
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=20", 2);
    CHECK(p != NULL);
    if (!p)
        return;
    hg_system sys = {2, 0.4};
    double s[5] = {4.0, 7.9, 15.1, 27.2, 40.0};
    hg_cost c = {0};
    CHECK(hg_cost_evaluate(model("hgrid-top-down"), p, &sys, NULL, 5, s, &c,
                           NULL, NULL) == HG_OK);
    CHECK_CLOSE(c.T, 4.403, 0.0, 0.002);
    double sum_f = 0, sum_t = 0;
    for (int h = 0; h < c.levels; h++) {
        sum_f += c.per_level[h].fraction;
        sum_t += c.per_level[h].T;
    }
    CHECK_CLOSE(sum_f, 1.0, 1e-12, 0.0);
    CHECK_CLOSE(sum_t, c.T, 1e-12, 0.0);
    CHECK_CLOSE(c.T, c.T_cd + 0.2 * c.T_ca, 1e-12, 0.0);
    CHECK(c.dim == 2 && c.nu == 0.4 && c.levels == 5);
    hg_cost_clear(&c);
    CHECK_CLOSE(hg_test_T(model("linked-cell"), p, &sys, NULL, 0, NULL), 153.62,
                0.0, 0.01);
    hg_psd_free(p);
}

/* Monodisperse: one level with m = nu s^d / (V_d r^d); with s = 2r:
 * T_cd = (1/2 + n_c) m, T_ca = 1 + n_c. */
static void test_mono(void)
{
    for (int d = 2; d <= 3; d++) {
        hg_psd *p = hg_test_psd("mono:r=0.5", d);
        CHECK(p != NULL);
        if (!p)
            continue;
        hg_system sys = {d, 0.5};
        hg_model_values v = {0};
        CHECK(hg_model_values_set(&v, "K", 0.3, NULL) == HG_OK);
        double nc = d == 2 ? 4.0 : 13.0;
        double m = d == 2 ? 0.5 / (M_PI * 0.25)
                          : 0.5 / (4.0 * M_PI / 3.0 * 0.125);
        hg_cost c = {0};
        CHECK(hg_cost_evaluate(model("linked-cell"), p, &sys, &v, 0, NULL, &c,
                               NULL, NULL) == HG_OK);
        CHECK_CLOSE(c.per_level[0].particles_per_cell, m, 1e-12, 0.0);
        CHECK_CLOSE(c.T_cd, (0.5 + nc) * m, 1e-12, 0.0);
        CHECK_CLOSE(c.T_ca, 1.0 + nc, 1e-12, 0.0);
        CHECK_CLOSE(c.T, (0.5 + nc) * m + 0.3 * (1.0 + nc), 1e-12, 0.0);
        CHECK(c.K == 0.3);
        hg_cost_clear(&c);
        /* C weighs the table: (box volume / s^d) / N = V_p / (nu s^d)
         * cells per particle, s = 2r: V_d / (nu 2^d) */
        CHECK(hg_model_values_set(&v, "C", 0.25, NULL) == HG_OK);
        double tab = (d == 2 ? M_PI : 4.0 * M_PI / 3.0) / (0.5 * (1 << d));
        CHECK(hg_cost_evaluate(model("linked-cell"), p, &sys, &v, 0, NULL, &c,
                               NULL, NULL) == HG_OK);
        CHECK_CLOSE(c.T_tab, tab, 1e-12, 0.0);
        CHECK_CLOSE(c.per_level[0].T_tab, tab, 1e-12, 0.0);
        CHECK_CLOSE(c.T, (0.5 + nc) * m + 0.3 * (1.0 + nc) + 0.25 * tab,
                    1e-12, 0.0);
        CHECK(c.C == 0.25);
        hg_cost_clear(&c);
        /* a level holding no particle still has its table */
        double two[2] = {0.5, 1.0};
        CHECK(hg_cost_evaluate(model("hgrid-top-down"), p, &sys, &v, 2, two,
                               &c, NULL, NULL) == HG_OK);
        CHECK_CLOSE(c.T_tab, tab * (1.0 + (1 << d)), 1e-12, 0.0);
        hg_cost_clear(&c);
        hg_psd_free(p);
    }
}

/* ---- properties of every registered model ---- */

typedef struct model_case {
    const char *spec;
    int dim;
    double nu;
    int L;
    double s[6]; /* 0: exponential sizes, perturbed */
} model_case;

static const model_case cases[] = {
    {"powerlaw:alpha=-3,omega=100", 3, 0.7, 6, {0}},
    {"powerlaw:alpha=0,omega=10", 3, 0.4, 5, {0}},
    {"powerlaw:alpha=-2,omega=20", 2, 0.4, 6, {0}},
    {"lognormal:median=1,sigma=0.5,rmin=0.3,rmax=5", 3, 0.6, 4, {0}},
    /* discrete: boundaries between the atoms, where T is smooth */
    {"discrete:r=1;3;10,frac=0.9;0.09;0.01", 3, 0.5, 3, {2.5, 7.0, 20.0}},
};

static void sizes_of(const model_case *c, const hg_psd *p, double *s)
{
    if (c->s[0] > 0.0) {
        memcpy(s, c->s, sizeof *s * (size_t)c->L);
        return;
    }
    CHECK(hg_sizes_exponential(p, c->L, s, NULL) == HG_OK);
    for (int h = 0; h < c->L - 1; h++) /* off the recipe, still ordered */
        s[h] *= 1.0 + 0.03 * ((h % 3) - 1);
}

/* dT/ds_h of m against central finite differences of T. */
static void check_gradient(const hg_model *m, const hg_psd *p,
                           const hg_system *sys, const hg_model_values *v,
                           int L, const double *s)
{
    double g[8], T = NAN;
    hg_err e = {0};
    CHECK(hg_test_gradient(m, p, sys, v, L, s, &T, g, &e) == HG_OK);
    double T0 = hg_test_T(m, p, sys, v, L, s);
    CHECK_CLOSE(T, T0, 1e-12, 0.0);
    CHECK(g[L - 1] == 0.0);
    for (int h = 0; h < L - 1; h++) {
        double d = 1e-6 * s[h], sp[8], sm[8];
        memcpy(sp, s, sizeof *s * (size_t)L);
        memcpy(sm, s, sizeof *s * (size_t)L);
        sp[h] += d;
        sm[h] -= d;
        double fd = (hg_test_T(m, p, sys, v, L, sp) -
                     hg_test_T(m, p, sys, v, L, sm)) /
                    (2.0 * d);
        if (!hg_close(g[h], fd, 1e-5, 1e-7 * fabs(T0) / s[h]))
            fprintf(stderr, "%s, %s, h = %d: dT/ds %.10g vs FD %.10g\n",
                    m->name, hg_psd_spec(p), h + 1, g[h], fd);
        CHECK_CLOSE(g[h], fd, 1e-5, 1e-7 * fabs(T0) / s[h]);
    }
}

/* Inserting an empty level leaves T unchanged: a duplicated size (the level
 * (s_h/2, s_h/2] holds nothing) and a level above 2 r_max. */
static void check_empty_level(const hg_model *m, const hg_psd *p,
                              const hg_system *sys, int L, const double *s)
{
    double T = hg_test_T(m, p, sys, NULL, L, s), s2[8];
    for (int h = 0; h < L; h++) {
        memcpy(s2, s, sizeof *s * (size_t)(h + 1));
        memcpy(s2 + h + 1, s + h, sizeof *s * (size_t)(L - h));
        hg_cost c = {0};
        CHECK(hg_cost_evaluate(m, p, sys, NULL, L + 1, s2, &c, NULL, NULL) ==
              HG_OK);
        CHECK_CLOSE(c.T, T, 1e-12, 0.0);
        if (m->max_levels != 1)
            CHECK(c.levels == L + 1 && c.per_level &&
                  c.per_level[h + 1].fraction == 0.0);
        hg_cost_clear(&c);
    }
    memcpy(s2, s, sizeof *s * (size_t)L);
    s2[L] = 1.5 * s[L - 1];
    CHECK_CLOSE(hg_test_T(m, p, sys, NULL, L + 1, s2), T, 1e-12, 0.0);
}

static void test_every_model(void)
{
    const hg_model *lc = model("linked-cell");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        hg_psd *p = hg_test_psd(cases[c].spec, cases[c].dim);
        CHECK(p != NULL);
        if (!p)
            continue;
        hg_system sys = {cases[c].dim, cases[c].nu};
        int L = cases[c].L;
        double s[8];
        sizes_of(&cases[c], p, s);
        double one = 2.0 * hg_psd_rmax(p);
        double T_lc = hg_test_T(lc, p, &sys, NULL, 1, &one);
        for (size_t i = 0; i < hg_model_count(); i++) {
            const hg_model *m = hg_model_at(i);
            CHECK(hg_model_find(m->name) == m);
            CHECK(m->help && *m->help && m->n_params >= 0);
            double T = hg_test_T(m, p, &sys, NULL, L, s);
            CHECK(isfinite(T) && T > 0.0);
            hg_model_values v = {0};
            CHECK(hg_model_values_set(&v, "K", 0.37, NULL) == HG_OK);
            check_gradient(m, p, &sys, NULL, L, s);
            check_gradient(m, p, &sys, &v, L, s);
            hg_model_values vc = v; /* with the tables' term */
            CHECK(hg_model_values_set(&vc, "C", 0.5, NULL) == HG_OK);
            check_gradient(m, p, &sys, &vc, L, s);
            check_empty_level(m, p, &sys, L, s);
            /* L = 1 is the linked cell for the models of the bundled grid
             * (models of other codes, such as LAMMPS', count in their own
             * terms) */
            if (m->grid_algorithm != HG_GRID_NONE)
                CHECK_CLOSE(hg_test_T(m, p, &sys, NULL, 1, &one), T_lc, 1e-12,
                            0.0);
            /* K weighs the cell accesses (KOL 2014 eq. 27) */
            if (hg_model_param_index(m, "K") >= 0) {
                hg_work w = {NAN, NAN, NAN};
                CHECK(hg_cost_evaluate(m, p, &sys, &v, L, s, NULL, &w,
                                       NULL) == HG_OK);
                CHECK_CLOSE(w.T, w.T_cd + 0.37 * w.T_ca, 1e-12, 0.0);
            }
            /* C weighs the tables' cells (the bundled grid's models) */
            if (hg_model_param_index(m, "C") >= 0) {
                hg_work w = {NAN, NAN, NAN, NAN};
                CHECK(hg_cost_evaluate(m, p, &sys, &vc, L, s, NULL, &w,
                                       NULL) == HG_OK);
                CHECK(w.T_tab > 0.0);
                CHECK_CLOSE(w.T, w.T_cd + 0.37 * w.T_ca + 0.5 * w.T_tab,
                            1e-12, 0.0);
            }
        }
        hg_psd_free(p);
    }
}

/* Top-Down and Bottom-Up differ for L > 1 and find their grid. */
static void test_algorithms(void)
{
    hg_psd *p = hg_test_psd("powerlaw:alpha=-2,omega=10", 3);
    if (!p) {
        CHECK(0);
        return;
    }
    hg_system sys = {3, 0.3};
    double s[3] = {4.0, 9.0, 20.0};
    double td = hg_test_T(model("hgrid-top-down"), p, &sys, NULL, 3, s);
    double bu = hg_test_T(model("hgrid-bottom-up"), p, &sys, NULL, 3, s);
    CHECK(fabs(td - bu) > 1e-6);
    CHECK(hg_model_for_grid(HG_TOP_DOWN) == model("hgrid-top-down"));
    CHECK(hg_model_for_grid(HG_BOTTOM_UP) == model("hgrid-bottom-up"));
    CHECK(hg_model_for_grid(HG_GRID_NONE) == NULL);
    CHECK(model("hgrid-top-down")->grid_algorithm == HG_TOP_DOWN);
    CHECK(model("linked-cell")->max_levels == 1);
    hg_psd_free(p);
}

/* The test-only model takes part in the recommendation like any other. */
static void test_new_model_recommends(void)
{
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=100", 3);
    if (!p) {
        CHECK(0);
        return;
    }
    hg_system sys = {3, 0.7};
    hg_recommend_options o;
    hg_recommend_options_default(&o);
    o.max_levels = 8;
    o.n_models = 1;
    o.models[0] = &best_model;
    hg_recommendation r;
    hg_err e = {0};
    CHECK(hg_recommend(p, &sys, NULL, &o, &r, &e) == HG_OK);
    CHECK(r.model == &best_model && r.n_curves == 1);
    CHECK(strstr(r.decision, "test-hgrid-best") != NULL);
    double T = r.best_T;
    hg_recommendation_clear(&r);
    /* the same as the better of the two HGrid models */
    hg_recommend_options_default(&o);
    o.max_levels = 8;
    CHECK(hg_recommend(p, &sys, NULL, &o, &r, &e) == HG_OK);
    CHECK_CLOSE(r.best_T, T, 1e-9, 0.0);
    hg_recommendation_clear(&r);
    /* its own parameter */
    hg_model_values v = {0};
    CHECK(hg_model_values_set(&v, "extra", 2.5, NULL) == HG_OK);
    double s[2] = {20.0, 200.0};
    CHECK_CLOSE(hg_test_T(&best_model, p, &sys, &v, 2, s) -
                    hg_test_T(&best_model, p, &sys, NULL, 2, s),
                2.5, 1e-9, 0.0);
    CHECK(hg_model_values_set(&v, "extra", -1.0, NULL) == HG_OK);
    CHECK(hg_cost_evaluate(&best_model, p, &sys, &v, 2, s, NULL, NULL, &e) ==
          HG_EINVAL);
    CHECK(strstr(e.msg, "extra: -1 is outside [0, 1e+06]") != NULL);
    hg_psd_free(p);
}

static void test_registry(void)
{
    hg_err e = {0};
    size_t n = hg_model_count();
    CHECK(hg_model_at(n) == NULL);
    CHECK(hg_model_find("no-such-model") == NULL);
    CHECK(hg_model_find(NULL) == NULL);
    CHECK(hg_model_register(&best_model, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "already registered") != NULL);
    hg_model incomplete = best_model;
    incomplete.name = "test-incomplete";
    incomplete.gradient = NULL;
    CHECK(hg_model_register(&incomplete, &e) == HG_EINVAL);
    CHECK(hg_model_register(NULL, &e) == HG_EINVAL);
    /* the HGrid core needs a cross-level search */
    hg_model no_grid = *hg_model_find("hgrid-top-down");
    no_grid.name = "test-no-grid";
    no_grid.grid_algorithm = HG_GRID_NONE;
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=10", 3);
    hg_system sys = {3, 0.5};
    double s[1] = {20.0};
    CHECK(p && hg_cost_evaluate(&no_grid, p, &sys, NULL, 1, s, NULL, NULL,
                                &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "test-no-grid: the HGrid core needs") != NULL);
    CHECK(p && hg_test_gradient(&no_grid, p, &sys, NULL, 1, s, NULL, NULL,
                                &e) == HG_EINVAL);
    hg_psd_free(p);
    CHECK(hg_model_count() == n);
    /* a small fixed capacity */
    static hg_model copies[16];
    static char names[16][32];
    int st = HG_OK, k = 0;
    while (st == HG_OK && k < 16) {
        copies[k] = best_model;
        snprintf(names[k], sizeof names[k], "test-copy-%d", k);
        copies[k].name = names[k];
        st = hg_model_register(&copies[k++], &e);
    }
    CHECK(st == HG_ELIMIT);
    CHECK(k > 1 && k < 16);
}

static void test_rejections(void)
{
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=10", 3);
    if (!p) {
        CHECK(0);
        return;
    }
    const hg_model *td = model("hgrid-top-down");
    hg_err e = {0};
    double s[2] = {5.0, 19.0};
    hg_system sys = {3, 0.5};
    CHECK(hg_cost_evaluate(td, p, &sys, NULL, 2, s, NULL, NULL, &e) ==
          HG_EINVAL);
    CHECK(strstr(e.msg, "largest particle diameter 20") != NULL);
    double s2[2] = {8.0, 5.0};
    CHECK(hg_cost_evaluate(td, p, &sys, NULL, 2, s2, NULL, NULL, &e) ==
          HG_EINVAL);
    CHECK(strstr(e.msg, "non-decreasing") != NULL);
    CHECK(hg_cost_evaluate(td, p, &sys, NULL, 0, s2, NULL, NULL, &e) ==
          HG_EINVAL);
    CHECK(hg_cost_evaluate(td, p, &sys, NULL, 1, NULL, NULL, NULL, &e) ==
          HG_EINVAL);
    CHECK(hg_cost_evaluate(NULL, p, &sys, NULL, 1, s2, NULL, NULL, &e) ==
          HG_EINVAL);
    double s3[1] = {20.0};
    sys.nu = 1.0;
    CHECK(hg_cost_evaluate(td, p, &sys, NULL, 1, s3, NULL, NULL, &e) ==
          HG_EINVAL);
    CHECK(strstr(e.msg, "nu: 1") != NULL);
    sys.nu = 0.5;
    sys.dim = 4;
    CHECK(hg_cost_evaluate(td, p, &sys, NULL, 1, s3, NULL, NULL, &e) ==
          HG_EINVAL);
    CHECK(strstr(e.msg, "dim: 4") != NULL);
    sys.dim = 3;
    /* parameter values */
    hg_model_values v = {0};
    CHECK(hg_model_values_set(&v, "K", 0.0, &e) == HG_OK);
    CHECK(hg_cost_evaluate(td, p, &sys, &v, 1, s3, NULL, NULL, &e) ==
          HG_EINVAL);
    CHECK(strstr(e.msg, "K: 0 must be a finite number > 0") != NULL);
    double x = 0.0;
    CHECK(hg_model_values_set(&v, "K", 0.5, &e) == HG_OK && v.n == 1);
    CHECK(hg_model_values_get(&v, "K", &x) == 1 && x == 0.5);
    CHECK(hg_model_values_get(&v, "Q", &x) == 0);
    CHECK(hg_model_values_get(NULL, "K", &x) == 0);
    CHECK(hg_model_values_set(&v, "K", NAN, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "K: nan") != NULL);
    CHECK(hg_model_values_set(&v, "", 1.0, &e) == HG_EINVAL);
    CHECK(hg_model_values_set(&v, "a-name-that-is-far-too-long-for-it", 1.0,
                              &e) == HG_EINVAL);
    int st = HG_OK;
    for (int i = 0; st == HG_OK && i < 2 * HG_MODEL_MAX_PARAMS; i++) {
        char name[8];
        snprintf(name, sizeof name, "p%d", i);
        st = hg_model_values_set(&v, name, 1.0, &e);
    }
    CHECK(st == HG_ELIMIT && v.n == HG_MODEL_MAX_PARAMS);
    /* names a model does not declare are not its concern */
    CHECK(hg_cost_evaluate(td, p, &sys, &v, 1, s3, NULL, NULL, &e) == HG_OK);
    CHECK(hg_model_param_index(td, "K") == 0);
    hg_model_input in;
    CHECK(hg_model_prepare(td, p, &sys, &v, &in, &e) == HG_OK);
    CHECK(in.model == td && hg_model_input_param(&in, "K") == 0.5);
    CHECK(isnan(hg_model_input_param(&in, "p1")));
    CHECK(hg_model_param_index(td, "p1") == -1);
    hg_psd_free(p);
}

int main(void)
{
    hg_err e = {0};
    CHECK(hg_model_register(&best_model, &e) == HG_OK);
    CHECK(hg_model_find("test-hgrid-best") == &best_model);
    test_reference_3d();
    test_reference_2d();
    test_mono();
    test_every_model();
    test_algorithms();
    test_new_model_recommends();
    test_registry();
    test_rejections();
    return hg_test_summary("test_model");
}
