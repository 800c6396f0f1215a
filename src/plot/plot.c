/* plot.c - figures through PLplot (devices: svg, pngcairo, pdfcairo).
 *
 * PLplot keeps global state and calls exit() from plexit() on fatal errors;
 * an exit handler installed with plsexit() jumps back here instead, so a
 * failing device never ends the caller's process. Not thread-safe (PLplot
 * is not). */
#include "hg_plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HG_HAVE_PLOT
#include <plplot.h>
#include <setjmp.h>
#endif

int hg_plot_available(void)
{
#ifdef HG_HAVE_PLOT
    return 1;
#else
    return 0;
#endif
}

/* The PLplot device for path's extension, or NULL. */
static const char *device_for(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot)
        return NULL;
    if (!strcasecmp(dot, ".svg"))
        return "svg";
    if (!strcasecmp(dot, ".png"))
        return "pngcairo";
    if (!strcasecmp(dot, ".pdf"))
        return "pdfcairo";
    return NULL;
}

static int check_args(const char *path, const hg_plot_panel *panels,
                      int n_panels, int width_px, hg_err *e)
{
    if (!path || !*path)
        return hg_fail(e, HG_EINVAL, "plot: no file name");
    if (!device_for(path))
        return hg_fail(e, HG_EINVAL,
                       "plot: '%s' has no known extension (.svg, .png, .pdf)",
                       path);
    if (n_panels < 1 || n_panels > 8 || !panels)
        return hg_fail(e, HG_EINVAL, "plot: %d panels (1..8)", n_panels);
    if (width_px < 400 || width_px > 4000)
        return hg_fail(e, HG_EINVAL, "plot: width %d px outside 400..4000",
                       width_px);
    for (int p = 0; p < n_panels; p++)
        for (int s = 0; s < panels[p].n_series; s++)
            if (panels[p].series[s].n < 0 ||
                (panels[p].series[s].n > 0 &&
                 (!panels[p].series[s].x || !panels[p].series[s].y)))
                return hg_fail(e, HG_EINVAL,
                               "plot: panel %d series %d has no data", p + 1,
                               s + 1);
    return HG_OK;
}

#ifdef HG_HAVE_PLOT

static jmp_buf plot_escape;
static char plot_errmsg[256];

static int exit_handler(PLCHAR_VECTOR msg)
{
    snprintf(plot_errmsg, sizeof plot_errmsg, "%s", msg ? msg : "");
    longjmp(plot_escape, 1);
}

/* PLplot reads '#' as a text escape: double it. */
static void escape_text(const char *in, char *out, size_t cap)
{
    size_t k = 0;
    for (; in && *in && k + 2 < cap; in++) {
        if (*in == '#')
            out[k++] = '#';
        out[k++] = *in;
    }
    out[k] = '\0';
}

static int usable(double v, int log_axis)
{
    return isfinite(v) && (!log_axis || v > 0.0);
}

static double axis_value(double v, int log_axis)
{
    return log_axis ? log10(v) : v;
}

/* Series colours (palette 0 indices 1..): distinguishable on white. */
/* Palette 0: index 0 is the background, 1 the axes and text, 2.. the
 * series, the last the shaded band. */
static const int palette[][3] = {
    {255, 255, 255}, {0, 0, 0},       {31, 119, 180}, {214, 39, 40},  {44, 160, 44},
    {255, 127, 14},  {148, 103, 189}, {140, 86, 75}, {227, 119, 194},
    {127, 127, 127}, {188, 189, 34},  {23, 190, 207}, {222, 222, 222}};
#define N_COLOURS ((int)(sizeof palette / sizeof palette[0]) - 3)
#define COL_BAND ((int)(sizeof palette / sizeof palette[0]) - 1)

