/* grid.c - the bundled hierarchical grid (see hg_grid.h).
 *
 * Layout: after hg_grid_build the particles are sorted by (level, cell) into
 * contiguous arrays; cellstart[base_h + cell] .. cellstart[base_h + cell + 1]
 * is the range of one cell (CSR). Dense levels index cells linearly
 * (x fastest, so a row of cells along x is one contiguous particle range);
 * hashed levels number their non-empty cells through an open-addressing
 * table. The search kernel is one inline function instantiated for
 * dim 2/3 and counting on/off, so the uncounted path carries no counters.
 */
#include "hg_grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef HG_HAVE_OPENMP
#include <omp.h>
#endif

#if defined(__GNUC__)
#define HG_INLINE static inline __attribute__((always_inline))
#else
#define HG_INLINE static inline
#endif

#define HG_GRID_MAX_LEVELS 65535
#define HG_GRID_MAX_AXIS_CELLS 1e15

typedef struct hslot {
    int64_t k[3];
    uint32_t id; /* UINT32_MAX: free */
} hslot;

typedef struct level_t {
    double s;         /* nominal size s_h */
    double w[3];      /* cell width per axis */
    double inv[3];    /* 1 / w */
    int64_t n[3];     /* cells per axis (1 on unused axes) */
    int small;        /* periodic with fewer than 3 cells on some axis */
    int hashed;
    size_t ncells;    /* dense: n0 n1 n2; hashed: distinct cells */
    size_t base;      /* first global cell id */
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
    double *x;          /* sorted, n * dim */
    double *r;
    uint32_t *id;       /* original index */
    uint16_t *lv;       /* level index 0..L-1 */
    uint32_t *gcell;    /* global cell id */
    uint32_t *cellstart;
    size_t total_cells;
    /* inserted particles: one chain per dense cell */
    size_t np, npcap;
    double *px, *pr;
    int32_t *pnext;
    int32_t *phead;     /* total_cells entries, -1 = none */
};

/* ------------------------------------------------------------------ */

void hg_grid_counts_clear(hg_grid_counts *c)
{
    if (!c)
        return;
    free(c->per_level);
    memset(c, 0, sizeof *c);
}

static void levels_free(hg_grid *g)
{
    if (!g->lev)
        return;
    for (int h = 0; h < g->L; h++) {
        free(g->lev[h].tab);
        free(g->lev[h].J);
        g->lev[h].tab = NULL;
        g->lev[h].J = NULL;
    }
}

static void built_free(hg_grid *g)
{
    levels_free(g);
    free(g->x);
    free(g->r);
    free(g->id);
    free(g->lv);
    free(g->gcell);
    free(g->cellstart);
    free(g->px);
    free(g->pr);
    free(g->pnext);
    free(g->phead);
    g->x = g->r = g->px = g->pr = NULL;
    g->id = g->gcell = g->cellstart = NULL;
    g->lv = NULL;
    g->pnext = g->phead = NULL;
    g->n = g->np = g->npcap = g->total_cells = 0;
    g->built = 0;
}

void hg_grid_free(hg_grid *g)
{
    if (!g)
        return;
    built_free(g);
    free(g->lev);
    free(g->sizes);
    free(g);
}

int hg_grid_create(int dim, int L, const double *sizes, hg_algorithm alg,
                   hg_grid **out, hg_err *e)
{
    hg_grid *g = NULL;
    *out = NULL;
    if (dim != 2 && dim != 3)
        return hg_fail(e, HG_EINVAL, "dim: %d is not 2 or 3", dim);
    if (L < 1 || L > HG_GRID_MAX_LEVELS)
        return hg_fail(e, HG_EINVAL, "levels: L = %d is not in [1, %d]", L,
                       HG_GRID_MAX_LEVELS);
    if (!sizes)
        return hg_fail(e, HG_EINVAL, "sizes: NULL");
    if (alg != HG_TOP_DOWN && alg != HG_BOTTOM_UP)
        return hg_fail(e, HG_EINVAL, "algorithm: %d is unknown", (int)alg);
    for (int h = 0; h < L; h++) {
        if (!(isfinite(sizes[h]) && sizes[h] > 0.0))
            return hg_fail(e, HG_EINVAL,
                           "sizes: s_%d = %g must be finite and > 0", h + 1,
                           sizes[h]);
        if (h > 0 && sizes[h] < sizes[h - 1])
            return hg_fail(e, HG_EINVAL,
                           "sizes: s_%d = %g is below s_%d = %g (sizes must "
                           "be non-decreasing)",
                           h + 1, sizes[h], h, sizes[h - 1]);
    }
    g = calloc(1, sizeof *g);
    if (!g)
        goto fail;
    g->sizes = malloc((size_t)L * sizeof *g->sizes);
    g->lev = calloc((size_t)L, sizeof *g->lev);
    if (!g->sizes || !g->lev)
        goto fail;
    memcpy(g->sizes, sizes, (size_t)L * sizeof *sizes);
    g->dim = dim;
    g->L = L;
    g->alg = alg;
    g->storage = HG_GRID_AUTO;
    *out = g;
    return HG_OK;
fail:
    hg_grid_free(g);
    return hg_fail(e, HG_ENOMEM, "out of memory for a grid of %d levels", L);
}

int hg_grid_set_skin(hg_grid *g, double skin, hg_err *e)
{
    if (!(isfinite(skin) && skin >= 0.0))
        return hg_fail(e, HG_EINVAL, "skin: %g must be finite and >= 0",
                       skin);
    g->skin = skin;
    return HG_OK;
}

