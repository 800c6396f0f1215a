/* engine.c - LIGGGHTS as an engine: the model of its granular neighbour
 * build (models/liggghts.c, `liggghts-bin`) with the fitted seconds per
 * counted unit, resolved here once (the stored `calibrate --engine
 * liggghts` constants, else the shipped ones); its settings are the input
 * lines of --format liggghts (`neighbor SKIN bin`, `neigh_modify binsize
 * X`: LIGGGHTS' `multi` builds no list for granular pair styles); and the
 * runners validate, tune and calibrate, which run liggghts on a packing
 * (run.c). */
#include "hg_engine.h"
#include "hg_export.h"
#include "hg_io.h"
#include "hg_pack_gen.h"
#include "hg_liggghts.h"
#include "hg_snapshot.h"
#include "hg_whole_run.h"
#include "liggghts_engine.h"
#include "run_lines.h"

#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const models[] = {"liggghts-bin", NULL};


/* ---- the runners ---- */

/* What every runner needs about the first packing. */
typedef struct lig_ctx {
    const hg_particles *p;
    hg_psd *own_psd;    /* when the run gave none */
    const hg_psd *psd;
    hg_liggghts_system sys;
    hg_consts c;
    hg_liggghts_run_options o;
    char source[4200];
    double cut;
    /* calibrate: the pair loop over kept lists, per packing and skin */
    double *pairs, *atoms, *pair_s;
    int *group, n_pair;
} lig_ctx;

/* Skins of the pair loop's measurements, times the skin. */
enum { PAIR_SKINS = 4 };
static const double pair_skins[PAIR_SKINS] = {1.0, 3.0, 6.0, 10.0};

static void lig_ctx_free(lig_ctx *x)
{
    free(x->pairs);
    free(x->atoms);
    free(x->pair_s);
    free(x->group);
    x->pairs = x->atoms = x->pair_s = NULL;
    x->group = NULL;
    hg_psd_free(x->own_psd);
    x->own_psd = NULL;
}

static int lig_ctx_init(const hg_engine_run *run, lig_ctx *x,
                        hg_engine_report *out, hg_err *e)
{
    memset(x, 0, sizeof *x);
    hg_engine_report_init(out);
    out->fastest = -1;
    out->fit_median_error = out->fit_max_error = NAN;
    out->unit = "Neigh seconds per build";
    if (!run || !run->packings || run->n_packings < 1 || !run->packings[0])
        return hg_fail(e, HG_EINVAL,
                       "packing: LIGGGHTS runs need a particle file");
    x->p = run->packings[0];
    int st;
    if (run->psd) {
        x->psd = run->psd;
    } else {
        hg_system s = {0};
        if ((st = hg_io_system_from_particles(x->p, &x->own_psd, &s, e)))
            return st;
        x->psd = x->own_psd;
    }
    double skin = run->skin > 0.0 ? run->skin
                                  : hg_export_default_skin(x->psd);
    int nprocs = run->nprocs > 0 ? run->nprocs : 1;
    if ((st = hg_liggghts_system_of(x->p, run->sys, skin, nprocs, &x->sys,
                                    e)) ||
        (st = hg_engine_consts(&hg_engine_liggghts, 3, &x->c, x->source,
                                sizeof x->source, e)))
        return st;
    x->cut = hg_liggghts_cutoff(x->psd, skin);
    hg_liggghts_run_options_default(&x->o);
    x->o.program = run->program;
    x->o.keep = run->keep;
    x->o.nprocs = nprocs;
    if (run->steps > 0) { /* else the runner's defaults */
        x->o.steps = run->steps;
        x->o.warmup = run->warmup > 0 ? run->warmup : 0;
    }
    if (run->repeats > 0)
        x->o.repeats = run->repeats;
    x->o.skin = skin;
    x->o.progress = run->progress;
    x->o.progress_params = run->progress_params;
    char exe[4096], version[128] = "?";
    if ((st = hg_liggghts_find(run->program, exe, sizeof exe, e)))
        return st;
    if (hg_liggghts_version(exe, version, sizeof version, NULL) != HG_OK)
        snprintf(version, sizeof version, "version unknown");
    snprintf(out->program, sizeof out->program, "%.380s (%.120s)", exe,
             version);
    hg_engine_constants_text(&hg_engine_liggghts, 3, out->constants,
                             sizeof out->constants, NULL);
    return HG_OK;
}

