/* test_single_level.c - the single-level baseline of the recommendation:
 * the cheaper of the linked cell and `bin` under the same K, recommended
 * exactly when the best HGrid does not beat it by the tolerance; the
 * speed-ups against both; grid_only keeps the candidates' own grid. Both
 * baselines come from one function, hg_single_level_evaluate, which the
 * recommendation repeats. */
#include "hgridopt.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Equal spheres with cheap cell accesses: bin (its stencil holds 63 bins
 * of an eighth of the cell volume); with dear ones the linked cell (14
 * cells); a wide distribution: an HGrid, bin the cheaper baseline. */
static void test_cases(void)
{
    static const struct {
        const char *spec;
        int dim;
        double K;
        const char *single; /* expected cheaper single-level model */
        int single_level;   /* expected: recommended */
    } cases[] = {{"mono:r=1", 3, 0.05, "bin", 1},
                 {"mono:r=1", 3, 2.9, "linked-cell", 1},
                 {"mono:r=1", 2, 2.9, "linked-cell", 1},
                 {"powerlaw:alpha=-3,omega=20", 3, 2.9, "bin", 0},
                 {"powerlaw:alpha=-3,omega=20", 2, 0.2, "bin", 0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        hg_psd *p = hg_test_psd(cases[k].spec, cases[k].dim);
        if (!p) {
            CHECK(0);
            continue;
        }
        hg_system sys = {cases[k].dim, 0.5};
        hg_model_values kv = {0};
        CHECK(hg_model_values_set(&kv, "K", cases[k].K, NULL) == HG_OK);
        hg_recommend_options o;
        hg_recommend_options_default(&o);
        hg_recommendation r;
        CHECK(hg_recommend(p, &sys, &kv, &o, &r, NULL) == HG_OK);
        double lc =
            hg_test_T(hg_model_find("linked-cell"), p, &sys, &kv, 1, NULL);
        double bin = hg_test_T(hg_model_find("bin"), p, &sys, &kv, 1, NULL);
        CHECK_CLOSE(r.linked_cell_T, lc, 1e-12, 0.0);
        CHECK_CLOSE(r.bin_T, bin, 1e-12, 0.0);
        CHECK_CLOSE(r.single_T, fmin(lc, bin), 1e-12, 0.0);
        CHECK(!strcmp(r.single_model->name, cases[k].single));
        hg_single_level sl;
        CHECK(hg_single_level_evaluate(p, &sys, &kv, &sl, NULL) == HG_OK);
        CHECK(sl.linked_cell.T == lc && sl.bin.T == bin);
        CHECK(sl.cheaper == r.single_model && sl.T == r.single_T);
        CHECK(r.baselines.T == sl.T && r.baselines.cheaper == sl.cheaper &&
              r.baselines.bin.T_cd == r.bin_T_cd &&
              r.baselines.linked_cell.T_ca == r.linked_cell_T_ca);
        CHECK(r.single_level == cases[k].single_level);
        CHECK(r.single_level == !(r.best_T * 1.01 < r.single_T));
        CHECK_CLOSE(r.speedup, lc / r.cost.T, 1e-12, 0.0);
        CHECK_CLOSE(r.speedup_bin, bin / r.cost.T, 1e-12, 0.0);
        int was_bin = r.single_level && !strcmp(cases[k].single, "bin");
        if (was_bin) {
            CHECK(r.model == hg_model_find("bin") && r.levels == 1);
            CHECK(!r.linked_cell && r.cell_sizes[0] == 2.0);
            CHECK_CLOSE(r.cost.T, bin, 1e-12, 0.0);
            CHECK(strstr(r.decision, "cells of half the cutoff (bin") !=
                  NULL);
        } else if (r.single_level) {
            CHECK(r.linked_cell && r.levels == 1);
            CHECK(strstr(r.decision, "single-level linked cell") != NULL);
        } else {
            CHECK(r.levels > 1 && r.cost.T * 1.01 < r.single_T);
            CHECK(strstr(r.decision, "times less than bin") != NULL);
        }
        hg_recommendation_clear(&r);
        /* the candidates' own grid when asked for (validate, bench) */
        o.grid_only = 1;
        CHECK(hg_recommend(p, &sys, &kv, &o, &r, NULL) == HG_OK);
        CHECK(r.model->grid_algorithm != HG_GRID_NONE && !r.single_level);
        CHECK(!was_bin || r.linked_cell);
        hg_recommendation_clear(&r);
        hg_psd_free(p);
    }
}

/* A single-level candidate asked for by name is answered as such, and a
 * candidate outside the bundled HGrid is not compared with bin. */
static void test_named_candidates(void)
{
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=10", 3);
    if (!p) {
        CHECK(0);
        return;
    }
    hg_system sys = {3, 0.3};
    hg_recommend_options o;
    hg_recommend_options_default(&o);
    o.n_models = 1;
    o.models[0] = hg_model_find("linked-cell");
    hg_recommendation r;
    CHECK(hg_recommend(p, &sys, NULL, &o, &r, NULL) == HG_OK);
    CHECK(r.bin_T < r.linked_cell_T); /* bin is cheaper here, yet */
    CHECK(r.linked_cell && !r.single_level);
    CHECK(r.model == hg_model_find("linked-cell"));
    hg_recommendation_clear(&r);
    hg_psd_free(p);
}

int main(void)
{
    test_cases();
    test_named_candidates();
    return hg_test_summary("test_single_level");
}
