/* engine.c - LAMMPS as an engine: the model of its neighbor build
 * (models/lammps*.c: multi with collections, or bin) with the fitted
 * seconds per counted unit (hg_lammps_consts_kind: the stored `calibrate
 * --engine lammps --save` constants, else the shipped ones), passed to
 * the models as a value; its settings are the input-script lines of
 * --format lammps; validate, tune and calibrate run lmp. */
#include "hg_calib.h"
#include "hg_engine.h"
#include "hg_export.h"
#include "hg_io.h"
#include "hg_lammps.h"
#include "hg_pack_gen.h"
#include "lammps_engine.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const models[] = {"lammps-multi", "lammps-bin", NULL};


/* ---- running lmp ---- */

/* The model's view of p for the run: radii, dim, nu, atoms, ranks, skin
 * (run->skin, else the default of the exports), and the structure of
 * run->sys (measured: its pair statistics and the density they see). */
static int prepare(const hg_engine_run *run, const hg_particles *p,
                   const hg_system *given, hg_psd **psd,
                   hg_lammps_system *sys, hg_lammps_run_options *ro,
                   hg_err *e)
{
    double rmin = p->n ? p->r[0] : 1.0;
    for (size_t i = 1; i < p->n; i++)
        rmin = fmin(rmin, p->r[i]);
    double skin = run->skin > 0.0 ? run->skin : 0.2 * rmin;
    int st = hg_lammps_system_of(p, skin, run->nprocs, psd, sys, e);
    if (st)
        return st;
    if (given) {
        sys->structure = given->structure;
        sys->snapshot = given->snapshot;
        if (given->snapshot && given->structure == HG_STRUCTURE_MEASURED)
            sys->nu = given->nu;
    }
    hg_lammps_run_options_default(ro);
    ro->lmp = run->program;
    ro->nprocs = run->nprocs;
    ro->keep = run->keep;
    ro->steps = run->steps;
    ro->warmup = run->warmup;
    ro->repeats = run->repeats;
    ro->skin = skin;
    ro->structure = sys->structure;
    ro->progress = run->progress;
    ro->progress_params = run->progress_params;
    return HG_OK;
}

static int add_point(hg_engine_report *r, const char *role, int is_default,
                     const hg_lammps_point *lp, double skin, double dmax,
                     hg_err *e)
{
    hg_engine_point *q = hg_engine_report_add(r, role, e);
    if (!q)
        return HG_ENOMEM;
    q->is_default = is_default;
    hg_lammps_setting_text(&lp->setting, q->setting, sizeof q->setting);
    q->levels = lp->setting.ncoll ? lp->setting.ncoll : 1;
    if (lp->setting.ncoll)
        for (int i = 0; i < lp->setting.ncoll && i < 16; i++)
            q->sizes[i] = lp->setting.cut[i];
    else
        q->sizes[0] = dmax; /* bin: one cutoff, the largest diameter */
    int st = hg_lammps_lines(&lp->setting, skin, dmax, &q->lines, e);
    if (st)
        return st;
    q->predicted = lp->predicted > 0.0 ? lp->predicted : NAN;
    q->measured = lp->timing.neigh;
    q->measured_min = lp->timing.neigh_min;
    q->measured_max = lp->timing.neigh_max;
    q->other = lp->timing.pair;
    q->found = lp->timing.neighbours;
    q->model_found = lp->work.neighbours;
    return HG_OK;
}

static int program_text(const hg_engine_run *run, hg_engine_report *r,
                        char *version, size_t vlen, hg_err *e)
{
    char lmp[4096];
    int st = hg_lammps_find(run->program, lmp, sizeof lmp, e);
    if (!st)
        st = hg_lammps_version(lmp, version, vlen, e);
    if (!st)
        snprintf(r->program, sizeof r->program, "%.400s (LAMMPS %.60s)", lmp,
                 version);
    return st;
}

static void report_start(hg_engine_report *r)
{
    hg_engine_report_init(r);
    r->unit = "Neigh seconds per build";
}