/* Fill report point i from a measured bin size. */
static int set_point(hg_engine_point *pt, const char *role,
                     const hg_liggghts_point *m, double cut, double skin,
                     hg_err *e)
{
    memset(pt, 0, sizeof *pt);
    pt->role = role;
    snprintf(pt->setting, sizeof pt->setting,
             "bin, bin size %.6g (%.3g x cutoff), %d x %d x %d bins",
             m->binsize, m->binsize / cut, m->work.nbin[0], m->work.nbin[1],
             m->work.nbin[2]);
    pt->levels = 1;
    pt->sizes[0] = m->binsize;
    pt->predicted = m->predicted > 0.0 ? m->predicted : NAN;
    pt->measured = m->timing.neigh;
    pt->measured_min = m->timing.neigh_min;
    pt->measured_max = m->timing.neigh_max;
    pt->other = m->timing.pair;
    pt->found = m->timing.neighbours;
    pt->model_found = m->work.neighbours;
    return hg_liggghts_lines(m->binsize, skin, &pt->lines, e);
}

/* Add b to list unless a bin size within 1e-6 (relative) is there. */
static void add_size(double *list, int *n, int cap, double b)
{
    for (int i = 0; i < *n; i++)
        if (fabs(list[i] - b) <= 1e-6 * b)
            return;
    if (*n < cap)
        list[(*n)++] = b;
}

/* Measure bin sizes b[0..n-1] and put them into out->points with roles
 * (role of the i-th: roles[i] when i < nroles, else "scan"). */
static int measure_into(lig_ctx *x, const double *b, int n,
                        const char *const *roles, int nroles,
                        hg_engine_report *out, hg_err *e)
{
    hg_liggghts_point *m = calloc((size_t)n, sizeof *m);
    if (!m)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    int st = hg_liggghts_measure(x->p, x->psd, &x->sys, b, n, &x->o, &x->c,
                                 m, e);
    if (st == HG_OK && !(out->points = calloc((size_t)n, sizeof *out->points)))
        st = hg_fail(e, HG_ENOMEM, "out of memory");
    for (int i = 0; st == HG_OK && i < n; i++) {
        st = set_point(&out->points[i], i < nroles ? roles[i] : "scan", &m[i],
                       x->cut, x->o.skin, e);
        /* LIGGGHTS' default: half the cutoff */
        out->points[i].is_default = fabs(b[i] - 0.5 * x->cut) <= 1e-6 * b[i];
        out->n = i + 1;
    }
    free(m);
    if (st)
        return st;
    hg_engine_report_finish(out);
    out->settings_measured += n;
    return HG_OK;
}

static int validate(const hg_engine_run *run, hg_engine_report *out,
                    hg_err *e)
{
    double t0 = hg_wall_seconds();
    lig_ctx x;
    int st = lig_ctx_init(run, &x, out, e);
    hg_liggghts_optimum opt;
    if (st == HG_OK)
        st = hg_liggghts_optimise(x.psd, &x.sys, &x.c, 0.01, &opt, e);
    if (st == HG_OK) {
        double b[16];
        int n = 0;
        add_size(b, &n, 16, opt.binsize);
        add_size(b, &n, 16, opt.default_binsize);
        double scan[16];
        int ns = hg_liggghts_scan_sizes(x.cut, scan, 16);
        for (int i = 0; i < ns; i++)
            add_size(b, &n, 16, scan[i]);
        static const char *const roles[] = {"recommended", "default"};
        static const char *const same[] = {"recommended (= default)"};
        st = opt.is_default ? measure_into(&x, b, n, same, 1, out, e)
                            : measure_into(&x, b, n, roles, 2, out, e);
        out->recommended = 0;
        out->rounds = x.o.repeats;
    }
    lig_ctx_free(&x);
    if (st)
        hg_engine_report_clear(out);
    out->seconds = hg_wall_seconds() - t0;
    return st;
}

