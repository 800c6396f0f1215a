/* test_liggghts.c - the LIGGGHTS model (models/liggghts.c), its optimiser,
 * the settings writer of the liggghts engine, the constants' fit and
 * storage, and the runner's refusals (no liggghts needed). */
#include "hgridopt.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A cube of edge 100, periodic, radii up to 9.95 and skin 0.1: cutoff 20. */
static void counts(void)
{
    hg_psd *psd = hg_test_psd("uniform-size:rmin=1,rmax=9.95", 3);
    CHECK(psd != NULL);
    if (!psd)
        return;
    hg_err e = {0};
    hg_liggghts_system sys = {3, 0.3, 10000.0, 0.1, 1};
    sys.box[0] = sys.box[1] = sys.box[2] = 100.0;
    CHECK_CLOSE(hg_liggghts_cutoff(psd, 0.1), 20.0, 1e-12, 0);
    CHECK_CLOSE(hg_liggghts_default_binsize(psd, 0.1), 10.0, 1e-12, 0);
    hg_liggghts_work w, w0;
    CHECK(hg_liggghts_work_eval(psd, &sys, 10.0, &w, &e) == HG_OK);
    /* bins of width box / floor(box / binsize); the full stencil of two
     * bins each way keeps all 5^3 bins (a corner bin's nearest point is
     * sqrt(3) x 10 < 20 away) */
    CHECK(w.nbin[0] == 10 && w.nbin[2] == 10);
    CHECK_CLOSE(w.width[0], 10.0, 1e-12, 0);
    CHECK(w.stencil == 125 && w.rows == 25);
    CHECK_CLOSE(w.lines, 1e4 * 25, 1e-12, 0);
    /* cleared bins per axis: (-20 - slack) / 10 -> -3, (120 + slack) / 10
     * -> 12, one more each side: 18 */
    CHECK_CLOSE(w.bins, 18.0 * 18 * 18, 1e-12, 0);
    /* Poisson: rho x stencil volume + the atom itself, per atom */
    CHECK_CLOSE(w.checks / 1e4, 1e4 / 1e6 * 125 * 1000 + 1.0, 1e-12, 0);
    CHECK_CLOSE(w.visits, 1e4 * 125, 1e-12, 0);
    /* ghosts: a shell of the cutoff around the periodic cube */
    CHECK_CLOSE(w.ghosts, 1e4 * (pow(1.4, 3) - 1.0), 1e-12, 0);
    CHECK_CLOSE(w.binned, 1e4 + w.ghosts, 1e-12, 0);
    /* the default bin size is half the cutoff */
    CHECK(hg_liggghts_work_eval(psd, &sys, 0.0, &w0, &e) == HG_OK);
    CHECK(w0.stencil == w.stencil && w0.checks == w.checks);
    /* binsize = cutoff: one bin each way, 27 bins; 10.5 -> 9 bins of
     * 11.11 */
    CHECK(hg_liggghts_work_eval(psd, &sys, 20.0, &w, &e) == HG_OK);
    CHECK(w.stencil == 27 && w.rows == 9 && w.nbin[1] == 5);
    CHECK(hg_liggghts_work_eval(psd, &sys, 10.5, &w, &e) == HG_OK);
    CHECK(w.nbin[0] == 9);
    CHECK_CLOSE(w.width[0], 100.0 / 9, 1e-12, 0);
    /* a third of the cutoff: the corner (3,3,3) is 2 bins away on each
     * axis, sqrt(12) x 6.67 > 20: pruned */
    CHECK(hg_liggghts_work_eval(psd, &sys, 20.0 / 3 + 1e-9, &w, &e) ==
          HG_OK);
    CHECK(w.nbin[0] == 14 && w.stencil < 343);
    /* a tall box: bins along z follow its own edge */
    sys.box[2] = 300.0;
    sys.boundary[2] = 'f';
    CHECK(hg_liggghts_work_eval(psd, &sys, 10.0, &w, &e) == HG_OK);
    CHECK(w.nbin[2] == 30 && w.nbin[0] == 10);
    /* walls along z: ghosts only across x and y */
    CHECK_CLOSE(w.ghosts, 1e4 * (1.4 * 1.4 - 1.0), 1e-12, 0);
    /* hard spheres find fewer atoms than Poisson (the excluded hole) */
    sys.box[2] = 100.0;
    sys.boundary[2] = 0;
    hg_liggghts_work wp, wh;
    CHECK(hg_liggghts_work_eval(psd, &sys, 10.0, &wp, &e) == HG_OK);
    sys.structure = HG_STRUCTURE_HARD_SPHERES;
    CHECK(hg_liggghts_work_eval(psd, &sys, 10.0, &wh, &e) == HG_OK);
    CHECK(wh.checks < wp.checks && wh.checks > wp.checks - 1e4);
    sys.structure = HG_STRUCTURE_POISSON;

    /* bad input: each rejection names the field */
    CHECK(hg_liggghts_work_eval(psd, &sys, 1e-3, &w, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "binsize") != NULL);
    hg_liggghts_system bad = sys;
    bad.nu = 1.5;
    CHECK(hg_liggghts_work_eval(psd, &bad, 10.0, &w, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "nu") != NULL);
    bad = sys;
    bad.skin = 0.0;
    CHECK(hg_liggghts_work_eval(psd, &bad, 10.0, &w, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "skin") != NULL);
    bad = sys;
    bad.structure = HG_STRUCTURE_MEASURED;
    CHECK(hg_liggghts_work_eval(psd, &bad, 10.0, &w, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "structure") != NULL);
    bad = sys;
    bad.nprocs = 0;
    CHECK(hg_liggghts_work_eval(psd, &bad, 10.0, &w, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "nprocs") != NULL);
    /* LIGGGHTS' limits of its bins (neighbor.cpp, setup_bins) */
    bad = sys;
    bad.box[2] = 1e11;
    CHECK(hg_liggghts_work_eval(psd, &bad, 10.0, &w, &e) == HG_ELIMIT);
    CHECK(strstr(e.msg, "binsize: 10 makes 1e+10 bins along z") &&
          strstr(e.msg, "Domain too large for neighbor bins"));
    bad = sys;
    bad.box[0] = 0.099; /* bins of 10 are 101x the edge */
    CHECK(hg_liggghts_work_eval(psd, &bad, 10.0, &w, &e) == HG_ELIMIT);
    CHECK(strstr(e.msg, "box edge x: 0.099 ") &&
          strstr(e.msg, "Cannot use neighbor bins - box size << cutoff"));
    bad.box[0] = 0.1; /* 100x: accepted, as by LIGGGHTS */
    CHECK(hg_liggghts_work_eval(psd, &bad, 10.0, &w, &e) == HG_OK);
    bad = sys;
    bad.box[0] = bad.box[1] = bad.box[2] = 1e5;
    CHECK(hg_liggghts_work_eval(psd, &bad, 0.05, &w, &e) == HG_ELIMIT);
    CHECK(strstr(e.msg, "Too many neighbor bins") != NULL);
    hg_psd_free(psd);
}