static int constants_text(hg_consts *k, hg_engine_report *r,
                          hg_err *e)
{
    int st = hg_engine_constants_text(&hg_engine_lammps, 3, r->constants,
                                      sizeof r->constants, e);
    return st ? st : hg_engine_consts(&hg_engine_lammps, 3, k, NULL, 0, e);
}

/* The start of validate and tune on packings[0]: the report, lmp and
 * its version, the constants, the model's view of the packing and the
 * run options (*psd freed by the caller, also on failure). */
static int start_one(const hg_engine_run *run, const char *cmd,
                     hg_engine_report *r, hg_consts *k, hg_psd **psd,
                     hg_lammps_system *sys, hg_lammps_run_options *ro,
                     hg_err *e)
{
    report_start(r);
    if (run->n_packings < 1 || !run->packings[0])
        return hg_fail(e, HG_EINVAL, "%s --engine lammps: no packing", cmd);
    char version[64];
    int st = program_text(run, r, version, sizeof version, e);
    if (st || (st = constants_text(k, r, e)))
        return st;
    return prepare(run, run->packings[0], run->sys, psd, sys, ro, e);
}

/* validate: the model's recommendation, bin, and the model's best
 * settings with one collection fewer and one more, in one lmp run. */
static int validate(const hg_engine_run *run, hg_engine_report *r, hg_err *e)
{
    const hg_particles *p = run->packings ? run->packings[0] : NULL;
    hg_consts k;
    hg_psd *psd = NULL;
    hg_lammps_system sys;
    hg_lammps_run_options ro;
    hg_lammps_optimum opt;
    int st;
    if ((st = start_one(run, "validate", r, &k, &psd, &sys, &ro, e)) ||
        (st = hg_lammps_optimise(psd, &sys, &k, run->max_levels, 0.01, &opt,
                                 e))) {
        hg_psd_free(psd);
        return st;
    }
    hg_lammps_setting set[4];
    const char *role[4];
    int n = 0, nb = opt.best.ncoll;
    set[n] = opt.best;
    role[n++] = "recommended";
    if (nb != 0) {
        set[n] = opt.by_n[0];
        role[n++] = "bin";
    }
    if (nb >= 2) {
        set[n] = opt.by_n[nb - 1];
        role[n++] = "one fewer";
    }
    int up = nb == 0 ? 2 : nb + 1;
    if (up <= run->max_levels && isfinite(opt.by_n_seconds[up])) {
        set[n] = opt.by_n[up];
        role[n++] = nb == 0 ? "multi 2" : "one more";
    }
    hg_lammps_point pts[4];
    double dmax = 2.0 * hg_psd_rmax(psd);
    st = hg_lammps_measure(p, set, n, &ro, &k, pts, e);
    for (int i = 0; st == HG_OK && i < n; i++)
        st = add_point(r, role[i], set[i].ncoll == 0, &pts[i], ro.skin, dmax,
                       e);
    r->recommended = 0;
    r->settings_measured = n * ro.repeats;
    hg_engine_report_finish(r);
    hg_psd_free(psd);
    return st;
}

/* tune: hg_lammps_tune's measured search; points bin, the model's
 * optimum and the fastest found. */
static int tune(const hg_engine_run *run, hg_engine_report *r, hg_err *e)
{
    const hg_particles *p = run->packings ? run->packings[0] : NULL;
    hg_consts k;
    hg_psd *psd = NULL;
    hg_lammps_system sys;
    hg_lammps_run_options ro;
    hg_lammps_tune_result tr;
    int st;
    if ((st = start_one(run, "tune", r, &k, &psd, &sys, &ro, e)) ||
        (st = hg_lammps_tune(p, &k, &ro, run->budget, run->max_levels, &tr,
                             e))) {
        hg_psd_free(psd);
        return st;
    }
    double dmax = 2.0 * hg_psd_rmax(psd);
    if (!(st = add_point(r, "default", 1, &tr.bin, ro.skin, dmax, e)) &&
        !(st = add_point(r, "model optimum", 0, &tr.model, ro.skin, dmax,
                         e)))
        st = add_point(r, "tuned", 0, &tr.best, ro.skin, dmax, e);
    r->recommended = 1;
    r->settings_measured = tr.settings;
    r->rounds = tr.rounds;
    r->seconds = tr.seconds;
    hg_engine_report_finish(r);
    hg_psd_free(psd);
    return st;
}

