/* cmd_evaluate.c - `hgridopt evaluate`: the cost model for given sizes. */
#include "cli.h"
#include "cmd_lammps.h"
#include "hg_export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct evaluate_opts {
    const char *sizes, *param;
} evaluate_opts;

static const cli_option options[] = {
    CLI_STR("sizes", evaluate_opts, sizes),
    CLI_STR("param", evaluate_opts, param),
};

static void help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt evaluate --psd SPEC --dim 2|3 --nu X "
            "--sizes s1,...,sL [options]\n\n"
            "Evaluate the KOL 2014 cost model (pair checks T_cd, cell "
            "accesses T_ca,\nwork T = T_cd + K T_ca per particle) for given "
            "cell sizes, per level and in total.\n\n"
            "  --sizes LIST     cell edge lengths s_1..s_L in the "
            "distribution's units,\n"
            "                   strictly ascending; the last >= the largest "
            "diameter\n"
            "                   (not needed by --model linked-cell; with a "
            "code's model:\n"
            "                   its cutoffs, LAMMPS' collections, none: "
            "bin)\n");
    cli_print_engines_help(out, "evaluate");
    fprintf(out,
            "%s\n%s%s\n"
            "%s\n"
            "Example:\n"
            "  hgridopt evaluate --psd powerlaw:alpha=-3,omega=20 --dim 2 "
            "--nu 0.4 \\\n      --sizes 4.0,7.9,15.1,27.2,40\n\n%s",
            cli_output_help, cli_model_help, cli_param_help, cli_system_help,
            cli_exit_help);
}

/* cell_sizes: the sizes the model was given (as --sizes and recommend's
 * cell_sizes: for a single-level model the cutoff, 2 r_max by default);
 * per_level[].cell_size: the cells it uses, bin_width when they differ. */
/* A one-level model of the evaluated model's own engine, in its units. */
typedef struct own_baseline {
    const hg_model *model;
    double T;
} own_baseline;
#define MAX_OWN 4

static cJSON *to_json(const cli_system *cs, const hg_model *m,
                      const hg_cost *c, const hg_single_level *sl,
                      const own_baseline *own, int n_own,
                      const double *given, int n_given)
{
    cJSON *j = cli_json_document("hgridopt.evaluation/1", cs);
    if (cs->c.name)
        cJSON_AddStringToObject(j, "name", cs->c.name);
    cJSON_AddStringToObject(j, "distribution", hg_psd_spec(cs->c.psd));
    cJSON_AddNumberToObject(j, "r_min", hg_psd_rmin(cs->c.psd));
    cJSON_AddNumberToObject(j, "r_max", hg_psd_rmax(cs->c.psd));
    cJSON_AddStringToObject(j, "model", m->name);
    cJSON_AddStringToObject(j, "algorithm",
                            hg_algorithm_name(m->grid_algorithm));
    cJSON_AddNumberToObject(j, "dim", c->dim);
    cJSON_AddNumberToObject(j, "nu", c->nu);
    cJSON_AddStringToObject(j, "structure",
                            hg_structure_name(cs->c.sys.structure));
    cli_json_add_snapshot(j, cs);
    cli_json_add_K(j, cs);
    cJSON_AddNumberToObject(j, "levels", c->levels);
    cJSON_AddNumberToObject(j, "nonempty_levels", c->nonempty_levels);
    double cutoff = 2.0 * hg_psd_rmax(cs->c.psd);
    if (given)
        cli_json_add_array(j, "cell_sizes", given, n_given);
    else if (m->max_levels == 1)
        cli_json_add_array(j, "cell_sizes", &cutoff, 1);
    else {
        cJSON *sizes = cJSON_AddArrayToObject(j, "cell_sizes");
        for (int h = 0; h < c->levels; h++)
            cJSON_AddItemToArray(
                sizes, cJSON_CreateNumber(c->per_level[h].cell_size));
    }
    if (m->max_levels == 1 && c->levels == 1 &&
        c->per_level[0].cell_size != (given ? given[n_given - 1] : cutoff))
        cJSON_AddNumberToObject(j, "bin_width", c->per_level[0].cell_size);
    cli_json_add_per_level(j, c);
    cJSON_AddNumberToObject(j, "T_cd", c->T_cd);
    cJSON_AddNumberToObject(j, "T_ca", c->T_ca);
    cli_json_add_tables(j, c);
    cJSON_AddNumberToObject(j, "work_per_particle", c->T);
    if (sl) {
        cJSON_AddNumberToObject(j, "linked_cell_work_per_particle",
                                sl->linked_cell.T);
        cJSON_AddNumberToObject(j, "speedup_vs_linked_cell",
                                sl->linked_cell.T / c->T);
        cJSON_AddNumberToObject(j, "bin_work_per_particle", sl->bin.T);
        cJSON_AddNumberToObject(j, "speedup_vs_bin", sl->bin.T / c->T);
    }
    if (n_own) {
        cJSON *a = cJSON_AddArrayToObject(j, "single_level_baselines");
        for (int i = 0; i < n_own; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "model", own[i].model->name);
            cJSON_AddNumberToObject(o, "work_per_particle", own[i].T);
            cJSON_AddNumberToObject(o, "speedup", own[i].T / c->T);
            cJSON_AddItemToArray(a, o);
        }
    }
    return j;
}

