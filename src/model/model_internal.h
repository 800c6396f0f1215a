/* model_internal.h - the hard-sphere physics of hard_spheres.c shared by
 * the cost models' structure terms (models/hgrid_hard_spheres.c,
 * models/bin.c, models/lammps.c; not part of the public API). */
#ifndef HG_MODEL_INTERNAL_H
#define HG_MODEL_INTERNAL_H

#include "hg_psd.h"

/* Structure factor at k = 0 of the hard-sphere (dim 3) or hard-disk
 * (dim 2) fluid at packing fraction nu (hard_spheres.c). */
double hg_hs_s0(int dim, double nu);
/* Hole parameter kappa: the net hole of the particles of radius r' around
 * one of radius r >= r' is the ball of radius r + kappa r';
 * (1 + kappa)^d = (1 - S(0)) / nu; kappa -> 1 as nu -> 0. */
double hg_hs_kappa(int dim, double nu);
/* The constants of the hard-sphere terms of the models (hgrid, bin,
 * lammps): kappa and its powers, c_v = nu V_d / V_p (the number of
 * centres in a unit-radius ball per unit of r^d) and n = nu / V_p. */
typedef struct hg_hs_consts {
    double kap, kp[4], cv, n;
} hg_hs_consts;
void hg_hs_consts_init(int dim, double nu, double Vp, hg_hs_consts *c);
/* The excluded-centres hole of particles a around particles b in units of
 * c_v: H(a, b) = sum_k C(d,k) kappa^(d-k) Q_{a,d-k} Q_{b,k}, with qa, qb
 * the partial moments Q_{.,0..d} of the two sets. */
double hg_hs_hole(int dim, const hg_hs_consts *c, const double *qa,
                  const double *qb);

/* The particles larger than a level of cell size s (R > s/2), in
 * HG_HS_CLASSES size classes (log-spaced radius intervals): the matrix
 * that crowds the level's particles into the space it leaves free. */
enum { HG_HS_CLASSES = 24 };
typedef struct hg_hs_matrix {
    int dim, classes;        /* classes holding particles */
    double phi;              /* volume fraction of the matrix */
    double R[HG_HS_CLASSES]; /* mean radius of each class */
    double n[HG_HS_CLASSES]; /* number density of each class (N/V =
                                nu/V_p) */
    /* Kirkwood-Buff coefficients of the fluid of the particles up to the
     * level (R <= s/2) in the space the matrix leaves: the net number of
     * them of radii in dR missing around one of radius r is
     * -rho(R) dR G(r, R), G(r, R) = -sum_ab r^a kb[a][b] R^b */
    double kb[4][4];
} hg_hs_matrix;
void hg_hs_matrix_build(const hg_psd *psd, int dim, double nu, double Vp,
                        double s, hg_hs_matrix *mx);
/* kb = (I + J Xi)^-1 J of the fluid with moments xi[k] = sum rho r^k,
 * k = 0..2 dim (hard_spheres.c). */
void hg_hs_kb_matrix(int dim, const double *xi, double kb[4][4]);
/* Crowding factor Gbar (>= 1; 1 without matrix): the mean of the pair
 * distribution G over the search region of a particle of radius rp, i.e.
 * the region of volume vol (a ball of the same volume) outside the hole
 * of radius r_in, counting the matrix of the particles found. */
double hg_hs_crowding(const hg_hs_matrix *mx, double rp, double r_in,
                      double vol);

#endif
