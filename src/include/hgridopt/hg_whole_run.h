/* hg_whole_run.h - the neighbour setting for a whole run, from its
 * trajectory (`hgridopt recommend --trajectory`).
 *
 * A run pays for its neighbour lists in every step: a build costs the
 * code's Neigh time of the arrangement at that moment, the builds come as
 * often as the fastest atom crosses half the skin, and the pair loop goes
 * over every stored pair, which a larger skin makes more. Per step:
 *
 *   cost(setting, skin) = builds per step (skin) x Neigh seconds per
 *                         build (setting, skin, frame)
 *                       + Pair seconds per step (stored pairs (skin))
 *
 * builds: counted in whole steps as the code checks them, a build at the
 * first step that takes the displacement since the last over skin / 2
 * (a steady motion u: every floor(skin / 2 / u) + 1 steps), the
 * displacement carried from frame to frame; u the largest displacement
 * of an atom per step: between two frames, measured from the frames (the
 * atoms joined by id) or, with velocities and the timestep, the largest
 * speed times the timestep (whichever is larger; displacements between
 * frames far apart understate it). Neigh per build and the stored pairs
 * come from the engine's model of its build on each measured frame (its
 * radii, box and measured pair statistics) with the engine's constants;
 * the Pair cost per stored pair from `calibrate --engine ENGINE`.
 *
 * Every frame weighs the steps it stands for (half the gap to each
 * neighbour); the answer is the setting and skin of least total over the
 * run, and where splitting the run into phases saves more than a
 * threshold, a schedule: the steps of each phase and its lines.
 *
 * With the code's log of the run that wrote the trajectory (--log), the
 * measurement wins: the user's lines and timestep are read from it, and
 * the model's Pair per step, Neigh per build and builds at the user's
 * setting are scaled to what the log measured, for every setting and
 * skin alike; the log's time outside Neigh and Pair stands beside every
 * setting, so each is predicted as a Loop time. Where the least total
 * is not at least a margin of the loop below the user's own lines, the
 * answer keeps them. */
#ifndef HG_WHOLE_RUN_H
#define HG_WHOLE_RUN_H

#include <stddef.h>
#include <stdio.h> /* FILE: hg_run_log_read_stream */

#include "hg_common.h"
#include "hg_consts.h"
#include "hg_io.h"
#include "hg_particles.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HG_RUN_MAX_CUTS 16
#define HG_RUN_MAX_CANDIDATES 16
#define HG_RUN_MAX_SKINS 48
#define HG_RUN_MAX_SEGMENTS 4
#define HG_RUN_MAX_NOTES 16
#define HG_RUN_MAX_DECOMPS 12

/* One setting of a code's neighbour build (the engine reads it). */
typedef struct hg_run_setting {
    int ncoll;                  /* 0: bin; n: multi with n collections */
    double cut[HG_RUN_MAX_CUTS];/* multi: the collections' cutoffs */
    double binsize;             /* bin: > 0 a fixed bin size; 0 the
                                   code's default */
    double bin_factor;          /* bin: > 0 bins of this many cutoffs
                                   (the largest diameter plus the skin,
                                   whatever the skin) */
    char name[96];              /* in words */
} hg_run_setting;

struct hg_run_frame;

/* What the log of a run of a LAMMPS-like code (LAMMPS' log.lammps,
 * LIGGGHTS' log.liggghts) measured, summed over its runs. */
