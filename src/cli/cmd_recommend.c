/* cmd_recommend.c - `hgridopt recommend`: the number of levels, cell sizes
 * and algorithm to use (the fewest levels within a tolerance of the best
 * predicted work, KOL 2014). Parsing here, maths in hg_recommend, and
 * one writer function per output format (rec_writers below). */
#include "cli.h"
#include "cmd_lammps.h"

#include <math.h>
#include "hg_figure.h"
#include "hg_export.h"

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
            "--param ranks=N)\n"
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

typedef struct rec_writer {
    const char *format;
    int (*write)(FILE *out, const cli_system *cs,
                 const hg_recommendation *r);
} rec_writer;

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

static int write_json(FILE *out, const cli_system *cs,
                      const hg_recommendation *r)
{
    return cli_json_print(out, rec_json(cs, r));
}

static int write_export(FILE *out, const cli_system *cs,
                        const hg_recommendation *r, int lammps)
{
    hg_export_input in = {cs->c.psd,
                          &cs->c.sys,
                          r->model->grid_algorithm,
                          r->levels,
                          r->cell_sizes,
                          r->cost.T,
                          r->cost.T_cd,
                          r->cost.T_ca,
                          r->cost.K,
                          r->linked_cell_T,
                          cs->c.name,
                          cs->c.unit,
                          cs->c.skin,
                          NULL,
                          cs->c.skin_why};
    char kn[640];
    in.K_note = hg_K_choice_describe(&cs->c.Kc, kn, sizeof kn);
    char *text = NULL;
    hg_err e = {0};
    int st = lammps ? hg_export_lammps(&in, &text, &e)
                    : hg_export_mercurydpm(&in, &text, &e);
    if (st)
        return cli_fail(&e, st, 0);
    fputs(text, out);
    free(text);
    return 0;
}

static int write_lammps(FILE *out, const cli_system *cs,
                        const hg_recommendation *r)
{
    return write_export(out, cs, r, 1);
}

static int write_mercurydpm(FILE *out, const cli_system *cs,
                            const hg_recommendation *r)
{
    return write_export(out, cs, r, 0);
}

static const rec_writer rec_writers[] = {
    {"table", write_table},
    {"json", write_json},
    {"lammps", write_lammps},
    {"mercurydpm", write_mercurydpm},
};
#define N_WRITERS (sizeof rec_writers / sizeof rec_writers[0])

typedef struct rec_result {
    const cli_system *cs;
    const hg_recommendation *r;
} rec_result;

static int write_result(FILE *out, const void *ctx)
{
    const rec_result *res = ctx;
    for (size_t i = 0; i < N_WRITERS; i++)
        if (!strcmp(res->cs->opt.format, rec_writers[i].format))
            return rec_writers[i].write(out, res->cs, res->r);
    return CLI_EUSAGE;
}

/* ---- the lammps engine: the LAMMPS model's answer in every format ---- */

typedef struct lammps_result {
    const cli_system *cs;
    const cli_lammps_result *a;
} lammps_result;

static int write_lammps_table(FILE *out, const cli_system *cs,
                              const cli_lammps_result *a)
{
    const hg_lammps_optimum *o = &a->opt;
    char what[512];
    hg_lammps_setting_text(&o->best, what, sizeof what);
    lmp_print_system(out, cs, &a->sys, a->consts_source);
    if (o->best.ncoll)
        fprintf(out, "\ndecision:       use %s: predicted Neigh time %.4g ms "
                     "per build, %.3g of bin\n",
                what, 1e3 * o->seconds, o->seconds / o->bin_seconds);
    else
        fprintf(out, "\ndecision:       use bin: predicted Neigh time %.4g ms "
                     "per build (no set of collections 1 %% faster)\n",
                1e3 * o->seconds);
    fprintf(out, "\npredicted Neigh time per build (ms):\n  %-10s %10.4g\n",
            "bin", 1e3 * o->bin_seconds);
    for (int n = 1; n <= o->max_coll; n++) {
        if (!isfinite(o->by_n_seconds[n])) /* not possible (one size) */
            continue;
        char lab[32];
        snprintf(lab, sizeof lab, "multi %d", n);
        fprintf(out, "  %-10s %10.4g\n", lab, 1e3 * o->by_n_seconds[n]);
    }
    fprintf(out, "\nsettings (the lines of --format lammps):\n");
    lmp_print_lines(out, a->text);
    return CLI_OK;
}

