/* live_tune.c - the tuner of `hgridopt run`: after each segment of a run,
 * keep the neighbor lines, change them, or undo the last change; on many
 * ranks, also even the ranks by their own timers.
 *
 * The rest of the run is priced like the segment just measured: its two
 * frames (first and last step) are the trajectory of whole-run advice
 * (hg_run_advise), and the segment's own timers, written as the code's
 * log of that run, scale the model to what this machine measured at the
 * lines in force (hg_whole_run.h: the measurement wins). A change is made
 * only where the advice saves min_gain of the predicted loop (its keep
 * margin). The segment after a change is its trial: its measured Pair +
 * Neigh + Comm (the ranks' mean Pair + Neigh and the least Comm) is
 * compared with what the lines before would have cost over the same
 * steps: the model's price of them on the trial's own frames (a pour
 * fills, a bed settles; the model sees the atoms and their contacts),
 * scaled as the segment before the change measured them (its Pair above
 * the model's paid per contact where the atoms touch), times the
 * measured / model ratio of that segment (communication).
 * Without frames of the trial, or where the lines before built
 * dangerously (their builds follow peaks of speed two frames do not
 * show), per atom and step against the segment before carried forward by
 * the trend of the two segments before it (at most x2 either way).
 * Slower by more than undo_margin, the lines before come back for one
 * segment, which brackets the trial: the lines before on both sides of
 * it (their mean measured / model ratio times the model on the trial's
 * frames; without frames, or where they built dangerously, their mean
 * cost per atom and step) tell the change from the run's own drift (a
 * bed that forms makes every atom dearer, faster than any trend
 * foresees).
 * Still slower by more than undo_margin, the change stays undone and is
 * not tried again in this run; otherwise it is made again. No advice is
 * asked on a trial kept (its lines came from the advice a segment
 * before), after a change on a segment much dearer than the one before
 * (GROWING), or for a while after advices that kept the lines (KEPT_*),
 * unless the lines built dangerously. The ranks
 * are evened apart from all that (rebalance, below): by a balance
 * command weighted by the timers of the segment just run. */
#include "hg_live.h"
#include "hg_consts.h"
#include "hg_engine.h"
#include "hg_ranks.h"
#include "hg_whole_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIVE_MAX_BANNED 16

/* The growth of the model's price per atom and step of the lines before a
 * change, from the segment before it to its trial, from which a trend
 * per atom and step is not taken (segment). */
#define TREND_BLIND 0.10

/* A change on trial, or its bracket: what judging it needs. */
struct live_trial {
    int on_trial;
    double base_cost;       /* per atom and step before it, times the
                               trend of the two segments before it */
    double before_cost;     /* per atom and step of the segment before it
                               (no trend) */
    char *old_lines;        /* the lines in force before it */
    double old_skin;        /* their skin, as the advice read it (0: not
                               read; every skin is then priced) */
    double pair_per_pair;   /* the per-pair constant the lines before
                               are priced with (0: the engine's) */
    hg_run_scales scales;   /* the model scaled to the segment before it
                               (its Pair above the model's per contact,
                               where the atoms touch: a bed that forms
                               costs more with every contact) */
    double before_seconds;  /* Pair + Neigh + least Comm of the segment
                               before it */
    double before_model;    /* the model's Neigh + Pair of the lines before
                               on that segment's frames (0: not priced) */
    long long before_dangerous, before_builds; /* that segment's builds */
    /* a change undone for one segment, to bracket its trial */
    int rechecking;
    double trial_cost;      /* per atom and step of its trial */
    double trial_seconds;   /* its Pair + Neigh + least Comm */
    double trial_model;     /* the model's price of the lines before on
                               its frames (0: not priced) */
    double before_steps;    /* the steps of the segment before it */
    double before_frame_atoms; /* the atoms of its larger frame */
    double before_atoms, trial_atoms; /* at the ends of the segment
                               before it and of its trial */
    double trial_gain;      /* the gain it was predicted */
    char trial_name[96];
    char *prev;             /* the commands that bring back the lines
                               before it */
    char *trial;            /* its lines */
};

struct hg_live {
    hg_live_options o;
    const hg_engine *engine;
    char *workdir, *units;
    int segments;           /* measured so far (file names) */
    struct live_trial tr;   /* the change on trial (carried to the next
                               run's tuner) */
    double last_cost;       /* of the last segment measured */
    double prev_cost;       /* of the segment before it (0: it ran other
                               lines) */
    int changed_after;      /* the segment after which lines were last
                               changed (0: none) */
    char *banned[LIVE_MAX_BANNED];
    int n_banned;
    double loop_sum;        /* the segments' Loop so far */
    long long run_end;      /* the last step of the `run` going on (0:
                               not told) */
    double rebalanced_at;   /* the spread (busiest rank's Pair + Neigh
                               over the mean) a rebalance was asked at,
                               for the segment after it (0: none) */
    int failed_rebalances;  /* in a row, each leaving the ranks as uneven
                               (a pour that fills may undo one) */
    int no_rebalance;       /* two did: no more in this run */
    double setup_cost;      /* of the last segment that began with a
                               setup (0: none measured) */
    double pair_per_pair;   /* measured (hg_live_set_pair_cost; 0: the
                               engine's constant) */
    int no_probe;           /* the pair style's cost cannot be measured
                               (hg_live_set_pair_cost < 0) */
    double probe_retry_atoms; /* a probe found too few listed pairs at
                               these atoms (hg_live_probe_retry; 0: none
                               did) */
    int probe_waiting;      /* the probe wanted before the first advice
                               and past its share: the advice waits */
    int probe_waits;        /* segments the advice waited for it */
    int kept_streak;        /* advices in a row that kept the lines, the
                               atoms within KEPT_ATOMS of the one before */
    double kept_atoms;      /* the atoms at the last of them */
    int advise_from;        /* after them, no advice before this segment
                               (hg_live.segments) on those atoms */
    int kept_wait;          /* the segments of that wait */
    double seg_before;      /* Pair + Neigh + Comm per atom and step of the
                               segment before the one measured (0: none) */
    int changes;            /* lines changed by the tuner in this run */
    double failed_atoms;    /* the last advice failed on this many atoms
                               (0: none did): no frame and no advice
                               until they change by half (LAMMPS'
                               ASPHERE/box: fluid particles at 40 times a
                               packing's fraction, which no frame of the
                               run would pass) */
};

