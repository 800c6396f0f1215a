/* test_whole_run.c - whole-run advice (hg_whole_run.h) on a trajectory
 * written here, priced by an engine of the test's own whose costs are
 * known: the builds from the motion between frames (minimum image on a
 * periodic axis, atoms joined by id, atoms that come in later), the
 * totals of every setting and skin against the documented formula
 * computed here, the skin kept or chosen (never below 4x the motion per
 * step), the user's setting, the schedule of two phases, the frames
 * priced one in k, several files of one run, and the errors. */
#include "hg_engine.h"
#include "hg_whole_run.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Positions are kept in single precision between frames (finer than a
 * dump's 6 digits): what the motion decides agrees to REL. */
#define REL 1e-5

/* ---- the run: 10 atoms, 2 more from step 1100; every atom moves 0.001
 * per step along x up to step 1000, 0.002 after; frames every 100 steps
 * up to 2000 ---- */

#define LAST 2000
#define EVERY 100

static double shift(long s)
{
    return 0.001 * (s < 1000 ? s : 1000) + 0.002 * (s > 1000 ? s - 1000 : 0);
}

static int atoms_at(long s)
{
    return s >= 1100 ? 12 : 10;
}

static void write_frames(FILE *f, long from, long to)
{
    for (long s = from; s <= to; s += EVERY) {
        int n = atoms_at(s);
        fprintf(f, "ITEM: TIMESTEP\n%ld\nITEM: NUMBER OF ATOMS\n%d\n"
                   "ITEM: BOX BOUNDS pp pp pp\n0 10\n0 10\n0 10\n"
                   "ITEM: ATOMS id type radius x y z\n", s, n);
        for (int i = 0; i < n; i++) {
            double x = fmod((i < 10 ? 1.0 + 0.8 * i : 2.0) + shift(s), 10.0);
            fprintf(f, "%d 1 0.5 %.9f %.9f 5\n", i + 1, x,
                    i < 10 ? 5.0 : 8.0 + 0.5 * (i - 10));
        }
    }
}

static void write_file(const char *path, long from, long to)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    write_frames(f, from, to);
    fclose(f);
}

/* ---- the engine: setting A costs 1 s a build with 10 atoms and 3 with
 * 12, B the other way round; the pair loop PAIR x skin a step ---- */

#define PAIR 0.01

struct hg_run_frame {
    size_t n;
};

static int candidates(const hg_particles *rep, double dmax, double skin,
                      const hg_consts *build, hg_run_setting *out, int cap,
                      hg_err *e)
{
    (void)rep, (void)skin, (void)build, (void)e;
    if (cap < 2)
        return 0;
    memset(out, 0, 2 * sizeof *out);
    snprintf(out[0].name, sizeof out[0].name, "A");
    out[1].ncoll = 1;
    out[1].cut[0] = dmax;
    snprintf(out[1].name, sizeof out[1].name, "B");
    return 2;
}

static int parse(const char *lines, double dmax, hg_run_setting *s,
                 double *skin, hg_err *e)
{
    memset(s, 0, sizeof *s);
    char name[16];
    /* "NAME SKIN", or as a log echoes it, "neighbor SKIN NAME" */
    if (sscanf(lines, "neighbor %lf %15s", skin, name) != 2 &&
        sscanf(lines, "%15s %lf", name, skin) != 2)
        return hg_fail(e, HG_EINVAL, "'%s' is not NAME SKIN", lines);
    if (!(*skin > 0.0))
        return hg_fail(e, HG_EINVAL, "'%s' is not NAME SKIN", lines);
    if (!strcmp(name, "B")) {
        s->ncoll = 1;
        s->cut[0] = dmax;
    } else if (strcmp(name, "A")) {
        s->binsize = 0.7; /* a third setting */
    }
    snprintf(s->name, sizeof s->name, "%s", name);
    return HG_OK;
}

static int frame_open(const hg_particles *p, double dmax,
                      struct hg_run_frame **f, hg_err *e)
{
    (void)dmax, (void)e;
    *f = malloc(sizeof **f);
    (*f)->n = p->n;
    return HG_OK;
}

static void frame_free(struct hg_run_frame *f)
{
    free(f);
}

static double neigh_of(int ncoll, double binsize, size_t n)
{
    if (binsize > 0.0)
        return 2.5;
    return (ncoll == 0) == (n == 10) ? 1.0 : 3.0;
}

static int frame_cost(struct hg_run_frame *f, const hg_run_setting *s,
                      double skin, const hg_consts *build,
                      const hg_consts *pair, double *neigh, double *pair_s,
                      hg_err *e)
{
    (void)build, (void)e;
    *neigh = neigh_of(s->ncoll, s->binsize, f->n);
    /* the constants' per-atom term (c[1]) on top (zero in most tests) */
    *pair_s = PAIR * skin + pair->c[1] * (double)f->n;
    return HG_OK;
}

static int lines(const hg_run_setting *s, double skin, double dmax, int full,
                 char **text, hg_err *e)
{
    /* as LAMMPS: the last collection must hold the largest atom */
    if (s->ncoll > 0 && s->cut[s->ncoll - 1] < dmax * (1.0 - 1e-12))
        return hg_fail(e, HG_EINVAL, "last collection cutoff %g is below "
                       "the largest diameter %g", s->cut[s->ncoll - 1],
                       dmax);
    *text = malloc(160);
    snprintf(*text, 160, "%s %.6g%s\n", s->name, skin, full ? " full" : "");
    return HG_OK;
}

static const hg_run_hooks hooks = {
    .candidates = candidates,
    .parse = parse,
    .frame_open = frame_open,
    .frame_free = frame_free,
    .frame_cost = frame_cost,
    .lines = lines,
    .log_code = "TESTCODE",
};

static const hg_engine engine = {.name = "test", .run = &hooks};

/* The same engine with the frames' contacts counted: 5 among the 10
 * atoms, 24 once the 2 more came (a bed that forms); or none (a falling
 * stream). */
static int no_contacts;
static double frame_contacts(const struct hg_run_frame *f)
{
    return no_contacts ? 0.0 : f->n == 12 ? 24.0 : 5.0;
}

static const hg_run_hooks hooks_contacts = {
    .candidates = candidates,
    .parse = parse,
    .frame_open = frame_open,
    .frame_free = frame_free,
    .frame_cost = frame_cost,
    .frame_contacts = frame_contacts,
    .lines = lines,
    .log_code = "TESTCODE",
};

static const hg_engine engine_contacts = {.name = "test",
                                          .run = &hooks_contacts};

/* The builds between frames s - EVERY and s, step by step as LAMMPS
 * checks: the fastest atom's displacement since the last build over
 * half the skin (a tie, within 1e-4, not over) makes a build; *acc
 * carries that displacement from one interval to the next. */
static double interval_builds(long s, double skin, double *acc)
{
    double u = (shift(s) - shift(s - EVERY)) / EVERY, n = 0.0;
    for (int k = 0; k < EVERY; k++) {
        *acc += u;
        if (*acc > 0.5 * skin * (1.0 + 1e-4)) {
            n += 1.0;
            *acc = 0.0;
        }
    }
    return n;
}

/* The builds over steps [from, to], counted from step 0. */
static double builds_of(double skin, long from, long to)
{
    double acc = 0.0, n = 0.0;
    for (long s = EVERY; s <= to; s += EVERY) {
        double b = interval_builds(s, skin, &acc);
        if (s - EVERY >= from)
            n += b;
    }
    return n;
}

/* The documented total of a setting at skin over steps [from, to]:
 * every interval between frames, its builds (interval_builds) times
 * the mean of its ends' Neigh, plus Δ times the pair loop. */
static double expected(int ncoll, double binsize, double skin, long from,
                       long to)
{
    double t = 0.0, acc = 0.0;
    for (long s = EVERY; s <= to; s += EVERY) {
        double b = interval_builds(s, skin, &acc);
        if (s - EVERY < from)
            continue;
        double ne = 0.5 * (neigh_of(ncoll, binsize, atoms_at(s - EVERY)) +
                           neigh_of(ncoll, binsize, atoms_at(s)));
        t += b * ne + EVERY * PAIR * skin;
    }
    return t;
}

