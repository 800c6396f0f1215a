/* advise.c - hg_advise: the engine the output describes, its answer for
 * the case (a grid of the KOL models, a code's collections or setting, or
 * the cost of the sizes given) and the settings text of the output
 * format. Every decision by engine is made here and in the engines'
 * tables; the command line renders the answer. */
#include "hg_advise.h"
#include "hg_export.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hg_advice_clear(hg_advice *a)
{
    if (!a)
        return;
    if (a->has_rec)
        hg_recommendation_clear(&a->rec);
    if (a->has_cost)
        hg_cost_clear(&a->cost);
    free(a->sizes);
    free(a->settings);
    memset(a, 0, sizeof *a);
}

static int plain_format(const char *format)
{
    return !format || !strcmp(format, "table") || !strcmp(format, "json");
}

/* The engine of a code's own model named by --model (a model or a word
 * naming an engine): the engine whose answer is not a KOL grid. */
static const hg_engine *own_model_engine(const hg_model *model,
                                         const char *word)
{
    const hg_engine *g = model ? hg_engine_of_model(model->name)
                         : word ? hg_engine_find(word)
                                : NULL;
    return g && g->answer_kind != HG_ANSWER_GRID ? g : NULL;
}

/* A code's answer must be shown as table, json or its own settings. */
static int check_code_format(const char *cmd, const hg_engine *g,
                             const char *format, int plot, hg_err *e)
{
    if (plot)
        return hg_fail(e, HG_EINVAL, "%s --engine %s: --plot draws the "
                       "HGrid recommendation only", cmd, g->name);
    if (plain_format(format) || !strcmp(format, g->settings_format))
        return HG_OK;
    const hg_engine *w = hg_engine_of_format(format);
    if (g->answer_kind == HG_ANSWER_COLLECTIONS && w)
        return hg_fail(e, HG_EINVAL,
                       "%s --engine %s: --format %s writes %s settings (the "
                       "%s engine: table, json or %s)",
                       cmd, g->name, format, w->code, g->name,
                       g->settings_format);
    return hg_fail(e, HG_EINVAL, "%s --engine %s: --format: table, json or "
                   "the engine's settings", cmd, g->name);
}

/* The grid models of the default engine (hg_recommend's candidates when
 * none is named). */
static size_t default_grid_models(const hg_model **out, size_t cap)
{
    size_t n = 0;
    for (const char *const *m = hg_engine_at(0)->models; m && *m; m++) {
        const hg_model *x = hg_model_find(*m);
        if (x && x->grid_algorithm != HG_GRID_NONE && n < cap)
            out[n++] = x;
    }
    return n;
}

static size_t engine_models(const hg_engine *g, const hg_model **out,
                            size_t cap)
{
    size_t n = 0;
    for (const char *const *m = g->models; m && *m && n < cap; m++)
        out[n++] = hg_model_find(*m);
    return n;
}

/* The simulation the codes' models price, in one place: atoms = --param
 * atoms, else --atoms, else the particle or system file's, else the
 * model's default; ranks = --param ranks, else --mpi, else 1; the skin of
 * the case. Set into v for the models that declare them. */
static int simulation(const hg_case *c, const hg_advise_options *o,
                      const hg_model *m, hg_model_values *v, hg_advice *a,
                      hg_err *e)
{
    double x;
    int ia = m ? hg_model_param_index(m, "atoms") : -1;
    a->atoms = hg_model_values_get(&c->values, "atoms", &x) ? x
               : o->atoms > 0                               ? (double)o->atoms
               : c->particles > 0 ? (double)c->particles
               : ia >= 0          ? m->params[ia].def
                                  : 50000.0;
    a->ranks = hg_model_values_get(&c->values, "ranks", &x) ? (int)x
               : o->ranks > 0                               ? (int)o->ranks
                                                            : 1;
    *v = c->values;
    int st = HG_OK;
    if (m && hg_model_param_index(m, "atoms") >= 0)
        st = hg_model_values_set(v, "atoms", a->atoms, e);
    if (!st && m && hg_model_param_index(m, "ranks") >= 0)
        st = hg_model_values_set(v, "ranks", a->ranks, e);
    if (!st && m && hg_model_param_index(m, "skin") >= 0)
        st = hg_model_values_set(v, "skin",
                                 c->skin / (2.0 * hg_psd_rmin(c->psd)), e);
    return st;
}