static int tune(const hg_engine_run *run, hg_engine_report *out, hg_err *e)
{
    hg_engine_report_init(out);
    double t0 = hg_wall_seconds();
    if (!run || !(run->budget > 0.0))
        return hg_fail(e, HG_EINVAL, "budget: %g seconds must be > 0",
                       run ? run->budget : NAN);
    lig_ctx x;
    int st = lig_ctx_init(run, &x, out, e);
    hg_liggghts_optimum opt = {0};
    if (st == HG_OK)
        st = hg_liggghts_optimise(x.psd, &x.sys, &x.c, 0.01, &opt, e);
    double lo = HG_LIGGGHTS_BIN_MIN * x.cut, hi = HG_LIGGGHTS_BIN_MAX * x.cut;
    double best = opt.binsize, best_t = INFINITY, f = 1.25;
    hg_liggghts_point m[4];
    /* first round: the model's optimum, the default and its neighbours */
    if (st == HG_OK) {
        double b[4];
        int n = 0;
        add_size(b, &n, 4, opt.binsize);
        add_size(b, &n, 4, opt.default_binsize);
        add_size(b, &n, 4, fmax(lo, opt.binsize / f));
        add_size(b, &n, 4, fmin(hi, opt.binsize * f));
        double b0 = hg_wall_seconds();
        st = hg_liggghts_measure(x.p, x.psd, &x.sys, b, n, &x.o, &x.c, m, e);
        double per = (hg_wall_seconds() - b0) / n;
        out->settings_measured += n;
        for (int i = 0; st == HG_OK && i < n; i++)
            if (m[i].timing.neigh < best_t) {
                best_t = m[i].timing.neigh;
                best = m[i].binsize;
            }
        /* rounds: the incumbent and a step each way, while they fit */
        while (st == HG_OK && f > 1.02 &&
               hg_wall_seconds() - t0 + per * 6 <= run->budget) {
            n = 0;
            add_size(b, &n, 4, best);
            add_size(b, &n, 4, fmax(lo, best / f));
            add_size(b, &n, 4, fmin(hi, best * f));
            if (n < 2) {
                f = sqrt(f);
                continue;
            }
            b0 = hg_wall_seconds();
            st = hg_liggghts_measure(x.p, x.psd, &x.sys, b, n, &x.o, &x.c, m,
                                     e);
            if (st)
                break;
            per = (hg_wall_seconds() - b0) / n;
            out->settings_measured += n;
            out->rounds++;
            int win = 0;
            for (int i = 1; i < n; i++)
                if (m[i].timing.neigh < m[win].timing.neigh)
                    win = i;
            if (win != 0 && m[win].timing.neigh < 0.98 * m[0].timing.neigh)
                best = m[win].binsize;
            else
                f = sqrt(f);
        }
    }
    /* the answer: tuned, the model's optimum and the default side by side */
    if (st == HG_OK) {
        double b[3];
        int n = 0;
        add_size(b, &n, 3, best);
        add_size(b, &n, 3, opt.binsize);
        add_size(b, &n, 3, opt.default_binsize);
        const char *roles[3] = {"tuned", "recommended", "default"};
        if (n == 2 && fabs(best - opt.binsize) <= 1e-6 * best)
            roles[1] = "default";
        st = measure_into(&x, b, n, roles, n, out, e);
        if (st == HG_OK) {
            out->recommended = -1;
            for (int i = 0; i < n; i++)
                if (fabs(b[i] - opt.binsize) <= 1e-6 * b[i])
                    out->recommended = i;
        }
    }
    lig_ctx_free(&x);
    if (st)
        hg_engine_report_clear(out);
    out->seconds = hg_wall_seconds() - t0;
    return st;
}

