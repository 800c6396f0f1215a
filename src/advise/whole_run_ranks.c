/* whole_run_ranks.c - whole-run advice for P MPI ranks (hg_whole_run.h,
 * hg_ranks.h): the decompositions worth pricing, each priced frame split
 * by each of them (LAMMPS' own rules: models/lammps_ranks.c), the step
 * priced as the slowest rank's, and the decomposition of least predicted
 * loop chosen with its best neighbor setting and skin.
 *
 * Per priced frame, decomposition D and skin s, the slowest rank r* is
 * the one of most work at the frame's own build rate; its step is
 *   Pair(s) x its Pair share + ghost_step x its ghosts(s)
 *   + builds per step x (Neigh(setting, s) x its Neigh share
 *                        + ghost_build x its ghosts(s))
 * with Pair and Neigh the engine's model of the whole frame on one rank,
 * the Pair share (pair_pair x its stored pairs + pair_atom x its atoms)
 * over the frame's, the Neigh share half by atoms and half by stored
 * pairs, the ghosts within the pair cutoff + s of its sub-box (periodic
 * images included). A grid is kept for the whole run (LAMMPS chooses it
 * once); `fix balance` shifts the cuts as the atoms move, priced as
 * balanced on every frame; the user's static `balance` holds the cuts
 * it made on the first frame with atoms. */
#include "hg_ranks.h"
#include "hg_engine.h"
#include "whole_run_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grids of the largest frame's advice kept as candidates, at most. */
#define TOP_GRIDS 4

/* l as a decomposition to price; its index (an equal one listed before:
 * that one's; -1: the list is full). */
static int add_decomp(run_ranks *rr, const hg_ranks_layout *l,
                      const char *name, int dim)
{
    if (rr->nD >= HG_RUN_MAX_DECOMPS)
        return -1;
    for (int i = 0; i < rr->nD; i++)
        if (!memcmp(rr->lay[i].user, l->user, sizeof l->user) &&
            rr->lay[i].balance == l->balance &&
            !strcmp(rr->lay[i].dims, l->dims) && rr->lay[i].fix == l->fix &&
            rr->lay[i].nprocs == l->nprocs)
            return i;
    rr->lay[rr->nD] = *l;
    snprintf(rr->name[rr->nD], sizeof rr->name[0], "%s", name);
    (void)dim;
    return rr->nD++;
}

void run_ranks_free(run_ranks *rr)
{
    if (!rr)
        return;
    free(rr->fp);
    free(rr->fn);
    free(rr->cs);
    free(rr->cb);
    free(rr->stats);
    for (int i = 0; i < HG_RUN_MAX_DECOMPS; i++)
        for (int a = 0; a < 3; a++)
            free(rr->held[i][a]);
    memset(rr, 0, sizeof *rr);
}

