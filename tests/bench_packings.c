/* bench_packings.c - (label bench) how far the cost model is from dense
 * packings, and how fast the generators are.
 *
 *   bench_packings table [N]   3D power law alpha = -3, omega = 100, 10, 2,
 *                              nu = 0.1, 0.4, 0.6, periodic, Top-Down with
 *                              the recommended (optimal) sizes: measured /
 *                              predicted T_cd and T_ca for poisson, rsa and
 *                              dense packings (default N = 10^5)
 *   bench_packings speed N     generator times for omega = 100, nu = 0.6
 *   bench_packings levels N    per-level measured / predicted work,
 *                              omega = 100, nu = 0.6, poisson and rsa
 *
 * Prediction: the KOL 2014 model (hg_cost_evaluate) for the packing's own
 * radii (sample distribution) and packing fraction, at the cell sizes the
 * HGrid really uses (rounded up to whole cells per box edge). Measurement:
 * the bundled HGrid's counts of one contact search. Seeds are printed.
 */
#include "hg_grid.h"
#include "hg_io.h"
#include "hg_opt.h"
#include "hg_pack_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const gen_names[] = {"poisson", "rsa", "dense"};

static int generate(int g, const hg_psd *psd, const hg_pack_params *prm,
                    hg_particles *p, hg_pack_report *rep, hg_err *e)
{
    memset(rep, 0, sizeof *rep);
    if (g == 0) {
        double t0 = hg_wall_seconds();
        int st = hg_pack_poisson(psd, prm, p, e);
        rep->seconds = hg_wall_seconds() - t0;
        rep->placed = p->n;
        rep->nu = st == HG_OK ? hg_particles_packing_fraction(p) : 0.0;
        return st;
    }
    return g == 1 ? hg_pack_rsa_run(psd, prm, NULL, p, rep, e)
                  : hg_pack_dense_run(psd, prm, NULL, p, rep, e);
}

/* Measured and predicted T_cd, T_ca per particle of p with the sizes
 * (s_1..s_L) recommended for the target system. */
static int measure(const hg_particles *p, int L, const double *sizes,
                   double meas[2], double pred[2], int *Lused, hg_err *e)
{
    double *rs = malloc((size_t)L * sizeof *rs);
    hg_psd *sample = NULL;
    hg_grid *g = NULL;
    hg_pairs pairs = {0};
    hg_grid_counts cnt = {0};
    hg_system sys = {3, 0.0};
    hg_work w;
    int st = rs ? HG_OK : HG_ENOMEM;
    /* the sample's r_max may lie below the distribution's: the last level
     * only has to cover it */
    if (st == HG_OK)
        st = hg_pack_round_sizes(p->hi[0] - p->lo[0], L, sizes, rs, e);
    if (st == HG_OK)
        st = hg_io_system_from_particles(p, &sample, &sys, e);
    if (st == HG_OK)
        st = hg_cost_evaluate(hg_model_find("hgrid-top-down"), sample, &sys,
                              NULL, L, rs, NULL, &w, e);
    if (st == HG_OK) {
        pred[0] = w.T_cd;
        pred[1] = w.T_ca;
    }
    if (st == HG_OK)
        st = hg_grid_create(p->dim, L, rs, HG_TOP_DOWN, &g, e);
    if (st == HG_OK)
        st = hg_grid_build(g, p, e);
    if (st == HG_OK)
        st = hg_grid_find_contacts(g, &pairs, &cnt, e);
    if (st == HG_OK) {
        meas[0] = (double)cnt.pair_checks / (double)p->n;
        meas[1] = (double)cnt.cell_accesses / (double)p->n;
        *Lused = L;
    }
    hg_grid_counts_clear(&cnt);
    hg_pairs_clear(&pairs);
    hg_grid_free(g);
    hg_psd_free(sample);
    free(rs);
    return st;
}

