/* test_ranks.c - a frame split over MPI ranks as LAMMPS splits it
 * (models/lammps_ranks.c, src/advise/ranks.c) on hand-made cases whose
 * counts are worked out by hand: the processor grid and its
 * constraints, ownership and ghosts across periodic faces (images of a
 * rank's own atoms included) and not across walls, shift balancing and
 * rcb of clustered atoms, shrink-wrapped faces, the layout's lines, and
 * bad input. */
#include "hg_ranks.h"
#include "whole_run_internal.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* n atoms of radius r at xs (n * dim), box [lo, hi] on every axis. */
static void frame(hg_particles *p, int dim, size_t n, const double *xs,
                  double r, double lo, double hi, const char *boundary)
{
    hg_err e = {0};
    CHECK(hg_particles_alloc(p, dim, n, &e) == HG_OK);
    for (size_t i = 0; i < n * (size_t)dim; i++)
        p->x[i] = xs[i];
    for (size_t i = 0; i < n; i++)
        p->r[i] = r;
    for (int a = 0; a < 3; a++) {
        p->lo[a] = lo;
        p->hi[a] = hi;
    }
    CHECK(hg_particles_set_boundary(p, boundary, &e) == HG_OK);
}

static void test_grid(void)
{
    hg_err e = {0};
    int g[3], free3[3] = {0, 0, 0};
    double cube[3] = {1, 1, 1};
    CHECK(hg_ranks_grid(8, 3, cube, free3, g, &e) == HG_OK && g[0] == 2 &&
          g[1] == 2 && g[2] == 2);
    /* 12 on a cube: 2x2x3 and 2x3x2 tie; the first tried wins */
    CHECK(hg_ranks_grid(12, 3, cube, free3, g, &e) == HG_OK && g[0] == 2 &&
          g[1] == 2 && g[2] == 3);
    double tall[3] = {1, 1, 8};
    CHECK(hg_ranks_grid(8, 3, tall, free3, g, &e) == HG_OK && g[0] == 1 &&
          g[1] == 1 && g[2] == 8);
    /* processors * * 1 on a cube: 2x4x1 and 4x2x1 tie; LAMMPS' cull of
     * the other grids moves 4x2x1 ahead (as lmp chose on pour_poly.data,
     * 20 x 20 x 33, at 8 ranks) */
    int z1[3] = {0, 0, 1};
    CHECK(hg_ranks_grid(8, 3, cube, z1, g, &e) == HG_OK && g[0] == 4 &&
          g[1] == 2 && g[2] == 1);
    double flat[3] = {3, 2, 1};
    CHECK(hg_ranks_grid(6, 2, flat, free3, g, &e) == HG_OK && g[0] == 3 &&
          g[1] == 2 && g[2] == 1);
    int bad[3] = {3, 0, 0};
    CHECK(hg_ranks_grid(8, 3, cube, bad, g, &e) == HG_EINVAL &&
          strstr(e.msg, "processors 3 0 0"));
    CHECK(hg_ranks_grid(7, 2, flat, free3, g, &e) == HG_OK && g[2] == 1 &&
          g[0] * g[1] == 7);
}

/* Ghosts across periodic faces, images of the rank's own atoms, none
 * across walls. Box [0, 10]^3, 2 ranks along x (grid 2x1x1 forced). */
