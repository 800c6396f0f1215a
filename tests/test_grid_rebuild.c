/* test_grid_rebuild.c - a grid rebuilt again and again (buffers, row
 * tables and the previous layout kept) finds the same contacts and counts
 * the same work as a grid built from scratch on the same particles: after
 * small displacements, for a different set of the same N, for a smaller
 * and a larger N and after a failed build; periodic (levels found in the
 * sort's first pass) and open boxes, every storage, one and two threads.
 * The same sequence of builds gives the same pair list, order included.
 * A group of the sort's buckets crowded beyond 65535 particles, and 20
 * dense levels (periodic), too.
 *
 * Usage: test_grid_rebuild [N]   (default 60000; above 50000 the build
 * runs in parallel: two threads run N particles, one thread N / 4). */
#include "hg_grid.h"
#include "hg_pack.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef HG_HAVE_OPENMP
#include <omp.h>
#endif

static size_t n_arg = 60000;

typedef struct setup {
    int dim, L;
    double sizes[3];
    hg_algorithm alg;
    hg_grid_storage storage;
} setup;

/* Contacts of p by a plain cell list of width >= 2 rmax (independent of
 * the grid's code): every pair of particles in the same or neighbouring
 * cells tested once (periodic boxes with at least 3 cells per axis). */
static void reference(const hg_particles *p, double rmax, hg_pairs *out)
{
    const int D = p->dim;
    double lo[3] = {0, 0, 0}, w[3] = {1, 1, 1};
    long nc[3] = {1, 1, 1};
    for (int a = 0; a < D; a++) {
        double l = p->lo[a], h = p->hi[a];
        for (size_t i = 0; !p->periodic && i < p->n; i++) {
            double x = p->x[i * (size_t)D + (size_t)a];
            l = x < l ? x : l;
            h = x > h ? x : h;
        }
        nc[a] = (long)floor((h - l) / (2.0 * rmax));
        if (p->periodic)
            CHECK(nc[a] >= 3);
        if (nc[a] < 1)
            nc[a] = 1;
        lo[a] = l;
        w[a] = (h - l) / (double)nc[a];
    }
    size_t cells = (size_t)(nc[0] * nc[1] * nc[2]);
    long *head = malloc(cells * sizeof *head), *next = malloc(p->n * sizeof *next);
    size_t *cell = malloc(p->n * sizeof *cell);
    if (!head || !next || !cell) {
        CHECK(0);
        goto done;
    }
    for (size_t c = 0; c < cells; c++)
        head[c] = -1;
    long k[3];
    for (size_t i = 0; i < p->n; i++) {
        for (int a = 0; a < 3; a++) {
            k[a] = 0;
            if (a < D)
                k[a] = (long)floor((p->x[i * (size_t)D + (size_t)a] - lo[a]) /
                                   w[a]);
            k[a] = k[a] < 0 ? 0 : k[a] >= nc[a] ? nc[a] - 1 : k[a];
        }
        cell[i] = (size_t)(k[0] + nc[0] * (k[1] + nc[1] * k[2]));
        next[i] = head[cell[i]];
        head[cell[i]] = (long)i;
    }
    hg_pairs_reset(out);
    for (size_t i = 0; i < p->n; i++) {
        long c = (long)cell[i];
        long ki[3] = {c % nc[0], (c / nc[0]) % nc[1], c / (nc[0] * nc[1])};
        for (int dz = D == 3 ? -1 : 0; dz <= (D == 3 ? 1 : 0); dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    long m[3] = {ki[0] + dx, ki[1] + dy, ki[2] + dz};
                    int skip = 0;
                    for (int a = 0; a < 3; a++) {
                        if (p->periodic)
                            m[a] = (m[a] + nc[a]) % nc[a];
                        skip |= m[a] < 0 || m[a] >= nc[a];
                    }
                    if (skip)
                        continue;
                    size_t cm = (size_t)(m[0] + nc[0] * (m[1] + nc[1] * m[2]));
                    for (long j = head[cm]; j >= 0; j = next[j])
                        if ((size_t)j > i &&
                            hg_particles_touch(p, i, (size_t)j, 0.0))
                            hg_pairs_push(out, (uint32_t)i, (uint32_t)j);
                }
    }
    hg_pairs_sort(out);
done:
    free(head);
    free(next);
    free(cell);
}

/* g (already built on p) against a fresh grid on p: contacts and every
 * counter; the contacts also against the plain cell list. */
