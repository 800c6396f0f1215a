/* predict.c - the model's side of MercuryDPM's runners: a packing as the
 * model sees it, a setting's sizes and predicted work, the model's optima
 * and exponential sizes as settings, and lists of settings without
 * repeats (two settings that are the same grid for MercuryDPM are one). */
#include "hg_io.h"
#include "hg_mercurydpm.h"
#include "hg_model.h"
#include "hg_opt.h"
#include "hg_snapshot.h"
#include "mercurydpm_engine.h"

#include <math.h>
#include <string.h>

void hg_mercurydpm_pack_clear(hg_mercurydpm_pack *m)
{
    hg_psd_free(m->own_psd);
    hg_snapshot_free(m->snap);
    memset(m, 0, sizeof *m);
}

int hg_mercurydpm_pack_init(const hg_engine_run *run, const hg_particles *p,
                            int use_run, hg_mercurydpm_pack *m, hg_err *e)
{
    memset(m, 0, sizeof *m);
    m->p = p;
    if (use_run && run->sys && run->psd) {
        m->psd = run->psd;
        m->sys = *run->sys;
        return HG_OK;
    }
    int st = hg_io_system_from_particles(m->p, &m->own_psd, &m->sys, e);
    if (st)
        return st;
    m->psd = m->own_psd;
    m->sys.structure = run->sys ? run->sys->structure : HG_STRUCTURE_POISSON;
    if (m->sys.structure == HG_STRUCTURE_MEASURED) {
        if ((st = hg_snapshot_create(m->p, &m->snap, e)))
            return st;
        m->sys.snapshot = m->snap;
        double nu = hg_snapshot_get_info(m->snap)->nu_local;
        if (nu > 0.0 && nu < 1.0)
            m->sys.nu = nu;
    }
    return HG_OK;
}

const hg_model *hg_mercurydpm_model(hg_algorithm a)
{
    return hg_model_find(a == HG_TOP_DOWN ? "hgrid-top-down"
                                          : "hgrid-bottom-up");
}

int hg_mercurydpm_setting_sizes(const hg_mercurydpm_pack *m,
                                const hg_mercurydpm_setting *s,
                                double *sizes, hg_err *e)
{
    if (s->user) {
        memcpy(sizes, s->sizes, sizeof *sizes * (size_t)s->levels);
        return HG_OK;
    }
    return hg_sizes_exponential(m->psd, s->levels, sizes, e);
}

int hg_mercurydpm_predict(const hg_mercurydpm_pack *m,
                          const hg_mercurydpm_setting *s, double K,
                          hg_work *w, hg_err *e)
{
    double sizes[HG_MERCURYDPM_MAX_LEVELS];
    int st = hg_mercurydpm_setting_sizes(m, s, sizes, e);
    if (st)
        return st;
    hg_model_values v;
    if ((st = hg_mercurydpm_values(&v, K, e)))
        return st;
    return hg_cost_evaluate(hg_mercurydpm_model(s->algorithm), m->psd,
                            &m->sys, &v, s->levels, sizes, NULL, w, e);
}

int hg_mercurydpm_optimum(const hg_mercurydpm_pack *m, double K,
                          hg_algorithm alg, int max_levels,
                          hg_mercurydpm_setting *s, hg_err *e)
{
    hg_recommend_options o;
    hg_recommend_options_default(&o);
    o.grid_only = 1;
    o.max_levels = max_levels;
    if (alg != HG_GRID_NONE) {
        o.n_models = 1;
        o.models[0] = hg_mercurydpm_model(alg);
    }
    hg_model_values v;
    int st = hg_mercurydpm_values(&v, K, e);
    if (st)
        return st;
    hg_recommendation r;
    if ((st = hg_recommend(m->psd, &m->sys, &v, &o, &r, e)))
        return st;
    memset(s, 0, sizeof *s);
    s->algorithm = r.model->grid_algorithm == HG_BOTTOM_UP ? HG_BOTTOM_UP
                                                           : HG_TOP_DOWN;
    s->user = 1;
    s->levels = r.levels;
    for (int h = 0; h < r.levels; h++)
        s->sizes[h] = r.cell_sizes[h];
    hg_recommendation_clear(&r);
    return HG_OK;
}

int hg_mercurydpm_exponential(const hg_mercurydpm_pack *m, hg_algorithm alg,
                              int L, hg_mercurydpm_setting *s, hg_err *e)
{
    memset(s, 0, sizeof *s);
    s->algorithm = alg;
    s->user = 1;
    s->levels = L;
    return hg_sizes_exponential(m->psd, L, s->sizes, e);
}

int hg_mercurydpm_setting_same(const hg_mercurydpm_setting *a,
                               const hg_mercurydpm_setting *b)
{
    if (a->user != b->user || a->levels != b->levels)
        return 0;
    if (a->levels > 1 && a->algorithm != b->algorithm)
        return 0;
    for (int h = 0; a->user && h < a->levels; h++)
        if (fabs(a->sizes[h] - b->sizes[h]) > 1e-9 * fabs(b->sizes[h]))
            return 0;
    return 1;
}

void hg_mercurydpm_setting_normalize(const hg_mercurydpm_setting *s,
                                     hg_mercurydpm_setting *o)
{
    *o = *s;
    if (!s->user)
        return;
    int k = 0;
    for (int h = 0; h < s->levels; h++)
        if (k == 0 || s->sizes[h] > o->sizes[k - 1])
            o->sizes[k++] = s->sizes[h];
    for (int h = k; h < s->levels; h++)
        o->sizes[h] = 0.0;
    o->levels = k;
}

int hg_mercurydpm_setting_add(hg_mercurydpm_setting *list, int *n, int cap,
                              const hg_mercurydpm_setting *s0)
{
    hg_mercurydpm_setting s;
    hg_mercurydpm_setting_normalize(s0, &s);
    for (int i = 0; i < *n; i++)
        if (hg_mercurydpm_setting_same(&list[i], &s))
            return i;
    if (*n >= cap)
        return -1;
    list[*n] = s;
    return (*n)++;
}
