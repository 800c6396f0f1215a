/* test_psd_tails.c - distributions at the edges of double range (issue 12
 * items 1, 2, 4): degenerate widths, windows far in a tail, fractions that
 * overflow when summed. Accepted distributions must give finite numbers:
 * P_h on every level summing to 1, moments agreeing with an independent
 * quadrature of the density written relative to its value at r_min. */
#include "hgridopt.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Every number the cost model reads is finite; P_h over a ladder of levels
 * sums to 1; quantiles lie in the range and invert the CDF. */
static void check_finite(const hg_psd *p, const char *spec, int invertible)
{
    double rmin = hg_psd_rmin(p), rmax = hg_psd_rmax(p);
    double sum = 0.0;
    int bad = 0;
    const int L = 7;
    double prev = 0.0;
    for (int h = 1; h <= L; h++) {
        double hi = h == L ? rmax : rmin * pow(rmax / rmin, (double)h / L);
        for (int k = 0; k <= 4; k++) {
            double m = hg_psd_moment(p, k, prev, hi);
            bad += !(isfinite(m) && m >= 0.0);
        }
        sum += hg_psd_moment(p, 0, prev, hi);
        prev = hi;
    }
    for (int i = 1; i < 100; i++) {
        double u = i / 100.0, q = hg_psd_quantile(p, u);
        bad += !(isfinite(q) && q >= rmin && q <= rmax);
        double c = hg_psd_cdf(p, q);
        bad += !(isfinite(c) && c >= 0.0 && c <= 1.0);
        if (invertible && !hg_psd_is_discrete(p))
            bad += !(fabs(c - u) < 1e-6);
    }
    if (bad || !(fabs(sum - 1.0) < 1e-9))
        fprintf(stderr, "%s: %d non-finite values, sum P_h = %.17g\n", spec,
                bad, sum);
    CHECK(bad == 0);
    CHECK_CLOSE(sum, 1.0, 1e-9, 0.0);
}

/* Truncated Weibull number density r^(k-1-s) exp(-(r/lambda)^k) written
 * relative to r_min (no underflow), integrated by Simpson's rule in long
 * double over the part of the window holding the mass. */
typedef struct {
    double lambda, k, s, rmin, rmax;
} wref;

static long double wref_logf(const wref *w, long double r)
{
    long double xmin = powl(w->rmin / w->lambda, w->k);
    long double dx = xmin * expm1l(w->k * log1pl((r - w->rmin) / w->rmin));
    return (w->k - 1.0L - w->s) * logl(r / w->rmin) - dx;
}

static long double wref_moment(const wref *w, int m, double a, double b)
{
    const int n = 20000;
    long double h = (b - a) / (long double)n, sum = 0.0L;
    for (int i = 0; i <= n; i++) {
        long double r = a + h * i;
        long double f = expl(wref_logf(w, r)) * powl(r, m);
        sum += f * (i == 0 || i == n ? 1 : (i % 2 ? 4 : 2));
    }
    return sum * h / 3.0L;
}

static void check_weibull_tail(const char *spec, int dim, wref w)
{
    hg_psd *p = hg_test_psd(spec, dim);
    CHECK(p != NULL);
    if (!p)
        return;
    check_finite(p, spec, 1);
    /* the mass lies within ~800 / |d log f / dr| of r_min */
    double x = pow(w.rmin / w.lambda, w.k);
    double slope = w.k * x / w.rmin - (w.k - 1.0 - w.s) / w.rmin;
    double top = fmin(w.rmax, w.rmin + 60.0 / slope);
    long double Z = wref_moment(&w, 0, w.rmin, top);
    for (int m = 0; m <= 4; m++) {
        double ref = (double)(wref_moment(&w, m, w.rmin, top) / Z);
        CHECK_CLOSE(hg_psd_moment(p, m, 0.0, w.rmax), ref, 1e-11, 0.0);
    }
    /* fractions on levels inside the sliver that holds the mass */
    double edges[4] = {w.rmin, w.rmin + 0.5 / slope, w.rmin + 2.0 / slope,
                       w.rmin + 5.0 / slope};
    for (int i = 0; i < 3; i++) {
        double ref = (double)(wref_moment(&w, 0, edges[i], edges[i + 1]) / Z);
        CHECK_CLOSE(hg_psd_moment(p, 0, edges[i], edges[i + 1]), ref, 1e-9,
                    0.0);
    }
    /* quantile of the truncated law */
    double q = hg_psd_quantile(p, 0.5);
    CHECK_CLOSE(hg_psd_cdf(p, q), 0.5, 1e-9, 0.0);
    hg_psd_free(p);
}

static void test_weibull_tails(void)
{
    check_weibull_tail("weibull:scale=1,shape=4,rmin=29,rmax=32", 3,
                       (wref){1, 4, 0, 29, 32});
    check_weibull_tail("weibull:scale=1,shape=4,rmin=20,rmax=32", 3,
                       (wref){1, 4, 0, 20, 32});
    check_weibull_tail("rosin-rammler:x63=1,shape=8,rmin=3,rmax=4", 3,
                       (wref){1, 8, 3, 3, 4});
    check_weibull_tail(
        "weibull:scale=0.011,shape=4,rmin=0.1,rmax=2,basis=volume", 3,
        (wref){0.011, 4, 3, 0.1, 2});
    check_weibull_tail("rosin-rammler:x63=1,shape=8,rmin=3,rmax=4", 2,
                       (wref){1, 8, 2, 3, 4});
}

