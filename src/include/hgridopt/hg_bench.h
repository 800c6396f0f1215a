/* hg_bench.h - the contact detectors of hg_detector.h side by side
 * on one packing: static detections (median of repeats) and a dynamic run
 * (every particle displaced at random each step), every result checked
 * against the contact set of the bundled HGrid (Top-Down). The harness
 * returns a results struct; it never prints.
 *
 * Usage: hg_bench_config_default -> set fields -> hg_bench_run ->
 * read hg_bench_result -> hg_bench_result_clear. */
#ifndef HG_BENCH_H
#define HG_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include "hg_common.h"
#include "hg_detector.h"
#include "hg_model.h"
#include "hg_particles.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hg_bench_config {
    /* the packing (>= 2 particles); copied, not modified */
    const hg_particles *particles;
    /* method names (n_methods of them); NULL or 0: every registered method
     * that supports the box and the brute-force limit (the others are
     * listed in hg_bench_result.skipped) */
    const char *const *methods;
    size_t n_methods;
    /* cell sizes s_1..s_L of hgrid, hgrid-bu and the reference HGrid; the
     * last >= the largest diameter of the particles. L = 0: the sizes
     * hg_recommend gives for psd and sys (per algorithm; the top size is
     * raised to the largest diameter if needed) */
    int L;
    const double *sizes;
    const hg_psd *psd; /* for recommended sizes and predicted work; may be
                          NULL when L > 0 */
    hg_system sys;     /* nu for hg_recommend (the packing's own when it
                          is in (0, 1)); dim is the packing's */
    const hg_model_values *values; /* model parameters (K); NULL: the
                                      defaults */
    double skin;         /* contact distance added to r_i + r_j, >= 0 */
    double verlet_skin;  /* Verlet list skin / r_min, > 0 (default 0.4) */
    double displacement; /* per step and axis, uniform in [-D, D] r_min */
    long repeats;        /* static detections per method, >= 1 (3) */
    long warmup;         /* untimed static detections per method before
                            them, >= 0 (0): the first one includes the
                            grid's allocation (first build) */
    long steps;          /* dynamic steps after the first detection (0) */
    uint64_t seed;       /* displacement seed (1) */
    size_t brute_limit;  /* brute force above this N only with force_brute
                            (20000) */
    int force_brute;
    /* work budget of one detection of one method: pair checks + cell
     * accesses + box tests + sort comparisons + swaps. A method predicted
     * (cost model for lc, verlet, hgrid*; N(N-1)/2 for brute) or measured
     * (its first detection) above it stops the run with HG_ELIMIT. 0: no
     * limit. Default 2e8. */
    double budget;
    hg_progress_fn progress; /* called after each detection; may be NULL */
    void *progress_params;
} hg_bench_config;

void hg_bench_config_default(hg_bench_config *c);

/* Figures of one method. Times in seconds, medians; counters of one static
 * detection; dynamic figures per step (steps > 0 only). */
typedef struct hg_bench_method {
    const hg_detector_type *type;
    int L;          /* hgrid, hgrid-bu: the cell sizes in use, else 0 */
    double *sizes;  /* L entries (owned) */
    double time, cpu;
    hg_detector_counters counters;
    size_t contacts;
    double first_time, first_cpu, step_time, step_cpu;
    double pair_checks_per_step, cell_accesses_per_step;
    double comparisons_per_step, swaps_per_step;
    uint64_t builds;
    size_t memory_max, contacts_last;
} hg_bench_method;

/* A method left out of the default list, and why. */
typedef struct hg_bench_skip {
    const hg_detector_type *type;
    const char *reason; /* static text */
} hg_bench_skip;

typedef struct hg_bench_result {
    size_t n_methods;
    hg_bench_method *methods; /* owned */
    size_t n_skipped;
    hg_bench_skip *skipped;   /* owned */
    size_t n;                 /* particles */
    int dim, periodic;
    double nu, rmin, rmax;    /* of the packing */
} hg_bench_result;

/* Run the benchmark. A bad configuration fails before any detection with
 * HG_EINVAL or HG_EUNKNOWN and a message starting with the field name
 * ("methods: ...", "sizes: ..."). During the run: HG_ELIMIT (budget),
 * HG_ENOMEM, or HG_ENUMERIC when a method's contact set differs from the
 * HGrid's (message "bench: ..."). out is owned by the caller
 * (hg_bench_result_clear), also on failure. */
int hg_bench_run(const hg_bench_config *c, hg_bench_result *out, hg_err *e);
void hg_bench_result_clear(hg_bench_result *r); /* accepts NULL */

#ifdef __cplusplus
}
#endif
#endif
