/* test_pack.c - rsa and dense generators: no overlaps (brute force),
 * spheres inside the walls, reported nu equals the particles' nu, dense
 * reaches its target and overlap bound, same seed -> same bytes. */
#include "hg_io.h"
#include "hg_pack_gen.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hg_psd *make_psd(const char *spec, int dim)
{
    hg_psd *p = hg_test_psd(spec, dim);
    CHECK(p != NULL);
    return p;
}

/* Largest (r_i + r_j - d_ij) / min(r_i, r_j) by brute force. */
static double brute_max_overlap(const hg_particles *p)
{
    double worst = 0.0;
    for (size_t i = 0; i < p->n; i++)
        for (size_t j = i + 1; j < p->n; j++) {
            double d2 = 0.0;
            for (int c = 0; c < p->dim; c++) {
                double t = hg_particles_delta(
                    p, c, p->x[i * (size_t)p->dim + (size_t)c] -
                              p->x[j * (size_t)p->dim + (size_t)c]);
                d2 += t * t;
            }
            double ov = p->r[i] + p->r[j] - sqrt(d2);
            double rs = p->r[i] < p->r[j] ? p->r[i] : p->r[j];
            if (ov / rs > worst)
                worst = ov / rs;
        }
    return worst;
}

/* 1 if every sphere lies inside the box (walls). */
static int inside_walls(const hg_particles *p)
{
    for (size_t i = 0; i < p->n; i++)
        for (int c = 0; c < p->dim; c++) {
            double x = p->x[i * (size_t)p->dim + (size_t)c];
            if (x - p->r[i] < p->lo[c] || x + p->r[i] > p->hi[c])
                return 0;
        }
    return 1;
}

typedef struct prog_log {
    int calls, monotone;
    double last;
} prog_log;

static void on_progress(const char *stage, double f, void *params)
{
    prog_log *l = params;
    if (!stage || f < l->last - 1e-12 || f < 0.0 || f > 1.0)
        l->monotone = 0;
    l->last = f;
    l->calls++;
}

