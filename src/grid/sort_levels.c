/* sort_levels.c - the first pass of the build phase's sort (sort.c)
 * when the grid has table levels only: for every particle its level (as
 * hg_grid_level_index), the checks (inside the box or extent, of some
 * level) and its global bucket, counted by group; SSE2 handles x and y
 * as a pair. */
#include "grid_internal.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Cell coordinate along an axis from the offset v = (x - lo) / w >= 0 of
 * a centre inside the box (periodic) or the extent (open): cell_coord
 * without its negative branch. Rounding may still give n: cell 0 on a
 * periodic level, the last cell on an open one (as cell_coord). */
HG_INLINE int64_t periodic_coord(double v, int64_t n)
{
    int64_t c = (int64_t)v;
    return c < n ? c : wrap(c, n);
}

HG_INLINE int64_t box_coord(const int PER, double v, int64_t n)
{
    if (PER)
        return periodic_coord(v, n);
    int64_t c = (int64_t)v;
    return c < n ? c : n - 1;
}


/* Many levels (more than 16): the level by hg_grid_level_index. */
HG_INLINE int read_levels_many(hg_grid *g, const hg_particles *p,
                               const int D, const int PER, size_t i0,
                               size_t i1, int shift, size_t *h)
{
    const double *X = p->x, *R = p->r;
    uint32_t *sgc = g->sgc;
    const int L = g->L;
    int bad = 0;
    for (size_t i = i0; i < i1; i++) {
        const double *x = X + i * (size_t)D;
        const double d = 2.0 * R[i];
        int out = !(d > 0.0 && d <= g->sizes[L - 1]);
        for (int a = 0; a < D; a++)
            out |= !(x[a] >= g->lo[a] &&
                     (PER ? x[a] < g->hi[a] : x[a] <= g->hi[a]));
        if (out) {
            bad = 1;
            continue;
        }
        const level_t *lv = &g->lev[hg_grid_level_index(g, R[i])];
        int64_t k[3] = {0, 0, 0};
        for (int a = 0; a < D; a++)
            k[a] = box_coord(PER, (x[a] - g->lo[a]) * lv->inv[a], lv->n[a]);
        uint32_t c = (uint32_t)((k[0] >> lv->bx) +
                                lv->nbx * (k[1] + lv->n[1] * k[2]) +
                                (int64_t)lv->base);
        sgc[i] = c;
        h[c >> shift]++;
    }
    return bad;
}

/* The constants of up to 16 levels in small local tables (the loop then
 * keeps its pointers and counters in registers): per level 1 / w per
 * axis, cells per axis, the bucket's multipliers along y and z, base, bx;
 * sizes padded with +inf to 16; the box or extent. */
typedef struct level_tables {
    double inv[3][16], sz[16];
    int64_t nc[3][16], my[16], mz[16], base[16];
    int bx[16], narrow; /* narrow: fewer than 2^30 cells on every axis */
    double smax, lo[3], hi[3];
} level_tables;

HG_INLINE void level_tables_init(const hg_grid *g, const int D,
                                 level_tables *k)
{
    const int L = g->L;
    k->narrow = 1;
    for (int j = 0; j < 16; j++) {
        const level_t *lv = &g->lev[j < L ? j : L - 1];
        k->sz[j] = j < L - 1 ? g->sizes[j] : INFINITY;
        for (int a = 0; a < 3; a++) {
            k->inv[a][j] = lv->inv[a];
            k->nc[a][j] = lv->n[a];
            k->narrow &= lv->n[a] < ((int64_t)1 << 30);
        }
        k->my[j] = lv->nbx;
        k->mz[j] = lv->nbx * lv->n[1];
        k->base[j] = (int64_t)lv->base;
        k->bx[j] = lv->bx;
    }
    k->smax = g->sizes[L - 1];
    for (int a = 0; a < 3; a++) {
        k->lo[a] = a < D ? g->lo[a] : 0.0;
        k->hi[a] = a < D ? g->hi[a] : 0.0;
    }
}

