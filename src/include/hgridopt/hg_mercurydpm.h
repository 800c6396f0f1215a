/* hg_mercurydpm.h - running MercuryDPM's HGrid on a packing: the
 * `mercurydpm` engine's runner (src/engines/mercurydpm/).
 *
 * MercuryDPM (a C++ library, no executable to drive) is reached through a
 * small timing driver that hgridopt writes, compiles against a MercuryDPM
 * build folder (its kernel library and headers) once, and caches: it loads
 * the packing's spheres (periodic axes as PeriodicBoundary, the others
 * closed by InfiniteWalls), sets the HGrid of each setting (levels, cell
 * sizes, TOPDOWN or BOTTOMUP) and times hGridActionsBeforeTimeStep() +
 * computeAllForces() per step - MercuryDPM's contact detection, fused with
 * the force computation, every step - in CPU time of the process (and wall
 * time), with the settings alternated and repeated (medians).
 *
 * The model is the KOL 2014 one (hgrid-top-down, hgrid-bottom-up) with K,
 * the cost of a cell access in pair checks, fitted for MercuryDPM:
 * seconds per step = N (a T_cd + b T_ca) + c_p per packing p (the work
 * every setting shares: forces of the contacts, the bucket refill),
 * K = b / a. */
#ifndef HG_MERCURYDPM_H
#define HG_MERCURYDPM_H

#include <stddef.h>

#include "hg_calib.h"
#include "hg_common.h"
#include "hg_engine.h"
#include "hg_grid.h"
#include "hg_particles.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most levels of one setting. */
#define HG_MERCURYDPM_MAX_LEVELS 16

/* One HGrid setting of MercuryDPM. */
typedef struct hg_mercurydpm_setting {
    hg_algorithm algorithm; /* HG_TOP_DOWN (TOPDOWN) or HG_BOTTOM_UP */
    int user;               /* 1: setHGridDistribution(USER) with sizes;
                               0: EXPONENTIAL, MercuryDPM's own sizes */
    int levels;             /* setHGridMaxLevels, 1..16 */
    double sizes[HG_MERCURYDPM_MAX_LEVELS]; /* user: s_1..s_L, non-
                               decreasing, s_L >= the largest diameter (the
                               driver keeps the top above it) */
} hg_mercurydpm_setting;

/* MercuryDPM's defaults: TOPDOWN, EXPONENTIAL, 3 levels. */
void hg_mercurydpm_setting_default(hg_mercurydpm_setting *s);

/* The parameter values of the HGrid cost models for MercuryDPM: K (pair
 * checks per cell access) and whole = 0 (its hashed cells keep their
 * size along a periodic edge; the bundled grid stretches them). v is
 * overwritten. */
int hg_mercurydpm_values(hg_model_values *v, double K, hg_err *e);

/* What one setting measured. */
typedef struct hg_mercurydpm_timing {
    double seconds;          /* CPU seconds per step (the driver's process
                                time): the first setting's median over the
                                repeats; another setting's that times the
                                median of its ratio to the first setting
                                in the same repeat (paired: the machine's
                                speed drifts between repeats) */
    double seconds_min, seconds_max;
    double wall;             /* wall seconds per step, median */
    double interactions;     /* interactions held (contacts found) */
    int levels;              /* levels MercuryDPM built */
    double cells[HG_MERCURYDPM_MAX_LEVELS]; /* their cell sizes */
    double on_level[HG_MERCURYDPM_MAX_LEVELS]; /* particles (ghosts of
                               periodic images included) on each */
    double particles, with_ghosts; /* real particles; with periodic ghosts */
} hg_mercurydpm_timing;

/* The build folder: dir, else $HG_MERCURYDPM_DIR; it must hold the kernel
 * library (Kernel/libMercuryBase.a) and name its source tree in
 * CMakeCache.txt. Writes the folder into build (len bytes). HG_EIO with
 * build advice when there is none. */
int hg_mercurydpm_find(const char *dir, char *build, size_t len, hg_err *e);

/* The timing driver for build folder build: compiled with c++ against its
 * headers and libraries on first use and cached (by the build's path and
 * the driver's text) under $XDG_CACHE_HOME/hgridopt, else
 * $HOME/.cache/hgridopt; recompiled when the kernel library is newer.
 * Writes the executable's path into exe. The compiler's first error line
 * is in the message when it fails. */
int hg_mercurydpm_driver(const char *build, char *exe, size_t len,
                         hg_err *e);

/* Compile and link the C++ file src into the executable exe against build
 * folder build (its flags, defines, include folders and kernel libraries),
 * the compiler's output into log. HG_EIO naming the first error line. */
