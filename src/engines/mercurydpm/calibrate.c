/* calibrate.c - calibrate --engine mercurydpm: MercuryDPM's K fitted to
 * grids measured in MercuryDPM on each packing given (none: on RSA
 * packings of its own, those the shipped K was fitted on); the fit is
 * hg_mercurydpm_fit_K (consts.c). */
#include "hg_calib.h"
#include "hg_mercurydpm.h"
#include "hg_pack.h"
#include "hg_pack_gen.h"
#include "mercurydpm_engine.h"

#include <errno.h>
#include <sys/stat.h>

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* What calibrate keeps across its packings. */
typedef struct calib {
    int npk;                     /* packings */
    hg_particles own[N_OWN];     /* its own, when given none */
    hg_mercurydpm_sample *x;     /* the fit's samples (room CAL_CAP npk) */
    int nx;
    int *first;                  /* packing i's samples: first[i] ..
                                    first[i + 1] - 1 */
    double *Tpred;               /* T = T_cd + K T_ca of each sample */
    hg_mercurydpm_setting *list; /* one packing's settings (CAL_CAP) */
    hg_mercurydpm_timing *t;     /* their timings */
    hg_work *w;                  /* their predicted work */
    int dim;
} calib;

static void calib_free(calib *c)
{
    for (int i = 0; i < N_OWN; i++)
        hg_particles_clear(&c->own[i]);
    free(c->x);
    free(c->list);
    free(c->t);
    free(c->w);
    free(c->Tpred);
    free(c->first);
    memset(c, 0, sizeof *c);
}

/* c for npk packings; free it with calib_free, also when this fails. */
static int calib_alloc(calib *c, int npk, hg_err *e)
{
    memset(c, 0, sizeof *c);
    c->npk = npk;
    int cap = CAL_CAP * npk;
    c->x = malloc(sizeof *c->x * (size_t)cap);
    c->list = malloc(sizeof *c->list * CAL_CAP);
    c->t = malloc(sizeof *c->t * CAL_CAP);
    c->w = malloc(sizeof *c->w * CAL_CAP);
    c->Tpred = malloc(sizeof *c->Tpred * (size_t)cap);
    c->first = calloc((size_t)npk + 1, sizeof *c->first);
    if (!c->x || !c->list || !c->t || !c->w || !c->Tpred || !c->first)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    return HG_OK;
}

/* The grids calibrate measures on packing m, into list (n of them):
 * MercuryDPM's defaults (first), exponential sizes of 1..maxL levels and
 * the model's optima for K = 0.2 .. 4, both algorithms, leaving out those
 * the model (at K = 1, their work into w) puts beyond HG_MERCURYDPM_SLOWEST
 * times the best (a single level of a wide distribution costs seconds per
 * step and tells nothing the others do not). */
static int calibration_settings(const hg_mercurydpm_pack *m, int maxL,
                                hg_mercurydpm_setting *list, hg_work *w,
                                int *n, hg_err *e)
{
    static const double Ks[] = {0.2, 0.5, 1.0, 2.0, 4.0};
    int st = HG_OK;
    hg_mercurydpm_setting s;
    *n = 0;
    hg_mercurydpm_setting_default(&s);
    hg_mercurydpm_setting_add(list, n, CAL_CAP, &s);
    for (int L = 1; L <= maxL && st == HG_OK; L++)
        for (int a = 0; a < 2 && st == HG_OK; a++)
            if ((st = hg_mercurydpm_exponential(
                     m, a ? HG_BOTTOM_UP : HG_TOP_DOWN, L, &s, e)) == HG_OK)
                hg_mercurydpm_setting_add(list, n, CAL_CAP, &s);
    for (size_t k = 0; k < sizeof Ks / sizeof Ks[0] && st == HG_OK; k++)
        for (int a = 0; a < 2 && st == HG_OK; a++)
            if ((st = hg_mercurydpm_optimum(m, Ks[k],
                                            a ? HG_BOTTOM_UP : HG_TOP_DOWN,
                                            16, &s, e)) == HG_OK)
                hg_mercurydpm_setting_add(list, n, CAL_CAP, &s);
    double Tmin = INFINITY;
    for (int j = 0; j < *n && st == HG_OK; j++)
        if ((st = hg_mercurydpm_predict(m, &list[j], 1.0, &w[j], e)) == HG_OK)
            Tmin = fmin(Tmin, w[j].T);
    int kept = 0;
    for (int j = 0; j < *n && st == HG_OK; j++)
        if (j == 0 || w[j].T <= HG_MERCURYDPM_SLOWEST * Tmin)
            list[kept++] = list[j];
    *n = kept;
    return st;
}