/* The optimiser finds the cheapest of every bin size in the range (a
 * dense scan agrees), keeps the default within its tolerance, and stays in
 * [0.25, 1.5] x cutoff. */
static void optimiser(void)
{
    const char *specs[] = {"powerlaw:alpha=-3,rmin=1,omega=5",
                           "uniform-size:rmin=1,rmax=3",
                           "powerlaw:alpha=-2,rmin=0.5,omega=12"};
    hg_consts c;
    hg_consts_shipped(&hg_liggghts_consts_kind, &c);
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        hg_psd *psd = hg_test_psd(specs[k], 3);
        CHECK(psd != NULL);
        if (!psd)
            continue;
        hg_err e = {0};
        hg_liggghts_system sys = {3, 0.35, 20000.0,
                                  0.2 * hg_psd_rmin(psd), 1};
        hg_liggghts_optimum o;
        CHECK(hg_liggghts_optimise(psd, &sys, &c, 0.0, &o, &e) == HG_OK);
        double cut = o.cutoff, lo = 0.25 * cut, hi = 1.5 * cut;
        CHECK(o.binsize >= lo && o.binsize <= hi);
        CHECK(o.grids > 10);
        double best = INFINITY;
        for (int i = 0; i <= 3000; i++) {
            hg_liggghts_work w;
            double b = lo * pow(hi / lo, i / 3000.0);
            CHECK(hg_liggghts_work_eval(psd, &sys, b, &w, &e) == HG_OK);
            best = fmin(best, hg_liggghts_predict(&c, &w));
        }
        CHECK(o.seconds <= best * (1.0 + 1e-12));
        hg_liggghts_work w;
        CHECK(hg_liggghts_work_eval(psd, &sys, o.binsize, &w, &e) == HG_OK);
        CHECK_CLOSE(hg_liggghts_predict(&c, &w), o.seconds, 1e-12, 0);
        CHECK(o.default_seconds >= o.seconds);
        /* a huge tolerance keeps LIGGGHTS' default */
        hg_liggghts_optimum d;
        CHECK(hg_liggghts_optimise(psd, &sys, &c, 100.0, &d, &e) == HG_OK);
        CHECK(d.is_default && d.binsize == 0.5 * cut);
        CHECK(hg_liggghts_optimise(psd, &sys, &c, -1.0, &d, &e) ==
              HG_EINVAL);
        hg_psd_free(psd);
    }
}