/* Atoms within half of those the last advice failed on. */
static int failed_on(const hg_live *t, double atoms)
{
    return t->failed_atoms > 0.0 && atoms < 1.5 * t->failed_atoms &&
           1.5 * atoms > t->failed_atoms;
}

/* After a change, no advice on a segment whose Pair + Neigh + Comm per
 * atom and step is more than GROWING times the segment before's: the
 * advice prices the rest of the run like that segment, and a run that
 * changes that fast is not like it for long. Flatwall's bed forms
 * between steps 1000 and 2500, x2.0-3.5 a segment: advised at step 1500
 * on one rank (4 rounds of 10 at 5b7f3ce), the tuner took bins of one
 * cutoff at skin 0.48, priced for atoms still falling, and kept it in
 * the bed, where the best static setting is a skin of 0.3; advised once
 * the bed had formed (x1.2-1.3 a segment, step 3000), it took
 * 0.23-0.31. */
#define GROWING 1.5

/* Advices that keep the lines, in a row on the same atoms (within a
 * tenth), make the next wait: after the n-th, 2^n - 1 segments, at most
 * KEPT_WAIT. In the benchmark's rounds (tests/bench_run.sh, 128 runs of
 * LAMMPS' examples at commits before 5b7f3ce) an advice after one or
 * more such kept the lines again 132 times in 139 (the drum after its
 * change, flatwall's bed, the funnel's long run); the 7 changes were
 * predicted to save 5.1-6.4 % (the wide pour's while its atoms paused
 * at 2300, the funnel's after the 8th, 11th and 21st). A pour that
 * fills, or lines that build dangerously, are advised on as before. */
#define KEPT_ATOMS 0.10
#define KEPT_WAIT 3

/* Segments the first advice waits for the pair style's probe while
 * the probe is past its share (a pour's first segments are its cheapest,
 * and the loop projected from them the smallest); then it advises on
 * the engine's constant. */
#define PROBE_WAIT 2

static char *dup_text(const char *s)
{
    size_t k = strlen(s) + 1;
    char *d = malloc(k);
    if (d)
        memcpy(d, s, k);
    return d;
}

double hg_live_spread(const hg_live_measure *m)
{
    double work = m->pair + m->neigh;
    return work > 0.0 ? (m->pair_max + m->neigh_max) / work : 1.0;
}

void hg_live_decision_clear(hg_live_decision *d)
{
    if (!d)
        return;
    free(d->lines);
    memset(d, 0, sizeof *d);
}

/* lines tried and measured slower: not proposed again in this run
 * (owned; dropped when the list is full) */
static void ban(hg_live *t, char *lines)
{
    if (t->n_banned < LIVE_MAX_BANNED)
        t->banned[t->n_banned++] = lines;
    else
        free(lines);
}

static void ban_clear(hg_live *t)
{
    for (int i = 0; i < t->n_banned; i++)
        free(t->banned[i]);
    t->n_banned = 0;
}

void hg_live_free(hg_live *t)
{
    if (!t)
        return;
    ban_clear(t);
    free(t->tr.prev);
    free(t->tr.trial);
    free(t->tr.old_lines);
    free(t->workdir);
    free(t->units);
    free(t);
}

int hg_live_create(const hg_live_options *o, hg_live **out, hg_err *e)
{
    *out = NULL;
    if (!o->engine || !o->workdir)
        return hg_fail(e, HG_EINVAL, "tuner: no engine or working folder");
    const hg_engine *g = hg_engine_find(o->engine);
    if (!g || !g->run)
        return hg_fail(e, HG_EINVAL, "--engine: %s gives no whole-run "
                       "advice (lammps does)", o->engine);
    if (!(o->timestep > 0.0) || !isfinite(o->timestep))
        return hg_fail(e, HG_EINVAL, "timestep: %g must be > 0",
                       o->timestep);
    if (o->mpi < 1)
        return hg_fail(e, HG_EINVAL, "ranks: %d must be >= 1", o->mpi);
    if (!(o->min_gain >= 0.0 && o->min_gain < 1.0))
        return hg_fail(e, HG_EINVAL, "--min-gain: %g must be in [0, 1)",
                       o->min_gain);
    if (!(o->undo_margin >= 0.0 && o->undo_margin < 1.0))
        return hg_fail(e, HG_EINVAL, "undo margin: %g must be in [0, 1)",
                       o->undo_margin);
    if (!(o->tuning_share < 1.0) || !isfinite(o->tuning_share))
        return hg_fail(e, HG_EINVAL, "--tuning-share: %g must be below 1",
                       o->tuning_share);
    if (!(o->loop_before >= 0.0) || !isfinite(o->loop_before) ||
        o->later_steps < 0)
        return hg_fail(e, HG_EINVAL, "tuner: the loop before (%g s) and "
                       "the later steps (%lld) must be >= 0",
                       o->loop_before, o->later_steps);
    hg_live *t = calloc(1, sizeof *t);
    if (!t)
        return hg_fail(e, HG_ENOMEM, "tuner: out of memory");
    t->o = *o;
    t->engine = g;
    if (t->o.min_gain == 0.0)
        t->o.min_gain = 0.05;
    if (t->o.undo_margin == 0.0)
        t->o.undo_margin = 0.03;
    if (t->o.tuning_share == 0.0)
        t->o.tuning_share = 0.03;
    t->workdir = dup_text(o->workdir);
    t->units = dup_text(o->units ? o->units : "");
    if (!t->workdir || !t->units) {
        hg_live_free(t);
        return hg_fail(e, HG_ENOMEM, "tuner: out of memory");
    }
    t->o.workdir = t->workdir;
    t->o.units = t->units;
    *out = t;
    return HG_OK;
}

