/* code_fit.h - fitting an engine's cost constants (seconds per counted
 * unit) to measured times: shared by the engines' calibrations (not part
 * of the public API). */
#ifndef HG_CODE_FIT_H
#define HG_CODE_FIT_H

/* Least squares of y[i] ~ sum_k coef[k] X[i*m + k] over n rows and m
 * terms with relative residuals (weights 1/y^2, GSL multifit_wlinear);
 * a term whose constant comes out <= 0 is dropped (constant and error 0)
 * and the fit repeated. se: standard errors; r2 of the relative
 * residuals. Returns 0, or -1 when the least squares fail (fewer rows
 * than terms + 1, degenerate columns). y must be finite and > 0. */
int hg_fit_costs(const double *X, const double *y, int n, int m,
                 double *coef, double *se, double *r2);

#endif
