/* bench_tables.c - benchmark (label bench): what the bundled HGrid's
 * tables cost, the measurement behind the shipped C (hg_C_shipped).
 *
 *   bench_tables FILE [repeats [K,K,...]]
 *
 * On the packing FILE (its radii are the distribution, its box density
 * nu, random centres assumed by the model, as `tune --structure poisson`)
 * it times the rebuild plus detection of a set of grids: one level; for
 * both algorithms and L = 2..5 the model's optimum with C = 0, the optimum
 * with the shipped C and exponential sizes (duplicates dropped), and with
 * a list of K the optima for each of those K (shipped C). Grids are
 * alternated within each repeat; a grid's time is a paired median (the
 * first grid's median times the median of its ratio to the first, per
 * repeat), in ns per particle. Printed per grid: the model's T_cd,
 * T_ca and T_tab (shipped K) and the time; then
 *   fit: the least-squares c of time = a (T_cd + K T_ca) + c T_tab + b
 *        (ns per table cell) and C = c / a (pair checks per table cell),
 *        over the grids whose levels are stored as cells (not "blocks":
 *        a level of more than 8 cells per particle is stored in blocks of
 *        cells, whose cost T_tab does not describe);
 *   pick C=x: the measured time of the grid the model ranks cheapest with
 *        that C over the fastest measured (1 = the model picks the best);
 *   pick K=x: the same with that K and the shipped C (the list's K and the
 *        shipped one).
 * tests/bench_tables.sh runs it on the eight systems of bench_hgrid_tune. */
#include "hgridopt.h"

#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXG = 96, MAXL = 8, MAXR = 201, MAXK = 8 };

typedef struct grid {
    hg_algorithm alg;
    int L;
    double s[MAXL];
    double Tcd, Tca, Ttab; /* the model's, per particle */
    int blocked;           /* a level beyond the grid's dense budget */
    double t[MAXR];        /* seconds of rebuild + detection per repeat */
    double ns;             /* paired median, ns per particle */
} grid;

static int die(const char *what, const hg_err *e)
{
    fprintf(stderr, "bench_tables: %s: %s\n", what, e->msg);
    return 1;
}

static const hg_model *model_of(hg_algorithm a)
{
    return hg_model_find(a == HG_BOTTOM_UP ? "hgrid-bottom-up"
                                           : "hgrid-top-down");
}

/* Add g (its model terms evaluated) unless it is already listed. */
static void add(grid *gs, int *n, grid g, const hg_psd *psd,
                const hg_system *sys, const hg_model_values *v)
{
    if (*n >= MAXG)
        return;
    for (int i = 0; i < *n; i++) {
        int same = gs[i].alg == g.alg && gs[i].L == g.L;
        for (int h = 0; same && h < g.L; h++)
            same = fabs(gs[i].s[h] - g.s[h]) <= 1e-9 * g.s[h];
        if (same)
            return;
    }
    hg_cost c = {0};
    hg_err e = {0};
    if (hg_cost_evaluate(model_of(g.alg), psd, sys, v, g.L, g.s, &c, NULL,
                         &e)) {
        fprintf(stderr, "bench_tables: grid skipped: %s\n", e.msg);
        return;
    }
    g.Tcd = c.T_cd;
    g.Tca = c.T_ca;
    g.Ttab = c.T_tab;
    /* the grid stores a level of more than 8 cells per particle in blocks
     * of cells (src/grid/build.c): its table is not T_tab's */
    for (int h = 0; h < c.levels; h++)
        g.blocked |= c.per_level[h].T_tab > 8.0;
    hg_cost_clear(&c);
    gs[(*n)++] = g;
}

/* For both algorithms and L = 2..5: exponential sizes and the model's
 * optimum under opt (from them), the model terms evaluated under v. */
static void add_optima(grid *gs, int *n, const hg_psd *psd,
                       const hg_system *sys, const hg_model_values *v,
                       const hg_model_values *opt)
{
    hg_err e = {0};
    for (int a = 0; a < 2; a++)
        for (int L = 2; L <= 5; L++) {
            double start[MAXL], T;
            grid g = {0};
            g.alg = a ? HG_BOTTOM_UP : HG_TOP_DOWN;
            g.L = L;
            if (hg_sizes_exponential(psd, L, start, &e))
                continue;
            memcpy(g.s, start, sizeof start[0] * (size_t)L);
            add(gs, n, g, psd, sys, v);
            if (!hg_opt_sizes(model_of(g.alg), psd, sys, opt, L, start, g.s,
                              &T, &e))
                add(gs, n, g, psd, sys, v);
        }
}