void hg_live_run_begin(hg_live *t, long long start, long long n)
{
    t->run_end = start + n;
    ban_clear(t);
    t->last_cost = t->prev_cost = 0.0;
    t->rebalanced_at = 0.0;
    t->no_rebalance = 0;
    t->failed_rebalances = 0;
    t->kept_streak = 0; /* another run: its physics may differ */
    t->advise_from = 0;
    t->seg_before = 0.0;
    t->changes = 0;
}

void hg_live_drop_trial(hg_live *t)
{
    if (!t)
        return;
    t->tr.on_trial = 0;
    t->tr.rechecking = 0;
    free(t->tr.trial);
    t->tr.trial = NULL;
}

void hg_live_carry_trial(hg_live *to, hg_live *from)
{
    if (!to || !from || to == from)
        return;
    /* the pair style's probe: its cost or why none, and the advice's
     * waits for it, for the input (not each run) */
    to->pair_per_pair = from->pair_per_pair;
    to->no_probe = from->no_probe;
    to->probe_retry_atoms = from->probe_retry_atoms;
    to->probe_waits = from->probe_waits;
    if (!from->tr.on_trial && !from->tr.rechecking)
        return;
    free(to->tr.old_lines);
    free(to->tr.prev);
    free(to->tr.trial);
    to->tr = from->tr;
    /* no trend across runs: the input may change the physics between
     * them (a timestep, a pair style, atoms added); the model prices the
     * new run's own frames */
    to->tr.base_cost = 0.0;
    memset(&from->tr, 0, sizeof from->tr); /* its strings are to's now */
}

/* Lines compared without blanks at the ends of lines and empty lines. */
static int same_lines(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ' || *a == '\t' || *a == '\n')
            a++;
        while (*b == ' ' || *b == '\t' || *b == '\n')
            b++;
        if (!*a || !*b)
            return !*a && !*b;
        if (*a != *b)
            return 0;
        a++;
        b++;
    }
}

/* The segment's timers as the code prints them after a run, preceded by
 * the commands the advice reads from a log (units, timestep, the lines in
 * force, the run). */
static int write_log(const hg_live *t, const hg_live_measure *m,
                     const char *own, const char *path, hg_err *e)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return hg_fail(e, HG_EIO, "tuner: cannot write '%s'", path);
    long long steps = m->to - m->from;
    double loop = m->loop;
    double other = loop - m->pair - m->neigh - m->comm - m->output -
                   m->modify;
    if (other < 0.0)
        other = 0.0;
    fprintf(f, "LAMMPS (segment %d of hgridopt run)\n", t->segments);
    if (*t->units)
        fprintf(f, "units %s\n", t->units);
    fprintf(f, "timestep %.17g\n%s\nrun %lld\n", t->o.timestep, own, steps);
    if (m->cutoff > 0.0)
        fprintf(f, "  master list distance cutoff = %.17g\n", m->cutoff);
    fprintf(f, "Loop time of %.9g on %d procs for %lld steps with %.0f "
            "atoms\n\n", loop, m->procs, steps, m->atoms);
    fprintf(f, "100.0%% CPU use with %d MPI tasks x 1 OpenMP threads\n\n",
            m->procs);
    fprintf(f, "MPI task timing breakdown:\nSection |  min time  |  avg "
            "time  |  max time  |%%varavg| %%total\n"
            "---------------------------------------------------------------"
            "\n");
    const char *name[] = {"Pair", "Neigh", "Comm"};
    double v[3][3] = {{m->pair_min, m->pair, m->pair_max},
                      {m->neigh_min, m->neigh, m->neigh_max},
                      {m->comm_min, m->comm, m->comm_max}};
    for (int i = 0; i < 3; i++)
        fprintf(f, "%-8s| %.9g | %.9g | %.9g | 0.0 | %.2f\n", name[i],
                v[i][0], v[i][1], v[i][2],
                loop > 0.0 ? 100.0 * v[i][1] / loop : 0.0);
    fprintf(f, "Output  | %.9g | %.9g | %.9g | 0.0 | %.2f\n", m->output,
            m->output, m->output, loop > 0.0 ? 100.0 * m->output / loop : 0);
    fprintf(f, "Modify  | %.9g | %.9g | %.9g | 0.0 | %.2f\n", m->modify,
            m->modify, m->modify, loop > 0.0 ? 100.0 * m->modify / loop : 0);
    fprintf(f, "Other   |            | %.9g |            |       | %.2f\n\n",
            other, loop > 0.0 ? 100.0 * other / loop : 0.0);
    fprintf(f, "Nlocal:    %.9g ave %.9g max 0 min\n", m->nlocal_ave,
            m->nlocal_max);
    fprintf(f, "Nghost:    %.9g ave %.9g max 0 min\n", m->nghost_ave,
            m->nghost_max);
    fprintf(f, "Neighbor list builds = %lld\nDangerous builds = %lld\n",
            m->builds, m->dangerous);
    int bad = ferror(f);
    if (fclose(f) || bad)
        return hg_fail(e, HG_EIO, "tuner: cannot write '%s'", path);
    return HG_OK;
}

/* What the segment cost per atom and step in the parts the lines change:
 * the ranks' mean Pair and Neigh and the least Comm (a rank that waits
 * for another waits in Comm). Neighbor lines change every rank's work,
 * not how it is shared out, so the ranks' balance drifting, or a
 * rebalance, does not pass for their effect. One rank: its own. */
static double seconds_of(const hg_live_measure *m)
{
    return m->pair + m->neigh + m->comm_min;
}

static double cost_of(const hg_live_measure *m)
{
    double steps = (double)(m->to - m->from);
    double atoms = m->atoms > 1.0 ? m->atoms : 1.0;
    double c = seconds_of(m);
    return steps > 0.0 && c > 0.0 ? c / steps / atoms : 0.0;
}

/* The engine's pair constants with the per-pair one k (> 0). */
static int pair_consts(const hg_live *t, double k, hg_consts *c)
{
    int from_file = 0;
    hg_err e = {0};
    if (hg_consts_auto(t->engine->run->pair_kind, c, &from_file, NULL, 0,
                       &e))
        return -1;
    c->c[0] = k;
    return 0;
}

