/* fuzz_psd_check.h - properties every accepted distribution must have:
 * finite range, M_0 = 1, finite non-negative partial moments, quantiles in
 * the range and a monotone CDF in [0, 1]. */
#ifndef HG_FUZZ_PSD_CHECK_H
#define HG_FUZZ_PSD_CHECK_H

#include <math.h>

#include "fuzz_common.h"
#include "hg_psd.h"

static inline void fuzz_check_psd(const hg_psd *psd)
{
    double rmin = hg_psd_rmin(psd), rmax = hg_psd_rmax(psd);
    fuzz_check(isfinite(rmin) && isfinite(rmax) && rmin > 0 && rmax >= rmin,
               "radius range finite, 0 < rmin <= rmax");
    fuzz_check(fabs(hg_psd_moment(psd, 0, 0.0, rmax) - 1.0) < 1e-6,
               "M_0 = 1");
    static const double us[] = {1e-9, 0.01, 0.25, 0.5, 0.75, 0.99, 1 - 1e-9};
    double prev_q = rmin, prev_c = 0.0;
    for (size_t i = 0; i < sizeof us / sizeof *us; i++) {
        double q = hg_psd_quantile(psd, us[i]);
        fuzz_check(isfinite(q) && q >= rmin && q <= rmax,
                   "quantile finite and in [rmin, rmax]");
        /* root finders stop at a relative width of ~1e-14: a law narrower
         * than that (far tails) gives quantiles that jitter within it */
        fuzz_check(q >= prev_q * (1.0 - 1e-12), "quantile non-decreasing");
        int resolved = q > prev_q * (1.0 + 1e-12);
        prev_q = q > prev_q ? q : prev_q;
        double c = hg_psd_cdf(psd, q);
        fuzz_check(c >= 0.0 && c <= 1.0, "cdf in [0, 1]");
        /* (quantiles within the jitter above may come in any order) */
        if (resolved) {
            fuzz_check(c >= prev_c - 1e-9, "cdf non-decreasing");
            prev_c = c;
        }
        for (int k = 0; k <= 3; k++) {
            double m = hg_psd_moment(psd, k, 0.0, q);
            double full = hg_psd_moment(psd, k, 0.0, rmax);
            fuzz_check(isfinite(m) && m >= 0.0, "partial moment finite");
            fuzz_check(m <= full * (1 + 1e-9) + 1e-300,
                       "partial moment <= full moment");
        }
        if (!hg_psd_is_discrete(psd)) {
            double f = hg_psd_pdf(psd, q);
            fuzz_check(isfinite(f) && f >= 0.0, "pdf finite");
        }
    }
}

#endif
