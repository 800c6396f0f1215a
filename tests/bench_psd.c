/* bench_psd.c - speed of the distribution families (label bench; prints
 * figures, asserts only correctness). Usage: bench_psd [n_sample]
 * (default 10^7 radii for the sample-file figures). */
#include "hgridopt.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const specs[] = {
    "powerlaw:alpha=-3,omega=100",
    "lognormal:median=1,sigma=0.5,qmin=0.001,qmax=0.999",
    "lognormal:median=1,sigma=0.5,qmin=0.001,qmax=0.999,basis=volume",
    "weibull:scale=1,shape=2,qmin=0.001,qmax=0.999",
    "rosin-rammler:x63=2,shape=1.5,qmin=0.001,qmax=0.999",
    "discrete:r=1;2;4,frac=1;1;1,basis=volume",
    "table:file=@ASTM,size=diameter,basis=mass",
};

static void bench_family(const char *spec0, const char *srcdir)
{
    char spec[2048];
    const char *at = strstr(spec0, "@ASTM");
    if (at)
        snprintf(spec, sizeof spec,
                 "%.*s%s/distributions/data/astm-c33-fine.csv%s",
                 (int)(at - spec0), spec0, srcdir, at + 5);
    else
        snprintf(spec, sizeof spec, "%s", spec0);
    hg_psd_ctx ctx = {3, NULL};
    hg_psd *p = NULL;
    hg_err e = {0};
    double t0 = hg_wall_seconds();
    int st = hg_psd_parse(spec, &ctx, &p, &e);
    double t1 = hg_wall_seconds();
    CHECK(st == HG_OK);
    if (st) {
        fprintf(stderr, "%s: %s\n", spec, e.msg);
        return;
    }
    const int n = 200000;
    double acc = 0.0, lo = hg_psd_rmin(p), hi = hg_psd_rmax(p);
    double t2 = hg_wall_seconds();
    for (int i = 0; i < n; i++) {
        double a = lo + (hi - lo) * (i % 97) / 97.0;
        acc += hg_psd_moment(p, i % 4, a, a + (hi - lo) * 0.1);
    }
    double t3 = hg_wall_seconds();
    for (int i = 0; i < n; i++)
        acc += hg_psd_quantile(p, (i + 0.5) / n);
    double t4 = hg_wall_seconds();
    CHECK(acc > 0.0);
    printf("%-66s create %8.3f ms  moment %7.3f us  quantile %7.3f us\n",
           spec0, 1e3 * (t1 - t0), 1e6 * (t3 - t2) / n, 1e6 * (t4 - t3) / n);
    hg_psd_free(p);
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 10000000;
    const char *src = getenv("HG_SOURCE_DIR");
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        bench_family(specs[i], src ? src : ".");

    hg_psd_ctx ctx = {3, NULL};
    hg_psd *pl = NULL;
    CHECK(hg_psd_parse("powerlaw:alpha=-3,omega=100", &ctx, &pl, NULL) ==
          HG_OK);
    double *r = malloc(n * sizeof *r);
    CHECK(pl && r);
    if (!pl || !r)
        return hg_test_summary("bench_psd");
    double t0 = hg_wall_seconds();
    CHECK(hg_psd_sample_systematic(pl, n, 1, r, NULL) == HG_OK);
    double t1 = hg_wall_seconds();
    char path[] = "/tmp/hg_bench_psd_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    CHECK(f != NULL);
    if (f) {
        for (size_t i = 0; i < n; i++)
            fprintf(f, "%.9g\n", r[i]);
        fclose(f);
    }
    double t2 = hg_wall_seconds();
    hg_psd *s = NULL;
    char spec[128];
    snprintf(spec, sizeof spec, "sample:file=%s", path);
    CHECK(hg_psd_parse(spec, &ctx, &s, NULL) == HG_OK);
    double t3 = hg_wall_seconds();
    hg_psd *m = NULL;
    CHECK(hg_psd_from_radii(r, n, 3, &m, NULL) == HG_OK);
    double t4 = hg_wall_seconds();
    double acc = 0.0;
    for (int i = 0; i < 100000; i++)
        acc += hg_psd_moment(m, 3, 1.0 + (i % 90), 2.0 + (i % 90));
    double t5 = hg_wall_seconds();
    CHECK(acc > 0.0);
    printf("sample of %zu radii: systematic sampling %.2f s, file "
           "%.2f s to write, %.2f s to load (sample family), "
           "hg_psd_from_radii %.2f s, moment %.3f us\n",
           n, t1 - t0, t2 - t1, t3 - t2, t4 - t3, 10.0 * (t5 - t4));
    remove(path);
    hg_psd_free(s);
    hg_psd_free(m);
    hg_psd_free(pl);
    free(r);
    return hg_test_summary("bench_psd");
}