int run_ranks_setup(const hg_run_input *in, const hg_particles *rep,
                    size_t nf, hg_run_advice *a, run_ranks *rr, hg_err *e)
{
    memset(rr, 0, sizeof *rr);
    rr->own_fix = -1;
    int P = in->mpi;
    int Plog = a->has_log && a->log.mpi > 0 ? a->log.mpi : P;
    rr->P = P;
    rr->scale_index = -1;
    for (int i = 0; i < HG_RUN_MAX_DECOMPS; i++)
        rr->dup[i] = -1;
    rr->pair_cut = a->dmax;
    const char *own_text = in->decomposition
                               ? in->decomposition
                               : (a->has_log ? a->log.decomp : NULL);
    hg_ranks_layout own;
    hg_ranks_layout_default(&own, P);
    int st;
    if (own_text && *own_text &&
        (st = hg_ranks_layout_parse(own_text, a->dim, &own, e)))
        return hg_fail(e, st, "%s: %s",
                       in->decomposition ? "--decomposition" : "--log",
                       e->msg);
    if (!in->engine_balance && own.balance != HG_RANKS_NONE)
        return hg_fail(e, HG_EINVAL,
                       "--decomposition: LIGGGHTS 3.8 has no balance "
                       "command nor fix balance; give its processors line "
                       "only");
    own.nprocs = P;
    int g[3];
    double unit[3] = {1.0, 1.0, 1.0};
    if ((st = hg_ranks_grid(P, a->dim, unit, own.user, g, e)))
        return hg_fail(e, st, "%s: %s",
                       in->decomposition ? "--decomposition" : "--log",
                       e->msg);
    add_decomp(rr, &own,
               own_text && *own_text ? "yours" : "the default grid",
               a->dim);
    rr->own = 0;
    double own_skin = a->skins[a->n_skins - 1];
    /* your grid as it is, with a fix balance shifting its cuts along the
     * axes it may split: the least change to your input, and one that
     * `hgridopt run` can make between two segments of a run */
    if (in->engine_balance && P > 1 && own.balance == HG_RANKS_NONE &&
        !in->own_decomposition_only) {
        hg_ranks_layout f = own;
        int k2 = 0;
        for (int ax = 0; ax < a->dim && ax < 3; ax++)
            if (own.user[ax] != 1)
                f.dims[k2++] = (char)('x' + ax);
        f.dims[k2] = 0;
        if (k2) {
            f.balance = HG_RANKS_SHIFT;
            f.fix = 1;
            f.thresh = 1.1;
            f.niter = 20;
            f.stopthresh = 1.1;
            rr->own_fix = add_decomp(rr, &f, own_text && *own_text
                                                 ? "yours, fix balance"
                                                 : "the default grid, fix "
                                                   "balance",
                                     a->dim);
        }
    }
    /* the largest frame's best grids, balanced and not, and rcb (not
     * asked: the user's decomposition only) */
    if (!in->own_decomposition_only) {
        hg_pairs pairs = {0};
        double skin = a->skins[0];
        for (int j = 1; j < a->n_skins; j++)
            skin = fmax(skin, fmin(a->skins[j], 0.1 * a->dmax));
        if ((st = hg_ranks_pairs_find(rep, NULL, skin, &pairs, e))) {
            hg_pairs_clear(&pairs);
            return st;
        }
        hg_ranks_costs k;
        hg_ranks_costs_shipped(&k, 0.0, 0.5 * (a->dmax + skin), 10.0);
        if ((st = hg_ranks_costs_load(&k, in->engine->comm, e))) {
            hg_pairs_clear(&pairs);
            return st;
        }
        hg_ranks_advice *adv = malloc(sizeof *adv);
        if (!adv) {
            hg_pairs_clear(&pairs);
            return hg_fail(e, HG_ENOMEM, "out of memory");
        }
        st = hg_ranks_advise(rep, NULL, P, NULL, a->dmax + skin, own_skin,
                             &pairs, &k, 0.05, adv, e);
        hg_pairs_clear(&pairs);
        if (st) {
            free(adv);
            return st;
        }
        hg_ranks_layout d0;
        hg_ranks_layout_default(&d0, P);
        add_decomp(rr, &d0, "the default grid", a->dim);
        int taken = 0;
        for (int round = 0; round < adv->n && taken < TOP_GRIDS; round++) {
            int bi = -1;
            for (int i = 0; i < adv->n; i++) {
                const hg_ranks_candidate *c = &adv->c[i];
                if (c->tiled || c->busiest < 0.0 ||
                    (!in->engine_balance &&
                     c->layout.balance != HG_RANKS_NONE))
                    continue;
                if (bi < 0 || c->busiest < adv->c[bi].busiest)
                    bi = i;
            }
            if (bi < 0)
                break;
            hg_ranks_layout l = adv->c[bi].layout;
            char name[96];
            snprintf(name, sizeof name, "%s", adv->c[bi].name);
            if (l.balance == HG_RANKS_SHIFT) {
                l.fix = 1;
                l.thresh = 1.1;
                l.stopthresh = 1.1;
                snprintf(name, sizeof name, "grid %d x %d x %d, fix balance",
                         l.user[0], l.user[1], l.user[2]);
                if (a->dim == 2)
                    snprintf(name, sizeof name, "grid %d x %d, fix balance",
                             l.user[0], l.user[1]);
            }
            add_decomp(rr, &l, name, a->dim);
            adv->c[bi].busiest = -1.0;
            taken++;
        }
        free(adv);
        if (in->engine_balance && P > 1) {
            hg_ranks_layout r;
            hg_ranks_layout_default(&r, P);
            r.balance = HG_RANKS_RCB;
            r.newton_off = 1;
            r.fix = 1;
            r.thresh = 1.1;
            add_decomp(rr, &r, "rcb (tiled, newton off), fix balance",
                       a->dim);
        }
    }
    /* rebalancing: about a hundred times over the run, at least every
     * 100 steps apart */
    long long span = a->last_step - a->first_step;
    int every = (int)fmax(100.0, 100.0 * round((double)span / 1e4));
    for (int i = 0; i < rr->nD; i++)
        if (rr->lay[i].fix && i != rr->own)
            rr->lay[i].fix_every = every;
    rr->n_price = rr->nD;
    for (int i = 0; i < rr->nD; i++)
        rr->lay[i].skin = own_skin;
    if (Plog != P) { /* the log's times are of its own ranks */
        hg_ranks_layout s = own;
        s.nprocs = Plog;
        if (rr->nD < HG_RUN_MAX_DECOMPS) {
            rr->lay[rr->nD] = s;
            rr->lay[rr->nD].skin = own_skin;
            snprintf(rr->name[rr->nD], sizeof rr->name[0],
                     "yours at the log's %d ranks", Plog);
            rr->scale_index = rr->nD++;
        }
    }
    rr->S = a->n_skins;
    size_t np = nf ? nf : 1;
    size_t n = np * (size_t)rr->nD * (size_t)rr->S;
    rr->fp = calloc(n, sizeof *rr->fp);
    rr->fn = calloc(n, sizeof *rr->fn);
    rr->cs = calloc(n, sizeof *rr->cs);
    rr->cb = calloc(n, sizeof *rr->cb);
    rr->stats = calloc(np * (size_t)rr->nD * 4, sizeof *rr->stats);
    if (!rr->fp || !rr->fn || !rr->cs || !rr->cb || !rr->stats)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    hg_ranks_costs_shipped(&rr->k, 0.0, 0.0, 1.0);
    return hg_ranks_costs_load(&rr->k, in->engine->comm, e);
}

