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
    hg_mercurydpm_pack m = {0};
    int nx = 0, dim = 0;
    if (!x || !list || !t || !w || !Tpred || !first) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    hg_mercurydpm_report_program(out, run);
    for (int i = 0; i < npk && st == HG_OK; i++) {
        const hg_particles *pi = run->n_packings ? run->packings[i] : &own[i];
        if (!run->n_packings &&
            (st = own_packing(&own_systems[i], run, &own[i], e)))
            break;
        if ((st = hg_mercurydpm_pack_init(run, pi, 0, &m, e)))
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
        hg_mercurydpm_setting_add(list, &n, CAL_CAP, &s);
        for (int L = 1; L <= maxL && st == HG_OK; L++)
            for (int a = 0; a < 2 && st == HG_OK; a++)
                if ((st = hg_mercurydpm_exponential(
                         &m, a ? HG_BOTTOM_UP : HG_TOP_DOWN, L, &s, e)) ==
                    HG_OK)
                    hg_mercurydpm_setting_add(list, &n, CAL_CAP, &s);
        for (size_t k = 0; k < sizeof Ks / sizeof Ks[0] && st == HG_OK; k++)
            for (int a = 0; a < 2 && st == HG_OK; a++)
                if ((st = hg_mercurydpm_optimum(
                         &m, Ks[k], a ? HG_BOTTOM_UP : HG_TOP_DOWN, 16, &s,
                         e)) == HG_OK)
                    hg_mercurydpm_setting_add(list, &n, CAL_CAP, &s);
        /* leave out grids predicted far slower than the best (a single
         * level of a wide distribution costs seconds per step and tells
         * nothing the others do not) */
        double Tmin = INFINITY;
        for (int j = 0; j < n && st == HG_OK; j++)
            if ((st = hg_mercurydpm_predict(&m, &list[j], 1.0, &w[j], e)) ==
                HG_OK)
                Tmin = fmin(Tmin, w[j].T);
        int kept = 0;
        for (int j = 0; j < n && st == HG_OK; j++)
            if (j == 0 || w[j].T <= HG_MERCURYDPM_SLOWEST * Tmin)
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
        if (st ||
            (st = hg_mercurydpm_measure(&m, list, n, &ri, 1.0, w, t, e)))
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
            if ((st = hg_mercurydpm_setting_sizes(&m, &list[k], sizes, e)) ==
                HG_OK)
                st = hg_mercurydpm_report_add(
                    out, k == 0 ? "default" : "calibration", 0, &m, 1.0,
                    &list[k], sizes, NAN, &t[k], e);
        }
        out->settings_measured += n * run->repeats;
        out->rounds++;
        hg_mercurydpm_pack_clear(&m);
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
    hg_mercurydpm_pack_clear(&m);
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
