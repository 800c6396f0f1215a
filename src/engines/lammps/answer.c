/* answer.c - the LAMMPS engine's answer: the best neighbor setting of its
 * model (bin, or multi with each number of collections and their cutoffs)
 * and the prediction of a setting given, for a simulation of atoms on MPI
 * ranks with the neighbour skin (the values hg_advise sets). */
#include "hg_engine.h"
#include "hg_lammps.h"
#include "hg_opt.h"
#include "lammps_engine.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Most collections recommend weighs. */
#define MAX_COLL 6

/* The simulation of v (atoms, ranks, skin in units of the smallest
 * diameter: the models' parameters, else their defaults) as LAMMPS sees
 * it, and the constants pricing it (v->consts, else the shipped ones). */
static void simulation(const hg_psd *psd, const hg_system *sys,
                       const hg_model_values *v, hg_lammps_system *ls,
                       hg_consts *c)
{
    const hg_model *m = hg_model_find("lammps-multi");
    static const char *const names[3] = {"atoms", "skin", "ranks"};
    double p[3];
    for (int i = 0; i < 3; i++) {
        p[i] = m->params[hg_model_param_index(m, names[i])].def;
        hg_model_values_get(v, names[i], &p[i]);
    }
    memset(ls, 0, sizeof *ls);
    ls->dim = sys->dim;
    ls->nu = sys->nu;
    ls->atoms = p[0];
    ls->skin = p[1] * 2.0 * hg_psd_rmin(psd);
    ls->nprocs = (int)p[2];
    ls->structure = sys->structure;
    ls->snapshot = sys->snapshot;
    if (v && v->consts)
        *c = *(const hg_consts *)v->consts;
    else
        hg_consts_shipped(&hg_lammps_consts_kind, c);
}

static void option_of(const hg_lammps_setting *s, double seconds,
                      hg_engine_option *o)
{
    memset(o, 0, sizeof *o);
    o->levels = s->ncoll;
    for (int i = 0; i < s->ncoll && i < 16; i++)
        o->sizes[i] = s->cut[i];
    o->seconds = seconds;
    o->T = NAN;
    hg_lammps_setting_text(s, o->setting, sizeof o->setting);
}

static void answer_of(const hg_lammps_system *ls, const hg_lammps_setting *s,
                      double seconds, double bin_seconds,
                      hg_engine_answer *out)
{
    memset(out, 0, sizeof *out);
    out->model = s->ncoll ? "lammps-multi" : "lammps-bin";
    out->levels = s->ncoll;
    for (int i = 0; i < s->ncoll && i < 16; i++)
        out->sizes[i] = s->cut[i];
    out->seconds = seconds;
    out->default_seconds = bin_seconds;
    out->T = NAN;
    hg_lammps_setting_text(s, out->setting, sizeof out->setting);
    out->atoms = ls->atoms;
    out->ranks = ls->nprocs;
    out->skin = ls->skin;
}

/* hg_recommend over the engine's models, bin and multi (the model's own
 * optimiser finds the cutoffs), in the terms of the settings: the best
 * of each number of collections up to MAX_COLL beside the answer. */
int hg_lammps_answer(const hg_psd *psd, const hg_system *sys,
                     const hg_model_values *v, hg_engine_answer *out,
                     hg_err *e)
{
    hg_lammps_system ls;
    hg_consts c;
    simulation(psd, sys, v, &ls, &c);
    hg_model_values mv = {0};
    mv.consts = &c;
    hg_recommend_options ro;
    hg_recommend_options_default(&ro);
    ro.n_models = 2;
    ro.models[0] = hg_model_find("lammps-bin");
    ro.models[1] = hg_model_find("lammps-multi");
    ro.max_levels = MAX_COLL;
    double rmin = hg_psd_rmin(psd);
    hg_recommendation r;
    int st;
    if ((st = hg_model_values_set(&mv, "atoms", ls.atoms, e)) ||
        (st = hg_model_values_set(&mv, "ranks", ls.nprocs, e)) ||
        (st = hg_model_values_set(&mv, "skin", ls.skin / (2.0 * rmin), e)) ||
        (st = hg_recommend(psd, sys, &mv, &ro, &r, e)))
        return st;
    double unit = c.c[0] * ls.atoms / ls.nprocs;
    hg_lammps_setting best = {0}, bin = {0};
    if (strcmp(r.model->name, "lammps-bin"))
        st = hg_lammps_setting_from_sizes(psd, r.levels, r.cell_sizes, &best,
                                          e);
    double bin_seconds = r.curves[0].points[0].T * unit;
    answer_of(&ls, &best, r.cost.T * unit, bin_seconds, out);
    option_of(&bin, bin_seconds, &out->options[0]);
    for (int L = 1; L <= MAX_COLL && st == HG_OK; L++) {
        const hg_curve_point *pt = &r.curves[1].points[L - 1];
        hg_lammps_setting s = {0};
        double sec = NAN;
        if (hg_lammps_setting_from_sizes(psd, L, pt->sizes, &s, NULL) ==
                HG_OK &&
            s.ncoll == L)
            sec = pt->T * unit;
        option_of(&s, sec, &out->options[L]);
        out->options[L].levels = L;
    }
    out->n_options = MAX_COLL + 1;
    hg_recommendation_clear(&r);
    return st;
}

/* The setting given: levels cutoffs (0: bin), and bin beside it. */
int hg_lammps_evaluate(const hg_psd *psd, const hg_system *sys,
                       const hg_model_values *v, int levels,
                       const double *sizes, hg_engine_answer *out,
                       hg_err *e)
{
    hg_lammps_system ls;
    hg_consts c;
    simulation(psd, sys, v, &ls, &c);
    hg_lammps_setting s = {0}, bin = {0};
    int st = HG_OK;
    if (levels > 0 && (st = hg_sizes_check(psd, levels, sizes, 0, e)) ==
                          HG_OK)
        st = hg_lammps_setting_from_sizes(psd, levels, sizes, &s, e);
    if (st)
        return hg_fail(e, HG_EINVAL, "--%s", e->msg);
    hg_lammps_work w, wb;
    if ((st = hg_lammps_work_eval(psd, &ls, &s, &w, e)) ||
        (st = hg_lammps_work_eval(psd, &ls, &bin, &wb, e)))
        return st;
    answer_of(&ls, &s, hg_lammps_predict(&c, &w), hg_lammps_predict(&c, &wb),
              out);
    return HG_OK;
}
