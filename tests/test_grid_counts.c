/* test_grid_counts.c - on Poisson periodic packings the counted work of the
 * bundled HGrid (pair checks T_cd, cell accesses T_ca per particle) agrees
 * with the cost model within 2 %, for the recommended sizes of
 * both algorithms, in 3D and 2D; also exponential sizes and the linked
 * cell, and the packing generator's contract.
 *
 * Usage: test_grid_counts [N]   (default 200000). */
#include "hg_grid.h"
#include "hg_opt.h"
#include "hg_pack.h"
#include "hg_validate.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static size_t N = 200000;

static void check_run(const char *what, const hg_validate_run *r, double tol)
{
    double q_cd = r->measured_T_cd / r->predicted_T_cd;
    double q_ca = r->measured_T_ca / r->predicted_T_ca;
    printf("%-34s L=%d  T_cd %.4f / %.4f = %.4f   T_ca %.4f / %.4f = %.4f"
           "%s\n",
           what, r->levels, r->measured_T_cd, r->predicted_T_cd, q_cd,
           r->measured_T_ca, r->predicted_T_ca, q_ca,
           r->extrapolated ? "  (subset)" : "");
    CHECK_CLOSE(r->measured_T_cd, r->predicted_T_cd, tol, 0);
    CHECK_CLOSE(r->measured_T_ca, r->predicted_T_ca, tol, 0);
    /* per level: the fraction of particles, and the work of the levels
     * holding at least 10 % of the particles */
    for (int h = 0; h < r->levels; h++) {
        const hg_validate_level *lv = &r->per_level[h];
        CHECK_CLOSE(lv->measured_fraction, lv->predicted_fraction, 0.0,
                    5.0 * sqrt(lv->predicted_fraction / (double)N) + 1e-9);
        if (lv->predicted_fraction > 0.1 && !r->extrapolated) {
            CHECK_CLOSE(lv->measured_T_cd, lv->predicted_T_cd, 2.0 * tol, 0);
            CHECK_CLOSE(lv->measured_T_ca, lv->predicted_T_ca, 2.0 * tol, 0);
        }
    }
}

static void validate_case(const char *spec, int dim, double nu)
{
    hg_err e = {0};
    hg_psd_ctx ctx = {dim, NULL};
    hg_psd *psd = NULL;
    CHECK(hg_psd_parse(spec, &ctx, &psd, &e) == HG_OK);
    if (!psd) {
        fprintf(stderr, "%s\n", e.msg);
        return;
    }
    hg_system sys = {dim, nu};
    for (int a = 0; a < 2; a++) {
        hg_recommend_options ro;
        hg_recommend_options_default(&ro);
        ro.n_models = 1;
        ro.models[0] = hg_model_for_grid((hg_algorithm)a);
        ro.max_levels = 12;
        hg_recommendation rec = {0};
        int st = hg_recommend(psd, &sys, NULL, &ro, &rec, &e);
        CHECK(st == HG_OK);
        if (st) {
            fprintf(stderr, "recommend: %s\n", e.msg);
            continue;
        }
        hg_validate_params vp = {0};
        vp.sys = sys;
        vp.model = rec.model;
        vp.L = rec.levels;
        vp.sizes = rec.cell_sizes;
        vp.n = N;
        vp.seed = 12345u + (unsigned)a;
        vp.baseline = 1;
        hg_measure_options_default(&vp.measure);
        vp.measure.budget = 2e7; /* the linked cell searches a subset */
        hg_validation v = {0};
        st = hg_validate(psd, &vp, &v, &e);
        CHECK(st == HG_OK);
        if (st)
            fprintf(stderr, "validate: %s\n", e.msg);
        else {
            char what[128];
            snprintf(what, sizeof what, "%dD %s recommended", dim,
                     hg_algorithm_name((hg_algorithm)a));
            check_run(what, &v.hgrid, 0.02);
            snprintf(what, sizeof what, "%dD %s linked cell", dim,
                     hg_algorithm_name((hg_algorithm)a));
            /* the subset of the linked cell is small: looser */
            check_run(what, &v.linked_cell,
                      v.linked_cell.extrapolated ? 0.05 : 0.02);
            CHECK_CLOSE(v.measured_nu, nu, 0.05, 0);
            CHECK(v.hgrid.contacts > 0);
        }
        /* exponential sizes with 3 levels */
        double s[3];
        CHECK(hg_sizes_exponential(psd, 3, s, &e) == HG_OK);
        vp.L = 3;
        vp.sizes = s;
        vp.baseline = 0;
        hg_validation v2 = {0};
        st = hg_validate(psd, &vp, &v2, &e);
        CHECK(st == HG_OK);
        if (!st) {
            char what[128];
            snprintf(what, sizeof what, "%dD %s exponential", dim,
                     hg_algorithm_name((hg_algorithm)a));
            check_run(what, &v2.hgrid, 0.02);
        }
        hg_validation_clear(&v2);
        hg_validation_clear(&v);
        hg_recommendation_clear(&rec);
    }
    hg_psd_free(psd);
}

