/* hg_lammps.h - LAMMPS' neighbor build as a cost model, and running LAMMPS.
 *
 * Model (models/lammps.c): the work LAMMPS (29 Sep 2021 and later) does per
 * neighbor build for `neighbor SKIN bin` and for `neighbor SKIN multi` with
 * `neigh_modify collection/interval n c_1 .. c_n` and `comm_modify mode
 * multi`, for a granular (size) pair style, counted per MPI rank of a
 * periodic cubic box holding N atoms at packing fraction nu:
 *   checks     distance checks of the pair loop
 *   visits     stencil bins visited
 *   bins       bins of every collection cleared and filled (box + ghost
 *              region, every build)
 *   binned     atoms binned (owned + ghost)
 *   coll_loops owned atoms x collections (the pair loop's collection loop)
 *   neighbours pairs stored in the half list
 * Neigh seconds per build = sum of each count times its constant
 * (hg_consts of kind hg_lammps_consts_kind), fitted against lmp's timing
 * breakdown by hg_lammps_fit. Collections are given by their cutoffs c_1 < ... <
 * c_n (largest diameter in each, the last >= the largest diameter).
 *
 * Runner (src/engines/lammps/run.c): writes a data file and an input script
 * that runs several neighbor settings in turn in one lmp process, runs lmp
 * (or mpirun -np P lmp) and reads Neigh and Pair seconds per build.
 */
#ifndef HG_LAMMPS_H
#define HG_LAMMPS_H

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

#define HG_LAMMPS_MAX_COLLECTIONS 16

/* One neighbor setting: bin style (ncoll = 0) or multi with ncoll
 * collections. */
typedef struct hg_lammps_setting {
    int ncoll;                              /* 0: `bin`; 1..16: `multi` */
    double cut[HG_LAMMPS_MAX_COLLECTIONS];  /* c_1 < ... < c_ncoll */
    double binsize; /* bin only: `neigh_modify binsize` (0: LAMMPS'
                       default, half the cutoff) */
} hg_lammps_setting;

/* The system seen by LAMMPS. */
typedef struct hg_lammps_system {
    int dim;        /* 2 or 3 */
    double nu;      /* packing fraction, 0 < nu < 1 */
    double atoms;   /* N, atoms in the periodic cubic box, >= 1 */
    double skin;    /* neighbor skin, > 0 */
    int nprocs;     /* MPI ranks, >= 1 (box split as LAMMPS' procs grid) */
    hg_structure structure; /* statistics of the centres (hg_system.h);
                               zero: poisson; measured: snapshot */
    const struct hg_snapshot *snapshot; /* structure measured: the box
                               (its shape and boundary, scaled to `atoms`
                               at the snapshot's density: a tall box's
                               empty bins are binned on every build) and
                               the pair statistics the distance checks
                               take (hg_snapshot.h); not owned */
    double cutoff_diameter; /* bin: the diameter LAMMPS' cutoff is set
                               from when it exceeds the largest of the
                               radii priced (a frame of a run whose larger
                               particles come later); 0: theirs */
} hg_lammps_system;

/* Expected work of one neighbor build on one rank. */
typedef struct hg_lammps_work {
    double checks, visits, bins, binned, coll_loops, neighbours;
    double ghosts;  /* ghost atoms (part of binned) */
    int ncoll;      /* collections (1 for bin) */
    double fraction[HG_LAMMPS_MAX_COLLECTIONS]; /* atoms per collection */
    double stencil[HG_LAMMPS_MAX_COLLECTIONS];  /* bins visited per atom */
    /* per collection: its atoms' checks and visits, its bins, its binned
     * atoms (owned + ghost) */
    double checks_c[HG_LAMMPS_MAX_COLLECTIONS];
    double visits_c[HG_LAMMPS_MAX_COLLECTIONS];
    double bins_c[HG_LAMMPS_MAX_COLLECTIONS];
    double binned_c[HG_LAMMPS_MAX_COLLECTIONS];
} hg_lammps_work;

#define HG_LAMMPS_NTERMS 6
/* The constants of the model: seconds per unit of each count, in the
 * order of hg_lammps_work (checks, visits, bins, binned, coll_loops,
 * neighbours); stored in lammps.json (hg_consts_path), shipped values
 * measured with Debian's lmp 29 Sep 2021 (docs/measurements/lammps.md). */
extern const hg_consts_kind hg_lammps_consts_kind;
/* The pair loop's cost (Pair seconds per step on one rank): per stored
 * neighbour pair and per atom, fitted by `calibrate --engine lammps`
 * (each system's lists built once and kept, at 1x to 4x the skin), in
 * lammps-pair.json; what a larger skin costs in every step. */
