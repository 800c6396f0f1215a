/* hg_live.h - a user's input script tuned while it runs (`hgridopt run`).
 *
 * The script is executed command by command by the code's library; each
 * `run N` is split into segments (`run n start S stop E`, which keeps the
 * run's clock for time-dependent fixes and output), whose boundaries lie
 * on the steps where thermo prints anyway. After each segment the frame
 * and the segment's timers are handed to a tuner, which prices the rest
 * of the run like the segment just measured with the whole-run model
 * (hg_whole_run.h, its log scaling fed with the segment's own timers)
 * and answers: keep the lines, change them (only where that is predicted
 * to save at least a share of the loop), or undo the last change (the
 * segment after a change measured slower than the one before it).
 *
 * This part is the code-independent half: reading the script, which
 * commands can be followed, where to split a run, and the tuner. The
 * driver that calls LAMMPS' library lives in the command-line tool
 * (built only where liblammps is found). */
#ifndef HG_LIVE_H
#define HG_LIVE_H

#include <stddef.h>

#include "hg_common.h"
#include "hg_whole_run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the input script ---- */

/* The commands of a script: lines joined where they end with '&', in
 * order, each with the line it starts on. */
typedef struct hg_live_script {
    char **cmd;       /* owned */
    long *line;       /* first line of each command (1-based) */
    size_t n;
    /* the first command the driver cannot follow one by one (jump, label,
     * next, if, include, python, a triple-quoted text over several lines):
     * the script then runs whole, unsplit (NULL: none; points into cmd) */
    const char *unfollowable;
    long unfollowable_line;
} hg_live_script;

/* Read path (text; a line longer than 64 kB or binary data is refused,
 * naming the line). */
int hg_live_script_read(const char *path, hg_live_script *s, hg_err *e);
/* The same from a string (name used in messages). */
int hg_live_script_parse(const char *text, const char *name,
                         hg_live_script *s, hg_err *e);
void hg_live_script_free(hg_live_script *s);

typedef enum hg_live_kind {
    HG_LIVE_OTHER = 0,  /* executed as written */
    HG_LIVE_RUN,        /* `run N` alone: split (steps in n) */
    HG_LIVE_RUN_WHOLE,  /* a run that must stay one piece (keywords,
                           a variable count): why says why */
    HG_LIVE_NOTED       /* executed as written, with a note (minimize,
                           rerun: not split) */
} hg_live_kind;

typedef struct hg_live_cmd {
    hg_live_kind kind;
    long long n;        /* HG_LIVE_RUN: the steps */
    int clock_words;    /* the command mentions elaptime, or elapsed
                           outside a variable command (steps or seconds
                           since the current run command began: a split
                           run would restart them at every segment) */
    int elapsed_var;    /* a variable command mentions elapsed (and not
                           elaptime): read as elaplong, the same count
                           in a run split with start/stop
                           (hg_live_elaplong) */
    int dynamic_group;  /* group ... dynamic: LAMMPS updates a dynamic
                           group at the start of every run, so at every
                           segment of a split one */
    char fix_id[64];    /* fix and unfix: the fix's ID */
    int balance_time;   /* fix ID GROUP balance ... weight time: LAMMPS
                           (29 Sep 2021, Debian 12's) stops a run split
                           with `pre no` while it is defined ("Balance
                           weight <= 0.0": its time weights read timers
                           the next run has reset), so its runs stay
                           whole */
    char word[32];      /* the command's first word ("" : blank or a
                           comment) */
    char why[160];
} hg_live_cmd;

/* What cmd is (a command of hg_live_script). */
void hg_live_classify(const char *cmd, hg_live_cmd *c);

/* cmd with every word `elapsed` made `elaplong` into out (cap bytes):
 * the steps since the run began, counted from the run's start keyword
 * where it has one, so the same in every segment of a run split as `run
 * n start S stop E` as in the whole run, and the same as elapsed in a run
 * without start. Returns the words replaced, or -1 when out is too
 * small. */
