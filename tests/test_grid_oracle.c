/* test_grid_oracle.c - the HGrid contact set equals brute force O(N^2) on
 * randomised small systems; query, insert, subset search and bad input.
 *
 * Usage: test_grid_oracle [first_seed [cases]]  (defaults 1 and 600).
 * A failing case prints its seed; rerun with `test_grid_oracle SEED 1`. */
#include "grid_internal.h"
#include "hg_grid.h"
#include "testutil.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct config {
    int dim, L, periodic, lattice;
    hg_algorithm alg;
    hg_grid_storage storage;
    double sizes[6];
    double skin;
} config;

static void brute(const hg_particles *p, double skin, hg_pairs *out)
{
    hg_pairs_reset(out);
    for (size_t i = 0; i < p->n; i++)
        for (size_t j = i + 1; j < p->n; j++)
            if (hg_particles_touch(p, i, j, skin))
                hg_pairs_push(out, (uint32_t)i, (uint32_t)j);
}

/* 1 if ps (sorted) has i < j everywhere and no duplicates. */
static int well_formed(const hg_pairs *ps)
{
    for (size_t k = 0; k < ps->n; k++) {
        if (ps->v[k].i >= ps->v[k].j)
            return 0;
        if (k && ps->v[k].i == ps->v[k - 1].i && ps->v[k].j == ps->v[k - 1].j)
            return 0;
    }
    return 1;
}

static double unif(gsl_rng *g, double a, double b)
{
    return a + (b - a) * gsl_rng_uniform(g);
}

/* Random system: returns the particles and the grid configuration. */
static void make_case(gsl_rng *g, config *c, hg_particles *p)
{
    c->dim = 2 + (int)gsl_rng_uniform_int(g, 2);
    c->alg = gsl_rng_uniform_int(g, 2) ? HG_BOTTOM_UP : HG_TOP_DOWN;
    c->periodic = (int)gsl_rng_uniform_int(g, 2);
    c->L = 1 + (int)gsl_rng_uniform_int(g, 5);
    c->lattice = gsl_rng_uniform(g) < 0.35;
    int st_pick = (int)gsl_rng_uniform_int(g, 3);
    c->storage = st_pick == 0 ? HG_GRID_AUTO
                 : st_pick == 1 ? HG_GRID_DENSE : HG_GRID_HASH;
    c->skin = gsl_rng_uniform(g) < 0.5 ? 0.0 : unif(g, 0.0, 0.3);
    if (c->lattice)
        c->skin = gsl_rng_uniform(g) < 0.5 ? 0.0 : 0.25;
    /* sizes: lattice cases use powers of two so that borders are exact */
    for (int h = 0; h < c->L; h++) {
        if (c->lattice)
            c->sizes[h] = ldexp(1.0, (int)gsl_rng_uniform_int(g, 4) - 2);
        else
            c->sizes[h] = unif(g, 0.05, 1.5);
    }
    if (gsl_rng_uniform(g) < 0.2 && c->L > 1)
        c->sizes[1] = c->sizes[0]; /* equal sizes */
    for (int h = 1; h < c->L; h++)
        for (int k = h; k > 0 && c->sizes[k] < c->sizes[k - 1]; k--) {
            double t = c->sizes[k];
            c->sizes[k] = c->sizes[k - 1];
            c->sizes[k - 1] = t;
        }
    double smax = c->sizes[c->L - 1];
    double rmin = 0.5 * c->sizes[0] * unif(g, 0.05, 1.0);
    size_t n = 1 + gsl_rng_uniform_int(g, c->dim == 2 ? 300 : 200);
    /* box: from under one cell to many cells per axis */
    double edge;
    double pick = gsl_rng_uniform(g);
    if (c->lattice)
        edge = (double)(1 + gsl_rng_uniform_int(g, 8));
    else if (pick < 0.3)
        edge = unif(g, 0.3, 3.0) * smax; /* fewer than 3 cells */
    else
        edge = unif(g, 1.0, 12.0) * smax;
    hg_err e;
    hg_particles_alloc(p, c->dim, n, &e);
    p->periodic = c->periodic;
    for (int a = 0; a < c->dim; a++) {
        p->lo[a] = c->lattice ? 0.0 : unif(g, -2.0, 2.0);
        p->hi[a] = p->lo[a] + edge * (c->lattice ? 1.0 : unif(g, 0.7, 1.3));
    }
    for (size_t i = 0; i < n; i++) {
        double u = gsl_rng_uniform(g);
        double r;
        if (c->lattice && u < 0.5)
            r = 0.5 * c->sizes[gsl_rng_uniform_int(g, (unsigned long)c->L)];
        else
            r = rmin + (0.5 * smax - rmin) * gsl_rng_uniform(g);
        if (r > 0.5 * smax)
            r = 0.5 * smax;
        p->r[i] = r;
        for (int a = 0; a < c->dim; a++) {
            double lo = p->lo[a], hi = p->hi[a];
            double x;
            if (c->lattice) {
                long m = (long)((hi - lo) * 8.0);
                x = lo + 0.125 * (double)gsl_rng_uniform_int(g,
                                                             (unsigned long)m);
            } else {
                x = unif(g, lo, hi);
                if (!c->periodic && gsl_rng_uniform(g) < 0.1)
                    x = unif(g, lo - 2.0 * smax, hi + 2.0 * smax);
            }
            if (c->periodic && x >= hi)
                x = lo;
            p->x[i * (size_t)c->dim + (size_t)a] = x;
        }
    }
}

