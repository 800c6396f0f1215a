/* ranks.c - the decomposition to run a frame on P ranks with (hg_ranks.h):
 * every processor grid, each also balanced by shifting its cuts, and rcb,
 * priced by the slowest rank's step.
 *
 * A rank's step (seconds):
 *   Pair:  pair_pair x its stored pairs + pair_atom x its atoms
 *   Neigh: (the frame's one-rank Neigh per build x the rank's share, half
 *          by atoms and half by stored pairs, + neigh_bin x the bins of
 *          its sub-box grown by the ghost cutoff beyond that share of
 *          the domain's) / steps per build
 *   Comm:  ghost_step x its ghosts + ghost_build x its ghosts / steps per
 *          build
 *   Modify: other_atom x its atoms (the fixes that move and push atoms)
 * The slowest rank sets the step of all (every rank waits for it in the
 * next communication). */
#include "hg_lammps.h"
#include "hg_ranks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LAMMPS' pour example, its chute-flow run (tests/data/files/lammps/
 * pour_traj.log): Modify 0.036973 s over 2500 steps of 460 atoms. */
#define RANKS_OTHER_ATOM 3.2e-8
/* An empty bin cleared at a build: Neigh per build of 729 atoms in fixed
 * boxes of growing edge on one rank (tests/bench_bins.sh,
 * docs/measurements/ranks.md). The one-rank model's bins term (the
 * engine's constants) is 30 times more: fitted on packings that fill
 * their box, it carries the binning of the atoms, which grows with the
 * bins there; in a rank's empty bins only the clearing is left. */
#define RANKS_NEIGH_BIN 3.7e-10
#define RANKS_COSTS_SOURCE                                                  \
    "communication per ghost atom shipped (LAMMPS' Comm time at 2 ranks " \
    "on the development machine: tests/bench_ranks_comm.sh, "              \
    "docs/measurements/ranks.md; calibrate --engine E --mpi P measures "   \
    "yours); an empty bin per build from tests/bench_bins.sh; the fixes "  \
    "per atom from the Modify row of LAMMPS' pour example; Pair and "      \
    "Neigh from the engine's constants"

void hg_ranks_costs_shipped(hg_ranks_costs *k, double neigh_frame,
                            double bin_size, double steps_per_build)
{
    memset(k, 0, sizeof *k);
    hg_consts pc;
    hg_consts_shipped(&hg_lammps_pair_kind, &pc);
    k->pair_pair = pc.c[0];
    k->pair_atom = pc.c[1];
    k->neigh_frame = neigh_frame;
    k->neigh_bin = RANKS_NEIGH_BIN;
    k->bin_size = bin_size;
    hg_consts cc;
    hg_consts_shipped(&hg_lammps_comm_kind, &cc);
    k->ghost_step = cc.c[0];
    k->ghost_build = cc.c[1];
    k->other_atom = RANKS_OTHER_ATOM;
    k->steps_per_build = steps_per_build;
    snprintf(k->source, sizeof k->source, "%s", RANKS_COSTS_SOURCE);
}

int hg_ranks_costs_load(hg_ranks_costs *k, const hg_consts_kind *comm,
                        hg_err *e)
{
    if (!comm)
        return HG_OK;
    hg_consts c;
    int from_file = 0;
    char path[4096] = "";
    int st = hg_consts_auto(comm, &c, &from_file, path, sizeof path, e);
    if (st)
        return st;
    k->ghost_step = c.c[0];
    k->ghost_build = c.c[1];
    if (from_file) {
        char rest[300];
        const char *fixes = strstr(k->source, "; the fixes");
        snprintf(rest, sizeof rest, "%.299s", fixes ? fixes : "");
        snprintf(k->source, sizeof k->source,
                 "communication per ghost atom measured on %.100s (%.200s, "
                 "%.32s)%.299s",
                 c.machine, path, c.created, rest);
    } else if (comm != &hg_lammps_comm_kind) {
        char rest[600];
        snprintf(rest, sizeof rest, "%.599s", k->source);
        snprintf(k->source, sizeof k->source,
                 "communication of %.20s not measured here (calibrate "
                 "--engine %.20s --mpi P stores it): LAMMPS' %.599s",
                 comm->code, comm->version_key, rest);
    }
    return HG_OK;
}

double hg_ranks_bins(int dim, const double *lo, const double *hi,
                     double cutghost, double binsize)
{
    double n = 1.0;
    for (int a = 0; a < dim; a++)
        n *= floor((hi[a] - lo[a] + 2.0 * cutghost) / binsize) + 3.0;
    return n;
}

double hg_ranks_bins_beyond(int dim, const double *lo, const double *hi,
                            const double *box_lo, const double *box_hi,
                            double cutghost, double binsize, double share)
{
    return fmax(0.0, hg_ranks_bins(dim, lo, hi, cutghost, binsize) -
                         share * hg_ranks_bins(dim, box_lo, box_hi,
                                               cutghost, binsize));
}

