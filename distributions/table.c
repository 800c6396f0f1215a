/* table.c - a tabulated size distribution read from a CSV file (sieve
 * analysis, laser diffraction, ...).
 *
 * File: first column the size x_i (any unit, strictly increasing), second
 * column either the cumulative fraction passing F(x_i) (kind=cumulative,
 * the default; fractions 0..1 or percent 0..100, percent when the largest
 * value exceeds 1.5) or the fraction w_i in the class (x_{i-1}, x_i]
 * (kind=fraction: sizes are class upper edges, the first row gives only the
 * lower edge of the first class and its fraction must be 0; fractions are
 * normalised). Blank lines and '#' comment lines are skipped; the first
 * data line may be a header.
 *
 * Model inside a class (x_{i-1}, x_i]: the density of the given basis is
 * uniform in r, i.e. the cumulative curve is interpolated linearly in size.
 * For basis=number the number density is the constant c_i; for
 * basis=volume|mass the volume density is constant, so the number density
 * is c_i r^-d. Both integrate in closed form (including r^-1 for k = d-1),
 * so the CDF, the partial moments (per class plus prefix sums over whole
 * classes) and the quantile (per-class inversion) are exact for this
 * model. r_min is the lower edge of the first class with positive mass,
 * r_max the upper edge of the last one. */
#include "dist_util.h"
#include "hg_psd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NMOM 5 /* k = 0..4 */

typedef struct {
    size_t m;     /* classes 1..m; class i = (e[i-1], e[i]] */
    double *e;    /* m + 1 edges (radii) */
    double *c;    /* number density coefficient of class i (c[0] unused) */
    double *S[NMOM]; /* S[k][i] = M_k over classes 1..i (S[k][0] = 0) */
    double p;     /* number density in a class is c_i r^-p (p = 0 or d) */
    double rmin, rmax;
} table;

static void destroy(void *s)
{
    table *t = s;
    if (!t)
        return;
    free(t->e);
    free(t->c);
    for (int k = 0; k < NMOM; k++)
        free(t->S[k]);
    free(t);
}

/* int_a^b r^k c_i r^-p dr within one class */
static double class_moment(const table *t, size_t i, int k, double a,
                           double b)
{
    if (!(a < b) || t->c[i] == 0.0)
        return 0.0;
    return t->c[i] * hg_dist_powint(k - t->p + 1.0, a, b);
}

/* Read the two columns. On success *x, *v and the line numbers *lines
 * (caller frees) hold *n rows; path receives the resolved file name. */
static int read_rows(const char *file, const hg_psd_ctx *ctx, char *path,
                     size_t pathlen, double **x, double **v, long **lines,
                     size_t *n, hg_err *e)
{
    const char *what = "table";
    hg_dist_file df;
    int st = hg_dist_file_open(&df, file, ctx, what, e);
    if (st)
        return st;
    snprintf(path, pathlen, "%s", df.path);
    size_t cap = 64, k = 0;
    double *xs = malloc(cap * sizeof *xs), *vs = malloc(cap * sizeof *vs);
    long *ls = malloc(cap * sizeof *ls);
    if (!xs || !vs || !ls) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto fail;
    }
    while ((st = hg_dist_file_next(&df, what, e)) == 1) {
        char *f[2];
        int nf = hg_dist_fields(&df, f, 2);
        double a, b;
        int oka = nf >= 1 && hg_dist_number(f[0], &a);
        int okb = nf >= 2 && hg_dist_number(f[1], &b);
        if (!oka && df.ndata == 1 && k == 0)
            continue; /* header line */
        if (nf < 2) {
            st = hg_fail(e, HG_EPARSE,
                         "table file %s:%ld: expected two columns (size, "
                         "fraction)",
                         df.path, df.lineno);
            goto fail;
        }
        if (!oka || !okb) {
            st = hg_fail(e, HG_EPARSE,
                         "table file %s:%ld: '%s' is not a number", df.path,
                         df.lineno, oka ? f[1] : f[0]);
            goto fail;
        }
        if (k == cap) {
            cap *= 2;
            double *nx = realloc(xs, cap * sizeof *xs);
            if (nx)
                xs = nx;
            double *nv = realloc(vs, cap * sizeof *vs);
            if (nv)
                vs = nv;
            long *nl = realloc(ls, cap * sizeof *ls);
            if (nl)
                ls = nl;
            if (!nx || !nv || !nl) {
                st = hg_fail(e, HG_ENOMEM, "out of memory");
                goto fail;
            }
        }
        xs[k] = a;
        vs[k] = b;
        ls[k] = df.lineno;
        k++;
    }
    if (st < 0)
        goto fail;
    if (k < 2) {
        st = hg_fail(e, HG_EPARSE,
                     "table file %s: %zu data rows (need at least 2)",
                     df.path, k);
        goto fail;
    }
    hg_dist_file_close(&df);
    *x = xs;
    *v = vs;
    *lines = ls;
    *n = k;
    return HG_OK;
