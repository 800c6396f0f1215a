/* calibrate.c - K for MercuryDPM and the engine's runners:
 * calibrate (measure a set of grids per packing, fit K), validate (the
 * recommendation against MercuryDPM's defaults and neighbours) and tune (a
 * measured search from the model's optimum).
 *
 * The model is KOL 2014's (eq. 27: T = T_cd + K T_ca per particle); one
 * MercuryDPM step also does work every grid shares (the forces of the
 * contacts found, refilling the hash buckets), so the fit is
 *     seconds per step = N (a T_cd + b T_ca) + c_p
 * with an offset c_p per packing, and K = b / a. N counts the particles in
 * the grid, periodic ghosts included. */
#include "hg_calib.h"
#include "hg_consts.h"
#include "hg_export.h"
#include "hg_io.h"
#include "hg_mercurydpm.h"
#include "mercurydpm_engine.h"
#include "hg_model.h"
#include "hg_opt.h"
#include "hg_pack.h"
#include "hg_pack_gen.h"
#include "hg_snapshot.h"

#include <errno.h>
#include <sys/stat.h>

#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the stored and the shipped K ---- */

int hg_mercurydpm_calibration_path(char *buf, size_t len, hg_err *e)
{
    return hg_config_path("HGRIDOPT_MERCURYDPM_CALIBRATION",
                          "mercurydpm.json", "MercuryDPM calibration file",
                          buf, len, e);
}

/* The shipped K of MercuryDPM, fitted in MercuryDPM itself: the library's
 * hg_mercurydpm_calibrate (calibrate --engine mercurydpm) on three RSA
 * packings at nu 0.3 of N = 10000 spheres in periodic cubes, made with
 * `hgridopt pack --generator rsa --nu 0.3 --n 10000 --dim 3 --psd` with
 * powerlaw:alpha=0,omega=10 (uniform radii on [1, 10]),
 * powerlaw:alpha=-3,omega=10 and
 * discrete:r=0.5;2.5,frac=0.5;0.5,basis=volume (bidisperse, equal
 * volumes); 5 timed steps after 2 untimed, 5 alternating repeats, CPU time
 * of the driver; 16, 19 and 12 grids (MercuryDPM's defaults, exponential
 * L = 1..5 both algorithms, the optima for K = 0.2 .. 4); kuwt/
 * MercuryDPM_fork fb0ebf1 kernel (Release, gcc 12) on a shared 2-core
 * x86_64 Debian 12 machine, 2026-11-25: K = 0.736 +- 0.081, a = 27.1 ns
 * per pair check, b = 20.0 ns per cell access; fitted times within 8 %
 * (median), 25 % at most; Spearman of T = T_cd + K T_ca against the
 * measured times per packing 0.80, 0.92, 0.94. Earlier wall-clock
 * measurements (5000 spheres) gave least-squares K 0.36 and 1.46. */
static const double shipped_K3 = 0.74;
static const double shipped_a = 27.1e-9; /* seconds per pair check */
static const char shipped_where[] =
    "calibrate --engine mercurydpm on 3 RSA packings of 10000 spheres "
    "(uniform [1,10], r^-3 on [1,10], bidisperse 1:5), kuwt/MercuryDPM_fork "
    "fb0ebf1, 2-core x86_64 Debian 12, 2026-11-25";

double hg_mercurydpm_K_shipped(int dim, const char **where)
{
    if (where)
        *where = shipped_where;
    /* MercuryDPM's 2D grid (4 half-neighbours) was not measured; the 3D
     * value is used for both */
    return dim == 2 || dim == 3 ? shipped_K3 : NAN;
}

/* ---- the fit ---- */

