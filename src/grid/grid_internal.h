/* grid_internal.h - data layout and inline cell helpers shared by the
 * parts of the bundled HGrid (not part of the public API):
 *   grid.c     handle life cycle, setters, accessors;
 *   build.c    build (mapping) phase: levels, storage, validation
 *              (hg_grid_build), and single insertions;
 *   sort.c     build phase: the parallel sort into (level, bucket) order
 *              (sort_levels.c: its first pass with table levels only);
 *   stencil.c  which cells and levels a particle visits;
 *   order.c    the order in which the pair loop visits the particles;
 *   search.c   the pair loop with its work counters (search_pairs.h:
 *              its candidate lists and pair test);
 *   query.c    the neighbour query.
 *
 * Layout: after hg_grid_build the particles are sorted by level, then by
 * bucket, contiguously; cellstart[base_h + b] .. cellstart[base_h + b + 1]
 * is the range of bucket b (CSR). A bucket is
 *   LV_TABLE  a block of 2^bx cells along x, indexed linearly (x fastest:
 *             bucket (y + n1 z) nbx + (x >> bx)), its particles sorted by
 *             cell x. bx = 0 is the plain dense grid of cells; levels with
 *             far more cells than particles take the smallest bx whose
 *             table fits the memory budget. The cells x0..x1 of a row are
 *             one contiguous particle range: two table entries, and with
 *             bx > 0 the particles of the two end blocks outside x0..x1
 *             trimmed off;
 *   LV_HROWS  a whole row of cells along x, numbered through an
 *             open-addressing table of the non-empty rows (levels with
 *             too many rows for a table, e.g. open domains of huge
 *             extent), its particles sorted by cell x and searched.
 * A search touches one table entry per row end, never one per cell, and
 * cend[s] is the end of particle s's own cell. */
#ifndef HG_GRID_INTERNAL_H
#define HG_GRID_INTERNAL_H

#include "hg_grid.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(__GNUC__)
#define HG_INLINE static inline __attribute__((always_inline))
#define HG_NOINLINE __attribute__((noinline))
#else
#define HG_INLINE static inline
#define HG_NOINLINE
#endif

#define HG_GRID_MAX_LEVELS 65535
#define HG_GRID_MAX_AXIS_CELLS 1e15

enum { LV_TABLE = 0, LV_HROWS = 1 };

typedef struct hslot {
    int64_t y, z; /* row coordinates */
    uint32_t id;  /* UINT32_MAX: free */
} hslot;

typedef struct level_t {
    double s;         /* nominal size s_h */
    double w[3];      /* cell width per axis */
    double inv[3];    /* 1 / w */
    int64_t n[3];     /* cells per axis (1 on unused axes) */
    int small;        /* periodic with fewer than 3 cells on some axis */
    int kind;         /* LV_TABLE, LV_HROWS */
    int bx;           /* LV_TABLE: 2^bx cells per bucket along x */
    int64_t nbx;      /* LV_TABLE: buckets per row, ceil(n0 / 2^bx) */
    size_t nb;        /* buckets: n1 n2 nbx; used rows */
    size_t base;      /* first global bucket */
    size_t first;     /* first sorted particle */
    size_t count;     /* particles from the build */
    size_t total;     /* count + inserted */
    hslot *tab;
    size_t cap;       /* power of two */
    int nj;           /* levels scanned across (non-empty, TD/BU) */
    int *J;
} level_t;

struct hg_grid {
    int dim, L;
    hg_algorithm alg;
    double *sizes;
    double skin;
    hg_grid_storage storage;
    level_t *lev;
    int built;
    int periodic;
    double lo[3], hi[3], len[3], half[3];
    size_t n;           /* built particles */
    int stride;         /* doubles per particle in xr: dim + 1 */
    double *xr;         /* sorted records: centre x[0..dim-1], radius */
    uint32_t *id;       /* original index */
    uint16_t *lv;       /* level index 0..L-1 */
    uint32_t *cend;     /* end of the particle's own cell */
    uint32_t *cellstart;
    size_t total_cells; /* buckets of all levels */
    /* buffers kept between builds (capacities ncap particles, ccap bucket
     * entries); sgc, slv: bucket and level in input order */
    size_t ncap, ccap;
    uint32_t *sgc;      /* bucket of every particle, input order */
    uint16_t *slv;      /* level of every particle, input order */
    uint64_t *tmp;      /* (bucket, particle) sorted by groups of buckets */
    double *wcbuf;      /* the sort's per-thread buffers of the scatter */
    size_t wccap;       /* doubles in wcbuf */
    size_t scap;        /* bytes of scratch: the sort's per-thread windows and
                         * arrays, long rows */
    void *scratch;
    uint32_t *ord;      /* the pair loop's visiting order (order.c) */
    size_t ordcap;
    hg_pairs *tpairs;   /* pair lists of the search threads 1.. (0: out) */
    int ntpairs;
    /* inserted particles: one chain per dense cell */
    size_t np, npcap;
    double *px, *pr;
    int32_t *pnext;
    int32_t *phead;     /* total_cells entries, -1 = none */
};

