/* liggghts_engine.h - what the files of the LIGGGHTS engine share. */
#ifndef HG_LIGGGHTS_ENGINE_H
#define HG_LIGGGHTS_ENGINE_H

#include "hg_engine.h"
#include "hg_liggghts.h"
#include "process.h"

extern const hg_engine hg_engine_liggghts;
/* Whole-run advice (whole_run.c). */
extern const struct hg_run_hooks hg_liggghts_run_hooks;

/* --format liggghts: neighbor SKIN bin and neigh_modify binsize of a
 * one-level grid, with the prediction and the skin's source. */
int hg_liggghts_write_settings(const hg_engine_settings *in, char **text,
                               hg_err *e);

/* calibrate --mpi P (run.c): what a ghost atom costs liggghts on
 * o->nprocs ranks (comm_calib.c) on packing p at skin o->skin. */
int hg_liggghts_comm_measure(const hg_particles *p,
                             const hg_liggghts_run_options *o,
                             hg_code_comm_result *out, hg_err *e);

/* ---- one setting space for a frame and a run (whole_run.c) ---- */
struct hg_run_setting;
/* The bin sizes weighed, by the whole-run answer on its largest frame and
 * by the snapshot answer on its frame: LIGGGHTS' default (half the
 * cutoff), one cutoff, and the model's best (hg_liggghts_optimise, as a
 * multiple of the cutoff, when 5 % off both), on psd and sys at
 * sys->skin. psd NULL: the first two. Returns the count (<= cap) or
 * -status. */
int hg_liggghts_weighed_settings(const hg_psd *psd,
                                 const hg_liggghts_system *sys,
                                 const hg_consts *build,
                                 struct hg_run_setting *out, int cap,
                                 hg_err *e);
/* Neigh seconds per build of s at skin (sys->skin is set to it) and the
 * pairs stored (neighbours may be NULL). */
int hg_liggghts_setting_neigh(const hg_psd *psd, hg_liggghts_system *sys,
                              const struct hg_run_setting *s, double skin,
                              const hg_consts *build, double *neigh,
                              double *neighbours, hg_err *e);

#endif
