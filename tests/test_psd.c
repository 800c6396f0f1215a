/* test_psd.c - every registered distribution family against its own
 * definitions (normalisation, moments vs quadrature of the pdf, quantile vs
 * CDF), tabulated and sampled power laws against the power law's cost-model
 * work, and every rejected input. */
#include "hgridopt.h"
#include "testutil.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/hg_test_psd_XXXXXX";
static char srcdir[1024] = ".";

static void write_file(const char *name, const char *text)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs(text, f);
    fclose(f);
}

static void remove_file(const char *name)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    remove(path);
}

/* ---- quadrature of r^k pdf(r), independent of the families' moments */

typedef struct {
    const hg_psd *p;
    int k;
} qarg;

static double integrand(double r, void *v)
{
    const qarg *a = v;
    return pow(r, a->k) * hg_psd_pdf(a->p, r);
}

static double quad(const hg_psd *p, int k, double a, double b)
{
    if (a < hg_psd_rmin(p))
        a = hg_psd_rmin(p);
    if (b > hg_psd_rmax(p))
        b = hg_psd_rmax(p);
    if (!(a < b))
        return 0.0;
    gsl_integration_cquad_workspace *w =
        gsl_integration_cquad_workspace_alloc(1000);
    qarg arg = {p, k};
    gsl_function fn = {integrand, &arg};
    double res = NAN, err = 0;
    size_t nev = 0;
    int st = gsl_integration_cquad(&fn, a, b, 0.0, 1e-13, w, &res, &err,
                                   &nev);
    gsl_integration_cquad_workspace_free(w);
    if (st == GSL_SUCCESS && isfinite(res))
        return res;
    /* cquad may report divergence at jumps of the density (tables) */
    gsl_integration_workspace *ws = gsl_integration_workspace_alloc(4000);
    gsl_integration_qags(&fn, a, b, 0.0, 1e-13, 4000, ws, &res, &err);
    gsl_integration_workspace_free(ws);
    return res;
}

/* ---- the table of example specs looped over */

typedef struct {
    const char *spec;
    int dim;
} example;

static const example examples[] = {
    {"powerlaw:alpha=-3,omega=100", 3},
    {"powerlaw:alpha=-1,omega=50", 3},
    {"powerlaw:alpha=-4,omega=20", 3},
    {"powerlaw:alpha=-3,rmin=0.5,rmax=10", 2},
    {"powerlaw:alpha=2.5,rmin=1e-3,omega=5", 3},
    {"uniform-size:omega=10", 2},
    {"uniform-size:omega=10", 3},
    {"uniform-surface:rmin=0.5,rmax=5", 2},
    {"uniform-surface:rmin=0.5,rmax=5", 3},
    {"uniform-volume:omega=100", 2},
    {"uniform-volume:omega=100", 3},
    {"mono:r=0.5", 3},
    {"mono:d=2", 2},
    {"lognormal:median=1,sigma=0.4,qmin=0.001,qmax=0.999", 3},
    {"lognormal:median=1e-3,sigma=0.4,rmin=2e-4,rmax=5e-3", 3},
    {"lognormal:mu=0.7,sigma=0.5,rmin=0.5,rmax=8,basis=volume", 3},
    {"lognormal:median=4,sigma=0.6,qmin=0.01,rmax=20,basis=mass,"
     "size=diameter", 2},
    {"lognormal:median=1,sigma=0.1,rmin=2.5,rmax=3", 3},      /* right tail */
    {"lognormal:median=1,sigma=0.1,rmin=0.3,rmax=0.35", 3},   /* left tail */
    {"lognormal:median=1,sigma=0.05,rmin=10,rmax=11", 3},     /* z ~ 46 */
    {"weibull:scale=1,shape=2,qmin=0.001,qmax=0.999", 3},
    {"weibull:scale=1,shape=1.5,rmin=0.05,rmax=3,basis=volume", 3},
    {"weibull:scale=1,shape=1.5,rmin=0.05,rmax=3,basis=volume", 2},
    {"weibull:scale=2,shape=0.7,qmin=0.05,qmax=0.95,basis=volume", 3},
    {"rosin-rammler:x63=2,shape=3,size=diameter,qmin=0.01,qmax=0.99", 3},
    {"weibull:scale=1,shape=2,rmin=30,rmax=31", 3},   /* x ~ 900 */
    {"weibull:scale=1,shape=8,rmin=1e-3,rmax=0.1", 3}, /* x ~ 1e-24 */
    {"discrete:r=1;2.5,frac=0.7;0.3,basis=number", 3},
    {"discrete:d=4;1;2,frac=2;1;1,basis=volume", 2},
    {"discrete:r=0.5;1;2,frac=0;1;1", 3},
    {"table:file=@ASTM,size=diameter,basis=mass", 3},
    {"table:file=@ASTM,size=diameter,basis=mass", 2},
    {"table:file=astm-fraction.csv,size=diameter,basis=mass,kind=fraction",
     3},
    {"table:file=astm-fraction.csv,size=radius,basis=number,kind=fraction",
     2},
    {"table:file=gap.csv,size=radius,basis=number", 3},
    {"table:file=gap.csv,size=diameter,basis=volume", 3},
    {"sample:file=sample-small.csv,column=radius", 3},
    {"sample:file=sample-small.csv,column=2,size=diameter", 2},
};