static void test_ghosts(void)
{
    hg_err e = {0};
    hg_ranks_layout l;
    hg_ranks_layout_default(&l, 2);
    l.user[0] = 2;
    l.user[1] = l.user[2] = 1;
    hg_ranks_result r;
    /* one atom at x 0.5, y 5, z 5: rank 0 owns it, rank 1 sees its image
     * across the x face at 10.5 */
    double a1[3] = {0.5, 5.0, 5.0};
    hg_particles p;
    frame(&p, 3, 1, a1, 0.1, 0.0, 10.0, "p p p");
    CHECK(hg_ranks_decompose(&p, NULL, &l, 1.0, NULL, NULL, &r, &e) ==
          HG_OK);
    CHECK(r.grid[0] == 2 && r.ranks[0].nlocal == 1 &&
          r.ranks[1].nlocal == 0);
    CHECK(r.ranks[0].nghost == 0 && r.ranks[1].nghost == 1);
    hg_ranks_result_clear(&r);
    hg_particles_clear(&p);
    /* at (0.5, 0.5, 5): rank 1 sees the images (10.5, 0.5) and
     * (10.5, 10.5); rank 0 its own atom's image (0.5, 10.5) */
    double a2[3] = {0.5, 0.5, 5.0};
    frame(&p, 3, 1, a2, 0.1, 0.0, 10.0, "p p p");
    CHECK(hg_ranks_decompose(&p, NULL, &l, 1.0, NULL, NULL, &r, &e) ==
          HG_OK);
    CHECK(r.ranks[0].nghost == 1 && r.ranks[1].nghost == 2);
    hg_ranks_result_clear(&r);
    /* walls along x: nothing crosses the x faces; y stays periodic */
    hg_particles_set_boundary(&p, "f p p", &e);
    CHECK(hg_ranks_decompose(&p, NULL, &l, 1.0, NULL, NULL, &r, &e) ==
          HG_OK);
    CHECK(r.ranks[0].nghost == 1 && r.ranks[1].nghost == 0);
    hg_ranks_result_clear(&r);
    /* per-atom cutoff (mode multi) below the distance to the face */
    double cut = 0.4;
    hg_particles_set_boundary(&p, "p p p", &e);
    CHECK(hg_ranks_decompose(&p, NULL, &l, 1.0, &cut, NULL, &r, &e) ==
          HG_OK);
    CHECK(r.ranks[0].nghost == 0 && r.ranks[1].nghost == 0);
    hg_ranks_result_clear(&r);
    /* a ghost cutoff over the box: images two boxes away too; one rank
     * along each axis sees 3^3 - 1 images of its atom at cutoff 12 (the
     * shifts -1..1 within [0 - 12, 10 + 12]) and 5^3 - 1 at cutoff 16
     * (-2..2) */
    hg_ranks_layout one;
    hg_ranks_layout_default(&one, 1);
    double mid[3] = {5.0, 5.0, 5.0};
    hg_particles q;
    frame(&q, 3, 1, mid, 0.1, 0.0, 10.0, "p p p");
    CHECK(hg_ranks_decompose(&q, NULL, &one, 12.0, NULL, NULL, &r, &e) ==
          HG_OK);
    CHECK(r.ranks[0].nghost == 26);
    hg_ranks_result_clear(&r);
    CHECK(hg_ranks_decompose(&q, NULL, &one, 16.0, NULL, NULL, &r, &e) ==
          HG_OK);
    CHECK(r.ranks[0].nghost == 124);
    hg_ranks_result_clear(&r);
    hg_particles_clear(&q);
    /* the stored pairs: two atoms across the rank boundary share one
     * pair, half each; two on one rank give it the whole pair */
    double two[6] = {4.9, 5.0, 5.0, 5.1, 5.0, 5.0};
    frame(&q, 3, 2, two, 0.1, 0.0, 10.0, "p p p");
    hg_pairs pairs = {0};
    CHECK(hg_ranks_pairs_find(&q, NULL, 0.05, &pairs, &e) == HG_OK &&
          pairs.n == 1);
    CHECK(hg_ranks_decompose(&q, NULL, &l, 1.0, NULL, &pairs, &r, &e) ==
          HG_OK);
    CHECK(r.ranks[0].pairs == 0.5 && r.ranks[1].pairs == 0.5);
    CHECK(r.ranks[0].nghost == 1 && r.ranks[1].nghost == 1);
    hg_ranks_result_clear(&r);
    /* newton off: both ranks store the pair across them */
    hg_ranks_layout off = l;
    CHECK(hg_ranks_layout_parse("newton off on", 3, &off, &e) == HG_OK &&
          off.newton_off);
    CHECK(hg_ranks_decompose(&q, NULL, &off, 1.0, NULL, &pairs, &r, &e) ==
          HG_OK);
    CHECK(r.ranks[0].pairs == 1.0 && r.ranks[1].pairs == 1.0);
    CHECK(r.ranks[0].nghost == 1 && r.ranks[1].nghost == 1);
    hg_ranks_result_clear(&r);
    CHECK(hg_ranks_decompose(&q, NULL, &one, 1.0, NULL, &pairs, &r, &e) ==
          HG_OK);
    CHECK(r.ranks[0].pairs == 1.0);
    hg_ranks_result_clear(&r);
    /* across the periodic face: minimum image */
    double wrap[6] = {0.05, 5.0, 5.0, 9.95, 5.0, 5.0};
    hg_particles w;
    frame(&w, 3, 2, wrap, 0.1, 0.0, 10.0, "p p p");
    CHECK(hg_ranks_pairs_find(&w, NULL, 0.0, &pairs, &e) == HG_OK &&
          pairs.n == 1);
    hg_particles_set_boundary(&w, "f p p", &e);
    CHECK(hg_ranks_pairs_find(&w, NULL, 0.0, &pairs, &e) == HG_OK &&
          pairs.n == 0);
    hg_pairs_clear(&pairs);
    hg_particles_clear(&w);
    hg_particles_clear(&q);
    hg_particles_clear(&p);
}