static int write_lammps_json(FILE *out, const cli_system *cs,
                             const cli_lammps_result *a)
{
    const hg_lammps_optimum *o = &a->opt;
    cJSON *j = lmp_json_document("hgridopt.lammps-recommendation/1", cs,
                                 &a->sys, a->consts_source);
    cJSON_AddItemToObject(j, "answer", lmp_setting_json(&o->best));
    cJSON_AddNumberToObject(j, "predicted_neigh_ms", 1e3 * o->seconds);
    cJSON_AddNumberToObject(j, "bin_neigh_ms", 1e3 * o->bin_seconds);
    cJSON_AddNumberToObject(j, "ratio_to_bin", o->seconds / o->bin_seconds);
    cJSON *by = cJSON_AddArrayToObject(j, "by_collections");
    for (int n = 1; n <= o->max_coll; n++) {
        if (!isfinite(o->by_n_seconds[n]))
            continue;
        cJSON *r = lmp_setting_json(&o->by_n[n]);
        cJSON_AddNumberToObject(r, "predicted_neigh_ms",
                                1e3 * o->by_n_seconds[n]);
        cJSON_AddItemToArray(by, r);
    }
    lmp_json_add_lines(j, "settings", a->text);
    return cli_json_print(out, j);
}

static int write_lammps_engine(FILE *out, const void *ctx)
{
    const lammps_result *l = ctx;
    if (!strcmp(l->cs->opt.format, "table"))
        return write_lammps_table(out, l->cs, l->a);
    if (!strcmp(l->cs->opt.format, "json"))
        return write_lammps_json(out, l->cs, l->a);
    fputs(l->a->text, out);
    return CLI_OK;
}

/* ---- an engine with models of its own (not the bundled HGrid's, not
 * lammps'): hg_recommend over its models, its settings writer ---- */

typedef struct engine_result {
    const cli_system *cs;
    const hg_engine *engine;
    const hg_engine_answer *a;
    const hg_recommendation *r; /* NULL: the engine's own answer hook */
    const char *text;           /* the settings writer's text */
} engine_result;