/* Expand @ASTM to the shipped data file. */
static void expand(const char *spec, char *out, size_t len)
{
    const char *at = strstr(spec, "@ASTM");
    if (!at) {
        snprintf(out, len, "%s", spec);
        return;
    }
    snprintf(out, len, "%.*s%s/distributions/data/astm-c33-fine.csv%s",
             (int)(at - spec), spec, srcdir, at + 5);
}

static void check_family(const char *spec0, int dim)
{
    char spec[2048];
    expand(spec0, spec, sizeof spec);
    hg_psd *p = hg_test_psd_in(spec, dim, tmpdir);
    CHECK(p != NULL);
    if (!p)
        return;
    double lo = hg_psd_rmin(p), hi = hg_psd_rmax(p);
    int disc = hg_psd_is_discrete(p);
    CHECK(disc == hg_psd_family_of(p)->discrete);
    CHECK(lo > 0 && lo <= hi);
    CHECK_CLOSE(hg_psd_moment(p, 0, 0.0, hi), 1.0, 1e-12, 0.0);
    CHECK_CLOSE(hg_psd_cdf(p, hi), 1.0, 0.0, 0.0);
    CHECK(hg_psd_cdf(p, 0.999 * lo) == 0.0);
    /* additivity over a partition, and M_0 = CDF differences */
    for (int k = 0; k <= 4; k++) {
        double full = hg_psd_moment(p, k, 0.0, hi), sum = 0.0, prev = 0.0;
        for (int j = 1; j <= 7; j++) {
            double b = j == 7 ? hi : hg_psd_quantile(p, j / 7.0);
            sum += hg_psd_moment(p, k, prev, b);
            if (k == 0)
                CHECK_CLOSE(hg_psd_moment(p, 0, prev, b),
                            hg_psd_cdf(p, b) - hg_psd_cdf(p, prev), 1e-10,
                            1e-14);
            prev = b;
        }
        CHECK_CLOSE(sum, full, 1e-12, 0.0);
        CHECK(full >= pow(lo, k) * (1 - 1e-12) &&
              full <= pow(hi, k) * (1 + 1e-12));
    }
    CHECK(hg_psd_moment(p, 2, 0.7 * hi, 0.5 * hi) == 0.0);
    if (!disc && lo < hi) {
        /* closed-form moments vs quadrature of the pdf */
        double iv[][2] = {{0.0, 1.0},    {0.1, 0.35},    {0.5, 0.999},
                          {0.3, 0.3001}, {-1.0, 0.6},    {0.2, 2.0}};
        double worst = 0.0;
        for (size_t j = 0; j < sizeof iv / sizeof iv[0]; j++) {
            double a = iv[j][0] < 0 ? 0.5 * lo : hg_psd_quantile(p, iv[j][0]);
            double b = iv[j][1] > 1 ? 2.0 * hi : hg_psd_quantile(p, iv[j][1]);
            for (int k = 0; k <= 3; k++) {
                double m = hg_psd_moment(p, k, a, b), q = quad(p, k, a, b);
                /* plus the change of M_k when a or b moves by 1e-14
                 * relative: narrow intervals where the density is steep
                 * (far tails) are that ill-conditioned */
                double ca = a > lo ? pow(a, k + 1) * hg_psd_pdf(p, a) : 0;
                double cb = b < hi ? pow(b, k + 1) * hg_psd_pdf(p, b) : 0;
                CHECK_CLOSE(m, q, 1e-9, 1e-14 * (ca + cb));
                double rel = fabs(m - q) / fabs(q);
                if (rel > worst)
                    worst = rel;
            }
        }
        printf("  %-60s dim %d: max |moment/quadrature - 1| = %.2e\n", spec0,
               dim, worst);
        /* narrow intervals: M_k ~ m^k f(m) (b - a), m the midpoint.
         * Moments that are differences of CDF-like functions lose
         * eps / width, so 1e-7 relative width for all; the power
         * integrals (powerlaw, table) must also survive 1e-13, where the
         * rounding of the end points alone gives ~1e-3. */
        const char *fam = hg_psd_family_of(p)->name;
        int pow_int = strcmp(fam, "table") == 0 || strstr(fam, "uniform-") ||
                      strcmp(fam, "powerlaw") == 0;
        for (int w = 0; w <= pow_int; w++)
            for (int j = 1; j <= 3; j++) {
                double a = hg_psd_quantile(p, j / 4.0);
                double b = a * (1 + (w ? 1e-13 : 1e-7)), m = 0.5 * (a + b);
                for (int k = 0; k <= 3; k++)
                    CHECK_CLOSE(hg_psd_moment(p, k, a, b),
                                pow(m, k) * hg_psd_pdf(p, m) * (b - a),
                                w ? 1e-2 : 1e-6, 0.0);
            }
        /* quantile(CDF(r)) = r and CDF(quantile(u)) = u */
        for (int j = 1; j < 20; j++) {
            /* where the CDF is not flat to double precision */
            for (int g = 0; g < 2; g++) {
                double r = g ? lo * pow(hi / lo, j / 20.0)
                             : lo + (hi - lo) * j / 20.0;
                double c = hg_psd_cdf(p, r);
                if (c > 1e-9 && c < 1.0 - 1e-6 && hg_psd_pdf(p, r) > 0)
                    CHECK_CLOSE(hg_psd_quantile(p, c), r, 1e-9, 0.0);
            }
            double u = j / 20.0;
            CHECK_CLOSE(hg_psd_cdf(p, hg_psd_quantile(p, u)), u, 1e-10,
                        0.0);
        }
        CHECK(hg_psd_quantile(p, 0.0) == lo && hg_psd_quantile(p, 1.0) == hi);
        CHECK(isnan(hg_psd_pdf(p, lo)) == 0 && hg_psd_pdf(p, 0.5 * lo) == 0);
    } else {
        CHECK(isnan(hg_psd_pdf(p, lo)) || lo == hi);
        /* quantile = smallest size whose CDF reaches u */
        for (int j = 0; j <= 40; j++) {
            double u = j / 40.0, q = hg_psd_quantile(p, u);
            CHECK(q >= lo && q <= hi);
            CHECK(hg_psd_cdf(p, q) >= u - 1e-12);
            if (q > lo)
                CHECK(hg_psd_cdf(p, nextafter(q, 0.0)) < u);
        }
    }
    hg_psd_free(p);
}

