/* hg_validate.h - measure the bundled HGrid against the cost model:
 * predicted (hg_cost_evaluate) vs measured (hg_grid counters) pair checks
 * T_cd and cell accesses T_ca per particle, per level and in total, and the
 * wall time of contact detection. With uniformly random centres in a
 * periodic box of whole cells the counts agree with the model (KOL 2014
 * section 3) up to statistical noise.
 */
#ifndef HG_VALIDATE_H
#define HG_VALIDATE_H

#include <stddef.h>
#include <stdint.h>
#include "hg_calib.h"
#include "hg_common.h"
#include "hg_model.h"
#include "hg_particles.h"
#include "hg_psd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One level: predicted and measured work of the particles living on it,
 * per particle of the whole system (as hg_level_cost). */
typedef struct hg_validate_level {
    int level;                  /* 1..L */
    double cell_size;           /* s_h used (rounded to the box) */
    double predicted_fraction;  /* P_h */
    double measured_fraction;   /* N_h / N */
    double predicted_T_cd, predicted_T_ca;
    double measured_T_cd, measured_T_ca;
} hg_validate_level;

/* One grid (the HGrid or the linked cell) on one packing. Arrays owned
 * (hg_validate_run_clear). */
typedef struct hg_validate_run {
    const hg_model *model;      /* the model that predicted */
    hg_algorithm algorithm;     /* the grid measured (model's) */
    int levels;
    double *sizes;              /* levels entries, as used */
    hg_validate_level *per_level;
    double predicted_T_cd, predicted_T_ca, predicted_T;
    double measured_T_cd, measured_T_ca, measured_T;
    double seconds;             /* contact detection (uncounted), median
                                   of the repeats; for the whole system */
    double seconds_min, seconds_max; /* fastest and slowest repeat */
    double cpu_seconds;         /* CPU time of the detection (all threads,
                                   CLOCK_PROCESS_CPUTIME_ID), median of the
                                   repeats, scaled like seconds */
    int repeats;                /* timed repeats (each one the mean of
                                   `inner` back-to-back detections) */
    int inner;                  /* detections per repeat (short detections
                                   are run several times: >= 20 ms) */
    double build_seconds;       /* mapping phase (hg_grid_build): median
                                   of `repeats` rebuilds of the built grid
                                   (buffers reused, as every step of a
                                   dynamic run) */
    double first_build_seconds; /* the first build of a new grid
                                   (allocation and page faults included) */
    double contacts;            /* contact pairs (per system) */
    int extrapolated;           /* 1: only `searched` particles searched;
                                   seconds and contacts scaled by N/searched */
    size_t searched;
    size_t memory_bytes;        /* hg_grid_memory after the search */
} hg_validate_run;

void hg_validate_run_clear(hg_validate_run *r); /* accepts NULL */

/* Options of hg_validate_measure. */
typedef struct hg_measure_options {
    double budget;   /* max predicted pair checks + cell accesses of one
                        search (whole system); above it only a random
                        subset of particles searches. <= 0: no limit. */
    int repeats;     /* timed repetitions (>= 1): median, min and max */
    uint64_t seed;   /* for the random subset */
    hg_progress_fn progress; /* after each timed detection; may be NULL */
    void *progress_params;
} hg_measure_options;

/* Defaults: budget 2e8, repeats 5, seed 1. */
void hg_measure_options_default(hg_measure_options *o);

/* Build the bundled grid model->grid_algorithm (HG_EINVAL for a model
 * without one) of L levels with sizes[0..L-1] on the particles p (box and
 * periodicity from p), time the detection, count the work and compare
 * with hg_cost_evaluate(model, psd, sys, v, L, sizes) (the same sizes:
 * round them first with hg_pack_round_sizes for a periodic box). out is
 * overwritten (release with hg_validate_run_clear). */
int hg_validate_measure(const hg_model *model, const hg_psd *psd,
                        const hg_system *sys, const hg_model_values *v,
                        const hg_particles *p, int L, const double *sizes,
                        const hg_measure_options *opt, hg_validate_run *out,
                        hg_err *e);

typedef struct hg_validate_params {
    hg_system sys;          /* dim, nu */
    const hg_model *model;  /* predicts; its grid is measured */
    hg_model_values values; /* the model's parameters (e.g. K) */
    int L;                  /* levels of sizes */
    const double *sizes;    /* s_1..s_L before rounding (not owned) */
    size_t n;               /* particles */
    uint64_t seed;          /* packing seed */
    int baseline;           /* 1: also the linked cell (L = 1, 2 r_max) */
    hg_measure_options measure;
    const hg_K_choice *K_choice; /* where sys.K came from, for the notes
                                    (NULL: "K = value") */
} hg_validate_params;

#define HG_VALIDATE_NOTES 12
/* Counts (pair checks, contacts) a ratio is judged on: the relative error
 * of a count is about 1/sqrt(count), so 400 give 10 % at two standard
 * errors; below it a note says so and names the N that is enough. */
#define HG_VALIDATE_ENOUGH 400
#define HG_VALIDATE_NOTE_LEN 480

