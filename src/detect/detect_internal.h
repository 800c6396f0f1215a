/* detect_internal.h - helpers shared by the contact detectors in
 * src/detect/ (not part of the public API). */
#ifndef HG_DETECT_INTERNAL_H
#define HG_DETECT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "hg_detector.h"

/* A sort key: value and particle index. */
typedef struct hg_mkey {
    double v;
    uint32_t id;
} hg_mkey;

/* Sort keys by (v, id) with qsort_r, adding the comparisons made to
 * *comparisons. */
void hg_mkey_sort(hg_mkey *k, size_t n, uint64_t *comparisons);

/* The particles plus periodic ghost images (see hg_detector.h): entries
 * [0, n_orig) are the originals, the rest images; orig[a] is the original
 * of entry a. For an open box there are no images. */
typedef struct hg_ghosts {
    int dim;
    size_t n, n_orig, cap;
    double *x;       /* n * dim, image coordinates */
    double *r;       /* n */
    uint32_t *orig;  /* n */
    double rmax;
} hg_ghosts;

/* Fill g from p; images are made for particles within cut of a face.
 * Periodic boxes need every edge > 2 cut + margin, else HG_EINVAL naming
 * the method `who`. */
int hg_ghosts_build(hg_ghosts *g, const hg_particles *p, double cut,
                    double margin, const char *who, hg_err *e);
void hg_ghosts_clear(hg_ghosts *g);
size_t hg_ghosts_bytes(const hg_ghosts *g);

/* If augmented entries a and b stand for a pair to be reported, store the
 * original indices (i, j) and return 1; return 0 for image-image pairs, an
 * image of the same particle, and the duplicate (image, original) order. */
static inline int hg_ghosts_accept(const hg_ghosts *g, size_t a, size_t b,
                                   uint32_t *i, uint32_t *j)
{
    int ga = a >= g->n_orig, gb = b >= g->n_orig;
    if (ga && gb)
        return 0;
    uint32_t oa = g->orig[a], ob = g->orig[b];
    if (oa == ob)
        return 0;
    /* keep (original o, image of k) only when o < k */
    if (ga && oa < ob)
        return 0;
    if (gb && ob < oa)
        return 0;
    *i = oa;
    *j = ob;
    return 1;
}

/* 1 if entries a and b are within r_a + r_b + w of each other on every
 * axis (image coordinates). */
static inline int hg_ghosts_near(const hg_ghosts *g, size_t a, size_t b,
                                 double w)
{
    const double *xa = g->x + a * (size_t)g->dim;
    const double *xb = g->x + b * (size_t)g->dim;
    double lim = g->r[a] + g->r[b] + w;
    for (int d = 0; d < g->dim; d++) {
        double dx = xa[d] - xb[d];
        if (dx > lim || dx < -lim)
            return 0;
    }
    return 1;
}

/* Safety margin added to broad-phase bounds so that rounding can never
 * drop a contact the exact narrow-phase test accepts. */
double hg_methods_margin(const hg_particles *p, double skin);

/* Grid-based search (grid.c), shared with verlet.c: a linked-cell state
 * (one level of 2 r_max), the search of p with the given skin into out
 * (reset first by hg_grid_find_contacts), adding its work to c. */
int hg_methods_grid_new_lc(void **state, hg_err *e);
void hg_methods_grid_free(void *state);
/* Cell sizes in use by a grid state (lc, hgrid*): *L entries or NULL
 * before the first detection. */
const double *hg_methods_grid_sizes(const void *state, int *L);
/* Heap held by a grid state. */
size_t hg_methods_grid_bytes(const void *state);
int hg_methods_grid_search(void *state, const hg_particles *p, double skin,
                           hg_pairs *out, hg_detector_counters *c, hg_err *e);

/* The registered method tables. */
extern const hg_detector_type hg_detector_brute;
extern const hg_detector_type hg_detector_sap;
extern const hg_detector_type hg_detector_sap_incremental;
extern const hg_detector_type hg_detector_sort;
extern const hg_detector_type hg_detector_lc;
extern const hg_detector_type hg_detector_lammps_bins;
extern const hg_detector_type hg_detector_hgrid;
extern const hg_detector_type hg_detector_hgrid_bu;
extern const hg_detector_type hg_detector_verlet;

#endif