typedef struct evaluate_result {
    const cli_system *cs;
    const hg_model *model;
    const hg_cost *cost;
    const hg_single_level *sl; /* the linked cell and `bin` (KOL pair
                                  checks); NULL for a model in other units */
    const own_baseline *own; /* else its engine's one-level models */
    int n_own;
    const double *sizes; /* NULL for a one-level model */
    int L;
    const double *given; /* --sizes as given (NULL: none) */
    int n_given;
} evaluate_result;

/* --format lammps|mercurydpm: the given sizes as settings for that code. */
static int write_export(FILE *out, const evaluate_result *r)
{
    const cli_system *cs = r->cs;
    double one = 2.0 * hg_psd_rmax(cs->c.psd);
    hg_export_input in = {cs->c.psd,
                          &cs->c.sys,
                          r->model->grid_algorithm == HG_BOTTOM_UP
                              ? HG_BOTTOM_UP
                              : HG_TOP_DOWN,
                          r->sizes ? r->L : 1,
                          r->sizes ? r->sizes : &one,
                          r->cost->T,
                          r->cost->T_cd,
                          r->cost->T_ca,
                          r->cost->K,
                          r->sl ? r->sl->linked_cell.T : NAN,
                          cs->c.name,
                          cs->c.unit,
                          cs->c.skin,
                          NULL,
                          cs->c.skin_why};
    char kn[640];
    in.K_note = hg_K_choice_describe(&cs->c.Kc, kn, sizeof kn);
    char *text = NULL;
    hg_err e = {0};
    int st = !strcmp(cs->opt.format, "lammps")
                 ? hg_export_lammps(&in, &text, &e)
                 : hg_export_mercurydpm(&in, &text, &e);
    if (st)
        return cli_fail(&e, st, 0);
    fputs(text, out);
    free(text);
    return CLI_OK;
}

/* The engine whose settings format is fmt (NULL: table, json). */
static const hg_engine *format_engine(const char *fmt)
{
    for (size_t i = 0; i < hg_engine_count(); i++) {
        const hg_engine *g = hg_engine_at(i);
        if (g->settings_format && !strcmp(g->settings_format, fmt))
            return g;
    }
    return NULL;
}

/* A model of a code's own (not the KOL grid, whose levels every code's
 * export takes): its settings only in its own code's format. */
static int format_for_model(const hg_model *m, const char *fmt)
{
    const hg_engine *fe = format_engine(fmt);
    const hg_engine *me = hg_engine_of_model(m->name);
    if (!fe || m->grid_algorithm != HG_GRID_NONE || !me ||
        me == hg_engine_at(0) || me == fe)
        return CLI_OK;
    cli_error("evaluate --format %s: writes the %s engine's settings; "
              "--model %s is the %s engine's model (its settings: --format "
              "%s)",
              fmt, fe->name, m->name, me->name,
              me->settings_format ? me->settings_format : "none");
    return CLI_EUSAGE;
}

/* A code's own model in its own format: its settings writer. */
static int write_own_settings(FILE *out, const evaluate_result *r,
                              const hg_engine *eng)
{
    const cli_system *cs = r->cs;
    double size = r->cost->per_level[0].cell_size;
    hg_engine_settings in = {cs->c.psd,
                             &cs->c.sys,
                             r->model->name,
                             r->model->grid_algorithm,
                             r->sizes ? r->L : 1,
                             r->sizes ? r->sizes : &size,
                             r->cost->T,
                             r->model->help,
                             cs->c.skin,
                             (double)cs->c.particles > 0 ? (double)cs->c.particles
                                                      : 50000.0,
                             1,
                             cs->c.consts_source,
                             "evaluate",
                             cs->c.name,
                             cs->c.unit,
                             cs->c.skin_why};
    char *text = NULL;
    hg_err e = {0};
    int st = eng->write_settings(&in, &text, &e);
    if (st)
        return cli_fail(&e, st, 0);
    fputs(text, out);
    free(text);
    return CLI_OK;
}

