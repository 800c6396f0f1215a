/* hg_model.h - the analytical cost model of contact detection
 * (Krijgsman, Ogarko & Luding 2014 = "KOL 2014"; SPEC sections 2-3).
 *
 * Work is counted per particle, in units of one pair check:
 *   T = T_cd + K T_ca                                   (KOL 2014 eq. 27)
 * Models are plug-ins (models/<model>.c) registered in src/model/model_registry.c.
 */
#ifndef HG_MODEL_H
#define HG_MODEL_H

#include "hg_common.h"
#include "hg_psd.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hg_algorithm {
    HG_TOP_DOWN = 0,  /* a particle scans the finer levels j < h */
    HG_BOTTOM_UP = 1  /* a particle scans the coarser levels j > h */
} hg_algorithm;

/* "top-down" / "bottom-up". */
const char *hg_algorithm_name(hg_algorithm a);
/* Accepts "top-down", "topdown", "td", "bottom-up", "bottomup", "bu". */
int hg_algorithm_parse(const char *text, hg_algorithm *out, hg_err *e);

/* How particle centres are placed: the statistics the model counts with. */
typedef enum hg_structure {
    HG_STRUCTURE_POISSON = 0,     /* uniformly random centres (KOL 2014) */
    HG_STRUCTURE_HARD_SPHERES = 1 /* no overlaps: hard spheres (3D) or hard
                                     disks (2D), src/model/hard_spheres.c */
} hg_structure;

/* "poisson" / "hard-spheres". */
const char *hg_structure_name(hg_structure s);
/* Accepts "poisson" and "hard-spheres" ("hard-disks" as a synonym). */
int hg_structure_parse(const char *text, hg_structure *out, hg_err *e);

/* Physical parameters of the system. */
typedef struct hg_system {
    int dim;   /* 2 or 3 */
    double nu; /* packing fraction, 0 < nu < 1 */
    double K;  /* cost of one cell access / cost of one pair check, > 0 */
    hg_structure structure; /* default (0) poisson */
} hg_system;

/* Check dim, nu, K; message names the field and value. */
int hg_system_check(const hg_system *sys, hg_err *e);

/* One level of the breakdown. All work figures are per particle of the
 * whole system (i.e. already weighted by the fraction P_h). */
typedef struct hg_level_cost {
    int level;                 /* 1..L */
    double cell_size;          /* s_h */
    double r_lo, r_hi;         /* radii on this level lie in (r_lo, r_hi] */
    double fraction;           /* P_h */
    double particles_per_cell; /* m_h (KOL 2014 eq. 11) */
    double T_cd, T_ca, T;      /* P_h [...] of SPEC 3 */
} hg_level_cost;

/* A full evaluation. per_level is owned by the struct (hg_cost_clear). */
typedef struct hg_cost {
    hg_algorithm algorithm;
    int dim;
    double nu, K;
    int levels;          /* L */
    int nonempty_levels; /* levels holding a positive fraction */
    hg_level_cost *per_level;
    double T_cd, T_ca, T;
} hg_cost;

void hg_cost_clear(hg_cost *c); /* frees per_level; accepts NULL */

/* Evaluate the HGrid cost for L levels with cell sizes sizes[0..L-1]
 * (= s_1..s_L, non-decreasing, s_L >= 2 r_max; s_0 = 2 r_min implicit).
 * out may be NULL when only the totals are wanted (then no allocation). */
int hg_cost_evaluate(const hg_psd *psd, const hg_system *sys,
                     hg_algorithm alg, int L, const double *sizes,
                     hg_cost *out, double *T, double *T_cd, double *T_ca,
                     hg_err *e);

/* The single-level linked cell: L = 1, s_1 = 2 r_max. */
int hg_cost_linked_cell(const hg_psd *psd, const hg_system *sys,
                        hg_cost *out, hg_err *e);

/* Check a list of cell sizes against psd: finite, > 0, non-decreasing
 * (strictly increasing when strict != 0), last >= 2 r_max. */
int hg_sizes_check(const hg_psd *psd, int L, const double *sizes, int strict,
                   hg_err *e);

/* Cost-model plug-ins. */
typedef struct hg_model_input {
    const hg_psd *psd;
    const hg_system *sys;
    int L;
    const double *sizes;
} hg_model_input;

typedef struct hg_model {
    const char *name; /* "hgrid-top-down", "hgrid-bottom-up", "linked-cell" */
    const char *help;
    /* Fill out (may be NULL) and the totals. */
    int (*evaluate)(const hg_model_input *in, hg_cost *out, double *T,
                    double *T_cd, double *T_ca, hg_err *e);
} hg_model;

size_t hg_model_count(void);
const hg_model *hg_model_at(size_t i);
const hg_model *hg_model_find(const char *name);

/* Shared core of the HGrid models (src/model/cost.c). */
int hg_cost_hgrid(const hg_model_input *in, hg_algorithm alg, hg_cost *out,
                  double *T, double *T_cd, double *T_ca, hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