void hg_ranks_price(const hg_ranks_result *r, const hg_ranks_costs *k,
                    double cutghost, hg_ranks_candidate *c)
{
    double N = r->nlocal.ave * r->nprocs;
    double Pt = r->pairs.ave * r->nprocs;
    double B = k->steps_per_build > 0.0 ? k->steps_per_build : 1.0;
    c->busiest = -1.0;
    c->average = 0.0;
    for (int i = 0; i < r->nprocs; i++) {
        const hg_ranks_rank *q = &r->ranks[i];
        double share = 0.5 * (N > 0.0 ? q->nlocal / N : 0.0) +
                       0.5 * (Pt > 0.0 ? q->pairs / Pt
                                       : (N > 0.0 ? q->nlocal / N : 0.0));
        double pair = k->pair_pair * q->pairs + k->pair_atom * q->nlocal;
        double neigh = k->neigh_frame * share;
        if (k->bin_size > 0.0)
            neigh += k->neigh_bin *
                     hg_ranks_bins_beyond(r->dim, q->lo, q->hi, r->box_lo,
                                          r->box_hi, cutghost, k->bin_size,
                                          share);
        neigh /= B;
        double comm = k->ghost_step * q->nghost +
                      k->ghost_build * q->nghost / B;
        double t = pair + neigh + comm + k->other_atom * q->nlocal;
        c->average += t / r->nprocs;
        if (t > c->busiest) {
            c->busiest = t;
            c->busiest_rank = i;
            c->pair = pair;
            c->neigh = neigh;
            c->comm = comm;
        }
    }
    memcpy(c->grid, r->grid, sizeof c->grid);
    c->balanced = r->balanced;
    c->tiled = r->tiled;
    c->nlocal = r->nlocal;
    c->nghost = r->nghost;
    c->pairs = r->pairs;
}

static int add(hg_ranks_advice *a, const hg_particles *p,
               const char (*faces)[2], const hg_ranks_layout *l,
               const char *name, double cutghost, const hg_pairs *pairs,
               hg_err *e)
{
    if (a->n >= HG_RANKS_MAX_CANDIDATES)
        return HG_OK;
    hg_ranks_result r;
    int st = hg_ranks_decompose(p, faces, l, cutghost, NULL, pairs, &r, e);
    if (st) {
        hg_ranks_result_clear(&r);
        return st;
    }
    hg_ranks_candidate *c = &a->c[a->n++];
    memset(c, 0, sizeof *c);
    c->layout = *l;
    snprintf(c->name, sizeof c->name, "%s", name);
    hg_ranks_layout_lines(l, p->dim, c->lines, sizeof c->lines);
    hg_ranks_price(&r, &a->costs, cutghost, c);
    hg_ranks_result_clear(&r);
    return HG_OK;
}

int hg_ranks_advise(const hg_particles *p, const char (*faces)[2], int P,
                    const char *own_lines, double cutghost, double skin,
                    const hg_pairs *pairs, const hg_ranks_costs *k,
                    double margin, hg_ranks_advice *out, hg_err *e)
{
    memset(out, 0, sizeof *out);
    out->nprocs = P;
    out->dim = p->dim;
    out->costs = *k;
    out->margin = margin > 0.0 ? margin : 0.05;
    if (!(k->steps_per_build > 0.0) || !isfinite(k->steps_per_build))
        return hg_fail(e, HG_EINVAL, "steps per build: %g must be > 0",
                       k->steps_per_build);
    hg_ranks_layout l;
    hg_ranks_layout_default(&l, P);
    int st;
    if (own_lines && (st = hg_ranks_layout_parse(own_lines, p->dim, &l, e)))
        return st;
    l.skin = skin;
    if ((st = add(out, p, faces, &l, own_lines ? "yours" : "LAMMPS' default",
                  cutghost, pairs, e)))
        return st;
    out->own = 0;
    /* every grid, uniform and shift-balanced along its split axes */
    for (int x = 1; x <= P; x++) {
        if (P % x)
            continue;
        for (int y = 1; y <= P / x; y++) {
            if ((P / x) % y)
                continue;
            int z = P / x / y;
            if (p->dim == 2 && z != 1)
                continue;
            hg_ranks_layout g;
            hg_ranks_layout_default(&g, P);
            g.user[0] = x;
            g.user[1] = y;
            g.user[2] = z;
            g.comm_cutoff = l.comm_cutoff;
            g.skin = skin;
            char name[96];
            if (p->dim == 3)
                snprintf(name, sizeof name, "grid %d x %d x %d", x, y, z);
            else
                snprintf(name, sizeof name, "grid %d x %d", x, y);
            if ((st = add(out, p, faces, &g, name, cutghost, pairs, e)))
                return st;
            int g3[3] = {x, y, z};
            if (!hg_ranks_split_axes(g3, p->dim, g.dims))
                continue;
            g.balance = HG_RANKS_SHIFT;
            g.thresh = 1.0;
            g.niter = 20;
            g.stopthresh = 1.0;
            snprintf(name + strlen(name), sizeof name - strlen(name),
                     ", shift balanced");
            if ((st = add(out, p, faces, &g, name, cutghost, pairs, e)))
                return st;
        }
    }
    if (P > 1) {
        hg_ranks_layout g;
        hg_ranks_layout_default(&g, P);
        g.balance = HG_RANKS_RCB;
        g.newton_off = 1; /* granular history: see hg_ranks_layout */
        g.thresh = 1.0;
        g.comm_cutoff = l.comm_cutoff;
        g.skin = skin;
        if ((st = add(out, p, faces, &g, "rcb (comm_style tiled, newton off)", cutghost,
                      pairs, e)))
            return st;
    }
    out->best = 0;
    for (int i = 1; i < out->n; i++)
        if (out->c[i].busiest < out->c[out->best].busiest)
            out->best = i;
    /* within the model's resolution of the least step, the one whose
     * busiest rank owns the fewest atoms (it stays balanced longer as the
     * atoms move, and the fixes go with the atoms) */
    double least = out->c[out->best].busiest;
    for (int i = 0; i < out->n; i++) {
        const hg_ranks_candidate *c = &out->c[i], *b = &out->c[out->best];
        if (c->busiest <= (1.0 + HG_RANKS_TIE) * least &&
            c->nlocal.max < b->nlocal.max)
            out->best = i;
    }
    out->answer = out->best;
    if (out->c[out->best].busiest >
        (1.0 - out->margin) * out->c[out->own].busiest) {
        out->answer = out->own;
        out->kept_own = 1;
    }
    return HG_OK;
}