static int near(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fabs(b);
}

static hg_consts zero;

/* The input of a run of the test's engine (constants of its own). */
static hg_run_input input(const char *const *paths, int n, double skin,
                          const char *setting)
{
    hg_run_input in = {0};
    in.paths = paths;
    in.n_paths = n;
    in.engine = &engine;
    in.skin = skin;
    in.setting = setting;
    in.build = &zero;
    in.pair = &zero;
    return in;
}

static int advise(const char *const *paths, int n, double skin,
                  const char *setting, int max_frames, hg_run_advice *a,
                  hg_err *e)
{
    hg_run_input in = input(paths, n, skin, setting);
    in.max_frames = max_frames;
    return hg_run_advise(&in, a, e);
}

static void test_skin_kept(const char *path)
{
    const char *paths[] = {path};
    hg_run_advice a;
    hg_err e = {0};
    int st = advise(paths, 1, 0.05, "A 0.05", 0, &a, &e);
    CHECKM(st == HG_OK, "advice with the skin kept: %s", e.msg);
    if (st)
        return;
    CHECKM(a.frames == 21 && a.measured == 21, "frames %zu priced %zu",
          a.frames, a.measured);
    CHECKM(a.first_step == 0 && a.last_step == LAST && a.max_atoms == 12,
          "run %lld-%lld, %zu atoms", a.first_step, a.last_step,
          a.max_atoms);
    CHECKM(near(a.max_motion, 0.002, REL), "largest motion %g per step "
          "(0.002, across the periodic face too)", a.max_motion);
    CHECKM(a.n_skins == 1 && a.best.skin == 0.05, "skin kept: %g",
          a.best.skin);
    /* builds: 1000 steps at 0.001 and 1000 at 0.002 per step, skin 0.05:
     * one every 26 steps, then one every 13 (38 + 77) */
    double builds = builds_of(0.05, 0, LAST);
    CHECKM(builds == 38 + 77, "the test's own count: %g builds", builds);
    CHECKM(near(a.own.builds, builds, REL), "builds %g, expected %g",
          a.own.builds, builds);
    for (int k = 0; k < a.n_candidates; k++) {
        const hg_run_setting *c = &a.candidates[k];
        double x = expected(c->ncoll, c->binsize, 0.05, 0, LAST);
        CHECKM(near(a.per_candidate[k].seconds, x, REL),
              "%s: total %.9g, expected %.9g", c->name,
              a.per_candidate[k].seconds, x);
    }
    CHECKM(a.has_own && a.own.candidate == 0 &&
              near(a.own.seconds, expected(0, 0.0, 0.05, 0, LAST), REL),
          "your setting A priced as A");
    /* A is best in the first phase, B in the second: a schedule */
    CHECKM(a.n_segments == 2, "schedule of %d phases", a.n_segments);
    if (a.n_segments == 2) {
        const hg_run_segment *p = a.segments;
        CHECKM(!strcmp(a.candidates[p[0].choice.candidate].name, "A") &&
                  !strcmp(a.candidates[p[1].choice.candidate].name, "B"),
              "phases A then B");
        CHECKM(p[0].from == 0 && p[1].to == LAST &&
                  p[0].to == p[1].from &&
                  (p[1].from == 1000 || p[1].from == 1100),
              "phase steps %lld-%lld, %lld-%lld", p[0].from, p[0].to,
              p[1].from, p[1].to);
        double x = expected(0, 0.0, 0.05, 0, p[0].to) +
                   expected(1, 0.0, 0.05, p[1].from, LAST);
        CHECKM(near(a.schedule_seconds, x, REL),
              "schedule %.9g, expected %.9g", a.schedule_seconds, x);
        CHECKM(a.schedule_seconds < 0.9 * a.best.seconds,
              "schedule saves more than 10 %%");
        CHECKM(p[1].lines && strstr(p[1].lines, "full"),
              "a phase's lines are full ones");
    }
    hg_run_advice_clear(&a);
}

/* The user's lines priced alone: their price as among all settings,
 * with no other weighed; without lines, an error. */
static void test_own_only(const char *path)
{
    const char *paths[] = {path};
    hg_run_advice all, own;
    hg_err e = {0};
    int st = advise(paths, 1, 0.0, "B 0.05", 0, &all, &e);
    CHECKM(st == HG_OK, "advice of B at 0.05: %s", e.msg);
    hg_run_input in = input(paths, 1, 0.0, "B 0.05");
    in.own_only = 1;
    int st2 = hg_run_advise(&in, &own, &e);
    CHECKM(st2 == HG_OK, "B at 0.05 priced alone: %s", e.msg);
    if (st == HG_OK && st2 == HG_OK) {
        CHECKM(all.n_candidates > 1 && own.n_candidates == 1 &&
                  own.has_own && own.own.candidate == 0 &&
                  own.best.candidate == 0,
              "%d settings weighed with the others, %d alone (best %d)",
              all.n_candidates, own.n_candidates, own.best.candidate);
        CHECKM(all.has_own && own.own.seconds == all.own.seconds &&
                  own.own.skin == all.own.skin,
              "B alone %.12g s at skin %g, among all %.12g s at %g",
              own.own.seconds, own.own.skin, all.own.seconds,
              all.own.skin);
        CHECKM(near(own.own.seconds, expected(1, 0.0, 0.05, 0, LAST), REL),
              "B priced as B: %.9g", own.own.seconds);
    }
    if (st == HG_OK)
        hg_run_advice_clear(&all);
    if (st2 == HG_OK)
        hg_run_advice_clear(&own);
    in.setting = NULL;
    e.msg[0] = '\0';
    st = hg_run_advise(&in, &own, &e);
    CHECKM(st == HG_EINVAL && strstr(e.msg, "no lines given"),
          "own lines only without lines: %d '%s'", st, e.msg);
}

/* multi_only (LAMMPS' comm_modify reduce/multi, which no command
 * clears): the bin settings (A) are not weighed, and the answer is
 * multi. */
static void test_multi_only(const char *path)
{
    const char *paths[] = {path};
    hg_run_input in = input(paths, 1, 0.05, "B 0.05");
    hg_run_advice all, multi;
    hg_err e = {0};
    int st = hg_run_advise(&in, &all, &e);
    CHECKM(st == HG_OK, "advice of B at 0.05: %s", e.msg);
    in.multi_only = 1;
    int st2 = hg_run_advise(&in, &multi, &e);
    CHECKM(st2 == HG_OK, "the same, multi only: %s", e.msg);
    if (st == HG_OK && st2 == HG_OK) {
        int bins = 0, left = 0;
        for (int k = 0; k < all.n_candidates; k++)
            bins += all.candidates[k].ncoll == 0;
        for (int k = 0; k < multi.n_candidates; k++)
            left += multi.candidates[k].ncoll == 0;
        CHECKM(bins > 0 && left == 0 && multi.n_candidates > 0 &&
                   multi.n_candidates == all.n_candidates - bins,
               "%d settings (%d bin), multi only %d (%d bin)",
               all.n_candidates, bins, multi.n_candidates, left);
        CHECKM(multi.candidates[multi.best.candidate].ncoll > 0 &&
                   multi.has_own &&
                   multi.candidates[multi.own.candidate].ncoll > 0,
               "the answer %s, multi", multi.candidates[multi.best.candidate]
                                           .name);
    }
    if (st == HG_OK)
        hg_run_advice_clear(&all);
    if (st2 == HG_OK)
        hg_run_advice_clear(&multi);
}

