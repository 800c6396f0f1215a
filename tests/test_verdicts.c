/* test_verdicts.c - validate's verdicts: sizes that round to the same
 * whole-cell size are merged (not an empty level), boxes with fewer than 3
 * cells per edge are refused with the N that works (and at that N the
 * measured work matches the prediction), the detection is timed over
 * repeats (median, min-max) and a speed-up far from the prediction names
 * K and how to calibrate it; a one-level HGrid of the linked cell's size
 * is the linked cell, timed once (issue 48); counts too small to judge a
 * ratio are said with the N that is enough; coincident particles are
 * counted. */
#include "hg_opt.h"
#include "hg_pack.h"
#include "hg_engine.h"
#include "hg_validate.h"
#include "testutil.h"
#include "measure.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static hg_psd *psd_of(const char *spec, int dim)
{
    hg_psd *p = hg_test_psd(spec, dim);
    CHECK(p != NULL);
    return p;
}

static int has_note(const hg_validation *v, const char *a, const char *b)
{
    for (int i = 0; i < v->n_notes; i++)
        if (strstr(v->notes[i], a) && (!b || strstr(v->notes[i], b)))
            return 1;
    return 0;
}

/* issue item 5: --sizes 4,4.01,20 rounded both small sizes to the same
 * value and gave an empty level with ratio nan */
static void test_merged_sizes(void)
{
    hg_err e = {0};
    hg_psd *psd = psd_of("powerlaw:alpha=-3,omega=10", 2);
    if (!psd)
        return;
    double s[3] = {4.0, 4.01, 20.0};
    hg_validate_params vp = {0};
    vp.sys = (hg_system){2, 0.4};
    vp.model = hg_model_for_grid(HG_TOP_DOWN);
    vp.L = 3;
    vp.sizes = s;
    vp.n = 20000;
    vp.seed = 1;
    vp.baseline = 0;
    hg_measure_options_default(&vp.measure);
    vp.measure.repeats = 1;
    hg_validation v = {0};
    int st = hg_validate(psd, &vp, &v, &e);
    CHECK(st == HG_OK);
    if (st) {
        fprintf(stderr, "merged: %s\n", e.msg);
    } else {
        CHECK(v.hgrid.levels == 2 && v.requested_levels == 3 &&
              v.merged_levels == 1);
        CHECK(has_note(&v, "4.01", "merged into one level"));
        for (int h = 0; h < v.hgrid.levels; h++) {
            const hg_validate_level *l = &v.hgrid.per_level[h];
            CHECK(l->predicted_fraction > 0.0 && l->measured_fraction > 0.0);
            CHECK_CLOSE(l->measured_T_ca / l->predicted_T_ca, 1.0, 0.02, 0);
        }
        for (int h = 1; h < v.hgrid.levels; h++)
            CHECK(v.hgrid.sizes[h] > v.hgrid.sizes[h - 1]);
    }
    hg_validation_clear(&v);
    /* distinct after rounding: nothing merged, no note */
    s[1] = 9.0;
    CHECK(hg_validate(psd, &vp, &v, &e) == HG_OK && v.hgrid.levels == 3 &&
          v.merged_levels == 0 && !has_note(&v, "merged", NULL));
    hg_validation_clear(&v);
    hg_psd_free(psd);
}

/* issue item 6: the 3D reference case at N = 1e5 has 2 cells of the
 * largest size per box edge; the linked cell's T_ca came out 4.5 against
 * 14 predicted */
