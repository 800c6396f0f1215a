/* bench_grid.c - speed of the bundled HGrid (prints figures; label bench).
 *
 *  1. N = 10^6, 3D, power law alpha = -3, omega = 100, nu = 0.6, Poisson:
 *     detection with the recommended sizes vs the linked cell (timed on a
 *     random subset, extrapolated) and vs a monodisperse linked cell at the
 *     same N and nu;
 *  2. time per particle for N = 10^4 .. max_n (default 10^7), the
 *     detections of all N alternated round after round (medians), and
 *     the slowest over the fastest;
 *  3. memory: grid bytes per particle and the peak resident set.
 *
 * Usage: bench_grid [max_n [repeats [K]]]: repeats default 5; K (default
 *        0.2) is the cost ratio the recommendation optimises for (e.g.
 *        from `hgridopt calibrate`).
 *        bench_grid build [N [repeats [K]]]: mapping (build) against
 *        detection time of the grids recommended for K (default 0.2;
 *        "shipped": the shipped default of each dimension) (3D alpha -3
 *        omega 100 nu 0.6, 2D alpha -3 omega 20 nu 0.4; default
 *        N = 10^6), dense and hashed
 *        levels, one thread and all threads: first build, rebuild of the
 *        same particles, rebuild after small displacements, detection;
 *        medians with min-max over the repeats (default 7) of the
 *        process CPU time (robust on a shared machine).
 *        bench_grid simd [N [repeats]]: the 3D pair loop, scalar against
 *        AVX2 (where the processor has it), detections alternated (the
 *        order swapped every round; default N = 2*10^5, 21 rounds), with
 *        the grid recommended for the shipped K: a periodic Poisson
 *        packing (alpha -3, omega 100, nu 0.6) and a dense packing with
 *        walls (alpha -3, omega 20, nu 0.55, contact distance 0.1, as in
 *        the peer benchmark) and a periodic Poisson packing of uniform
 *        radii (omega 10, nu 0.3); medians of the CPU times and
 *        quartiles of the rounds' ratios; the pair sets must agree.
 * Build type Release for real figures. */
#include "grid_internal.h"
#include "hg_calib.h"
#include "hg_grid.h"
#include "hg_pack_gen.h"
#include "hg_opt.h"
#include "hg_pack.h"
#include "hg_validate.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#ifdef HG_HAVE_OPENMP
#include <omp.h>
#endif

static double peak_rss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0; /* Linux: kilobytes */
}

/* Median, min and max of v[0..n-1] (sorts v). */
static void stats(double *v, int n, double *med, double *mn, double *mx)
{
    qsort(v, (size_t)n, sizeof *v, hg_cmp_double);
    *med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    *mn = v[0];
    *mx = v[n - 1];
}

/* The distribution of spec (*psd, the caller frees it) and the grid
 * recommended for it at packing fraction nu and cost ratio K (*rec). */
static int recommend_for(const char *spec, int dim, double nu, double K,
                         hg_psd **psd, hg_recommendation *rec, hg_err *e)
{
    hg_psd_ctx ctx = {dim, NULL};
    hg_system sys = {dim, nu};
    hg_model_values kv = {0};
    hg_recommend_options ro;
    hg_recommend_options_default(&ro);
    int st = hg_psd_parse(spec, &ctx, psd, e);
    if (!st)
        st = hg_model_values_set(&kv, "K", K, e);
    if (!st)
        st = hg_recommend(*psd, &sys, &kv, &ro, rec, e);
    return st;
}

