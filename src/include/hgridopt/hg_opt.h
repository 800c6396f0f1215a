/* hg_opt.h - cell-size recipes, the optimal HGrid and the recommendation
 * (KOL 2014 section 5).
 *
 * Cell sizes are always given as s_1..s_L (array index h-1 holds s_h);
 * s_0 = 2 r_min is implicit and s_L = 2 r_max. Every function takes the
 * cost model (hg_model.h) and the values of its parameters (v, NULL: the
 * model's defaults).
 */
#ifndef HG_OPT_H
#define HG_OPT_H

#include "hg_common.h"
#include "hg_model.h"
#include "hg_psd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- cell-size recipes (KOL 2014 section 5.2) ---- */

typedef enum hg_recipe {
    HG_RECIPE_OPTIMAL = 0,     /* minimise T over the sizes (5.2.4) */
    HG_RECIPE_CONSTANT_M = 1,  /* m_{h+1} = q m_h (eq. 37) */
    HG_RECIPE_EXPONENTIAL = 2, /* s_h = 2 r_min omega^(h/L) (eq. 36) */
    HG_RECIPE_LINEAR = 3       /* s_h = 2 r_min (1 + h (omega-1)/L) (eq. 34) */
} hg_recipe;
#define HG_RECIPE_COUNT 4

/* "optimal", "constant-m", "exponential", "linear". */
const char *hg_recipe_name(hg_recipe r);
/* Parse one of the names above; HG_EUNKNOWN naming the value otherwise. */
int hg_recipe_parse(const char *text, hg_recipe *out, hg_err *e);

/* Linear sizes (KOL 2014 eq. 34) for L >= 1 levels into sizes[0..L-1]. */
int hg_sizes_linear(const hg_psd *psd, int L, double *sizes, hg_err *e);
/* Exponential sizes (KOL 2014 eq. 36) for L >= 1 levels. */
int hg_sizes_exponential(const hg_psd *psd, int L, double *sizes, hg_err *e);
/* Sizes with a constant ratio q > 0 of particles per cell between adjacent
 * levels, m_{h+1} = q m_h (KOL 2014 eqs. 37-38; q = 1 is the constant-m
 * hypothesis of Ogarko & Luding 2012), s_0 = 2 r_min and s_L = 2 r_max.
 * Solved by shooting on s_1 (GSL Brent) with a GSL Brent solve per level.
 * m_h does not depend on nu, so only dim is needed. Levels the solution
 * cannot fill (a discrete distribution) come out empty. */
int hg_sizes_constant_m(const hg_psd *psd, int dim, int L, double q,
                        double *sizes, hg_err *e);

/* ---- optimal sizes for a given L ---- */

/* Minimise T of model m over s_1..s_{L-1} (s_L = 2 r_max fixed, sizes
 * non-decreasing) for a fixed number of levels L >= 1 (KOL 2014 section
 * 5.2.4); a single-level model (max_levels = 1) gives L sizes of 2 r_max.
 * Continuous distributions: NLopt LD_LBFGS with the model's gradient on
 * log-ratio increments (monotonicity is built in). Starts: start[] (L
 * sizes, e.g. an optimum for L-1 levels with one level split; may be NULL),
 * exponential and constant-m (q = 1). The first start is converged fully;
 * the others run to a loose tolerance and are converged only if they are
 * then already better. Discrete distributions (mono, discrete, sample: no
 * pdf, T jumps where a boundary crosses an atom): the same LBFGS scheme on
 * a gradient whose boundary terms use the mass density averaged over
 * +-2 % of the boundary, then an NLopt LN_SBPLX polish on the exact T.
 * The minimum over the closed set includes collapsed levels (which cost
 * nothing): the caller compares against fewer levels (hg_curve_compute
 * does). Writes sizes[0..L-1] and *T (may be NULL). */
int hg_opt_sizes(const hg_model *m, const hg_psd *psd, const hg_system *sys,
                 const hg_model_values *v, int L, const double *start,
                 double *sizes, double *T, hg_err *e);

/* ---- T as a function of L for one recipe (the data of KOL 2014 figs 4-9) */

typedef struct hg_curve_point {
    int levels;          /* L asked for */
    int nonempty_levels; /* levels holding particles (collapsed ones merged) */
    double T, T_cd, T_ca;
    double *sizes;       /* s_1..s_L, levels entries, owned by the curve */
} hg_curve_point;

typedef struct hg_curve {
    const hg_model *model;
    hg_recipe recipe;
    double q;              /* ratio of the constant-m recipe */
    int n;                 /* points for L = 1..n */
    hg_curve_point *points;/* points[L-1]; owned (hg_curve_clear) */
} hg_curve;

/* T(L) of model m for L = 1..max_levels (1 <= max_levels <= 256; only
 * L = 1 for a single-level model) with one recipe. For the optimal recipe
 * point L is the best grid with at most L
 * non-empty levels (each L warm-starts from L-1; an extra level is kept
 * only if it lowers T by more than 1e-7 relative, otherwise the point
 * repeats L-1 with an empty level at s_L), so its T never increases with
 * L; after two successive L without such a gain, larger L are padded
 * without optimising. out is overwritten; release with hg_curve_clear. */
