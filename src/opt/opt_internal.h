/* opt_internal.h - optimiser internals shared with the benchmark (not part
 * of the public API). */
#ifndef HG_OPT_INTERNAL_H
#define HG_OPT_INTERNAL_H

#include "hg_opt.h"

/* hg_opt_sizes with an explicit NLopt algorithm (an nlopt_algorithm value)
 * and list of starts (L sizes each; NULL entries are skipped). Adds the
 * number of objective evaluations to *nevals when nevals != NULL. */
int hg_opt_sizes_with(const hg_model *m, const hg_psd *psd,
                      const hg_system *sys, const hg_model_values *v, int L,
                      const double *const *starts, int nstarts, int algorithm,
                      double *sizes, double *T, long *nevals, hg_err *e);

/* Pseudo-algorithm for hg_opt_sizes_with: LD_LBFGS on a smoothed gradient
 * (hg_model_input.smooth = 0.02), then an LN_SBPLX polish on the exact T.
 * Used for discrete distributions. */
#define HG_OPT_SMOOTHED_THEN_SBPLX (-1)

/* The NLopt algorithm hg_opt_sizes uses for psd: LD_LBFGS for continuous
 * distributions, HG_OPT_SMOOTHED_THEN_SBPLX for discrete ones. */
int hg_opt_default_algorithm(const hg_psd *psd);

/* hg_sizes_constant_m with a relative root tolerance tol (the public
 * function uses 1e-13; starting points of the optimiser need less). */
int hg_sizes_constant_m_tol(const hg_psd *psd, int dim, int L, double q,
                            double tol, double *sizes, hg_err *e);

#endif