/* Item 1: a log-normal narrower than any representable z-step is a spike
 * at its median: half below, half above, never NaN. */
static void test_lognormal_degenerate(void)
{
    const char *specs[] = {"lognormal:median=2,sigma=1e-300,rmin=1,rmax=3",
                           "lognormal:median=2,sigma=1e-60,rmin=1,rmax=3",
                           "lognormal:median=2,sigma=1e-65,rmin=1,rmax=3",
                           "lognormal:median=2,sigma=1e-200,rmin=1,rmax=3",
                           ("lognormal:median=2,sigma=1e-300,rmin=1,rmax=3,"
                            "basis=volume")};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        hg_psd *p = hg_test_psd(specs[i], 3);
        CHECK(p != NULL);
        if (!p)
            continue;
        check_finite(p, specs[i], 0);
        CHECK_CLOSE(hg_psd_moment(p, 0, 0.0, 1.95), 0.0, 0.0, 1e-300);
        CHECK_CLOSE(hg_psd_moment(p, 0, 1.95, 2.0), 0.5, 1e-12, 0.0);
        CHECK_CLOSE(hg_psd_moment(p, 0, 2.0, 3.0), 0.5, 1e-12, 0.0);
        CHECK_CLOSE(hg_psd_mean_rk(p, 3), 8.0, 1e-12, 0.0);
        hg_psd_free(p);
    }
}

/* Issue 25 (fuzzing): a window wholly in one tail whose mass is narrower
 * than ln r resolves at the edge is refused with one message naming the
 * parameters; windows in a tail with resolvable mass are kept. */
static void test_tail_windows(void)
{
    const char *refused[] = {
        "lognormal:median=2e112,sigma=1e-65,rmin=1,rmax=6e84",
        "lognormal:median=1e-50,sigma=1e-20,rmin=1,rmax=2",
        "lognormal:median=1e10,sigma=1e-9,rmin=1,rmax=2",
        "lognormal:median=1e10,sigma=1e-9,rmin=1,rmax=2,basis=volume",
        "weibull:scale=1,shape=50,rmin=10,rmax=20",
        "weibull:scale=1,shape=1e10,rmin=0.99999995,rmax=0.99999999"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        hg_psd_ctx ctx = {3, NULL};
        hg_psd *p = NULL;
        hg_err e = {0};
        int st = hg_psd_parse(refused[i], &ctx, &p, &e);
        /* the message names the family's parameters and the window */
        const char *par = strstr(refused[i], "lognormal") ? "sigma"
                                                           : "shape";
        int named = strstr(e.msg, par) && strstr(e.msg, "window [") &&
                    !strchr(e.msg, '\n');
        if (st == HG_OK || !named)
            fprintf(stderr, "%s: status %d, '%s'\n", refused[i], st, e.msg);
        CHECK(st == HG_EINVAL && p == NULL);
        CHECK(named);
        hg_psd_free(p);
    }
    const char *kept[] = {"lognormal:median=2e112,sigma=1,rmin=1,rmax=6e60",
                          "lognormal:median=1e10,sigma=0.1,rmin=1,rmax=2",
                          "lognormal:median=1e-3,sigma=0.5,rmin=1,rmax=2",
                          "weibull:scale=1e-3,shape=1,rmin=10,rmax=20",
                          "weibull:scale=1,shape=60,rmin=0.5,rmax=0.9"};
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
        hg_psd *p = hg_test_psd(kept[i], 3);
        CHECK(p != NULL);
        if (!p)
            continue;
        check_finite(p, kept[i], 1);
        hg_psd_free(p);
    }
}

/* Item 4: fractions whose sum overflows are normalised. */
static void test_discrete_overflow(void)
{
    const char *specs[] = {"discrete:r=1;2,frac=1e308;1e308",
                           "discrete:r=1;2,frac=1e308;1e308,basis=volume",
                           "discrete:r=1e5;2e5,frac=1e-300;1e-300,basis=volume",
                           "discrete:r=1;2,frac=1e-320;3e-320"};
    const double p1[] = {0.5, 8.0 / 9.0, 8.0 / 9.0, 0.25};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        hg_psd *p = hg_test_psd(specs[i], 3);
        CHECK(p != NULL);
        if (!p)
            continue;
        check_finite(p, specs[i], 1);
        CHECK_CLOSE(hg_psd_moment(p, 0, 0.0, hg_psd_rmin(p)), p1[i], 1e-12,
                    0.0);
        hg_psd_free(p);
    }
}

int main(void)
{
    test_lognormal_degenerate();
    test_weibull_tails();
    test_discrete_overflow();
    test_tail_windows();
    return hg_test_summary("test_psd_tails");
}