/* Build against detection for one system (section "build"). */
static int bench_build_case(const char *spec, int dim, double nu, size_t n,
                            int repeats, double K)
{
    hg_err e = {0};
    hg_psd *psd = NULL;
    hg_recommendation rec = {0};
    if (!(K > 0.0)) /* the shipped default */
        K = hg_K_shipped(dim, NULL);
    if (recommend_for(spec, dim, nu, K, &psd, &rec, &e))
        return hg_test_die("bench_grid", "recommend", &e);
    const hg_algorithm alg = rec.model->grid_algorithm;
    hg_pack_params pp = {dim, n, nu, 7, 1};
    hg_particles p = {0}, q = {0};
    if (hg_pack_poisson(psd, &pp, &p, &e))
        return hg_test_die("bench_grid", "pack", &e);
    double *rs = malloc((size_t)rec.levels * sizeof *rs);
    if (!rs || hg_pack_round_sizes(p.hi[0], rec.levels, rec.cell_sizes, rs,
                                   &e))
        return hg_test_die("bench_grid", "round", &e);
    /* q: p moved by up to 2 % of r_min on every axis (wrapped) */
    hg_test_displace(&p, &q, 0.02, 12345);
    printf("\n%s, %dD, nu = %g, N = %zu, sizes for K = %g: %s, %d levels\n",
           spec, dim, nu, n, K, hg_algorithm_name(alg), rec.levels);
    printf("%-6s %7s %16s %22s %22s %22s %12s\n", "levels", "threads",
           "first build ms", "rebuild ms", "rebuild moved ms",
           "detect ms", "rebuild/det");
    int maxt = 1;
#ifdef HG_HAVE_OPENMP
    maxt = omp_get_max_threads();
#endif
    double *tb = malloc((size_t)repeats * sizeof *tb);
    double *tm = malloc((size_t)repeats * sizeof *tm);
    double *td = malloc((size_t)repeats * sizeof *td);
    if (!tb || !tm || !td)
        return 1;
    for (int storage = HG_GRID_DENSE; storage <= HG_GRID_HASH; storage++) {
        for (int threads = 1; threads <= maxt; threads = threads == maxt
                                                   ? maxt + 1 : maxt) {
#ifdef HG_HAVE_OPENMP
            omp_set_num_threads(threads);
#endif
            hg_grid *g = NULL;
            hg_pairs pairs = {0};
            if (hg_grid_create(dim, rec.levels, rs, alg, &g, &e) ||
                hg_grid_set_storage(g, (hg_grid_storage)storage, &e))
                return hg_test_die("bench_grid", "grid", &e);
            double t0 = hg_cpu_seconds();
            if (hg_grid_build(g, &p, &e))
                return hg_test_die("bench_grid", "build", &e);
            double first = hg_cpu_seconds() - t0;
            for (int k = 0; k < repeats; k++) {
                t0 = hg_cpu_seconds();
                if (hg_grid_build(g, &p, &e))
                    return hg_test_die("bench_grid", "build", &e);
                tb[k] = hg_cpu_seconds() - t0;
                t0 = hg_cpu_seconds();
                if (hg_grid_find_contacts(g, &pairs, NULL, &e))
                    return hg_test_die("bench_grid", "detect", &e);
                td[k] = hg_cpu_seconds() - t0;
                const hg_particles *m = k % 2 ? &p : &q;
                t0 = hg_cpu_seconds();
                if (hg_grid_build(g, m, &e))
                    return hg_test_die("bench_grid", "build", &e);
                tm[k] = hg_cpu_seconds() - t0;
            }
            double b[3], mv[3], d[3];
            stats(tb, repeats, &b[0], &b[1], &b[2]);
            stats(tm, repeats, &mv[0], &mv[1], &mv[2]);
            stats(td, repeats, &d[0], &d[1], &d[2]);
            printf("%-6s %7d %16.2f %8.2f (%5.2f-%5.2f) %8.2f (%5.2f-%5.2f) "
                   "%8.2f (%5.2f-%5.2f) %12.3f\n",
                   storage == HG_GRID_DENSE ? "dense" : "hashed", threads,
                   1e3 * first, 1e3 * b[0], 1e3 * b[1], 1e3 * b[2],
                   1e3 * mv[0], 1e3 * mv[1], 1e3 * mv[2], 1e3 * d[0],
                   1e3 * d[1], 1e3 * d[2], b[0] / d[0]);
            fflush(stdout);
            hg_pairs_clear(&pairs);
            hg_grid_free(g);
        }
    }
#ifdef HG_HAVE_OPENMP
    omp_set_num_threads(maxt);
#endif
    free(tb);
    free(tm);
    free(td);
    free(rs);
    hg_particles_clear(&p);
    hg_particles_clear(&q);
    hg_recommendation_clear(&rec);
    hg_psd_free(psd);
    return 0;
}