/* run for packing i: with run->keep, the folder packing-<i + 1> inside it
 * (keep, len bytes, holds its name). */
static int packing_run(const hg_engine_run *run, int i, hg_engine_run *ri,
                       char *keep, size_t len, hg_err *e)
{
    *ri = *run;
    if (!run->keep)
        return HG_OK;
    if (mkdir(run->keep, 0777) != 0 && errno != EEXIST)
        return hg_fail(e, HG_EIO, "--keep: cannot create '%s': %s",
                       run->keep, strerror(errno));
    snprintf(keep, len, "%s/packing-%d", run->keep, i + 1);
    ri->keep = keep;
    return HG_OK;
}

/* Packing i's measured settings (n) as samples of the fit and points of
 * the report (their predicted seconds come with the fit). */
static int add_samples(calib *c, int i, const hg_mercurydpm_pack *m, int n,
                       hg_engine_report *out, hg_err *e)
{
    int st = HG_OK;
    c->first[i] = c->nx;
    for (int k = 0; k < n && st == HG_OK; k++) {
        hg_mercurydpm_sample *x = &c->x[c->nx++];
        x->packing = i;
        x->n = c->t[k].with_ghosts;
        x->T_cd = c->w[k].T_cd;
        x->T_ca = c->w[k].T_ca;
        x->seconds = c->t[k].seconds;
        double sizes[HG_MERCURYDPM_MAX_LEVELS];
        if ((st = hg_mercurydpm_setting_sizes(m, &c->list[k], sizes, e)) ==
            HG_OK)
            st = hg_mercurydpm_report_add(out, k == 0 ? "default"
                                                      : "calibration",
                                          0, m, 1.0, &c->list[k], sizes, NAN,
                                          &c->t[k], e);
    }
    return st;
}

/* Packing i (given, else its own made here) in MercuryDPM: its grids
 * measured, its samples and points added. */
static int calibrate_packing(const hg_engine_run *run, int i, int maxL,
                             calib *c, hg_engine_report *out, hg_err *e)
{
    const hg_particles *p = run->n_packings ? run->packings[i] : &c->own[i];
    hg_mercurydpm_pack m = {0};
    hg_engine_run ri;
    char keep[4200];
    int n = 0, st = HG_OK;
    if ((!run->n_packings &&
         (st = own_packing(&own_systems[i], run, &c->own[i], e))) ||
        (st = hg_mercurydpm_pack_init(run, p, 0, &m, e)))
        goto done;
    if (i == 0)
        c->dim = m.sys.dim;
    else if (m.sys.dim != c->dim) {
        st = hg_fail(e, HG_EINVAL, "MercuryDPM calibrate: packing %d is "
                     "%dD, packing 0 %dD", i, m.sys.dim, c->dim);
        goto done;
    }
    if ((st = calibration_settings(&m, maxL, c->list, c->w, &n, e)) ||
        (st = packing_run(run, i, &ri, keep, sizeof keep, e)) ||
        (st = hg_mercurydpm_measure(&m, c->list, n, &ri, 1.0, c->w, c->t,
                                    e)))
        goto done;
    st = add_samples(c, i, &m, n, out, e);
    out->settings_measured += n * run->repeats;
    out->rounds++;
done:
    hg_mercurydpm_pack_clear(&m);
    return st;
}

/* The fit in out: its constants, each point's fitted seconds per step and
 * the rank correlation per packing of the model's T at the fitted K with
 * the measured times (the lowest into *worst). */
