/* linked_cell.c - the classic single-level linked cell: one grid of cell
 * size 2 r_max, i.e. the HGrid model (models/hgrid.c) with L = 1, where
 * Top-Down and Bottom-Up coincide (no cross-level search). The driver
 * replaces the caller's levels by that one level (max_levels = 1). */
#include "hg_model.h"


extern const hg_model hg_model_hgrid_top_down;

/* hgrid-top-down's parameters (passed on by name): the bundled grid's
 * one level, its table included */
static const hg_model_param params[] = {HG_MODEL_PARAM_K, HG_MODEL_PARAM_C,
                                        HG_MODEL_PARAM_WHOLE};

static int evaluate(const hg_model_input *in, hg_cost *out, hg_work *w,
                    hg_err *e)
{
    return hg_model_evaluate(&hg_model_hgrid_top_down, in, out, w, e);
}

static int gradient(const hg_model_input *in, double *T, double *dT_ds,
                    hg_err *e)
{
    return hg_model_gradient(&hg_model_hgrid_top_down, in, T, dT_ds, e);
}

const hg_model hg_model_linked_cell = {
    "linked-cell",
    "single-level linked cell, cell size = largest diameter",
    HG_TOP_DOWN,
    1,
    params,
    3,
    evaluate,
    gradient};
