/* hg_model.h - cost models of contact detection: the spine of hgridopt.
 *
 * A cost model predicts the work of contact detection per particle, in
 * units of one pair check, from the size distribution, the system and the
 * cell sizes of a grid:
 *   T = T_cd + K T_ca                                   (KOL 2014 eq. 27)
 * with T_cd the pair checks and T_ca the cell accesses per particle. The
 * models of the bundled HGrid add C T_tab, its tables' cells per particle
 * at C pair checks each (the rebuild's share: HG_MODEL_PARAM_C).
 * Every layer (optimiser, recommendation, scan, validation, calibration,
 * command line) takes a model as a value, `const hg_model *`.
 *
 * A model is one file models/<name>.c defining `const hg_model
 * hg_model_<name>` (a const table of function pointers) and one line in the
 * registry src/model/model_registry.c. Registered today:
 *   hgrid-top-down, hgrid-bottom-up   the HGrid of KOL 2014 (models/hgrid.c)
 *   linked-cell                       one level of cell size 2 r_max
 *   bin                               LAMMPS' `neighbor bin`: bins of half
 *                                     the cutoff, pruned stencil
 */
#ifndef HG_MODEL_H
#define HG_MODEL_H

#include <float.h>
#include "hg_common.h"
#include "hg_grid.h"
#include "hg_psd.h"
#include "hg_system.h"