typedef struct hg_run_log {
    char code[32];          /* the banner's first word: LAMMPS, LIGGGHTS */
    int runs;               /* "Loop time of" lines */
    int procs;              /* of the first run */
    long long steps;        /* summed over the runs */
    double loop, pair, neigh; /* seconds, summed (the average over ranks) */
    double output;          /* the Output row (LIGGGHTS: Outpt): dumps and
                               thermo, the trajectory's dump among them */
    long long builds, dangerous;
    double cutoff;          /* the first "master list distance cutoff = X"
                               (LAMMPS' pair cutoff plus skin; 0: none) */
    double timestep;        /* the last "timestep X" before the first run
                               (0: none echoed) */
    char lines[1024];       /* the neighbor, neigh_modify and comm_modify
                               commands echoed before the first run, one a
                               line ("" : none echoed) */
    int lines_changed;      /* a neighbor or neigh_modify command echoed
                               after the first run */
    char units[16];         /* the units echoed ("" : none) */
    int echoed;             /* a run command was echoed before the first
                               run (0: the log holds no commands, -echo
                               none) */
    size_t max_atoms;       /* the most atoms of a run */
    int mpi;                /* MPI ranks of the first run ("with N MPI
                               tasks"; else its procs) */
    double pair_max, neigh_max; /* the busiest rank's seconds, summed (the
                               average where the log has no max) */
    double comm;            /* the Comm row, average over ranks, summed */
    double comm_min;        /* its least rank's (the busiest rank waits
                               least in communication) */
    double nlocal_ave, nlocal_max, nghost_ave, nghost_max; /* of the last
                               run's end (LAMMPS' Nlocal and Nghost) */
    char decomp[512];       /* processors, balance, fix ... balance and
                               comm_style commands echoed before the first
                               run, one a line */
    int decomp_changed;     /* one of them echoed after the first run */
    int untimed;            /* runs of steps without a Pair or a Neigh row
                               (their timing table not printed: LAMMPS'
                               timer loop) */
    long long untimed_line; /* the first one's "Loop time of" line */
} hg_run_log;

/* Read path: errors name the file and what is missing (no "Loop time
 * of" line: a log of a run that did not finish, or not a log) or the line
 * and the value no run prints (a time not finite, negative or above the
 * run's Loop time, a negative count, sums beyond 64 bits, binary data). */
int hg_run_log_read(const char *path, hg_run_log *log, hg_err *e);
/* The same from the open stream f, named name in the messages (f stays
 * the caller's to close). */
int hg_run_log_read_stream(FILE *f, const char *name, hg_run_log *log,
                           hg_err *e);

/* What an engine gives for whole-run advice (hg_engine.run). */
typedef struct hg_run_hooks {
    const hg_consts_kind *pair_kind; /* Pair seconds per step: c[0] per
                                  listed pair, c[1] per atom, as
                                  hg_pair_fit fits them (the model's
                                  scaling to a log reads c[1]) */
    const char *log_code;      /* the first word of the code's log */
    /* The skin the code takes without a neighbor command, for units
     * ("lj", "si", ...; 0: unknown units). */
    double (*default_skin)(const char *units);
    /* The settings worth pricing for a run whose largest diameter is
     * dmax, the largest frame rep, at skin: out[0..cap-1]; returns the
     * count or -status. */
    int (*candidates)(const hg_particles *rep, double dmax, double skin,
                      const hg_consts *build, hg_run_setting *out, int cap,
                      hg_err *e);
    /* The user's lines ("neighbor 0.2 bin" ...) as a setting and skin.
     * Errors say what is wrong, not whose lines they are (--setting or
     * the log's: the caller adds it). */
    int (*parse)(const char *lines, double dmax, hg_run_setting *s,
                 double *skin, hg_err *e);
    /* A frame as the model sees it (dmax: the cutoff's diameter of the
     * run); NULL *frame for a frame without atoms (it costs nothing). */
    int (*frame_open)(const hg_particles *p, double dmax,
                      struct hg_run_frame **frame, hg_err *e);
    void (*frame_free)(struct hg_run_frame *frame);
    /* Neigh seconds per build of s at skin, and Pair seconds per step. */
    int (*frame_cost)(struct hg_run_frame *frame, const hg_run_setting *s,
                      double skin, const hg_consts *build,
                      const hg_consts *pair, double *neigh, double *pair_s,
                      hg_err *e);
    /* The frame's contacts (pairs whose centres are at most r_i + r_j
     * apart, as its pair statistics counted them); < 0: not counted.
     * May be NULL. */
    double (*frame_contacts)(const struct hg_run_frame *frame);
    /* The input-script lines of s at skin (text freed by the caller);
     * full: also the lines a phase of a schedule needs to undo the one
     * before (the default bin size). */
    int (*lines)(const hg_run_setting *s, double skin, double dmax, int full,
                 char **text, hg_err *e);
} hg_run_hooks;

