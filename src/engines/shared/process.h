/* process.h - running a simulation code (LAMMPS' lmp, liggghts) on a
 * packing: what the runners of every engine share (not part of the public
 * API). Each runner writes its own input script and reads its own timing
 * lines; these functions find the executable, make the working folder,
 * start the process and order and summarise the repeated runs. */
#ifndef HG_CODE_RUN_H
#define HG_CODE_RUN_H

#include <stddef.h>
#include <stdio.h>

#include "hg_common.h"
#include "hg_consts.h"
#include "hg_engine.h"
#include "hg_particles.h"

/* The executable: given (a path, or a name searched on PATH; NULL: name)
 * into buf. label names the code in messages ("lmp"), hint says how to
 * install it. HG_EIO when it is not found. */
int hg_code_find(const char *given, const char *name, const char *label,
                 const char *hint, char *buf, size_t len, hg_err *e);

/* The text after key on the first line of `exe ARGS` (the code's help,
 * e.g. "-h") containing key, up to the end of the line, into buf. */
int hg_code_version(const char *exe, const char *args, const char *key,
                    const char *label, char *buf, size_t len, hg_err *e);

/* s written to f in single quotes for the shell ('\'' for a quote). */
void hg_code_quote(FILE *f, const char *s);

/* A working folder: keep (created if missing, left in place) or a new
 * folder $TMPDIR/hgridopt-<prefix>-XXXXXX removed by hg_code_dir_close. */
typedef struct hg_code_dir {
    char path[4096];
    int temp;
} hg_code_dir;

int hg_code_dir_open(const char *keep, const char *prefix, hg_code_dir *d,
                     hg_err *e);
void hg_code_dir_close(hg_code_dir *d);

/* Start `cd DIR && OMP_NUM_THREADS=1 [mpirun -np P] EXE ARGS 2>&1
 * </dev/null` and return its output stream in *out (close with pclose). */
int hg_code_spawn(const hg_code_dir *d, const char *exe, int nprocs,
                  const char *args, const char *label, FILE **out,
                  hg_err *e);

/* One run of the code over n settings, each timed `repeats` times: the
 * script prints "HGRIDOPT timed K" before the timed run of setting K;
 * then the code's timing summary follows, read by row (which = 0: the
 * Neigh seconds of the run, 1: the Pair seconds; returns 1 and *v when
 * line is that row), "Total # of neighbors =" and "Neighbor list builds
 * =" (which ends the run). */
typedef struct hg_code_job {
    const char *label;    /* "lmp", "liggghts" (messages) */
    const char *exe;
    int nprocs;
    const char *args;     /* after the executable */
    int n, repeats, steps;
    int (*row)(const char *line, int which, double *v);
    void (*progress)(int done, int total, void *params);
    void *progress_params;
} hg_code_job;


/* Run job in folder d and fill t[0..n-1]; fails with the code's first
 * ERROR line (naming the kept folder) or the count of runs it finished. */
int hg_code_collect(const hg_code_dir *d, const hg_code_job *job,
                    hg_code_timing *t, hg_err *e);

/* A timed batch of a code that reads LAMMPS data files (lmp, liggghts):
 * the packing written as data_file into the working folder (keep, else a
 * temporary one named after job.label), an input script in.hgridopt of
 * the code's head, then for each run of the alternating order
 * (hg_code_order) setting k's neighbor lines, `warmup` untimed steps, the
 * marker line and job.steps timed steps; job run in that folder (its args
 * name in.hgridopt) and t[0..job.n-1] collected (hg_code_collect). */
typedef struct hg_code_batch {
    hg_code_job job;
    const char *keep;
    const char *data_file;
    int warmup;
    /* the script up to the neighbor lines (units, atoms, read_data of
     * data_file, pair style, thermo) */
    void (*head)(FILE *f, const hg_particles *p, void *ctx);
    /* setting k's lines into *text (malloc'd, freed by the batch) */
    int (*lines)(int k, void *ctx, char **text, hg_err *e);
    void *ctx;
} hg_code_batch;
int hg_code_batch_run(const hg_code_batch *b, const hg_particles *p,
                      hg_code_timing *t, hg_err *e);

/* The cost of a ghost atom on this machine (comm_calib.c): the packing
 * run by the code on nprocs ranks at 5 communication cutoffs, with and
 * without a build every step; the code's Comm seconds per step against
 * the busiest rank's ghosts. */
typedef struct hg_code_comm_job {
    const char *label, *exe, *args, *data_file, *keep;
    int nprocs, repeats, steps;
    double skin;           /* the neighbor skin (the ghost cutoff: the
                              largest diameter + skin, times 1 to 6) */
    /* the code's line that sets the communication cutoff, a printf format
     * of one double ("comm_modify vel yes cutoff %.9g\n") */
    const char *cutoff_line;
    /* the script up to the neighbor lines (as a batch's head) */
    void (*head)(FILE *f, const hg_particles *p, void *ctx);
    void *ctx;
    /* which = 0: the Neigh row (any number: ends nothing, but must be
     * read); 1: the Comm seconds of the run (the least rank's, where the
     * code prints it: the busiest rank waits least) */
    int (*row)(const char *line, int which, double *v);
    void (*progress)(int done, int total, void *params);
    void *progress_params;
} hg_code_comm_job;

typedef struct hg_code_comm_result {
    double ghost_step, ghost_build, se_step, se_build, r2;
    int npoints;
    double ghosts[5];  /* the busiest rank's, per cutoff */
    double comm[10];   /* Comm seconds per step: cutoff k / 2, mode A
                          (k even) or B */
} hg_code_comm_result;

int hg_code_comm_measure(const hg_code_comm_job *j, const hg_particles *p,
                         hg_code_comm_result *out, hg_err *e);
/* The result as constants of a comm kind (ghost_step, ghost_build). */
void hg_code_comm_consts(const hg_code_comm_result *r, hg_consts *c);

/* The run order of n settings repeated `repeats` times, alternating
 * forward and backward (a drift of the machine's load spreads over all
 * settings): order[r * n + i]. */
void hg_code_order(int *order, int n, int repeats);

/* Median of v[0..n-1] (n >= 1; v is sorted in place). */
double hg_code_median(double *v, int n);

/* Paired medians of n settings timed in R alternating repeats, x[k * R +
 * r] > 0 (not changed): out[0] the median of setting 0's times, out[k]
 * that times the median over the repeats of x[k * R + r] / x[r] (the
 * ratio to setting 0 in the same repeat; a drift of the machine's speed
 * between repeats cancels). HG_ENOMEM or HG_OK. */
int hg_code_paired_medians(const double *x, int n, int R, double *out,
                           hg_err *e);

#endif