/* The KOL grid of the answer as hg_export_input for a settings writer. */
static void grid_export(const hg_case *c, hg_algorithm alg, int L,
                        const double *sizes, const hg_cost *cost,
                        double T_linked_cell, char *K_note, size_t len,
                        hg_export_input *x)
{
    memset(x, 0, sizeof *x);
    x->psd = c->psd;
    x->sys = &c->sys;
    x->algorithm = alg;
    x->levels = L;
    x->sizes = sizes;
    x->T = cost->T;
    x->T_cd = cost->T_cd;
    x->T_ca = cost->T_ca;
    x->K = cost->K;
    x->T_linked_cell = T_linked_cell;
    x->name = c->name;
    x->unit = c->unit;
    x->skin = c->skin;
    x->skin_source = c->skin_why;
    x->K_note = hg_K_choice_describe(&c->Kc, K_note, len);
}

/* The settings of the answer in the writer's format, else (table, json)
 * in the answering engine's, for codes whose answer is their own. */
static int settings_text(const hg_case *c, const hg_advise_options *o,
                         const hg_export_input *grid, int evaluated,
                         hg_advice *a, hg_err *e)
{
    const hg_engine *w = a->writer;
    if (!w && a->kind != HG_ADVICE_GRID && a->kind != HG_ADVICE_COST)
        w = a->engine;
    if (!w || !w->write_settings)
        return HG_OK;
    const hg_engine_answer *ans = &a->answer;
    const hg_model *m = a->model;
    hg_engine_settings in = {0};
    in.psd = c->psd;
    in.sys = &c->sys;
    in.model = ans->model ? ans->model : m ? m->name : NULL;
    in.algorithm = m ? m->grid_algorithm : HG_GRID_NONE;
    in.skin = c->skin;
    in.skin_source = c->skin_why;
    in.atoms = a->atoms;
    in.ranks = a->ranks;
    in.constants = c->consts_source;
    in.origin = o->origin;
    in.name = c->name;
    in.length_unit = c->unit;
    in.grid = grid;
    in.evaluated = evaluated;
    if (a->kind == HG_ADVICE_COLLECTIONS) {
        in.answer = ans;
    } else if (a->kind == HG_ADVICE_SETTING) {
        in.levels = ans->levels;
        in.sizes = ans->sizes;
        in.predicted = isfinite(ans->seconds) ? 1e3 * ans->seconds : ans->T;
        in.unit = isfinite(ans->seconds) ? "ms per build"
                  : hg_model_find(ans->model) ? hg_model_find(ans->model)->help
                                              : "";
    } else if (a->kind == HG_ADVICE_COST && !grid) {
        /* the sizes given; a one-level model's: its cell */
        int given = m->max_levels != 1;
        double size = a->cost.per_level[0].cell_size;
        in.levels = given ? a->n_sizes : 1;
        in.sizes = given ? a->sizes : &size;
        in.predicted = a->cost.T;
        in.unit = m->help;
        return w->write_settings(&in, &a->settings, e);
    }
    return w->write_settings(&in, &a->settings, e);
}

/* ---- recommend ---- */

/* The engine recommend answers for: --engine, else the engine of a code's
 * own model named, else (no model named) the engine of --format, else
 * the default; the model must be one of its. */
static int recommend_engine(const hg_case_input *in,
                            const hg_advise_options *o, const hg_model *model,
                            const char *word, hg_advice *a, hg_err *e)
{
    const hg_engine *named = own_model_engine(model, word);
    const hg_engine *g = in->engine ? hg_engine_find(in->engine)
                         : named    ? named
                         : !model && !word && hg_engine_of_format(in->format)
                             ? hg_engine_of_format(in->format)
                             : hg_engine_at(0);
    if (!g)
        return hg_fail(e, HG_EUNKNOWN, "--engine: unknown engine '%s'",
                       in->engine);
    const char *n = model ? model->name : word;
    int ok = !n || !strcmp(n, "auto") ||
             (g->answer_kind == HG_ANSWER_GRID
                  ? !named
                  : named == g || (model && hg_engine_of_model(n) == g));
    if (!ok)
        return hg_fail(e, HG_EINVAL, "recommend --engine %s: --model %s is "
                       "not a model of the %s engine (see 'hgridopt help "
                       "engines')", g->name, n, g->name);
    a->engine = g;
    a->kind = g->answer_kind == HG_ANSWER_COLLECTIONS ? HG_ADVICE_COLLECTIONS
              : g->answer_kind == HG_ANSWER_SETTING   ? HG_ADVICE_SETTING
                                                      : HG_ADVICE_GRID;
    if (a->kind != HG_ADVICE_GRID)
        return check_code_format("recommend", g, in->format, o->plot, e);
    return HG_OK;
}