/* Section "simd": detections of one packing with the scalar and the AVX2
 * pair loop alternated. */
static int bench_simd_case(const char *spec, double nu, int dense, size_t n,
                           int repeats)
{
    hg_err e = {0};
    hg_psd *psd = NULL;
    hg_recommendation rec = {0};
    if (recommend_for(spec, 3, nu, hg_K_shipped(3, NULL), &psd, &rec, &e))
        return hg_test_die("bench_grid", "recommend", &e);
    hg_pack_params pp = {3, n, nu, 1, !dense};
    hg_particles p = {0};
    if ((dense ? hg_pack_dense(psd, &pp, &p, &e)
               : hg_pack_poisson(psd, &pp, &p, &e)))
        return hg_test_die("bench_grid", "pack", &e);
    double *rs = malloc((size_t)rec.levels * sizeof *rs);
    if (!rs)
        return 1;
    memcpy(rs, rec.cell_sizes, (size_t)rec.levels * sizeof *rs);
    if (!dense && hg_pack_round_sizes(p.hi[0], rec.levels, rec.cell_sizes,
                                      rs, &e))
        return hg_test_die("bench_grid", "round", &e);
    if (rs[rec.levels - 1] < 2.0 * hg_particles_rmax(&p))
        rs[rec.levels - 1] = 2.0 * hg_particles_rmax(&p);
    hg_grid *g = NULL;
    hg_pairs pairs[2] = {{0}, {0}}; /* the last detection of either loop */
    if (hg_grid_create(3, rec.levels, rs, rec.model->grid_algorithm, &g,
                       &e) ||
        hg_grid_set_skin(g, dense ? 0.1 : 0.0, &e) ||
        hg_grid_build(g, &p, &e))
        return hg_test_die("bench_grid", "grid", &e);
    double *t[2], *ratio = malloc((size_t)repeats * sizeof *ratio);
    t[0] = malloc((size_t)repeats * sizeof *t[0]);
    t[1] = malloc((size_t)repeats * sizeof *t[1]);
    if (!t[0] || !t[1] || !ratio)
        return 1;
    for (int k = 0; k < repeats; k++)
        for (int v = 0; v < 2; v++) {
            int simd = k % 2 ? !v : v;
            hg_grid_simd(simd);
            double t0 = hg_cpu_seconds();
            if (hg_grid_find_contacts(g, &pairs[simd], NULL, &e))
                return hg_test_die("bench_grid", "detect", &e);
            t[simd][k] = hg_cpu_seconds() - t0;
        }
    hg_grid_simd(1);
    hg_pairs_sort(&pairs[0]);
    hg_pairs_sort(&pairs[1]);
    const int same = hg_pairs_equal(&pairs[0], &pairs[1]);
    for (int k = 0; k < repeats; k++)
        ratio[k] = t[0][k] / t[1][k];
    double m0, m1, lo, hi, med, q1, q3;
    stats(t[0], repeats, &m0, &lo, &hi);
    stats(t[1], repeats, &m1, &lo, &hi);
    stats(ratio, repeats, &med, &lo, &hi);
    q1 = ratio[repeats / 4];
    q3 = ratio[(3 * repeats) / 4];
    printf("%-28s %-6s %8zu %2d %-9s %10.2f %10.2f %7.3f (%5.3f-%5.3f) "
           "%9zu %s\n",
           spec, dense ? "walls" : "period", n, rec.levels,
           hg_algorithm_name(rec.model->grid_algorithm), 1e3 * m0, 1e3 * m1,
           med, q1, q3, pairs[0].n, same ? "same" : "DIFFERENT");
    hg_pairs_clear(&pairs[0]);
    hg_pairs_clear(&pairs[1]);
    hg_grid_free(g);
    free(t[0]);
    free(t[1]);
    free(ratio);
    free(rs);
    hg_particles_clear(&p);
    hg_recommendation_clear(&rec);
    hg_psd_free(psd);
    return !same;
}

