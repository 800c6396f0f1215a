/* cli.h - the hgridopt command-line tool, in three thin layers:
 *   1. parsing (opts.c): every command describes its options in a table
 *      (cli_option: name, type, range, where to store the value); one
 *      parser fills the command's options struct and the common options
 *      (cli_opts: system, model, --format, --output), so no option is parsed
 *      twice;
 *   2. drivers (resolve.c, output.c and the run function of each cmd_*.c):
 *      resolve options into library inputs (system, distribution, model,
 *      K), call the library, format the results;
 *   3. the library (hgridopt.h).
 * Only the CLI chooses exit codes. */
#ifndef HG_CLI_H
#define HG_CLI_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

#include "hgridopt.h"
#include "hg_advise.h"
#include "hg_engine.h"
#include "hg_io.h"
#include "hg_sysfile.h"

/* Exit codes, the same for every command. */
enum { CLI_OK = 0, CLI_EDATA = 1, CLI_EUSAGE = 2 };


/* The help text on exit codes, for every --help and the tool's usage. */
extern const char cli_exit_help[];

/* ---- layer 1: options ---- */

/* Common options, as given on the command line. */
typedef struct cli_opts {
    const char *psd_spec, *system_path, *packing_path;
    const char *dim_text, *nu_text, *K_text;
    const char *structure_text;
    const char *boundary_text;
    const char *frame_text;       /* --frame first|last|N|-N|step=S */
    const char *type_radius_text; /* --type-radius T=R,... */
    const char *skin_text;        /* --skin X: the user's neighbour skin */
    const char *model_text, *algorithm_text;
    const char *format, *output;
    const char *plot; /* --plot FILE (.svg, .png, .pdf) */
    const char *engine; /* --engine NAME (every command; NULL: default) */
    int help;
} cli_opts;

/* Groups of common options a command takes. */
enum {
    CLI_SYSTEM = 1, /* --system --packing --psd --dim --nu --structure --K */
    CLI_MODEL = 2,  /* --model and its shorthand --algorithm */
    CLI_FORMAT = 4, /* --format */
    CLI_OUTPUT = 8, /* --output */
    CLI_PLOT = 16,  /* --plot */
    /* --engine NAME (every command; the names of the engine registry,
     * hg_engine.h): a command form runs the default engine (hgrid), or
     * any engine and checks itself (CLI_ENGINES) */
    CLI_ENGINES = 64
};

typedef enum cli_type {
    CLI_T_STRING, /* const char * */
    CLI_T_FLAG,   /* int, set to 1 */
    CLI_T_LONG,   /* long in [lo, hi] */
    CLI_T_DOUBLE  /* double, finite, in the range given by check */
} cli_type;

typedef enum cli_check {
    CLI_ANY = 0,
    CLI_POSITIVE,    /* > 0 */
    CLI_NONNEGATIVE, /* >= 0 */
    CLI_OPEN_UNIT,   /* in (0, 1) */
    CLI_UNIT_RIGHT_OPEN /* in [0, 1) */
} cli_check;

/* One option of a command: --name stores its value at offset in the
 * command's options struct. Several names may share an offset (aliases). */
typedef struct cli_option {
    const char *name;
    cli_type type;
    size_t offset;
    long lo, hi;     /* CLI_T_LONG */
    cli_check check; /* CLI_T_DOUBLE */
} cli_option;

#define CLI_STR(name, st, field) {name, CLI_T_STRING, offsetof(st, field), 0, 0, CLI_ANY}
#define CLI_FLAG(name, st, field) {name, CLI_T_FLAG, offsetof(st, field), 0, 0, CLI_ANY}
#define CLI_LONG(name, st, field, lo, hi) {name, CLI_T_LONG, offsetof(st, field), lo, hi, CLI_ANY}
#define CLI_DOUBLE(name, st, field, check) {name, CLI_T_DOUBLE, offsetof(st, field), 0, 0, check}

/* In a command's format list: every engine's settings format
 * (hg_engine.settings_format: lammps, ...). */
#define CLI_ENGINE_FORMATS "@engines"

/* A command: its name, help, common groups, own options and formats. */
typedef struct cli_spec {
    const char *name;
    void (*help)(FILE *out);
    unsigned groups;
    const cli_option *options; /* n_options entries */
    size_t n_options;
    const char *const *formats; /* NULL-terminated, first = default; NULL:
                                   the command checks --format itself */
} cli_spec;