/* 100 atoms in x in [0, 2) of a box [0, 10]: the uniform split leaves
 * them on rank 0; shift balancing moves the cut among them; rcb too. */
static void test_balance(void)
{
    hg_err e = {0};
    enum { N = 100 };
    double xs[3 * N];
    uint64_t s = 12345;
    for (int i = 0; i < N; i++) {
        xs[3 * i] = 2.0 * hg_test_uniform(&s);
        xs[3 * i + 1] = 10.0 * hg_test_uniform(&s);
        xs[3 * i + 2] = 10.0 * hg_test_uniform(&s);
    }
    hg_particles p;
    frame(&p, 3, N, xs, 0.05, 0.0, 10.0, "p p p");
    hg_ranks_layout l;
    hg_ranks_layout_default(&l, 2);
    l.user[0] = 2;
    l.user[1] = l.user[2] = 1;
    hg_ranks_result r;
    CHECK(hg_ranks_decompose(&p, NULL, &l, 0.5, NULL, NULL, &r, &e) ==
          HG_OK);
    CHECK(r.ranks[0].nlocal == N && r.ranks[1].nlocal == 0 &&
          r.imbalance == 2.0);
    hg_ranks_result_clear(&r);
    CHECK(hg_ranks_layout_parse("balance 1.0 shift x 20 1.0", 3, &l, &e) ==
          HG_OK);
    CHECK(hg_ranks_decompose(&p, NULL, &l, 0.5, NULL, NULL, &r, &e) ==
          HG_OK);
    CHECK(r.balanced && r.iterations >= 1 && r.iterations <= 20);
    CHECK(r.ranks[0].nlocal + r.ranks[1].nlocal == N);
    CHECK(r.ranks[0].nlocal >= 49 && r.ranks[0].nlocal <= 51);
    CHECK(r.split[0][1] > 0.0 && r.split[0][1] < 0.2);
    hg_ranks_result_clear(&r);
    /* the threshold: a balance that is not needed does not act */
    CHECK(hg_ranks_layout_parse("balance 2.5 shift x 20 1.0", 3, &l, &e) ==
          HG_OK);
    CHECK(hg_ranks_decompose(&p, NULL, &l, 0.5, NULL, NULL, &r, &e) ==
          HG_OK);
    CHECK(!r.balanced && r.ranks[0].nlocal == N);
    hg_ranks_result_clear(&r);
    /* rcb over 4 ranks: a quarter each, but for the atom each cut goes
     * through, which the rank above the cut owns (LAMMPS' exchange: a
     * sub-box is [lo, hi)) */
    hg_ranks_layout t;
    hg_ranks_layout_default(&t, 4);
    CHECK(hg_ranks_layout_parse("comm_style tiled\nbalance 1.0 rcb", 3, &t,
                                &e) == HG_OK &&
          t.balance == HG_RANKS_RCB);
    CHECK(hg_ranks_decompose(&p, NULL, &t, 0.5, NULL, NULL, &r, &e) ==
          HG_OK);
    CHECK(r.tiled);
    size_t sum = 0;
    for (int k = 0; k < 4; k++) {
        CHECK(r.ranks[k].nlocal >= 24 && r.ranks[k].nlocal <= 26);
        sum += r.ranks[k].nlocal;
    }
    CHECK(sum == N);
    /* every atom within the sub-box it is owned by */
    for (size_t i = 0; i < N; i++) {
        const hg_ranks_rank *q = &r.ranks[r.owner[i]];
        for (int a = 0; a < 3; a++)
            CHECK(xs[3 * i + a] >= q->lo[a] && xs[3 * i + a] < q->hi[a]);
    }
    /* ghosts: from the sub-boxes by brute force over the images */
    for (int k = 0; k < 4; k++) {
        size_t ng = 0;
        for (size_t i = 0; i < N; i++)
            for (int im = 0; im < 27; im++) {
                int sh[3] = {im % 3 - 1, (im / 3) % 3 - 1, im / 9 - 1};
                int in = 1;
                for (int a = 0; a < 3; a++) {
                    double v = xs[3 * i + a] + 10.0 * sh[a];
                    in &= v >= r.ranks[k].lo[a] - 0.5 &&
                          v <= r.ranks[k].hi[a] + 0.5;
                }
                if (in && !(im == 13 && r.owner[i] == k))
                    ng++;
            }
        CHECK(r.ranks[k].nghost == ng);
    }
    hg_ranks_result_clear(&r);
    hg_particles_clear(&p);
}