static void test_skin_chosen(const char *path)
{
    const char *paths[] = {path};
    hg_run_advice a;
    hg_err e = {0};
    int st = advise(paths, 1, 0.0, "C 0.05", 0, &a, &e);
    CHECKM(st == HG_OK, "advice with the skin chosen: %s", e.msg);
    if (st)
        return;
    CHECKM(a.n_skins > 10 && a.skin_min == 4 * a.max_motion,
          "%d skins from %g", a.n_skins, a.skin_min);
    /* the best over the skins offered, by the formula */
    double best = INFINITY;
    for (int j = 0; j < a.n_skins; j++)
        for (int k = 0; k < a.n_candidates; k++)
            if (a.skins[j] >= a.skin_min)
                best = fmin(best, expected(a.candidates[k].ncoll,
                                           a.candidates[k].binsize,
                                           a.skins[j], 0, LAST));
    CHECKM(near(a.best.seconds, best, REL), "best %.9g, expected %.9g",
          a.best.seconds, best);
    CHECKM(a.best.skin >= a.skin_min, "skin %g >= %g", a.best.skin,
          a.skin_min);
    CHECKM(a.best.steps_every_step == 0.0, "no step with a build every step");
    /* the user's third setting C is priced too, at its own skin */
    CHECKM(a.n_candidates == 3 && !strcmp(a.own_setting.name, "C") &&
              near(a.own.seconds, expected(0, 0.7, 0.05, 0, LAST), REL),
          "your setting C: %g", a.own.seconds);
    CHECKM(a.own_lines && !strcmp(a.own_lines, "C 0.05\n"),
          "your lines: %s", a.own_lines ? a.own_lines : "(none)");
    hg_run_advice_clear(&a);
}

static void test_sampled_and_files(const char *path, const char *p1,
                                   const char *p2)
{
    hg_run_advice a, b;
    hg_err e = {0};
    const char *one[] = {path}, *two[] = {p1, p2};
    int st = advise(one, 1, 0.05, NULL, 6, &a, &e);
    int said = 0;
    for (int i = 0; st == HG_OK && i < a.n_notes; i++)
        said |= strstr(a.notes[i], "one in 4") != NULL;
    CHECKM(st == HG_OK && a.measured == 6 && said,
          "priced one frame in 4: %zu (%s)", a.measured,
          st ? e.msg : a.n_notes ? a.notes[0] : "");
    if (st == HG_OK)
        hg_run_advice_clear(&a);
    st = advise(one, 1, 0.05, NULL, 0, &a, &e);
    int st2 = advise(two, 2, 0.05, NULL, 0, &b, &e);
    CHECKM(st == HG_OK && st2 == HG_OK && a.frames == b.frames &&
              b.files == 2 && near(b.best.seconds, a.best.seconds, 1e-12) &&
              near(b.best.builds, a.best.builds, 1e-12),
          "two files of one run give the answer of one");
    if (st == HG_OK)
        hg_run_advice_clear(&a);
    if (st2 == HG_OK)
        hg_run_advice_clear(&b);
}

static void test_errors(const char *path, const char *p1, const char *dir)
{
    hg_run_advice a;
    hg_err e = {0};
    const char *twice[] = {path, path};
    CHECKM(advise(twice, 2, 0.05, NULL, 0, &a, &e) == HG_EINVAL &&
              strstr(e.msg, "order"),
          "a run read twice: %s", e.msg);
    char one[4096];
    snprintf(one, sizeof one, "%s/one.dump", dir);
    write_file(one, 0, 0);
    const char *ones[] = {one};
    CHECKM(advise(ones, 1, 0.05, NULL, 0, &a, &e) == HG_EINVAL &&
              strstr(e.msg, "1 frame"),
          "one frame: %s", e.msg);
    const char *bad[] = {p1};
    CHECKM(advise(bad, 1, 0.05, "A 0.1", 0, &a, &e) == HG_EINVAL &&
              strstr(e.msg, "--skin") && strstr(e.msg, "0.1"),
          "--skin against --setting: %s", e.msg);
    CHECKM(advise(bad, 1, 0.0, "A", 0, &a, &e) == HG_EINVAL &&
              strstr(e.msg, "--setting"),
          "a bad --setting: %s", e.msg);
    hg_run_input in = {0};
    in.paths = bad;
    in.n_paths = 1;
    in.engine = hg_engine_find("hgrid");
    CHECKM(hg_run_advise(&in, &a, &e) == HG_EINVAL &&
              strstr(e.msg, "no whole-run advice"),
          "an engine without whole-run advice: %s", e.msg);
    const char *none[] = {"/nonexistent/traj.dump"};
    CHECKM(advise(none, 1, 0.05, NULL, 0, &a, &e) != HG_OK &&
              strstr(e.msg, "/nonexistent/traj.dump") && e.data,
          "a missing file: %s", e.msg);
    /* the dump's own errors are the data's (as a --packing file's) */
    char cut[4096];
    snprintf(cut, sizeof cut, "%s/cut.dump", dir);
    write_file(cut, 0, 100);
    FILE *f = fopen(cut, "r+");
    if (f) {
        fseek(f, 0, SEEK_END);
        if (ftruncate(fileno(f), ftell(f) - 30) != 0)
            perror(cut);
        fclose(f);
    }
    const char *cuts[] = {cut};
    CHECKM(advise(cuts, 1, 0.05, NULL, 0, &a, &e) != HG_OK &&
              strstr(e.msg, "cut.dump") && e.data,
          "a dump cut short: %s (data %d)", e.msg, e.data);
}

/* Ids renumbered at step 500 (reversed), velocities 1 along x with a
 * timestep 0.001: the motion stays 0.001 per step, with or without the
 * speeds, and the advice says so. */
static void test_renumbered(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/renumbered.dump", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    for (long s = 0; s <= 1000; s += 100) {
        fprintf(f, "ITEM: TIMESTEP\n%ld\nITEM: NUMBER OF ATOMS\n10\n"
                   "ITEM: BOX BOUNDS pp pp pp\n0 10\n0 10\n0 10\n"
                   "ITEM: ATOMS id type radius x y z vx vy vz\n", s);
        for (int i = 0; i < 10; i++)
            fprintf(f, "%d 1 0.5 %.9f %.9f 5 1 0 0\n",
                    s >= 500 ? 10 - i : i + 1, 1.0 + 0.001 * s, 0.5 + i);
    }
    fclose(f);
    const char *paths[] = {path};
    for (int with_dt = 0; with_dt < 2; with_dt++) {
        hg_run_input in = {0};
        in.paths = paths;
        in.n_paths = 1;
        in.engine = &engine;
        in.skin = 0.05;
        in.timestep = with_dt ? 0.001 : 0.0;
        in.build = &zero;
        in.pair = &zero;
        hg_run_advice a;
        hg_err e = {0};
        int st = hg_run_advise(&in, &a, &e);
        int said = 0;
        for (int i = 0; st == HG_OK && i < a.n_notes; i++)
            said |= strstr(a.notes[i], "renumbered between 1 pair") &&
                    strstr(a.notes[i], "steps 400 and 500") &&
                    strstr(a.notes[i], with_dt ? "speeds" : "frames around");
        CHECKM(st == HG_OK && said && near(a.max_motion, 0.001, REL) &&
                   near(a.best.builds, 38, REL),
               "renumbered ids (timestep %d): %s motion %g builds %g",
               with_dt, st ? e.msg : "", st ? 0.0 : a.max_motion,
               st ? 0.0 : a.best.builds);
        if (st == HG_OK)
            hg_run_advice_clear(&a);
    }
}

/* ---- the code's log ---- */

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
}

/* Both forms of the timing rows, summed over runs (OpenMP's thread
 * breakdown not counted twice); the commands echoed
 * before the first run (those with variables not yet put in skipped, the
 * last neighbor line kept); a change after it marked. */
