/* testutil.h - tiny assertion helpers for the unit tests. */
#ifndef HG_TESTUTIL_H
#define HG_TESTUTIL_H

#include <stdio.h>

extern int hg_test_failures;
extern int hg_test_checks;

/* 1 if a and b agree within max(abs_tol, rel_tol*max(|a|,|b|)); NaN and Inf
 * only agree with themselves (same sign for Inf). */
int hg_close(double a, double b, double rel_tol, double abs_tol);

#define CHECK(cond)                                                        \
    do {                                                                   \
        hg_test_checks++;                                                  \
        if (!(cond)) {                                                     \
            hg_test_failures++;                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__,         \
                    __LINE__, #cond);                                      \
        }                                                                  \
    } while (0)

#define CHECK_CLOSE(a, b, rel, abs_)                                       \
    do {                                                                   \
        double ca_ = (a), cb_ = (b);                                       \
        hg_test_checks++;                                                  \
        if (!hg_close(ca_, cb_, (rel), (abs_))) {                          \
            hg_test_failures++;                                            \
            fprintf(stderr,                                                \
                    "%s:%d: CHECK_CLOSE failed: %s = %.12g vs %s = %.12g"  \
                    " (rel %g abs %g)\n",                                  \
                    __FILE__, __LINE__, #a, ca_, #b, cb_, (double)(rel),   \
                    (double)(abs_));                                       \
        }                                                                  \
    } while (0)

/* Print "N passed, N failed" and return the exit status. */
int hg_test_summary(const char *name);

#endif
