/* hg_advise.h - the advice of hgridopt in library calls.
 *
 * 1. hg_case_resolve: what the user gives, as text (a particle file, a
 *    system file or a distribution, the dimension, the packing fraction,
 *    the structure, K, the neighbour skin, the engine and the output
 *    format), resolved into the case the models read: the distribution,
 *    the system with its measured pair statistics, K and the engine's
 *    constants with where each came from, the skin, the boundary of the
 *    particle file and why, and notes for the user.
 * 2. hg_advise: the case, an engine and the options of recommend or
 *    evaluate in; the answer out: the engine that answers and its kind of
 *    setting (cell sizes of grid models, LAMMPS collections, one setting of
 *    a code's own model), the setting with its predicted cost and the
 *    baselines, and the settings text of the output format.
 *
 * The command line only parses options into these calls and renders what
 * they return. */
#ifndef HG_ADVISE_H
#define HG_ADVISE_H

#include <stddef.h>

#include "hg_calib.h"
#include "hg_common.h"
#include "hg_consts.h"
#include "hg_engine.h"
#include "hg_io.h"
#include "hg_model.h"
#include "hg_opt.h"
#include "hg_particles.h"
#include "hg_psd.h"
#include "hg_snapshot.h"
#include "hg_sysfile.h"
#include "hg_system.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the case ---- */

/* What the user gives, as given (NULL: not given). */
typedef struct hg_case_input {
    const char *system_path;  /* a system file (JSON) */
    const char *packing_path; /* a particle file ("-": standard input) */
    const char *psd_spec;     /* a distribution, FAMILY:KEY=VALUE,... */
    const char *dim, *nu, *structure, *K, *skin;
    const char *boundary;     /* of the particle file: "p p f" */
    const char *frame;        /* first|last|N|-N|step=S */
    const char *type_radius;  /* T=R,... for dumps without radii */
    const char *engine;       /* --engine */
    const char *model;        /* --model (a name; NULL: none named) */
    const char *format;       /* the output: table, json, csv or an
                                 engine's settings format */
    int need_nu;              /* the packing fraction is required */
    /* progress of reading and measuring a particle file (may be NULL) */
    hg_progress_fn progress;
    void *progress_params;
} hg_case_input;

typedef enum hg_boundary_source {
    HG_BOUNDARY_FILE,     /* the file states it */
    HG_BOUNDARY_GIVEN,    /* --boundary */
    HG_BOUNDARY_INFERRED, /* from the gaps the spheres leave */
    HG_BOUNDARY_ASSUMED   /* the format's default, said */
} hg_boundary_source;

#define HG_CASE_MAX_NOTES 4

typedef struct hg_case {
    hg_sysfile file;      /* zero if no system file */
    hg_psd *psd;
    hg_system sys;
    double K;             /* weight of cell accesses (model parameter K) */
    hg_model_values values; /* model parameters (K, C, the engine's and
                               the user's); .consts points at consts */
    hg_consts consts;     /* the constants of the engine the output
                             describes (hg_engine.consts), resolved once */
    int has_consts;
    char consts_source[4200]; /* where they come from ("" when none) */
    int K_auto;           /* K came from a calibration file */
    hg_K_choice Kc;       /* K and where it came from (hg_K_resolve) */
    const char *name;     /* system name or NULL (owned by file) */
    const char *unit;     /* length unit or NULL (owned by file) */
    long particles;       /* of the particle or system file; 0: not said */
    double skin;          /* the neighbour skin the settings assume:
                             given, else hgridopt's default */
    char skin_why[200];   /* where skin came from */
    int skin_given;       /* --skin was given */
    char structure_why[256]; /* where sys.structure came from */
    size_t coincident;    /* particles of the file whose centre equals
                             another's (hg_particles_coincident) */
    size_t coincident_positions; /* the distinct centres they share */
    int has_packing;      /* a particle file was read (packing, owned) */
    hg_particles packing;
    hg_io_info file_info; /* what the particle file said about itself */
    hg_boundary_source boundary_source;
    char boundary_why[768];    /* in words, with the --boundary to give */
    char boundary_axes[3][12]; /* per axis: file, given, inferred, assumed */
    double boundary_gap[3];    /* the gap the spheres leave per axis */
    hg_snapshot *snapshot; /* of the particle file: its pair statistics,
                              owned; sys.snapshot points here */
    /* what the user should know about the reading (the box of a file
     * that gives none, an assumed boundary, an option not used) */
    char notes[HG_CASE_MAX_NOTES][800];
    int n_notes;
} hg_case;

/* Resolve in into c (cleared first; free with hg_case_clear, also after
 * an error). Errors name the option or the file and the value; e->data
 * says when a file's content is at fault. The notes are filled as far as
 * the reading went, also on error. */
int hg_case_resolve(const hg_case_input *in, hg_case *c, hg_err *e);
/* --type-radius T=R,...: *radius[t - 1] the radius of type t (*n types;
 * caller frees), one message naming the entry at fault. */
int hg_type_radius_parse(const char *text, double **radius, size_t *n,
                         hg_err *e);
void hg_case_clear(hg_case *c);