static void test_log_read(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/log.lammps", dir);
    write_text(path,
               "LAMMPS (29 Sep 2021 - Update 2)\n"
               "units lj\n"
               "neighbor ${skin} bin\n"
               "neighbor 0.3 bin\n"
               "neighbor\t0.2   bin  # the skin\n"
               "neigh_modify delay 0\n"
               "timestep ${dt}\n"
               "timestep 0.001\n"
               "Loop time of 2.5 on 1 procs for 1000 steps with 460 atoms\n"
               "Section |  min time  |  avg time  |  max time  |%varavg| "
               "%total\n"
               "--------------------------------------------------------\n"
               "Pair    | 0.4        | 0.5        | 0.6        |   0.0 | "
               "20.00\n"
               "Neigh   | 1.0        | 1.25       | 1.5        |   0.0 | "
               "50.00\n"
               "Output  | 0.2        | 0.3        | 0.4        |   0.0 | "
               "12.00\n"
               "\nThread timing breakdown (MPI rank 0):\n"
               "Pair    | 0.3        | 0.4        | 0.5        |   0.0 | "
               "20.00\n"
               "Output  | 0.1        | 0.1        | 0.1        |   0.0 | "
               "4.00\n"
               "Neighbor list builds = 100\n"
               "Dangerous builds = 2\n"
               "neigh_modify every 2\n"
               "Loop time of 1.5 on 1 procs for 500 steps with 470 atoms\n"
               "Pair    | 0.1        | 0.25       | 0.3        |   0.0 | "
               "20.00\n"
               "Neigh   | 0.5        | 0.75       | 1.0        |   0.0 | "
               "50.00\n"
               "Neighbor list builds = 50\n"
               "Dangerous builds = 0\n");
    hg_run_log L;
    hg_err e = {0};
    int st = hg_run_log_read(path, &L, &e);
    CHECKM(st == HG_OK, "LAMMPS log: %s", e.msg);
    CHECKM(!strcmp(L.code, "LAMMPS") && L.runs == 2 && L.procs == 1 &&
              L.steps == 1500 && L.max_atoms == 470,
          "code %s, %d runs, %lld steps, %zu atoms", L.code, L.runs, L.steps,
          L.max_atoms);
    CHECKM(near(L.loop, 4.0, 1e-12) && near(L.pair, 0.75, 1e-12) &&
              near(L.neigh, 2.0, 1e-12) && near(L.output, 0.3, 1e-12),
          "loop %g pair %g neigh %g output %g (avg column, summed)", L.loop,
          L.pair, L.neigh, L.output);
    CHECKM(L.builds == 150 && L.dangerous == 2, "builds %lld dangerous %lld",
          L.builds, L.dangerous);
    CHECKM(!strcmp(L.lines, "neighbor 0.2 bin\nneigh_modify delay 0\n"),
          "lines '%s'", L.lines);
    CHECKM(L.timestep == 0.001 && !strcmp(L.units, "lj") && L.lines_changed,
          "timestep %g units %s changed %d", L.timestep, L.units,
          L.lines_changed);

    snprintf(path, sizeof path, "%s/log.liggghts", dir);
    write_text(path,
               "LIGGGHTS (Version LIGGGHTS-PUBLIC 3.8.0, compiled ...)\n"
               "units           si\n"
               "timestep        0.00001\n"
               "Loop time of 14.3 on 2 procs for 40000 steps with 2000 atoms, "
               "finish time Sat Nov 28 00:49:10 2026\n\n\n"
               "Pair  time (%) = 8.5 (61.2401)\n"
               "Neigh time (%) = 1.5 (13.4105)\n"
               "Comm  time (%) = 0.38 (2.67371)\n"
               "Outpt time (%) = 1.25 (8.74126)\n"
               "Neighbor list builds = 982\n"
               "Dangerous builds = 0\n");
    st = hg_run_log_read(path, &L, &e);
    CHECKM(st == HG_OK && !strcmp(L.code, "LIGGGHTS") && L.procs == 2 &&
              L.steps == 40000 && near(L.pair, 8.5, 1e-12) &&
              near(L.neigh, 1.5, 1e-12) && near(L.output, 1.25, 1e-12) &&
              L.builds == 982 && !*L.lines && !strcmp(L.units, "si") &&
              L.timestep == 1e-5,
          "LIGGGHTS log: %s; pair %g neigh %g output %g lines '%s'", e.msg,
          L.pair, L.neigh, L.output, L.lines);

    snprintf(path, sizeof path, "%s/log.unfinished", dir);
    write_text(path, "LAMMPS (29 Sep 2021)\nneighbor 0.2 bin\nrun 1000\n");
    CHECKM(hg_run_log_read(path, &L, &e) == HG_EINVAL &&
              strstr(e.msg, "no 'Loop time of' line"),
          "a log without a finished run: %s", e.msg);
    snprintf(path, sizeof path, "%s/no/such.log", dir);
    CHECKM(hg_run_log_read(path, &L, &e) == HG_EIO &&
              strstr(e.msg, "--log: cannot open"),
          "a missing log: %s", e.msg);
}

/* A log of one run (Loop time loop, steps, Pair, Neigh; "" leaves a row
 * out) followed by tail, read from memory as name. */
static int read_text(const char *text, size_t n, hg_run_log *L, hg_err *e)
{
    FILE *f = fmemopen((void *)text, n, "r");
    if (!f)
        return -100;
    int st = hg_run_log_read_stream(f, "x.log", L, e);
    fclose(f);
    return st;
}

static int read_log(const char *loop_line, const char *pair,
                    const char *neigh, const char *tail, hg_run_log *L,
                    hg_err *e)
{
    char text[2000];
    snprintf(text, sizeof text,
             "LAMMPS (29 Sep 2021)\nneighbor 0.2 bin\nrun 1000\n%s\n"
             "%s%s%s%s%s",
             loop_line, *pair ? "Pair    | 0 | " : "", pair,
             *pair ? " | 0 | 0.0 | 0\n" : "",
             *neigh ? "Neigh   | 0 | " : "", neigh);
    size_t n = strlen(text);
    snprintf(text + n, sizeof text - n, "%s%s", *neigh ? " | 0 | 0 | 0\n"
                                                       : "", tail);
    return read_text(text, strlen(text), L, e);
}

#define RUN(t, n) "Loop time of " t " on 1 procs for " n " steps with 50 atoms"
#define COUNTS "Neighbor list builds = 10\nDangerous builds = 1\n"

/* What no run of LAMMPS prints is refused, naming the line and the value:
 * sums of steps and builds beyond 64 bits, counts out of range or
 * negative, Loop times not finite, negative or 0 for steps, Pair + Neigh
 * above the Loop time (beyond the rows' rounding), binary data, a line
 * too long; a run without its timing table is counted. */
