/* powerlaw.c - truncated power law f(r) = C r^alpha on [r_min, r_max]
 * (KOL 2014 section 4), with the aliases uniform-size (alpha = 0),
 * uniform-surface (alpha = -2) and uniform-volume (alpha = -d: -3 in 3D,
 * -2 in 2D, i.e. equal volume/area in every radius interval).
 *
 * All integrals are taken in t = r / r_min, t in [1, omega], with
 *   J(p, x, y) = int_x^y t^(p-1) dt = x^p expm1(p ln(y/x)) / p
 * (ln(y/x) when p = 0: the logarithmic cases alpha = -1 and alpha = -1-k). */
#include "hg_psd.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
    double alpha;
    double rmin, rmax;
    double norm; /* J(alpha + 1, 1, omega) */
} powerlaw;

static double J(double p, double x, double y)
{
    double l = log1p((y - x) / x);
    if (fabs(p * l) < 1e-13)
        return pow(x, p) * l * (1.0 + 0.5 * p * l);
    return pow(x, p) * expm1(p * l) / p;
}

static int read_range(const hg_kv *kv, const char *what, double *rmin,
                      double *rmax, hg_err *e)
{
    double lo = 0, hi = 0, om = 0;
    int has_lo, has_hi, has_om, st;
    if ((st = hg_kv_double(kv, "rmin", 0, &lo, &has_lo, what, e)) ||
        (st = hg_kv_double(kv, "rmax", 0, &hi, &has_hi, what, e)) ||
        (st = hg_kv_double(kv, "omega", 0, &om, &has_om, what, e)))
        return st;
    if (has_om && !(om > 1.0))
        return hg_fail(e, HG_EINVAL, "%s omega: %g must be > 1", what, om);
    if (has_lo && !(lo > 0.0))
        return hg_fail(e, HG_EINVAL, "%s rmin: %g must be > 0", what, lo);
    if (has_hi && !(hi > 0.0))
        return hg_fail(e, HG_EINVAL, "%s rmax: %g must be > 0", what, hi);
    if (has_lo && has_hi) {
        if (!(lo < hi))
            return hg_fail(e, HG_EINVAL,
                           "%s rmin: %g must be < rmax = %g", what, lo, hi);
        if (has_om && fabs(hi / lo - om) > 1e-9 * om)
            return hg_fail(e, HG_EINVAL,
                           "%s omega: %g contradicts rmax/rmin = %g", what,
                           om, hi / lo);
    } else if (has_lo && has_om) {
        hi = lo * om;
    } else if (has_hi && has_om) {
        lo = hi / om;
    } else if (has_om) {
        lo = 1.0;
        hi = om;
    } else {
        return hg_fail(e, HG_EINVAL,
                       "%s: give omega, or rmin and rmax (or one of them "
                       "with omega)", what);
    }
    *rmin = lo;
    *rmax = hi;
    return HG_OK;
}

static int make(const hg_kv *kv, double alpha, const char *what, void **state,
                hg_err *e)
{
    powerlaw *p = calloc(1, sizeof *p);
    if (!p)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    int st = read_range(kv, what, &p->rmin, &p->rmax, e);
    if (st) {
        free(p);
        return st;
    }
    double lw = log(p->rmax / p->rmin);
    /* Moments up to r^4 must stay representable in double precision. */
    if ((alpha + 5.0) * lw > 700.0 || (alpha + 1.0) * lw < -700.0) {
        double omega = p->rmax / p->rmin;
        free(p);
        return hg_fail(e, HG_EINVAL,
                       "%s alpha: %g is too extreme for omega = %g (|alpha| "
                       "ln omega must stay below 700)",
                       what, alpha, omega);
    }
    p->alpha = alpha;
    p->norm = J(alpha + 1.0, 1.0, p->rmax / p->rmin);
    *state = p;
    return HG_OK;
}

