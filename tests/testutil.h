/* testutil.h - the helpers shared by the unit tests and benchmarks:
 * assertions (CHECK, CHECK_CLOSE, hg_test_summary), a distribution from
 * its spec, random numbers, particle sets (moved, compared), a file read
 * into memory, a model's T and gradient, and a benchmark's error exit. */
#ifndef HG_TESTUTIL_H
#define HG_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hg_common.h"
#include "hg_model.h"
#include "hg_particles.h"
#include "hg_psd.h"

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

/* CHECK with a message of what was found */
#define CHECKM(cond, ...)                                                  \
    do {                                                                   \
        hg_test_checks++;                                                  \
        if (!(cond)) {                                                     \
            hg_test_failures++;                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__,         \
                    __LINE__, #cond);                                      \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
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

/* The distribution of spec in dim dimensions (files relative to dir;
 * NULL: the working folder), or NULL with the reason on stderr. */
hg_psd *hg_test_psd_in(const char *spec, int dim, const char *dir);
hg_psd *hg_test_psd(const char *spec, int dim);

/* Random numbers of a 64-bit linear congruential generator (Knuth's
 * MMIX constants) with state *s: the next state, and a double uniform in
 * [0, 1) from its top 53 bits. */
uint64_t hg_test_lcg(uint64_t *s);
double hg_test_uniform(uint64_t *s);

/* q = p moved by up to d on every axis (uniform, from hg_test_uniform
 * with state seed), wrapped into a periodic box; q is allocated. */
void hg_test_displace(const hg_particles *p, hg_particles *q, double d,
                      uint64_t seed);
/* 1 if a and b are the same particle set: dim, count, boundary, box,
 * centres and radii bit for bit. */
int hg_test_same_particles(const hg_particles *a, const hg_particles *b);

/* The bytes of a file (from its start; a stream: read whole), NUL
 * terminated, their number in *len; NULL when it cannot be read. */
char *hg_test_read_file(const char *path, size_t *len);
char *hg_test_read_stream(FILE *f, size_t *len);

/* T of model m with L levels of sizes s (NaN, and the reason on stderr,
 * when it cannot be evaluated; v NULL: the model's defaults). */
double hg_test_T(const hg_model *m, const hg_psd *psd, const hg_system *sys,
                 const hg_model_values *v, int L, const double *s);
/* T and dT/ds of model m with L levels of sizes s (hg_model_gradient). */
int hg_test_gradient(const hg_model *m, const hg_psd *psd,
                     const hg_system *sys, const hg_model_values *v, int L,
                     const double *s, double *T, double *g, hg_err *e);

/* A benchmark's measurement in a child process (its own peak memory):
 * child(path, fd) writes len bytes of its result to fd and exits; they
 * land in out. 0, or -1 when the child gave less. */
int hg_test_in_child(void (*child)(const char *path, int fd),
                     const char *path, void *out, size_t len);

/* The benchmarks' synthetic bed: n spheres of a power law of size ratio
 * 8 (alpha -3) packed to 0.6 (seed 7) into p; *rmin its smallest radius
 * (may be NULL). 0, or -1 after "prog: message" on stderr. */
int hg_test_bench_bed(const char *prog, size_t n, hg_particles *p,
                      double *rmin);

/* A benchmark's exit: "prog: what: message" on stderr; returns 1. */
int hg_test_die(const char *prog, const char *what, const hg_err *e);

#endif
