/* cmd_validate.c - `hgridopt validate`: run the bundled HGrid on a packing
 * of the system's structure (Poisson or hard spheres) and compare the
 * counted work with the cost model. */
#include "cli.h"
#include "hg_figure.h"
#include "hg_opt.h"
#include "hg_pack_gen.h"
#include "hg_validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct validate_opts {
    const char *sizes;
    long n, seed, repeats;
    int no_baseline;
    double budget;
} validate_opts;

static const cli_option options[] = {
    CLI_STR("sizes", validate_opts, sizes),
    CLI_LONG("n", validate_opts, n, 2, 100000000L),
    CLI_LONG("seed", validate_opts, seed, 0, 2147483647L),
    CLI_FLAG("no-baseline", validate_opts, no_baseline),
    CLI_DOUBLE("budget", validate_opts, budget, CLI_POSITIVE),
    CLI_LONG("repeats", validate_opts, repeats, 1, 1000),
};

static void help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt validate --psd SPEC --dim 2|3 --nu X [options]\n\n"
            "Generate a packing of the system's structure in a periodic box "
            "of edge\nA = (N V_p / nu)^(1/d): Poisson (uniformly random "
            "centres, overlaps allowed)\nor, with --structure hard-spheres, "
            "non-overlapping spheres from the rsa\ngenerator (nu up to 0.28 "
            "in 3D, 0.42 in 2D) or the dense one (above; see\n`hgridopt "
            "pack --help`; nu beyond their reach is refused). Detect its "
            "contacts\nwith the bundled HGrid and compare the counted "
            "pair checks T_cd and cell accesses T_ca per particle\nwith the "
            "cost model, per level and in total; time the detection. Cell "
            "sizes are\nrounded up to A / floor(A / s) so that whole cells "
            "span the box; the prediction\nuses the rounded sizes. The "
            "linked cell (one level, 2 r_max) is measured too;\nwhen its "
            "predicted work exceeds the budget only a random subset of "
            "particles\nsearches and its figures are extrapolated (said in "
            "the output).\nWith --packing FILE it runs on the particles of FILE "
            "instead (its radii are the\ndistribution; walls and overlap "
            "rules make the measurement deviate from the\nmodel).\n\n"
            "  --n N            particles (default: the system file's "
            "\"particles\", else 100000,\n"
            "                   raised to the smallest N whose box holds 3 "
            "cells of the\n"
            "                   largest size per edge; a smaller --n is "
            "refused)\n"
            "  --seed S         packing seed (default 1)\n"
            "  --sizes LIST     cell sizes s_1..s_L (default: the recommended "
            "ones)\n"
            "  --model NAME     hgrid-top-down or hgrid-bottom-up "
            "(default: the\n"
            "                   recommended one, or hgrid-top-down with "
            "--sizes);\n"
            "                   --algorithm A: top-down or bottom-up\n"
            "  --no-baseline    do not measure the linked cell\n"
            "  --budget W       pair checks + cell accesses above which a "
            "search runs on a\n"
            "                   random subset (default 2e8)\n"
            "  --repeats R      timed repetitions of each detection, HGrid "
            "and linked cell\n"
            "                   alternately: median and min-max (default 5)\n"
            "  --format F       table (default) or json "
            "(schema hgridopt.validation/1)\n%s%s\n%s\n"
            "In LAMMPS itself: hgridopt validate --engine lammps --help\n\n"
            "Example:\n"
            "  hgridopt validate --psd powerlaw:alpha=-3,omega=30 --dim 3 "
            "--nu 0.3 --n 200000\n\n%s",
            cli_output_help, cli_plot_help, cli_system_help, cli_exit_help);
}