/* A code's own answer: its answer hook, else hg_recommend over its models
 * (or the one named). */
static int code_answer(const hg_case *c, const hg_advise_options *o,
                       const hg_model *model, hg_advice *a, hg_err *e)
{
    const hg_engine *g = a->engine;
    hg_engine_answer *ans = &a->answer;
    const hg_model *m0 = model ? model : hg_model_find(g->models[0]);
    hg_model_values v;
    int st = simulation(c, o, m0, &v, a, e);
    memset(ans, 0, sizeof *ans);
    ans->seconds = ans->default_seconds = NAN;
    if (st)
        return st;
    if (g->answer) {
        st = g->answer(c->psd, &c->sys, &v, ans, e);
    } else {
        hg_recommend_options ro = o->recommend;
        ro.n_models = 0;
        if (model)
            ro.models[ro.n_models++] = model;
        for (const char *const *m = g->models; !model && m && *m; m++)
            if (ro.n_models < HG_RECOMMEND_MAX_MODELS)
                ro.models[ro.n_models++] = hg_model_find(*m);
        st = hg_recommend(c->psd, &c->sys, &v, &ro, &a->rec, e);
        if (st)
            return st;
        a->has_rec = 1;
        ans->model = a->rec.model->name;
        ans->levels = a->rec.levels < 16 ? a->rec.levels : 16;
        memcpy(ans->sizes, a->rec.cell_sizes,
               sizeof ans->sizes[0] * (size_t)ans->levels);
        ans->T = a->rec.cost.T;
        size_t n = (size_t)snprintf(ans->setting, sizeof ans->setting,
                                    "%d level%s, sizes", ans->levels,
                                    ans->levels == 1 ? "" : "s");
        for (int i = 0; i < ans->levels && n < sizeof ans->setting; i++)
            n += (size_t)snprintf(ans->setting + n, sizeof ans->setting - n,
                                  " %.6g", ans->sizes[i]);
    }
    if (st)
        return st;
    ans->atoms = a->atoms;
    ans->ranks = a->ranks;
    if (!(ans->skin > 0.0))
        ans->skin = c->skin;
    a->model = hg_model_find(ans->model);
    a->no_K = !a->model || hg_model_param_index(a->model, "K") < 0;
    return HG_OK;
}

static int recommend(const hg_case_input *in, const hg_advise_options *o,
                     hg_case *c, hg_advice *a, hg_err *e)
{
    /* auto, a code's engine (its own models: --model lammps), kol (the
     * KOL grid models for any code) */
    const char *words[4 + 16] = {"auto"};
    size_t nw = 1;
    for (size_t i = 0; i < hg_engine_count() && nw < 18; i++)
        if (hg_engine_at(i)->answer_kind != HG_ANSWER_GRID)
            words[nw++] = hg_engine_at(i)->name;
    words[nw++] = "kol";
    words[nw] = NULL;
    const hg_model *model;
    const char *word;
    int st = hg_model_choose(o->model_text, o->algorithm_text, words, NULL,
                             &model, &word, e);
    if (st || (st = recommend_engine(in, o, model, word, a, e)))
        return st;
    hg_recommend_options ro = o->recommend;
    ro.n_models = 0;
    if (model)
        ro.models[ro.n_models++] = model;
    /* MercuryDPM has no `bin`, and a LAMMPS export of one level is bin
     * already: the exports describe the best grid of the candidates */
    ro.grid_only = !plain_format(in->format);
    if ((st = hg_case_resolve(in, c, e)))
        return st;
    /* --param for the models answering: the engine's, or the candidates */
    const hg_model *pm[HG_RECOMMEND_MAX_MODELS + 4];
    size_t npm = 0;
    if (a->kind != HG_ADVICE_GRID)
        npm = engine_models(a->engine, pm, 4);
    else if (ro.n_models)
        for (; npm < (size_t)ro.n_models; npm++)
            pm[npm] = ro.models[npm];
    else
        npm = default_grid_models(pm, 4);
    if ((st = hg_case_params(c, o->params, pm, npm, e)) ||
        (st = hg_case_size_params(c, pm, npm, o->atoms, o->ranks, e)))
        return st;
    a->writer = hg_engine_of_format(in->format);
    if (a->kind != HG_ADVICE_GRID) {
        if ((st = code_answer(c, o, model, a, e)))
            return st;
        return settings_text(c, o, NULL, 0, a, e);
    }
    if ((st = hg_recommend(c->psd, &c->sys, &c->values, &ro, &a->rec, e)))
        return st;
    a->has_rec = 1;
    a->model = a->rec.model;
    /* JSON carries the lines of the engine's settings format (MercuryDPM's
     * subclass), as a code's own answer does */
    if (!a->writer && in->format && !strcmp(in->format, "json") &&
        a->engine->write_settings)
        a->writer = a->engine;
    if (!a->writer)
        return HG_OK;
    char note[640];
    hg_export_input x;
    grid_export(c, a->rec.model->grid_algorithm, a->rec.levels,
                a->rec.cell_sizes, &a->rec.cost, a->rec.linked_cell_T, note,
                sizeof note, &x);
    return settings_text(c, o, &x, 0, a, e);
}

