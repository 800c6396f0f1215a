/* hg_pack.h - packing generators: particle sets with radii from a size
 * distribution in a box of given packing fraction.
 *
 * Every generator has the signature of hg_pack_fn: it fills `out` (which
 * must be zeroed or cleared; owned by the caller afterwards,
 * hg_particles_clear) from the distribution and the parameters, and gives
 * the same packing for the same (psd, params, seed).
 */
#ifndef HG_PACK_H
#define HG_PACK_H

#include <stddef.h>
#include <stdint.h>
#include "hg_common.h"
#include "hg_particles.h"
#include "hg_psd.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hg_pack_params {
    int dim;       /* 2 or 3 */
    size_t n;      /* number of particles, >= 1 */
    double nu;     /* target packing fraction, 0 < nu < 1 */
    uint64_t seed; /* random seed */
    int periodic;  /* 1: periodic box (the Poisson generator requires it) */
} hg_pack_params;

typedef int (*hg_pack_fn)(const hg_psd *psd, const hg_pack_params *prm,
                          hg_particles *out, hg_err *e);

/* Check dim, n, nu; the message names the field and the value. */
int hg_pack_params_check(const hg_pack_params *prm, hg_err *e);

/* Edge of the cubic box holding n particles of mean volume V_p at packing
 * fraction nu: A = (n V_p / nu)^(1/d) (KOL 2014 eq. 8). NaN on bad input. */
double hg_pack_box_edge(const hg_psd *psd, int dim, size_t n, double nu);

/* Poisson packing: radii by systematic sampling of the quantile function
 * (hg_psd_sample_systematic with seed), centres uniformly random in the
 * periodic box [0, A]^d (GSL mt19937 seeded from seed), overlaps allowed -
 * the cost model's assumption. Requires prm->periodic = 1. */
int hg_pack_poisson(const hg_psd *psd, const hg_pack_params *prm,
                    hg_particles *out, hg_err *e);

/* Round cell sizes up so that a whole number of cells spans a periodic box
 * edge A: out[h] = A / floor(A / sizes[h]). Fails with HG_EINVAL if a
 * size exceeds A or is not finite and > 0. out may equal sizes. */
int hg_pack_round_sizes(double A, int L, const double *sizes, double *out,
                        hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