int hg_live_elaplong(const char *cmd, char *out, size_t cap);

/* The steps of the plain `run N` commands of s after command at (a run
 * with keywords or a variable count adds none). */
long long hg_live_later_steps(const hg_live_script *s, size_t at);

/* Does a run of s carry start or every (where elaplong and elapsed part
 * even unsplit)? */
int hg_live_run_started(const hg_live_script *s);

/* May a dynamic group made before command at be read at or after it?
 * LAMMPS updates a dynamic group at the start of every run, so at every
 * segment of a split one: harmless only where nothing reads the group
 * afterwards. Yes (1) when a command naming the group follows at, or
 * when any command but those that read a group once when executed
 * (delete_atoms, set, velocity, group, ...) names it; the group's name
 * into name (cap bytes) and that command's line into *line (either may
 * be NULL/0). */
int hg_live_dynamic_read(const hg_live_script *s, size_t at, char *name,
                         size_t cap, long *line);

/* ---- where to split a run ---- */

/* The end steps of the segments of a run from step start for n steps
 * (n >= 1): every boundary but the last a multiple of every (the thermo
 * interval, >= 1) strictly inside the run, segments of at least
 * min_steps (>= 1), at most max_segments (>= 1), about equal. ends[] has
 * room for max_segments; returns the count (1: unsplit). */
int hg_live_split(long long start, long long n, long long every,
                  long long min_steps, int max_segments, long long *ends);

/* ---- the tuner ---- */

/* What a segment measured (the code's timers of that `run`). Times in
 * seconds: the average over ranks, and the busiest rank's where named. */
typedef struct hg_live_measure {
    long long from, to;     /* steps */
    double loop;
    double pair, pair_max, pair_min;
    double neigh, neigh_max, neigh_min;
    double comm, comm_max, comm_min;
    double output, modify;
    long long builds, dangerous;
    int procs;
    double atoms;           /* at the end */
    double nlocal_ave, nlocal_max, nghost_ave, nghost_max;
    double cutoff;          /* the code's neighbor cutoff (pair cutoff plus
                               skin; 0: not known) */
    char decomposition[256]; /* the processors and balance lines in force
                               as commands ("": one rank); a fix balance
                               of the input's is priced as rebalancing
                               every 100 steps */
    double tuning;          /* wall seconds the caller has spent so far,
                               over the script, on the tuner: decisions
                               (hg_live_segment) and the frames written
                               for them; 0: not measured */
    double advice_cost;     /* wall seconds of the last decision that
                               advised (hg_live_decision.advised), with
                               the frame written for it; 0: none yet */
    double setup;           /* wall seconds of the segment's run command
                               outside its Loop when it began with a
                               setup (pre yes); 0: it did not, or not
                               measured */
} hg_live_measure;

/* The busiest rank's Pair + Neigh over the ranks' mean (1: none timed). */
double hg_live_spread(const hg_live_measure *m);

typedef struct hg_live_options {
    const char *engine;     /* "lammps" */
    const char *workdir;    /* an existing folder for the tuner's files
                               (the frames' dumps, the segments' logs) */
    const char *units;      /* the script's units ("lj", "si", ...) */
    double timestep;        /* > 0 */
    int mpi;                /* ranks (>= 1) */
    double min_gain;        /* change only when predicted to save this
                               share of the loop (0: 0.05) */
    double undo_margin;     /* undo a change measured this much slower
                               in Pair + Neigh + Comm (the ranks' mean
                               Pair + Neigh, the least Comm) than the
                               lines before would have been over its
                               trial (0: 0.03) */
    double tuning_share;    /* advise only while the tuning so far plus
                               the last advice's cost (the measures'
                               tuning, advice_cost) stay within this share
                               of the input's loop by its end (the loop
                               before, this run's so far, its rest and
                               later_steps at the last segment's rate);
                               past it a segment is
                               judged but not advised on, and needs no
                               frame (hg_live_wants_frame) (0: 0.03;
                               < 0: no limit) */
    double loop_before;     /* the Loop of the input's runs before this
                               one, s: part of the loop the share is of */
    long long later_steps;  /* the steps of the input's plain `run N`
                               commands after this one
                               (hg_live_later_steps): priced like the rest
                               of this run in the loop the share is of (a
                               pour's first run is advised on as a part of
                               the whole input, not as all of it) */
    int multi_only;         /* only multi lines may follow (LAMMPS keeps
                               `comm_modify reduce/multi` once set, and
                               no keyword clears it: bin lines, with their
                               comm mode single, would stop the run) */
} hg_live_options;

