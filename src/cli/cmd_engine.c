/* cmd_engine.c - `validate`, `tune` and `calibrate` of an engine that runs
 * a code (hg_engine.h: its validate, tune and calibrate hooks): one form
 * for every engine, the same options, one report printed as a table or
 * JSON (or, for tune, the code's settings). */
#include "cli.h"
#include "hg_pack_gen.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum { RUN_VALIDATE, RUN_TUNE, RUN_CALIBRATE } run_kind;
static const char *const kind_name[] = {"validate", "tune", "calibrate"};

typedef struct run_opts {
    const char *program, *keep, *packings, *file;
    long mpi, steps, repeats, n, seed, max_levels;
    double skin, budget;
    int save;
} run_opts;

#define RUN_OPTIONS                                                         \
    CLI_STR("program", run_opts, program),                                  \
        CLI_STR("lmp", run_opts, program),                                  \
        CLI_LONG("mpi", run_opts, mpi, 1, 1024),                            \
        CLI_STR("keep", run_opts, keep),                                    \
        CLI_LONG("steps", run_opts, steps, 1, 100000),                      \
        CLI_LONG("repeats", run_opts, repeats, 1, 99),                      \
        CLI_LONG("n", run_opts, n, 100, 100000000),                         \
        CLI_LONG("seed", run_opts, seed, 0, 2147483647L),                   \
        CLI_LONG("max-levels", run_opts, max_levels, 1, 16),                \
        CLI_LONG("max-collections", run_opts, max_levels, 1, 16)

static const char run_help[] =
    "  --engine E       the code run (hgridopt help engines)\n"
    "  --program PATH   its executable (lmp, liggghts) or build folder "
    "(MercuryDPM);\n                   default: searched on PATH or as "
    "`help engines` says\n"
    "                   (--lmp PATH: the same, for lammps)\n"
    "  --mpi N          run under mpirun -np N (default 1)\n"
    "  --keep DIR       keep the code's inputs and logs in DIR\n"
    "  --steps S        timed steps per setting (default 50; mercurydpm "
    "2), each\n                   rebuilding the neighbour list or grid\n"
    "  --repeats R      alternating repeats; medians reported (default 3; "
    "mercurydpm\n                   41); paired (a setting's ratio to the "
    "first per repeat)\n                   for mercurydpm and tune "
    "--engine hgrid\n"
    "  --n N            particles of a generated packing (default 50000)\n"
    "  --seed S         packing seed (default 1)\n"
    "  --max-levels N   largest number of levels or collections tried "
    "(default 6;\n                   --max-collections N: the same)\n";

static const cli_option validate_options[] = {RUN_OPTIONS};
static const cli_option tune_options[] = {
    RUN_OPTIONS, CLI_DOUBLE("seconds", run_opts, budget, CLI_POSITIVE)};
static const cli_option calibrate_options[] = {
    RUN_OPTIONS,
    CLI_DOUBLE("skin", run_opts, skin, CLI_POSITIVE),
    CLI_STR("packing", run_opts, packings),
    CLI_FLAG("save", run_opts, save),
    CLI_STR("file", run_opts, file),
};

static void validate_help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt validate --engine E (--packing FILE | --psd "
            "SPEC --dim D --nu X) [options]\n\n"
            "Run the code of engine E on the packing (or an RSA packing "
            "generated from the\nsystem) with the engine model's "
            "recommendation, the code's default and\nneighbouring "
            "settings; report the measured time per build against the "
            "model's\nprediction. Engines that run a code: see `hgridopt "
            "help engines`.\n\n%s"
            "  --format F       table (default) or json\n\n%s\n"
            "Example:\n  hgridopt validate --engine lammps --psd "
            "powerlaw:alpha=-3,omega=20 --dim 3 --nu 0.4 --mpi 2\n\n%s",
            run_help, cli_system_help, cli_exit_help);
}