static int report_fit(calib *c, const hg_mercurydpm_fit *fit,
                      hg_engine_report *out, double *worst, hg_err *e)
{
    const hg_mercurydpm_sample *x = c->x;
    *worst = INFINITY;
    size_t k = 0;
    k += (size_t)snprintf(out->fitted, sizeof out->fitted,
                          "K = %.3g +- %.2g (a = %.3g ns per pair check, "
                          "b = %.3g ns per cell access); Spearman per "
                          "packing:",
                          fit->K, fit->K_se, 1e9 * fit->a, 1e9 * fit->b);
    for (int i = 0; i < c->npk; i++) {
        int lo = c->first[i], hi = c->first[i + 1];
        /* measured times, then the 2 n doubles GSL's Spearman works in */
        double *meas = malloc(sizeof *meas * 3 * (size_t)(hi - lo));
        if (!meas)
            return hg_fail(e, HG_ENOMEM, "out of memory");
        for (int j = lo; j < hi; j++) {
            c->Tpred[j] = x[j].T_cd + fit->K * x[j].T_ca;
            meas[j - lo] = x[j].seconds;
            out->points[j].predicted =
                x[j].n * (fit->a * x[j].T_cd + fit->b * x[j].T_ca) +
                fit->c[i];
        }
        /* ranks of ties are their average, as in the engines' reports */
        double rho = hi - lo >= 2
                         ? gsl_stats_spearman(c->Tpred + lo, 1, meas, 1,
                                              (size_t)(hi - lo),
                                              meas + (hi - lo))
                         : NAN;
        free(meas);
        if (rho < *worst)
            *worst = rho;
        if (k < sizeof out->fitted)
            k += (size_t)snprintf(out->fitted + k, sizeof out->fitted - k,
                                  " %.3f", rho);
    }
    out->spearman = *worst;
    out->fit_median_error = fit->median_error;
    out->fit_max_error = fit->max_error;
    snprintf(out->constants, sizeof out->constants,
             "fitted here: seconds per step = N (a T_cd + b T_ca) + c per "
             "packing, N with periodic ghosts");
    return HG_OK;
}

/* The fit stored as this dimension's entry of run->save, else of the
 * calibration file (hg_mercurydpm_calibration_path); its path into
 * out->saved. */
static int store_fit(const hg_engine_run *run, const calib *c,
                     const hg_mercurydpm_fit *fit, hg_engine_report *out,
                     hg_err *e)
{
    char path[4096];
    int st;
    if (run->save)
        snprintf(path, sizeof path, "%s", run->save);
    else if ((st = hg_mercurydpm_calibration_path(path, sizeof path, e)))
        return st;
    hg_calibration cal;
    memset(&cal, 0, sizeof cal);
    cal.K = fit->K;
    cal.K_se = fit->K_se;
    cal.a = fit->a;
    cal.b = fit->b;
    cal.r2 = NAN;
    cal.dim = c->dim;
    const hg_particles *p0 = run->n_packings ? run->packings[0] : &c->own[0];
    cal.n = p0->n;
    cal.nu = hg_particles_packing_fraction(p0);
    snprintf(cal.psd, sizeof cal.psd, "%d packings in MercuryDPM", c->npk);
    time_t now_t = time(NULL);
    strftime(cal.created, sizeof cal.created, "%Y-%m-%dT%H:%M:%SZ",
             gmtime(&now_t));
    hg_calibration_describe_host(&cal);
    snprintf(cal.build, sizeof cal.build, "%.250s", out->program);
    if ((st = hg_calibration_save(&cal, path, e)))
        return st;
    snprintf(out->saved, sizeof out->saved, "%s", path);
    return HG_OK;
}

int hg_mercurydpm_calibrate(const hg_engine_run *run, hg_engine_report *out,
                            hg_err *e)
{
    hg_engine_report_init(out);
    int st = hg_mercurydpm_run_check(run, 0, e);
    if (st)
        return st;
    if (run->n_packings > 8)
        return hg_fail(e, HG_EINVAL, "MercuryDPM calibrate: %d packings (at "
                       "most 8)", run->n_packings);
    calib c;
    double t0 = hg_wall_seconds();
    int maxL = run->max_levels > 0 ? run->max_levels : 5;
    if (maxL > 8)
        maxL = 8;
    if ((st = calib_alloc(&c, run->n_packings ? run->n_packings : N_OWN, e)))
        goto done;
    hg_mercurydpm_report_program(out, run);
    for (int i = 0; i < c.npk && st == HG_OK; i++)
        st = calibrate_packing(run, i, maxL, &c, out, e);
    c.first[c.npk] = c.nx;
    hg_mercurydpm_fit fit;
    double worst;
    if (st || (st = hg_mercurydpm_fit_K(c.x, c.nx, &fit, e)) ||
        (st = report_fit(&c, &fit, out, &worst, e)) ||
        (run->store && (st = store_fit(run, &c, &fit, out, e))))
        goto done;
    hg_engine_report_finish(out);
    out->spearman = worst; /* per packing: the offsets differ */
done:
    calib_free(&c);
    out->seconds = hg_wall_seconds() - t0;
    return st;
}