typedef enum hg_live_action {
    HG_LIVE_KEEP = 0,
    HG_LIVE_CHANGE,
    HG_LIVE_UNDO
} hg_live_action;

typedef struct hg_live_decision {
    hg_live_action action;
    char *lines;            /* CHANGE, UNDO: the commands to issue before
                               the next segment, one a line (owned); UNDO
                               without lines: an undo confirmed, the
                               lines in force (those before the change)
                               stay */
    double predicted_gain;  /* CHANGE: share of the loop predicted saved */
    double measured_change; /* the trial just judged (UNDO with lines,
                               or any action after a trial): its Pair +
                               Neigh + Comm against what the lines
                               before would have cost over it (the model
                               on its frames scaled to the segment
                               before; without frames, per atom and step
                               against that segment's trend); UNDO
                               without lines: per atom and step against
                               the lines before on both sides of its
                               trial; as a
                               share (> 0: slower); CHANGE made again: the
                               same, at most the undo margin; NAN: an undo
                               kept because the atoms changed by more than
                               a tenth across the trial's bracket */
    char name[96];          /* CHANGE: the setting in words */
    char why[240];          /* one line */
    char judged[320];       /* a trial judged and passed ("": none): the
                               change, its measured_change and against
                               what, one line */
    int advised;            /* the whole-run advice was asked (what
                               hg_live_measure.advice_cost times) */
    /* with any action: a one-off `balance ... weight time` command to
     * issue after the lines ("": none), which evens the ranks by the
     * segment's own timers; the lines in force are not changed by it */
    char rebalance[96];
    double rebalance_gain;  /* share of the segment's loop it would save */
    char rebalance_why[200];
} hg_live_decision;

typedef struct hg_live hg_live;

/* A tuner (o copied; its strings must outlive it). */
int hg_live_create(const hg_live_options *o, hg_live **t, hg_err *e);
void hg_live_free(hg_live *t);

/* A `run` begins (its first step and steps): the lines measured slower
 * in an earlier run may be tried again (a new run is often a new phase);
 * a change still on trial, or its bracket, stays (hg_live_carry_trial). */
void hg_live_run_begin(hg_live *t, long long start, long long n);

/* A tuner made for the next `run` (its timestep, units and share as
 * then) takes over from the last one the change still on trial, or its
 * bracket: a change made before a run's last segment is judged on the
 * next run's first (its lines stay in force across the runs), by the
 * model alone (the input may change the physics between runs, which no
 * trend per atom and step foresees). from keeps no trial. The pair
 * style's probe is carried too: its measured cost or why there is none,
 * and the segments the advice has waited for it. */
void hg_live_carry_trial(hg_live *to, hg_live *from);

/* The cost of a listed pair and step of the input's pair style,
 * measured (hgridopt run's probe: a copy of the run timed at two skins):
 * the model's per-pair constant for this tuner's advice from now on, and
 * for the trials of its changes from now on. 0: the engine's (a probe
 * may be wanted again); < 0: the engine's, the cost cannot be measured. */
void hg_live_set_pair_cost(hg_live *t, double per_pair);
double hg_live_pair_cost(const hg_live *t); /* 0: the engine's */