fail:
    hg_dist_file_close(&df);
    free(xs);
    free(vs);
    free(ls);
    return st;
}

/* The rows read: sizes x > 0 strictly increasing, values v >= 0
 * (cumulative: not decreasing, 0 at the smallest size and 1 or 100 at
 * the largest; fraction: 0 in the first row), some value > 0; ln the
 * line of each row. *full: the total the values add up to. */
static int check_rows(const char *path, const double *x, const double *v,
                      const long *ln, size_t n, int cumulative, double *full,
                      hg_err *e)
{
    double vmax = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0.0))
            return hg_fail(e, HG_EINVAL,
                           "table file %s:%ld: size %g must be > 0", path,
                           ln[i], x[i]);
        if (i > 0 && !(x[i] > x[i - 1]))
            return hg_fail(e, HG_EINVAL,
                           "table file %s:%ld: size %g is not larger than "
                           "the previous size %g (sizes must increase "
                           "strictly)",
                           path, ln[i], x[i], x[i - 1]);
        if (!(v[i] >= 0.0))
            return hg_fail(e, HG_EINVAL,
                           "table file %s:%ld: %s %g must be >= 0", path,
                           ln[i],
                           cumulative ? "cumulative fraction" : "fraction",
                           v[i]);
        if (cumulative && i > 0 && v[i] < v[i - 1])
            return hg_fail(e, HG_EINVAL,
                           "table file %s:%ld: cumulative fraction %g is "
                           "below the previous value %g (it must not "
                           "decrease)",
                           path, ln[i], v[i], v[i - 1]);
        vmax = v[i] > vmax ? v[i] : vmax;
    }
    if (!(vmax > 0.0))
        return hg_fail(e, HG_EINVAL, "table file %s: all fractions are 0",
                       path);
    if (v[0] != 0.0)
        return hg_fail(e, HG_EINVAL,
                       "table file %s:%ld: %s %g at the smallest size must "
                       "be 0 (%s; add a row with a lower size bound)",
                       path, ln[0], cumulative ? "cumulative fraction" :
                       "fraction", v[0], cumulative ?
                       "material below it would have no lower size bound" :
                       "the first row only gives the lower edge of the "
                       "first class");
    *full = 0.0;
    if (!cumulative) {
        for (size_t i = 0; i < n; i++)
            *full += v[i];
        return HG_OK;
    }
    double want = vmax > 1.5 ? 100.0 : 1.0;
    if (fabs(v[n - 1] - want) > 1e-3 * want)
        return hg_fail(e, HG_EINVAL,
                       "table file %s:%ld: cumulative fraction %g at the "
                       "largest size must be %g (material above it would "
                       "have no upper size bound; add a row)",
                       path, ln[n - 1], v[n - 1], want);
    *full = v[n - 1];
    return HG_OK;
}

/* The table of the n checked rows: edges x to_r, the number density of
 * every class from its share of the basis (p = dim for volume, else 0),
 * normalised, and the prefix sums of the moments. */
static int build_table(const double *x, const double *v, size_t n,
                       int cumulative, double full, double to_r, double p,
                       table **out, hg_err *e)
{
    table *t = calloc(1, sizeof *t);
    *out = t;
    if (!t)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    t->m = n - 1;
    t->p = p;
    t->e = malloc(n * sizeof *t->e);
    t->c = calloc(n, sizeof *t->c);
    int ok = t->e && t->c;
    for (int k = 0; k < NMOM; k++) {
        t->S[k] = calloc(n, sizeof *t->S[k]);
        ok = ok && t->S[k];
    }
    if (!ok)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        t->e[i] = x[i] * to_r;
    /* class basis mass w_i -> number density c_i r^-p, then normalise */
    double total = 0.0;
    size_t first = 0, last = 0;
    for (size_t i = 1; i < n; i++) {
        double w = (cumulative ? v[i] - v[i - 1] : v[i]) / full;
        if (w <= 0.0)
            continue;
        double dens = w / (t->e[i] - t->e[i - 1]);
        t->c[i] = dens;
        total += dens * hg_dist_powint(1.0 - t->p, t->e[i - 1], t->e[i]);
        if (!first)
            first = i;
        last = i;
    }
    for (size_t i = 1; i < n; i++) {
        t->c[i] /= total;
        for (int k = 0; k < NMOM; k++)
            t->S[k][i] = t->S[k][i - 1] +
                         class_moment(t, i, k, t->e[i - 1], t->e[i]);
    }
    t->rmin = t->e[first - 1];
    t->rmax = t->e[last];
    return HG_OK;
}

