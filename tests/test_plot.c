/* test_plot.c - figures: SVG/PNG/PDF files that parse and carry their
 * titles and legend entries; bad arguments and unwritable paths fail
 * without leaving a file. */
#include "testutil.h"

#include "hg_figure.h"
#include "hg_plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The text of an SVG document: tags dropped, character references (&#xHH;,
 * as PLplot's svg driver writes every glyph) decoded to ASCII. */
static void svg_text(const char *svg, char *out, size_t cap)
{
    size_t k = 0;
    int in_tag = 0;
    for (const char *p = svg; *p && k + 1 < cap; p++) {
        if (*p == '<') {
            in_tag = 1;
        } else if (*p == '>') {
            in_tag = 0;
        } else if (!in_tag && !strncmp(p, "&#x", 3)) {
            char *end;
            long c = strtol(p + 3, &end, 16);
            if (*end == ';') {
                out[k++] = (c > 0 && c < 128) ? (char)c : '?';
                p = end;
            }
        } else if (!in_tag && *p != '\n') {
            out[k++] = *p;
        }
    }
    out[k] = '\0';
}

/* The SVG at path exists and its text holds every string of want[]. */
static void check_svg(const char *path, const char *const *want, int n)
{
    size_t len = 0;
    char *svg = hg_test_read_file(path, &len);
    CHECK(svg != NULL && len > 1000);
    if (!svg)
        return;
    char *txt = malloc((size_t)len + 1);
    CHECK(txt != NULL);
    if (txt) {
        svg_text(svg, txt, (size_t)len + 1);
        for (int i = 0; i < n; i++)
            if (!strstr(txt, want[i])) {
                fprintf(stderr, "%s lacks '%s'\n", path, want[i]);
                CHECK(0);
            }
    }
    free(txt);
    free(svg);
}