struct hg_engine;

/* The model scaled to a code's log (hg_run_advice's scale_* and
 * pair_per_atom), to price another stretch of the same run with. */
typedef struct hg_run_scales {
    double pair, neigh, builds; /* measured / model */
    double pair_excess;         /* seconds per atom (per contact) and step */
    int per_contact;
} hg_run_scales;

typedef struct hg_run_input {
    const char *const *paths;  /* the dumps of one run, in order */
    int n_paths;
    const struct hg_engine *engine; /* with run hooks (lammps) */
    hg_io_options io;          /* type radii for dumps without them */
    double skin;               /* > 0: kept (--skin S); 0: chosen */
    const char *setting;       /* the user's lines; NULL: none given */
    double timestep;           /* > 0: with velocities, the speeds */
    const hg_consts *build, *pair; /* NULL: the engine's (stored, else
                                      shipped) */
    int max_frames;            /* frames measured at most (0: 500) */
    int max_segments;          /* phases of a schedule (0: 3) */
    double schedule_gain;      /* a schedule must save more (0: 0.10) */
    const char *log;           /* the code's log of the run that wrote the
                                  trajectory; NULL: none */
    double keep_margin;        /* the answer keeps the user's lines unless
                                  it saves this share of the predicted
                                  loop (0: 0.05; < 0: never kept) */
    int mpi;                   /* MPI ranks the advice is for (0: the
                                  log's, else 1); > 1 prices each step as
                                  its slowest rank (hg_ranks.h) and adds
                                  the decomposition to the answer */
    const char *decomposition; /* the user's processors / balance /
                                  comm_style lines (NULL: the log's echoed
                                  ones, else LAMMPS' default grid) */
    int engine_balance;        /* the code has balance and fix balance
                                  (LAMMPS; 0: LIGGGHTS 3.8, grids only) */
    int own_decomposition_only; /* mpi > 1: price the user's decomposition
                                  only (no other grid, no fix balance
                                  added, no rcb): the choice is of the
                                  neighbor lines on it */
    const hg_run_scales *scales; /* one rank, without a log: the model
                                  scaled by these (NULL: unscaled) */
    int multi_only;            /* weigh multi settings only (and the
                                  user's lines): the code cannot leave
                                  multi (hg_live_options.multi_only) */
    int own_only;              /* price the user's lines (setting) alone:
                                  no other setting weighed, the answer
                                  is theirs (their price, for less) */
    hg_progress_fn progress;
    void *progress_params;
} hg_run_input;

/* A decomposition over the whole run (mpi > 1): its lines and, at the
 * answer's neighbor setting for it, the predicted loop. */
typedef struct hg_run_decomp {
    char name[96];
    char lines[320];
    double seconds;         /* predicted Neigh + Pair (+ communication) of
                               the slowest rank over the run, at its best
                               setting and skin */
    double loop;            /* seconds + the log's rest (0 without a log) */
    double atoms_ratio;     /* busiest rank's atoms / the average, mean
                               over the priced frames (the answer's
                               skin) */
    double ghosts_ratio;    /* busiest rank's ghosts / its atoms, mean */
    double last_atoms_max, last_atoms_ave; /* the last priced frame */
    double last_ghosts_max, last_ghosts_ave;
    int candidate;          /* its best neighbor setting */
    double skin;
} hg_run_decomp;

/* A setting at a skin over the whole run or a phase of it. */
typedef struct hg_run_choice {
    int candidate;          /* index into hg_run_advice.candidates */
    double skin;
    double seconds;         /* predicted Neigh + Pair seconds */
    double neigh, pair;     /* the two parts */
    double builds;          /* predicted neighbour-list builds */
    double steps_every_step;/* steps whose atoms move half the skin in
                               one step (a build every step: LAMMPS calls
                               them dangerous) */
} hg_run_choice;

