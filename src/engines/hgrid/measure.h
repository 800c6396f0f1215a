/* measure.h - the measurement pieces shared by validate.c and
 * measure.c (not part of the public API). */
#ifndef HG_VERIFY_INTERNAL_H
#define HG_VERIFY_INTERNAL_H

#include "hg_validate.h"
#include "hg_grid.h"

#include <stddef.h>

/* One grid being measured: built, its subset chosen, timed in samples. */
typedef struct meas {
    hg_grid *g;
    size_t *sub;     /* NULL: every particle searches */
    size_t n, m;     /* particles, searching particles */
    hg_pairs pairs;
    int inner;       /* detections per sample */
    int k, cap;      /* samples taken, room */
    double *wall, *cpu; /* per detection, scaled to the whole system */
} meas;

/* Free what x holds and zero it (x may be zeroed already). */
void meas_clear(meas *x);

/* Build the grid (first_s: that first build, allocation included;
 * build_s: the median of opt->repeats rebuilds of the same grid, what a
 * dynamic run pays per step), pick the subset (budget), run one warm-up
 * detection and choose how many detections one sample holds (>= 20 ms,
 * at most 1000). */
int meas_prepare(meas *x, const hg_particles *p, hg_algorithm alg, int L,
                 const double *sizes, double work_per_particle,
                 const hg_measure_options *opt, double *build_s,
                 double *first_s, hg_err *e);

/* Time one sample (x->inner detections) into x->wall/x->cpu[x->k++]. */
int meas_sample(meas *x, hg_err *e);

/* Count the work once and fill out (prediction already in out). */
int meas_finish(meas *x, const hg_cost *cost, hg_validate_run *out,
                hg_err *e);

/* Median of v[0..n-1] (n >= 1; v is reordered). */
double meas_median(double *v, int n);

/* Predict (hg_cost_evaluate) and allocate out for L levels. */
int meas_run_init(const hg_model *model, const hg_psd *psd,
                  const hg_system *sys, const hg_model_values *v, int L,
                  const double *sizes, hg_cost *cost, hg_validate_run *out,
                  hg_err *e);

/* Refuse arguments hg_validate_measure cannot measure. */
int meas_check(const hg_model *model, const hg_psd *psd,
               const hg_system *sys, const hg_particles *p,
               const double *sizes, const hg_measure_options *opt,
               hg_err *e);

/* The notes of a validation that follow from its timings (validate.c):
 * the spread of the repeats, a single timing, a measured speed-up more
 * than 2 times off the prediction (the K note). A function of v's
 * numbers alone, so that tests can give it the numbers. */
void hg_validate_timing_notes(const hg_validate_params *prm,
                              hg_validation *v);

#endif
