/* test_calib.c - the K calibration: the fit on synthetic timings, a small
 * real calibration run, the calibration file and its rejections. */
#include "hg_calib.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

    /* file round trip, in a fresh folder */
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
    CHECK(hg_calibration_save(&w, path, &e) == HG_OK);
    CHECK(hg_calibration_load(path, &r, &e) == HG_OK);
    CHECK(r.K == 0.3 && r.K_se == 0.01 && r.dim == 3 && r.n == 1000);
    CHECK(!strcmp(r.psd, w.psd));
    w.K = -1.0;
    CHECK(hg_calibration_save(&w, path, &e) == HG_EINVAL);
    static const char *bad[] = {
        "not json",
        "{\"schema\": \"other/1\", \"K\": 0.2}",
        "{\"schema\": \"hgridopt.calibration/1\"}",
        "{\"schema\": \"hgridopt.calibration/1\", \"K\": \"x\"}",
        "{\"schema\": \"hgridopt.calibration/1\", \"K\": -0.2}",
        "{\"schema\": \"hgridopt.calibration/1\", \"K\": 0.2, \"dim\": []}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        FILE *f = fopen(path, "w");
        fputs(bad[i], f);
        fclose(f);
        int s2 = hg_calibration_load(path, &r, &e);
        CHECK(s2 == HG_EPARSE);
        if (s2 != HG_EPARSE)
            fprintf(stderr, "accepted bad file %zu\n", i);
    }
    remove(path);
    CHECK(hg_calibration_load(path, &r, &e) == HG_EIO);
    CHECK(hg_calibration_load(NULL, &r, &e) == HG_EINVAL);
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

int main(void)
{
    test_fit();
    test_run_and_file();
    return hg_test_summary("test_calib");
}