/* A whole validation. Owned parts released by hg_validation_clear. */
typedef struct hg_validation {
    size_t n;
    uint64_t seed;
    double box_edge;        /* A = (N V_p / nu)^(1/d) */
    double measured_nu;     /* packing fraction of the generated packing */
    double pack_seconds;
    /* hg_validate: the generator of the packing (hg_pack_structure_run for
     * sys.structure: "poisson", "rsa" or "dense"), why it was chosen, and
     * for rsa and dense the largest overlap / smaller radius; NULL, "" and
     * 0 for given particles */
    const char *generator;
    char generator_why[240];
    double max_overlap;
    hg_validate_run hgrid;
    int has_baseline;
    hg_validate_run linked_cell;
    int same_grid;            /* 1: the HGrid is one level of the linked
                                 cell's size: the same grid, timed once
                                 (linked_cell is its copy, speed-up 1) */
    double predicted_speedup; /* T(linked cell) / T(HGrid) */
    double measured_speedup;  /* median over the repeats of
                                 seconds(linked cell) / seconds(HGrid),
                                 the two timed alternately */
    double speedup_min, speedup_max; /* over the repeats */
    double measured_speedup_cpu; /* the same from CPU times (all threads):
                                    steadier on a loaded machine */
    int rounded;              /* 1: sizes rounded to whole cells on every
                                 axis (the prediction uses them) */
    int padded;               /* 1: given particles with a non-periodic
                                 axis, measured in a periodic box padded
                                 along it (hg_validate_particles) */
    int offsets;              /* padded: the counts (measured_T_cd/_T_ca
                                 of every run and level) are the mean over
                                 this many offsets of the grid along the
                                 padded axes (where cells start relative to
                                 walls and surfaces); timings are those of
                                 the first */
    double offset_T_cd_min[3], offset_T_cd_max[3]; /* HGrid, linked cell,
                                 bin: the range of T_cd over the offsets */
    int requested_levels;     /* L given */
    int merged_levels;        /* levels dropped because two sizes rounded
                                 to the same whole-cell size (the HGrid
                                 has requested_levels - merged_levels) */
    int n_notes;              /* verdict caveats, one line each: merged
                                 levels, timing spread, speed-up far from
                                 the prediction (K) */
    char notes[HG_VALIDATE_NOTES][HG_VALIDATE_NOTE_LEN];
    /* the `bin` baseline (LAMMPS-style bins of half the cutoff, model
     * "bin"), measured with the linked cell when its predicted work is
     * within the budget; build_seconds < 0: binning is part of seconds */
    int has_bin;
    hg_validate_run bin;
    double bin_skipped_work;      /* > 0: predicted work over the budget,
                                     not measured */
    double predicted_speedup_bin; /* T(bin) / T(HGrid) */
    double measured_speedup_bin;  /* seconds(bin) / seconds(HGrid) */
    double measured_speedup_bin_cpu; /* the same from CPU times (all
                                        threads; bin runs on one) */
} hg_validation;

void hg_validation_clear(hg_validation *v); /* accepts NULL */

/* Smallest particle count N whose Poisson box (hg_pack_box_edge) holds at
 * least 3 cells per edge of the largest of sizes[0..L-1] and 2 r_max after
 * rounding. With fewer cells a periodic level's 3^d stencil would meet
 * cells twice: the bundled HGrid visits each cell once, which the Poisson
 * and hard-sphere models do not describe, so hg_validate refuses such
 * boxes (hg_validate_particles with the measured structure measures them:
 * models/hgrid.c counts a short periodic level as the grid visits it). */
int hg_validate_min_particles(const hg_psd *psd, const hg_system *sys,
                              int L, const double *sizes, size_t *nmin,
                              hg_err *e);

/* Generate a packing of prm->sys.structure (hg_pack_structure_run:
 * Poisson centres, or hard spheres from the rsa or dense generator; a
 * periodic box of edge A; HG_ELIMIT when nu is beyond the generators'
 * reach), round the sizes to whole cells (s' = A / floor(A / s)); sizes
 * that round to the same value are merged into one level (said in a note); a box
 * with fewer than 3 cells per edge on some level is refused (HG_EINVAL,
 * the message names the smallest N that works:
 * hg_validate_min_particles). Run
 * hg_validate_measure for the HGrid (every particle searches: the budget
 * is not applied) and, if prm->baseline, for the linked cell (one level of
 * size 2 r_max rounded the same way; a subset when over the budget), the
 * two detections timed alternately over the repeats. out is overwritten;
 * its notes hold the caveats of the verdict. */
int hg_validate(const hg_psd *psd, const hg_validate_params *prm,
                hg_validation *out, hg_err *e);

/* The same on given particles p (e.g. read from a file) instead of a
 * generated packing; prm->n and prm->seed are ignored (n = p->n). Along a
 * non-periodic axis of p (hg_particles_axis_periodic) the grid is built in
 * a periodic box padded with empty space wider than any search reaches:
 * no pair or search crosses the seam and cells go on beyond the walls (as
 * LAMMPS' bins over its ghost region), so the cell accesses are the
 * model's; walls and free surfaces change the pair checks, which a
 * measured structure (hg_snapshot.h) predicts. The sizes are rounded to
 * whole cells when every box edge is a whole multiple of the shortest
 * (a cube; padded edges are made so when the periodic edges are equal);
 * otherwise they are used as given (the grid fits whole cells per axis,
 * slightly larger: the prediction is approximate). A periodic box of
 * fewer than 3 top cells per edge is measured when the structure is
 * measured (refused otherwise, as by hg_validate). The model predicts the
 * mean over where the cells start relative to walls and free surfaces, so
 * a padded box is counted at HG_VALIDATE_OFFSETS offsets of the grid
 * (steps of s_L / HG_VALIDATE_OFFSETS along the padded axes) and the
 * counts averaged (the range is reported). */
#define HG_VALIDATE_OFFSETS 4
int hg_validate_particles(const hg_psd *psd, const hg_validate_params *prm,
                          const hg_particles *p, hg_validation *out,
                          hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