/* calibrate: the calibration grid on each packing (or on RSA packings of
 * three systems of its own), one weighted least-squares fit. */
static const struct {
    const char *psd;
    int dim;
    double nu;
} own_systems[] = {
    {"powerlaw:alpha=-3,omega=20", 3, 0.4},
    {"lognormal:median=1,sigma=0.5,qmin=0.01,qmax=0.99", 3, 0.4},
    {"powerlaw:alpha=-3,omega=20", 2, 0.4},
};

static const char *const system_role[16] = {
    "system 1",  "system 2",  "system 3",  "system 4",  "system 5",
    "system 6",  "system 7",  "system 8",  "system 9",  "system 10",
    "system 11", "system 12", "system 13", "system 14", "system 15",
    "system 16"};

/* calibration settings per system, at most; skins of the pair loop's
 * measurements */
enum { PER_SYSTEM = 10, PAIR_SKINS = 4 };

/* The measured points of all systems, with the skin, largest diameter
 * and role add_point needs of each. */
/* The pair loop over kept lists: Pair seconds per step, the stored
 * pairs LAMMPS counted, atoms per rank. */
typedef struct pair_point {
    double seconds, neighbours, atoms;
    int system;
} pair_point;

typedef struct cal_points {
    hg_lammps_point *pts;
    double *skins, *dmaxs;
    const char **names;
    int n;
    pair_point *pair;
    int n_pair;
} cal_points;

/* The RSA packing of own system s (run->atoms atoms, run->seed). */
static int own_packing(const hg_engine_run *run, int s, hg_particles *own,
                       hg_err *e)
{
    hg_psd *psd = NULL;
    hg_psd_ctx ctx = {own_systems[s].dim, NULL};
    hg_pack_params prm = {own_systems[s].dim, (size_t)run->atoms,
                          own_systems[s].nu, (uint64_t)run->seed, 1};
    hg_pack_report rep;
    int st = hg_psd_parse(own_systems[s].psd, &ctx, &psd, e);
    if (st == HG_OK)
        st = hg_pack_rsa_run(psd, &prm, NULL, own, &rep, e);
    hg_psd_free(psd);
    return st;
}

/* The calibration grid measured on system s (run->packings[s], else own
 * system s), appended to cp (room for PER_SYSTEM more points). */
static int measure_system(const hg_engine_run *run, int s, cal_points *cp,
                          hg_err *e)
{
    hg_particles own = {0};
    const hg_particles *p = run->n_packings ? run->packings[s] : &own;
    hg_psd *psd = NULL;
    int st = run->n_packings ? HG_OK : own_packing(run, s, &own, e);
    hg_lammps_system sys;
    hg_lammps_run_options ro;
    if (st == HG_OK)
        st = prepare(run, p, NULL, &psd, &sys, &ro, e);
    /* the user's files are priced with their own pair statistics, as the
     * advice prices them; the own RSA packings as uniformly random */
    if (run->n_packings)
        ro.structure = HG_STRUCTURE_MEASURED;
    char keep[4096];
    if (st == HG_OK && run->keep) { /* one folder per system */
        if (mkdir(run->keep, 0777) != 0 && errno != EEXIST)
            st = hg_fail(e, HG_EIO, "--keep: cannot create '%s': %s",
                         run->keep, strerror(errno));
        snprintf(keep, sizeof keep, "%s/system%d", run->keep, s + 1);
        ro.keep = keep;
    }
    hg_lammps_setting set[PER_SYSTEM];
    int n = st == HG_OK ? hg_lammps_calibration_settings(psd, set, PER_SYSTEM)
                        : 0;
    if (st == HG_OK)
        st = hg_lammps_measure(p, set, n, &ro, NULL, cp->pts + cp->n, e);
    for (int i = 0; st == HG_OK && i < n; i++) {
        cp->skins[cp->n] = ro.skin;
        cp->dmaxs[cp->n] = 2.0 * hg_psd_rmax(psd);
        cp->names[cp->n++] = system_role[s < 16 ? s : 15];
    }
    /* the pair loop alone (lists kept) with bin at 1 to 10 times the
     * skin: more stored pairs for the same atoms, which separates its cost
     * per stored pair from its cost per atom */
    static const double pair_skins[PAIR_SKINS] = {1.0, 3.0, 6.0, 10.0};
    ro.keep_lists = 1;
    ro.steps = 20 * ro.steps + 200; /* a step costs no build: more steps
                                       for the same timer resolution */
    double skin0 = ro.skin;
    for (int f = 0; st == HG_OK && f < PAIR_SKINS; f++) {
        if (run->keep) {
            snprintf(keep, sizeof keep, "%s/system%d-pair%d", run->keep,
                     s + 1, f + 1);
            ro.keep = keep;
        }
        hg_lammps_point q;
        st = hg_lammps_measure(p, set, 1, &ro, NULL, &q, e);
        if (st == HG_OK)
            cp->pair[cp->n_pair++] = (pair_point){
                q.timing.pair, q.timing.neighbours,
                q.work.binned - q.work.ghosts, s};
        ro.skin = skin0 * pair_skins[f + 1 < PAIR_SKINS ? f + 1 : f];
    }
    hg_particles_clear(&own);
    hg_psd_free(psd);
    return st;
}

