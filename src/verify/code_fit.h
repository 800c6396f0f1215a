/* code_fit.h - fitting an engine's cost constants (seconds per counted
 * unit) to measured times: shared by the engines' calibrations (not part
 * of the public API). */
#ifndef HG_CODE_FIT_H
#define HG_CODE_FIT_H

/* Least squares of y[i] ~ sum_k coef[k] X[i*m + k] over n rows and m
 * terms with weights w[i] (NULL: 1/y^2, relative residuals; y then finite
 * and > 0), GSL multifit_wlinear; a term whose constant comes out <= 0 is
 * dropped (constant and error 0) and the fit repeated. se: standard
 * errors; r2 of the weighted residuals around the weighted mean. Returns
 * 0, or -1 when the least squares fail (fewer rows than terms + 1,
 * degenerate columns). */
int hg_fit_costs(const double *X, const double *y, const double *w, int n,
                 int m, double *coef, double *se, double *r2);

#endif