static void tune_help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt tune [--engine E] (--packing FILE | --psd SPEC "
            "--dim D --nu X) [options]\n\n"
            "Starting from the engine model's optimum, a short measured "
            "search in the code\n(default engine hgrid: the bundled HGrid, "
            "in this process): the code's default,\nthe optimum and its "
            "neighbours, then rounds moving each cell size or cutoff,\n"
            "adding and removing levels, while the budget lasts. Prints the "
            "fastest setting\nfound with its measured time.\n\n"
            "  --seconds S      wall-clock seconds to spend (default 120)\n"
            "%s"
            "  --format F       table (default), json, or the engine's "
            "settings format\n                   (lammps, liggghts, "
            "mercurydpm: the settings only)\n\n%s\n"
            "Example:\n  hgridopt tune --engine lammps --packing bed.data "
            "--seconds 300\n\n%s",
            run_help, cli_system_help, cli_exit_help);
}

static void calibrate_help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt calibrate --engine E [options]\n\n"
            "Fit the constants of engine E's model to the code's measured "
            "times: a set of\nsettings on each packing (or on RSA packings "
            "of the engine's own systems), one\nweighted least-squares fit. "
            "`hgridopt help engines` lists each engine's\nconstants. "
            "(calibrate without --engine: K of the bundled HGrid.)\n\n"
            "  --packing FILES  calibrate on these particle files "
            "(comma-separated, <= 16:\n                   separate packings, "
            "each a frame of its own, unlike\n                   recommend's "
            "--packing a,b, which joins files of one frame);\n"
            "                   lammps and "
            "liggghts price each with its own measured\n"
            "                   pair statistics, as recommend prices a "
            "snapshot\n%s"
            "  --save           store the constants (read by every command "
            "of the engine)\n"
            "  --file PATH      where to store them (default: the engine's "
            "calibration file\n                   under $XDG_CONFIG_HOME or "
            "~/.config/hgridopt/)\n"
            "  --skin X         neighbour skin of the runs (default 10 %% of "
            "the smallest\n                   diameter)\n"
            "  --mpi P          (lammps, liggghts; P >= 2) also measure "
            "what a ghost atom\n                   costs on P ranks, for "
            "decompose and recommend --mpi\n"
            "  --format F       table (default) or json\n\n"
            "Example:\n  hgridopt calibrate --engine lammps --n 20000 "
            "--steps 20 --save\n\n%s",
            run_help, cli_exit_help);
}

static const char *const table_json[] = {"table", "json", NULL};
/* tune: table, json, or an engine's settings format (checked against the
 * engine after parsing) */
static const char *const tune_formats[] = {"table", "json",
                                           CLI_ENGINE_FORMATS, NULL};
static const cli_spec specs[] = {
    {"validate", validate_help, CLI_SYSTEM | CLI_FORMAT | CLI_ENGINES,
     validate_options, sizeof validate_options / sizeof validate_options[0],
     table_json},
    {"tune", tune_help, CLI_SYSTEM | CLI_FORMAT | CLI_ENGINES, tune_options,
     sizeof tune_options / sizeof tune_options[0], tune_formats},
    {"calibrate", calibrate_help, CLI_FORMAT | CLI_ENGINES,
     calibrate_options,
     sizeof calibrate_options / sizeof calibrate_options[0], table_json},
};

const hg_engine *cli_engine_of_argv(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--engine") && i + 1 < argc)
            return hg_engine_find(argv[i + 1]);
        if (!strncmp(argv[i], "--engine=", 9))
            return hg_engine_find(argv[i] + 9);
    }
    return NULL;
}

static void progress(int done, int total, void *params)
{
    fprintf(stderr, "\r  %s: %d of %d timed runs", (const char *)params,
            done, total);
    if (done == total)
        fputs("\n", stderr);
    fflush(stderr);
}

/* ---- output ---- */

static double ms(double s) { return 1e3 * s; }

/* A comment line of a settings text ("# ..."; C++ directives such as
 * MercuryDPM's "#include" are settings). */
static int comment_line(const char *l)
{
    return l[0] == '#' && strncmp(l, "#include", 8) != 0;
}

static void print_lines(FILE *out, const char *text, const char *indent)
{
    for (const char *l = text; l && *l;) {
        size_t n = strcspn(l, "\n");
        if (!comment_line(l))
            fprintf(out, "%s%.*s\n", indent, (int)n, l);
        l += n + (l[n] == '\n');
    }
}

