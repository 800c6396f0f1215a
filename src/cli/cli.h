/* cli.h - shared pieces of the hgridopt command-line tool: exit codes,
 * diagnostics, the system options every command takes, output helpers.
 * Layering: cmd_*.c parse arguments into option structs, call the library,
 * and print; only the CLI chooses exit codes. */
#ifndef HG_CLI_H
#define HG_CLI_H

#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdio.h>

#include "hgridopt.h"
#include "hg_io.h"
#include "hg_sysfile.h"

/* Exit codes. */
enum { CLI_OK = 0, CLI_EDATA = 1, CLI_EUSAGE = 2 };

/* One command of the tool. */
typedef struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} cli_command;

/* "hgridopt: <message>" on stderr (one line). */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Print e's message and return the exit code for status: CLI_EDATA for
 * problems with file contents or numerics, CLI_EUSAGE otherwise. from_file
 * says whether the failing input came from a file. */
int cli_fail(const hg_err *e, int status, int from_file);
/* Report what getopt_long (optstring ":") returned for a bad option: c is
 * ':' for a missing value, '?' for an unknown option; arg = argv[optind-1]. */
int cli_bad_option(const char *cmd, int c, const char *arg);

/* ---- system options: --psd --system --dim --nu --K ---- */

enum {
    CLI_OPT_PSD = 1000,
    CLI_OPT_SYSTEM,
    CLI_OPT_DIM,
    CLI_OPT_NU,
    CLI_OPT_K,
    CLI_OPT_FORMAT,
    CLI_OPT_OUTPUT,
    CLI_OPT_HELP,
    CLI_OPT_PACKING,
    CLI_OPT_FIRST_COMMAND /* commands number their own options from here */
};

#define CLI_SYSTEM_LONG_OPTIONS                                             \
    {"psd", required_argument, NULL, CLI_OPT_PSD},                          \
        {"system", required_argument, NULL, CLI_OPT_SYSTEM},                \
        {"dim", required_argument, NULL, CLI_OPT_DIM},                      \
        {"nu", required_argument, NULL, CLI_OPT_NU},                        \
        {"K", required_argument, NULL, CLI_OPT_K},                          \
        {"format", required_argument, NULL, CLI_OPT_FORMAT},                \
        {"output", required_argument, NULL, CLI_OPT_OUTPUT},                \
        {"help", no_argument, NULL, CLI_OPT_HELP},                          \
        {"packing", required_argument, NULL, CLI_OPT_PACKING}

/* Help text for the system options (for the commands' --help). */
extern const char cli_system_help[];

typedef struct cli_system {
    /* as given */
    const char *psd_spec;
    const char *system_path;
    const char *packing_path;
    const char *dim_text, *nu_text, *K_text;
    const char *format;
    const char *output;
    int help;
    /* resolved by cli_system_resolve */
    hg_sysfile file;    /* zero if no --system */
    hg_psd *psd;
    hg_system sys;
    double K;           /* weight of cell accesses (model parameter "K") */
    hg_model_values values; /* model parameters as given (K) */
    int K_auto;         /* K came from a calibration ("--K auto") */
    char *name;         /* system name or NULL */
    char *unit;         /* length unit or NULL */
    long particles;     /* 0 if not given */
    double export_skin; /* --skin for the lammps format; 0 = default */
    int has_packing;    /* --packing: the particles read, owned */
    hg_particles packing;
} cli_system;

/* After a command's getopt loop: prints the help (--help), rejects a
 * leftover argument and a --format not in formats (NULL-terminated; NULL:
 * no check). Returns 1 when the command must stop now with exit code *rc,
 * else 0 with *format = --format or formats[0]. */
int cli_options_done(const char *cmd, const cli_system *cs, int argc,
                     char **argv, void (*help)(FILE *out),
                     const char *const *formats, const char **format,
                     int *rc);

/* Handle a common option; returns 1 if opt was one of them. */
int cli_system_option(cli_system *cs, int opt, const char *arg);
/* Load the system file (if any), apply command-line overrides, validate
 * and create the distribution. need_nu: nu is required. Returns an exit
 * code (CLI_OK on success); prints the error itself. */
int cli_system_resolve(cli_system *cs, int need_nu);
void cli_system_clear(cli_system *cs);

/* Parse "a,b,c" into a new array of finite numbers (caller frees). */
int cli_parse_list(const char *text, const char *field, double **out,
                   int *n, hg_err *e);

/* Open --output (or stdout when NULL or "-"); prints errors. */
FILE *cli_open_output(const char *path);
int cli_close_output(FILE *f, const char *path);
/* Check --format against a NULL-terminated list; prints the error. */
int cli_check_format(const char *cmd, const char *format,
                     const char *const *allowed);

/* ---- output helpers shared by commands ---- */

/* Add the per-level array of a cost breakdown (keys as in the evaluation
 * schema) to obj under "per_level". */
void cli_json_add_per_level(cJSON *obj, const hg_cost *c);
/* Add a double array. */
void cli_json_add_array(cJSON *obj, const char *key, const double *v, int n);
/* Print json (pretty) followed by a newline and delete it. */
int cli_json_print(FILE *out, cJSON *json);
/* Describe the system in a few "key: value" lines. */
void cli_print_system(FILE *out, const cli_system *cs);
/* Per-level table of a cost breakdown. */
void cli_print_levels(FILE *out, const hg_cost *c, double rmin,
                      const char *unit);

/* Commands. */
int cmd_evaluate(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_recommend(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