/* c modulo n in 0..n-1; c is nearly always within one period, and a
 * 64-bit division costs as much as ten pair checks. */
HG_INLINE int64_t wrap(int64_t c, int64_t n)
{
    if (c < 0) {
        c += n;
        if (c >= 0)
            return c;
    } else if (c < n) {
        return c;
    } else {
        c -= n;
        if (c < n)
            return c;
    }
    c %= n;
    return c < 0 ? c + n : c;
}

/* floor(v) for |v| < 2^63: the libm call costs more than a pair check. */
HG_INLINE int64_t ifloor(double v)
{
    int64_t i = (int64_t)v;
    return i - (v < (double)i);
}

/* Cell coordinate of a centre (inside the box / extent). */
HG_INLINE int64_t cell_coord(const hg_grid *g, const level_t *lv, int a,
                             double x)
{
    int64_t c = ifloor((x - g->lo[a]) * lv->inv[a]);
    if (c < 0)
        c = g->periodic ? wrap(c, lv->n[a]) : 0;
    else if (c >= lv->n[a])
        c = g->periodic ? wrap(c, lv->n[a]) : lv->n[a] - 1;
    return c;
}

HG_INLINE uint64_t hkey(int64_t y, int64_t z)
{
    uint64_t h = (uint64_t)y * 0x9E3779B97F4A7C15ULL;
    h ^= (uint64_t)z * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return h;
}

/* Global bucket of row (y, z) of a hashed-row level, or SIZE_MAX when the
 * level has no such row. */
HG_INLINE size_t row_bucket(const level_t *lv, int64_t y, int64_t z)
{
    size_t mask = lv->cap - 1;
    size_t i = (size_t)hkey(y, z) & mask;
    for (;;) {
        const hslot *sl = &lv->tab[i];
        if (sl->id == UINT32_MAX)
            return SIZE_MAX;
        if (sl->y == y && sl->z == z)
            return lv->base + sl->id;
        i = (i + 1) & mask;
    }
}

HG_INLINE int64_t key_x(const hg_grid *g, const level_t *lv, size_t t)
{
    return cell_coord(g, lv, 0, g->xr[t * (size_t)g->stride]);
}

/* Particles [*b, *e) of the cells x0..x1 of row (y, z) of level lv
 * (0 <= x0 <= x1 < n0). */
HG_INLINE void row_range(const hg_grid *g, const level_t *lv, int64_t y,
                         int64_t z, int64_t x0, int64_t x1, size_t *b,
                         size_t *e)
{
    const uint32_t *cs = g->cellstart;
    if (lv->kind == LV_TABLE) {
        const int bx = lv->bx;
        size_t row = lv->base + (size_t)(lv->nbx * (y + lv->n[1] * z));
        size_t b0 = row + (size_t)(x0 >> bx), b1 = row + (size_t)(x1 >> bx);
        size_t lo = cs[b0], hi = cs[b1 + 1];
        if (bx) { /* trim the end blocks (about one particle each) */
            const int64_t m = ((int64_t)1 << bx) - 1;
            if (x0 & m) {
                size_t be = cs[b0 + 1];
                while (lo < be && key_x(g, lv, lo) < x0)
                    lo++;
            }
            if ((x1 & m) != m && x1 != lv->n[0] - 1) {
                size_t bb = cs[b1];
                while (hi > bb && key_x(g, lv, hi - 1) > x1)
                    hi--;
            }
        }
        *b = lo;
        *e = hi;
        return;
    }
    size_t r = row_bucket(lv, y, z);
    if (r == SIZE_MAX) {
        *b = *e = 0;
        return;
    }
    size_t lo = cs[r], hi = cs[r + 1];
    if (hi - lo > 8) { /* binary search for the first cell >= x0 */
        size_t a = lo, c = hi;
        while (a < c) {
            size_t m = a + (c - a) / 2;
            if (key_x(g, lv, m) < x0)
                a = m + 1;
            else
                c = m;
        }
        lo = a;
    } else {
        while (lo < hi && key_x(g, lv, lo) < x0)
            lo++;
    }
    size_t t = lo;
    while (t < hi && key_x(g, lv, t) <= x1)
        t++;
    *b = lo;
    *e = t;
}

