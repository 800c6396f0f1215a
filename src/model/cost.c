/* cost.c - the model driver: parameter values, input checks and dispatch
 * to a model's table (hg_model.h), and the single-level baselines (linked
 * cell and bin, hg_single_level_evaluate). The equations live in
 * models/. */
#include "hg_model.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int hg_model_values_set(hg_model_values *v, const char *name, double value,
                        hg_err *e)
{
    if (!name || !*name || strlen(name) >= sizeof v->name[0])
        return hg_fail(e, HG_EINVAL,
                       "model parameter: name '%s' is empty or longer than "
                       "%zu characters",
                       name ? name : "", sizeof v->name[0] - 1);
    if (!isfinite(value))
        return hg_fail(e, HG_EINVAL, "%s: %g is not a finite number", name,
                       value);
    int i = 0;
    while (i < v->n && strcmp(v->name[i], name))
        i++;
    if (i == v->n) {
        if (v->n >= HG_MODEL_MAX_PARAMS)
            return hg_fail(e, HG_ELIMIT,
                           "%s: more than %d model parameters given", name,
                           HG_MODEL_MAX_PARAMS);
        strcpy(v->name[v->n++], name);
    }
    v->value[i] = value;
    return HG_OK;
}

int hg_model_values_get(const hg_model_values *v, const char *name,
                        double *value)
{
    for (int i = 0; v && name && i < v->n; i++)
        if (!strcmp(v->name[i], name)) {
            *value = v->value[i];
            return 1;
        }
    return 0;
}

int hg_model_param_index(const hg_model *m, const char *name)
{
    for (int i = 0; m && name && i < m->n_params; i++)
        if (!strcmp(m->params[i].name, name))
            return i;
    return -1;
}

int hg_model_prepare(const hg_model *m, const hg_psd *psd,
                     const hg_system *sys, const hg_model_values *v,
                     hg_model_input *in, hg_err *e)
{
    memset(in, 0, sizeof *in);
    if (!m || !psd)
        return hg_fail(e, HG_EINVAL, "model: NULL argument");
    int st = hg_system_check(sys, e);
    if (st)
        return st;
    in->consts = v ? v->consts : NULL;
    if (m->n_params < 0 || m->n_params > HG_MODEL_MAX_PARAMS)
        return hg_fail(e, HG_EINVAL, "model %s: %d parameters (at most %d)",
                       m->name, m->n_params, HG_MODEL_MAX_PARAMS);
    for (int i = 0; i < m->n_params; i++) {
        const hg_model_param *p = &m->params[i];
        double x = p->def;
        hg_model_values_get(v, p->name, &x);
        int low = p->open_min ? !(x > p->min) : !(x >= p->min);
        if (!isfinite(x) || low || !(x <= p->max)) {
            if (p->max < DBL_MAX)
                return hg_fail(e, HG_EINVAL, "%s: %g is outside %c%g, %g]",
                               p->name, x, p->open_min ? '(' : '[', p->min,
                               p->max);
            return hg_fail(e, HG_EINVAL,
                           "%s: %g must be a finite number %s %g", p->name,
                           x, p->open_min ? ">" : ">=", p->min);
        }
        in->params[i] = x;
    }
    in->model = m;
    in->psd = psd;
    in->sys = sys;
    return HG_OK;
}

/* in with the sizes checked, or replaced by one level of 2 r_max. */
static int sized_input(const hg_model *m, const hg_model_input *in,
                       hg_model_input *out, double *one, hg_err *e)
{
    *out = *in;
    out->model = m;
    /* a model built on another (its callback calls this one with its own
     * input): the parameters by name, the defaults for those it lacks */
    const hg_model *from = in->model;
    if (from && from != m)
        for (int i = 0; i < m->n_params && i < HG_MODEL_MAX_PARAMS; i++) {
            out->params[i] = m->params[i].def;
            for (int j = 0; j < from->n_params; j++)
                if (!strcmp(from->params[j].name, m->params[i].name)) {
                    out->params[i] = in->params[j];
                    break;
                }
        }
    if (m->max_levels == 1) {
        *one = 2.0 * hg_psd_rmax(in->psd);
        out->L = 1;
        out->sizes = one;
        return HG_OK;
    }
    if (m->max_levels > 1 && in->L > m->max_levels)
        return hg_fail(e, HG_EINVAL, "levels: %d exceeds the %d of model %s",
                       in->L, m->max_levels, m->name);
    if (!in->sizes)
        return hg_fail(e, HG_EINVAL, "sizes: none given");
    return hg_sizes_check(in->psd, in->L, in->sizes, 0, e);
}

static int not_finite(double T, hg_err *e)
{
    return hg_fail(e, HG_ENUMERIC, "cost model: work is not finite (%g)", T);
}

