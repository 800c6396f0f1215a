/* test_live.c - `hgridopt run`'s code-independent half (hg_live.h): an
 * input script read into commands ('&' continuations, CRLF, line numbers,
 * the first command that cannot be followed), commands classified (a run
 * that can be split, one that cannot and why, minimize, elapsed, dynamic
 * groups), the segments of a run (boundaries on multiples of the thermo
 * interval strictly inside, at least min_steps, at most max_segments,
 * the last at the run's end) over random cases, and the tuner: a change
 * where a segment rebuilt its lists every step, its undo when the next
 * segment measures slower, nothing after the last segment, and its
 * refusals. */
#include "hg_live.h"
#include "hg_engine.h"
#include "hg_whole_run.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_parse(void)
{
    hg_live_script s;
    hg_err e = {0};
    const char *text = "units lj\r\n"
                       "# a comment\n"
                       "region box block 0 10 &\n"
                       "   0 10 &  \n"
                       "   0 10\n"
                       "\n"
                       "run 1000\n"
                       "jump SELF loop\n"
                       "print done";
    CHECK(hg_live_script_parse(text, "t", &s, &e) == HG_OK);
    CHECK(s.n == 7);
    if (s.n == 7) {
        CHECK(!strcmp(s.cmd[0], "units lj"));
        CHECK(!strncmp(s.cmd[2], "region box block 0 10 ", 22));
        CHECK(strstr(s.cmd[2], "0 10") && !strchr(s.cmd[2], '&'));
        CHECK(s.line[2] == 3 && s.line[3] == 6 && s.line[4] == 7);
        CHECK(!strcmp(s.cmd[6], "print done") && s.line[6] == 9);
    }
    CHECK(s.unfollowable && !strcmp(s.unfollowable, "jump"));
    CHECK(s.unfollowable_line == 8);
    hg_live_script_free(&s);

    CHECK(hg_live_script_parse("run 10\nprint \"\"\"\na\n\"\"\"\n", "t", &s,
                               &e) == HG_OK);
    CHECK(s.unfollowable && s.unfollowable_line == 2);
    hg_live_script_free(&s);
    const char *words[] = {"label a", "next v", "if \"1 > 0\" then x",
                           "include in.x", "python f", "  jump SELF"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        char t[64];
        snprintf(t, sizeof t, "units lj\n%s\nrun 5\n", words[i]);
        CHECK(hg_live_script_parse(t, "t", &s, &e) == HG_OK);
        CHECK(s.unfollowable && s.unfollowable_line == 2);
        hg_live_script_free(&s);
    }
    CHECK(hg_live_script_parse("units lj\nifx 1\nrun 5\n", "t", &s, &e) ==
          HG_OK);
    CHECK(!s.unfollowable);
    hg_live_script_free(&s);

    CHECK(hg_live_script_read("/nonexistent/in.x", &s, &e) == HG_EIO);
    CHECK(strstr(e.msg, "/nonexistent/in.x") != NULL);
    char path[] = "/tmp/hg_test_live_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) {
        CHECK(write(fd, "units lj\nrun 5\0garbage\n", 23) == 23);
        close(fd);
        CHECK(hg_live_script_read(path, &s, &e) == HG_EINVAL);
        CHECK(strstr(e.msg, "line 2") && strstr(e.msg, "binary"));
        FILE *f = fopen(path, "w");
        if (f) {
            fputs("units lj\nrun 5\n", f);
            fclose(f);
        }
        CHECK(hg_live_script_read(path, &s, &e) == HG_OK && s.n == 2);
        hg_live_script_free(&s);
        remove(path);
    }
}

