/* cmd_recommend.c - `hgridopt recommend`: the setting to use for the code
 * of --engine (for the KOL grid models the number of levels, cell sizes
 * and algorithm: the fewest levels within a tolerance of the best
 * predicted work, KOL 2014). Parsing here, the answer from hg_advise, the
 * grid's table and JSON below, a code's own answer in render_code.c. */
#include "cli.h"
#include "hg_figure.h"
#include "hg_ranks.h"
#include "render_code.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct recommend_opts {
    const char *method;
    long max_levels;
    double tolerance, q;
    long atoms, mpi;
    const char *param;
} recommend_opts;

static const cli_option options[] = {
    CLI_STR("method", recommend_opts, method),
    CLI_LONG("max-levels", recommend_opts, max_levels, 1, 256),
    CLI_DOUBLE("tolerance", recommend_opts, tolerance, CLI_UNIT_RIGHT_OPEN),
    CLI_DOUBLE("q", recommend_opts, q, CLI_POSITIVE),
    CLI_LONG("atoms", recommend_opts, atoms, 1, 1000000000000L),
    CLI_LONG("mpi", recommend_opts, mpi, 1, 4096),
    CLI_STR("param", recommend_opts, param),
};

static void help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt recommend (--packing FILE | --psd SPEC --dim 2|3 "
            "--nu X) [options]\n\n"
            "The contact-detection setting that minimises the predicted cost "
            "for the code\nof --engine: for the bundled HGrid (and "
            "MercuryDPM) the algorithm, number of\nlevels and cell sizes "
            "(KOL 2014 cost model: the fewest levels whose work is\nwithin "
            "the tolerance of the best found, which is reported too; when no "
            "HGrid\nbeats the cheaper single-level method, the linked cell "
            "or bin, by the\ntolerance, that is the answer); for LAMMPS and "
            "LIGGGHTS their neighbor lines,\nfrom models of their own "
            "neighbor builds.\n\n");
    fprintf(out, "For a whole run (LAMMPS, LIGGGHTS): --trajectory FILE... "
                 "chooses the setting and\nthe skin from the run's dumps "
                 "(hgridopt recommend --trajectory --help).\n\n");
    cli_print_engines_help(out, "recommend");
    fprintf(out,
            "  --model NAME     auto (default: the engine's models, keep the "
            "better), or one\n"
            "                   of them ('hgridopt help models'); "
            "--algorithm A: auto,\n"
            "                   top-down or bottom-up\n"
            "  --method M       optimal (default), constant-m, exponential, "
            "linear\n"
            "  --q Q            particles-per-cell ratio of constant-m "
            "(default 1)\n"
            "  --max-levels N   scan L = 1..N (default 32, at most 256)\n"
            "  --tolerance X    relative tolerance in [0, 1) (default 0.01)\n"
            "  --atoms N        atoms in the simulation, for the models of a "
            "code's build\n"
            "                   time (default: the --packing file's, the "
            "system file's\n"
            "                   particles, else 50000; --param atoms=N)\n"
            "  --mpi N          MPI ranks, for the same models (default 1; "
            "--param ranks=N);\n"
            "                   with --packing and --engine lammps|liggghts "
            "also the\n"
            "                   processors and balance lines for N ranks "
            "(hgridopt\n"
            "                   decompose --help)\n"
            "%s%s%s\n%s\n"
            "Example:\n"
            "  hgridopt recommend --packing dump.pour --engine lammps --skin "
            "0.2 --format lammps\n"
            "  hgridopt recommend --psd powerlaw:alpha=-3,omega=100 --dim 3 "
            "--nu 0.7\n\n%s",
            cli_param_help, cli_output_help, cli_plot_help, cli_system_help,
            cli_exit_help);
}

/* Best point of one algorithm's curve. */
static const hg_curve_point *curve_best(const hg_curve *c)
{
    const hg_curve_point *b = &c->points[0];
    for (int i = 1; i < c->n; i++)
        if (c->points[i].T < b->T)
            b = &c->points[i];
    return b;
}

/* A model as the output names it: its grid algorithm ("top-down") when it
 * describes the bundled grid, else its name. */
static const char *model_label(const hg_model *m)
{
    return m->grid_algorithm != HG_GRID_NONE
               ? hg_algorithm_name(m->grid_algorithm)
               : m->name;
}