/* ---- cost-model work of a tabulated and a sampled power law */

static double work(const hg_psd *p, int L)
{
    hg_system sys = {3, 0.7};
    double s[64], T = NAN;
    hg_work w = {NAN, NAN, NAN};
    double rmin = hg_psd_rmin(p), om = hg_psd_rmax(p) / rmin;
    for (int h = 1; h <= L; h++)
        s[h - 1] = 2.0 * rmin * pow(om, (double)h / L);
    s[L - 1] = 2.0 * hg_psd_rmax(p);
    hg_err e = {0};
    if (hg_cost_evaluate(hg_model_find("hgrid-top-down"), p, &sys, NULL, L, s,
                         NULL, &w, &e))
        fprintf(stderr, "cost: %s\n", e.msg);
    T = w.T;
    return T;
}

static void test_table_reproduces_powerlaw(void)
{
    hg_psd *pl = hg_test_psd_in("powerlaw:alpha=-3,omega=100", 3, tmpdir);
    CHECK(pl != NULL);
    if (!pl)
        return;
    char path[2048];
    snprintf(path, sizeof path, "%s/pl-table.csv", tmpdir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) {
        hg_psd_free(pl);
        return;
    }
    fprintf(f, "# power law alpha=-3 omega=100, number basis\nradius,F\n");
    for (int i = 0; i < 200; i++) {
        double r = i == 199 ? 100.0 : pow(100.0, i / 199.0);
        fprintf(f, "%.17g,%.17g\n", r, i == 0 ? 0.0 : hg_psd_cdf(pl, r));
    }
    fclose(f);
    hg_psd *tb = hg_test_psd_in(
        "table:file=pl-table.csv,size=radius,basis=number", 3, tmpdir);
    CHECK(tb != NULL);
    if (tb) {
        CHECK(hg_psd_rmin(tb) == 1.0 && hg_psd_rmax(tb) == 100.0);
        for (int L = 1; L <= 8; L += 7) {
            double Tp = work(pl, L), Tt = work(tb, L);
            printf("  table(200 rows) vs powerlaw, L=%d: T %.6f vs %.6f, "
                   "rel error %.2e\n",
                   L, Tt, Tp, fabs(Tt / Tp - 1));
            CHECK_CLOSE(Tt, Tp, 1e-3, 0.0);
        }
        hg_system sys = {3, 0.7};
        hg_cost a = {0}, b = {0};
        const hg_model *lc = hg_model_find("linked-cell");
        CHECK(hg_cost_evaluate(lc, pl, &sys, NULL, 1, NULL, &a, NULL, NULL) ==
              HG_OK);
        CHECK(hg_cost_evaluate(lc, tb, &sys, NULL, 1, NULL, &b, NULL, NULL) ==
              HG_OK);
        CHECK_CLOSE(b.T, a.T, 1e-3, 0.0);
        hg_cost_clear(&a);
        hg_cost_clear(&b);
    }
    hg_psd_free(tb);
    hg_psd_free(pl);
    remove_file("pl-table.csv");
}

