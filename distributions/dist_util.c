/* dist_util.c - helpers shared by the distribution families. */
#include "dist_util.h"

#include <ctype.h>
#include <errno.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int hg_dist_basis(const hg_kv *kv, const char *what, int dflt, int *volume,
                  hg_err *e)
{
    const char *v = hg_kv_get(kv, "basis");
    if (!v) {
        if (dflt < 0)
            return hg_fail(e, HG_EINVAL,
                           "%s: missing parameter 'basis' (number, volume "
                           "or mass)",
                           what);
        *volume = dflt;
        return HG_OK;
    }
    if (strcmp(v, "number") == 0)
        *volume = 0;
    else if (strcmp(v, "volume") == 0 || strcmp(v, "mass") == 0)
        *volume = 1;
    else
        return hg_fail(e, HG_EINVAL,
                       "%s basis: '%s' is not number, volume or mass", what,
                       v);
    return HG_OK;
}

int hg_dist_size(const hg_kv *kv, const char *what, double dflt,
                 double *to_radius, hg_err *e)
{
    const char *v = hg_kv_get(kv, "size");
    if (!v) {
        if (!(dflt > 0.0))
            return hg_fail(e, HG_EINVAL,
                           "%s: missing parameter 'size' (radius or "
                           "diameter)",
                           what);
        *to_radius = dflt;
        return HG_OK;
    }
    if (strcmp(v, "radius") == 0)
        *to_radius = 1.0;
    else if (strcmp(v, "diameter") == 0)
        *to_radius = 0.5;
    else
        return hg_fail(e, HG_EINVAL,
                       "%s size: '%s' is not radius or diameter", what, v);
    return HG_OK;
}

int hg_dist_number(const char *text, double *out)
{
    if (!text || !*text)
        return 0;
    char *end = NULL;
    double v = strtod(text, &end);
    while (end && isspace((unsigned char)*end))
        end++;
    if (end == text || *end != '\0' || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

static int window_end(const hg_kv *kv, const char *what, const char *rkey,
                      const char *qkey, double to_radius,
                      double (*uq)(double q, const void *p), const void *p,
                      double *r, hg_err *e)
{
    double rv = 0, qv = 0;
    int has_r, has_q, st;
    if ((st = hg_kv_double(kv, rkey, 0, &rv, &has_r, what, e)) ||
        (st = hg_kv_double(kv, qkey, 0, &qv, &has_q, what, e)))
        return st;
    if (has_r == has_q)
        return hg_fail(e, HG_EINVAL,
                       "%s: give exactly one of %s= (size) or %s= (quantile "
                       "of the untruncated law)",
                       what, rkey, qkey);
    if (has_r) {
        if (!(rv > 0.0))
            return hg_fail(e, HG_EINVAL, "%s %s: %g must be > 0", what, rkey,
                           rv);
        *r = rv * to_radius;
        return HG_OK;
    }
    if (!(qv > 0.0 && qv < 1.0))
        return hg_fail(e, HG_EINVAL, "%s %s: %g must be in (0, 1)", what,
                       qkey, qv);
    *r = uq(qv, p);
    if (!(isfinite(*r) && *r > 0.0))
        return hg_fail(e, HG_ENUMERIC,
                       "%s %s: the quantile %g gives the radius %g (not a "
                       "finite positive number)",
                       what, qkey, qv, *r);
    return HG_OK;
}

int hg_dist_window(const hg_kv *kv, const char *what, double to_radius,
                   double (*uq)(double q, const void *p), const void *p,
                   double *rmin, double *rmax, hg_err *e)
{
    int st;
    if ((st = window_end(kv, what, "rmin", "qmin", to_radius, uq, p, rmin,
                         e)) ||
        (st = window_end(kv, what, "rmax", "qmax", to_radius, uq, p, rmax,
                         e)))
        return st;
    if (!(*rmin < *rmax))
        return hg_fail(e, HG_EINVAL,
                       "%s rmin: radius %g must be < rmax radius %g", what,
                       *rmin, *rmax);
    return HG_OK;
}

double hg_dist_powint(double q, double a, double b)
{
    if (q == 1.0)
        return b - a;
    double l = log1p((b - a) / a); /* log(b / a), exact for narrow [a, b] */
    if (fabs(q * l) < 1e-13)
        return pow(a, q) * l * (1.0 + 0.5 * q * l);
    return pow(a, q) * expm1(q * l) / q;
}

double hg_dist_brent(double (*f)(double x, void *p), void *p, double lo,
                     double hi)
{
    double flo = f(lo, p), fhi = f(hi, p);
    if (flo == 0.0)
        return lo;
    if (fhi == 0.0)
        return hi;
    if (isnan(flo) || isnan(fhi))
        return NAN;
    if (!(flo * fhi < 0.0)) /* no sign change: the nearer end */
        return fabs(flo) <= fabs(fhi) ? lo : hi;
    gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!s)
        return NAN;
    gsl_function fn = {f, p};
    double x = NAN;
    if (gsl_root_fsolver_set(s, &fn, lo, hi) == GSL_SUCCESS) {
        for (int it = 0; it < 300; it++) {
            if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS)
                break;
            double a = gsl_root_fsolver_x_lower(s);
            double b = gsl_root_fsolver_x_upper(s);
            x = gsl_root_fsolver_root(s);
            if (gsl_root_test_interval(a, b, 1e-14, 1e-14) == GSL_SUCCESS)
                break;
        }
    }
    gsl_root_fsolver_free(s);
    return x;
}

