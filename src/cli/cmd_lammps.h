/* cmd_lammps.h - options and helpers shared by cmd_lammps.c (calibrate
 * --engine lammps) and cmd_tune.c (validate --engine lammps, tune). */
#ifndef HG_CMD_LAMMPS_H
#define HG_CMD_LAMMPS_H

#include "cli.h"
#include "hg_lammps.h"

typedef struct lmp_opts {
    const char *lmp, *keep;
    long mpi, steps, repeats, n, seed, max_coll;
    double skin, budget;
    const char *packings, *file; /* calibrate */
    int save;
} lmp_opts;

#define LMP_RUN_OPTIONS                                                     \
    CLI_STR("lmp", lmp_opts, lmp),                                          \
        CLI_LONG("mpi", lmp_opts, mpi, 1, 1024),                            \
        CLI_STR("keep", lmp_opts, keep),                                    \
        CLI_LONG("steps", lmp_opts, steps, 1, 100000),                      \
        CLI_LONG("repeats", lmp_opts, repeats, 1, 99),                      \
        CLI_LONG("n", lmp_opts, n, 100, 100000000),                         \
        CLI_LONG("seed", lmp_opts, seed, 0, 2147483647L),                   \
        CLI_DOUBLE("skin", lmp_opts, skin, CLI_POSITIVE)


/* Help text of the LMP_RUN_OPTIONS. */
extern const char lmp_run_help[];
/* Output formats of calibrate and validate: table, json. */
extern const char *const lmp_table_json[];
/* Column header of lmp_print_point. */
extern const char lmp_point_header[];

/* Run options of lo with neighbor skin skin (progress on a tty). */
void lmp_run_options(const lmp_opts *lo, double skin,
                     hg_lammps_run_options *o);
void lmp_opts_default(lmp_opts *o);
/* An RSA packing of n atoms (periodic). */
int lmp_make_packing(const hg_psd *psd, int dim, double nu, long n,
                     long seed, hg_particles *p, hg_err *e);
cJSON *lmp_point_json(const hg_lammps_point *p);
/* One row under lmp_point_header; bin: the bin setting's seconds. */
void lmp_print_point(FILE *f, const char *label, const hg_lammps_point *p,
                     double bin);
/* A setting as JSON {style, collections, cutoffs} and in words ("bin",
 * "multi with 2 collections (cutoffs 11.9, 40)"). */
cJSON *lmp_setting_json(const hg_lammps_setting *s);
void lmp_setting_text(const hg_lammps_setting *s, char *buf, size_t len);
/* The system lines of the lammps engine's tables (engine and constants,
 * distribution, radii, dim, nu, atoms, ranks, skin, structure), and the
 * same as the opening keys of its JSON documents (engine "lammps"). */
void lmp_print_system(FILE *out, const cli_system *cs,
                      const hg_lammps_system *sys, const char *consts_source);
cJSON *lmp_json_document(const char *schema, const cli_system *cs,
                         const hg_lammps_system *sys,
                         const char *consts_source);
/* The lines of text that are not comments (#): printed, or as a string
 * array under key. */
void lmp_print_lines(FILE *out, const char *text);
void lmp_json_add_lines(cJSON *obj, const char *key, const char *text);
/* The LAMMPS model's parameters given with --param (cs->values: atoms,
 * ranks, skin in units of the smallest diameter) over what sys holds. */
void lmp_system_params(const cli_system *cs, hg_lammps_system *sys);
/* The LAMMPS model's system for cs: dim, nu, structure and snapshot;
 * atoms (> 0, else the packing's, the system file's, else 50000), ranks,
 * skin (--skin, else hg_export_default_skin); then lmp_system_params. */
void lmp_system_from_cli(const cli_system *cs, long atoms, long ranks,
                         hg_lammps_system *sys);
/* Model constants: the stored calibration, else the shipped defaults. */
int lmp_load_consts(hg_lammps_consts *c, const char **source);

#endif