static cJSON *levels_json(const hg_validate_run *r, int measured)
{
    cJSON *arr = cJSON_CreateArray();
    for (int h = 0; arr && h < r->levels; h++) {
        const hg_validate_level *l = &r->per_level[h];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "level", l->level);
        cJSON_AddNumberToObject(o, "cell_size", l->cell_size);
        cJSON_AddNumberToObject(o, "fraction", measured ? l->measured_fraction
                                                         : l->predicted_fraction);
        cJSON_AddNumberToObject(o, "T_cd",
                                measured ? l->measured_T_cd : l->predicted_T_cd);
        cJSON_AddNumberToObject(o, "T_ca",
                                measured ? l->measured_T_ca : l->predicted_T_ca);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *run_json(const hg_validate_run *r, double K)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "algorithm", hg_algorithm_name(r->algorithm));
    cJSON_AddNumberToObject(j, "levels", r->levels);
    cli_json_add_array(j, "cell_sizes", r->sizes, r->levels);
    cJSON *p = cJSON_AddObjectToObject(j, "predicted");
    cJSON_AddNumberToObject(p, "T_cd", r->predicted_T_cd);
    cJSON_AddNumberToObject(p, "T_ca", r->predicted_T_ca);
    cJSON_AddNumberToObject(p, "T", r->predicted_T);
    cJSON_AddItemToObject(p, "per_level", levels_json(r, 0));
    cJSON *m = cJSON_AddObjectToObject(j, "measured");
    cJSON_AddNumberToObject(m, "T_cd", r->measured_T_cd);
    cJSON_AddNumberToObject(m, "T_ca", r->measured_T_ca);
    cJSON_AddNumberToObject(m, "T", r->measured_T_cd + K * r->measured_T_ca);
    cJSON_AddItemToObject(m, "per_level", levels_json(r, 1));
    cJSON_AddNumberToObject(m, "seconds", r->seconds);
    cJSON_AddNumberToObject(m, "seconds_min", r->seconds_min);
    cJSON_AddNumberToObject(m, "seconds_max", r->seconds_max);
    cJSON_AddNumberToObject(m, "repeats", r->repeats);
    cJSON_AddNumberToObject(m, "detections_per_repeat", r->inner);
    cJSON_AddNumberToObject(m, "cpu_seconds", r->cpu_seconds);
    if (r->build_seconds >= 0.0) { /* < 0: binning is in seconds (bin) */
        cJSON_AddNumberToObject(m, "build_seconds", r->build_seconds);
        cJSON_AddNumberToObject(m, "first_build_seconds",
                                r->first_build_seconds);
    }
    cJSON_AddNumberToObject(m, "contacts", r->contacts);
    cJSON_AddBoolToObject(m, "extrapolated", r->extrapolated);
    cJSON_AddNumberToObject(m, "searched_particles", (double)r->searched);
    cJSON_AddNumberToObject(m, "grid_bytes", (double)r->memory_bytes);
    cJSON *q = cJSON_AddObjectToObject(j, "ratio");
    cJSON_AddNumberToObject(q, "T_cd", r->measured_T_cd / r->predicted_T_cd);
    cJSON_AddNumberToObject(q, "T_ca", r->measured_T_ca / r->predicted_T_ca);
    return j;
}

static const char padded_note[] =
    "the box is not periodic on every axis: the grid is built in a "
    "periodic box padded with empty space along the non-periodic axes (no "
    "search crosses the seam; cells go on beyond the walls, as LAMMPS' bins "
    "over its ghost region), so cell accesses are the model's; walls and "
    "free surfaces lower the pair checks, which the measured structure "
    "predicts";