/* hg_lammps_fit of the points' work against their Neigh times. */
static int fit_points(const cal_points *cp, hg_consts *k, hg_err *e)
{
    hg_lammps_work *w = malloc(sizeof *w * (size_t)cp->n);
    double *y = malloc(sizeof *y * (size_t)cp->n);
    int st = HG_OK;
    if (!w || !y)
        st = hg_fail(e, HG_ENOMEM, "out of memory");
    for (int i = 0; st == HG_OK && i < cp->n; i++) {
        w[i] = cp->pts[i].work;
        y[i] = cp->pts[i].timing.neigh;
    }
    if (st == HG_OK)
        st = hg_lammps_fit(w, y, cp->n, k, e);
    free(w);
    free(y);
    return st;
}

/* The pair loop's constants (hg_lammps_pair_kind) of the points. */
static int fit_pair(const cal_points *cp, hg_consts *k, hg_err *e)
{
    int n = cp->n_pair;
    double *x = malloc(sizeof *x * 3 * (size_t)(n + 1));
    int *g = malloc(sizeof *g * (size_t)(n + 1));
    int st = x && g ? HG_OK : hg_fail(e, HG_ENOMEM, "out of memory");
    for (int i = 0; st == HG_OK && i < n; i++) {
        x[i] = cp->pair[i].neighbours;
        x[n + i] = cp->pair[i].atoms;
        x[2 * n + i] = cp->pair[i].seconds;
        g[i] = cp->pair[i].system;
    }
    if (st == HG_OK)
        st = hg_pair_fit(&hg_lammps_pair_kind, x, x + n, x + 2 * n, g, n, k,
                         e);
    free(x);
    free(g);
    return st;
}

/* k's machine and lmp version, and the fit's text in the report. */
static void describe_fit(const hg_engine_run *run, const char *version,
                         int npts, hg_consts *k, hg_consts *pair,
                         hg_engine_report *r)
{
    char host[64] = "";
    gethostname(host, sizeof host - 1);
    snprintf(k->machine, sizeof k->machine, "%s, %ld online CPUs, %d rank%s",
             host, sysconf(_SC_NPROCESSORS_ONLN), run->nprocs,
             run->nprocs == 1 ? "" : "s");
    snprintf(k->version, sizeof k->version, "%s", version);
    size_t m = (size_t)snprintf(r->fitted, sizeof r->fitted, "ns per unit:");
    for (int t = 0; t < HG_LAMMPS_NTERMS && m < sizeof r->fitted; t++)
        m += (size_t)snprintf(r->fitted + m, sizeof r->fitted - m,
                              " %s %.4g +- %.2g%s",
                              hg_consts_term(&hg_lammps_consts_kind, t),
                              1e9 * k->c[t], 1e9 * k->se[t],
                              k->c[t] == 0.0 ? " (dropped: not > 0)" : "");
    if (m < sizeof r->fitted)
        m += (size_t)snprintf(r->fitted + m, sizeof r->fitted - m,
                              "; R^2 %.4f over %d measurements", k->r2, npts);
    if (m < sizeof r->fitted)
        snprintf(r->fitted + m, sizeof r->fitted - m,
                 ". Pair per step: %.4g +- %.2g ns per stored pair, %.4g +- "
                 "%.2g ns per atom, R^2 %.4f",
                 1e9 * pair->c[0], 1e9 * pair->se[0], 1e9 * pair->c[1],
                 1e9 * pair->se[1], pair->r2);
    snprintf(pair->machine, sizeof pair->machine, "%s", k->machine);
    snprintf(pair->version, sizeof pair->version, "%s", version);
    snprintf(r->constants, sizeof r->constants, "fitted here (%s)",
             k->machine);
}

