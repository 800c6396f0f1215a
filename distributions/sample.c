/* sample.c - the empirical distribution of a list of radii (from a file,
 * family "sample", or from memory through hg_psd_from_radii).
 *
 * The radii are sorted once; partial moments over (a,b] are differences of
 * prefix sums of r^k found by binary search. Prefix sums are stored in
 * long double every BLOCK radii only (memory n/BLOCK), the rest of a block
 * is summed on demand, so a moment costs O(log n + BLOCK). */
#include "dist_util.h"
#include "hg_psd.h"
#include "psd_internal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 32
#define MAXCOL 1000
#define RADIX_MIN 65536 /* radii sorted by radix from this many on */

typedef struct {
    size_t n;
    double *r;           /* ascending */
    long double *pre[4]; /* pre[k-1][b] = sum_{j < b BLOCK} r_j^k */
} sample;

static void destroy(void *s)
{
    sample *p = s;
    if (!p)
        return;
    free(p->r);
    for (int k = 0; k < 4; k++)
        free(p->pre[k]);
    free(p);
}

/* Sort positive finite doubles ascending: LSD radix sort (4 passes of 16
 * bits) of their IEEE-754 bit patterns, which order like the values when
 * the sign bit is clear; passes whose digit is the same for every radius
 * are skipped. About 10 times faster than qsort at n = 10^7; below
 * RADIX_MIN radii qsort, as its 512 kB of counts cost more than the sort
 * (2-3 ms of fresh pages on a VM, for the few hundred atoms of a
 * pour's first frames). */
static int sort_radii(double *r, size_t n)
{
    if (n < RADIX_MIN) {
        qsort(r, n, sizeof *r, hg_cmp_double);
        return HG_OK;
    }
    uint64_t *tmp = malloc(n * sizeof *tmp);
    size_t *count = malloc(65536 * sizeof *count);
    if (!tmp || !count) {
        free(tmp);
        free(count);
        return HG_ENOMEM;
    }
    int in_tmp = 0; /* the data is in tmp (as bits) rather than in r */
    for (int shift = 0; shift < 64; shift += 16) {
        memset(count, 0, 65536 * sizeof *count);
        for (size_t i = 0; i < n; i++) {
            uint64_t k;
            if (in_tmp)
                k = tmp[i];
            else
                memcpy(&k, &r[i], sizeof k);
            count[(k >> shift) & 0xffff]++;
        }
        uint64_t k0;
        if (in_tmp)
            k0 = tmp[0];
        else
            memcpy(&k0, &r[0], sizeof k0);
        if (count[(k0 >> shift) & 0xffff] == n)
            continue;
        size_t sum = 0;
        for (size_t d = 0; d < 65536; d++) {
            size_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) {
            uint64_t k;
            if (in_tmp)
                k = tmp[i];
            else
                memcpy(&k, &r[i], sizeof k);
            size_t pos = count[(k >> shift) & 0xffff]++;
            if (in_tmp)
                memcpy(&r[pos], &k, sizeof k);
            else
                tmp[pos] = k;
        }
        in_tmp = !in_tmp;
    }
    if (in_tmp)
        for (size_t i = 0; i < n; i++)
            memcpy(&r[i], &tmp[i], sizeof tmp[i]);
    free(tmp);
    free(count);
    return HG_OK;
}