static void test_small_box(const char *spec, int dim, double nu)
{
    hg_err e = {0};
    hg_psd *psd = psd_of(spec, dim);
    if (!psd)
        return;
    double lc = 2.0 * hg_psd_rmax(psd);
    hg_system sys = {dim, nu};
    size_t nmin = 0;
    CHECK(hg_validate_min_particles(psd, &sys, 1, &lc, &nmin, &e) == HG_OK);
    /* the smallest: nmin holds 3 cells of 2 r_max per edge, nmin - 1 not */
    double A = hg_pack_box_edge(psd, dim, nmin, nu);
    double A1 = hg_pack_box_edge(psd, dim, nmin - 1, nu);
    double rs;
    CHECK(hg_pack_round_sizes(A, 1, &lc, &rs, &e) == HG_OK &&
          A / rs > 2.999);
    CHECK(hg_pack_round_sizes(A1, 1, &lc, &rs, &e) == HG_OK &&
          A1 / rs < 2.999);
    double s[4];
    CHECK(hg_sizes_exponential(psd, 4, s, &e) == HG_OK);
    hg_validate_params vp = {0};
    vp.sys = sys;
    vp.model = hg_model_for_grid(HG_TOP_DOWN);
    vp.L = 4;
    vp.sizes = s;
    vp.n = nmin * 6 / 10;
    vp.seed = 3;
    vp.baseline = 1;
    hg_measure_options_default(&vp.measure);
    vp.measure.repeats = 1;
    vp.measure.budget = 2e7;
    hg_validation v = {0};
    char want[64];
    snprintf(want, sizeof want, "use --n %zu", nmin);
    CHECK(hg_validate(psd, &vp, &v, &e) == HG_EINVAL &&
          strstr(e.msg, want) && strstr(e.msg, "fewer than 3"));
    /* at nmin the measurement describes what the model predicts */
    vp.n = nmin;
    int st = hg_validate(psd, &vp, &v, &e);
    CHECK(st == HG_OK);
    if (st) {
        fprintf(stderr, "small box: %s\n", e.msg);
    } else {
        /* the linked cell (issue: T_ca 4.54 against 14): exact cell
         * accesses; the HGrid within its sampling noise (few particles on
         * the coarse levels of a small box) */
        const hg_validate_run *l = &v.linked_cell, *h = &v.hgrid;
        CHECK_CLOSE(l->measured_T_ca / l->predicted_T_ca, 1.0, 1e-9, 0);
        CHECK_CLOSE(l->measured_T_cd / l->predicted_T_cd, 1.0, 0.03, 0);
        double tol = 0.03 + 2.0 / sqrt((double)nmin);
        CHECK_CLOSE(h->measured_T_ca / h->predicted_T_ca, 1.0, tol, 0);
        CHECK_CLOSE(h->measured_T_cd / h->predicted_T_cd, 1.0, tol, 0);
    }
    hg_validation_clear(&v);
    hg_psd_free(psd);
}

/* issue item 7: timing over repeats, the K note */
static void test_repeats_and_notes(void)
{
    hg_err e = {0};
    hg_psd *psd = psd_of("powerlaw:alpha=-3,omega=20", 2);
    if (!psd)
        return;
    hg_measure_options mo;
    hg_measure_options_default(&mo);
    CHECK(mo.repeats == 5);
    double s[5] = {4.0, 7.9, 15.1, 27.2, 40.0};
    hg_K_choice kc = {1e-6, HG_K_SOURCE_COMMAND_LINE, hg_engine_at(0), 2,
                      "--K 1e-6"};
    hg_validate_params vp = {0};
    /* K ~ 0 predicts a speed-up of T_cd alone (~60): far above what any
     * machine measures, so the K note must appear */
    vp.sys = (hg_system){2, 0.4};
    CHECK(hg_model_values_set(&vp.values, "K", 1e-6, &e) == HG_OK);
    vp.model = hg_model_for_grid(HG_TOP_DOWN);
    vp.L = 5;
    vp.sizes = s;
    vp.n = 20000;
    vp.seed = 1;
    vp.baseline = 1;
    vp.measure = mo;
    vp.measure.repeats = 3;
    vp.K_choice = &kc;
    hg_validation v = {0};
    int st = hg_validate(psd, &vp, &v, &e);
    CHECK(st == HG_OK);
    if (st) {
        fprintf(stderr, "repeats: %s\n", e.msg);
    } else {
        const hg_validate_run *r[2] = {&v.hgrid, &v.linked_cell};
        for (int i = 0; i < 2; i++) {
            CHECK(r[i]->repeats == 3 && r[i]->inner >= 1);
            CHECK(r[i]->seconds_min <= r[i]->seconds &&
                  r[i]->seconds <= r[i]->seconds_max &&
                  r[i]->seconds_min > 0.0);
        }
        CHECK(v.speedup_min <= v.measured_speedup &&
              v.measured_speedup <= v.speedup_max &&
              v.measured_speedup_cpu > 0.0);
        CHECK(v.predicted_speedup > 40.0);
        CHECK(!has_note(&v, "timed once", NULL));
    }
    /* the K note follows from the speed-ups alone (measured here: noisy
     * on a busy machine), so it is checked on given numbers: more than 2
     * times off the prediction, and not */
    if (st == HG_OK) {
        hg_validation w = v;
        w.n_notes = 0;
        w.measured_speedup = w.predicted_speedup / 3.0;
        hg_validate_timing_notes(&vp, &w);
        CHECK(has_note(&w, "K = 1e-06 (command-line)",
                       "hgridopt calibrate --dim 2 --save"));
        w.n_notes = 0;
        w.measured_speedup = w.predicted_speedup / 1.5;
        hg_validate_timing_notes(&vp, &w);
        CHECK(!has_note(&w, "K = 1e-06", NULL));
    }
    hg_validation_clear(&v);
    /* one repeat is said to be noisy */
    vp.measure.repeats = 1;
    vp.baseline = 0;
    CHECK(hg_validate(psd, &vp, &v, &e) == HG_OK &&
          has_note(&v, "HGrid timed once", NULL));
    hg_validation_clear(&v);
    hg_psd_free(psd);
}


