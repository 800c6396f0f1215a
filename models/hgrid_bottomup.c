/* hgrid_bottomup.c - HGrid Bottom-Up: cross-level search on coarser levels
 * j > h (KOL 2014 eqs. 21-22, 25-26). */
#include "hg_model.h"

static int evaluate(const hg_model_input *in, hg_cost *out, double *T,
                    double *T_cd, double *T_ca, hg_err *e)
{
    return hg_cost_hgrid(in, HG_BOTTOM_UP, out, T, T_cd, T_ca, e);
}

const hg_model hg_model_hgrid_bottomup = {
    "hgrid-bottom-up",
    "hierarchical grid, Bottom-Up cross-level search (KOL 2014)", evaluate};
