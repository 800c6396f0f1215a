/* hg_liggghts.h - LIGGGHTS' neighbor build as a cost model, its best bin
 * size, and running LIGGGHTS.
 *
 * LIGGGHTS (3.8, Debian's `liggghts`) builds the neighbour list of a
 * granular pair style on one grid (`neighbor SKIN bin`); its `neighbor
 * multi` dispatches to empty functions for granular pair styles (an empty
 * list, no error), so the one setting that matters is the bin size
 * (`neigh_modify binsize X`, default half the largest cutoff). The cutoff
 * is the same for every pair of atoms here: 2 r_max + skin (the pair
 * style's cutoff of two types is the sum of their largest radii).
 *
 * Model (models/liggghts.c): the work of one build on one MPI rank,
 *   checks      atoms fetched from the stencil's bins: the stencil is full
 *               (every bin within the cutoff, the own bin included) and a
 *               fetched atom j <= i is skipped before its distance is
 *               taken, so about half of these are distance checks (a
 *               fixed share: one constant covers both)
 *   visits      stencil bins visited (owned atoms x stencil bins)
 *   lines       the stencil's lines of bins along x visited (owned atoms
 *               x lines): bins adjacent in memory, a new line is a new
 *               cache line of bin heads
 *   bins        bins cleared per build: the rank's box grown by the ghost
 *               cutoff, one more bin each side
 *   binned      atoms binned (owned + ghost)
 *   neighbours  pairs stored
 * Neigh seconds per build = sum of each count times its constant
 * (hg_consts of kind hg_liggghts_consts_kind), fitted against liggghts'
 * timing by hg_liggghts_fit.
 *
 * Runner (src/engines/liggghts/run.c): writes the packing as a data file and
 * an input script running several bin sizes in turn in one liggghts
 * process, and reads the Neigh seconds per build after each run.
 */
#ifndef HG_LIGGGHTS_H
#define HG_LIGGGHTS_H