int hg_grid_set_storage(hg_grid *g, hg_grid_storage storage, hg_err *e)
{
    if (storage != HG_GRID_AUTO && storage != HG_GRID_DENSE &&
        storage != HG_GRID_HASH)
        return hg_fail(e, HG_EINVAL, "storage: %d is unknown", (int)storage);
    g->storage = storage;
    return HG_OK;
}

size_t hg_grid_count(const hg_grid *g) { return g->n + g->np; }
int hg_grid_levels(const hg_grid *g) { return g->L; }
int hg_grid_dim(const hg_grid *g) { return g->dim; }
hg_algorithm hg_grid_algorithm(const hg_grid *g) { return g->alg; }

/* Index 0..L-1 of the lowest level with 2 r <= s_h, or -1. */
static int level_index(const hg_grid *g, double r)
{
    if (!(r > 0.0) || !(2.0 * r <= g->sizes[g->L - 1]))
        return -1;
    int a = 0, b = g->L - 1;
    while (a < b) {
        int m = (a + b) / 2;
        if (2.0 * r <= g->sizes[m])
            b = m;
        else
            a = m + 1;
    }
    return a;
}

int hg_grid_level_of(const hg_grid *g, double r)
{
    return level_index(g, r) + 1;
}

double hg_grid_cell_width(const hg_grid *g, int level, int axis)
{
    if (!g->built || level < 1 || level > g->L || axis < 0 ||
        axis >= g->dim)
        return NAN;
    return g->lev[level - 1].w[axis];
}

int hg_grid_level_is_hashed(const hg_grid *g, int level)
{
    if (!g->built || level < 1 || level > g->L)
        return 0;
    return g->lev[level - 1].hashed;
}

size_t hg_grid_memory(const hg_grid *g)
{
    size_t b = sizeof *g + (size_t)g->L * (sizeof *g->lev + sizeof(double));
    if (!g->built)
        return b;
    b += g->n * ((size_t)g->dim * sizeof(double) + sizeof(double) +
                 2 * sizeof(uint32_t) + sizeof(uint16_t));
    b += (g->total_cells + 1) * sizeof(uint32_t);
    for (int h = 0; h < g->L; h++)
        b += g->lev[h].cap * sizeof(hslot) +
             (size_t)g->lev[h].nj * sizeof(int);
    b += g->npcap * ((size_t)g->dim * sizeof(double) + sizeof(double) +
                     sizeof(int32_t));
    if (g->phead)
        b += g->total_cells * sizeof(int32_t);
    return b;
}

/* ------------------------------------------------------------------ */
/* cells */

HG_INLINE int64_t wrap(int64_t c, int64_t n)
{
    c %= n;
    return c < 0 ? c + n : c;
}

/* Cell coordinate of a centre (inside the box / extent). */
HG_INLINE int64_t cell_coord(const hg_grid *g, const level_t *lv, int a,
                             double x)
{
    int64_t c = (int64_t)floor((x - g->lo[a]) * lv->inv[a]);
    if (c < 0)
        c = g->periodic ? wrap(c, lv->n[a]) : 0;
    else if (c >= lv->n[a])
        c = g->periodic ? wrap(c, lv->n[a]) : lv->n[a] - 1;
    return c;
}

HG_INLINE uint64_t hkey(const int64_t *k)
{
    uint64_t h = (uint64_t)k[0] * 0x9E3779B97F4A7C15ULL;
    h ^= (uint64_t)k[1] * 0xC2B2AE3D27D4EB4FULL;
    h ^= (uint64_t)k[2] * 0x165667B19E3779F9ULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return h;
}

/* Cell id on a level (dense: linear index; hashed: table id), or -1 when
 * the hashed level has no such cell. k must be inside 0..n-1. */
HG_INLINE int64_t cell_id(const level_t *lv, const int64_t *k)
{
    if (!lv->hashed)
        return k[0] + lv->n[0] * (k[1] + lv->n[1] * k[2]);
    size_t mask = lv->cap - 1;
    size_t i = (size_t)hkey(k) & mask;
    for (;;) {
        const hslot *sl = &lv->tab[i];
        if (sl->id == UINT32_MAX)
            return -1;
        if (sl->k[0] == k[0] && sl->k[1] == k[1] && sl->k[2] == k[2])
            return sl->id;
        i = (i + 1) & mask;
    }
}

/* Insert (or find) a cell into a hashed level; returns its id. */
static uint32_t cell_id_insert(level_t *lv, const int64_t *k)
{
    size_t mask = lv->cap - 1;
    size_t i = (size_t)hkey(k) & mask;
    for (;;) {
        hslot *sl = &lv->tab[i];
        if (sl->id == UINT32_MAX) {
            sl->k[0] = k[0];
            sl->k[1] = k[1];
            sl->k[2] = k[2];
            sl->id = (uint32_t)lv->ncells++;
            return sl->id;
        }
        if (sl->k[0] == k[0] && sl->k[1] == k[1] && sl->k[2] == k[2])
            return sl->id;
        i = (i + 1) & mask;
    }
}

/* ------------------------------------------------------------------ */
/* build */

/* Largest n >= 1 with A / n >= w (in floating point). */
static int64_t periodic_cells(double A, double w)
{
    double q = floor(A / w);
    if (q > HG_GRID_MAX_AXIS_CELLS)
        return -1;
    int64_t n = (int64_t)q;
    if (n < 1)
        n = 1;
    while (n > 1 && A / (double)n < w)
        n--;
    while (A / (double)(n + 1) >= w)
        n++;
    return n;
}

