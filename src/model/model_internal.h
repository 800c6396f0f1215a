/* model_internal.h - pieces of the cost model shared by cost.c and
 * cost_grad.c (not part of the public API). */
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
/* Mean over a ball of radius RK of the lens fraction of two balls of
 * radius a at the distance u (0 <= lens fraction <= 1). */
double hg_hs_lens_mean(int dim, double a, double RK);
/* Crowding factor Gbar of the particles of a level of cell size s: how many
 * times more often than in the Poisson model they are found by searches
 * (>= 1; 1 when no particle is larger than s / 2). Vp = mean particle
 * volume. */
double hg_hs_crowding(const hg_psd *psd, int dim, double nu, double Vp,
                      double s);

#endif
