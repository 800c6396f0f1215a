/* render_code.c - a code's own answer in table and JSON (hg_advise's
 * HG_ADVICE_COLLECTIONS: neighbour collections against the code's
 * one-grid default; HG_ADVICE_SETTING: one setting of its model); the
 * settings text itself is the engine's (hg_advice.settings). */
#include "cli.h"
#include "render_code.h"
#include "hg_ranks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A setting of collections as JSON {style, collections, cutoffs}: levels
 * 0 is the code's one-grid default. */
/* recommend --mpi P: the decomposition under a code's answer */
static int ranks_table(FILE *out, const cli_system *cs, const hg_advice *a)
{
    if (!cs->ranks)
        return CLI_OK;
    fprintf(out, "\non %d MPI ranks (the slowest rank's step; hgridopt "
                 "decompose for the whole table):\n",
            cs->ranks->nprocs);
    return cli_ranks_table(out, cs->ranks, 6,
                           !strcmp(a->engine->name, "liggghts"));
}

static void ranks_json(cJSON *j, const cli_system *cs)
{
    if (cs->ranks)
        cli_ranks_json(cJSON_AddObjectToObject(j, "decomposition"),
                       cs->ranks);
}

static cJSON *collections_json(int levels, const double *sizes)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "style", levels ? "multi" : "bin");
    cJSON_AddNumberToObject(j, "collections", levels);
    if (levels)
        cli_json_add_array(j, "cutoffs", sizes, levels);
    else if (sizes[0] > 0.0) /* bin with neigh_modify binsize */
        cJSON_AddNumberToObject(j, "binsize", sizes[0]);
    return j;
}

/* The system lines of a code's collections (engine and constants,
 * distribution, radii, dim, nu, atoms, ranks, skin, structure). */
static void collections_system(FILE *out, const cli_system *cs,
                               const hg_advice *a)
{
    const hg_case *c = &cs->c;
    const hg_engine_answer *x = &a->answer;
    const char *u = c->unit ? c->unit : "";
    fprintf(out, "engine:         %s (%s, model constants: %s)\n",
            a->engine->name, a->engine->modelled, c->consts_source);
    if (c->name)
        fprintf(out, "system:         %s\n", c->name);
    fprintf(out, "distribution:   %s\n", hg_psd_spec(c->psd));
    fprintf(out, "radii:          %.6g .. %.6g%s%s (omega = %.6g)\n",
            hg_psd_rmin(c->psd), hg_psd_rmax(c->psd), *u ? " " : "", u,
            hg_psd_rmax(c->psd) / hg_psd_rmin(c->psd));
    fprintf(out, "dim %d, nu = %.6g, %.6g atoms (%.6g per rank), %d "
                 "rank%s\n",
            c->sys.dim, c->sys.nu, x->atoms, x->atoms / x->ranks, x->ranks,
            x->ranks == 1 ? "" : "s");
    fprintf(out, "skin:           %.6g, %s\n", x->skin, c->skin_why);
    cli_print_structure(out, cs);
}

static cJSON *collections_document(const char *what, const cli_system *cs,
                                   const hg_advice *a)
{
    const hg_case *c = &cs->c;
    const hg_engine_answer *x = &a->answer;
    char schema[96];
    snprintf(schema, sizeof schema, "hgridopt.%s-%s/1", a->engine->name,
             what);
    cJSON *j = cli_json_document(schema, cs);
    cJSON_AddStringToObject(j, "engine", a->engine->name);
    if (c->name)
        cJSON_AddStringToObject(j, "name", c->name);
    cJSON_AddStringToObject(j, "distribution", hg_psd_spec(c->psd));
    cJSON_AddNumberToObject(j, "r_min", hg_psd_rmin(c->psd));
    cJSON_AddNumberToObject(j, "r_max", hg_psd_rmax(c->psd));
    cJSON_AddNumberToObject(j, "dim", c->sys.dim);
    cJSON_AddNumberToObject(j, "nu", c->sys.nu);
    cJSON_AddStringToObject(j, "structure",
                            hg_structure_name(c->sys.structure));
    cli_json_add_snapshot(j, cs);
    cJSON_AddNumberToObject(j, "atoms", x->atoms);
    cJSON_AddNumberToObject(j, "atoms_per_rank", x->atoms / x->ranks);
    cJSON_AddNumberToObject(j, "ranks", x->ranks);
    cJSON_AddNumberToObject(j, "skin", x->skin);
    cJSON_AddStringToObject(j, "skin_source", c->skin_why);
    cJSON_AddBoolToObject(j, "skin_given", c->skin_given);
    cJSON_AddStringToObject(j, "constants", c->consts_source);
    return j;
}

void render_print_lines(FILE *out, const char *text)
{
    for (const char *l = text; l && *l;) {
        size_t n = strcspn(l, "\n");
        if (l[0] != '#')
            fprintf(out, "%.*s\n", (int)n, l);
        l += n + (l[n] == '\n');
    }
}