static void test_log_refused(void)
{
    hg_run_log L;
    hg_err e = {0};
    int st = read_log(RUN("1.5", "1000"), "0.5", "0.2", COUNTS, &L, &e);
    CHECKM(st == HG_OK && L.steps == 1000 && L.builds == 10 &&
              L.dangerous == 1 && !L.untimed,
          "a good log: %s", e.msg);
    /* rounding: rows of 5 digits, Loop of 6 */
    st = read_log(RUN("1", "1000"), "0.60004", "0.40003", COUNTS, &L, &e);
    CHECKM(st == HG_OK, "Pair + Neigh above Loop by rounding: %s", e.msg);
    st = read_log(RUN("1", "1000"), "0.7", "0.4", COUNTS, &L, &e);
    CHECKM(st == HG_EINVAL &&
              strstr(e.msg, "x.log' line 4: Pair 0.7 s + Neigh 0.4 s exceed "
                            "the run's Loop time 1 s"),
          "Pair + Neigh above Loop: %s", e.msg);
    st = read_log(RUN("1e308", "1000"), "1e308", "1e308", COUNTS, &L, &e);
    CHECKM(st == HG_EINVAL && strstr(e.msg, "Pair 1e+308 s + Neigh 1e+308"),
          "Pair + Neigh beyond a double: %s", e.msg);

    static const struct {
        const char *loop, *steps, *want;
    } loops[] = {
        {"1e999", "1000", "line 4: Loop time '1e999' is not a time"},
        {"inf", "1000", "line 4: Loop time 'inf' is not a time"},
        {"nan", "1000", "line 4: Loop time 'nan' is not a time"},
        {"-1.5", "1000", "line 4: Loop time '-1.5' is not a time"},
        {"0", "1000", "line 4: Loop time 0 for 1000 steps"},
        {"1.5", "-3", "line 4: steps '-3' is not a count"},
        {"1.5", "92233720368547758070", "steps '92233720368547758070' is "
                                        "not a count"},
    };
    for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++) {
        char line[200];
        snprintf(line, sizeof line, RUN("%s", "%s"), loops[i].loop,
                 loops[i].steps);
        st = read_log(line, "0", "0", COUNTS, &L, &e);
        CHECKM(st == HG_EINVAL && strstr(e.msg, loops[i].want),
              "Loop time of %s for %s steps: %s", loops[i].loop,
              loops[i].steps, e.msg);
    }
    /* a run of 0 steps may take no time (run 0) */
    st = read_log(RUN("0", "0"), "0", "0",
                  RUN("2", "10") "\nPair | 0 | 1 | 0 | 0 | 0\n"
                  "Neigh | 0 | 0.5 | 0 | 0 | 0\n" COUNTS, &L, &e);
    CHECKM(st == HG_OK && L.runs == 2 && L.steps == 10 && L.loop == 2.0,
          "run 0 in 0 s: %s", e.msg);
    st = read_log(RUN("1.5", "1000"), "inf", "0.2", COUNTS, &L, &e);
    CHECKM(st == HG_EINVAL && strstr(e.msg, "line 5: 'Pair") &&
              strstr(e.msg, "has no Pair time in seconds"),
          "Pair inf: %s", e.msg);
    st = read_log(RUN("1.5", "1000"), "0.5", "-0.2", COUNTS, &L, &e);
    CHECKM(st == HG_EINVAL && strstr(e.msg, "has no Neigh time"),
          "Neigh negative: %s", e.msg);

    static const struct {
        const char *tail, *want;
    } counts[] = {
        {"Neighbor list builds = -5\n", "line 7: Neighbor list builds '-5' "
                                        "is not a count"},
        {"Dangerous builds = -7\n", "line 7: Dangerous builds '-7' is not "
                                    "a count"},
        {"Neighbor list builds = 16666666666666661230\n",
         "Neighbor list builds '16666666666666661230' is not a count"},
        {"Neighbor list builds =\n", "Neighbor list builds '' is not"},
        {"Neighbor list builds = 9223372036854775807\n"
         "Neighbor list builds = 1\n",
         "line 8: Neighbor list builds 1: the log's Neighbor list builds add "
         "up to more than 2^63 - 1"},
        {"Dangerous builds = 9223372036854775807\nDangerous builds = 1\n",
         "line 8: Dangerous builds 1: the log's Dangerous builds add up"},
        {RUN("1", "9223372036854775000") "\n",
         "line 7: steps 9223372036854775000: the log's steps add up to more "
         "than 2^63 - 1"},
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        st = read_log(RUN("1.5", "1000"), "0.5", "0.2", counts[i].tail, &L,
                      &e);
        CHECKM(st != HG_OK && strstr(e.msg, counts[i].want), "%s: %s",
              counts[i].want, e.msg);
    }
    /* 2^63 - 1 itself is a count */
    st = read_log(RUN("1.5", "9223372036854775807"), "0.5", "0.2", COUNTS, &L,
                  &e);
    CHECKM(st == HG_OK && L.steps == 9223372036854775807LL, "2^63 - 1 steps: "
          "%s", e.msg);

    /* a run without its timing table (LAMMPS' timer loop): counted, its line kept */
    st = read_log(RUN("1.5", "1000"), "", "", COUNTS, &L, &e);
    CHECKM(st == HG_OK && L.untimed == 1 && L.untimed_line == 4,
          "no timing table: %s, %d untimed (line %lld)", e.msg, L.untimed,
          L.untimed_line);
    st = read_log(RUN("1.5", "1000"), "0.5", "", COUNTS, &L, &e);
    CHECKM(st == HG_OK && L.untimed == 1, "no Neigh row: %s", e.msg);

    /* binary data: the first NUL byte, at once */
    static const char nul[] = "LAMMPS (29 Sep 2021)\nLoop time of 1\0 on";
    st = read_text(nul, sizeof nul - 1, &L, &e);
    CHECKM(st == HG_EINVAL &&
              strstr(e.msg, "x.log': binary data (a NUL byte at offset 35)"),
          "a NUL byte: %s", e.msg);
    FILE *z = fopen("/dev/zero", "r");
    if (z) {
        time_t t0 = time(NULL);
        st = hg_run_log_read_stream(z, "/dev/zero", &L, &e);
        fclose(z);
        CHECKM(st == HG_EINVAL && strstr(e.msg, "offset 0)") &&
                  time(NULL) - t0 < 2,
              "/dev/zero: %s", e.msg);
    }
    /* a line of 2 MB: not a log, read no further */
    size_t big = (size_t)2 << 20;
    char *text = malloc(big + 1);
    if (text) {
        memset(text, 'a', big);
        text[big] = '\0';
        st = read_text(text, big, &L, &e);
        CHECKM(st == HG_ELIMIT &&
                  strstr(e.msg, "line 1 is longer than 1 MB"),
              "a long line: %s", e.msg);
        free(text);
    }
}

static int advise_log(const char *path, const char *log, const char *setting,
                      double skin, double keep, hg_run_advice *a, hg_err *e)
{
    const char *paths[] = {path};
    hg_run_input in = input(paths, 1, skin, setting);
    in.log = log;
    in.keep_margin = keep;
    return hg_run_advise(&in, a, e);
}

/* The model scaled to a log of the run: the log of setting A at skin
 * 0.05 measured 3x the model's Pair, half its Neigh per build and 0.8x
 * its builds, 100 s besides and 7.5 s of Output (left out: the
 * trajectory's dump); so A is predicted as measured, and every setting
 * with the same factors but Pair's: its excess (the contacts' force law)
 * is paid per atom and step at every setting, 2 x the model's Pair over
 * the run's 21900 atom-steps (10 atoms to step 1000, 11 on average to
 * 1100, 12 after). A log below the model's Pair scales it. */
/* A log of setting A at skin 0.05 over the run: Pair, Neigh and Output
 * seconds, builds, and 100 s besides. */
static void write_log_of_a(const char *path, double pair, double neigh,
                           double output, double builds)
{
    char text[2000];
    snprintf(text, sizeof text,
             "TESTCODE (a code of this test)\n"
             "neighbor 0.05 A\n"
             "Loop time of %.12g on 1 procs for %d steps with 12 atoms\n"
             "Pair    | 0 | %.12g | 0 | 0 | 0\n"
             "Neigh   | 0 | %.12g | 0 | 0 | 0\n"
             "Output  | 0 | %.12g | 0 | 0 | 0\n"
             "Neighbor list builds = %.0f\n"
             "Dangerous builds = 0\n",
             pair + neigh + output + 100.0, LAST, pair, neigh, output,
             builds);
    write_text(path, text);
}

/* A log's Pair above the model's where the frames' contacts are
 * counted: the excess is paid per contact and step (28050 contact-steps:
 * 5 to step 1000, 14.5 on average to 1100, 24 after), and priced so on
 * another stretch of the run with the scales given (steps 1100-2000: 24
 * contacts throughout); with no contacts (a falling stream) per atom and
 * step as before; scales per contact on an engine that counts none are
 * an error. */