/* Data range of a panel on its (possibly log) axes, with a margin. */
static void panel_range(const hg_plot_panel *pp, double *x0, double *x1,
                        double *y0, double *y1)
{
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (int s = 0; s < pp->n_series; s++) {
        const hg_plot_series *sr = &pp->series[s];
        for (int i = 0; i < sr->n; i++) {
            if (!usable(sr->x[i], pp->logx) || !usable(sr->y[i], pp->logy))
                continue;
            double x = axis_value(sr->x[i], pp->logx);
            double y = axis_value(sr->y[i], pp->logy);
            xlo = fmin(xlo, x), xhi = fmax(xhi, x);
            ylo = fmin(ylo, y), yhi = fmax(yhi, y);
            if (sr->style == HG_PLOT_BARS && !pp->logy) {
                ylo = fmin(ylo, pp->bar_base);
                yhi = fmax(yhi, pp->bar_base);
            }
        }
    }
    if (pp->band_lo < pp->band_hi && usable(pp->band_lo, pp->logy) &&
        usable(pp->band_hi, pp->logy)) {
        ylo = fmin(ylo, axis_value(pp->band_lo, pp->logy));
        yhi = fmax(yhi, axis_value(pp->band_hi, pp->logy));
    }
    if (!(xlo <= xhi))
        xlo = 0.0, xhi = 1.0;
    if (!(ylo <= yhi))
        ylo = 0.0, yhi = 1.0;
    if (pp->categories)
        xlo = 0.5, xhi = pp->n_categories + 0.5;
    double dx = xhi - xlo, dy = yhi - ylo;
    if (dx <= 0.0)
        dx = fabs(xlo) > 0.0 ? 0.1 * fabs(xlo) : 1.0;
    if (dy <= 0.0)
        dy = fabs(ylo) > 0.0 ? 0.1 * fabs(ylo) : 1.0;
    *x0 = pp->categories ? xlo : xlo - 0.04 * dx;
    *x1 = pp->categories ? xhi : xhi + 0.04 * dx;
    *y0 = ylo - 0.06 * dy;
    *y1 = yhi + 0.06 * dy;
}

static void draw_bars(const hg_plot_panel *pp, const hg_plot_series *sr,
                      int index, int n_bar_series, double y0)
{
    double slot = 0.8 / (n_bar_series > 0 ? n_bar_series : 1);
    double base = pp->logy ? y0 : pp->bar_base;
    for (int i = 0; i < sr->n; i++) {
        if (!usable(sr->x[i], pp->logx) || !usable(sr->y[i], pp->logy))
            continue;
        double xc = axis_value(sr->x[i], pp->logx);
        double left = xc - 0.4 + index * slot;
        double y = axis_value(sr->y[i], pp->logy);
        PLFLT bx[4] = {left, left + slot, left + slot, left};
        PLFLT by[4] = {base, base, y, y};
        plfill(4, bx, by);
    }
}

/* 1 if the positive finite values of one axis span at least a decade (a
 * log axis over less than that would show at most one labelled tick). */
static int spans_decade(const hg_plot_panel *pp, int y_axis)
{
    double lo = INFINITY, hi = 0.0;
    for (int s = 0; s < pp->n_series; s++)
        for (int i = 0; i < pp->series[s].n; i++) {
            double v = y_axis ? pp->series[s].y[i] : pp->series[s].x[i];
            if (isfinite(v) && v > 0.0)
                lo = fmin(lo, v), hi = fmax(hi, v);
        }
    return hi >= 10.0 * lo;
}

/* Legend entries of a panel. */
static int legend_entries(const hg_plot_panel *pp)
{
    int n = 0;
    for (int s = 0; s < pp->n_series; s++)
        n += pp->series[s].label && *pp->series[s].label;
    return n < 16 ? n : 16;
}

/* The panel's legend: up to 16 entries, as pllegend takes them. */
typedef struct legend {
    int n;
    PLINT opts[16], lcol[16], lsty[16], scol[16], snum[16], tcol[16];
    PLFLT lwid[16], sscale[16];
    const char *texts[16], *syms[16];
    char text_store[16][128];
    PLINT bcol[16], bpat[16];
    PLFLT bscale[16], bwid[16];
} legend;