static cJSON *to_json(const cli_system *cs, const hg_model *m,
                      const hg_validation *v, const char *n_note)
{
    cJSON *j = cli_json_document("hgridopt.validation/1", cs);
    if (cs->c.name)
        cJSON_AddStringToObject(j, "name", cs->c.name);
    cJSON_AddStringToObject(j, "distribution", hg_psd_spec(cs->c.psd));
    cJSON_AddNumberToObject(j, "dim", cs->c.sys.dim);
    cJSON_AddNumberToObject(j, "nu", cs->c.sys.nu);
    cJSON_AddStringToObject(j, "structure",
                            hg_structure_name(cs->c.sys.structure));
    cli_json_add_snapshot(j, cs);
    cli_json_add_K(j, cs);
    cJSON_AddStringToObject(j, "packing", cs->c.has_packing
                                              ? cs->opt.packing_path
                                              : v->generator);
    if (!cs->c.has_packing) {
        cJSON_AddStringToObject(j, "generator", v->generator);
        cJSON_AddStringToObject(j, "generator_why", v->generator_why);
        if (strcmp(v->generator, "poisson"))
            cJSON_AddNumberToObject(j, "max_overlap", v->max_overlap);
    }
    if (v->padded) {
        cJSON_AddStringToObject(j, "note", padded_note);
        cJSON *o = cJSON_AddObjectToObject(j, "offsets");
        cJSON_AddNumberToObject(o, "count", v->offsets);
        const double hr[2] = {v->offset_T_cd_min[0], v->offset_T_cd_max[0]};
        const double lr[2] = {v->offset_T_cd_min[1], v->offset_T_cd_max[1]};
        cli_json_add_array(o, "hgrid_T_cd_range", hr, 2);
        if (v->has_baseline)
            cli_json_add_array(o, "linked_cell_T_cd_range", lr, 2);
    }
    if (cs->c.has_packing) {
        char b[8];
        cJSON_AddStringToObject(j, "boundary",
                                hg_particles_boundary_text(&cs->c.packing, b));
        cJSON *co = cJSON_AddObjectToObject(j, "coincident");
        cJSON_AddNumberToObject(co, "particles", (double)cs->c.coincident);
        cJSON_AddNumberToObject(co, "centres",
                                (double)cs->c.coincident_positions);
    }
    cJSON_AddBoolToObject(j, "sizes_rounded", v->rounded);
    cJSON_AddBoolToObject(j, "periodic",
                          cs->c.has_packing ? cs->c.packing.periodic : 1);
    cJSON_AddNumberToObject(j, "particles", (double)v->n);
    if (n_note)
        cJSON_AddStringToObject(j, "particles_note", n_note);
    cJSON_AddNumberToObject(j, "seed", (double)v->seed);
    cJSON_AddNumberToObject(j, "box_edge", v->box_edge);
    cJSON_AddNumberToObject(j, "measured_nu", v->measured_nu);
    cJSON *h = run_json(&v->hgrid, cs->c.K);
    cJSON_AddStringToObject(j, "model", m->name);
    /* the HGrid's figures at the top level, as the schema names them */
    cJSON_AddStringToObject(j, "algorithm",
                            hg_algorithm_name(v->hgrid.algorithm));
    cJSON_AddNumberToObject(j, "levels", v->hgrid.levels);
    cli_json_add_array(j, "cell_sizes", v->hgrid.sizes, v->hgrid.levels);
    cJSON_AddItemToObject(j, "predicted",
                          cJSON_DetachItemFromObject(h, "predicted"));
    cJSON_AddItemToObject(j, "measured",
                          cJSON_DetachItemFromObject(h, "measured"));
    cJSON_AddItemToObject(j, "ratio", cJSON_DetachItemFromObject(h, "ratio"));
    cJSON_Delete(h);
    if (v->has_baseline) {
        cJSON_AddItemToObject(j, "linked_cell",
                              run_json(&v->linked_cell, cs->c.K));
        cJSON *s = cJSON_AddObjectToObject(j, "speedup_vs_linked_cell");
        cJSON_AddNumberToObject(s, "predicted", v->predicted_speedup);
        cJSON_AddNumberToObject(s, "measured", v->measured_speedup);
        cJSON_AddNumberToObject(s, "measured_min", v->speedup_min);
        cJSON_AddNumberToObject(s, "measured_max", v->speedup_max);
        cJSON_AddNumberToObject(s, "measured_cpu", v->measured_speedup_cpu);
        cJSON_AddBoolToObject(s, "same_grid", v->same_grid);
    }
    cJSON_AddNumberToObject(j, "requested_levels", v->requested_levels);
    cJSON_AddNumberToObject(j, "merged_levels", v->merged_levels);
    cJSON *notes = cJSON_AddArrayToObject(j, "notes");
    for (int i = 0; i < v->n_notes; i++)
        cJSON_AddItemToArray(notes, cJSON_CreateString(v->notes[i]));
    if (v->has_bin) {
        cJSON_AddItemToObject(j, "bin", run_json(&v->bin, cs->c.K));
        cJSON *s = cJSON_AddObjectToObject(j, "speedup_vs_bin");
        cJSON_AddNumberToObject(s, "predicted", v->predicted_speedup_bin);
        cJSON_AddNumberToObject(s, "measured", v->measured_speedup_bin);
        cJSON_AddNumberToObject(s, "measured_cpu",
                                v->measured_speedup_bin_cpu);
    }
    return j;
}