static void add_lines(cJSON *obj, const char *key, const char *text)
{
    cJSON *a = cJSON_AddArrayToObject(obj, key);
    for (const char *l = text; l && *l;) {
        size_t n = strcspn(l, "\n");
        if (!comment_line(l)) {
            char *t = strndup(l, n);
            if (t)
                cJSON_AddItemToArray(a, cJSON_CreateString(t));
            free(t);
        }
        l += n + (l[n] == '\n');
    }
}

static void add_number(cJSON *j, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(j, key, v);
    else
        cJSON_AddNullToObject(j, key);
}

static cJSON *point_json(const hg_engine_point *p)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "role", p->role);
    cJSON_AddStringToObject(j, "setting", p->setting);
    cJSON_AddNumberToObject(j, "levels", p->levels);
    cli_json_add_array(j, "sizes", p->sizes, p->levels < 16 ? p->levels : 16);
    add_lines(j, "lines", p->lines);
    add_number(j, "predicted_ms", ms(p->predicted));
    add_number(j, "measured_ms", ms(p->measured));
    add_number(j, "measured_min_ms", ms(p->measured_min));
    add_number(j, "measured_max_ms", ms(p->measured_max));
    add_number(j, "other_ms", ms(p->other));
    add_number(j, "found", p->found);
    add_number(j, "model_found", p->model_found);
    return j;
}

static double ratio(const hg_engine_report *r, int a, int b)
{
    return a >= 0 && b >= 0 && a < r->n && b < r->n
               ? r->points[a].measured / r->points[b].measured
               : NAN;
}

static void print_json(run_kind kind, const hg_engine *eng,
                       const cli_system *cs, const hg_particles *p,
                       const hg_engine_run *run, const hg_engine_report *r)
{
    cJSON *j = cli_json_document("hgridopt.engine-run/1", cs);
    cJSON_AddStringToObject(j, "command", kind_name[kind]);
    cJSON_AddStringToObject(j, "engine", eng->name);
    cJSON_AddStringToObject(j, "program", r->program);
    cJSON_AddStringToObject(j, "unit", r->unit ? r->unit : "");
    cJSON_AddStringToObject(j, "constants", r->constants);
    if (p) {
        cJSON_AddNumberToObject(j, "particles", (double)p->n);
        cJSON_AddNumberToObject(j, "dim", p->dim);
    }
    if (cs && cs->c.psd)
        cJSON_AddStringToObject(j, "structure",
                                hg_structure_name(cs->c.sys.structure));
    cJSON_AddNumberToObject(j, "ranks", run->nprocs);
    cJSON *a = cJSON_AddArrayToObject(j, "points");
    for (int i = 0; i < r->n; i++)
        cJSON_AddItemToArray(a, point_json(&r->points[i]));
    if (r->n) {
        cJSON_AddStringToObject(j, "fastest", r->points[r->fastest].role);
        add_number(j, "recommended_over_fastest",
                   ratio(r, r->recommended, r->fastest));
        add_number(j, "recommended_over_default",
                   ratio(r, r->recommended, r->baseline));
        if (r->ratio_repeats > 0) {
            cJSON *q = cJSON_AddArrayToObject(j,
                                              "recommended_over_fastest_"
                                              "quartiles");
            cJSON_AddItemToArray(q, cJSON_CreateNumber(r->ratio_q1));
            cJSON_AddItemToArray(q, cJSON_CreateNumber(r->ratio_q3));
        }
    }
    cJSON_AddNumberToObject(j, "repeats", r->point_repeats > 0
                                              ? r->point_repeats
                                              : run->repeats);
    add_number(j, "spearman", r->spearman);
    if (r->note[0])
        cJSON_AddStringToObject(j, "note", r->note);
    cJSON_AddNumberToObject(j, "settings_measured", r->settings_measured);
    if (kind == RUN_TUNE) {
        cJSON_AddNumberToObject(j, "rounds", r->rounds);
        cJSON_AddNumberToObject(j, "seconds", r->seconds);
    }
    if (kind == RUN_CALIBRATE) {
        cJSON_AddStringToObject(j, "fitted", r->fitted);
        cJSON_AddNumberToObject(j, "fit_median_error", r->fit_median_error);
        cJSON_AddNumberToObject(j, "fit_max_error", r->fit_max_error);
        if (r->saved[0])
            cJSON_AddStringToObject(j, "saved", r->saved);
    }
    cli_json_print(stdout, j);
}