/* The points into the report with k's predictions, and the median and
 * largest relative error of those (the median over the first 1024). */
static int report_points(cal_points *cp, const hg_consts *k,
                         hg_engine_report *r, hg_err *e)
{
    double med[1024];
    int nm = 0, st = HG_OK;
    hg_lammps_point *pts = cp->pts;
    for (int i = 0; st == HG_OK && i < cp->n; i++) {
        pts[i].predicted = hg_lammps_predict(k, &pts[i].work);
        st = add_point(r, cp->names[i], 0, &pts[i], cp->skins[i],
                       cp->dmaxs[i], e);
        double rel = fabs(pts[i].predicted / pts[i].timing.neigh - 1.0);
        if (nm < 1024)
            med[nm++] = rel;
        r->fit_max_error = fmax(r->fit_max_error, rel);
    }
    if (st == HG_OK && nm) {
        for (int i = 1; i < nm; i++) /* insertion sort: nm is small */
            for (int j = i; j > 0 && med[j] < med[j - 1]; j--) {
                double t = med[j];
                med[j] = med[j - 1];
                med[j - 1] = t;
            }
        r->fit_median_error = nm % 2 ? med[nm / 2]
                                     : 0.5 * (med[nm / 2 - 1] + med[nm / 2]);
    }
    return st;
}

/* k and the pair constants saved (hg_consts_save_with_pair). */
static int save_constants(const hg_engine_run *run, const hg_consts *k,
                          const hg_consts *pair, hg_engine_report *r,
                          hg_err *e)
{
    return hg_consts_save_with_pair(&hg_lammps_consts_kind, k,
                                    &hg_lammps_pair_kind, pair, run->save,
                                    r->saved, sizeof r->saved, e);
}

/* calibrate --mpi P: what a ghost atom costs lmp on P ranks, on the first
 * packing (or the first own system), its fit appended to the report's
 * text and saved beside the other constants with --save. */
static int calibrate_comm(const hg_engine_run *run, const char *version,
                          hg_engine_report *r, hg_err *e)
{
    hg_particles own = {0};
    const hg_particles *p = run->n_packings ? run->packings[0] : &own;
    hg_psd *psd = NULL;
    int st = run->n_packings ? HG_OK : own_packing(run, 0, &own, e);
    hg_lammps_system sys;
    hg_lammps_run_options ro;
    if (st == HG_OK)
        st = prepare(run, p, NULL, &psd, &sys, &ro, e);
    char keep[4096];
    if (st == HG_OK && run->keep) {
        snprintf(keep, sizeof keep, "%s/comm", run->keep);
        ro.keep = keep;
    }
    hg_code_comm_result cr;
    if (st == HG_OK)
        st = hg_lammps_comm_measure(p, &ro, &cr, e);
    hg_consts c;
    if (st == HG_OK) {
        hg_code_comm_consts(&cr, &c);
        char host[64] = "";
        gethostname(host, sizeof host - 1);
        snprintf(c.machine, sizeof c.machine, "%s, %ld online CPUs, %d ranks",
                 host, sysconf(_SC_NPROCESSORS_ONLN), run->nprocs);
        snprintf(c.version, sizeof c.version, "%s", version);
        size_t m = strlen(r->fitted);
        snprintf(r->fitted + m, sizeof r->fitted - m,
                 ". Communication on %d ranks (%g to %g ghosts on the "
                 "busiest): %.4g +- %.2g ns per ghost per step, %.4g +- "
                 "%.2g ns per ghost per build, R^2 %.4f",
                 run->nprocs, cr.ghosts[0], cr.ghosts[4],
                 1e9 * c.c[0], 1e9 * c.se[0], 1e9 * c.c[1], 1e9 * c.se[1],
                 c.r2);
    }
    if (st == HG_OK && run->store) {
        char path[4096];
        st = hg_consts_save_beside(&hg_lammps_comm_kind, &c, run->save,
                                   "comm", path, sizeof path, e);
        size_t m = strlen(r->saved);
        if (st == HG_OK)
            snprintf(r->saved + m, sizeof r->saved - m, "%s%.2000s",
                     m ? " and " : "", path);
    }
    hg_particles_clear(&own);
    hg_psd_free(psd);
    return st;
}