/* The whole-run advice's input for the two frames of a segment (paths
 * must outlive it; c: room for the pair constants it may point to). */
static hg_run_input segment_input(const hg_live *t, const char **paths,
                                  double per_pair, hg_consts *c)
{
    hg_run_input in = {0};
    if (per_pair > 0.0 && pair_consts(t, per_pair, c) == 0)
        in.pair = c;
    in.paths = paths;
    in.n_paths = 2;
    in.engine = t->engine;
    in.timestep = t->o.timestep;
    in.keep_margin = t->o.min_gain;
    in.multi_only = t->o.multi_only;
    return in;
}

/* The model's Neigh + Pair seconds of lines over the steps between two
 * frames, on one rank, scaled as the segment before the change on trial
 * measured (0: not priced): what the lines before it would have cost
 * over its trial, up to the factor of communication and what the scales
 * miss (segment, below). At their own skin alone (skin > 0): the other
 * skins' prices are not needed. */
static double model_seconds(const hg_live *t, const char *lines,
                            double skin, const char *frame0,
                            const char *frame1, double *atoms)
{
    if (atoms)
        *atoms = 0.0;
    if (!lines || !frame0 || !frame1)
        return 0.0;
    const char *paths[2] = {frame0, frame1};
    hg_consts pc;
    hg_run_input in = segment_input(t, paths, t->tr.pair_per_pair, &pc);
    in.setting = lines;
    in.own_only = 1;
    in.skin = skin > 0.0 && isfinite(skin) ? skin : 0.0;
    in.mpi = 1;
    in.scales = &t->tr.scales;
    hg_run_advice a;
    hg_err e = {0};
    if (hg_run_advise(&in, &a, &e))
        return 0.0;
    double s = a.has_own && isfinite(a.own.seconds) && a.own.seconds > 0.0
                   ? a.own.seconds
                   : 0.0;
    if (atoms)
        *atoms = (double)a.max_atoms;
    hg_run_advice_clear(&a);
    return s;
}

static int share_allows(const hg_live *t, const hg_live_measure *m,
                        double loop_sum, double *whole);

void hg_live_set_pair_cost(hg_live *t, double per_pair)
{
    if (!t)
        return;
    t->pair_per_pair = per_pair > 0.0 && isfinite(per_pair) ? per_pair : 0.0;
    t->no_probe = per_pair < 0.0;
    t->probe_retry_atoms = 0.0;
    t->probe_waits = 0;
}

double hg_live_pair_cost(const hg_live *t)
{
    return t ? t->pair_per_pair : 0.0;
}

void hg_live_probe_retry(hg_live *t, double atoms)
{
    if (!t)
        return;
    t->pair_per_pair = 0.0;
    t->no_probe = 0;
    t->probe_retry_atoms = atoms > 1.0 && isfinite(atoms) ? atoms : 1.0;
}

int hg_live_wants_probe(hg_live *t, const hg_live_measure *m, double cost)
{
    if (!t)
        return 0;
    t->probe_waiting = 0;
    if (t->pair_per_pair > 0.0 || t->no_probe ||
        (t->probe_retry_atoms > 0.0 &&
         !(m->atoms >= 1.5 * t->probe_retry_atoms)))
        return 0;
    double whole;
    /* before m's hg_live_segment: m not yet in loop_sum */
    share_allows(t, m, t->loop_sum + (m->loop > 0.0 ? m->loop : 0.0),
                 &whole);
    if (t->o.tuning_share < 0.0 || cost <= HG_LIVE_PROBE_SHARE * whole)
        return 1;
    /* the first advice waits for it (a while): priced on the engine's
     * constant, it is what the probe would correct; not lines that
     * build dangerously, which any advice should end first */
    t->probe_waiting = t->probe_retry_atoms == 0.0 && m->dangerous == 0 &&
                       t->probe_waits < PROBE_WAIT;
    return -1;
}

int hg_live_trial_scales(const hg_live *t, hg_run_scales *s)
{
    if (!t || !(t->tr.on_trial || t->tr.rechecking))
        return 0;
    *s = t->tr.scales;
    return 1;
}

/* The lines before a change (on trial) priced between two frames. */
static double old_lines_price(const hg_live *t, const char *frame0,
                              const char *frame1, double *atoms)
{
    return model_seconds(t, t->tr.old_lines, t->tr.old_skin, frame0, frame1,
                         atoms);
}

static int set_lines(hg_live_decision *d, const char *s, hg_err *e)
{
    d->lines = dup_text(s);
    return d->lines ? HG_OK : hg_fail(e, HG_ENOMEM, "tuner: out of memory");
}

/* A change made after segment m goes on trial. Its bases: the model's
 * price of the lines in force (own) on m's frames, against m's measured
 * seconds (segment prices them again on the trial's frames); and m per
 * atom and step, carried forward by the segments' trend (a pour fills, a
 * bed settles). */
static void begin_trial(hg_live *t, const hg_live_measure *m, double gain,
                        const char *own, const hg_run_advice *a,
                        const char *frame0, const char *frame1)
{
    t->tr.on_trial = 1;
    t->tr.pair_per_pair = t->pair_per_pair;
    t->tr.scales = (hg_run_scales){
        .pair = a->scale_pair,
        .neigh = a->scale_neigh,
        .builds = a->scale_builds,
        .pair_excess = a->pair_per_atom,
        .per_contact = a->pair_per_contact,
    };
    double own_skin = a->has_own ? a->own.skin : 0.0;
    t->tr.base_cost = t->tr.before_cost = cost_of(m);
    t->tr.before_atoms = m->atoms;
    t->tr.before_steps = (double)(m->to - m->from);
    t->tr.trial_gain = gain;
    free(t->tr.old_lines);
    t->tr.old_lines = dup_text(own);
    t->tr.old_skin = own_skin;
    t->tr.before_seconds = seconds_of(m);
    /* lines that built dangerously rebuilt as the atoms' peaks of speed
     * forced them, which two frames do not show: no model price (the
     * drum's own skin of 0.2, 495 dangerous builds of 500 as it began to
     * turn; the model put a skin of 0.46 at +21-35 % above them, measured
     * 19-33 % below them) */
    t->tr.before_model =
        m->dangerous > 0
            ? 0.0
            : old_lines_price(t, frame0, frame1, &t->tr.before_frame_atoms);
    t->tr.before_dangerous = m->dangerous;
    t->tr.before_builds = m->builds;
    if (t->prev_cost > 0.0 && t->tr.base_cost > 0.0) {
        double trend = t->tr.base_cost / t->prev_cost;
        t->tr.base_cost *= trend < 0.5 ? 0.5 : trend > 2.0 ? 2.0 : trend;
    }
}

