/* hg_system.h - the particle system a cost model describes: dimension and
 * packing fraction. The size distribution is a separate object (hg_psd.h);
 * the parameters of a model (such as K) belong to the model (hg_model.h).
 */
#ifndef HG_SYSTEM_H
#define HG_SYSTEM_H

#include "hg_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Physical parameters of the system. A zero-initialised tail means the
 * assumptions of KOL 2014 (centres spread independently of each other), so
 * fields added later keep `hg_system sys = {dim, nu};` valid. */
/* How the particle centres are placed: the statistics a model counts with. */
typedef enum hg_structure {
    HG_STRUCTURE_POISSON = 0,     /* uniformly random, independent centres
                                     (KOL 2014; overlaps allowed) */
    HG_STRUCTURE_HARD_SPHERES = 1, /* no overlaps: hard spheres (3D), hard
                                     disks (2D), src/model/hard_spheres.c */
    HG_STRUCTURE_MEASURED = 2     /* the pair statistics of a particle
                                     snapshot (hg_system.snapshot,
                                     hg_snapshot.h): walls, free surfaces,
                                     layers and contacts as measured */
} hg_structure;

/* "poisson" / "hard-spheres" / "measured". */
const char *hg_structure_name(hg_structure s);
/* Accepts "poisson", "hard-spheres" ("hard-disks" as a synonym) and
 * "measured" (which needs a snapshot: hg_system_check). */
int hg_structure_parse(const char *text, hg_structure *out, hg_err *e);

struct hg_snapshot;

typedef struct hg_system {
    int dim;   /* 2 or 3 */
    double nu; /* packing fraction, 0 < nu < 1; with a snapshot the one the
                  particles experience (hg_snapshot_info.nu_local) */
    hg_structure structure; /* default (0) poisson */
    const struct hg_snapshot *snapshot; /* structure measured: the pair
                                           statistics (not owned) */
} hg_system;

/* Check dim, nu and structure (measured: a snapshot of the same
 * dimension); the message names the field and value. */
int hg_system_check(const hg_system *sys, hg_err *e);

/* Packing fraction above which the hard-sphere statistics (fluid theory)
 * stop holding: 0.64 in 3D (random close packing of equal spheres), 0.75
 * in 2D (between 0.7, the densest packings validated, and random close
 * packing of disks near 0.84; equal disks freeze at 0.70-0.72). Jammed
 * packings are measured above the model there (docs/model.md). */
double hg_structure_fluid_limit(int dim);

#ifdef __cplusplus
}
#endif
#endif