/* An entry for series sr, drawn in colour col (none without a label or
 * beyond 16). */
static void legend_add(legend *lg, const hg_plot_series *sr, int col)
{
    if (!(sr->label && *sr->label && lg->n < 16))
        return;
    int i = lg->n++;
    escape_text(sr->label, lg->text_store[i], sizeof lg->text_store[i]);
    lg->texts[i] = lg->text_store[i];
    lg->tcol[i] = 1;
    lg->lcol[i] = lg->scol[i] = lg->bcol[i] = col;
    lg->lsty[i] = 1;
    lg->lwid[i] = 2.0;
    lg->sscale[i] = 1.0;
    lg->snum[i] = 1;
    lg->syms[i] = "#(728)";
    lg->bpat[i] = 0;
    lg->bscale[i] = 1.0;
    lg->bwid[i] = 1.0;
    lg->opts[i] = sr->style == HG_PLOT_BARS     ? PL_LEGEND_COLOR_BOX
                  : sr->style == HG_PLOT_POINTS ? PL_LEGEND_SYMBOL
                  : sr->style == HG_PLOT_LINE   ? PL_LEGEND_LINE
                                  : PL_LEGEND_LINE | PL_LEGEND_SYMBOL;
}

/* The legend below the x-axis title, in rows x cols; chr_ht and the
 * subpage's height (sub_h) give the offset in units of the viewport
 * height. */
static void draw_legend(legend *lg, int rows, int cols, PLFLT chr_ht,
                        PLFLT sub_h)
{
    PLFLT lw, lh;
    plschr(0, 0.8);
    PLFLT vx0, vx1, vy0, vy1;
    plgvpd(&vx0, &vx1, &vy0, &vy1);
    double off = 3.6 * chr_ht / (sub_h * (vy1 - vy0));
    pllegend(&lw, &lh, 0, PL_POSITION_BOTTOM | PL_POSITION_OUTSIDE, 0.0, off,
             0.06, 15, 0, 1, rows, cols, lg->n, lg->opts, 1.0, 1.0, 2.0, 1.0,
             lg->tcol, lg->texts, lg->bcol, lg->bpat, lg->bscale, lg->bwid,
             lg->lcol, lg->lsty, lg->lwid, lg->scol, lg->sscale, lg->snum,
             lg->syms);
}

/* The shaded band between band_lo and band_hi across the panel. */
static void draw_band(const hg_plot_panel *pp, double x0, double x1)
{
    if (!(pp->band_lo < pp->band_hi && usable(pp->band_lo, pp->logy) &&
          usable(pp->band_hi, pp->logy)))
        return;
    double lo = axis_value(pp->band_lo, pp->logy);
    double hi = axis_value(pp->band_hi, pp->logy);
    PLFLT bx[4] = {x0, x1, x1, x0}, by[4] = {lo, lo, hi, hi};
    plcol0(COL_BAND);
    plfill(4, bx, by);
}

/* The axes (categories: their names under the x axis; x0, x1 the x
 * range), their labels and the title. */
static void draw_axes(const hg_plot_panel *pp, double x0, double x1)
{
    plcol0(1);
    plschr(0, 0.9);
    char xopt[16] = "bcnst", yopt[16] = "bcnstv";
    if (pp->logx)
        strcat(xopt, "l");
    if (pp->logy)
        strcat(yopt, "l");
    if (pp->categories) {
        plbox("bc", 0.0, 0, yopt, 0.0, 0);
        for (int c = 0; c < pp->n_categories; c++) {
            char t[64];
            escape_text(pp->categories[c], t, sizeof t);
            plmtex("b", 1.2, (c + 1 - x0) / (x1 - x0), 0.5, t);
        }
    } else {
        plbox(xopt, 0.0, 0, yopt, 0.0, 0);
    }
    char title[256], xl[256], yl[256];
    escape_text(pp->title, title, sizeof title);
    escape_text(pp->xlabel, xl, sizeof xl);
    escape_text(pp->ylabel, yl, sizeof yl);
    pllab(xl, yl, title);
}