/* Parse argv (argv[0] = command name) into o (common options) and cmd
 * (the command's struct, prefilled with defaults). Prints the help for
 * --help, and one error line for a bad option or value, an option given
 * twice, or an --engine that is unknown or not the one of this command
 * form (the default engine, or any with CLI_ENGINES). Returns 1 when the
 * command must stop now with exit code *rc, else 0; o->format is then set
 * (to the default format when not given). */
int cli_parse(const cli_spec *spec, int argc, char **argv, cli_opts *o,
              void *cmd, int *rc);

/* Help texts of the common option groups (for the commands' --help). */
extern const char cli_system_help[];
extern const char cli_model_help[];
extern const char cli_output_help[];
extern const char cli_plot_help[];
/* --engine and --format of recommend and evaluate, from the engine
 * registry: every engine with its help line, every settings format. */
void cli_print_engines_help(FILE *out, const char *cmd);

/* ---- layer 2: drivers ---- */

/* "hgridopt: <message>" on stderr (one line). */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Print e's message and return the exit code for status: CLI_EDATA for
 * data and run-time problems (files, numerics, memory, limits) or when
 * from_file or e->data says the failing input came from a file,
 * CLI_EUSAGE otherwise. */
int cli_fail(const hg_err *e, int status, int from_file);

/* The system of a command: the common options and the case the library
 * resolved from them (hg_case_resolve). */
typedef struct cli_system {
    cli_opts opt;       /* as given */
    hg_case c;          /* resolved (cli_system_resolve) */
    int no_K;           /* the answering model has no K (another engine's
                           model): cli_print_system shows its constants */
    const char *engine_name; /* the engine the output describes (recommend:
                                set before writing; NULL: the default) */
    const struct hg_ranks_advice *ranks; /* recommend --mpi P > 1 for a
                                code: the decomposition (NULL: none) */
} cli_system;

/* The case input of the common options (need_nu: nu is required), with
 * progress on pr (cli_progress_end after the library call). */
struct cli_progress;
void cli_case_input(const cli_opts *o, int need_nu, struct cli_progress *pr,
                    hg_case_input *in);
/* The case's notes on standard error ("hgridopt: note: ..."). */
void cli_print_notes(const hg_case *c);
/* hg_case_resolve of the common options; need_nu: nu is required. Prints
 * the case's notes and the error; returns an exit code. */
int cli_system_resolve(cli_system *cs, int need_nu);
void cli_system_clear(cli_system *cs);

/* The "snapshot" object of a JSON output (nothing without --packing). */
void cli_json_add_snapshot(cJSON *obj, const cli_system *cs);
/* With a measured structure: *ratio = T_cd of the grid (L levels of sizes
 * under m) for a homogeneous Poisson system at the density experienced
 * over the measured T_cd; returns 1 when that is more than 10 % off (a
 * single homogeneous model would mislead). */
int cli_homogeneous_check(const cli_system *cs, const hg_model *m, int L,
                          const double *sizes, double *ratio);

/* Before cmd generates its own packing of n particles for cs (no
 * --packing): say on standard error, when it is a terminal, which
 * generator makes it and why (hg_pack_structure_choose) with its memory
 * estimate, as `pack` does, and refuse (one error line, exit code returned) a run needing more than the
 * machine's memory. */
int cli_announce_packing(const char *cmd, const cli_system *cs, size_t n,
                         long seed);

/* hg_model_choose of --model and --algorithm; prints the error and returns
 * an exit code. */
int cli_model_resolve(const cli_opts *o, const char *const *words,
                      const hg_model *dflt, const hg_model **model,
                      const char **word);

/* hg_case_params and hg_case_size_params; print the error and return an
 * exit code. */
int cli_params_apply(cli_system *cs, const char *text,
                     const hg_model *const *models, size_t n);
int cli_size_params(cli_system *cs, const hg_model *const *models, size_t n,
                    long atoms, long ranks);
/* The help line of --param, for the commands taking it. */
extern const char cli_param_help[];

/* Write the result with write(out, ctx) (returns an exit code) to path
 * (--output) or standard output (path NULL or "-"). A file is written
 * atomically: a temporary file in the same folder, renamed over path only
 * when everything was written, so a failure never leaves a partial file.
 * Prints I/O errors; returns an exit code. */