static void test_packing(void)
{
    hg_err e = {0};
    hg_psd_ctx ctx = {3, NULL};
    hg_psd *psd = NULL;
    CHECK(hg_psd_parse("powerlaw:alpha=-3,omega=10", &ctx, &psd, &e) ==
          HG_OK);
    hg_pack_params pp = {3, 1000, 0.3, 7, 1};
    hg_particles a = {0}, b = {0}, c = {0};
    CHECK(hg_pack_poisson(psd, &pp, &a, &e) == HG_OK);
    CHECK(hg_pack_poisson(psd, &pp, &b, &e) == HG_OK);
    pp.seed = 8;
    CHECK(hg_pack_poisson(psd, &pp, &c, &e) == HG_OK);
    CHECK(a.n == 1000 && a.periodic && a.dim == 3);
    CHECK(hg_particles_check(&a, &e) == HG_OK);
    CHECK(hg_test_same_particles(&a, &b));
    CHECK(memcmp(a.x, c.x, 3000 * sizeof *a.x) != 0);
    double A = hg_pack_box_edge(psd, 3, 1000, 0.3);
    CHECK_CLOSE(a.hi[0], A, 1e-15, 0);
    /* systematic sampling hits the mean volume closely */
    CHECK_CLOSE(hg_particles_packing_fraction(&a), 0.3, 0.01, 0);
    hg_particles_clear(&a);
    hg_particles_clear(&b);
    hg_particles_clear(&c);
    /* bad input */
    pp.nu = 1.0;
    CHECK(hg_pack_poisson(psd, &pp, &a, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "nu") != NULL);
    pp.nu = 0.3;
    pp.dim = 4;
    CHECK(hg_pack_poisson(psd, &pp, &a, &e) == HG_EINVAL);
    pp.dim = 3;
    pp.n = 0;
    CHECK(hg_pack_poisson(psd, &pp, &a, &e) == HG_EINVAL);
    pp.n = 10;
    pp.periodic = 0;
    CHECK(hg_pack_poisson(psd, &pp, &a, &e) == HG_EINVAL);
    CHECK(hg_pack_poisson(NULL, &pp, &a, &e) == HG_EINVAL);
    CHECK(isnan(hg_pack_box_edge(psd, 3, 10, 0.0)));
    /* rounding to whole cells */
    double s[3] = {1.0, 3.0, 4.1}, r[3];
    CHECK(hg_pack_round_sizes(10.0, 3, s, r, &e) == HG_OK);
    CHECK_CLOSE(r[0], 1.0, 1e-15, 0);
    CHECK_CLOSE(r[1], 10.0 / 3.0, 1e-15, 0);
    CHECK_CLOSE(r[2], 5.0, 1e-15, 0);
    /* the grid uses exactly those cells */
    hg_grid *g = NULL;
    hg_particles q = {0};
    hg_particles_alloc(&q, 3, 1, &e);
    for (int k = 0; k < 3; k++)
        q.hi[k] = 10.0;
    q.r[0] = 0.1;
    CHECK(hg_grid_create(3, 3, r, HG_TOP_DOWN, &g, &e) == HG_OK);
    CHECK(hg_grid_build(g, &q, &e) == HG_OK);
    for (int h = 0; h < 3; h++)
        CHECK(hg_grid_cell_width(g, h + 1, 0) == r[h]);
    hg_grid_free(g);
    hg_particles_clear(&q);
    CHECK(hg_pack_round_sizes(10.0, 3, s, s, &e) == HG_OK && s[1] == r[1]);
    s[2] = 11.0;
    CHECK(hg_pack_round_sizes(10.0, 3, s, r, &e) == HG_EINVAL);
    s[2] = NAN;
    CHECK(hg_pack_round_sizes(10.0, 3, s, r, &e) == HG_EINVAL);
    CHECK(hg_pack_round_sizes(-1.0, 3, s, r, &e) == HG_EINVAL);
    hg_psd_free(psd);
}

