/* test_calib.c - the K calibration: the fit on synthetic timings, a small
 * real calibration run, the calibration file and its rejections. */
#include "hg_calib.h"
#include "hg_engine.h"
#include "hg_grid.h"
#include "hg_mercurydpm.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* hg_K_resolve: the source of K per target, command line, system file and
 * calibration file (path holds a 2D entry K = 1.25 and a 3D one K = 0.3). */
static void test_resolve(const char *path)
{
    hg_err e = {0};
    hg_K_choice k;
    const hg_engine *hgrid = hg_engine_find("hgrid"),
                    *mdpm = hg_engine_find("mercurydpm"),
                    *lmp = hg_engine_find("lammps");
    hg_K_request rq = {hgrid, 2, NULL, 0, 0.0, NULL, path};
    /* MercuryDPM reads its own file (none here) */
    setenv("HGRIDOPT_MERCURYDPM_CALIBRATION",
           "/nonexistent/hg/mercurydpm.json", 1);
    /* bundled HGrid: the calibration of the same dimension */
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_OK && k.K == 1.25 &&
          k.source == HG_K_SOURCE_CALIBRATION && strstr(k.detail, path));
    rq.dim = 3;
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_OK && k.K == 0.3);
    /* MercuryDPM: its own file, not the bundled HGrid's: without one the
     * K fitted in MercuryDPM; LAMMPS like the bundled HGrid */
    rq.engine = mdpm;
    rq.calibration_path = NULL; /* the engine's own */
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_OK &&
          k.K == hg_mercurydpm_K_shipped(3, NULL) &&
          k.source == HG_K_SOURCE_SHIPPED && strstr(k.detail, "MercuryDPM"));
    rq.engine = lmp;
    rq.calibration_path = path;
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_OK && k.K == 0.3 &&
          k.source == HG_K_SOURCE_CALIBRATION);
    /* system file beats the target's default, command line beats both */
    rq.has_file_K = 1;
    rq.file_K = 0.7;
    rq.file_path = "sys.json";
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_OK && k.K == 0.7 &&
          k.source == HG_K_SOURCE_SYSTEM_FILE && strstr(k.detail, "sys.json"));
    rq.command_line = "0.45";
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_OK && k.K == 0.45 &&
          k.source == HG_K_SOURCE_COMMAND_LINE);
    rq.command_line = "paper";
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_OK && k.K == HG_K_PAPER);
    rq.command_line = "shipped";
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_OK && k.K == hg_K_shipped(3, NULL) &&
          k.source == HG_K_SOURCE_SHIPPED);
    rq.command_line = "auto";
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_OK && k.K == 0.3 &&
          k.source == HG_K_SOURCE_CALIBRATION);
    static const char *badK[] = {"0", "-1", "x", "", "nan"};
    for (size_t i = 0; i < sizeof badK / sizeof *badK; i++) {
        rq.command_line = badK[i];
        CHECK(hg_K_resolve(&rq, &k, &e) != HG_OK && strstr(e.msg, "--K"));
    }
    /* no calibration file: the shipped default of the same dimension, and
     * --K auto is an error that says how to write the file */
    rq = (hg_K_request){hgrid, 2, NULL, 0, 0.0, NULL,
                        "/nonexistent/hg/calibration.json"};
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_OK &&
          k.K == hg_K_shipped(2, NULL) && k.source == HG_K_SOURCE_SHIPPED &&
          strstr(k.detail, "2D"));
    CHECK(hg_K_shipped(2, NULL) > 0.2 && hg_K_shipped(3, NULL) > 0.2 &&
          isnan(hg_K_shipped(4, NULL)));
    /* the 3D default follows the pair loop in use (2D has one loop) */
    {
        const char *w3;
        int had = hg_grid_simd(-1);
        hg_grid_simd(0);
        CHECK(hg_K_shipped(3, &w3) == 0.8 && !strstr(w3, "AVX2") &&
              hg_K_shipped(2, NULL) == 1.2);
        if (hg_grid_simd(1)) {
            CHECK(hg_K_shipped(3, &w3) == 2.1 && strstr(w3, "AVX2") &&
                  hg_K_shipped(2, NULL) == 1.2);
        }
        hg_grid_simd(had);
    }
    rq.command_line = "auto";
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_EIO &&
          strstr(e.msg, "calibrate --dim 2 --save"));
    rq.dim = 5;
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_EINVAL);
    CHECK(hg_K_resolve(NULL, &k, &e) == HG_EINVAL);
    CHECK(!strcmp(hg_K_source_name(HG_K_SOURCE_SHIPPED), "shipped-default"));
    /* an engine without K is refused */
    rq.engine = hg_engine_find("liggghts");
    rq.dim = 3;
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_EINVAL && strstr(e.msg, "no K"));
    /* the engine of an output format, for every command alike */
    CHECK(hg_engine_K_of(NULL, "mercurydpm") == mdpm);
    CHECK(hg_engine_K_of(NULL, "lammps") == lmp);
    CHECK(hg_engine_K_of(NULL, "table") == hgrid);
    CHECK(hg_engine_K_of(NULL, "json") == hgrid);
    CHECK(hg_engine_K_of(NULL, NULL) == hgrid);
    hg_K_request mq = {mdpm, 3, "paper", 0, 0.0, NULL, NULL};
    char line[700];
    CHECK(hg_K_resolve(&mq, &k, &e) == HG_OK && k.K == HG_K_PAPER);
    hg_K_choice_describe(&k, line, sizeof line);
    CHECK(!strncmp(line, "paper, for MercuryDPM: paper value", 34));
    CHECK(!strcmp(hg_K_target(&k), "MercuryDPM"));
    k.engine = hgrid;
    CHECK(!strncmp(hg_K_choice_describe(&k, line, sizeof line),
                   "paper, for the bundled HGrid: ", 30));
    CHECK(strlen(hg_K_choice_describe(&k, line, 12)) == 11);
}

