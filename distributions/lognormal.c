/* lognormal.c - log-normal law of radii truncated to [r_min, r_max].
 *
 * ln R ~ Normal(mu, sigma^2). With basis=volume the parameters describe the
 * volume-weighted law g(r); the number density g(r) / r^d is again
 * log-normal with mu_n = mu - d sigma^2 (Hatch-Choate), so only the number
 * law is kept. Partial moments are closed forms: r^k times the log-normal
 * density is exp(k mu + k^2 sigma^2 / 2) times the log-normal density with
 * mu + k sigma^2, hence
 *   M_k(a,b) = exp(k mu + k^2 sigma^2/2) [Phi(z_b - k sigma) -
 *              Phi(z_a - k sigma)] / Z,   z = (ln r - mu) / sigma,
 * Z = Phi(z_max) - Phi(z_min). Differences of Phi are taken in logarithms
 * from the tail that avoids cancellation (log erfc), so windows far in the
 * tails keep full relative precision. */
#include "dist_util.h"
#include "hg_psd.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_erf.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

typedef struct {
    double mu, sigma; /* number law, radius units */
    double rmin, rmax;
    double zmin, zmax;
    double logZ; /* log(Phi(zmax) - Phi(zmin)) */
} lognormal;

/* log Q(z) = log P(Z > z), accurate for large z. */
static double log_q(double z)
{
    /* GSL's log_erfc gives NaN for huge arguments (z ~ 1e64 with a tiny
     * sigma); there the asymptotic series is exact in double */
    if (z > 1e8)
        return -0.5 * z * z - log(z) - 0.5 * log(2.0 * M_PI);
    return gsl_sf_log_erfc(z / M_SQRT2) - M_LN2;
}

/* log(1 - exp(x)) for x < 0. */
static double log1mexp(double x)
{
    return x > -M_LN2 ? log(-expm1(x)) : log1p(-exp(x));
}

/* log(Phi(z2) - Phi(z1)), z1 < z2. */
static double log_dphi(double z1, double z2)
{
    if (!(z1 < z2))
        return -INFINITY;
    /* z = +-inf happens for tiny sigma (ln r - mu overflows after /sigma);
     * log_q(inf) = -inf would give -inf - -inf = NaN below */
    if (z1 >= 0.0) {
        double l1 = log_q(z1), l2 = log_q(z2);
        if (l1 == -INFINITY)
            return -INFINITY;
        return l2 == -INFINITY ? l1 : l1 + log1mexp(l2 - l1);
    }
    if (z2 <= 0.0) {
        double l1 = log_q(-z2), l2 = log_q(-z1);
        if (l1 == -INFINITY)
            return -INFINITY;
        return l2 == -INFINITY ? l1 : l1 + log1mexp(l2 - l1);
    }
    return log(0.5 * (erf(z2 / M_SQRT2) + erf(-z1 / M_SQRT2)));
}

typedef struct {
    double mu, sigma;
} lnpar;

static double untruncated_quantile(double q, const void *p)
{
    const lnpar *l = p;
    return exp(l->mu + l->sigma * gsl_cdf_ugaussian_Pinv(q));
}