static void model_and_engine(void)
{
    const hg_model *m = hg_model_find("liggghts-bin");
    CHECK(m != NULL);
    const hg_engine *g = hg_engine_find("liggghts");
    CHECK(g != NULL);
    if (!m || !g)
        return;
    CHECK(hg_engine_of_model("liggghts-bin") == g);
    CHECK(!strcmp(g->settings_format, "liggghts"));
    CHECK(g->consts == &hg_liggghts_consts_kind && !g->K);
    CHECK(g->write_settings && g->validate && g->tune && g->calibrate);
    hg_psd *psd = hg_test_psd("powerlaw:alpha=-3,rmin=1,omega=5", 3);
    if (!psd)
        return;
    hg_system sys = {3, 0.3};
    hg_err e = {0};
    hg_model_values v = {0};
    hg_work w1, w2;
    CHECK(hg_cost_evaluate(m, psd, &sys, &v, 1, NULL, NULL, &w1, &e) ==
          HG_OK);
    /* the parameter moves T; binsize 0 is the default, half the cutoff */
    double cut = hg_liggghts_cutoff(psd, 0.1 * 2.0);
    CHECK(hg_model_values_set(&v, "binsize", 0.5 * cut, &e) == HG_OK);
    CHECK(hg_cost_evaluate(m, psd, &sys, &v, 1, NULL, NULL, &w2, &e) ==
          HG_OK);
    CHECK_CLOSE(w1.T, w2.T, 1e-12, 0);
    CHECK(hg_model_values_set(&v, "binsize", 0.25 * cut, &e) == HG_OK);
    CHECK(hg_cost_evaluate(m, psd, &sys, &v, 1, NULL, NULL, &w2, &e) ==
          HG_OK);
    CHECK(w2.T != w1.T && w2.T > w2.T_cd && w2.T_cd > 1.0);
    /* other constants passed as the value move T */
    hg_consts c;
    hg_consts_shipped(&hg_liggghts_consts_kind, &c);
    c.c[3] += 1e-6; /* bins cleared cost more */
    v.consts = &c;
    hg_work w3;
    CHECK(hg_cost_evaluate(m, psd, &sys, &v, 1, NULL, NULL, &w3, &e) ==
          HG_OK);
    CHECK(w3.T > w2.T);
    CHECK(hg_model_values_set(&v, "binsize", -1.0, &e) == HG_OK);
    CHECK(hg_cost_evaluate(m, psd, &sys, &v, 1, NULL, NULL, &w3, &e) ==
          HG_EINVAL);

    /* the writer: bin with the bin size, never multi, the reasons */
    char buf[1024];
    CHECK(hg_engine_constants_text(g, 3, buf, sizeof buf, &e) == HG_OK);
    CHECK(strstr(buf, "shipped defaults") && strstr(buf, "checks"));
    double b = 7.25;
    hg_engine_settings in = {0};
    in.psd = psd;
    in.sys = &sys;
    in.model = "liggghts-bin";
    in.levels = 1;
    in.sizes = &b;
    in.predicted = 0.0123;
    in.unit = "s per build";
    in.skin = 0.2;
    in.atoms = 10000;
    in.constants = buf;
    in.origin = "recommend";
    char *text = NULL;
    CHECK(g->write_settings(&in, &text, &e) == HG_OK);
    CHECK(text != NULL);
    if (text) {
        CHECK(strstr(text, "\nneighbor 0.2 bin\nneigh_modify binsize 7.25\n"));
        CHECK(strstr(text, "newton off") && strstr(text, "stub"));
        CHECK(strstr(text, "0.0123 s per build") && strstr(text, "shipped"));
        /* every line is a comment or one of the two commands */
        int lines = 0, commands = 0;
        for (char *s = text; *s; s = strchr(s, '\n') + 1) {
            lines++;
            if (*s != '#')
                commands++;
            CHECK(*s == '#' || !strncmp(s, "neighbor 0.2 bin\n", 17) ||
                  !strncmp(s, "neigh_modify binsize", 20));
            CHECK(*s == '#' || !strstr(s, "multi"));
            if (!strchr(s, '\n'))
                break;
        }
        CHECK(commands == 2 && lines >= 5);
    }
    free(text);
    const double two[2] = {3.0, 10.0};
    in.levels = 2;
    in.sizes = two;
    text = NULL;
    CHECK(g->write_settings(&in, &text, &e) == HG_EINVAL && !text);
    CHECK(strstr(e.msg, "liggghts") != NULL);
    in.levels = 1;
    in.sizes = &b;
    b = 0.0;
    CHECK(g->write_settings(&in, &text, &e) == HG_EINVAL && !text);
    hg_psd_free(psd);
}

