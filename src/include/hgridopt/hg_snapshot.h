/* hg_snapshot.h - what a particle snapshot (a user's simulation, written
 * as a particle file) tells the cost model beyond its radii: the density
 * its particles experience and how that varies with the scale of a grid's
 * search and with the sizes of the two particles of a pair.
 *
 * The KOL 2014 model counts the particles a search finds as (number
 * density) x (scanned volume): uniformly random centres in an infinite
 * (periodic) system. A poured bed breaks that three ways: the box is not
 * the bed (a tall box, a free surface, walls), the sizes may be layered
 * (segregation, stratified pouring), and soft-sphere contacts pile
 * particles up at contact. All three are a property of the pairs, so they
 * are measured from the pairs: for window widths a and radius classes
 * (c_i, c_k),
 *   g(a; c_i, c_k) = <sum_{k in c_k, k != i} W_a(x_k - x_i)>_{i in c_i}
 *                    / (x_k a^d)
 * with x_k the number fraction of class c_k and W_a the window a grid's
 * own-level search has along each axis (1 up to a/3, falling linearly to 0
 * at 2a/3; its integral is a per axis), minimum image along periodic axes
 * only (where the window also reaches the nearest image, as a grid's
 * wrapped neighbourhood does, a particle counts at most once). g is a number density (per unit volume); for uniformly random
 * centres it is N/V at every a. The cost model multiplies each pair-check
 * term by g / n, n = nu / V_p its own number density
 * (hg_snapshot_factor); the factor is 1 for a Poisson packing and measures
 * walls, free surfaces, layers and contact structure alike.
 */
#ifndef HG_SNAPSHOT_H
#define HG_SNAPSHOT_H

#include <stddef.h>
#include "hg_common.h"
#include "hg_particles.h"
#include "hg_psd.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HG_SNAPSHOT_MAX_CLASSES 12
#define HG_SNAPSHOT_LAYERS 8
#define HG_SNAPSHOT_MIN_LAYERS 3 /* an axis profiled holds at least this many
                                  mean diameters */

/* Plain figures of a snapshot (lengths in the file's units). */
typedef struct hg_snapshot_info {
    int dim;
    size_t n;
    size_t centres;          /* particles whose neighbourhoods were counted
                                (all up to 20000, else a sample per class) */
    char boundary[8];        /* e.g. "p p f" */
    double box_lo[3], box_hi[3];
    double occ_lo[3], occ_hi[3]; /* extent of the spheres (x -+ r) */
    double nu_box;           /* sphere volume / box volume */
    double nu_occupied;      /* sphere volume / the box cut to the spheres'
                                extent along its non-periodic axes */
    double nu_local;         /* the packing fraction the particles
                                experience: the sphere volume in the window
                                of the linked cell's search (width 6 r_max)
                                around a particle per window volume, the
                                mean over the particles; the nu a single
                                homogeneous model would take */
    double coordination;     /* contacts per particle (centre distance
                                <= r_i + r_k) */
    double coordination_poisson; /* the same expected for uniformly random
                                    centres at nu_local */
    double max_overlap;      /* largest (r_i + r_k - d) / min(r_i, r_k) */
    int layer_axis;          /* non-periodic axis profiled: the last one
                                (gravity) whose occupied extent holds at
                                least HG_SNAPSHOT_MIN_LAYERS mean diameters;
                                -1 when none does (every axis periodic, a
                                monolayer one diameter thick) */
    int layers;              /* slabs of the occupied extent along it, each
                                at least a mean diameter wide (at most
                                HG_SNAPSHOT_LAYERS) */
    double layer_nu[HG_SNAPSHOT_LAYERS];    /* packing fraction per slab */
    double layer_rmean[HG_SNAPSHOT_LAYERS]; /* mean radius per slab */
    double layer_fraction[HG_SNAPSHOT_LAYERS]; /* particles per slab / N */
    double size_layering;    /* largest / smallest slab mean radius over the
                                slabs holding >= 5 % of the particles (1:
                                none) */
} hg_snapshot_info;

typedef struct hg_snapshot hg_snapshot;

/* Measure the pair statistics of p (boundary per axis from p). The
 * particles are not kept. Work ~ (centres) x (neighbours within 4 r_max);
 * about a second for 10^4 particles. *out is freed with hg_snapshot_free. */
int hg_snapshot_create(const hg_particles *p, hg_snapshot **out, hg_err *e);
/* The same with about max_centres centres counted (at least 200 per
 * radius class; 0: the default, 4000): cheaper, noisier, for the many
 * frames of a trajectory. */
int hg_snapshot_create_sampled(const hg_particles *p, size_t max_centres,
                               hg_snapshot **out, hg_err *e);
/* The same, reporting progress to fn (may be NULL; stage "measuring",
 * the share of the particles counted), from one thread at a time. */
int hg_snapshot_create_progress(const hg_particles *p, hg_progress_fn fn,
                                void *params, hg_snapshot **out, hg_err *e);
void hg_snapshot_free(hg_snapshot *s); /* accepts NULL */
/* A copy of s, freed with hg_snapshot_free (NULL: out of memory). */
hg_snapshot *hg_snapshot_copy(const hg_snapshot *s);

const hg_snapshot_info *hg_snapshot_get_info(const hg_snapshot *s);
int hg_snapshot_dim(const hg_snapshot *s);

/* Radius classes: their count (two per factor of 2 in radius, at most
 * HG_SNAPSHOT_MAX_CLASSES). */
int hg_snapshot_classes(const hg_snapshot *s);

/* g(a; ci, ck) / n with n = nu / Vp (Vp the mean particle volume the
 * model uses): the factor by which the class-ck particles found in a
 * window of width a around a class-ci particle exceed the count of a
 * homogeneous Poisson system at packing fraction nu. Linear in log g
 * against log a between the measured widths, constant beyond them. */
double hg_snapshot_factor(const hg_snapshot *s, double nu, double Vp,
                          double a, int ci, int ck);
/* The factor of two mixes of classes: sum over ci, ck of
 * wi[ci] wk[ck] hg_snapshot_factor(s, nu, Vp, a, ci, ck) (wi, wk: one
 * weight per class, e.g. from hg_snapshot_class_weights). */
double hg_snapshot_factor_mix(const hg_snapshot *s, double nu, double Vp,
                              double a, const double *wi, const double *wk);
/* The same for all particles around all (classes weighted by their number
 * fractions). */
double hg_snapshot_factor_all(const hg_snapshot *s, double nu, double Vp,
                              double a);
/* The class mix of the radii (lo, hi] of psd (a grid level, a LAMMPS
 * collection): w[c] = each class's share of them and, when rmean is not
 * NULL, rmean[c] = its mean radius there (0 for an empty share); arrays
 * of hg_snapshot_classes(s) entries. Returns their number fraction
 * M_0(lo, hi); all zero when it is not > 0. */
double hg_snapshot_class_weights(const hg_snapshot *s, const hg_psd *psd,
                                 double lo, double hi, double *w,
                                 double *rmean);

#ifdef __cplusplus
}
#endif
#endif