typedef struct collect {
    hg_pairs *ps;
    uint32_t self;
} collect;

static int on_visit(size_t j, double dist, void *params)
{
    collect *cl = params;
    (void)dist;
    hg_pairs_push(cl->ps, cl->self, (uint32_t)j);
    return 0;
}

/* Query every particle as a sphere; the union over i of the visited
 * particles j != i must be the brute-force set. */
static int check_query(hg_grid *g, const hg_particles *p, double skin)
{
    hg_pairs got = {0}, want = {0};
    hg_err e;
    int ok = 1;
    for (size_t i = 0; i < p->n; i++) {
        hg_pairs tmp = {0};
        collect cl = {&tmp, UINT32_MAX};
        if (hg_grid_query(g, p->x + i * (size_t)p->dim, p->r[i], skin,
                          on_visit, &cl, &e) != HG_OK)
            ok = 0;
        for (size_t k = 0; k < tmp.n; k++) {
            uint32_t j = tmp.v[k].i == UINT32_MAX ? tmp.v[k].j : tmp.v[k].i;
            if (j > i)
                hg_pairs_push(&got, (uint32_t)i, j);
        }
        hg_pairs_clear(&tmp);
    }
    brute(p, skin, &want);
    hg_pairs_sort(&got);
    ok = ok && well_formed(&got) && hg_pairs_equal(&got, &want);
    hg_pairs_clear(&got);
    hg_pairs_clear(&want);
    return ok;
}

