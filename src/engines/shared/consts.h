/* consts.h - fitting an engine's cost constants (seconds per counted
 * unit) to measured times: shared by the engines' calibrations (not part
 * of the public API). */
#ifndef HG_CODE_FIT_H
#define HG_CODE_FIT_H

/* Least squares of y[i] ~ sum_k coef[k] X[i*m + k] over n rows and m
 * terms with weights w[i] (NULL: 1/y^2, relative residuals; y then finite
 * and > 0), GSL multifit_wlinear; a term whose constant comes out <= 0 is
 * dropped (constant and error 0) and the fit repeated. se: standard
 * errors; r2 of the weighted residuals around the weighted mean. Returns
 * 0, or -1 when the least squares fail (fewer rows than terms + 1,
 * degenerate columns). */
int hg_fit_costs(const double *X, const double *y, const double *w, int n,
                 int m, double *coef, double *se, double *r2);

#include <stddef.h>

#include "hg_common.h"

/* The fields of an engine's constants file (code_consts.c): a JSON
 * document {schema, unit, constants{term: seconds}, standard_errors,
 * r2, points, machine, <version_key>, created}. The pointers are the
 * caller's struct fields. */
typedef struct code_consts_io {
    const char *schema;      /* "hgridopt.lammps-calibration/1" */
    const char *version_key; /* "lammps", "liggghts" */
    int nterms;
    const char *(*term)(int k);
    double *c, *se, *r2;
    int *npoints;
    char *machine;
    size_t machine_len;
    char *version;
    size_t version_len;
    char *created;
    size_t created_len;
} code_consts_io;

/* Write the constants to path (folders above it created; the file
 * replaced atomically). */
int code_consts_save(const code_consts_io *x, const char *path, hg_err *e);
/* Read them back: the schema must match and every constant be a finite
 * number >= 0 (the message names the field); the other fields are kept
 * when missing. The caller clears its struct first. */
int code_consts_load(const char *path, const code_consts_io *x, hg_err *e);

#endif