/* measured / predicted, or "-" when the level is empty in both */
static void ratio_text(char *buf, double meas, double pred)
{
    if (pred > 0)
        snprintf(buf, 16, "%.4f", meas / pred);
    else
        snprintf(buf, 16, "%s", meas > 0 ? "inf" : "-");
}

static void print_run(FILE *out, const char *title, const hg_validate_run *r,
                      double K)
{
    fprintf(out, "%s: %s, %d level%s\n", title,
            hg_algorithm_name(r->algorithm), r->levels,
            r->levels == 1 ? "" : "s");
    fprintf(out, "%5s %11s %9s %9s %10s %10s %7s %10s %10s %7s\n", "level",
            "cell size", "P pred", "P meas", "T_cd pred", "T_cd meas",
            "ratio", "T_ca pred", "T_ca meas", "ratio");
    for (int h = 0; h < r->levels; h++) {
        const hg_validate_level *l = &r->per_level[h];
        char q1[16], q2[16];
        ratio_text(q1, l->measured_T_cd, l->predicted_T_cd);
        ratio_text(q2, l->measured_T_ca, l->predicted_T_ca);
        fprintf(out,
                "%5d %11.5g %9.4g %9.4g %10.5g %10.5g %7s %10.5g %10.5g "
                "%7s\n",
                l->level, l->cell_size, l->predicted_fraction,
                l->measured_fraction, l->predicted_T_cd, l->measured_T_cd,
                q1, l->predicted_T_ca, l->measured_T_ca, q2);
    }
    char t1[16], t2[16];
    ratio_text(t1, r->measured_T_cd, r->predicted_T_cd);
    ratio_text(t2, r->measured_T_ca, r->predicted_T_ca);
    fprintf(out, "%5s %11s %9s %9s %10.5g %10.5g %7s %10.5g %10.5g %7s\n",
            "total", "", "", "", r->predicted_T_cd, r->measured_T_cd, t1,
            r->predicted_T_ca, r->measured_T_ca, t2);
    fprintf(out,
            "work T = T_cd + K T_ca: predicted %.5g, measured %.5g\n"
            "contacts %.6g, detection %.4g s (median of %d repeat%s, "
            "%.4g-%.4g s%s; CPU %.4g s), ",
            r->predicted_T, r->measured_T_cd + K * r->measured_T_ca,
            r->contacts, r->seconds, r->repeats, r->repeats == 1 ? "" : "s",
            r->seconds_min, r->seconds_max,
            r->inner > 1 ? ", each the mean of several detections" : "",
            r->cpu_seconds);
    if (r->build_seconds >= 0.0)
        fprintf(out, "mapping %.4g s (median of %d rebuild%s; first build "
                     "%.4g s)\n",
                r->build_seconds, r->repeats, r->repeats == 1 ? "" : "s",
                r->first_build_seconds);
    else
        fprintf(out, "binning included\n");
    if (r->extrapolated)
        fprintf(out,
                "NOTE: only a random subset of %zu particles searched; the "
                "work per particle is\nmeasured on them, the time and the "
                "contacts are EXTRAPOLATED to all particles.\n",
                r->searched);
}

