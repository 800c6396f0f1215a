/* fit.c - non-negative cost constants by weighted least squares
 * (consts.h). */
#include "consts.h"
#include "psd_internal.h"

#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdlib.h>

/* One weighted fit over the active terms; 0 on success. */
static int fit_active(const double *X, const double *y, const double *w,
                      int n, int m,
                      const int *active, double *coef, double *se,
                      double *r2)
{
    int k = 0, *idx = malloc(sizeof *idx * (size_t)m);
    if (!idx)
        return -1;
    for (int j = 0; j < m; j++)
        if (active[j])
            idx[k++] = j;
    if (k == 0 || n < k + 1) {
        free(idx);
        return -1;
    }
    gsl_matrix *A = gsl_matrix_alloc((size_t)n, (size_t)k);
    gsl_matrix *cov = gsl_matrix_alloc((size_t)k, (size_t)k);
    gsl_vector *Y = gsl_vector_alloc((size_t)n);
    gsl_vector *W = gsl_vector_alloc((size_t)n);
    gsl_vector *beta = gsl_vector_alloc((size_t)k);
    gsl_multifit_linear_workspace *ws =
        gsl_multifit_linear_alloc((size_t)n, (size_t)k);
    int rc = -1;
    if (!A || !cov || !Y || !W || !beta || !ws)
        goto done;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < k; j++)
            gsl_matrix_set(A, (size_t)i, (size_t)j, X[i * m + idx[j]]);
        gsl_vector_set(Y, (size_t)i, y[i]);
        gsl_vector_set(W, (size_t)i, w ? w[i] : 1.0 / (y[i] * y[i]));
    }
    double chisq;
    if (gsl_multifit_wlinear(A, W, Y, beta, cov, &chisq, ws))
        goto done;
    double s2 = n > k ? chisq / (n - k) : 0.0;
    for (int j = 0; j < m; j++)
        coef[j] = se[j] = 0.0;
    for (int j = 0; j < k; j++) {
        coef[idx[j]] = gsl_vector_get(beta, (size_t)j);
        se[idx[j]] = sqrt(s2 * gsl_matrix_get(cov, (size_t)j, (size_t)j));
    }
    /* R^2 of the weighted residuals around the weighted mean */
    double sw = 0.0, swy = 0.0;
    for (int i = 0; i < n; i++) {
        double wi = gsl_vector_get(W, (size_t)i);
        sw += wi;
        swy += wi * y[i];
    }
    double ybar = swy / sw, tss = 0.0;
    for (int i = 0; i < n; i++)
        tss += gsl_vector_get(W, (size_t)i) * (y[i] - ybar) * (y[i] - ybar);
    *r2 = tss > 0.0 ? 1.0 - chisq / tss : 0.0;
    rc = 0;
done:
    gsl_matrix_free(A);
    gsl_matrix_free(cov);
    gsl_vector_free(Y);
    gsl_vector_free(W);
    gsl_vector_free(beta);
    if (ws)
        gsl_multifit_linear_free(ws);
    free(idx);
    return rc;
}

int hg_fit_costs(const double *X, const double *y, const double *w, int n,
                 int m, double *coef, double *se, double *r2)
{
    hg_gsl_quiet();
    int *active = malloc(sizeof *active * (size_t)m), rc = 0;
    if (!active)
        return -1;
    for (int j = 0; j < m; j++)
        active[j] = 1;
    for (;;) {
        if ((rc = fit_active(X, y, w, n, m, active, coef, se, r2)))
            break;
        /* drop the most negative term and refit (constants are costs) */
        int worst = -1;
        for (int j = 0; j < m; j++)
            if (active[j] && !(coef[j] > 0.0) &&
                (worst < 0 || coef[j] < coef[worst]))
                worst = j;
        if (worst < 0)
            break;
        active[worst] = 0;
    }
    free(active);
    return rc;
}
