/* weibull.c - Weibull (= Rosin-Rammler) law of radii truncated to
 * [r_min, r_max]:  G(r) = 1 - exp(-(r/lambda)^k),
 *   g(r) = (k/lambda) (r/lambda)^(k-1) exp(-(r/lambda)^k).
 * With basis=volume (mass) g is the volume-weighted law and the number
 * density is proportional to g(r) r^-d (s = d below; s = 0 for number).
 *
 * With x = (r/lambda)^k every partial moment is an incomplete gamma
 * function:  int_a^b r^j g(r) dr = lambda^j I(1 + j/k; x_a, x_b),
 *   I(c; x1, x2) = int_x1^x2 x^(c-1) e^-x dx,
 * so M_m(a,b) = lambda^m I(1 + (m-s)/k; x_a, x_b) / I(1 - s/k; x_min, x_max)
 * (c <= 0 happens for s > 0: only the upper function Gamma(c, x) exists).
 * I is evaluated below x = 1 by the integrated series of e^-x (scaled by
 * x_b^c, so a window wholly below 1 never underflows), above
 * x = 1 from GSL's regularised P or Q (whichever tail avoids cancellation)
 * or Gamma(c, x); when that difference still loses more than 4 digits or
 * underflows (windows far in a tail) it is integrated numerically in
 * log x with the peak factored out, so it is kept as a logarithm. */
#include "dist_util.h"
#include "hg_psd.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_sf_gamma.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#define NGRID 64

typedef struct {
    double lambda, k; /* radius units */
    double s;         /* 0 (number basis) or d (volume basis) */
    double rmin, rmax;
    double xmin, xmax;
    double shift; /* xmin when > 1, else 0: see log_igamma */
    double logZ; /* log I(1 - s/k; xmin, xmax) + shift */
    /* volume basis: CDF on a grid in ln r that brackets quantile roots */
    double tg[NGRID + 1], Fg[NGRID + 1];
} weibull;

typedef struct {
    double c, m;
} tailarg;

static double tail_integrand(double u, void *p)
{
    const tailarg *t = p;
    return exp(t->c * u - exp(u) - t->m);
}

/* integrand exponent minus its peak plus 745: < 0 where exp(.) < e^-745 */
static double tail_cut(double u, void *p)
{
    const tailarg *t = p;
    return t->c * u - exp(u) - t->m + 745.0;
}

/* S with int_a^b x^(c-1) e^-x dx = b^c S, for 0 < a < b <= 1, by the
 * term-wise integrated series of e^-x (alternating, terms fall like 1/n!):
 *   S = sum_n (-1)^n b^n (1 - (a/b)^(c+n)) / ((c+n) n!).
 * Scaling by b^c keeps windows far in the lower tail (b^c below 1e-300)
 * away from underflow, and 1 - (a/b)^q = -expm1(-q ln(b/a)) does not
 * cancel for narrow windows. */
static double igamma_series(double c, double a, double b)
{
    double sum = 0.0, fact = 1.0, bn = 1.0, l = log1p((b - a) / a);
    for (int n = 0; n < 60; n++, bn *= b) {
        double q = c + n;
        double w = fabs(q * l) < 1e-13 ? l * (1.0 - 0.5 * q * l)
                                       : -expm1(-q * l) / q;
        double term = bn * w / fact;
        sum += n % 2 ? -term : term;
        if (n > 0 && fabs(term) < 1e-17 * fabs(sum))
            break;
        fact *= n + 1;
    }
    return sum;
}

/* int_a^b x^(c-1) e^-x dx for 1 <= a < b from GSL's regularised P or Q
 * (c > 0; the tail that avoids cancellation) or Gamma(c, x) (continued
 * fraction, accurate for x >= 1). NaN when more than 4 digits cancel. */