/* The note for a particle file path that gives no box (the bounding box
 * of its spheres with walls is taken), with how to give one. */
void hg_box_note(const char *path, const hg_particles *p, char *buf,
                 size_t len);

/* The engine whose constants and parameter values the models take for
 * in: --engine, else the engine declaring --model's model, else the
 * engine of the output format; NULL: none (the default engine's models
 * read only their parameters). */
const hg_engine *hg_case_engine(const hg_case_input *in);

/* --param NAME=VALUE[,...] for the models evaluated (models[0..n-1]) into
 * c->values: each name declared by one of them, each value a finite
 * number in its range; K is refused (--K); skin (in units of the smallest
 * diameter) sets c->skin. One message naming the parameter. */
int hg_case_params(hg_case *c, const char *text,
                   const hg_model *const *models, size_t n, hg_err *e);
/* The size of the simulation for the models that declare atoms and ranks
 * (a code's build time): atoms = atoms (> 0), else the particle or system
 * file's particles; ranks = ranks (> 0); values given with --param win
 * (atoms together with --param atoms is refused). */
int hg_case_size_params(hg_case *c, const hg_model *const *models, size_t n,
                        long atoms, long ranks, hg_err *e);

/* The cost model of --model NAME or --algorithm A (a shorthand for
 * hgrid-A). words: other values accepted (NULL-terminated; may be NULL),
 * a match returned in *word with *model NULL. Neither given: *model =
 * dflt, *word = NULL. The message names the value and lists the names. */
int hg_model_choose(const char *model_text, const char *algorithm_text,
                    const char *const *words, const hg_model *dflt,
                    const hg_model **model, const char **word, hg_err *e);

/* ---- the advice ---- */

/* The options of recommend and evaluate, as given (NULL or 0: not given). */
typedef struct hg_advise_options {
    const char *origin;        /* "recommend" or "evaluate" */
    const char *model_text;    /* --model: a name, or auto, lammps, kol */
    const char *algorithm_text;/* --algorithm top-down|bottom-up */
    hg_recommend_options recommend; /* recipe, q, levels, tolerance (the
                                       models are chosen here) */
    const char *sizes_text;    /* evaluate: --sizes s1,...,sL */
    const char *params;        /* --param NAME=VALUE,... */
    long atoms, ranks;         /* --atoms, --mpi (0: not given) */
    int plot;                  /* a figure of the answer is asked */
} hg_advise_options;

/* What the advice is: the kinds of answer of hg_answer_kind, and the cost
 * of a model for sizes given (evaluate). */
typedef enum hg_advice_kind {
    HG_ADVICE_GRID,        /* rec: hg_recommend over grid models */
    HG_ADVICE_COLLECTIONS, /* answer: a code's collections (LAMMPS) */
    HG_ADVICE_SETTING,     /* answer: one setting of a code's model
                              (LIGGGHTS), with rec when its models were
                              searched by hg_recommend */
    HG_ADVICE_COST         /* cost: a model evaluated for the sizes given */
} hg_advice_kind;

#define HG_ADVICE_MAX_BASELINES 4

typedef struct hg_advice {
    hg_advice_kind kind;
    const hg_engine *engine;  /* the engine answering */
    const hg_engine *writer;  /* the engine whose settings format the
                                 output is (NULL: table, json) */
    const hg_model *model;    /* the model answering (NULL for a code's
                                 collections) */
    int has_rec;
    hg_recommendation rec;    /* GRID, and SETTING searched */
    hg_engine_answer answer;  /* COLLECTIONS, SETTING */
    /* COST: the model's cost for the sizes (sizes[0..n_sizes-1], none for
     * a one-level model: its cutoff), and the baselines in its units: the
     * linked cell and bin of the bundled HGrid (has_single_level) for the
     * KOL models, else the one-level models of its own engine */
    hg_cost cost;
    int has_cost;
    double *sizes;
    int n_sizes;
    hg_single_level single_level;
    int has_single_level;
    const hg_model *baseline_model[HG_ADVICE_MAX_BASELINES];
    double baseline_T[HG_ADVICE_MAX_BASELINES];
    int n_baselines;
    double atoms;             /* the simulation the models priced */
    int ranks;
    char *settings;           /* the settings text: of the output format,
                                 or of the answering engine for table and
                                 json (NULL: none); owned */
    int no_K;                 /* the model answering has no K */
} hg_advice;

/* Resolve the case of in (hg_case_resolve; c is the caller's, cleared
 * first: free with hg_case_clear) and answer it for the engine the output
 * describes: --engine, else the engine of a code's own model named
 * (lammps-multi, liggghts-bin, the word lammps), else the engine of the
 * output format, else the default engine. The options are checked first
 * (a model of another engine, a format or figure the engine cannot give
 * are refused before anything is read). a is cleared first: free with
 * hg_advice_clear, also after an error. */
int hg_advise(const hg_case_input *in, const hg_advise_options *o,
              hg_case *c, hg_advice *a, hg_err *e);
void hg_advice_clear(hg_advice *a);

#ifdef __cplusplus
}
#endif
#endif
