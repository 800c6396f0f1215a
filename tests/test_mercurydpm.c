/* test_mercurydpm.c - the mercurydpm engine without MercuryDPM: its
 * table, the settings it writes (the top-cell guard in the generated C++),
 * K for MercuryDPM (stored calibration, else the shipped fit), the fit of
 * K on times with known constants, and the runner's refusals when no build
 * is given or a setting is bad. Running MercuryDPM: test_mercurydpm_run
 * (label mercurydpm). */
#include "hgridopt.h"
#include "process.h"
#include "hg_mercurydpm.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void engine_table(void)
{
    const hg_engine *g = hg_engine_find("mercurydpm");
    CHECK(g != NULL);
    if (!g)
        return;
    CHECK(!strcmp(g->settings_format, "mercurydpm"));
    CHECK(g->write_settings && g->validate && g->tune && g->calibrate);
    CHECK(!strcmp(g->models[0], "hgrid-top-down") &&
          !strcmp(g->models[1], "hgrid-bottom-up") && !g->models[2]);
    char buf[1024];
    hg_err e = {0};
    CHECK(hg_engine_constants_text(g, 3, buf, sizeof buf, &e) == HG_OK);
    char want[64];
    snprintf(want, sizeof want, "K = %g (shipped-default",
             hg_mercurydpm_K_shipped(3, NULL));
    CHECK(!strncmp(buf, want, strlen(want)));
    CHECK(strstr(buf, "MercuryDPM") != NULL);
}

/* The export: guard against a top cell at or below the largest
 * interaction diameter, computed at run time from the particle handler. */
static void export_guard(void)
{
    const hg_engine *g = hg_engine_find("mercurydpm");
    hg_psd *psd = NULL;
    hg_psd_ctx ctx = {3, NULL};
    hg_err e = {0};
    CHECK(hg_psd_parse("discrete:r=0.5;2.5,frac=0.5;0.5,basis=volume", &ctx,
                       &psd, &e) == HG_OK);
    hg_system sys = {3, 0.3};
    const double sizes[2] = {1.0, 5.0};
    hg_engine_settings in;
    memset(&in, 0, sizeof in);
    in.psd = psd;
    in.sys = &sys;
    in.model = "hgrid-bottom-up";
    in.algorithm = HG_BOTTOM_UP;
    in.levels = 2;
    in.sizes = sizes;
    in.predicted = NAN;
    in.name = "bidisperse";
    char *text = NULL;
    CHECK(g->write_settings(&in, &text, &e) == HG_OK && text);
    if (text) {
        CHECK(strstr(text, "setHGridMethod(BOTTOMUP);") != NULL);
        CHECK(strstr(text, "setHGridDistribution(USER);") != NULL);
        CHECK(strstr(text, "setHGridMaxLevels(2);") != NULL);
        /* printed sizes as given (no decimal nudge), nudged at run time */
        CHECK(strstr(text, "sizes[2] = {1, 5};") != NULL);
        CHECK(strstr(text, "std::nextafter(sizes[level < 2 ? level : 1], "
                           "up)") != NULL);
        CHECK(strstr(text, "for (BaseParticle* const p : particleHandler)") !=
              NULL);
        CHECK(strstr(text, "p->getMaxInteractionRadius()") != NULL);
        CHECK(strstr(text, "getHGridCellOverSizeRatio()") != NULL);
        CHECK(strstr(text, "return std::max(s, std::nextafter(reach, up));") !=
              NULL);
        char want[64];
        snprintf(want, sizeof want, "K %.4g;", hg_mercurydpm_K_shipped(3,
                                                                     NULL));
        CHECK(strstr(text, want) != NULL);
        CHECK(strstr(text, "for MercuryDPM") != NULL);
    }
    free(text);
    /* a grid with its prediction is written as given, with its K */
    hg_model_values v = {0};
    hg_work w;
    CHECK(hg_model_values_set(&v, "K", 0.7, &e) == HG_OK);
    CHECK(hg_cost_evaluate(hg_model_find("hgrid-bottom-up"), psd, &sys, &v,
                           2, sizes, NULL, &w, &e) == HG_OK);
    hg_export_input x = {0};
    x.psd = psd;
    x.sys = &sys;
    x.algorithm = HG_BOTTOM_UP;
    x.levels = 2;
    x.sizes = sizes;
    x.T = w.T;
    x.T_cd = w.T_cd;
    x.T_ca = w.T_ca;
    x.K = 0.7;
    x.T_linked_cell = NAN;
    x.K_note = "command-line, for MercuryDPM: --K 0.7";
    in.grid = &x;
    CHECK(g->write_settings(&in, &text, &e) == HG_OK && text);
    CHECK(text && strstr(text, "K 0.7;") && strstr(text, "K from command-line"));
    free(text);
    in.grid = NULL;
    /* refusals */
    in.levels = 0;
    CHECK(g->write_settings(&in, &text, &e) == HG_EINVAL && !text);
    hg_psd_free(psd);
}

