/* run_lines.h - what the engines share for whole-run advice
 * (run_lines.c): the user's lines read back, a frame's pair statistics. */
#ifndef HG_RUN_LINES_H
#define HG_RUN_LINES_H

#include "hg_whole_run.h"

/* lines ("neighbor 0.2 bin; neigh_modify delay 0", ';' or new lines
 * between commands) into s (binsize, collections) and *skin; *multi: the
 * style is multi; *has_coll: collection/interval given. Errors name the
 * word at fault, not whose lines they are (the caller says it). */
int hg_run_lines_parse(const char *lines, hg_run_setting *s, double *skin,
                       int *multi, int *has_coll, hg_err *e);

/* The skin without a neighbor command, by units, as the manuals of
 * LAMMPS and LIGGGHTS give it: 0.3 sigma (lj), 2 Angstrom (real,
 * metal), 0.001 m (si), 0.1 cm (cgs); 0 for other units. */
double hg_run_default_skin(const char *units);

/* Centres counted per frame: a run has many frames, each counted with
 * fewer centres than one snapshot is (hg_snapshot_create_sampled). */
#define HG_RUN_FRAME_CENTRES 600

/* The pair statistics of a frame of a run (full: counted as a --packing
 * file is, for the frame the settings weighed are found on; else with
 * HG_RUN_FRAME_CENTRES centres); NULL when it has fewer than 2 atoms or
 * none could be measured (the frame is then priced as random centres).
 * *nu becomes the local packing fraction when measured. */
/* The contacts of a frame whose statistics are snap (half its
 * coordination times its particles); -1 without snap. */
double hg_run_frame_contacts(const struct hg_snapshot *snap);
struct hg_snapshot *hg_run_frame_snapshot(const hg_particles *p, int full,
                                          double *nu);

/* The bin size of bins of factor cutoffs, as the lines print it and the
 * models price it: 4 significant digits, rounded up (a frame of a dump
 * and of the data file of the same step, whose radii differ in the 7th
 * digit, get the same line). */
double hg_run_bin_size(double factor, double cutoff);

#endif
