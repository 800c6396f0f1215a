/* bench_dense.c - (label bench) the cost model with structure poisson and
 * hard-spheres against the bundled HGrid on non-overlapping packings.
 *
 *   bench_dense file PACKING PSD td|bu
 *       per level and in total: measured / predicted T_cd and T_ca with
 *       both structures, at the sizes recommended for PSD (structure
 *       poisson, K = 0.2), rounded to whole cells of the periodic box.
 *       PSD is the distribution the packing was drawn from; the
 *       prediction uses the packing's own radii (sample distribution).
 *   bench_dense optimal PACKING PSD td|bu [repeats]
 *       the optimal grid for structure poisson and for hard-spheres
 *       (recommend with the packing's nu), both predicted by hard-spheres
 *       and both timed on the packing (alternating, repeats times each,
 *       each the median of 5 detections; median and min-max of the CPU time
 *       of one contact detection).
 *
 *   bench_dense demo
 *       a dense packing (3D, alpha = -3, omega = 10, nu = 0.6, N = 10^5,
 *       seed 14) written to bench_dense_demo.csv, then "file" on it.
 *
 * One line per total starting with "TOTAL" so that scripts can collect
 * a table.
 */
#include "hg_grid.h"
#include "hg_io.h"
#include "hg_opt.h"
#include "hg_pack.h"
#include "hg_pack_gen.h"
#include "hg_validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int load(const char *path, const char *spec, hg_particles *p,
                hg_psd **sample, hg_psd **psd, hg_system *sys, hg_err *e)
{
    hg_io_format fmt;
    int st = hg_io_format_from_path(path, &fmt, e);
    if (!st)
        st = hg_io_read(path, fmt, p, e);
    if (!st)
        st = hg_io_system_from_particles(p, sample, sys, e);
    hg_psd_ctx ctx = {p->dim, NULL};
    if (!st)
        st = hg_psd_parse(spec, &ctx, psd, e);
    return st;
}

/* Recommended sizes for (psd, sys) with model m, rounded to the box. */
static int sizes_for(const hg_model *m, const hg_psd *psd,
                     const hg_system *sys, const hg_particles *p, int *L,
                     double **rs, hg_err *e)
{
    hg_recommend_options ro;
    hg_recommend_options_default(&ro);
    ro.n_models = 1;
    ro.models[0] = m;
    hg_recommendation rec;
    memset(&rec, 0, sizeof rec);
    int st = hg_recommend(psd, sys, NULL, &ro, &rec, e);
    if (!st && !(*rs = malloc(sizeof **rs * (size_t)rec.levels)))
        st = hg_fail(e, HG_ENOMEM, "out of memory");
    if (!st) {
        *L = rec.levels;
        st = hg_pack_round_sizes(p->hi[0] - p->lo[0], rec.levels,
                                 rec.cell_sizes, *rs, e);
    }
    hg_recommendation_clear(&rec);
    return st;
}

static int file_mode(const char *path, const char *spec, hg_algorithm alg)
{
    hg_err e = {0};
    hg_particles p = {0};
    hg_psd *sample = NULL, *psd = NULL;
    hg_system sys = {0, 0.0};
    double *rs = NULL;
    int L = 0;
    hg_validate_run run[2];
    memset(run, 0, sizeof run);
    const hg_model *m = hg_model_for_grid(alg);
    hg_measure_options mo;
    hg_measure_options_default(&mo);
    mo.budget = 0.0;
    int st = load(path, spec, &p, &sample, &psd, &sys, &e);
    if (!st)
        st = sizes_for(m, psd, &sys, &p, &L, &rs, &e);
    for (int k = 0; k < 2 && !st; k++) {
        hg_system s2 = sys;
        s2.structure = k ? HG_STRUCTURE_HARD_SPHERES : HG_STRUCTURE_POISSON;
        st = hg_validate_measure(m, sample, &s2, NULL, &p, L, rs, &mo,
                                 &run[k], &e);
    }
    if (!st) {
        printf("# %s  dim %d  nu %.4f  N %zu  %s  L %d\n", path, sys.dim,
               sys.nu, p.n, hg_algorithm_name(alg), L);
        printf("%5s %9s %8s %10s %7s %7s %10s %7s\n", "level", "s_h", "P_h",
               "Tcd_meas", "pois", "hs", "Tca_meas", "ratio");
        for (int h = 0; h < L; h++) {
            const hg_validate_level *a = &run[0].per_level[h];
            const hg_validate_level *b = &run[1].per_level[h];
            printf("%5d %9.3f %8.5f %10.4f %7.3f %7.3f %10.4f %7.3f\n",
                   h + 1, rs[h], a->predicted_fraction, a->measured_T_cd,
                   a->measured_T_cd / a->predicted_T_cd,
                   b->measured_T_cd / b->predicted_T_cd, a->measured_T_ca,
                   a->measured_T_ca / a->predicted_T_ca);
        }
        printf("TOTAL %s %s L %d Tcd %.4f pois %.4f hs %.4f Tca %.4f "
               "pois %.4f hs %.4f\n",
               path, hg_algorithm_name(alg), L, run[0].measured_T_cd,
               run[0].measured_T_cd / run[0].predicted_T_cd,
               run[1].measured_T_cd / run[1].predicted_T_cd,
               run[0].measured_T_ca,
               run[0].measured_T_ca / run[0].predicted_T_ca,
               run[1].measured_T_ca / run[1].predicted_T_ca);
    } else {
        fprintf(stderr, "bench_dense: %s\n", e.msg);
    }
    hg_validate_run_clear(&run[0]);
    hg_validate_run_clear(&run[1]);
    free(rs);
    hg_psd_free(psd);
    hg_psd_free(sample);
    hg_particles_clear(&p);
    return st ? 1 : 0;
}