static void test_log_per_contact(const char *path, const char *later,
                                 const char *dir)
{
    const double skin = 0.05;
    double builds = builds_of(skin, 0, LAST);
    double pair = PAIR * skin * LAST;
    double neigh = expected(0, 0.0, skin, 0, LAST) - pair;
    char log[4200];
    snprintf(log, sizeof log, "%s/log.contacts", dir);
    write_log_of_a(log, 3.0 * pair, neigh, 0.0, builds);
    for (int k = 0; k < 2; k++) {
        no_contacts = k;
        const char *paths[] = {path};
        hg_run_input in = input(paths, 1, skin, NULL);
        in.engine = &engine_contacts;
        in.log = log;
        in.keep_margin = -1.0;
        hg_run_advice a;
        hg_err e = {0};
        int st = hg_run_advise(&in, &a, &e);
        double pa = 2.0 * pair / (k ? 21900.0 : 28050.0);
        CHECKM(st == HG_OK && a.pair_per_contact == !k &&
                  near(a.pair_per_atom, pa, 1e-9) &&
                  near(a.own.pair, 3.0 * pair, 1e-9),
              "%s: per contact %d, excess %g (expected %g), Pair %g",
              k ? "no contacts" : "contacts", a.pair_per_contact,
              a.pair_per_atom, pa, a.own.pair);
        if (st) {
            fprintf(stderr, "  %s\n", e.msg);
            continue;
        }
        hg_run_scales sc = {a.scale_pair, a.scale_neigh, a.scale_builds,
                            a.pair_per_atom, a.pair_per_contact};
        hg_run_advice_clear(&a);
        /* the later stretch priced with those scales: its Pair is the
         * model's and the excess of its 24 contacts (12 atoms) a step */
        const char *lp[] = {later};
        hg_run_input li = input(lp, 1, skin, "A 0.05");
        li.engine = &engine_contacts;
        li.scales = &sc;
        li.keep_margin = -1.0;
        st = hg_run_advise(&li, &a, &e);
        double want = PAIR * skin * 900.0 + pa * (k ? 12.0 : 24.0) * 900.0;
        CHECKM(st == HG_OK && a.has_own && near(a.own.pair, want, 1e-9) &&
                  a.pair_per_contact == !k,
              "%s, later: Pair %g (expected %g)",
              k ? "no contacts" : "contacts", a.own.pair, want);
        if (st == HG_OK)
            hg_run_advice_clear(&a);
        if (k == 0) {
            li.engine = &engine; /* counts no contacts */
            st = hg_run_advise(&li, &a, &e);
            CHECKM(st != HG_OK && strstr(e.msg, "contacts were not counted"),
                  "per contact, none counted: %s", e.msg);
            if (st == HG_OK)
                hg_run_advice_clear(&a);
        }
    }
    no_contacts = 0;
}

static void test_log_calibrated(const char *path, const char *dir)
{
    const double skin = 0.05;
    double builds = builds_of(skin, 0, LAST);
    double pair = PAIR * skin * LAST;
    double neigh = expected(0, 0.0, skin, 0, LAST) - pair;
    double mb = 0.8 * builds, mp = 3.0 * pair;
    double mn = 0.5 * (neigh / builds) * mb;
    char log[4200], text[2000];
    snprintf(log, sizeof log, "%s/log.test", dir);
    write_log_of_a(log, mp, mn, 7.5, mb);
    hg_run_advice a;
    hg_err e = {0};
    int st = advise_log(path, log, NULL, skin, -1.0, &a, &e);
    CHECKM(st == HG_OK, "advice with a log: %s", e.msg);
    if (st)
        return;
    CHECKM(a.has_log && a.has_own && !strcmp(a.own_setting.name, "A") &&
              !strcmp(a.own_why, "your log"),
          "your lines from the log: %s (%s)", a.own_setting.name, a.own_why);
    CHECKM(near(a.scale_pair, 1.0, 1e-9) &&
              near(a.pair_per_atom, 2.0 * pair / 21900.0, 1e-9) &&
              near(a.scale_neigh, 0.5, 1e-6),
          "scales: Pair %g plus %g s per atom-step, Neigh per build %g",
          a.scale_pair, a.pair_per_atom, a.scale_neigh);
    CHECKM(near(a.own.builds, mb, 1e-3) && near(a.own.pair, mp, 1e-9) &&
              near(a.own.neigh, mn, 1e-3) && near(a.rest, 100.0, 1e-9),
          "yours predicted as measured: builds %g (%g), Pair %g (%g), Neigh "
          "%g (%g), rest %g", a.own.builds, mb, a.own.pair, mp, a.own.neigh,
          mn, a.rest);
    int said = 0;
    for (int i = 0; i < a.n_notes; i++)
        said |= strstr(a.notes[i], "Output time (7.5 s") != NULL &&
                strstr(a.notes[i], "left out of the predicted Loop") != NULL;
    CHECKM(said, "a note says the log's Output is left out");
    /* B scaled alike: its Pair is A's, its Neigh the same factors */
    const hg_run_choice *b = &a.per_candidate[1];
    double bn = expected(1, 0.0, skin, 0, LAST) - pair;
    CHECKM(near(b->pair, mp, 1e-9) &&
              near(b->neigh, 0.5 * a.scale_builds * bn, 1e-3),
          "B scaled: Pair %g, Neigh %g (expected %g)", b->pair, b->neigh,
          0.5 * a.scale_builds * bn);
    CHECKM(!a.kept_own, "never kept with a negative margin");
    hg_run_advice_clear(&a);
    /* at the best skin the excess is what it was at 0.05 (scaled, the
     * model's Pair there would be 3x) */
    st = advise_log(path, log, NULL, 0.0, -1.0, &a, &e);
    double bp = PAIR * a.best.skin * LAST;
    CHECKM(st == HG_OK && a.best.skin != skin &&
              near(a.best.pair, bp + 2.0 * pair, 1e-9),
          "at skin %g: Pair %g (expected %g)", a.best.skin, a.best.pair,
          bp + 2.0 * pair);
    hg_run_advice_clear(&a);
    /* half the model's Pair: every setting's scaled by 0.5 */
    char log2[4200];
    snprintf(log2, sizeof log2, "%s/log.half", dir);
    write_log_of_a(log2, 0.5 * pair, mn, 0.0, mb);
    st = advise_log(path, log2, NULL, skin, -1.0, &a, &e);
    CHECKM(st == HG_OK && near(a.scale_pair, 0.5, 1e-9) &&
              a.pair_per_atom == 0.0 && near(a.own.pair, 0.5 * pair, 1e-9),
          "below the model: Pair x%g plus %g, yours %g", a.scale_pair,
          a.pair_per_atom, a.own.pair);
    hg_run_advice_clear(&a);
    /* a per-atom term in the constants (as fitted on beds: the contacts'
     * force law), as large as the per-pair part at skin 0.05: a log below
     * the model's takes it off that term first, the per-pair cost kept
     * (k = 0: 1.5x the per-pair part measured, the per-atom term cut by
     * half), and only beyond it scales the per-pair part (k = 1: 0.5x,
     * the per-atom term gone and the per-pair part halved) */
    for (int k = 0; k < 2; k++) {
        const char *paths[] = {path};
        hg_run_input in = input(paths, 1, skin, NULL);
        hg_consts perat = {0};
        perat.c[1] = pair / 21900.0;
        in.pair = &perat;
        double meas = k ? 0.5 * pair : 1.5 * pair;
        write_log_of_a(log2, meas, mn, 0.0, mb);
        in.log = log2;
        in.keep_margin = -1.0;
        st = hg_run_advise(&in, &a, &e);
        double sp = k ? 0.5 : 1.0, pa = -0.5 * pair / 21900.0;
        CHECKM(st == HG_OK && near(a.scale_pair, sp, 1e-9) &&
                  near(a.pair_per_atom, pa, 1e-9) &&
                  near(a.own.pair, meas, 1e-9),
              "below the model with a per-atom term (%d): Pair x%g plus %g, "
              "yours %g (measured %g)", k, a.scale_pair, a.pair_per_atom,
              a.own.pair, meas);
        /* B, at the same skin, priced alike: its Pair is A's */
        CHECKM(st == HG_OK && near(a.per_candidate[1].pair, meas, 1e-9),
              "B's Pair %g", a.per_candidate[1].pair);
        hg_run_advice_clear(&a);
        /* at another skin the per-pair part grows at its own cost */
        in.skin = 0.0;
        st = hg_run_advise(&in, &a, &e);
        double want = sp * PAIR * a.best.skin * LAST + meas -
                      sp * PAIR * skin * LAST;
        CHECKM(st == HG_OK && a.best.skin != skin &&
                  near(a.best.pair, want, 1e-9),
              "at skin %g (%d): Pair %g (expected %g)", a.best.skin, k,
              a.best.pair, want);
        hg_run_advice_clear(&a);
    }

    /* with the skin given, the grid at that skin: never kept */
    st = advise_log(path, log, NULL, skin, 0.9, &a, &e);
    CHECKM(st == HG_OK && !a.kept_own, "the skin given: not kept");
    hg_run_advice_clear(&a);
    /* a margin above any saving keeps the user's lines, as written */
    st = advise_log(path, log, NULL, 0.0, 0.9, &a, &e);
    CHECKM(st == HG_OK && a.kept_own && a.best.candidate == a.own.candidate &&
              a.lines && !strcmp(a.lines, "neighbor 0.05 A\n"),
          "kept: %s; lines '%s'", e.msg, a.lines ? a.lines : "(none)");
    hg_run_advice_clear(&a);

    /* what the log contradicts is refused, naming the option */
    CHECKM(advise_log(path, log, "B 0.05", skin, 0.0, &a, &e) == HG_EINVAL &&
              strstr(e.msg, "--setting: 'B 0.05' is not what your log ran"),
          "a --setting the log did not run: %s", e.msg);
    snprintf(text, sizeof text, "%s/log.other", dir);
    write_text(text, "LAMMPS (29 Sep 2021)\nLoop time of 1 on 1 procs for "
                     "10 steps with 1 atoms\n");
    CHECKM(advise_log(path, text, "A 0.05", skin, 0.0, &a, &e) ==
                  HG_EINVAL &&
              strstr(e.msg, "is not a log of TESTCODE"),
          "a log of another code: %s", e.msg);
    /* a run without its timing table: nothing to scale the model to */
    write_text(text, "TESTCODE\nneighbor 0.05 A\nLoop time of 1 on 1 procs "
                     "for 2000 steps with 12 atoms\n");
    CHECKM(advise_log(path, text, NULL, skin, 0.0, &a, &e) == HG_EINVAL &&
              e.data && strstr(e.msg, "line 3: the run has no Pair and "
                                      "Neigh rows"),
          "a log without a timing table: %s", e.msg);
    /* a log's figure the model cannot be scaled to (its Pair over the
     * trajectory's 2000 steps 1e310 s): refused naming it, not every
     * total infinite */
    write_text(text, "TESTCODE\nneighbor 0.05 A\nLoop time of 1e308 on 1 "
                     "procs for 20 steps with 12 atoms\n"
                     "Pair | 0 | 1e308 | 0 | 0 | 0\nNeigh | 0 | 0 | 0 | 0 "
                     "| 0\nNeighbor list builds = 10\n");
    CHECKM(advise_log(path, text, NULL, skin, 0.0, &a, &e) == HG_ENUMERIC &&
              e.data && strstr(e.msg, "Pair 1e+308 s over 20 steps"),
          "a log's Pair beyond scaling: %s", e.msg);
}