static void K_choice(const char *dir)
{
    hg_K_request rq = {hg_engine_find("mercurydpm"), 3, NULL, 0, 0.0, NULL,
                       NULL};
    hg_K_choice c;
    hg_err e = {0};
    char path[4096];
    snprintf(path, sizeof path, "%s/mercurydpm.json", dir);
    setenv("HGRIDOPT_MERCURYDPM_CALIBRATION", path, 1);
    CHECK(hg_K_resolve(&rq, &c, &e) == HG_OK);
    CHECK(c.source == HG_K_SOURCE_SHIPPED &&
          c.K == hg_mercurydpm_K_shipped(3, NULL));
    CHECK(strstr(c.detail, "MercuryDPM") != NULL);
    rq.command_line = "auto"; /* needs the stored file */
    CHECK(hg_K_resolve(&rq, &c, &e) != HG_OK);
    rq.command_line = "paper";
    CHECK(hg_K_resolve(&rq, &c, &e) == HG_OK && c.K == HG_K_PAPER);
    rq.command_line = "shipped";
    CHECK(hg_K_resolve(&rq, &c, &e) == HG_OK &&
          c.K == hg_mercurydpm_K_shipped(3, NULL));
    rq.command_line = NULL;
    /* a stored MercuryDPM calibration wins; the bundled HGrid's file is
     * not read for MercuryDPM and the MercuryDPM file not for it */
    hg_calibration cal;
    memset(&cal, 0, sizeof cal);
    cal.K = 1.75;
    cal.a = 2e-8;
    cal.b = 3.5e-8;
    cal.dim = 3;
    snprintf(cal.created, sizeof cal.created, "2026-11-25T19:00:00Z");
    CHECK(hg_calibration_save(&cal, path, &e) == HG_OK);
    CHECK(hg_K_resolve(&rq, &c, &e) == HG_OK);
    CHECK(c.source == HG_K_SOURCE_CALIBRATION && c.K == 1.75);
    CHECK(strstr(c.detail, path) != NULL);
    rq.engine = hg_engine_find("hgrid");
    CHECK(hg_K_resolve(&rq, &c, &e) == HG_OK &&
          c.source == HG_K_SOURCE_SHIPPED && c.K == hg_K_shipped(3, NULL));
    rq.engine = hg_engine_find("mercurydpm");
    rq.dim = 2; /* no 2D entry: the shipped value, saying why */
    CHECK(hg_K_resolve(&rq, &c, &e) == HG_OK &&
          c.source == HG_K_SOURCE_SHIPPED && strstr(c.detail, "no 2D"));
    const hg_engine *g = hg_engine_find("mercurydpm");
    char buf[1024];
    CHECK(hg_engine_constants_text(g, 3, buf, sizeof buf, &e) == HG_OK &&
          !strncmp(buf, "K = 1.75 (calibration-file", 26));
    remove(path);
    char p2[4200];
    snprintf(p2, sizeof p2, "%s/none.json", dir);
    setenv("HGRIDOPT_MERCURYDPM_CALIBRATION", p2, 1);
}

/* seconds = n (a T_cd + b T_ca) + c_p: the fit recovers a, b, K and the
 * offsets exactly from noiseless samples, and refuses bad ones. */