/* Takes ownership of r (n > 0 valid radii). */
static int build(double *r, size_t n, sample **out, hg_err *e)
{
    sample *p = calloc(1, sizeof *p);
    if (!p) {
        free(r);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    p->n = n;
    p->r = r;
    if (sort_radii(r, n)) {
        destroy(p);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    size_t nb = n / BLOCK + 1;
    for (int k = 0; k < 4; k++) {
        p->pre[k] = malloc(nb * sizeof *p->pre[k]);
        if (!p->pre[k]) {
            destroy(p);
            return hg_fail(e, HG_ENOMEM, "out of memory");
        }
    }
    long double acc[4] = {0, 0, 0, 0};
    for (size_t j = 0; j < n; j++) {
        if (j % BLOCK == 0)
            for (int k = 0; k < 4; k++)
                p->pre[k][j / BLOCK] = acc[k];
        long double x = r[j], xk = x;
        for (int k = 0; k < 4; k++, xk *= x)
            acc[k] += xk;
    }
    if (n % BLOCK == 0)
        for (int k = 0; k < 4; k++)
            p->pre[k][n / BLOCK] = acc[k];
    *out = p;
    return HG_OK;
}

/* sum_{j < i} r_j^k */
static long double prefix(const sample *p, int k, size_t i)
{
    if (k == 0)
        return (long double)i;
    size_t b = i / BLOCK;
    long double s = p->pre[k - 1][b];
    for (size_t j = b * BLOCK; j < i; j++) {
        long double x = p->r[j], xk = x;
        for (int m = 1; m < k; m++)
            xk *= x;
        s += xk;
    }
    return s;
}

/* number of radii <= x */
static size_t count_le(const sample *p, double x)
{
    return hg_count_le(p->r, p->n, x);
}

static int col_index(const char *col, long *idx)
{
    char *end = NULL;
    long v = strtol(col, &end, 10);
    if (end == col || *end != '\0')
        return 0;
    *idx = v;
    return 1;
}

static int read_file(const hg_kv *kv, const hg_psd_ctx *ctx, double **out,
                     size_t *nout, hg_err *e)
{
    const char *what = "sample";
    const char *file = hg_kv_get(kv, "file");
    const char *col = hg_kv_get(kv, "column");
    double to_r = 1.0;
    long ci = 1;
    int by_name = 0, st;
    if ((st = hg_dist_size(kv, what, 1.0, &to_r, e)))
        return st;
    if (!file)
        return hg_fail(e, HG_EINVAL, "sample: missing parameter 'file'");
    if (col && col_index(col, &ci)) {
        if (ci < 1 || ci > MAXCOL)
            return hg_fail(e, HG_EINVAL,
                           "sample column: %s is outside [1, %d]", col,
                           MAXCOL);
    } else if (col) {
        by_name = 1;
    }
    hg_dist_file df;
    if ((st = hg_dist_file_open(&df, file, ctx, what, e)))
        return st;
    char **f = malloc(MAXCOL * sizeof *f);
    size_t cap = 1024, n = 0;
    double *r = malloc(cap * sizeof *r);
    double rmin = 0.0, rmax = 0.0;
    long rmin_line = 0;
    if (!f || !r) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto fail;
    }
    while ((st = hg_dist_file_next(&df, what, e)) == 1) {
        int nf = hg_dist_fields(&df, f, MAXCOL);
        if (df.ndata == 1 && by_name) {
            int found = 0;
            for (int i = 0; i < nf && !found; i++)
                if (strcmp(f[i], col) == 0) {
                    ci = i + 1;
                    found = 1;
                }
            if (!found) {
                st = hg_fail(e, HG_EINVAL,
                             "sample column: '%s' is not a column name in "
                             "the header line %s:%ld",
                             col, df.path, df.lineno);
                goto fail;
            }
            continue;
        }
        double v;
        int ok = nf >= ci && hg_dist_number(f[ci - 1], &v);
        if (!ok && df.ndata == 1)
            continue; /* header line */
        if (nf < ci) {
            st = hg_fail(e, HG_EPARSE,
                         "sample file %s:%ld: no column %ld (the line has "
                         "%d)",
                         df.path, df.lineno, ci, nf);
            goto fail;
        }
        if (!ok) {
            st = hg_fail(e, HG_EPARSE,
                         "sample file %s:%ld: '%s' is not a finite number",
                         df.path, df.lineno, f[ci - 1]);
            goto fail;
        }
        if (!(v > 0.0)) {
            st = hg_fail(e, HG_EINVAL,
                         "sample file %s:%ld: size %g must be > 0", df.path,
                         df.lineno, v);
            goto fail;
        }
        if (n == cap) {
            cap *= 2;
            double *nr = realloc(r, cap * sizeof *r);
            if (!nr) {
                st = hg_fail(e, HG_ENOMEM, "out of memory");
                goto fail;
            }
            r = nr;
        }
        r[n] = v * to_r;
        if (n == 0 || r[n] < rmin) {
            rmin = r[n];
            rmin_line = df.lineno;
        }
        if (n == 0 || r[n] > rmax)
            rmax = r[n];
        n++;
    }
    if (st < 0)
        goto fail;
    if (n == 0) {
        st = hg_fail(e, HG_EINVAL, "sample file %s: no radii (empty sample)",
                     df.path);
        goto fail;
    }
    if (!(rmin >= DBL_MIN && isfinite(rmax / rmin))) {
        st = hg_fail(e, HG_EINVAL,
                     "sample file %s:%ld: radius %g is too small next to the "
                     "largest radius %g (their ratio is not a finite "
                     "double)",
                     df.path, rmin_line, rmin, rmax);
        goto fail;
    }
    hg_dist_file_close(&df);
    free(f);
    *out = r;
    *nout = n;
    return HG_OK;
fail:
    hg_dist_file_close(&df);
    free(f);
    free(r);
    return st;
}

static int create(const hg_kv *kv, const hg_psd_ctx *ctx, void **state,
                  hg_err *e)
{
    double *r = NULL;
    size_t n = 0;
    int st = read_file(kv, ctx, &r, &n, e);
    if (st)
        return st;
    sample *p = NULL;
    if ((st = build(r, n, &p, e)))
        return st;
    *state = p;
    return HG_OK;
}

static void range(const void *s, double *rmin, double *rmax)
{
    const sample *p = s;
    *rmin = p->r[0];
    *rmax = p->r[p->n - 1];
}

static double cdf(const void *s, double r)
{
    const sample *p = s;
    return (double)count_le(p, r) / (double)p->n;
}

static double quantile(const void *s, double u)
{
    const sample *p = s;
    double c = ceil(u * (double)p->n);
    /* u n may round up past an integer: the CDF (c-1)/n may already be u */
    while (c > 1.0 && (c - 1.0) / (double)p->n >= u)
        c -= 1.0;
    size_t i = c < 1.0 ? 0 : (size_t)c - 1;
    return p->r[i < p->n ? i : p->n - 1];
}

static double moment(const void *s, int k, double a, double b)
{
    const sample *p = s;
    size_t ia = count_le(p, a), ib = count_le(p, b);
    if (ib <= ia)
        return 0.0;
    return (double)((prefix(p, k, ib) - prefix(p, k, ia)) /
                    (long double)p->n);
}

static const char *const keys[] = {"file", "column", "size", NULL};

const hg_psd_family hg_psd_sample = {
    "sample",
    "empirical distribution of measured sizes: file=PATH (one size per "
    "line, or a CSV column; '#' comments and one header line allowed; "
    "relative to the system file's folder, else the current directory), "
    "column=N|NAME (1-based index or header name, default 1), "
    "size=radius|diameter (default radius)",
    keys,
    1,
    create,
    destroy,
    range,
    NULL,
    cdf,
    quantile,
    moment};

int hg_psd_sample_state(double *r, size_t n, void **state, hg_err *e)
{
    sample *p = NULL;
    int st = build(r, n, &p, e);
    *state = st ? NULL : p;
    return st;
}