/* Each figure of hg_figure.h from results made here (no timing). */
static void test_figures(const char *dir)
{
    char path[512];
    hg_err e = {0};

    hg_calib_point pts[3] = {{1, 30, 14, 2.1e-7}, {2, 12, 30, 1.9e-7},
                             {3, 9, 45, 2.2e-7}};
    hg_calibration cal = {.K = 1.6, .K_se = 0.2, .a = 4e-9, .b = 6.4e-9,
                          .r2 = 0.97, .dim = 3, .npoints = 3, .points = pts};
    snprintf(path, sizeof path, "%s/cal.svg", dir);
    CHECK(hg_figure_calibration(path, &cal, &e) == HG_OK);
    const char *wc[] = {"Calibration 3D: K = 1.6", "grids timed",
                        "measured = fitted (R^2 = 0.970)",
                        "fitted a T_cd + b T_ca (ns per particle)"};
    check_svg(path, wc, 4);
    hg_calibration none = {0};
    CHECK(hg_figure_calibration(path, &none, &e) == HG_EINVAL);

    hg_validate_level lv[2] = {
        {.level = 1, .predicted_T_cd = 2, .measured_T_cd = 2.02,
         .predicted_T_ca = 30, .measured_T_ca = 29.9},
        {.level = 2, .predicted_T_cd = 1, .measured_T_cd = 0.99,
         .predicted_T_ca = 10, .measured_T_ca = 10.05}};
    hg_validation v = {.n = 1000, .has_baseline = 1,
                       .predicted_speedup = 7.3, .measured_speedup = 5.1};
    v.hgrid.levels = 2;
    v.hgrid.per_level = lv;
    v.hgrid.model = hg_model_find("hgrid-top-down");
    snprintf(path, sizeof path, "%s/val.svg", dir);
    CHECK(hg_figure_validation(path, &v, &e) == HG_OK);
    const char *wv[] = {"Measured over predicted work per level "
                        "(hgrid-top-down, N = 1000)",
                        "T_cd measured / predicted",
                        "T_ca measured / predicted", "level 2",
                        "Speed-up over the linked cell"};
    check_svg(path, wv, 5);

    hg_bench_method bm[2] = {
        {.type = hg_detector_type_find("lc"), .time = 0.05,
         .step_time = 0.04},
        {.type = hg_detector_type_find("hgrid"), .time = 0.002,
         .step_time = 0.003}};
    hg_bench_result br = {.n_methods = 2, .methods = bm, .n = 5000,
                          .dim = 3, .nu = 0.3, .periodic = 1};
    snprintf(path, sizeof path, "%s/bench.svg", dir);
    CHECK(hg_figure_bench(path, &br, 1, &e) == HG_OK);
    const char *wb[] = {"Contact detection, 5000 particles, 3D",
                        "static: one detection (median)",
                        "dynamic: one step (mean)", "hgrid",
                        "wall time per detection (ms)"};
    check_svg(path, wb, 5);

    hg_psd_ctx ctx = {3, NULL};
    hg_psd *psd = NULL;
    CHECK(hg_psd_parse("powerlaw:alpha=-3,omega=20", &ctx, &psd, &e) ==
          HG_OK);
    hg_system sys = {.dim = 3, .nu = 0.4};
    hg_recommend_options ro;
    hg_recommend_options_default(&ro);
    ro.max_levels = 6;
    hg_recommendation rec;
    if (psd && hg_recommend(psd, &sys, NULL, &ro, &rec, &e) == HG_OK) {
        snprintf(path, sizeof path, "%s/rec.png", dir);
        CHECK(hg_figure_recommendation(path, &rec, hg_psd_rmin(psd), &e) ==
              HG_OK);
        snprintf(path, sizeof path, "%s/rec.svg", dir);
        CHECK(hg_figure_recommendation(path, &rec, hg_psd_rmin(psd), &e) ==
              HG_OK);
        const char *wr[] = {"Cell size per level", "particles per cell m_h",
                            "recommended: "};
        check_svg(path, wr, 3);
        snprintf(path, sizeof path, "%s/curves.svg", dir);
        CHECK(hg_figure_curves(path, rec.curves, rec.n_curves, "T of L",
                               &e) == HG_OK);
        const char *wl[] = {"T of L", "optimal, hgrid-top-down",
                            "optimal, hgrid-bottom-up", "optimum: L = "};
        check_svg(path, wl, 4);
        hg_recommendation_clear(&rec);
    } else {
        CHECK(0);
    }
    hg_psd_free(psd);

    hg_figure_sweep_point sw[4] = {{"alpha = -3", -3, 2, 3, 20},
                                   {"alpha = -3", -3, 20, 6, 12},
                                   {"alpha = 0", 0, 2, 3, 25},
                                   {"alpha = 0", 0, 20, 4, 28}};
    snprintf(path, sizeof path, "%s/sweep.svg", dir);
    CHECK(hg_figure_sweep(path, sw, 4, &e) == HG_OK);
    const char *ws[] = {"Best number of levels against size ratio",
                        "alpha = -3", "alpha = 0",
                        "size ratio omega = r_max / r_min"};
    check_svg(path, ws, 4);
}

static unsigned be32(const unsigned char *p)
{
    return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 |
           p[3];
}