static void test_sample_reproduces_powerlaw(void)
{
    hg_psd *pl = hg_test_psd_in("powerlaw:alpha=-3,omega=100", 3, tmpdir);
    CHECK(pl != NULL);
    if (!pl)
        return;
    const size_t n = 1000000;
    uint64_t seed = 20141104;
    double *r = malloc(n * sizeof *r);
    CHECK(r != NULL);
    if (!r) {
        hg_psd_free(pl);
        return;
    }
    printf("  sample test: systematic sample of %zu radii, seed %llu\n", n,
           (unsigned long long)seed);
    CHECK(hg_psd_sample_systematic(pl, n, seed, r, NULL) == HG_OK);
    char path[2048];
    snprintf(path, sizeof path, "%s/pl-sample.txt", tmpdir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fprintf(f, "# systematic sample of powerlaw:alpha=-3,omega=100\n");
        for (size_t i = 0; i < n; i++)
            fprintf(f, "%.17g\n", r[i]);
        fclose(f);
    }
    hg_psd *sf = hg_test_psd_in("sample:file=pl-sample.txt", 3, tmpdir);
    hg_psd *sm = NULL;
    CHECK(hg_psd_from_radii(r, n, 3, &sm, NULL) == HG_OK);
    CHECK(sf != NULL && sm != NULL);
    if (sf && sm) {
        for (int k = 0; k <= 4; k++)
            CHECK(hg_psd_moment(sf, k, 0, 1e9) == hg_psd_moment(sm, k, 0,
                                                                  1e9));
        for (int L = 1; L <= 8; L += 7) {
            double Tp = work(pl, L), Ts = work(sf, L);
            printf("  sample(1e6) vs powerlaw, L=%d: T %.6f vs %.6f, rel "
                   "error %.2e\n",
                   L, Ts, Tp, fabs(Ts / Tp - 1));
            CHECK_CLOSE(Ts, Tp, 1e-2, 0.0);
        }
    }
    /* i.i.d. draws for comparison: M_3 of this law has a large variance
     * (sd of the mean of r^3 about 3.6 % at n = 1e6), printed only. */
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, (unsigned long)seed);
    for (size_t i = 0; i < n; i++)
        r[i] = hg_psd_quantile(pl, gsl_rng_uniform(g));
    gsl_rng_free(g);
    hg_psd *si = NULL;
    CHECK(hg_psd_from_radii(r, n, 3, &si, NULL) == HG_OK);
    if (si)
        printf("  i.i.d. sample (seed %llu), L=8: T rel error %.2e (not "
               "asserted)\n",
               (unsigned long long)seed, fabs(work(si, 8) / work(pl, 8) - 1));
    hg_psd_free(si);
    hg_psd_free(sf);
    hg_psd_free(sm);
    hg_psd_free(pl);
    free(r);
    remove_file("pl-sample.txt");
}

/* lognormal with basis=volume is the number law with mu - d sigma^2 */
static void test_basis_conversion(void)
{
    hg_psd *v = hg_test_psd_in("lognormal:median=2,sigma=0.5,rmin=0.5,rmax=8,"
                     "basis=volume", 3, tmpdir);
    hg_psd *n = hg_test_psd_in( /* mu = ln 2 - 3 * 0.25 */
        "lognormal:mu=-0.0568528194400547,sigma=0.5,rmin=0.5,rmax=8", 3,
        tmpdir);
    CHECK(v && n);
    if (v && n)
        for (int k = 0; k <= 4; k++)
            CHECK_CLOSE(hg_psd_moment(v, k, 0.7, 3.0),
                        hg_psd_moment(n, k, 0.7, 3.0), 1e-12, 0.0);
    hg_psd_free(v);
    hg_psd_free(n);
    /* the volume-weighted CDF of a volume-basis law is the given law:
     * M_3(rmin, r) / M_3 = (G(r) - G(rmin)) / (G(rmax) - G(rmin)) */
    hg_psd *w = hg_test_psd_in(
        "weibull:scale=1,shape=2,rmin=0.1,rmax=2,basis=volume", 3, tmpdir);
    CHECK(w != NULL);
    if (w) {
        double G0 = -expm1(-0.01), G1 = -expm1(-4.0), Gr = -expm1(-1.0);
        CHECK_CLOSE(hg_psd_moment(w, 3, 0, 1.0) / hg_psd_mean_rk(w, 3),
                    (Gr - G0) / (G1 - G0), 1e-12, 0.0);
    }
    hg_psd_free(w);
    /* volume fractions of a bidisperse mixture */
    hg_psd *d =
        hg_test_psd_in("discrete:r=1;2,frac=0.5;0.5,basis=mass", 3, tmpdir);
    CHECK(d != NULL);
    if (d) {
        CHECK_CLOSE(hg_psd_cdf(d, 1.0), 8.0 / 9.0, 1e-15, 0.0);
        CHECK_CLOSE(hg_psd_moment(d, 3, 0, 1.5) / hg_psd_mean_rk(d, 3), 0.5,
                    1e-15, 0.0);
    }
    hg_psd_free(d);
    /* ASTM C33 mid-band: 5 % of the mass passes 0.15 mm */
    char spec[2048];
    expand("table:file=@ASTM,size=diameter,basis=mass", spec, sizeof spec);
    hg_psd *t = hg_test_psd_in(spec, 3, tmpdir);
    CHECK(t != NULL);
    if (t) {
        CHECK_CLOSE(hg_psd_rmin(t), 0.0375, 1e-15, 0.0);
        CHECK_CLOSE(hg_psd_rmax(t), 4.75, 1e-15, 0.0);
        CHECK_CLOSE(hg_psd_moment(t, 3, 0, 0.075) / hg_psd_mean_rk(t, 3),
                    0.05, 1e-12, 0.0);
        CHECK_CLOSE(hg_psd_moment(t, 3, 0, 0.59) / hg_psd_mean_rk(t, 3),
                    0.675, 1e-12, 0.0);
        /* number fraction of class i: (w_i / width_i) int r^-3 dr */
        const double e[] = {0.0375, 0.075, 0.15, 0.3, 0.59, 1.18, 2.375,
                            4.75};
        const double w[] = {5, 12.5, 25, 25, 22.5, 7.5, 2.5};
        double n[7], tot = 0.0;
        for (int i = 0; i < 7; i++) {
            n[i] = w[i] / (e[i + 1] - e[i]) *
                   (pow(e[i], -2) - pow(e[i + 1], -2)) / 2.0;
            tot += n[i];
        }
        CHECK_CLOSE(hg_psd_cdf(t, 0.075), n[0] / tot, 1e-12, 0.0);
        CHECK_CLOSE(hg_psd_cdf(t, 0.3), (n[0] + n[1] + n[2]) / tot, 1e-12,
                    0.0);
    }
    hg_psd_free(t);
}