static int bench_simd(size_t n, int repeats)
{
    if (!hg_grid_simd(-1)) {
        printf("bench_grid simd: this build or processor has no AVX2 pair "
               "loop; nothing to compare\n");
        return 0;
    }
#ifdef HG_HAVE_OPENMP
    omp_set_num_threads(1);
#endif
    printf("# 3D pair loop, scalar against AVX2: one thread, CPU ms of a "
           "detection, medians of %d alternated rounds; ratio scalar/AVX2: "
           "median (quartiles) of the rounds\n",
           repeats);
    printf("%-28s %-6s %8s %2s %-9s %10s %10s %21s %9s %s\n", "system", "box",
           "N", "L", "algorithm", "scalar ms", "AVX2 ms", "scalar/AVX2",
           "pairs", "pair sets");
    return bench_simd_case("powerlaw:alpha=-3,omega=100", 0.6, 0, n,
                           repeats) |
           bench_simd_case("powerlaw:alpha=-3,omega=20", 0.55, 1, n,
                           repeats) |
           bench_simd_case("uniform-size:omega=10", 0.3, 0, n, repeats);
}

/* HGrid (sizes of rec) on a packing of psd against the monodisperse
 * linked cell (cells of 2 r) on one of mono, both of n particles at
 * packing fraction nu, their detections alternated (the order swapped
 * every round): the median ratio of the rounds, wall and CPU. */