static int create_powerlaw(const hg_kv *kv, const hg_psd_ctx *ctx,
                           void **state, hg_err *e)
{
    (void)ctx;
    double alpha;
    int st = hg_kv_double(kv, "alpha", 1, &alpha, NULL, "powerlaw", e);
    if (st)
        return st;
    if (fabs(alpha) > 1e4)
        return hg_fail(e, HG_EINVAL, "powerlaw alpha: %g is out of range",
                       alpha);
    return make(kv, alpha, "powerlaw", state, e);
}

static int create_usize(const hg_kv *kv, const hg_psd_ctx *ctx, void **state,
                        hg_err *e)
{
    (void)ctx;
    return make(kv, 0.0, "uniform-size", state, e);
}

static int create_usurface(const hg_kv *kv, const hg_psd_ctx *ctx,
                           void **state, hg_err *e)
{
    (void)ctx;
    return make(kv, -2.0, "uniform-surface", state, e);
}

static int create_uvolume(const hg_kv *kv, const hg_psd_ctx *ctx,
                          void **state, hg_err *e)
{
    return make(kv, -(double)ctx->dim, "uniform-volume", state, e);
}

static void destroy(void *s) { free(s); }

static void range(const void *s, double *rmin, double *rmax)
{
    const powerlaw *p = s;
    *rmin = p->rmin;
    *rmax = p->rmax;
}

static double pdf(const void *s, double r)
{
    const powerlaw *p = s;
    return pow(r / p->rmin, p->alpha) / (p->rmin * p->norm);
}

static double cdf(const void *s, double r)
{
    const powerlaw *p = s;
    double c = J(p->alpha + 1.0, 1.0, r / p->rmin) / p->norm;
    return c < 0.0 ? 0.0 : (c > 1.0 ? 1.0 : c);
}

static double quantile(const void *s, double u)
{
    const powerlaw *p = s;
    if (u <= 0.0)
        return p->rmin;
    if (u >= 1.0)
        return p->rmax;
    double q = p->alpha + 1.0, lw = log(p->rmax / p->rmin);
    double t;
    if (fabs(q * lw) < 1e-13)
        t = exp(u * lw);
    else
        t = exp(log1p(u * expm1(q * lw)) / q);
    double r = p->rmin * t;
    return r < p->rmin ? p->rmin : (r > p->rmax ? p->rmax : r);
}

static double moment(const void *s, int k, double a, double b)
{
    const powerlaw *p = s;
    if (a < p->rmin)
        a = p->rmin;
    if (b > p->rmax)
        b = p->rmax;
    if (!(a < b))
        return 0.0;
    return pow(p->rmin, k) *
           J(p->alpha + k + 1.0, a / p->rmin, b / p->rmin) / p->norm;
}

static const char *const keys_pl[] = {"alpha", "rmin", "rmax", "omega", NULL};
static const char *const keys_alias[] = {"rmin", "rmax", "omega", NULL};

#define POWERLAW_FAMILY(sym, nm, hlp, keys, ctor)                           \
    const hg_psd_family sym = {nm, hlp, keys, 0, ctor, destroy, range, pdf, \
                               cdf, quantile, moment}

POWERLAW_FAMILY(hg_psd_powerlaw, "powerlaw",
                "f(r) ~ r^alpha on [rmin, rmax]: alpha=A and omega=W "
                "(rmin=1), or rmin=, rmax= (any two of rmin, rmax, omega)",
                keys_pl, create_powerlaw);
POWERLAW_FAMILY(hg_psd_uniform_size, "uniform-size",
                "power law with alpha = 0 (every radius equally likely); "
                "omega= or rmin=, rmax=",
                keys_alias, create_usize);
POWERLAW_FAMILY(hg_psd_uniform_surface, "uniform-surface",
                "power law with alpha = -2 (equal surface per radius "
                "interval); omega= or rmin=, rmax=",
                keys_alias, create_usurface);
POWERLAW_FAMILY(hg_psd_uniform_volume, "uniform-volume",
                "power law with alpha = -d (-3 in 3D, -2 in 2D: equal "
                "volume per radius interval); omega= or rmin=, rmax=",
                keys_alias, create_uvolume);