/* Bin sizes measured per packing, at most. */
enum { PER_PACKING = 16 };

/* The model's system of packing k: the first packing's from x when the
 * run gave a system, else from the packing's radii with the run's
 * structure, or without one with `plain` (measured: *snap, its pair
 * statistics, and the density they see). *psd and *snap are freed by the
 * caller, also on failure. */
static int packing_system(const hg_engine_run *run, const lig_ctx *x, int k,
                          hg_structure plain, hg_psd **psd,
                          hg_snapshot **snap, hg_liggghts_system *sys,
                          hg_err *e)
{
    const hg_particles *p = run->packings[k];
    hg_system s = {0};
    int st;
    if (k == 0 && run->sys) {
        *sys = x->sys;
        return HG_OK;
    }
    if ((st = hg_io_system_from_particles(p, psd, &s, e)))
        return st;
    s.structure = run->sys ? run->sys->structure : plain;
    if (s.structure == HG_STRUCTURE_MEASURED &&
        (st = hg_snapshot_create(p, snap, e)) == HG_OK) {
        s.snapshot = *snap;
        double nu = hg_snapshot_get_info(*snap)->nu_local;
        if (nu > 0.0 && nu < 1.0)
            s.nu = nu;
    }
    if (st == HG_OK)
        st = hg_liggghts_system_of(p, &s, x->o.skin, x->o.nprocs, sys, e);
    return st;
}

/* The pair loop alone on packing k (lists built once and kept, the
 * default bin size) at each of pair_skins times the skin: more stored
 * pairs for the same atoms (hg_pair_fit). */
static int measure_pair(const hg_engine_run *run, lig_ctx *x, int k,
                        const hg_psd *psd, const hg_liggghts_system *sys,
                        hg_err *e)
{
    hg_liggghts_run_options o = x->o;
    o.keep_lists = 1;
    o.steps = 20 * o.steps + 200; /* no build: more steps, same resolution */
    char keep[4096];
    int st = HG_OK;
    for (int f = 0; st == HG_OK && f < PAIR_SKINS; f++) {
        hg_liggghts_system s = *sys;
        s.skin = o.skin = x->o.skin * pair_skins[f];
        if (x->o.keep) {
            snprintf(keep, sizeof keep, "%s-pair%d-%d", x->o.keep, k + 1,
                     f + 1);
            o.keep = keep;
        }
        double b = hg_liggghts_default_binsize(psd, s.skin);
        hg_liggghts_point q;
        st = hg_liggghts_measure(run->packings[k], psd, &s, &b, 1, &o, NULL,
                                 &q, e);
        if (st == HG_OK) {
            int i = x->n_pair++;
            x->pairs[i] = q.timing.neighbours;
            x->atoms[i] = s.atoms / s.nprocs;
            x->pair_s[i] = q.timing.pair;
            x->group[i] = k;
        }
    }
    return st;
}

/* Measure packing k at the scan's bin sizes and LIGGGHTS' default into
 * m + *n, each point's work and Neigh time also into w and y; *n grows by
 * their number. */
static int measure_packing(const hg_engine_run *run, lig_ctx *x, int k,
                           hg_structure plain, hg_liggghts_point *m,
                           hg_liggghts_work *w, double *y, int *n, hg_err *e)
{
    hg_psd *psd = NULL;
    hg_snapshot *snap = NULL;
    hg_liggghts_system sys;
    int st = packing_system(run, x, k, plain, &psd, &snap, &sys, e);
    const hg_psd *kp = psd ? psd : x->psd;
    double b[PER_PACKING];
    int nb = 0;
    if (st == HG_OK) {
        double cut = hg_liggghts_cutoff(kp, x->o.skin);
        nb = hg_liggghts_scan_sizes(cut, b, PER_PACKING);
        add_size(b, &nb, PER_PACKING, 0.5 * cut);
        st = hg_liggghts_measure(run->packings[k], kp, &sys, b, nb, &x->o,
                                 NULL, m + *n, e);
    }
    for (int i = 0; st == HG_OK && i < nb; i++) {
        w[*n] = m[*n].work;
        y[*n] = m[*n].timing.neigh;
        (*n)++;
    }
    if (st == HG_OK)
        st = measure_pair(run, x, k, kp, &sys, e);
    hg_psd_free(psd);
    hg_snapshot_free(snap);
    return st;
}

