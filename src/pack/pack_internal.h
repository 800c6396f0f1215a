/* pack_internal.h - pieces shared by the rsa and dense generators
 * (src/pack/pack_rsa.c, src/pack/pack_dense.c; not installed). */
#ifndef HG_PACK_INTERNAL_H
#define HG_PACK_INTERNAL_H

#include <gsl/gsl_rng.h>
#include <math.h>
#include "hg_grid.h"
#include "hg_pack_gen.h"

/* Geometric cell sizes s_h = 2 rmin (rmax/rmin)^(h/L) for the radii
 * [rmin, rmax], about a factor 2 apart; writes L (<= 16) and sizes[0..L-1]
 * (sizes[L-1] >= 2 rmax). */
void pack_grid_sizes(double rmin, double rmax, int *L, double *sizes);

/* Radii of prm->n particles by systematic sampling (seed prm->seed),
 * sorted non-increasing; the box edge holding them at prm->nu. *r is
 * malloc'ed (caller frees). */
int pack_radii(const hg_psd *psd, const hg_pack_params *prm, double **r,
               double *edge, hg_err *e);

/* RSA core: place the n spheres r[0..n-1] (non-increasing) in [0, A]^dim,
 * trying up to max_attempts random positions each. Placed centres go to
 * x[k*dim..] with their radius index in idx[k]; *placed is the count.
 * A particle that finds no free spot is
 *   force = 0: dropped; the run stops (*stalled = 1) after max_dropped
 *              such particles in a row;
 *   force = 1: placed anyway, at the best of a few more random positions
 *              (smallest largest overlap);
 *   force = 2: placed as with 1, and the run stops as with 0.
 * Progress is reported as the fraction plo + (phi - plo) * done. */
int pack_rsa_place(const double *r, size_t n, int dim, double A,
                   int periodic, gsl_rng *rng, size_t max_attempts,
                   size_t max_dropped, const hg_pack_options *opt, int force,
                   double *x, size_t *idx, size_t *placed, size_t *attempts,
                   int *stalled, double plo, double phi, hg_err *e);

/* Centre coordinate v of a sphere of radius r moved inside the walls
 * [lo, hi] so that v - r >= lo and v + r <= hi hold in floating point. */
static inline double pack_clamp_wall(double v, double r, double lo,
                                     double hi)
{
    if (v - r < lo)
        v = lo + r;
    while (v - r < lo)
        v = nextafter(v, INFINITY);
    if (v + r > hi)
        v = hi - r;
    while (v + r > hi)
        v = nextafter(v, -INFINITY);
    return v;
}

/* The GSL generator for a packing seed. */
gsl_rng *pack_rng(uint64_t seed);

#endif
