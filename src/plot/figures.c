/* figures.c - result structs of the library turned into panels for
 * hg_plot_write (the figures of --plot FILE). */
#include "hg_figure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_WIDTH 800

/* Index of the smallest T of a curve (the optimum over L). */
static int curve_best(const hg_curve *c)
{
    int b = 0;
    for (int i = 1; i < c->n; i++)
        if (c->points[i].T < c->points[b].T)
            b = i;
    return b;
}

int hg_figure_curves(const char *path, const hg_curve *curves, int n,
                    const char *title, hg_err *e)
{
    if (n < 1)
        return hg_fail(e, HG_EINVAL, "plot: no curve to draw");
    int n_series = n > 12 ? 12 : n;
    hg_plot_series *series = calloc((size_t)n_series, sizeof *series);
    hg_plot_mark *marks = calloc((size_t)n_series, sizeof *marks);
    double **xy = calloc(2 * (size_t)n_series, sizeof *xy);
    char(*labels)[96] = calloc((size_t)n_series, sizeof *labels);
    int rc = HG_ENOMEM, best_series = 0;
    double best_T = INFINITY;
    if (!series || !marks || !xy || !labels)
        goto done;
    for (int s = 0; s < n_series; s++) {
        const hg_curve *c = &curves[s];
        xy[2 * s] = malloc(sizeof(double) * (size_t)(c->n > 0 ? c->n : 1));
        xy[2 * s + 1] = malloc(sizeof(double) * (size_t)(c->n > 0 ? c->n : 1));
        if (!xy[2 * s] || !xy[2 * s + 1])
            goto done;
        for (int i = 0; i < c->n; i++) {
            xy[2 * s][i] = c->points[i].levels;
            xy[2 * s + 1][i] = c->points[i].T;
        }
        snprintf(labels[s], sizeof labels[s], "%s, %s",
                 hg_recipe_name(c->recipe), c->model->name);
        series[s] = (hg_plot_series){labels[s], xy[2 * s], xy[2 * s + 1],
                                     c->n, HG_PLOT_LINE_POINTS};
        if (c->n > 0 && c->points[curve_best(c)].T < best_T) {
            best_T = c->points[curve_best(c)].T;
            best_series = s;
        }
    }
    const hg_curve *bc = &curves[best_series];
    char mark_text[64];
    int n_marks = 0;
    if (bc->n > 0) {
        const hg_curve_point *bp = &bc->points[curve_best(bc)];
        snprintf(mark_text, sizeof mark_text, "optimum: L = %d, T = %.4g",
                 bp->levels, bp->T);
        marks[0] = (hg_plot_mark){bp->levels, bp->T, mark_text};
        n_marks = 1;
    }
    hg_plot_panel panel = {
        .title = title,
        .xlabel = "number of levels L",
        .ylabel = "work per particle T (pair checks)",
        .logy = 1,
        .series = series,
        .n_series = n_series,
        .marks = marks,
        .n_marks = n_marks,
    };
    rc = hg_plot_write(path, &panel, 1, PLOT_WIDTH, e);
done:
    if (rc == HG_ENOMEM)
        hg_fail(e, rc, "plot: out of memory");
    for (int s = 0; xy && s < 2 * n_series; s++)
        free(xy[s]);
    free(xy);
    free(series);
    free(marks);
    free(labels);
    return rc;
}

int hg_figure_sweep(const char *path, const hg_figure_sweep_point *pts, size_t n,
                   hg_err *e)
{
    /* one series per distinct label, points in the given order */
    enum { MAXS = 12 };
    const char *names[MAXS];
    int ns = 0;
    for (size_t i = 0; i < n; i++) {
        int k = 0;
        while (k < ns && strcmp(names[k], pts[i].label))
            k++;
        if (k == ns && ns < MAXS)
            names[ns++] = pts[i].label;
    }
    if (ns == 0)
        return hg_fail(e, HG_EINVAL, "plot: no sweep point to draw");
    double *buf = malloc(sizeof(double) * 3 * (n > 0 ? n : 1));
    hg_plot_series *sl = calloc(2 * (size_t)ns, sizeof *sl);
    if (!buf || !sl) {
        free(buf);
        free(sl);
        return hg_fail(e, HG_ENOMEM, "plot: out of memory");
    }
    double *x = buf, *yl = buf + n, *yt = buf + 2 * n;
    size_t k = 0;
    for (int s = 0; s < ns; s++) {
        size_t start = k;
        for (size_t i = 0; i < n; i++)
            if (!strcmp(pts[i].label, names[s])) {
                x[k] = pts[i].omega;
                yl[k] = pts[i].best_L;
                yt[k] = pts[i].best_T;
                k++;
            }
        int cnt = (int)(k - start);
        sl[s] = (hg_plot_series){names[s], x + start, yl + start, cnt,
                                 HG_PLOT_LINE_POINTS};
        sl[ns + s] = (hg_plot_series){names[s], x + start, yt + start, cnt,
                                      HG_PLOT_LINE_POINTS};
    }
    hg_plot_panel panels[2] = {
        {.title = "Best number of levels against size ratio",
         .xlabel = "size ratio omega = r_max / r_min",
         .ylabel = "best number of levels L*",
         .logx = 1,
         .series = sl,
         .n_series = ns},
        {.title = "Best work per particle against size ratio",
         .xlabel = "size ratio omega = r_max / r_min",
         .ylabel = "best T per particle (pair checks)",
         .logx = 1,
         .logy = 1,
         .series = sl + ns,
         .n_series = ns},
    };
    int rc = hg_plot_write(path, panels, 2, PLOT_WIDTH, e);
    free(buf);
    free(sl);
    return rc;
}