static double igamma_upper(double c, double a, double b)
{
    double d, ref, scale = 1.0;
    if (c > 0.0) {
        double Pa = gsl_sf_gamma_inc_P(c, a), Pb = gsl_sf_gamma_inc_P(c, b);
        double Qa = gsl_sf_gamma_inc_Q(c, a), Qb = gsl_sf_gamma_inc_Q(c, b);
        if (Pb <= 0.5) {
            d = Pb - Pa;
            ref = Pb;
        } else if (Qa <= 0.5) {
            d = Qa - Qb;
            ref = Qa;
        } else {
            d = (1.0 - Pa) - Qb;
            ref = 1.0;
        }
        scale = gsl_sf_gamma(c);
    } else {
        double Ga = gsl_sf_gamma_inc(c, a), Gb = gsl_sf_gamma_inc(c, b);
        d = Ga - Gb;
        ref = Ga;
    }
    if (!(isfinite(d) && d >= 1e-4 * ref))
        return NAN;
    return scale * d;
}

typedef struct {
    double cm1, x1;
} rightarg;

/* exponent of the integrand at x1 + t relative to x1 */
static double right_exponent(double t, const rightarg *a)
{
    return a->cm1 * log1p(t / a->x1) - t;
}

static double right_integrand(double t, void *p)
{
    return exp(right_exponent(t, p));
}

/* Integrate exp(f) over [a, b] for a smooth monotone exponent f: 20-point
 * Gauss-Legendre when f changes by less than 2 and the rule on the two
 * halves agrees to 1e-12 (exact to rounding, and works on intervals a few
 * ulps wide), else GSL's qags. The halves catch an exponent that bends
 * within the interval although its ends differ little: (c - 1) log1p(t /
 * x1) - t with x1 far below the interval (c = 0.9, x1 = 1e-3, t up to 1:
 * the whole rule 1.2e-4 off). NaN on failure. */
static double integrate_exp(double (*fexp)(double, void *), gsl_function *fn,
                            double a, double b)
{
    if (!(a < b))
        return 0.0;
    double res = NAN, err = 0.0;
    if (fabs(fexp(a, fn->params) - fexp(b, fn->params)) < 2.0) {
        gsl_integration_glfixed_table *gl =
            gsl_integration_glfixed_table_alloc(20);
        if (!gl)
            return NAN;
        double m = a + 0.5 * (b - a);
        res = gsl_integration_glfixed(fn, a, b, gl);
        double halves = m > a && m < b
                            ? gsl_integration_glfixed(fn, a, m, gl) +
                                  gsl_integration_glfixed(fn, m, b, gl)
                            : res;
        gsl_integration_glfixed_table_free(gl);
        if (fabs(halves - res) <= 1e-12 * fabs(res))
            return res;
    }
    /* allocated per call (a rare path) so that the state stays read-only
     * and thread-safe */
    gsl_integration_workspace *ws = gsl_integration_workspace_alloc(1000);
    if (!ws)
        return NAN;
    int st = gsl_integration_qags(fn, a, b, 0.0, 1e-13, 1000, ws, &res, &err);
    gsl_integration_workspace_free(ws);
    return st && st != GSL_EROUND ? NAN : res;
}

static double right_exponent_v(double t, void *p)
{
    return right_exponent(t, p);
}

/* log I(c; x1, x2) when the integrand x^(c-1) e^-x decreases on [x1, x2]
 * (x1 >= c - 1): with x = x1 + t and the value at x1 factored out,
 * I = x1^(c-1) e^-x1 int_0^(x2-x1) exp((c-1) log1p(t/x1) - t) dt. The
 * exponent falls at least like -t (1 - (c-1)/x1), so the integral is cut
 * where it is below -745. No logarithm of x2 is taken, so windows narrower
 * than an ulp of ln x (far tails) keep their width. */
static double log_igamma_right(double c, double x1, double x2, double shift)
{
    rightarg a = {c - 1.0, x1};
    double D = x2 - x1;
    double slope = 1.0 - (a.cm1 > 0.0 ? a.cm1 / x1 : 0.0);
    if (slope > 0.0 && D * slope > 745.0)
        D = 745.0 / slope;
    gsl_function fn = {right_integrand, &a};
    double J = integrate_exp(right_exponent_v, &fn, 0.0, D);
    if (!(J > 0.0 && isfinite(J)))
        return NAN;
    return a.cm1 * log(x1) - (x1 - shift) + log(J);
}