typedef struct validate_output {
    const cli_system *cs;
    const hg_model *model;
    const hg_validation *v;
    int sizes_given;
    const char *n_note; /* or NULL */
} validate_output;

static int write_result(FILE *out, const void *ctx)
{
    const validate_output *r = ctx;
    const cli_system *cs = r->cs;
    const hg_validation *v = r->v;
    if (!strcmp(cs->opt.format, "json"))
        return cli_json_print(out, to_json(cs, r->model, v, r->n_note));
    cli_print_system(out, cs);
    if (cs->c.has_packing)
    {
        char b[8];
        fprintf(out,
                "packing:        %s, N = %zu, boundary %s, nu of the box "
                "%.5g\n",
                cs->opt.packing_path, v->n,
                hg_particles_boundary_text(&cs->c.packing, b),
                hg_particles_packing_fraction(&cs->c.packing));
    }
    else if (!strcmp(v->generator, "poisson"))
        fprintf(out,
                "packing:        Poisson, N = %zu, seed %lu, periodic "
                "box edge %.6g, nu measured %.5g\n",
                v->n, (unsigned long)v->seed, v->box_edge, v->measured_nu);
    else
        fprintf(out,
                "packing:        %s generator, N = %zu, seed %lu, periodic "
                "box edge %.6g, nu measured %.5g,\n"
                "                largest overlap %.3g of the smaller radius\n",
                v->generator, v->n, (unsigned long)v->seed, v->box_edge,
                v->measured_nu, v->max_overlap);
    if (!cs->c.has_packing)
        fprintf(out, "generator:      %s: %s\n", v->generator,
                v->generator_why);
    fprintf(out, "cell sizes:     %s%s\n",
            r->sizes_given ? "given" : "recommended",
            v->rounded ? ", rounded to whole cells per box edge"
                       : ", as given (periodic edges of different lengths: "
                         "the grid stretches its cells to whole cells per "
                         "edge, and the model counts them as built)");
    if (r->n_note)
        fprintf(out, "note:           %s\n", r->n_note);
    if (v->padded) {
        fprintf(out, "note:           %s\n", padded_note);
        fprintf(out, "counts:         the mean over %d offsets of the grid "
                     "along the non-periodic axes (the model predicts the "
                     "mean over where cells start); HGrid T_cd %.5g..%.5g",
                v->offsets, v->offset_T_cd_min[0], v->offset_T_cd_max[0]);
        if (v->has_baseline)
            fprintf(out, ", linked cell %.5g..%.5g", v->offset_T_cd_min[1],
                    v->offset_T_cd_max[1]);
        fprintf(out, "\n");
    }
    if (v->merged_levels)
        fprintf(out, "levels:         %d of the %d given (%d merged, see the "
                "notes)\n", v->hgrid.levels, v->requested_levels,
                v->merged_levels);
    fprintf(out, "\n");
    print_run(out, "HGrid", &v->hgrid, cs->c.K);
    if (v->has_baseline) {
        fprintf(out, "\n");
        if (v->same_grid)
            fprintf(out, "linked cell: the HGrid above (one level of the "
                         "linked cell's size): the same grid, timed once\n");
        else
            print_run(out, "linked cell", &v->linked_cell, cs->c.K);
        if (v->same_grid)
            fprintf(out, "\nspeed-up over the linked cell: 1, the same grid "
                         "(predicted %.4g)\n", v->predicted_speedup);
        else
        fprintf(out,
                "\nspeed-up over the linked cell: measured %.4g (time, "
                "median of %d alternating repeats, %.4g-%.4g%s; CPU time "
                "%.4g),\n  predicted %.4g (work T, K = %.4g %s)\n",
                v->measured_speedup, v->hgrid.repeats, v->speedup_min,
                v->speedup_max,
                v->linked_cell.extrapolated ? ", extrapolated" : "",
                v->measured_speedup_cpu, v->predicted_speedup, cs->c.K,
                hg_K_source_name(cs->c.Kc.source));
    }
    if (v->has_bin) {
        fprintf(out, "\n");
        print_run(out, "bin (LAMMPS-style, bins of half the cutoff)", &v->bin,
                  cs->c.K);
        fprintf(out,
                "\nspeed-up over bin: measured %.4g (time; bin runs on one "
                "thread), %.4g (CPU time, all threads), predicted %.4g "
                "(work T)\n",
                v->measured_speedup_bin, v->measured_speedup_bin_cpu,
                v->predicted_speedup_bin);
    } else if (v->bin_skipped_work > 0.0) {
        fprintf(out, "\nbin: not measured (predicted work %.3g above the "
                "budget)\n", v->bin_skipped_work);
    }
    for (int i = 0; i < v->n_notes; i++)
        fprintf(out, "%sNOTE: %s\n", i ? "" : "\n", v->notes[i]);
    return CLI_OK;
}