static int create(const hg_kv *kv, const hg_psd_ctx *ctx, void **state,
                  hg_err *e)
{
    const char *what = "table";
    const char *file = hg_kv_get(kv, "file");
    const char *kind = hg_kv_get(kv, "kind");
    double to_r = 1.0;
    int volume = 0, cumulative = 1, st;
    if ((st = hg_dist_size(kv, what, 0.0, &to_r, e)) ||
        (st = hg_dist_basis(kv, what, -1, &volume, e)))
        return st;
    if (!file)
        return hg_fail(e, HG_EINVAL, "table: missing parameter 'file'");
    if (kind && strcmp(kind, "cumulative") == 0)
        cumulative = 1;
    else if (kind && strcmp(kind, "fraction") == 0)
        cumulative = 0;
    else if (kind)
        return hg_fail(e, HG_EINVAL,
                       "table kind: '%s' is not cumulative or fraction",
                       kind);
    double *x = NULL, *v = NULL, full;
    long *ln = NULL;
    size_t n = 0;
    table *t = NULL;
    char path[HG_ERRLEN / 2];
    if ((st = read_rows(file, ctx, path, sizeof path, &x, &v, &ln, &n, e)))
        return st;
    if (!(st = check_rows(path, x, v, ln, n, cumulative, &full, e)))
        st = build_table(x, v, n, cumulative, full, to_r,
                         volume ? (double)ctx->dim : 0.0, &t, e);
    free(x);
    free(v);
    free(ln);
    if (st) {
        destroy(t);
        return st;
    }
    *state = t;
    return HG_OK;
}

static void range(const void *s, double *rmin, double *rmax)
{
    const table *t = s;
    *rmin = t->rmin;
    *rmax = t->rmax;
}

/* class i with e[i-1] < r <= e[i], for e[0] < r <= e[m] */
static size_t class_of(const table *t, double r)
{
    size_t lo = 1, hi = t->m;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->e[mid] < r)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static double pdf(const void *s, double r)
{
    const table *t = s;
    if (r < t->rmin || r > t->rmax)
        return 0.0;
    if (r == t->rmin)
        r = nextafter(r, INFINITY);
    size_t i = class_of(t, r);
    return t->c[i] * pow(r, -t->p);
}

static double moment(const void *s, int k, double a, double b)
{
    const table *t = s;
    if (a < t->rmin)
        a = t->rmin;
    if (b > t->rmax)
        b = t->rmax;
    if (!(a < b))
        return 0.0;
    size_t ia = a == t->rmin ? class_of(t, nextafter(a, INFINITY))
                             : class_of(t, a);
    size_t ib = class_of(t, b);
    if (ia == ib)
        return class_moment(t, ia, k, a, b);
    return class_moment(t, ia, k, a, t->e[ia]) +
           (t->S[k][ib - 1] - t->S[k][ia]) +
           class_moment(t, ib, k, t->e[ib - 1], b);
}

static double cdf(const void *s, double r)
{
    const table *t = s;
    double c = moment(s, 0, t->rmin, r);
    return c > 1.0 ? 1.0 : c;
}

static double quantile(const void *s, double u)
{
    const table *t = s;
    if (u <= 0.0)
        return t->rmin;
    if (u >= 1.0)
        return t->rmax;
    /* smallest class i with S_0[i] >= u; it has positive mass */
    size_t lo = 1, hi = t->m;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->S[0][mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t i = lo;
    double rem = u - t->S[0][i - 1], a = t->e[i - 1], r;
    if (t->p == 0.0) {
        r = a + rem / t->c[i];
    } else {
        /* c (a^(1-p) - r^(1-p)) / (p-1) = rem */
        double q = 1.0 - t->p;
        double base = pow(a, q) - rem * (t->p - 1.0) / t->c[i];
        r = base > pow(t->e[i], q) ? pow(base, 1.0 / q) : t->e[i];
    }
    if (!(r >= a))
        r = a;
    if (r > t->e[i])
        r = t->e[i];
    return r;
}

static const char *const keys[] = {"file", "size", "basis", "kind", NULL};

const hg_psd_family hg_psd_table = {
    "table",
    "tabulated distribution from a CSV file: file=PATH (relative to the "
    "system file's folder, else the current directory), "
    "size=radius|diameter, basis=number|volume|mass (both required), "
    "kind=cumulative|fraction (default cumulative). "
    "Column 1: size (any unit, increasing); column 2: cumulative fraction "
    "passing (0..1 or percent) or, for kind=fraction, the fraction in the "
    "class from the previous size to this one (first row 0). Inside a "
    "class the density of the given basis is uniform in r (linear "
    "interpolation of the cumulative curve); number density = volume "
    "density / r^d",
    keys,
    0,
    create,
    destroy,
    range,
    pdf,
    cdf,
    quantile,
    moment};