/* ---- evaluate ---- */

/* A model of a code's own (not the KOL grid, whose levels every code's
 * export takes): its settings only in its own code's format. */
static int format_for_model(const hg_model *m, const char *fmt, hg_err *e)
{
    const hg_engine *fe = hg_engine_of_format(fmt);
    const hg_engine *me = hg_engine_of_model(m->name);
    if (!fe || m->grid_algorithm != HG_GRID_NONE || !me ||
        me == hg_engine_at(0) || me == fe)
        return HG_OK;
    return hg_fail(e, HG_EINVAL,
                   "evaluate --format %s: writes the %s engine's settings; "
                   "--model %s is the %s engine's model (its settings: "
                   "--format %s)",
                   fmt, fe->name, m->name, me->name,
                   me->settings_format ? me->settings_format : "none");
}

static int parse_sizes(const hg_advise_options *o, hg_advice *a, hg_err *e)
{
    size_t n = 0;
    int st = o->sizes_text ? hg_parse_list(o->sizes_text, ',', "--sizes",
                                           &a->sizes, &n, e)
                           : HG_OK;
    a->n_sizes = (int)n;
    return st;
}

/* evaluate --engine E of a code with collections: --sizes are the
 * collection cutoffs (none: the code's default), its model's prediction
 * beside the default's. */
static int evaluate_code(const hg_case_input *in, const hg_advise_options *o,
                         hg_case *c, hg_advice *a, hg_err *e)
{
    const hg_engine *g = a->engine;
    if (o->model_text || o->algorithm_text)
        return hg_fail(e, HG_EINVAL,
                       "evaluate --engine %s: --%s is for the %s engine (the "
                       "%s engine evaluates %s for --sizes as collection "
                       "cutoffs)",
                       g->name, o->model_text ? "model" : "algorithm",
                       hg_engine_at(0)->name, g->name, g->modelled);
    int st = check_code_format("evaluate", g, in->format, 0, e);
    if (st || (st = parse_sizes(o, a, e)))
        return st;
    const hg_model *pm[4];
    size_t npm = engine_models(g, pm, 4);
    if ((st = hg_case_resolve(in, c, e)) ||
        (st = hg_case_params(c, o->params, pm, npm, e)))
        return st;
    a->kind = HG_ADVICE_COLLECTIONS;
    a->writer = hg_engine_of_format(in->format);
    hg_model_values v;
    if ((st = simulation(c, o, pm[0], &v, a, e)) ||
        (st = g->evaluate(c->psd, &c->sys, &v, a->n_sizes, a->sizes,
                          &a->answer, e)))
        return st;
    a->no_K = 1;
    return settings_text(c, o, NULL, 1, a, e);
}

/* The cost's baselines in like units: the linked cell and bin count KOL
 * pair checks of the bundled HGrid; a model of another engine (LAMMPS'
 * Neigh time in distance checks) is compared with its own engine's
 * one-level models instead. */
static int baselines(const hg_case *c, hg_advice *a, hg_err *e)
{
    const hg_engine *eng = hg_engine_of_model(a->model->name);
    if (eng && eng == hg_engine_at(0)) {
        a->has_single_level = 1;
        return hg_single_level_evaluate(c->psd, &c->sys, &c->values,
                                        &a->single_level, e);
    }
    for (size_t i = 0; eng && eng->models[i]; i++) {
        const hg_model *m1 = hg_model_find(eng->models[i]);
        hg_work w1;
        if (!m1 || m1 == a->model || m1->max_levels != 1 ||
            a->n_baselines == HG_ADVICE_MAX_BASELINES)
            continue;
        int st = hg_cost_evaluate(m1, c->psd, &c->sys, &c->values, 1, NULL,
                                  NULL, &w1, e);
        if (st)
            return st;
        a->baseline_model[a->n_baselines] = m1;
        a->baseline_T[a->n_baselines++] = w1.T;
    }
    return HG_OK;
}