/* issue 48: on a 100-atom file the one-level HGrid and the linked cell
 * were timed separately (0.032 s against 3.1e-5 s) and K was blamed */
static void test_same_grid(void)
{
    hg_err e = {0};
    hg_psd *psd = psd_of("powerlaw:alpha=0,omega=1.2", 3);
    if (!psd)
        return;
    double s = 2.0 * hg_psd_rmax(psd);
    hg_validate_params vp = {0};
    vp.sys = (hg_system){3, 0.2};
    vp.model = hg_model_for_grid(HG_TOP_DOWN);
    vp.L = 1;
    vp.sizes = &s;
    vp.n = 3000;
    vp.seed = 1;
    vp.baseline = 1;
    hg_measure_options_default(&vp.measure);
    vp.measure.repeats = 3;
    hg_validation v = {0};
    int st = hg_validate(psd, &vp, &v, &e);
    CHECK(st == HG_OK);
    if (st == HG_OK) {
        CHECK(v.same_grid == 1 && v.has_baseline == 1);
        CHECK(v.measured_speedup == 1.0 && v.speedup_min == 1.0 &&
              v.speedup_max == 1.0 && v.measured_speedup_cpu == 1.0);
        CHECK_CLOSE(v.predicted_speedup, 1.0, 1e-12, 0);
        CHECK(v.linked_cell.levels == 1 &&
              v.linked_cell.seconds == v.hgrid.seconds &&
              v.linked_cell.measured_T_cd == v.hgrid.measured_T_cd &&
              v.linked_cell.per_level != v.hgrid.per_level);
        CHECK(has_note(&v, "is the linked cell: the same grid, timed once",
                       NULL));
        CHECK(!has_note(&v, "likely cause is K", NULL) &&
              !has_note(&v, "linked cell detection times", NULL));
    }
    hg_validation_clear(&v);
    /* two levels: two grids, timed apart */
    double s2[2] = {0.6 * s, s};
    vp.L = 2;
    vp.sizes = s2;
    vp.measure.repeats = 1;
    CHECK(hg_validate(psd, &vp, &v, &e) == HG_OK && v.same_grid == 0 &&
          !has_note(&v, "the same grid", NULL));
    hg_validation_clear(&v);
    hg_psd_free(psd);
}