/* log I(c; x1, x2) + shift, 0 < x1 < x2. Ratios of these (moments,
 * CDF) are taken with one shift, x_min of the window: far in a tail log I
 * is about -x_min, and adding x_min back only after the logarithms were
 * subtracted would lose |x_min| ulps (1e-10 at x_min = 7e5).
 * GSL 2.7's gsl_sf_gamma_inc(c, x) is inaccurate for c < 0 and x < 0.25
 * (its series branch; e.g. c = -1/3, x = 0.01: relative error 4e-7), so
 * the part below x = 1 uses the series above. */
static double log_igamma(double c, double x1, double x2, double shift)
{
    if (!(x1 < x2))
        return -INFINITY;
    double d = 0.0;
    if (x2 <= 1.0) { /* all below 1: the series, kept as a logarithm */
        d = igamma_series(c, x1, x2);
        if (isfinite(d) && d > 0.0)
            return c * log(x2) + log(d) + shift;
    } else {
        if (x1 < 1.0)
            d += igamma_series(c, x1, 1.0);
        d += igamma_upper(c, x1 > 1.0 ? x1 : 1.0, x2);
        if (isfinite(d) && d > 1e-250)
            return log(d) + shift;
    }
    if (x1 >= c - 1.0)
        return log_igamma_right(c, x1, x2, shift);
    /* int_{ln x1}^{ln x2} exp(c u - e^u) du with the peak exponent m
     * factored out. c u - e^u is concave in u, so outside [ulo, uhi] (where
     * it is 745 below its peak) the integrand is below e^-745: integrating
     * only there keeps the quadrature on the mass even when the window is
     * wide and the mass sits in a sliver at one end (far tails). */
    double u1 = log(x1), u2 = log(x2);
    double up = c > 0.0 ? log(c) : u1;
    up = up < u1 ? u1 : (up > u2 ? u2 : up);
    tailarg t = {c, c * up - exp(up)};
    double ulo = u1, uhi = u2;
    if (tail_cut(u1, &t) < 0.0)
        ulo = hg_dist_brent(tail_cut, &t, u1, up);
    if (tail_cut(u2, &t) < 0.0)
        uhi = hg_dist_brent(tail_cut, &t, up, u2);
    if (!(ulo <= up && up <= uhi))
        return NAN;
    gsl_function fn = {tail_integrand, &t};
    double res = integrate_exp(tail_cut, &fn, ulo, up) +
                 integrate_exp(tail_cut, &fn, up, uhi);
    if (!(res > 0.0))
        return NAN;
    return t.m + shift + log(res);
}

typedef struct {
    double lambda, k;
} wpar;

static double untruncated_quantile(double q, const void *p)
{
    const wpar *w = p;
    return w->lambda * pow(-log1p(-q), 1.0 / w->k);
}

static void destroy(void *s)
{
    weibull *w = s;
    if (!w)
        return;
    free(w);
}

static double cdf(const void *s, double r);