/* A 3D-only calibration file is never used for a 2D system: the shipped 2D
 * default instead (said in the detail), and --K auto fails. */
static void test_resolve_other_dim(void)
{
    char path[256];
    hg_err e = {0};
    snprintf(path, sizeof path, "/tmp/hg_calib_dim_%ld.json", (long)getpid());
    hg_calibration w = {0};
    w.K = 9.0;
    w.dim = 3;
    CHECK(hg_calibration_save(&w, path, &e) == HG_OK);
    hg_K_choice k;
    hg_K_request rq = {hg_engine_find("hgrid"), 2, NULL, 0, 0.0, NULL, path};
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_OK && k.K != 9.0 &&
          k.source == HG_K_SOURCE_SHIPPED &&
          strstr(k.detail, "no 2D calibration") != NULL);
    rq.command_line = "auto";
    CHECK(hg_K_resolve(&rq, &k, &e) == HG_EUNKNOWN &&
          strstr(e.msg, "only a 3D one") && strstr(e.msg, "--dim 2 --save"));
    remove(path);
}

static void test_fit(void)
{
    hg_err e = {0};
    hg_calibration c = {0};
    c.npoints = 6;
    c.points = calloc(6, sizeof *c.points);
    const double a = 2e-9, b = 5e-10; /* K = 0.25 */
    const double tcd[6] = {1, 5, 20, 100, 3, 40};
    const double tca[6] = {30, 14, 20, 14, 60, 27};
    for (int i = 0; i < 6; i++) {
        c.points[i].T_cd = tcd[i];
        c.points[i].T_ca = tca[i];
        c.points[i].seconds = a * tcd[i] + b * tca[i];
    }
    CHECK(hg_calibration_fit(&c, &e) == HG_OK);
    CHECK_CLOSE(c.K, 0.25, 1e-9, 0);
    CHECK_CLOSE(c.a, a, 1e-9, 0);
    CHECK_CLOSE(c.b, b, 1e-9, 0);
    CHECK_CLOSE(c.r2, 1.0, 1e-9, 0);
    CHECK(c.K_se < 1e-6);
    /* 2 % noise: K close, errors and R^2 sensible */
    const double noise[6] = {0.02, -0.015, 0.01, -0.02, 0.005, -0.01};
    for (int i = 0; i < 6; i++)
        c.points[i].seconds *= 1.0 + noise[i];
    CHECK(hg_calibration_fit(&c, &e) == HG_OK);
    CHECK_CLOSE(c.K, 0.25, 0.1, 0);
    CHECK(c.K_se > 0.0 && c.K_se < 0.1);
    CHECK(c.r2 > 0.9 && c.r2 < 1.0);
    /* rejections */
    c.points[2].seconds = -1.0;
    CHECK(hg_calibration_fit(&c, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "point 2") != NULL);
    c.points[2].seconds = NAN;
    CHECK(hg_calibration_fit(&c, &e) == HG_EINVAL);
    c.points[2].seconds = 1e-7;
    c.npoints = 2;
    CHECK(hg_calibration_fit(&c, &e) == HG_EINVAL);
    /* cell accesses cost nothing or less: b <= 0 is refused */
    c.npoints = 6;
    for (int i = 0; i < 6; i++)
        c.points[i].seconds = 1e-9 * tcd[i] - 1e-11 * tca[i];
    CHECK(hg_calibration_fit(&c, &e) == HG_ENUMERIC);
    hg_calibration_clear(&c);
    hg_calibration_clear(NULL);
}