int main(void)
{
    double L[] = {1, 2, 3, 4, 5, 6};
    double T1[] = {900, 40, 13, 11.8, 11.6, 11.7};
    double T2[] = {900, 55, 18, 14, 12.9, 12.5};
    double lv[] = {1, 2, 3};
    double ratio[] = {1.01, 0.995, 1.004};
    hg_plot_series s1[] = {
        {"optimal top-down", L, T1, 6, HG_PLOT_LINE_POINTS},
        {"exponential #2", L, T2, 6, HG_PLOT_LINE},
    };
    hg_plot_mark mk = {5, 11.6, "optimum"};
    hg_plot_series s2[] = {{"T_cd measured/predicted", lv, ratio, 3,
                            HG_PLOT_BARS}};
    const char *cats[] = {"level 1", "level 2", "level 3"};
    hg_plot_panel panels[2] = {
        {.title = "Work per particle against levels",
         .xlabel = "levels L",
         .ylabel = "T per particle (pair checks)",
         .logy = 1,
         .series = s1,
         .n_series = 2,
         .marks = &mk,
         .n_marks = 1},
        {.title = "Measured over predicted",
         .xlabel = "level",
         .ylabel = "ratio",
         .series = s2,
         .n_series = 1,
         .band_lo = 0.98,
         .band_hi = 1.02,
         .bar_base = 1.0,
         .categories = cats,
         .n_categories = 3},
    };
    char dir[] = "/tmp/hg_test_plotXXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[512];
    hg_err e = {0};

    if (!hg_plot_available()) {
        snprintf(path, sizeof path, "%s/a.svg", dir);
        CHECK(hg_plot_write(path, panels, 2, 800, &e) != HG_OK);
        CHECK(strstr(e.msg, "without plotting") != NULL);
        CHECK(access(path, F_OK) != 0);
        rmdir(dir);
        return hg_test_summary("test_plot");
    }

    /* SVG: XML with the titles and legend entries as text */
    snprintf(path, sizeof path, "%s/a.svg", dir);
    CHECK(hg_plot_write(path, panels, 2, 800, &e) == HG_OK);
    if (e.msg[0])
        fprintf(stderr, "%s\n", e.msg);
    size_t n = 0;
    char *svg = hg_test_read_file(path, &n);
    CHECK(svg != NULL && n > 1000);
    char *txt = malloc((size_t)n + 1);
    if (svg && txt) {
        CHECK(strstr(svg, "<svg") != NULL);
        CHECK(strstr(svg, "</svg>") != NULL);
        svg_text(svg, txt, (size_t)n + 1);
        free(svg);
        svg = txt;
        txt = NULL;
        CHECK(strstr(svg, "Work per particle against levels") != NULL);
        CHECK(strstr(svg, "optimal top-down") != NULL);
        CHECK(strstr(svg, "exponential #2") != NULL);
        CHECK(strstr(svg, "T per particle (pair checks)") != NULL);
        CHECK(strstr(svg, "level 2") != NULL);
        CHECK(strstr(svg, "optimum") != NULL);
    }
    free(svg);
    free(txt);

    /* the permissions of a plainly created file, not mkstemp's 0600 */
    struct stat sb;
    mode_t mask = umask(022);
    CHECK(stat(path, &sb) == 0 && (sb.st_mode & 0777) == (0666 & ~mask));
    umask(mask);

    /* PNG: signature and an IHDR of the requested width */
    snprintf(path, sizeof path, "%s/a.png", dir);
    CHECK(hg_plot_write(path, panels, 2, 800, &e) == HG_OK);
    unsigned char *png = (unsigned char *)hg_test_read_file(path, &n);
    CHECK(png != NULL && n > 24);
    if (png && n > 24) {
        CHECK(memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0);
        CHECK(memcmp(png + 12, "IHDR", 4) == 0);
        CHECK(be32(png + 16) == 800);
        CHECK(be32(png + 20) >= 600);
    }
    free(png);

    /* PDF */
    snprintf(path, sizeof path, "%s/a.PDF", dir);
    CHECK(hg_plot_write(path, panels, 1, 800, &e) == HG_OK);
    char *pdf = hg_test_read_file(path, &n);
    CHECK(pdf != NULL && n > 100 && !strncmp(pdf, "%PDF", 4));
    free(pdf);

    /* bad arguments */
    snprintf(path, sizeof path, "%s/a.gif", dir);
    CHECK(hg_plot_write(path, panels, 1, 800, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "a.gif") != NULL);
    CHECK(access(path, F_OK) != 0);
    snprintf(path, sizeof path, "%s/b.svg", dir);
    CHECK(hg_plot_write(path, panels, 1, 100, &e) == HG_EINVAL);
    CHECK(hg_plot_write(path, panels, 0, 800, &e) == HG_EINVAL);
    /* unwritable folder: an error naming the file, nothing left behind */
    CHECK(hg_plot_write("/nonexistent-dir/x.svg", panels, 1, 800, &e) ==
          HG_EIO);
    CHECK(strstr(e.msg, "/nonexistent-dir/x.svg") != NULL);

    test_figures(dir);

    /* a device is never replaced by a file */
    snprintf(path, sizeof path, "%s/dev.svg", dir);
    CHECK(symlink("/dev/null", path) == 0);
    CHECK(hg_plot_write(path, panels, 1, 800, &e) == HG_EIO);
    CHECK(strstr(e.msg, "not a regular file") != NULL);
    CHECK(unlink(path) == 0);
    struct stat dn;
    CHECK(stat("/dev/null", &dn) == 0 && S_ISCHR(dn.st_mode));

    /* no temporary files left in the folder */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls %s | grep tmp)\"", dir);
    CHECK(system(cmd) == 0);
    if (getenv("HG_KEEP_PLOTS"))
        return hg_test_summary("test_plot");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return hg_test_summary("test_plot");
}