static const char *const formats[] = {"table", "json", NULL};
static const cli_spec spec = {"validate", help,
                              CLI_SYSTEM | CLI_MODEL | CLI_FORMAT | CLI_OUTPUT |
                                  CLI_PLOT,
                              options, sizeof options / sizeof options[0],
                              formats};

/* The cell sizes measured: --sizes (*sizes, *L) checked against the
 * distribution, else the recommendation for the system (of *model if one
 * was given) into *rec, its model into *model and a copy of its sizes
 * into *sizes and *L. A failure is reported: its exit code. */
static int cell_sizes(const cli_system *cs, hg_recommendation *rec,
                      const hg_model **model, double **sizes, size_t *L,
                      hg_err *e)
{
    int st;
    if (*sizes) {
        if ((st = hg_sizes_check(cs->c.psd, (int)*L, *sizes, 0, e))) {
            cli_error("--%s", e->msg);
            return CLI_EUSAGE;
        }
        return CLI_OK;
    }
    hg_recommend_options ro;
    hg_recommend_options_default(&ro);
    ro.grid_only = 1; /* the bundled HGrid is what is measured */
    if (*model) {
        ro.n_models = 1;
        ro.models[0] = *model;
    }
    if ((st = hg_recommend(cs->c.psd, &cs->c.sys, &cs->c.values, &ro, rec,
                           e)))
        return cli_fail(e, st, 1);
    *model = rec->model;
    *L = (size_t)rec->levels;
    *sizes = malloc(*L * sizeof **sizes);
    if (!*sizes) {
        cli_error("out of memory");
        return CLI_EDATA;
    }
    memcpy(*sizes, rec->cell_sizes, *L * sizeof **sizes);
    return CLI_OK;
}

/* A box with fewer than 3 cells of the largest size per edge is refused
 * by the library: n raised to the smallest N whose box holds them (said
 * in note, of len). */
static long raised_n(const cli_system *cs, long n, int L, const double *sizes,
                     char *note, size_t len)
{
    size_t nmin = 0;
    if (hg_validate_min_particles(cs->c.psd, &cs->c.sys, L, sizes, &nmin,
                                  NULL) != HG_OK ||
        (size_t)n >= nmin)
        return n;
    snprintf(note, len,
             "N raised from %ld to %zu, the smallest whose box holds 3 "
             "cells of the largest size per edge",
             n, nmin);
    return (long)nmin;
}

/* Validate the bundled HGrid with the L sizes of model on n particles
 * (seed, baseline, budget and repeats from o): on the --packing
 * particles, else on a packing of the system generated; progress on a
 * tty. A failure is reported: its exit code. */
