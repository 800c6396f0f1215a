/* sweep.c - the best grid over a table of power laws (`scan --sweep`):
 * for every (alpha, omega, recipe, model) the point of lowest T of
 * hg_curve_compute, with the single-level baselines (hg_opt.h). */
#include "hg_opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hg_sweep_clear(hg_sweep *s)
{
    if (!s)
        return;
    free(s->rows);
    memset(s, 0, sizeof *s);
}

int hg_sweep_powerlaw(const hg_system *sys, const hg_model_values *v,
                      const hg_model *const *models, int n_models,
                      const hg_recipe *recipes, int n_recipes, double q,
                      int max_levels, const double *alphas, size_t n_alphas,
                      const double *omegas, size_t n_omegas, hg_sweep *out,
                      hg_err *e)
{
    memset(out, 0, sizeof *out);
    if (n_models < 1 || n_recipes < 1 || !n_alphas || !n_omegas)
        return hg_fail(e, HG_EINVAL, "sweep: nothing to sweep (%d models, "
                       "%d recipes, %zu alphas, %zu omegas)", n_models,
                       n_recipes, n_alphas, n_omegas);
    size_t n = n_alphas * n_omegas * (size_t)n_recipes * (size_t)n_models;
    if (!(out->rows = calloc(n, sizeof *out->rows)))
        return hg_fail(e, HG_ENOMEM, "out of memory");
    hg_psd_ctx ctx = {sys->dim, NULL};
    int st = HG_OK;
    for (size_t ia = 0; ia < n_alphas && !st; ia++)
        for (size_t io = 0; io < n_omegas && !st; io++) {
            char spec[128], va[HG_NUMLEN], vo[HG_NUMLEN];
            snprintf(spec, sizeof spec, "powerlaw:alpha=%s,omega=%s",
                     hg_fmt_double(va, alphas[ia]),
                     hg_fmt_double(vo, omegas[io]));
            hg_psd *psd = NULL;
            hg_single_level sl = {0};
            st = hg_psd_parse(spec, &ctx, &psd, e);
            if (!st)
                st = hg_single_level_evaluate(psd, sys, v, &sl, e);
            for (int im = 0; im < n_recipes && !st; im++)
                for (int a = 0; a < n_models && !st; a++) {
                    hg_curve cv;
                    st = hg_curve_compute(models[a], psd, sys, v, recipes[im],
                                          q, max_levels, &cv, e);
                    if (st)
                        break;
                    int b = 0;
                    for (int i = 1; i < cv.n; i++)
                        if (cv.points[i].T < cv.points[b].T)
                            b = i;
                    hg_sweep_row *r = &out->rows[out->n++];
                    r->alpha = alphas[ia];
                    r->omega = omegas[io];
                    r->T_linked_cell = sl.linked_cell.T;
                    r->T_bin = sl.bin.T;
                    r->recipe = recipes[im];
                    r->model = models[a];
                    r->levels = cv.points[b].levels;
                    r->nonempty_levels = cv.points[b].nonempty_levels;
                    r->T = cv.points[b].T;
                    r->T_cd = cv.points[b].T_cd;
                    r->T_ca = cv.points[b].T_ca;
                    hg_curve_clear(&cv);
                }
            hg_psd_free(psd);
        }
    if (st)
        hg_sweep_clear(out);
    return st;
}
