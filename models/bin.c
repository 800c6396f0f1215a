/* bin.c - cost model of the `bin` baseline (its detector:
 * src/detect/lammps_bins.c), the single grid LAMMPS builds for `neighbor
 * bin`: bins of width w = b c / 2 (b the parameter "bin", 1 = half the
 * cutoff c = 2 r_max), and the stencil of the
 * F offsets o in [-R, R]^d, R = ceil(c / w), whose bins hold points nearer
 * than c to the own bin:
 *   sum_a (max(|o_a| - 1, 0) w)^2 < c^2.
 * A particle tests the rest of its own bin and the n_h = (F - 1) / 2 bins
 * of the half stencil. With uniformly random centres (as for the HGrid of
 * KOL 2014 eqs. 11, 23, 24 with L = 1) and m = nu w^d / V_p particles per
 * bin:
 *   T_cd = (1/2 + n_h) m,   T_ca = 1 + n_h,   T = T_cd + K T_ca + C / m,
 * 1 / m the bins per particle, weighed by C as the tables of the HGrid
 * models (models/hgrid.c; 0 by default).
 * At b = 1 nothing is pruned (F = 5^d: 125 bins in 3D, 25 in 2D); the
 * searched volume is (5/2)^d c^d against 3^d c^d for the linked cell.
 *
 * Structure hard-spheres: as for one level of the HGrid model (models/
 * hgrid.c, the derivation in models/README.md), the centres that cannot
 * lie near a particle are missing from its searched bins. With c_v =
 * nu V_d / V_p, kappa the hole parameter (hg_hs_kappa) and M_k the
 * moments of the whole distribution, the net hole around a particle holds
 * c_v H other centres, H = sum_k C(d,k) kappa^(d-k) M_(d-k) M_k; the half
 * stencil meets every pair once, so
 *   T_cd = (1/2 + n_h) m - (1/2) c_v H.
 * The hole (radius r + kappa r' <= 2 r_max) lies inside the full stencil,
 * which covers the cutoff. No particle is larger than the bins' own
 * particles, so there is no crowding matrix (the factor G is 1). */
#include "hg_model.h"
#include "hg_snapshot.h"
#include "model_internal.h"

#include <math.h>
#include <stdlib.h>

static const hg_model_param params[] = {
    HG_MODEL_PARAM_K,
    {"bin", 1.0, 0.05, 100.0, 0,
     "bin width in units of half the largest cutoff (LAMMPS default 1)"},
    HG_MODEL_PARAM_C};

/* Number of offsets within reach for bins of width w and cutoff c. */
static long stencil_size(int d, double w, double c)
{
    long R = (long)ceil(c / w);
    if (R < 1)
        R = 1;
    if ((double)R * w < c)
        R++;
    long F = 0;
    long zr = d == 3 ? R : 0;
    for (long z = -zr; z <= zr; z++)
        for (long y = -R; y <= R; y++)
            for (long x = -R; x <= R; x++) {
                double gz = (double)(labs(z) > 1 ? labs(z) - 1 : 0) * w;
                double gy = (double)(labs(y) > 1 ? labs(y) - 1 : 0) * w;
                double gx = (double)(labs(x) > 1 ? labs(x) - 1 : 0) * w;
                F += gx * gx + gy * gy + gz * gz < c * c;
            }
    return F;
}

static int terms(const hg_model_input *in, double *w, double *m,
                 double *tcd, double *tca)
{
    int d = in->sys->dim;
    double c = in->sizes[in->L - 1];
    *w = 0.5 * in->params[1] * c;
    double Vp = hg_psd_mean_volume(in->psd, d);
    *m = in->sys->nu * pow(*w, d) / Vp;
    long F = stencil_size(d, *w, c);
    double nh = 0.5 * (double)(F - 1);
    *tcd = (0.5 + nh) * *m;
    if (in->sys->structure == HG_STRUCTURE_MEASURED)
        *tcd *= hg_snapshot_factor_all(in->sys->snapshot, in->sys->nu, Vp,
                                       pow((double)F, 1.0 / d) * *w);
    if (in->sys->structure == HG_STRUCTURE_HARD_SPHERES) {
        hg_hs_consts c;
        double M[4], rmax = hg_psd_rmax(in->psd);
        hg_hs_consts_init(d, in->sys->nu, Vp, &c);
        for (int k = 0; k <= d; k++)
            M[k] = hg_psd_moment(in->psd, k, 0.0, rmax);
        *tcd -= 0.5 * c.cv * hg_hs_hole(d, &c, M, M);
    }
    *tca = 1.0 + nh;
    return HG_OK;
}

static int evaluate(const hg_model_input *in, hg_cost *out, hg_work *wk,
                    hg_err *e)
{
    double w, m, tcd, tca, K = in->params[0], C = in->params[2];
    terms(in, &w, &m, &tcd, &tca);
    wk->T_cd = tcd;
    wk->T_ca = tca;
    wk->T_tab = 1.0 / m;
    wk->T = tcd + K * tca + C * wk->T_tab;
    if (!out)
        return HG_OK;
    out->per_level = calloc(1, sizeof *out->per_level);
    if (!out->per_level)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    hg_level_cost *lc = &out->per_level[0];
    lc->level = 1;
    lc->cell_size = w;
    lc->r_lo = hg_psd_rmin(in->psd);
    lc->r_hi = hg_psd_rmax(in->psd);
    lc->fraction = 1.0;
    lc->particles_per_cell = m;
    lc->T_cd = tcd;
    lc->T_ca = tca;
    lc->T_tab = wk->T_tab;
    lc->T = wk->T;
    out->K = K;
    out->C = C;
    out->T_tab = wk->T_tab;
    out->levels = 1;
    out->nonempty_levels = 1;
    out->T_cd = tcd;
    out->T_ca = tca;
    out->T = wk->T;
    return HG_OK;
}

static int gradient(const hg_model_input *in, double *T, double *dT_ds,
                    hg_err *e)
{
    (void)e;
    double w, m, tcd, tca;
    terms(in, &w, &m, &tcd, &tca);
    *T = tcd + in->params[0] * tca + in->params[2] / m;
    if (dT_ds) /* the one size is fixed at 2 r_max */
        dT_ds[0] = 0.0;
    return HG_OK;
}

const hg_model hg_model_bin = {
    "bin",
    "single grid of bins of half the largest cutoff, pruned stencil "
    "(LAMMPS neighbor bin)",
    HG_GRID_NONE,
    1,
    params,
    3,
    evaluate,
    gradient};