#ifdef __SSE2__
/* x and y as a pair: the checks, the level (the count of sizes below
 * 2 r, two at a time) and the cell coordinates (truncated to 32 bits,
 * exact below 2^30 cells: k->narrow) in a few vector operations, the same
 * floating-point operations as cell_coord. */
HG_INLINE int read_levels_sse2(hg_grid *g, const hg_particles *p,
                               const level_tables *k, const int D,
                               const int PER, size_t i0, size_t i1,
                               int shift, size_t *h)
{
    const double *X = p->x, *R = p->r;
    uint32_t *sgc = g->sgc;
    const int L = g->L;
    const double smax = k->smax;
    const double *lo = k->lo, *hi = k->hi;
    int bad = 0;
    __m128d inv01[16], szp[8];
    __m128i n01[16];
    for (int j = 0; j < 16; j++) {
        inv01[j] = _mm_set_pd(k->inv[1][j], k->inv[0][j]);
        n01[j] = _mm_set_epi32(1, 1, (int)k->nc[1][j], (int)k->nc[0][j]);
    }
    for (int q = 0; q < 8; q++)
        szp[q] = _mm_set_pd(k->sz[2 * q + 1], k->sz[2 * q]);
    const int np = L / 2; /* pairs of sizes holding the L - 1 */
    const __m128d lo01 = _mm_set_pd(lo[1], lo[0]);
    const __m128d hi01 = _mm_set_pd(hi[1], hi[0]);
    for (size_t i = i0; i < i1; i++) {
        const double *x = X + i * (size_t)D;
        const __m128d xv = _mm_loadu_pd(x);
        const double d = 2.0 * R[i];
        const __m128d below = PER ? _mm_cmplt_pd(xv, hi01)
                                  : _mm_cmple_pd(xv, hi01);
        int ok = (_mm_movemask_pd(_mm_and_pd(_mm_cmpge_pd(xv, lo01),
                                             below)) == 3) &
                 (d > 0.0) & (d <= smax);
        if (D == 3)
            ok &= (x[2] >= lo[2]) & (PER ? x[2] < hi[2] : x[2] <= hi[2]);
        if (!ok) {
            bad = 1;
            continue;
        }
        const __m128d dv = _mm_set1_pd(d);
        __m128i cnt = _mm_castpd_si128(_mm_cmplt_pd(szp[0], dv));
        for (int q = 1; q < np; q++)
            cnt = _mm_add_epi64(cnt,
                                _mm_castpd_si128(_mm_cmplt_pd(szp[q], dv)));
        cnt = _mm_add_epi64(cnt, _mm_unpackhi_epi64(cnt, cnt));
        const int hl = -_mm_cvtsi128_si32(cnt);
        __m128i kv =
            _mm_cvttpd_epi32(_mm_mul_pd(_mm_sub_pd(xv, lo01), inv01[hl]));
        int64_t k0 = _mm_cvtsi128_si32(kv);
        int64_t k1 = _mm_cvtsi128_si32(_mm_shuffle_epi32(kv, 1));
        if (_mm_movemask_epi8(_mm_cmplt_epi32(kv, n01[hl])) != 0xFFFF) {
            k0 = box_coord(PER, (double)k0, k->nc[0][hl]); /* gave n */
            k1 = box_coord(PER, (double)k1, k->nc[1][hl]);
        }
        int64_t c = (k0 >> k->bx[hl]) + k->my[hl] * k1 + k->base[hl];
        if (D == 3)
            c += k->mz[hl] * box_coord(PER, (x[2] - lo[2]) * k->inv[2][hl],
                                       k->nc[2][hl]);
        sgc[i] = (uint32_t)c;
        h[(uint32_t)c >> shift]++;
    }
    return bad;
}
#endif

/* Without SSE2 (or with 2^30 cells or more along an axis): the level as
 * the count of sizes below 2 r, four at a time. */
