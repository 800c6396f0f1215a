/* comm_calib.c - what a ghost atom costs a code on many ranks, measured on
 * this machine (calibrate --engine lammps|liggghts --mpi P): the
 * constants ghost_step and ghost_build of the many-ranks model
 * (hg_ranks.h).
 *
 * The packing runs on P ranks without moving (no integration, or one over
 * a timestep too small to move an atom): every step computes the same
 * forces and communicates the same ghosts. The ghost shell grows with the
 * code's communication cutoff, 1, 2, 3, 4 and 6 times the pair cutoff plus
 * the skin, in two modes:
 *   A: no build after the run's setup (a check every 100000 steps): Comm
 *      per step is the forward and reverse communication of the ghosts;
 *   B: a build every step: Comm per step adds the exchange and the borders
 *      of each build.
 * The busiest rank's ghosts at each cutoff are the code's own count (its
 * Nghost max: LIGGGHTS counts fewer than LAMMPS' rules give). One
 * least-squares fit over both modes, Comm per step = a + b [B] +
 * ghost_step g + ghost_build g [B], gives the two slopes. The runs are one
 * batch of the code (process.h), alternating forward and backward. */
#include "process.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COMM_FACTORS 5
static const double factors[COMM_FACTORS] = {1.0, 2.0, 3.0, 4.0, 6.0};

typedef struct comm_ctx {
    const hg_code_comm_job *j;
    double cutghost; /* the pair cutoff (largest diameter) + skin */
} comm_ctx;

static void head(FILE *f, const hg_particles *p, void *ctx)
{
    const comm_ctx *c = ctx;
    c->j->head(f, p, c->j->ctx);
}

/* setting k: factor k / 2, mode A (k even) or B (k odd) */
static int lines(int k, void *ctx, char **text, hg_err *e)
{
    const comm_ctx *c = ctx;
    double cut = factors[k / 2] * c->cutghost;
    char buf[512];
    int n = snprintf(buf, sizeof buf,
                     "neighbor %.9g bin\n"
                     "neigh_modify every %d delay 0 check no\n",
                     c->j->skin, k % 2 ? 1 : 100000);
    snprintf(buf + n, sizeof buf - (size_t)n, c->j->cutoff_line, cut);
    *text = strdup(buf);
    return *text ? HG_OK : hg_fail(e, HG_ENOMEM, "out of memory");
}

int hg_code_comm_measure(const hg_code_comm_job *j, const hg_particles *p,
                         hg_code_comm_result *out, hg_err *e)
{
    memset(out, 0, sizeof *out);
    if (j->nprocs < 2)
        return hg_fail(e, HG_EINVAL,
                       "--mpi: %d rank; the cost of a ghost atom is "
                       "measured on 2 or more",
                       j->nprocs);
    if (!(j->skin > 0.0) || !isfinite(j->skin))
        return hg_fail(e, HG_EINVAL, "skin: %g must be > 0", j->skin);
    double rmax = 0.0;
    for (size_t i = 0; i < p->n; i++)
        rmax = fmax(rmax, p->r[i]);
    enum { N = 2 * COMM_FACTORS };
    comm_ctx ctx = {j, 2.0 * rmax + j->skin};
    hg_code_timing t[N];
    hg_code_batch b = {
        .job = {.label = j->label, .exe = j->exe, .nprocs = j->nprocs,
                .args = j->args, .n = N, .repeats = j->repeats,
                .steps = j->steps, .row = j->row,
                .progress = j->progress,
                .progress_params = j->progress_params},
        .keep = j->keep,
        .data_file = j->data_file,
        .warmup = 10,
        .head = head,
        .lines = lines,
        .ctx = &ctx,
    };
    int st = hg_code_batch_run(&b, p, t, e);
    if (st)
        return st;
    /* the busiest rank's ghosts at each cutoff, as the code counted them
     * (its Nghost max; the same in both modes) */
    double X[N * 4], y[N];
    for (int k = 0; k < N; k++)
        if (!(t[k].nghost_max > 0.0))
            return hg_fail(e, HG_EIO,
                           "%s: no Nghost line read for cutoff %g x, mode "
                           "%s",
                           j->label, factors[k / 2], k % 2 ? "B" : "A");
    for (int f = 0; f < COMM_FACTORS; f++)
        out->ghosts[f] = t[2 * f].nghost_max;
    for (int k = 0; k < N; k++) {
        double g = t[k].nghost_max, B = k % 2;
        out->comm[k] = t[k].pair;
        if (!(t[k].pair > 0.0) || !isfinite(t[k].pair))
            return hg_fail(e, HG_EIO,
                           "%s: no Comm time read for cutoff %g x, mode %s",
                           j->label, factors[k / 2], B ? "B" : "A");
        X[k * 4 + 0] = g;
        X[k * 4 + 1] = g * B;
        X[k * 4 + 2] = 1.0;
        X[k * 4 + 3] = B;
        y[k] = t[k].pair;
    }
    double w[N];
    for (int k = 0; k < N; k++)
        w[k] = 1.0; /* absolute residuals: the intercepts dominate */
    hg_lsq q;
    if (hg_lsq_fit(X, y, w, N, 4, 0, &q) != HG_OK)
        return hg_fail(e, HG_ENUMERIC, "%s: the fit of Comm time against "
                                       "ghosts failed",
                       j->label);
    if (!(q.coef[0] > 0.0))
        return hg_fail(e, HG_ENUMERIC,
                       "%s: Comm time per step did not grow with the "
                       "ghosts (slope %g s per ghost; %g to %g ghosts): a "
                       "loaded machine? Run again with more --steps",
                       j->label, q.coef[0], out->ghosts[0],
                       out->ghosts[COMM_FACTORS - 1]);
    out->ghost_step = q.coef[0];
    out->ghost_build = fmax(0.0, q.coef[1]);
    out->se_step = q.se[0];
    out->se_build = q.se[1];
    out->r2 = q.r2;
    out->npoints = N;
    return HG_OK;
}

void hg_code_comm_consts(const hg_code_comm_result *r, hg_consts *c)
{
    memset(c, 0, sizeof *c);
    c->c[0] = r->ghost_step;
    c->c[1] = r->ghost_build;
    c->se[0] = r->se_step;
    c->se[1] = r->se_build;
    c->r2 = r->r2;
    c->npoints = r->npoints;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(c->created, sizeof c->created, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
