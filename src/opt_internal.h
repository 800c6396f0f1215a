/* opt_internal.h - optimiser internals shared with the benchmark (not part
 * of the public API). */
#ifndef HG_OPT_INTERNAL_H
#define HG_OPT_INTERNAL_H

#include "hg_opt.h"

/* hg_opt_sizes with an explicit NLopt algorithm (an nlopt_algorithm value)
 * and list of starts (L sizes each; NULL entries are skipped). Adds the
 * number of objective evaluations to *nevals when nevals != NULL. */
int hg_opt_sizes_with(const hg_psd *psd, const hg_system *sys,
                      hg_algorithm alg, int L, const double *const *starts,
                      int nstarts, int algorithm, double *sizes, double *T,
                      long *nevals, hg_err *e);

/* The NLopt algorithm hg_opt_sizes uses for psd: LD_LBFGS for continuous
 * distributions, LN_SBPLX for discrete ones. */
int hg_opt_default_algorithm(const hg_psd *psd);

#endif
