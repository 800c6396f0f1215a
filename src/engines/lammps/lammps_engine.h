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

/* ---- one setting space for a frame and a run (whole_run.c) ---- */
struct hg_run_setting;
/* The settings weighed, by the whole-run answer on its largest frame and
 * by the snapshot answer (hg_lammps_answer) on its frame: bin (LAMMPS'
 * default bins of half the cutoff), bin with bins of one cutoff
 * (neigh_modify binsize), multi with 2 and 3 collections of geometric
 * cutoffs and the model's best multi with 1..4 collections (on psd and
 * sys at sys->skin; dmax the diameter LAMMPS' cutoff is set from).
 * psd NULL: the two bin settings. Returns the count (<= cap) or -status. */
int hg_lammps_weighed_settings(const hg_psd *psd,
                               const hg_lammps_system *sys, double dmax,
                               const hg_consts *build,
                               struct hg_run_setting *out, int cap,
                               hg_err *e);
/* Neigh seconds per build of s at skin (sys->skin is set to it) and the
 * pairs stored (neighbours may be NULL). */
int hg_lammps_setting_neigh(const hg_psd *psd, hg_lammps_system *sys,
                            const struct hg_run_setting *s, double skin,
                            const hg_consts *build, double *neigh,
                            double *neighbours, hg_err *e);
/* s at skin as LAMMPS' setting (bins of a factor of the cutoff dmax +
 * skin made absolute). */
void hg_lammps_run_setting_at(const struct hg_run_setting *s, double skin,
                              double dmax, hg_lammps_setting *ls);

#endif
