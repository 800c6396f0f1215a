/* whole_run_internal.h - what the two halves of whole-run advice share:
 * the run as read (whole_run.c) and its pricing into blocks between
 * priced frames, the totals and the schedule (whole_run_choose.c). */
#ifndef HG_WHOLE_RUN_INTERNAL_H
#define HG_WHOLE_RUN_INTERNAL_H

#include "hg_whole_run.h"

/* One frame as read: its step, atoms, and the largest displacement of an
 * atom per step since the frame before (speeds x timestep included). */
typedef struct run_frame {
    long long step;
    size_t n;
    double u;
    double vmax; /* NAN without velocities */
    int renumbered; /* the ids were found renumbered since the frame
                       before (displacements across the box) */
} run_frame;

/* The run: every frame, the priced ones (index into frames) with their
 * costs per candidate k and skin j: neigh[(m * K + k) * S + j] seconds
 * per build, pair[m * S + j] seconds per step. */
typedef struct run_data {
    run_frame *frames;
    size_t nf;
    size_t *priced;
    size_t np;
    int K, S;
    double *neigh, *pair;
    /* the model scaled to the user's log (1 without one): Pair per
     * step, Neigh per build, builds */
    double sp, sn, sb;
    /* Pair's work the model does not see, paid per atom and step whatever
     * the setting (a log's Pair above the model's at the user's lines:
     * the contacts' force law), seconds; pa_atoms[m]: the atoms the step
     * waits for at priced frame m (NULL: the frame's atoms) */
    double pa;
    double *pa_atoms;
    /* contacts[m]: priced frame m's contacts (NULL: a frame's were not
     * counted); pa_contacts[m]: those the step waits for (NULL: the
     * frame's). pa_contact: pa is paid per contact and step instead (a
     * bed's force law: LAMMPS' flatwall at its own lines, 3000 atoms
     * from step 1500 on, Pair 0.39 s per 500 steps at 1.15 contacts per
     * atom and 1.44 s at 3.4 as its bed formed (x3.7 per atom), 0.28-0.43
     * s per contact per atom over steps 1500-5000) */
    double *contacts;
    double *pa_contacts;
    int pa_contact;
    int fixed_scales; /* sp, sn, sb and the advice's rest are given (a
                         decomposition priced with the scales found at the
                         user's): run_choose keeps them */
} run_data;

/* The cost of the steps between two priced frames (a block) for each
 * candidate and skin, priced frames' costs interpolated by step. */
typedef struct run_blocks {
    int nb, K, S;
    double *cost;     /* [(b * K + k) * S + j] Neigh + Pair seconds */
    double *neigh;    /* the Neigh part, same index */
    double *builds;   /* [b * S + j] */
    double *every;    /* [b * S + j] steps with a build every step */
    double *umax;     /* [b] largest motion per step in the block */
    double *atoms;    /* [b] atom-steps (run_data.pa's weights) */
    double *contacts; /* [b] contact-steps (its weights per contact; 0
                         where not counted) */
    long long *from, *to; /* [b] steps */
} run_blocks;

/* Blocks between the priced frames listed in use[0..nu-1] (indices into
 * d->priced, increasing, the first and the last included). */
int run_blocks_make(const run_data *d, const double *skins, const size_t *use,
                    size_t nu, run_blocks *b, hg_err *e);
void run_blocks_free(run_blocks *b);

/* The sum of blocks [b0, b1) for candidate k at skin j into c. */
void run_choice_sum(const run_blocks *b, int b0, int b1, int k, int j,
                    double skin, hg_run_choice *c);

/* A skin may be offered for blocks whose largest motion per step is umax:
 * the skin given, else one of 4x that motion or more. */
int run_skin_allowed(const hg_run_input *in, double skin, double umax);

/* The totals, the answer, the comparisons and the schedule into a (its
 * candidates, skins, own setting and skin_min set). */
int run_choose(const hg_run_input *in, run_data *d, hg_run_advice *a,
               hg_err *e);

/* Many ranks (whole_run_ranks.c): the decompositions priced and, per
 * priced frame m, decomposition D and skin j (index x = (m * nD + D) * S
 * + j), the slowest rank's Pair share fp, Neigh share fn and its
 * communication per step cs and per build cb (seconds); stats[(m * nD +
 * D) * 4 + 0..3]: atoms max, ave, ghosts max, ave at the user's skin. */
#include "hg_ranks.h"
typedef struct run_ranks {
    int P, nD, n_price, own, scale_index, S;
    int own_fix;  /* the user's grid with a fix balance added (-1: none) */
    hg_ranks_layout lay[HG_RUN_MAX_DECOMPS];
    char name[HG_RUN_MAX_DECOMPS][96];
    double *held[HG_RUN_MAX_DECOMPS][3]; /* static balance: its cuts */
    int dup[HG_RUN_MAX_DECOMPS];  /* the same layout as an earlier one */
    int slot[HG_RUN_MAX_DECOMPS]; /* its row in the advice's table */
    double pair_cut;
    hg_ranks_costs k;
    double *fp, *fn, *cs, *cb, *stats;
} run_ranks;

/* The decompositions for in->mpi ranks (the user's first, then LAMMPS'
 * default, the best grids of the largest frame rep, rcb), for nf frames
 * at most. */
int run_ranks_setup(const hg_run_input *in, const hg_particles *rep,
                    size_t nf, hg_run_advice *a, run_ranks *rr, hg_err *e);
/* Priced frame m (its atoms p, its motion per step u): every
 * decomposition at every skin, with the one-rank costs neigh0[j] (the
 * first setting's Neigh per build) and pair[j]. */
int run_ranks_frame(run_ranks *rr, const hg_run_advice *a,
                    const hg_particles *p, size_t m, double u,
                    const double *neigh0, const double *pair, hg_err *e);
/* run_choose for every decomposition, the model scaled to the log at the
 * user's; a gets the answer's and the table. */
int run_ranks_choose(const hg_run_input *in, run_data *d, run_ranks *rr,
                     hg_run_advice *a, hg_err *e);
void run_ranks_free(run_ranks *rr);

/* A schedule whose phases change the decomposition: per row r (a
 * decomposition, its layout lay[r]) and blocks [b0, b1), the least cost
 * of a phase seg[(r * (nb + 1) + b0) * (nb + 1) + b1] and its candidate
 * * S + skin kj[...]. */
typedef struct run_dsched {
    int nD, nb, K, S;
    int idx[HG_RUN_MAX_DECOMPS];      /* the row's decomposition in rr */
    const hg_ranks_layout *lay[HG_RUN_MAX_DECOMPS];
    double *seg;
    int *kj;
} run_dsched;
/* May a phase of layout b follow one of a? LAMMPS fixes the processor
 * grid with the box: the same grid, and a later phase has fix balance
 * (the cuts stay where a balance left them); rcb only alone. */
int run_dsched_may_follow(const hg_ranks_layout *a, const hg_ranks_layout *b);
/* The least total over at most G phases (a phase more only for 1 % less):
 * its rows[0..*nph-1] and block cuts cut[0..*nph] (cut[0] = 0, cut[*nph]
 * = nb); INFINITY when none. */
double run_dsched_best(const run_dsched *ds, int G, int *rows, int *cut,
                       int *nph);

/* A note for the user (at most HG_RUN_MAX_NOTES kept). */
void run_note(hg_run_advice *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