/* A series of lines and/or points: the runs of usable points. */
static void draw_curve(const hg_plot_panel *pp, const hg_plot_series *sr)
{
    PLFLT *xs = malloc(sizeof *xs * (size_t)(sr->n > 0 ? sr->n : 1));
    PLFLT *ys = malloc(sizeof *ys * (size_t)(sr->n > 0 ? sr->n : 1));
    int k = 0;
    for (int i = 0; xs && ys && i < sr->n; i++) {
        if (!usable(sr->x[i], pp->logx) || !usable(sr->y[i], pp->logy))
            continue;
        xs[k] = axis_value(sr->x[i], pp->logx);
        ys[k] = axis_value(sr->y[i], pp->logy);
        k++;
    }
    if (k > 1 && sr->style != HG_PLOT_POINTS)
        plline(k, xs, ys);
    if (k > 0 && sr->style != HG_PLOT_LINE)
        plstring(k, xs, ys, "#(728)");
    free(xs);
    free(ys);
}

/* The marked points with their texts (dy: the y range, for the text's
 * offset). */
static void draw_marks(const hg_plot_panel *pp, double dy)
{
    for (int m = 0; m < pp->n_marks; m++) {
        const hg_plot_mark *mk = &pp->marks[m];
        if (!usable(mk->x, pp->logx) || !usable(mk->y, pp->logy))
            continue;
        PLFLT mx = axis_value(mk->x, pp->logx), my = axis_value(mk->y, pp->logy);
        plcol0(3);
        plschr(0, 1.4);
        plstring(1, &mx, &my, "#(841)");
        plschr(0, 0.8);
        char t[128];
        escape_text(mk->text, t, sizeof t);
        plptex(mx, my + 0.04 * dy, 1.0, 0.0, 0.5, t);
        plschr(0, 0.9);
    }
}

static void draw_panel(const hg_plot_panel *panel)
{
    hg_plot_panel q = *panel;
    const hg_plot_panel *pp = &q;
    q.logx = q.logx && spans_decade(panel, 0);
    q.logy = q.logy && spans_decade(panel, 1);
    double x0, x1, y0, y1;
    panel_range(pp, &x0, &x1, &y0, &y1);
    pladv(0);
    plschr(0, 0.9);
    /* the legend goes below the axes, in two columns: keep room for it */
    PLFLT sx0, sx1, sy0, sy1, chr_def, chr_ht;
    plgspa(&sx0, &sx1, &sy0, &sy1);
    plgchr(&chr_def, &chr_ht);
    int n_leg = legend_entries(pp), leg_cols = n_leg > 1 ? 2 : 1;
    int leg_rows = (n_leg + leg_cols - 1) / leg_cols;
    double row = 2.8 * chr_ht / (sy1 - sy0);
    double bottom = 0.12 + (n_leg > 0 ? 0.04 + leg_rows * row : 0.0);
    if (bottom > 0.5)
        bottom = 0.5;
    plvpor(0.11, 0.96, bottom, 0.90);
    plwind(x0, x1, y0, y1);
    draw_band(pp, x0, x1);
    draw_axes(pp, x0, x1);

    int n_bar_series = 0;
    for (int s = 0; s < pp->n_series; s++)
        n_bar_series += pp->series[s].style == HG_PLOT_BARS;
    legend lg;
    lg.n = 0;
    int bar_index = 0;
    for (int s = 0; s < pp->n_series; s++) {
        const hg_plot_series *sr = &pp->series[s];
        int col = 2 + s % N_COLOURS;
        plcol0(col);
        plwidth(2.0);
        if (sr->style == HG_PLOT_BARS)
            draw_bars(pp, sr, bar_index++, n_bar_series, y0);
        else
            draw_curve(pp, sr);
        legend_add(&lg, sr, col);
    }
    plwidth(1.0);
    draw_marks(pp, y1 - y0);
    if (lg.n > 0)
        draw_legend(&lg, leg_rows, leg_cols, chr_ht, sy1 - sy0);
    plcol0(1);
}