static void test_run_and_file(void)
{
    hg_err e = {0};
    hg_psd_ctx ctx = {3, NULL};
    hg_psd *psd = NULL;
    CHECK(hg_psd_parse("powerlaw:alpha=-3,omega=10", &ctx, &psd, &e) ==
          HG_OK);
    hg_calibrate_params prm;
    hg_calibrate_params_default(&prm);
    prm.n = 10000;
    prm.max_levels = 2;
    prm.repeats = 2;
    hg_calibration c = {0};
    int st = hg_calibrate(psd, &prm, &c, &e);
    /* timings on a shared machine may be too noisy for a positive fit;
     * everything else must hold */
    CHECK(st == HG_OK || st == HG_ENUMERIC);
    if (st == HG_OK) {
        printf("calibration: K = %.3g +- %.2g, R^2 = %.3f, %d grids\n", c.K,
               c.K_se, c.r2, c.npoints);
        CHECK(c.npoints >= 3 && c.npoints <= 3 * 6);
        CHECK(c.K > 0.0 && isfinite(c.K) && c.a > 0.0 && c.b > 0.0);
        CHECK(c.dim == 3 && c.n == 10000);
        for (int i = 0; i < c.npoints; i++)
            CHECK(c.points[i].T_cd > 0.0 && c.points[i].T_ca >= 1.0 &&
                  c.points[i].seconds > 0.0);
        CHECK(strstr(c.psd, "powerlaw") != NULL);
    } else {
        printf("calibration fit refused (noisy machine): %s\n", e.msg);
    }
    /* four models: every one of them timed on every multi-level grid
     * (twice the points of two models there), the one-level grids once */
    if (st == HG_OK) {
        hg_calibrate_params p4 = prm;
        p4.n_models = 4;
        p4.models[0] = p4.models[2] = hg_model_find("hgrid-top-down");
        p4.models[1] = p4.models[3] = hg_model_find("hgrid-bottom-up");
        p4.repeats = 1;
        hg_calibration c4 = {0};
        int s4 = hg_calibrate(psd, &p4, &c4, &e);
        CHECK(s4 == HG_OK || s4 == HG_ENUMERIC);
        if (s4 == HG_OK) {
            int one2 = 0, one4 = 0;
            for (int i = 0; i < c.npoints; i++)
                one2 += c.points[i].levels == 1;
            for (int i = 0; i < c4.npoints; i++)
                one4 += c4.points[i].levels == 1;
            CHECK(one4 == one2 && c4.npoints - one4 == 2 * (c.npoints - one2));
        }
        hg_calibration_clear(&c4);
    }
    hg_calibration_clear(&c);
    /* bad parameters */
    prm.n = 10;
    CHECK(hg_calibrate(psd, &prm, &c, &e) == HG_EINVAL);
    prm.n = 10000;
    prm.max_levels = 0;
    CHECK(hg_calibrate(psd, &prm, &c, &e) == HG_EINVAL);
    prm.max_levels = 3;
    prm.repeats = 0;
    CHECK(hg_calibrate(psd, &prm, &c, &e) == HG_EINVAL);
    prm.repeats = 1;
    prm.budget = 10.0; /* nothing fits */
    CHECK(hg_calibrate(psd, &prm, &c, &e) == HG_ELIMIT);
    prm.budget = 5e8;
    prm.sys.nu = 2.0;
    CHECK(hg_calibrate(psd, &prm, &c, &e) == HG_EINVAL);

    /* file round trip, in a fresh folder: one entry per dimension */
    char dir[256], path[512];
    snprintf(dir, sizeof dir, "/tmp/hg_calib_test_%ld", (long)getpid());
    snprintf(path, sizeof path, "%s/sub/calibration.json", dir);
    hg_calibration w = {0}, r = {0};
    w.K = 0.3;
    w.K_se = 0.01;
    w.a = 1e-9;
    w.b = 3e-10;
    w.r2 = 0.99;
    w.dim = 3;
    w.n = 1000;
    w.nu = 0.3;
    snprintf(w.psd, sizeof w.psd, "powerlaw:alpha=-3,omega=10");
    snprintf(w.created, sizeof w.created, "2026-01-02T03:04:05Z");
    hg_calibration_describe_host(&w);
    CHECK(strlen(w.machine) > 0 && strstr(w.build, "build") != NULL);
    CHECK(hg_calibration_save(&w, path, &e) == HG_OK);
    CHECK(hg_calibration_load(path, 3, &r, &e) == HG_OK);
    CHECK(r.K == 0.3 && r.K_se == 0.01 && r.dim == 3 && r.n == 1000);
    CHECK(!strcmp(r.psd, w.psd) && !strcmp(r.machine, w.machine) &&
          !strcmp(r.build, w.build) && !strcmp(r.created, w.created));
    /* a 3D calibration is not a 2D one */
    CHECK(hg_calibration_load(path, 2, &r, &e) == HG_EUNKNOWN);
    CHECK(strstr(e.msg, "no 2D calibration, only a 3D one") != NULL &&
          strstr(e.msg, "calibrate --dim 2 --save") != NULL);
    /* saving 2D keeps the 3D entry */
    w.dim = 2;
    w.K = 1.5;
    CHECK(hg_calibration_save(&w, path, &e) == HG_OK);
    CHECK(hg_calibration_load(path, 2, &r, &e) == HG_OK && r.K == 1.5);
    CHECK(hg_calibration_load(path, 3, &r, &e) == HG_OK && r.K == 0.3);
    /* replacing 2D leaves 3D alone */
    w.K = 1.25;
    CHECK(hg_calibration_save(&w, path, &e) == HG_OK);
    CHECK(hg_calibration_load(path, 2, &r, &e) == HG_OK && r.K == 1.25);
    CHECK(hg_calibration_load(path, 3, &r, &e) == HG_OK && r.K == 0.3);
    CHECK(hg_calibration_load(path, 4, &r, &e) == HG_EINVAL);
    w.K = -1.0;
    CHECK(hg_calibration_save(&w, path, &e) == HG_EINVAL);
    w.K = 1.0;
    w.dim = 1;
    CHECK(hg_calibration_save(&w, path, &e) == HG_EINVAL);
    w.dim = 2;
    test_resolve(path);
    static const char *bad[] = {
        "not json",
        "{\"schema\": \"other/1\", \"K\": 0.2}",
        "{\"schema\": \"hgridopt.calibration/1\"}",
        "{\"schema\": \"hgridopt.calibration/1\", \"K\": \"x\"}",
        "{\"schema\": \"hgridopt.calibration/1\", \"K\": -0.2}",
        "{\"schema\": \"hgridopt.calibration/1\", \"K\": 0.2, \"dim\": []}",
        "{\"schema\": \"hgridopt.calibration/2\"}",
        "{\"schema\": \"hgridopt.calibration/2\", \"calibrations\": "
        "{\"3\": 7}}",
        "{\"schema\": \"hgridopt.calibration/2\", \"calibrations\": "
        "{\"3\": {\"K\": 2, \"dim\": 2}}}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        FILE *f = fopen(path, "w");
        fputs(bad[i], f);
        fclose(f);
        int s2 = hg_calibration_load(path, 3, &r, &e);
        CHECK(s2 == HG_EPARSE);
        if (s2 != HG_EPARSE)
            fprintf(stderr, "accepted bad file %zu\n", i);
        /* a malformed file is never overwritten */
        if (i == 0)
            CHECK(hg_calibration_save(&w, path, &e) == HG_EPARSE);
    }
    /* the version 1 format: one entry, its "dim" */
    FILE *f1 = fopen(path, "w");
    fputs("{\"schema\": \"hgridopt.calibration/1\", \"K\": 2.5, "
          "\"dim\": 2}", f1);
    fclose(f1);
    CHECK(hg_calibration_load(path, 2, &r, &e) == HG_OK && r.K == 2.5);
    CHECK(hg_calibration_load(path, 3, &r, &e) == HG_EUNKNOWN);
    remove(path);
    CHECK(hg_calibration_load(path, 3, &r, &e) == HG_EIO);
    CHECK(strstr(e.msg, "calibrate --dim 3 --save") != NULL);
    CHECK(hg_calibration_load(NULL, 3, &r, &e) == HG_EINVAL);
    snprintf(path, sizeof path, "%s/sub", dir);
    remove(path);
    remove(dir);
    /* default path from the environment */
    char buf[512];
    setenv("HGRIDOPT_CALIBRATION", "/x/y.json", 1);
    CHECK(hg_calibration_default_path(buf, sizeof buf, &e) == HG_OK &&
          !strcmp(buf, "/x/y.json"));
    unsetenv("HGRIDOPT_CALIBRATION");
    setenv("XDG_CONFIG_HOME", "/cfg", 1);
    CHECK(hg_calibration_default_path(buf, sizeof buf, &e) == HG_OK &&
          !strcmp(buf, "/cfg/hgridopt/calibration.json"));
    CHECK(hg_calibration_default_path(buf, 8, &e) == HG_ELIMIT);
    hg_psd_free(psd);
}