static void fit(void)
{
    const double a = 2.0e-8, b = 3.0e-8, c[3] = {1e-3, 4e-3, 2e-2};
    hg_mercurydpm_sample x[18];
    int m = 0;
    for (int p = 0; p < 3; p++)
        for (int k = 0; k < 6; k++) {
            x[m].packing = p;
            x[m].n = 1000.0 * (p + 1);
            x[m].T_cd = 3.0 + 7.0 * k * k + p;
            x[m].T_ca = 14.0 + 9.0 * k + 2.0 * p * k;
            x[m].seconds = x[m].n * (a * x[m].T_cd + b * x[m].T_ca) + c[p];
            m++;
        }
    hg_mercurydpm_fit f;
    hg_err e = {0};
    CHECK(hg_mercurydpm_fit_K(x, m, &f, &e) == HG_OK);
    CHECK_CLOSE(f.K, 1.5, 1e-6, 0.0);
    CHECK_CLOSE(f.a, a, 1e-6, 0.0);
    CHECK_CLOSE(f.b, b, 1e-6, 0.0);
    CHECK(f.n_packings == 3);
    for (int p = 0; p < 3; p++)
        CHECK_CLOSE(f.c[p], c[p], 1e-5, 1e-12);
    CHECK(f.max_error < 1e-6 && f.K_se < 1e-6);
    /* refusals */
    /* one packing: 3 unknowns need 4 samples */
    CHECK(hg_mercurydpm_fit_K(x, 3, &f, &e) == HG_EINVAL &&
          strstr(e.msg, "3 samples for 3 unknowns"));
    x[0].packing = 9;
    CHECK(hg_mercurydpm_fit_K(x, m, &f, &e) == HG_EINVAL &&
          strstr(e.msg, "packing 9"));
    x[0].packing = 0;
    x[3].seconds = -1.0;
    CHECK(hg_mercurydpm_fit_K(x, m, &f, &e) == HG_EINVAL &&
          strstr(e.msg, "sample 3"));
    x[3].seconds = 1e-3;
    x[6].packing = 2; /* packing 1 keeps 5 samples, 2 gets 7 */
    for (int k = 7; k < 12; k++)
        x[k].packing = 2;
    CHECK(hg_mercurydpm_fit_K(x, m, &f, &e) == HG_EINVAL &&
          strstr(e.msg, "packing 1 has 0 samples"));
    /* times that fall with more pair checks: no positive a */
    for (int k = 0; k < 6; k++) {
        x[k].packing = 0;
        x[k].seconds = 1.0 / (1.0 + k);
    }
    CHECK(hg_mercurydpm_fit_K(x, 6, &f, &e) == HG_ENUMERIC);
}

static void runner_refusals(const char *dir)
{
    hg_err e = {0};
    char build[4096];
    unsetenv("HG_MERCURYDPM_DIR");
    CHECK(hg_mercurydpm_find(NULL, build, sizeof build, &e) == HG_EIO);
    CHECK(strstr(e.msg, "HG_MERCURYDPM_DIR") && strstr(e.msg, "--program"));
    CHECK(hg_mercurydpm_find(dir, build, sizeof build, &e) == HG_EIO);
    CHECK(strstr(e.msg, "libMercuryBase.a") != NULL);
    setenv("HG_MERCURYDPM_DIR", dir, 1);
    CHECK(hg_mercurydpm_find(NULL, build, sizeof build, &e) == HG_EIO &&
          strstr(e.msg, dir));
    unsetenv("HG_MERCURYDPM_DIR");
    /* the driver times what the engine says */
    const char *src = hg_mercurydpm_driver_source();
    CHECK(strstr(src, "hGridActionsBeforeTimeStep()") &&
          strstr(src, "computeAllForces()") && strstr(src, "PeriodicBoundary") &&
          strstr(src, "InfiniteWall") && strstr(src, "getMaxInteractionRadius"));

    hg_particles p;
    CHECK(hg_particles_alloc(&p, 3, 4, &e) == HG_OK);
    for (size_t i = 0; i < 4; i++) {
        p.r[i] = 0.05 + 0.01 * (double)i;
        for (int c = 0; c < 3; c++)
            p.x[3 * i + c] = 0.2 + 0.15 * (double)i;
    }
    hg_mercurydpm_setting s;
    hg_mercurydpm_setting_default(&s);
    CHECK(s.algorithm == HG_TOP_DOWN && !s.user && s.levels == 3);
    hg_engine_run run;
    memset(&run, 0, sizeof run);
    run.steps = 2;
    run.repeats = 1;
    hg_mercurydpm_timing t;
    s.levels = 0;
    CHECK(hg_mercurydpm_run(&p, &s, 1, &run, &t, &e) == HG_EINVAL &&
          strstr(e.msg, "levels 0"));
    s.levels = 2;
    s.user = 1;
    s.sizes[0] = 0.2;
    s.sizes[1] = 0.1; /* decreasing */
    CHECK(hg_mercurydpm_run(&p, &s, 1, &run, &t, &e) == HG_EINVAL &&
          strstr(e.msg, "non-decreasing"));
    s.sizes[0] = 0.1;
    s.sizes[1] = 0.12; /* top below the largest diameter 0.16 */
    CHECK(hg_mercurydpm_run(&p, &s, 1, &run, &t, &e) == HG_EINVAL &&
          strstr(e.msg, "below the largest diameter"));
    s.sizes[1] = 0.2;
    run.steps = 0;
    CHECK(hg_mercurydpm_run(&p, &s, 1, &run, &t, &e) == HG_EINVAL &&
          strstr(e.msg, "steps 0"));
    run.steps = 2;
    CHECK(hg_mercurydpm_run(&p, &s, 1, &run, &t, &e) == HG_EIO); /* no build */
    /* the engine's runners need packings, then a build */
    const hg_engine *g = hg_engine_find("mercurydpm");
    hg_engine_report rep;
    CHECK(g->validate(&run, &rep, &e) == HG_EINVAL &&
          strstr(e.msg, "packing"));
    const hg_particles *pp[1] = {&p};
    run.packings = pp;
    run.n_packings = 1;
    CHECK(g->calibrate(&run, &rep, &e) == HG_EIO);
    free(rep.points);
    hg_particles_clear(&p);
}