/* qmin/qmax are quantiles of the untruncated law in the given basis */
static void test_windows(void)
{
    const char *basis[] = {"number", "volume"};
    for (int b = 0; b < 2; b++) {
        char spec[256];
        snprintf(spec, sizeof spec,
                 "lognormal:median=2,sigma=0.5,qmin=0.1,qmax=0.9,basis=%s",
                 basis[b]);
        hg_psd *p = hg_test_psd_in(spec, 3, tmpdir);
        CHECK(p != NULL);
        if (p) {
            CHECK_CLOSE(hg_psd_rmin(p), 2.0 * exp(-0.5 * 1.2815515655446004),
                        1e-12, 0.0);
            CHECK_CLOSE(hg_psd_rmax(p), 2.0 * exp(0.5 * 1.2815515655446004),
                        1e-12, 0.0);
        }
        hg_psd_free(p);
        snprintf(spec, sizeof spec,
                 "weibull:scale=3,shape=2,qmin=0.2,rmax=5,size=diameter,"
                 "basis=%s",
                 basis[b]);
        p = hg_test_psd_in(spec, 2, tmpdir);
        CHECK(p != NULL);
        if (p) {
            CHECK_CLOSE(hg_psd_rmin(p), 1.5 * sqrt(-log(0.8)), 1e-12, 0.0);
            CHECK_CLOSE(hg_psd_rmax(p), 2.5, 1e-15, 0.0);
        }
        hg_psd_free(p);
    }
    /* number basis: the truncated law's CDF is the renormalised one */
    hg_psd *p =
        hg_test_psd_in("weibull:scale=1,shape=2,rmin=0.5,rmax=2", 3, tmpdir);
    CHECK(p != NULL);
    if (p) {
        double G0 = -expm1(-0.25), G1 = -expm1(-4.0), G = -expm1(-1.0);
        CHECK_CLOSE(hg_psd_cdf(p, 1.0), (G - G0) / (G1 - G0), 1e-14, 0.0);
    }
    hg_psd_free(p);
    p = hg_test_psd_in("table:file=gap.csv,size=radius,basis=number", 3,
                       tmpdir);
    CHECK(p != NULL);
    if (p) {
        CHECK(hg_psd_rmin(p) == 1.0 && hg_psd_rmax(p) == 4.0);
        CHECK(hg_psd_pdf(p, 2.5) == 0.0);
        CHECK_CLOSE(hg_psd_cdf(p, 2.5), 0.4, 1e-15, 0.0);
        CHECK_CLOSE(hg_psd_quantile(p, 0.4 - 1e-12), 2.0, 1e-11, 0.0);
        CHECK_CLOSE(hg_psd_quantile(p, 0.4 + 1e-12), 3.0, 1e-11, 0.0);
        CHECK_CLOSE(hg_psd_quantile(p, 0.7), 3.5, 1e-15, 0.0);
    }
    hg_psd_free(p);
}

/* ---- rejected input */

typedef struct {
    const char *spec;
    int status;
    const char *must[3]; /* substrings of the message */
} reject;

