/* cmd_lammps.h - helpers of the lammps engine's answer in recommend and
 * evaluate (cmd_lammps.c). */
#ifndef HG_CMD_LAMMPS_H
#define HG_CMD_LAMMPS_H

#include "cli.h"
#include "hg_lammps.h"

/* A setting as JSON {style, collections, cutoffs} (in words:
 * hg_lammps_setting_text). */
cJSON *lmp_setting_json(const hg_lammps_setting *s);
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
int lmp_load_consts(hg_consts *c, const char **source);

#endif