static int write_result(FILE *out, const void *ctx)
{
    const evaluate_result *r = ctx;
    const cli_system *cs = r->cs;
    const hg_cost *cost = r->cost;
    if (!strcmp(cs->opt.format, "json"))
        return cli_json_print(out,
                              to_json(cs, r->model, cost, r->sl, r->own, r->n_own,
                                      r->given, r->n_given));
    const hg_engine *fe = format_engine(cs->opt.format);
    if (fe && r->model->grid_algorithm == HG_GRID_NONE &&
        hg_engine_of_model(r->model->name) == fe && fe->write_settings)
        return write_own_settings(out, r, fe);
    if (!strcmp(cs->opt.format, "lammps") ||
        !strcmp(cs->opt.format, "mercurydpm"))
        return write_export(out, r);
    cli_print_system(out, cs);
    if (r->model->max_levels != 1 &&
        r->model->grid_algorithm == HG_GRID_NONE)
        fprintf(out, "model:          %s, %d level%s (%d non-empty)\n\n",
                r->model->name, cost->levels, cost->levels == 1 ? "" : "s",
                cost->nonempty_levels);
    else if (r->model->max_levels != 1)
        fprintf(out, "algorithm:      %s, %d level%s (%d non-empty)\n\n",
                hg_algorithm_name(r->model->grid_algorithm), cost->levels,
                cost->levels == 1 ? "" : "s", cost->nonempty_levels);
    else
        fprintf(out, "model:          %s\n\n", r->model->name);
    cli_print_levels(out, cost, hg_psd_rmin(cs->c.psd));
    cli_print_work(out, cost);
    if (r->sl)
        cli_print_single_level(out, 2.0 * hg_psd_rmax(cs->c.psd), r->sl,
                               cost->T);
    else
        fprintf(out, "no speed-up over the linked cell or bin: %s counts "
                     "in other units than their KOL pair checks\n",
                r->model->name);
    for (int i = 0; i < r->n_own; i++)
        fprintf(out, "%s (one level, same units): T = %.6g  -> predicted "
                     "speed-up %.4g\n",
                r->own[i].model->name, r->own[i].T, r->own[i].T / cost->T);
    return CLI_OK;
}

/* ---- the lammps engine: the LAMMPS model for given cutoffs ---- */

typedef struct lammps_eval {
    const cli_system *cs;
    const char *consts_source;
    hg_lammps_system sys;
    hg_lammps_setting set;
    double seconds, bin_seconds;
    char *lines; /* the settings, as --format lammps prints them */
} lammps_eval;

static int write_lammps_eval(FILE *out, const void *ctx)
{
    const lammps_eval *l = ctx;
    const cli_system *cs = l->cs;
    const char *fmt = cs->opt.format;
    char what[512];
    hg_lammps_setting_text(&l->set, what, sizeof what);
    if (!strcmp(fmt, "json")) {
        cJSON *j = lmp_json_document("hgridopt.lammps-evaluation/1", cs,
                                     &l->sys, l->consts_source);
        cJSON_AddItemToObject(j, "setting", lmp_setting_json(&l->set));
        cJSON_AddNumberToObject(j, "predicted_neigh_ms", 1e3 * l->seconds);
        cJSON_AddNumberToObject(j, "bin_neigh_ms", 1e3 * l->bin_seconds);
        cJSON_AddNumberToObject(j, "ratio_to_bin",
                                l->seconds / l->bin_seconds);
        lmp_json_add_lines(j, "settings", l->lines);
        return cli_json_print(out, j);
    }
    if (!strcmp(fmt, "lammps")) {
        fprintf(out, "# --- neighbor settings by hgridopt (evaluate --engine "
                     "lammps) ---\n");
        fprintf(out, "# distribution: %s (r_min %.6g, r_max %.6g)\n",
                hg_psd_spec(cs->c.psd), hg_psd_rmin(cs->c.psd),
                hg_psd_rmax(cs->c.psd));
        fprintf(out, "# dim %d, nu %.4g; LAMMPS model of the neighbor build "
                     "for %.6g atoms per rank\n# (%d rank%s), constants: "
                     "%s\n",
                l->sys.dim, l->sys.nu, l->sys.atoms / l->sys.nprocs,
                l->sys.nprocs,
                l->sys.nprocs == 1 ? "" : "s", l->consts_source);
        fprintf(out, "# %s: predicted Neigh time per build %.4g ms (bin "
                     "%.4g ms, ratio %.3g)\n",
                what, 1e3 * l->seconds, 1e3 * l->bin_seconds,
                l->seconds / l->bin_seconds);
        fputs(l->lines, out);
        return CLI_OK;
    }
    lmp_print_system(out, cs, &l->sys, l->consts_source);
    fprintf(out, "\nsetting:        %s\n", what);
    fprintf(out, "predicted Neigh time per build: %.4g ms (bin %.4g ms, "
                 "ratio %.3g)\n",
            1e3 * l->seconds, 1e3 * l->bin_seconds,
            l->seconds / l->bin_seconds);
    fprintf(out, "\nsettings (the lines of --format lammps):\n%s", l->lines);
    return CLI_OK;
}