HG_INLINE int read_levels_scalar(hg_grid *g, const hg_particles *p,
                                 const level_tables *k, const int D,
                                 const int PER, size_t i0, size_t i1,
                                 int shift, size_t *h)
{
    const double *X = p->x, *R = p->r;
    uint32_t *sgc = g->sgc;
    const double smax = k->smax;
    const double *lo = k->lo, *hi = k->hi, *sz = k->sz;
    int bad = 0;
    const int nq = (g->L - 1 + 3) / 4; /* groups of 4 sizes to compare */
    for (size_t i = i0; i < i1; i++) {
        const double *x = X + i * (size_t)D;
        const double d = 2.0 * R[i];
        int ok = (d > 0.0) & (d <= smax);
        for (int a = 0; a < D; a++)
            ok &= (x[a] >= lo[a]) & (PER ? x[a] < hi[a] : x[a] <= hi[a]);
        if (!ok) {
            bad = 1;
            continue;
        }
        int hl = 0;
        for (int q = 0; q < nq; q++)
            hl += (sz[4 * q] < d) + (sz[4 * q + 1] < d) +
                  (sz[4 * q + 2] < d) + (sz[4 * q + 3] < d);
        int64_t k0 = box_coord(PER, (x[0] - lo[0]) * k->inv[0][hl],
                               k->nc[0][hl]);
        int64_t k1 = box_coord(PER, (x[1] - lo[1]) * k->inv[1][hl],
                               k->nc[1][hl]);
        int64_t c = (k0 >> k->bx[hl]) + k->my[hl] * k1 + k->base[hl];
        if (D == 3)
            c += k->mz[hl] * box_coord(PER, (x[2] - lo[2]) * k->inv[2][hl],
                                       k->nc[2][hl]);
        sgc[i] = (uint32_t)c;
        h[(uint32_t)c >> shift]++;
    }
    return bad;
}

/* The first pass over particles [i0, i1) with table levels only (D and
 * PER constants once inlined): level (as hg_grid_level_index), checks,
 * global bucket (as local_bucket in sort.c) into sgc, counts by group
 * (h). PER: a periodic box; else an open one whose extent (g->lo..g->hi)
 * holds every centre. Returns 1 if a particle is outside the box or
 * extent, or of no level (not counted). With up to 16 levels the level is
 * the count of sizes below 2 r, and the levels' constants are copied to
 * small local tables. */
HG_INLINE int read_levels(hg_grid *g, const hg_particles *p, const int D,
                          const int PER, size_t i0, size_t i1, int shift,
                          size_t *h)
{
    if (g->L > 16)
        return read_levels_many(g, p, D, PER, i0, i1, shift, h);
    level_tables k;
    level_tables_init(g, D, &k);
#ifdef __SSE2__
    if (k.narrow)
        return read_levels_sse2(g, p, &k, D, PER, i0, i1, shift, h);
#endif
    return read_levels_scalar(g, p, &k, D, PER, i0, i1, shift, h);
}

/* read_levels for 2D and 3D, periodic and open, out of line: inlined
 * into the parallel region its loop ran with its counters spilled to the
 * stack. */
#define HG_READ_LEVELS(name, D, PER)                                       \
    static HG_NOINLINE int name(hg_grid *g, const hg_particles *p,         \
                                size_t i0, size_t i1, int shift, size_t *h) \
    {                                                                      \
        return read_levels(g, p, D, PER, i0, i1, shift, h);                \
    }
HG_READ_LEVELS(read_levels2p, 2, 1)
HG_READ_LEVELS(read_levels3p, 3, 1)
HG_READ_LEVELS(read_levels2o, 2, 0)
HG_READ_LEVELS(read_levels3o, 3, 0)

int hg_grid_read_levels(hg_grid *g, const hg_particles *p, size_t i0,
                        size_t i1, int shift, size_t *h)
{
    if (g->periodic)
        return g->dim == 2 ? read_levels2p(g, p, i0, i1, shift, h)
                           : read_levels3p(g, p, i0, i1, shift, h);
    return g->dim == 2 ? read_levels2o(g, p, i0, i1, shift, h)
                       : read_levels3o(g, p, i0, i1, shift, h);
}