static const reject rejects[] = {
    {"nosuch:x=1", HG_EUNKNOWN, {"nosuch", "lognormal"}},
    {"lognormal:median=1,sigma=0.4,qmin=0.01,qmax=0.99,foo=3", HG_EUNKNOWN,
     {"foo", "sigma"}},
    {"lognormal:median=1,sigma=0.4,rmin=2,rmax=1", HG_EINVAL,
     {"rmin", "2", "1"}},
    {"lognormal:median=1,sigma=0.4,rmin=1,rmax=1", HG_EINVAL, {"rmin", "1"}},
    {"lognormal:median=1,sigma=0,rmin=1,rmax=2", HG_EINVAL, {"sigma", "0"}},
    {"lognormal:median=1,sigma=-0.3,rmin=1,rmax=2", HG_EINVAL,
     {"sigma", "-0.3"}},
    {"lognormal:median=1,sigma=x,rmin=1,rmax=2", HG_EPARSE, {"sigma", "'x'"}},
    {"lognormal:median=-1,sigma=0.3,rmin=1,rmax=2", HG_EINVAL,
     {"median", "-1"}},
    {"lognormal:median=1,mu=0,sigma=0.3,rmin=1,rmax=2", HG_EINVAL,
     {"median", "mu"}},
    {"lognormal:sigma=0.3,rmin=1,rmax=2", HG_EINVAL, {"median", "mu"}},
    {"lognormal:median=1,sigma=0.3,rmax=2", HG_EINVAL, {"rmin", "qmin"}},
    {"lognormal:median=1,sigma=0.3,rmin=1,qmin=0.1,rmax=2", HG_EINVAL,
     {"rmin", "qmin"}},
    {"lognormal:median=1,sigma=0.3,qmin=1.5,qmax=0.9", HG_EINVAL,
     {"qmin", "1.5"}},
    {"lognormal:median=1,sigma=0.3,qmin=0,qmax=0.9", HG_EINVAL,
     {"qmin", "0"}},
    {"lognormal:median=1,sigma=0.3,qmin=0.1,qmax=1", HG_EINVAL,
     {"qmax", "1"}},
    {"lognormal:median=1,sigma=0.3,qmin=0.9,qmax=0.1", HG_EINVAL, {"rmin"}},
    {"lognormal:median=1,sigma=0.3,rmin=-1,rmax=2", HG_EINVAL,
     {"rmin", "-1"}},
    {"lognormal:median=1,sigma=0.3,rmin=1,rmax=2,basis=weight", HG_EINVAL,
     {"basis", "weight"}},
    {"lognormal:median=1,sigma=0.3,rmin=1,rmax=2,size=area", HG_EINVAL,
     {"size", "area"}},
    {"lognormal:median=1,sigma=1e-300,rmin=2,rmax=3", HG_ENUMERIC,
     {"window", "[2, 3]"}},
    {"weibull:scale=1,shape=0,qmin=0.1,qmax=0.9", HG_EINVAL, {"shape", "0"}},
    {"weibull:scale=1,shape=-2,qmin=0.1,qmax=0.9", HG_EINVAL,
     {"shape", "-2"}},
    {"weibull:scale=0,shape=2,qmin=0.1,qmax=0.9", HG_EINVAL, {"scale", "0"}},
    {"weibull:x63=-1,shape=2,qmin=0.1,qmax=0.9", HG_EINVAL, {"x63", "-1"}},
    {"weibull:scale=1,x63=1,shape=2,qmin=0.1,qmax=0.9", HG_EINVAL,
     {"scale", "x63"}},
    {"weibull:scale=1,qmin=0.1,qmax=0.9", HG_EINVAL, {"shape"}},
    {"weibull:scale=1,shape=2,rmin=3,rmax=0.5", HG_EINVAL,
     {"rmin", "3", "0.5"}},
    {"rosin-rammler:scale=1,shape=2,qmin=0.1,qmax=1.2", HG_EINVAL,
     {"qmax", "1.2"}},
    {"discrete:r=1;2,frac=0.5;-0.1", HG_EINVAL, {"frac", "-0.1"}},
    {"discrete:r=1;2,frac=0;0", HG_EINVAL, {"frac", "0"}},
    {"discrete:r=1;0,frac=1;1", HG_EINVAL, {"discrete r", "0"}},
    {"discrete:d=1;-2,frac=1;1", HG_EINVAL, {"discrete d", "-2"}},
    {"discrete:r=1;2;1,frac=1;1;1", HG_EINVAL, {"discrete r", "1", "twice"}},
    {"discrete:r=1;2,frac=1", HG_EINVAL, {"frac", "1 fractions", "2"}},
    {"discrete:r=1;x,frac=1;1", HG_EPARSE, {"discrete r", "'x'"}},
    {"discrete:r=1;2,frac=1;nan", HG_EPARSE, {"frac", "nan"}},
    {"discrete:r=1;2", HG_EINVAL, {"frac"}},
    {"discrete:r=1,d=2", HG_EINVAL, {"r=", "d="}},
    {"discrete:r=1;2,frac=1;1,basis=bulk", HG_EINVAL, {"basis", "bulk"}},
    {"table:file=nonexistent.csv,size=radius,basis=number", HG_EIO,
     {"nonexistent.csv"}},
    {"table:file=bad-number.csv,size=radius,basis=number", HG_EPARSE,
     {"bad-number.csv:4", "0.3x"}},
    {"table:file=bad-order.csv,size=radius,basis=number", HG_EINVAL,
     {"bad-order.csv:2", "0.5", "1"}},
    {"table:file=bad-equal.csv,size=radius,basis=number", HG_EINVAL,
     {"bad-equal.csv:3", "1"}},
    {"table:file=bad-decreasing.csv,size=radius,basis=number", HG_EINVAL,
     {"bad-decreasing.csv:4", "0.4", "0.6"}},
    {"table:file=bad-negative.csv,size=radius,basis=number,kind=fraction",
     HG_EINVAL, {"bad-negative.csv:3", "-0.2"}},
    {"table:file=bad-onerow.csv,size=radius,basis=number", HG_EPARSE,
     {"bad-onerow.csv", "1 data rows"}},
    {"table:file=bad-zero.csv,size=radius,basis=number,kind=fraction",
     HG_EINVAL, {"bad-zero.csv", "all fractions are 0"}},
    {"table:file=bad-first.csv,size=radius,basis=number", HG_EINVAL,
     {"bad-first.csv:1", "0.1"}},
    {"table:file=bad-last.csv,size=radius,basis=number", HG_EINVAL,
     {"bad-last.csv:3", "0.9"}},
    {"table:file=bad-size.csv,size=radius,basis=number", HG_EINVAL,
     {"bad-size.csv:1", "size 0"}},
    {"table:file=bad-cols.csv,size=radius,basis=number", HG_EPARSE,
     {"bad-cols.csv:2", "two columns"}},
    {"table:file=astm-fraction.csv,size=radius", HG_EINVAL, {"basis"}},
    {"table:file=astm-fraction.csv,basis=number", HG_EINVAL, {"size"}},
    {"table:size=radius,basis=number", HG_EINVAL, {"file"}},
    {"table:file=astm-fraction.csv,size=radius,basis=number,kind=pdf",
     HG_EINVAL, {"kind", "pdf"}},
    {"sample:file=nonexistent.txt", HG_EIO, {"nonexistent.txt"}},
    {"sample:file=empty.txt", HG_EINVAL, {"empty.txt", "empty"}},
    {"sample:file=bad-sample-number.txt", HG_EPARSE,
     {"bad-sample-number.txt:3", "1.2.3"}},
    {"sample:file=bad-sample-zero.txt", HG_EINVAL,
     {"bad-sample-zero.txt:4", "0"}},
    {"sample:file=bad-sample-neg.txt", HG_EINVAL,
     {"bad-sample-neg.txt:2", "-1.5"}},
    {"sample:file=bad-sample-nan.txt", HG_EPARSE,
     {"bad-sample-nan.txt:2", "nan"}},
    {"sample:file=sample-small.csv,column=volume", HG_EINVAL,
     {"column", "volume"}},
    {"sample:file=sample-small.csv,column=0", HG_EINVAL, {"column", "0"}},
    {"sample:file=sample-small.csv,column=5", HG_EPARSE,
     {"sample-small.csv:3", "column 5"}},
    {"sample:file=sample-small.csv,size=volume", HG_EINVAL,
     {"size", "volume"}},
    {"powerlaw:alpha=-3,omega=1", HG_EINVAL, {"omega", "1"}},
    {"powerlaw:alpha=-3,rmin=0,rmax=2", HG_EINVAL, {"rmin", "0"}},
    {"mono:r=-1", HG_EINVAL, {"r", "-1"}},
    {"", HG_EINVAL, {"empty"}},
    {"lognormal:median", HG_EPARSE, {"median", "key=value"}},
};