/* The settings of a cost: a code's own model in its own format (its
 * writer), or the KOL grid of the sizes in another code's format. */
static int cost_settings(const hg_case *c, const hg_advise_options *o,
                         hg_advice *a, hg_err *e)
{
    const hg_engine *w = a->writer;
    if (!w)
        return HG_OK;
    const hg_model *m = a->model;
    if (m->grid_algorithm == HG_GRID_NONE && hg_engine_of_model(m->name) == w)
        return settings_text(c, o, NULL, 1, a, e);
    int hgrid = m->max_levels != 1;
    double one = 2.0 * hg_psd_rmax(c->psd);
    char note[640];
    hg_export_input x;
    grid_export(c, m->grid_algorithm == HG_BOTTOM_UP ? HG_BOTTOM_UP
                                                     : HG_TOP_DOWN,
                hgrid ? a->n_sizes : 1, hgrid ? a->sizes : &one, &a->cost,
                a->has_single_level ? a->single_level.linked_cell.T : NAN,
                note, sizeof note, &x);
    return settings_text(c, o, &x, 1, a, e);
}

static int evaluate(const hg_case_input *in, const hg_advise_options *o,
                    hg_case *c, hg_advice *a, hg_err *e)
{
    const hg_engine *g = in->engine ? hg_engine_find(in->engine) : NULL;
    if (g && g->answer_kind == HG_ANSWER_SETTING)
        return hg_fail(e, HG_EINVAL,
                       "evaluate --engine %s: its setting is a model "
                       "parameter, not --sizes; give its model (--model, "
                       "'hgridopt help engines') and --param",
                       in->engine);
    if (g && g->answer_kind == HG_ANSWER_COLLECTIONS && g->evaluate) {
        a->engine = g;
        return evaluate_code(in, o, c, a, e);
    }
    const hg_model *model;
    const char *word;
    int st = hg_model_choose(o->model_text, o->algorithm_text, NULL,
                             hg_model_for_grid(HG_TOP_DOWN), &model, &word,
                             e);
    if (st || (st = format_for_model(model, in->format, e)))
        return st;
    a->kind = HG_ADVICE_COST;
    a->model = model;
    a->engine = hg_engine_of_model(model->name);
    int hgrid = model->max_levels != 1;
    if (!o->sizes_text && hgrid)
        return hg_fail(e, HG_EINVAL,
                       "--sizes: missing (give the cell sizes s_1,...,s_L; "
                       "the last must cover the largest diameter)");
    if ((st = parse_sizes(o, a, e)) || (st = hg_case_resolve(in, c, e)) ||
        (st = hg_case_params(c, o->params, &model, 1, e)) ||
        (st = hg_case_size_params(c, &model, 1, 0, 0, e)))
        return st;
    double dmax = 2.0 * hg_psd_rmax(c->psd);
    if (hgrid && (st = hg_sizes_check(c->psd, a->n_sizes, a->sizes, 1, e))) {
        if (a->sizes[a->n_sizes - 1] < dmax * (1 - 1e-12))
            return hg_fail(e, HG_EINVAL,
                           "--sizes: the last cell size %g is below the "
                           "largest particle diameter %g; add a level of "
                           "size >= %g",
                           a->sizes[a->n_sizes - 1], dmax, dmax);
        return hg_fail(e, HG_EINVAL, "--%s", e->msg);
    }
    a->has_cost = 1;
    if ((st = hg_cost_evaluate(model, c->psd, &c->sys, &c->values,
                               a->n_sizes, a->sizes, &a->cost, NULL, e)) ||
        (st = baselines(c, a, e)))
        return hg_err_data(e, st);
    a->no_K = hg_model_param_index(model, "K") < 0;
    a->writer = hg_engine_of_format(in->format);
    hg_model_values v;
    if ((st = simulation(c, o, model, &v, a, e)))
        return st;
    return cost_settings(c, o, a, e);
}

int hg_advise(const hg_case_input *in, const hg_advise_options *o,
              hg_case *c, hg_advice *a, hg_err *e)
{
    memset(a, 0, sizeof *a);
    memset(c, 0, sizeof *c);
    if (o->origin && !strcmp(o->origin, "evaluate"))
        return evaluate(in, o, c, a, e);
    return recommend(in, o, c, a, e);
}