void render_json_lines(cJSON *obj, const char *key, const char *text)
{
    cJSON *arr = cJSON_AddArrayToObject(obj, key);
    char *copy = text ? strdup(text) : NULL;
    for (char *sv = NULL, *t = copy ? strtok_r(copy, "\n", &sv) : NULL; t;
         t = strtok_r(NULL, "\n", &sv))
        if (t[0] != '#')
            cJSON_AddItemToArray(arr, cJSON_CreateString(t));
    free(copy);
}

/* ---- collections: recommend ---- */

static int collections_table(FILE *out, const cli_system *cs,
                             const hg_advice *a)
{
    const hg_engine_answer *x = &a->answer;
    collections_system(out, cs, a);
    if (x->levels || x->sizes[0] > 0.0)
        fprintf(out, "\ndecision:       use %s: predicted Neigh time %.4g ms "
                     "per build, %.3g of bin\n",
                x->setting, 1e3 * x->seconds, x->seconds / x->default_seconds);
    else
        fprintf(out, "\ndecision:       use bin: predicted Neigh time %.4g ms "
                     "per build (the cheapest of the settings weighed)\n",
                1e3 * x->seconds);
    fprintf(out, "\npredicted Neigh time per build (ms) of the settings "
                 "weighed (as recommend --trajectory):\n");
    for (int n = 0; n < x->n_options; n++)
        if (isfinite(x->options[n].seconds))
            fprintf(out, "  %10.4g  %s\n", 1e3 * x->options[n].seconds,
                    x->options[n].setting);
    fprintf(out, "\nsettings (the lines of --format %s):\n",
            a->engine->settings_format);
    render_print_lines(out, a->settings);
    return ranks_table(out, cs, a);
}

/* The answer's collections under key, and its predicted Neigh time
 * against bin's. */
static void collections_prediction(cJSON *j, const char *key,
                                   const hg_engine_answer *x)
{
    cJSON_AddItemToObject(j, key, collections_json(x->levels, x->sizes));
    cJSON_AddNumberToObject(j, "predicted_neigh_ms", 1e3 * x->seconds);
    cJSON_AddNumberToObject(j, "bin_neigh_ms", 1e3 * x->default_seconds);
    cJSON_AddNumberToObject(j, "ratio_to_bin",
                            x->seconds / x->default_seconds);
}

static int collections_json_doc(FILE *out, const cli_system *cs,
                                const hg_advice *a)
{
    const hg_engine_answer *x = &a->answer;
    cJSON *j = collections_document("recommendation", cs, a);
    collections_prediction(j, "answer", x);
    /* every setting weighed; by_collections: the cheapest multi of each
     * number of collections */
    cJSON *all = cJSON_AddArrayToObject(j, "weighed");
    cJSON *by = cJSON_AddArrayToObject(j, "by_collections");
    for (int n = 0; n < x->n_options; n++) {
        const hg_engine_option *o = &x->options[n];
        if (!isfinite(o->seconds))
            continue;
        cJSON *r = collections_json(o->levels, o->sizes);
        cJSON_AddStringToObject(r, "setting", o->setting);
        cJSON_AddNumberToObject(r, "predicted_neigh_ms", 1e3 * o->seconds);
        cJSON_AddItemToArray(all, r);
        int cheapest = o->levels > 0;
        for (int k = 0; cheapest && k < x->n_options; k++)
            if (k != n && x->options[k].levels == o->levels &&
                (x->options[k].seconds < o->seconds ||
                 (x->options[k].seconds == o->seconds && k < n)))
                cheapest = 0;
        if (cheapest) {
            cJSON *b = collections_json(o->levels, o->sizes);
            cJSON_AddNumberToObject(b, "predicted_neigh_ms",
                                    1e3 * o->seconds);
            cJSON_AddItemToArray(by, b);
        }
    }
    render_json_lines(j, "settings", a->settings);
    ranks_json(j, cs);
    return cli_json_print(out, j);
}

/* ---- collections: evaluate ---- */

static int collections_eval_table(FILE *out, const cli_system *cs,
                                  const hg_advice *a)
{
    const hg_engine_answer *x = &a->answer;
    collections_system(out, cs, a);
    fprintf(out, "\nsetting:        %s\n", x->setting);
    fprintf(out, "predicted Neigh time per build: %.4g ms (bin %.4g ms, "
                 "ratio %.3g)\n",
            1e3 * x->seconds, 1e3 * x->default_seconds,
            x->seconds / x->default_seconds);
    fprintf(out, "\nsettings (the lines of --format %s):\n",
            a->engine->settings_format);
    render_print_lines(out, a->settings);
    return ranks_table(out, cs, a);
}

static int collections_eval_json(FILE *out, const cli_system *cs,
                                 const hg_advice *a)
{
    const hg_engine_answer *x = &a->answer;
    cJSON *j = collections_document("evaluation", cs, a);
    collections_prediction(j, "setting", x);
    render_json_lines(j, "settings", a->settings);
    ranks_json(j, cs);
    return cli_json_print(out, j);
}

/* ---- one setting of a code's model ---- */