/* Canonical linear key of a cell on a level (independent of storage). */
HG_INLINE int64_t canon(const level_t *lv, const int64_t *k)
{
    return k[0] + lv->n[0] * (k[1] + lv->n[1] * k[2]);
}

/* Minimum-image squared distance, evaluated as hg_particles_touch does. */
HG_INLINE double dist2(const hg_grid *g, const int D, const double *a,
                       const double *b)
{
    double d2 = 0.0;
    for (int c = 0; c < D; c++) {
        double d = a[c] - b[c];
        if (g->periodic) {
            if (d > g->half[c])
                d -= g->len[c];
            else if (d < -g->half[c])
                d += g->len[c];
        }
        d2 += d * d;
    }
    return d2;
}

/* Cell range [c0, c1] along axis a of level lv covered by [x-beta, x+beta];
 * returns 0 if empty (open domains). *split: the range wraps (periodic). */
HG_INLINE int box_axis(const hg_grid *g, const level_t *lv, int a, double x,
                       double beta, int64_t *c0, int64_t *c1)
{
    int64_t lo = ifloor((x - beta - g->lo[a]) * lv->inv[a]);
    int64_t hi = ifloor((x + beta - g->lo[a]) * lv->inv[a]);
    int64_t n = lv->n[a];
    if (g->periodic) {
        if (hi - lo + 1 >= n) {
            *c0 = 0;
            *c1 = n - 1;
        } else {
            *c0 = wrap(lo, n);
            *c1 = *c0 + (hi - lo); /* may exceed n - 1: wrap when used */
        }
        return 1;
    }
    if (lo < 0)
        lo = 0;
    if (hi > n - 1)
        hi = n - 1;
    *c0 = lo;
    *c1 = hi;
    return lo <= hi;
}

/* Index 0..L-1 of the lowest level with 2 r <= s_h, or -1. With few
 * levels, the count of sizes below 2 r (sizes are sorted): no branch to
 * mispredict, as a binary search would once per level of depth. */
HG_INLINE int hg_grid_level_index(const hg_grid *g, double r)
{
    if (!(r > 0.0) || !(2.0 * r <= g->sizes[g->L - 1]))
        return -1;
    const double d = 2.0 * r;
    if (g->L <= 16) {
        int h = 0;
        for (int j = 0; j < g->L - 1; j++)
            h += g->sizes[j] < d;
        return h;
    }
    int a = 0, b = g->L - 1;
    while (a < b) {
        int m = (a + b) / 2;
        if (d <= g->sizes[m])
            b = m;
        else
            a = m + 1;
    }
    return a;
}

/* grid.c */
void hg_grid_built_free(hg_grid *g);
void hg_grid_inserted_free(hg_grid *g);

/* sort.c */
/* Sort the particles of p into (level, bucket) order: records, ids, cend
 * (needs the levels' base, cellstart of total_cells + 2 entries, and
 * without find g->slv, hashed-row buckets in g->sgc, the levels' first).
 * With find (table levels only; an open box's extent set) the levels are
 * found in the same pass and the levels' count, total and first set.
 * HG_OK, HG_EINVAL (with find: a particle outside the box or extent, or
 * of no level) or HG_ENOMEM. */
int hg_grid_sort(hg_grid *g, const hg_particles *p, int find);

/* sort_levels.c */
/* The sort's first pass over particles [i0, i1) with table levels only
 * (g->periodic: a periodic box; else an open one whose extent holds every
 * centre): level, checks and global bucket of each particle into g->sgc,
 * counted by group of 2^shift buckets into h. Returns 1 if a particle is
 * outside the box or extent, or of no level (not counted). */
int hg_grid_read_levels(hg_grid *g, const hg_particles *p, size_t i0,
                        size_t i1, int shift, size_t *h);

/* order.c */
/* The order in which the pair loop visits the sorted particles: a
 * permutation of 0..n-1 in g->ord (kept for the next search), or NULL for
 * the build's order (Bottom-Up, nothing to reorder, or no memory). */
const uint32_t *hg_grid_search_order(hg_grid *g);

/* stencil.c */
/* Own-level half neighbourhood offsets (n_c = 4 in 2D, 13 in 3D). */
extern const int hg_grid_half2[4][3];
extern const int hg_grid_half3[13][3];
/* The levels each level scans across (non-empty, Top-Down: finer,
 * Bottom-Up: coarser), into lev[h].J / lev[h].nj. */
int hg_grid_stencil_levels(hg_grid *g, hg_err *e);
/* Own-level neighbours of a periodic level with < 3 cells on some axis:
 * the distinct cells of the full stencil whose canonical key exceeds the
 * own cell's; returns their count. */
int hg_grid_small_neighbours(const hg_grid *g, const level_t *lv,
                             const int64_t *k, int64_t nb[26][3]);

#endif