static int create_as(const hg_kv *kv, const hg_psd_ctx *ctx, void **state,
                     const char *what, int dflt_volume, hg_err *e)
{
    double to_r = 1.0, scale = 0, x63 = 0, k = 0;
    int volume = 0, has_scale, has_x63, st;
    if ((st = hg_dist_size(kv, what, 1.0, &to_r, e)) ||
        (st = hg_dist_basis(kv, what, dflt_volume, &volume, e)) ||
        (st = hg_kv_double(kv, "scale", 0, &scale, &has_scale, what, e)) ||
        (st = hg_kv_double(kv, "x63", 0, &x63, &has_x63, what, e)) ||
        (st = hg_kv_double(kv, "shape", 1, &k, NULL, what, e)))
        return st;
    if (has_scale == has_x63)
        return hg_fail(e, HG_EINVAL,
                       "%s: give exactly one of scale= or x63= (the size "
                       "with 63.2%% of the law below it)",
                       what);
    if (has_x63)
        scale = x63;
    if (!(scale > 0.0))
        return hg_fail(e, HG_EINVAL, "%s %s: %g must be > 0", what,
                       has_x63 ? "x63" : "scale", scale);
    if (!(k > 0.0))
        return hg_fail(e, HG_EINVAL, "%s shape: %g must be > 0", what, k);
    wpar given = {scale * to_r, k};
    weibull *w = calloc(1, sizeof *w);
    if (!w)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    st = hg_dist_window(kv, what, to_r, untruncated_quantile, &given,
                        &w->rmin, &w->rmax, e);
    if (st)
        goto fail;
    w->lambda = given.lambda;
    w->k = k;
    w->s = volume ? (double)ctx->dim : 0.0;
    w->xmin = pow(w->rmin / w->lambda, k);
    w->xmax = pow(w->rmax / w->lambda, k);
    if (!(w->xmin > 0.0 && w->xmin < w->xmax && isfinite(w->xmax))) {
        st = hg_fail(e, HG_ENUMERIC,
                     "%s shape: %g with the window [%g, %g] and scale %g "
                     "gives (r/scale)^shape outside double range",
                     what, k, w->rmin, w->rmax, w->lambda);
        goto fail;
    }
    w->shift = w->xmin > 1.0 ? w->xmin : 0.0;
    w->logZ = log_igamma(1.0 - w->s / k, w->xmin, w->xmax, w->shift);
    if (!isfinite(w->logZ)) {
        st = hg_fail(e, HG_ENUMERIC,
                     "%s: the window [%g, %g] holds no representable "
                     "probability (scale %g, shape %g)",
                     what, w->rmin, w->rmax, w->lambda, k);
        goto fail;
    }
    /* The log density's slope in ln r, (k - 1 - s) - k x, falls with r.
     * Of one sign over the whole window, the mass lies next to one edge,
     * within about 1 / |slope| there in ln r; narrower than ln r resolves
     * (times 1e6, as for the log-normal), the window is far in a tail and
     * the law is rounding noise: refuse. */
    double g0 = (k - 1.0 - w->s) - k * w->xmin,
           g1 = (k - 1.0 - w->s) - k * w->xmax;
    if ((g0 < 0.0 && g1 < 0.0) || (g0 > 0.0 && g1 > 0.0)) {
        double edge = g0 < 0.0 ? w->rmin : w->rmax;
        double width = 1.0 / fmin(fabs(g0), fabs(g1));
        double ulp = DBL_EPSILON *
                     fmax(fmax(fabs(log(w->lambda)), fabs(log(edge))), 1.0);
        if (!(width > 1e6 * ulp)) {
            st = hg_fail(e, HG_EINVAL,
                         "%s: scale %g, shape %g, window [%g, %g]: its mass "
                         "lies within a relative %.2g of %g, which double "
                         "precision cannot resolve (move the window towards "
                         "the scale or lower the shape)",
                         what, w->lambda, k, w->rmin, w->rmax, width, edge);
            goto fail;
        }
    }
    if (w->s > 0.0) {
        double t0 = log(w->rmin), t1 = log(w->rmax);
        for (int i = 0; i <= NGRID; i++) {
            w->tg[i] = i == NGRID ? t1 : t0 + (t1 - t0) * i / NGRID;
            w->Fg[i] = i == 0 ? 0.0
                       : (i == NGRID ? 1.0 : cdf(w, exp(w->tg[i])));
        }
    }
    *state = w;
    return HG_OK;
fail:
    destroy(w);
    return st;
}

static int create_weibull(const hg_kv *kv, const hg_psd_ctx *ctx,
                          void **state, hg_err *e)
{
    return create_as(kv, ctx, state, "weibull", 0, e);
}