int hg_curve_compute(const hg_model *m, const hg_psd *psd,
                     const hg_system *sys, const hg_model_values *v,
                     hg_recipe recipe, double q, int max_levels,
                     hg_curve *out, hg_err *e);
void hg_curve_clear(hg_curve *c); /* accepts NULL */

/* ---- the best grid over a table of power laws (scan --sweep) ---- */

typedef struct hg_sweep_row {
    double alpha, omega;      /* powerlaw:alpha=A,omega=W */
    hg_recipe recipe;
    const hg_model *model;
    int levels, nonempty_levels; /* of the lowest T over L = 1..max */
    double T, T_cd, T_ca;
    double T_linked_cell, T_bin; /* the single-level baselines */
} hg_sweep_row;

typedef struct hg_sweep {
    size_t n;
    hg_sweep_row *rows; /* owned; alpha, omega, recipe, model order */
} hg_sweep;

/* For every alpha, omega, recipe and model (in that nesting): the point
 * of lowest T of hg_curve_compute for L = 1..max_levels, and the
 * single-level baselines of that distribution. */
int hg_sweep_powerlaw(const hg_system *sys, const hg_model_values *v,
                      const hg_model *const *models, int n_models,
                      const hg_recipe *recipes, int n_recipes, double q,
                      int max_levels, const double *alphas, size_t n_alphas,
                      const double *omegas, size_t n_omegas, hg_sweep *out,
                      hg_err *e);
void hg_sweep_clear(hg_sweep *s); /* accepts NULL */

/* ---- the recommendation ---- */

/* Most candidate models of one recommendation. */
#define HG_RECOMMEND_MAX_MODELS 8

typedef struct hg_recommend_options {
    int n_models;     /* candidates in models[]; 0: the default pair
                         hgrid-top-down, hgrid-bottom-up */
    const hg_model *models[HG_RECOMMEND_MAX_MODELS];
    hg_recipe recipe; /* default HG_RECIPE_OPTIMAL */
    double q;         /* constant-m ratio, > 0, default 1 */
    int max_levels;   /* 1..256, default 32 */
    double tolerance; /* relative, in [0, 1), default 0.01 */
    int grid_only;    /* 1: recommend one of the candidates even where the
                         single-level `bin` is cheaper (for callers that
                         run the candidate's grid); default 0 */
} hg_recommend_options;

/* Fill o with the defaults above. */
void hg_recommend_options_default(hg_recommend_options *o);
/* Check every field; the message names the field and its value. */
int hg_recommend_options_check(const hg_recommend_options *o, hg_err *e);

typedef struct hg_recommendation {
    hg_recommend_options options; /* as used (default candidates filled) */
    const hg_model *model;    /* recommended model: a candidate, or the
                                 single-level model "bin" (single_level) */
    int linked_cell;          /* 1: use a single-level linked cell */
    /* The single-level baseline: the cheaper (same K, ties: the linked
     * cell) of the linked cell (model "linked-cell", cells of 2 r_max) and
     * `bin` (model "bin", LAMMPS-style bins of half the cutoff, stencil
     * pruned to reach). When every candidate is a model of the bundled
     * HGrid and its best T does not beat single_T by the tolerance,
     * single_level = 1 and that method is recommended (linked_cell = 1 for
     * the linked cell; model = bin, 1 level of 2 r_max, for bin). */
    int single_level;
    hg_single_level baselines; /* both, from hg_single_level_evaluate; the
                                  fields below repeat it */
    const hg_model *single_model;
    double single_T;
    double bin_T, bin_T_cd, bin_T_ca;
    int levels;               /* recommended number of (non-empty) levels */
    double *cell_sizes;       /* levels entries, collapsed levels merged */
    hg_cost cost;             /* evaluation of the recommended grid */
    int best_levels;          /* non-empty levels of the best T found */
    int best_at_max_levels;   /* 1: the best T is at L = max_levels, so a
                                 larger max_levels may find a lower T */
    const hg_model *best_model;
    double best_T;
    double linked_cell_T, linked_cell_T_cd, linked_cell_T_ca;
    double speedup;           /* linked_cell_T / cost.T */
    double speedup_bin;       /* bin_T / cost.T */
    /* sensitivity: T(L) of the recommended model for
     * L = sens_L[0..n_sens-1] (L* - 2 .. L* + 2 within 1..max_levels) */
    int n_sens;
    int sens_L[5];
    double sens_T[5];
    int within5_lo, within5_hi; /* L range with T(L) <= 1.05 best T */
    const hg_model *sens_model; /* the candidate of sens_T and within5 */
    int n_curves;               /* one per candidate model */
    hg_curve *curves;           /* T(L) of each candidate; owned */
    char decision[256];         /* the decision in words */
} hg_recommendation;

/* Compute the curves of the chosen recipe for every candidate model, pick
 * the fewest non-empty levels whose T is within tolerance of the best T
 * found, compare with the best single-level method (the linked cell or
 * bin, see single_level) and fill out.
 * v: parameter values (NULL: defaults) given to every model. out is
 * overwritten; release with hg_recommendation_clear. */
int hg_recommend(const hg_psd *psd, const hg_system *sys,
                 const hg_model_values *v, const hg_recommend_options *opt,
                 hg_recommendation *out, hg_err *e);
void hg_recommendation_clear(hg_recommendation *r); /* accepts NULL */

#ifdef __cplusplus
}
#endif
#endif