int hg_dist_file_open(hg_dist_file *df, const char *file,
                      const hg_psd_ctx *ctx, const char *what, hg_err *e)
{
    memset(df, 0, sizeof *df);
    const char *base = ctx ? ctx->base_dir : NULL;
    size_t len = strlen(file) + (base ? strlen(base) : 0) + 2;
    df->path = malloc(len);
    if (!df->path)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    if (file[0] != '/' && base && *base)
        snprintf(df->path, len, "%s/%s", base, file);
    else
        snprintf(df->path, len, "%s", file);
    df->fp = fopen(df->path, "r");
    if (!df->fp) {
        int st = hg_fail(e, HG_EIO, "%s file: cannot open '%s': %s", what,
                         df->path, strerror(errno));
        hg_dist_file_close(df);
        return st;
    }
    return HG_OK;
}

int hg_dist_file_next(hg_dist_file *df, const char *what, hg_err *e)
{
    for (;;) {
        errno = 0;
        ssize_t n = getline(&df->line, &df->cap, df->fp);
        if (n < 0) {
            if (ferror(df->fp))
                return hg_fail(e, HG_EIO, "%s file: error reading '%s': %s",
                               what, df->path, strerror(errno));
            return 0;
        }
        df->lineno++;
        if (df->lineno == 1 && strncmp(df->line, "\xef\xbb\xbf", 3) == 0)
            memmove(df->line, df->line + 3, (size_t)n - 2); /* UTF-8 BOM */
        const char *s = df->line;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        df->ndata++;
        return 1;
    }
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        s[--len] = '\0';
    if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
        s[len - 1] = '\0';
        s++;
    }
    return s;
}

int hg_dist_fields(hg_dist_file *df, char **fields, int max)
{
    char *s = df->line;
    int delim = strpbrk(s, ",;\t") != NULL;
    int n = 0;
    if (delim) {
        for (;;) {
            char *d = strpbrk(s, ",;\t");
            if (d)
                *d = '\0';
            if (n < max)
                fields[n] = trim(s);
            n++;
            if (!d)
                break;
            s = d + 1;
        }
    } else {
        for (;;) {
            while (isspace((unsigned char)*s))
                s++;
            if (!*s)
                break;
            char *t = s;
            while (*t && !isspace((unsigned char)*t))
                t++;
            int last = *t == '\0';
            *t = '\0';
            if (n < max)
                fields[n] = trim(s);
            n++;
            if (last)
                break;
            s = t + 1;
        }
    }
    return n < max ? n : max;
}

void hg_dist_file_close(hg_dist_file *df)
{
    if (df->fp)
        fclose(df->fp);
    free(df->path);
    free(df->line);
    memset(df, 0, sizeof *df);
}
