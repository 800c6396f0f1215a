/* mono.c - monodisperse: every particle has radius r (or diameter d). */
#include "hg_psd.h"

#include <stdlib.h>

typedef struct {
    double r;
} mono;

static int create(const hg_kv *kv, const hg_psd_ctx *ctx, void **state,
                  hg_err *e)
{
    (void)ctx;
    double r = 0, d = 0;
    int has_r, has_d, st;
    if ((st = hg_kv_double(kv, "r", 0, &r, &has_r, "mono", e)) ||
        (st = hg_kv_double(kv, "d", 0, &d, &has_d, "mono", e)))
        return st;
    if (has_r == has_d)
        return hg_fail(e, HG_EINVAL,
                       "mono: give exactly one of r= (radius) or d= "
                       "(diameter)");
    if (has_d)
        r = 0.5 * d;
    if (!(r > 0.0))
        return hg_fail(e, HG_EINVAL, "mono %s: %g must be > 0",
                       has_d ? "d" : "r", has_d ? d : r);
    mono *m = malloc(sizeof *m);
    if (!m)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    m->r = r;
    *state = m;
    return HG_OK;
}

static void destroy(void *s) { free(s); }

static void range(const void *s, double *rmin, double *rmax)
{
    *rmin = *rmax = ((const mono *)s)->r;
}

static double cdf(const void *s, double r)
{
    return r >= ((const mono *)s)->r ? 1.0 : 0.0;
}

static double quantile(const void *s, double u)
{
    (void)u;
    return ((const mono *)s)->r;
}

static double moment(const void *s, int k, double a, double b)
{
    double r = ((const mono *)s)->r, rk = 1.0;
    if (!(a < r && r <= b))
        return 0.0;
    for (int i = 0; i < k; i++)
        rk *= r;
    return rk;
}

static const char *const keys[] = {"r", "d", NULL};

const hg_psd_family hg_psd_mono = {
    "mono", "single radius: r=R (or diameter d=D)", keys, 1, create, destroy,
    range, NULL, cdf, quantile, moment};