extern const hg_consts_kind hg_lammps_pair_kind;
/* Many ranks: seconds per ghost atom per step (ghost_step) and per
 * neighbour build (ghost_build) of LAMMPS's communication, the constants
 * of the decomposition model (hg_ranks.h); stored in lammps-comm.json by
 * calibrate --engine lammps --mpi P, shipped values otherwise. */
extern const hg_consts_kind hg_lammps_comm_kind;
/* Predicted Pair seconds per step for stored pairs and atoms per rank. */
double hg_lammps_pair_predict(const hg_consts *c, double neighbours,
                              double atoms);

/* Check a setting against the largest diameter dmax: 0 <= ncoll <= 16,
 * cutoffs finite, strictly increasing, > 0, the last >= dmax. */
int hg_lammps_setting_check(const hg_lammps_setting *s, double dmax,
                            hg_err *e);
int hg_lammps_system_check(const hg_lammps_system *sys, hg_err *e);

/* Expected work of one build (see the header comment) for the radii of
 * psd. Fails on a bad system or setting. */
int hg_lammps_work_eval(const hg_psd *psd, const hg_lammps_system *sys,
                        const hg_lammps_setting *s, hg_lammps_work *w,
                        hg_err *e);
/* Predicted Neigh seconds per build. */
double hg_lammps_predict(const hg_consts *c, const hg_lammps_work *w);

/* The model's optimum: bin, and multi with 1..max_coll collections (each
 * optimised over its cutoffs: derivative-free, the model is piecewise
 * constant in the stencil sizes and bin counts), keeping the fewest
 * collections within tol (relative) of the fastest; bin wins ties with
 * one collection. best_multi (may be NULL) gets the best multi setting
 * even when bin wins. Times in seconds per build. */
typedef struct hg_lammps_optimum {
    hg_lammps_setting best;       /* what to use (ncoll 0 = bin) */
    double seconds;               /* its predicted time */
    double bin_seconds;           /* predicted time of bin */
    hg_lammps_setting by_n[HG_LAMMPS_MAX_COLLECTIONS + 1]; /* [n]: n coll */
    double by_n_seconds[HG_LAMMPS_MAX_COLLECTIONS + 1];    /* [0] = bin */
    int max_coll;
} hg_lammps_optimum;

int hg_lammps_optimise(const hg_psd *psd, const hg_lammps_system *sys,
                       const hg_consts *c, int max_coll, double tol,
                       hg_lammps_optimum *out, hg_err *e);

/* Cutoffs from HGrid cell sizes s_1..s_L: the largest diameter on each
 * non-empty level (min(s_h, 2 r_max)), empty levels merged, the last the
 * largest diameter. Writes s->ncoll = n (1..16) or fails. */
int hg_lammps_setting_from_sizes(const hg_psd *psd, int L,
                                 const double *sizes, hg_lammps_setting *s,
                                 hg_err *e);

/* The neighbor lines of a setting: "neighbor SKIN bin" or "neighbor SKIN
 * multi", "neigh_modify collection/interval n c_1 .. c_n" and "comm_modify
 * mode multi". Cutoffs are printed with 9 significant digits rounded *up*
 * so that every printed value read back is >= the cutoff (the last >=
 * dmax, LAMMPS' test of the largest atom) and strictly increasing. The
 * text (caller frees) ends with a newline. */
int hg_lammps_lines(const hg_lammps_setting *s, double skin, double dmax,
                    char **text, hg_err *e);
/* A setting in words: "bin", "multi with 2 collections (cutoffs 11.9,
 * 40)" (truncated to len - 1 characters). */
void hg_lammps_setting_text(const hg_lammps_setting *s, char *buf,
                            size_t len);
/* The smallest 9-significant-digit decimal >= x, printed into buf;
 * returns its value. */
double hg_lammps_format_up(double x, char *buf, size_t len);

/* ---- running lmp ---- */