static int setup_levels(hg_grid *g, const size_t *cnt, hg_err *e)
{
    double budget_total = 16.0 * (double)g->n + 65536.0;
    double per_level = 8.0 * (double)g->n + 4096.0;
    for (int h = 0; h < g->L; h++) {
        level_t *lv = &g->lev[h];
        lv->s = g->sizes[h];
        lv->count = lv->total = cnt[h];
        lv->small = 0;
        double w0 = lv->s + g->skin;
        for (int a = 0; a < 3; a++) {
            if (a >= g->dim) {
                lv->n[a] = 1;
                lv->w[a] = lv->inv[a] = 1.0;
                continue;
            }
            if (g->periodic) {
                int64_t n = periodic_cells(g->len[a], w0);
                if (n < 0)
                    return hg_fail(e, HG_ELIMIT,
                                   "level %d: cell size %g is too small for "
                                   "the box edge %g",
                                   h + 1, lv->s, g->len[a]);
                lv->n[a] = n;
                lv->w[a] = g->len[a] / (double)n;
                if (n < 3)
                    lv->small = 1;
            } else {
                double q = floor(g->len[a] / w0) + 1.0;
                if (q > HG_GRID_MAX_AXIS_CELLS)
                    return hg_fail(e, HG_ELIMIT,
                                   "level %d: cell size %g is too small for "
                                   "the extent %g of the particles",
                                   h + 1, lv->s, g->len[a]);
                lv->n[a] = (int64_t)q;
                lv->w[a] = w0;
            }
            lv->inv[a] = 1.0 / lv->w[a];
        }
    }
    /* storage: dense for the coarse (cheap) levels first, within budget */
    double used = 0.0;
    for (int h = g->L - 1; h >= 0; h--) {
        level_t *lv = &g->lev[h];
        double cells = (double)lv->n[0] * (double)lv->n[1] * (double)lv->n[2];
        int dense_ok = cells <= 4.0e9;
        if (g->storage == HG_GRID_DENSE) {
            if (!dense_ok || used + cells > 4.0e9)
                return hg_fail(e, HG_ELIMIT,
                               "level %d: %.3g cells are too many for dense "
                               "storage",
                               h + 1, cells);
            lv->hashed = 0;
        } else if (g->storage == HG_GRID_HASH) {
            lv->hashed = 1;
        } else {
            lv->hashed = !(cells <= per_level && used + cells <= budget_total);
        }
        if (!lv->hashed) {
            used += cells;
            lv->ncells = (size_t)cells;
        } else {
            size_t cap = 16;
            while (cap < 2 * lv->count + 2)
                cap *= 2;
            lv->cap = cap;
            lv->ncells = 0;
            lv->tab = malloc(cap * sizeof *lv->tab);
            if (!lv->tab)
                return hg_fail(e, HG_ENOMEM, "out of memory for level %d",
                               h + 1);
            for (size_t i = 0; i < cap; i++)
                lv->tab[i].id = UINT32_MAX;
        }
    }
    return HG_OK;
}

static int setup_scans(hg_grid *g, hg_err *e)
{
    for (int h = 0; h < g->L; h++) {
        level_t *lv = &g->lev[h];
        free(lv->J);
        lv->J = NULL;
        lv->nj = 0;
        if (g->L > 1) {
            lv->J = malloc((size_t)g->L * sizeof *lv->J);
            if (!lv->J)
                return hg_fail(e, HG_ENOMEM, "out of memory");
        }
        for (int j = 0; j < g->L; j++) {
            if (j == h || g->lev[j].total == 0)
                continue;
            if ((g->alg == HG_TOP_DOWN && j < h) ||
                (g->alg == HG_BOTTOM_UP && j > h))
                lv->J[lv->nj++] = j;
        }
    }
    return HG_OK;
}