static int create(const hg_kv *kv, const hg_psd_ctx *ctx, void **state,
                  hg_err *e)
{
    const char *what = "lognormal";
    double to_r = 1.0, med = 0, mu = 0, sigma = 0;
    int volume = 0, has_med, has_mu, st;
    if ((st = hg_dist_size(kv, what, 1.0, &to_r, e)) ||
        (st = hg_dist_basis(kv, what, 0, &volume, e)) ||
        (st = hg_kv_double(kv, "median", 0, &med, &has_med, what, e)) ||
        (st = hg_kv_double(kv, "mu", 0, &mu, &has_mu, what, e)) ||
        (st = hg_kv_double(kv, "sigma", 1, &sigma, NULL, what, e)))
        return st;
    if (has_med == has_mu)
        return hg_fail(e, HG_EINVAL,
                       "%s: give exactly one of median= or mu= (= ln median)",
                       what);
    if (has_med && !(med > 0.0))
        return hg_fail(e, HG_EINVAL, "%s median: %g must be > 0", what, med);
    if (!(sigma > 0.0))
        return hg_fail(e, HG_EINVAL, "%s sigma: %g must be > 0", what, sigma);
    lnpar given = {has_med ? log(med * to_r) : mu + log(to_r), sigma};
    if (!isfinite(given.mu))
        return hg_fail(e, HG_EINVAL, "%s %s: %g is out of range", what,
                       has_med ? "median" : "mu", has_med ? med : mu);
    lognormal *l = calloc(1, sizeof *l);
    if (!l)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    st = hg_dist_window(kv, what, to_r, untruncated_quantile, &given,
                        &l->rmin, &l->rmax, e);
    if (st) {
        free(l);
        return st;
    }
    l->sigma = sigma;
    l->mu = given.mu - (volume ? ctx->dim * sigma * sigma : 0.0);
    /* z = (ln r - mu) / sigma carries the rounding of ln r - mu, about
     * DBL_EPSILON max(|mu|, |ln r|): when that is not small against the
     * window's width ln(rmax / rmin) (mu far from the window, e.g. the
     * volume-to-number shift d sigma^2 with a huge sigma), the CDF inside
     * the window is noise: refuse rather than print it. */
    double lr = fmax(fabs(log(l->rmin)), fabs(log(l->rmax)));
    double res = DBL_EPSILON * fmax(fabs(l->mu), lr) / log(l->rmax / l->rmin);
    if (l->rmax > l->rmin && !(res < 1e-6)) {
        st = hg_fail(e, HG_ENUMERIC,
                     "%s sigma: %g puts the number median at exp(%g), so "
                     "far from the window [%g, %g] that double precision "
                     "cannot resolve the law inside it",
                     what, sigma, l->mu, l->rmin, l->rmax);
        free(l);
        return st;
    }
    l->zmin = (log(l->rmin) - l->mu) / sigma;
    l->zmax = (log(l->rmax) - l->mu) / sigma;
    l->logZ = log_dphi(l->zmin, l->zmax);
    if (!isfinite(l->logZ)) {
        st = hg_fail(e, HG_ENUMERIC,
                     "%s: the window [%g, %g] holds no representable "
                     "probability (%g and %g standard deviations from the "
                     "number median %g)",
                     what, l->rmin, l->rmax, l->zmin, l->zmax, exp(l->mu));
        free(l);
        return st;
    }
    /* A window wholly in one tail: the truncated law is then close to an
     * exponential in ln r next to the near edge, of width sigma / |z| in
     * ln r. Narrower than ln r resolves there (its rounding, as above,
     * times 1e6), the mass sits on a few representable radii at the edge
     * and the quantile and CDF are rounding noise (median 2e112, sigma
     * 1e-65, window [1, 6e84] gave T = 2.8e255): refuse. */
    double zn = l->zmin > 0.0 ? l->zmin : l->zmax < 0.0 ? -l->zmax : 0.0;
    if (zn > 0.0) {
        double edge = l->zmin > 0.0 ? l->rmin : l->rmax;
        double width = sigma / fmax(zn, 1.0);
        double ulp = DBL_EPSILON * fmax(fmax(fabs(l->mu), fabs(log(edge))),
                                        1.0);
        if (!(width > 1e6 * ulp)) {
            st = hg_fail(e, HG_EINVAL,
                         "%s: median %g, sigma %g, window [%g, %g]: the "
                         "window lies %.3g standard deviations %s the "
                         "median, its mass within a relative %.2g of %g, "
                         "which double precision cannot resolve (widen "
                         "sigma or move the window towards the median)",
                         what, exp(l->mu), sigma, l->rmin, l->rmax, zn,
                         l->zmin > 0.0 ? "above" : "below", width, edge);
            free(l);
            return st;
        }
    }
    *state = l;
    return HG_OK;
}

static void destroy(void *s) { free(s); }

static void range(const void *s, double *rmin, double *rmax)
{
    const lognormal *l = s;
    *rmin = l->rmin;
    *rmax = l->rmax;
}

static double zof(const lognormal *l, double r)
{
    return (log(r) - l->mu) / l->sigma;
}