/* The fit recovers constants from exact times (two stages: within
 * systems, then across them); storage round trip; the
 * engine resolves a stored file before the shipped constants. */
/* Does k's constants' path resolve to want? */
static int path_is(const hg_consts_kind *k, const char *want)
{
    char got[4096];
    hg_err e = {0};
    return hg_consts_path(k, got, sizeof got, &e) == HG_OK &&
           !strcmp(got, want);
}

static void fit_and_store(void)
{
    /* four systems (binned atoms and neighbours fixed per system) of four
     * bin sizes each */
    hg_liggghts_work w[16];
    double y[16];
    const double truth[HG_LIGGGHTS_NTERMS] = {2e-9, 5e-9, 2e-8,
                                              3e-9, 1e-8, 0.0};
    memset(w, 0, sizeof w);
    for (int i = 0; i < 16; i++) {
        int sy = i / 4;
        w[i].checks = 1e5 * (1 + i % 4) + 3e4 * i;
        w[i].visits = 2e4 * (1 + (i * 7) % 5);
        w[i].lines = 4e3 * (1 + (i * 5) % 3) + 1e3 * (i % 2);
        w[i].bins = 1e3 * (1 + (i * 3) % 7);
        w[i].binned = 1e4 * (1 + sy) + 3e3 * sy * sy;
        w[i].neighbours = 5e3 * (1 + (sy * 5) % 3);
        y[i] = truth[0] * w[i].checks + truth[1] * w[i].visits +
               truth[2] * w[i].lines + truth[3] * w[i].bins +
               truth[4] * w[i].binned;
    }
    hg_consts c;
    hg_consts_shipped(&hg_liggghts_consts_kind, &c);
    hg_err e = {0};
    CHECK(hg_liggghts_fit(w, y, 16, &c, &e) == HG_OK);
    for (int k = 0; k < 5; k++)
        CHECK_CLOSE(c.c[k], truth[k], 1e-6, 0);
    CHECK(c.c[5] >= 0.0 && c.c[5] < 1e-15);
    CHECK(c.npoints == 16 && c.r2 > 0.999);
    /* two systems: the per-system work is priced by binned alone */
    CHECK(hg_liggghts_fit(w, y, 8, &c, &e) == HG_OK);
    CHECK_CLOSE(c.c[0], truth[0], 1e-6, 0);
    CHECK(hg_liggghts_fit(w, y, 5, &c, &e) == HG_EINVAL);
    y[3] = -1.0;
    CHECK(hg_liggghts_fit(w, y, 16, &c, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "measured time 3") != NULL);

    char dir[] = "/tmp/hg-test-liggghts-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256], lmp[256], got[4096];
    /* the path rule of every stored file: the variable, else
     * $XDG_CONFIG_HOME/hgridopt/, else $HOME/.config/hgridopt/ */
    snprintf(lmp, sizeof lmp, "%s/cfg", dir);
    unsetenv("HGRIDOPT_LIGGGHTS_CALIBRATION");
    setenv("XDG_CONFIG_HOME", lmp, 1);
    CHECK(hg_consts_path(&hg_liggghts_consts_kind, got, sizeof got, &e) ==
          HG_OK);
    snprintf(path, sizeof path, "%s/cfg/hgridopt/liggghts.json", dir);
    CHECK(!strcmp(got, path));
    unsetenv("XDG_CONFIG_HOME");
    setenv("HGRIDOPT_LIGGGHTS_CALIBRATION", path, 1);
    snprintf(c.machine, sizeof c.machine, "test machine");
    CHECK(hg_consts_save(&hg_liggghts_consts_kind, &c, path, &e) == HG_OK);
    hg_consts back;
    CHECK(hg_consts_load(&hg_liggghts_consts_kind, path, &back, &e) == HG_OK);
    for (int k = 0; k < HG_LIGGGHTS_NTERMS; k++)
        CHECK_CLOSE(back.c[k], c.c[k], 1e-15, 0);
    CHECK(!strcmp(back.machine, "test machine"));
    /* the pair and communication constants live beside the file the
     * variable names, unless their own variables say otherwise: a caller
     * that moved the main file away from the user's folder (a test, a
     * second machine's constants) reads and stores none of them there */
    unsetenv("HGRIDOPT_LIGGGHTS_PAIR_CALIBRATION");
    unsetenv("HGRIDOPT_LIGGGHTS_COMM_CALIBRATION");
    setenv("HOME", dir, 1);
    char want[4200];
    snprintf(want, sizeof want, "%s/cfg/hgridopt/liggghts-pair.json", dir);
    CHECK(path_is(&hg_liggghts_pair_kind, want));
    snprintf(want, sizeof want, "%s/cfg/hgridopt/liggghts-comm.json", dir);
    CHECK(path_is(&hg_liggghts_comm_kind, want));
    setenv("HGRIDOPT_LIGGGHTS_PAIR_CALIBRATION", "/elsewhere/p.json", 1);
    CHECK(path_is(&hg_liggghts_pair_kind, "/elsewhere/p.json"));
    unsetenv("HGRIDOPT_LIGGGHTS_PAIR_CALIBRATION");
    unsetenv("HGRIDOPT_LIGGGHTS_CALIBRATION");
    snprintf(want, sizeof want, "%s/.config/hgridopt/lammps-pair.json", dir);
    CHECK(path_is(&hg_lammps_pair_kind, want));
    setenv("HGRIDOPT_LAMMPS_CALIBRATION", "/x/mine", 1);
    CHECK(path_is(&hg_lammps_pair_kind, "/x/mine-pair.json"));
    unsetenv("HGRIDOPT_LAMMPS_CALIBRATION");
    /* saved without --file: beside the variable's file too */
    hg_consts pc;
    hg_consts_shipped(&hg_liggghts_pair_kind, &pc);
    char saved[8300];
    setenv("HGRIDOPT_LIGGGHTS_CALIBRATION", path, 1);
    CHECK(hg_consts_save_with_pair(&hg_liggghts_consts_kind, &c,
                                   &hg_liggghts_pair_kind, &pc, NULL, saved,
                                   sizeof saved, &e) == HG_OK);
    snprintf(want, sizeof want, "%s/cfg/hgridopt/liggghts-pair.json", dir);
    CHECK(access(want, R_OK) == 0);
    CHECK(strstr(saved, want) != NULL);
    remove(want);
    const hg_engine *g = hg_engine_find("liggghts");
    hg_consts r;
    char source[4200];
    CHECK(g && hg_engine_consts(g, 3, &r, source, sizeof source, &e) == HG_OK);
    CHECK(strstr(source, "stored calibration") && strstr(source, path));
    CHECK_CLOSE(r.c[1], c.c[1], 1e-15, 0);
    /* a malformed file is an error, not silently the defaults */
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("{\"schema\": \"hgridopt.lammps-calibration/1\"}\n", f);
        fclose(f);
    }
    CHECK(g && hg_engine_consts(g, 3, &r, source, sizeof source, &e) ==
          HG_EPARSE);
    CHECK(strstr(e.msg, "schema") != NULL);
    remove(path);
    setenv("HGRIDOPT_LIGGGHTS_CALIBRATION", "/nonexistent/lig.json", 1);
    CHECK(g && hg_engine_consts(g, 3, &r, source, sizeof source, &e) == HG_OK);
    CHECK(strstr(source, "shipped defaults") != NULL);
    char rm[300];
    snprintf(rm, sizeof rm, "%s/cfg/hgridopt", dir);
    rmdir(rm);
    snprintf(rm, sizeof rm, "%s/cfg", dir);
    rmdir(rm);
    rmdir(dir);
}