static int run_case(unsigned long seed)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    config c;
    hg_particles p = {0};
    make_case(rng, &c, &p);
    hg_pairs want = {0}, got = {0}, sub = {0}, both = {0};
    hg_grid *g = NULL;
    hg_grid_counts cnt = {0};
    hg_err e = {0};
    int ok = 1;
    brute(&p, c.skin, &want);
    hg_pairs_sort(&want);
    ok &= hg_grid_create(c.dim, c.L, c.sizes, c.alg, &g, &e) == HG_OK;
    ok &= hg_grid_set_skin(g, c.skin, &e) == HG_OK;
    ok &= hg_grid_set_storage(g, c.storage, &e) == HG_OK;
    ok &= hg_grid_build(g, &p, &e) == HG_OK;
    if (ok) {
        ok &= hg_grid_find_contacts(g, &got, NULL, &e) == HG_OK;
        hg_pairs_sort(&got);
        ok &= well_formed(&got) && hg_pairs_equal(&got, &want);
        /* the scalar pair loop where the default is the AVX2 one (3D on
         * x86-64): the same pairs, ties at the cut-off included */
        if (hg_grid_simd(-1)) {
            hg_grid_simd(0);
            ok &= hg_grid_find_contacts(g, &got, NULL, &e) == HG_OK;
            hg_grid_simd(1);
            hg_pairs_sort(&got);
            ok &= well_formed(&got) && hg_pairs_equal(&got, &want);
        }
        /* counted path: same pairs, consistent totals */
        ok &= hg_grid_find_contacts(g, &got, &cnt, &e) == HG_OK;
        hg_pairs_sort(&got);
        ok &= hg_pairs_equal(&got, &want);
        uint64_t acc = 0, chk = 0;
        size_t np = 0;
        for (int h = 0; h < cnt.levels; h++) {
            acc += cnt.per_level[h].cell_accesses;
            chk += cnt.per_level[h].pair_checks;
            np += cnt.per_level[h].particles;
        }
        ok &= cnt.levels == c.L && acc == cnt.cell_accesses &&
              chk == cnt.pair_checks && np == p.n &&
              cnt.contacts == want.n && cnt.searching == p.n &&
              cnt.pair_checks >= want.n && cnt.cell_accesses >= p.n;
        /* the counts do not depend on the storage of the levels (cells,
         * blocks of cells, hashed rows) */
        for (int st = HG_GRID_AUTO; ok && st <= HG_GRID_HASH; st++) {
            hg_grid_counts c2 = {0};
            hg_grid *g2 = NULL;
            int r = hg_grid_create(c.dim, c.L, c.sizes, c.alg, &g2, &e);
            r = r ? r : hg_grid_set_skin(g2, c.skin, &e);
            r = r ? r : hg_grid_set_storage(g2, (hg_grid_storage)st, &e);
            r = r ? r : hg_grid_build(g2, &p, &e);
            if (r == HG_ELIMIT && st == HG_GRID_DENSE) {
                hg_grid_free(g2);
                continue; /* too many cells for dense storage */
            }
            ok &= r == HG_OK &&
                  hg_grid_find_contacts(g2, &got, &c2, &e) == HG_OK;
            for (int h = 0; ok && h < c.L; h++)
                ok &= c2.per_level[h].cell_accesses ==
                          cnt.per_level[h].cell_accesses &&
                      c2.per_level[h].pair_checks ==
                          cnt.per_level[h].pair_checks;
            hg_grid_counts_clear(&c2);
            hg_grid_free(g2);
        }
        /* subsets: a random split searched in two parts gives the set */
        size_t *a = malloc(p.n * sizeof *a), *b = malloc(p.n * sizeof *b);
        size_t na = 0, nb = 0;
        for (size_t i = 0; i < p.n; i++) {
            if (gsl_rng_uniform(rng) < 0.5)
                a[na++] = i;
            else
                b[nb++] = i;
        }
        ok &= hg_grid_find_contacts_subset(g, a, na, &sub, NULL, &e) == HG_OK;
        for (size_t k = 0; k < sub.n; k++)
            hg_pairs_push(&both, sub.v[k].i, sub.v[k].j);
        ok &= hg_grid_find_contacts_subset(g, b, nb, &sub, NULL, &e) == HG_OK;
        for (size_t k = 0; k < sub.n; k++)
            hg_pairs_push(&both, sub.v[k].i, sub.v[k].j);
        hg_pairs_sort(&both);
        ok &= well_formed(&both) && hg_pairs_equal(&both, &want);
        free(a);
        free(b);
        ok &= check_query(g, &p, c.skin);
    }
    if (!ok)
        fprintf(stderr,
                "FAILED seed %lu: dim %d L %d %s %s storage %d lattice %d "
                "skin %g n %zu (%s)\n",
                seed, c.dim, c.L, hg_algorithm_name(c.alg),
                c.periodic ? "periodic" : "open", (int)c.storage, c.lattice,
                c.skin, p.n, e.msg);
    hg_grid_counts_clear(&cnt);
    hg_grid_free(g);
    hg_pairs_clear(&want);
    hg_pairs_clear(&got);
    hg_pairs_clear(&sub);
    hg_pairs_clear(&both);
    hg_particles_clear(&p);
    gsl_rng_free(rng);
    return ok;
}

/* Build the first half, insert the rest one by one: queries see all. */
static void test_insert(unsigned long seed)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    for (int rep = 0; rep < 40; rep++) {
        gsl_rng_set(rng, seed + 7919u * (unsigned long)rep);
        config c;
        hg_particles p = {0}, half = {0};
        make_case(rng, &c, &p);
        hg_err e;
        hg_grid *g = NULL;
        CHECK(hg_grid_create(c.dim, c.L, c.sizes, c.alg, &g, &e) == HG_OK);
        CHECK(hg_grid_set_storage(g, HG_GRID_DENSE, &e) == HG_OK);
        size_t n1 = p.n / 2;
        half = p;
        half.n = n1;
        if (!c.periodic) /* open: extent must cover later insertions */
            for (int a = 0; a < c.dim; a++)
                for (size_t i = 0; i < p.n; i++) {
                    double x = p.x[i * (size_t)c.dim + (size_t)a];
                    if (x < half.lo[a])
                        half.lo[a] = x;
                    if (x > half.hi[a])
                        half.hi[a] = x;
                }
        CHECK(hg_grid_build(g, &half, &e) == HG_OK);
        for (size_t i = n1; i < p.n; i++) {
            int st = hg_grid_insert(g, p.x + i * (size_t)c.dim, p.r[i], &e);
            CHECK(st == HG_OK);
            if (st)
                fprintf(stderr, "insert: %s\n", e.msg);
        }
        CHECK(hg_grid_count(g) == p.n);
        int ok = check_query(g, &p, c.skin);
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "insert: FAILED seed %lu rep %d\n", seed, rep);
        hg_pairs ps = {0};
        if (p.n > n1) /* contacts need a rebuild after insertions */
            CHECK(hg_grid_find_contacts(g, &ps, NULL, &e) == HG_EINVAL);
        hg_pairs_clear(&ps);
        hg_grid_free(g);
        hg_particles_clear(&p);
    }
    gsl_rng_free(rng);
}