/* The probe's own share of the input's loop (by its end, as projected
 * from the segments so far at the last one's rate), apart from the
 * advice's: made once for a pair style, it is what the advice after it
 * needs, and an advice's share spent on a short run's early segments
 * would never leave room for it (LAMMPS' flatwall on one rank: 0.2-0.3 s
 * of its 0.4 s spent by step 2500). 2 %: a pour's first segments project
 * a tenth of its loop (the wide pour on 2 ranks: 1.4 s at step 3000, 9.5
 * s in all), and at 1 % its advice waited for the probe, a 10-ms one,
 * from step 3000 to 5000 on lines whose Loop there was 0.18 s against
 * 0.11 s with the change. */
#define HG_LIVE_PROBE_SHARE 0.02

/* Before hg_live_segment of segment m (after which an advice may
 * follow), whether a probe of the pair style's cost, of about cost
 * seconds, is to be made now: none was measured or found unmeasurable,
 * none found too few listed pairs at fewer than 2/3 of m's atoms
 * (hg_live_probe_retry), and cost is within the probe's own share of the
 * input's loop (HG_LIVE_PROBE_SHARE, apart from the advice's: the
 * probe's time is not the measure's tuning). Made before the first advice, not
 * after one that found the model's Pair far off: the engine's per-pair
 * constant was fitted on gran/hooke, and on LAMMPS' flatwall
 * (granular, JKR) a listed pair cost 3-5x it while its Pair per atom
 * was below the model's (a pour's falling atoms): the first advice,
 * priced on it, took a skin of 0.93 and kept it while the bed formed.
 * Wanted and past its share: -1, and m's advice waits for it (for at
 * most PROBE_WAIT segments, before the first probe only, and not where
 * m built dangerously). */
int hg_live_wants_probe(hg_live *t, const hg_live_measure *m, double cost);

/* A probe could not tell a listed pair's cost on atoms atoms (too few
 * listed pairs to time): the engine's constant stays; wanted again once
 * the atoms have grown by half. */
void hg_live_probe_retry(hg_live *t, double atoms);

/* The scales the change on trial (or its bracket) is judged with: the
 * model scaled to the segment before it (hg_run_input.scales). Returns
 * 0, *s untouched, without a trial. */
int hg_live_trial_scales(const hg_live *t, hg_run_scales *s);

/* The input set neighbor lines of its own: a change on trial, or its
 * bracket, is no longer what runs, and is not judged. */
void hg_live_drop_trial(hg_live *t);

/* Segment m done (not the run's last): would the tuner advise after it,
 * as far as its tuning share tells, or judge a change on trial by its
 * frames (whatever the share)? Where not (0), hg_live_segment needs no
 * frame of its last step, and the caller may save writing it. */
int hg_live_wants_frame(const hg_live *t, const hg_live_measure *m);

/* Segment m done: a change on trial judged, then the advice asked,
 * within the tuning share; not on a trial kept, nor on the segments
 * after advices in a row that kept the lines on the same atoms
 * (live_tune.c), unless the lines built dangerously. own: the lines in
 * force during it, as the code's
 * commands ("neighbor 0.2 bin\nneigh_modify delay 0 every 1 check yes");
 * restore: the commands that bring back the input's own lines (for an
 * undo back to them); frame0 and frame1: dumps of the atoms (id type
 * radius x y z vx vy vz) at its first and last step (either NULL: not
 * written, no advice after this segment); last: no segment follows
 * (nothing to decide). d is cleared first, filled, its lines the
 * caller's to free (hg_live_decision_clear). */
int hg_live_segment(hg_live *t, const hg_live_measure *m, const char *own,
                    const char *restore, const char *frame0,
                    const char *frame1, int last, hg_live_decision *d,
                    hg_err *e);
void hg_live_decision_clear(hg_live_decision *d);

#ifdef __cplusplus
}
#endif
#endif