typedef struct hg_lammps_run_options {
    const char *lmp;     /* executable; NULL: "lmp" on PATH */
    int nprocs;          /* 1: plain lmp; > 1: mpirun -np nprocs lmp */
    const char *keep;    /* folder to keep inputs and logs in; NULL: temp */
    int steps;           /* timed steps per run (default 50) */
    int warmup;          /* untimed steps before (default 5) */
    int repeats;         /* alternating repeats of the whole list (3) */
    double skin;         /* neighbor skin, > 0 */
    int keep_lists;      /* 0: the list rebuilt every step (Neigh per
                            build); 1: built once and kept (check yes on
                            atoms that stay): the pair loop alone */
    /* statistics of the centres for the model's predicted work (poisson;
     * hard-spheres for a non-overlapping packing) */
    hg_structure structure;
    /* progress (may be NULL): called after each timed run */
    void (*progress)(int done, int total, void *params);
    void *progress_params;
} hg_lammps_run_options;

void hg_lammps_run_options_default(hg_lammps_run_options *o);

typedef hg_code_timing hg_lammps_timing; /* hg_engine.h */

/* The lmp executable: opt->lmp or "lmp" searched on PATH; writes the path
 * into buf. HG_EIO with install advice if it is not found. */
int hg_lammps_find(const char *lmp, char *buf, size_t len, hg_err *e);
/* "29 Sep 2021 - Update 2" etc. from `lmp -h`. */
int hg_lammps_version(const char *lmp, char *buf, size_t len, hg_err *e);

/* Run the settings s[0..n-1] on particles p (periodic box) in one lmp
 * process: each setting warmup + steps steps with the neighbor list
 * rebuilt every step, the list repeated opt->repeats times in alternating
 * order; t[i] gets setting i's medians. Fails (with lmp's ERROR line) if
 * lmp cannot run. */
int hg_lammps_run(const hg_particles *p, const hg_lammps_setting *s, int n,
                  const hg_lammps_run_options *opt, hg_lammps_timing *t,
                  hg_err *e);

/* ---- calibration of the constants ---- */

/* Fit consts->c (and se, r2, npoints) to measured Neigh seconds per build
 * y[i] of works w[i], i < n (>= HG_LAMMPS_NTERMS + 2): least squares on
 * relative residuals (weights 1/y^2, GSL multifit_wlinear); a term whose
 * constant comes out <= 0 is dropped and the fit repeated (its constant
 * is 0 and its error 0). */
int hg_lammps_fit(const hg_lammps_work *w, const double *y, int n,
                  hg_consts *c, hg_err *e);


/* ---- measuring settings, calibration grid, tuning ---- */

/* One measured setting with the model's work and prediction. */
typedef struct hg_lammps_point {
    hg_lammps_setting setting;
    hg_lammps_work work;
    hg_lammps_timing timing;
    double predicted; /* seconds per build (0 when no constants given) */
} hg_lammps_point;

/* The model's view of a packing: *psd = its radii (caller frees with
 * hg_psd_free), sys from its dim, packing fraction and atoms, skin and
 * nprocs from the arguments, structure poisson (the caller decides it, as
 * the command line does for --packing). */
int hg_lammps_system_of(const hg_particles *p, double skin, int nprocs,
                        hg_psd **psd, hg_lammps_system *sys, hg_err *e);

/* Run settings s[0..n-1] on p (hg_lammps_run) and fill out[0..n-1]; c may
 * be NULL (no prediction). */
int hg_lammps_measure(const hg_particles *p, const hg_lammps_setting *s,
                      int n, const hg_lammps_run_options *o,
                      const hg_consts *c, hg_lammps_point *out,
                      hg_err *e);

/* The calibration grid for one system: bin, one collection, 2..4
 * collections with geometric cutoffs, two collections with the cutoff
 * moved down and up, three with equal atom numbers. Returns the count
 * (<= cap) written to out. */
int hg_lammps_calibration_settings(const hg_psd *psd, hg_lammps_setting *out,
                                   int cap);

typedef struct hg_lammps_tune_result {
    hg_lammps_point model;   /* the model's optimum, measured */
    hg_lammps_point bin;     /* bin, measured */
    hg_lammps_point best;    /* fastest measured */
    int settings;            /* settings measured (with repeats) */
    int rounds;
    double seconds;          /* wall time spent */
} hg_lammps_tune_result;

/* Measured search from the model's optimum: bin, the optimum and its
 * neighbours with one collection fewer and more, then rounds moving each
 * cutoff by a factor (1.3, shrinking when nothing improves by > 2 %),
 * each round re-measuring the incumbent with its candidates in one lmp
 * run, until budget seconds of wall time would be exceeded; finally the
 * best, the model's optimum and bin side by side in one more run (their
 * times in out come from it; best is the fastest of the three). */
int hg_lammps_tune(const hg_particles *p, const hg_consts *c,
                   const hg_lammps_run_options *o, double budget,
                   int max_coll, hg_lammps_tune_result *out, hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