static int stop_at_first(size_t j, double d, void *params)
{
    (void)j;
    (void)d;
    (void)params;
    return 42;
}

static void test_bad_input(void)
{
    hg_err e;
    hg_grid *g = NULL;
    double s[3] = {1.0, 2.0, 4.0}, bad[2] = {2.0, 1.0}, nan2[2] = {1.0, NAN};
    CHECK(hg_grid_create(4, 3, s, HG_TOP_DOWN, &g, &e) == HG_EINVAL && !g);
    CHECK(hg_grid_create(3, 0, s, HG_TOP_DOWN, &g, &e) == HG_EINVAL);
    CHECK(hg_grid_create(3, 2, bad, HG_TOP_DOWN, &g, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "s_2") != NULL);
    CHECK(hg_grid_create(3, 2, nan2, HG_TOP_DOWN, &g, &e) == HG_EINVAL);
    CHECK(hg_grid_create(3, 2, NULL, HG_TOP_DOWN, &g, &e) == HG_EINVAL);
    CHECK(hg_grid_create(3, 3, s, (hg_algorithm)7, &g, &e) == HG_EINVAL);
    CHECK(hg_grid_create(3, 3, s, HG_TOP_DOWN, &g, &e) == HG_OK);
    CHECK(hg_grid_set_skin(g, -1.0, &e) == HG_EINVAL);
    CHECK(hg_grid_set_skin(g, NAN, &e) == HG_EINVAL);
    CHECK(hg_grid_set_storage(g, (hg_grid_storage)9, &e) == HG_EINVAL);
    CHECK(hg_grid_level_of(g, 0.5) == 1 && hg_grid_level_of(g, 0.51) == 2 &&
          hg_grid_level_of(g, 2.0) == 3 && hg_grid_level_of(g, 2.01) == 0 &&
          hg_grid_level_of(g, 0.0) == 0);
    hg_pairs ps = {0};
    CHECK(hg_grid_find_contacts(g, &ps, NULL, &e) == HG_EINVAL); /* unbuilt */
    double q[3] = {1, 1, 1};
    CHECK(hg_grid_query(g, q, 0.1, 0.0, stop_at_first, NULL, &e) ==
          HG_EINVAL);
    CHECK(hg_grid_insert(g, q, 0.1, &e) == HG_EINVAL);
    CHECK(isnan(hg_grid_cell_width(g, 1, 0)));
    hg_particles p = {0};
    hg_particles_alloc(&p, 3, 2, &e);
    for (int a = 0; a < 3; a++) {
        p.hi[a] = 10.0;
        p.x[a] = 1.0;
        p.x[3 + a] = 1.5;
    }
    p.r[0] = p.r[1] = 0.5;
    p.r[1] = 2.5; /* above s_L / 2 = 2 */
    CHECK(hg_grid_build(g, &p, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "particle 1") != NULL);
    p.r[1] = NAN;
    CHECK(hg_grid_build(g, &p, &e) == HG_EINVAL);
    p.r[1] = 0.5;
    p.x[4] = 10.0; /* outside the periodic box [0, 10) */
    CHECK(hg_grid_build(g, &p, &e) == HG_EINVAL);
    p.x[4] = INFINITY;
    p.periodic = 0;
    CHECK(hg_grid_build(g, &p, &e) == HG_EINVAL);
    p.x[4] = 1.5;
    p.periodic = 1;
    p.hi[0] = p.lo[0];
    CHECK(hg_grid_build(g, &p, &e) == HG_EINVAL); /* empty periodic box */
    p.hi[0] = 10.0;
    p.dim = 2;
    CHECK(hg_grid_build(g, &p, &e) == HG_EINVAL); /* dim mismatch */
    p.dim = 3;
    CHECK(hg_grid_build(g, &p, &e) == HG_OK);
    CHECK(hg_grid_find_contacts(g, NULL, NULL, &e) == HG_EINVAL);
    CHECK(hg_grid_find_contacts(g, &ps, NULL, &e) == HG_OK && ps.n == 1);
    size_t idx[2] = {0, 0};
    CHECK(hg_grid_find_contacts_subset(g, idx, 2, &ps, NULL, &e) ==
          HG_EINVAL);
    idx[1] = 5;
    CHECK(hg_grid_find_contacts_subset(g, idx, 2, &ps, NULL, &e) ==
          HG_EINVAL);
    CHECK(hg_grid_find_contacts_subset(g, NULL, 1, &ps, NULL, &e) ==
          HG_EINVAL);
    /* the visitor's stop value is passed back */
    CHECK(hg_grid_query(g, q, 0.1, 0.0, stop_at_first, NULL, &e) == 42);
    CHECK(hg_grid_query(g, q, -0.1, 0.0, stop_at_first, NULL, &e) ==
          HG_EINVAL);
    CHECK(hg_grid_query(g, q, 0.1, NAN, stop_at_first, NULL, &e) ==
          HG_EINVAL);
    CHECK(hg_grid_query(g, q, 0.1, 0.0, NULL, NULL, &e) == HG_EINVAL);
    double out_box[3] = {11.0, 1.0, 1.0};
    CHECK(hg_grid_query(g, out_box, 0.1, 0.0, stop_at_first, NULL, &e) ==
          HG_EINVAL);
    CHECK(hg_grid_insert(g, out_box, 0.1, &e) == HG_EINVAL);
    CHECK(hg_grid_insert(g, q, 3.0, &e) == HG_EINVAL);
    /* a periodic 10-box with sizes 1, 2, 4: 10, 5, 2 cells of 1, 2, 5 */
    CHECK_CLOSE(hg_grid_cell_width(g, 1, 0), 1.0, 1e-15, 0);
    CHECK_CLOSE(hg_grid_cell_width(g, 2, 2), 2.0, 1e-15, 0);
    CHECK_CLOSE(hg_grid_cell_width(g, 3, 1), 5.0, 1e-15, 0);
    CHECK(hg_grid_memory(g) > 0);
    /* insertion needs dense storage on the level */
    CHECK(hg_grid_set_storage(g, HG_GRID_HASH, &e) == HG_OK);
    CHECK(hg_grid_build(g, &p, &e) == HG_OK);
    CHECK(hg_grid_level_is_hashed(g, 1));
    CHECK(hg_grid_insert(g, q, 0.1, &e) == HG_EINVAL);
    hg_pairs_clear(&ps);
    hg_particles_clear(&p);
    hg_grid_free(g);
    hg_grid_free(NULL);
    hg_grid_counts_clear(NULL);
}