/* c's machine and liggghts version (from out->program), and the text of
 * the fit over n bin sizes in out. */
static void describe_fit(const lig_ctx *x, int n, hg_consts *c,
                         hg_consts *pair, hg_engine_report *out)
{
    char host[64] = "?";
    gethostname(host, sizeof host);
    host[sizeof host - 1] = '\0';
    snprintf(c->machine, sizeof c->machine, "%s, %ld CPUs, %d rank%s", host,
             sysconf(_SC_NPROCESSORS_ONLN), x->o.nprocs,
             x->o.nprocs > 1 ? "s" : "");
    const char *v = strchr(out->program, '(');
    snprintf(c->version, sizeof c->version, "%.*s",
             v ? (int)strcspn(v + 1, ")") : 1, v ? v + 1 : "?");
    size_t k = (size_t)snprintf(out->fitted, sizeof out->fitted,
                                "ns per unit:");
    for (int t = 0; t < HG_LIGGGHTS_NTERMS && k < sizeof out->fitted; t++)
        k += (size_t)snprintf(out->fitted + k, sizeof out->fitted - k,
                              " %s %.3g +- %.2g",
                              hg_consts_term(&hg_liggghts_consts_kind, t),
                              1e9 * c->c[t], 1e9 * c->se[t]);
    if (k < sizeof out->fitted)
        k += (size_t)snprintf(out->fitted + k, sizeof out->fitted - k,
                              "; R^2 %.3f over %d bin sizes", c->r2, n);
    if (k < sizeof out->fitted)
        snprintf(out->fitted + k, sizeof out->fitted - k,
                 ". Pair per step: %.4g +- %.2g ns per stored pair, %.4g ns "
                 "per atom, R^2 %.3f",
                 1e9 * pair->c[0], 1e9 * pair->se[0], 1e9 * pair->c[1],
                 pair->r2);
    snprintf(pair->machine, sizeof pair->machine, "%s", c->machine);
    snprintf(pair->version, sizeof pair->version, "%s", c->version);
}

/* The n measured points m (times y) into out with c's predictions, and
 * the median and largest relative error of those. */
static int report_points(const lig_ctx *x, const hg_consts *c,
                         hg_liggghts_point *m, const double *y, int n,
                         hg_engine_report *out, hg_err *e)
{
    if (!(out->points = calloc((size_t)n, sizeof *out->points)))
        return hg_fail(e, HG_ENOMEM, "out of memory");
    double *err = malloc(sizeof *err * (size_t)n);
    if (!err)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    int st = HG_OK;
    for (int i = 0; st == HG_OK && i < n; i++) {
        m[i].predicted = hg_liggghts_predict(c, &m[i].work);
        st = set_point(&out->points[i], "calibration", &m[i],
                       m[i].work.cutoff, x->o.skin, e);
        out->n = i + 1;
        err[i] = fabs(m[i].predicted - y[i]) / y[i];
    }
    if (st == HG_OK) {
        hg_engine_report_finish(out);
        out->settings_measured = n;
        out->rounds = x->o.repeats;
        double mx = 0.0;
        for (int i = 0; i < n; i++)
            mx = fmax(mx, err[i]);
        gsl_sort(err, 1, (size_t)n);
        out->fit_median_error = gsl_stats_median_from_sorted_data(err, 1,
                                                                  (size_t)n);
        out->fit_max_error = mx;
    }
    free(err);
    return st;
}