int hg_figure_recommendation(const char *path, const hg_recommendation *r,
                       double rmin, hg_err *e)
{
    const hg_cost *c = &r->cost;
    int L = c->levels;
    double *buf = malloc(sizeof(double) * 3 * (size_t)(L > 0 ? L : 1));
    if (!buf)
        return hg_fail(e, HG_ENOMEM, "plot: out of memory");
    double *lv = buf, *s = buf + L, *m = buf + 2 * L;
    for (int h = 0; h < L; h++) {
        lv[h] = h + 1;
        s[h] = c->per_level[h].cell_size / rmin;
        m[h] = c->per_level[h].particles_per_cell;
    }
    /* T(L) of the recommended model's curve */
    const hg_curve *cv = NULL;
    for (int i = 0; i < r->n_curves; i++)
        if (r->curves[i].model == r->model)
            cv = &r->curves[i];
    int nc = cv ? cv->n : 0;
    double *cb = malloc(sizeof(double) * 2 * (size_t)(nc > 0 ? nc : 1));
    if (!cb) {
        free(buf);
        return hg_fail(e, HG_ENOMEM, "plot: out of memory");
    }
    for (int i = 0; i < nc; i++) {
        cb[i] = cv->points[i].nonempty_levels;
        cb[nc + i] = cv->points[i].T;
    }
    hg_plot_series s1 = {"cell size s_h / r_min", lv, s, L, HG_PLOT_BARS};
    hg_plot_series s2 = {"particles per cell m_h", lv, m, L,
                         HG_PLOT_LINE_POINTS};
    hg_plot_series s3 = {r->model ? r->model->name : "T(L)", cb, cb + nc, nc,
                         HG_PLOT_LINE_POINTS};
    char mtext[64], title[160];
    snprintf(mtext, sizeof mtext, "recommended: %d level%s, T = %.4g",
             r->levels, r->levels == 1 ? "" : "s", c->T);
    hg_plot_mark mk = {r->levels, c->T, mtext};
    snprintf(title, sizeof title, "Work per particle around the "
             "recommendation (%s)", r->model ? r->model->name : "");
    hg_plot_panel panels[3] = {
        {.title = "Cell size per level",
         .xlabel = "level h",
         .ylabel = "cell size s_h / r_min",
         .logy = 1,
         .series = &s1,
         .n_series = 1},
        {.title = "Mean particles per cell per level",
         .xlabel = "level h",
         .ylabel = "particles per cell m_h",
         .logy = 1,
         .series = &s2,
         .n_series = 1},
        {.title = title,
         .xlabel = "non-empty levels",
         .ylabel = "work per particle T (pair checks)",
         .logy = 1,
         .series = &s3,
         .n_series = nc > 0,
         .marks = &mk,
         .n_marks = 1},
    };
    int rc = hg_plot_write(path, panels, 3, PLOT_WIDTH, e);
    free(buf);
    free(cb);
    return rc;
}

int hg_figure_validation(const char *path, const hg_validation *v, hg_err *e)
{
    const hg_validate_run *run = &v->hgrid;
    int L = run->levels;
    double *buf = malloc(sizeof(double) * 3 * (size_t)(L > 0 ? L : 1));
    const char **cats = calloc((size_t)(L > 0 ? L : 1), sizeof *cats);
    char(*names)[24] = calloc((size_t)(L > 0 ? L : 1), sizeof *names);
    if (!buf || !cats || !names) {
        free(buf);
        free(cats);
        free(names);
        return hg_fail(e, HG_ENOMEM, "plot: out of memory");
    }
    double *lv = buf, *rcd = buf + L, *rca = buf + 2 * L;
    for (int h = 0; h < L; h++) {
        const hg_validate_level *pl = &run->per_level[h];
        lv[h] = h + 1;
        rcd[h] = pl->predicted_T_cd > 0 ? pl->measured_T_cd / pl->predicted_T_cd
                                        : NAN;
        rca[h] = pl->predicted_T_ca > 0 ? pl->measured_T_ca / pl->predicted_T_ca
                                        : NAN;
        snprintf(names[h], sizeof names[h], "level %d", h + 1);
        cats[h] = names[h];
    }
    hg_plot_series ratio[2] = {
        {"T_cd measured / predicted", lv, rcd, L, HG_PLOT_BARS},
        {"T_ca measured / predicted", lv, rca, L, HG_PLOT_BARS},
    };
    double cx[2] = {1, 2};
    double work[2] = {run->predicted_T, run->measured_T};
    double speed[2] = {v->predicted_speedup, v->measured_speedup};
    const char *wcats[2] = {"predicted", "measured"};
    hg_plot_series s2 = {"speed-up over the linked cell", cx, speed, 2,
                         HG_PLOT_BARS};
    hg_plot_series s2w = {"work per particle T", cx, work, 2, HG_PLOT_BARS};
    char title[160];
    snprintf(title, sizeof title,
             "Measured over predicted work per level (%s, N = %zu)",
             run->model ? run->model->name : "", v->n);
    hg_plot_panel panels[2] = {
        {.title = title,
         .xlabel = "level (the band is +-2 %)",
         .ylabel = "measured / predicted",
         .series = ratio,
         .n_series = 2,
         .band_lo = 0.98,
         .band_hi = 1.02,
         .bar_base = 1.0,
         .categories = cats,
         .n_categories = L},
        {.title = v->has_baseline
                      ? "Speed-up over the linked cell: predicted and measured"
                      : "Work per particle: predicted and measured",
         .xlabel = "",
         .ylabel = v->has_baseline ? "speed-up (linked cell / HGrid)"
                                   : "T per particle (pair checks)",
         .series = v->has_baseline ? &s2 : &s2w,
         .n_series = 1,
         .categories = wcats,
         .n_categories = 2},
    };
    int rc = hg_plot_write(path, panels, 2, PLOT_WIDTH, e);
    free(buf);
    free(cats);
    free(names);
    return rc;
}

