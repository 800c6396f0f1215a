/* discrete.c - a mixture of a few radii (bidisperse, tridisperse, ...).
 * Volume (mass) fractions v_i become number fractions n_i ~ v_i / r_i^d. */
#include "dist_util.h"
#include "hg_psd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t n;
    double *r;   /* ascending */
    double *p;   /* number fractions, sum 1 */
    double *cum; /* cum[i] = p[0] + ... + p[i] */
} discrete;

static void destroy(void *s)
{
    discrete *d = s;
    if (!d)
        return;
    free(d->r);
    free(d->p);
    free(d->cum);
    free(d);
}

static int by_radius(const void *a, const void *b)
{
    const double *x = a, *y = b; /* pairs (r, fraction) */
    return (x[0] > y[0]) - (x[0] < y[0]);
}

static int create(const hg_kv *kv, const hg_psd_ctx *ctx, void **state,
                  hg_err *e)
{
    const char *what = "discrete";
    const char *rs = hg_kv_get(kv, "r"), *ds = hg_kv_get(kv, "d");
    const char *fs = hg_kv_get(kv, "frac");
    double *r = NULL, *f = NULL, *pair = NULL;
    size_t n = 0, nf = 0;
    int volume = 0, st;
    discrete *d = NULL;
    if ((st = hg_dist_basis(kv, what, 0, &volume, e)))
        return st;
    if (!rs == !ds)
        return hg_fail(e, HG_EINVAL,
                       "%s: give exactly one of r= (radii) or d= (diameters), "
                       "values separated by ';'",
                       what);
    const char *key = rs ? "discrete r" : "discrete d";
    if ((st = hg_parse_list(rs ? rs : ds, ';', key, &r, &n, e)))
        goto fail;
    if (fs) {
        if ((st = hg_parse_list(fs, ';', "discrete frac", &f, &nf, e)))
            goto fail;
        if (nf != n) {
            st = hg_fail(e, HG_EINVAL,
                         "discrete frac: %zu fractions for %zu sizes", nf, n);
            goto fail;
        }
    } else if (n > 1) {
        st = hg_fail(e, HG_EINVAL,
                     "discrete: missing parameter 'frac' (one fraction per "
                     "size, separated by ';')");
        goto fail;
    }
    pair = malloc(2 * n * sizeof *pair);
    d = calloc(1, sizeof *d);
    if (!pair || !d) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto fail;
    }
    /* weights as logarithms, normalised by the largest: no overflow of
     * the sum (1e308 + 1e308) nor underflow of fraction / r^d */
    double lmax = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (!(r[i] > 0.0)) {
            st = hg_fail(e, HG_EINVAL, "%s: item %zu = %g must be > 0", key,
                         i + 1, r[i]);
            goto fail;
        }
        double fi = f ? f[i] : 1.0;
        if (!(fi >= 0.0)) {
            st = hg_fail(e, HG_EINVAL,
                         "discrete frac: item %zu = %g must be >= 0", i + 1,
                         fi);
            goto fail;
        }
        pair[2 * i] = rs ? r[i] : 0.5 * r[i];
        pair[2 * i + 1] = fi > 0.0 ? log(fi) - (volume ? ctx->dim * log(pair[2 * i]) : 0.0)
                                   : -INFINITY;
        if (pair[2 * i + 1] > lmax)
            lmax = pair[2 * i + 1];
    }
    double total = 0.0;
    for (size_t i = 0; i < n; i++) {
        pair[2 * i + 1] = exp(pair[2 * i + 1] - lmax);
        total += pair[2 * i + 1];
    }
    if (!(total > 0.0)) {
        st = hg_fail(e, HG_EINVAL,
                     "discrete frac: all fractions are 0 (need one > 0)");
        goto fail;
    }
    qsort(pair, n, 2 * sizeof *pair, by_radius);
    for (size_t i = 1; i < n; i++)
        if (pair[2 * i] == pair[2 * i - 2]) {
            st = hg_fail(e, HG_EINVAL, "%s: the size %g is given twice", key,
                         rs ? pair[2 * i] : 2.0 * pair[2 * i]);
            goto fail;
        }
    /* atoms with zero weight are dropped so that r_min, r_max are sizes
     * that occur */
    d->r = malloc(n * sizeof *d->r);
    d->p = malloc(n * sizeof *d->p);
    d->cum = malloc(n * sizeof *d->cum);
    if (!d->r || !d->p || !d->cum) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto fail;
    }
    double acc = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (pair[2 * i + 1] == 0.0)
            continue;
        d->r[d->n] = pair[2 * i];
        d->p[d->n] = pair[2 * i + 1] / total;
        acc += d->p[d->n];
        d->cum[d->n] = acc;
        d->n++;
    }
    d->cum[d->n - 1] = 1.0;
    free(r);
    free(f);
    free(pair);
    *state = d;
    return HG_OK;
fail:
    free(r);
    free(f);
    free(pair);
    destroy(d);
    return st;
}

static void range(const void *s, double *rmin, double *rmax)
{
    const discrete *d = s;
    *rmin = d->r[0];
    *rmax = d->r[d->n - 1];
}

/* number of atoms with radius <= x */
static size_t count_le(const discrete *d, double x)
{
    return hg_count_le(d->r, d->n, x);
}

static double cdf(const void *s, double r)
{
    const discrete *d = s;
    size_t i = count_le(d, r);
    return i == 0 ? 0.0 : d->cum[i - 1];
}

static double quantile(const void *s, double u)
{
    const discrete *d = s;
    for (size_t i = 0; i < d->n; i++)
        if (d->cum[i] >= u)
            return d->r[i];
    return d->r[d->n - 1];
}

static double moment(const void *s, int k, double a, double b)
{
    const discrete *d = s;
    double m = 0.0;
    for (size_t i = count_le(d, a); i < d->n && d->r[i] <= b; i++)
        m += d->p[i] * pow(d->r[i], k);
    return m;
}

static const char *const keys[] = {"r", "d", "frac", "basis", NULL};

const hg_psd_family hg_psd_discrete = {
    "discrete",
    "mixture of a few sizes: r=R1;R2;... (radii) or d=D1;D2;... "
    "(diameters), frac=F1;F2;... (>= 0, normalised; may be omitted for one "
    "size), basis=number|volume|mass (default number: number fractions; "
    "volume/mass: volume fractions, number ~ fraction / r^d). Values are "
    "separated by ';' because ',' separates parameters",
    keys,
    1,
    create,
    destroy,
    range,
    NULL,
    cdf,
    quantile,
    moment};