/* hg_K_values_set: K always, C only for the bundled HGrid with its own
 * K (shipped or calibration file) */
static void test_values_set(void)
{
    hg_err e = {0};
    double C;
    for (int i = 0; i < 5; i++) {
        static const hg_K_source src[5] = {
            HG_K_SOURCE_SHIPPED, HG_K_SOURCE_CALIBRATION,
            HG_K_SOURCE_COMMAND_LINE, HG_K_SOURCE_SYSTEM_FILE,
            HG_K_SOURCE_PAPER};
        for (int t = 0; t < 3; t++) {
            static const char *const tg[3] = {"hgrid", "mercurydpm",
                                              "lammps"};
            hg_K_choice c = {0.9, src[i], hg_engine_find(tg[t]), 2, ""};
            hg_model_values v = {0};
            CHECK(hg_model_values_set(&v, "bin", 1.5, &e) == HG_OK);
            CHECK(hg_K_values_set(&c, &v, &e) == HG_OK);
            double K = 0.0, b = 0.0;
            CHECK(hg_model_values_get(&v, "K", &K) && K == 0.9);
            CHECK(hg_model_values_get(&v, "bin", &b) && b == 1.5);
            int has = hg_model_values_get(&v, "C", &C);
            CHECK(has == (t == 0 && i < 2));
            if (has)
                CHECK(C == hg_C_shipped(2, NULL) && C > 0.0);
        }
    }
    CHECK(isnan(hg_C_shipped(4, NULL)));
}

int main(void)
{
    test_values_set();
    test_fit();
    test_run_and_file();
    test_resolve_other_dim();
    return hg_test_summary("test_calib");
}