static int table(size_t n)
{
    /* omega = 2: a narrow distribution where rsa stalls below 0.6 */
    static const double omegas[] = {100.0, 10.0, 2.0};
    static const double nus[] = {0.1, 0.4, 0.6};
    printf("3D power law alpha=-3, periodic, Top-Down, recommended sizes "
           "(hg_recommend, optimal, K=0.2), N=%zu\n",
           n);
    printf("%-6s %-4s %-8s %8s %7s %8s %8s %6s %8s %8s %6s %7s\n", "omega",
           "nu", "gen", "nu_got", "L", "Tcd_meas", "Tcd_pred", "ratio",
           "Tca_meas", "Tca_pred", "ratio", "gen_s");
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 3; b++) {
            char spec[64];
            snprintf(spec, sizeof spec, "powerlaw:alpha=-3,omega=%g",
                     omegas[a]);
            hg_psd_ctx ctx = {3, NULL};
            hg_psd *psd = NULL;
            hg_err e = {0};
            if (hg_psd_parse(spec, &ctx, &psd, &e)) {
                fprintf(stderr, "%s\n", e.msg);
                return 1;
            }
            hg_system sys = {3, nus[b]};
            hg_recommend_options ro;
            hg_recommend_options_default(&ro);
            ro.n_models = 1;
            ro.models[0] = hg_model_find("hgrid-top-down");
            hg_recommendation rec;
            memset(&rec, 0, sizeof rec);
            if (hg_recommend(psd, &sys, NULL, &ro, &rec, &e)) {
                fprintf(stderr, "recommend: %s\n", e.msg);
                return 1;
            }
            for (int g = 0; g < 3; g++) {
                hg_pack_params prm = {3, n, nus[b], 1000 + 10 * a + b, 1};
                hg_particles p = {0};
                hg_pack_report rep;
                double meas[2] = {0}, pred[2] = {0};
                int L = 0;
                int st = generate(g, psd, &prm, &p, &rep, &e);
                if (st == HG_OK)
                    st = measure(&p, rec.levels, rec.cell_sizes, meas, pred,
                                 &L, &e);
                if (st != HG_OK) {
                    printf("%-6g %-4g %-8s failed: %s\n", omegas[a], nus[b],
                           gen_names[g], e.msg);
                } else {
                    printf("%-6g %-4g %-8s %8.4f %7d %8.3f %8.3f %6.3f "
                           "%8.3f %8.3f %6.3f %7.1f\n",
                           omegas[a], nus[b], gen_names[g], rep.nu, L,
                           meas[0], pred[0], meas[0] / pred[0], meas[1],
                           pred[1], meas[1] / pred[1], rep.seconds);
                }
                fflush(stdout);
                hg_particles_clear(&p);
            }
            hg_recommendation_clear(&rec);
            hg_psd_free(psd);
        }
    printf("(seeds 1000 + 10*omega_index + nu_index; rsa stops early where "
           "it stalls: nu_got < nu)\n");
    return 0;
}

/* Per-level measured / predicted pair checks for one case: where does the
 * excess of dense packings come from? */
