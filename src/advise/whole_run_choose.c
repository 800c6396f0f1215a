/* whole_run_choose.c - whole-run advice (hg_whole_run.h), second half:
 * the steps between priced frames as blocks (builds from the motion of
 * every frame, Neigh and Pair costs interpolated by step between the
 * priced frames), the total of every setting and skin, the answer, the
 * user's setting and bin beside it, the sampling check, and a schedule
 * of phases where one pays. */
#include "hg_engine.h"
#include "whole_run_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void run_blocks_free(run_blocks *b)
{
    free(b->cost);
    free(b->neigh);
    free(b->builds);
    free(b->every);
    free(b->umax);
    free(b->atoms);
    free(b->contacts);
    free(b->from);
    free(b->to);
    memset(b, 0, sizeof *b);
}

/* The builds LAMMPS makes in `steps` steps at a skin whose trigger is
 * h (half the skin) when the fastest atom moves u a step and has moved
 * *acc since the last build: a build at the first step that takes the
 * displacement over h, then every floor(h / u) + 1 steps; *acc is left
 * at the displacement since the last. Counted in whole steps: on
 * LAMMPS' flatwall, pour, drum and 2D pour (frames 10-100 steps apart)
 * this gave LAMMPS' builds at skins 0.5x-4x the input's within 3 % on
 * average, 12 % at worst, where the rate 2u / skin was 7 % off on
 * average, 24 % at worst (tests/bench_builds.sh); at flatwall's skins
 * 0.14 and 0.15, 1396 and 1167 builds against LAMMPS' 1412 and 1168 (the
 * rate: 1502 and 1402). */
static double builds_in(double steps, double u, double h, double *acc)
{
    if (!(u > 0.0) || !(steps > 0.0))
        return 0.0;
    /* a displacement within 1e-4 of h is taken as not over it: a tie of
     * round numbers, as a dump's positions (read as floats) give it */
    h *= 1.0 + 1e-4;
    double first = floor((h - *acc) / u) + 1.0;
    if (first > steps) {
        *acc += steps * u;
        return 0.0;
    }
    double every = floor(h / u) + 1.0;
    double more = floor((steps - first) / every);
    *acc = (steps - first - more * every) * u;
    return 1.0 + more;
}

/* Block bi: the raw intervals between priced frames f0 < f1, weighted
 * toward the nearer end (lambda: where the interval's middle lies);
 * cnt[i * S + j]: the builds in the interval that ends at frame i. */
static void block(const run_data *d, const double *skins, const double *cnt,
                  size_t m0, size_t m1, int bi, run_blocks *b)
{
    int K = d->K, S = d->S;
    size_t f0 = d->priced[m0], f1 = d->priced[m1];
    double t0 = (double)d->frames[f0].step, T = d->frames[f1].step - t0;
    double A[HG_RUN_MAX_SKINS] = {0}, B[HG_RUN_MAX_SKINS] = {0};
    double C = 0.0, D = 0.0, umax = 0.0;
    for (size_t i = f0 + 1; i <= f1; i++) {
        double lo = (double)d->frames[i - 1].step, hi = d->frames[i].step;
        double dt = hi - lo, lam = (0.5 * (lo + hi) - t0) / T;
        double u = d->frames[i].u;
        umax = fmax(umax, u);
        for (int j = 0; j < S; j++) {
            double r = cnt[i * (size_t)S + j];
            A[j] += r * (1.0 - lam);
            B[j] += r * lam;
            b->builds[bi * S + j] += r;
            if (2.0 * u >= skins[j])
                b->every[bi * S + j] += dt;
        }
        C += dt * (1.0 - lam);
        D += dt * lam;
    }
    double a0 = d->pa_atoms ? d->pa_atoms[m0] : (double)d->frames[f0].n;
    double a1 = d->pa_atoms ? d->pa_atoms[m1] : (double)d->frames[f1].n;
    double at = C * a0 + D * a1, ct = 0.0;
    if (d->contacts) {
        const double *w = d->pa_contacts ? d->pa_contacts : d->contacts;
        ct = C * w[m0] + D * w[m1];
    }
    b->atoms[bi] = at;
    b->contacts[bi] = ct;
    double pw = d->pa_contact ? ct : at;
    for (int k = 0; k < K; k++)
        for (int j = 0; j < S; j++) {
            double n0 = d->neigh[(m0 * K + k) * S + j];
            double n1 = d->neigh[(m1 * K + k) * S + j];
            double ne = d->sn * (A[j] * n0 + B[j] * n1);
            size_t x = ((size_t)bi * K + k) * S + j;
            b->neigh[x] = ne;
            b->cost[x] = ne + d->sp * (C * d->pair[m0 * S + j] +
                                       D * d->pair[m1 * S + j]) +
                         d->pa * pw;
        }
    b->umax[bi] = umax;
    b->from[bi] = d->frames[f0].step;
    b->to[bi] = d->frames[f1].step;
}

