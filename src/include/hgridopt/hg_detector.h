/* hg_detector.h - contact detectors behind one interface: particles in,
 * contact pairs out, with per-detector work counters.
 *
 * A contact is a pair i < j whose centre distance is below
 * r_i + r_j + skin (hg_particles_touch); in a periodic box distances are
 * minimum-image. Every detector returns exactly this set (the order of the
 * pairs is unspecified: sort with hg_pairs_sort before comparing).
 *
 * Registered detectors (hg_detector_type_at / hg_detector_type_find):
 *   brute            all N(N-1)/2 pairs; the oracle. Refuses N > max_n
 *                    (default 20000) unless force=1.
 *   sap              sort-and-sweep on axis-aligned bounding boxes (sort the
 *                    lower box faces on one axis, axis=0..2, sweep, test the
 *                    other axes, then the spheres). Periodic: ghost images.
 *   sap-incremental  incremental sort-and-update (Schinner 1999 section
 *                    3.3; the linked linear list of Muth et al. 2007):
 *                    sorted endpoint lists on every axis kept by insertion
 *                    sort between steps, the set of overlapping boxes
 *                    updated on each exchange.
 *                    Open boxes only: a periodic box is refused (HG_EINVAL).
 *   sort             Leszczynski & Ciesielski 2004: sort by
 *                    l_i = |x_i - x_0| - r_i, scan forward with an early
 *                    break. Periodic: ghost images.
 *   lc               linked cell: the bundled HGrid (hg_grid.h) with one
 *                    level of cell size 2 r_max of the particle set.
 *   bin              one grid of bins of half the largest cutoff
 *                    (2 r_max + skin) with the stencil pruned to the bins
 *                    within reach, as LAMMPS' `neighbor bin`.
 *   hgrid, hgrid-bu  the bundled HGrid, Top-Down / Bottom-Up, with the cell
 *                    sizes given as sizes=s1;...;sL (required; the CLI
 *                    passes hg_recommend's sizes).
 *   verlet           Verlet neighbour list (Muth et al. 2007 sec. 2.1): pairs
 *                    within r_i + r_j + skin + list_skin found by the linked
 *                    cell, reused by update until a particle has moved more
 *                    than list_skin / 2 since the build. list_skin=X
 *                    (absolute) or list_skin_rel=X (times the smallest
 *                    radius, default 0.4).
 * The grid-based detectors handle periodic boxes natively (minimum image).
 *
 * Ghost images (sap, sort in a periodic box): every particle closer than
 * c = 2 r_max + skin to a box face is copied, shifted by +-L on the axes
 * concerned; a contact between an original and an image is reported once as
 * the pair of originals. Methods that support periodic boxes require every
 * box edge to exceed 2 c (then the minimum image of a contact is unique);
 * smaller periodic boxes are refused with HG_EINVAL.
 *
 * Usage: hg_detector_create(name, params) -> hg_detector_detect (static: full
 * detection) -> hg_detector_update (particles moved since the previous call:
 * incremental detectors pay only for what changed, the others detect again)
 * -> hg_detector_free. Between detect/update calls the particle set must keep
 * its count, radii, box and periodic flag; otherwise call detect again.
 */
#ifndef HG_DETECTOR_H
#define HG_DETECTOR_H

#include <stddef.h>
#include <stdint.h>
#include "hg_common.h"
#include "hg_particles.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Work done by one detect/update call. Counters a detector does not use stay
 * 0. All are reset by every call. */
typedef struct hg_detector_counters {
    uint64_t pair_checks;      /* narrow-phase sphere-sphere distance tests */
    uint64_t box_tests;        /* bounding-box overlap tests (sap*) */
    uint64_t cell_accesses;    /* grid cells visited (lc, hgrid, verlet) */
    uint64_t sort_comparisons; /* key comparisons made by sorting */
    uint64_t swaps;            /* endpoint exchanges (sap-incremental) */
    uint64_t list_builds;      /* neighbour-list / structure (re)builds */
    uint64_t list_pairs;       /* pairs held in a neighbour/overlap list */
    size_t memory_bytes;       /* heap held by the detector after the call */
} hg_detector_counters;