static int optimal_mode(const char *path, const char *spec, hg_algorithm alg,
                        int repeats)
{
    hg_err e = {0};
    hg_particles p = {0};
    hg_psd *sample = NULL, *psd = NULL;
    hg_system sys = {0, 0.0};
    double *rs[2] = {NULL, NULL}, *t[2] = {NULL, NULL};
    int L[2] = {0, 0};
    hg_validate_run run[2];
    memset(run, 0, sizeof run);
    const hg_model *m = hg_model_for_grid(alg);
    hg_measure_options mo;
    hg_measure_options_default(&mo);
    mo.budget = 0.0;
    mo.repeats = 5; /* median of 5 per measurement */
    int st = load(path, spec, &p, &sample, &psd, &sys, &e);
    hg_system hs = sys;
    hs.structure = HG_STRUCTURE_HARD_SPHERES;
    for (int k = 0; k < 2 && !st; k++) {
        hg_system s2 = sys;
        s2.structure = k ? HG_STRUCTURE_HARD_SPHERES : HG_STRUCTURE_POISSON;
        st = sizes_for(m, psd, &s2, &p, &L[k], &rs[k], &e);
        if (!st && !(t[k] = malloc(sizeof *t[k] * (size_t)repeats)))
            st = hg_fail(&e, HG_ENOMEM, "out of memory");
    }
    /* alternate A and B */
    for (int r = 0; r < repeats && !st; r++)
        for (int k = 0; k < 2 && !st; k++) {
            hg_validate_run_clear(&run[k]);
            st = hg_validate_measure(m, sample, &hs, NULL, &p, L[k], rs[k],
                                     &mo, &run[k], &e);
            if (!st)
                t[k][r] = run[k].cpu_seconds;
        }
    if (!st) {
        printf("# %s  dim %d  nu %.4f  N %zu  %s, %d alternating repeats\n",
               path, sys.dim, sys.nu, p.n, hg_algorithm_name(alg), repeats);
        static const char *const names[2] = {"poisson-optimal",
                                             "hard-spheres-optimal"};
        for (int k = 0; k < 2; k++) {
            qsort(t[k], (size_t)repeats, sizeof *t[k], hg_cmp_double);
            printf("%-21s L %d sizes", names[k], L[k]);
            for (int h = 0; h < L[k]; h++)
                printf(" %.3f", rs[k][h]);
            printf("\n  predicted(hs) T %.4f  measured T %.4f (Tcd %.4f "
                   "Tca %.4f)  cpu s median %.4f min %.4f max %.4f\n",
                   run[k].predicted_T, run[k].measured_T,
                   run[k].measured_T_cd, run[k].measured_T_ca,
                   t[k][repeats / 2], t[k][0], t[k][repeats - 1]);
        }
    } else {
        fprintf(stderr, "bench_dense: %s\n", e.msg);
    }
    for (int k = 0; k < 2; k++) {
        hg_validate_run_clear(&run[k]);
        free(rs[k]);
        free(t[k]);
    }
    hg_psd_free(psd);
    hg_psd_free(sample);
    hg_particles_clear(&p);
    return st ? 1 : 0;
}

static int demo(void)
{
    const char *spec = "powerlaw:alpha=-3,omega=10";
    const char *path = "bench_dense_demo.csv";
    hg_err e = {0};
    hg_psd_ctx ctx = {3, NULL};
    hg_psd *psd = NULL;
    hg_particles p = {0};
    hg_pack_params prm = {3, 100000, 0.6, 14, 1};
    int st = hg_psd_parse(spec, &ctx, &psd, &e);
    if (!st)
        st = hg_pack_dense(psd, &prm, &p, &e);
    if (!st)
        st = hg_io_write(path, HG_IO_CSV, &p, &e);
    hg_particles_clear(&p);
    hg_psd_free(psd);
    if (st) {
        fprintf(stderr, "bench_dense: %s\n", e.msg);
        return 1;
    }
    return file_mode(path, spec, HG_TOP_DOWN) ||
           file_mode(path, spec, HG_BOTTOM_UP);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "demo"))
        return demo();
    if (argc >= 5 && !strcmp(argv[1], "file"))
        return file_mode(argv[2], argv[3],
                         strcmp(argv[4], "bu") ? HG_TOP_DOWN : HG_BOTTOM_UP);
    if (argc >= 5 && !strcmp(argv[1], "optimal")) {
        int rep = argc > 5 ? atoi(argv[5]) : 5;
        return optimal_mode(argv[2], argv[3],
                            strcmp(argv[4], "bu") ? HG_TOP_DOWN
                                                  : HG_BOTTOM_UP,
                            rep < 1 ? 1 : rep);
    }
    fprintf(stderr, "usage: bench_dense file|optimal PACKING PSD td|bu "
                    "[repeats]\n");
    return 2;
}