/* Shrink-wrapped faces: the cuts go over the atoms' extent (plus LAMMPS'
 * margin of 1e-4 of the edge), m never inside the frame's face. */
static void test_shrink(void)
{
    hg_err e = {0};
    double xs[6] = {2.0, 5.0, 5.0, 4.0, 5.0, 5.0};
    hg_particles p;
    frame(&p, 3, 2, xs, 0.1, 0.0, 10.0, "s p p");
    hg_ranks_layout l;
    hg_ranks_layout_default(&l, 2);
    l.user[0] = 2;
    l.user[1] = l.user[2] = 1;
    hg_ranks_result r;
    CHECK(hg_ranks_decompose(&p, NULL, &l, 0.5, NULL, NULL, &r, &e) ==
          HG_OK);
    CHECK_CLOSE(r.box_lo[0], 2.0 - 1e-3, 1e-12, 1e-12);
    CHECK_CLOSE(r.box_hi[0], 4.0 + 1e-3, 1e-12, 1e-12);
    CHECK(r.ranks[0].nlocal == 1 && r.ranks[1].nlocal == 1);
    hg_ranks_result_clear(&r);
    char faces[3][2];
    CHECK(hg_ranks_faces_parse("fm p p", 3, faces, &e) == HG_OK &&
          faces[0][0] == 'f' && faces[0][1] == 'm' && faces[1][1] == 'p');
    CHECK(hg_ranks_decompose(&p, (const char(*)[2])faces, &l, 0.5, NULL,
                             NULL, &r, &e) == HG_OK);
    CHECK(r.box_lo[0] == 0.0 && r.box_hi[0] == 10.0);
    CHECK(r.ranks[0].nlocal == 2);
    hg_ranks_result_clear(&r);
    hg_particles_clear(&p);
}