static void test_classify(void)
{
    struct {
        const char *cmd;
        hg_live_kind kind;
        long long n;
    } t[] = {
        {"run 1000", HG_LIVE_RUN, 1000},
        {"  run\t250   # comment", HG_LIVE_RUN, 250},
        {"run 0", HG_LIVE_RUN, 0},
        {"run 1000 upto", HG_LIVE_RUN_WHOLE, 0},
        {"run 100 every 10 \"print x\"", HG_LIVE_RUN_WHOLE, 0},
        {"run 100 pre no post no", HG_LIVE_RUN_WHOLE, 0},
        {"run ${n}", HG_LIVE_RUN_WHOLE, 0},
        {"run -5", HG_LIVE_RUN_WHOLE, 0},
        {"run 1e4", HG_LIVE_RUN_WHOLE, 0},
        {"minimize 1e-4 1e-6 100 1000", HG_LIVE_NOTED, 0},
        {"rerun dump.x dump x y z", HG_LIVE_NOTED, 0},
        {"runx 5", HG_LIVE_OTHER, 0},
        {"# run 5", HG_LIVE_OTHER, 0},
        {"neighbor 0.2 bin", HG_LIVE_OTHER, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        hg_live_cmd c;
        hg_live_classify(t[i].cmd, &c);
        CHECK(c.kind == t[i].kind);
        if (c.kind != t[i].kind)
            fprintf(stderr, "  '%s': kind %d\n", t[i].cmd, (int)c.kind);
        if (t[i].kind == HG_LIVE_RUN)
            CHECK(c.n == t[i].n);
        if (t[i].kind == HG_LIVE_RUN_WHOLE || t[i].kind == HG_LIVE_NOTED)
            CHECK(c.why[0] != '\0');
    }
    hg_live_cmd c;
    hg_live_classify("variable th equal 2*PI*elapsed/2e4", &c);
    CHECK(c.clock_words == 0 && c.elapsed_var == 1 &&
          !strcmp(c.word, "variable"));
    hg_live_classify("thermo_style custom step elaptime", &c);
    CHECK(c.clock_words == 1 && c.elapsed_var == 0);
    hg_live_classify("thermo_style custom step elapsed", &c);
    CHECK(c.clock_words == 1 && c.elapsed_var == 0);
    hg_live_classify("variable t equal elapsed+elaptime", &c);
    CHECK(c.clock_words == 1 && c.elapsed_var == 0);
    hg_live_classify("fix p all print 10 \"$(elapsed)\"", &c);
    CHECK(c.clock_words == 1 && c.elapsed_var == 0);
    hg_live_classify("variable elapsedx equal 1", &c);
    CHECK(c.clock_words == 0);
    hg_live_classify("thermo_style custom step elaplong", &c);
    CHECK(c.clock_words == 0);
    hg_live_classify("group g dynamic all var z every 100", &c);
    CHECK(c.dynamic_group == 1);
    hg_live_classify("group g type 1", &c);
    CHECK(c.dynamic_group == 0);
    /* a fix balance weighted by time (its runs stay whole), its unfix */
    hg_live_classify("fix b all balance 1000 1.1 shift xy 20 1.1 weight "
                     "time 1.0", &c);
    CHECK(c.balance_time == 1 && !strcmp(c.fix_id, "b"));
    hg_live_classify("fix b all balance 1000 1.1 shift xy 20 1.1 weight "
                     "neigh 0.8", &c);
    CHECK(c.balance_time == 0 && !strcmp(c.fix_id, "b"));
    hg_live_classify("fix b all balance 1000 1.1 shift xy 20 1.1 # weight "
                     "time 1.0", &c);
    CHECK(c.balance_time == 0);
    hg_live_classify("fix w all print 10 \"weight time\"", &c);
    CHECK(c.balance_time == 0 && !strcmp(c.fix_id, "w"));
    hg_live_classify("unfix b", &c);
    CHECK(c.balance_time == 0 && !strcmp(c.fix_id, "b"));
    hg_live_classify("", &c);
    CHECK(c.kind == HG_LIVE_OTHER && c.word[0] == '\0');
}

/* elapsed read as elaplong; which runs a dynamic group keeps whole */
static void test_clock_and_groups(void)
{
    char out[128];
    CHECK(hg_live_elaplong("variable th equal 2*PI*elapsed/2e4", out,
                           sizeof out) == 1);
    CHECK(!strcmp(out, "variable th equal 2*PI*elaplong/2e4"));
    CHECK(hg_live_elaplong("variable elapsedx equal elapsed*elapsed_y", out,
                           sizeof out) == 1);
    CHECK(!strcmp(out, "variable elapsedx equal elaplong*elapsed_y"));
    CHECK(hg_live_elaplong("variable a equal elapsed", out, 10) == -1);
    CHECK(hg_live_elaplong("elapsed", out, 9) == 1 &&
          !strcmp(out, "elaplong"));

    hg_live_script s;
    hg_err e;
    /* LAMMPS' drum: the group is read once, by delete_atoms, between
     * the runs: the first run stays whole, the second may be split */
    const char *drum = "group del dynamic all var z every 10000\n"
                       "run 2000\n"
                       "delete_atoms group del\n"
                       "variable th equal 2*PI*elapsed/2e4\n"
                       "run 3000\n";
    CHECK(hg_live_script_parse(drum, "t", &s, &e) == HG_OK);
    char name[64] = "";
    long line = 0;
    CHECK(hg_live_dynamic_read(&s, 1, name, sizeof name, &line) == 1);
    CHECK(!strcmp(name, "del") && line == 3);
    CHECK(hg_live_dynamic_read(&s, 4, name, sizeof name, &line) == 0);
    CHECK(hg_live_dynamic_read(&s, 0, NULL, 0, NULL) == 0);
    CHECK(hg_live_run_started(&s) == 0);
    hg_live_script_free(&s);
    /* a fix on the group reads it in every run after it */
    CHECK(hg_live_script_parse("group g dynamic all region r every 10\n"
                               "fix 1 g nve\nrun 10\nunfix 1\nrun 10\n",
                               "t", &s, &e) == HG_OK);
    CHECK(hg_live_dynamic_read(&s, 2, name, sizeof name, &line) == 1);
    CHECK(hg_live_dynamic_read(&s, 4, name, sizeof name, &line) == 1);
    hg_live_script_free(&s);
    /* a comment naming it reads nothing; a run with start */
    CHECK(hg_live_script_parse("group g dynamic all region r\n"
                               "run 10 # g\nrun 10 start 0 stop 100\n",
                               "t", &s, &e) == HG_OK);
    CHECK(hg_live_dynamic_read(&s, 1, name, sizeof name, &line) == 0);
    CHECK(hg_live_run_started(&s) == 1);
    /* the steps of plain runs after a command: a run with keywords, or
     * with a variable count, adds none */
    CHECK(hg_live_later_steps(&s, 0) == 10);
    CHECK(hg_live_later_steps(&s, 1) == 0);
    hg_live_script_free(&s);
    CHECK(hg_live_script_parse("run 25000\nunfix ins\nrun 25000\n"
                               "run ${n}\nrun 5 every 1 \"print x\"\n"
                               "run 7 # more\n", "t", &s, &e) == HG_OK);
    CHECK(hg_live_later_steps(&s, 0) == 25007);
    CHECK(hg_live_later_steps(&s, 2) == 7);
    CHECK(hg_live_later_steps(&s, 5) == 0);
    hg_live_script_free(&s);
}

/* the invariants of hg_live_split for one case */
static int split_ok(long long start, long long n, long long every,
                    long long min_steps, int max)
{
    long long ends[64];
    int k = hg_live_split(start, n, every, min_steps, max, ends);
    if (k < 1 || k > max || ends[k - 1] != start + n)
        return 0;
    long long prev = start;
    for (int i = 0; i < k; i++) {
        if (ends[i] <= prev)
            return 0;
        if (i < k - 1 && (ends[i] % every || ends[i] - prev < min_steps))
            return 0;
        prev = ends[i];
    }
    if (k > 1 && ends[k - 1] - ends[k - 2] < min_steps)
        return 0;
    return 1;
}

static void test_split(void)
{
    long long e[64];
    CHECK(hg_live_split(0, 1000, 100, 100, 10, e) == 10);
    for (int i = 0; i < 10; i++)
        CHECK(e[i] == 100 * (i + 1));
    CHECK(hg_live_split(0, 1000, 100, 500, 10, e) == 2);
    CHECK(e[0] == 500 && e[1] == 1000);
    CHECK(hg_live_split(0, 1000, 100, 600, 10, e) == 1 && e[0] == 1000);
    CHECK(hg_live_split(0, 1000, 2000, 100, 10, e) == 1 && e[0] == 1000);
    CHECK(hg_live_split(50, 1000, 100, 100, 4, e) == 4);
    CHECK(e[3] == 1050 && e[0] % 100 == 0);
    CHECK(hg_live_split(0, 25000, 1000, 500, 10, e) == 10);
    CHECK(e[0] == 3000 || e[0] == 2000); /* about 2500, a thermo step */
    CHECK(hg_live_split(7, 0, 100, 100, 10, e) == 1 && e[0] == 7);
    CHECK(hg_live_split(0, 1000, 100, 100, 1, e) == 1 && e[0] == 1000);
    uint64_t seed = 20261205;
    printf("test_live: split seed %llu\n", (unsigned long long)seed);
    int bad = 0;
    for (int i = 0; i < 20000; i++) {
        long long start = (long long)(hg_test_uniform(&seed) * 5000);
        long long n = 1 + (long long)(hg_test_uniform(&seed) * 40000);
        long long every = 1 + (long long)(hg_test_uniform(&seed) * 3000);
        long long min = 1 + (long long)(hg_test_uniform(&seed) * 5000);
        int max = 1 + (int)(hg_test_uniform(&seed) * 64);
        if (max > 64)
            max = 64;
        if (!split_ok(start, n, every, min, max)) {
            if (bad++ < 5)
                fprintf(stderr, "  split %lld %lld %lld %lld %d wrong\n",
                        start, n, every, min, max);
        }
    }
    CHECK(bad == 0);
}

/* 300 spheres in a 10-box, the second frame each moved by 0.1 (fast:
 * the input's skin of 0.02 needs a build every step); low: all in the
 * lower quarter (z < 2.5, walls along z), radius 0.3, slow */
static void write_frames_in(const char *path, long step, double shift,
                            int low, double zspan);

static void write_frames_of(const char *path, long step, double shift,
                            int low)
{
    write_frames_in(path, step, shift, low, low ? 2.5 : 10.0);
}

/* As write_frame, the atoms in a layer zspan deep (2.5: four times as
 * dense, each atom in more pairs and contacts). */
static void write_frame_dense(const char *path, long step, double shift)
{
    write_frames_in(path, step, shift, 0, 2.5);
}

static void write_frames_in(const char *path, long step, double shift,
                            int low, double zspan)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "ITEM: TIMESTEP\n%ld\nITEM: NUMBER OF ATOMS\n300\n"
               "ITEM: BOX BOUNDS pp pp %s\n0 10\n0 10\n0 10\n"
               "ITEM: ATOMS id type radius x y z vx vy vz\n", step,
            low ? "ff" : "pp");
    uint64_t s = low ? 7 : 42;
    for (int i = 0; i < 300; i++) {
        double x = 10 * hg_test_uniform(&s), y = 10 * hg_test_uniform(&s),
               z = zspan * hg_test_uniform(&s);
        double r = low || i % 5 ? 0.3 : 0.6;
        x = fmod(x + shift, 10.0);
        fprintf(f, "%d 1 %g %.9g %.9g %.9g %s 0 0\n", i + 1, r, x, y, z,
                low ? "0.1" : "1");
    }
    fclose(f);
}

static void write_frame(const char *path, long step, double shift)
{
    write_frames_of(path, step, shift, 0);
}

static void write_frame_low(const char *path, long step, double shift)
{
    write_frames_of(path, step, shift, 1);
}

/* Segment [from, to) of a measure: its Loop, and the busiest rank's (and
 * the mean) Pair and Neigh, the busiest rank's Comm. */
static void seg(hg_live_measure *a, long long from, long long to,
                double loop, double pair, double neigh, double comm)
{
    a->from = from;
    a->to = to;
    a->loop = loop;
    a->pair = a->pair_max = pair;
    a->neigh = a->neigh_max = neigh;
    a->comm_max = a->comm_min = comm;
}

/* A segment's Pair, Neigh and Comm times f (the mean and the ranks'
 * extremes). */
static void scale(hg_live_measure *a, double f)
{
    a->pair *= f;
    a->pair_max *= f;
    a->neigh *= f;
    a->neigh_max *= f;
    a->comm_max *= f;
    a->comm_min *= f;
}

/* A segment of steps 0-100 on two ranks of a 1 x 1 x 2 grid: 300 atoms,
 * a Loop of 1 s, the ranks' mean Pair 0.2 s and Neigh 0.05 s, the busiest
 * rank's pair_max and neigh_max, nlocal_max of a mean of 150 atoms. */
static hg_live_measure two_ranks(double pair_max, double neigh_max,
                                 double nlocal_max)
{
    hg_live_measure a = {
        .from = 0, .to = 100, .procs = 2, .atoms = 300, .loop = 1.0,
        .pair = 0.2, .pair_max = pair_max, .neigh = 0.05,
        .neigh_max = neigh_max, .comm = 0.02, .comm_max = 0.02,
        .comm_min = 0.02, .modify = 0.05, .builds = 2, .nlocal_ave = 150,
        .nlocal_max = nlocal_max};
    snprintf(a.decomposition, sizeof a.decomposition, "processors 1 1 2\n");
    return a;
}