int hg_grid_build(hg_grid *g, const hg_particles *p, hg_err *e)
{
    int st = HG_OK;
    uint16_t *lvl = NULL;
    uint32_t *gc = NULL;
    size_t *cnt = NULL;
    built_free(g);
    if (!p)
        return hg_fail(e, HG_EINVAL, "particles: NULL");
    if (p->dim != g->dim)
        return hg_fail(e, HG_EINVAL,
                       "particles: dim %d differs from the grid's %d", p->dim,
                       g->dim);
    if (p->n >= (size_t)UINT32_MAX - 1)
        return hg_fail(e, HG_ELIMIT, "particles: %zu are more than %u",
                       p->n, UINT32_MAX - 2);
    const int D = g->dim;
    const size_t n = p->n;
    g->periodic = p->periodic ? 1 : 0;
    for (int a = 0; a < 3; a++) {
        g->lo[a] = 0.0;
        g->hi[a] = g->len[a] = 1.0;
    }
    for (int a = 0; a < D; a++) {
        if (!(isfinite(p->lo[a]) && isfinite(p->hi[a]) &&
              p->hi[a] >= p->lo[a] && (!g->periodic || p->hi[a] > p->lo[a])))
            return hg_fail(e, HG_EINVAL, "box: axis %d [%g, %g] is invalid",
                           a, p->lo[a], p->hi[a]);
        double lo = p->lo[a], hi = p->hi[a];
        for (size_t i = 0; i < n; i++) {
            double x = p->x[i * (size_t)D + (size_t)a];
            if (!isfinite(x))
                return hg_fail(e, HG_EINVAL,
                               "particle %zu: coordinate %d is not finite", i,
                               a);
            if (g->periodic && (x < p->lo[a] || x >= p->hi[a]))
                return hg_fail(e, HG_EINVAL,
                               "particle %zu: coordinate %d = %g is outside "
                               "the periodic box [%g, %g)",
                               i, a, x, p->lo[a], p->hi[a]);
            if (x < lo)
                lo = x;
            if (x > hi)
                hi = x;
        }
        g->lo[a] = lo;
        g->hi[a] = hi;
        g->len[a] = hi - lo;
        g->half[a] = 0.5 * g->len[a];
    }
    lvl = malloc((n ? n : 1) * sizeof *lvl);
    gc = malloc((n ? n : 1) * sizeof *gc);
    cnt = calloc((size_t)g->L, sizeof *cnt);
    if (!lvl || !gc || !cnt)
        goto nomem;
    g->n = n;
    for (size_t i = 0; i < n; i++) {
        int h = level_index(g, p->r[i]);
        if (h < 0) {
            if (isfinite(p->r[i]) && p->r[i] > 0.0)
                st = hg_fail(e, HG_EINVAL,
                             "particle %zu: radius %g exceeds s_L / 2 = %g",
                             i, p->r[i], 0.5 * g->sizes[g->L - 1]);
            else
                st = hg_fail(e, HG_EINVAL,
                             "particle %zu: radius %g must be finite and > 0",
                             i, p->r[i]);
            goto fail;
        }
        lvl[i] = (uint16_t)h;
        cnt[h]++;
    }
    st = setup_levels(g, cnt, e);
    if (st)
        goto fail;
    int any_hashed = 0;
    for (int h = 0; h < g->L; h++)
        any_hashed |= g->lev[h].hashed;
    /* dense levels in parallel; hash insertions in order (deterministic) */
    long long nn = (long long)n;
#ifdef HG_HAVE_OPENMP
#pragma omp parallel for schedule(static) if (n > 50000)
#endif
    for (long long i = 0; i < nn; i++) {
        const level_t *lv = &g->lev[lvl[i]];
        if (lv->hashed)
            continue;
        int64_t k[3] = {0, 0, 0};
        for (int a = 0; a < D; a++)
            k[a] = cell_coord(g, lv, a, p->x[(size_t)i * (size_t)D + (size_t)a]);
        gc[i] = (uint32_t)cell_id(lv, k);
    }
    for (size_t i = 0; any_hashed && i < n; i++) {
        level_t *lv = &g->lev[lvl[i]];
        if (!lv->hashed)
            continue;
        int64_t k[3] = {0, 0, 0};
        for (int a = 0; a < D; a++)
            k[a] = cell_coord(g, lv, a, p->x[i * (size_t)D + (size_t)a]);
        gc[i] = cell_id_insert(lv, k);
    }
    size_t total = 0, first = 0;
    for (int h = 0; h < g->L; h++) {
        g->lev[h].base = total;
        g->lev[h].first = first;
        total += g->lev[h].ncells;
        first += g->lev[h].count;
    }
    g->total_cells = total;
    g->cellstart = calloc(total + 2, sizeof *g->cellstart);
    g->x = malloc((n ? n : 1) * (size_t)D * sizeof *g->x);
    g->r = malloc((n ? n : 1) * sizeof *g->r);
    g->id = malloc((n ? n : 1) * sizeof *g->id);
    g->lv = malloc((n ? n : 1) * sizeof *g->lv);
    g->gcell = malloc((n ? n : 1) * sizeof *g->gcell);
    if (!g->cellstart || !g->x || !g->r || !g->id || !g->lv || !g->gcell)
        goto nomem;
    /* counting sort by global cell id (stable) */
    for (size_t i = 0; i < n; i++) {
        gc[i] += (uint32_t)g->lev[lvl[i]].base;
        g->cellstart[gc[i] + 1]++;
    }
    for (size_t c = 0; c < total; c++)
        g->cellstart[c + 1] += g->cellstart[c];
    /* scatter only the index, then gather the data in sorted order
     * (independent random reads overlap better than random writes) */
    for (size_t i = 0; i < n; i++)
        g->id[g->cellstart[gc[i]]++] = (uint32_t)i;
#ifdef HG_HAVE_OPENMP
#pragma omp parallel for schedule(static) if (n > 50000)
#endif
    for (long long q = 0; q < nn; q++) {
        size_t s = (size_t)q, i = g->id[s];
        for (int a = 0; a < D; a++)
            g->x[s * (size_t)D + (size_t)a] = p->x[i * (size_t)D + (size_t)a];
        g->r[s] = p->r[i];
        g->lv[s] = lvl[i];
        g->gcell[s] = gc[i];
    }
    /* cellstart[c] now holds the end of cell c: shift back */
    memmove(g->cellstart + 1, g->cellstart, total * sizeof *g->cellstart);
    g->cellstart[0] = 0;
    st = setup_scans(g, e);
    if (st)
        goto fail;
    free(lvl);
    free(gc);
    free(cnt);
    g->built = 1;
    return HG_OK;
nomem:
    st = hg_fail(e, HG_ENOMEM, "out of memory building a grid of %zu "
                 "particles", n);
fail:
    free(lvl);
    free(gc);
    free(cnt);
    built_free(g);
    return st;
}

/* ------------------------------------------------------------------ */
/* search kernel */

typedef struct pbuf {
    hg_pair *v;
    size_t n, cap;
    int fail;
} pbuf;

HG_INLINE void pbuf_push(pbuf *b, uint32_t i, uint32_t j)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1024;
        hg_pair *v = realloc(b->v, cap * sizeof *v);
        if (!v) {
            b->fail = 1;
            return;
        }
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n].i = i < j ? i : j;
    b->v[b->n].j = i < j ? j : i;
    b->n++;
}

typedef struct tcount {
    uint64_t acc, chk;
} tcount;

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

/* Test sorted particle s against sorted particles [b, e). */
HG_INLINE void test_range(const hg_grid *g, const int D, size_t s, size_t b,
                          size_t e, pbuf *out)
{
    const double *xs = g->x + s * (size_t)D;
    const double rs = g->r[s];
    for (size_t t = b; t < e; t++) {
        double cut = rs + g->r[t] + g->skin;
        if (dist2(g, D, xs, g->x + t * (size_t)D) < cut * cut && out)
            pbuf_push(out, g->id[s], g->id[t]);
    }
}