static void test_lines(void)
{
    hg_err e = {0};
    hg_ranks_layout l;
    hg_ranks_layout_default(&l, 16);
    CHECK(hg_ranks_layout_parse(
              "processors * * 1; neighbor 0.2 bin\n"
              "fix 2 all balance 10000 1.1 shift xy 20 1.01",
              3, &l, &e) == HG_OK);
    CHECK(l.user[0] == 0 && l.user[2] == 1 && l.balance == HG_RANKS_SHIFT &&
          l.fix && l.fix_every == 10000 && !strcmp(l.dims, "xy") &&
          l.niter == 20 && l.stopthresh == 1.01 && l.thresh == 1.1);
    char buf[256];
    hg_ranks_layout_lines(&l, 3, buf, sizeof buf);
    CHECK(strstr(buf, "processors * * 1\n") &&
          strstr(buf, "balance 10000 1.1 shift xy 20 1.01"));
    CHECK(l.weight_time == 0.0 && !strstr(buf, "weight"));
    /* a balance weighted by time: read, and written back */
    hg_ranks_layout w;
    hg_ranks_layout_default(&w, 4);
    CHECK(hg_ranks_layout_parse("fix b all balance 500 1.1 shift xy 20 1.1 "
                                "weight time 0.8 out b.txt",
                                3, &w, &e) == HG_OK &&
          w.weight_time == 0.8 && w.fix && w.balance == HG_RANKS_SHIFT);
    char wbuf[256];
    hg_ranks_layout_lines(&w, 3, wbuf, sizeof wbuf);
    CHECK(strstr(wbuf, "fix hgridopt_balance all balance 500 1.1 shift xy "
                       "20 1.1 weight time 0.8\n") != NULL);
    hg_ranks_layout_default(&w, 4);
    CHECK(hg_ranks_layout_parse("balance 1.1 shift z 10 1.1 weight neigh 0.5",
                                3, &w, &e) == HG_OK && w.weight_time == 0.0);
    /* rcb runs with newton off (contact history under comm_style tiled),
     * said before the tiled lines and read back */
    hg_ranks_layout t;
    hg_ranks_layout_default(&t, 8);
    t.balance = HG_RANKS_RCB;
    t.newton_off = 1;
    char tbuf[256];
    hg_ranks_layout_lines(&t, 3, tbuf, sizeof tbuf);
    CHECK(!strcmp(tbuf, "newton off on\ncomm_style tiled\nbalance 1.0 rcb\n"));
    hg_ranks_layout tb;
    hg_ranks_layout_default(&tb, 8);
    CHECK(hg_ranks_layout_parse(tbuf, 3, &tb, &e) == HG_OK && tb.newton_off &&
          tb.balance == HG_RANKS_RCB);
    CHECK(hg_ranks_layout_parse("newton maybe", 3, &tb, &e) != HG_OK &&
          strstr(e.msg, "newton on or off"));
    hg_ranks_layout back;
    hg_ranks_layout_default(&back, 16);
    CHECK(hg_ranks_layout_parse(buf, 3, &back, &e) == HG_OK &&
          back.fix_every == 10000 && back.stopthresh == 1.01);
    /* refused, each naming what is wrong */
    const struct {
        const char *text, *says;
        int dim;
    } bad[] = {
        {"balance 1.0 rcb", "comm_style tiled", 3},
        {"balance 1.0 shift z 10 1.0", "shift axes", 2},
        {"balance 1.0 shift xx 10 1.0", "shift axes", 3},
        {"balance 1.0 shift x 0 1.0", "NITER", 3},
        {"balance 1.0 shift x 10 0.5", "STOPTHRESH", 3},
        {"balance 1.0 x uniform", "shift and rcb", 3},
        {"processors 2 2 2", "2D", 2},
        {"processors 2 two 1", "'two'", 3},
        {"processors * * 1 map xyz", "not modelled", 3},
        {"comm_style tiled", "without balance rcb", 3},
        {"comm_modify cutoff -1", "cutoff", 3},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hg_ranks_layout_default(&l, 4);
        int st = hg_ranks_layout_parse(bad[i].text, bad[i].dim, &l, &e);
        CHECK(st == HG_EINVAL);
        if (!strstr(e.msg, bad[i].says))
            fprintf(stderr, "'%s': %s\n", bad[i].text, e.msg);
        CHECK(strstr(e.msg, bad[i].says) != NULL);
    }
    /* bad frames */
    hg_particles p;
    double x[3] = {1, 1, 1};
    frame(&p, 3, 1, x, 0.1, 0.0, 10.0, "p p p");
    hg_ranks_result r;
    hg_ranks_layout_default(&l, 0);
    CHECK(hg_ranks_decompose(&p, NULL, &l, 1.0, NULL, NULL, &r, &e) ==
              HG_EINVAL &&
          strstr(e.msg, "ranks: 0"));
    hg_ranks_layout_default(&l, 2);
    CHECK(hg_ranks_decompose(&p, NULL, &l, NAN, NULL, NULL, &r, &e) ==
              HG_EINVAL &&
          strstr(e.msg, "ghost cutoff"));
    CHECK(hg_ranks_decompose(&p, NULL, &l, 1e9, NULL, NULL, &r, &e) ==
              HG_ELIMIT &&
          strstr(e.msg, "periodic images"));
    p.n = 0;
    CHECK(hg_ranks_decompose(&p, NULL, &l, 1.0, NULL, NULL, &r, &e) ==
              HG_EINVAL &&
          strstr(e.msg, "no atoms"));
    p.n = 1;
    hg_particles_clear(&p);
}

