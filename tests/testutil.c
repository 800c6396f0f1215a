#include "testutil.h"

#include <math.h>

int hg_test_failures = 0;
int hg_test_checks = 0;

int hg_close(double a, double b, double rel_tol, double abs_tol)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    if (isinf(a) || isinf(b))
        return a == b;
    double diff = fabs(a - b);
    double scale = fmax(fabs(a), fabs(b));
    return diff <= abs_tol || diff <= rel_tol * scale;
}

int hg_test_summary(const char *name)
{
    printf("%s: %d checks\n", name, hg_test_checks);
    printf("%d passed, %d failed\n", hg_test_checks - hg_test_failures,
           hg_test_failures);
    return hg_test_failures == 0 ? 0 : 1;
}