/* Skins ascending (a->skins has the user's last) with their indices. */
static void sorted_skins(const hg_run_advice *a, double *s, int *idx)
{
    int n = a->n_skins;
    for (int j = 0; j < n; j++)
        idx[j] = j;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && a->skins[idx[j - 1]] > a->skins[idx[j]];
             j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    for (int j = 0; j < n; j++)
        s[j] = a->skins[idx[j]];
}

int run_ranks_frame(run_ranks *rr, const hg_run_advice *a,
                    const hg_particles *p, size_t m, double u,
                    const double *neigh0, const double *pair, hg_err *e)
{
    if (m == 0) /* LAMMPS chooses the grid once, for the box it starts with */
        for (int D = 0; D < rr->nD; D++) {
            hg_ranks_layout *l = &rr->lay[D];
            if (l->user[0] && l->user[1] && l->user[2])
                continue;
            double len[3];
            for (int ax = 0; ax < 3; ax++)
                len[ax] = p->hi[ax] - p->lo[ax];
            if (p->dim == 2)
                len[2] = 1.0;
            int g[3];
            int st = hg_ranks_grid(l->nprocs, p->dim, len, l->user, g, e);
            if (st)
                return st;
            memcpy(l->user, g, sizeof g);
            if (D == rr->own_fix) /* its shift along the axes split */
                hg_ranks_split_axes(g, p->dim, l->dims);
        }
    if (m == 0) /* the same layout under two names: priced once */
        for (int D = 0; D < rr->n_price; D++) {
            rr->dup[D] = -1;
            for (int o = 0; o < D && rr->dup[D] < 0; o++)
                if (rr->dup[o] < 0 &&
                    !memcmp(rr->lay[o].user, rr->lay[D].user,
                            sizeof rr->lay[D].user) &&
                    rr->lay[o].balance == rr->lay[D].balance &&
                    rr->lay[o].fix == rr->lay[D].fix &&
                    !strcmp(rr->lay[o].dims, rr->lay[D].dims) &&
                    rr->lay[o].nprocs == rr->lay[D].nprocs)
                    rr->dup[D] = o;
        }
    if (p->n == 0)
        return HG_OK;
    double s[HG_RUN_MAX_SKINS];
    int idx[HG_RUN_MAX_SKINS];
    sorted_skins(a, s, idx);
    /* equal skins (the user's among the grid) counted once */
    double su[HG_RUN_MAX_SKINS];
    int map[HG_RUN_MAX_SKINS], nu = 0;
    for (int j = 0; j < rr->S; j++) {
        if (!nu || s[j] > su[nu - 1])
            su[nu++] = s[j];
        map[idx[j]] = nu - 1;
    }
    /* the frame's pairs and their gaps, the same for every decomposition */
    hg_ranks_gaps gaps;
    int st = hg_ranks_gaps_find(p, NULL, su, nu, &gaps, e);
    for (int D = 0; D < rr->nD && st == HG_OK; D++) {
        if (D < rr->n_price && rr->dup[D] >= 0)
            continue;
        hg_ranks_layout l = rr->lay[D];
        int held = !l.fix && l.balance == HG_RANKS_SHIFT;
        if (held && rr->held[D][0]) { /* static balance: its first cuts */
            l.balance = HG_RANKS_NONE;
            for (int ax = 0; ax < 3; ax++)
                l.given[ax] = rr->held[D][ax];
        }
        hg_ranks_profile pf;
        if ((st = hg_ranks_profile_of(p, NULL, &l, rr->pair_cut, su, nu,
                                      &gaps, &pf, e)))
            break;
        const hg_ranks_result *r = &pf.res;
        if (held && !rr->held[D][0])
            for (int ax = 0; ax < 3; ax++) {
                size_t k = (size_t)r->grid[ax] + 1;
                rr->held[D][ax] = malloc(sizeof(double) * k);
                if (rr->held[D][ax])
                    memcpy(rr->held[D][ax], r->split[ax], sizeof(double) * k);
            }
        int P = r->nprocs;
        double N = (double)p->n;
        for (int j = 0; j < rr->S; j++) {
            int ju = map[j];
            double ptot = 0.0;
            for (int q = 0; q < P; q++)
                ptot += pf.pairs[(size_t)q * nu + ju];
            double denom = rr->k.pair_pair * ptot + rr->k.pair_atom * N;
            double bps = s[0] > 0.0 ? fmin(1.0, 2.0 * u / a->skins[j]) : 1.0;
            /* bins (LAMMPS' default size, half the neighbor cutoff): a
             * rank clears and fills those of its sub-box grown by the
             * cutoff at each build, where the one-rank build has the
             * domain's; its share of those is in neigh0 x sn, so only what
             * its own exceed that share is added (never taken off: the
             * candidates' one-rank builds differ in bins) */
            double cut = rr->pair_cut + a->skins[j], bsz = 0.5 * cut;
            double best = -1.0;
            size_t x = (m * (size_t)rr->nD + (size_t)D) * rr->S + j;
            for (int q = 0; q < P; q++) {
                double pr = pf.pairs[(size_t)q * nu + ju];
                double nl = (double)r->ranks[q].nlocal;
                double g = (double)pf.nghost[(size_t)q * nu + ju];
                double sp = denom > 0.0 ? (rr->k.pair_pair * pr +
                                           rr->k.pair_atom * nl) /
                                              denom
                                        : nl / N;
                double sn = 0.5 * nl / N +
                            0.5 * (ptot > 0.0 ? pr / ptot : nl / N);
                double bins = rr->k.neigh_bin *
                              hg_ranks_bins_beyond(p->dim, r->ranks[q].lo,
                                                   r->ranks[q].hi, p->lo,
                                                   p->hi, cut, bsz, sn);
                double t = pair[j] * sp + rr->k.ghost_step * g +
                           bps * (neigh0[j] * sn + rr->k.ghost_build * g +
                                  bins);
                if (t > best) {
                    best = t;
                    rr->fp[x] = sp;
                    rr->fn[x] = sn;
                    rr->cs[x] = rr->k.ghost_step * g;
                    rr->cb[x] = rr->k.ghost_build * g + bins;
                }
            }
        }
        /* the table's figures: at the skin nearest the user's */
        double *st4 = &rr->stats[(m * (size_t)rr->nD + (size_t)D) * 4];
        int jo = map[a->n_skins - 1];
        double gmax = 0.0, gsum = 0.0;
        for (int q = 0; q < P; q++) {
            double g = (double)pf.nghost[(size_t)q * nu + jo];
            gmax = fmax(gmax, g);
            gsum += g;
        }
        st4[0] = r->nlocal.max;
        st4[1] = r->nlocal.ave;
        st4[2] = gmax;
        st4[3] = gsum / P;
        hg_ranks_profile_clear(&pf);
    }
    hg_ranks_gaps_clear(&gaps);
    return st;
}