#ifdef __cplusplus
extern "C" {
#endif

/* K of KOL 2014 (a cell access costs 0.2 pair checks): the default of every
 * model's parameter "K". */
#define HG_K_PAPER 0.2

/* Most parameters one model may declare. */
#define HG_MODEL_MAX_PARAMS 8

/* A parameter a model reads, with its default and valid range. */
typedef struct hg_model_param {
    const char *name;   /* e.g. "K" */
    double def;         /* default value */
    double min, max;    /* valid: min <= v <= max (min < v when open_min) */
    int open_min;
    const char *help;   /* one line, with the unit */
} hg_model_param;

/* The table entry of K, for the models that weigh cell accesses by it. */
#define HG_MODEL_PARAM_K                                                   \
    {"K", HG_K_PAPER, 0.0, DBL_MAX, 1,                                     \
     "cost of one cell access in pair checks (KOL 2014 eq. 27)"}

/* The table entry of C, for the models of the bundled HGrid: what a cell
 * of its tables costs per rebuild and detection (clearing, prefix sums,
 * and reading entries that are rarely in cache when the table is sparse).
 * 0 is KOL 2014's model, which counts the detection only. */
#define HG_MODEL_PARAM_C                                                   \
    {"C", 0.0, 0.0, DBL_MAX, 0,                                            \
     "cost of one cell of the grid's tables per rebuild and detection, "   \
     "in pair checks (0: the detection only, as KOL 2014)"}

/* The table entry of whole, for the models of a grid that stretches its
 * cells to whole cells along each periodic edge (the bundled HGrid; also
 * LAMMPS' and LIGGGHTS' bins): with a measured snapshot (a periodic box)
 * the model counts the cells as built, edge A / floor(A / s) per axis.
 * 0: cells of exactly the size given (MercuryDPM's hashed grid). */
#define HG_MODEL_PARAM_WHOLE                                               \
    {"whole", 1.0, 0.0, 1.0, 0,                                            \
     "1: cells stretched to whole cells along each periodic edge, as the " \
     "bundled grid builds them; 0: cells of the size given (hashed)"}

/* Parameter values given by the user, by name (plain data; names are
 * copied). A model takes the values it declares and the defaults for the
 * others; names no model declares are the caller's concern
 * (hg_model_param_index tells whether a model declares one). */
typedef struct hg_model_values {
    int n;
    char name[HG_MODEL_MAX_PARAMS][32];
    double value[HG_MODEL_MAX_PARAMS];
    /* The constants of an engine's models beyond their parameters,
     * resolved once by the caller (hg_engine.consts_resolve; for
     * lammps-multi and lammps-bin a const hg_consts *); not owned,
     * must outlive every evaluation. NULL: the model's shipped defaults.
     * No model reads a file. */
    const void *consts;
} hg_model_values;

/* Set (or replace) the value of name. HG_ELIMIT when full, HG_EINVAL for a
 * name longer than 31 characters or a non-finite value. */
int hg_model_values_set(hg_model_values *v, const char *name, double value,
                        hg_err *e);
/* 1 and *value if v (may be NULL) holds name, else 0. */
int hg_model_values_get(const hg_model_values *v, const char *name,
                        double *value);

typedef struct hg_model hg_model;

/* Everything a model reads. Cell sizes s_1..s_L (sizes[h-1] = s_h,
 * non-decreasing, s_L >= 2 r_max; s_0 = 2 r_min implicit). */
typedef struct hg_model_input {
    const hg_model *model; /* the model evaluated (set by hg_model_evaluate
                              and hg_model_gradient): a callback may read
                              its own table, e.g. grid_algorithm */
    const hg_psd *psd;
    const hg_system *sys;
    int L;
    const double *sizes;
    double params[HG_MODEL_MAX_PARAMS]; /* the model's parameters, in the
                                           order of its table */
    const void *consts; /* hg_model_values.consts (NULL: the model's
                           shipped defaults) */
    double smooth; /* gradient only: for a discrete distribution (no pdf)
                      the density at a level boundary b is the mass in
                      b (1 -+ smooth) per length (hg_model_density);
                      0: boundary terms are left out */
} hg_model_input;

/* One level of the breakdown. All work figures are per particle of the
 * whole system (i.e. already weighted by the fraction P_h). */
typedef struct hg_level_cost {
    int level;                 /* 1..L */
    double cell_size;          /* s_h */
    double r_lo, r_hi;         /* radii on this level lie in (r_lo, r_hi] */
    double fraction;           /* P_h (KOL 2014 eq. 9) */
    double particles_per_cell; /* m_h (KOL 2014 eq. 11) */
    double T_cd, T_ca, T;      /* T = T_cd + K T_ca + C T_tab of this
                                  level */
    double T_tab;              /* its table's cells per particle (models
                                  with the parameter C; else 0) */
} hg_level_cost;

/* Totals of an evaluation, per particle. */
typedef struct hg_work {
    double T, T_cd, T_ca;
    double T_tab; /* table cells per particle, weighed by C in T */
} hg_work;

/* A full evaluation. per_level is owned by the struct (hg_cost_clear). */
typedef struct hg_cost {
    const hg_model *model;
    int dim;
    double nu;
    double K;            /* weight of T_ca in T (the model's "K") */
    double C;            /* weight of T_tab in T (the model's "C"; 0 for
                            models without it) */
    int levels;          /* L */
    int nonempty_levels; /* levels holding a positive fraction */
    hg_level_cost *per_level;
    double T_cd, T_ca, T, T_tab;
} hg_cost;

void hg_cost_clear(hg_cost *c); /* frees per_level; accepts NULL */

/* The model table. The callbacks get checked input (system, sizes,
 * parameter ranges): hg_model_evaluate / hg_model_gradient do the checks;
 * a model built on another calls those, not the other's callbacks, with
 * its own input: the other model gets the parameters it declares by name
 * (the defaults for those the caller's model lacks). */
struct hg_model {
    const char *name;           /* e.g. "hgrid-top-down" */
    const char *help;           /* one line */
    hg_algorithm grid_algorithm;/* the bundled grid it describes, or
                                   HG_GRID_NONE */
    int max_levels;             /* 1: one level of cell size 2 r_max (the
                                   caller's L and sizes are replaced);
                                   0: any number of levels */
    const hg_model_param *params;
    int n_params;
    /* Totals into *w and, when out != NULL, per_level (allocated: levels,
     * nonempty_levels, per_level, K, T_cd, T_ca, T; the caller fills
     * model, dim, nu). */
    int (*evaluate)(const hg_model_input *in, hg_cost *out, hg_work *w,
                    hg_err *e);
    /* T and dT_ds[h-1] = dT/ds_h for h = 1..L (dT_ds[L-1] = 0: s_L is
     * fixed at 2 r_max). dT_ds may be NULL. */
    int (*gradient)(const hg_model_input *in, double *T, double *dT_ds,
                    hg_err *e);
    /* Optional (NULL: the gradient search of hg_opt_sizes): the model's
     * own optimiser, for a model the gradient cannot steer (LAMMPS'
     * stencils and bin counts make T piecewise constant in the sizes).
     * For L = 1..max_levels: T[L-1] of the best grid of L levels and its
     * sizes at sizes[(L-1) * max_levels + h], h < L; T[L-1] = INFINITY
     * where L levels are not possible. hg_curve_compute (and so
     * hg_recommend) uses it for the optimal recipe. */
    int (*optimise)(const hg_model_input *in, int max_levels, double *T,
                    double *sizes, hg_err *e);
};

/* ---- the registry (src/model/model_registry.c) ---- */

size_t hg_model_count(void);
const hg_model *hg_model_at(size_t i); /* NULL when out of range */
const hg_model *hg_model_find(const char *name); /* NULL if unknown */
/* The first registered multi-level model of the bundled grid algorithm a
 * (hgrid-top-down or hgrid-bottom-up); NULL for HG_GRID_NONE. */
const hg_model *hg_model_for_grid(hg_algorithm a);
/* Add a model at run time (e.g. in a test), after the built-in ones; up
 * to 8. Fails for an incomplete table (name, evaluate and gradient are
 * required) or a name already registered. Not thread-safe. */
int hg_model_register(const hg_model *m, hg_err *e);

/* Index of parameter name in m's table, -1 if m does not declare it. */
int hg_model_param_index(const hg_model *m, const char *name);

/* ---- evaluating a model ---- */

/* Check sys, take m's parameter values from v (NULL: defaults; each value
 * checked against its range, the message names parameter and value) into
 * in; in->L = 0, in->sizes = NULL and in->smooth = 0 for the caller. */
int hg_model_prepare(const hg_model *m, const hg_psd *psd,
                     const hg_system *sys, const hg_model_values *v,
                     hg_model_input *in, hg_err *e);
/* Check in->L and in->sizes (hg_sizes_check; replaced by one level of
 * 2 r_max when m->max_levels == 1), call m->evaluate and check the result
 * is finite. out (may be NULL) is overwritten; w may be NULL. */
int hg_model_evaluate(const hg_model *m, const hg_model_input *in,
                      hg_cost *out, hg_work *w, hg_err *e);
/* The same for m->gradient (dT_ds: in->L entries, may be NULL). With
 * in->smooth = 0 the gradient of a discrete distribution is that of the
 * piecewise-smooth T between atoms. */
int hg_model_gradient(const hg_model *m, const hg_model_input *in,
                      double *T, double *dT_ds, hg_err *e);

/* hg_model_prepare + hg_model_evaluate: the cost of L levels with cell
 * sizes sizes[0..L-1] under model m. */
int hg_cost_evaluate(const hg_model *m, const hg_psd *psd,
                     const hg_system *sys, const hg_model_values *v, int L,
                     const double *sizes, hg_cost *out, hg_work *w,
                     hg_err *e);
/* The single-level baselines every grid is compared with, evaluated in
 * this one place: the linked cell (model "linked-cell", one level of cell
 * size 2 r_max) and LAMMPS-style `bin` (model "bin", bins of half the
 * cutoff, stencil pruned to reach), under the same system and parameter
 * values v (may be NULL: defaults), and the cheaper of the two. */
typedef struct hg_single_level {
    hg_work linked_cell, bin; /* work per particle of each */
    const hg_model *cheaper;  /* "bin" when its T is lower, else
                                 "linked-cell" (ties: the linked cell) */
    double T;                 /* the cheaper's T */
} hg_single_level;
int hg_single_level_evaluate(const hg_psd *psd, const hg_system *sys,
                             const hg_model_values *v, hg_single_level *out,
                             hg_err *e);

/* Check a list of cell sizes against psd: finite, > 0, non-decreasing
 * (strictly increasing when strict != 0), last >= 2 r_max. */
int hg_sizes_check(const hg_psd *psd, int L, const double *sizes, int strict,
                   hg_err *e);

/* ---- helpers for model authors ---- */

/* The value of in->model's parameter name in in->params; NaN when the
 * model does not declare it. */
double hg_model_input_param(const hg_model_input *in, const char *name);

/* Number density of radii at r for the boundary terms of a gradient
 * (dM_k(a, b)/db = b^k f(b)): the pdf of a continuous distribution; for a
 * discrete one the mass in r (1 -+ in->smooth) per length, 0 when
 * in->smooth = 0. */
double hg_model_density(const hg_model_input *in, double r);

#ifdef __cplusplus
}
#endif
#endif