/* The runner's paired medians: a drift of the machine between repeats
 * (every setting of repeat r slower by the same factor) cancels; plain
 * medians would rank these settings wrongly. */
static void paired_medians(void)
{
    enum { N = 3, R = 5 };
    const double drift[R] = {1.0, 2.0, 1.1, 1.9, 1.05};
    const double base[N] = {10.0, 9.0, 12.0};
    double x[N * R], out[N];
    for (int k = 0; k < N; k++)
        for (int r = 0; r < R; r++)
            x[k * R + r] = base[k] * drift[r];
    /* setting 1 (10 % faster in every repeat) disturbed by 30 % in two of
     * the fast repeats: its plain median (12.87) lies above setting 0's
     * (11), its ratio to setting 0 in the same repeat stays 0.9 in three */
    x[1 * R + 2] = 9.0 * 1.1 * 1.3;
    x[1 * R + 4] = 9.0 * 1.05 * 1.3;
    hg_err e = {0};
    CHECK(hg_code_paired_medians(x, N, R, out, &e) == HG_OK);
    CHECK(fabs(out[0] - 10.0 * 1.1) < 1e-12);     /* median of setting 0 */
    CHECK(out[1] < out[0] && out[2] > out[0]);    /* the true order */
    {
        double plain[R];
        for (int r = 0; r < R; r++)
            plain[r] = x[1 * R + r];
        CHECK(hg_code_median(plain, R) > out[0]); /* what it corrects */
    }
    CHECK(fabs(out[2] / out[0] - 1.2) < 1e-12);   /* exact without noise */
    CHECK(fabs(out[1] - 9.9) < 1e-12);
    CHECK(x[1 * R + 0] == 9.0);                   /* x not changed */
}

/* issue 48, item 5: in 2D the K of spheres stands in, and says so with
 * what it can cost (measured with the model on disk packings) */
static void test_K_2d_said(void)
{
    const char *w2 = NULL, *w3 = NULL;
    double k2 = hg_mercurydpm_K_shipped(2, &w2);
    double k3 = hg_mercurydpm_K_shipped(3, &w3);
    CHECK(k2 == k3 && w2 && w3 && w2 != w3);
    CHECK(w2 && strstr(w2, "the 3D value, not measured on disks") &&
          strstr(w2, "at most 15 % more work"));
    CHECK(w3 && !strstr(w3, "3D value"));
}

int main(void)
{
    test_K_2d_said();
    setenv("HGRIDOPT_CALIBRATION", "/nonexistent/hg-test-calibration.json", 1);
    char dir[] = "/tmp/hg-test-mdpm-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char none[4200];
    snprintf(none, sizeof none, "%s/none.json", dir);
    setenv("HGRIDOPT_MERCURYDPM_CALIBRATION", none, 1);
    engine_table();
    export_guard();
    K_choice(dir);
    fit();
    runner_refusals(dir);
    paired_medians();
    rmdir(dir);
    return hg_test_summary("test_mercurydpm");
}