/* evaluate --engine lammps: --sizes are the collection cutoffs (as the
 * cell sizes of the KOL export: the largest diameter of each collection;
 * none: bin); the LAMMPS model's predicted Neigh time per build. */
static int evaluate_lammps(cli_system *cs, const double *sizes, int L)
{
    lammps_eval l = {cs, "", {0}, {0}, 0.0, 0.0, NULL};
    hg_consts k;
    int rc = lmp_load_consts(&k, &l.consts_source);
    if (rc)
        return rc;
    hg_err e = {0};
    int st = HG_OK;
    if (L > 0 && (st = hg_sizes_check(cs->c.psd, L, sizes, 0, &e)) == HG_OK)
        st = hg_lammps_setting_from_sizes(cs->c.psd, L, sizes, &l.set, &e);
    if (st) {
        cli_error("--%s", e.msg);
        return CLI_EUSAGE;
    }
    lmp_system_from_cli(cs, 0, 1, &l.sys);
    hg_lammps_setting bin = {0};
    hg_lammps_work w, wb;
    if ((st = hg_lammps_work_eval(cs->c.psd, &l.sys, &l.set, &w, &e)) ||
        (st = hg_lammps_work_eval(cs->c.psd, &l.sys, &bin, &wb, &e)) ||
        (st = hg_lammps_lines(&l.set, l.sys.skin, 2.0 * hg_psd_rmax(cs->c.psd),
                              &l.lines, &e)))
        return cli_fail(&e, st, 0);
    l.seconds = hg_lammps_predict(&k, &w);
    l.bin_seconds = hg_lammps_predict(&k, &wb);
    rc = cli_write(cs->opt.output, write_lammps_eval, &l);
    free(l.lines);
    return rc;
}

static const char *const formats[] = {"table", "json", "lammps",
                                      "mercurydpm", CLI_ENGINE_FORMATS, NULL};
static const cli_spec spec = {"evaluate", help,
                              CLI_SYSTEM | CLI_MODEL | CLI_FORMAT | CLI_OUTPUT |
                                  CLI_ENGINES,
                              options, sizeof options / sizeof options[0],
                              formats};