static void print_table(run_kind kind, const hg_engine *eng,
                        const cli_system *cs, const hg_particles *p,
                        const hg_engine_run *run, const hg_engine_report *r)
{
    printf("%s --engine %s: ", kind_name[kind], eng->name);
    if (p)
        printf("%zu particles, %dD, ", p->n, p->dim);
    printf("%d rank%s\n", run->nprocs, run->nprocs == 1 ? "" : "s");
    printf("program:   %s\n", r->program);
    printf("constants: %s\n", r->constants);
    if (cs && cs->c.psd)
        cli_print_structure(stdout, cs);
    if (kind == RUN_CALIBRATE)
        printf("fitted:    %s\n           relative error of the fit: "
               "median %.3f, max %.3f\n",
               r->fitted, r->fit_median_error, r->fit_max_error);
    if (r->point_repeats > 0 && r->point_repeats != run->repeats)
        printf("%s, medians of %d repeats (the final side-by-side run; "
               "the search: %d):\n",
               r->unit, r->point_repeats, run->repeats);
    else
        printf("%s, medians of %d repeats:\n", r->unit, run->repeats);
    printf("  %-14s %10s %-19s %10s %9s %10s  %s\n", "setting", "ms",
           "[min-max]", "predicted", "pred/meas",
           r->baseline >= 0 ? "vs default" : "", "");
    for (int i = 0; i < r->n; i++) {
        const hg_engine_point *q = &r->points[i];
        char range[40], pred[24] = "-", pm[24] = "-", vs[24] = "";
        snprintf(range, sizeof range, "[%.3f-%.3f]", ms(q->measured_min),
                 ms(q->measured_max));
        if (isfinite(q->predicted)) {
            snprintf(pred, sizeof pred, "%.3f", ms(q->predicted));
            snprintf(pm, sizeof pm, "%.3f", q->predicted / q->measured);
        }
        if (r->baseline >= 0)
            snprintf(vs, sizeof vs, "%.3f", ratio(r, i, r->baseline));
        printf("  %-14s %10.3f %-19s %10s %9s %10s  %s\n", q->role,
               ms(q->measured), range, pred, pm, vs, q->setting);
    }
    if (r->n && kind != RUN_CALIBRATE) {
        printf("fastest measured: %s", r->points[r->fastest].role);
        if (r->recommended >= 0)
            printf("; %s / fastest = %.3f",
                   r->points[r->recommended].role,
                   ratio(r, r->recommended, r->fastest));
        if (r->recommended >= 0 && r->ratio_repeats > 0)
            printf(" (quartiles of the %d repeats: %.3f-%.3f)",
                   r->ratio_repeats, r->ratio_q1, r->ratio_q3);
        if (r->recommended >= 0 && r->baseline >= 0)
            printf(", %s / %s = %.3f", r->points[r->recommended].role,
                   r->points[r->baseline].role,
                   ratio(r, r->recommended, r->baseline));
        printf("\n");
    }
    if (isfinite(r->spearman))
        printf("rank correlation of predicted with measured (Spearman): "
               "%.3f\n", r->spearman);
    if (r->note[0])
        printf("note: %s\n", r->note);
    if (kind == RUN_TUNE)
        printf("%d settings measured in %d rounds, %.0f s\n",
               r->settings_measured, r->rounds, r->seconds);
    if (kind == RUN_CALIBRATE && r->saved[0])
        printf("saved to %s\n", r->saved);
    if (kind == RUN_TUNE && r->n && r->points[r->fastest].lines) {
        printf("\nsettings of the fastest (%s):\n", eng->settings_format
                                                        ? eng->settings_format
                                                        : "cell sizes");
        print_lines(stdout, r->points[r->fastest].lines, "");
    }
}

/* ---- the run ---- */

/* The packing: --packing (read by cli_system_resolve), else an RSA packing
 * of --n particles (not given: the system file's, else the run's). */
