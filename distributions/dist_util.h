/* dist_util.h - helpers shared by the distribution families (not a family
 * and not installed): parameter parsing for basis/size/value lists, a
 * line reader for CSV files, power integrals and a bracketing root finder. */
#ifndef HG_DIST_UTIL_H
#define HG_DIST_UTIL_H

#include <stdio.h>

#include "hg_psd.h"

/* basis=number|volume|mass (mass = volume: one material density). Sets
 * *volume to 0 (number) or 1 (volume/mass); when the key is absent, uses
 * dflt, or fails when dflt < 0. `what` names the family in messages. */
int hg_dist_basis(const hg_kv *kv, const char *what, int dflt, int *volume,
                  hg_err *e);

/* size=radius|diameter. Sets *to_radius to 1 or 0.5 (the factor turning
 * the given sizes into radii); absent: dflt (1 or 0.5), or an error when
 * dflt <= 0. */
int hg_dist_size(const hg_kv *kv, const char *what, double dflt,
                 double *to_radius, hg_err *e);

/* Truncation window of a continuous law: each end given either as a size
 * (rmin=, rmax=; multiplied by to_radius) or as a quantile of the
 * untruncated law (qmin=, qmax= in (0,1); uq(q, p) returns that quantile as
 * a radius). Exactly one of rmin/qmin and one of rmax/qmax is required;
 * fails unless 0 < rmin < rmax (both finite). */
int hg_dist_window(const hg_kv *kv, const char *what, double to_radius,
                   double (*uq)(double q, const void *p), const void *p,
                   double *rmin, double *rmax, hg_err *e);

/* int_a^b r^(q-1) dr for 0 < a <= b, any real q (log(b/a) when q = 0),
 * without cancellation for narrow intervals. */
double hg_dist_powint(double q, double a, double b);

/* Root of f(x) = 0 in [lo, hi] (f(lo), f(hi) of opposite sign or zero) by
 * GSL's Brent solver to |dx| <= 1e-14 (1 + |x|). Returns the root; the
 * end with the smaller |f| when f does not change sign; NaN when f is NaN
 * or the solver fails. */
double hg_dist_brent(double (*f)(double x, void *p), void *p, double lo,
                     double hi);

/* A text data file read line by line: blank lines and lines whose first
 * non-blank character is '#' are skipped. */
typedef struct hg_dist_file {
    FILE *fp;
    char *path;   /* resolved path, for messages */
    char *line;   /* current line (modified by hg_dist_fields) */
    size_t cap;
    long lineno;  /* 1-based number of the current line */
    int ndata;    /* data (non-comment) lines returned so far */
} hg_dist_file;

/* Open file (relative names are relative to ctx->base_dir when set).
 * Fails with HG_EIO naming the path and the system error. */
int hg_dist_file_open(hg_dist_file *df, const char *file,
                      const hg_psd_ctx *ctx, const char *what, hg_err *e);
/* Advance to the next data line: returns 1 (df->line holds it), 0 at end
 * of file, or HG_EIO on a read error. */
int hg_dist_file_next(hg_dist_file *df, const char *what, hg_err *e);
/* Split df->line in place into at most max fields separated by ',', ';' or
 * tab (or by blanks when the line has none of these); fields are trimmed
 * and stripped of surrounding double quotes. Returns the number found. */
int hg_dist_fields(hg_dist_file *df, char **fields, int max);
void hg_dist_file_close(hg_dist_file *df); /* accepts a closed file */

/* strtod of a whole field: 1 and *out on success (finite number), else 0. */
int hg_dist_number(const char *text, double *out);

#endif