static int same_atoms(double a, double b)
{
    return a > 0.0 && b > 0.0 && fabs(b / a - 1.0) < KEPT_ATOMS;
}

/* An advice after segment m kept the lines: the streak, and the wait
 * it sets for the next. */
static void kept_advice(hg_live *t, const hg_live_measure *m)
{
    t->kept_streak = t->kept_streak > 0 && same_atoms(t->kept_atoms, m->atoms)
                         ? t->kept_streak + 1
                         : 1;
    t->kept_atoms = m->atoms;
    int n = t->kept_streak < 4 ? t->kept_streak : 4;
    int wait = (1 << n) - 1;
    t->kept_wait = wait < KEPT_WAIT ? wait : KEPT_WAIT;
    t->advise_from = t->segments + 1 + t->kept_wait;
}

/* The advice for the rest of the run, priced like segment m. */
static int advise(hg_live *t, const hg_live_measure *m, const char *own,
                  const char *restore, const char *frame0,
                  const char *frame1, hg_live_decision *d, hg_err *e)
{
    char logpath[4096];
    snprintf(logpath, sizeof logpath, "%s/segment-%d.log", t->workdir,
             t->segments);
    int st = write_log(t, m, own, logpath, e);
    if (st)
        return st;
    const char *paths[2] = {frame0, frame1};
    hg_consts pc;
    hg_run_input in = segment_input(t, paths, t->pair_per_pair, &pc);
    in.log = logpath;
    in.mpi = t->o.mpi;
    in.engine_balance = !strcmp(t->engine->name, "lammps");
    in.decomposition = m->decomposition[0] ? m->decomposition : NULL;
    /* the neighbor lines on the decomposition in use: the ranks are
     * evened by their timers (rebalance), not by the model's atom counts,
     * which cannot see atoms of different cost */
    in.own_decomposition_only = 1;
    hg_run_advice a;
    st = hg_run_advise(&in, &a, e);
    remove(logpath);
    if (st)
        return st;
    const hg_run_hooks *h = t->engine->run;
    double own_loop, best_loop;
    int cand;
    double skin;
    if (a.nprocs > 1) {
        const hg_run_decomp *dc = &a.decomps[a.own_decomp];
        own_loop = a.own_loop;
        best_loop = dc->loop > 0.0 ? dc->loop : dc->seconds;
        cand = dc->candidate;
        skin = dc->skin;
    } else {
        own_loop = a.rest + a.own.seconds;
        best_loop = a.rest + a.best.seconds;
        cand = a.best.candidate;
        skin = a.best.skin;
    }
    double gain = own_loop > 0.0 ? (own_loop - best_loop) / own_loop : 0.0;
    char *text = NULL;
    if (!(gain >= t->o.min_gain) || (a.nprocs <= 1 && a.kept_own) ||
        cand < 0 || cand >= a.n_candidates) {
        snprintf(d->why, sizeof d->why, "kept: best saves %.1f %% "
                 "(a change needs %.0f %%)", 100.0 * (gain > 0.0 ? gain : 0.0),
                 100.0 * t->o.min_gain);
        goto done;
    }
    if ((st = h->lines(&a.candidates[cand], skin, a.dmax, 1, &text, e)))
        goto done;
    if (same_lines(text, own)) {
        snprintf(d->why, sizeof d->why, "kept: the lines in force are best");
        goto done;
    }
    for (int i = 0; i < t->n_banned; i++)
        if (same_lines(text, t->banned[i])) {
            snprintf(d->why, sizeof d->why, "kept: the best measured slower "
                     "before (%s, skin %.4g)", a.candidates[cand].name, skin);
            goto done;
        }
    if ((st = set_lines(d, text, e)))
        goto done;
    free(t->tr.prev);
    free(t->tr.trial);
    t->tr.prev = dup_text(restore);
    t->tr.trial = dup_text(text);
    if (!t->tr.prev || !t->tr.trial) {
        st = hg_fail(e, HG_ENOMEM, "tuner: out of memory");
        goto done;
    }
    begin_trial(t, m, gain, own, &a, frame0,
                frame1);
    snprintf(t->tr.trial_name, sizeof t->tr.trial_name, "%.60s, skin %.4g",
             a.candidates[cand].name, skin);
    d->action = HG_LIVE_CHANGE;
    d->predicted_gain = gain;
    snprintf(d->name, sizeof d->name, "%s", t->tr.trial_name);
    snprintf(d->why, sizeof d->why, "%s: predicted to save %.1f %% of the "
             "loop", d->name, 100.0 * gain);
done:
    if (st == HG_OK && d->action != HG_LIVE_CHANGE) /* the lines kept */
        kept_advice(t, m);
    free(text);
    hg_run_advice_clear(&a);
    return st;
}

