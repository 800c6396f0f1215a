/* lammps_engine.h - what the files of the LAMMPS engine share. */
#ifndef HG_LAMMPS_ENGINE_H
#define HG_LAMMPS_ENGINE_H

#include "hg_engine.h"
#include "hg_lammps.h"
#include "process.h"

extern const hg_engine hg_engine_lammps;
/* Whole-run advice (whole_run.c). */
extern const struct hg_run_hooks hg_lammps_run_hooks;

/* --format lammps: the input-script lines of a grid (one level of model
 * lammps-bin: neighbor bin; else multi with the sizes as cutoffs). */
int hg_lammps_write_settings(const hg_engine_settings *in, char **text,
                             hg_err *e);

/* The engine's answer and evaluate hooks (answer.c). */
int hg_lammps_answer(const hg_psd *psd, const hg_system *sys,
                     const hg_model_values *v, hg_engine_answer *out,
                     hg_err *e);
int hg_lammps_evaluate(const hg_psd *psd, const hg_system *sys,
                       const hg_model_values *v, int levels,
                       const double *sizes, hg_engine_answer *out,
                       hg_err *e);

/* calibrate --mpi P (run.c): what a ghost atom costs lmp on o->nprocs
 * ranks (comm_calib.c) on packing p at skin o->skin. */
int hg_lammps_comm_measure(const hg_particles *p,
                           const hg_lammps_run_options *o,
                           hg_code_comm_result *out, hg_err *e);

#endif