/* A detector instance. Opaque handle. */
typedef struct hg_detector hg_detector;

/* A registered detector: a const table of function pointers (one file per
 * detector in src/detect/). Plug-in authors fill it; users only read the
 * descriptive fields and call the hg_detector_* functions below. */
typedef struct hg_detector_type {
    const char *name;
    const char *help;            /* one line, lists the parameters */
    int periodic;                /* 1: supports periodic boxes */
    int open;                    /* 1: supports open boxes */
    int incremental;             /* 1: update pays only for changes */
    const char *const *keys;     /* NULL-terminated parameter names */
    /* the cost model (hg_model name) that predicts its counts, NULL if
     * none; a detector with create_sized takes that model's cell sizes */
    const char *model;
    /* Create the state from validated params; *state owned by the caller
     * through free_state. */
    int (*create)(const hg_kv *params, void **state, hg_err *e);
    /* Methods with cell sizes (hgrid, hgrid-bu): create with sizes[0..L-1]
     * given as numbers (params then has no "sizes"). NULL for the others. */
    int (*create_sized)(const hg_kv *params, int L, const double *sizes,
                        void **state, hg_err *e);
    int (*detect)(void *state, const hg_particles *p, double skin,
                  hg_pairs *out, hg_detector_counters *c, hg_err *e);
    /* NULL: update is detect. */
    int (*update)(void *state, const hg_particles *p, double skin,
                  hg_pairs *out, hg_detector_counters *c, hg_err *e);
    void (*free_state)(void *state);
} hg_detector_type;

/* Number of registered detectors and the i-th (NULL when out of range). */
size_t hg_detector_type_count(void);
const hg_detector_type *hg_detector_type_at(size_t i);
/* Method by name, NULL if unknown. */
const hg_detector_type *hg_detector_type_find(const char *name);

/* Create a detector by name with key=value parameters (params may be NULL).
 * Unknown name or key: HG_EUNKNOWN; a malformed or out-of-range value:
 * HG_EPARSE / HG_EINVAL; the message names the detector and the key.
 * *out is owned by the caller (hg_detector_free). */
int hg_detector_create(const char *name, const hg_kv *params,
                       hg_detector **out, hg_err *e);
/* As hg_detector_create, for a method with cell sizes (hgrid, hgrid-bu):
 * the sizes s_1..s_L (finite, > 0, non-decreasing, the last >= the largest
 * diameter of the particles detected) as an array instead of the text
 * parameter sizes=...; copied. Other methods: HG_EINVAL. */
int hg_detector_create_sized(const char *name, const hg_kv *params, int L,
                             const double *sizes, hg_detector **out,
                             hg_err *e);
void hg_detector_free(hg_detector *m); /* accepts NULL */
const hg_detector_type *hg_detector_get_type(const hg_detector *m);

/* Static detection: the full contact set of p for the given skin (>= 0)
 * into out (reset first; caller owns it). c (may be NULL) receives the work
 * of this call. Fails with HG_EINVAL when p is invalid or its box type is
 * not supported by the detector, HG_ELIMIT when a size limit is hit,
 * HG_ENOMEM. */
int hg_detector_detect(hg_detector *m, const hg_particles *p, double skin,
                       hg_pairs *out, hg_detector_counters *c, hg_err *e);
/* Dynamic step: as detect, for the same particles moved since the previous
 * detect/update of m. Incremental detectors reuse their state; the first
 * call, or a call after a change of count, radii, box, periodic flag or
 * skin, is a full detection. */
int hg_detector_update(hg_detector *m, const hg_particles *p, double skin,
                       hg_pairs *out, hg_detector_counters *c, hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