static int create_rr(const hg_kv *kv, const hg_psd_ctx *ctx, void **state,
                     hg_err *e)
{
    return create_as(kv, ctx, state, "rosin-rammler", 1, e);
}

static void range(const void *s, double *rmin, double *rmax)
{
    const weibull *w = s;
    *rmin = w->rmin;
    *rmax = w->rmax;
}

static double xof(const weibull *w, double r)
{
    if (r == w->rmin)
        return w->xmin;
    if (r == w->rmax)
        return w->xmax;
    return pow(r / w->lambda, w->k);
}

static double pdf(const void *s, double r)
{
    const weibull *w = s;
    double t = log(r / w->lambda);
    return w->k / w->lambda *
           exp((w->k - 1.0 - w->s) * t - (xof(w, r) - w->shift) - w->logZ);
}

static double cdf(const void *s, double r)
{
    const weibull *w = s;
    if (r <= w->rmin)
        return 0.0;
    if (r >= w->rmax)
        return 1.0;
    double c = exp(log_igamma(1.0 - w->s / w->k, w->xmin, xof(w, r), w->shift) -
                   w->logZ);
    return c > 1.0 ? 1.0 : c;
}

typedef struct {
    const weibull *w;
    double u;
} qarg;

static double cdf_minus_u(double t, void *p)
{
    const qarg *q = p;
    return cdf(q->w, exp(t)) - q->u;
}

static double quantile(const void *s, double u)
{
    const weibull *w = s;
    if (u <= 0.0)
        return w->rmin;
    if (u >= 1.0)
        return w->rmax;
    double r;
    if (w->s == 0.0) {
        /* exp(-x) = exp(-xmin) - u (exp(-xmin) - exp(-xmax)) */
        double x = w->xmin - log1p(u * expm1(w->xmin - w->xmax));
        r = w->lambda * pow(x, 1.0 / w->k);
    } else {
        size_t lo = 0, hi = NGRID; /* Fg[lo] <= u <= Fg[hi] */
        while (hi - lo > 1) {
            size_t mid = (lo + hi) / 2;
            if (w->Fg[mid] <= u)
                lo = mid;
            else
                hi = mid;
        }
        qarg q = {w, u};
        r = exp(hg_dist_brent(cdf_minus_u, &q, w->tg[lo], w->tg[hi]));
    }
    return r < w->rmin ? w->rmin : (r > w->rmax ? w->rmax : r);
}

static double moment(const void *s, int m, double a, double b)
{
    const weibull *w = s;
    if (a < w->rmin)
        a = w->rmin;
    if (b > w->rmax)
        b = w->rmax;
    if (!(a < b))
        return 0.0;
    double c = 1.0 + (m - w->s) / w->k;
    return pow(w->lambda, m) *
           exp(log_igamma(c, xof(w, a), xof(w, b), w->shift) - w->logZ);
}

static const char *const keys[] = {"scale", "x63",  "shape", "rmin", "rmax",
                                   "qmin",  "qmax", "basis", "size", NULL};

#define WEIBULL_HELP(dflt)                                                   \
    "Weibull / Rosin-Rammler law G(r) = 1 - exp(-(r/scale)^shape) "          \
    "truncated to [rmin, rmax]: scale=L (or x63=L, the 63.2% size) and "     \
    "shape=K (> 0); each end as rmin=/rmax= or as quantile qmin=/qmax= in "  \
    "(0,1) of the untruncated law; basis=number|volume|mass (default " dflt  \
    "; volume: the parameters describe the volume-weighted law, number "     \
    "density = that / r^d); size=radius|diameter (default radius) applies "  \
    "to scale, x63, rmin, rmax"

const hg_psd_family hg_psd_weibull = {
    "weibull", WEIBULL_HELP("number"), keys, 0, create_weibull, destroy,
    range, pdf, cdf, quantile, moment};
const hg_psd_family hg_psd_rosin_rammler = {
    "rosin-rammler", WEIBULL_HELP("mass"), keys, 0, create_rr, destroy,
    range, pdf, cdf, quantile, moment};
