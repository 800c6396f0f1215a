/* calibrate.c - fitting the LAMMPS cost constants to measured Neigh
 * times, storing them, and the measured search of `tune --engine lammps`.
 */
#include "consts.h"
#include "hg_io.h"
#include "hg_lammps.h"
#include "psd_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void work_terms(const hg_lammps_work *w, double *x)
{
    x[0] = w->checks;
    x[1] = w->visits;
    x[2] = w->bins;
    x[3] = w->binned;
    x[4] = w->coll_loops;
    x[5] = w->neighbours;
}

/* Weighted least squares over the active terms; 0 on success. */
static int fit_active(const hg_lammps_work *w, const double *y, int n,
                      const int *active, double *coef, double *se,
                      double *r2)
{
    int m = 0, idx[HG_LAMMPS_NTERMS];
    for (int k = 0; k < HG_LAMMPS_NTERMS; k++)
        if (active[k])
            idx[m++] = k;
    if (m == 0 || n < m + 1)
        return -1;
    gsl_matrix *X = gsl_matrix_alloc((size_t)n, (size_t)m);
    gsl_matrix *cov = gsl_matrix_alloc((size_t)m, (size_t)m);
    gsl_vector *Y = gsl_vector_alloc((size_t)n), *W = gsl_vector_alloc((size_t)n);
    gsl_vector *beta = gsl_vector_alloc((size_t)m);
    gsl_multifit_linear_workspace *ws =
        gsl_multifit_linear_alloc((size_t)n, (size_t)m);
    int rc = -1;
    if (!X || !cov || !Y || !W || !beta || !ws)
        goto done;
    for (int i = 0; i < n; i++) {
        double x[HG_LAMMPS_NTERMS];
        work_terms(&w[i], x);
        for (int j = 0; j < m; j++)
            gsl_matrix_set(X, (size_t)i, (size_t)j, x[idx[j]]);
        gsl_vector_set(Y, (size_t)i, y[i]);
        gsl_vector_set(W, (size_t)i, 1.0 / (y[i] * y[i]));
    }
    double chisq;
    if (gsl_multifit_wlinear(X, W, Y, beta, cov, &chisq, ws))
        goto done;
    double s2 = n > m ? chisq / (n - m) : 0.0;
    for (int k = 0; k < HG_LAMMPS_NTERMS; k++)
        coef[k] = se[k] = 0.0;
    for (int j = 0; j < m; j++) {
        coef[idx[j]] = gsl_vector_get(beta, (size_t)j);
        se[idx[j]] = sqrt(s2 * gsl_matrix_get(cov, (size_t)j, (size_t)j));
    }
    /* R^2 of the relative residuals around the weighted mean */
    double sw = 0, swy = 0;
    for (int i = 0; i < n; i++) {
        sw += 1.0 / (y[i] * y[i]);
        swy += 1.0 / y[i];
    }
    double ybar = swy / sw, tss = 0.0;
    for (int i = 0; i < n; i++)
        tss += (y[i] - ybar) * (y[i] - ybar) / (y[i] * y[i]);
    *r2 = tss > 0.0 ? 1.0 - chisq / tss : 0.0;
    rc = 0;
done:
    gsl_matrix_free(X);
    gsl_matrix_free(cov);
    gsl_vector_free(Y);
    gsl_vector_free(W);
    gsl_vector_free(beta);
    if (ws)
        gsl_multifit_linear_free(ws);
    return rc;
}

int hg_lammps_fit(const hg_lammps_work *w, const double *y, int n,
                  hg_lammps_consts *c, hg_err *e)
{
    if (n < HG_LAMMPS_NTERMS + 2)
        return hg_fail(e, HG_EINVAL,
                       "LAMMPS fit: %d measurements, at least %d needed", n,
                       HG_LAMMPS_NTERMS + 2);
    for (int i = 0; i < n; i++)
        if (!(y[i] > 0.0) || !isfinite(y[i]))
            return hg_fail(e, HG_EINVAL,
                           "LAMMPS fit: measured time %d is %g, not > 0", i,
                           y[i]);
    hg_gsl_quiet();
    int active[HG_LAMMPS_NTERMS];
    for (int k = 0; k < HG_LAMMPS_NTERMS; k++)
        active[k] = 1;
    double coef[HG_LAMMPS_NTERMS], se[HG_LAMMPS_NTERMS], r2 = 0.0;
    for (;;) {
        if (fit_active(w, y, n, active, coef, se, &r2))
            return hg_fail(e, HG_ENUMERIC,
                           "LAMMPS fit: least squares failed (degenerate "
                           "settings?)");
        /* drop the most negative term and refit (constants are costs) */
        int worst = -1;
        for (int k = 0; k < HG_LAMMPS_NTERMS; k++)
            if (active[k] && !(coef[k] > 0.0) &&
                (worst < 0 || coef[k] < coef[worst]))
                worst = k;
        if (worst < 0)
            break;
        active[worst] = 0;
    }
    for (int k = 0; k < HG_LAMMPS_NTERMS; k++) {
        c->c[k] = coef[k];
        c->se[k] = se[k];
    }
    c->r2 = r2;
    c->npoints = n;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(c->created, sizeof c->created, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return HG_OK;
}

int hg_lammps_consts_default_path(char *buf, size_t len, hg_err *e)
{
    const char *env = getenv("HGRIDOPT_LAMMPS_CALIBRATION");
    int k;
    if (env && *env)
        k = snprintf(buf, len, "%s", env);
    else if ((env = getenv("XDG_CONFIG_HOME")) && *env)
        k = snprintf(buf, len, "%s/hgridopt/lammps.json", env);
    else if ((env = getenv("HOME")) && *env)
        k = snprintf(buf, len, "%s/.config/hgridopt/lammps.json", env);
    else
        return hg_fail(e, HG_EINVAL,
                       "LAMMPS calibration file: neither "
                       "HGRIDOPT_LAMMPS_CALIBRATION, XDG_CONFIG_HOME nor "
                       "HOME is set");
    if (k < 0 || (size_t)k >= len)
        return hg_fail(e, HG_ELIMIT, "LAMMPS calibration file: path too "
                                     "long");
    return HG_OK;
}

/* The fields of c in the constants file. */
static code_consts_io lammps_file(hg_lammps_consts *c)
{
    return (code_consts_io){"hgridopt.lammps-calibration/1",
                            "lammps",
                            HG_LAMMPS_NTERMS,
                            hg_lammps_term_name,
                            c->c,
                            c->se,
                            &c->r2,
                            &c->npoints,
                            c->machine,
                            sizeof c->machine,
                            c->lammps,
                            sizeof c->lammps,
                            c->created,
                            sizeof c->created};
}

int hg_lammps_consts_save(const hg_lammps_consts *c, const char *path,
                          hg_err *e)
{
    hg_lammps_consts copy = *c;
    code_consts_io x = lammps_file(&copy);
    return code_consts_save(&x, path, e);
}

int hg_lammps_consts_load(const char *path, hg_lammps_consts *c, hg_err *e)
{
    memset(c, 0, sizeof *c);
    code_consts_io x = lammps_file(c);
    return code_consts_load(path, &x, e);
}

int hg_lammps_consts_auto(hg_lammps_consts *c, int *from_file, hg_err *e)
{
    char path[4096];
    *from_file = 0;
    if (hg_lammps_consts_default_path(path, sizeof path, NULL) == HG_OK &&
        access(path, R_OK) == 0) {
        int st = hg_lammps_consts_load(path, c, e);
        if (st)
            return st;
        *from_file = 1;
        return HG_OK;
    }
    hg_lammps_consts_default(c);
    return HG_OK;
}