/* Steps 0-100 of 300 atoms on procs ranks, even: Neigh 0.8 s of a Loop
 * of 1 s, 100 builds in 100 steps (a skin far too small). */
static hg_live_measure skin_too_small(int procs)
{
    hg_live_measure m = {0};
    m.from = 0;
    m.to = 100;
    m.procs = procs;
    m.atoms = 300;
    m.loop = 1.0;
    m.pair = m.pair_max = m.pair_min = 0.05;
    m.neigh = m.neigh_max = m.neigh_min = 0.8;
    m.comm = m.comm_max = m.comm_min = 0.05;
    m.modify = 0.05;
    m.builds = 100;
    m.nlocal_ave = m.nlocal_max = 300;
    return m;
}

/* A tuner of o at the start of a run of 1000 steps (NULL: none made). */
static hg_live *tuner_at(const hg_live_options *o)
{
    hg_err e = {0};
    hg_live *u = NULL;
    CHECK(hg_live_create(o, &u, &e) == HG_OK && u);
    if (u)
        hg_live_run_begin(u, 0, 1000);
    return u;
}

/* A tuner of o after its first segment, steps 0-100 of a run of 1000,
 * measured as *a with Pair 0.05 s, Neigh 0.8 s and Comm 0.05 s (the
 * busiest rank's); *st its status, d its decision (NULL: no tuner). */
static hg_live *first_segment(const hg_live_options *o, hg_live_measure *a,
                              const char *own, const char *restore,
                              const char *f0, const char *f1,
                              hg_live_decision *d, int *st)
{
    hg_err e = {0};
    hg_live *u = NULL;
    CHECK(hg_live_create(o, &u, &e) == HG_OK && u);
    if (!u)
        return NULL;
    hg_live_run_begin(u, 0, 1000);
    a->from = 0;
    a->to = 100;
    a->pair = a->pair_max = 0.05;
    a->neigh = a->neigh_max = 0.8;
    a->comm_max = a->comm_min = 0.05;
    *st = hg_live_segment(u, a, own, restore, f0, f1, 0, d, &e);
    if (*st)
        fprintf(stderr, "  %s\n", e.msg);
    return u;
}

/* The share's second segment: steps 100-200 at 1 s of Loop, 0.25 s of
 * tuning so far and 0.1 s for the last advice. */
static void share_segment(hg_live_measure *a)
{
    a->from = 100;
    a->to = 200;
    a->loop = 1.0;
    a->tuning = 0.25;
    a->advice_cost = 0.1;
}

/* The model's Neigh + Pair seconds of lines between two frames on one
 * rank, as the tuner prices the lines before a change (0: failed), with
 * the scales of its trial (NULL: unscaled). */
static double model_of(const char *lines, const char *f0, const char *f1,
                       const hg_run_scales *sc)
{
    const char *paths[2] = {f0, f1};
    hg_run_input in = {0};
    in.paths = paths;
    in.n_paths = 2;
    in.engine = hg_engine_find("lammps");
    in.timestep = 0.001;
    in.setting = lines;
    in.keep_margin = 0.05;
    in.mpi = 1;
    in.scales = sc;
    hg_run_advice a;
    hg_err e = {0};
    if (hg_run_advise(&in, &a, &e)) {
        fprintf(stderr, "  %s\n", e.msg);
        return 0.0;
    }
    double s = a.own.seconds;
    hg_run_advice_clear(&a);
    return s;
}

/* A trial judged by what the lines before would have cost over it: the
 * model's price of them on the trial's own frames (here the slow, dense
 * ones), times the measured / model ratio of the segment before. The
 * trial measures 2 % (k = 0: kept) or 10 % (k >= 1: undone for a
 * segment) above that, whatever its cost per atom and step; then its
 * bracket (k = 2, 3) by the ratios of both sides. */