static int levels(size_t n, double omega, double nu, int g)
{
    char spec[64];
    snprintf(spec, sizeof spec, "powerlaw:alpha=-3,omega=%g", omega);
    hg_psd_ctx ctx = {3, NULL};
    hg_psd *psd = NULL, *sample = NULL;
    hg_err e = {0};
    hg_system sys = {3, nu};
    hg_recommend_options ro;
    hg_recommendation rec;
    memset(&rec, 0, sizeof rec);
    hg_recommend_options_default(&ro);
    ro.n_models = 1;
    ro.models[0] = hg_model_find("hgrid-top-down");
    hg_particles p = {0};
    hg_pack_report rep;
    hg_pack_params prm = {3, n, nu, 4242, 1};
    hg_cost cost = {0};
    hg_grid *grid = NULL;
    hg_pairs pairs = {0};
    hg_grid_counts cnt = {0};
    double *rs = NULL;
    int st = hg_psd_parse(spec, &ctx, &psd, &e);
    if (!st)
        st = hg_recommend(psd, &sys, NULL, &ro, &rec, &e);
    if (!st)
        st = generate(g, psd, &prm, &p, &rep, &e);
    if (!st && !(rs = malloc((size_t)rec.levels * sizeof *rs)))
        st = HG_ENOMEM;
    if (!st)
        st = hg_pack_round_sizes(p.hi[0], rec.levels, rec.cell_sizes, rs, &e);
    if (!st)
        st = hg_io_system_from_particles(&p, &sample, &sys, &e);
    if (!st)
        st = hg_cost_evaluate(hg_model_find("hgrid-top-down"), sample, &sys,
                              NULL, rec.levels, rs, &cost, NULL, &e);
    if (!st)
        st = hg_grid_create(3, rec.levels, rs, HG_TOP_DOWN, &grid, &e);
    if (!st)
        st = hg_grid_build(grid, &p, &e);
    if (!st)
        st = hg_grid_find_contacts(grid, &pairs, &cnt, &e);
    if (!st) {
        printf("%s omega=%g nu=%g (got %.4f) N=%zu seed 4242, Top-Down, "
               "per level (per particle of the system)\n",
               gen_names[g], omega, nu, rep.nu, n);
        printf("%5s %9s %8s %10s %10s %6s %10s %10s %6s\n", "level", "s_h",
               "P_h", "Tcd_meas", "Tcd_pred", "ratio", "Tca_meas",
               "Tca_pred", "ratio");
        for (int h = 0; h < rec.levels; h++) {
            double pm = (double)cnt.per_level[h].pair_checks / (double)p.n;
            double cm = (double)cnt.per_level[h].cell_accesses / (double)p.n;
            const hg_level_cost *lc = &cost.per_level[h];
            printf("%5d %9.3f %8.5f %10.4f %10.4f %6.3f %10.4f %10.4f "
                   "%6.3f\n",
                   h + 1, rs[h], lc->fraction, pm, lc->T_cd,
                   lc->T_cd > 0 ? pm / lc->T_cd : 0.0, cm, lc->T_ca,
                   lc->T_ca > 0 ? cm / lc->T_ca : 0.0);
        }
    } else {
        fprintf(stderr, "levels: %s\n", e.msg);
    }
    hg_grid_counts_clear(&cnt);
    hg_pairs_clear(&pairs);
    hg_grid_free(grid);
    hg_cost_clear(&cost);
    free(rs);
    hg_particles_clear(&p);
    hg_psd_free(sample);
    hg_recommendation_clear(&rec);
    hg_psd_free(psd);
    return st ? 1 : 0;
}

static int speed(size_t n)
{
    hg_psd_ctx ctx = {3, NULL};
    hg_psd *psd = NULL;
    hg_err e = {0};
    if (hg_psd_parse("powerlaw:alpha=-3,omega=100", &ctx, &psd, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    printf("generator speed, 3D power law alpha=-3 omega=100, nu=0.6, "
           "periodic, N=%zu, seed 1\n",
           n);
    for (int g = 0; g < 3; g++) {
        hg_pack_params prm = {3, n, 0.6, 1, 1};
        hg_particles p = {0};
        hg_pack_report rep;
        int st = generate(g, psd, &prm, &p, &rep, &e);
        if (st)
            printf("%-8s failed: %s\n", gen_names[g], e.msg);
        else
            printf("%-8s %8.2f s  nu %.4f  placed %zu  max overlap %.3g  "
                   "sweeps %zu\n",
                   gen_names[g], rep.seconds, rep.nu, rep.placed,
                   rep.max_overlap, rep.sweeps);
        fflush(stdout);
        hg_particles_clear(&p);
    }
    hg_psd_free(psd);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "table";
    size_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : 100000;
    if (n < 100) {
        fprintf(stderr,
                "usage: bench_packings table|speed|levels [N >= 100]\n");
        return 2;
    }
    if (!strcmp(mode, "table"))
        return table(n);
    if (!strcmp(mode, "speed"))
        return speed(n);
    if (!strcmp(mode, "levels"))
        return levels(n, 100.0, 0.6, 0) || levels(n, 100.0, 0.6, 1);
    fprintf(stderr, "usage: bench_packings table|speed|levels [N]\n");
    return 2;
}
