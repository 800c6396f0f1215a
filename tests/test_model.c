/* test_model.c - the cost model against SPEC section 6 and hand-computed
 * monodisperse values. */
#include "hgridopt.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static hg_psd *make(const char *spec, int dim)
{
    hg_psd_ctx ctx = {dim, NULL};
    hg_psd *p = NULL;
    hg_err e = {0};
    if (hg_psd_parse(spec, &ctx, &p, &e))
        fprintf(stderr, "parse %s: %s\n", spec, e.msg);
    return p;
}

static void test_linear_3d(void)
{
    hg_psd *p = make("powerlaw:alpha=-3,omega=100", 3);
    CHECK(p != NULL);
    if (!p)
        return;
    hg_system sys = {3, 0.7, 0.2};
    int L = 43;
    double s[43];
    for (int h = 1; h <= L; h++)
        s[h - 1] = 2.0 * (1.0 + h * 99.0 / L);
    double T;
    CHECK(hg_cost_evaluate(p, &sys, HG_TOP_DOWN, L, s, NULL, &T, NULL, NULL,
                           NULL) == HG_OK);
    CHECK_CLOSE(T, 12.3975, 0.0, 0.001);
    hg_cost lc = {0};
    CHECK(hg_cost_linked_cell(p, &sys, &lc, NULL) == HG_OK);
    CHECK_CLOSE(lc.T, 91146.0, 1e-4, 0.0);
    CHECK(lc.levels == 1 && lc.nonempty_levels == 1);
    CHECK_CLOSE(lc.per_level[0].fraction, 1.0, 1e-12, 0.0);
    hg_cost_clear(&lc);
    hg_psd_free(p);
}

static void test_2d(void)
{
    hg_psd *p = make("powerlaw:alpha=-3,omega=20", 2);
    CHECK(p != NULL);
    if (!p)
        return;
    hg_system sys = {2, 0.4, 0.2};
    double s[5] = {4.0, 7.9, 15.1, 27.2, 40.0};
    hg_cost c = {0};
    CHECK(hg_cost_evaluate(p, &sys, HG_TOP_DOWN, 5, s, &c, NULL, NULL, NULL,
                           NULL) == HG_OK);
    CHECK_CLOSE(c.T, 4.403, 0.0, 0.002);
    double sum_f = 0, sum_t = 0;
    for (int h = 0; h < c.levels; h++) {
        sum_f += c.per_level[h].fraction;
        sum_t += c.per_level[h].T;
    }
    CHECK_CLOSE(sum_f, 1.0, 1e-12, 0.0);
    CHECK_CLOSE(sum_t, c.T, 1e-12, 0.0);
    CHECK_CLOSE(c.T, c.T_cd + 0.2 * c.T_ca, 1e-12, 0.0);
    hg_cost_clear(&c);
    hg_cost lc = {0};
    CHECK(hg_cost_linked_cell(p, &sys, &lc, NULL) == HG_OK);
    CHECK_CLOSE(lc.T, 153.62, 0.0, 0.01);
    hg_cost_clear(&lc);
    hg_psd_free(p);
}

/* Monodisperse: one level with m = nu s^d / (V_d r^d); with s = 2r:
 * T_cd = (1/2 + n_c) m, T_ca = 1 + n_c. */