static void test_validate_bad(void)
{
    hg_err e = {0};
    hg_psd_ctx ctx = {3, NULL};
    hg_psd *psd = NULL;
    CHECK(hg_psd_parse("powerlaw:alpha=-3,omega=10", &ctx, &psd, &e) ==
          HG_OK);
    double s[2] = {5.0, 20.0}, small[1] = {5.0};
    hg_validate_params vp = {0};
    vp.sys = (hg_system){3, 0.3};
    vp.L = 2;
    vp.sizes = s;
    vp.n = 100;
    hg_measure_options_default(&vp.measure);
    hg_validation v = {0};
    CHECK(hg_validate(psd, &vp, &v, &e) == HG_EINVAL); /* no model */
    static const hg_model no_grid = {"test-no-grid", "no bundled grid",
                                     HG_GRID_NONE, 0, NULL, 0, NULL, NULL};
    vp.model = &no_grid;
    CHECK(hg_validate(psd, &vp, &v, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "test-no-grid describes no grid") != NULL);
    vp.model = hg_model_find("hgrid-top-down");
    vp.sys.nu = 1.5;
    CHECK(hg_validate(psd, &vp, &v, &e) == HG_EINVAL);
    vp.sys.nu = 0.3;
    vp.sizes = small; /* does not cover 2 r_max */
    vp.L = 1;
    CHECK(hg_validate(psd, &vp, &v, &e) == HG_EINVAL);
    vp.sizes = s;
    vp.L = 0;
    CHECK(hg_validate(psd, &vp, &v, &e) == HG_EINVAL);
    vp.L = 2;
    vp.measure.repeats = 0;
    CHECK(hg_validate(psd, &vp, &v, &e) == HG_EINVAL);
    vp.measure.repeats = 1;
    vp.n = 0;
    CHECK(hg_validate(psd, &vp, &v, &e) == HG_EINVAL);
    vp.n = 100; /* a box of 1 cell of size 20 per edge: refused */
    CHECK(hg_validate(psd, &vp, &v, &e) == HG_EINVAL &&
          strstr(e.msg, "use --n"));
    vp.n = 1000;
    CHECK(hg_validate(psd, &vp, &v, &e) == HG_OK);
    CHECK(v.hgrid.seconds >= 0.0 && !v.has_baseline);
    hg_validation_clear(&v);
    /* a tiny budget forces the subset path */
    vp.n = 20000;
    vp.baseline = 1;
    vp.measure.budget = 1e5;
    CHECK(hg_validate(psd, &vp, &v, &e) == HG_OK);
    CHECK(v.linked_cell.extrapolated && v.linked_cell.searched < vp.n);
    CHECK(v.linked_cell.measured_T_cd > 0.0);
    hg_validation_clear(&v);
    hg_validation_clear(NULL);
    hg_psd_free(psd);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        N = (size_t)strtoul(argv[1], NULL, 10);
    test_packing();
    test_validate_bad();
    validate_case("powerlaw:alpha=-3,omega=30", 3, 0.3);
    validate_case("powerlaw:alpha=-3,omega=30", 2, 0.3);
    return hg_test_summary("test_grid_counts");
}