/* The advice on a bed at the bottom of a tall box: LAMMPS' grid splits
 * the box into equal heights, most ranks get nothing; the answer's
 * busiest rank is near the average. */
static void test_advise(void)
{
    hg_err e = {0};
    enum { N = 2000 };
    double *xs = malloc(sizeof *xs * 3 * N);
    uint64_t s = 99;
    for (int i = 0; i < N; i++) {
        xs[3 * i] = 20.0 * hg_test_uniform(&s);
        xs[3 * i + 1] = 20.0 * hg_test_uniform(&s);
        xs[3 * i + 2] = 4.0 * hg_test_uniform(&s);
    }
    hg_particles p;
    frame(&p, 3, N, xs, 0.3, 0.0, 20.0, "p p f");
    hg_pairs pairs = {0};
    CHECK(hg_ranks_pairs_find(&p, NULL, 0.2, &pairs, &e) == HG_OK);
    hg_ranks_costs k;
    hg_ranks_costs_shipped(&k, 1e-3, 0.4, 10.0);
    hg_ranks_advice *a = malloc(sizeof *a);
    CHECK(hg_ranks_advise(&p, NULL, 8, NULL, 0.8, 0.2, &pairs, &k, 0.05, a,
                          &e) == HG_OK);
    CHECK(a->n > 10 && a->own == 0);
    const hg_ranks_candidate *own = &a->c[a->own], *ans = &a->c[a->answer];
    CHECK(own->grid[0] * own->grid[1] * own->grid[2] == 8);
    CHECK(ans->nlocal.max / ans->nlocal.ave < 1.25);
    CHECK(ans->busiest < own->busiest && !a->kept_own);
    /* with the answer's lines given as yours, it is kept */
    hg_ranks_advice *b = malloc(sizeof *b);
    CHECK(hg_ranks_advise(&p, NULL, 8, ans->lines, 0.8, 0.2, &pairs, &k, 0.05, b,
                          &e) == HG_OK);
    CHECK(b->kept_own || b->c[b->best].busiest >= 0.95 * b->c[0].busiest);
    CHECK_CLOSE(b->c[0].busiest, ans->busiest, 1e-12, 0.0);
    k.steps_per_build = 0.0;
    CHECK(hg_ranks_advise(&p, NULL, 8, NULL, 0.8, 0.2, &pairs, &k, 0.05, b, &e) ==
              HG_EINVAL &&
          strstr(e.msg, "steps per build"));
    free(a);
    free(b);
    hg_pairs_clear(&pairs);
    hg_particles_clear(&p);
    free(xs);
}

/* One profile over several skins gives what a decomposition at each
 * skin gives: ghosts and stored pairs per rank, for a brick, a balanced
 * brick and rcb. */
static int cmp_pair(const void *a, const void *b)
{
    const hg_pair *x = a, *y = b;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    return (x->j > y->j) - (x->j < y->j);
}

/* The stored pairs of a frame of many small atoms and a few large ones
 * (radii 0.05-3.05 in a box of 10: a large atom's reach passes half the
 * box) against every pair by brute force, 2D and 3D, periodic and not:
 * each larger atom finds its pairs in cells sized for the median. */
static void test_pairs_polydisperse(void)
{
    hg_err e = {0};
    const char *bounds[4] = {"p p p", "p f f", "p p", "f p"};
    for (int c = 0; c < 4; c++) {
        int dim = c < 2 ? 3 : 2;
        enum { N = 500 };
        double xs[3 * N];
        uint64_t s = 11 + (uint64_t)c;
        for (int i = 0; i < N * dim; i++)
            xs[i] = 10.0 * hg_test_uniform(&s);
        hg_particles p;
        frame(&p, dim, N, xs, 0.0, 0.0, 10.0, bounds[c]);
        for (int i = 0; i < N; i++) {
            double u = hg_test_uniform(&s);
            p.r[i] = 0.05 * (1.0 + 60.0 * u * u * u * u * u * u);
        }
        p.r[7] = 3.05;
        p.r[8] = p.r[9]; /* equal radii: each pair once */
        const double skin = 0.2;
        hg_pairs got = {0}, want = {0};
        CHECK(hg_ranks_pairs_find(&p, NULL, skin, &got, &e) == HG_OK);
        for (int i = 0; i < N; i++)
            for (int j = i + 1; j < N; j++) {
                double d2 = 0.0;
                for (int a = 0; a < dim; a++) {
                    double d = p.x[j * dim + a] - p.x[i * dim + a];
                    if (hg_particles_axis_periodic(&p, a))
                        d -= 10.0 * round(d / 10.0);
                    d2 += d * d;
                }
                double cut = p.r[i] + p.r[j] + skin;
                if (d2 < cut * cut)
                    CHECK(hg_pairs_push(&want, (uint32_t)i, (uint32_t)j) ==
                          0);
            }
        qsort(got.v, got.n, sizeof *got.v, cmp_pair);
        CHECKM(got.n == want.n && want.n > (size_t)N &&
                   !memcmp(got.v, want.v, sizeof *got.v * got.n),
               "%s: %zu pairs found, %zu by brute force", bounds[c], got.n,
               want.n);
        hg_pairs_clear(&got);
        hg_pairs_clear(&want);
        hg_particles_clear(&p);
    }
}