static void write_fixtures(void)
{
    write_file("astm-fraction.csv",
               "# ASTM C33 mid-band as class fractions (upper edges)\n"
               "size,percent\n0.075,0\n0.15,5\n0.3,12.5\n0.6,25\n1.18,25\n"
               "2.36,22.5\n4.75,7.5\n9.5,2.5\n");
    /* leading and trailing empty classes and an empty class inside */
    write_file("gap.csv", "0.5,0\n1,0\n2,0.4\n3,0.4\n4,1\n5,1\n");
    write_file("bom.txt", "\xef\xbb\xbf" "2.5\n1.5\n");
    write_file("bad-number.csv", "size,F\n0.1,0\n# comment\n0.3x,0.5\n"
                                 "1,1\n");
    write_file("bad-order.csv", "1,0\n0.5,0.5\n2,1\n");
    write_file("bad-equal.csv", "0.5,0\n1,0.5\n1,0.7\n2,1\n");
    write_file("bad-decreasing.csv", "size,F\n0.5,0\n1,0.6\n1.5,0.4\n2,1\n");
    write_file("bad-negative.csv", "0.5,0\n1,0.6\n1.5,-0.2\n2,1\n");
    write_file("bad-onerow.csv", "# only one\nsize,F\n1,0\n");
    write_file("bad-zero.csv", "0.5,0\n1,0\n2,0\n");
    write_file("bad-first.csv", "0.5,0.1\n1,0.5\n2,1\n");
    write_file("bad-last.csv", "0.5,0\n1,0.5\n2,0.9\n");
    write_file("bad-size.csv", "0,0\n1,0.5\n2,1\n");
    write_file("bad-cols.csv", "0.5,0\n1\n2,1\n");
    write_file("empty.txt", "# nothing here\n\nradius\n");
    write_file("bad-sample-number.txt", "1.0\n2.0\n1.2.3\n");
    write_file("bad-sample-zero.txt", "# r\n1.0\n2.0\n0\n");
    write_file("bad-sample-neg.txt", "1.0\n-1.5\n");
    write_file("bad-sample-nan.txt", "1.0\nnan\n");
    /* a small CSV sample: id, radius, label */
    char *buf = malloc(64 * 400 + 64);
    CHECK(buf != NULL);
    if (!buf)
        return;
    size_t len = (size_t)sprintf(buf, "# measured\nid,radius,label\n");
    for (int i = 0; i < 400; i++)
        len += (size_t)sprintf(buf + len, "%d, %.6f ,\"p%d\"\n", i,
                               1.0 + 3.0 * fmod(i * 0.618034, 1.0), i);
    write_file("sample-small.csv", buf);
    free(buf);
}

static const char *const fixtures[] = {
    "astm-fraction.csv", "gap.csv", "bom.txt", "bad-number.csv", "bad-order.csv",
    "bad-equal.csv", "bad-decreasing.csv", "bad-negative.csv",
    "bad-onerow.csv", "bad-zero.csv", "bad-first.csv", "bad-last.csv",
    "bad-size.csv", "bad-cols.csv", "empty.txt", "bad-sample-number.txt",
    "bad-sample-zero.txt", "bad-sample-neg.txt", "bad-sample-nan.txt",
    "sample-small.csv"};