static void test_counterfactual(const hg_live_options *o, const char *f0,
                                const char *f1, const char *own,
                                const char *restore)
{
    char g0[4200], g1[4200];
    snprintf(g0, sizeof g0, "%s/c0.dump", o->workdir);
    snprintf(g1, sizeof g1, "%s/c1.dump", o->workdir);
    write_frame_low(g0, 100, 0.0);
    write_frame_low(g1, 200, 0.01);
    for (int k = 0; k < 4; k++) {
        hg_err e = {0};
        hg_live_decision d;
        hg_live_measure a = skin_too_small(1);
        int st;
        hg_live *u = first_segment(o, &a, own, restore, f0, f1, &d, &st);
        if (!u)
            return;
        CHECK(st == HG_OK && d.action == HG_LIVE_CHANGE && d.lines);
        char *made = d.lines ? strdup(d.lines) : NULL;
        hg_live_decision_clear(&d);
        /* priced as the tuner prices them: scaled as the first segment
         * measured */
        hg_run_scales sc;
        CHECK(hg_live_trial_scales(u, &sc) == 1 && sc.pair > 0.0);
        double before = model_of(own, f0, f1, &sc);
        double over = model_of(own, g0, g1, &sc);
        CHECK(before > 0.0 && over > 0.0 && fabs(over / before - 1.0) > 0.1);
        if (!(before > 0.0 && over > 0.0)) {
            free(made);
            hg_live_free(u);
            return;
        }
        double f = (k ? 1.10 : 1.02) * over / before;
        hg_live_measure b = a;
        b.from = 100;
        b.to = 200;
        scale(&b, f);
        if (made) {
            st = hg_live_segment(u, &b, made, restore, g0, g1, 0, &d, &e);
            CHECK(st == HG_OK);
            CHECK(fabs(d.measured_change - (k ? 0.10 : 0.02)) < 1e-6);
            if (k)
                CHECK(d.action == HG_LIVE_UNDO && d.lines &&
                      strstr(d.why, "would have been") && !d.judged[0]);
            else /* kept, and its segment not advised on */
                CHECK(d.action == HG_LIVE_KEEP && !d.lines && !d.advised &&
                      strstr(d.judged, "+2.0 %") &&
                      strstr(d.judged, "would have cost") &&
                      strstr(d.why, "not advised (the change's trial"));
            printf("test_live: trial x%.3g of the segment before, the "
                   "model x%.3g: %+.3f (%s)\n", f, over / before,
                   d.measured_change, d.why);
            hg_live_decision_clear(&d);
        }
        if (made && k == 0) {
            /* the segment after the trial is advised on */
            hg_live_measure c = b;
            c.from = 200;
            c.to = 300;
            st = hg_live_segment(u, &c, made, restore, g0, g1, 0, &d, &e);
            CHECK(st == HG_OK && d.advised);
            hg_live_decision_clear(&d);
            /* after the change, a segment twice as dear per atom and step
             * as the one before: not advised; lines that build
             * dangerously are */
            for (int q = 0; q < 2; q++) {
                hg_live_measure g = c;
                g.from = 300 + 100 * q;
                g.to = g.from + 100;
                scale(&g, q ? 4.0 : 2.0);
                g.dangerous = q ? 2 : 0;
                st = hg_live_segment(u, &g, made, restore, g0, g1, 0, &d,
                                     &e);
                CHECKM(st == HG_OK && d.advised == q &&
                           (q || strstr(d.why, "x2.00 the segment before")),
                       "twice as dear, %s: %s",
                       q ? "dangerous" : "not dangerous", d.why);
                hg_live_decision_clear(&d);
            }
            /* a kept trial whose lines built dangerously: advised on at
             * once */
            hg_live_measure a2 = skin_too_small(1);
            hg_live *v = first_segment(o, &a2, own, restore, f0, f1, &d, &st);
            hg_live_decision_clear(&d);
            if (v) {
                hg_live_measure b2 = b;
                b2.dangerous = 3;
                st = hg_live_segment(v, &b2, made, restore, g0, g1, 0, &d,
                                     &e);
                CHECK(st == HG_OK && d.action != HG_LIVE_UNDO &&
                      strstr(d.judged, "kept") && d.advised);
                hg_live_decision_clear(&d);
                hg_live_free(v);
            }
        }
        if (made && k >= 2) {
            /* its bracket, the lines before again on the first frames:
             * half as dear as before the change (k = 2: the segment
             * before was the dear one; the trial is 10 / 0.75 - 1 = 47 %
             * slower than the lines before scaled to both sides) or
             * three times (k = 3: -45 %, made again) */
            hg_live_measure c = a;
            c.from = 200;
            c.to = 300;
            scale(&c, k == 2 ? 0.5 : 3.0);
            st = hg_live_segment(u, &c, own, restore, f0, f1, 0, &d, &e);
            double want = 1.10 / (k == 2 ? 0.75 : 2.0) - 1.0;
            CHECK(st == HG_OK && fabs(d.measured_change - want) < 1e-6);
            CHECK(strstr(d.why, "both sides") != NULL);
            if (k == 2)
                CHECK(d.action == HG_LIVE_UNDO && !d.lines);
            else
                CHECK(d.action == HG_LIVE_CHANGE && d.lines &&
                      !strcmp(d.lines, made) && strstr(d.why, "made again"));
            printf("test_live: bracket: %s\n", d.why);
            hg_live_decision_clear(&d);
        }
        free(made);
        hg_live_free(u);
    }
    /* the segment before the change built dangerously (every build):
     * the model's price of those lines is not taken. The trial 10 %
     * above the model's counterfactual but below the segment before per
     * atom and step (k = 0) is kept, the report says why; 20 % above the
     * segment before (k = 1) is bracketed by the trend, and the bracket,
     * the lines before three times as dear, is judged per atom and step:
     * 1.2 / 2 - 1 = -40 %, made again */
    double before = model_of(own, f0, f1, NULL);
    double over = model_of(own, g0, g1, NULL);
    CHECK(before > 0.0 && over > 0.0);
    for (int k = 0; k < 2 && before > 0.0; k++) {
        hg_err e = {0};
        hg_live_decision d;
        hg_live_measure a = skin_too_small(1);
        a.dangerous = a.builds;
        int st;
        hg_live *u = first_segment(o, &a, own, restore, f0, f1, &d, &st);
        if (!u)
            break;
        char *made = d.lines ? strdup(d.lines) : NULL;
        CHECK(st == HG_OK && made);
        hg_live_decision_clear(&d);
        hg_live_measure b = a;
        b.from = 100;
        b.to = 200;
        b.dangerous = 0;
        double f = k ? 1.2 : 1.10 * over / before;
        scale(&b, f);
        if (made) {
            /* no model price: no frame wanted past a spent share */
            hg_live_measure spent = b;
            spent.tuning = spent.advice_cost = 1e3;
            CHECK(hg_live_wants_frame(u, &spent) == 0);
            st = hg_live_segment(u, &b, made, restore, g0, g1, 0, &d, &e);
            CHECK(st == HG_OK);
            CHECK(fabs(d.measured_change - (f - 1.0)) < 1e-6);
            if (k == 0)
                CHECK(d.action != HG_LIVE_UNDO &&
                      strstr(d.judged, "trend per atom") &&
                      strstr(d.judged, "100 of 100 builds"));
            else
                CHECK(d.action == HG_LIVE_UNDO && d.lines &&
                      strstr(d.why, "no model price"));
            printf("test_live: dangerous lines before: %s%s\n", d.why,
                   d.judged);
            hg_live_decision_clear(&d);
        }
        if (made && k == 1) {
            hg_live_measure c = a;
            c.from = 200;
            c.to = 300;
            scale(&c, 3.0);
            st = hg_live_segment(u, &c, own, restore, f0, f1, 0, &d, &e);
            CHECK(st == HG_OK && fabs(d.measured_change + 0.4) < 1e-6);
            CHECK(d.action == HG_LIVE_CHANGE && d.lines &&
                  !strcmp(d.lines, made) && strstr(d.why, "per atom"));
            printf("test_live: its bracket: %s\n", d.why);
            hg_live_decision_clear(&d);
        }
        free(made);
        hg_live_free(u);
    }
    /* the model on the same frames sees no change, but the trial's cost
     * per atom and step doubled (half the atoms, the same seconds):
     * slower by the trend, so the bracket measures the lines before */
    {
        hg_err e = {0};
        hg_live_decision d;
        hg_live_measure a = skin_too_small(1);
        int st;
        hg_live *u = first_segment(o, &a, own, restore, f0, f1, &d, &st);
        if (u) {
            char *made = d.lines ? strdup(d.lines) : NULL;
            hg_live_decision_clear(&d);
            hg_live_measure b = a;
            b.from = 100;
            b.to = 200;
            b.atoms = a.atoms / 2;
            if (made) {
                st = hg_live_segment(u, &b, made, restore, f0, f1, 0, &d,
                                     &e);
                CHECK(st == HG_OK && d.action == HG_LIVE_UNDO && d.lines &&
                      strstr(d.why, "trend per atom and step") &&
                      fabs(d.measured_change - 1.0) < 1e-6);
                hg_live_decision_clear(&d);
            }
            free(made);
            hg_live_free(u);
        }
    }
    /* the segment before on the sparse frames, the
     * trial on dense ones (a bed that forms: the model prices the
     * lines before several times dearer per atom and step over it). The
     * trial measures 2 % above that price, far above the segment before
     * per atom and step: the model alone judges it (no trend), kept */
    char h0[4200], h1[4200];
    snprintf(h0, sizeof h0, "%s/h0.dump", o->workdir);
    snprintf(h1, sizeof h1, "%s/h1.dump", o->workdir);
    write_frame_dense(h0, 100, 0.0);
    write_frame_dense(h1, 200, 0.1);
    {
        hg_err e = {0};
        hg_live_decision d;
        hg_live_measure a = skin_too_small(1);
        int st;
        hg_live *u = first_segment(o, &a, own, restore, f0, f1, &d, &st);
        if (u) {
            char *made = d.lines ? strdup(d.lines) : NULL;
            CHECK(st == HG_OK && made);
            if (!made)
                fprintf(stderr, "  %s\n", d.why);
            hg_live_decision_clear(&d);
            hg_run_scales sc;
            CHECK(hg_live_trial_scales(u, &sc) == 1);
            double cheap = model_of(own, f0, f1, &sc);
            double dear = model_of(own, h0, h1, &sc);
            CHECK(cheap > 0.0 && dear > 1.1 * cheap);
            hg_live_measure b = a;
            b.from = 100;
            b.to = 200;
            scale(&b, 1.02 * dear / cheap);
            b.loop *= 1.02 * dear / cheap;
            if (made && cheap > 0.0) {
                st = hg_live_segment(u, &b, made, restore, h0, h1, 0, &d,
                                     &e);
                CHECK(st == HG_OK && d.action != HG_LIVE_UNDO &&
                      fabs(d.measured_change - 0.02) < 1e-6 &&
                      strstr(d.judged, "no trend") &&
                      strstr(d.judged, ": kept"));
                printf("test_live: a bed that forms: %s\n", d.judged);
                hg_live_decision_clear(&d);
            }
            free(made);
            hg_live_free(u);
        }
    }
    remove(h0);
    remove(h1);
    remove(g0);
    remove(g1);
}

/* The pair style's cost: a probe is wanted after an advice that found
 * the segment's Pair several times the model's (here 40x), within its own
 * share (1 % of the loop: 10 ms of the 1 s a segment, 10 segments), and
 * not once the cost is set (or known not to be measurable), nor where
 * Pair is the model's. A measured cost per listed pair 3000x the shipped
 * constant (these frames' pairs few) makes the advice's skin smaller, or
 * its gain less, or keeps the lines. */
/* A new tuner of o (given from's probe and trial, if any) whose probe
 * is past its share on segment m: whether it advises after m. */
static int advises_past_share(const hg_live_options *o, hg_live *from,
                              const hg_live_measure *m, const char *own,
                              const char *restore, const char *f0,
                              const char *f1)
{
    hg_err e = {0};
    hg_live_decision d = {0};
    hg_live *v = tuner_at(o);
    if (!v)
        return 0;
    hg_live_carry_trial(v, from);
    int ok = hg_live_wants_probe(v, m, 0.5) == -1 &&
             hg_live_segment(v, m, own, restore, f0, f1, 0, &d, &e) ==
                 HG_OK &&
             d.advised;
    hg_live_decision_clear(&d);
    hg_live_free(v);
    return ok;
}