static int packing_of(cli_system *cs, const run_opts *ro,
                      const hg_engine_run *run, hg_particles *p, hg_err *e)
{
    if (cs->c.has_packing) {
        *p = cs->c.packing;
        cs->c.has_packing = 0; /* ownership moves to p */
        memset(&cs->c.packing, 0, sizeof cs->c.packing);
        return HG_OK;
    }
    long n = ro->n > 0              ? ro->n
             : cs->c.particles > 0 ? cs->c.particles
                                   : run->atoms;
    hg_pack_params prm = {cs->c.sys.dim, (size_t)n, cs->c.sys.nu,
                          (uint64_t)ro->seed, 1};
    hg_pack_report rep;
    int st = hg_pack_rsa_run(cs->c.psd, &prm, NULL, p, &rep, e);
    if (st == HG_OK && !rep.reached)
        fprintf(stderr,
                "hgridopt: note: RSA packing stalled at nu = %.4g (%zu of "
                "%zu particles)\n",
                rep.nu, rep.placed, rep.requested);
    return st;
}

typedef int (*run_hook)(const hg_engine_run *, hg_engine_report *, hg_err *);

/* The engine's hook for kind (NULL: it has none). */
static run_hook hook_of(const hg_engine *g, run_kind kind)
{
    return kind == RUN_VALIDATE ? g->validate
           : kind == RUN_TUNE   ? g->tune
                                : g->calibrate;
}

/* The options checked against engine eng and format: a hook for kind
 * (else the engines that have one are listed), --file only with --save,
 * tune's format one the engine writes. */
static int check_usage(run_kind kind, const hg_engine *eng,
                       const run_opts *ro, const char *format)
{
    if (!hook_of(eng, kind)) {
        char list[256] = "";
        for (size_t i = 0; i < hg_engine_count(); i++) {
            const hg_engine *g = hg_engine_at(i);
            if (hook_of(g, kind) != NULL) {
                if (list[0])
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
                strncat(list, g->name, sizeof list - strlen(list) - 1);
            }
        }
        cli_error("%s --engine: '%s' is not available for %s (it runs: %s)",
                  kind_name[kind], eng->name, kind_name[kind], list);
        return CLI_EUSAGE;
    }
    if (ro->file && !ro->save) {
        cli_error("calibrate --file: '%s' is where --save stores the "
                  "constants; give --save too", ro->file);
        return CLI_EUSAGE;
    }
    if (kind == RUN_TUNE && strcmp(format, "table") &&
        strcmp(format, "json") &&
        (!eng->settings_format || strcmp(format, eng->settings_format))) {
        cli_error("tune --format: '%s' is not a format of tune --engine %s "
                  "(one of: table, json%s%s)",
                  format, eng->name, eng->settings_format ? ", " : "",
                  eng->settings_format ? eng->settings_format : "");
        return CLI_EUSAGE;
    }
    return CLI_OK;
}

/* The run of engine eng: its defaults, with the options given. */
static void run_of(run_kind kind, const hg_engine *eng, const run_opts *ro,
                   hg_engine_run *run)
{
    hg_engine_run_default(eng, run);
    run->program = ro->program;
    run->keep = ro->keep;
    run->nprocs = (int)ro->mpi;
    if (ro->steps > 0)
        run->steps = (int)ro->steps;
    if (ro->repeats > 0)
        run->repeats = (int)ro->repeats;
    /* other than calibrate: the system's, set by cmd_engine_run */
    run->skin = kind == RUN_CALIBRATE ? ro->skin : 0.0;
    run->budget = ro->budget;
    run->max_levels = (int)ro->max_levels;
    if (ro->n > 0)
        run->atoms = ro->n;
    run->seed = ro->seed;
    if (isatty(STDERR_FILENO)) {
        run->progress = progress;
        run->progress_params = (void *)eng->name;
    }
}

/* calibrate --packing FILES (comma-separated, <= 16): each read into
 * list[i] (clist[i] the same), *nlist of them, which the caller frees,
 * also after a failure. */
static int read_packings(const char *packings, hg_particles **list,
                         const hg_particles **clist, int *nlist, hg_err *e)
{
    char *plist = packings ? strdup(packings) : NULL;
    int rc = CLI_OK, st;
    for (char *sv = NULL, *t = plist ? strtok_r(plist, ",", &sv) : NULL;
         t && rc == CLI_OK; t = strtok_r(NULL, ",", &sv)) {
        if (*nlist == 16) {
            cli_error("--packing: at most 16 files");
            rc = CLI_EUSAGE;
            break;
        }
        list[*nlist] = calloc(1, sizeof **list);
        if (!list[*nlist] ||
            (st = hg_io_read(t, HG_IO_AUTO, list[*nlist], e)))
            rc = list[*nlist] ? cli_fail(e, st, 1)
                              : (cli_error("out of memory"), CLI_EDATA);
        clist[*nlist] = list[*nlist];
        (*nlist)++;
    }
    free(plist);
    return rc;
}