int hg_model_evaluate(const hg_model *m, const hg_model_input *in,
                      hg_cost *out, hg_work *w, hg_err *e)
{
    hg_model_input io;
    double one;
    hg_work tmp;
    int st = sized_input(m, in, &io, &one, e);
    if (st)
        return st;
    if (out)
        memset(out, 0, sizeof *out);
    if ((st = m->evaluate(&io, out, &tmp, e)))
        return st;
    if (!isfinite(tmp.T)) {
        hg_cost_clear(out);
        return not_finite(tmp.T, e);
    }
    if (out) {
        out->model = m;
        out->dim = in->sys->dim;
        out->nu = in->sys->nu;
    }
    if (w)
        *w = tmp;
    return HG_OK;
}

int hg_model_gradient(const hg_model *m, const hg_model_input *in, double *T,
                      double *dT_ds, hg_err *e)
{
    hg_model_input io;
    double one, t = 0.0;
    int st = sized_input(m, in, &io, &one, e);
    if (st)
        return st;
    if (m->max_levels == 1 && dT_ds) /* the caller's levels are ignored */
        for (int h = 0; h < in->L; h++)
            dT_ds[h] = 0.0;
    if ((st = m->gradient(&io, &t, m->max_levels == 1 ? NULL : dT_ds, e)))
        return st;
    if (!isfinite(t))
        return not_finite(t, e);
    if (T)
        *T = t;
    return HG_OK;
}

int hg_cost_evaluate(const hg_model *m, const hg_psd *psd,
                     const hg_system *sys, const hg_model_values *v, int L,
                     const double *sizes, hg_cost *out, hg_work *w,
                     hg_err *e)
{
    hg_model_input in;
    int st = hg_model_prepare(m, psd, sys, v, &in, e);
    in.L = L;
    in.sizes = sizes;
    return st ? st : hg_model_evaluate(m, &in, out, w, e);
}

int hg_single_level_evaluate(const hg_psd *psd, const hg_system *sys,
                             const hg_model_values *v, hg_single_level *out,
                             hg_err *e)
{
    memset(out, 0, sizeof *out);
    const hg_model *lc = hg_model_find("linked-cell"),
                   *bin = hg_model_find("bin");
    if (!lc || !bin)
        return hg_fail(e, HG_EINVAL, "the models linked-cell and bin are "
                                     "not registered");
    int st = hg_cost_evaluate(lc, psd, sys, v, 1, NULL, NULL,
                              &out->linked_cell, e);
    if (!st)
        st = hg_cost_evaluate(bin, psd, sys, v, 1, NULL, NULL, &out->bin, e);
    if (st)
        return st;
    out->cheaper = out->bin.T < out->linked_cell.T ? bin : lc;
    out->T = fmin(out->bin.T, out->linked_cell.T);
    return HG_OK;
}

int hg_sizes_check(const hg_psd *psd, int L, const double *sizes, int strict,
                   hg_err *e)
{
    if (L < 1)
        return hg_fail(e, HG_EINVAL, "sizes: need at least one cell size");
    for (int h = 0; h < L; h++) {
        if (!isfinite(sizes[h]) || !(sizes[h] > 0.0))
            return hg_fail(e, HG_EINVAL,
                           "sizes: cell size %d = %g must be finite and > 0",
                           h + 1, sizes[h]);
        if (h > 0 && (strict ? !(sizes[h] > sizes[h - 1])
                             : !(sizes[h] >= sizes[h - 1])))
            return hg_fail(e, HG_EINVAL,
                           "sizes: cell sizes must be %s: size %d = %g "
                           "follows %g",
                           strict ? "strictly ascending" : "non-decreasing",
                           h + 1, sizes[h], sizes[h - 1]);
    }
    double dmax = 2.0 * hg_psd_rmax(psd);
    if (sizes[L - 1] < dmax * (1.0 - 1e-12))
        return hg_fail(e, HG_EINVAL,
                       "sizes: the largest cell size %.10g is below the largest "
                       "particle diameter %.10g",
                       sizes[L - 1], dmax);
    return HG_OK;
}

void hg_cost_clear(hg_cost *c)
{
    if (!c)
        return;
    free(c->per_level);
    c->per_level = NULL;
    c->levels = 0;
}

double hg_model_input_param(const hg_model_input *in, const char *name)
{
    int i = hg_model_param_index(in->model, name);
    return i < 0 ? NAN : in->params[i];
}

double hg_model_density(const hg_model_input *in, double r)
{
    if (!hg_psd_is_discrete(in->psd))
        return hg_psd_pdf(in->psd, r);
    if (!(in->smooth > 0.0))
        return 0.0;
    double s = in->smooth;
    return hg_psd_moment(in->psd, 0, r * (1.0 - s), r * (1.0 + s)) /
           (2.0 * s * r);
}