/* issue 48: a ratio 1.106 of ~33 pair checks was reported silently */
static void test_small_counts(void)
{
    hg_err e = {0};
    hg_psd *psd = psd_of("powerlaw:alpha=0,omega=1.2", 3);
    if (!psd)
        return;
    hg_particles p = {0};
    hg_pack_params pp = {3, 30, 0.05, 3, 1};
    CHECK(hg_pack_poisson(psd, &pp, &p, &e) == HG_OK);
    double s = 2.0 * hg_psd_rmax(psd);
    hg_validate_params vp = {0};
    vp.sys = (hg_system){3, 0.05};
    vp.sys.structure = HG_STRUCTURE_POISSON;
    vp.model = hg_model_for_grid(HG_TOP_DOWN);
    vp.L = 1;
    vp.sizes = &s;
    vp.baseline = 0;
    hg_measure_options_default(&vp.measure);
    vp.measure.repeats = 1;
    hg_validation v = {0};
    int st = hg_validate_particles(psd, &vp, &p, &v, &e);
    CHECK(st == HG_OK);
    if (st == HG_OK) {
        double checks = v.hgrid.measured_T_cd * (double)v.n;
        char want[96];
        snprintf(want, sizeof want, "only %.0f pair checks counted", checks);
        CHECK(checks < HG_VALIDATE_ENOUGH);
        CHECK(has_note(&v, want, "400 are enough"));
        /* the N named gives 400: N = n 400 / count */
        snprintf(want, sizeof want, "about N = %.0f particles",
                 ceil(30.0 * HG_VALIDATE_ENOUGH / checks));
        CHECK(has_note(&v, want, NULL));
    }
    hg_validation_clear(&v);
    hg_particles_clear(&p);
    /* 20000 particles: every count is enough, no note */
    double s5[5] = {4.0, 7.9, 15.1, 27.2, 40.0};
    hg_psd *p2 = psd_of("powerlaw:alpha=-3,omega=20", 2);
    if (p2) {
        vp.sys = (hg_system){2, 0.4};
        vp.L = 5;
        vp.sizes = s5;
        vp.n = 20000;
        vp.seed = 1;
        CHECK(hg_validate(p2, &vp, &v, &e) == HG_OK &&
              !has_note(&v, "pair checks counted", NULL));
        hg_validation_clear(&v);
        hg_psd_free(p2);
    }
    hg_psd_free(psd);
}

/* issue 48: two atoms at one position were reported only as the largest
 * overlap */
static void test_coincident(void)
{
    hg_err e = {0};
    hg_particles p = {0};
    CHECK(hg_particles_alloc(&p, 3, 6, &e) == HG_OK);
    if (!p.x)
        return;
    const double x[6][3] = {{1, 2, 3}, {4, 5, 6}, {1, 2, 3},
                            {7, 8, 9}, {4, 5, 6}, {1, 2, 3}};
    for (int i = 0; i < 6; i++) {
        memcpy(&p.x[3 * i], x[i], sizeof x[i]);
        p.r[i] = 0.5;
    }
    size_t n = 9, m = 9, a = 99, b = 99;
    CHECK(hg_particles_coincident(&p, &n, &m, &a, &b, &e) == HG_OK);
    CHECK(n == 5 && m == 2 && a == 0 && b == 2);
    p.x[3 * 4] = 4.0 + 1e-12; /* apart: one shared centre left */
    p.x[0] = -0.0;
    p.x[6] = 0.0; /* -0 and 0 are one position */
    CHECK(hg_particles_coincident(&p, &n, &m, &a, &b, &e) == HG_OK);
    CHECK(n == 2 && m == 1 && a == 0 && b == 2);
    p.x[15] = 3.0;
    p.x[16] = 1.0; /* particle 5 moved: none shared but 0 and 2 */
    CHECK(hg_particles_coincident(&p, &n, &m, &a, &b, &e) == HG_OK &&
          n == 2 && m == 1);
    p.x[0] = 9.0;
    CHECK(hg_particles_coincident(&p, &n, &m, &a, &b, &e) == HG_OK &&
          n == 0 && m == 0);
    hg_particles_clear(&p);
}

int main(void)
{
    test_same_grid();
    test_small_counts();
    test_coincident();
    test_merged_sizes();
    test_small_box("powerlaw:alpha=-3,omega=100", 3, 0.7);
    test_small_box("powerlaw:alpha=-3,omega=20", 2, 0.4);
    test_repeats_and_notes();
    return hg_test_summary("test_verdicts");
}