/* Validation of a large set (checked in parallel): the message names the
 * first bad particle, and a later good build still works. */
static void test_bad_large(void)
{
    hg_err e;
    hg_particles p = {0};
    const size_t n = 120000;
    CHECK(hg_particles_alloc(&p, 2, n, &e) == HG_OK);
    p.hi[0] = p.hi[1] = 400.0;
    for (size_t i = 0; i < n; i++) {
        p.x[2 * i] = (double)(i % 400) + 0.5;
        p.x[2 * i + 1] = (double)(i / 400) + 0.25;
        p.r[i] = 0.3;
    }
    double s[2] = {0.7, 1.0};
    hg_grid *g = NULL;
    hg_pairs ps = {0};
    CHECK(hg_grid_create(2, 2, s, HG_TOP_DOWN, &g, &e) == HG_OK);
    p.r[100001] = 0.9; /* exceeds s_L / 2 */
    p.x[2 * 70000 + 1] = 401.0; /* outside the periodic box: first */
    CHECK(hg_grid_build(g, &p, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "particle 70000:") != NULL);
    p.x[2 * 70000 + 1] = 175.25;
    CHECK(hg_grid_build(g, &p, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "particle 100001:") != NULL);
    p.r[100001] = 0.3;
    CHECK(hg_grid_build(g, &p, &e) == HG_OK);
    CHECK(hg_grid_find_contacts(g, &ps, NULL, &e) == HG_OK);
    CHECK(ps.n == 0); /* spacing 1 > 2 r: no contacts */
    hg_pairs_clear(&ps);
    hg_grid_free(g);
    hg_particles_clear(&p);
}