static int calibrate(const hg_engine_run *run, hg_engine_report *r,
                     hg_err *e)
{
    report_start(r);
    char version[64];
    int st = program_text(run, r, version, sizeof version, e);
    if (st)
        return st;
    int nsys = run->n_packings ? run->n_packings
                               : (int)(sizeof own_systems /
                                       sizeof own_systems[0]);
    size_t cap = (size_t)nsys * PER_SYSTEM;
    cal_points cp = {0};
    cp.pts = calloc(cap, sizeof *cp.pts);
    cp.skins = calloc(cap, sizeof *cp.skins);
    cp.dmaxs = calloc(cap, sizeof *cp.dmaxs);
    cp.names = calloc(cap, sizeof *cp.names);
    cp.pair = calloc((size_t)nsys * PAIR_SKINS, sizeof *cp.pair);
    if (!cp.pts || !cp.skins || !cp.dmaxs || !cp.names || !cp.pair)
        st = hg_fail(e, HG_ENOMEM, "out of memory");
    for (int s = 0; st == HG_OK && s < nsys; s++)
        st = measure_system(run, s, &cp, e);
    hg_consts k = {0}, pair = {0};
    if (st == HG_OK)
        st = fit_points(&cp, &k, e);
    if (st == HG_OK)
        st = fit_pair(&cp, &pair, e);
    if (st == HG_OK) {
        describe_fit(run, version, cp.n, &k, &pair, r);
        st = report_points(&cp, &k, r, e);
    }
    r->settings_measured = cp.n * run->repeats;
    if (st == HG_OK && run->store)
        st = save_constants(run, &k, &pair, r, e);
    if (st == HG_OK && run->nprocs > 1)
        st = calibrate_comm(run, version, r, e);
    hg_engine_report_finish(r);
    r->recommended = -1;
    free(cp.pts);
    free(cp.skins);
    free(cp.dmaxs);
    free(cp.names);
    free(cp.pair);
    return st;
}

/* K of the KOL grid written as LAMMPS settings (--format lammps with a
 * grid model): LAMMPS checks a distance per pair, like the bundled HGrid,
 * so the bundled HGrid's K stands for it (LAMMPS' own models have no K) */
static const hg_engine_K K = {
    .target = "LAMMPS",
    .article = "",
    .own = 0,
    .shipped_for = "the bundled HGrid",
    .shipped = hg_K_shipped,
    .calibration_path = hg_calibration_default_path,
};

const hg_engine hg_engine_lammps = {
    .name = "lammps",
    .help = "LAMMPS' neighbor build, multi or bin (validate, calibrate and "
            "tune --engine lammps run lmp)",
    .code = "LAMMPS",
    .modelled = "LAMMPS' neighbor build",
    .models = models,
    .settings_format = "lammps",
    .K = &K,
    .consts = &hg_lammps_consts_kind,
    .comm = &hg_lammps_comm_kind,
    .write_settings = hg_lammps_write_settings,
    .answer_kind = HG_ANSWER_COLLECTIONS,
    .answer = hg_lammps_answer,
    .evaluate = hg_lammps_evaluate,
    .validate = validate,
    .tune = tune,
    .calibrate = calibrate,
    .run = &hg_lammps_run_hooks,
};