static int write_table(FILE *out, const cli_system *cs,
                       const hg_recommendation *r)
{
    const hg_recommend_options *o = &r->options;
    double rmin = hg_psd_rmin(cs->c.psd);
    const char *u = cs->c.unit ? cs->c.unit : "";
    cli_print_system(out, cs);
    fprintf(out, "method:         %s", hg_recipe_name(o->recipe));
    for (int i = 0; o->n_models > 1 && i < o->n_models; i++)
        fprintf(out, "%s%s", i == 0 ? ", " : i + 1 < o->n_models ? ", " : " and ",
                model_label(o->models[i]));
    fprintf(out, ", L = 1..%d, tolerance %g %%\n", o->max_levels,
            100.0 * o->tolerance);
    int bin = r->model == hg_model_find("bin");
    fprintf(out, "\ndecision:       %s\n", r->decision);
    if (bin && r->single_level)
        fprintf(out,
                "recommended:    bin, one grid of bins of half the cutoff "
                "(no hierarchical grid\n                beats it by %g %%)\n",
                100.0 * o->tolerance);
    else if (bin)
        fprintf(out, "recommended:    bin, one grid of bins of half the "
                     "cutoff (--model bin)\n");
    else
        fprintf(out,
                "recommended:    %s, %d level%s (the fewest within %g %% of "
                "the best T found)\n",
                model_label(r->model), r->levels, r->levels == 1 ? "" : "s",
                100.0 * o->tolerance);
    fprintf(out, "best found:     T = %.6g with %d level%s (%s)\n", r->best_T,
            r->best_levels, r->best_levels == 1 ? "" : "s",
            model_label(r->best_model));
    if (r->best_at_max_levels)
        fprintf(out,
                "note:           the best T is at the largest L scanned "
                "(--max-levels %d);\n                a larger --max-levels "
                "may find a lower T\n",
                o->max_levels);
    for (int a = 0; r->n_curves > 1 && a < r->n_curves; a++) {
        const hg_curve_point *b = curve_best(&r->curves[a]);
        fprintf(out, "  %-12s  best T = %.6g with %d level%s\n",
                model_label(r->curves[a].model), b->T,
                b->nonempty_levels, b->nonempty_levels == 1 ? "" : "s");
    }
    fprintf(out, "cell sizes%s%s%s:", *u ? " [" : "", u, *u ? "]" : "");
    for (int h = 0; h < r->levels; h++) {
        /* 6 digits; the top size rounded up: pasted back as --sizes, it
         * must not fall below the largest diameter */
        double x = r->cell_sizes[h];
        if (h == r->levels - 1) {
            double q = pow(10.0, floor(log10(x)) - 5.0);
            x = ceil(x / q) * q;
        }
        fprintf(out, " %.6g", x);
    }
    fprintf(out, "\ncell sizes / r_min:");
    for (int h = 0; h < r->levels; h++)
        fprintf(out, " %.4g", r->cell_sizes[h] / rmin);
    if (bin)
        fprintf(out, "\n(the size is the cutoff; the bins are half of it, "
                "%.6g, the stencil only the bins within reach)",
                r->cost.per_level[0].cell_size);
    fprintf(out, "\n\n");
    cli_print_levels(out, &r->cost, rmin);
    cli_print_work(out, &r->cost);
    cli_print_single_level(out, 2.0 * hg_psd_rmax(cs->c.psd), &r->baselines,
                           r->cost.T);
    double hq;
    if (cli_homogeneous_check(cs, r->model, r->levels, r->cell_sizes, &hq))
        fprintf(out,
                "note:           a homogeneous model (random centres at the "
                "density experienced) would put T_cd of this grid %.3g times "
                "the measured statistics' figure: on this snapshot it would "
                "mislead\n",
                hq);
    fprintf(out, "\nsensitivity (%s, T at L levels):\n",
            model_label(r->sens_model));
    for (int i = 0; i < r->n_sens; i++)
        fprintf(out, "  L = %-3d T = %-10.6g (%+.1f %% vs best)\n",
                r->sens_L[i], r->sens_T[i],
                100.0 * (r->sens_T[i] / r->best_T - 1.0));
    fprintf(out, "levels within 5 %% of the best T: %d..%d\n", r->within5_lo,
            r->within5_hi);
    return 0;
}