HG_INLINE void cell_range(const hg_grid *g, const level_t *lv,
                          const int64_t *k, size_t *b, size_t *e)
{
    int64_t id = cell_id(lv, k);
    if (id < 0) {
        *b = *e = 0;
        return;
    }
    *b = g->cellstart[lv->base + (size_t)id];
    *e = g->cellstart[lv->base + (size_t)id + 1];
}

static const int half2[4][3] = {{1, 0, 0}, {-1, 1, 0}, {0, 1, 0}, {1, 1, 0}};
static const int half3[13][3] = {
    {1, 0, 0},  {-1, 1, 0}, {0, 1, 0},  {1, 1, 0},  {-1, -1, 1},
    {0, -1, 1}, {1, -1, 1}, {-1, 0, 1}, {0, 0, 1},  {1, 0, 1},
    {-1, 1, 1}, {0, 1, 1},  {1, 1, 1}};

/* Canonical linear key of a cell on a level (independent of storage). */
HG_INLINE int64_t canon(const level_t *lv, const int64_t *k)
{
    return k[0] + lv->n[0] * (k[1] + lv->n[1] * k[2]);
}

/* Own-level neighbours of a periodic level with < 3 cells on some axis:
 * the distinct cells of the full stencil whose canonical key exceeds the
 * own cell's; returns their count. */
static int small_neighbours(const hg_grid *g, const level_t *lv,
                            const int64_t *k, int64_t nb[26][3])
{
    int m = 0;
    int64_t own = canon(lv, k);
    int zr = g->dim == 3 ? 1 : 0;
    int64_t keys[26];
    for (int dz = -zr; dz <= zr; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int64_t q[3] = {wrap(k[0] + dx, lv->n[0]),
                                wrap(k[1] + dy, lv->n[1]),
                                wrap(k[2] + dz, lv->n[2])};
                int64_t key = canon(lv, q);
                if (key <= own)
                    continue;
                int dup = 0;
                for (int i = 0; i < m; i++)
                    dup |= keys[i] == key;
                if (dup)
                    continue;
                keys[m] = key;
                memcpy(nb[m], q, sizeof q);
                m++;
            }
    return m;
}

/* Cell range [c0, c1] along axis a of level lv covered by [x-beta, x+beta];
 * returns 0 if empty (open domains). *split: the range wraps (periodic). */