#include <stddef.h>
#include "hg_common.h"
#include "hg_consts.h"
#include "hg_engine.h"
#include "hg_particles.h"
#include "hg_psd.h"
#include "hg_system.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The bin sizes the optimiser and validate consider, as multiples of the
 * cutoff (LIGGGHTS' default, 0.5, is always considered too). */
#define HG_LIGGGHTS_BIN_MIN 0.25
#define HG_LIGGGHTS_BIN_MAX 1.5

/* The system seen by LIGGGHTS. */
typedef struct hg_liggghts_system {
    int dim;        /* 2 or 3 */
    double nu;      /* packing fraction, 0 < nu < 1 */
    double atoms;   /* N, >= 1 */
    double skin;    /* neighbor skin, > 0 */
    int nprocs;     /* MPI ranks, >= 1 */
    hg_structure structure; /* statistics of the centres (hg_system.h) */
    const struct hg_snapshot *snapshot; /* structure measured: the box
                                (scaled to `atoms`) and the density a
                                stencil finds; not owned */
    double box[3];  /* edges of the simulation box; 0: a cube holding the
                       atoms at nu (with a snapshot: its box) */
    char boundary[3]; /* per axis 'p' periodic, else walls; 0: 'p' */
    double cutoff_diameter; /* the diameter LIGGGHTS' cutoff is set from
                               when it exceeds the largest of the radii
                               priced (a frame of a run whose larger
                               particles come later); 0: theirs */
} hg_liggghts_system;

/* Expected work of one build on one rank. */
typedef struct hg_liggghts_work {
    double binsize;   /* the bin size asked for (neigh_modify binsize) */
    double cutoff;    /* the largest neighbour cutoff, 2 r_max + skin */
    int nbin[3];      /* bins across the box per axis */
    double width[3];  /* their widths, box / nbin */
    int stencil;      /* bins of the full stencil */
    int rows;         /* its lines of bins along x */
    double checks, visits, lines, bins, binned, neighbours;
    double ghosts;    /* ghost atoms (part of binned) */
} hg_liggghts_work;

#define HG_LIGGGHTS_NTERMS 6
/* The constants of the model: seconds per unit of each count (checks,
 * visits, lines, bins, binned, neighbours); stored in liggghts.json
 * (hg_consts_path), shipped values in src/engines/liggghts/shipped.h. */
extern const hg_consts_kind hg_liggghts_consts_kind;
/* The pair loop's cost (Pair seconds per step on one rank): per stored
 * neighbour pair and per atom, fitted by `calibrate --engine liggghts`
 * (each packing's lists built once and kept, at 1x to 10x the skin),
 * stored in liggghts-pair.json. */
extern const hg_consts_kind hg_liggghts_pair_kind;
/* Many ranks: seconds per ghost atom per step (ghost_step) and per
 * neighbour build (ghost_build) of LIGGGHTS's communication, the constants
 * of the decomposition model (hg_ranks.h); stored in liggghts-comm.json by
 * calibrate --engine liggghts --mpi P, shipped values otherwise. */
extern const hg_consts_kind hg_liggghts_comm_kind;

int hg_liggghts_system_check(const hg_liggghts_system *sys, hg_err *e);
/* The largest neighbour cutoff, 2 r_max + skin, and LIGGGHTS' default bin
 * size, half of it. */
double hg_liggghts_cutoff(const hg_psd *psd, double skin);
double hg_liggghts_default_binsize(const hg_psd *psd, double skin);

/* Expected work of one build with bin size binsize (<= 0: LIGGGHTS'
 * default). Fails on a bad system, or a bin size below 1e-3 of the cutoff
 * or making more than 2^31 bins. */
int hg_liggghts_work_eval(const hg_psd *psd, const hg_liggghts_system *sys,
                          double binsize, hg_liggghts_work *w, hg_err *e);
/* Predicted Neigh seconds per build. */
double hg_liggghts_predict(const hg_consts *c,
                           const hg_liggghts_work *w);

/* The model's best bin size in [BIN_MIN, BIN_MAX] x cutoff, or LIGGGHTS'
 * default when that is predicted within tol (relative, >= 0) of the best.
 * The bin widths LIGGGHTS makes take finitely many values (box / n per
 * axis), so the search visits each grid the range allows once, at the
 * geometric middle of the bin sizes giving it (robust to a box a little
 * different from the model's). */
typedef struct hg_liggghts_optimum {
    double binsize;          /* what to use */
    double seconds;          /* its predicted Neigh seconds per build */
    double default_binsize;  /* LIGGGHTS' default */
    double default_seconds;  /* its prediction */
    double cutoff;
    int grids;               /* distinct grids compared */
    int is_default;          /* 1: the default was kept */
} hg_liggghts_optimum;

int hg_liggghts_optimise(const hg_psd *psd, const hg_liggghts_system *sys,
                         const hg_consts *c, double tol,
                         hg_liggghts_optimum *out, hg_err *e);

/* "neighbor SKIN bin\nneigh_modify binsize X\n" (caller frees). */
int hg_liggghts_lines(double binsize, double skin, char **text, hg_err *e);

/* ---- running liggghts ---- */

typedef struct hg_liggghts_run_options {
    const char *program; /* executable; NULL: "liggghts" on PATH */
    int nprocs;          /* 1: plain; > 1: mpirun -np nprocs */
    const char *keep;    /* folder to keep inputs and logs in; NULL: temp */
    int steps;           /* timed steps per run (default 30) */
    int warmup;          /* untimed steps before (default 3) */
    int repeats;         /* alternating repeats of the list (default 3) */
    double skin;         /* neighbor skin, > 0 */
    int keep_lists;      /* 0: the list rebuilt every step; 1: built once
                            and kept (check yes): the pair loop alone */
    void (*progress)(int done, int total, void *params);
    void *progress_params;
} hg_liggghts_run_options;

void hg_liggghts_run_options_default(hg_liggghts_run_options *o);

typedef hg_code_timing hg_liggghts_timing; /* hg_engine.h */

/* The executable: program or "liggghts" on PATH, into buf; HG_EIO with
 * install advice when absent. */
int hg_liggghts_find(const char *program, char *buf, size_t len, hg_err *e);
/* "LIGGGHTS-PUBLIC 3.8.0" from `liggghts -h`. */
int hg_liggghts_version(const char *program, char *buf, size_t len,
                        hg_err *e);

/* Run bin sizes b[0..n-1] on the 3D packing p in one liggghts process:
 * each warmup + steps steps with the list rebuilt every step, the list
 * repeated in alternating order; t[i] gets bin size i's medians. */
int hg_liggghts_run(const hg_particles *p, const double *b, int n,
                    const hg_liggghts_run_options *opt,
                    hg_liggghts_timing *t, hg_err *e);

/* ---- calibration ---- */

/* Fit c (and se, r2, npoints, created) to measured seconds y[i] of works
 * w[i], i < n (>= HG_LIGGGHTS_NTERMS + 2): least squares on relative
 * residuals (GSL); a term coming out <= 0 is dropped and the fit
 * repeated. */
int hg_liggghts_fit(const hg_liggghts_work *w, const double *y, int n,
                    hg_consts *c, hg_err *e);

/* ---- measuring ---- */

/* One measured bin size with the model's work and prediction. */
typedef struct hg_liggghts_point {
    double binsize;
    hg_liggghts_work work;
    hg_liggghts_timing timing;
    double predicted; /* seconds per build (0: no constants) */
} hg_liggghts_point;

/* The model's view of packing p: its box, boundary and atom count; nu,
 * structure and snapshot from sys (may be NULL: the packing's nu,
 * poisson). */
int hg_liggghts_system_of(const hg_particles *p, const hg_system *sys,
                          double skin, int nprocs, hg_liggghts_system *out,
                          hg_err *e);

/* Predict and run bin sizes b[0..n-1] on p (psd its radii; c may be
 * NULL). */
int hg_liggghts_measure(const hg_particles *p, const hg_psd *psd,
                        const hg_liggghts_system *sys, const double *b,
                        int n, const hg_liggghts_run_options *o,
                        const hg_consts *c, hg_liggghts_point *out,
                        hg_err *e);

/* The bin sizes validate measures for cutoff cut: the range's ends and
 * steps between them (0.25, 0.35, 0.5 = the default, 0.7, 1.0, 1.25, 1.5
 * times cut). Returns the count (<= cap). */
int hg_liggghts_scan_sizes(double cut, double *out, int cap);

#ifdef __cplusplus
}
#endif
#endif
