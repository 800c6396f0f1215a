/* hgrid_topdown.c - HGrid Top-Down: cross-level search on finer levels
 * j < h (KOL 2014 eqs. 19-20, 23-24). */
#include "hg_model.h"

static int evaluate(const hg_model_input *in, hg_cost *out, double *T,
                    double *T_cd, double *T_ca, hg_err *e)
{
    return hg_cost_hgrid(in, HG_TOP_DOWN, out, T, T_cd, T_ca, e);
}

const hg_model hg_model_hgrid_topdown = {
    "hgrid-top-down",
    "hierarchical grid, Top-Down cross-level search (KOL 2014)", evaluate};