HG_INLINE int box_axis(const hg_grid *g, const level_t *lv, int a, double x,
                       double beta, int64_t *c0, int64_t *c1)
{
    int64_t lo = (int64_t)floor((x - beta - g->lo[a]) * lv->inv[a]);
    int64_t hi = (int64_t)floor((x + beta - g->lo[a]) * lv->inv[a]);
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

/* Dense level: test sorted particle s against the cells x0..x1 of the row
 * starting at global cell `row` (0 <= x0 <= x1 < x0 + n0; cells past
 * n0 - 1 wrap to the row's start on a periodic level). */
HG_INLINE void scan_row(const hg_grid *g, const int D, const int COUNT,
                        const level_t *lv, size_t s, size_t row, int64_t x0,
                        int64_t x1, pbuf *out, tcount *tc)
{
    int64_t n0 = lv->n[0];
    if (x0 >= n0) {
        x0 -= n0;
        x1 -= n0;
    }
    int64_t xe = x1 < n0 ? x1 : n0 - 1;
    size_t b = g->cellstart[row + (size_t)x0];
    size_t e = g->cellstart[row + (size_t)xe + 1];
    if (COUNT) {
        tc->acc += (uint64_t)(xe - x0 + 1);
        tc->chk += e - b;
    }
    test_range(g, D, s, b, e, out);
    if (x1 >= n0) {
        b = g->cellstart[row];
        e = g->cellstart[row + (size_t)(x1 - n0) + 1];
        if (COUNT) {
            tc->acc += (uint64_t)(x1 - n0 + 1);
            tc->chk += e - b;
        }
        test_range(g, D, s, b, e, out);
    }
}

/* Scan the cells of level lv in the box of half-width beta around xs,
 * testing sorted particle s against everything inside. */
HG_INLINE void scan_box(const hg_grid *g, const int D, const int COUNT,
                        const level_t *lv, size_t s, double beta, pbuf *out,
                        tcount *tc)
{
    const double *xs = g->x + s * (size_t)D;
    int64_t c0[3] = {0, 0, 0}, c1[3] = {0, 0, 0};
    for (int a = 0; a < D; a++)
        if (!box_axis(g, lv, a, xs[a], beta, &c0[a], &c1[a]))
            return;
    int64_t n0 = lv->n[0];
    for (int64_t z = c0[2]; z <= c1[2]; z++) {
        int64_t kz = z >= lv->n[2] ? z - lv->n[2] : z;
        for (int64_t y = c0[1]; y <= c1[1]; y++) {
            int64_t ky = y >= lv->n[1] ? y - lv->n[1] : y;
            if (!lv->hashed) {
                size_t row = lv->base + (size_t)(n0 * (ky + lv->n[1] * kz));
                scan_row(g, D, COUNT, lv, s, row, c0[0], c1[0], out, tc);
            } else {
                for (int64_t x = c0[0]; x <= c1[0]; x++) {
                    int64_t k[3] = {x >= n0 ? x - n0 : x, ky, kz};
                    size_t b, e;
                    cell_range(g, lv, k, &b, &e);
                    if (COUNT) {
                        tc->acc++;
                        tc->chk += e - b;
                    }
                    test_range(g, D, s, b, e, out);
                }
            }
        }
    }
}

HG_INLINE void search_one(const hg_grid *g, const int D, const int COUNT,
                          size_t s, pbuf *out, tcount *tc)
{
    const level_t *lv = &g->lev[g->lv[s]];
    const double *xs = g->x + s * (size_t)D;
    /* own cell: every pair once */
    size_t e = g->cellstart[g->gcell[s] + 1];
    if (COUNT) {
        tc->acc++;
        tc->chk += e - s - 1;
    }
    test_range(g, D, s, s + 1, e, out);
    /* half neighbourhood on the own level */
    int64_t k[3] = {0, 0, 0};
    for (int a = 0; a < D; a++)
        k[a] = cell_coord(g, lv, a, xs[a]);
    if (!lv->small && !lv->hashed) {
        /* the half stencil as rows along x: (dy, dz) = (0, 0): x+1;
         * (1, 0): x-1..x+1; (-1..1, 1): x-1..x+1 */
        static const int rows3[5][3] = {
            {0, 0, 1}, {1, 0, 0}, {-1, 1, 0}, {0, 1, 0}, {1, 1, 0}};
        /* {dy, dz, first dx (1: only x+1, 0: x-1..x+1)} */
        const int nr = D == 3 ? 5 : 2;
        for (int i = 0; i < nr; i++) {
            int64_t ky = k[1] + rows3[i][0], kz = k[2] + rows3[i][1];
            if (g->periodic) {
                if (ky < 0)
                    ky += lv->n[1];
                else if (ky >= lv->n[1])
                    ky -= lv->n[1];
                if (kz >= lv->n[2])
                    kz -= lv->n[2];
            } else if (ky < 0 || ky >= lv->n[1] || kz >= lv->n[2]) {
                continue;
            }
            int64_t x0 = rows3[i][2] ? k[0] + 1 : k[0] - 1, x1 = k[0] + 1;
            size_t row =
                lv->base + (size_t)(lv->n[0] * (ky + lv->n[1] * kz));
            if (g->periodic) {
                if (x0 < 0) { /* x-1 wraps to the row's end */
                    scan_row(g, D, COUNT, lv, s, row, lv->n[0] - 1,
                             lv->n[0] - 1, out, tc);
                    x0 = 0;
                }
            } else {
                if (x0 < 0)
                    x0 = 0;
                if (x1 > lv->n[0] - 1)
                    x1 = lv->n[0] - 1;
                if (x0 > x1)
                    continue;
            }
            scan_row(g, D, COUNT, lv, s, row, x0, x1, out, tc);
        }
    } else if (lv->small) {
        int64_t nb[26][3];
        int m = small_neighbours(g, lv, k, nb);
        for (int i = 0; i < m; i++) {
            size_t b, en;
            cell_range(g, lv, nb[i], &b, &en);
            if (COUNT) {
                tc->acc++;
                tc->chk += en - b;
            }
            test_range(g, D, s, b, en, out);
        }
    } else {
        const int nh = D == 3 ? 13 : 4;
        for (int i = 0; i < nh; i++) {
            const int *o = D == 3 ? half3[i] : half2[i];
            int64_t q[3] = {0, 0, 0};
            int inside = 1;
            for (int a = 0; a < D; a++) {
                q[a] = k[a] + o[a];
                if (g->periodic) {
                    if (q[a] < 0)
                        q[a] += lv->n[a];
                    else if (q[a] >= lv->n[a])
                        q[a] -= lv->n[a];
                } else if (q[a] < 0 || q[a] >= lv->n[a]) {
                    inside = 0;
                }
            }
            if (!inside)
                continue;
            size_t b, en;
            cell_range(g, lv, q, &b, &en);
            if (COUNT) {
                tc->acc++;
                tc->chk += en - b;
            }
            test_range(g, D, s, b, en, out);
        }
    }
    /* other levels (SPEC 5: beta = r_p + s_j / 2) */
    for (int i = 0; i < lv->nj; i++) {
        const level_t *lj = &g->lev[lv->J[i]];
        double beta = g->r[s] + g->skin + 0.5 * lj->s;
        scan_box(g, D, COUNT, lj, s, beta, out, tc);
    }
}

/* Search for sorted particles sel[0..m-1] (or 0..m-1 when sel is NULL). */
static int run_search(hg_grid *g, const uint32_t *sel, size_t m,
                      hg_pairs *out, hg_grid_counts *counts, hg_err *e)
{
    int nt = 1;
#ifdef HG_HAVE_OPENMP
    nt = omp_get_max_threads();
    if (nt < 1)
        nt = 1;
#endif
    const int L = g->L;
    pbuf *bufs = calloc((size_t)nt, sizeof *bufs);
    tcount *tcs = counts ? calloc((size_t)nt * (size_t)L, sizeof *tcs) : NULL;
    if (!bufs || (counts && !tcs)) {
        free(bufs);
        free(tcs);
        return hg_fail(e, HG_ENOMEM, "out of memory for the search buffers");
    }
    const int D = g->dim;
    const int want = out != NULL;
#ifdef HG_HAVE_OPENMP
#pragma omp parallel num_threads(nt)
#endif
    {
        int t = 0;
#ifdef HG_HAVE_OPENMP
        t = omp_get_thread_num();
#endif
        pbuf *b = want ? &bufs[t] : NULL;
        tcount *tc = tcs ? tcs + (size_t)t * (size_t)L : NULL;
        long long mm = (long long)m;
#ifdef HG_HAVE_OPENMP
#pragma omp for schedule(dynamic, 512)
#endif
        for (long long q = 0; q < mm; q++) {
            size_t s = sel ? sel[q] : (size_t)q;
            if (tc) {
                if (D == 3)
                    search_one(g, 3, 1, s, b, &tc[g->lv[s]]);
                else
                    search_one(g, 2, 1, s, b, &tc[g->lv[s]]);
            } else {
                if (D == 3)
                    search_one(g, 3, 0, s, b, NULL);
                else
                    search_one(g, 2, 0, s, b, NULL);
            }
        }
    }
    int fail = 0;
    size_t total = 0;
    for (int t = 0; t < nt; t++) {
        fail |= bufs[t].fail;
        total += bufs[t].n;
    }
    if (!fail && want) {
        hg_pairs_reset(out);
        if (out->cap < total) {
            hg_pair *v = realloc(out->v, (total ? total : 1) * sizeof *v);
            if (!v)
                fail = 1;
            else {
                out->v = v;
                out->cap = total;
            }
        }
        if (!fail) {
            for (int t = 0; t < nt; t++) {
                if (bufs[t].n)
                    memcpy(out->v + out->n, bufs[t].v,
                           bufs[t].n * sizeof *out->v);
                out->n += bufs[t].n;
            }
        }
    }
    for (int t = 0; t < nt; t++)
        free(bufs[t].v);
    free(bufs);
    if (fail) {
        free(tcs);
        return hg_fail(e, HG_ENOMEM, "out of memory for %zu contact pairs",
                       total);
    }
    if (counts) {
        hg_grid_level_counts *pl = counts->per_level;
        if (counts->levels != L || !pl) {
            pl = realloc(counts->per_level, (size_t)L * sizeof *pl);
            if (!pl) {
                free(tcs);
                return hg_fail(e, HG_ENOMEM, "out of memory for counts");
            }
        }
        counts->per_level = pl;
        counts->levels = L;
        counts->searching = m;
        counts->cell_accesses = counts->pair_checks = 0;
        counts->contacts = total;
        for (int h = 0; h < L; h++) {
            memset(&pl[h], 0, sizeof pl[h]);
            pl[h].particles = g->lev[h].count;
            pl[h].cell_size = g->lev[h].s;
            for (int a = 0; a < 3; a++)
                pl[h].cell_width[a] = a < D ? g->lev[h].w[a] : 0.0;
            for (int t = 0; t < nt; t++) {
                pl[h].cell_accesses += tcs[(size_t)t * (size_t)L + h].acc;
                pl[h].pair_checks += tcs[(size_t)t * (size_t)L + h].chk;
            }
            counts->cell_accesses += pl[h].cell_accesses;
            counts->pair_checks += pl[h].pair_checks;
        }
    }
    free(tcs);
    return HG_OK;
}

int hg_grid_find_contacts(hg_grid *g, hg_pairs *out, hg_grid_counts *counts,
                          hg_err *e)
{
    if (!g->built)
        return hg_fail(e, HG_EINVAL, "grid: not built (call hg_grid_build)");
    if (g->np)
        return hg_fail(e, HG_EINVAL,
                       "grid: %zu particles were inserted since the last "
                       "build (rebuild first)",
                       g->np);
    if (!out)
        return hg_fail(e, HG_EINVAL, "out: NULL");
    return run_search(g, NULL, g->n, out, counts, e);
}

int hg_grid_find_contacts_subset(hg_grid *g, const size_t *idx, size_t m,
                                 hg_pairs *out, hg_grid_counts *counts,
                                 hg_err *e)
{
    if (!g->built)
        return hg_fail(e, HG_EINVAL, "grid: not built (call hg_grid_build)");
    if (g->np)
        return hg_fail(e, HG_EINVAL,
                       "grid: %zu particles were inserted since the last "
                       "build (rebuild first)",
                       g->np);
    if (m && !idx)
        return hg_fail(e, HG_EINVAL, "idx: NULL");
    uint32_t *sel = malloc((m ? m : 1) * sizeof *sel);
    uint8_t *seen = calloc(g->n ? g->n : 1, 1);
    int st = HG_OK;
    if (!sel || !seen) {
        st = hg_fail(e, HG_ENOMEM, "out of memory for a subset of %zu", m);
        goto done;
    }
    for (size_t q = 0; q < m; q++) {
        if (idx[q] >= g->n) {
            st = hg_fail(e, HG_EINVAL, "idx[%zu]: %zu is not below n = %zu",
                         q, idx[q], g->n);
            goto done;
        }
        if (seen[idx[q]]) {
            st = hg_fail(e, HG_EINVAL, "idx[%zu]: %zu appears twice", q,
                         idx[q]);
            goto done;
        }
        seen[idx[q]] = 1;
    }
    /* search in memory order (locality), whatever the order of idx */
    for (size_t s = 0, q = 0; s < g->n; s++)
        if (seen[g->id[s]])
            sel[q++] = (uint32_t)s;
    st = run_search(g, sel, m, out, counts, e);
done:
    free(sel);
    free(seen);
    return st;
}

/* ------------------------------------------------------------------ */
/* query and insert */

typedef struct qctx {
    const hg_grid *g;
    const double *x;
    double r, gap;
    hg_grid_visit_fn fn;
    void *params;
} qctx;

static int visit(const qctx *q, size_t j, const double *xj, double rj)
{
    double d2 = dist2(q->g, q->g->dim, q->x, xj);
    double cut = q->r + rj + q->gap;
    if (d2 < cut * cut)
        return q->fn(j, sqrt(d2), q->params);
    return 0;
}

static int query_cell(const qctx *q, const level_t *lv, const int64_t *k)
{
    const hg_grid *g = q->g;
    const int D = g->dim;
    int64_t id = cell_id(lv, k);
    if (id < 0)
        return 0;
    size_t gid = lv->base + (size_t)id;
    for (size_t t = g->cellstart[gid]; t < g->cellstart[gid + 1]; t++) {
        int rc = visit(q, g->id[t], g->x + t * (size_t)D, g->r[t]);
        if (rc)
            return rc;
    }
    if (g->phead)
        for (int32_t t = g->phead[gid]; t >= 0; t = g->pnext[t]) {
            int rc = visit(q, g->n + (size_t)t, g->px + (size_t)t * (size_t)D,
                           g->pr[t]);
            if (rc)
                return rc;
        }
    return 0;
}

int hg_grid_query(const hg_grid *g, const double *x, double r, double gap,
                  hg_grid_visit_fn fn, void *params, hg_err *e)
{
    if (!g->built)
        return hg_fail(e, HG_EINVAL, "grid: not built (call hg_grid_build)");
    if (!x || !fn)
        return hg_fail(e, HG_EINVAL, "query: NULL centre or visitor");
    if (!(isfinite(r) && r >= 0.0))
        return hg_fail(e, HG_EINVAL, "query: radius %g must be finite and "
                       ">= 0", r);
    if (!(isfinite(gap) && gap >= 0.0))
        return hg_fail(e, HG_EINVAL, "query: gap %g must be finite and >= 0",
                       gap);
    const int D = g->dim;
    for (int a = 0; a < D; a++) {
        if (!isfinite(x[a]))
            return hg_fail(e, HG_EINVAL, "query: coordinate %d is not "
                           "finite", a);
        if (g->periodic && (x[a] < g->lo[a] || x[a] >= g->hi[a]))
            return hg_fail(e, HG_EINVAL,
                           "query: coordinate %d = %g is outside the "
                           "periodic box",
                           a, x[a]);
    }
    qctx q = {g, x, r, gap, fn, params};
    for (int h = 0; h < g->L; h++) {
        const level_t *lv = &g->lev[h];
        if (lv->total == 0)
            continue;
        double beta = r + gap + 0.5 * lv->s;
        int64_t c0[3] = {0, 0, 0}, c1[3] = {0, 0, 0};
        int empty = 0;
        for (int a = 0; a < D; a++)
            if (!box_axis(g, lv, a, x[a], beta, &c0[a], &c1[a]))
                empty = 1;
        if (empty)
            continue;
        for (int64_t z = c0[2]; z <= c1[2]; z++)
            for (int64_t y = c0[1]; y <= c1[1]; y++)
                for (int64_t xx = c0[0]; xx <= c1[0]; xx++) {
                    int64_t k[3] = {xx >= lv->n[0] ? xx - lv->n[0] : xx,
                                    y >= lv->n[1] ? y - lv->n[1] : y,
                                    z >= lv->n[2] ? z - lv->n[2] : z};
                    int rc = query_cell(&q, lv, k);
                    if (rc)
                        return rc;
                }
    }
    return HG_OK;
}

int hg_grid_insert(hg_grid *g, const double *x, double r, hg_err *e)
{
    if (!g->built)
        return hg_fail(e, HG_EINVAL, "grid: not built (call hg_grid_build)");
    if (!x)
        return hg_fail(e, HG_EINVAL, "insert: NULL centre");
    int h = level_index(g, r);
    if (h < 0)
        return hg_fail(e, HG_EINVAL,
                       "insert: radius %g must be > 0 and <= s_L / 2 = %g", r,
                       0.5 * g->sizes[g->L - 1]);
    level_t *lv = &g->lev[h];
    if (lv->hashed)
        return hg_fail(e, HG_EINVAL,
                       "insert: level %d uses hash storage (build with "
                       "HG_GRID_DENSE storage to insert)",
                       h + 1);
    const int D = g->dim;
    int64_t k[3] = {0, 0, 0};
    for (int a = 0; a < D; a++) {
        double lo = g->lo[a], hi = g->hi[a];
        if (!(isfinite(x[a]) && x[a] >= lo &&
              (g->periodic ? x[a] < hi : x[a] <= hi)))
            return hg_fail(e, HG_EINVAL,
                           "insert: coordinate %d = %g is outside the grid "
                           "[%g, %g]",
                           a, x[a], lo, hi);
        k[a] = cell_coord(g, lv, a, x[a]);
    }
    if (g->n + g->np + 1 >= (size_t)INT32_MAX)
        return hg_fail(e, HG_ELIMIT, "insert: too many particles");
    if (!g->phead) {
        g->phead = malloc((g->total_cells ? g->total_cells : 1) *
                          sizeof *g->phead);
        if (!g->phead)
            return hg_fail(e, HG_ENOMEM, "out of memory");
        for (size_t c = 0; c < g->total_cells; c++)
            g->phead[c] = -1;
    }
    if (g->np == g->npcap) {
        size_t cap = g->npcap ? 2 * g->npcap : 256;
        double *px = realloc(g->px, cap * (size_t)D * sizeof *px);
        if (px)
            g->px = px;
        double *pr = realloc(g->pr, cap * sizeof *pr);
        if (pr)
            g->pr = pr;
        int32_t *pn = realloc(g->pnext, cap * sizeof *pn);
        if (pn)
            g->pnext = pn;
        if (!px || !pr || !pn)
            return hg_fail(e, HG_ENOMEM, "out of memory");
        g->npcap = cap;
    }
    size_t gid = lv->base + (size_t)cell_id(lv, k);
    memcpy(g->px + g->np * (size_t)D, x, (size_t)D * sizeof *x);
    g->pr[g->np] = r;
    g->pnext[g->np] = g->phead[gid];
    g->phead[gid] = (int32_t)g->np;
    g->np++;
    lv->total++;
    return HG_OK;
}