/* c saved to run->save, else to the constants' default path; the pair
 * constants beside it (hg_consts_save_pair). */
static int save_constants(const hg_engine_run *run, const hg_consts *c,
                          const hg_consts *pair, hg_engine_report *out,
                          hg_err *e)
{
    return hg_consts_save_with_pair(&hg_liggghts_consts_kind, c,
                                    &hg_liggghts_pair_kind, pair, run->save,
                                    out->saved, sizeof out->saved, e);
}

/* calibrate --mpi P: what a ghost atom costs liggghts on P ranks, on the
 * first packing; its fit appended to the report's text and saved beside
 * the other constants with --save. */
static int calibrate_comm(const hg_engine_run *run, const lig_ctx *x,
                          hg_engine_report *out, hg_err *e)
{
    hg_liggghts_run_options o = x->o;
    char keep[4096];
    if (run->keep) {
        snprintf(keep, sizeof keep, "%s/comm", run->keep);
        o.keep = keep;
    }
    hg_code_comm_result cr;
    int st = hg_liggghts_comm_measure(run->packings[0], &o, &cr, e);
    if (st)
        return st;
    hg_consts c;
    hg_code_comm_consts(&cr, &c);
    char host[64] = "";
    gethostname(host, sizeof host - 1);
    snprintf(c.machine, sizeof c.machine, "%s, %ld online CPUs, %d ranks",
             host, sysconf(_SC_NPROCESSORS_ONLN), run->nprocs);
    const char *v = strchr(out->program, '(');
    snprintf(c.version, sizeof c.version, "%.*s",
             v ? (int)strcspn(v + 1, ")") : 1, v ? v + 1 : "?");
    size_t m = strlen(out->fitted);
    snprintf(out->fitted + m, sizeof out->fitted - m,
             ". Communication on %d ranks (%g to %g ghosts on the busiest; "
             "the ranks' average Comm, the only one LIGGGHTS prints): %.4g "
             "+- %.2g ns per ghost per step, %.4g +- %.2g ns per ghost per "
             "build, R^2 %.4f",
             run->nprocs, cr.ghosts[0], cr.ghosts[4], 1e9 * c.c[0],
             1e9 * c.se[0], 1e9 * c.c[1], 1e9 * c.se[1], c.r2);
    if (run->store) {
        char path[4096];
        st = hg_consts_save_beside(&hg_liggghts_comm_kind, &c, run->save,
                                   "comm", path, sizeof path, e);
        m = strlen(out->saved);
        if (st == HG_OK)
            snprintf(out->saved + m, sizeof out->saved - m, "%s%.2000s",
                     m ? " and " : "", path);
    }
    return st;
}

/* Calibrate on run's packings; without a system of the run, each
 * packing's structure is `plain`. */
