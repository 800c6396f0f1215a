/* answer.c - the LAMMPS engine's answer: the best neighbor setting of its
 * model among the settings the whole-run answer weighs (bin, bins of one
 * cutoff, multi with collections and their cutoffs) and the prediction of a setting given, for a simulation of atoms on MPI
 * ranks with the neighbour skin (the values hg_advise sets). */
#include "hg_engine.h"
#include "hg_lammps.h"
#include "hg_opt.h"
#include "hg_whole_run.h"
#include "lammps_engine.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

static void option_of(const hg_lammps_setting *s, const char *name,
                      double seconds, hg_engine_option *o)
{
    memset(o, 0, sizeof *o);
    o->levels = s->ncoll;
    for (int i = 0; i < s->ncoll && i < 16; i++)
        o->sizes[i] = s->cut[i];
    if (s->ncoll == 0)
        o->sizes[0] = s->binsize;
    o->seconds = seconds;
    o->T = NAN;
    char text[200];
    hg_lammps_setting_text(s, text, sizeof text);
    if (!name || !strcmp(name, text))
        snprintf(o->setting, sizeof o->setting, "%s", text);
    else
        snprintf(o->setting, sizeof o->setting, "%s: %s", name, text);
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
    if (s->ncoll == 0)
        out->sizes[0] = s->binsize; /* bin: its bin size (0: LAMMPS') */
    out->seconds = seconds;
    out->default_seconds = bin_seconds;
    out->T = NAN;
    hg_lammps_setting_text(s, out->setting, sizeof out->setting);
    out->atoms = ls->atoms;
    out->ranks = ls->nprocs;
    out->skin = ls->skin;
}

/* The settings the whole-run answer weighs (hg_lammps_weighed_settings:
 * bin, bins of one cutoff, multi with geometric and the model's best
 * cutoffs), priced on this frame at its skin as the whole run prices each
 * frame (hg_lammps_setting_neigh); the cheapest is the answer (the first
 * of equal ones, bin before the others, as the whole run's choice at one
 * skin), each beside it in options. */
int hg_lammps_answer(const hg_psd *psd, const hg_system *sys,
                     const hg_model_values *v, hg_engine_answer *out,
                     hg_err *e)
{
    hg_lammps_system ls;
    hg_consts c;
    simulation(psd, sys, v, &ls, &c);
    double dmax = 2.0 * hg_psd_rmax(psd);
    hg_run_setting cand[HG_ENGINE_MAX_OPTIONS];
    int n = hg_lammps_weighed_settings(psd, &ls, dmax, &c, cand,
                                       HG_ENGINE_MAX_OPTIONS, e);
    if (n < 0)
        return -n;
    double sec[HG_ENGINE_MAX_OPTIONS];
    int best = 0;
    for (int k = 0; k < n; k++) {
        int st = hg_lammps_setting_neigh(psd, &ls, &cand[k], ls.skin, &c,
                                         &sec[k], NULL, e);
        if (st)
            return st;
        if (sec[k] < sec[best])
            best = k;
    }
    hg_lammps_setting bs;
    hg_lammps_run_setting_at(&cand[best], ls.skin, dmax, &bs);
    answer_of(&ls, &bs, sec[best], sec[0], out);
    for (int k = 0; k < n; k++) {
        hg_lammps_setting s;
        hg_lammps_run_setting_at(&cand[k], ls.skin, dmax, &s);
        option_of(&s, cand[k].name, sec[k], &out->options[k]);
    }
    out->n_options = n;
    return HG_OK;
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
