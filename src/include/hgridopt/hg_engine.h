/* hg_engine.h - engines: the codes whose contact detection hgridopt
 * advises (the bundled HGrid, LAMMPS, MercuryDPM, LIGGGHTS). Each is one
 * folder src/engines/NAME/ (its table, settings writer, runners,
 * calibration) and one line of the registry (src/engines/registry.c):
 * its cost models, its constants and where they come from, the --format
 * that writes its settings. */
#ifndef HG_ENGINE_H
#define HG_ENGINE_H

#include <stddef.h>

#include "hg_common.h"
#include "hg_consts.h"
#include "hg_grid.h"
#include "hg_model.h"
#include "hg_particles.h"
#include "hg_psd.h"
#include "hg_system.h"

/* The timing of one setting in a batch run of a code (LAMMPS, LIGGGHTS):
 * medians over the alternating repeats. */
typedef struct hg_code_timing {
    double neigh;      /* Neigh seconds per build */
    double neigh_min, neigh_max;
    double pair;       /* Pair seconds per step */
    double neighbours; /* "Total # of neighbors" */
    long builds;       /* per run */
    double nghost_max; /* the code's "Nghost:" max (0: not printed) */
} hg_code_timing;

#ifdef __cplusplus
extern "C" {
#endif

/* ---- running the code: validate, tune and calibrate --engine NAME ---- */

/* What a run of the code is asked to do. The command line fills it from
 * the same options for every engine. */
typedef struct hg_engine_run {
    /* the packings, as the code will read them (calibrate may take
     * several; validate and tune use packings[0]) */
    const hg_particles *const *packings;
    int n_packings;
    /* the system of packings[0] as the models see it (dim, nu, structure,
     * snapshot) and its radii */
    const hg_system *sys;
    const hg_psd *psd;
    const char *program; /* the code's executable (lmp, liggghts) or build
                            folder (MercuryDPM); NULL: the engine's default
                            search (PATH, $HG_MERCURYDPM_DIR) */
    const char *keep;    /* folder to keep inputs and logs in; NULL: temp */
    int nprocs;          /* MPI ranks (1: no mpirun) */
    int steps, warmup, repeats; /* timed steps per setting, untimed steps
                                   before, alternating repeats (medians) */
    double skin;         /* neighbour skin of codes with Verlet lists
                            (<= 0: the engine's default) */
    double budget;       /* tune: wall-clock seconds to spend */
    int max_levels;      /* largest number of levels (collections) tried */
    int store;           /* calibrate: store the fitted constants ... */
    const char *save;    /* ... in this file (NULL: the engine's default
                            calibration file) */
    long atoms;          /* calibrate without packings: atoms of the
                            packings it generates for its own systems */
    long seed;           /* and their seed */
    void (*progress)(int done, int total, void *params);
    void *progress_params;
} hg_engine_run;

/* The defaults of a run of engine g's code: its own steps, warmup and
 * repeats (hg_engine.run_*) where it has them (g NULL: the generic ones). */
struct hg_engine;
void hg_engine_run_default(const struct hg_engine *g, hg_engine_run *r);

/* One measured setting. */
typedef struct hg_engine_point {
    const char *role;    /* "recommended", "default", "tuned", ... */
    int is_default;      /* the code's default setting: the first such
                            point is the report's baseline */
    char setting[256];   /* in words: "multi, 3 collections (cutoffs ...)" */
    char *lines;         /* the settings as the code reads them (owned;
                            may be NULL) */
    int levels;          /* levels or collections (1: one grid) */
    double sizes[16];    /* their cell sizes (cutoffs, bin size) */
    double predicted;    /* the model's seconds per build or step (NaN:
                            no prediction) */
    double measured;     /* median measured seconds per build or step */
    double measured_min, measured_max;
    double other;        /* a second measured time the code reports (LAMMPS:
                            Pair seconds per step); NaN: none */
    double found;        /* neighbours or contacts found (the same for every
                            setting of one packing); NaN: not reported */
    double model_found;  /* the neighbours the model expects (its stored
                            pairs); NaN: the engine's model has none */
} hg_engine_point;

/* What validate, tune or calibrate measured. */
typedef struct hg_engine_report {
    hg_engine_point *points; /* measured settings; validate: the
                                recommended first */
    int n;
    int fastest;          /* index of the fastest point */
    int recommended;      /* index of the model's recommendation (-1) */
    int baseline;         /* index of the code's default setting (-1) */
    const char *unit;     /* what measured means: "Neigh seconds per
                             build", "seconds per step" */
    char program[512];    /* the code run and its version */
    char constants[512];  /* the constants predicting, with their source */
    char fitted[1024];     /* calibrate: the fitted constants in words */
    char saved[4096];     /* calibrate: the file they were stored in ("":
                             not stored) */
    double fit_median_error, fit_max_error; /* calibrate: relative */
    double spearman;      /* rank correlation predicted/measured (NaN) */
    char note[512];       /* what the run left out or decided, in words
                             ("" when nothing) */
    int settings_measured, rounds;
    double seconds;       /* wall time spent */
    /* tune of the bundled HGrid: recommended / fastest in each repeat of
     * the final side-by-side run, its quartiles over ratio_repeats
     * repeats (0: not measured so) */
    int ratio_repeats;
    double ratio_q1, ratio_q3;
    int point_repeats; /* repeats behind the points' medians (0: the
                          run's repeats) */
} hg_engine_report;

/* An empty report: no points, recommended and baseline -1, spearman NaN
 * (what r held before is not read: a hook begins with it). */
void hg_engine_report_init(hg_engine_report *r);
/* Frees what an initialised report holds and empties it. */
void hg_engine_report_clear(hg_engine_report *r);
/* A new zeroed point at the end of r (predicted, other, found NaN);
 * NULL when out of memory (e set). */
hg_engine_point *hg_engine_report_add(hg_engine_report *r, const char *role,
                                      hg_err *e);
/* Sets r->fastest, r->baseline (the first point that is the code's
 * default setting, -1 when none) and r->spearman (rank correlation of the
 * predicted with the measured times over the points that have both; NaN
 * below 3). */
void hg_engine_report_finish(hg_engine_report *r);

/* How an engine answers: what its setting is, so that outputs show it. */
typedef enum hg_answer_kind {
    HG_ANSWER_GRID = 0,   /* cell sizes of the KOL grid models, chosen by
                             hg_recommend (the bundled HGrid, MercuryDPM) */
    HG_ANSWER_COLLECTIONS,/* neighbour collections of the code's own model
                             against its one-grid default (LAMMPS multi
                             and bin) */
    HG_ANSWER_SETTING     /* one setting of the code's own model (LIGGGHTS'
                             bin size) */
} hg_answer_kind;

/* One setting of a code with its predicted cost. */
typedef struct hg_engine_option {
    int levels;         /* levels or collections (0: the one-grid default
                           of a code with collections, LAMMPS' bin) */
    double sizes[16];   /* cell sizes, cutoffs or bin size */
    double seconds;     /* predicted seconds per build (NaN: none) */
    double T;           /* predicted work in the model's units */
    char setting[256];  /* in words */
} hg_engine_option;

#define HG_ENGINE_MAX_OPTIONS 17

/* A code's answer: its own model's best setting (hg_engine.answer) or a
 * given one (hg_engine.evaluate), with the code's default and the other
 * settings weighed, for a simulation of atoms on ranks with skin. */
typedef struct hg_engine_answer {
    const char *model;  /* the model answering (registry name) */
    int levels;         /* as in hg_engine_option */
    double sizes[16];   /* the setting: cell sizes, cutoffs or bin size */
    double T;           /* its predicted work, in the model's units */
    double seconds;     /* predicted seconds per build (NaN: none) */
    double default_seconds; /* the code's default setting (NaN: none) */
    char setting[256];  /* the setting in words */
    /* the best of each number of levels weighed (LAMMPS: options[n] with
     * n collections, options[0] bin; seconds NaN where none) */
    hg_engine_option options[HG_ENGINE_MAX_OPTIONS];
    int n_options;
    double atoms;       /* the simulation the answer is for */
    int ranks;
    double skin;
} hg_engine_answer;

/* The prediction of a KOL grid, for a settings text (hg_export.h). */
struct hg_export_input;

/* What a settings writer of an engine (--format of its code) writes: a
 * grid of the KOL models with its prediction (grid), a code's own answer
 * (answer), or a bare setting (levels and sizes of model). */
typedef struct hg_engine_settings {
    const hg_psd *psd;
    const hg_system *sys;
    const char *model;      /* the model's name ("lammps-multi") */
    hg_algorithm algorithm; /* HGrid: Top-Down or Bottom-Up */
    int levels;             /* levels (collections; 1: one grid) */
    const double *sizes;    /* their cell sizes (LAMMPS: cutoffs;
                               LIGGGHTS: the bin size) */
    double predicted;       /* the model's prediction, in unit */
    const char *unit;       /* "pair checks per particle", "s per build" */
    double skin;            /* neighbour skin (<= 0: the engine's default) */
    double atoms;           /* atoms in the simulation (0: the packing's) */
    int ranks;              /* MPI ranks (0: 1) */
    const char *constants;  /* the constants and their source, one line */
    const char *origin;     /* the command: "recommend", "evaluate" */
    const char *name, *length_unit; /* system name and length unit, or
                                       NULL */
    const char *skin_source; /* where the skin came from, in words (NULL:
                                not said) */
    /* a grid of the KOL models chosen or given, with its prediction and K
     * (NULL: none) */
    const struct hg_export_input *grid;
    /* the code's own answer (NULL: none); evaluated: it was given, not
     * chosen */
    const hg_engine_answer *answer;
    int evaluated;
} hg_engine_settings;

/* K of an engine whose models weigh cell accesses against pair checks
 * (KOL 2014): whose cost it describes, its shipped value and the file of
 * its calibration (hg_K_resolve chooses between them and what the user
 * gives). */
typedef struct hg_engine_K {
    const char *target;      /* the code, in outputs: "bundled HGrid" */
    const char *article;     /* before target in a sentence: "the " or "" */
    int own;                 /* 1: K measured in this code; 0: another
                                engine's K stands for it (shipped, path) */
    const char *shipped_for; /* whose measurement the shipped K is: "the
                                bundled HGrid", "MercuryDPM" */
    double (*shipped)(int dim, const char **where);
    int (*calibration_path)(char *buf, size_t len, hg_err *e);
    /* the cost of a cell of the grid's tables in pair checks (the models'
     * parameter "C"), set beside the engine's own K (NULL: none) */
    double (*C)(int dim, const char **where);
} hg_engine_K;

typedef struct hg_engine {
    const char *name;   /* "hgrid", "lammps": the value of --engine */
    const char *help;   /* one line */
    const char *code;   /* the code in sentences: "LAMMPS" */
    const char *modelled; /* what its models describe: "LAMMPS' neighbor
                             build" */
    const char *const *models; /* its cost models (names in the model
                                  registry, hg_model_find), NULL-terminated */
    const char *settings_format; /* the output format writing its settings
                                    ("lammps"), NULL: the cell sizes of the
                                    table and JSON outputs */
    /* K of its grid models (NULL: they have none) */
    const hg_engine_K *K;
    /* The constants its models read beyond their parameters (seconds per
     * counted unit of the code's build, hg_consts.h), resolved once by the
     * caller (hg_engine_consts) and handed to the models as
     * hg_model_values.consts; NULL when its models read only their
     * parameters. */
    const hg_consts_kind *consts;
    /* many ranks: the code's cost of a ghost atom (ghost_step,
     * ghost_build; NULL: the code runs on one rank only here) */
    const hg_consts_kind *comm;
    /* The settings text of settings_format (comments start with '#' or
     * '//'; caller frees *text). NULL when settings_format is NULL. */
    int (*write_settings)(const hg_engine_settings *in, char **text,
                          hg_err *e);
    /* Where the code can be run here (NULL: it cannot). validate: the
     * model's recommendation against the code's default and neighbouring
     * settings; tune: a measured search from the model's optimum within
     * run->budget; calibrate: measure a set of settings on each packing,
     * fit the engine's constants and store them in run->save. Each
     * begins with hg_engine_report_init(out): what out held is not read
     * or freed; the caller frees the report with hg_engine_report_clear,
     * also after an error. */
    int (*validate)(const hg_engine_run *run, hg_engine_report *out,
                    hg_err *e);
    int (*tune)(const hg_engine_run *run, hg_engine_report *out, hg_err *e);
    int (*calibrate)(const hg_engine_run *run, hg_engine_report *out,
                     hg_err *e);
    /* What its setting is (outputs show each kind in its own terms). */
    hg_answer_kind answer_kind;
    /* Optional: the best setting for psd and sys under the parameter
     * values v (v->consts: the engine's resolved constants; atoms, ranks
     * and skin in units of the smallest diameter: the simulation's) when
     * it is not a grid of cell sizes (NULL: hg_recommend over the
     * engine's models answers; a model may bring its own optimiser). */
    int (*answer)(const hg_psd *psd, const hg_system *sys,
                  const hg_model_values *v, hg_engine_answer *out,
                  hg_err *e);
    /* Optional: the same for the setting given (levels, sizes; levels 0:
     * the code's default), with the default beside it. */
    int (*evaluate)(const hg_psd *psd, const hg_system *sys,
                    const hg_model_values *v, int levels,
                    const double *sizes, hg_engine_answer *out, hg_err *e);
    /* Defaults of a run of the code: timed steps per setting, untimed
     * steps before them, alternating repeats (0: hg_engine_run_default's).
     * A code whose times wander between runs of one setting is measured
     * in many short alternating runs. */
    int run_steps, run_warmup, run_repeats;
    /* Parameter values its models take for this code ("name=value,...",
     * e.g. "whole=0": MercuryDPM's hashed cells are not stretched), set
     * before the user's --param; NULL: none. */
    const char *model_values;
    /* Whole-run advice from a trajectory (hg_whole_run.h: candidate
     * settings, a frame priced, the lines); NULL: not offered. */
    const struct hg_run_hooks *run;
} hg_engine;

/* The constants of engine g (g->consts) for dimension dim: the stored
 * calibration, else the shipped ones, into out, and where they come from
 * into source ("stored calibration PATH", "shipped defaults"; len bytes,
 * may be NULL). HG_EINVAL when g has no constants. */
int hg_engine_consts(const hg_engine *g, int dim, hg_consts *out,
                     char *source, size_t len, hg_err *e);
/* g's constants in one line for help and reports: its K (with C) and where
 * they come from, or its seconds per unit and their source, or "the
 * model's parameters". */
int hg_engine_constants_text(const hg_engine *g, int dim, char *buf,
                             size_t len, hg_err *e);
/* The engine whose K the grid models use in an output of format (a
 * settings format: its engine; table and json: engine): that engine if
 * it has a K, else the default engine (the bundled HGrid). */
const hg_engine *hg_engine_K_of(const hg_engine *engine, const char *format);
/* The engine whose settings format is format; NULL if none. */
const hg_engine *hg_engine_of_format(const char *format);

/* tune of the bundled HGrid (the hgrid engine's hook): from the
 * recommendation (hg_recommend over both algorithms and 1..run->max_levels
 * levels, a grid even where one level is as good), a
 * measured search in this process (grid build plus detection of
 * packings[0] per run->steps detections, candidates alternated over
 * run->repeats): each cell size moved by a factor (1.3, shrinking when no
 * candidate is 2 % faster), the other algorithm, a level added in the
 * widest gap or the smallest dropped, while run->budget lasts; then the
 * one-level grid, the recommendation and the fastest side by side (roles
 * "default", "recommended", "tuned"). */
int hg_hgrid_tune(const hg_engine_run *run, hg_engine_report *out,
                  hg_err *e);

/* The registered engines, in registry order (the first is the default). */
size_t hg_engine_count(void);
const hg_engine *hg_engine_at(size_t i);
/* By name; NULL if unknown. */
const hg_engine *hg_engine_find(const char *name);
/* The first engine declaring the model named model_name; NULL if none. */
const hg_engine *hg_engine_of_model(const char *model_name);

#ifdef __cplusplus
}
#endif
#endif