static void test_profile(void)
{
    hg_err e = {0};
    enum { N = 600 };
    double *xs = malloc(sizeof *xs * 3 * N);
    uint64_t s = 7;
    for (int i = 0; i < N; i++) {
        xs[3 * i] = 12.0 * hg_test_uniform(&s);
        xs[3 * i + 1] = 12.0 * hg_test_uniform(&s);
        xs[3 * i + 2] = 12.0 * hg_test_uniform(&s) * hg_test_uniform(&s);
    }
    hg_particles p;
    frame(&p, 3, N, xs, 0.4, 0.0, 12.0, "p p f");
    const double skins[3] = {0.1, 0.3, 0.9};
    const char *lines[3] = {"", "balance 1.0 shift xyz 10 1.0",
                            "newton off; comm_style tiled; balance 1.0 rcb"};
    /* the frame's gaps found once serve every decomposition */
    hg_ranks_gaps g;
    CHECK(hg_ranks_gaps_find(&p, NULL, skins, 3, &g, &e) == HG_OK);
    CHECK(g.ns == 3 && g.pairs.n > 0);
    for (int k = 0; k < 3; k++) {
        hg_ranks_layout l;
        hg_ranks_layout_default(&l, 6);
        CHECK(hg_ranks_layout_parse(lines[k], 3, &l, &e) == HG_OK);
        hg_ranks_profile pf, pg;
        CHECK(hg_ranks_profile_make(&p, NULL, &l, 0.8, skins, 3, &pf, &e) ==
              HG_OK);
        CHECK(hg_ranks_profile_of(&p, NULL, &l, 0.8, skins, 3, &g, &pg,
                                  &e) == HG_OK);
        for (int q = 0; q < 6 * 3; q++)
            CHECK(pg.pairs[q] == pf.pairs[q] && pg.nghost[q] == pf.nghost[q]);
        hg_ranks_profile_clear(&pg);
        CHECK(hg_ranks_profile_of(&p, NULL, &l, 0.8, skins, 2, &g, &pg,
                                  &e) == HG_EINVAL &&
              strstr(e.msg, "gaps"));
        for (int j = 0; j < 3; j++) {
            hg_pairs pairs = {0};
            hg_ranks_result r;
            CHECK(hg_ranks_pairs_find(&p, NULL, skins[j], &pairs, &e) ==
                  HG_OK);
            CHECK(hg_ranks_decompose(&p, NULL, &l, 0.8 + skins[j], NULL,
                                     &pairs, &r, &e) == HG_OK);
            for (int q = 0; q < 6; q++) {
                CHECK(pf.nghost[q * 3 + j] == r.ranks[q].nghost);
                CHECK(pf.pairs[q * 3 + j] == r.ranks[q].pairs);
                CHECK(pf.res.ranks[q].nlocal == r.ranks[q].nlocal);
            }
            hg_ranks_result_clear(&r);
            hg_pairs_clear(&pairs);
        }
        CHECK(pf.nghost[3 * 0 + 2] >= pf.nghost[3 * 0]);
        hg_ranks_profile_clear(&pf);
    }
    hg_ranks_gaps_clear(&g);
    hg_ranks_layout l;
    hg_ranks_layout_default(&l, 2);
    hg_ranks_profile pf;
    const double bad[2] = {0.3, 0.1};
    CHECK(hg_ranks_profile_make(&p, NULL, &l, 0.8, bad, 2, &pf, &e) ==
              HG_EINVAL &&
          strstr(e.msg, "skins"));
    hg_particles_clear(&p);
    free(xs);
}