static int mono_ratio(const hg_psd *psd, const hg_psd *mono,
                      const hg_recommendation *rec, double nu, size_t n,
                      int repeats)
{
    hg_err e = {0};
    hg_particles p[2] = {{0}, {0}};
    hg_grid *g[2] = {NULL, NULL};
    hg_pairs pairs[2] = {{0}, {0}};
    double *rw = malloc((size_t)repeats * sizeof *rw);
    double *rc = malloc((size_t)repeats * sizeof *rc);
    if (!rw || !rc)
        return 1;
    for (int u = 0; u < 2; u++) {
        hg_pack_params pp = {3, n, nu, 1, 1};
        double rs[64], s2 = 2.0;
        const int L = u ? 1 : rec->levels;
        if (hg_pack_poisson(u ? mono : psd, &pp, &p[u], &e) ||
            hg_pack_round_sizes(p[u].hi[0], L, u ? &s2 : rec->cell_sizes, rs,
                                &e) ||
            hg_grid_create(3, L, rs, u ? HG_TOP_DOWN
                                       : rec->model->grid_algorithm,
                           &g[u], &e) ||
            hg_grid_build(g[u], &p[u], &e) ||
            hg_grid_find_contacts(g[u], &pairs[u], NULL, &e))
            return hg_test_die("bench_grid", "monodisperse comparison", &e);
    }
    for (int k = 0; k < repeats; k++) {
        double w[2], c[2];
        for (int v = 0; v < 2; v++) {
            const int u = (v + k) % 2;
            double w0 = hg_wall_seconds(), c0 = hg_cpu_seconds();
            if (hg_grid_find_contacts(g[u], &pairs[u], NULL, &e))
                return hg_test_die("bench_grid", "detect", &e);
            w[u] = hg_wall_seconds() - w0;
            c[u] = hg_cpu_seconds() - c0;
        }
        rw[k] = w[0] / w[1];
        rc[k] = c[0] / c[1];
    }
    double mw, wmn, wmx, mc, cmn, cmx;
    stats(rw, repeats, &mw, &wmn, &wmx);
    stats(rc, repeats, &mc, &cmn, &cmx);
    printf("  ratio HGrid / monodisperse linked cell, detections alternated "
           "(%d rounds): wall %.3f (%.3f-%.3f), CPU %.3f (%.3f-%.3f)\n"
           "  (2012 paper: 1.0-1.5; target <= 1.0)\n",
           repeats, mw, wmn, wmx, mc, cmn, cmx);
    for (int u = 0; u < 2; u++) {
        hg_grid_free(g[u]);
        hg_pairs_clear(&pairs[u]);
        hg_particles_clear(&p[u]);
    }
    free(rw);
    free(rc);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "simd") == 0) {
        size_t n = argc > 2 ? (size_t)strtod(argv[2], NULL) : 200000;
        int rep = argc > 3 ? atoi(argv[3]) : 21;
        return bench_simd(n < 1000 ? 1000 : n, rep < 1 ? 1 : rep);
    }
    if (argc > 1 && strcmp(argv[1], "build") == 0) {
        size_t n = argc > 2 ? (size_t)strtod(argv[2], NULL) : 1000000;
        int rep = argc > 3 ? atoi(argv[3]) : 7;
        if (rep < 1)
            rep = 1;
        double K = 0.2; /* the library's default; 0: the shipped one */
        if (argc > 4 && strcmp(argv[4], "shipped") == 0) {
            K = 0.0;
        } else if (argc > 4) {
            char *end;
            K = strtod(argv[4], &end);
            if (end == argv[4] || *end || !(K > 0.0)) {
                fprintf(stderr, "bench_grid: K '%s' is not a number > 0 "
                                "or shipped\n",
                        argv[4]);
                return 2;
            }
        }
        if (n < 1000)
            n = 1000;
        return bench_build_case("powerlaw:alpha=-3,omega=100", 3, 0.6, n,
                                rep, K) ||
               bench_build_case("powerlaw:alpha=-3,omega=20", 2, 0.4, n, rep,
                                K);
    }
    size_t max_n = argc > 1 ? (size_t)strtod(argv[1], NULL) : 10000000;
    int repeats = argc > 2 ? atoi(argv[2]) : 5;
    double K = argc > 3 ? strtod(argv[3], NULL) : 0.2;
    if (!(K > 0.0))
        K = 0.2;
    if (repeats < 1)
        repeats = 1;
    hg_err e = {0};
    hg_psd_ctx ctx = {3, NULL};
    hg_psd *psd = NULL, *mono = NULL;
    if (hg_psd_parse("powerlaw:alpha=-3,omega=100", &ctx, &psd, &e))
        return hg_test_die("bench_grid", "psd", &e);
    if (hg_psd_parse("mono:r=1", &ctx, &mono, &e))
        return hg_test_die("bench_grid", "mono psd", &e);
    int threads = 1;
#ifdef HG_HAVE_OPENMP
    threads = omp_get_max_threads();
