/* pack_internal.h - pieces of the rsa generator (src/pack/pack_rsa.c)
 * shared with the dense generator (pack_dense.c) and the packings of a
 * structure (pack_structure.c); not installed. */
#ifndef HG_PACK_INTERNAL_H
#define HG_PACK_INTERNAL_H

#include <gsl/gsl_rng.h>
#include <math.h>
#include "hg_grid.h"
#include "hg_pack_gen.h"

/* Cells the generators' grids may hold in all, for n particles: the RSA
 * grid keeps dense storage (it inserts one particle at a time), 8 bytes a
 * cell, so this bounds its memory at 8 PACK_CELLS_PER_PARTICLE bytes a
 * particle whatever the size ratio (hg_pack_memory_estimate). */
#define PACK_CELLS_PER_PARTICLE 16.0
#define PACK_CELLS_MIN 65536.0

/* Geometric cell sizes from s_1 = max(2 rmin, the floor) up to 2 rmax,
 * about a factor 2 apart, for the radii [rmin, rmax] of n particles in a
 * box of edge A in dim dimensions. The floor A / (cells)^(1/dim) keeps
 * the finest level within PACK_CELLS_PER_PARTICLE n cells: with a wide
 * size ratio and few small particles (alpha = 0, omega = 100) cells of
 * 2 rmin would number 10^9-10^10 for 10^5 particles; with the floor a
 * cell still holds well under one particle on average. Writes L (<= 16)
 * and sizes[0..L-1] (sizes[L-1] >= 2 rmax). */
void pack_grid_sizes(double rmin, double rmax, size_t n, int dim, double A,
                     int *L, double *sizes);

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

/* One RSA run on the target radii of psd (pack_radii, then
 * pack_rsa_place without forcing, progress over [0, phi]): the arrays
 * are the caller's to release with pack_rsa_run_free, also on failure. */
typedef struct pack_rsa_run {
    double *r, *x, A;
    size_t *idx, placed, attempts;
    int stalled;
} pack_rsa_run;
int pack_rsa_run_do(const hg_psd *psd, const hg_pack_params *prm,
                    const hg_pack_options *opt, size_t max_attempts,
                    double phi, pack_rsa_run *run, hg_err *e);
void pack_rsa_run_free(pack_rsa_run *run);

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