static int write_engine(FILE *out, const void *ctx)
{
    const engine_result *x = ctx;
    const cli_system *cs = x->cs;
    const hg_engine_answer *a = x->a;
    const hg_recommendation *r = x->r;
    const hg_model *m = hg_model_find(a->model);
    const char *fmt = cs->opt.format;
    if (!strcmp(fmt, "json")) {
        cJSON *j = cli_json_document("hgridopt.engine-recommendation/1", cs);
        cJSON_AddStringToObject(j, "engine", x->engine->name);
        cJSON_AddStringToObject(j, "constants", cs->c.consts_source);
        cJSON_AddStringToObject(j, "distribution", hg_psd_spec(cs->c.psd));
        cJSON_AddNumberToObject(j, "dim", cs->c.sys.dim);
        cJSON_AddNumberToObject(j, "nu", cs->c.sys.nu);
        cJSON_AddStringToObject(j, "structure",
                                hg_structure_name(cs->c.sys.structure));
        cli_json_add_snapshot(j, cs);
        if (m && hg_model_param_index(m, "skin") >= 0) {
            cJSON_AddNumberToObject(j, "skin", cs->c.skin);
            cJSON_AddStringToObject(j, "skin_source", cs->c.skin_why);
            cJSON_AddBoolToObject(j, "skin_given", cs->c.skin_given);
        }
        cJSON_AddStringToObject(j, "model", a->model);
        cJSON_AddStringToObject(j, "setting", a->setting);
        cJSON_AddNumberToObject(j, "levels", a->levels);
        cli_json_add_array(j, "sizes", a->sizes, a->levels);
        cJSON_AddNumberToObject(j, "T", a->T);
        if (isfinite(a->seconds))
            cJSON_AddNumberToObject(j, "predicted_ms", 1e3 * a->seconds);
        if (isfinite(a->default_seconds))
            cJSON_AddNumberToObject(j, "default_ms",
                                    1e3 * a->default_seconds);
        cJSON *c = cJSON_AddArrayToObject(j, "by_model");
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
                cJSON_AddItemToArray(c, o);
            }
        }
        lmp_json_add_lines(j, "settings", x->text);
        return cli_json_print(out, j);
    }
    if (strcmp(fmt, "table")) {
        fputs(x->text, out);
        return CLI_OK;
    }
    fprintf(out, "engine:         %s (%s)\n", x->engine->name,
            x->engine->help);
    cli_print_system(out, cs); /* with the constants (no_K) */
    fprintf(out, "\ndecision:       %s: %s\n", a->model, a->setting);
    fprintf(out, "predicted:      %.6g (%s)", a->T, m ? m->help : "");
    if (isfinite(a->seconds))
        fprintf(out, ";\n                %.4g ms per build", 1e3 * a->seconds);
    if (isfinite(a->default_seconds))
        fprintf(out, ", the code's default %.4g ms", 1e3 * a->default_seconds);
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
            x->engine->settings_format);
    lmp_print_lines(out, x->text);
    return CLI_OK;
}

/* The engine's answer (its answer hook, else hg_recommend over its
 * models), written by its settings writer. */
static int engine_answer(cli_system *cs, const hg_engine *eng,
                         const hg_recommend_options *opt, double atoms,
                         long ranks)
{
    hg_engine_answer a = {0};
    a.seconds = a.default_seconds = NAN;
    hg_recommendation r, *rp = NULL;
    hg_err e = {0};
    int st;
    if (eng->answer) {
        st = eng->answer(cs->c.psd, &cs->c.sys, &cs->c.values, &a, &e);
    } else {
        hg_recommend_options ro = *opt;
        for (const char *const *m = eng->models; !opt->n_models && m && *m;
             m++)
            if (ro.n_models < HG_RECOMMEND_MAX_MODELS)
                ro.models[ro.n_models++] = hg_model_find(*m);
        st = hg_recommend(cs->c.psd, &cs->c.sys, &cs->c.values, &ro, &r, &e);
        if (st == HG_OK) {
            rp = &r;
            a.model = r.model->name;
            a.levels = r.levels < 16 ? r.levels : 16;
            memcpy(a.sizes, r.cell_sizes, sizeof a.sizes[0] * (size_t)a.levels);
            a.T = r.cost.T;
            size_t n = (size_t)snprintf(a.setting, sizeof a.setting,
                                        "%d level%s, sizes", a.levels,
                                        a.levels == 1 ? "" : "s");
            for (int i = 0; i < a.levels && n < sizeof a.setting; i++)
                n += (size_t)snprintf(a.setting + n, sizeof a.setting - n,
                                      " %.6g", a.sizes[i]);
        }
    }
    if (st)
        return cli_fail(&e, st, 1);
    const hg_model *am = hg_model_find(a.model);
    cs->no_K = hg_model_param_index(am, "K") < 0;
    int ia = hg_model_param_index(am, "atoms"), ir = hg_model_param_index(am,
                                                                  "ranks");
    double given;
    (void)atoms;
    if (!hg_model_values_get(&cs->c.values, "atoms", &atoms))
        atoms = ia >= 0 ? am->params[ia].def : 0.0;
    if (hg_model_values_get(&cs->c.values, "ranks", &given))
        ranks = (long)given; /* --param ranks=N over --mpi */
    else if (ranks < 1 && ir >= 0)
        ranks = (long)am->params[ir].def;
    hg_engine_settings in = {cs->c.psd,
                             &cs->c.sys,
                             a.model,
                             hg_model_find(a.model)->grid_algorithm,
                             a.levels,
                             a.sizes,
                             isfinite(a.seconds) ? 1e3 * a.seconds : a.T,
                             isfinite(a.seconds) ? "ms per build"
                                                 : hg_model_find(a.model)
                                                       ->help,
                             cs->c.skin,
                             atoms,
                             (int)ranks,
                             cs->c.consts_source,
                             "recommend",
                             cs->c.name,
                             cs->c.unit,
                             cs->c.skin_why};
    char *text = NULL;
    int rc = CLI_OK;
    if ((st = eng->write_settings(&in, &text, &e)))
        rc = cli_fail(&e, st, 0);
    else {
        engine_result x = {cs, eng, &a, rp, text};
        rc = cli_write(cs->opt.output, write_engine, &x);
    }
    free(text);
    if (rp)
        hg_recommendation_clear(rp);
    return rc;
}