static int render(const char *device, const char *file,
                  const hg_plot_panel *panels, int n_panels, int width_px,
                  hg_err *e)
{
    /* volatile: read after longjmp */
    volatile int started = 0;
    plot_errmsg[0] = '\0';
    if (setjmp(plot_escape)) {
        if (started)
            plend();
        return hg_fail(e, HG_EIO, "plot: PLplot failed: %s", plot_errmsg);
    }
    plsexit(exit_handler);
    plsdev(device);
    plsfnam(file);
    int height = (int)(0.62 * width_px) * n_panels;
    if (n_panels > 1)
        height = (int)(0.56 * width_px) * n_panels;
    plspage(0.0, 0.0, width_px, height, 0, 0);
    plscolbg(255, 255, 255);
    for (int i = 0; i < (int)(sizeof palette / sizeof palette[0]); i++)
        plscol0(i, palette[i][0], palette[i][1], palette[i][2]);
    plscol0(15, 255, 255, 255); /* legend background */
    plssub(1, n_panels);
    plinit();
    started = 1;
    for (int p = 0; p < n_panels; p++)
        draw_panel(&panels[p]);
    plend();
    started = 0;
    plsexit(NULL);
    return HG_OK;
}

#endif /* HG_HAVE_PLOT */

int hg_plot_write(const char *path, const hg_plot_panel *panels, int n_panels,
                  int width_px, hg_err *e)
{
    int rc = check_args(path, panels, n_panels, width_px, e);
    if (rc != HG_OK)
        return rc;
#ifndef HG_HAVE_PLOT
    return hg_fail(e, HG_EUNKNOWN,
                   "plot: this hgridopt was built without plotting "
                   "(configure with -DHG_PLOT=ON and PLplot installed)");
#else
    /* a device or pipe (e.g. /dev/stdout) is not replaced by a file:
     * PLplot writes to a named file, so only regular files are drawn to */
    struct stat target;
    if (stat(path, &target) == 0 && !S_ISREG(target.st_mode))
        return hg_fail(e, HG_EIO,
                       "plot: cannot write '%s': not a regular file", path);
    /* temporary file in the same folder, renamed on success */
    size_t len = strlen(path);
    char *tmp = malloc(len + 16);
    if (!tmp)
        return hg_fail(e, HG_ENOMEM, "plot: out of memory");
    snprintf(tmp, len + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        rc = hg_fail(e, HG_EIO, "plot: cannot create a file next to '%s': %s",
                     path, strerror(errno));
        free(tmp);
        return rc;
    }
    /* mkstemp makes the file private (0600): give it the permissions a
     * plainly created file would have */
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);
    close(fd);
    rc = render(device_for(path), tmp, panels, n_panels, width_px, e);
    if (rc == HG_OK) {
        FILE *f = fopen(tmp, "rb");
        long size = -1;
        if (f && fseek(f, 0, SEEK_END) == 0)
            size = ftell(f);
        if (f)
            fclose(f);
        if (size <= 0)
            rc = hg_fail(e, HG_EIO, "plot: nothing was written to '%s'", path);
    }
    if (rc == HG_OK && rename(tmp, path) != 0)
        rc = hg_fail(e, HG_EIO, "plot: cannot write '%s': %s", path,
                     strerror(errno));
    if (rc != HG_OK)
        remove(tmp);
    free(tmp);
    return rc;
#endif
}