static void test_probe(const hg_live_options *o, const char *f0,
                       const char *f1, const char *own, const char *restore)
{
    double skin[2] = {0.0, 0.0}, gain[2] = {0.0, 0.0};
    for (int k = 0; k < 2; k++) {
        hg_err e = {0};
        hg_live_decision d;
        hg_live *u = tuner_at(o);
        if (!u)
            return;
        if (k == 1)
            hg_live_set_pair_cost(u, 3000.0 * 3.4e-9);
        hg_live_measure a = skin_too_small(1);
        a.pair = a.pair_max = a.pair_min = 0.6;
        a.neigh = a.neigh_max = a.neigh_min = 0.3;
        if (k == 0) {
            /* wanted before the first advice, whatever its Pair: 2 % of
             * the loop projected, 10 s, is 0.2 s */
            CHECK(hg_live_wants_probe(u, &a, 0.005) == 1);
            /* past its share: the advice waits for it, twice */
            for (int w = 0; w < 3; w++) {
                hg_live_measure b = a;
                b.from = 100 * w;
                b.to = b.from + 100;
                CHECK(hg_live_wants_probe(u, &b, 0.5) == -1);
                int st = hg_live_segment(u, &b, own, restore, f0, f1, 0, &d,
                                         &e);
                CHECK(st == HG_OK);
                if (w < 2)
                    CHECK(!d.advised &&
                          strstr(d.why, "waiting for the pair style's probe"));
                else
                    CHECK(d.advised); /* then on the engine's constant */
                hg_live_decision_clear(&d);
            }
            /* lines that build dangerously do not wait */
            hg_live_measure b = a;
            b.dangerous = 10;
            CHECK(advises_past_share(o, NULL, &b, own, restore, f0, f1));
            /* the waits are the input's: the next run's tuner advises
             * (its change dropped: no trial to judge first) */
            hg_live_drop_trial(u);
            CHECK(advises_past_share(o, u, &a, own, restore, f0, f1));
            hg_live_free(u);
            u = tuner_at(o);
            if (!u)
                return;
        }
        int st = hg_live_segment(u, &a, own, restore, f0, f1, 0, &d, &e);
        CHECK(st == HG_OK && d.advised);
        if (st)
            fprintf(stderr, "  %s\n", e.msg);
        const char *sk = d.lines ? strstr(d.lines, "neighbor ") : NULL;
        if (sk)
            skin[k] = atof(sk + 9);
        gain[k] = d.predicted_gain;
        hg_live_decision_clear(&d);
        hg_live_measure b = a;
        b.from = 100;
        b.to = 200;
        if (k == 0) {
            CHECK(hg_live_wants_probe(u, &b, 0.005) == 1);
            hg_live_set_pair_cost(u, 1e-8);
            CHECK(hg_live_wants_probe(u, &b, 0.005) == 0 &&
                  hg_live_pair_cost(u) == 1e-8);
            hg_live *v = tuner_at(o); /* and its cost */
            if (v) {
                hg_live_carry_trial(v, u);
                CHECK(hg_live_pair_cost(v) == 1e-8 &&
                      hg_live_wants_probe(v, &b, 0.005) == 0);
                hg_live_free(v);
            }
            hg_live_set_pair_cost(u, 0.0); /* another pair style */
            CHECK(hg_live_wants_probe(u, &b, 0.005) == 1);
            /* too few listed pairs on 300 atoms: again on 450, not 449 */
            hg_live_probe_retry(u, 300.0);
            b.atoms = 449;
            CHECK(hg_live_wants_probe(u, &b, 0.005) == 0 &&
                  hg_live_pair_cost(u) == 0.0);
            b.atoms = 450;
            CHECK(hg_live_wants_probe(u, &b, 0.005) == 1);
            /* a retry past its share: no advice waits for it */
            CHECK(hg_live_wants_probe(u, &b, 0.5) == -1);
            b.from = 200;
            b.to = 300;
            st = hg_live_segment(u, &b, own, restore, f0, f1, 0, &d, &e);
            CHECK(st == HG_OK && d.advised);
            hg_live_decision_clear(&d);
            hg_live_set_pair_cost(u, -1.0); /* not measurable */
            CHECK(hg_live_wants_probe(u, &b, 0.005) == 0 &&
                  hg_live_pair_cost(u) == 0.0);
        } else {
            CHECK(hg_live_wants_probe(u, &b, 0.005) == 0); /* measured */
        }
        hg_live_free(u);
    }
    printf("test_live: skin advised %g (%.3f predicted) with the shipped "
           "per-pair constant, %g (%.3f) with 3000x it\n", skin[0], gain[0],
           skin[1], gain[1]);
    /* dearer pairs: a smaller skin, or the same for less, or none */
    CHECK(skin[0] > 0.0 && (skin[1] < skin[0] || gain[1] < gain[0] - 0.02));
}

/* Advices that keep the lines in a row on the same atoms: after the
 * first the next waits a segment, after the second three (at most);
 * atoms a fifth more, or lines that build dangerously, are advised on
 * at once. min_gain 0.99: every advice keeps. */
static void test_kept_wait(const hg_live_options *o, const char *f0,
                           const char *f1, const char *own,
                           const char *restore)
{
    hg_live_options ok = *o;
    ok.min_gain = 0.99;
    hg_live *u = tuner_at(&ok);
    if (!u)
        return;
    hg_err e = {0};
    hg_live_decision d;
    hg_live_measure a = skin_too_small(1);
    a.dangerous = 0;
    /* segments 0-7: advised, waits 1, advised, waits 3, advised, waits
     * (3); 8: a fifth more atoms; 9: dangerous */
    const int want[10] = {1, 0, 1, 0, 0, 0, 1, 0, 1, 1};
    for (int i = 0; i < 10; i++) {
        hg_live_measure b = a;
        b.from = 100 * i;
        b.to = b.from + 100;
        if (i >= 8)
            b.atoms *= 1.2;
        if (i == 9)
            b.dangerous = 2;
        int st = hg_live_segment(u, &b, own, restore, f0, f1, 0, &d, &e);
        CHECKM(st == HG_OK && d.action == HG_LIVE_KEEP && !d.lines &&
                   d.advised == want[i],
               "segment %d: advised %d (%d wanted): %s", i, d.advised,
               want[i], d.why);
        if (i == 1)
            CHECKM(strstr(d.why, "the last advice kept the lines on these "
                                 "atoms: 1 segment without advice"),
                   "%s", d.why);
        if (i == 3)
            CHECKM(strstr(d.why, "the last 2 advices kept") &&
                       strstr(d.why, "3 segments without"),
                   "%s", d.why);
        hg_live_decision_clear(&d);
    }
    /* no change made: a segment x1.67 as dear per atom and step as the
     * one before (its Pair, Neigh and Comm twice, its atoms a fifth
     * more) is advised on */
    {
        hg_live_measure b = a;
        b.from = 1000;
        b.to = 1100;
        scale(&b, 2.0);
        b.loop *= 2.0;
        b.atoms *= 1.2 * 1.2;
        int st = hg_live_segment(u, &b, own, restore, f0, f1, 0, &d, &e);
        CHECKM(st == HG_OK && d.advised, "twice as dear, no change made: "
               "%s", st ? e.msg : d.why);
        hg_live_decision_clear(&d);
    }
    /* another run, on the atoms of the last advice (which kept the
     * lines): the streak starts again, its first segment advised */
    hg_live_run_begin(u, 2000, 1000);
    for (int i = 0; i < 3; i++) {
        hg_live_measure b = a;
        b.from = 2000 + 100 * i;
        b.to = b.from + 100;
        b.atoms *= 1.2 * 1.2;
        int st = hg_live_segment(u, &b, own, restore, f0, f1, 0, &d, &e);
        CHECKM(st == HG_OK && d.advised == (i != 1), "next run, segment %d: "
               "advised %d: %s", i, d.advised, d.why);
        hg_live_decision_clear(&d);
    }
    hg_live_free(u);
}

/* An advice that failed (here a frame that cannot be read; in LAMMPS'
 * ASPHERE/box, fluid particles at 40 times a packing's fraction) is not
 * asked again, nor its frames written, until the atoms change by half. */
static void test_failed_advice(const hg_live_options *o, const char *f0,
                               const char *f1, const char *own,
                               const char *restore)
{
    hg_live *u = tuner_at(o);
    if (!u)
        return;
    hg_err e = {0};
    hg_live_decision d;
    hg_live_measure a = skin_too_small(1);
    a.dangerous = 0;
    int st = hg_live_segment(u, &a, own, restore, f0,
                             "/nonexistent/hg_frame.dump", 0, &d, &e);
    CHECKM(st != HG_OK && d.advised, "an unreadable frame: %d", st);
    hg_live_decision_clear(&d);
    /* atoms x1.4, then x1.6 of those it failed on */
    const double grow[3] = {1.0, 1.4, 1.6};
    for (int i = 0; i < 3; i++) {
        hg_live_measure b = a;
        b.from = 100 * (i + 1);
        b.to = b.from + 100;
        b.atoms *= grow[i];
        int want = i == 2;
        CHECKM(hg_live_wants_frame(u, &b) == want, "segment %d: frame "
               "wanted %d", i, !want);
        st = hg_live_segment(u, &b, own, restore, f0, f1, 0, &d, &e);
        CHECKM(st == HG_OK && d.advised == want &&
                   (want || strstr(d.why, "the advice failed on")),
               "segment %d (atoms x%.1f): advised %d: %s", i, grow[i],
               d.advised, st ? e.msg : d.why);
        hg_live_decision_clear(&d);
    }
    hg_live_free(u);
}