int hg_figure_calibration(const char *path, const hg_calibration *c, hg_err *e)
{
    int n = c->npoints;
    if (n < 1 || !c->points)
        return hg_fail(e, HG_EINVAL, "plot: the calibration has no points");
    double *buf = malloc(sizeof(double) * 2 * (size_t)n);
    if (!buf)
        return hg_fail(e, HG_ENOMEM, "plot: out of memory");
    double *fit = buf, *meas = buf + n, lo = INFINITY, hi = 0.0;
    for (int i = 0; i < n; i++) {
        /* nanoseconds per particle */
        fit[i] = 1e9 * (c->a * c->points[i].T_cd + c->b * c->points[i].T_ca);
        meas[i] = 1e9 * c->points[i].seconds;
        lo = fmin(lo, fmin(fit[i], meas[i]));
        hi = fmax(hi, fmax(fit[i], meas[i]));
    }
    double diag[2] = {lo, hi};
    char fit_label[128], title[200];
    snprintf(fit_label, sizeof fit_label, "measured = fitted (R^2 = %.3f)",
             c->r2);
    snprintf(title, sizeof title,
             "Calibration %dD: K = %.3g +- %.2g (a = %.3g ns per pair check, "
             "b = %.3g ns per cell access)",
             c->dim, c->K, c->K_se, 1e9 * c->a, 1e9 * c->b);
    hg_plot_series s[2] = {
        {"grids timed", fit, meas, n, HG_PLOT_POINTS},
        {fit_label, diag, diag, 2, HG_PLOT_LINE},
    };
    hg_plot_panel panel = {
        .title = title,
        .xlabel = "fitted a T_cd + b T_ca (ns per particle)",
        .ylabel = "measured time (ns per particle)",
        .logx = 1,
        .logy = 1,
        .series = s,
        .n_series = 2,
    };
    int rc = hg_plot_write(path, &panel, 1, PLOT_WIDTH, e);
    free(buf);
    return rc;
}

int hg_figure_bench(const char *path, const hg_bench_result *r, int dynamic,
                   hg_err *e)
{
    size_t n = r->n_methods;
    if (n == 0)
        return hg_fail(e, HG_EINVAL, "plot: no method was timed");
    double *buf = malloc(sizeof(double) * 3 * n);
    const char **cats = calloc(n, sizeof *cats);
    if (!buf || !cats) {
        free(buf);
        free(cats);
        return hg_fail(e, HG_ENOMEM, "plot: out of memory");
    }
    double *x = buf, *stat = buf + n, *dyn = buf + 2 * n;
    for (size_t i = 0; i < n; i++) {
        const hg_bench_method *m = &r->methods[i];
        x[i] = (double)i + 1;
        stat[i] = 1e3 * m->time;
        dyn[i] = 1e3 * m->step_time;
        cats[i] = m->type->name;
    }
    hg_plot_series s[2] = {
        {"static: one detection (median)", x, stat, (int)n, HG_PLOT_BARS},
        {"dynamic: one step (mean)", x, dyn, (int)n, HG_PLOT_BARS},
    };
    char title[200];
    snprintf(title, sizeof title,
             "Contact detection, %zu particles, %dD, nu = %.3g (%s box)",
             r->n, r->dim, r->nu, r->periodic ? "periodic" : "open");
    hg_plot_panel panel = {
        .title = title,
        .xlabel = "method",
        .ylabel = "wall time per detection (ms)",
        .logy = 1,
        .series = s,
        .n_series = dynamic ? 2 : 1,
        .categories = cats,
        .n_categories = (int)n,
    };
    int rc = hg_plot_write(path, &panel, 1, PLOT_WIDTH, e);
    free(buf);
    free(cats);
    return rc;
}
