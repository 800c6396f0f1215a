/* hg_calib.h - calibrate K (cost of one cell access in units of one pair
 * check) for this machine and the bundled HGrid: time the detection over
 * several grids on a Poisson packing and fit
 *     seconds per particle = a T_cd + b T_ca
 * (KOL 2014 eq. 27: T = T_cd + K T_ca)
 * by least squares (GSL multifit), K = b / a. Results can be stored in and
 * read from a small JSON file (e.g. for `recommend --K auto`).
 */
#ifndef HG_CALIB_H
#define HG_CALIB_H

#include <stddef.h>
#include <stdint.h>
#include "hg_common.h"
#include "hg_model.h"
#include "hg_psd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One timed grid. */
typedef struct hg_calib_point {
    int levels;
    double T_cd, T_ca;   /* measured per particle */
    double seconds;      /* per particle, best of the repeats */
} hg_calib_point;

typedef struct hg_calibration {
    double K, K_se;      /* b / a and its standard error (delta method) */
    double a, a_se;      /* seconds per pair check */
    double b, b_se;      /* seconds per cell access */
    double r2;           /* coefficient of determination of the fit */
    int dim;
    size_t n;            /* particles of the packing */
    double nu;
    char psd[256];       /* distribution spec used */
    char created[32];    /* UTC time, ISO 8601 */
    int npoints;
    hg_calib_point *points; /* owned (hg_calibration_clear); NULL after load */
} hg_calibration;

void hg_calibration_clear(hg_calibration *c); /* accepts NULL */

/* Most models one calibration times. */
#define HG_CALIB_MAX_MODELS 4

typedef struct hg_calibrate_params {
    hg_system sys;       /* dim, nu */
    int n_models;        /* 0: hgrid-top-down and hgrid-bottom-up */
    const hg_model *models[HG_CALIB_MAX_MODELS]; /* grids to time (each
                            model's bundled grid; L = 1 only the first) */
    size_t n;            /* particles, >= 1000; default 200000 */
    uint64_t seed;
    int max_levels;      /* grids with L = 1..max_levels (default 5) */
    int repeats;         /* timed repetitions per grid (default 3) */
    double budget;       /* skip grids whose predicted work (pair checks +
                            cell accesses, whole system) exceeds this;
                            default 5e8 */
} hg_calibrate_params;

void hg_calibrate_params_default(hg_calibrate_params *p);

/* Settings: for L = 1..max_levels exponential sizes, the same with the
 * finer sizes scaled by 0.6 and 1.6 (more cell accesses, resp. more pair
 * checks), the grid of every model; at least 3 grids must fit the
 * budget. */
int hg_calibrate(const hg_psd *psd, const hg_calibrate_params *prm,
                 hg_calibration *out, hg_err *e);

/* Fit c->points[0..npoints-1] (>= 3): weighted least squares
 * seconds = a T_cd + b T_ca with weights 1 / seconds^2 (relative residuals:
 * the grids' times differ by orders of magnitude; GSL multifit_wlinear),
 * standard errors scaled by the residual variance; sets a, b, their
 * errors, r2, K = b / a and K_se. HG_ENUMERIC if a or b is not > 0. */
int hg_calibration_fit(hg_calibration *c, hg_err *e);

/* Default file: $HGRIDOPT_CALIBRATION, else
 * $XDG_CONFIG_HOME/hgridopt/calibration.json, else
 * $HOME/.config/hgridopt/calibration.json. Writes into buf (len bytes). */
int hg_calibration_default_path(char *buf, size_t len, hg_err *e);

/* c as a JSON document (schema hgridopt.calibration/1, with the library
 * version and the points when c has them) in a new string (*text, caller
 * frees with free()). */
int hg_calibration_json(const hg_calibration *c, char **text, hg_err *e);
/* Write c as JSON ("schema": "hgridopt.calibration/1") to path (folders
 * are created when path is the default one's). */
int hg_calibration_save(const hg_calibration *c, const char *path,
                        hg_err *e);
/* Read a calibration file; checks the schema and that K is finite > 0. */
int hg_calibration_load(const char *path, hg_calibration *out, hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