/* The runner refuses what it cannot run, with advice. */
static void runner_refusals(void)
{
    hg_particles p = {0};
    hg_err e = {0};
    CHECK(hg_particles_alloc(&p, 3, 2, &e) == HG_OK);
    p.r[0] = p.r[1] = 0.1;
    p.x[0] = p.x[1] = p.x[2] = 0.25;
    p.x[3] = p.x[4] = p.x[5] = 0.75;
    hg_liggghts_run_options o;
    hg_liggghts_run_options_default(&o);
    o.skin = 0.01;
    o.program = "/nonexistent/liggghts";
    double b = 0.2;
    hg_liggghts_timing t;
    CHECK(hg_liggghts_run(&p, &b, 1, &o, &t, &e) == HG_EIO);
    CHECK(strstr(e.msg, "apt-get install liggghts") != NULL);
    o.skin = 0.0;
    CHECK(hg_liggghts_run(&p, &b, 1, &o, &t, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "skin") != NULL);
    o.skin = 0.01;
    b = -1.0;
    CHECK(hg_liggghts_run(&p, &b, 1, &o, &t, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "binsize") != NULL);
    hg_particles_clear(&p);
    CHECK(hg_particles_alloc(&p, 2, 1, &e) == HG_OK);
    p.r[0] = 0.1;
    p.x[0] = p.x[1] = 0.5;
    b = 0.2;
    CHECK(hg_liggghts_run(&p, &b, 1, &o, &t, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "3D") != NULL);
    hg_particles_clear(&p);
    /* the engine's runners need a packing */
    const hg_engine *g = hg_engine_find("liggghts");
    hg_engine_run run;
    hg_engine_run_default(g, &run);
    run.budget = 0.0;
    hg_engine_report rep;
    CHECK(g && g->validate(&run, &rep, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "packing") != NULL);
    CHECK(g && g->tune(&run, &rep, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "budget") != NULL);
    /* calibrate without packings packs its own, of run.atoms spheres */
    run.atoms = 10;
    CHECK(g && g->calibrate(&run, &rep, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "atoms") != NULL);
}

int main(void)
{
    setenv("HGRIDOPT_LIGGGHTS_CALIBRATION", "/nonexistent/hg-test-lig.json",
           1);
    counts();
    optimiser();
    model_and_engine();
    fit_and_store();
    runner_refusals();
    return hg_test_summary("test_liggghts");
}