static void compare(const char *what, hg_grid *g, const hg_particles *p,
                    const setup *s)
{
    hg_err e = {0};
    hg_grid *f = NULL;
    hg_pairs a = {0}, b = {0}, ref = {0};
    reference(p, 0.5 * s->sizes[s->L - 1], &ref);
    hg_grid_counts ca = {0}, cb = {0};
    CHECK(hg_grid_create(s->dim, s->L, s->sizes, s->alg, &f, &e) == HG_OK);
    CHECK(hg_grid_set_storage(f, s->storage, &e) == HG_OK);
    CHECK(hg_grid_build(f, p, &e) == HG_OK);
    CHECK(hg_grid_find_contacts(g, &a, &ca, &e) == HG_OK);
    CHECK(hg_grid_find_contacts(f, &b, &cb, &e) == HG_OK);
    hg_pairs_sort(&a);
    hg_pairs_sort(&b);
    int same = a.n == b.n && hg_pairs_equal(&a, &b) && a.n == ref.n &&
               hg_pairs_equal(&a, &ref);
    same &= ca.levels == cb.levels && ca.cell_accesses == cb.cell_accesses &&
            ca.pair_checks == cb.pair_checks && ca.contacts == cb.contacts &&
            ca.searching == cb.searching;
    for (int h = 0; same && h < ca.levels; h++) {
        const hg_grid_level_counts *u = &ca.per_level[h], *v = &cb.per_level[h];
        same &= u->particles == v->particles &&
                u->cell_accesses == v->cell_accesses &&
                u->pair_checks == v->pair_checks;
        for (int c = 0; c < 3; c++)
            same &= u->cell_width[c] == v->cell_width[c];
    }
    CHECK(same);
    CHECK(a.n > 0);
    if (!same)
        fprintf(stderr, "  differs: %s (%dD, storage %d, %zu vs %zu pairs)\n",
                what, s->dim, (int)s->storage, a.n, b.n);
    hg_pairs_clear(&a);
    hg_pairs_clear(&b);
    hg_pairs_clear(&ref);
    hg_grid_counts_clear(&ca);
    hg_grid_counts_clear(&cb);
    hg_grid_free(f);
}

/* The first m particles of p. */
static void head(const hg_particles *p, size_t m, hg_particles *q)
{
    hg_err e;
    CHECK(hg_particles_alloc(q, p->dim, m, &e) == HG_OK);
    q->periodic = p->periodic;
    memcpy(q->lo, p->lo, sizeof q->lo);
    memcpy(q->hi, p->hi, sizeof q->hi);
    memcpy(q->x, p->x, m * (size_t)p->dim * sizeof *q->x);
    memcpy(q->r, p->r, m * sizeof *q->r);
}

static void sequence(int dim, int periodic, hg_grid_storage storage,
                     hg_algorithm alg, size_t N)
{
    hg_err e = {0};
    hg_psd_ctx ctx = {dim, NULL};
    hg_psd *psd = NULL;
    CHECK(hg_psd_parse("powerlaw:alpha=-3,omega=3", &ctx, &psd, &e) ==
          HG_OK);
    if (!psd)
        return;
    hg_particles p = {0}, o = {0}, q = {0}, m = {0}, big = {0};
    hg_pack_params pp = {dim, N, 0.3, 11, 1};
    CHECK(hg_pack_poisson(psd, &pp, &p, &e) == HG_OK);
    pp.seed = 12;
    CHECK(hg_pack_poisson(psd, &pp, &o, &e) == HG_OK); /* same N, other set */
    pp.n = N + N / 4;
    CHECK(hg_pack_poisson(psd, &pp, &big, &e) == HG_OK);
    p.periodic = o.periodic = big.periodic = periodic;
    double rmax = 0.0;
    for (size_t i = 0; i < big.n; i++)
        rmax = big.r[i] > rmax ? big.r[i] : rmax;
    setup s = {dim, 3, {0.9 * rmax, 1.4 * rmax, 2.0 * rmax}, alg, storage};
    hg_grid *g = NULL;
    CHECK(hg_grid_create(dim, s.L, s.sizes, alg, &g, &e) == HG_OK);
    CHECK(hg_grid_set_storage(g, storage, &e) == HG_OK);
    CHECK(hg_grid_build(g, &p, &e) == HG_OK);
    compare("first build", g, &p, &s);
    hg_test_displace(&p, &q, 0.02 * rmax, 99);
    CHECK(hg_grid_build(g, &q, &e) == HG_OK);
    compare("after small displacements", g, &q, &s);
    CHECK(hg_grid_build(g, &q, &e) == HG_OK);
    compare("same particles again", g, &q, &s);
    CHECK(hg_grid_build(g, &o, &e) == HG_OK);
    compare("another set of the same N", g, &o, &s);
    head(&o, N / 2, &m);
    CHECK(hg_grid_build(g, &m, &e) == HG_OK);
    compare("half as many", g, &m, &s);
    CHECK(hg_grid_build(g, &big, &e) == HG_OK);
    compare("more particles than before", g, &big, &s);
    /* a failed build (radius of no level, late in the set), then the
     * same particles again */
    double keep = big.r[big.n - 3];
    big.r[big.n - 3] = 4.0 * rmax;
    CHECK(hg_grid_build(g, &big, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "radius") != NULL);
    big.r[big.n - 3] = keep;
    CHECK(hg_grid_build(g, &big, &e) == HG_OK);
    compare("after a failed build", g, &big, &s);
    hg_grid_free(g);
    hg_particles_clear(&p);
    hg_particles_clear(&o);
    hg_particles_clear(&q);
    hg_particles_clear(&m);
    hg_particles_clear(&big);
    hg_psd_free(psd);
}