/* The busiest rank's share of the atoms, mean over the priced frames:
 * the log's time outside Pair and Neigh (the fixes' integration, walls,
 * insertion) goes with a rank's atoms, so it is priced by this share. */
static double atom_share(const run_ranks *rr, const run_data *d, int D)
{
    double s = 0.0;
    int n = 0;
    for (size_t m = 0; m < d->np; m++) {
        const double *s4 = &rr->stats[(m * (size_t)rr->nD + D) * 4];
        if (!(s4[1] > 0.0))
            continue;
        s += s4[0] / (s4[1] * rr->lay[D].nprocs);
        n++;
    }
    return n ? s / n : 1.0 / rr->lay[D].nprocs;
}

/* The busiest rank's atom share of priced frame m under D. */
static double frame_share(const run_ranks *rr, size_t m, int D)
{
    const double *s4 = &rr->stats[(m * (size_t)rr->nD + D) * 4];
    return s4[1] > 0.0 ? s4[0] / (s4[1] * rr->lay[D].nprocs)
                       : 1.0 / rr->lay[D].nprocs;
}

/* What scaled allocated in x. */
static void scaled_free(run_data *x)
{
    free(x->neigh);
    free(x->pair);
    free(x->pa_atoms);
    free(x->pa_contacts);
}