static int setting_json(FILE *out, const cli_system *cs, const hg_advice *a)
{
    const hg_case *c = &cs->c;
    const hg_engine_answer *x = &a->answer;
    const hg_recommendation *r = a->has_rec ? &a->rec : NULL;
    const hg_model *m = hg_model_find(x->model);
    cJSON *j = cli_json_document("hgridopt.engine-recommendation/1", cs);
    cJSON_AddStringToObject(j, "engine", a->engine->name);
    cJSON_AddStringToObject(j, "constants", c->consts_source);
    cJSON_AddStringToObject(j, "distribution", hg_psd_spec(c->psd));
    cJSON_AddNumberToObject(j, "dim", c->sys.dim);
    cJSON_AddNumberToObject(j, "nu", c->sys.nu);
    cJSON_AddStringToObject(j, "structure",
                            hg_structure_name(c->sys.structure));
    cli_json_add_snapshot(j, cs);
    if (m && hg_model_param_index(m, "skin") >= 0) {
        cJSON_AddNumberToObject(j, "skin", c->skin);
        cJSON_AddStringToObject(j, "skin_source", c->skin_why);
        cJSON_AddBoolToObject(j, "skin_given", c->skin_given);
    }
    cJSON_AddStringToObject(j, "model", x->model);
    cJSON_AddStringToObject(j, "setting", x->setting);
    cJSON_AddNumberToObject(j, "levels", x->levels);
    cli_json_add_array(j, "sizes", x->sizes, x->levels);
    cJSON_AddNumberToObject(j, "T", x->T);
    if (isfinite(x->seconds))
        cJSON_AddNumberToObject(j, "predicted_ms", 1e3 * x->seconds);
    if (isfinite(x->default_seconds))
        cJSON_AddNumberToObject(j, "default_ms", 1e3 * x->default_seconds);
    cJSON *by = cJSON_AddArrayToObject(j, "by_model");
    for (int k = 0; r && k < r->n_curves; k++) {
        const hg_curve *cv = &r->curves[k];
        for (int i = 0; i < cv->n; i++) {
            const hg_curve_point *p = &cv->points[i];
            if (p->nonempty_levels != p->levels)
                continue; /* no gain from another level */
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "model", cv->model->name);
            cJSON_AddNumberToObject(o, "levels", p->levels);
            cli_json_add_array(o, "sizes", p->sizes, p->levels);
            cJSON_AddNumberToObject(o, "T", p->T);
            cJSON_AddItemToArray(by, o);
        }
    }
    render_json_lines(j, "settings", a->settings);
    ranks_json(j, cs);
    return cli_json_print(out, j);
}

static int setting_table(FILE *out, const cli_system *cs, const hg_advice *a)
{
    const hg_engine_answer *x = &a->answer;
    const hg_recommendation *r = a->has_rec ? &a->rec : NULL;
    const hg_model *m = hg_model_find(x->model);
    fprintf(out, "engine:         %s (%s)\n", a->engine->name,
            a->engine->help);
    cli_print_system(out, cs); /* with the constants (no_K) */
    fprintf(out, "\ndecision:       %s: %s\n", x->model, x->setting);
    fprintf(out, "predicted:      %.6g (%s)", x->T, m ? m->help : "");
    if (isfinite(x->seconds))
        fprintf(out, ";\n                %.4g ms per build", 1e3 * x->seconds);
    if (isfinite(x->default_seconds))
        fprintf(out, ", the code's default %.4g ms", 1e3 * x->default_seconds);
    fprintf(out, "\n");
    if (r) {
        fprintf(out, "\npredicted by model and levels:\n");
        for (int k = 0; k < r->n_curves; k++)
            for (int i = 0; i < r->curves[k].n; i++) {
                const hg_curve_point *p = &r->curves[k].points[i];
                if (p->nonempty_levels == p->levels)
                    fprintf(out, "  %-16s L=%-3d %12.6g\n",
                            r->curves[k].model->name, p->levels, p->T);
            }
    }
    fprintf(out, "\nsettings (the lines of --format %s):\n",
            a->engine->settings_format);
    render_print_lines(out, a->settings);
    return ranks_table(out, cs, a);
}

int render_code(FILE *out, const cli_system *cs, const hg_advice *a,
                int evaluated)
{
    const char *fmt = cs->opt.format;
    int json = !strcmp(fmt, "json"), table = !strcmp(fmt, "table");
    if (!json && !table) {
        fputs(a->settings ? a->settings : "", out);
        if (cs->ranks) {
            const struct hg_ranks_candidate *c =
                &cs->ranks->c[cs->ranks->answer];
            fprintf(out, "# %d MPI ranks (%s): processors before the box "
                         "is made, the rest after the pair style\n%s",
                    cs->ranks->nprocs, c->name, c->lines);
        }
        return CLI_OK;
    }
    if (a->kind == HG_ADVICE_SETTING)
        return json ? setting_json(out, cs, a) : setting_table(out, cs, a);
    if (evaluated)
        return json ? collections_eval_json(out, cs, a)
                    : collections_eval_table(out, cs, a);
    return json ? collections_json_doc(out, cs, a)
                : collections_table(out, cs, a);
}