/* The measured time of the grid the model ranks cheapest with K and C
 * over the fastest's, as "pick NAME=VALUE: ratio (grid)". */
static void print_pick(const grid *gs, int n, int best, const char *name,
                       double value, double K, double C)
{
    int pick = 0;
    double Tp = INFINITY;
    for (int i = 0; i < n; i++) {
        double T = gs[i].Tcd + K * gs[i].Tca + C * gs[i].Ttab;
        if (T < Tp) {
            Tp = T;
            pick = i;
        }
    }
    printf("pick %s=%.2f: %.3f (%s, %d level%s)\n", name, value,
           gs[pick].ns / gs[best].ns,
           gs[pick].alg == HG_BOTTOM_UP ? "bottom-up" : "top-down",
           gs[pick].L, gs[pick].L == 1 ? "" : "s");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_tables FILE [repeats [K,K,...]]\n");
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 41;
    if (reps < 3 || reps > MAXR)
        reps = 41;
    hg_err e = {0};
    hg_particles p = {0};
    hg_psd *psd = NULL;
    if (hg_io_read(argv[1], HG_IO_AUTO, &p, &e))
        return die(argv[1], &e);
    if (hg_psd_from_radii(p.r, p.n, p.dim, &psd, &e))
        return die("radii", &e);
    hg_system sys = {p.dim, hg_particles_packing_fraction(&p)};
    const double K = hg_K_shipped(p.dim, NULL), C = hg_C_shipped(p.dim, NULL);
    hg_model_values v0 = {0}, vc;
    if (hg_model_values_set(&v0, "K", K, &e))
        return die("K", &e);
    vc = v0;
    if (hg_model_values_set(&vc, "C", C, &e))
        return die("C", &e);
    static grid gs[MAXG];
    int n = 0;
    grid g = {0};
    g.alg = HG_TOP_DOWN;
    g.L = 1;
    g.s[0] = 2.0 * hg_psd_rmax(psd);
    add(gs, &n, g, psd, &sys, &vc);
    /* exponential sizes and the optima with C = 0 and with C */
    add_optima(gs, &n, psd, &sys, &vc, &v0);
    add_optima(gs, &n, psd, &sys, &vc, &vc);
    /* the optima for the listed K (shipped C) */
    double Ks[MAXK];
    int nK = 0;
    Ks[nK++] = K;
    for (char *q = argc > 3 ? argv[3] : NULL, *end; q && *q && nK < MAXK;
         q = *end == ',' ? end + 1 : end) {
        double k = strtod(q, &end);
        if (end == q || !(k > 0.0)) {
            fprintf(stderr, "bench_tables: K list: '%s' is not a K > 0\n",
                    q);
            return 2;
        }
        Ks[nK++] = k;
    }
    for (int k = 1; k < nK; k++) {
        hg_model_values vk = {0};
        if (hg_model_values_set(&vk, "K", Ks[k], &e) ||
            hg_model_values_set(&vk, "C", C, &e))
            return die("K", &e);
        add_optima(gs, &n, psd, &sys, &vc, &vk);
    }
    hg_grid *grids[MAXG] = {0};
    hg_pairs pairs = {0};
    for (int i = 0; i < n; i++) /* the first build (allocation) untimed */
        if (hg_grid_create(p.dim, gs[i].L, gs[i].s, gs[i].alg, &grids[i],
                           &e) ||
            hg_grid_build(grids[i], &p, &e) ||
            hg_grid_find_contacts(grids[i], &pairs, NULL, &e))
            return die("grid", &e);
    for (int r = 0; r < reps; r++)
        for (int j = 0; j < n; j++) {
            int i = (j + r) % n;
            double t0 = hg_wall_seconds();
            if (hg_grid_build(grids[i], &p, &e) ||
                hg_grid_find_contacts(grids[i], &pairs, NULL, &e))
                return die("grid", &e);
            gs[i].t[r] = hg_wall_seconds() - t0;
        }
    double v[MAXR];
    for (int r = 0; r < reps; r++)
        v[r] = gs[0].t[r];
    qsort(v, (size_t)reps, sizeof v[0], hg_cmp_double);
    double base = v[reps / 2];
    int best = 0;
    for (int i = 0; i < n; i++) {
        for (int r = 0; r < reps; r++)
            v[r] = gs[i].t[r] / gs[0].t[r];
        qsort(v, (size_t)reps, sizeof v[0], hg_cmp_double);
        gs[i].ns = 1e9 * base * v[reps / 2] / (double)p.n;
        if (gs[i].ns < gs[best].ns)
            best = i;
    }
    printf("%s: N = %zu, dim %d, nu %.3g, K = %g, %d grids, %d repeats\n",
           argv[1], p.n, p.dim, sys.nu, K, n, reps);
    printf("%-10s %2s %9s %9s %9s %10s  %s\n", "algorithm", "L", "T_cd",
           "T_ca", "T_tab", "ns/part.", "sizes");
    for (int i = 0; i < n; i++) {
        printf("%-10s %2d %9.4g %9.4g %9.4g %10.2f ",
               gs[i].alg == HG_BOTTOM_UP ? "bottom-up" : "top-down", gs[i].L,
               gs[i].Tcd, gs[i].Tca, gs[i].Ttab, gs[i].ns);
        for (int h = 0; h < gs[i].L; h++)
            printf("%s%.6g", h ? "," : " ", gs[i].s[h]);
        printf("%s%s\n", gs[i].blocked ? "  (blocks)" : "",
               i == best ? "  <- fastest" : "");
    }
    /* fit: ns = a (T_cd + K T_ca) + c T_tab + b, weights 1 / ns^2 */
    gsl_matrix *X = gsl_matrix_alloc((size_t)n, 3);
    gsl_vector *y = gsl_vector_alloc((size_t)n), *w = gsl_vector_alloc(
                                                      (size_t)n),
               *cf = gsl_vector_alloc(3);
    gsl_matrix *cov = gsl_matrix_alloc(3, 3);
    gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc((size_t)n,
                                                                  3);
    if (!X || !y || !w || !cf || !cov || !ws) {
        fprintf(stderr, "bench_tables: out of memory\n");
        return 1;
    }
    int nf = 0;
    for (int i = 0; i < n; i++) { /* grids stored as T_tab says */
        gsl_matrix_set(X, (size_t)i, 0, gs[i].Tcd + K * gs[i].Tca);
        gsl_matrix_set(X, (size_t)i, 1, gs[i].Ttab);
        gsl_matrix_set(X, (size_t)i, 2, 1.0);
        gsl_vector_set(y, (size_t)i, gs[i].ns);
        gsl_vector_set(w, (size_t)i,
                       gs[i].blocked ? 0.0 : 1.0 / (gs[i].ns * gs[i].ns));
        nf += !gs[i].blocked;
    }
    double chi2;
    if (nf >= 4 && !gsl_multifit_wlinear(X, w, y, cf, cov, &chi2, ws))
        printf("fit: a = %.3g ns per pair check, c = %.3g ns per table "
               "cell, C = c / a = %.3g\n",
               gsl_vector_get(cf, 0), gsl_vector_get(cf, 1),
               gsl_vector_get(cf, 1) / gsl_vector_get(cf, 0));
    else
        printf("fit: too few grids\n");
    gsl_multifit_linear_free(ws);
    gsl_matrix_free(X);
    gsl_matrix_free(cov);
    gsl_vector_free(y);
    gsl_vector_free(w);
    gsl_vector_free(cf);
    static const double Cs[] = {0.0, 0.25, 0.5, 0.75, 1.0};
    for (size_t k = 0; k < sizeof Cs / sizeof Cs[0]; k++)
        print_pick(gs, n, best, "C", Cs[k], K, Cs[k]);
    for (int k = 0; nK > 1 && k < nK; k++)
        print_pick(gs, n, best, "K", Ks[k], Ks[k], C);
    for (int i = 0; i < n; i++)
        hg_grid_free(grids[i]);
    hg_pairs_clear(&pairs);
    hg_particles_clear(&p);
    hg_psd_free(psd);
    return 0;
}
