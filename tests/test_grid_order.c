/* test_grid_order.c - the order in which the pair loop visits the
 * particles (Top-Down: pencil after pencil, finest level first) is a
 * permutation that keeps every pencil's levels in order, and the search
 * in that order finds the same pairs and counts the same work as the
 * search in memory order (hg_grid_find_contacts_subset over all
 * particles); Bottom-Up and one-pencil grids keep the build's order. */
#include "grid_internal.h"
#include "hg_pack.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

/* Pairs and per-level counts of the search in pencil order equal those in
 * memory order. */
static void same_search(hg_grid *g, const hg_particles *p)
{
    hg_err e = {0};
    hg_pairs a = {0}, b = {0};
    hg_grid_counts ca = {0}, cb = {0};
    size_t *all = malloc(p->n * sizeof *all);
    CHECK(all != NULL);
    for (size_t i = 0; i < p->n; i++)
        all[i] = i;
    CHECK(hg_grid_find_contacts(g, &a, &ca, &e) == HG_OK);
    CHECK(hg_grid_find_contacts_subset(g, all, p->n, &b, &cb, &e) == HG_OK);
    hg_pairs_sort(&a);
    hg_pairs_sort(&b);
    CHECK(a.n == b.n && a.n > 0);
    CHECK(a.n == b.n && memcmp(a.v, b.v, a.n * sizeof *a.v) == 0);
    CHECK(ca.pair_checks == cb.pair_checks);
    CHECK(ca.cell_accesses == cb.cell_accesses);
    CHECK(ca.levels == cb.levels);
    for (int h = 0; h < ca.levels && h < cb.levels; h++) {
        CHECK(ca.per_level[h].pair_checks == cb.per_level[h].pair_checks);
        CHECK(ca.per_level[h].cell_accesses == cb.per_level[h].cell_accesses);
    }
    hg_pairs_clear(&a);
    hg_pairs_clear(&b);
    hg_grid_counts_clear(&ca);
    hg_grid_counts_clear(&cb);
    free(all);
}

/* ord is a permutation of 0..n-1; the coarsest particle first visited
 * comes after a finer one of its pencil, and the order is not the
 * build's. */
static void check_order(hg_grid *g)
{
    const uint32_t *ord = hg_grid_search_order(g);
    CHECK(ord != NULL);
    if (!ord)
        return;
    uint8_t *seen = calloc(g->n, 1);
    CHECK(seen != NULL);
    size_t moved = 0, level_drops = 0;
    for (size_t k = 0; k < g->n; k++) {
        CHECK(ord[k] < g->n && !seen[ord[k]]);
        seen[ord[k]] = 1;
        moved += ord[k] != k;
        /* the level falls back to the finest at each new pencil */
        if (k > 0 && g->lv[ord[k]] < g->lv[ord[k - 1]])
            level_drops++;
    }
    CHECK(moved > 0);
    CHECK(level_drops > 1); /* several pencils, each finest level first */
    CHECK(g->lv[ord[0]] == 0);
    free(seen);
}

static void run(int dim, int periodic, hg_algorithm alg, int expect_order)
{
    hg_err e = {0};
    hg_psd_ctx ctx = {dim, NULL};
    hg_psd *psd = NULL;
    CHECK(hg_psd_parse("powerlaw:alpha=-3,omega=12", &ctx, &psd, &e) == HG_OK);
    hg_pack_params pp = {dim, dim == 3 ? 40000 : 30000, 0.3, 5, 1};
    hg_particles p = {0};
    CHECK(hg_pack_poisson(psd, &pp, &p, &e) == HG_OK);
    p.periodic = periodic; /* open: the same centres inside walls */
    double s[3] = {4.0, 9.0, 24.0};
    hg_grid *g = NULL;
    CHECK(hg_grid_create(dim, 3, s, alg, &g, &e) == HG_OK);
    CHECK(hg_grid_build(g, &p, &e) == HG_OK);
    printf("%dD %s %s: coarsest level %lld x %lld cells\n", dim,
           periodic ? "periodic" : "open", hg_algorithm_name(alg),
           (long long)g->lev[2].n[0], (long long)g->lev[2].n[1]);
    if (expect_order)
        check_order(g);
    else
        CHECK(hg_grid_search_order(g) == NULL);
    same_search(g, &p);
    /* a rebuild of fewer particles reuses the order's buffer */
    hg_particles q = p;
    q.n = p.n / 2;
    CHECK(hg_grid_build(g, &q, &e) == HG_OK);
    if (expect_order)
        check_order(g);
    same_search(g, &q);
    hg_grid_free(g);
    hg_particles_clear(&p);
    hg_psd_free(psd);
}

int main(void)
{
    run(3, 1, HG_TOP_DOWN, 1);
    run(2, 1, HG_TOP_DOWN, 1);
    run(3, 0, HG_TOP_DOWN, 1);
    run(3, 1, HG_BOTTOM_UP, 0);
    /* one level: nothing to interleave */
    {
        hg_err e = {0};
        double s1 = 30.0;
        hg_grid *g = NULL;
        hg_particles p = {0};
        hg_psd_ctx ctx = {3, NULL};
        hg_psd *psd = NULL;
        CHECK(hg_psd_parse("powerlaw:alpha=-3,omega=12", &ctx, &psd, &e) ==
              HG_OK);
        hg_pack_params pp = {3, 5000, 0.3, 5, 1};
        CHECK(hg_pack_poisson(psd, &pp, &p, &e) == HG_OK);
        CHECK(hg_grid_create(3, 1, &s1, HG_TOP_DOWN, &g, &e) == HG_OK);
        CHECK(hg_grid_build(g, &p, &e) == HG_OK);
        CHECK(hg_grid_search_order(g) == NULL);
        hg_grid_free(g);
        hg_particles_clear(&p);
        hg_psd_free(psd);
    }
    return hg_test_summary("test_grid_order");
}
