/* hgrid_internal.h - the per-level terms shared by the files of the `hgrid`
 * cost models (not part of the public API):
 *   hgrid.c              the two models: the KOL 2014 core, evaluation
 *                        and gradient;
 *   hgrid_hard_spheres.c the terms of structure hard-spheres;
 *   hgrid_measured.c     the terms of structure measured (a snapshot). */
#ifndef HG_MODELS_HGRID_INTERNAL_H
#define HG_MODELS_HGRID_INTERNAL_H

#include "hg_model.h"
#include "hg_snapshot.h"
#include "model_internal.h"

/* Per-level terms. */
typedef struct level {
    double q[4];   /* Q_{h,k}, k = 0..d */
    double m;      /* m_h */
    double dm_dq;  /* dm_h / dQ_{h,0} = nu s_h^d / V_p (1 / T_tab's term) */
    double w[4];   /* w_k (2/s_h)^k: the weights of eq. 16 with s_j = s_h */
    double cd, ca; /* this level's share of T_cd and T_ca */
    double dT_dm, dT_dq[4], dT_ds; /* gradient accumulators */
    double rbar;   /* mean radius Q_{h,1} / Q_{h,0} */
    double vol;    /* the built cell's volume over s_h^d (1 unless the
                      grid stretches cells to a periodic edge) */
    double r_top;  /* the level's largest radius bound */
} level;

/* Measured terms (structure measured): each level's class weights. */
typedef struct meas_terms {
    const hg_snapshot *snap;
    int nc;
    double nu, Vp;
    double *w; /* w[h * nc + c]: share of level h's particles in class c */
    double *rc; /* rc[h * nc + c]: mean radius of class c on level h */
    int dim;
    double plen[3]; /* periodic edge per axis, 0 when not periodic */
    int whole;      /* the grid stretches its cells to whole cells along a
                       periodic edge (the bundled grid, LAMMPS' bins) */
} meas_terms;

/* Hard-sphere terms (src/model/hard_spheres.c); on = 0 for the Poisson
 * structure. */
typedef struct hs_terms {
    int on;
    hg_hs_consts c;          /* kappa, its powers, c_v, n */
    hg_hs_matrix *mx;        /* L matrices at s_h ... */
    hg_hs_matrix *mxp, *mxm; /* ... and at s_h (1 +- HS_EPS) (gradient) */
} hs_terms;

#define HS_EPS 1e-4

/* Binomial coefficients C(d, k), d <= 3. */
static const double hgrid_binom[4][4] = {
    {1, 0, 0, 0}, {1, 1, 0, 0}, {1, 2, 1, 0}, {1, 3, 3, 1}};

/* c * d(rbar of level l)/dQ into its accumulators. */
static inline void rbar_grad(level *l, double c)
{
    l->dT_dq[1] += c / l->q[0];
    l->dT_dq[0] -= c * l->q[1] / (l->q[0] * l->q[0]);
}

/* hgrid_hard_spheres.c */

/* Set up the hard-sphere terms (nothing for the Poisson structure);
 * grad: also the matrices for the derivative in s. */
int hg_hgrid_hs_init(const hg_model_input *in, int grad, hs_terms *hs,
                     hg_err *e);
void hg_hgrid_hs_free(hs_terms *hs);
/* The own-level pair checks of level h (l->cd = A m_h P_h on entry) with
 * the hole taken out and crowded: sets l->cd, and with grad its partial
 * derivatives and its excess over A m_h P_h into *total. Returns the
 * crowding factor G_hh. */
double hg_hgrid_hs_own(const hs_terms *hs, int d, level *l, int h, double s,
                       double A, int grad, double *total);
/* The pair checks of a level-h particle on level j (B = B(j,h), dB =
 * sum_k k w_k Q_{h,k}) with the Kirkwood-Buff hole taken out and crowded:
 * added to lv[h].cd, and with grad their partial derivatives and their
 * excess over m_j B into *total. Returns the crowding factor G_jh. */
double hg_hgrid_hs_cross(const hs_terms *hs, int d, level *lv, int h, int j,
                         const double *s, double B, double dB, int grad,
                         double *total);

/* hgrid_measured.c */

/* The class weights of the levels (after their moments are filled);
 * nothing unless the structure is measured. */
int hg_hgrid_meas_init(const hg_model_input *in, const level *lv,
                       meas_terms *ms, hg_err *e);
void hg_hgrid_meas_free(meas_terms *ms);
/* The volume over s^d of the cells of size s as the grid builds them. */
double hg_hgrid_meas_cell_volume(const meas_terms *ms, double s);
/* The factor of level h's own-level pair checks: its built cells' volume
 * times the measured factor of its window (3 s at the mean edge). */
double hg_hgrid_meas_own_factor(const meas_terms *ms, const level *l, int h,
                                double s);
/* Cell accesses of the own neighbourhood of a level of size s; *small = 1
 * when a short periodic axis makes it fewer than 1 + n_c. */
double hg_hgrid_meas_own_cells(const meas_terms *ms, double s, int *small);
/* The pair checks of a level-h particle on level j (size sj) as built and
 * measured, added to l->cd; returns B(j,h) over the built cells' edges. */
double hg_hgrid_meas_cross(const meas_terms *ms, level *l, const level *lj,
                           int h, int j, double sj);
/* Mean cells of level j (size s) in the box of a level-h particle when a
 * short periodic axis clips it, else -1. */
double hg_hgrid_meas_box_cells(const meas_terms *ms, int h, double s,
                               double rmax_h);

#endif