typedef struct hg_run_segment {
    long long from, to;     /* steps */
    hg_run_choice choice;
    char *lines;            /* owned: the neighbor lines, then (decomp >=
                               0) the decomposition's */
    int decomp;             /* many ranks: its row of decomps when the
                               schedule changes the decomposition (-1:
                               the answer's throughout) */
} hg_run_segment;

typedef struct hg_run_advice {
    /* the run */
    size_t frames, measured;    /* read, priced */
    int files;
    long long first_step, last_step, max_gap; /* steps */
    size_t max_atoms;
    int dim;
    double dmin, dmax;          /* diameters over the run */
    double max_motion;          /* largest displacement per step */
    long long max_motion_step;  /* where */
    int motion_from_speed;      /* speeds x timestep raised it somewhere */
    int has_velocities;
    double skin_min;            /* the smallest skin offered: 4 x the
                                   largest motion per step */
    /* what was priced */
    int n_candidates;
    hg_run_setting candidates[HG_RUN_MAX_CANDIDATES];
    int n_skins;
    double skins[HG_RUN_MAX_SKINS];
    hg_run_choice per_candidate[HG_RUN_MAX_CANDIDATES]; /* at its best
                                   skin (or the skin given) */
    /* the answer and its comparisons */
    hg_run_choice best;
    char *lines;                /* of best (owned) */
    int has_own;
    hg_run_setting own_setting;
    hg_run_choice own;          /* the user's (or the code's default) */
    char own_why[160];
    char *own_lines;
    hg_run_choice bin;          /* bin with default bins at best's skin */
    int n_segments;             /* 0: one setting is within the gain */
    hg_run_segment segments[HG_RUN_MAX_SEGMENTS];
    double schedule_seconds;
    double sampling_change;     /* relative change of best's total when
                                   every other priced frame is dropped */
    int kept_own;               /* the answer is the user's lines: nothing
                                   saves keep_margin of the loop */
    double best_any;            /* the least total of any setting (the
                                   answer's unless kept_own) */
    /* the log (has_log): what it measured, and the model scaled to it */
    int has_log;
    hg_run_log log;
    double scale_pair, scale_neigh, scale_builds; /* measured / model at
                                   the user's setting (1 without a log) */
    double pair_per_atom;       /* a log's Pair above the model's at the
                                   user's setting: the excess, seconds per
                                   atom and step (per contact and step
                                   where pair_per_contact), added to every
                                   setting's Pair (scale_pair then 1); 0 */
    int pair_per_contact;
    double pair_log_ratio;      /* the log's Pair over the model's at the
                                   user's setting, unscaled (1 without a
                                   log): far from 1, the constants were
                                   fitted on another pair style */
    double rest;                /* the log's seconds outside Neigh and
                                   Pair over the trajectory's steps (0
                                   without a log); Loop = rest + seconds */
    hg_consts build, pair;
    char build_source[600], pair_source[600];
    char notes[HG_RUN_MAX_NOTES][400];
    int n_notes;
    /* many ranks (nprocs > 1): the decompositions priced, the user's and
     * the answer's (an index into decomps) */
    int nprocs;
    int n_decomps, own_decomp, best_decomp;
    int own_fix_decomp;         /* the user's grid with a fix balance
                                   added (-1: not priced: a balance is
                                   yours already, or rcb, or one rank) */
    int kept_own_decomp;
    hg_run_decomp decomps[HG_RUN_MAX_DECOMPS];
    char decomp_lines[600];     /* the answer's decomposition lines */
    double own_loop;            /* the user's lines on the user's
                                   decomposition: predicted loop (Neigh +
                                   Pair without a log) */
} hg_run_advice;

/* Read the run, price it, choose. Errors name the file and frame. */
int hg_run_advise(const hg_run_input *in, hg_run_advice *out, hg_err *e);
void hg_run_advice_clear(hg_run_advice *a);

#ifdef __cplusplus
}
#endif
#endif
