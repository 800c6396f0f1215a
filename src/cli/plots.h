/* plots.h - the figures written by --plot FILE (format from the extension:
 * .svg, .png, .pdf). Each returns an hg status; the message names the
 * file. */
#ifndef HG_CLI_PLOTS_H
#define HG_CLI_PLOTS_H

#include "hgridopt.h"
#include "hg_bench.h"

/* scan: T against L for every curve (recipe x model), log-scaled T, the
 * optimum over all curves marked (KOL 2014 figs. 4-9). */
int cli_plot_curves(const char *path, const hg_curve *curves, int n,
                    const char *title, hg_err *e);

/* One point of a power-law sweep: the best L and T at (alpha, omega) of one
 * series (label: alpha, recipe and model). */
typedef struct cli_sweep_point {
    const char *label;
    double alpha, omega, best_L, best_T;
} cli_sweep_point;

/* scan sweep: best L and best T against omega, one series per label. */
int cli_plot_sweep(const char *path, const cli_sweep_point *pts, size_t n,
                   hg_err *e);

/* recommend: cell size and particles per cell per level, and T against the
 * number of levels around the recommendation. rmin scales the sizes. */
int cli_plot_recommend(const char *path, const hg_recommendation *r,
                       double rmin, hg_err *e);

/* validate: measured / predicted T_cd and T_ca per level (the +-2 % band),
 * and the speed-up predicted against measured. */
int cli_plot_validation(const char *path, const hg_validation *v, hg_err *e);

/* calibrate: measured seconds against the fitted a T_cd + b T_ca, with K. */
int cli_plot_calibration(const char *path, const hg_calibration *c,
                         hg_err *e);

/* bench: time per detection per method (log scale), static and, when the
 * run had steps, dynamic. */
int cli_plot_bench(const char *path, const hg_bench_result *r, int dynamic,
                   hg_err *e);

#endif