static void test_mono(void)
{
    for (int d = 2; d <= 3; d++) {
        hg_psd *p = make("mono:r=0.5", d);
        CHECK(p != NULL);
        if (!p)
            continue;
        hg_system sys = {d, 0.5, 0.3};
        double nc = d == 2 ? 4.0 : 13.0;
        double m = d == 2 ? 0.5 / (M_PI * 0.25) : 0.5 / (4.0 * M_PI / 3.0 * 0.125);
        hg_cost c = {0};
        CHECK(hg_cost_linked_cell(p, &sys, &c, NULL) == HG_OK);
        CHECK_CLOSE(c.per_level[0].particles_per_cell, m, 1e-12, 0.0);
        CHECK_CLOSE(c.T_cd, (0.5 + nc) * m, 1e-12, 0.0);
        CHECK_CLOSE(c.T_ca, 1.0 + nc, 1e-12, 0.0);
        CHECK_CLOSE(c.T, (0.5 + nc) * m + 0.3 * (1.0 + nc), 1e-12, 0.0);
        hg_cost_clear(&c);
        /* A larger second level above the only radius is empty: it is not
         * scanned, so T equals the single level's. */
        double s2[2] = {1.0, 3.0};
        double T2, T1;
        CHECK(hg_cost_evaluate(p, &sys, HG_BOTTOM_UP, 2, s2, NULL, &T2, NULL,
                               NULL, NULL) == HG_OK);
        CHECK(hg_cost_evaluate(p, &sys, HG_BOTTOM_UP, 1, s2, NULL, &T1, NULL,
                               NULL, NULL) == HG_OK);
        CHECK_CLOSE(T2, T1, 1e-12, 0.0);
        hg_psd_free(p);
    }
}

/* Top-Down and Bottom-Up agree for L = 1 and differ for L > 1; every
 * registered model evaluates. */
static void test_models(void)
{
    hg_psd *p = make("powerlaw:alpha=-2,omega=10", 3);
    if (!p) {
        CHECK(0);
        return;
    }
    hg_system sys = {3, 0.3, 0.2};
    double s[3] = {4.0, 9.0, 20.0};
    for (size_t i = 0; i < hg_model_count(); i++) {
        const hg_model *m = hg_model_at(i);
        hg_model_input in = {p, &sys, 3, s};
        double T = NAN;
        CHECK(m->evaluate(&in, NULL, &T, NULL, NULL, NULL) == HG_OK);
        CHECK(isfinite(T) && T > 0);
        CHECK(hg_model_find(m->name) == m);
    }
    double td, bu;
    hg_cost_evaluate(p, &sys, HG_TOP_DOWN, 3, s, NULL, &td, NULL, NULL, NULL);
    hg_cost_evaluate(p, &sys, HG_BOTTOM_UP, 3, s, NULL, &bu, NULL, NULL, NULL);
    CHECK(fabs(td - bu) > 1e-6);
    hg_psd_free(p);
}

static void test_rejections(void)
{
    hg_psd *p = make("powerlaw:alpha=-3,omega=10", 3);
    if (!p) {
        CHECK(0);
        return;
    }
    hg_err e = {0};
    double s[2] = {5.0, 19.0};
    hg_system sys = {3, 0.5, 0.2};
    CHECK(hg_cost_evaluate(p, &sys, HG_TOP_DOWN, 2, s, NULL, NULL, NULL, NULL,
                           &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "largest particle diameter 20") != NULL);
    double s2[2] = {8.0, 5.0};
    CHECK(hg_cost_evaluate(p, &sys, HG_TOP_DOWN, 2, s2, NULL, NULL, NULL,
                           NULL, &e) == HG_EINVAL);
    sys.nu = 1.0;
    double s3[1] = {20.0};
    CHECK(hg_cost_evaluate(p, &sys, HG_TOP_DOWN, 1, s3, NULL, NULL, NULL,
                           NULL, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "nu: 1") != NULL);
    sys.nu = 0.5;
    sys.dim = 4;
    CHECK(hg_cost_evaluate(p, &sys, HG_TOP_DOWN, 1, s3, NULL, NULL, NULL,
                           NULL, &e) == HG_EINVAL);
    sys.dim = 3;
    sys.K = 0.0;
    CHECK(hg_cost_evaluate(p, &sys, HG_TOP_DOWN, 1, s3, NULL, NULL, NULL,
                           NULL, &e) == HG_EINVAL);
    hg_psd_free(p);
}

int main(void)
{
    test_linear_3d();
    test_2d();
    test_mono();
    test_models();
    test_rejections();
    return hg_test_summary("test_model");
}
