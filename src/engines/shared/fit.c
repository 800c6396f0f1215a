/* fit.c - the weighted least squares of every fit of the engines
 * (hg_consts.h: hg_lsq_fit), and the cost constants of a code fitted
 * with it (hg_consts_fit). */
#include "hg_consts.h"
#include "psd_internal.h"

#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* One weighted fit over the active terms into out. */
static int fit_active(const double *X, const double *y, const double *w,
                      int n, int m, hg_lsq *out)
{
    int idx[HG_LSQ_MAX_TERMS], k = 0;
    for (int j = 0; j < m; j++)
        if (out->active[j])
            idx[k++] = j;
    if (k == 0 || n < k + 1)
        return HG_ENUMERIC;
    gsl_matrix *A = gsl_matrix_alloc((size_t)n, (size_t)k);
    gsl_matrix *cov = gsl_matrix_alloc((size_t)k, (size_t)k);
    gsl_vector *Y = gsl_vector_alloc((size_t)n);
    gsl_vector *W = gsl_vector_alloc((size_t)n);
    gsl_vector *beta = gsl_vector_alloc((size_t)k);
    gsl_multifit_linear_workspace *ws =
        gsl_multifit_linear_alloc((size_t)n, (size_t)k);
    int st = HG_ENOMEM;
    if (!A || !cov || !Y || !W || !beta || !ws)
        goto done;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < k; j++)
            gsl_matrix_set(A, (size_t)i, (size_t)j, X[i * m + idx[j]]);
        gsl_vector_set(Y, (size_t)i, y[i]);
        gsl_vector_set(W, (size_t)i, w ? w[i] : 1.0 / (y[i] * y[i]));
    }
    st = HG_ENUMERIC;
    double chisq;
    if (gsl_multifit_wlinear(A, W, Y, beta, cov, &chisq, ws))
        goto done;
    /* wlinear's covariance assumes known errors: scaled by the residual
     * variance */
    double s2 = n > k ? chisq / (n - k) : 0.0;
    for (int j = 0; j < m; j++)
        out->coef[j] = out->se[j] = 0.0;
    memset(out->cov, 0, sizeof out->cov);
    for (int a = 0; a < k; a++) {
        out->coef[idx[a]] = gsl_vector_get(beta, (size_t)a);
        for (int b = 0; b < k; b++)
            out->cov[idx[a] * m + idx[b]] =
                s2 * gsl_matrix_get(cov, (size_t)a, (size_t)b);
        out->se[idx[a]] = sqrt(out->cov[idx[a] * m + idx[a]]);
    }
    out->chisq = chisq;
    double sw = 0.0, swy = 0.0;
    for (int i = 0; i < n; i++) {
        double wi = gsl_vector_get(W, (size_t)i);
        sw += wi;
        swy += wi * y[i];
    }
    double ybar = swy / sw, tss = 0.0;
    for (int i = 0; i < n; i++)
        tss += gsl_vector_get(W, (size_t)i) * (y[i] - ybar) * (y[i] - ybar);
    out->r2 = tss > 0.0 ? 1.0 - chisq / tss : NAN;
    st = HG_OK;
done:
    gsl_matrix_free(A);
    gsl_matrix_free(cov);
    gsl_vector_free(Y);
    gsl_vector_free(W);
    gsl_vector_free(beta);
    if (ws)
        gsl_multifit_linear_free(ws);
    return st;
}

int hg_lsq_fit(const double *X, const double *y, const double *w, int n,
               int m, int nonneg, hg_lsq *out)
{
    memset(out, 0, sizeof *out);
    if (m < 1 || m > HG_LSQ_MAX_TERMS)
        return HG_ENUMERIC;
    hg_gsl_quiet(); /* a degenerate design must not abort the process */
    out->m = m;
    for (int j = 0; j < m; j++)
        out->active[j] = 1;
    for (;;) {
        int st = fit_active(X, y, w, n, m, out);
        if (st || !nonneg)
            return st;
        /* drop the most negative term and refit */
        int worst = -1;
        for (int j = 0; j < m; j++)
            if (out->active[j] && !(out->coef[j] > 0.0) &&
                (worst < 0 || out->coef[j] < out->coef[worst]))
                worst = j;
        if (worst < 0)
            return HG_OK;
        out->active[worst] = 0;
    }
}

int hg_consts_fit(const hg_consts_kind *k, const double *X, const double *y,
                  int n, hg_consts *c, hg_err *e)
{
    if (n < k->nterms + 2)
        return hg_fail(e, HG_EINVAL,
                       "%s fit: %d measurements, at least %d needed",
                       k->code, n, k->nterms + 2);
    for (int i = 0; i < n; i++)
        if (!(y[i] > 0.0) || !isfinite(y[i]))
            return hg_fail(e, HG_EINVAL,
                           "%s fit: measured time %d is %g, not > 0",
                           k->code, i, y[i]);
    hg_lsq f;
    int st = hg_lsq_fit(X, y, NULL, n, k->nterms, 1, &f);
    if (st == HG_ENOMEM)
        return hg_fail(e, st, "out of memory");
    if (st)
        return hg_fail(e, HG_ENUMERIC,
                       "%s fit: least squares failed (degenerate "
                       "settings?)",
                       k->code);
    for (int t = 0; t < k->nterms; t++) {
        c->c[t] = f.coef[t];
        c->se[t] = f.se[t];
    }
    c->r2 = isnan(f.r2) ? 0.0 : f.r2;
    c->npoints = n;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(c->created, sizeof c->created, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return HG_OK;
}

int hg_pair_fit(const hg_consts_kind *k, const double *pairs,
                const double *atoms, const double *y, const int *group,
                int n, hg_consts *c, hg_err *e)
{
    int ng = 0;
    for (int i = 0; i < n; i++)
        ng = group[i] + 1 > ng ? group[i] + 1 : ng;
    double sxy = 0.0, sxx = 0.0, syy = 0.0;
    int used = 0;
    for (int g = 0; g < ng; g++) {
        double mx = 0.0, my = 0.0;
        int m = 0;
        for (int i = 0; i < n; i++)
            if (group[i] == g) {
                mx += pairs[i];
                my += y[i];
                m++;
            }
        if (m < 2)
            continue;
        mx /= m;
        my /= m;
        for (int i = 0; i < n; i++)
            if (group[i] == g) {
                sxy += (pairs[i] - mx) * (y[i] - my);
                sxx += (pairs[i] - mx) * (pairs[i] - mx);
                syy += (y[i] - my) * (y[i] - my);
            }
        used++;
    }
    if (!(sxx > 0.0) || !(sxy > 0.0))
        return hg_fail(e, HG_ENUMERIC, "%s pair fit: Pair time does not grow "
                       "with the stored pairs in these measurements",
                       k->code);
    double slope = sxy / sxx, res = syy - sxy * sxy / sxx, per_atom = 0.0;
    int dof = n - used - 1;
    memset(c, 0, sizeof *c);
    c->c[0] = slope;
    c->se[0] = dof > 0 ? sqrt(res / dof / sxx) : 0.0;
    for (int i = 0; i < n; i++)
        per_atom += (y[i] - slope * pairs[i]) / atoms[i];
    c->c[1] = fmax(0.0, per_atom / n); /* se[1]: not fitted */
    c->r2 = syy > 0.0 ? 1.0 - res / syy : NAN;
    c->npoints = n;
    time_t now = time(NULL);
    strftime(c->created, sizeof c->created, "%Y-%m-%dT%H:%M:%SZ",
             gmtime(&now));
    return HG_OK;
}