/* The measured imbalance of segment m, evened by LAMMPS itself: a
 * one-off `balance ... weight time 1.0` between two segments weighs each
 * rank's atoms by that rank's Pair and Neigh time of the run just ended
 * (the balance command reads the last run's timers; a fix balance
 * weighted by time resets them at its own run's start, and across runs
 * split with `pre no` Debian 12's LAMMPS, 29 Sep 2021, stops with
 * "Balance weight <= 0.0").
 * Asked where the busiest rank's Pair and Neigh exceed the ranks' mean
 * by more than 1.1 (LAMMPS' usual threshold) and that excess would pay
 * twice over in one segment for the setup a rebalance costs, on a brick
 * with no fix balance (rcb and an input's fix balance are left as they
 * are). The whole-run model balances atom counts: where atoms differ in
 * cost (flatwall's two pair styles, JKR with rolling and twisting on one
 * pile, Hertz on the other) even counts leave the work uneven, and only
 * the timers see it. It is the measurement's, not the model's, so it
 * runs no advice. After two rebalances in a row that left the ranks as
 * uneven (the shift of cuts cannot split what weighs most), none is
 * asked again in the run. */
static void rebalance(hg_live *t, const hg_live_measure *m,
                      hg_live_decision *d)
{
    double work = m->pair + m->neigh, busiest = m->pair_max + m->neigh_max;
    double spread = hg_live_spread(m);
    if (t->rebalanced_at > 0.0) { /* the segment after a rebalance */
        int failed = spread > 1.1 && spread > t->rebalanced_at - 0.05;
        t->failed_rebalances = failed ? t->failed_rebalances + 1 : 0;
        if (t->failed_rebalances >= 2)
            t->no_rebalance = 1;
        t->rebalanced_at = 0.0;
    }
    if (m->procs < 2 || t->no_rebalance ||
        strcmp(t->engine->name, "lammps") ||
        strstr(m->decomposition, "fix ") ||
        strstr(m->decomposition, "comm_style tiled"))
        return;
    /* what evening would save in the next segment alone (its cuts drift
     * back as the atoms move): at least twice the setup it costs (the
     * next segment begins with one), else, no setup measured yet,
     * min_gain of its loop */
    double save = busiest - 1.1 * work;
    double need = t->setup_cost > 0.0 ? 2.0 * t->setup_cost
                                      : t->o.min_gain * m->loop;
    double gain = m->loop > 0.0 ? save / m->loop : 0.0;
    if (!(work > 0.0) || !(spread > 1.1) || !(save >= need))
        return;
    hg_ranks_layout l;
    hg_ranks_layout_default(&l, m->procs);
    hg_err pe = {0};
    if (hg_ranks_layout_parse(m->decomposition, 3, &l, &pe))
        return; /* not a brick this can read: left alone */
    if (!hg_ranks_split_axes(l.user, 3, l.dims))
        return;
    l.balance = HG_RANKS_SHIFT;
    l.fix = 0;
    l.thresh = l.stopthresh = 1.1;
    l.niter = 20;
    l.weight_time = 1.0;
    char lines[600];
    hg_ranks_layout_lines(&l, 3, lines, sizeof lines);
    const char *cmd = strstr(lines, "balance ");
    if (!cmd)
        return;
    if (strlen(cmd) >= sizeof d->rebalance)
        return;
    memcpy(d->rebalance, cmd, strlen(cmd) + 1);
    t->rebalanced_at = spread;
    d->rebalance_gain = gain;
    snprintf(d->rebalance_why, sizeof d->rebalance_why, "rebalanced by the "
             "segment's timers: the busiest rank's Pair and Neigh x%.2f the "
             "ranks' mean, predicted to save %.1f %% of the loop", spread,
             100.0 * gain);
}

/* The tuner's own time (decisions and their frames, over the whole
 * input) within its share of the input's loop as it will be at its end:
 * the runs before this one, this run's segments (loop_sum: with m's), and
 * the rest of this run and the later runs priced at segment m's rate (a
 * pour's filling run advised as the part of the input it is, not as all
 * of it: LAMMPS' wide pour runs 25000 steps more after it, and a share of
 * the first run alone left its bed unadvised). An advice that would take
 * it past waits (a short run is advised on a few times, a long one after
 * every segment; the loop so far alone would starve a run whose early
 * segments are cheap, a pour that fills). The first advice is always
 * asked. *whole: that loop. */
static int share_allows(const hg_live *t, const hg_live_measure *m,
                        double loop_sum, double *whole)
{
    double share = t->o.tuning_share;
    *whole = t->o.loop_before + loop_sum;
    double rest = (double)t->o.later_steps;
    if (t->run_end > m->to)
        rest += (double)(t->run_end - m->to);
    if (m->to > m->from)
        *whole += m->loop * rest / (double)(m->to - m->from);
    return !(share > 0.0 && m->advice_cost > 0.0 &&
             m->tuning + m->advice_cost > share * *whole);
}

int hg_live_wants_frame(const hg_live *t, const hg_live_measure *m)
{
    /* a trial is judged on its own frames (its first is the change's),
     * whatever the share: the change is made, and what it measured
     * decides whether it stays */
    if ((t->tr.on_trial || t->tr.rechecking) && t->tr.before_model > 0.0)
        return 1;
    if (failed_on(t, m->atoms))
        return 0;
    double whole, loop_sum = t->loop_sum;
    if (m->loop > 0.0 && isfinite(m->loop))
        loop_sum += m->loop; /* as hg_live_segment will count it */
    return share_allows(t, m, loop_sum, &whole);
}

/* A trial's bracket judged (change: the trial against the lines before
 * on both sides of it, as a share; against: what it was judged
 * against): more than undo_margin slower, the change stays undone and is
 * not tried again in this run; else it is made again. */
static int judge_bracket(hg_live *t, double change, const char *against,
                         hg_live_decision *d, hg_err *e)
{
    d->measured_change = change;
    if (change > t->o.undo_margin) {
        ban(t, t->tr.trial);
        t->tr.trial = NULL;
        d->action = HG_LIVE_UNDO; /* no lines: they are in force */
        snprintf(d->why, sizeof d->why, "undone: %.1f %% slower than %s",
                 100.0 * change, against);
        return HG_OK;
    }
    int st = set_lines(d, t->tr.trial, e);
    if (st)
        return st;
    d->action = HG_LIVE_CHANGE;
    d->predicted_gain = t->tr.trial_gain;
    snprintf(d->name, sizeof d->name, "%s", t->tr.trial_name);
    snprintf(d->why, sizeof d->why, "%s made again: %+.1f %% against %s",
             t->tr.trial_name, 100.0 * change, against);
    free(t->tr.trial);
    t->tr.trial = NULL;
    return HG_OK;
}