static void test_rejects(void)
{
    for (size_t i = 0; i < sizeof rejects / sizeof rejects[0]; i++) {
        const reject *r = &rejects[i];
        hg_psd_ctx ctx = {3, tmpdir};
        hg_psd *p = NULL;
        hg_err e = {0};
        int st = hg_psd_parse(r->spec, &ctx, &p, &e);
        CHECK(st == r->status && p == NULL);
        int named = 1;
        for (int j = 0; j < 3 && r->must[j]; j++)
            named = named && strstr(e.msg, r->must[j]) != NULL;
        CHECK(named);
        if (st != r->status || !named)
            fprintf(stderr, "  reject '%s': status %d (want %d): %s\n",
                    r->spec, st, r->status, e.msg);
        hg_psd_free(p);
    }
    /* dim outside 2..3 */
    hg_psd_ctx bad = {4, NULL};
    hg_psd *p = NULL;
    hg_err e = {0};
    CHECK(hg_psd_parse("mono:r=1", &bad, &p, &e) == HG_EINVAL &&
          strstr(e.msg, "dim") && strstr(e.msg, "4"));
    /* hg_psd_from_radii */
    double ok[3] = {1, 2, 3}, bad1[3] = {1, NAN, 3}, bad2[2] = {1, -2};
    CHECK(hg_psd_from_radii(ok, 0, 3, &p, &e) == HG_EINVAL &&
          strstr(e.msg, "empty"));
    CHECK(hg_psd_from_radii(bad1, 3, 3, &p, &e) == HG_EINVAL &&
          strstr(e.msg, "radii[1]") && strstr(e.msg, "nan"));
    CHECK(hg_psd_from_radii(bad2, 2, 3, &p, &e) == HG_EINVAL &&
          strstr(e.msg, "radii[1]") && strstr(e.msg, "-2"));
    CHECK(hg_psd_from_radii(ok, 3, 4, &p, &e) == HG_EINVAL &&
          strstr(e.msg, "dim: 4"));
    CHECK(p == NULL);
    CHECK(hg_psd_from_radii(ok, 3, 2, &p, &e) == HG_OK && p &&
          hg_psd_dim(p) == 2);
    hg_psd_free(p);
    CHECK(hg_psd_from_radii(ok, 3, 3, &p, &e) == HG_OK && p &&
          hg_psd_dim(p) == 3);
    if (p) {
        CHECK_CLOSE(hg_psd_mean_rk(p, 1), 2.0, 1e-15, 0.0);
        CHECK_CLOSE(hg_psd_moment(p, 2, 1.0, 3.0), 13.0 / 3.0, 1e-15, 0.0);
        CHECK(hg_psd_quantile(p, 0.34) == 2.0 &&
              hg_psd_quantile(p, 1.0 / 3.0) == 1.0);
    }
    hg_psd_free(p);
    /* a UTF-8 byte-order mark does not hide the first value */
    hg_psd_ctx c3 = {3, tmpdir};
    CHECK(hg_psd_parse("sample:file=bom.txt", &c3, &p, &e) == HG_OK && p &&
          hg_psd_rmax(p) == 2.5 && hg_psd_rmin(p) == 1.5);
    hg_psd_free(p);
    /* order statistics of an unsorted sample spanning many exponents */
    double mix[9] = {3, 1, 2, 1e-3, 7, 1e5, 2, 0.5, 4e-7};
    const double sorted[9] = {4e-7, 1e-3, 0.5, 1, 2, 2, 3, 7, 1e5};
    CHECK(hg_psd_from_radii(mix, 9, 3, &p, &e) == HG_OK && p);
    for (int i = 0; p && i < 9; i++)
        CHECK(hg_psd_quantile(p, (i + 0.5) / 9.0) == sorted[i]);
    CHECK(mix[0] == 3 && mix[8] == 4e-7); /* the input is copied */
    hg_psd_free(p);
}

/* help strings document every accepted key */
static void test_help(void)
{
    for (size_t i = 0; i < hg_psd_family_count(); i++) {
        const hg_psd_family *f = hg_psd_family_at(i);
        CHECK(f->help && strlen(f->help) > 20);
        CHECK(hg_psd_family_find(f->name) == f);
        CHECK(f->discrete == (f->pdf == NULL));
        for (size_t k = 0; f->keys && f->keys[k]; k++) {
            char pat[64];
            snprintf(pat, sizeof pat, "%s=", f->keys[k]);
            int found = strstr(f->help, pat) != NULL;
            CHECK(found);
            if (!found)
                fprintf(stderr, "  help of %s lacks '%s'\n", f->name, pat);
        }
    }
    const char *need[] = {"powerlaw", "uniform-size", "uniform-surface",
                          "uniform-volume", "mono", "lognormal", "weibull",
                          "rosin-rammler", "discrete", "table", "sample"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        CHECK(hg_psd_family_find(need[i]) != NULL);
}

int main(void)
{
    const char *src = getenv("HG_SOURCE_DIR");
    if (src) {
        snprintf(srcdir, sizeof srcdir, "%s", src);
    } else { /* run by hand: the source tree from this file's path */
        snprintf(srcdir, sizeof srcdir, "%s", __FILE__);
        char *t = strstr(srcdir, "/tests/test_psd.c");
        if (t)
            *t = '\0';
    }
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    gsl_set_error_handler_off();
    write_fixtures();
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        int before = hg_test_failures;
        check_family(examples[i].spec, examples[i].dim);
        if (hg_test_failures > before)
            fprintf(stderr, "  ^ failures above: '%s' in %dD\n",
                    examples[i].spec, examples[i].dim);
    }
    test_basis_conversion();
    test_windows();
    test_table_reproduces_powerlaw();
    test_sample_reproduces_powerlaw();
    test_rejects();
    test_help();
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++)
        remove_file(fixtures[i]);
    rmdir(tmpdir);
    return hg_test_summary("test_psd");
}
