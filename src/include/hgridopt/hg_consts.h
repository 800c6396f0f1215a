/* hg_consts.h - the cost constants of a code's neighbour build: seconds
 * per counted unit of each term of its model (LAMMPS: checks, visits,
 * bins, ...), fitted to measured times on some machine. One type and one
 * set of functions for every engine that has such constants; what differs
 * between codes (the names of the terms, the file, the shipped values) is
 * the engine's hg_consts_kind. */
#ifndef HG_CONSTS_H
#define HG_CONSTS_H

#include <stddef.h>

#include "hg_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HG_CONSTS_MAX_TERMS 8

typedef struct hg_consts {
    double c[HG_CONSTS_MAX_TERMS];  /* seconds per unit of each term */
    double se[HG_CONSTS_MAX_TERMS]; /* standard errors (0: not fitted) */
    double r2;                      /* of the fit, relative residuals */
    int npoints;                    /* measurements fitted */
    char machine[128];              /* where measured (free text) */
    char version[64];               /* the code's version string */
    char created[32];               /* UTC, ISO 8601 */
} hg_consts;

/* What one code's constants are. */
typedef struct hg_consts_kind {
    const char *code;        /* "LAMMPS", in messages */
    const char *schema;      /* of the file: "hgridopt.lammps-calibration/1" */
    const char *version_key; /* the file's key of the version: "lammps" */
    const char *env;         /* the variable naming the file */
    const char *file;        /* its name in the configuration folder */
    const char *beside_env;  /* the variable of the file these constants
                                are stored beside (NULL: none): set, and
                                env not, the file is that one's name with
                                -beside_suffix before its .json */
    const char *beside_suffix;
    int nterms;              /* <= HG_CONSTS_MAX_TERMS */
    const char *const *terms;/* their names, in the order of c[] */
    int positive;            /* a term that must be > 0 in a file read
                                (-1: none) */
    void (*shipped)(hg_consts *c); /* the constants shipped with the tool */
} hg_consts_kind;

/* The name of term i of kind k ("?" out of range). */
const char *hg_consts_term(const hg_consts_kind *k, int i);
/* The shipped constants of k. */
void hg_consts_shipped(const hg_consts_kind *k, hg_consts *c);

/* Where a configuration file of hgridopt lives, for every file the tool
 * stores (the constants of each code, the bundled HGrid's calibration,
 * MercuryDPM's K): $ENV when set, else $XDG_CONFIG_HOME/hgridopt/FILE,
 * else $HOME/.config/hgridopt/FILE. what names the file in messages
 * ("LAMMPS calibration file"). */
int hg_config_path(const char *env, const char *file, const char *what,
                   char *buf, size_t len, hg_err *e);
/* Where k's constants are read and stored: $ENV of k when set, else
 * beside the file $BESIDE_ENV names when that is set (lammps.json ->
 * lammps-pair.json), else hg_config_path's folder. */
int hg_consts_path(const hg_consts_kind *k, char *buf, size_t len,
                   hg_err *e);
/* Write c to path as k's JSON document (folders above it created; the
 * file replaced atomically). */
int hg_consts_save(const hg_consts_kind *k, const hg_consts *c,
                   const char *path, hg_err *e);
/* Read it back: the schema must be k's and every constant a finite number
 * >= 0 (the message names the field); the other fields may be missing. */
int hg_consts_load(const hg_consts_kind *k, const char *path, hg_consts *c,
                   hg_err *e);
/* The stored constants when k's file exists, else the shipped ones;
 * *from_file says which and path (may be NULL, len bytes) receives the
 * file's path when it was read. */
int hg_consts_auto(const hg_consts_kind *k, hg_consts *c, int *from_file,
                   char *path, size_t len, hg_err *e);
/* Fit c->c (with se, r2, npoints and created) to measured seconds
 * y[0..n-1] of the counts X[i * k->nterms + t]: least squares on
 * relative residuals, a term coming out <= 0 dropped and the fit
 * repeated (constants are costs). n must exceed the terms by 2 and every
 * y be finite and > 0. */
int hg_consts_fit(const hg_consts_kind *k, const double *X, const double *y,
                  int n, hg_consts *c, hg_err *e);

/* c saved to save (else k's default path) and pair beside it: save's
 * name with -pair before .json (else pk's default path); the two paths
 * into saved. */
int hg_consts_save_with_pair(const hg_consts_kind *k, const hg_consts *c,
                             const hg_consts_kind *pk, const hg_consts *pair,
                             const char *save, char *saved, size_t len,
                             hg_err *e);

/* c saved as k's: beside save (its name with -SUFFIX before .json) when
 * save is given, else at k's default path; the path into path. */
int hg_consts_save_beside(const hg_consts_kind *k, const hg_consts *c,
                          const char *save, const char *suffix, char *path,
                          size_t len, hg_err *e);

/* The pair loop's constants of a code (a kind of two terms: seconds per
 * stored neighbour pair and per atom) from Pair seconds per step y[i] of
 * pairs[i] stored pairs and atoms[i] atoms of packing group[i] (0, 1,
 * ...): one slope within the packings (what a larger skin adds to the
 * same atoms), each packing its own intercept; the per-atom term the mean
 * intercept per atom. Fails unless Pair time grows with the pairs. */
int hg_pair_fit(const hg_consts_kind *k, const double *pairs,
                const double *atoms, const double *y, const int *group,
                int n, hg_consts *c, hg_err *e);

/* ---- the least squares every fit of the engines uses (GSL) ---- */

#define HG_LSQ_MAX_TERMS 16

typedef struct hg_lsq {
    int m;                    /* terms */
    double coef[HG_LSQ_MAX_TERMS];
    double se[HG_LSQ_MAX_TERMS];
    /* covariance of the coefficients, scaled by the residual variance
     * chisq / (rows - active terms); cov[i * m + j] */
    double cov[HG_LSQ_MAX_TERMS * HG_LSQ_MAX_TERMS];
    double chisq;
    double r2;                /* of the weighted residuals around the
                                 weighted mean (NaN: no spread) */
    int active[HG_LSQ_MAX_TERMS]; /* terms kept (nonneg drops some) */
} hg_lsq;

/* Weighted least squares of y[i] ~ sum_k coef[k] X[i * m + k] over n rows
 * and m <= HG_LSQ_MAX_TERMS terms, weights w[i] (NULL: 1 / y^2, relative
 * residuals). nonneg: a term whose coefficient comes out <= 0 is dropped
 * (coefficient and error 0) and the fit repeated. Returns HG_OK, or
 * HG_ENUMERIC when the least squares fail (fewer rows than terms + 1,
 * degenerate columns) and HG_ENOMEM; e gets no message (the caller says
 * what failed). */
int hg_lsq_fit(const double *X, const double *y, const double *w, int n,
               int m, int nonneg, hg_lsq *out);

#ifdef __cplusplus
}
#endif
#endif
