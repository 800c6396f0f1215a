/* bench_recommend.c - time of a full recommendation (both algorithms,
 * optimal sizes, L = 1..32) per distribution, and a comparison of NLopt
 * algorithms on the reference case of KOL 2014 section 5. Prints figures;
 * asserts nothing about time.
 * Usage: bench_recommend [repeats] [extra psd specs...] */
#include "hgridopt.h"
#include "opt_internal.h"

#include <math.h>
#include <nlopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bench_psd(const char *label, hg_psd *p, int dim, double nu,
                      double K, int reps)
{
    hg_system sys = {dim, nu};
    hg_model_values kv = {0};
    hg_model_values_set(&kv, "K", K, NULL);
    hg_recommend_options o;
    hg_recommend_options_default(&o);
    double best = HUGE_VAL, sum = 0.0;
    hg_recommendation r;
    hg_err e = {0};
    for (int i = 0; i < reps; i++) {
        double t0 = hg_wall_seconds();
        int st = hg_recommend(p, &sys, &kv, &o, &r, &e);
        double dt = hg_wall_seconds() - t0;
        if (st) {
            printf("%-28s failed: %s\n", label, e.msg);
            return;
        }
        best = fmin(best, dt);
        sum += dt;
        if (i + 1 < reps)
            hg_recommendation_clear(&r);
    }
    printf("%-28s recommend: min %7.2f ms, mean %7.2f ms | %s, %d levels, "
           "T = %.7g; best %d levels T = %.7g; speed-up %.4g\n",
           label, 1e3 * best, 1e3 * sum / reps,
           r.model->name, r.levels, r.cost.T,
           r.best_levels, r.best_T, r.speedup);
    hg_recommendation_clear(&r);
}