static cJSON *rec_json(const cli_system *cs, const hg_recommendation *r)
{
    const hg_recommend_options *o = &r->options;
    double rmin = hg_psd_rmin(cs->c.psd);
    cJSON *j = cli_json_document("hgridopt.recommendation/1", cs);
    cJSON_AddStringToObject(j, "engine", cs->engine_name
                                             ? cs->engine_name
                                             : hg_engine_at(0)->name);
    if (cs->c.name)
        cJSON_AddStringToObject(j, "name", cs->c.name);
    cJSON_AddStringToObject(j, "distribution", hg_psd_spec(cs->c.psd));
    cJSON_AddNumberToObject(j, "r_min", rmin);
    cJSON_AddNumberToObject(j, "r_max", hg_psd_rmax(cs->c.psd));
    cJSON_AddNumberToObject(j, "dim", cs->c.sys.dim);
    cJSON_AddNumberToObject(j, "nu", cs->c.sys.nu);
    cJSON_AddStringToObject(j, "structure",
                            hg_structure_name(cs->c.sys.structure));
    cli_json_add_snapshot(j, cs);
    cli_json_add_K(j, cs);
    cJSON_AddStringToObject(j, "method", hg_recipe_name(o->recipe));
    if (o->recipe == HG_RECIPE_CONSTANT_M)
        cJSON_AddNumberToObject(j, "q", o->q);
    cJSON_AddNumberToObject(j, "max_levels", o->max_levels);
    cJSON_AddNumberToObject(j, "tolerance", o->tolerance);
    cJSON_AddStringToObject(j, "model", r->model->name);
    cJSON_AddStringToObject(j, "algorithm", model_label(r->model));
    cJSON_AddBoolToObject(j, "linked_cell", r->linked_cell);
    cJSON_AddStringToObject(j, "decision", r->decision);
    cJSON_AddNumberToObject(j, "levels", r->levels);
    cli_json_add_array(j, "cell_sizes", r->cell_sizes, r->levels);
    double *over = malloc(sizeof *over * (size_t)r->levels);
    if (over) {
        for (int h = 0; h < r->levels; h++)
            over[h] = r->cell_sizes[h] / rmin;
        cli_json_add_array(j, "cell_sizes_over_rmin", over, r->levels);
        free(over);
    }
    cJSON_AddNumberToObject(j, "work_per_particle", r->cost.T);
    cJSON_AddNumberToObject(j, "T_cd", r->cost.T_cd);
    cJSON_AddNumberToObject(j, "T_ca", r->cost.T_ca);
    cli_json_add_tables(j, &r->cost);
    cJSON_AddNumberToObject(j, "linked_cell_work_per_particle",
                            r->linked_cell_T);
    cJSON_AddNumberToObject(j, "speedup_vs_linked_cell", r->speedup);
    cJSON_AddNumberToObject(j, "bin_work_per_particle", r->bin_T);
    cJSON_AddNumberToObject(j, "speedup_vs_bin", r->speedup_bin);
    cJSON *sl = cJSON_AddObjectToObject(j, "single_level");
    cJSON_AddStringToObject(sl, "best", r->single_model->name);
    cJSON_AddNumberToObject(sl, "work_per_particle", r->single_T);
    cJSON_AddBoolToObject(sl, "recommended", r->single_level);
    if (r->model == hg_model_find("bin"))
        cJSON_AddNumberToObject(j, "bin_width", r->cost.per_level[0].cell_size);
    cJSON *best = cJSON_AddObjectToObject(j, "best");
    cJSON_AddStringToObject(best, "algorithm",
                            model_label(r->best_model));
    cJSON_AddNumberToObject(best, "levels", r->best_levels);
    cJSON_AddNumberToObject(best, "work_per_particle", r->best_T);
    cJSON_AddBoolToObject(best, "at_max_levels", r->best_at_max_levels);
    cJSON *algs = cJSON_AddArrayToObject(j, "algorithms");
    for (int a = 0; a < r->n_curves; a++) {
        const hg_curve_point *b = curve_best(&r->curves[a]);
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "algorithm",
                                model_label(r->curves[a].model));
        cJSON_AddNumberToObject(row, "best_levels", b->nonempty_levels);
        cJSON_AddNumberToObject(row, "best_work_per_particle", b->T);
        cJSON_AddItemToArray(algs, row);
    }
    cli_json_add_per_level(j, &r->cost);
    double hq;
    int misleading =
        cli_homogeneous_check(cs, r->model, r->levels, r->cell_sizes, &hq);
    if (isfinite(hq)) {
        cJSON *hc = cJSON_AddObjectToObject(j, "homogeneous_check");
        cJSON_AddNumberToObject(hc, "T_cd_ratio", hq);
        cJSON_AddBoolToObject(hc, "misleading", misleading);
    }
    cJSON *sens = cJSON_AddObjectToObject(j, "sensitivity");
    cJSON *rows = cJSON_AddArrayToObject(sens, "work_by_levels");
    for (int i = 0; i < r->n_sens; i++) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddNumberToObject(row, "levels", r->sens_L[i]);
        cJSON_AddNumberToObject(row, "work_per_particle", r->sens_T[i]);
        cJSON_AddItemToArray(rows, row);
    }
    cJSON *w5 = cJSON_AddArrayToObject(sens, "levels_within_5_percent");
    cJSON_AddItemToArray(w5, cJSON_CreateNumber(r->within5_lo));
    cJSON_AddItemToArray(w5, cJSON_CreateNumber(r->within5_hi));
    return j;
}