/* The schedule whose phases change the decomposition: LAMMPS' rules for
 * what may follow what, and the least path over handmade phase costs
 * (additive per block). */
static void dsched_case(const hg_ranks_layout *const *lay, int R,
                        const double *block, int nb, int G, int *rows,
                        int *cut, int *nph, double *total)
{
    run_dsched ds = {0};
    ds.nD = R;
    ds.nb = nb;
    size_t nn = (size_t)nb + 1;
    ds.seg = calloc((size_t)R * nn * nn, sizeof *ds.seg);
    for (int r = 0; r < R; r++) {
        ds.lay[r] = lay[r];
        for (int b0 = 0; b0 < nb; b0++)
            for (int b1 = b0 + 1; b1 <= nb; b1++) {
                double v = 0.0;
                for (int i = b0; i < b1; i++)
                    v += block[r * nb + i];
                ds.seg[((size_t)r * nn + b0) * nn + b1] = v;
            }
    }
    *total = run_dsched_best(&ds, G, rows, cut, nph);
    free(ds.seg);
}

static void test_decomp_schedule(void)
{
    hg_ranks_layout plain, fix, other, rcb;
    hg_ranks_layout_default(&plain, 4);
    plain.user[0] = 4, plain.user[1] = 1, plain.user[2] = 1;
    fix = plain;
    fix.balance = HG_RANKS_SHIFT;
    fix.fix = 1;
    other = fix;
    other.user[0] = 2, other.user[1] = 2;
    hg_ranks_layout_default(&rcb, 4);
    rcb.balance = HG_RANKS_RCB;
    rcb.fix = 1;
    CHECK(run_dsched_may_follow(&plain, &fix));
    CHECK(!run_dsched_may_follow(&fix, &plain)); /* the cuts stay */
    CHECK(!run_dsched_may_follow(&fix, &other)); /* the grid stays */
    CHECK(!run_dsched_may_follow(&plain, &rcb) &&
          !run_dsched_may_follow(&rcb, &fix));
    CHECK(run_dsched_may_follow(&fix, &fix));
    /* plain cheap early, fix balance late: two phases, cut at block 2 */
    const hg_ranks_layout *two[2] = {&plain, &fix};
    const double up[8] = {1, 1, 5, 5, /* plain */ 2, 2, 2, 2 /* fix */};
    int rows[4], cut[5], nph = 0;
    double total;
    dsched_case(two, 2, up, 4, 3, rows, cut, &nph, &total);
    CHECK(nph == 2 && rows[0] == 0 && rows[1] == 1 && cut[0] == 0 &&
          cut[1] == 2 && cut[2] == 4 && total == 6.0);
    /* the other way round cannot be: fix balance throughout */
    const double down[8] = {5, 5, 1, 1, /* plain */ 2, 2, 2, 2 /* fix */};
    dsched_case(two, 2, down, 4, 3, rows, cut, &nph, &total);
    CHECK(nph == 1 && rows[0] == 1 && total == 8.0);
    /* rcb is not mixed with a grid: the least single one */
    const hg_ranks_layout *mix[2] = {&rcb, &fix};
    const double r2[8] = {1, 1, 5, 5, /* rcb */ 3, 3, 1, 1 /* fix */};
    dsched_case(mix, 2, r2, 4, 3, rows, cut, &nph, &total);
    CHECK(nph == 1 && rows[0] == 1 && total == 8.0);
    /* a phase more only for 1 % less */
    const double flat[8] = {1, 1, 1.001, 1.001, 2, 2, 1, 1};
    dsched_case(two, 2, flat, 4, 3, rows, cut, &nph, &total);
    CHECK(nph == 1 && rows[0] == 0);
}

int main(void)
{
    test_decomp_schedule();
    test_pairs_polydisperse();
    test_profile();
    test_grid();
    test_ghosts();
    test_balance();
    test_shrink();
    test_lines();
    test_advise();
    return hg_test_summary("test_ranks");
}