static int segment(hg_live *t, const hg_live_measure *m, const char *own,
                   const char *restore, const char *frame0,
                   const char *frame1, int last, hg_live_decision *d,
                   hg_err *e)
{
    memset(d, 0, sizeof *d);
    /* hg_live_wants_probe's verdict on m, for m only */
    int probe_waiting = t->probe_waiting;
    t->probe_waiting = 0;
    t->segments++;
    if (m->loop > 0.0 && isfinite(m->loop))
        t->loop_sum += m->loop;
    if (m->setup > 0.0 && isfinite(m->setup))
        t->setup_cost = m->setup;
    /* the trend is of two segments at the same lines */
    double cost = cost_of(m);
    t->prev_cost = t->changed_after == t->segments - 1 ? 0.0 : t->last_cost;
    t->seg_before = t->last_cost;
    t->last_cost = cost;
    if (t->tr.rechecking && !last) {
        /* the lines before ran again: the trial against their mean on
         * both sides of it */
        t->tr.rechecking = 0;
        /* with the model: the lines before on both sides of the trial,
         * each measured / model, their mean ratio times the model's
         * price of those lines on the trial's frames (a pour that fills,
         * a segment before that rebuilt every step, a bed that settles,
         * each priced where it happened) */
        double model = t->tr.trial_model > 0.0 && m->dangerous == 0
                           ? old_lines_price(t, frame0, frame1, NULL)
                           : 0.0;
        if (model > 0.0 && seconds_of(m) > 0.0 && t->tr.trial_seconds > 0.0) {
            double ratio = 0.5 * (t->tr.before_seconds / t->tr.before_model +
                                  seconds_of(m) / model);
            double change =
                t->tr.trial_seconds / (ratio * t->tr.trial_model) - 1.0;
            return judge_bracket(t, change, "what the lines before would "
                                 "have cost (the model on its frames, "
                                 "scaled to them on both sides of it)", d,
                                 e);
        }
        /* atoms that came in (or left) by more than a tenth across the
         * bracket: a cost per atom and step of a pour that fills cannot
         * tell the lines from the run (flatwall's bed formed from 1498
         * atoms to 3000 across one bracket and made a slower skin look a
         * third cheaper); the lines before stay */
        double lo =
            fmin(t->tr.before_atoms, fmin(t->tr.trial_atoms, m->atoms));
        double hi =
            fmax(t->tr.before_atoms, fmax(t->tr.trial_atoms, m->atoms));
        if (lo > 0.0 && hi > 1.1 * lo) {
            ban(t, t->tr.trial);
            t->tr.trial = NULL;
            d->action = HG_LIVE_UNDO;
            d->measured_change = NAN; /* not measured */
            snprintf(d->why, sizeof d->why, "undone: the atoms went from "
                     "%.0f to %.0f across its trial, which their cost per "
                     "atom and step cannot tell from the lines; the lines "
                     "before stay", t->tr.before_atoms, m->atoms);
            return HG_OK;
        }
        double around = 0.5 * (t->tr.before_cost + cost);
        double change = around > 0.0 && t->tr.trial_cost > 0.0
                            ? t->tr.trial_cost / around - 1.0
                            : 0.0;
        return judge_bracket(t, change, "the lines before per atom and "
                             "step, on both sides of it", d, e);
    }
    t->tr.rechecking = 0;
    int trial = t->tr.on_trial;
    if (t->tr.on_trial) {
        t->tr.on_trial = 0;
        /* what the lines before would have cost over the trial: the
         * model's price of them on the trial's own frames (atoms that
         * come in, a bed that forms), times the measured / model ratio of
         * the segment before; without both frames, the segment before per
         * atom and step carried forward by its trend */
        double fa = 0.0;
        double model = t->tr.before_model > 0.0
                           ? old_lines_price(t, frame0, frame1, &fa)
                           : 0.0;
        double by_model = NAN, by_trend = NAN;
        if (model > 0.0 && t->tr.before_seconds > 0.0 && seconds_of(m) > 0.0)
            by_model = seconds_of(m) / (t->tr.before_seconds /
                                        t->tr.before_model * model) -
                       1.0;
        if (t->tr.base_cost > 0.0 && cost > 0.0)
            by_trend = cost / t->tr.base_cost - 1.0;
        /* a trend per atom and step assumes what an atom costs goes on
         * as it went; where the frames price the lines before dearer per
         * atom and step over the trial by TREND_BLIND or more (a bed
         * that forms: flatwall's contacts per atom x1.4-2 a segment
         * between steps 1500 and 3000, its Pair per atom with them), the
         * model's figure alone judges */
        double grew = 0.0;
        if (model > 0.0 && m->to > m->from && fa > 0.0 &&
            t->tr.before_steps > 0.0 && t->tr.before_frame_atoms > 0.0) {
            grew = (model / ((double)(m->to - m->from) * fa)) /
                   (t->tr.before_model /
                    (t->tr.before_steps * t->tr.before_frame_atoms));
            if (grew >= 1.0 + TREND_BLIND && isfinite(by_model))
                by_trend = NAN;
        }
        /* slower by either, the bracket measures the lines before again:
         * the model misprices a bed that forms (flatwall's skin of 0.93
         * passed it at -43 %, and ran 1.14 of the best static setting on
         * one rank), the trend a pour that fills (the wide pour's first
         * change, 4-11 % above it, undone) */
        int model_slower = by_model > t->o.undo_margin;
        int slower = model_slower || by_trend > t->o.undo_margin;
        /* the figure shown: the model's, unless only the trend found the
         * trial slower (or the model has none) */
        int from_model = isfinite(by_model) && (model_slower || !slower);
        double change = from_model ? by_model : by_trend;
        if (isfinite(change)) {
            d->measured_change = change;
            if (slower) {
                int st = set_lines(d, t->tr.prev, e);
                if (st)
                    return st;
                t->tr.rechecking = 1;
                t->tr.trial_cost = cost;
                t->tr.trial_seconds = seconds_of(m);
                t->tr.trial_model = model;
                t->tr.trial_atoms = m->atoms;
                d->action = HG_LIVE_UNDO;
                snprintf(d->why, sizeof d->why, "undone for a segment: "
                         "%.1f %% slower than %s; the lines before run "
                         "again to bracket it%s", 100.0 * change,
                         from_model
                             ? "the lines before would have been (the "
                               "model on its frames, scaled to the "
                               "segment before)"
                             : "the trend per atom and step before the "
                               "change",
                         t->tr.before_dangerous > 0
                             ? " (they built dangerously: no model price)"
                             : "");
                return HG_OK;
            }
            char trend[96] = "";
            if (t->tr.before_dangerous > 0)
                snprintf(trend, sizeof trend, " (the lines before built "
                         "dangerously, %lld of %lld builds: no model price)",
                         t->tr.before_dangerous, t->tr.before_builds);
            else if (from_model && isfinite(by_trend))
                snprintf(trend, sizeof trend, ", %+.1f %% against the "
                         "trend", 100.0 * by_trend);
            else if (from_model && grew >= 1.0 + TREND_BLIND)
                snprintf(trend, sizeof trend, " (the frames price them "
                         "x%.2f per atom and step: no trend)", grew);
            snprintf(d->judged, sizeof d->judged, "%s on trial: %+.1f %% "
                     "against %s%s: kept", t->tr.trial_name, 100.0 * change,
                     from_model
                         ? "what the lines before would have cost (the "
                           "model on its frames, scaled to the segment "
                           "before)"
                         : "the trend per atom and step before it",
                     trend);
        } else {
            snprintf(d->judged, sizeof d->judged, "%s on trial: kept "
                     "unjudged (no model price of the lines before, no "
                     "trend across runs)", t->tr.trial_name);
        }
    }
    if (last) {
        snprintf(d->why, sizeof d->why, "the run's last segment");
        return HG_OK;
    }
    if (m->to - m->from < 1 || !(m->atoms >= 1.0) ||
        !(m->pair + m->neigh > 0.0) || !(m->loop > 0.0)) {
        snprintf(d->why, sizeof d->why, "kept: the segment measured no "
                 "atoms or no Pair and Neigh time");
        return HG_OK;
    }
    double whole = 0.0;
    if (!share_allows(t, m, t->loop_sum, &whole)) {
        snprintf(d->why, sizeof d->why, "kept: not advised (tuning %.2g s "
                 "+ %.2g s > %.3g %% of the loop by the input's end at this "
                 "rate, %.3g s)", m->tuning, m->advice_cost,
                 100.0 * t->o.tuning_share, whole);
        return HG_OK;
    }
    /* a change kept on its trial is not advised on again there: its
     * advice came from the frames a segment before, and in the
     * benchmark's rounds (tests/bench_run.sh) the advices on a kept
     * trial's segment kept the lines 52 times in 55 (the other 3,
     * flatwall's second change at step 1000, were undone for a segment
     * at 1500 and made again at 2000); lines that built dangerously are
     * advised on at once */
    if (trial && m->dangerous == 0) {
        snprintf(d->why, sizeof d->why, "kept: not advised (the change's "
                 "trial; advised again from the next segment)");
        return HG_OK;
    }
    if (t->changes > 0 && m->dangerous == 0 && t->seg_before > 0.0 &&
        cost > GROWING * t->seg_before) {
        snprintf(d->why, sizeof d->why, "kept: not advised (x%.2f the "
                 "segment before per atom and step: the run changes "
                 "faster than the segment can tell the rest of it)",
                 cost / t->seg_before);
        return HG_OK;
    }
    if (t->segments < t->advise_from && m->dangerous == 0 &&
        same_atoms(t->kept_atoms, m->atoms)) {
        char last[40] = "the last advice";
        if (t->kept_streak > 1)
            snprintf(last, sizeof last, "the last %d advices",
                     t->kept_streak);
        snprintf(d->why, sizeof d->why, "kept: not advised (%s kept the "
                 "lines on these atoms: %d segment%s without advice)", last,
                 t->kept_wait, t->kept_wait == 1 ? "" : "s");
        return HG_OK;
    }
    if (failed_on(t, m->atoms)) {
        snprintf(d->why, sizeof d->why, "kept: not advised (the advice "
                 "failed on %.0f atoms: again where they change by half)",
                 t->failed_atoms);
        return HG_OK;
    }
    if (probe_waiting) {
        t->probe_waits++;
        snprintf(d->why, sizeof d->why, "kept: not advised (waiting for "
                 "the pair style's probe, past its share at this rate)");
        return HG_OK;
    }
    if (!frame0 || !frame1) {
        snprintf(d->why, sizeof d->why, "kept: not advised (no frame of "
                 "the segment's first step: the tuning share had run out "
                 "there)");
        return HG_OK;
    }
    d->advised = 1;
    return advise(t, m, own, restore, frame0, frame1, d, e);
}

int hg_live_segment(hg_live *t, const hg_live_measure *m, const char *own,
                    const char *restore, const char *frame0,
                    const char *frame1, int last, hg_live_decision *d,
                    hg_err *e)
{
    int st = segment(t, m, own, restore, frame0, frame1, last, d, e);
    if (st != HG_OK && d->advised)
        t->failed_atoms = m->atoms >= 1.0 ? m->atoms : 1.0;
    if (st == HG_OK && d->lines)
        t->changed_after = t->segments;
    if (st == HG_OK && d->action != HG_LIVE_KEEP) { /* lines changed */
        t->kept_streak = 0;
        t->advise_from = 0;
    }
    if (st == HG_OK && d->action == HG_LIVE_CHANGE)
        t->changes++;
    /* ranks the timers show uneven: rebalanced by them, whatever the
     * lines (measured, not priced: no advice, not held back by the
     * share) */
    if (st == HG_OK && !last)
        rebalance(t, m, d);
    return st;
}