#endif
    hg_system sys = {3, 0.6};
    hg_model_values kv = {0};
    if (hg_model_values_set(&kv, "K", K, &e))
        return hg_test_die("bench_grid", "K", &e);
    hg_recommend_options ro;
    hg_recommend_options_default(&ro);
    hg_recommendation rec = {0};
    if (hg_recommend(psd, &sys, &kv, &ro, &rec, &e))
        return hg_test_die("bench_grid", "recommend", &e);
    printf("bench_grid: %d thread(s); powerlaw alpha=-3 omega=100, 3D, "
           "nu=0.6, K=%g\n",
           threads, K);
    printf("recommended: %s, %d levels, predicted T = %.4g (T_cd %.4g, "
           "T_ca %.4g), linked cell T = %.4g\n",
           hg_algorithm_name(rec.model->grid_algorithm), rec.levels,
           rec.cost.T, rec.cost.T_cd, rec.cost.T_ca, rec.linked_cell_T);

    /* 1. N = 10^6: HGrid vs linked cell vs monodisperse linked cell */
    hg_validate_params vp = {0};
    vp.sys = sys;
    vp.model = rec.model;
    vp.values = kv;
    vp.L = rec.levels;
    vp.sizes = rec.cell_sizes;
    vp.n = 1000000;
    vp.seed = 1;
    vp.baseline = 1;
    hg_measure_options_default(&vp.measure);
    vp.measure.repeats = repeats;
    vp.measure.budget = 1e9;
    hg_validation v = {0};
    if (hg_validate(psd, &vp, &v, &e))
        return hg_test_die("bench_grid", "validate", &e);
    hg_validate_params mp = vp;
    double smono = 2.0;
    mp.L = 1;
    mp.sizes = &smono;
    mp.baseline = 0;
    hg_validation vm = {0};
    if (hg_validate(mono, &mp, &vm, &e))
        return hg_test_die("bench_grid", "validate mono", &e);
    printf("\nN = 10^6 (wall: median of %d repeats; CPU: all threads, "
           "median of %d):\n",
           repeats, repeats);
    printf("  HGrid        wall %.4f s  CPU %.4f s  (rebuild %.4f s, first "
           "build %.4f s)  %.4g contacts\n               T_cd %.4g/%.4g  "
           "T_ca %.4g/%.4g (measured/predicted)\n",
           v.hgrid.seconds, v.hgrid.cpu_seconds, v.hgrid.build_seconds,
           v.hgrid.first_build_seconds,
           v.hgrid.contacts, v.hgrid.measured_T_cd, v.hgrid.predicted_T_cd,
           v.hgrid.measured_T_ca, v.hgrid.predicted_T_ca);
    printf("  linked cell  wall %.4g s  CPU %.4g s%s  T_cd %.4g/%.4g\n",
           v.linked_cell.seconds, v.linked_cell.cpu_seconds,
           v.linked_cell.extrapolated ? " (extrapolated from a subset)" : "",
           v.linked_cell.measured_T_cd, v.linked_cell.predicted_T_cd);
    printf("  speed-up vs linked cell: measured %.1f (wall), %.1f (CPU); "
           "predicted %.1f\n",
           v.measured_speedup, v.linked_cell.cpu_seconds / v.hgrid.cpu_seconds,
           v.predicted_speedup);
    if (v.has_bin)
        printf("  bin (LAMMPS-style) wall %.4g s  CPU %.4g s  T_cd %.4g/%.4g"
               "\n  speed-up vs bin: measured %.1f (wall), %.1f (CPU); "
               "predicted %.1f\n",
               v.bin.seconds, v.bin.cpu_seconds, v.bin.measured_T_cd,
               v.bin.predicted_T_cd, v.measured_speedup_bin,
               v.bin.cpu_seconds / v.hgrid.cpu_seconds,
               v.predicted_speedup_bin);
    else
        printf("  bin (LAMMPS-style): not measured, predicted work %.3g "
               "above the budget\n", v.bin_skipped_work);
    printf("  monodisperse linked cell (same N, nu): wall %.4f s  CPU %.4f s"
           "  T_cd %.4g, %.4g contacts\n",
           vm.hgrid.seconds, vm.hgrid.cpu_seconds, vm.hgrid.measured_T_cd,
           vm.hgrid.contacts);
    hg_validation_clear(&vm);
    hg_validation_clear(&v);
    if (mono_ratio(psd, mono, &rec, sys.nu, 1000000, repeats))
        return 1;

    /* 2. + 3. scaling with N and memory: every N's grid built first, then
     * the detections timed round after round, each round visiting every N
     * (in a rotated order), so that a change of the machine's speed during
     * the run reaches every N alike; a sample is at least 20 ms of
     * back-to-back detections. */
    enum { MAXS = 8 };
    struct size_run {
        size_t n;
        hg_particles p;
        hg_grid *g;
        hg_pairs pairs;
        int inner;
        double first, rebuild, *wall, *cpu;
    } sr[MAXS];
    int ns = 0;
    memset(sr, 0, sizeof sr);
    for (size_t n = 10000; n <= max_n && ns < MAXS; n *= 10) {
        struct size_run *x = &sr[ns++];
        hg_pack_params pp = {3, n, sys.nu, 7, 1};
        double rs[64];
        x->n = n;
        x->wall = malloc((size_t)repeats * sizeof *x->wall);
        x->cpu = malloc((size_t)repeats * sizeof *x->cpu);
        if (!x->wall || !x->cpu)
            return 1;
        if (hg_pack_poisson(psd, &pp, &x->p, &e) ||
            hg_pack_round_sizes(x->p.hi[0], rec.levels, rec.cell_sizes, rs,
                                &e) ||
            hg_grid_create(3, rec.levels, rs, rec.model->grid_algorithm,
                           &x->g, &e))
            return hg_test_die("bench_grid", "set-up", &e);
        double t0 = hg_wall_seconds();
        if (hg_grid_build(x->g, &x->p, &e))
            return hg_test_die("bench_grid", "build", &e);
        x->first = hg_wall_seconds() - t0;
        for (int k = 0; k < repeats; k++) {
            t0 = hg_wall_seconds();
            if (hg_grid_build(x->g, &x->p, &e))
                return hg_test_die("bench_grid", "build", &e);
            x->wall[k] = hg_wall_seconds() - t0;
        }
        double mn, mx;
        stats(x->wall, repeats, &x->rebuild, &mn, &mx);
        t0 = hg_wall_seconds(); /* warm-up, and the pair list's room */
        if (hg_grid_find_contacts(x->g, &x->pairs, NULL, &e))
            return hg_test_die("bench_grid", "detect", &e);
        double dt = hg_wall_seconds() - t0;
        x->inner = dt >= 0.02 ? 1 : dt <= 2e-5 ? 1000 : (int)ceil(0.02 / dt);
    }
    for (int k = 0; k < repeats; k++) {
        for (int u = 0; u < ns; u++) {
            struct size_run *x = &sr[(u + k) % ns];
            double w0 = hg_wall_seconds(), c0 = hg_cpu_seconds();
            for (int t = 0; t < x->inner; t++)
                if (hg_grid_find_contacts(x->g, &x->pairs, NULL, &e))
                    return hg_test_die("bench_grid", "detect", &e);
            x->wall[k] = (hg_wall_seconds() - w0) / x->inner;
            x->cpu[k] = (hg_cpu_seconds() - c0) / x->inner;
        }
    }
    printf("\ntime per particle against N: the detections of all N timed "
           "in alternation, %d rounds; medians (min-max)\n",
           repeats);
    printf("%10s %10s %22s %12s %12s %14s %12s\n", "N", "detect [s]",
           "ns/particle", "CPU ns/part", "rebuild ns/p", "1st build ns/p",
           "grid B/part");
    double lo = INFINITY, hi = 0.0;
    for (int u = 0; u < ns; u++) {
        struct size_run *x = &sr[u];
        double w, wmn, wmx, c, cmn, cmx;
        const double dn = (double)x->n;
        stats(x->wall, repeats, &w, &wmn, &wmx);
        stats(x->cpu, repeats, &c, &cmn, &cmx);
        lo = w / dn < lo ? w / dn : lo;
        hi = w / dn > hi ? w / dn : hi;
        printf("%10zu %10.4f %8.1f (%5.1f-%5.1f) %12.1f %12.1f %14.1f "
               "%12.1f\n",
               x->n, w, 1e9 * w / dn, 1e9 * wmn / dn, 1e9 * wmx / dn,
               1e9 * c / dn, 1e9 * x->rebuild / dn, 1e9 * x->first / dn,
               (double)hg_grid_memory(x->g) / dn);
    }
    printf("slowest / fastest median per particle: %.3f (target <= 1.15)\n"
           "peak RSS %.1f MB (the grids and particles of every N held at "
           "once)\n",
           hi / lo, peak_rss_mb());
    for (int u = 0; u < ns; u++) {
        hg_grid_free(sr[u].g);
        hg_pairs_clear(&sr[u].pairs);
        hg_particles_clear(&sr[u].p);
        free(sr[u].wall);
        free(sr[u].cpu);
    }
    hg_recommendation_clear(&rec);
    hg_psd_free(psd);
    hg_psd_free(mono);
    return 0;
}