static void test_tuner(void)
{
    hg_err e = {0};
    hg_live *t = NULL;
    hg_live_options o = {0};
    o.engine = "lammps";
    o.workdir = "/tmp";
    o.units = "lj";
    o.timestep = 0.001;
    o.mpi = 1;
    hg_live_options b = o;
    b.engine = NULL;
    CHECK(hg_live_create(&b, &t, &e) == HG_EINVAL && !t);
    b = o;
    b.engine = "hgrid";
    CHECK(hg_live_create(&b, &t, &e) == HG_EINVAL && strstr(e.msg, "hgrid"));
    b = o;
    b.timestep = 0.0;
    CHECK(hg_live_create(&b, &t, &e) == HG_EINVAL && strstr(e.msg, "0"));
    b = o;
    b.mpi = 0;
    CHECK(hg_live_create(&b, &t, &e) == HG_EINVAL);
    b = o;
    b.min_gain = 1.5;
    CHECK(hg_live_create(&b, &t, &e) == HG_EINVAL && strstr(e.msg, "1.5"));

    char dir[] = "/tmp/hg_test_live_dir_XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0);
        return;
    }
    o.workdir = dir;
    char f0[4200], f1[4200];
    snprintf(f0, sizeof f0, "%s/f0.dump", dir);
    snprintf(f1, sizeof f1, "%s/f1.dump", dir);
    write_frame(f0, 0, 0.0);
    write_frame(f1, 100, 0.1);
    CHECK(hg_live_create(&o, &t, &e) == HG_OK && t);
    if (!t)
        return;
    hg_live_run_begin(t, 0, 1000);
    const char *own = "neighbor 0.02 bin\nneigh_modify delay 0 every 1 "
                      "check yes\n";
    const char *restore = "neighbor 0.02 bin\nneigh_modify binsize 0\n";
    hg_live_measure m = skin_too_small(1);
    hg_live_decision d;
    int st = hg_live_segment(t, &m, own, restore, f0, f1, 0, &d, &e);
    CHECK(st == HG_OK);
    if (st)
        fprintf(stderr, "  %s\n", e.msg);
    CHECK(d.action == HG_LIVE_CHANGE);
    CHECK(d.lines && strstr(d.lines, "neighbor ") &&
          strstr(d.lines, "check yes"));
    CHECK(d.predicted_gain >= 0.05 && d.predicted_gain < 1.0);
    double skin = 0.0;
    if (d.lines)
        sscanf(strstr(d.lines, "neighbor ") + 9, "%lf", &skin);
    CHECK(skin > 0.2); /* 4 x the motion per step at least */
    printf("test_live: change to skin %g: %s\n", skin, d.why);
    hg_live_decision_clear(&d);
    CHECK(d.lines == NULL);
    /* its trial measures 50 % slower per atom and step: undone, back to
     * the restore lines */
    m.from = 100;
    m.to = 200;
    scale(&m, 1.5);
    m.loop *= 1.5;
    st = hg_live_segment(t, &m, "neighbor 0.5 bin\n", "neighbor 0.5 bin\n",
                         f0, f1, 0, &d, &e);
    CHECK(st == HG_OK && d.action == HG_LIVE_UNDO);
    CHECK(d.lines && !strcmp(d.lines, restore));
    CHECK(d.measured_change > 0.4 && d.measured_change < 0.6);
    CHECK(strstr(d.why, "for a segment") != NULL);
    hg_live_decision_clear(&d);
    /* the last segment: nothing to decide */
    st = hg_live_segment(t, &m, own, restore, f0, f1, 1, &d, &e);
    CHECK(st == HG_OK && d.action == HG_LIVE_KEEP && !d.lines);
    hg_live_decision_clear(&d);
    /* a segment without Pair and Neigh times (timer loop): kept */
    hg_live_measure z = m;
    z.pair = z.neigh = 0.0;
    st = hg_live_segment(t, &z, own, restore, f0, f1, 0, &d, &e);
    CHECK(st == HG_OK && d.action == HG_LIVE_KEEP && strstr(d.why, "kept"));
    hg_live_decision_clear(&d);
    /* the bracket of a trial: the lines before run again after it (k =
     * 2: as k = 1, but 40 % more atoms after it: the bracket cannot tell,
     * the lines before stay) */
    for (int k = 0; k < 3; k++) {
        hg_live_measure a = m;
        hg_live *u = first_segment(&o, &a, own, restore, f0, f1, &d, &st);
        if (!u)
            break;
        CHECK(st == HG_OK && d.action == HG_LIVE_CHANGE && d.lines);
        char *made = d.lines ? strdup(d.lines) : NULL;
        hg_live_decision_clear(&d);
        hg_live_measure b = a; /* the trial: 50 % dearer per atom-step */
        b.from = 100;
        b.to = 200;
        scale(&b, 1.5);
        st = hg_live_segment(u, &b, "neighbor 0.5 bin\n", restore, f0, f1,
                             0, &d, &e);
        CHECK(st == HG_OK && d.action == HG_LIVE_UNDO && d.lines);
        hg_live_decision_clear(&d);
        /* the lines before again: as before the trial (k = 0: the change
         * was slower), or three times as dear (k = 1: the run slowed them
         * all, the change was 25 % cheaper than their mean around it) */
        hg_live_measure c = a;
        c.from = 200;
        c.to = 300;
        if (k >= 1) {
            scale(&c, 3.0);
        }
        if (k == 2) {
            c.atoms *= 1.4;
            scale(&c, 1.4);
        }
        /* k = 2 without the bracket's last frame: no model price of it,
         * per atom and step */
        st = hg_live_segment(u, &c, own, restore, f0, k == 2 ? NULL : f1, 0,
                             &d, &e);
        CHECK(st == HG_OK);
        if (k == 2) {
            CHECK(d.action == HG_LIVE_UNDO && !d.lines &&
                  !isfinite(d.measured_change) &&
                  strstr(d.why, "atoms went from 300 to 420"));
        } else if (k == 0) {
            CHECK(d.action == HG_LIVE_UNDO && !d.lines);
            CHECK(d.measured_change > 0.4 && d.measured_change < 0.6);
            CHECK(strstr(d.why, "both sides") != NULL);
        } else {
            CHECK(d.action == HG_LIVE_CHANGE && d.lines && made &&
                  !strcmp(d.lines, made));
            CHECK(d.measured_change < 0.0 && strstr(d.why, "made again"));
            CHECK(d.predicted_gain >= 0.05);
        }
        hg_live_decision_clear(&d);
        free(made);
        hg_live_free(u);
    }
    /* the same first segment on two ranks (a 1 x 1 x 2 grid, even): the
     * skin far too small is changed there too (the answer on the
     * decomposition in use, when it is the first and the best, once
     * lacked the loop of your lines, and every advice kept them) */
    {
        hg_live_options o2 = o;
        o2.mpi = 2;
        hg_live *u = tuner_at(&o2);
        if (u) {
            hg_live_measure a = skin_too_small(2);
            snprintf(a.decomposition, sizeof a.decomposition,
                     "processors 1 1 2\n");
            st = hg_live_segment(u, &a, own, restore, f0, f1, 0, &d, &e);
            CHECK(st == HG_OK && d.advised && d.action == HG_LIVE_CHANGE &&
                  d.predicted_gain >= 0.05);
            printf("test_live: two ranks, skin 0.02: %s\n", d.why);
            hg_live_decision_clear(&d);
            hg_live_free(u);
        }
    }
    /* a change made before a run's last segment: the next run's tuner
     * takes its trial over and judges it on its first segment, by the
     * model alone (no trend across runs), its frames wanted past the
     * tuning share (k = 0: 50 % slower, undone for a bracket back to the
     * restore lines); the input's own neighbor lines in between drop it
     * (k = 1: not judged, no frame wanted); a bracket carries over too
     * (k = 2: the lines before as before the trial, the change undone) */
    for (int k = 0; k < 3; k++) {
        hg_live_measure a = m;
        hg_live *u = first_segment(&o, &a, own, restore, f0, f1, &d, &st);
        hg_live *v = tuner_at(&o);
        if (u && v) {
            CHECK(st == HG_OK && d.action == HG_LIVE_CHANGE && d.lines);
            hg_live_decision_clear(&d);
            hg_live_measure b = a;
            b.from = 100;
            b.to = 200;
            scale(&b, 1.5);
            if (k == 2) { /* its trial, slower: the bracket begins */
                st = hg_live_segment(u, &b, "neighbor 0.5 bin\n", restore,
                                     f0, f1, 0, &d, &e);
                CHECK(st == HG_OK && d.action == HG_LIVE_UNDO && d.lines);
                hg_live_decision_clear(&d);
                b = a;
            }
            hg_live_carry_trial(v, u);
            hg_live_carry_trial(v, v); /* no-op */
            hg_live_free(u);
            u = NULL;
            hg_live_run_begin(v, 1000, 1000);
            if (k == 1)
                hg_live_drop_trial(v);
            b.from = 1000;
            b.to = 1100;
            b.tuning = b.advice_cost = 1e3; /* the share spent */
            CHECK(hg_live_wants_frame(v, &b) == (k != 1));
            st = hg_live_segment(v, &b, "neighbor 0.5 bin\n", restore, f0,
                                 f1, 0, &d, &e);
            CHECK(st == HG_OK);
            if (k == 0) {
                CHECK(d.action == HG_LIVE_UNDO && d.lines &&
                      !strcmp(d.lines, restore));
                CHECK(d.measured_change > 0.4 && d.measured_change < 0.6);
                CHECK(strstr(d.why, "model on its frames") != NULL);
            } else if (k == 1) {
                CHECK(d.action == HG_LIVE_KEEP && !d.lines &&
                      d.measured_change == 0.0 && !d.judged[0]);
            } else {
                CHECK(d.action == HG_LIVE_UNDO && !d.lines);
                CHECK(d.measured_change > 0.4 && d.measured_change < 0.6);
                CHECK(strstr(d.why, "both sides") != NULL);
            }
            hg_live_decision_clear(&d);
        }
        hg_live_free(u);
        hg_live_free(v);
    }
    /* neighbor lines on trial are judged by the ranks' mean work and the
     * least Comm: the busiest rank 50 % dearer (the balance drifted, a
     * rank waits longer) is not their doing */
    {
        hg_live_measure a = m;
        hg_live *u = first_segment(&o, &a, own, restore, f0, f1, &d, &st);
        if (u) {
            CHECK(st == HG_OK && d.action == HG_LIVE_CHANGE && d.lines);
            hg_live_decision_clear(&d);
            hg_live_measure b = a;
            b.from = 100;
            b.to = 200;
            b.pair_max *= 1.5;
            b.neigh_max *= 1.5;
            b.comm_max *= 1.5;
            st = hg_live_segment(u, &b, "neighbor 0.5 bin\n", restore, f0,
                                 f1, 0, &d, &e);
            CHECK(st == HG_OK && d.action != HG_LIVE_UNDO &&
                  fabs(d.measured_change) < 1e-9);
            hg_live_decision_clear(&d);
            hg_live_free(u);
        }
    }
    /* two ranks, every atom in the lower quarter of z on a 1 x 1 x 2
     * grid: the busiest rank holds them all, yet its timers are even (the
     * work is): no balance is added, neither by the model's atom counts
     * nor by the timers */
    {
        char g0[4200], g1[4200];
        snprintf(g0, sizeof g0, "%s/g0.dump", dir);
        snprintf(g1, sizeof g1, "%s/g1.dump", dir);
        write_frame_low(g0, 0, 0.0);
        write_frame_low(g1, 100, 0.01);
        hg_live_options o2 = o;
        o2.mpi = 2;
        hg_live *u = tuner_at(&o2);
        if (u) {
            const char *own2 = "neighbor 0.3 bin\nneigh_modify delay 0 "
                               "every 1 check yes\n";
            hg_live_measure a = two_ranks(0.21, 0.052, 300);
            st = hg_live_segment(u, &a, own2, own2, g0, g1, 0, &d, &e);
            CHECK(st == HG_OK);
            if (st)
                fprintf(stderr, "  %s\n", e.msg);
            CHECK(d.advised && !d.rebalance[0] &&
                  (!d.lines || !strstr(d.lines, "balance")));
            printf("test_live: two ranks: %s\n", d.why);
            hg_live_decision_clear(&d);
            hg_live_free(u);
        }
        /* the timers uneven too: a balance command weighted by them,
         * beside whatever the advice says of the lines */
        u = tuner_at(&o2);
        if (u) {
            hg_live_measure a = two_ranks(0.4, 0.1, 300);
            st = hg_live_segment(u, &a, "neighbor 0.3 bin\n",
                                 "neighbor 0.3 bin\n", g0, g1, 0, &d, &e);
            CHECK(st == HG_OK && d.advised && d.rebalance[0] &&
                  (!d.lines || !strstr(d.lines, "balance")));
            hg_live_decision_clear(&d);
            hg_live_free(u);
        }
        /* the timers uneven: a balance command weighted by them, with
         * no advice; asked again only while it evens the ranks */
        u = tuner_at(&o2);
        if (u) {
            const char *own2 = "neighbor 0.3 bin\n";
            hg_live_measure a = two_ranks(0.4, 0.1, 160);
            a.advice_cost = 1.0;
            st = hg_live_segment(u, &a, own2, own2, g0, g1, 0, &d, &e);
            CHECK(st == HG_OK && d.action == HG_LIVE_KEEP && !d.lines &&
                  !strcmp(d.rebalance, "balance 1.1 shift z 20 1.1 weight "
                                       "time 1\n") && !d.advised);
            /* (0.5 - 1.1 x 0.25) of a loop of 1 */
            CHECK(fabs(d.rebalance_gain - 0.225) < 1e-9);
            printf("test_live: rebalance: %s\n", d.rebalance_why);
            hg_live_decision_clear(&d);
            /* evened: none; uneven again later: asked again */
            hg_live_measure b = a;
            b.from = 100;
            b.to = 200;
            b.pair_max = 0.21;
            b.neigh_max = 0.052;
            snprintf(b.decomposition, sizeof b.decomposition,
                     "processors 1 1 2\nbalance 1.0 shift z 20 1.0\n");
            b.tuning = 10.0; /* no advice: the share is spent */
            st = hg_live_segment(u, &b, own2, own2, g0, g1, 0, &d, &e);
            CHECK(st == HG_OK && !d.rebalance[0]);
            hg_live_decision_clear(&d);
            hg_live_measure c = a;
            c.from = 200;
            c.to = 300;
            c.tuning = 10.0;
            snprintf(c.decomposition, sizeof c.decomposition, "%s",
                     b.decomposition);
            st = hg_live_segment(u, &c, own2, own2, g0, g1, 0, &d, &e);
            CHECK(st == HG_OK && d.rebalance[0]);
            hg_live_decision_clear(&d);
            /* as uneven after it: asked once more; as uneven after that
             * too: not asked again in this run */
            for (int k = 0; k < 3; k++) {
                c.from = 300 + 100 * k;
                c.to = c.from + 100;
                st = hg_live_segment(u, &c, own2, own2, g0, g1, 0, &d, &e);
                CHECK(st == HG_OK && (d.rebalance[0] != 0) == (k == 0));
                hg_live_decision_clear(&d);
            }
            /* a new run may; a fix balance or rcb in force is left alone */
            static const struct {
                const char *decomposition;
                int rebalanced;
            } nr[] = {
                {"processors 1 1 2\nfix hgridopt_balance all balance 100 "
                 "1.1 shift z 20 1.1\n", 0},
                {"newton off on\ncomm_style tiled\nbalance 1.1 rcb\n", 0},
                {"processors 1 1 2\n", 1}};
            for (int k = 0; k < 3; k++) {
                hg_live_run_begin(u, 600 + 100 * k, 1000);
                c.from = 600 + 100 * k;
                c.to = c.from + 100;
                snprintf(c.decomposition, sizeof c.decomposition, "%s",
                         nr[k].decomposition);
                st = hg_live_segment(u, &c, own2, own2, g0, g1, 0, &d, &e);
                CHECK(st == HG_OK &&
                      (d.rebalance[0] != 0) == nr[k].rebalanced);
                hg_live_decision_clear(&d);
            }
            hg_live_free(u);
        }
        /* a setup measured: the excess (0.225 s) must pay for two */
        for (int k = 0; k < 2; k++) {
            u = tuner_at(&o2);
            if (!u)
                break;
            hg_live_measure a = two_ranks(0.4, 0.1, 160);
            a.advice_cost = 1.0;
            a.tuning = 10.0;
            a.setup = k ? 0.12 : 0.11;
            st = hg_live_segment(u, &a, "neighbor 0.3 bin\n",
                                 "neighbor 0.3 bin\n", g0, g1, 0, &d, &e);
            CHECK(st == HG_OK &&
                  (d.rebalance[0] != 0) == (k == 0));
            hg_live_decision_clear(&d);
            hg_live_free(u);
        }
        remove(g0);
        remove(g1);
    }
    /* the tuner's own time within its share of the loop (default 3 %) by
     * the run's end: the first advice always; then only while the tuning
     * so far plus the last advice's cost stays within 3 % of the loop so
     * far and the rest of the run (steps 0-1000) at the segment's rate.
     * hg_live_wants_frame says the same before the segment's frame is
     * written; without a frame of either end, no advice */
    for (int k = 0; k < 2; k++) {
        hg_live_options o3 = o;
        o3.tuning_share = k ? -1.0 : 0.0; /* k = 1: no limit */
        hg_live_measure a = m;
        hg_live *u = first_segment(&o3, &a, own, restore, f0, f1, &d, &st);
        if (!u)
            break;
        CHECK(st == HG_OK && d.advised);
        hg_live_decision_clear(&d);
        /* steps 100-200 at 1 s: 2 s so far, 8 s to come: 0.25 + 0.1 >
         * 0.3; the segment is the first change's trial, whose frames are
         * written whatever the share (it is judged on them) */
        share_segment(&a);
        CHECK(hg_live_wants_frame(u, &a));
        st = hg_live_segment(u, &a, own, restore, f0, f1, 0, &d, &e);
        CHECK(st == HG_OK && !d.advised && !d.lines &&
              d.action == HG_LIVE_KEEP);
        CHECK(strstr(d.judged, "would have cost") != NULL);
        /* past the share; without a limit, the trial's segment is not
         * advised on either, for its own reason */
        CHECK(strstr(d.why, k ? "not advised (the change's trial"
                              : "not advised (tuning"));
        hg_live_decision_clear(&d);
        /* 200-300: 3 + 7 s, 0.15 + 0.1 <= 0.3 (the loop so far alone,
         * 0.09 s, would refuse it); no frame of its first step: kept */
        a.from = 200;
        a.to = 300;
        a.tuning = 0.15;
        CHECK(hg_live_wants_frame(u, &a));
        st = hg_live_segment(u, &a, own, restore, NULL, f1, 0, &d, &e);
        CHECK(st == HG_OK && !d.advised && !d.lines &&
              strstr(d.why, "no frame"));
        hg_live_decision_clear(&d);
        /* again, with both frames: advised */
        a.from = 300;
        a.to = 400;
        CHECK(hg_live_wants_frame(u, &a));
        st = hg_live_segment(u, &a, own, restore, f0, f1, 0, &d, &e);
        CHECK(st == HG_OK && d.advised);
        int trial = d.action == HG_LIVE_CHANGE; /* frames whatever share */
        hg_live_decision_clear(&d);
        /* 400-500 at 0.25 s (the run got cheaper): 4.25 + 1.25 s, 0.15 +
         * 0.1 > 0.165 */
        seg(&a, 400, 500, 0.25, 0.0125, 0.2, 0.0125);
        a.tuning = 0.15;
        CHECK(hg_live_wants_frame(u, &a) == (k || trial));
        st = hg_live_segment(u, &a, own, restore, f0, f1, 0, &d, &e);
        CHECK(st == HG_OK && d.advised == (k && !trial));
        CHECK(!(k && trial) || strstr(d.why, "the change's trial"));
        hg_live_decision_clear(&d);
        hg_live_free(u);
    }
    /* the share is of the input's loop: the runs before this one (2 s)
     * and the later runs' steps (1000) at the segment's rate count. The
     * segment 100-200 above (0.25 + 0.1 > 3 % of 1.5 + 1 + 8 s) is
     * advised on when 2 s came before and 1000 steps are to come: 3 % of
     * 2 + 2.5 + 8 + 10 s = 0.675 s */
    for (int k = 0; k < 2; k++) {
        hg_live_options o3 = o;
        o3.loop_before = k ? 2.0 : 0.0;
        o3.later_steps = k ? 1000 : 0;
        hg_live_measure a = m;
        hg_live *u = first_segment(&o3, &a, own, restore, f0, f1, &d, &st);
        if (!u)
            break;
        hg_live_decision_clear(&d);
        share_segment(&a);
        CHECK(hg_live_wants_frame(u, &a)); /* a trial: its frames */
        st = hg_live_segment(u, &a, own, restore, f0, f1, 0, &d, &e);
        /* within the share with the runs around it: not advised only
         * because the segment is the change's trial */
        CHECK(st == HG_OK && !d.advised);
        CHECK(strstr(d.why, k ? "the change's trial"
                              : "of the loop by the input's end at this "
                                "rate, 10.5 s)"));
        int trial = d.action == HG_LIVE_CHANGE; /* frames whatever share */
        hg_live_decision_clear(&d);
        /* 200-300: 0.25 + 0.45 > 3 % of 2 + 3.5 + 7 + 10 s: not even
         * with them */
        a.from = 200;
        a.to = 300;
        a.advice_cost = 0.45;
        CHECK(hg_live_wants_frame(u, &a) == trial);
        hg_live_free(u);
    }
    {
        hg_live_options o5 = o;
        o5.later_steps = -1;
        hg_live *v = NULL;
        CHECK(hg_live_create(&o5, &v, &e) == HG_EINVAL && !v &&
              strstr(e.msg, "later steps (-1)"));
        o5.later_steps = 0;
        o5.loop_before = NAN;
        CHECK(hg_live_create(&o5, &v, &e) == HG_EINVAL && !v);
    }
    /* the trend: a change made after a segment twice as dear per atom and
     * step as the one before it (at the same lines) is judged against
     * what those lines would have cost next, twice again; its trial at
     * 1.5x the segment before it is 25 % cheaper than that, not slower */
    {
        hg_live_measure a = m;
        hg_live *u = NULL;
        CHECK(hg_live_create(&o, &u, &e) == HG_OK && u);
        if (u) {
            hg_live_run_begin(u, 0, 1000);
            seg(&a, 0, 100, 1.0, 0.05, 0.4, 0.05);
            a.tuning = 10.0; /* over the share: kept, not advised */
            a.advice_cost = 1.0;
            st = hg_live_segment(u, &a, own, restore, f0, f1, 0, &d, &e);
            CHECK(st == HG_OK && !d.advised && !d.lines);
            hg_live_decision_clear(&d);
            seg(&a, 100, 200, 1.0, 0.1, 0.8, 0.1);
            a.tuning = 0.0;
            a.advice_cost = 1e-9;
            st = hg_live_segment(u, &a, own, restore, f0, f1, 0, &d, &e);
            CHECK(st == HG_OK && d.action == HG_LIVE_CHANGE && d.lines);
            char *made = d.lines ? strdup(d.lines) : NULL;
            hg_live_decision_clear(&d);
            seg(&a, 200, 300, 2.0, 0.15, 1.2, 0.15);
            /* no frame of the trial's end (the share spent): the trend */
            if (made)
                st = hg_live_segment(u, &a, made, restore, f0, NULL, 0, &d,
                                     &e);
            CHECK(st == HG_OK && d.action != HG_LIVE_UNDO &&
                  d.measured_change < -0.2 && d.measured_change > -0.3);
            hg_live_decision_clear(&d);
            free(made);
            hg_live_free(u);
        }
    }
    test_counterfactual(&o, f0, f1, own, restore);
    test_probe(&o, f0, f1, own, restore);
    test_kept_wait(&o, f0, f1, own, restore);
    test_failed_advice(&o, f0, f1, own, restore);
    hg_live_options o4 = o;
    o4.tuning_share = 1.0;
    hg_live *v = NULL;
    CHECK(hg_live_create(&o4, &v, &e) == HG_EINVAL && !v &&
          strstr(e.msg, "--tuning-share"));
    /* a frame that is not there: the advice's error names it */
    hg_live *w = tuner_at(&o);
    st = w ? hg_live_segment(w, &m, own, restore, f0, "/nonexistent.dump",
                             0, &d, &e)
           : HG_OK;
    CHECK(st != HG_OK && strstr(e.msg, "/nonexistent.dump"));
    hg_live_decision_clear(&d);
    hg_live_free(w);
    hg_live_free(t);
    hg_live_free(NULL);
    remove(f0);
    remove(f1);
    CHECK(rmdir(dir) == 0); /* the tuner's logs removed */
}

int main(void)
{
    setenv("HGRIDOPT_LAMMPS_CALIBRATION", "/nonexistent/lammps.json", 1);
    setenv("HGRIDOPT_LAMMPS_PAIR_CALIBRATION", "/nonexistent/pair.json", 1);
    setenv("HGRIDOPT_LAMMPS_COMM_CALIBRATION", "/nonexistent/comm.json", 1);
    test_parse();
    test_classify();
    test_clock_and_groups();
    test_split();
    test_tuner();
    return hg_test_summary("test_live");
}