/* C's Neigh + Pair at skin (the skin given), or NAN. */
static double style_at(const char *path, int kc, double skin)
{
    const char *paths[] = {path};
    char setting[64];
    snprintf(setting, sizeof setting, "C %.17g", skin);
    hg_run_input in = input(paths, 1, skin, setting);
    hg_run_advice a;
    hg_err e = {0};
    if (hg_run_advise(&in, &a, &e)) {
        fprintf(stderr, "style_at %g: %s\n", skin, e.msg);
        return NAN;
    }
    double s = a.per_candidate[kc].seconds;
    hg_run_advice_clear(&a);
    return s;
}

/* Without a log: your style is taken where, at some skin, it is within
 * half the margin of the best (of Neigh + Pair), at the skin of those
 * nearest the best's; your lines as they are where nothing saves the
 * margin. */
static void test_prefer_own(const char *path)
{
    const char *paths[] = {path};
    hg_run_input in = input(paths, 1, 0.0, "C 0.05");
    in.keep_margin = -1.0;
    hg_run_advice a;
    hg_err e = {0};
    if (hg_run_advise(&in, &a, &e)) {
        CHECKM(0, "advice never keeping: %s", e.msg);
        return;
    }
    int kc = a.own.candidate;
    double best = a.best.seconds, cbest = a.per_candidate[kc].seconds;
    double own = a.own.seconds, bskin = a.best.skin, smin = a.skin_min;
    int ns = a.n_skins;
    double skins[HG_RUN_MAX_SKINS];
    memcpy(skins, a.skins, sizeof skins);
    CHECKM(a.best.candidate != kc && cbest > best && own > cbest,
          "C is not the best: best %g, C at its skin %g, C at 0.05 %g", best,
          cbest, own);
    hg_run_advice_clear(&a);
    /* a margin m with C's best under m/2 of the best, C's own lines over m */
    double lo = 2.0 * (cbest - best) / best, hi = (own - best) / own;
    CHECKM(lo < hi, "a margin between %g and %g exists", lo, hi);
    double m = 0.5 * (lo + hi);
    in.keep_margin = m;
    if (hg_run_advise(&in, &a, &e) == HG_OK) {
        double skin = a.best.skin;
        CHECKM(a.best.candidate == kc && !a.kept_own && a.best_any == best,
              "your style taken: %s at %g",
              a.candidates[a.best.candidate].name, skin);
        /* C at the skin taken within m/2 of the best; C at every skin
         * nearer the best's skin not */
        double at = style_at(path, kc, skin);
        CHECKM(at - best < 0.5 * m * best && fabs(at - a.best.seconds) <=
                                                 1e-9 * at,
              "C at skin %g: %g, the best %g, margin %g", skin, at, best, m);
        for (int j = 0; j < ns; j++) {
            if (!(fabs(log(skins[j] / bskin)) < fabs(log(skin / bskin))) ||
                skins[j] < smin * (1.0 - 1e-12)) /* not offered */
                continue;
            double v = style_at(path, kc, skins[j]);
            CHECKM(!(v - best < 0.5 * m * best),
                  "C at skin %g (%g) is nearer the best's %g and within "
                  "the margin, yet %g was taken", skins[j], v, bskin, skin);
        }
        CHECKM(a.n_notes > 0 && strstr(a.notes[a.n_notes - 1],
                                       "keeps your style, at the skin "
                                       "nearest the best's"),
              "the note: %s", a.n_notes ? a.notes[a.n_notes - 1] : "");
        hg_run_advice_clear(&a);
    }
    in.keep_margin = 1.01 * (own - best) / own;
    if (hg_run_advise(&in, &a, &e) == HG_OK) {
        CHECKM(a.kept_own && a.best.skin == 0.05 && !strcmp(a.lines,
                                                           "C 0.05\n"),
              "your lines kept: %s", a.lines);
        hg_run_advice_clear(&a);
    }
}

/* A log of a run on 4 ranks: the decomposition lines it echoes (a fix
 * balance's fourth word), its MPI tasks, the busiest rank's Pair and
 * Neigh (max column), Comm and its least rank, and the end counts. */
