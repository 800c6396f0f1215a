/* hg_plot.h - figures of hgridopt's results (T against L, cell sizes per
 * level, predicted against measured work, calibration fits, benchmark
 * times), drawn with PLplot into SVG, PNG or PDF files.
 *
 * A figure is one or more panels stacked top to bottom; a panel has axes
 * (each linear or logarithmic), titles with units, and series drawn as
 * lines, points or bars, with a legend. The library only draws what it is
 * given: the CLI builds the panels from result structs.
 *
 * Plotting is optional at build time (CMake -DHG_PLOT=ON, the default, needs
 * PLplot); without it hg_plot_write fails with HG_EUNKNOWN and a message
 * saying that this build has no plotting (hg_plot_available() == 0).
 */
#ifndef HG_PLOT_H
#define HG_PLOT_H

#include "hg_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hg_plot_style {
    HG_PLOT_LINE = 0,        /* a polyline through the points */
    HG_PLOT_POINTS = 1,      /* markers only */
    HG_PLOT_LINE_POINTS = 2, /* both */
    HG_PLOT_BARS = 3         /* vertical bars centred on x, from the
                                panel's bar base (0, or 1 on a ratio plot) */
} hg_plot_style;

/* One data series. x, y are n values each, borrowed (not copied beyond the
 * call). Non-finite values (and values <= 0 on a log axis) are skipped. */
typedef struct hg_plot_series {
    const char *label; /* legend entry; NULL or "" = not in the legend */
    const double *x, *y;
    int n;
    hg_plot_style style;
} hg_plot_series;

/* One mark: a highlighted point with a short text (e.g. the optimum). */
typedef struct hg_plot_mark {
    double x, y;
    const char *text;
} hg_plot_mark;

typedef struct hg_plot_panel {
    const char *title;  /* above the panel */
    const char *xlabel; /* axis titles, with units */
    const char *ylabel;
    int logx, logy;     /* 1: logarithmic axis */
    const hg_plot_series *series;
    int n_series;
    const hg_plot_mark *marks; /* may be NULL */
    int n_marks;
    /* A shaded horizontal band [band_lo, band_hi] (e.g. the +-2 % band of a
     * measured/predicted ratio); ignored unless band_lo < band_hi. */
    double band_lo, band_hi;
    double bar_base;    /* where bars start (0 for counts, 1 for ratios) */
    /* x tick labels for bar charts of categories (NULL: numeric axis):
     * n_series' x values are 1..n_categories. */
    const char *const *categories;
    int n_categories;
} hg_plot_panel;

/* 1 if this build can plot. */
int hg_plot_available(void);

/* Write a figure of n_panels panels to path; the format comes from the
 * extension: .svg, .png or .pdf (case-insensitive). width_px is the width
 * in pixels (PNG) or the nominal width (SVG/PDF), 400..4000; the height
 * grows with the number of panels. The file is written to a temporary file
 * in the same folder and renamed on success, so a failure leaves no partial
 * file and any previous file untouched. */
int hg_plot_write(const char *path, const hg_plot_panel *panels, int n_panels,
                  int width_px, hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