static double pdf(const void *s, double r)
{
    const lognormal *l = s;
    double z = zof(l, r);
    return exp(-0.5 * z * z - l->logZ) /
           (r * l->sigma * sqrt(2.0 * M_PI));
}

static double cdf(const void *s, double r)
{
    const lognormal *l = s;
    if (r <= l->rmin)
        return 0.0;
    if (r >= l->rmax)
        return 1.0;
    double c = exp(log_dphi(l->zmin, zof(l, r)) - l->logZ);
    return c > 1.0 ? 1.0 : c;
}

typedef struct {
    const lognormal *l;
    double u;
} qarg;

static double cdf_minus_u_lnr(double t, void *p)
{
    const qarg *q = p;
    return cdf(q->l, exp(t)) - q->u;
}

static double quantile(const void *s, double u)
{
    const lognormal *l = s;
    if (u <= 0.0)
        return l->rmin;
    if (u >= 1.0)
        return l->rmax;
    double z = NAN;
    if (l->zmin >= 0.0) {
        /* Q(z) = Q(zmin) - u (Q(zmin) - Q(zmax)) */
        double la = log_q(l->zmin), lb = log_q(l->zmax);
        double lq = la + log1p(u * expm1(lb - la));
        if (lq > -700.0)
            z = gsl_cdf_ugaussian_Qinv(exp(lq));
    } else if (l->zmax <= 0.0) {
        /* P(z) = P(zmin) + u (P(zmax) - P(zmin)) */
        double la = log_q(-l->zmin), lb = log_q(-l->zmax);
        double lp = la + log1p(u * expm1(lb - la));
        if (lp > -700.0)
            z = gsl_cdf_ugaussian_Pinv(exp(lp));
    } else {
        double Z = exp(l->logZ);
        double p = gsl_cdf_ugaussian_P(l->zmin) + u * Z;
        double q = gsl_cdf_ugaussian_Q(l->zmax) + (1.0 - u) * Z;
        z = p <= 0.5 ? gsl_cdf_ugaussian_Pinv(p) : gsl_cdf_ugaussian_Qinv(q);
    }
    if (!isfinite(z)) {
        /* The root is sought in ln r, not in z: far in a tail |z| is huge
         * and a root finder's relative tolerance in z (~1e-14 |z|) is a
         * visible step in r (e.g. 5e-12 at z = -5e67, sigma = 1e-65),
         * while the CDF is monotone in ln r to its last bit. */
        qarg q = {l, u};
        double t = hg_dist_brent(cdf_minus_u_lnr, &q, log(l->rmin),
                                 log(l->rmax));
        double r = exp(t);
        return r < l->rmin ? l->rmin : (r > l->rmax ? l->rmax : r);
    }
    double r = exp(l->mu + l->sigma * z);
    return r < l->rmin ? l->rmin : (r > l->rmax ? l->rmax : r);
}

static double moment(const void *s, int k, double a, double b)
{
    const lognormal *l = s;
    if (a < l->rmin)
        a = l->rmin;
    if (b > l->rmax)
        b = l->rmax;
    if (!(a < b))
        return 0.0;
    double ks = k * l->sigma;
    double za = a == l->rmin ? l->zmin : zof(l, a);
    double zb = b == l->rmax ? l->zmax : zof(l, b);
    return exp(k * l->mu + 0.5 * ks * ks + log_dphi(za - ks, zb - ks) -
               l->logZ);
}

static const char *const keys[] = {"median", "mu",   "sigma", "rmin", "rmax",
                                   "qmin",   "qmax", "basis", "size", NULL};

const hg_psd_family hg_psd_lognormal = {
    "lognormal",
    "log-normal law truncated to [rmin, rmax]: median=M (or mu=ln M) and "
    "sigma=S (standard deviation of ln r, > 0); each end as rmin=/rmax= or "
    "as quantile qmin=/qmax= in (0,1) of the untruncated law; "
    "basis=number|volume|mass (default number; volume: the parameters "
    "describe the volume-weighted law, number density = that / r^d); "
    "size=radius|diameter (default radius) applies to median, mu, rmin, rmax",
    keys,
    0,
    create,
    destroy,
    range,
    pdf,
    cdf,
    quantile,
    moment};
