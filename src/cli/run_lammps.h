/* run_lammps.h - `hgridopt run --engine lammps`: the driver of a LAMMPS
 * input through LAMMPS' library (run_lammps.c) and what it reads of the
 * library's state that its C interface does not give (run_lammps_state.cpp:
 * the timers of the last run, the neighbor settings, the thermo interval).
 * Built only where liblammps is found (HG_HAVE_LAMMPS). */
#ifndef HG_CLI_RUN_LAMMPS_H
#define HG_CLI_RUN_LAMMPS_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* This rank's view of a LAMMPS instance. */
typedef struct cli_lmp_state {
    /* wall seconds of the last run on this rank (LAMMPS' timers) */
    double loop, pair, neigh, comm, output, modify;
    int timer_normal;      /* the timers break the loop down (not `timer
                              loop` or `timer off`) */
    long long ncalls, ndanger; /* neighbor list builds, dangerous ones */
    int nlocal, nghost;
    int thermo_every;      /* 0: first and last step only */
    int thermo_variable;   /* thermo v_name: the interval varies */
    int radius;            /* atoms carry radii (atom_style sphere) */
    int dimension;
    /* the neighbor settings in force */
    double skin;
    int style;             /* 0 nsq, 1 bin, 2 multi/old, 3 multi */
    int every, delay, check;
    int binsizeflag;
    double binsize;
    int comm_mode;         /* 0 single, 1 multi, 2 multi/old */
    /* the decomposition in force */
    int procgrid[3];
    int comm_tiled;        /* comm_style tiled */
    int cuts_moved;        /* brick: a balance moved the cuts */
    char balance_fix[64];  /* the id of a fix balance ("": none) */
    int newton_pair;
    double cutneighmax;    /* LAMMPS' neighbor cutoff (pair cutoff plus
                              skin) */
    int oneatom, pgsize;   /* neigh_modify one, page */
    /* A change of lines needs a full setup (run ... pre yes), which every
     * fix sees as a new run: a fix pour restarts its insertions at the
     * next step, a dynamic group is updated, fix print prints again.
     * setup_unsafe: such a fix would change the run now (why says which).
     * inserting: a fix that inserts atoms (force_reneighbor) would insert
     * at the next step instead of on its own schedule: not unsafe, as
     * cli_lmp_schedule_get/_set put its schedule back after the setup. */
    int setup_unsafe;
    int inserting;
    char setup_why[160];
} cli_lmp_state;

/* Read the state of the LAMMPS instance handle (lammps_open's).
 * groups_unread: no dynamic group is read from now on (a setup's update
 * of one changes nothing). */
void cli_lmp_state_get(void *handle, cli_lmp_state *s, int groups_unread);

/* The step of the next insertion (next_reneighbor) of every fix, in
 * LAMMPS' order, into steps (cap); returns the fixes (at most cap). */
int cli_lmp_schedule_get(void *handle, long long *steps, int cap);
/* Put back what cli_lmp_schedule_get read, for the fixes that insert
 * (force_reneighbor), after a setup moved their next insertion; returns
 * 0, or -1 when the fixes are not those read (nothing is changed). */
int cli_lmp_schedule_set(void *handle, const long long *steps, int n);
/* Write out what LAMMPS buffered for its log file. */
void cli_lmp_flush(void *handle);
/* The pairs in this rank's neighbor list of the pair style (-1: no pair
 * style, or none found by its name). */
double cli_lmp_listed_pairs(void *handle);
/* The command LAMMPS ran last, word (its name, as the caller knows it)
 * and the arguments as LAMMPS parsed them (variables substituted, quotes
 * removed; an argument with a space in double quotes), one line
 * (malloc'd; NULL: out of memory, or an argument with both a space and
 * a double quote). */
char *cli_lmp_last_command(void *handle, const char *word);
/* The pair style's name ("": none). */
const char *cli_lmp_pair_style(void *handle);
/* Every atom type's own pair coefficients set (as LAMMPS checks before a
 * run, whose error would end the process): 1, else 0. */
int cli_lmp_pair_complete(void *handle);

/* Options of `hgridopt run`. */
typedef struct cli_run_opts {
    const char *input;      /* the input script */
    const char *log;        /* LAMMPS' log (NULL: log.lammps) */
    const char *screen;     /* LAMMPS' screen (NULL: standard output) */
    const char *report;     /* the report's file (NULL: standard error) */
    long segments;          /* segments of a run at most */
    long min_steps;         /* steps of a segment at least */
    double min_gain;
    double tuning_share;    /* the tuner's (hg_live_options; < 0: no
                               limit) */
    int no_tune;            /* split and measure, change nothing */
    const char *const *vars;/* -var NAME VALUE pairs for LAMMPS */
    int n_vars;
} cli_run_opts;

/* Run the input; returns the exit code (on every rank the same). */
int cli_run_lammps(const cli_run_opts *o);

#ifdef __cplusplus
}
#endif
#endif