int run_blocks_make(const run_data *d, const double *skins, const size_t *use,
                    size_t nu, run_blocks *b, hg_err *e)
{
    memset(b, 0, sizeof *b);
    int nb = (int)nu - 1, K = d->K, S = d->S;
    size_t n = (size_t)(nb > 0 ? nb : 1);
    b->nb = nb;
    b->K = K;
    b->S = S;
    b->cost = calloc(n * K * S, sizeof *b->cost);
    b->neigh = calloc(n * K * S, sizeof *b->neigh);
    b->builds = calloc(n * S, sizeof *b->builds);
    b->every = calloc(n * S, sizeof *b->every);
    b->umax = calloc(n, sizeof *b->umax);
    b->atoms = calloc(n, sizeof *b->atoms);
    b->contacts = calloc(n, sizeof *b->contacts);
    b->from = calloc(n, sizeof *b->from);
    b->to = calloc(n, sizeof *b->to);
    if (!b->cost || !b->neigh || !b->builds || !b->every || !b->umax ||
        !b->atoms || !b->contacts || !b->from || !b->to) {
        run_blocks_free(b);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    /* the builds of every interval, counted from the first frame on
     * (the displacement since the last build carries over), scaled by
     * sb (the user's log over the model's count of the user's skin) */
    double *cnt = calloc(d->nf * (size_t)S, sizeof *cnt);
    if (!cnt) {
        run_blocks_free(b);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    for (int j = 0; j < S; j++) {
        double acc = 0.0;
        for (size_t i = 1; i < d->nf; i++) {
            double dt = (double)(d->frames[i].step - d->frames[i - 1].step);
            cnt[i * (size_t)S + j] = fmin(
                dt, d->sb * builds_in(dt, d->frames[i].u, 0.5 * skins[j],
                                      &acc));
        }
    }
    for (int i = 0; i < nb; i++)
        block(d, skins, cnt, use[i], use[i + 1], i, b);
    free(cnt);
    return HG_OK;
}

void run_choice_sum(const run_blocks *b, int b0, int b1, int k, int j,
                    double skin, hg_run_choice *c)
{
    memset(c, 0, sizeof *c);
    c->candidate = k;
    c->skin = skin;
    for (int i = b0; i < b1; i++) {
        size_t x = ((size_t)i * b->K + k) * b->S + j;
        c->seconds += b->cost[x];
        c->neigh += b->neigh[x];
        c->builds += b->builds[i * b->S + j];
        c->steps_every_step += b->every[i * b->S + j];
    }
    c->pair = c->seconds - c->neigh;
}

/* A skin may be offered for blocks whose largest motion per step is umax:
 * the skin given, else one of 4x that motion or more (no atom crosses
 * half of it in one step with a margin). */
int run_skin_allowed(const hg_run_input *in, double skin, double umax)
{
    return in->skin > 0.0 || skin >= 4.0 * umax * (1.0 - 1e-12);
}

/* The largest motion per step over blocks [b0, b1). */
static double blocks_umax(const run_blocks *b, int b0, int b1)
{
    double umax = 0.0;
    for (int i = b0; i < b1; i++)
        umax = fmax(umax, b->umax[i]);
    return umax;
}

/* The least total over blocks [b0, b1) of any candidate at an allowed
 * skin: its k and j. */
static double least(const hg_run_input *in, const hg_run_advice *a,
                    const run_blocks *b, const double *prefix, int b0, int b1,
                    double umax, int *k_out, int *j_out)
{
    int K = b->K, S = b->S;
    double best = INFINITY;
    for (int j = 0; j < S; j++) {
        if (!run_skin_allowed(in, a->skins[j], umax))
            continue;
        for (int k = 0; k < K; k++) {
            size_t x = (size_t)k * S + j;
            double v = prefix[(size_t)b1 * K * S + x] -
                       prefix[(size_t)b0 * K * S + x];
            if (v < best) {
                best = v;
                *k_out = k;
                *j_out = j;
            }
        }
    }
    return best;
}

/* The best split into at most G phases (dynamic programming over the
 * block boundaries); its phases into a when it saves the gain. */
static int schedule(const hg_run_input *in, const run_blocks *b,
                    hg_run_advice *a, hg_err *e)
{
    int nb = b->nb, K = b->K, S = b->S;
    int G = in->max_segments > 0 ? in->max_segments : 3;
    G = G > HG_RUN_MAX_SEGMENTS ? HG_RUN_MAX_SEGMENTS : G;
    double gain = in->schedule_gain > 0.0 ? in->schedule_gain : 0.10;
    if (nb < 2 || G < 2)
        return HG_OK;
    size_t KS = (size_t)K * S, nn = (size_t)(nb + 1);
    double *prefix = calloc(nn * KS, sizeof *prefix);
    double *seg = malloc(nn * nn * sizeof *seg);
    double *F = malloc((size_t)(G + 1) * nn * sizeof *F);
    int *from = malloc((size_t)(G + 1) * nn * sizeof *from);
    if (!prefix || !seg || !F || !from) {
        free(prefix);
        free(seg);
        free(F);
        free(from);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    for (int i = 0; i < nb; i++)
        for (size_t x = 0; x < KS; x++)
            prefix[(i + 1) * KS + x] =
                prefix[i * KS + x] + b->cost[(size_t)i * KS + x];
    for (int b1 = 1; b1 <= nb; b1++) {
        double umax = 0.0;
        for (int b0 = b1 - 1; b0 >= 0; b0--) {
            int k, j;
            umax = fmax(umax, b->umax[b0]);
            seg[b0 * nn + b1] = least(in, a, b, prefix, b0, b1, umax, &k, &j);
        }
    }
    for (int g = 0; g <= G; g++)
        for (size_t x = 0; x < nn; x++)
            F[g * nn + x] = x == 0 && g == 0 ? 0.0 : INFINITY;
    for (int g = 1; g <= G; g++)
        for (int b1 = 1; b1 <= nb; b1++)
            for (int b0 = 0; b0 < b1; b0++) {
                double v = F[(g - 1) * nn + b0] + seg[b0 * nn + b1];
                if (v < F[g * nn + b1]) {
                    F[g * nn + b1] = v;
                    from[g * nn + b1] = b0;
                }
            }
    int gbest = 1;
    for (int g = 2; g <= G; g++) /* more phases only for 1 % more */
        if (F[g * nn + nb] < 0.99 * F[gbest * nn + nb])
            gbest = g;
    int st = HG_OK;
    if (gbest > 1 && F[gbest * nn + nb] < (1.0 - gain) * a->best.seconds) {
        int cut[HG_RUN_MAX_SEGMENTS + 1];
        cut[gbest] = nb;
        for (int g = gbest; g > 0; g--)
            cut[g - 1] = from[g * nn + cut[g]];
        a->schedule_seconds = F[gbest * nn + nb];
        for (int g = 0; g < gbest && st == HG_OK; g++) {
            double umax = blocks_umax(b, cut[g], cut[g + 1]);
            int k = 0, j = 0;
            least(in, a, b, prefix, cut[g], cut[g + 1], umax, &k, &j);
            hg_run_segment *s = &a->segments[a->n_segments++];
            s->decomp = -1;
            run_choice_sum(b, cut[g], cut[g + 1], k, j, a->skins[j],
                           &s->choice);
            s->from = b->from[cut[g]];
            s->to = b->to[cut[g + 1] - 1];
            st = in->engine->run->lines(&a->candidates[k], a->skins[j],
                                        a->dmax, 1, &s->lines, e);
        }
    }
    free(prefix);
    free(seg);
    free(F);
    free(from);
    return st;
}

/* Every candidate at its best allowed skin; the best of them. */
static void totals(const hg_run_input *in, const run_blocks *b,
                   hg_run_advice *a)
{
    double umax = blocks_umax(b, 0, b->nb);
    a->best.seconds = INFINITY;
    for (int k = 0; k < a->n_candidates; k++) {
        hg_run_choice *pc = &a->per_candidate[k];
        pc->seconds = INFINITY;
        for (int j = 0; j < a->n_skins; j++) {
            if (!run_skin_allowed(in, a->skins[j], umax))
                continue;
            hg_run_choice c;
            run_choice_sum(b, 0, b->nb, k, j, a->skins[j], &c);
            if (c.seconds < pc->seconds)
                *pc = c;
        }
        if (pc->seconds < a->best.seconds)
            a->best = *pc;
    }
}

static int skin_index(const hg_run_advice *a, double skin)
{
    for (int j = 0; j < a->n_skins; j++)
        if (a->skins[j] == skin)
            return j;
    return 0;
}

/* How much best's total moves when every other priced frame is left
 * out (the last kept). */
static int sampling(const run_data *d, hg_run_advice *a, hg_err *e)
{
    if (d->np < 3)
        return HG_OK;
    size_t *use = malloc(sizeof *use * d->np), nu = 0;
    if (!use)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    for (size_t m = 0; m < d->np; m += 2)
        use[nu++] = m;
    if (use[nu - 1] != d->np - 1)
        use[nu++] = d->np - 1;
    run_blocks half;
    int st = run_blocks_make(d, a->skins, use, nu, &half, e);
    if (st == HG_OK) {
        hg_run_choice c;
        run_choice_sum(&half, 0, half.nb, a->best.candidate,
                       skin_index(a, a->best.skin), a->best.skin, &c);
        a->sampling_change = fabs(c.seconds / a->best.seconds - 1.0);
    }
    run_blocks_free(&half);
    free(use);
    return st;
}

/* The user's lines, one command a line ("; " between commands read as
 * a line end), ending in a line end. */
static int own_text(const char *setting, char **text, hg_err *e)
{
    size_t n = strlen(setting);
    char *t = malloc(n + 2), *w = t;
    if (!t)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    for (const char *p = setting; *p; p++) {
        if (*p == ';') {
            *w++ = '\n';
            while (p[1] == ' ' || p[1] == '\t')
                p++;
        } else {
            *w++ = *p;
        }
    }
    if (w == t || w[-1] != '\n')
        *w++ = '\n';
    *w = '\0';
    *text = t;
    return HG_OK;
}

/* Every priced frame in blocks. */
static int all_blocks(const run_data *d, const hg_run_advice *a,
                      run_blocks *b, hg_err *e)
{
    size_t *use = malloc(sizeof *use * d->np);
    if (!use)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    for (size_t m = 0; m < d->np; m++)
        use[m] = m;
    int st = run_blocks_make(d, a->skins, use, d->np, b, e);
    free(use);
    return st;
}

static void own_sum(const hg_run_input *in, const run_blocks *b,
                    hg_run_advice *a)
{
    int k = a->own.candidate;
    double skin = in->skin > 0.0 ? in->skin : a->skins[a->n_skins - 1];
    run_choice_sum(b, 0, b->nb, k, skin_index(a, skin), skin, &a->own);
}

static void check_scale(hg_run_advice *a, const char *what, double f)
{
    if (f < 0.1 || f > 10.0)
        run_note(a, "your log's %s is %.3gx the model's at your lines: "
                    "every setting is scaled by it (is the log of the run "
                    "that wrote the trajectory?)", what, f);
}

/* The contacts per atom over the log's steps below which a Pair above
 * the model's is paid per atom, not per contact. */
#define PA_MIN_CONTACTS 0.1

/* The model scaled to the log (a->has_log, a->has_own): Pair per step,
 * Neigh per build and builds per step at the user's lines made what the
 * log measured, as rates per step over the trajectory's steps; b remade
 * with the scales. The time outside Neigh, Pair and Output into
 * a->rest. */
static int calibrate(const hg_run_input *in, run_data *d, run_blocks *b,
                     hg_run_advice *a, hg_err *e)
{
    const hg_run_log *L = &a->log;
    double T = (double)(a->last_step - a->first_step);
    double per = T / (double)L->steps;
    /* many ranks: the slowest rank's Pair and Neigh (the log's max) are
     * what the model of the slowest rank is scaled to, and its own
     * communication (the least of the Comm row) is priced by the model */
    int ranks = in->mpi > 1 || L->mpi > 1;
    double lp = L->mpi > 1 ? L->pair_max : L->pair;
    double ln = L->mpi > 1 ? L->neigh_max : L->neigh;
    double mp = lp * per, mn = ln * per;
    double mb = (double)L->builds * per;
    hg_run_choice o = a->own;
    if (fabs((double)L->steps / T - 1.0) > 0.1)
        run_note(a, "your log has %lld steps, the trajectory %.0f: the log's "
                    "times per step are compared", L->steps, T);
    d->sp = o.pair > 0.0 && mp > 0.0 ? mp / o.pair : 1.0;
    /* Pair above the model's: the excess is the contacts' force law (a
     * granular style's Hertz, JKR, Mindlin, rolling and twisting terms
     * cost many times a listed pair's distance check), paid per contact
     * (per atom where the frames' contacts are not counted or the atoms
     * hardly touch) whatever the skin, not per listed pair; scaling the listed pairs
     * by it would promise a smaller skin what it cannot save (LAMMPS'
     * flatwall bed at 3000 atoms: Pair 0.80-0.83 s per 500 steps at skin
     * 0.05 and 1.04-1.18 s at 0.8, with 5.8x the listed pairs). Below
     * the model's: scaled as a whole. */
    double raw_sp = d->sp, atom_steps = 0.0, contact_steps = 0.0;
    for (int i = 0; i < b->nb; i++) {
        atom_steps += b->atoms[i];
        contact_steps += b->contacts[i];
    }
    d->pa = 0.0;
    d->pa_contact = 0;
    /* the model's per-atom part of Pair at the user's lines */
    double atom_part = fmin(fmax(0.0, a->pair.c[1]) * atom_steps, o.pair);
    if (d->sp > 1.0 && atom_steps > 0.0 && isfinite(mp)) {
        /* per contact where the frames' contacts were counted and the
         * atoms touch (at least one contact per ten atoms: a pour's
         * falling stream pays its excess elsewhere, and a handful of
         * contacts would make each dear beyond what a bed pays) */
        d->pa_contact = contact_steps >= PA_MIN_CONTACTS * atom_steps;
        d->pa = (mp - o.pair) / (d->pa_contact ? contact_steps : atom_steps);
        d->sp = 1.0;
    } else if (d->sp < 1.0 && atom_steps > 0.0 && atom_part > 0.0 &&
               isfinite(mp)) {
        /* Pair below the model's: what the model has too much is its
         * per-atom term first, fitted on beds where it holds the
         * contacts' force law, which atoms that do not touch (a pour's
         * falling stream) do not pay; the listed pairs' distance checks
         * keep their cost. Scaling the whole by it made pairs nearly
         * free on LAMMPS' wide pour at step 3000 (Pair 2 ns per atom
         * and step measured, 55 ns in the model's per-atom term), and a
         * skin of 1.3 cheap. Only where the per-pair part alone is
         * above the log is that scaled. */
        double cut = o.pair - mp, pairs_part = o.pair - atom_part;
        if (cut < atom_part || !(pairs_part > 0.0)) {
            d->pa = -fmin(cut, atom_part) / atom_steps;
            d->sp = 1.0;
        } else {
            d->sp = mp / pairs_part;
            d->pa = -d->sp * atom_part / atom_steps;
        }
    }
    d->sn = o.neigh > 0.0 && o.builds > 0.0 && mn > 0.0 && mb > 0.0
                ? (mn / mb) / (o.neigh / o.builds)
                : 1.0;
    /* a figure no run of these frames gives: the model scaled beyond a
     * double (every setting's total infinite) */
    if (!isfinite(d->sp) || !isfinite(mp))
        return hg_fail_data(e, HG_ENUMERIC, "--log: '%s': Pair %g s over "
                            "%lld steps is beyond scaling the model's %g s "
                            "of your lines over the trajectory", in->log,
                            lp, L->steps, o.pair);
    if (!isfinite(d->sn) || !isfinite(mn) || !isfinite(mb))
        return hg_fail_data(e, HG_ENUMERIC, "--log: '%s': Neigh %g s over "
                            "%lld builds is beyond scaling the model's %g s "
                            "per build of your lines", in->log, ln,
                            L->builds, o.builds > 0.0 ? o.neigh / o.builds
                                                      : 0.0);
    if (!isfinite(L->loop * per))
        return hg_fail_data(e, HG_ENUMERIC, "--log: '%s': Loop time %g s "
                            "over %lld steps is beyond a double over the "
                            "trajectory's %.0f steps", in->log, L->loop,
                            L->steps, T);
    int st = HG_OK;
    /* builds: the motion's count scaled, steps with a build due every
     * step kept; a few rounds make the user's count the log's */
    for (int it = 0; it < 8 && st == HG_OK && mb > 0.0; it++) {
        run_blocks_free(b);
        if ((st = all_blocks(d, a, b, e)))
            break;
        own_sum(in, b, a);
        if (!(a->own.builds > 0.0) ||
            fabs(a->own.builds / mb - 1.0) < 1e-3 || it == 7)
            break; /* b is of the scale in d->sb */
        d->sb = fmin(1e3, fmax(1e-3, d->sb * mb / a->own.builds));
    }
    if (st == HG_OK && !(mb > 0.0)) {
        run_blocks_free(b);
        if ((st = all_blocks(d, a, b, e)) == HG_OK)
            own_sum(in, b, a);
    }
    a->scale_pair = d->sp;
    a->pair_per_atom = d->pa;
    a->pair_per_contact = d->pa_contact;
    a->pair_log_ratio = raw_sp;
    a->scale_neigh = d->sn;
    a->scale_builds = d->sb;
    /* the log's Output (its dumps, the trajectory's among them) is no
     * part of the run the lines are chosen for */
    a->rest = fmax(0.0, L->loop - lp - ln - L->output -
                            (ranks ? L->comm_min : 0.0)) *
              per;
    if (L->output >= 0.01 * L->loop)
        run_note(a, "your log's Output time (%.3g s, %.0f %% of its loop: "
                    "its dumps, the trajectory's among them) is left out of "
                    "the predicted Loop", L->output,
                 100.0 * L->output / L->loop);
    check_scale(a, "Pair per step", raw_sp);
    check_scale(a, "Neigh per build", d->sn);
    check_scale(a, "builds", d->sb);
    return st;
}

/* The user's lines kept when nothing saves keep_margin of the loop (and
 * they give no dangerous builds); else the user's style when, at some
 * skin, it is within half that margin of the best: at the skin of those
 * nearest the best's (by their ratio). A style's cost over skins is often
 * flat, and its own least can lie far from the best's skin on the motion
 * seen: LAMMPS' flatwall pour at step 500 (a falling gas), bins of one
 * cutoff at skin 0.39 the best and the default bins least at 0.79 within
 * 2.5 % of it; in the bed that formed later, skin 0.6 ran 8-10 % slower
 * than 0.15 and 0.3. Not with the skin given: the question is then the
 * grid at that skin. */
static void prefer_own(const hg_run_input *in, const run_blocks *b,
                       hg_run_advice *a)
{
    a->best_any = a->best.seconds;
    double margin = in->keep_margin != 0.0 ? in->keep_margin : 0.05;
    if (!a->has_own || margin < 0.0 || in->skin > 0.0)
        return;
    const char *of = a->has_log ? "the predicted loop" : "Neigh + Pair";
    double loop = a->rest + a->own.seconds;
    int safe = !(a->own.steps_every_step > 0.0) &&
               !(a->has_log && a->log.dangerous > 0);
    if (safe && a->own.seconds - a->best.seconds < margin * loop) {
        if (a->own.seconds > a->best.seconds)
            run_note(a, "the best setting (%s, skin %.4g) saves %.1f %% of "
                        "%s, under the %.0f %% worth a change: your lines "
                        "are kept", a->candidates[a->best.candidate].name,
                     a->best.skin,
                     100.0 * (a->own.seconds - a->best.seconds) / loop, of,
                     100.0 * margin);
        a->best = a->own;
        a->kept_own = 1;
        return;
    }
    int k = a->own.candidate;
    if (k == a->best.candidate || !isfinite(a->per_candidate[k].seconds))
        return;
    double umax = blocks_umax(b, 0, b->nb);
    double within = 0.5 * margin * (a->rest + a->best.seconds);
    hg_run_choice pick = {.candidate = -1};
    double dist = INFINITY;
    for (int j = 0; j < a->n_skins; j++) {
        if (!run_skin_allowed(in, a->skins[j], umax))
            continue;
        hg_run_choice c;
        run_choice_sum(b, 0, b->nb, k, j, a->skins[j], &c);
        double dj = fabs(log(a->skins[j] / a->best.skin));
        if (isfinite(c.seconds) && c.seconds - a->best.seconds < within &&
            !(c.steps_every_step > a->best.steps_every_step) &&
            (dj < dist || (dj == dist && c.seconds < pick.seconds))) {
            pick = c;
            dist = dj;
        }
    }
    if (pick.candidate < 0)
        return;
    run_note(a, "your style at skin %.4g is within %.1f %% of %s of the "
                "best (%s, skin %.4g): the answer keeps your style, at the "
                "skin nearest the best's within that",
             pick.skin,
             100.0 * (pick.seconds - a->best.seconds) /
                 (a->rest + a->best.seconds),
             of, a->candidates[a->best.candidate].name, a->best.skin);
    a->best = pick;
}

/* The answer's setting at your skin when that is within OWN_SKIN_TIE of
 * the predicted loop of its best skin: your skin's builds are measured
 * (with a log) or at least run, another's are the model's (3 % off on
 * average, 12 % at worst: tests/bench_builds.sh), and a skin changes more
 * than the model sees (LAMMPS' 2D pour on 2 ranks: skin 0.22, predicted
 * 0.03 % faster than 0.2, measured 10 % slower in 9 rounds, its Neigh
 * per build twice 0.2's, there because its bins fell short of LAMMPS'
 * cutoff: whole_run.c, log_cutoff). Not with the skin given. */
#define OWN_SKIN_TIE 0.01
static void keep_own_skin(const hg_run_input *in, const run_blocks *b,
                          hg_run_advice *a)
{
    if (!a->has_own || a->kept_own || in->skin > 0.0 ||
        a->best.skin == a->own.skin)
        return;
    int j = -1;
    for (int i = 0; i < a->n_skins; i++)
        if (a->skins[i] == a->own.skin)
            j = i;
    if (j < 0)
        return;
    hg_run_choice c;
    run_choice_sum(b, 0, b->nb, a->best.candidate, j, a->own.skin, &c);
    double loop = a->rest + a->best.seconds;
    if (!(c.steps_every_step > 0.0) && isfinite(c.seconds) &&
        c.seconds - a->best.seconds < OWN_SKIN_TIE * loop) {
        run_note(a, "%s at your skin %.4g is within %.2f %% of its best "
                    "skin %.4g: your skin is kept (its builds are "
                    "measured, another's predicted)",
                 a->candidates[a->best.candidate].name, a->own.skin,
                 100.0 * (c.seconds - a->best.seconds) / loop,
                 a->best.skin);
        a->best = c;
    }
}

int run_choose(const hg_run_input *in, run_data *d, hg_run_advice *a,
               hg_err *e)
{
    run_blocks b;
    if (!d->fixed_scales && in->scales && in->mpi <= 1 &&
        in->scales->pair > 0.0 && in->scales->neigh > 0.0 &&
        in->scales->builds > 0.0) {
        /* the scales found on another stretch of the run */
        d->sp = in->scales->pair;
        d->sn = in->scales->neigh;
        d->sb = in->scales->builds;
        d->pa = in->scales->pair_excess;
        d->pa_contact = in->scales->per_contact;
        d->fixed_scales = 1;
        if (d->pa_contact && !d->contacts)
            return hg_fail_data(e, HG_EINVAL, "--trajectory: the scales "
                                "given price Pair per contact, and the "
                                "frames' contacts were not counted");
    }
    if (!d->fixed_scales) {
        d->sp = d->sn = d->sb = 1.0;
        d->pa = 0.0;
        d->pa_contact = 0;
    }
    a->scale_pair = d->sp;
    a->scale_neigh = d->sn;
    a->scale_builds = d->sb;
    a->pair_per_atom = d->pa;
    a->pair_per_contact = d->pa_contact;
    if (!d->fixed_scales)
        a->pair_log_ratio = 1.0;
    int st = all_blocks(d, a, &b, e);
    if (st)
        return st;
    if (a->has_own)
        own_sum(in, &b, a);
    if (a->has_own && a->has_log && !d->fixed_scales &&
        (st = calibrate(in, d, &b, a, e))) {
        run_blocks_free(&b);
        return st;
    }
    totals(in, &b, a);
    if (!isfinite(a->best.seconds)) { /* a guard: no total to compare */
        run_blocks_free(&b);
        return hg_fail_data(e, HG_ENUMERIC, "--trajectory: no setting at "
                            "any of the %d skins from %g to %g has a finite "
                            "predicted time", a->n_skins, a->skins[0],
                            a->skins[a->n_skins - 1]);
    }
    prefer_own(in, &b, a);
    keep_own_skin(in, &b, a);
    run_choice_sum(&b, 0, b.nb, 0, skin_index(a, a->best.skin), a->best.skin,
                   &a->bin);
    if (a->kept_own && in->setting) /* the user's own text */
        st = own_text(in->setting, &a->lines, e);
    else
        st = in->engine->run->lines(&a->candidates[a->best.candidate],
                                    a->best.skin, a->dmax, 0, &a->lines, e);
    if (st == HG_OK)
        st = sampling(d, a, e);
    if (st == HG_OK)
        st = schedule(in, &b, a, e);
    run_blocks_free(&b);
    return st;
}