/* The report printed in format: json, table, or (tune) the fastest
 * setting in the engine's settings format. */
static void print_report(run_kind kind, const hg_engine *eng,
                         const char *format, const cli_system *cs,
                         const hg_particles *p, const hg_engine_run *run,
                         const hg_engine_report *r)
{
    const hg_particles *shown = kind == RUN_CALIBRATE ? NULL : p;
    const cli_system *cshown = kind == RUN_CALIBRATE ? NULL : cs;
    if (!strcmp(format, "json"))
        print_json(kind, eng, cshown, shown, run, r);
    else if (!strcmp(format, "table"))
        print_table(kind, eng, cshown, shown, run, r);
    else if (r->n) { /* tune --format <the engine's settings> */
        const hg_engine_point *b = &r->points[r->fastest];
        printf("# --- settings tuned by hgridopt in %s (tune --engine %s) "
               "---\n# measured %.4g ms (%s); %s\n%s",
               r->program, eng->name, ms(b->measured), r->unit, b->setting,
               b->lines ? b->lines : "");
    }
}

int cmd_engine_run(int kind_i, int argc, char **argv)
{
    run_kind kind = (run_kind)kind_i;
    const cli_spec *spec = &specs[kind];
    cli_system cs = {0};
    /* what is not given stays 0 (n, steps, repeats) or takes the run's
     * defaults (hg_engine_run_default) */
    hg_engine_run dflt;
    hg_engine_run_default(NULL, &dflt);
    run_opts ro = {0};
    ro.mpi = dflt.nprocs;
    ro.seed = dflt.seed;
    ro.max_levels = dflt.max_levels;
    ro.budget = dflt.budget;
    int rc;
    if (cli_parse(spec, argc, argv, &cs.opt, &ro, &rc))
        return rc;
    const hg_engine *eng =
        cs.opt.engine ? hg_engine_find(cs.opt.engine) : hg_engine_at(0);
    const char *format = cs.opt.format ? cs.opt.format : "table";
    if ((rc = check_usage(kind, eng, &ro, format)))
        return rc;
    run_hook hook = hook_of(eng, kind);
    hg_engine_run run;
    run_of(kind, eng, &ro, &run);
    hg_err e = {0};
    int st;
    hg_particles p = {0};
    hg_particles *list[16];
    const hg_particles *clist[16];
    int nlist = 0;
    hg_engine_report r;
    hg_engine_report_init(&r);
    if (kind == RUN_CALIBRATE) {
        if ((rc = read_packings(ro.packings, list, clist, &nlist, &e)))
            goto done;
        run.packings = clist;
        run.n_packings = nlist;
        run.store = ro.save;
        run.save = ro.file;
    } else {
        if ((rc = cli_system_resolve(&cs, 1)))
            goto done;
        if ((st = packing_of(&cs, &ro, &run, &p, &e))) {
            rc = cli_fail(&e, st, 1);
            goto done;
        }
        clist[0] = &p;
        run.packings = clist;
        run.n_packings = 1;
        run.skin = cs.c.skin;
        run.sys = &cs.c.sys;
        run.psd = cs.c.psd;
    }
    if ((st = hook(&run, &r, &e))) {
        rc = cli_fail(&e, st, 0);
        goto done;
    }
    print_report(kind, eng, format, &cs, &p, &run, &r);
    if (r.saved[0])
        fprintf(stderr, "calibrate: %s constants saved to %s\n", eng->name,
                r.saved);
done:
    hg_engine_report_clear(&r);
    for (int i = 0; i < nlist; i++) {
        if (list[i])
            hg_particles_clear(list[i]);
        free(list[i]);
    }
    hg_particles_clear(&p);
    cli_system_clear(&cs);
    return rc;
}

int cmd_tune(int argc, char **argv)
{
    return cmd_engine_run(RUN_TUNE, argc, argv);
}