static void compare_nlopt(void)
{
    hg_psd_ctx ctx = {3, NULL};
    hg_psd *p = NULL;
    hg_psd_parse("powerlaw:alpha=-3,omega=100", &ctx, &p, NULL);
    hg_system sys = {3, 0.7};
    const struct {
        const char *name;
        int algo;
    } algos[] = {{"LD_LBFGS", NLOPT_LD_LBFGS},
                 {"LD_SLSQP", NLOPT_LD_SLSQP},
                 {"LD_MMA", NLOPT_LD_MMA},
                 {"LD_CCSAQ", NLOPT_LD_CCSAQ},
                 {"LD_TNEWTON_PRECOND_RESTART",
                  NLOPT_LD_TNEWTON_PRECOND_RESTART},
                 {"LN_SBPLX", NLOPT_LN_SBPLX},
                 {"LN_BOBYQA", NLOPT_LN_BOBYQA}};
    printf("\nNLopt algorithms on alpha=-3, omega=100, nu=0.7, K=0.2, 3D, "
           "top-down;\nstarts: exponential and constant-m (q=1), "
           "L = 2..12, log-ratio parametrisation\n");
    printf("%-28s %10s %10s %14s %14s\n", "algorithm", "evals", "ms",
           "T(L=9)", "min_L T(L)");
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
        long ev = 0;
        double t0 = hg_wall_seconds(), T9 = NAN, Tmin = HUGE_VAL;
        for (int L = 2; L <= 12; L++) {
            double ex[12], cm[12], s[12], T;
            hg_sizes_exponential(p, L, ex, NULL);
            hg_sizes_constant_m(p, 3, L, 1.0, cm, NULL);
            const double *starts[2] = {ex, cm};
            if (hg_opt_sizes_with(hg_model_find("hgrid-top-down"), p, &sys,
                                  NULL, L, starts, 2, algos[a].algo, s, &T,
                                  &ev, NULL))
                continue;
            if (L == 9)
                T9 = T;
            Tmin = fmin(Tmin, T);
        }
        printf("%-28s %10ld %10.2f %14.8f %14.8f\n", algos[a].name, ev,
               1e3 * (hg_wall_seconds() - t0), T9, Tmin);
    }
    hg_psd_free(p);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 5;
    if (reps < 1)
        reps = 1;
    const struct {
        const char *spec;
        int dim;
        double nu, K;
    } cases[] = {
        {"powerlaw:alpha=-3,omega=100", 3, 0.7, 0.2},
        {"powerlaw:alpha=-3,omega=20", 2, 0.4, 0.2},
        {"powerlaw:alpha=0,omega=10", 3, 0.6, 0.3},
    };
    printf("full recommend: both algorithms, optimal method, L = 1..32\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hg_psd_ctx ctx = {cases[i].dim, NULL};
        hg_psd *p = NULL;
        hg_err e = {0};
        if (hg_psd_parse(cases[i].spec, &ctx, &p, &e)) {
            printf("%-28s skipped: %s\n", cases[i].spec, e.msg);
            continue;
        }
        bench_psd(cases[i].spec, p, cases[i].dim, cases[i].nu, cases[i].K,
                  reps);
        hg_psd_free(p);
    }
    /* log-normal; a 200-row table and a 10^6-radius sample drawn from it */
    hg_psd_ctx ctx3 = {3, NULL};
    hg_psd *ln = NULL;
    hg_err e = {0};
    const char *ln_spec = "lognormal:median=1,sigma=0.6,qmin=1e-4,qmax=0.9999";
    if (hg_psd_parse(ln_spec, &ctx3, &ln, &e)) {
        printf("%-28s skipped: %s\n", "lognormal", e.msg);
    } else {
        bench_psd("lognormal sigma=0.6", ln, 3, 0.6, 0.2, reps);
        char path[] = "/tmp/hg_bench_table_XXXXXX";
        int fd = mkstemp(path);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (f) {
            double lo = hg_psd_rmin(ln), hi = hg_psd_rmax(ln);
            fprintf(f, "radius,passing\n");
            for (int i = 0; i < 200; i++) {
                double r = lo * pow(hi / lo, i / 199.0);
                fprintf(f, "%.12g,%.12g\n", r,
                        i == 0 ? 0.0 : (i == 199 ? 1.0 : hg_psd_cdf(ln, r)));
            }
            fclose(f);
            char spec[256];
            snprintf(spec, sizeof spec,
                     "table:file=%s,size=radius,basis=number", path);
            hg_psd *tb = NULL;
            if (hg_psd_parse(spec, &ctx3, &tb, &e))
                printf("%-28s skipped: %s\n", "table (200 rows)", e.msg);
            else
                bench_psd("table (200 rows)", tb, 3, 0.6, 0.2, reps);
            hg_psd_free(tb);
            remove(path);
        }
        size_t n = 1000000;
        double *r = malloc(sizeof *r * n);
        hg_psd *sp = NULL;
        if (r && !hg_psd_sample_systematic(ln, n, 42, r, &e) &&
            !hg_psd_from_radii(r, n, 3, &sp, &e)) {
            double t0 = hg_wall_seconds();
            hg_psd_free(sp);
            hg_psd_from_radii(r, n, 3, &sp, &e);
            printf("%-28s (creating it from 10^6 radii: %.1f ms)\n",
                   "sample", 1e3 * (hg_wall_seconds() - t0));
            bench_psd("sample (10^6 radii, seed 42)", sp, 3, 0.6, 0.2,
                      reps);
        } else {
            printf("%-28s skipped: %s\n", "sample", e.msg);
        }
        hg_psd_free(sp);
        free(r);
    }
    hg_psd_free(ln);
    for (int i = 2; i < argc; i++) { /* extra specs, 3D, nu 0.6, K 0.2 */
        hg_psd_ctx ctx = {3, NULL};
        hg_psd *p = NULL;
        hg_err e = {0};
        if (hg_psd_parse(argv[i], &ctx, &p, &e)) {
            printf("%-28s skipped: %s\n", argv[i], e.msg);
            continue;
        }
        bench_psd(argv[i], p, 3, 0.6, 0.2, reps);
        hg_psd_free(p);
    }
    compare_nlopt();
    return 0;
}
