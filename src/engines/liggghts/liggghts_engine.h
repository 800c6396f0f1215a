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

#endif