static void test_log_ranks(void)
{
    static const char text[] =
        "LAMMPS (29 Sep 2021)\nprocessors * * 1\nneighbor 0.2 bin\n"
        "fix             0 all balance 100 1.0 shift xy 5 1.1\n"
        "fix 1 all nve/sphere\nrun 1000\n"
        "Loop time of 2.0 on 4 procs for 1000 steps with 4000 atoms\n"
        "99.0% CPU use with 4 MPI tasks x 1 OpenMP threads\n"
        "Pair    | 0.1 | 0.3 | 0.5 | 1.0 | 15\n"
        "Neigh   | 0.05 | 0.1 | 0.2 | 1.0 | 5\n"
        "Comm    | 0.2 | 0.6 | 0.9 | 1.0 | 30\n"
        "Nlocal:        1000.00 ave        1100 max         900 min\n"
        "Nghost:        300.000 ave         350 max         250 min\n"
        "Neighbor list builds = 20\nDangerous builds = 0\n"
        "comm_style tiled\n";
    hg_run_log L;
    hg_err e = {0};
    int st = read_text(text, strlen(text), &L, &e);
    CHECKM(st == HG_OK, e.msg);
    CHECK(L.mpi == 4 && L.procs == 4);
    CHECK(!strcmp(L.decomp, "processors * * 1\nfix 0 all balance 100 1.0 "
                            "shift xy 5 1.1\n"));
    CHECK(L.decomp_changed); /* comm_style after the first run */
    CHECK(L.pair == 0.3 && L.pair_max == 0.5 && L.neigh_max == 0.2);
    CHECK(L.comm == 0.6 && L.comm_min == 0.2);
    CHECK(L.nlocal_ave == 1000.0 && L.nlocal_max == 1100.0 &&
          L.nghost_max == 350.0);
    /* a Comm row without a time is refused as the other rows are */
    static const char bad[] =
        "LAMMPS (29 Sep 2021)\nrun 10\n"
        "Loop time of 2.0 on 4 procs for 10 steps with 40 atoms\n"
        "Pair    | 0.1 | 0.3 | 0.5 | 1.0 | 15\n"
        "Neigh   | 0.05 | 0.1 | 0.2 | 1.0 | 5\n"
        "Comm    | 0.2 | nan | 0.9 | 1.0 | 30\n";
    CHECK(read_text(bad, strlen(bad), &L, &e) == HG_EINVAL &&
          strstr(e.msg, "Comm"));
}

/* A skin within 1 % of the predicted loop of the answer's best skin, the
 * user's, is kept (with a note); one 2 % or more off is not. */
static void test_own_skin_kept(const char *path)
{
    const char *paths[] = {path};
    hg_err e = {0};
    hg_run_input in = input(paths, 1, 0.0, "A 0.05");
    in.keep_margin = -1.0; /* your lines never kept whole */
    hg_run_advice a;
    int st = hg_run_advise(&in, &a, &e);
    CHECKM(st == HG_OK, "advice: %s", e.msg);
    if (st)
        return;
    const hg_run_setting *c = &a.candidates[a.best.candidate];
    char name[sizeof a.candidates[0].name];
    snprintf(name, sizeof name, "%s", c->name);
    int ncoll = c->ncoll;
    double bs = c->binsize, best = a.best.skin;
    double tb = expected(ncoll, bs, best, 0, LAST);
    /* your skin a little above the best (added to the skins priced) */
    double near_s = 0.0, far_s = 0.0;
    for (int i = 1; i <= 40; i++) {
        double sj = best * (1.0 + 0.005 * i);
        double t = expected(ncoll, bs, sj, 0, LAST);
        if (t - tb < 0.005 * tb)
            near_s = sj;
        if (t - tb > 0.02 * tb && !far_s)
            far_s = sj;
    }
    hg_run_advice_clear(&a);
    CHECKM(near_s > 0.0 && far_s > 0.0, "skins near (%g) and far (%g) of "
           "the best %g", near_s, far_s, best);
    for (int k = 0; k < 2 && near_s > 0.0 && far_s > 0.0; k++) {
        double sk = k ? far_s : near_s;
        char own[sizeof name + 32];
        snprintf(own, sizeof own, "%s %.17g", name, sk);
        in.setting = own;
        st = hg_run_advise(&in, &a, &e);
        CHECKM(st == HG_OK, "advice at %s: %s", own, e.msg);
        if (st)
            continue;
        int said = 0;
        for (int i = 0; i < a.n_notes; i++)
            said |= strstr(a.notes[i], "your skin is kept") != NULL;
        if (k == 0)
            CHECKM(a.best.skin == sk && said && a.best.candidate >= 0 &&
                       !strcmp(a.candidates[a.best.candidate].name, name),
                   "%s within 0.5 %%: kept (answer %s at %g)", own,
                   a.candidates[a.best.candidate].name, a.best.skin);
        else
            CHECKM(a.best.skin != sk && !said,
                   "%s 2 %% off: not kept (answer at %g)", own, a.best.skin);
        hg_run_advice_clear(&a);
    }
}

/* The log's neighbor cutoff at your skin is LAMMPS' largest diameter:
 * above the frames' (1.0), it sizes the bins (1.2 - 0.05 = 1.15, with a
 * note); below, the frames' stays. */
static void test_log_cutoff(const char *path, const char *dir)
{
    char log[4200];
    snprintf(log, sizeof log, "%s/log.cutoff", dir);
    /* k = 2: B, one collection of the largest diameter (LAMMPS' multi
     * by atom type), read again at the raised diameter */
    for (int k = 0; k < 3; k++) {
        char text[600];
        snprintf(text, sizeof text,
                 "TESTCODE (a code of this test)\n"
                 "neighbor 0.05 %s\n"
                 "  master list distance cutoff = %s\n"
                 "Loop time of 10 on 1 procs for %d steps with 12 atoms\n"
                 "Pair    | 0 | 3 | 0 | 0 | 0\n"
                 "Neigh   | 0 | 5 | 0 | 0 | 0\n"
                 "Neighbor list builds = 90\n"
                 "Dangerous builds = 0\n",
                 k == 2 ? "B" : "A", k == 1 ? "0.9" : "1.2", LAST);
        write_text(log, text);
        hg_run_advice a;
        hg_err e = {0};
        int st = advise_log(path, log, NULL, 0.0, 0.0, &a, &e);
        CHECKM(st == HG_OK, "advice with a cutoff: %s", e.msg);
        if (st)
            continue;
        int said = 0;
        for (int i = 0; i < a.n_notes; i++)
            said |= strstr(a.notes[i], "neighbor cutoff 1.2 at skin 0.05") &&
                    strstr(a.notes[i], "taken as 1.15");
        if (k == 0)
            CHECKM(a.has_log && near(a.log.cutoff, 1.2, 1e-12) &&
                       near(a.dmax, 1.15, 1e-12) && said,
                   "cutoff 1.2: largest diameter %g", a.dmax);
        else if (k == 2)
            CHECKM(near(a.dmax, 1.15, 1e-12) && said &&
                       a.own_setting.ncoll == 1 &&
                       near(a.own_setting.cut[0], 1.15, 1e-12),
                   "cutoff 1.2, B: largest diameter %g, own collection %g",
                   a.dmax, a.own_setting.cut[0]);
        else
            CHECKM(near(a.dmax, 1.0, 1e-6) && !said,
                   "cutoff 0.9: largest diameter %g (the frames')", a.dmax);
        hg_run_advice_clear(&a);
    }
    remove(log);
}

int main(void)
{
    test_log_ranks();
    char dir[] = "/tmp/hg_test_whole_run.XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char path[4096], p1[4096], p2[4096];
    snprintf(path, sizeof path, "%s/run.dump", dir);
    snprintf(p1, sizeof p1, "%s/part1.dump", dir);
    snprintf(p2, sizeof p2, "%s/part2.dump", dir);
    write_file(path, 0, LAST);
    write_file(p1, 0, 1000);
    write_file(p2, 1100, LAST);
    test_skin_kept(path);
    test_skin_chosen(path);
    test_own_only(path);
    test_multi_only(path);
    test_own_skin_kept(path);
    test_sampled_and_files(path, p1, p2);
    test_errors(path, p1, dir);
    test_renumbered(dir);
    test_prefer_own(path);
    test_log_read(dir);
    test_log_refused();
    test_log_calibrated(path, dir);
    test_log_per_contact(path, p2, dir);
    test_log_cutoff(path, dir);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return hg_test_summary("test_whole_run");
}