/* Hand-made: two particles across the periodic seam, one cell per axis
 * and two cells per axis, both algorithms: found exactly once. */
static void test_seam(void)
{
    for (int cells = 1; cells <= 3; cells++)
        for (int alg = 0; alg < 2; alg++) {
            hg_err e;
            hg_particles p = {0};
            hg_particles_alloc(&p, 2, 3, &e);
            double A = 2.0 * cells;
            p.hi[0] = p.hi[1] = A;
            p.x[0] = 0.1, p.x[1] = 0.1;         /* near the corner */
            p.x[2] = A - 0.1, p.x[3] = A - 0.1; /* diagonal image */
            p.x[4] = A - 0.05, p.x[5] = 0.2;
            p.r[0] = p.r[1] = 0.9;
            p.r[2] = 0.2;
            double s[2] = {1.0, 2.0};
            hg_grid *g = NULL;
            hg_pairs got = {0};
            CHECK(hg_grid_create(2, 2, s, (hg_algorithm)alg, &g, &e) == HG_OK);
            CHECK(hg_grid_build(g, &p, &e) == HG_OK);
            CHECK(hg_grid_find_contacts(g, &got, NULL, &e) == HG_OK);
            CHECK(got.n == 3);
            hg_pairs_sort(&got);
            CHECK(well_formed(&got));
            hg_pairs_clear(&got);
            hg_grid_free(g);
            hg_particles_clear(&p);
        }
}

/* Open domain of huge extent: two clusters 1e12 apart. Dense tables
 * would need ~1e36 cells; AUTO must fall back to hashing and stay exact. */
static void test_huge_extent(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 99);
    hg_err e;
    hg_particles p = {0};
    hg_particles_alloc(&p, 3, 400, &e);
    p.periodic = 0;
    for (size_t i = 0; i < p.n; i++) {
        double off = i % 2 ? 1e12 : -5.0;
        for (int a = 0; a < 3; a++)
            p.x[i * 3 + (size_t)a] = off + 6.0 * gsl_rng_uniform(rng);
        p.r[i] = 0.05 + 0.45 * gsl_rng_uniform(rng);
    }
    double s[2] = {0.4, 1.0};
    for (int alg = 0; alg < 2; alg++) {
        hg_grid *g = NULL;
        hg_pairs got = {0}, want = {0};
        CHECK(hg_grid_create(3, 2, s, (hg_algorithm)alg, &g, &e) == HG_OK);
        CHECK(hg_grid_build(g, &p, &e) == HG_OK);
        CHECK(hg_grid_level_is_hashed(g, 1) && hg_grid_level_is_hashed(g, 2));
        CHECK(hg_grid_memory(g) < 1000 * p.n);
        CHECK(hg_grid_find_contacts(g, &got, NULL, &e) == HG_OK);
        brute(&p, 0.0, &want);
        hg_pairs_sort(&got);
        CHECK(want.n > 0 && well_formed(&got) && hg_pairs_equal(&got, &want));
        CHECK(check_query(g, &p, 0.0));
        /* forcing dense storage is refused with a message */
        CHECK(hg_grid_set_storage(g, HG_GRID_DENSE, &e) == HG_OK);
        CHECK(hg_grid_build(g, &p, &e) == HG_ELIMIT);
        hg_pairs_clear(&got);
        hg_pairs_clear(&want);
        hg_grid_free(g);
    }
    hg_particles_clear(&p);
    gsl_rng_free(rng);
}

int main(int argc, char **argv)
{
    unsigned long first = 1, cases = 600;
    if (argc > 1)
        first = strtoul(argv[1], NULL, 10);
    if (argc > 2)
        cases = strtoul(argv[2], NULL, 10);
    printf("test_grid_oracle: seeds %lu .. %lu; 3D pair loop %s\n", first,
           first + cases - 1,
           hg_grid_simd(-1) ? "AVX2 (and scalar)" : "scalar");
    unsigned long failed = 0;
    for (unsigned long k = 0; k < cases; k++) {
        int ok = run_case(first + k);
        CHECK(ok);
        failed += !ok;
    }
    printf("oracle: %lu of %lu cases failed\n", failed, cases);
    test_insert(first);
    test_bad_input();
    test_bad_large();
    test_seam();
    test_huge_extent();
    return hg_test_summary("test_grid_oracle");
}
