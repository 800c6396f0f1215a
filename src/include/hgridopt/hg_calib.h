/* hg_calib.h - calibrate K (cost of one cell access in units of one pair
 * check) for this machine and the bundled HGrid: time the detection over
 * several grids on a Poisson packing and fit
 *     seconds per particle = a T_cd + b T_ca
 * (KOL 2014 eq. 27: T = T_cd + K T_ca)
 * by least squares (GSL multifit), K = b / a. Results are stored per
 * dimension in a small JSON file, with the machine, the build and the date.
 *
 * Which K a command uses, and why, is decided in one place:
 * hg_K_resolve (the engine whose cost the numbers describe, the
 * dimension, the command line, the system file and the engine's
 * calibration file).
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
    double seconds;      /* per particle, the fastest of the rounds (each
                            round times every grid once) */
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
    char packing[16];    /* generator of the packing: "poisson", "rsa" or
                            "dense" (hg_pack_structure_run for sys.structure;
                            "" in files written before it was recorded) */
    char created[32];    /* UTC time, ISO 8601 */
    char machine[256];   /* uname: system, host, release, hardware; CPU */
    char build[256];     /* compiler, build type, OpenMP threads */
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
    int repeats;         /* rounds, each timing every grid once (default
                            3) */
    double budget;       /* skip grids whose predicted work (pair checks +
                            cell accesses, whole system) exceeds this;
                            default 5e8 */
    hg_progress_fn progress; /* after each level count; may be NULL */
    void *progress_params;
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

/* c as a JSON document of one calibration (schema
 * hgridopt.calibration/1, with its dim, machine, build, the library
 * version and the points when c has them) in a new string (*text, caller
 * frees with free()). */
int hg_calibration_json(const hg_calibration *c, char **text, hg_err *e);

/* Fill c->machine and c->build with a description of this machine (uname,
 * CPU model) and of this build (compiler, build type, OpenMP). */
void hg_calibration_describe_host(hg_calibration *c);

/* Store c (c->dim 2 or 3) in the calibration file path ("schema":
 * "hgridopt.calibration/2": one entry per dimension under
 * "calibrations"), keeping the other dimension's entry if the file has
 * one. Missing folders are created; the file is replaced atomically
 * (temporary file + rename). A present but unreadable or malformed file is
 * an error (it is not overwritten). */
int hg_calibration_save(const hg_calibration *c, const char *path,
                        hg_err *e);
/* Read the calibration of dimension dim (2 or 3) from path. Accepts the
 * older one-entry schema "hgridopt.calibration/1" (its "dim" says which).
 * HG_EIO: the file cannot be opened (message suggests `calibrate --save`);
 * HG_EUNKNOWN: the file holds no calibration for dim (the message names
 * the dimensions it holds); HG_EPARSE: malformed. */
int hg_calibration_load(const char *path, int dim, hg_calibration *out,
                        hg_err *e);

/* ---- K: which value, and where it came from ---- */

typedef enum hg_K_source {
    HG_K_SOURCE_PAPER = 0,      /* KOL 2014 / Ogarko & Luding 2012: 0.2 */
    HG_K_SOURCE_SHIPPED,        /* measured with this tool, shipped */
    HG_K_SOURCE_CALIBRATION,    /* the calibration file */
    HG_K_SOURCE_SYSTEM_FILE,    /* "K" in the --system file */
    HG_K_SOURCE_COMMAND_LINE    /* --K X */
} hg_K_source;

/* The papers' K is HG_K_PAPER (hg_model.h): KOL 2014's 0.2; Ogarko &
 * Luding 2012 measured 0.2-0.45 in their DEM code. */

/* The shipped default K of the bundled HGrid for dim (2 or 3), measured
 * with `hgridopt calibrate` (see calibrate.c for machine and date); NAN
 * for another dim. where (may be NULL) receives a static description. */
double hg_K_shipped(int dim, const char **where);

/* The C of the bundled HGrid (the models' parameter "C": a cell of its
 * tables per rebuild and detection, in pair checks) for dim (2 or 3),
 * fitted to rebuild plus detection times (the measurement is described in
 * src/engines/hgrid/k_shipped.c); NAN for another dim. where as hg_K_shipped's. The hgrid
 * engine's commands set it beside K; --param C=V overrides it. */
double hg_C_shipped(int dim, const char **where);

struct hg_engine;

typedef struct hg_K_choice {
    double K;
    hg_K_source source;
    const struct hg_engine *engine; /* whose cost K describes */
    int dim;
    char detail[512];  /* one line: where the value came from */
} hg_K_choice;

/* What is known when K is chosen. Strings are not owned. */
typedef struct hg_K_request {
    const struct hg_engine *engine; /* whose cost K describes: an engine
                                       with a K (hg_engine.K) */
    int dim;                      /* 2 or 3 */
    const char *command_line;     /* --K text: NULL, a number > 0, "auto"
                                     (the calibration file, which must
                                     hold dim), "paper" or "shipped" */
    int has_file_K;               /* the system file gives "K" */
    double file_K;
    const char *file_path;        /* the system file (for the message) */
    const char *calibration_path; /* NULL: the engine's
                                     (hg_engine_K.calibration_path) */
} hg_K_request;

/* Choose K: the command line, else the system file, else the engine's
 * calibration file's entry for rq->dim when the file has one, else the
 * engine's shipped K for rq->dim (a calibration of the other dimension is
 * never used; detail says when one was passed over). "paper" is
 * HG_K_PAPER for every engine; "shipped" the engine's shipped value.
 * Errors: a bad --K text (HG_EPARSE / HG_EINVAL), "auto" without a usable
 * calibration for dim, a calibration file that exists but is malformed,
 * an engine without K. */
int hg_K_resolve(const hg_K_request *rq, hg_K_choice *out, hg_err *e);

/* The model values of a choice, in one place: "K" = c->K, and for an
 * engine whose grid has tables (hg_engine_K.C: the bundled HGrid) with its
 * own K (source shipped or calibration file) "C", the cost of its tables;
 * a K given for another code (command line, system file, the paper's)
 * leaves C out (0). Other names in v are kept. */
int hg_K_values_set(const hg_K_choice *c, hg_model_values *v, hg_err *e);

/* One line for an output: "SOURCE, for TARGET: DETAIL" ("for the bundled
 * HGrid", "for MercuryDPM", "for LAMMPS": the engine's K target;
 * truncated to len - 1 characters; returns buf). */
char *hg_K_choice_describe(const hg_K_choice *c, char *buf, size_t len);

/* "paper", "shipped-default", "calibration-file", "system-file",
 * "command-line". */
const char *hg_K_source_name(hg_K_source s);
/* The code c's K describes ("bundled HGrid", "MercuryDPM", "LAMMPS"),
 * and with its article ("the bundled HGrid"), into buf. */
const char *hg_K_target(const hg_K_choice *c);
char *hg_K_target_phrase(const hg_K_choice *c, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
