/* testutil.c - the helpers shared by the unit tests and benchmarks
 * (testutil.h). */
#include "testutil.h"
#include "hg_pack.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

hg_psd *hg_test_psd_in(const char *spec, int dim, const char *dir)
{
    hg_psd_ctx ctx = {dim, dir};
    hg_psd *p = NULL;
    hg_err e = {0};
    if (hg_psd_parse(spec, &ctx, &p, &e))
        fprintf(stderr, "parse '%s' (dim %d): %s\n", spec, dim, e.msg);
    return p;
}

hg_psd *hg_test_psd(const char *spec, int dim)
{
    return hg_test_psd_in(spec, dim, NULL);
}

uint64_t hg_test_lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s;
}

double hg_test_uniform(uint64_t *s)
{
    return (double)(hg_test_lcg(s) >> 11) * 0x1.0p-53;
}

void hg_test_displace(const hg_particles *p, hg_particles *q, double d,
                      uint64_t seed)
{
    hg_err e;
    CHECK(hg_particles_alloc(q, p->dim, p->n, &e) == HG_OK);
    q->periodic = p->periodic;
    memcpy(q->lo, p->lo, sizeof q->lo);
    memcpy(q->hi, p->hi, sizeof q->hi);
    memcpy(q->r, p->r, p->n * sizeof *q->r);
    const int D = p->dim;
    for (size_t i = 0; i < p->n * (size_t)D; i++) {
        double u = hg_test_uniform(&seed) - 0.5;
        double x = p->x[i] + 2.0 * d * u;
        int a = (int)(i % (size_t)D);
        double A = p->hi[a] - p->lo[a];
        if (p->periodic && x < p->lo[a])
            x += A;
        if (p->periodic && x >= p->hi[a])
            x -= A;
        q->x[i] = x;
    }
}

int hg_test_same_particles(const hg_particles *a, const hg_particles *b)
{
    if (a->dim != b->dim || a->n != b->n || a->periodic != b->periodic)
        return 0;
    for (int c = 0; c < a->dim; c++)
        if (a->lo[c] != b->lo[c] || a->hi[c] != b->hi[c])
            return 0;
    size_t nx = a->n * (size_t)a->dim;
    return (a->n == 0 ||
            (memcmp(a->x, b->x, nx * sizeof *a->x) == 0 &&
             memcmp(a->r, b->r, a->n * sizeof *a->r) == 0));
}

char *hg_test_read_stream(FILE *f, size_t *len)
{
    *len = 0;
    if (fseek(f, 0, SEEK_END))
        return NULL;
    long n = ftell(f);
    rewind(f);
    if (n < 0)
        return NULL;
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (!buf)
        return NULL;
    buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

char *hg_test_read_file(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = hg_test_read_stream(f, len);
    fclose(f);
    return buf;
}

double hg_test_T(const hg_model *m, const hg_psd *psd, const hg_system *sys,
                 const hg_model_values *v, int L, const double *s)
{
    hg_work w = {NAN, NAN, NAN};
    hg_err e = {0};
    if (hg_cost_evaluate(m, psd, sys, v, L, s, NULL, &w, &e))
        fprintf(stderr, "%s: %s\n", m->name, e.msg);
    return w.T;
}

int hg_test_gradient(const hg_model *m, const hg_psd *psd,
                     const hg_system *sys, const hg_model_values *v, int L,
                     const double *s, double *T, double *g, hg_err *e)
{
    hg_model_input in;
    int st = hg_model_prepare(m, psd, sys, v, &in, e);
    in.L = L;
    in.sizes = s;
    return st ? st : hg_model_gradient(m, &in, T, g, e);
}

int hg_test_die(const char *prog, const char *what, const hg_err *e)
{
    fprintf(stderr, "%s: %s: %s\n", prog, what, e->msg);
    return 1;
}

int hg_test_in_child(void (*child)(const char *path, int fd),
                     const char *path, void *out, size_t len)
{
    int fd[2];
    if (pipe(fd))
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        child(path, fd[1]);
        _exit(4); /* child() exits itself */
    }
    close(fd[1]);
    ssize_t got = read(fd[0], out, len);
    close(fd[0]);
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    return pid > 0 && got == (ssize_t)len ? 0 : -1;
}

int hg_test_bench_bed(const char *prog, size_t n, hg_particles *p,
                      double *rmin)
{
    hg_err e = {0};
    hg_psd *psd = NULL;
    memset(p, 0, sizeof *p);
    if (hg_psd_parse("powerlaw:alpha=-3,omega=8", &(hg_psd_ctx){3, NULL},
                     &psd, &e))
        return fprintf(stderr, "%s: %s\n", prog, e.msg), -1;
    hg_pack_params prm = {3, n, 0.6, 7, 1};
    int st = hg_pack_poisson(psd, &prm, p, &e);
    if (rmin)
        *rmin = hg_psd_rmin(psd);
    hg_psd_free(psd);
    if (st)
        return fprintf(stderr, "%s: %s\n", prog, e.msg), -1;
    return 0;
}
