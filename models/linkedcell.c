/* linkedcell.c - the classic single-level linked cell: one grid with cell
 * size = largest diameter; the input's L and sizes are ignored. */
#include "hg_model.h"

static int evaluate(const hg_model_input *in, hg_cost *out, double *T,
                    double *T_cd, double *T_ca, hg_err *e)
{
    double s = 2.0 * hg_psd_rmax(in->psd);
    hg_model_input one = {in->psd, in->sys, 1, &s};
    return hg_cost_hgrid(&one, HG_TOP_DOWN, out, T, T_cd, T_ca, e);
}

const hg_model hg_model_linkedcell = {
    "linked-cell", "single-level linked cell, cell size = largest diameter",
    evaluate};