int hg_mercurydpm_compile(const char *build, const char *src,
                          const char *exe, const char *log, hg_err *e);

/* The driver's C++ source (static text). */
const char *hg_mercurydpm_driver_source(void);

/* Run settings s[0..n-1] on particles p through the driver of run->program
 * (else $HG_MERCURYDPM_DIR): each setting run->warmup untimed and
 * run->steps timed steps, the list repeated run->repeats times in
 * alternating order; t[i] gets setting i's medians. run->keep keeps the
 * inputs and the driver's output. */
int hg_mercurydpm_run(const hg_particles *p, const hg_mercurydpm_setting *s,
                      int n, const hg_engine_run *run,
                      hg_mercurydpm_timing *t, hg_err *e);

/* ---- the fit of K ---- */

/* One measured setting for the fit: the model's work per particle and the
 * measured seconds per step of a packing of n particles. */
typedef struct hg_mercurydpm_sample {
    int packing;          /* index of the packing (its own offset c_p) */
    double n;             /* particles */
    double T_cd, T_ca;    /* KOL 2014 work per particle */
    double seconds;       /* measured per step */
} hg_mercurydpm_sample;

typedef struct hg_mercurydpm_fit {
    double a, b;          /* seconds per pair check, per cell access */
    double K, K_se;       /* b / a and its standard error */
    int n_packings;
    double c[8];          /* seconds per step shared by every setting of
                             packing p (p < 8) */
    double median_error, max_error; /* relative, of the fitted times */
} hg_mercurydpm_fit;

/* Weighted least squares (weights 1 / seconds^2: relative residuals) of
 * seconds = n (a T_cd + b T_ca) + c_packing over x[0..m-1] (packings
 * numbered 0..7, each with at least 2 samples; m >= 3 + packings).
 * HG_ENUMERIC if a or b is not > 0. */
int hg_mercurydpm_fit_K(const hg_mercurydpm_sample *x, int m,
                        hg_mercurydpm_fit *out, hg_err *e);

/* The file of the stored MercuryDPM K (the same schema as the bundled
 * HGrid's calibration, one entry per dimension):
 * $HGRIDOPT_MERCURYDPM_CALIBRATION, else
 * $XDG_CONFIG_HOME/hgridopt/mercurydpm.json, else
 * $HOME/.config/hgridopt/mercurydpm.json. */
int hg_mercurydpm_calibration_path(char *buf, size_t len, hg_err *e);

/* The shipped K of MercuryDPM for dim (2 or 3; NAN otherwise), fitted in
 * MercuryDPM here (where: machine, command and date, static text). */
double hg_mercurydpm_K_shipped(int dim, const char **where);

/* ---- the engine's runners (hg_engine.h) ---- */

/* calibrate: on each packing (none: RSA packings at nu 0.3 of run->atoms
 * spheres, at most 20000, seed run->seed, of uniform radii on [1, 10], of
 * number density r^-3 on [1, 10] and of a 1:5 bidisperse mix of equal
 * volumes) MercuryDPM's defaults, exponential sizes with L = 1..
 * run->max_levels (<= 8) for both algorithms and the model's optima for
 * K = 0.2, 0.5, 1, 2, 4 (grids predicted more than 8 times slower than the
 * best at K = 1 left out); K fitted (hg_mercurydpm_fit_K); with run->store
 * stored in run->save, else in hg_mercurydpm_calibration_path (the file
 * hg_K_resolve reads for MercuryDPM). Points: predicted = the fitted
 * seconds per step; spearman: the lowest per packing of T = T_cd + K T_ca
 * against the measured times. */
int hg_mercurydpm_calibrate(const hg_engine_run *run, hg_engine_report *out,
                            hg_err *e);
/* validate: the recommendation (K for MercuryDPM) against MercuryDPM's
 * defaults, the other algorithm, one level fewer and more, the single
 * level and the inner sizes scaled by 0.8 and 1.25, in one run. Points:
 * lines = the export (hg_export_mercurydpm); predicted = N a T, the
 * detection work at a seconds per pair check of the calibration, without
 * the work every setting shares (so it ranks, it does not add up). */
int hg_mercurydpm_validate(const hg_engine_run *run, hg_engine_report *out,
                           hg_err *e);
/* tune: a measured search from the model's optimum within run->budget
 * seconds: the optimum, its neighbours in levels and algorithm, then
 * rounds moving each inner size by a factor (1.3, shrinking when nothing
 * improves by > 2 %), each round re-measuring the incumbent with its
 * candidates; finally the best, the optimum and the defaults in one run. */
int hg_mercurydpm_tune(const hg_engine_run *run, hg_engine_report *out,
                       hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