static int run_validation(cli_system *cs, const validate_opts *o,
                          const hg_model *model, int L, const double *sizes,
                          long n, hg_validation *v, hg_err *e)
{
    hg_validate_params vp = {0};
    vp.sys = cs->c.sys;
    vp.model = model;
    vp.values = cs->c.values;
    vp.L = L;
    vp.sizes = sizes;
    vp.n = (size_t)n;
    vp.seed = (uint64_t)o->seed;
    vp.baseline = !o->no_baseline;
    hg_measure_options_default(&vp.measure);
    vp.measure.budget = o->budget;
    vp.measure.repeats = (int)o->repeats;
    vp.measure.seed = (uint64_t)o->seed;
    cli_progress pr;
    vp.measure.progress = cli_progress_start(&pr);
    vp.measure.progress_params = &pr;
    vp.K_choice = &cs->c.Kc;
    int st = cs->c.has_packing ? hg_validate_particles(cs->c.psd, &vp,
                                                       &cs->c.packing, v, e)
                               : hg_validate(cs->c.psd, &vp, v, e);
    cli_progress_end(&pr);
    if (st == HG_OK)
        return CLI_OK;
    if (st == HG_EINVAL && strstr(e->msg, "exceeds the box edge"))
        cli_error("%s (use more particles: --n)", e->msg);
    else if (st == HG_ELIMIT && !strncmp(e->msg, "nu: ", 4))
        cli_error("%s; use a lower nu, --structure poisson or --packing "
                  "FILE", e->msg);
    else
        cli_error("%s", e->msg);
    return st == HG_EINVAL ? CLI_EUSAGE : CLI_EDATA;
}

int cmd_validate(int argc, char **argv)
{
    const hg_engine *eng = cli_engine_of_argv(argc, argv);
    if (eng && eng != hg_engine_at(0))
        return cmd_engine_run(0, argc, argv);
    validate_opts o = {NULL, 0, 1, 5, 0, 2e8};
    cli_system cs = {0};
    int rc;
    if (cli_parse(&spec, argc, argv, &cs.opt, &o, &rc))
        return rc;
    const hg_model *model;
    const char *word;
    if ((rc = cli_model_resolve(&cs.opt, NULL, NULL, &model, &word)))
        return rc;
    long n = o.n;
    hg_err e = {0};
    int st;
    double *sizes = NULL;
    size_t L = 0;
    if (o.sizes &&
        (st = hg_parse_list(o.sizes, ',', "--sizes", &sizes, &L, &e)))
        return cli_fail(&e, st, 0);
    hg_recommendation rec = {0};
    hg_validation v = {0};
    if ((rc = cli_system_resolve(&cs, 1)))
        goto done;
    if (cs.c.has_packing && o.n) {
        cli_error("validate: --n and --packing exclude each other (the "
                  "packing file gives the particles)");
        rc = CLI_EUSAGE;
        goto done;
    }
    if (!o.n)
        n = cs.c.particles > 1 ? cs.c.particles : 100000;
    if ((rc = cell_sizes(&cs, &rec, &model, &sizes, &L, &e)))
        goto done;
    if (!model)
        model = hg_model_find("hgrid-top-down");
    char n_note[200] = "";
    if (!cs.c.has_packing && !o.n)
        n = raised_n(&cs, n, (int)L, sizes, n_note, sizeof n_note);
    if (!cs.c.has_packing &&
        (rc = cli_announce_packing("validate", &cs, (size_t)n, o.seed)))
        goto done;
    if ((rc = run_validation(&cs, &o, model, (int)L, sizes, n, &v, &e)))
        goto done;
    validate_output res = {&cs, model, &v, o.sizes != NULL,
                           n_note[0] ? n_note : NULL};
    rc = cli_write(cs.opt.output, write_result, &res);
    if (!rc && cs.opt.plot &&
        (st = hg_figure_validation(cs.opt.plot, &v, &e)))
        rc = cli_fail(&e, st, 1);
done:
    hg_validation_clear(&v);
    hg_recommendation_clear(&rec);
    free(sizes);
    cli_system_clear(&cs);
    return rc;
}