/* One group of the sort's buckets (2^12 consecutive cells: four rows of
 * a 1024 x 1024 table) holding more than 65535 particles, which the sort
 * places with 32-bit offsets: built, rebuilt and moved as any other. */
static void crowded_group(void)
{
    hg_err e = {0};
    hg_particles p = {0}, q = {0};
    const size_t N = 70000;
    CHECK(hg_particles_alloc(&p, 2, N, &e) == HG_OK);
    if (!p.x)
        return;
    p.periodic = 1;
    p.lo[0] = p.lo[1] = 0.0;
    p.hi[0] = p.hi[1] = 1024.0;
    uint64_t st = 2024;
    for (size_t i = 0; i < N; i++) {
        double u[3];
        for (int k = 0; k < 3; k++)
            u[k] = hg_test_uniform(&st);
        p.x[2 * i] = 1024.0 * u[0];
        p.x[2 * i + 1] = 4.0 * u[1]; /* rows 0..3 */
        p.r[i] = 0.1 + 0.3 * u[2];
    }
    setup s = {2, 1, {1.0, 0.0, 0.0}, HG_TOP_DOWN, HG_GRID_DENSE};
    hg_grid *g = NULL;
    CHECK(hg_grid_create(2, 1, s.sizes, s.alg, &g, &e) == HG_OK);
    CHECK(hg_grid_set_storage(g, s.storage, &e) == HG_OK);
    CHECK(hg_grid_build(g, &p, &e) == HG_OK);
    compare("crowded group", g, &p, &s);
    hg_test_displace(&p, &q, 0.05, 3);
    CHECK(hg_grid_build(g, &q, &e) == HG_OK);
    compare("crowded group, moved", g, &q, &s);
    hg_grid_free(g);
    hg_particles_clear(&p);
    hg_particles_clear(&q);
}

/* n particles of powerlaw alpha -3, omega 3 (Poisson, nu 0.3) into p,
 * with their smallest and largest radius; 0 on success. */
static int packed(int dim, size_t n, unsigned seed, hg_particles *p,
                  double *rmin, double *rmax)
{
    hg_err e = {0};
    hg_psd_ctx ctx = {dim, NULL};
    hg_psd *psd = NULL;
    CHECK(hg_psd_parse("powerlaw:alpha=-3,omega=3", &ctx, &psd, &e) ==
          HG_OK);
    if (!psd)
        return 1;
    hg_pack_params pp = {dim, n, 0.3, seed, 1};
    int st = hg_pack_poisson(psd, &pp, p, &e);
    CHECK(st == HG_OK);
    hg_psd_free(psd);
    *rmin = INFINITY;
    *rmax = 0.0;
    for (size_t i = 0; !st && i < p->n; i++) {
        *rmax = p->r[i] > *rmax ? p->r[i] : *rmax;
        *rmin = p->r[i] < *rmin ? p->r[i] : *rmin;
    }
    return st != HG_OK;
}

/* More levels than the sort's first pass keeps in its small tables (20:
 * the level by hg_grid_level_index), dense, periodic box, built and
 * rebuilt: the contacts of the plain cell list. */
