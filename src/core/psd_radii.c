/* psd_radii.c - a distribution from radii in memory: the empirical
 * distribution of family "sample" (distributions/sample.c). */
#include "hg_psd.h"
#include "psd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int hg_psd_from_radii(const double *r, size_t n, int dim, hg_psd **out,
                      hg_err *e)
{
    *out = NULL;
    hg_gsl_quiet();
    if (dim != 2 && dim != 3)
        return hg_fail(e, HG_EINVAL, "dim: %d is not 2 or 3", dim);
    if (!r || n == 0)
        return hg_fail(e, HG_EINVAL, "radii: empty sample");
    for (size_t i = 0; i < n; i++)
        if (!(isfinite(r[i]) && r[i] > 0.0))
            return hg_fail(e, HG_EINVAL,
                           "radii[%zu]: %g must be finite and > 0", i, r[i]);
    double *copy = malloc(n * sizeof *copy);
    if (!copy)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    memcpy(copy, r, n * sizeof *copy);
    void *state = NULL;
    int st = hg_psd_sample_state(copy, n, &state, e);
    if (st)
        return st;
    return hg_psd_wrap(&hg_psd_sample, state, NULL, dim, out, e);
}