/* d's costs for decomposition D into x (allocated; x->frames shared). */
static int scaled(const run_data *d, const run_ranks *rr, int D,
                  run_data *x, hg_err *e)
{
    *x = *d;
    size_t nk = (size_t)d->np * d->K * d->S, ns = (size_t)d->np * d->S;
    x->neigh = malloc(sizeof *x->neigh * (nk ? nk : 1));
    x->pair = malloc(sizeof *x->pair * (ns ? ns : 1));
    x->pa_atoms = malloc(sizeof *x->pa_atoms * (d->np ? d->np : 1));
    x->pa_contacts =
        d->contacts ? malloc(sizeof *x->pa_contacts * (d->np ? d->np : 1))
                    : NULL;
    if (!x->neigh || !x->pair || !x->pa_atoms ||
        (d->contacts && !x->pa_contacts)) {
        scaled_free(x);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    /* the contacts' work beyond the model's goes with the busiest rank's
     * atoms (and their contacts) */
    for (size_t m = 0; m < d->np; m++) {
        x->pa_atoms[m] = (double)d->frames[d->priced[m]].n *
                         frame_share(rr, m, D);
        if (x->pa_contacts)
            x->pa_contacts[m] = d->contacts[m] * frame_share(rr, m, D);
    }
    for (size_t m = 0; m < d->np; m++)
        for (int j = 0; j < d->S; j++) {
            size_t r = (m * (size_t)rr->nD + (size_t)D) * rr->S + j;
            int empty = !(rr->fp[r] > 0.0 || rr->fn[r] > 0.0);
            x->pair[m * d->S + j] =
                empty ? d->pair[m * d->S + j]
                      : d->pair[m * d->S + j] * rr->fp[r] + rr->cs[r];
            for (int k = 0; k < d->K; k++) {
                size_t q = (m * d->K + k) * d->S + j;
                x->neigh[q] = empty ? d->neigh[q]
                                    : d->neigh[q] * rr->fn[r] + rr->cb[r];
            }
        }
    return HG_OK;
}

/* run_choose for decomposition D with the scales found at the user's
 * (sp, sn, sb; rest: the log's other time, taken by D's atom share)
 * into adv, which starts as base. */
static int choose_at(const hg_run_input *in, const run_data *d,
                     const run_ranks *rr, int D, const double sc[6],
                     double share_s, int fixed, const hg_run_advice *base,
                     hg_run_advice *adv, hg_err *e)
{
    run_data x;
    int st = scaled(d, rr, D, &x, e);
    if (st)
        return st;
    x.sp = sc[0];
    x.sn = sc[1];
    x.sb = sc[2];
    x.pa = sc[4];
    x.pa_contact = sc[5] != 0.0;
    x.fixed_scales = fixed;
    *adv = *base;
    adv->rest = sc[3] * atom_share(rr, d, D) / share_s;
    adv->scale_pair = sc[0];
    adv->pair_per_atom = sc[4];
    adv->pair_per_contact = sc[5] != 0.0;
    adv->scale_neigh = sc[1];
    adv->scale_builds = sc[2];
    st = run_choose(in, &x, adv, e);
    scaled_free(&x);
    return st;
}

static void decomp_lines(const run_ranks *rr, int D, int dim, char *buf,
                         size_t len)
{
    hg_ranks_layout_lines(&rr->lay[D], dim, buf, len);
}

/* ---- a schedule whose phases change the decomposition ----
 *
 * LAMMPS fixes the processor grid when it makes the box, so phases share
 * it: a phase may run the grid as it is (only first: once balanced, the
 * cuts stay where the balance left them) or with `fix balance`; rcb is a
 * grid of its own. Each phase takes its decomposition, neighbor setting
 * and skin; dynamic programming over the blocks between priced frames
 * finds the least Loop (each decomposition's Neigh + Pair + communication
 * of its slowest rank, and the log's other time by its busiest rank's
 * atom share per block). It is kept when it changes the decomposition
 * and saves the schedule's gain over the best single decomposition,
 * priced the same way. */

/* May a phase of layout b follow one of layout a (the same grid; a phase
 * without fix balance only first; rcb alone)? */
int run_dsched_may_follow(const hg_ranks_layout *a, const hg_ranks_layout *b)
{
    if (a == b)
        return 1;
    if (a->balance == HG_RANKS_RCB || b->balance == HG_RANKS_RCB)
        return 0;
    return !memcmp(a->user, b->user, sizeof a->user) && b->fix;
}

static int dsched_make(const hg_run_input *in, const run_data *d,
                       const run_ranks *rr, const double sc[6],
                       double share_s, const hg_run_advice *a,
                       run_dsched *ds, hg_err *e)
{
    memset(ds, 0, sizeof *ds);
    for (int D = 0; D < rr->n_price; D++)
        if (rr->dup[D] < 0) {
            ds->lay[ds->nD] = &rr->lay[D];
            ds->idx[ds->nD++] = D;
        }
    int nb = (int)d->np - 1, K = d->K, S = d->S;
    ds->nb = nb;
    ds->K = K;
    ds->S = S;
    if (nb < 2)
        return HG_OK;
    size_t nn = (size_t)nb + 1, KS = (size_t)K * S;
    ds->seg = malloc(sizeof *ds->seg * (size_t)ds->nD * nn * nn);
    ds->kj = malloc(sizeof *ds->kj * (size_t)ds->nD * nn * nn);
    size_t *use = malloc(sizeof *use * d->np);
    double *prefix = malloc(sizeof *prefix * nn * (KS + 1));
    if (!ds->seg || !ds->kj || !use || !prefix) {
        free(use);
        free(prefix);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    for (size_t m = 0; m < d->np; m++)
        use[m] = m;
    long long span = d->frames[d->priced[d->np - 1]].step -
                     d->frames[d->priced[0]].step;
    int st = HG_OK;
    for (int r = 0; r < ds->nD && st == HG_OK; r++) {
        int D = ds->idx[r];
        run_data x;
        run_blocks b;
        if ((st = scaled(d, rr, D, &x, e)))
            break;
        x.sp = sc[0];
        x.sn = sc[1];
        x.sb = sc[2];
        x.pa = sc[4];
        x.pa_contact = sc[5] != 0.0;
        st = run_blocks_make(&x, a->skins, use, d->np, &b, e);
        scaled_free(&x);
        if (st)
            break;
        /* prefix sums per (k, j) and of the rest ([KS]) */
        for (size_t x0 = 0; x0 <= KS; x0++)
            prefix[x0] = 0.0;
        for (int i = 0; i < nb; i++) {
            double steps = (double)(b.to[i] - b.from[i]);
            double sh = 0.5 * (frame_share(rr, (size_t)i, D) +
                               frame_share(rr, (size_t)i + 1, D));
            double rest = span > 0 ? sc[3] * steps / (double)span * sh /
                                         share_s
                                   : 0.0;
            for (size_t q = 0; q < KS; q++)
                prefix[(i + 1) * (KS + 1) + q] =
                    prefix[i * (KS + 1) + q] + b.cost[(size_t)i * KS + q];
            prefix[(i + 1) * (KS + 1) + KS] =
                prefix[i * (KS + 1) + KS] + rest;
        }
        for (int b1 = 1; b1 <= nb; b1++) {
            double umax = 0.0;
            for (int b0 = b1 - 1; b0 >= 0; b0--) {
                umax = fmax(umax, b.umax[b0]);
                double best = INFINITY;
                int bk = -1;
                for (int j = 0; j < S; j++) {
                    if (!run_skin_allowed(in, a->skins[j], umax))
                        continue;
                    for (int k = 0; k < K; k++) {
                        size_t q = (size_t)k * S + j;
                        double v = prefix[b1 * (KS + 1) + q] -
                                   prefix[b0 * (KS + 1) + q];
                        if (v < best) {
                            best = v;
                            bk = (int)q;
                        }
                    }
                }
                size_t at = ((size_t)r * nn + b0) * nn + b1;
                ds->seg[at] = best + prefix[b1 * (KS + 1) + KS] -
                              prefix[b0 * (KS + 1) + KS];
                ds->kj[at] = bk;
            }
        }
        run_blocks_free(&b);
    }
    free(use);
    free(prefix);
    return st;
}

double run_dsched_best(const run_dsched *ds, int G, int *rows, int *cut,
                       int *nph)
{
    int nb = ds->nb, R = ds->nD;
    size_t nn = (size_t)nb + 1;
    *nph = 0;
    /* F[(g * nn + b) * R + r]: blocks [0, b) in g phases, the last r */
    size_t n = (size_t)(G + 1) * nn * R;
    double *F = malloc(sizeof *F * n);
    int *from = malloc(sizeof *from * n * 2);
    if (!F || !from) {
        free(F);
        free(from);
        return INFINITY;
    }
    for (size_t i = 0; i < n; i++)
        F[i] = INFINITY;
    for (int r = 0; r < R; r++)
        for (int b1 = 1; b1 <= nb; b1++) {
            size_t at = (1 * nn + b1) * R + r;
            F[at] = ds->seg[((size_t)r * nn + 0) * nn + b1];
            from[2 * at] = 0;
            from[2 * at + 1] = -1;
        }
    for (int g = 2; g <= G; g++)
        for (int b1 = 1; b1 <= nb; b1++)
            for (int r = 0; r < R; r++)
                for (int b0 = 1; b0 < b1; b0++)
                    for (int p = 0; p < R; p++) {
                        if (!run_dsched_may_follow(ds->lay[p], ds->lay[r]))
                            continue;
                        double v = F[((g - 1) * nn + b0) * R + p] +
                                   ds->seg[((size_t)r * nn + b0) * nn + b1];
                        size_t at = (g * nn + b1) * R + r;
                        if (v < F[at]) {
                            F[at] = v;
                            from[2 * at] = b0;
                            from[2 * at + 1] = p;
                        }
                    }
    double best = INFINITY;
    int bg = 0, br = -1;
    for (int g = 1; g <= G; g++) {
        int gr = -1; /* the least with g phases */
        for (int r = 0; r < R; r++)
            if (gr < 0 || F[(g * nn + nb) * R + r] <
                              F[(g * nn + nb) * R + gr])
                gr = r;
        double v = F[(g * nn + nb) * R + gr];
        if (br < 0 ? isfinite(v) : v < 0.99 * best) { /* a phase more only
                                                         for 1 % less */
            best = v;
            bg = g;
            br = gr;
        }
    }
    if (br >= 0) {
        int b = nb, r = br;
        *nph = bg;
        cut[bg] = nb;
        for (int g = bg; g >= 1; g--) {
            size_t at = (g * nn + b) * R + r;
            rows[g - 1] = r;
            cut[g - 1] = from[2 * at];
            int p = from[2 * at + 1];
            b = cut[g - 1];
            r = p;
        }
    }
    free(F);
    free(from);
    return best;
}

/* The schedule into a when it changes the decomposition and saves the
 * gain over the best single decomposition (the answer's segments
 * replaced). */
static int decomp_schedule(const hg_run_input *in, const run_data *d,
                           const run_ranks *rr, const double sc[6],
                           double share_s, hg_run_advice *a, hg_err *e)
{
    int G = in->max_segments > 0 ? in->max_segments : 3;
    G = G > HG_RUN_MAX_SEGMENTS ? HG_RUN_MAX_SEGMENTS : G;
    double gain = in->schedule_gain > 0.0 ? in->schedule_gain : 0.10;
    if (G < 2 || d->np < 3)
        return HG_OK;
    run_dsched ds;
    int st = dsched_make(in, d, rr, sc, share_s, a, &ds, e);
    int rows[HG_RUN_MAX_SEGMENTS], cut[HG_RUN_MAX_SEGMENTS + 1], nph = 0;
    double total = st == HG_OK && ds.seg
                       ? run_dsched_best(&ds, G, rows, cut, &nph)
                       : INFINITY;
    size_t nn = (size_t)ds.nb + 1;
    double single = INFINITY;
    for (int r = 0; st == HG_OK && ds.seg && r < ds.nD; r++)
        single = fmin(single, ds.seg[((size_t)r * nn + 0) * nn + ds.nb]);
    int changes = 0;
    for (int g = 1; g < nph; g++)
        changes += rows[g] != rows[g - 1];
    if (st == HG_OK && isfinite(total) && changes &&
        total < (1.0 - gain) * single) {
        for (int i = 0; i < a->n_segments; i++)
            free(a->segments[i].lines);
        a->n_segments = 0;
        /* the rest of the answer's loop stays a->rest: the phases' seconds
         * carry their own share of it */
        a->schedule_seconds = total - a->rest;
        for (int g = 0; g < nph && st == HG_OK; g++) {
            int D = ds.idx[rows[g]];
            size_t at = ((size_t)rows[g] * nn + cut[g]) * nn + cut[g + 1];
            int k = ds.kj[at] / ds.S, j = ds.kj[at] % ds.S;
            hg_run_segment *s = &a->segments[a->n_segments++];
            memset(s, 0, sizeof *s);
            s->decomp = rr->slot[D];
            s->choice.candidate = k;
            s->choice.skin = a->skins[j];
            s->choice.seconds = ds.seg[at];
            s->from = d->frames[d->priced[cut[g]]].step;
            s->to = d->frames[d->priced[cut[g + 1]]].step;
            char *nl = NULL;
            st = in->engine->run->lines(&a->candidates[k], a->skins[j],
                                        a->dmax, 1, &nl, e);
            if (st)
                break;
            /* the decomposition: all of it first, else what changes */
            char dl[600] = "";
            if (g == 0)
                hg_ranks_layout_lines(&rr->lay[D], a->dim, dl, sizeof dl);
            else if (rows[g] != rows[g - 1]) {
                char full[600];
                const hg_ranks_layout *prev = &rr->lay[ds.idx[rows[g - 1]]];
                hg_ranks_layout_lines(&rr->lay[D], a->dim, full,
                                      sizeof full);
                const char *body = strncmp(full, "processors", 10)
                                       ? full
                                       : strchr(full, '\n');
                snprintf(dl, sizeof dl, "%s%s",
                         prev->fix ? "unfix hgridopt_balance\n" : "",
                         body ? body + (*body == '\n') : "");
            }
            size_t n1 = strlen(nl), n2 = strlen(dl);
            s->lines = realloc(nl, n1 + n2 + 2);
            if (!s->lines) {
                free(nl);
                st = hg_fail(e, HG_ENOMEM, "out of memory");
                break;
            }
            if (n1 && s->lines[n1 - 1] != '\n' && n2)
                s->lines[n1++] = '\n';
            memcpy(s->lines + n1, dl, n2 + 1);
        }
        if (st == HG_OK)
            run_note(a, "the schedule changes the decomposition between "
                        "phases (the processor grid stays, as LAMMPS fixes "
                        "it with the box): %.3g s against %.3g s for the "
                        "best single decomposition",
                     total, single);
    }
    free(ds.seg);
    free(ds.kj);
    return st;
}

int run_ranks_choose(const hg_run_input *in, run_data *d, run_ranks *rr,
                     hg_run_advice *a, hg_err *e)
{
    /* the scales: the user's decomposition at the log's ranks */
    int si = rr->scale_index >= 0 ? rr->scale_index : rr->own;
    run_data x;
    hg_run_advice *tmp = malloc(sizeof *tmp);
    hg_run_advice *best = malloc(sizeof *best);
    if (!tmp || !best) {
        free(tmp);
        free(best);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    hg_run_advice base = *a; /* before any choice: no owned pointers */
    int st = scaled(d, rr, si, &x, e);
    if (st == HG_OK) {
        *tmp = base;
        st = run_choose(in, &x, tmp, e);
        scaled_free(&x);
    }
    double sp = 1.0, sn = 1.0, sb = 1.0, rest = 0.0, pa = 0.0, pc = 0.0;
    if (st == HG_OK) {
        sp = x.sp;
        sn = x.sn;
        sb = x.sb;
        pa = x.pa;
        pc = x.pa_contact;
        rest = tmp->rest;
        base.pair_log_ratio = tmp->pair_log_ratio;
        hg_run_advice_clear(tmp);
    }
    int bestD = -1;
    double share_s = atom_share(rr, d, si);
    const double sc[6] = {sp, sn, sb, rest, pa, pc};
    int listed = 0;
    for (int D = 0; st == HG_OK && D < rr->n_price; D++) {
        if (rr->dup[D] >= 0)
            continue;
        if ((st = choose_at(in, d, rr, D, sc, share_s, a->has_log, &base,
                            tmp, e)))
            break;
        rr->slot[D] = listed;
        if (D == rr->own)
            base.own_loop = tmp->rest + tmp->own.seconds;
        hg_run_decomp *dc = &base.decomps[listed++];
        snprintf(dc->name, sizeof dc->name, "%s", rr->name[D]);
        decomp_lines(rr, D, a->dim, dc->lines, sizeof dc->lines);
        dc->seconds = tmp->best.seconds;
        dc->loop = tmp->rest + tmp->best.seconds;
        dc->candidate = tmp->best.candidate;
        dc->skin = tmp->best.skin;
        double ar = 0.0, gr = 0.0;
        int nf = 0;
        for (size_t m = 0; m < d->np; m++) {
            const double *s4 = &rr->stats[(m * (size_t)rr->nD + D) * 4];
            if (!(s4[1] > 0.0))
                continue;
            ar += s4[0] / s4[1];
            gr += s4[0] > 0.0 ? s4[2] / s4[0] : 0.0;
            nf++;
            dc->last_atoms_max = s4[0];
            dc->last_atoms_ave = s4[1];
            dc->last_ghosts_max = s4[2];
            dc->last_ghosts_ave = s4[3];
        }
        dc->atoms_ratio = nf ? ar / nf : 0.0;
        dc->ghosts_ratio = nf ? gr / nf : 0.0;
        if (bestD < 0 || dc->loop < base.decomps[rr->slot[bestD]].loop) {
            if (bestD >= 0)
                hg_run_advice_clear(best);
            *best = *tmp;
            bestD = D;
        } else if (D == rr->own && bestD != D) {
            /* kept below if nothing saves the margin */
            hg_run_advice_clear(tmp);
        } else
            hg_run_advice_clear(tmp);
    }
    base.n_decomps = listed;
    /* within the model's resolution, the decomposition whose busiest rank
     * owns the fewest atoms (as hg_ranks_advise) */
    if (st == HG_OK && bestD >= 0) {
        double least = base.decomps[rr->slot[bestD]].loop;
        int pick = bestD;
        for (int D = 0; D < rr->n_price; D++) {
            if (rr->dup[D] >= 0)
                continue;
            const hg_run_decomp *c = &base.decomps[rr->slot[D]],
                                *b = &base.decomps[rr->slot[pick]];
            if (c->loop <= (1.0 + HG_RANKS_TIE) * least &&
                c->atoms_ratio < b->atoms_ratio)
                pick = D;
        }
        if (pick != bestD) { /* price it again as the answer */
            hg_run_advice_clear(best);
            st = choose_at(in, d, rr, pick, sc, share_s, a->has_log, &base,
                           best, e);
            bestD = pick;
        }
    }
    if (st == HG_OK) {
        double margin = in->keep_margin != 0.0 ? in->keep_margin : 0.05;
        int so = rr->slot[rr->own];
        int keep = bestD != rr->own && margin > 0.0 &&
                   base.decomps[so].loop - base.decomps[rr->slot[bestD]].loop <
                       margin * base.decomps[so].loop;
        if (keep) { /* price the user's decomposition again as the answer */
            hg_run_advice_clear(best);
            st = choose_at(in, d, rr, rr->own, sc, share_s, a->has_log, &base,
                           best, e);
            bestD = rr->own;
        }
        if (st == HG_OK) {
            memcpy(best->decomps, base.decomps, sizeof base.decomps);
            best->n_decomps = base.n_decomps;
            /* set on base after your decomposition was priced: an answer
             * priced before (yours the first and the best) lacks it */
            best->own_loop = base.own_loop;
            best->own_decomp = rr->slot[rr->own];
            best->own_fix_decomp = -1;
            if (rr->own_fix >= 0)
                best->own_fix_decomp =
                    rr->slot[rr->dup[rr->own_fix] >= 0 ? rr->dup[rr->own_fix]
                                                       : rr->own_fix];
            best->best_decomp = rr->slot[bestD];
            best->kept_own_decomp = keep || bestD == rr->own;
            best->nprocs = rr->P;
            /* yours kept: your own lines, as you wrote them */
            const char *own_text =
                in->decomposition ? in->decomposition
                                  : (a->has_log ? a->log.decomp : "");
            snprintf(best->decomp_lines, sizeof best->decomp_lines, "%s",
                     bestD == rr->own && own_text && *own_text
                         ? own_text
                         : base.decomps[rr->slot[bestD]].lines);
            if (a->has_log && rr->scale_index >= 0)
                run_note(best, "your log ran on %d rank%s: the model is "
                               "scaled to it there, then priced on %d; its "
                               "time outside Pair and Neigh by the busiest "
                               "rank's share of the atoms",
                         a->log.mpi, a->log.mpi == 1 ? "" : "s", rr->P);
            if (a->has_log && a->log.decomp_changed)
                run_note(best, "your log changes its processors or balance "
                               "lines after its first run: compared with "
                               "the first");
            if (in->engine_balance)
                st = decomp_schedule(in, d, rr, sc, share_s, best, e);
            *a = *best;
        } else
            hg_run_advice_clear(best);
    } else if (bestD >= 0)
        hg_run_advice_clear(best);
    free(tmp);
    free(best);
    return st;
}