static const char *const formats[] = {"table", "json", "lammps",
                                     "mercurydpm", CLI_ENGINE_FORMATS, NULL};
static const cli_spec spec = {"recommend", help,
                              CLI_SYSTEM | CLI_MODEL | CLI_FORMAT | CLI_OUTPUT |
                                  CLI_PLOT | CLI_ENGINES,
                              options, sizeof options / sizeof options[0],
                              formats};

int cmd_recommend(int argc, char **argv)
{
    hg_recommend_options ro;
    hg_recommend_options_default(&ro);
    recommend_opts o = {NULL, ro.max_levels, ro.tolerance, ro.q, 0, 1, NULL};
    cli_system cs = {0};
    int rc;
    if (cli_parse(&spec, argc, argv, &cs.opt, &o, &rc))
        return rc;
    static const char *const words[] = {"auto", "lammps", "kol", NULL};
    const hg_model *model;
    const char *word;
    if ((rc = cli_model_resolve(&cs.opt, words, NULL, &model, &word)))
        return rc;
    /* the engine: --engine, else lammps for a LAMMPS model (--model
     * lammps, lammps-multi, lammps-bin) or --format lammps without an HGrid
     * model or kol, else the bundled HGrid */
    int lammps_named = (word && !strcmp(word, "lammps")) ||
                       (model && !strncmp(model->name, "lammps-", 7));
    const hg_engine *fmt_engine = hg_engine_of_format(cs.opt.format);
    const hg_engine *engine =
        cs.opt.engine ? hg_engine_find(cs.opt.engine)
        : lammps_named || (!model && !word && !strcmp(cs.opt.format, "lammps"))
            ? hg_engine_find("lammps")
        : fmt_engine && !model && !word ? fmt_engine
                                        : hg_engine_at(0);
    /* an engine whose models are its own answers with them and its
     * settings writer (the lammps engine has its own tables below) */
    int own_models = engine->models && engine->models[0] &&
                     hg_model_find(engine->models[0])->grid_algorithm ==
                         HG_GRID_NONE &&
                     engine->write_settings &&
                     strcmp(engine->name, "lammps") &&
                     engine != hg_engine_at(0);
    int lammps_engine = !strcmp(engine->name, "lammps");
    const char *named = model ? model->name : word;
    if (named && strcmp(named, "auto") &&
        (own_models ? hg_engine_of_model(named) != engine
                    : lammps_engine != lammps_named)) {
        cli_error("recommend --engine %s: --model %s is not a model of the "
                  "%s engine (see 'hgridopt help engines')",
                  engine->name, named, engine->name);
        return CLI_EUSAGE;
    }
    if (lammps_engine && !strcmp(cs.opt.format, "mercurydpm")) {
        cli_error("recommend --engine lammps: --format mercurydpm writes "
                  "MercuryDPM settings (the lammps engine: table, json or "
                  "lammps)");
        return CLI_EUSAGE;
    }
    if (lammps_engine && cs.opt.plot) {
        cli_error("recommend --engine lammps: --plot draws the HGrid "
                  "recommendation only");
        return CLI_EUSAGE;
    }
    if (model) {
        ro.n_models = 1;
        ro.models[0] = model;
    }
    hg_err e = {0};
    if (o.method && hg_recipe_parse(o.method, &ro.recipe, &e)) {
        cli_error("--%s", e.msg);
        return CLI_EUSAGE;
    }
    ro.max_levels = (int)o.max_levels;
    ro.tolerance = o.tolerance;
    /* MercuryDPM has no `bin`, and a LAMMPS export of one level is bin
     * already: the exports describe the best grid of the candidates */
    ro.grid_only = strcmp(cs.opt.format, "table") &&
                   strcmp(cs.opt.format, "json");
    ro.q = o.q;
    cs.engine_name = engine->name;
    if ((rc = cli_system_resolve(&cs, 1)))
        goto done;
    /* --param for the models answering: the engine's, or the candidates */
    {
        const hg_model *pm[HG_RECOMMEND_MAX_MODELS + 4];
        size_t npm = 0;
        if (lammps_engine || own_models)
            for (; engine->models[npm] && npm < 4; npm++)
                pm[npm] = hg_model_find(engine->models[npm]);
        else if (ro.n_models)
            for (; npm < (size_t)ro.n_models; npm++)
                pm[npm] = ro.models[npm];
        else {
            pm[npm++] = hg_model_find("hgrid-top-down");
            pm[npm++] = hg_model_find("hgrid-bottom-up");
        }
        if ((rc = cli_params_apply(&cs, o.param, pm, npm)) ||
            (rc = cli_size_params(&cs, pm, npm, o.atoms, o.mpi)))
            goto done;
    }
    if (own_models) {
        if (cs.opt.plot || (strcmp(cs.opt.format, "table") &&
                            strcmp(cs.opt.format, "json") &&
                            strcmp(cs.opt.format, engine->settings_format))) {
            cli_error("recommend --engine %s: %s", engine->name,
                      cs.opt.plot ? "--plot draws the HGrid recommendation "
                                    "only"
                                  : "--format: table, json or the engine's "
                                    "settings");
            rc = CLI_EUSAGE;
            goto done;
        }
        if (model) {
            ro.n_models = 1;
            ro.models[0] = model;
        }
        double atoms = 0.0;
        hg_model_values_get(&cs.c.values, "atoms", &atoms);
        rc = engine_answer(&cs, engine, &ro, o.atoms > 0 ? (double)o.atoms
                                                         : atoms,
                           o.mpi);
        goto done;
    }
    if (lammps_engine) {
        cli_lammps_result a;
        if (!(rc = cli_lammps_answer(&cs, o.atoms, o.mpi, 6, &a))) {
            lammps_result lr = {&cs, &a};
            rc = cli_write(cs.opt.output, write_lammps_engine, &lr);
        }
        cli_lammps_result_clear(&a);
        goto done;
    }
    hg_recommendation r;
    int st = hg_recommend(cs.c.psd, &cs.c.sys, &cs.c.values, &ro, &r, &e);
    if (st) {
        rc = cli_fail(&e, st, 1);
        goto done;
    }
    rec_result res = {&cs, &r};
    rc = cli_write(cs.opt.output, write_result, &res);
    if (!rc && cs.opt.plot &&
        (st = hg_figure_recommendation(cs.opt.plot, &r, hg_psd_rmin(cs.c.psd), &e)))
        rc = cli_fail(&e, st, 1);
    hg_recommendation_clear(&r);
done:
    cli_system_clear(&cs);
    return rc;
}
