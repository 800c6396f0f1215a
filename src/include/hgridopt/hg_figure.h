/* hg_figure.h - hgridopt's results as figures (the pictures of KOL 2014
 * figs. 3-9, and predicted against measured work), drawn with hg_plot_write
 * into path (format from the extension: .svg, .png, .pdf; written
 * atomically). Each returns an hg status; the message names the file. The
 * result structs are only read. */
#ifndef HG_FIGURE_H
#define HG_FIGURE_H

#include <stddef.h>

#include "hg_bench.h"
#include "hg_calib.h"
#include "hg_common.h"
#include "hg_opt.h"
#include "hg_plot.h"
#include "hg_validate.h"

#ifdef __cplusplus
extern "C" {
#endif

/* T against L for every curve (recipe x model), log-scaled T, the
 * optimum over all curves marked (KOL 2014 figs. 4-9). */
int hg_figure_curves(const char *path, const hg_curve *curves, int n,
                    const char *title, hg_err *e);

/* One point of a power-law sweep: the best L and T at (alpha, omega) of one
 * series (label: alpha, recipe and model). */
typedef struct hg_figure_sweep_point {
    const char *label;
    double alpha, omega, best_L, best_T;
} hg_figure_sweep_point;

/* A power-law sweep: best L and best T against omega, one series per label. */
int hg_figure_sweep(const char *path, const hg_figure_sweep_point *pts, size_t n,
                   hg_err *e);

/* A recommendation: cell size and particles per cell per level, and T against the
 * number of levels around the recommendation. rmin scales the sizes. */
int hg_figure_recommendation(const char *path, const hg_recommendation *r,
                       double rmin, hg_err *e);

/* A validation: measured / predicted T_cd and T_ca per level (the +-2 % band),
 * and the speed-up predicted against measured. */
int hg_figure_validation(const char *path, const hg_validation *v, hg_err *e);

/* A calibration: measured seconds against the fitted a T_cd + b T_ca, with K. */
int hg_figure_calibration(const char *path, const hg_calibration *c,
                         hg_err *e);

/* A benchmark: time per detection per method (log scale), static and, when the
 * run had steps, dynamic. */
int hg_figure_bench(const char *path, const hg_bench_result *r, int dynamic,
                   hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