static void many_levels(int dim)
{
    hg_err e = {0};
    hg_particles p = {0}, q = {0};
    double rmin, rmax;
    if (packed(dim, n_arg, 13, &p, &rmin, &rmax))
        return;
    p.periodic = 1;
    enum { L = 20 };
    double sizes[L];
    for (int h = 0; h < L; h++) /* 2 rmin .. 2 rmax */
        sizes[h] = 2.0 * rmin * pow(rmax / rmin, (double)h / (L - 1));
    sizes[L - 1] = 2.0 * rmax;
    hg_test_displace(&p, &q, 0.02 * rmax, 5);
    hg_grid *g = NULL;
    CHECK(hg_grid_create(dim, L, sizes, HG_TOP_DOWN, &g, &e) == HG_OK);
    CHECK(hg_grid_set_storage(g, HG_GRID_DENSE, &e) == HG_OK);
    const hg_particles *sets[3] = {&p, &q, &p};
    for (int k = 0; g && k < 3; k++) {
        hg_pairs a = {0}, ref = {0};
        CHECK(hg_grid_build(g, sets[k], &e) == HG_OK);
        CHECK(hg_grid_find_contacts(g, &a, NULL, &e) == HG_OK);
        reference(sets[k], rmax, &ref);
        hg_pairs_sort(&a);
        CHECK(a.n > 0 && a.n == ref.n && hg_pairs_equal(&a, &ref));
        hg_pairs_clear(&a);
        hg_pairs_clear(&ref);
    }
    hg_grid_free(g);
    hg_particles_clear(&p);
    hg_particles_clear(&q);
}

/* Two grids through the same builds give the same pair list (unsorted; one
 * thread, so the search order is fixed). */
static void deterministic(int dim)
{
    hg_err e = {0};
    hg_particles p = {0}, q = {0};
    double rmin, rmax;
    if (packed(dim, n_arg, 5, &p, &rmin, &rmax))
        return;
    hg_test_displace(&p, &q, 0.02 * rmax, 7);
    double sizes[2] = {0.7 * rmax, 2.0 * rmax};
    hg_pairs a[2] = {{0}};
    for (int k = 0; k < 2; k++) {
        hg_grid *g = NULL;
        CHECK(hg_grid_create(dim, 2, sizes, HG_TOP_DOWN, &g, &e) == HG_OK);
        CHECK(hg_grid_build(g, &p, &e) == HG_OK);
        CHECK(hg_grid_build(g, &q, &e) == HG_OK);
        CHECK(hg_grid_build(g, &p, &e) == HG_OK);
        CHECK(hg_grid_find_contacts(g, &a[k], NULL, &e) == HG_OK);
        hg_grid_free(g);
    }
    CHECK(a[0].n > 0 && a[0].n == a[1].n &&
          memcmp(a[0].v, a[1].v, a[0].n * sizeof *a[0].v) == 0);
    hg_pairs_clear(&a[0]);
    hg_pairs_clear(&a[1]);
    hg_particles_clear(&p);
    hg_particles_clear(&q);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        n_arg = (size_t)strtoul(argv[1], NULL, 10);
    int maxt = 1;
#ifdef HG_HAVE_OPENMP
    maxt = omp_get_max_threads() > 1 ? 2 : 1;
#endif
    /* one thread on a quarter of N; the parallel build (N) with two:
     * periodic boxes (all storages) and the open box's automatic one */
    for (int threads = 1; threads <= maxt; threads++) {
#ifdef HG_HAVE_OPENMP
        omp_set_num_threads(threads);
#endif
        for (int dim = 2; dim <= 3; dim++)
            for (int periodic = 1; periodic >= 0; periodic--)
                for (int st = HG_GRID_AUTO; st <= HG_GRID_HASH; st++)
                    if (threads == 1 || periodic || st == HG_GRID_AUTO)
                        sequence(dim, periodic, (hg_grid_storage)st,
                                 st == HG_GRID_DENSE ? HG_BOTTOM_UP
                                                     : HG_TOP_DOWN,
                                 threads == 1 ? n_arg / 4 : n_arg);
        crowded_group();
        many_levels(2);
        many_levels(3);
    }
#ifdef HG_HAVE_OPENMP
    omp_set_num_threads(1);
#endif
    deterministic(2);
    deterministic(3);
    return hg_test_summary("test_grid_rebuild");
}