int cli_write(const char *path, int (*write)(FILE *out, const void *ctx),
              const void *ctx);

/* Progress on standard error when it is a terminal (nothing otherwise),
 * shown only for runs longer than about 2 s (HGRIDOPT_PROGRESS_DELAY
 * overrides the 2 s). */
typedef struct cli_progress {
    double t0, last, delay;
    int shown;
} cli_progress;
/* Start timing; returns the callback to hand to the library, or NULL when
 * standard error is not a terminal. */
hg_progress_fn cli_progress_start(cli_progress *pr);
/* End the progress line, if one was shown. */
void cli_progress_end(cli_progress *pr);

/* ---- output helpers shared by commands ---- */

/* A new JSON document: schema, the tool version, and length_unit when
 * cs (may be NULL) has one. */
cJSON *cli_json_document(const char *schema, const cli_system *cs);
/* Add the per-level array of a cost breakdown (keys as in the evaluation
 * schema) to obj under "per_level". */
void cli_json_add_per_level(cJSON *obj, const hg_cost *c);
/* Add a double array. */
void cli_json_add_array(cJSON *obj, const char *key, const double *v, int n);
/* Print json (pretty) followed by a newline and delete it. */
int cli_json_print(FILE *out, cJSON *json);
/* "K" and "K_choice" {value, source, target, detail} of cs. */
void cli_json_add_K(cJSON *obj, const cli_system *cs);
/* Describe the system in a few "key: value" lines (K with its source). */
void cli_print_system(FILE *out, const cli_system *cs);
/* The structure line (and the note above the fluid range) of
 * cli_print_system, for commands that print their own system line. */
void cli_print_structure(FILE *out, const cli_system *cs);
/* The single-level baselines (hg_single_level_evaluate) next to work T:
 * the linked cell (cells of the cutoff 2 r_max) and bin (bins of half of
 * it), each with the predicted speed-up, and which is cheaper. */
void cli_print_single_level(FILE *out, double cutoff,
                            const hg_single_level *sl, double T);
/* Per-level table of a cost breakdown. */
void cli_print_levels(FILE *out, const hg_cost *c, double rmin);
/* "work per particle T = T_cd + K T_ca [+ C T_tab] = ..." */
void cli_print_work(FILE *out, const hg_cost *c);
/* "C" and "T_tab" of a model that weighs the grid's tables (C > 0) */
void cli_json_add_tables(cJSON *obj, const hg_cost *c);
/* A byte count with a fitting unit ("512 B", "1.53 kB", "2.1 MB"). */
const char *cli_bytes(double bytes, char *buf, size_t len);

/* ---- commands (argv[0] is the command name) ---- */
typedef struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
} cli_command;

int cmd_evaluate(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_recommend(int argc, char **argv);
/* recommend --trajectory (cmd_trajectory.c) */
int cmd_trajectory(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_decompose(int argc, char **argv);
/* hgridopt run (cmd_run.c; the LAMMPS driver run_lammps.c) */
int cmd_run(int argc, char **argv);

/* Many ranks (cmd_decompose.c, also for recommend --mpi): the
 * decomposition advice for the packing of cs on P ranks (setting: the
 * user's lines or NULL; cutoff_given 0: the largest diameter); *out
 * allocated (free). The table section and JSON members of an advice. */
struct hg_ranks_advice;
int cli_ranks_advise(const cli_system *cs, int P, const char *setting,
                     double cutoff_given, double steps_per_build,
                     int liggghts, struct hg_ranks_advice **out,
                     double *cutghost, double *cutoff_out, hg_err *e);
int cli_ranks_table(FILE *out, const struct hg_ranks_advice *a, long show,
                    int liggghts);
void cli_ranks_json(cJSON *obj, const struct hg_ranks_advice *a);
/* validate, tune and calibrate of an engine that runs a code
 * (cmd_engine.c): kind 0 validate, 1 tune, 2 calibrate. */
int cmd_engine_run(int kind, int argc, char **argv);
/* The engine named by --engine in argv; NULL when none or unknown (the
 * command's own parse then reports it). */
const hg_engine *cli_engine_of_argv(int argc, char **argv);

#endif