static int calibrate_packings(const hg_engine_run *run, hg_structure plain,
                              hg_engine_report *out, hg_err *e)
{
    double t0 = hg_wall_seconds();
    lig_ctx x;
    int st = lig_ctx_init(run, &x, out, e);
    int cap = run && run->n_packings > 0 ? run->n_packings * PER_PACKING : 1;
    int n = 0;
    hg_liggghts_point *m = calloc((size_t)cap, sizeof *m);
    hg_liggghts_work *w = calloc((size_t)cap, sizeof *w);
    double *y = calloc((size_t)cap, sizeof *y);
    int pc = (run && run->n_packings > 0 ? run->n_packings : 1) * PAIR_SKINS;
    x.pairs = calloc((size_t)pc, sizeof *x.pairs);
    x.atoms = calloc((size_t)pc, sizeof *x.atoms);
    x.pair_s = calloc((size_t)pc, sizeof *x.pair_s);
    x.group = calloc((size_t)pc, sizeof *x.group);
    if (st == HG_OK &&
        (!m || !w || !y || !x.pairs || !x.atoms || !x.pair_s || !x.group))
        st = hg_fail(e, HG_ENOMEM, "out of memory");
    for (int k = 0; st == HG_OK && k < run->n_packings; k++)
        st = measure_packing(run, &x, k, plain, m, w, y, &n, e);
    hg_consts c = x.c, pair = {0};
    if (st == HG_OK)
        st = hg_liggghts_fit(w, y, n, &c, e);
    if (st == HG_OK)
        st = hg_pair_fit(&hg_liggghts_pair_kind, x.pairs, x.atoms, x.pair_s,
                         x.group, x.n_pair, &pair, e);
    if (st == HG_OK) {
        describe_fit(&x, n, &c, &pair, out);
        st = report_points(&x, &c, m, y, n, out, e);
    }
    if (st == HG_OK && run->store)
        st = save_constants(run, &c, &pair, out, e);
    if (st == HG_OK && run->nprocs > 1)
        st = calibrate_comm(run, &x, out, e);
    free(m);
    free(w);
    free(y);
    lig_ctx_free(&x);
    if (st)
        hg_engine_report_clear(out);
    out->seconds = hg_wall_seconds() - t0;
    return st;
}

/* calibrate without packings: RSA packings of three systems of its own
 * (run->atoms spheres each, run->seed), measured as if they were given
 * but priced as uniformly random centres (Poisson). */
static const struct {
    const char *psd;
    double nu;
} own_systems[] = {
    {"powerlaw:alpha=-3,rmin=1,omega=4", 0.35},
    {"uniform-size:rmin=1,rmax=8", 0.3},
    {"lognormal:median=1,sigma=0.5,rmin=0.5,rmax=4", 0.35},
};
enum { N_OWN = sizeof own_systems / sizeof own_systems[0] };

static int calibrate(const hg_engine_run *run, hg_engine_report *out,
                     hg_err *e)
{
    hg_engine_report_init(out);
    if (!run)
        return hg_fail(e, HG_EINVAL, "calibrate: no request");
    /* one file gives the scan's 7 bin sizes; the fit needs 8 points, and
     * a second system to tell the per-atom from the per-pair cost */
    if (run->n_packings == 1)
        return hg_fail(e, HG_EINVAL,
                       "--packing: calibrate --engine liggghts needs two or "
                       "more files (--packing A,B; e.g. two frames of your "
                       "run): one gives 7 bin sizes, the fit needs 8");
    if (run->n_packings > 0) /* the user's files: their own structure */
        return calibrate_packings(run, HG_STRUCTURE_MEASURED, out, e);
    if (run->atoms < 100)
        return hg_fail(e, HG_EINVAL,
                       "atoms: %ld: calibrate's own packings need >= 100",
                       run->atoms);
    hg_particles own[N_OWN];
    const hg_particles *pk[N_OWN];
    memset(own, 0, sizeof own);
    int st = HG_OK;
    for (int s = 0; st == HG_OK && s < N_OWN; s++) {
        hg_psd *psd = NULL;
        hg_psd_ctx ctx = {3, NULL};
        hg_pack_params prm = {3, (size_t)run->atoms, own_systems[s].nu,
                              (uint64_t)run->seed, 1};
        hg_pack_report rep;
        st = hg_psd_parse(own_systems[s].psd, &ctx, &psd, e);
        if (st == HG_OK)
            st = hg_pack_rsa_run(psd, &prm, NULL, &own[s], &rep, e);
        hg_psd_free(psd);
        pk[s] = &own[s];
    }
    if (st == HG_OK) {
        hg_engine_run r = *run;
        r.packings = pk;
        r.n_packings = N_OWN;
        r.sys = NULL;
        r.psd = NULL;
        st = calibrate_packings(&r, HG_STRUCTURE_POISSON, out, e);
    }
    for (int s = 0; s < N_OWN; s++)
        hg_particles_clear(&own[s]);
    return st;
}

