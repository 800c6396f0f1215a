/* cmd_evaluate.c - `hgridopt evaluate`: the cost model for given sizes
 * (hg_advise), its table and JSON; a code's collections in
 * render_code.c. */
#include "cli.h"
#include "render_code.h"

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
static cJSON *to_json(const cli_system *cs, const hg_advice *a)
{
    const hg_model *m = a->model;
    const hg_cost *c = &a->cost;
    const hg_single_level *sl = a->has_single_level ? &a->single_level : NULL;
    const double *given = a->n_sizes ? a->sizes : NULL;
    int n_given = a->n_sizes;
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
    if (a->n_baselines) {
        cJSON *arr = cJSON_AddArrayToObject(j, "single_level_baselines");
        for (int i = 0; i < a->n_baselines; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "model", a->baseline_model[i]->name);
            cJSON_AddNumberToObject(o, "work_per_particle", a->baseline_T[i]);
            cJSON_AddNumberToObject(o, "speedup", a->baseline_T[i] / c->T);
            cJSON_AddItemToArray(arr, o);
        }
    }
    return j;
}

static int write_result(FILE *out, const void *ctx)
{
    const cli_system *cs = ((const void *const *)ctx)[0];
    const hg_advice *a = ((const void *const *)ctx)[1];
    if (a->kind != HG_ADVICE_COST)
        return render_code(out, cs, a, 1);
    const hg_cost *cost = &a->cost;
    const hg_model *m = a->model;
    if (!strcmp(cs->opt.format, "json"))
        return cli_json_print(out, to_json(cs, a));
    if (strcmp(cs->opt.format, "table")) {
        fputs(a->settings ? a->settings : "", out);
        return CLI_OK;
    }
    cli_print_system(out, cs);
    if (m->max_levels != 1 && m->grid_algorithm == HG_GRID_NONE)
        fprintf(out, "model:          %s, %d level%s (%d non-empty)\n\n",
                m->name, cost->levels, cost->levels == 1 ? "" : "s",
                cost->nonempty_levels);
    else if (m->max_levels != 1)
        fprintf(out, "algorithm:      %s, %d level%s (%d non-empty)\n\n",
                hg_algorithm_name(m->grid_algorithm), cost->levels,
                cost->levels == 1 ? "" : "s", cost->nonempty_levels);
    else
        fprintf(out, "model:          %s\n\n", m->name);
    cli_print_levels(out, cost, hg_psd_rmin(cs->c.psd));
    cli_print_work(out, cost);
    if (a->has_single_level)
        cli_print_single_level(out, 2.0 * hg_psd_rmax(cs->c.psd),
                               &a->single_level, cost->T);
    else
        fprintf(out, "no speed-up over the linked cell or bin: %s counts "
                     "in other units than their KOL pair checks\n",
                m->name);
    for (int i = 0; i < a->n_baselines; i++)
        fprintf(out, "%s (one level, same units): T = %.6g  -> predicted "
                     "speed-up %.4g\n",
                a->baseline_model[i]->name, a->baseline_T[i],
                a->baseline_T[i] / cost->T);
    return CLI_OK;
}

static const char *const formats[] = {"table", "json", CLI_ENGINE_FORMATS,
                                     NULL};
static const cli_spec spec = {"evaluate", help,
                              CLI_SYSTEM | CLI_MODEL | CLI_FORMAT | CLI_OUTPUT |
                                  CLI_ENGINES,
                              options, sizeof options / sizeof options[0],
                              formats};

int cmd_evaluate(int argc, char **argv)
{
    evaluate_opts o = {0};
    cli_system cs = {0};
    int rc;
    if (cli_parse(&spec, argc, argv, &cs.opt, &o, &rc))
        return rc;
    hg_advise_options ao = {.origin = "evaluate"};
    hg_recommend_options_default(&ao.recommend);
    ao.model_text = cs.opt.model_text;
    ao.algorithm_text = cs.opt.algorithm_text;
    ao.sizes_text = o.sizes;
    ao.params = o.param;
    cli_progress pr;
    hg_case_input in;
    cli_case_input(&cs.opt, 1, &pr, &in);
    hg_advice a;
    hg_err e = {0};
    int st = hg_advise(&in, &ao, &cs.c, &a, &e);
    cli_progress_end(&pr);
    cli_print_notes(&cs.c);
    if (st) {
        rc = cli_fail(&e, st, 0);
    } else {
        cs.no_K = a.no_K;
        const void *ctx[2] = {&cs, &a};
        rc = cli_write(cs.opt.output, write_result, ctx);
    }
    hg_advice_clear(&a);
    cli_system_clear(&cs);
    return rc;
}