/* the recommendation; settings: the lines of the engine's settings
 * format (NULL: an engine whose settings are the cell sizes) */
static int write_json(FILE *out, const cli_system *cs,
                      const hg_recommendation *r, const char *settings)
{
    cJSON *j = rec_json(cs, r);
    if (j && settings)
        render_json_lines(j, "settings", settings);
    return cli_json_print(out, j);
}

static int write_result(FILE *out, const void *ctx)
{
    const cli_system *cs = ((const void *const *)ctx)[0];
    const hg_advice *a = ((const void *const *)ctx)[1];
    if (a->kind != HG_ADVICE_GRID)
        return render_code(out, cs, a, 0);
    if (!strcmp(cs->opt.format, "table"))
        return write_table(out, cs, &a->rec);
    if (!strcmp(cs->opt.format, "json"))
        return write_json(out, cs, &a->rec, a->settings);
    fputs(a->settings ? a->settings : "", out);
    return CLI_OK;
}

static const char *const formats[] = {"table", "json", CLI_ENGINE_FORMATS,
                                     NULL};
static const cli_spec spec = {"recommend", help,
                              CLI_SYSTEM | CLI_MODEL | CLI_FORMAT | CLI_OUTPUT |
                                  CLI_PLOT | CLI_ENGINES,
                              options, sizeof options / sizeof options[0],
                              formats};

int cmd_recommend(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--trajectory"))
            return cmd_trajectory(argc, argv);
    hg_advise_options ao = {.origin = "recommend"};
    hg_recommend_options_default(&ao.recommend);
    recommend_opts o = {NULL, ao.recommend.max_levels, ao.recommend.tolerance,
                        ao.recommend.q, 0, 0, NULL};
    cli_system cs = {0};
    int rc;
    if (cli_parse(&spec, argc, argv, &cs.opt, &o, &rc))
        return rc;
    hg_err e = {0};
    if (o.method && hg_recipe_parse(o.method, &ao.recommend.recipe, &e)) {
        cli_error("--%s", e.msg);
        return CLI_EUSAGE;
    }
    ao.recommend.max_levels = (int)o.max_levels;
    ao.recommend.tolerance = o.tolerance;
    ao.recommend.q = o.q;
    ao.model_text = cs.opt.model_text;
    ao.algorithm_text = cs.opt.algorithm_text;
    ao.params = o.param;
    ao.atoms = o.atoms;
    ao.ranks = o.mpi;
    ao.plot = cs.opt.plot != NULL;
    cli_progress pr;
    hg_case_input in;
    cli_case_input(&cs.opt, 1, &pr, &in);
    hg_advice a;
    int st = hg_advise(&in, &ao, &cs.c, &a, &e);
    cli_progress_end(&pr);
    cli_print_notes(&cs.c);
    hg_ranks_advice *ranks = NULL;
    int code = a.engine && (!strcmp(a.engine->name, "lammps") ||
                            !strcmp(a.engine->name, "liggghts"));
    if (!st && code && o.mpi > 1 && cs.c.has_packing) {
        double cg, cut;
        st = cli_ranks_advise(&cs, (int)o.mpi, NULL, 0.0, 10.0,
                              !strcmp(a.engine->name, "liggghts"), &ranks,
                              &cg, &cut, &e);
        cs.ranks = ranks;
    }
    if (st) {
        rc = cli_fail(&e, st, 0);
    } else {
        cs.engine_name = a.engine->name;
        cs.no_K = a.no_K;
        const void *ctx[2] = {&cs, &a};
        rc = cli_write(cs.opt.output, write_result, ctx);
        if (!rc && cs.opt.plot &&
            (st = hg_figure_recommendation(cs.opt.plot, &a.rec,
                                           hg_psd_rmin(cs.c.psd), &e)))
            rc = cli_fail(&e, st, 1);
    }
    hg_advice_clear(&a);
    free(ranks);
    cli_system_clear(&cs);
    return rc;
}