static void test_rsa(void)
{
    static const struct {
        const char *spec;
        int dim, periodic;
        size_t n;
        double nu;
        int full; /* expected to place everything */
    } cases[] = {
        {"powerlaw:alpha=-3,omega=10", 3, 1, 600, 0.3, 1},
        {"powerlaw:alpha=-3,omega=10", 2, 0, 600, 0.5, 1},
        {"mono:r=1", 3, 1, 800, 0.5, 0}, /* stalls below the target */
        {"mono:r=1", 2, 0, 500, 0.3, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        hg_psd *psd = make_psd(cases[k].spec, cases[k].dim);
        if (!psd)
            continue;
        hg_pack_params prm = {cases[k].dim, cases[k].n, cases[k].nu,
                              11 + k, cases[k].periodic};
        hg_pack_options opt;
        hg_pack_options_init(&opt);
        prog_log log = {0, 1, 0.0};
        opt.progress = on_progress;
        opt.progress_params = &log;
        opt.max_attempts = 500;
        hg_particles p;
        hg_pack_report rep;
        hg_err e;
        int st = hg_pack_rsa_run(psd, &prm, &opt, &p, &rep, &e);
        CHECK(st == HG_OK);
        if (st != HG_OK) {
            fprintf(stderr, "rsa case %zu: %s\n", k, e.msg);
            hg_psd_free(psd);
            continue;
        }
        printf("rsa %s dim %d %s n %zu: placed %zu nu %.4f (target %g, "
               "seed %zu)\n",
               cases[k].spec, cases[k].dim,
               cases[k].periodic ? "periodic" : "walls", cases[k].n,
               rep.placed, rep.nu, cases[k].nu, (size_t)(11 + k));
        CHECK(hg_particles_check(&p, NULL) == HG_OK);
        CHECK(brute_max_overlap(&p) <= 0.0);
        CHECK(cases[k].periodic || inside_walls(&p));
        CHECK(p.n == rep.placed && rep.requested == cases[k].n);
        CHECK_CLOSE(rep.nu, hg_particles_packing_fraction(&p), 1e-14, 0.0);
        CHECK(rep.nu <= cases[k].nu * (1.0 + 1e-12));
        CHECK(rep.reached == (rep.placed == cases[k].n));
        CHECK(rep.reached == cases[k].full);
        if (cases[k].full)
            CHECK_CLOSE(rep.nu, cases[k].nu, 1e-12, 0.0);
        else
            CHECK(rep.nu > 0.25 && rep.nu < cases[k].nu);
        for (size_t i = 1; i < p.n; i++) /* largest first */
            if (p.r[i] > p.r[i - 1])
                CHECK(!"radii not in non-increasing order");
        CHECK(log.calls > 0 && log.monotone && log.last == 1.0);
        hg_particles_clear(&p);
        hg_psd_free(psd);
    }
}

static void test_dense(void)
{
    static const struct {
        const char *spec;
        int dim, periodic;
        size_t n;
        double nu;
    } cases[] = {
        {"mono:r=1", 3, 1, 400, 0.55},  /* RSA stalls: growth path */
        {"mono:r=1", 2, 0, 400, 0.7},
        {"powerlaw:alpha=-3,omega=10", 3, 0, 600, 0.6},
        {"powerlaw:alpha=-3,omega=100", 3, 1, 1000, 0.6},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        hg_psd *psd = make_psd(cases[k].spec, cases[k].dim);
        if (!psd)
            continue;
        hg_pack_params prm = {cases[k].dim, cases[k].n, cases[k].nu,
                              21 + k, cases[k].periodic};
        hg_pack_options opt;
        hg_pack_options_init(&opt);
        prog_log log = {0, 1, 0.0};
        opt.progress = on_progress;
        opt.progress_params = &log;
        hg_particles p;
        hg_pack_report rep;
        hg_err e;
        int st = hg_pack_dense_run(psd, &prm, &opt, &p, &rep, &e);
        CHECK(st == HG_OK);
        if (st != HG_OK) {
            fprintf(stderr, "dense case %zu: %s\n", k, e.msg);
            hg_psd_free(psd);
            continue;
        }
        double bf = brute_max_overlap(&p);
        printf("dense %s dim %d %s n %zu: nu %.4f (target %g) max overlap "
               "%.4g (brute force %.4g), %zu sweeps, %.2f s (seed %zu)\n",
               cases[k].spec, cases[k].dim,
               cases[k].periodic ? "periodic" : "walls", cases[k].n, rep.nu,
               cases[k].nu, rep.max_overlap, bf, rep.sweeps, rep.seconds,
               (size_t)(21 + k));
        CHECK(hg_particles_check(&p, NULL) == HG_OK);
        CHECK(rep.reached == 1);
        CHECK(p.n == cases[k].n && rep.placed == cases[k].n);
        CHECK_CLOSE(rep.nu, hg_particles_packing_fraction(&p), 1e-14, 0.0);
        CHECK_CLOSE(rep.nu, cases[k].nu, 1e-12, 0.0);
        CHECK(bf < opt.overlap_tol);
        CHECK_CLOSE(rep.max_overlap, bf > 0.0 ? bf : 0.0, 1e-9, 1e-15);
        CHECK(cases[k].periodic || inside_walls(&p));
        CHECK(log.calls > 0 && log.monotone && log.last == 1.0);
        hg_particles_clear(&p);
        hg_psd_free(psd);
    }
}

/* Generate, write as CSV, return the file's bytes (malloc'ed). */
static char *packing_bytes(hg_pack_fn gen, const hg_psd *psd,
                           const hg_pack_params *prm, size_t *len)
{
    hg_particles p;
    hg_err e;
    *len = 0;
    if (gen(psd, prm, &p, &e) != HG_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return NULL;
    }
    FILE *f = tmpfile();
    char *buf = NULL;
    if (f && hg_io_write_stream(f, "tmp", HG_IO_CSV, &p, &e) == HG_OK)
        buf = hg_test_read_stream(f, len);
    if (f)
        fclose(f);
    hg_particles_clear(&p);
    return buf;
}

static void test_same_seed(void)
{
    static const hg_pack_fn gens[] = {hg_pack_rsa, hg_pack_dense};
    static const char *const names[] = {"rsa", "dense"};
    hg_psd *psd = make_psd("powerlaw:alpha=-3,omega=5", 3);
    if (!psd)
        return;
    for (int g = 0; g < 2; g++) {
        hg_pack_params prm = {3, 300, 0.45, 777, 1};
        size_t l1, l2, l3;
        char *a = packing_bytes(gens[g], psd, &prm, &l1);
        char *b = packing_bytes(gens[g], psd, &prm, &l2);
        prm.seed = 778;
        char *c = packing_bytes(gens[g], psd, &prm, &l3);
        CHECK(a && b && c && l1 > 0);
        CHECK(l1 == l2 && a && b && memcmp(a, b, l1) == 0);
        CHECK(!(l1 == l3 && a && c && memcmp(a, c, l1) == 0));
        printf("%s: seed 777 twice -> %zu identical bytes\n", names[g], l1);
        free(a);
        free(b);
        free(c);
    }
    hg_psd_free(psd);
}

static void test_bad_input(void)
{
    hg_psd *psd = make_psd("mono:r=1", 3);
    if (!psd)
        return;
    hg_particles p;
    hg_err e;
    hg_pack_params prm = {3, 100, 0.0, 1, 1};
    CHECK(hg_pack_rsa(psd, &prm, &p, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "nu") != NULL);
    CHECK(p.x == NULL);
    prm.nu = 0.3;
    prm.n = 0;
    CHECK(hg_pack_dense(psd, &prm, &p, &e) == HG_EINVAL);
    prm.n = 1; /* one sphere at nu 0.6: the box is narrower than it */
    prm.nu = 0.6;
    prm.periodic = 0;
    CHECK(hg_pack_rsa(psd, &prm, &p, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "too small") != NULL);
    CHECK(hg_pack_dense(psd, &prm, &p, &e) == HG_EINVAL);
    prm.n = 10;
    hg_pack_options opt;
    hg_pack_options_init(&opt);
    opt.overlap_tol = 0.0;
    CHECK(hg_pack_dense_run(psd, &prm, &opt, &p, NULL, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "overlap_tol") != NULL);
    hg_pack_options_init(&opt);
    opt.max_attempts = 0;
    CHECK(hg_pack_rsa_run(psd, &prm, &opt, &p, NULL, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "max_attempts") != NULL);
    hg_psd_free(psd);
}

/* A packing for a structure: Poisson centres, or hard spheres from rsa
 * (low nu) or dense; the choice is stated up front; beyond the reach of
 * the generators the run fails at once (RSA stalls, no dense growth into
 * a jam) naming nu. */
static void test_structure(void)
{
    static const struct {
        int dim;
        double nu;
        hg_structure s;
        const char *gen;
    } cases[] = {{3, 0.3, HG_STRUCTURE_POISSON, "poisson"},
                 {3, 0.2, HG_STRUCTURE_HARD_SPHERES, "rsa"},
                 {3, 0.45, HG_STRUCTURE_HARD_SPHERES, "dense"},
                 {2, 0.4, HG_STRUCTURE_HARD_SPHERES, "rsa"},
                 {2, 0.7, HG_STRUCTURE_HARD_SPHERES, "dense"}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        hg_psd *psd = make_psd("powerlaw:alpha=-3,omega=5", cases[k].dim);
        hg_pack_params prm = {cases[k].dim, 2000, cases[k].nu, 3, 1};
        hg_pack_choice c, c2;
        hg_pack_report rep;
        hg_particles p = {0};
        hg_err e = {0};
        CHECK(hg_pack_structure_choose(&prm, cases[k].s, &c, &e) == HG_OK);
        CHECK(!strcmp(c.generator, cases[k].gen) && c.why[0]);
        CHECK(hg_pack_structure_run(psd, &prm, cases[k].s, NULL, &p, &rep,
                                    &c2, &e) == HG_OK);
        CHECK(!strcmp(c2.generator, cases[k].gen) && p.n == 2000);
        CHECK_CLOSE(hg_particles_packing_fraction(&p), cases[k].nu, 0.02,
                    0.0);
        double ov = -1.0;
        CHECK(hg_pack_max_overlap(&p, &ov, &e) == HG_OK);
        if (cases[k].s == HG_STRUCTURE_POISSON)
            CHECK(ov > 0.5); /* overlaps: uniformly random centres */
        else
            CHECK(ov < 0.01 && rep.reached);
        hg_particles_clear(&p);
        hg_psd_free(psd);
    }
    hg_psd *mono = make_psd("mono:r=1", 3);
    hg_pack_params far = {3, 5000, 0.66, 1, 1};
    hg_pack_choice c;
    hg_particles p = {0};
    hg_err e = {0};
    double t0 = hg_wall_seconds();
    CHECK(hg_pack_structure_run(mono, &far, HG_STRUCTURE_HARD_SPHERES, NULL,
                                &p, NULL, &c, &e) == HG_ELIMIT);
    CHECK(strstr(e.msg, "nu: 0.66 is beyond") != NULL && p.n == 0);
    CHECK(hg_wall_seconds() - t0 < 20.0); /* the jam takes minutes */
    CHECK(hg_pack_structure_choose(&far, (hg_structure)7, &c, &e) ==
          HG_EINVAL);
    hg_psd_free(mono);
}

int main(void)
{
    test_rsa();
    test_dense();
    test_same_seed();
    test_bad_input();
    test_structure();
    return hg_test_summary("test_pack");
}