int hg_mercurydpm_fit_K(const hg_mercurydpm_sample *x, int m,
                        hg_mercurydpm_fit *out, hg_err *e)
{
    memset(out, 0, sizeof *out);
    int np = 0;
    int count[8] = {0};
    for (int i = 0; i < m; i++) {
        if (x[i].packing < 0 || x[i].packing >= 8)
            return hg_fail(e, HG_EINVAL, "MercuryDPM fit: packing %d not in "
                           "0..7", x[i].packing);
        if (!(x[i].seconds > 0.0 && isfinite(x[i].seconds) && x[i].n > 0.0 &&
              isfinite(x[i].T_cd) && isfinite(x[i].T_ca)))
            return hg_fail(e, HG_EINVAL, "MercuryDPM fit: sample %d is not "
                           "finite and positive", i);
        count[x[i].packing]++;
        if (x[i].packing + 1 > np)
            np = x[i].packing + 1;
    }
    for (int p = 0; p < np; p++)
        if (count[p] < 2)
            return hg_fail(e, HG_EINVAL, "MercuryDPM fit: packing %d has %d "
                           "samples (need >= 2)", p, count[p]);
    int k = 2 + np;
    if (m < k + 1)
        return hg_fail(e, HG_EINVAL, "MercuryDPM fit: %d samples for %d "
                       "unknowns (need more)", m, k);
    /* scaled to nanoseconds for a well-conditioned matrix */
    double *X = calloc((size_t)m * (size_t)k, sizeof *X);
    double *y = malloc(sizeof *y * (size_t)m);
    if (!X || !y) {
        free(X);
        free(y);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    for (int i = 0; i < m; i++) {
        X[(size_t)i * k] = x[i].n * x[i].T_cd * 1e-9;
        X[(size_t)i * k + 1] = x[i].n * x[i].T_ca * 1e-9;
        X[(size_t)i * k + 2 + x[i].packing] = 1.0;
        y[i] = x[i].seconds;
    }
    hg_lsq f;
    int st = hg_lsq_fit(X, y, NULL, m, k, 0, &f);
    free(X);
    free(y);
    if (st == HG_ENOMEM)
        return hg_fail(e, st, "out of memory");
    if (st)
        return hg_fail(e, HG_ENUMERIC, "MercuryDPM fit: least squares "
                       "failed");
    double a = f.coef[0] * 1e-9, b = f.coef[1] * 1e-9;
    if (!(a > 0.0 && b > 0.0))
        return hg_fail(e, HG_ENUMERIC, "MercuryDPM fit: seconds per pair "
                       "check %g and per cell access %g are not both > 0 "
                       "(the settings do not separate the two costs)",
                       a, b);
    double va = f.cov[0] * 1e-18, vb = f.cov[k + 1] * 1e-18;
    double cab = f.cov[1] * 1e-18;
    out->a = a;
    out->b = b;
    out->K = b / a;
    double rel = vb / (b * b) + va / (a * a) - 2.0 * cab / (a * b);
    out->K_se = out->K * sqrt(rel > 0.0 ? rel : 0.0);
    out->n_packings = np;
    for (int p = 0; p < np; p++)
        out->c[p] = f.coef[2 + p];
    double *err = malloc(sizeof *err * (size_t)m);
    if (!err)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    for (int i = 0; i < m; i++) {
        double f = x[i].n * (a * x[i].T_cd + b * x[i].T_ca) +
                   out->c[x[i].packing];
        err[i] = fabs(f / x[i].seconds - 1.0);
        if (err[i] > out->max_error)
            out->max_error = err[i];
    }
    gsl_sort(err, 1, (size_t)m);
    out->median_error = gsl_stats_median_from_sorted_data(err, 1, (size_t)m);
    free(err);
    return HG_OK;
}

/* ---- one packing as the model sees it ---- */

typedef struct mpack {
    const hg_particles *p;
    hg_psd *own_psd;
    const hg_psd *psd;
    hg_system sys;
    hg_snapshot *snap;
} mpack;

static void mpack_clear(mpack *m)
{
    hg_psd_free(m->own_psd);
    hg_snapshot_free(m->snap);
    memset(m, 0, sizeof *m);
}

/* Packing p as the model sees it: run->sys and run->psd when given (the
 * command's view of packings[0]: use_run), else the radii and packing
 * fraction of the particles with run->sys's structure (measured: the
 * packing's own pair statistics). */
static int mpack_init(const hg_engine_run *run, const hg_particles *p,
                      int use_run, mpack *m, hg_err *e)
{
    memset(m, 0, sizeof *m);
    m->p = p;
    if (use_run && run->sys && run->psd) {
        m->psd = run->psd;
        m->sys = *run->sys;
        return HG_OK;
    }
    int st = hg_io_system_from_particles(m->p, &m->own_psd, &m->sys, e);
    if (st)
        return st;
    m->psd = m->own_psd;
    m->sys.structure = run->sys ? run->sys->structure : HG_STRUCTURE_POISSON;
    if (m->sys.structure == HG_STRUCTURE_MEASURED) {
        if ((st = hg_snapshot_create(m->p, &m->snap, e)))
            return st;
        m->sys.snapshot = m->snap;
        double nu = hg_snapshot_get_info(m->snap)->nu_local;
        if (nu > 0.0 && nu < 1.0)
            m->sys.nu = nu;
    }
    return HG_OK;
}

static const hg_model *model_of(hg_algorithm a)
{
    return hg_model_find(a == HG_TOP_DOWN ? "hgrid-top-down"
                                          : "hgrid-bottom-up");
}

/* The sizes a setting gives (MercuryDPM's exponential ones computed). */
static int setting_sizes(const mpack *m, const hg_mercurydpm_setting *s,
                         double *sizes, hg_err *e)
{
    if (s->user) {
        memcpy(sizes, s->sizes, sizeof *sizes * (size_t)s->levels);
        return HG_OK;
    }
    return hg_sizes_exponential(m->psd, s->levels, sizes, e);
}

static int predict(const mpack *m, const hg_mercurydpm_setting *s, double K,
                   hg_work *w, hg_err *e)
{
    double sizes[HG_MERCURYDPM_MAX_LEVELS];
    int st = setting_sizes(m, s, sizes, e);
    if (st)
        return st;
    hg_model_values v;
    if ((st = hg_mercurydpm_values(&v, K, e)))
        return st;
    return hg_cost_evaluate(model_of(s->algorithm), m->psd, &m->sys, &v,
                            s->levels, sizes, NULL, w, e);
}

/* The model's optimum for K: algorithm alg (HG_GRID_NONE: the better of
 * both) with at most max_levels levels. */
static int optimum(const mpack *m, double K, hg_algorithm alg, int max_levels,
                   hg_mercurydpm_setting *s, hg_err *e)
{
    hg_recommend_options o;
    hg_recommend_options_default(&o);
    o.grid_only = 1;
    o.max_levels = max_levels;
    if (alg != HG_GRID_NONE) {
        o.n_models = 1;
        o.models[0] = model_of(alg);
    }
    hg_model_values v;
    int st = hg_mercurydpm_values(&v, K, e);
    if (st)
        return st;
    hg_recommendation r;
    if ((st = hg_recommend(m->psd, &m->sys, &v, &o, &r, e)))
        return st;
    memset(s, 0, sizeof *s);
    s->algorithm = r.model->grid_algorithm == HG_BOTTOM_UP ? HG_BOTTOM_UP
                                                           : HG_TOP_DOWN;
    s->user = 1;
    s->levels = r.levels;
    for (int h = 0; h < r.levels; h++)
        s->sizes[h] = r.cell_sizes[h];
    hg_recommendation_clear(&r);
    return HG_OK;
}

/* Exponential sizes of L levels as a user setting. */
static int exponential(const mpack *m, hg_algorithm alg, int L,
                       hg_mercurydpm_setting *s, hg_err *e)
{
    memset(s, 0, sizeof *s);
    s->algorithm = alg;
    s->user = 1;
    s->levels = L;
    return hg_sizes_exponential(m->psd, L, s->sizes, e);
}

static int same_setting(const hg_mercurydpm_setting *a,
                        const hg_mercurydpm_setting *b)
{
    if (a->user != b->user || a->levels != b->levels)
        return 0;
    if (a->levels > 1 && a->algorithm != b->algorithm)
        return 0;
    for (int h = 0; a->user && h < a->levels; h++)
        if (fabs(a->sizes[h] - b->sizes[h]) > 1e-9 * fabs(b->sizes[h]))
            return 0;
    return 1;
}

/* Append s to list (n entries, room cap) unless it is there; returns its
 * index, -1 when full. */
/* s without the empty levels of user sizes equal to the one below (no
 * particle lies in (s_h, s_h]): the same grid for MercuryDPM. */
static void normalize(const hg_mercurydpm_setting *s,
                      hg_mercurydpm_setting *o)
{
    *o = *s;
    if (!s->user)
        return;
    int k = 0;
    for (int h = 0; h < s->levels; h++)
        if (k == 0 || s->sizes[h] > o->sizes[k - 1])
            o->sizes[k++] = s->sizes[h];
    for (int h = k; h < s->levels; h++)
        o->sizes[h] = 0.0;
    o->levels = k;
}

static int add_setting(hg_mercurydpm_setting *list, int *n, int cap,
                       const hg_mercurydpm_setting *s0)
{
    hg_mercurydpm_setting s;
    normalize(s0, &s);
    for (int i = 0; i < *n; i++)
        if (same_setting(&list[i], &s))
            return i;
    if (*n >= cap)
        return -1;
    list[*n] = s;
    return (*n)++;
}

static void describe(const hg_mercurydpm_setting *s, char *buf, size_t len)
{
    size_t k = (size_t)snprintf(buf, len, "%s, %d level%s",
                                s->levels == 1 ? "one grid"
                                : s->algorithm == HG_TOP_DOWN ? "TOPDOWN"
                                                              : "BOTTOMUP",
                                s->levels, s->levels == 1 ? "" : "s");
    if (!s->user) {
        if (k < len)
            snprintf(buf + k, len - k, ", EXPONENTIAL (MercuryDPM's sizes)");
        return;
    }
    for (int h = 0; h < s->levels && k < len; h++)
        k += (size_t)snprintf(buf + k, len - k, "%s%.4g", h ? " " : ", cells ",
                              s->sizes[h]);
}

/* The settings as MercuryDPM reads them: the export (a Mercury3D/2D
 * subclass, hg_export_mercurydpm) for user sizes, the setHGrid* calls for
 * MercuryDPM's own exponential sizes. */
static char *setting_lines(const mpack *m, const hg_mercurydpm_setting *s,
                           double K)
{
    char *text = NULL;
    if (s->user) {
        hg_work w;
        hg_export_input x;
        memset(&x, 0, sizeof x);
        if (predict(m, s, K, &w, NULL) != HG_OK)
            return NULL;
        x.psd = m->psd;
        x.sys = &m->sys;
        x.algorithm = s->algorithm;
        x.levels = s->levels;
        x.sizes = s->sizes;
        x.T = w.T;
        x.T_cd = w.T_cd;
        x.T_ca = w.T_ca;
        x.K = K;
        x.T_linked_cell = NAN;
        return hg_export_mercurydpm(&x, &text, NULL) == HG_OK ? text : NULL;
    }
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, "setHGridMethod(%s);\nsetHGridDistribution(EXPONENTIAL);\n"
               "setHGridMaxLevels(%d);\n",
            s->algorithm == HG_TOP_DOWN ? "TOPDOWN" : "BOTTOMUP", s->levels);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* ---- the report ---- */

static int report_add(hg_engine_report *r, const char *role, int is_default,
                      const mpack *m, double K,
                      const hg_mercurydpm_setting *s, const double *sizes,
                      double predicted, const hg_mercurydpm_timing *t,
                      hg_err *e)
{
    hg_engine_point *p = hg_engine_report_add(r, role, e);
    if (!p)
        return HG_ENOMEM;
    p->is_default = is_default;
    describe(s, p->setting, sizeof p->setting);
    p->lines = setting_lines(m, s, K);
    p->levels = s->levels;
    for (int h = 0; h < s->levels && h < 16; h++)
        p->sizes[h] = sizes[h];
    p->predicted = predicted;
    p->measured = t->seconds;
    p->measured_min = t->seconds_min;
    p->measured_max = t->seconds_max;
    p->other = t->wall;
    p->found = t->interactions;
    return HG_OK;
}

static void report_program(hg_engine_report *r, const hg_engine_run *run)
{
    char build[4096];
    hg_err e = {0};
    if (hg_mercurydpm_find(run->program, build, sizeof build, &e) == HG_OK)
        snprintf(r->program, sizeof r->program, "MercuryDPM build %.480s",
                 build);
    else
        snprintf(r->program, sizeof r->program, "MercuryDPM");
    r->unit = "CPU seconds per step (hGridActionsBeforeTimeStep + "
              "computeAllForces; other: wall seconds)";
}

/* K for MercuryDPM: stored calibration, else shipped (hg_K_resolve) and
 * the seconds per pair check a of the stored calibration or the shipped
 * fit (for predicted seconds). */
static int mercurydpm_K(int dim, double *K, double *a, char *src, size_t len,
                        hg_err *e)
{
    hg_K_request rq = {.engine = &hg_engine_mercurydpm, .dim = dim};
    hg_K_choice c;
    int st = hg_K_resolve(&rq, &c, e);
    if (st)
        return st;
    *K = c.K;
    *a = shipped_a;
    if (c.source == HG_K_SOURCE_CALIBRATION) {
        char path[4096];
        hg_calibration cal;
        if (hg_mercurydpm_calibration_path(path, sizeof path, NULL) ==
                HG_OK &&
            hg_calibration_load(path, dim, &cal, NULL) == HG_OK &&
            cal.a > 0.0)
            *a = cal.a;
    }
    snprintf(src, len, "K = %g (%s: %.300s); predicted: the detection work N a "
             "(T_cd + K T_ca), a = %.3g ns per pair check, without the work "
             "every setting shares", c.K, hg_K_source_name(c.source),
             c.detail, 1e9 * *a);
    return HG_OK;
}

static int check_run(const hg_engine_run *run, int need, hg_err *e)
{
    if (!run || run->n_packings < need ||
        (run->n_packings > 0 && !run->packings))
        return hg_fail(e, HG_EINVAL, "MercuryDPM: %d packing%s given (need "
                       ">= %d)", run ? run->n_packings : 0,
                       run && run->n_packings == 1 ? "" : "s", need);
    for (int i = 0; i < run->n_packings; i++)
        if (!run->packings[i])
            return hg_fail(e, HG_EINVAL, "MercuryDPM: packing %d is NULL", i);
    return HG_OK;
}

/* Measure list[0..n-1] on packing m; predicted work into w (K). */
static int measure(const mpack *m, const hg_mercurydpm_setting *list, int n,
                   const hg_engine_run *run, double K, hg_work *w,
                   hg_mercurydpm_timing *t, hg_err *e)
{
    int st = HG_OK;
    for (int i = 0; i < n && st == HG_OK; i++)
        st = predict(m, &list[i], K, &w[i], e);
    if (st == HG_OK)
        st = hg_mercurydpm_run(m->p, list, n, run, t, e);
    return st;
}

/* ---- calibrate ---- */

/* The systems calibrate measures when given no packing (those the shipped
 * K was fitted on): RSA packings at nu 0.3 in periodic cubes. */
typedef struct own_system {
    const char *psd;
} own_system;
static const own_system own_systems[] = {
    {"powerlaw:alpha=0,omega=10"},  /* uniform radii on [1, 10] */
    {"powerlaw:alpha=-3,omega=10"}, /* number density r^-3 */
    {"discrete:r=0.5;2.5,frac=0.5;0.5,basis=volume"}, /* bidisperse 1:5 */
};
#define N_OWN 3
#define OWN_MAX_N 20000 /* a MercuryDPM step of 10^4 spheres: ~10-50 ms */

static int own_packing(const own_system *o, const hg_engine_run *run,
                       hg_particles *p, hg_err *e)
{
    hg_psd *psd = NULL;
    hg_psd_ctx ctx = {3, NULL};
    long n = run->atoms > 0 ? run->atoms : 10000;
    if (n > OWN_MAX_N)
        n = OWN_MAX_N;
    hg_pack_params prm = {3, (size_t)n, 0.3, (uint64_t)run->seed, 1};
    hg_pack_report rep;
    int st = hg_psd_parse(o->psd, &ctx, &psd, e);
    if (st == HG_OK)
        st = hg_pack_rsa_run(psd, &prm, NULL, p, &rep, e);
    hg_psd_free(psd);
    return st;
}

#define CAL_CAP 40
#define CAL_SLOWEST 8.0 /* predicted T (K = 1) relative to the best */

int hg_mercurydpm_calibrate(const hg_engine_run *run, hg_engine_report *out,
                            hg_err *e)
{
    hg_engine_report_init(out);
    int st = check_run(run, 0, e);
    if (st)
        return st;
    if (run->n_packings > 8)
        return hg_fail(e, HG_EINVAL, "MercuryDPM calibrate: %d packings (at "
                       "most 8)", run->n_packings);
    int npk = run->n_packings ? run->n_packings : N_OWN;
    hg_particles own[N_OWN];
    memset(own, 0, sizeof own);
    double t0 = hg_wall_seconds();
    int maxL = run->max_levels > 0 ? run->max_levels : 5;
    if (maxL > 8)
        maxL = 8;
    static const double Ks[] = {0.2, 0.5, 1.0, 2.0, 4.0};
    int cap = CAL_CAP * npk;
    hg_mercurydpm_sample *x = malloc(sizeof *x * (size_t)cap);
    hg_mercurydpm_setting *list = malloc(sizeof *list * CAL_CAP);
    hg_mercurydpm_timing *t = malloc(sizeof *t * CAL_CAP);
    hg_work *w = malloc(sizeof *w * CAL_CAP);
    double *Tpred = malloc(sizeof *Tpred * (size_t)cap);
    int *first = calloc((size_t)npk + 1, sizeof *first);
    mpack m = {0};
    int nx = 0, dim = 0;
    if (!x || !list || !t || !w || !Tpred || !first) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    report_program(out, run);
    for (int i = 0; i < npk && st == HG_OK; i++) {
        const hg_particles *pi = run->n_packings ? run->packings[i] : &own[i];
        if (!run->n_packings &&
            (st = own_packing(&own_systems[i], run, &own[i], e)))
            break;
        if ((st = mpack_init(run, pi, 0, &m, e)))
            break;
        if (i == 0)
            dim = m.sys.dim;
        else if (m.sys.dim != dim) {
            st = hg_fail(e, HG_EINVAL, "MercuryDPM calibrate: packing %d is "
                         "%dD, packing 0 %dD", i, m.sys.dim, dim);
            break;
        }
        int n = 0;
        hg_mercurydpm_setting s;
        hg_mercurydpm_setting_default(&s);
        add_setting(list, &n, CAL_CAP, &s);
        for (int L = 1; L <= maxL && st == HG_OK; L++)
            for (int a = 0; a < 2 && st == HG_OK; a++)
                if ((st = exponential(&m, a ? HG_BOTTOM_UP : HG_TOP_DOWN, L,
                                      &s, e)) == HG_OK)
                    add_setting(list, &n, CAL_CAP, &s);
        for (size_t k = 0; k < sizeof Ks / sizeof Ks[0] && st == HG_OK; k++)
            for (int a = 0; a < 2 && st == HG_OK; a++)
                if ((st = optimum(&m, Ks[k], a ? HG_BOTTOM_UP : HG_TOP_DOWN,
                                  16, &s, e)) == HG_OK)
                    add_setting(list, &n, CAL_CAP, &s);
        /* leave out grids predicted far slower than the best (a single
         * level of a wide distribution costs seconds per step and tells
         * nothing the others do not) */
        double Tmin = INFINITY;
        for (int j = 0; j < n && st == HG_OK; j++)
            if ((st = predict(&m, &list[j], 1.0, &w[j], e)) == HG_OK)
                Tmin = fmin(Tmin, w[j].T);
        int kept = 0;
        for (int j = 0; j < n && st == HG_OK; j++)
            if (j == 0 || w[j].T <= CAL_SLOWEST * Tmin)
                list[kept++] = list[j];
        n = kept;
        char keep[4200];
        hg_engine_run ri = *run; /* one folder per packing */
        if (run->keep) {
            if (mkdir(run->keep, 0777) != 0 && errno != EEXIST) {
                st = hg_fail(e, HG_EIO, "--keep: cannot create '%s': %s",
                             run->keep, strerror(errno));
                break;
            }
            snprintf(keep, sizeof keep, "%s/packing-%d", run->keep, i + 1);
            ri.keep = keep;
        }
        if (st || (st = measure(&m, list, n, &ri, 1.0, w, t, e)))
            break;
        first[i] = nx;
        for (int k = 0; k < n && st == HG_OK; k++) {
            x[nx].packing = i;
            x[nx].n = t[k].with_ghosts;
            x[nx].T_cd = w[k].T_cd;
            x[nx].T_ca = w[k].T_ca;
            x[nx].seconds = t[k].seconds;
            nx++;
            double sizes[HG_MERCURYDPM_MAX_LEVELS];
            if ((st = setting_sizes(&m, &list[k], sizes, e)) == HG_OK)
                st = report_add(out, k == 0 ? "default" : "calibration", 0,
                                &m, 1.0, &list[k], sizes, NAN, &t[k], e);
        }
        out->settings_measured += n * run->repeats;
        out->rounds++;
        mpack_clear(&m);
    }
    first[npk] = nx;
    if (st)
        goto done;
    hg_mercurydpm_fit fit;
    if ((st = hg_mercurydpm_fit_K(x, nx, &fit, e)))
        goto done;
    /* predicted seconds; rank correlation per packing of the model's T */
    double worst = INFINITY;
    size_t k = 0;
    k += (size_t)snprintf(out->fitted, sizeof out->fitted,
                          "K = %.3g +- %.2g (a = %.3g ns per pair check, "
                          "b = %.3g ns per cell access); Spearman per "
                          "packing:",
                          fit.K, fit.K_se, 1e9 * fit.a, 1e9 * fit.b);
    for (int i = 0; i < npk; i++) {
        int lo = first[i], hi = first[i + 1];
        /* measured times, then the 2 n doubles GSL's Spearman works in */
        double *meas = malloc(sizeof *meas * 3 * (size_t)(hi - lo));
        if (!meas) {
            st = hg_fail(e, HG_ENOMEM, "out of memory");
            goto done;
        }
        for (int j = lo; j < hi; j++) {
            Tpred[j] = x[j].T_cd + fit.K * x[j].T_ca;
            meas[j - lo] = x[j].seconds;
            out->points[j].predicted =
                x[j].n * (fit.a * x[j].T_cd + fit.b * x[j].T_ca) + fit.c[i];
        }
        /* ranks of ties are their average, as in the engines' reports */
        double rho = hi - lo >= 2
                         ? gsl_stats_spearman(Tpred + lo, 1, meas, 1,
                                              (size_t)(hi - lo),
                                              meas + (hi - lo))
                         : NAN;
        free(meas);
        if (rho < worst)
            worst = rho;
        if (k < sizeof out->fitted)
            k += (size_t)snprintf(out->fitted + k, sizeof out->fitted - k,
                                  " %.3f", rho);
    }
    out->spearman = worst;
    out->fit_median_error = fit.median_error;
    out->fit_max_error = fit.max_error;
    snprintf(out->constants, sizeof out->constants,
             "fitted here: seconds per step = N (a T_cd + b T_ca) + c per "
             "packing, N with periodic ghosts");
    if (run->store) {
        char path[4096];
        if (run->save)
            snprintf(path, sizeof path, "%s", run->save);
        else if ((st = hg_mercurydpm_calibration_path(path, sizeof path, e)))
            goto done;
        hg_calibration cal;
        memset(&cal, 0, sizeof cal);
        cal.K = fit.K;
        cal.K_se = fit.K_se;
        cal.a = fit.a;
        cal.b = fit.b;
        cal.r2 = NAN;
        cal.dim = dim;
        const hg_particles *p0 = run->n_packings ? run->packings[0] : &own[0];
        cal.n = p0->n;
        cal.nu = hg_particles_packing_fraction(p0);
        snprintf(cal.psd, sizeof cal.psd, "%d packings in MercuryDPM", npk);
        time_t now_t = time(NULL);
        strftime(cal.created, sizeof cal.created, "%Y-%m-%dT%H:%M:%SZ",
                 gmtime(&now_t));
        hg_calibration_describe_host(&cal);
        snprintf(cal.build, sizeof cal.build, "%.250s", out->program);
        if ((st = hg_calibration_save(&cal, path, e)))
            goto done;
        snprintf(out->saved, sizeof out->saved, "%s", path);
    }
    hg_engine_report_finish(out);
    out->spearman = worst; /* per packing: the offsets differ */
done:
    mpack_clear(&m);
    for (int i = 0; i < N_OWN; i++)
        hg_particles_clear(&own[i]);
    out->seconds = hg_wall_seconds() - t0;
    free(x);
    free(list);
    free(t);
    free(w);
    free(Tpred);
    free(first);
    return st;
}

/* ---- validate ---- */

/* s with its inner sizes (not the top) scaled by f, kept non-decreasing
 * and below the top. */
static void scaled(const hg_mercurydpm_setting *s, double f,
                   hg_mercurydpm_setting *o)
{
    *o = *s;
    double top = s->sizes[s->levels - 1];
    for (int h = 0; h + 1 < s->levels; h++) {
        o->sizes[h] = fmin(s->sizes[h] * f, top);
        if (h > 0 && o->sizes[h] < o->sizes[h - 1])
            o->sizes[h] = o->sizes[h - 1];
    }
}

static int single_level(const mpack *m, hg_mercurydpm_setting *s, hg_err *e)
{
    return exponential(m, HG_TOP_DOWN, 1, s, e);
}

/* Measure list[0..n-1] on packing m and add every point to out with its
 * role and predicted seconds (N a T). */
static int measure_into(const mpack *m, const hg_mercurydpm_setting *list,
                        const char *const *roles, int n, int dflt,
                        const hg_engine_run *run, double K, double a,
                        hg_engine_report *out, hg_err *e)
{
    hg_work *w = malloc(sizeof *w * (size_t)n);
    hg_mercurydpm_timing *t = malloc(sizeof *t * (size_t)n);
    int st = !w || !t ? hg_fail(e, HG_ENOMEM, "out of memory") : HG_OK;
    if (st == HG_OK)
        st = measure(m, list, n, run, K, w, t, e);
    for (int i = 0; i < n && st == HG_OK; i++) {
        double sizes[HG_MERCURYDPM_MAX_LEVELS];
        if ((st = setting_sizes(m, &list[i], sizes, e)) == HG_OK)
            st = report_add(out, roles[i], i == dflt, m, K, &list[i], sizes,
                            t[i].with_ghosts * a * w[i].T, &t[i], e);
    }
    free(w);
    free(t);
    return st;
}

#define VAL_CAP 24

/* The rest of validate's search, after the recommendation and its
 * neighbours: MercuryDPM-style exponential sizes of 2..5 levels with
 * either algorithm and the model's optima for K/4 and 4K, the way the
 * settings of a user's trial and error spread. Settings predicted slower
 * than CAL_SLOWEST times the recommendation are left out (they cost
 * seconds per step and their rank is never in doubt). */
static int search_settings(const mpack *m, double K, int maxL,
                           hg_mercurydpm_setting *list, const char **roles,
                           int *n, hg_err *e)
{
    hg_work w0, w;
    hg_mercurydpm_setting o, d; /* d: MercuryDPM's defaults as sizes */
    hg_mercurydpm_setting_default(&d);
    int st = predict(m, &list[0], K, &w0, e);
    if (st == HG_OK)
        st = exponential(m, d.algorithm, d.levels, &d, e);
    for (int L = 2; L <= 5 && L <= maxL && st == HG_OK; L++)
        for (int a = 0; a < 2 && st == HG_OK; a++) {
            hg_algorithm alg = a ? HG_BOTTOM_UP : HG_TOP_DOWN;
            if ((st = exponential(m, alg, L, &o, e)) ||
                (st = predict(m, &o, K, &w, e)))
                break;
            int k;
            if (w.T <= CAL_SLOWEST * w0.T && !same_setting(&o, &d) &&
                (k = add_setting(list, n, VAL_CAP, &o)) == *n - 1)
                roles[k] = "exponential sizes";
        }
    static const double f[] = {0.25, 4.0};
    static const char *const fr[] = {"optimum for K / 4", "optimum for 4 K"};
    for (int i = 0; i < 2 && st == HG_OK; i++) {
        int k;
        if ((st = optimum(m, f[i] * K, HG_GRID_NONE, maxL, &o, e)) == HG_OK &&
            (k = add_setting(list, n, VAL_CAP, &o)) == *n - 1)
            roles[k] = fr[i];
    }
    return st;
}

int hg_mercurydpm_validate(const hg_engine_run *run, hg_engine_report *out,
                           hg_err *e)
{
    hg_engine_report_init(out);
    int st = check_run(run, 1, e);
    if (st)
        return st;
    double t0 = hg_wall_seconds();
    mpack m;
    if ((st = mpack_init(run, run->packings[0], 1, &m, e)))
        return st;
    double K, a;
    int maxL = run->max_levels > 0 ? run->max_levels : 16;
    if (maxL > HG_MERCURYDPM_MAX_LEVELS)
        maxL = HG_MERCURYDPM_MAX_LEVELS;
    hg_mercurydpm_setting list[VAL_CAP], s;
    const char *roles[VAL_CAP];
    int n = 0, k;
    if ((st = mercurydpm_K(m.sys.dim, &K, &a, out->constants,
                           sizeof out->constants, e)) ||
        (st = optimum(&m, K, HG_GRID_NONE, maxL, &s, e)))
        goto done;
    report_program(out, run);
    normalize(&s, &list[n]);
    roles[n++] = "recommended";
    const int dflt = n; /* MercuryDPM's default: the report's baseline */
    hg_mercurydpm_setting_default(&list[n]);
    roles[n++] = "default";
    hg_mercurydpm_setting o;
    hg_algorithm other = s.algorithm == HG_TOP_DOWN ? HG_BOTTOM_UP
                                                    : HG_TOP_DOWN;
    if (s.levels > 1 &&
        (st = optimum(&m, K, other, maxL, &o, e)) == HG_OK &&
        (k = add_setting(list, &n, VAL_CAP, &o)) == n - 1)
        roles[k] = "other algorithm";
    if (st == HG_OK && s.levels > 1 &&
        (st = optimum(&m, K, s.algorithm, s.levels - 1, &o, e)) == HG_OK &&
        (k = add_setting(list, &n, VAL_CAP, &o)) == n - 1)
        roles[k] = "one level fewer";
    if (st == HG_OK && s.levels < maxL) {
        int L = s.levels + 1;
        double T;
        hg_model_values v;
        o = s;
        o.levels = L;
        if ((st = hg_mercurydpm_values(&v, K, e)) == HG_OK &&
            (st = hg_opt_sizes(model_of(s.algorithm), m.psd, &m.sys, &v, L,
                               NULL, o.sizes, &T, e)) == HG_OK &&
            (k = add_setting(list, &n, VAL_CAP, &o)) == n - 1)
            roles[k] = "one level more";
    }
    /* the single level, unless the model puts it far beyond the
     * recommendation: its seconds per step would decide nothing */
    hg_work w1, w0;
    if (st == HG_OK && (st = single_level(&m, &o, e)) == HG_OK &&
        (st = predict(&m, &o, K, &w1, e)) == HG_OK &&
        (st = predict(&m, &list[0], K, &w0, e)) == HG_OK) {
        if (w1.T > CAL_SLOWEST * w0.T)
            snprintf(out->note, sizeof out->note,
                     "the single-level grid (cells %.6g) is left out: the "
                     "model puts it at %.3g times the recommendation's "
                     "work (over %.0f), where timing it decides nothing "
                     "and costs minutes",
                     o.sizes[0], w1.T / w0.T, CAL_SLOWEST);
        else if ((k = add_setting(list, &n, VAL_CAP, &o)) == n - 1)
            roles[k] = "single level";
    }
    if (st == HG_OK && s.levels > 1) {
        scaled(&s, 0.8, &o);
        if ((k = add_setting(list, &n, VAL_CAP, &o)) == n - 1)
            roles[k] = "inner sizes x 0.8";
        scaled(&s, 1.25, &o);
        if ((k = add_setting(list, &n, VAL_CAP, &o)) == n - 1)
            roles[k] = "inner sizes x 1.25";
    }
    if (st == HG_OK)
        st = search_settings(&m, K, maxL, list, roles, &n, e);
    if (st ||
        (st = measure_into(&m, list, roles, n, dflt, run, K, a, out, e)))
        goto done;
    out->recommended = 0;
    out->settings_measured = n * run->repeats;
    out->rounds = 1;
    hg_engine_report_finish(out);
done:
    mpack_clear(&m);
    out->seconds = hg_wall_seconds() - t0;
    return st;
}

/* ---- tune ---- */

#define TUNE_CAP 64

typedef struct tune_state {
    hg_mercurydpm_setting s[TUNE_CAP];
    hg_mercurydpm_timing t[TUNE_CAP];
    double T[TUNE_CAP]; /* model work per particle */
    int n;
} tune_state;

/* Measure the settings idx[0..k-1] of ts in one run; their timings are
 * replaced. Rounds are chained: when idx[0] (the incumbent) was measured
 * before, the round's times are scaled by its earlier time over its time
 * in this round, so that times of different rounds compare (the machine's
 * speed drifts between rounds; within one run the runner pairs them). */
static int tune_measure(const mpack *m, tune_state *ts, const int *idx, int k,
                        const hg_engine_run *run, double K, hg_err *e)
{
    hg_mercurydpm_setting list[TUNE_CAP] = {{0}};
    hg_mercurydpm_timing t[TUNE_CAP];
    hg_work w[TUNE_CAP];
    for (int i = 0; i < k; i++)
        list[i] = ts->s[idx[i]];
    double before = ts->t[idx[0]].seconds;
    int st = measure(m, list, k, run, K, w, t, e);
    double f = st == HG_OK && before > 0.0 && t[0].seconds > 0.0
                   ? before / t[0].seconds
                   : 1.0;
    for (int i = 0; i < k && st == HG_OK; i++) {
        t[i].seconds *= f;
        t[i].seconds_min *= f;
        t[i].seconds_max *= f;
        t[i].wall *= f;
        ts->t[idx[i]] = t[i];
        ts->T[idx[i]] = w[i].T;
    }
    return st;
}

int hg_mercurydpm_tune(const hg_engine_run *run, hg_engine_report *out,
                       hg_err *e)
{
    hg_engine_report_init(out);
    int st = check_run(run, 1, e);
    if (st)
        return st;
    double t0 = hg_wall_seconds();
    double budget = run->budget > 0.0 ? run->budget : 120.0;
    mpack m;
    if ((st = mpack_init(run, run->packings[0], 1, &m, e)))
        return st;
    tune_state *ts = calloc(1, sizeof *ts);
    double K, a;
    int maxL = run->max_levels > 0 ? run->max_levels : 16;
    if (maxL > HG_MERCURYDPM_MAX_LEVELS)
        maxL = HG_MERCURYDPM_MAX_LEVELS;
    if (!ts) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    report_program(out, run);
    hg_mercurydpm_setting s, o;
    if ((st = mercurydpm_K(m.sys.dim, &K, &a, out->constants,
                           sizeof out->constants, e)) ||
        (st = optimum(&m, K, HG_GRID_NONE, maxL, &s, e)))
        goto done;
    int idx[TUNE_CAP], k = 0;
    /* round 0: the optimum (0), the defaults (1), the other algorithm,
     * one level fewer and more */
    idx[k++] = add_setting(ts->s, &ts->n, TUNE_CAP, &s);
    hg_mercurydpm_setting_default(&o);
    idx[k++] = add_setting(ts->s, &ts->n, TUNE_CAP, &o);
    for (int v = 0; v < 3 && st == HG_OK; v++) {
        hg_algorithm alg = v == 0 ? (s.algorithm == HG_TOP_DOWN
                                         ? HG_BOTTOM_UP
                                         : HG_TOP_DOWN)
                                  : s.algorithm;
        int L = v == 0 ? maxL : v == 1 ? s.levels - 1 : s.levels + 1;
        if (L < 1 || L > maxL)
            continue;
        if (v == 2) {
            hg_model_values mv;
            double T;
            o = s;
            o.levels = L;
            if ((st = hg_mercurydpm_values(&mv, K, e)) == HG_OK)
                st = hg_opt_sizes(model_of(alg), m.psd, &m.sys, &mv, L, NULL,
                                  o.sizes, &T, e);
        } else {
            st = optimum(&m, K, alg, L, &o, e);
        }
        int j;
        if (st == HG_OK && (j = add_setting(ts->s, &ts->n, TUNE_CAP, &o)) >= 0)
            idx[k++] = j;
    }
    double r0 = hg_wall_seconds();
    if (st || (st = tune_measure(&m, ts, idx, k, run, K, e)))
        goto done;
    double per_setting = (hg_wall_seconds() - r0) / k;
    out->settings_measured += k * run->repeats;
    out->rounds = 1;
    int best = 0;
    for (int i = 0; i < k; i++)
        if (ts->t[idx[i]].seconds < ts->t[best].seconds)
            best = idx[i];
    double f = 1.3;
    while (st == HG_OK && f > 1.04 && ts->s[best].levels > 1) {
        hg_mercurydpm_setting c = ts->s[best];
        k = 0;
        idx[k++] = best;
        for (int h = 0; h + 1 < c.levels; h++)
            for (int sign = -1; sign <= 1; sign += 2) {
                o = c;
                o.sizes[h] = sign < 0 ? c.sizes[h] / f : c.sizes[h] * f;
                if ((h > 0 && o.sizes[h] <= o.sizes[h - 1]) ||
                    o.sizes[h] >= o.sizes[h + 1] ||
                    o.sizes[h] <= 2.0 * hg_psd_rmin(m.psd))
                    continue;
                int j = add_setting(ts->s, &ts->n, TUNE_CAP, &o);
                if (j >= 0 && j != best && k < TUNE_CAP)
                    idx[k++] = j;
            }
        if (k < 2 || hg_wall_seconds() - t0 + per_setting * k > budget)
            break;
        r0 = hg_wall_seconds();
        if ((st = tune_measure(&m, ts, idx, k, run, K, e)))
            break;
        per_setting = (hg_wall_seconds() - r0) / k;
        out->settings_measured += k * run->repeats;
        out->rounds++;
        int nb = best;
        for (int i = 1; i < k; i++)
            if (ts->t[idx[i]].seconds < ts->t[nb].seconds)
                nb = idx[i];
        if (nb != best && ts->t[nb].seconds < 0.98 * ts->t[best].seconds)
            best = nb;
        else
            f = sqrt(f);
    }
    if (st)
        goto done;
    /* the best, the optimum and the defaults side by side */
    k = 0;
    idx[k++] = best;
    if (best != 0)
        idx[k++] = 0;
    if (best != 1)
        idx[k++] = 1;
    if ((st = tune_measure(&m, ts, idx, k, run, K, e)))
        goto done;
    out->settings_measured += k * run->repeats;
    out->rounds++;
    for (int i = 0; i < ts->n && st == HG_OK; i++) {
        double sizes[HG_MERCURYDPM_MAX_LEVELS];
        const char *role = i == best ? "tuned" : i == 0 ? "recommended"
                           : i == 1 ? "default" : "searched";
        if (ts->t[i].seconds > 0.0 &&
            (st = setting_sizes(&m, &ts->s[i], sizes, e)) == HG_OK)
            st = report_add(out, role, i == 1, &m, K, &ts->s[i], sizes,
                            ts->t[i].with_ghosts * a * ts->T[i], &ts->t[i],
                            e);
        if (st == HG_OK && i == 0)
            out->recommended = out->n - 1;
    }
    if (st == HG_OK)
        hg_engine_report_finish(out);
done:
    free(ts);
    mpack_clear(&m);
    out->seconds = hg_wall_seconds() - t0;
    return st;
}