/* ---- the answer: the best bin size of those the whole run weighs ---- */

/* The bin sizes the whole-run answer weighs (hg_liggghts_weighed_settings:
 * LIGGGHTS' default, one cutoff, the model's best), priced on this frame
 * at its skin as the whole run prices each frame; the cheapest (the first
 * of equal ones, the default before the others). */
static int answer(const hg_psd *psd, const hg_system *sys,
                  const hg_model_values *v, hg_engine_answer *out, hg_err *e)
{
    hg_consts shipped;
    const hg_consts *c = v ? v->consts : NULL;
    if (!c) {
        hg_consts_shipped(&hg_liggghts_consts_kind, &shipped);
        c = &shipped;
    }
    /* the model's parameters (liggghts-bin: atoms, skin in units of the
     * smallest diameter, ranks) as given, else their defaults */
    const hg_model *m = hg_model_find("liggghts-bin");
    double p[3];
    static const char *const names[3] = {"atoms", "skin", "ranks"};
    for (int i = 0; i < 3; i++) {
        p[i] = m->params[hg_model_param_index(m, names[i])].def;
        hg_model_values_get(v, names[i], &p[i]);
    }
    hg_liggghts_system ls = {0};
    ls.dim = sys->dim;
    ls.nu = sys->nu;
    ls.atoms = p[0];
    ls.skin = p[1] * 2.0 * hg_psd_rmin(psd);
    ls.nprocs = (int)p[2];
    ls.structure = sys->structure;
    ls.snapshot = sys->snapshot;
    hg_run_setting cand[4];
    int n = hg_liggghts_weighed_settings(psd, &ls, c, cand, 4, e);
    if (n < 0)
        return -n;
    double sec[4];
    int best = 0;
    for (int k = 0; k < n; k++) {
        int st = hg_liggghts_setting_neigh(psd, &ls, &cand[k], ls.skin, c,
                                           &sec[k], NULL, e);
        if (st)
            return st;
        if (sec[k] < sec[best])
            best = k;
    }
    double cutoff = 2.0 * hg_psd_rmax(psd) + ls.skin;
    double factor = cand[best].bin_factor;
    memset(out, 0, sizeof *out);
    out->model = m->name;
    out->levels = 1;
    out->sizes[0] = hg_run_bin_size(factor, cutoff);
    out->seconds = sec[best];
    out->default_seconds = sec[0];
    out->T = sec[best] / (c->c[0] * ls.atoms / ls.nprocs);
    snprintf(out->setting, sizeof out->setting,
             "neigh_modify binsize %.6g (%.3g x the cutoff %.6g%s)",
             out->sizes[0], factor, cutoff,
             best == 0 ? "; LIGGGHTS' default" : "");
    for (int k = 0; k < n; k++) {
        hg_engine_option *o = &out->options[k];
        o->levels = 1;
        o->sizes[0] = hg_run_bin_size(cand[k].bin_factor, cutoff);
        o->seconds = sec[k];
        o->T = NAN;
        snprintf(o->setting, sizeof o->setting, "%s: neigh_modify binsize "
                 "%.6g", cand[k].name, o->sizes[0]);
    }
    out->n_options = n;
    return HG_OK;
}

const hg_engine hg_engine_liggghts = {
    .name = "liggghts",
    .help = "LIGGGHTS' granular neighbor build: the bin size of neighbor "
            "bin (validate, calibrate and tune --engine liggghts run "
            "liggghts)",
    .code = "LIGGGHTS",
    .modelled = "LIGGGHTS' neighbor build",
    .models = models,
    .settings_format = "liggghts",
    .consts = &hg_liggghts_consts_kind,
    .comm = &hg_liggghts_comm_kind,
    .write_settings = hg_liggghts_write_settings,
    .validate = validate,
    .tune = tune,
    .calibrate = calibrate,
    .run = &hg_liggghts_run_hooks,
    .answer_kind = HG_ANSWER_SETTING,
    .answer = answer,
};