int cmd_evaluate(int argc, char **argv)
{
    evaluate_opts o = {0};
    cli_system cs = {0};
    const hg_model *model;
    const char *word;
    int rc;
    if (cli_parse(&spec, argc, argv, &cs.opt, &o, &rc))
        return rc;
    const hg_engine *eng1 = cs.opt.engine ? hg_engine_find(cs.opt.engine)
                                          : NULL;
    if (eng1 && strcmp(eng1->name, "lammps") && eng1->models &&
        eng1->models[0] && hg_model_find(eng1->models[0])->max_levels == 1 &&
        hg_model_find(eng1->models[0])->grid_algorithm == HG_GRID_NONE) {
        cli_error("evaluate --engine %s: its setting is a model parameter, "
                  "not --sizes; give its model (--model, 'hgridopt help "
                  "engines') and --param",
                  cs.opt.engine);
        return CLI_EUSAGE;
    }
    if (cs.opt.engine && !strcmp(cs.opt.engine, "lammps")) {
        if (cs.opt.model_text || cs.opt.algorithm_text) {
            cli_error("evaluate --engine lammps: --%s is for the hgrid "
                      "engine (the lammps engine evaluates LAMMPS' neighbor "
                      "build for --sizes as collection cutoffs)",
                      cs.opt.model_text ? "model" : "algorithm");
            return CLI_EUSAGE;
        }
        if (!strcmp(cs.opt.format, "mercurydpm")) {
            cli_error("evaluate --engine lammps: --format mercurydpm writes "
                      "MercuryDPM settings (the lammps engine: table, json "
                      "or lammps)");
            return CLI_EUSAGE;
        }
        hg_err e = {0};
        double *cut = NULL;
        size_t n = 0;
        int st = o.sizes ? hg_parse_list(o.sizes, ',', "--sizes", &cut, &n,
                                         &e)
                         : HG_OK;
        if (st)
            return cli_fail(&e, st, 0);
        const hg_engine *lmp = hg_engine_find("lammps");
        const hg_model *lm[4];
        size_t nlm = 0;
        for (; lmp->models[nlm] && nlm < 4; nlm++)
            lm[nlm] = hg_model_find(lmp->models[nlm]);
        if (!(rc = cli_system_resolve(&cs, 1)) &&
            !(rc = cli_params_apply(&cs, o.param, lm, nlm)))
            rc = evaluate_lammps(&cs, cut, (int)n);
        free(cut);
        cli_system_clear(&cs);
        return rc;
    }
    if ((rc = cli_model_resolve(&cs.opt, NULL,
                                hg_model_find("hgrid-top-down"), &model,
                                &word)))
        return rc;
    if ((rc = format_for_model(model, cs.opt.format)))
        return rc;
    int hgrid = model->max_levels != 1;
    if (!o.sizes && hgrid) {
        cli_error("--sizes: missing (give the cell sizes s_1,...,s_L; the "
                  "last must cover the largest diameter)");
        return CLI_EUSAGE;
    }
    hg_err e = {0};
    double *sizes = NULL;
    size_t L = 0;
    int st = o.sizes ? hg_parse_list(o.sizes, ',', "--sizes", &sizes, &L, &e)
                     : HG_OK;
    if (st)
        return cli_fail(&e, st, 0);
    if ((rc = cli_system_resolve(&cs, 1)) ||
        (rc = cli_params_apply(&cs, o.param, &model, 1)) ||
        (rc = cli_size_params(&cs, &model, 1, 0, 0)))
        goto done;
    st = hgrid ? hg_sizes_check(cs.c.psd, (int)L, sizes, 1, &e) : HG_OK;
    if (st) {
        if (sizes[L - 1] < 2.0 * hg_psd_rmax(cs.c.psd) * (1 - 1e-12))
            cli_error("--sizes: the last cell size %g is below the largest "
                      "particle diameter %g; add a level of size >= %g",
                      sizes[L - 1], 2.0 * hg_psd_rmax(cs.c.psd),
                      2.0 * hg_psd_rmax(cs.c.psd));
        else
            cli_error("--%s", e.msg);
        rc = CLI_EUSAGE;
        goto done;
    }
    hg_cost cost = {0};
    hg_single_level sl;
    /* speed-ups only in like units: the linked cell and bin count KOL
     * pair checks of the bundled HGrid; a model of another engine (LAMMPS'
     * Neigh time in distance checks) is compared with its own engine's
     * one-level models instead */
    const hg_engine *eng = hg_engine_of_model(model->name);
    int kol = eng && eng == hg_engine_of_model("linked-cell");
    own_baseline own[MAX_OWN];
    int n_own = 0;
    st = hg_cost_evaluate(model, cs.c.psd, &cs.c.sys, &cs.c.values, (int)L, sizes,
                          &cost, NULL, &e);
    if (!st && kol)
        st = hg_single_level_evaluate(cs.c.psd, &cs.c.sys, &cs.c.values, &sl, &e);
    for (size_t i = 0; !st && !kol && eng && eng->models[i]; i++) {
        const hg_model *m1 = hg_model_find(eng->models[i]);
        hg_work w1;
        if (!m1 || m1 == model || m1->max_levels != 1 || n_own == MAX_OWN)
            continue;
        if (!(st = hg_cost_evaluate(m1, cs.c.psd, &cs.c.sys, &cs.c.values, 1, NULL,
                                    NULL, &w1, &e)))
            own[n_own++] = (own_baseline){m1, w1.T};
    }
    if (st) {
        rc = cli_fail(&e, st, 1);
        hg_cost_clear(&cost);
        goto done;
    }
    cs.no_K = hg_model_param_index(model, "K") < 0;
    evaluate_result res = {&cs, model, &cost, kol ? &sl : NULL, own, n_own,
                           hgrid ? sizes : NULL, (int)L, sizes, (int)L};
    rc = cli_write(cs.opt.output, write_result, &res);
    hg_cost_clear(&cost);
done:
    free(sizes);
    cli_system_clear(&cs);
    return rc;
}
