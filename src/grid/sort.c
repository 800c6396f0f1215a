/* sort.c - the sort of the mapping phase of the bundled HGrid: every
 * particle into (level, bucket) order, records gathered in that order, the
 * end of each particle's own cell. One parallel region, so that no thread
 * waits (spinning) through a serial phase:
 *   1. bucket of every particle (table levels; hashed rows are numbered
 *      before, serially), counted per thread and per group of 2^shift
 *      consecutive buckets; with table levels only, the particle's level
 *      and checks too (one read of the input for both);
 *   2. scatter of (bucket, particle) and the record by group, each thread
 *      into its own slots (stable: groups, then threads, then input
 *      order), through a small buffer per group whose full cache lines
 *      go out with streaming stores (the slots are not read first);
 *   3. groups sorted by bucket independently (their cellstart entries and
 *      slots are disjoint; the random accesses stay in one group: cache),
 *      counts, ids and own-cell ends in the thread's own arrays first,
 *      the results then written once, whole cache lines with streaming
 *      stores (not read from memory before being overwritten);
 *   the records travel with the particles (no random reads of the input);
 *   the level and own-cell end of every sorted particle follow from its
 *   bucket.
 * Buckets of more than one cell are then sorted by cell x (serially; they
 * hold a particle or two). */
#include "grid_internal.h"

#include <string.h>
#ifdef HG_HAVE_OPENMP
#include <omp.h>
#endif
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Local bucket of a centre on a table level (not hashed rows). */
HG_INLINE uint32_t local_bucket(const hg_grid *g, const level_t *lv,
                                const int D, const double *x)
{
    int64_t k[3] = {0, 0, 0};
    for (int a = 0; a < D; a++)
        k[a] = cell_coord(g, lv, a, x[a]);
    return (uint32_t)((k[0] >> lv->bx) + lv->nbx * (k[1] + lv->n[1] * k[2]));
}

/* Sort the particles [a, b) of one bucket (block or hashed row) by cell x
 * (stable) and set their cend. Buckets hold a few particles: insertion
 * sort of the records in place; long ones (forced HG_GRID_HASH on a
 * crowded level) go through qsort of (key, index) and a permutation. */
typedef struct rkey {
    int64_t k;
    uint64_t i;
} rkey;

static int rkey_cmp(const void *pa, const void *pb)
{
    const rkey *a = pa, *b = pb;
    if (a->k != b->k)
        return a->k < b->k ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

static int sort_bucket(hg_grid *g, const level_t *lv, size_t a, size_t b)
{
    const size_t S = (size_t)g->stride, m = b - a;
    double *xr = g->xr;
    if (m == 1) {
        g->cend[a] = (uint32_t)b;
        return HG_OK;
    }
    int64_t ks[24];
    int64_t *key = ks;
    if (m <= 24) {
        for (size_t t = 0; t < m; t++) {
            int64_t k = cell_coord(g, lv, 0, xr[(a + t) * S]);
            size_t u = t;
            if (u > 0 && ks[u - 1] > k) {
                double rec[4];
                uint32_t id = g->id[a + t];
                for (size_t c = 0; c < S; c++)
                    rec[c] = xr[(a + t) * S + c];
                while (u > 0 && ks[u - 1] > k) {
                    ks[u] = ks[u - 1];
                    for (size_t c = 0; c < S; c++)
                        xr[(a + u) * S + c] = xr[(a + u - 1) * S + c];
                    g->id[a + u] = g->id[a + u - 1];
                    u--;
                }
                for (size_t c = 0; c < S; c++)
                    xr[(a + u) * S + c] = rec[c];
                g->id[a + u] = id;
            }
            ks[u] = k;
        }
    } else {
        size_t need = m * (sizeof(rkey) + S * sizeof(double) +
                           sizeof(uint32_t) + sizeof(int64_t));
        if (g->scap < need) {
            void *v = realloc(g->scratch, need);
            if (!v)
                return HG_ENOMEM;
            g->scratch = v;
            g->scap = need;
        }
        rkey *rk = g->scratch;
        double *rec = (double *)(rk + m);
        key = (int64_t *)(rec + m * S);
        uint32_t *ids = (uint32_t *)(key + m);
        for (size_t t = 0; t < m; t++) {
            rk[t].k = cell_coord(g, lv, 0, xr[(a + t) * S]);
            rk[t].i = t;
        }
        qsort(rk, m, sizeof *rk, rkey_cmp);
        memcpy(rec, xr + a * S, m * S * sizeof *rec);
        memcpy(ids, g->id + a, m * sizeof *ids);
        for (size_t t = 0; t < m; t++) {
            memcpy(xr + (a + t) * S, rec + rk[t].i * S, S * sizeof *rec);
            g->id[a + t] = ids[rk[t].i];
            key[t] = rk[t].k;
        }
    }
    for (size_t t = m; t-- > 0;)
        g->cend[a + t] = t + 1 < m && key[t + 1] == key[t]
                             ? g->cend[a + t + 1]
                             : (uint32_t)(a + t + 1);
    return HG_OK;
}

/* One record of S = 3 or 4 doubles (a memcpy call per record costs more
 * than the copy). */
HG_INLINE void copy_rec(double *dst, const double *src, size_t S)
{
    dst[0] = src[0];
    dst[1] = src[1];
    dst[2] = src[2];
    if (S == 4)
        dst[3] = src[3];
}

/* Bucket starts of a group: loc[0..nb-1] holds the counts, becomes the
 * starts (from run), also written to out (once: streaming stores when
 * aligned, so the lines of the large bucket table are not read first). */
HG_INLINE void bucket_starts(uint32_t *loc, size_t nb, uint32_t run,
                             uint32_t *out)
{
    size_t b = 0;
#ifdef __SSE2__
    __m128i vr = _mm_set1_epi32((int)run);
    const int aligned = (uintptr_t)out % 16 == 0;
    for (; b + 4 <= nb; b += 4) {
        __m128i *v4 = (__m128i *)(void *)(loc + b);
        __m128i v = _mm_loadu_si128(v4);
        v = _mm_add_epi32(v, _mm_slli_si128(v, 4));
        v = _mm_add_epi32(v, _mm_slli_si128(v, 8)); /* inclusive */
        __m128i st = _mm_add_epi32(vr, _mm_slli_si128(v, 4));
        _mm_storeu_si128(v4, st);
        if (aligned)
            _mm_stream_si128((__m128i *)(void *)(out + b), st);
        else
            _mm_storeu_si128((__m128i *)(void *)(out + b), st);
        vr = _mm_add_epi32(vr, _mm_shuffle_epi32(v, 0xFF));
    }
    run = (uint32_t)_mm_cvtsi128_si32(vr);
#endif
    for (; b < nb; b++) {
        uint32_t m = loc[b];
        loc[b] = out[b] = run;
        run += m;
    }
}

/* bucket_starts with the counts and starts in loc as 16-bit offsets from
 * the group's first particle run (a group of fewer than 65536 particles):
 * out gets run + offset. */
HG_INLINE void bucket_starts16(uint16_t *loc, size_t nb, uint32_t run,
                               uint32_t *out)
{
    size_t b = 0;
    uint32_t r = 0;
#ifdef __SSE2__
    __m128i vr = _mm_setzero_si128();
    const __m128i base = _mm_set1_epi32((int)run), z = _mm_setzero_si128();
    const int aligned = (uintptr_t)out % 16 == 0;
    for (; b + 8 <= nb; b += 8) {
        __m128i *v8 = (__m128i *)(void *)(loc + b);
        const __m128i c = _mm_loadu_si128(v8);
        __m128i v = _mm_add_epi16(c, _mm_slli_si128(c, 2));
        v = _mm_add_epi16(v, _mm_slli_si128(v, 4));
        v = _mm_add_epi16(v, _mm_slli_si128(v, 8)); /* inclusive */
        const __m128i st = _mm_add_epi16(vr, _mm_sub_epi16(v, c));
        _mm_storeu_si128(v8, st);
        const __m128i lo = _mm_add_epi32(base, _mm_unpacklo_epi16(st, z));
        const __m128i hi = _mm_add_epi32(base, _mm_unpackhi_epi16(st, z));
        if (aligned) {
            _mm_stream_si128((__m128i *)(void *)(out + b), lo);
            _mm_stream_si128((__m128i *)(void *)(out + b + 4), hi);
        } else {
            _mm_storeu_si128((__m128i *)(void *)(out + b), lo);
            _mm_storeu_si128((__m128i *)(void *)(out + b + 4), hi);
        }
        const __m128i top = _mm_shufflehi_epi16(v, 0xFF);
        vr = _mm_add_epi16(vr, _mm_unpackhi_epi64(top, top));
    }
    r = (uint32_t)_mm_cvtsi128_si32(vr) & 0xFFFF;
#endif
    for (; b < nb; b++) {
        uint32_t m = loc[b];
        loc[b] = (uint16_t)r;
        out[b] = run + r;
        r += m;
    }
}

/* dst[0..m-1] = src[0..m-1]; the whole cache lines of dst with streaming
 * stores (written, not read first), the partial ones at the ends (shared
 * with the neighbouring groups) with plain stores. */
HG_INLINE void put_u32(uint32_t *dst, const uint32_t *src, size_t m)
{
    size_t j = 0;
#ifdef __SSE2__
    while (j < m && (uintptr_t)(dst + j) % 64 != 0) {
        dst[j] = src[j];
        j++;
    }
    for (; j + 16 <= m; j += 16)
        for (int u = 0; u < 16; u += 4)
            _mm_stream_si128((__m128i *)(void *)(dst + j + u),
                             _mm_loadu_si128((const __m128i *)(const void *)(
                                 src + j + u)));
#endif
    for (; j < m; j++)
        dst[j] = src[j];
}

/* Level of global bucket c: the last level whose base is <= c (a level
 * without buckets shares its base with the next one). */
HG_INLINE int bucket_level(const hg_grid *g, uint32_t c)
{
    int a = 0, b = g->L - 1;
    while (a < b) {
        int m = (a + b + 1) / 2;
        if (g->lev[m].base <= c)
            a = m;
        else
            b = m - 1;
    }
    return a;
}

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

/* The first pass over particles [i0, i1) with table levels only (D and
 * PER constants once inlined): level (as hg_grid_level_index), checks,
 * global bucket (as local_bucket) into sgc, counts by group (h). PER: a
 * periodic box; else an open one whose extent (g->lo..g->hi) holds every
 * centre. Returns 1 if a particle is outside the box or extent, or of no
 * level (not counted). With up to 16 levels the level is the count of sizes below
 * 2 r, and the levels' constants are copied to small local tables (the
 * loop then keeps its pointers and counters in registers). */
HG_INLINE int read_levels(hg_grid *g, const hg_particles *p, const int D,
                          const int PER, size_t i0, size_t i1, int shift,
                          size_t *h)
{
    const double *X = p->x, *R = p->r;
    uint32_t *sgc = g->sgc;
    const int L = g->L;
    if (L > 16) { /* many levels: the level by hg_grid_level_index */
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
                k[a] = box_coord(PER, (x[a] - g->lo[a]) * lv->inv[a],
                                 lv->n[a]);
            uint32_t c = (uint32_t)((k[0] >> lv->bx) +
                                    lv->nbx * (k[1] + lv->n[1] * k[2]) +
                                    (int64_t)lv->base);
            sgc[i] = c;
            h[c >> shift]++;
        }
        return bad;
    }
    /* per level: 1 / w per axis, cells per axis, the bucket's multipliers
     * along y and z, base, bx; sizes padded with +inf to 16 */
    double inv[3][16], sz[16];
    int64_t nc[3][16], my[16], mz[16], base[16];
    int bx[16], narrow = 1;
    for (int j = 0; j < 16; j++) {
        const level_t *lv = &g->lev[j < L ? j : L - 1];
        sz[j] = j < L - 1 ? g->sizes[j] : INFINITY;
        for (int a = 0; a < 3; a++) {
            inv[a][j] = lv->inv[a];
            nc[a][j] = lv->n[a];
            narrow &= lv->n[a] < ((int64_t)1 << 30);
        }
        my[j] = lv->nbx;
        mz[j] = lv->nbx * lv->n[1];
        base[j] = (int64_t)lv->base;
        bx[j] = lv->bx;
    }
    const double smax = g->sizes[L - 1];
    double lo[3] = {0.0, 0.0, 0.0}, hi[3] = {0.0, 0.0, 0.0};
    for (int a = 0; a < D; a++) {
        lo[a] = g->lo[a];
        hi[a] = g->hi[a];
    }
    int bad = 0;
#ifdef __SSE2__
    if (narrow) {
        /* x and y as a pair: the checks, the level (the count of sizes
         * below 2 r, two at a time) and the cell coordinates (truncated
         * to 32 bits, exact below 2^30 cells) in a few vector operations,
         * the same floating-point operations as cell_coord */
        __m128d inv01[16], szp[8];
        __m128i n01[16];
        for (int j = 0; j < 16; j++) {
            inv01[j] = _mm_set_pd(inv[1][j], inv[0][j]);
            n01[j] = _mm_set_epi32(1, 1, (int)nc[1][j], (int)nc[0][j]);
        }
        for (int q = 0; q < 8; q++)
            szp[q] = _mm_set_pd(sz[2 * q + 1], sz[2 * q]);
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
                cnt = _mm_add_epi64(
                    cnt, _mm_castpd_si128(_mm_cmplt_pd(szp[q], dv)));
            cnt = _mm_add_epi64(cnt, _mm_unpackhi_epi64(cnt, cnt));
            const int hl = -_mm_cvtsi128_si32(cnt);
            __m128i k = _mm_cvttpd_epi32(
                _mm_mul_pd(_mm_sub_pd(xv, lo01), inv01[hl]));
            int64_t k0 = _mm_cvtsi128_si32(k);
            int64_t k1 = _mm_cvtsi128_si32(_mm_shuffle_epi32(k, 1));
            if (_mm_movemask_epi8(_mm_cmplt_epi32(k, n01[hl])) != 0xFFFF) {
                k0 = box_coord(PER, (double)k0, nc[0][hl]); /* gave n */
                k1 = box_coord(PER, (double)k1, nc[1][hl]);
            }
            int64_t c = (k0 >> bx[hl]) + my[hl] * k1 + base[hl];
            if (D == 3)
                c += mz[hl] * box_coord(PER, (x[2] - lo[2]) * inv[2][hl],
                                        nc[2][hl]);
            sgc[i] = (uint32_t)c;
            h[(uint32_t)c >> shift]++;
        }
        return bad;
    }
#endif
    const int nq = (L - 1 + 3) / 4; /* groups of 4 sizes to compare */
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
        int64_t k0 = box_coord(PER, (x[0] - lo[0]) * inv[0][hl], nc[0][hl]);
        int64_t k1 = box_coord(PER, (x[1] - lo[1]) * inv[1][hl], nc[1][hl]);
        int64_t c = (k0 >> bx[hl]) + my[hl] * k1 + base[hl];
        if (D == 3)
            c += mz[hl] *
                 box_coord(PER, (x[2] - lo[2]) * inv[2][hl], nc[2][hl]);
        sgc[i] = (uint32_t)c;
        h[(uint32_t)c >> shift]++;
    }
    return bad;
}

/* read_levels for 2D and 3D, periodic and open, out of line: inlined
 * into the parallel region its loop ran with its counters spilled to the
 * stack. */
#if defined(__GNUC__)
#define HG_NOINLINE __attribute__((noinline))
#else
#define HG_NOINLINE
#endif
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

/* Records a group collects in the thread's buffer before they are
 * written out at once: 8 records of 3 or 4 doubles and their 8-byte keys
 * are whole cache lines. */
#define HG_WC 8

/* Slots [a, b) of a group's buffer (slot k: record rb[k % HG_WC], key
 * kb[k % HG_WC]) to xr and tmp, plain stores. */
HG_INLINE void wc_copy(hg_grid *g, size_t S, const double *rb,
                       const uint64_t *kb, size_t a, size_t b)
{
    for (size_t k = a; k < b; k++) {
        copy_rec(g->xr + k * S, rb + (k % HG_WC) * S, S);
        g->tmp[k] = kb[k % HG_WC];
    }
}

/* The scatter of the second pass over particles [i0, i1) (D constant once
 * inlined): key (bucket, particle) into tmp and record into xr, both at
 * the group's next slot, the thread's slots of group q from hn[q] on
 * (advanced; st: ng entries of scratch, the first slots). The records and
 * keys pass through the thread's buffers of HG_WC slots per group (wb,
 * cache-resident): a full buffer of slots that are all the thread's is
 * written with streaming stores (whole cache lines, not read from memory
 * before being overwritten), the slots at the ends of the thread's range
 * with plain stores. */
HG_INLINE void scatter(hg_grid *g, const hg_particles *p, const int D,
                       size_t i0, size_t i1, int shift, size_t ng,
                       size_t *hn, size_t *st, double *wb)
{
    const size_t S = (size_t)D + 1, B = HG_WC * (S + 1);
    const uint32_t *sgc = g->sgc;
    const double *X = p->x, *R = p->r;
    double *xr = g->xr;
    uint64_t *tmp = g->tmp;
#ifdef __SSE2__
    const int stream = (uintptr_t)xr % 16 == 0 && (uintptr_t)tmp % 16 == 0;
#else
    const int stream = 0;
#endif
    memcpy(st, hn, ng * sizeof *st);
    for (size_t i = i0; i < i1; i++) {
        const uint64_t c = sgc[i];
        const size_t q = (size_t)(c >> shift), k = hn[q]++, u = k % HG_WC;
        double *rb = wb + q * B, *w = rb + u * S;
        uint64_t *kb = (uint64_t *)(void *)(rb + HG_WC * S);
        const double *x = X + i * (size_t)D;
        kb[u] = c << 32 | (uint64_t)i;
        w[0] = x[0];
        w[1] = x[1];
        if (D == 3)
            w[2] = x[2];
        w[D] = R[i];
        if (u != HG_WC - 1)
            continue;
        const size_t k0 = k + 1 - HG_WC;
        if (k0 < st[q] || !stream) {
            wc_copy(g, S, rb, kb, k0 > st[q] ? k0 : st[q], k + 1);
            continue;
        }
#ifdef __SSE2__
        for (size_t v = 0; v < HG_WC * S; v += 2)
            _mm_stream_pd(xr + k0 * S + v, _mm_load_pd(rb + v));
        for (size_t v = 0; v < HG_WC; v += 2)
            _mm_stream_si128((__m128i *)(void *)(tmp + k0 + v),
                             _mm_load_si128((const __m128i *)(const void *)(
                                 kb + v)));
#endif
    }
    for (size_t q = 0; q < ng; q++) { /* the partly filled buffers */
        const size_t k0 = hn[q] - hn[q] % HG_WC;
        const double *rb = wb + q * B;
        wc_copy(g, S, rb, (const uint64_t *)(const void *)(rb + HG_WC * S),
                k0 > st[q] ? k0 : st[q], hn[q]);
    }
#ifdef __SSE2__
    _mm_sfence(); /* the streamed slots, before other threads read them */
#endif
}

#define HG_SCATTER(name, D)                                                \
    static HG_NOINLINE void name(hg_grid *g, const hg_particles *p,        \
                                 size_t i0, size_t i1, int shift,          \
                                 size_t ng, size_t *hn, size_t *st,        \
                                 double *wb)                               \
    {                                                                      \
        scatter(g, p, D, i0, i1, shift, ng, hn, st, wb);                   \
    }
HG_SCATTER(scatter2, 2)
HG_SCATTER(scatter3, 3)

/* The second pass for the group of buckets [c0, c1) and particles
 * [k0, k1) (its keys in tmp, records in xr, in input order): counts, then
 * the running sum, loc[c - c0] the start of bucket c (also cs[c]);
 * placing the group's particles advances it to the end of c. The records
 * are permuted inside the group's window through a copy (win), ids and
 * own-cell ends go to the thread's arrays first (cache-resident), then
 * are written once. narrow (groups under 65536 particles): loc holds
 * 16-bit offsets from k0, the table of a group of 2^13 buckets then fills
 * half the L1 cache, not all of it. */
HG_INLINE void place_group(hg_grid *g, const int narrow, size_t c0, size_t c1,
                           size_t k0, size_t k1, double *win, void *locv,
                           uint32_t *lid, uint32_t *lce)
{
    const size_t S = (size_t)g->stride, nb = c1 - c0, m = k1 - k0;
    const uint64_t *tmp = g->tmp;
    const level_t *lev = g->lev;
    double *xr = g->xr;
    uint32_t *l32 = locv;
    uint16_t *l16 = locv;
    if (narrow) {
        memset(l16, 0, nb * sizeof *l16);
        for (size_t k = k0; k < k1; k++)
            l16[(tmp[k] >> 32) - c0]++;
        bucket_starts16(l16, nb, (uint32_t)k0, g->cellstart + c0);
    } else {
        memset(l32, 0, nb * sizeof *l32);
        for (size_t k = k0; k < k1; k++)
            l32[(tmp[k] >> 32) - c0]++;
        bucket_starts(l32, nb, (uint32_t)k0, g->cellstart + c0);
    }
    if (m == 0) /* an empty group may have no scratch at all */
        return;
    memcpy(win, xr + k0 * S, m * S * sizeof *win);
    for (size_t k = k0; k < k1; k++) {
        uint32_t c = (uint32_t)(tmp[k] >> 32);
        size_t s = narrow ? l16[c - c0]++ : l32[c - c0]++ - k0;
        lid[s] = (uint32_t)tmp[k];
        lce[s] = c;
        copy_rec(xr + (k0 + s) * S, win + (k - k0) * S, S);
    }
    /* level and own-cell end; a group nearly always lies in one level */
    int h0 = bucket_level(g, (uint32_t)c0);
    if (bucket_level(g, (uint32_t)(c1 - 1)) == h0) {
        for (size_t s = k0; s < k1; s++)
            g->lv[s] = (uint16_t)h0;
        if (lev[h0].kind == LV_TABLE && lev[h0].bx == 0)
            for (size_t j = 0; j < m; j++)
                lce[j] = narrow ? (uint32_t)k0 + l16[lce[j] - c0]
                                : l32[lce[j] - c0];
    } else {
        for (size_t j = 0; j < m; j++) {
            uint32_t c = lce[j];
            int hl = bucket_level(g, c);
            g->lv[k0 + j] = (uint16_t)hl;
            if (lev[hl].kind == LV_TABLE && lev[hl].bx == 0)
                lce[j] = narrow ? (uint32_t)k0 + l16[c - c0] : l32[c - c0];
        }
    }
    put_u32(g->id + k0, lid, m);
    put_u32(g->cend + k0, lce, m);
}

/* Sort all particles of p (level and, for hashed rows, bucket of every
 * particle in g->slv / g->sgc; levels' base and first set), or with find
 * (table levels only; open boxes: the extent set) find the levels too:
 * validation, then
 * the levels' count, total and first from the bucket ranges. */
int hg_grid_sort(hg_grid *g, const hg_particles *p, int find)
{
    const int D = g->dim;
    const size_t n = g->n, total = g->total_cells, S = (size_t)g->stride;
    /* At most 512 groups: the scatter below writes one stream per group
     * into tmp and xr, and fewer streams stay within the write-combining
     * and TLB reach (1e6 particles, wall time of a rebuild against 1024
     * groups: 2D 36.5 -> 31.6 ms on one thread, 19.4 -> 17.2 on two; 3D
     * 41.4 -> 39.1 and 21.6 -> 20.2); 256 and fewer groups are slower
     * again in 3D, as a group outgrows the L2 cache in the second pass. */
    int shift = 0;
    while ((total >> shift) >= 512)
        shift++;
    const size_t ng = (total >> shift) + 1;
    int nt = 1;
#ifdef HG_HAVE_OPENMP
    nt = n > 50000 ? omp_get_max_threads() : 1;
    if (nt < 1)
        nt = 1;
#endif
    /* per-thread rows of counters at least a cache line apart (no line
     * written by two threads) */
    const size_t hs = (ng + 15) & ~(size_t)7;
    size_t *hist = malloc(((size_t)nt * 3 * hs + ng + 1) * sizeof *hist);
    if (!hist)
        return HG_ENOMEM;
    size_t *hnext = hist + (size_t)nt * hs;   /* per thread: next slots */
    size_t *hfirst = hnext + (size_t)nt * hs; /* per thread: first slots */
    size_t *goff = hfirst + (size_t)nt * hs;  /* start of every group */
    /* the scatter's buffers: HG_WC records and keys per group and thread */
    const size_t wcn = ng * HG_WC * (S + 1);
    if (g->wccap < (size_t)nt * wcn) {
        free(g->wcbuf);
        g->wccap = 0;
        g->wcbuf = aligned_alloc(64, (size_t)nt * wcn * sizeof(double));
        if (!g->wcbuf) {
            free(hist);
            return HG_ENOMEM;
        }
        g->wccap = (size_t)nt * wcn;
    }
    int bad = 0;
    uint32_t *cs = g->cellstart;
    const level_t *lev = g->lev;
    size_t gmax = 0; /* largest group */
    int fail = 0;
    cs[0] = 0;
#ifdef HG_HAVE_OPENMP
#pragma omp parallel num_threads(nt)
#endif
    {
        int t = 0, T = 1;
#ifdef HG_HAVE_OPENMP
        t = omp_get_thread_num();
        T = omp_get_num_threads();
#endif
        size_t i0 = n * (size_t)t / (size_t)T;
        size_t i1 = n * (size_t)(t + 1) / (size_t)T;
        size_t *h = hist + (size_t)t * hs;
        memset(h, 0, ng * sizeof *h);
        if (find) {
            int bad_t = 0;
            if (g->periodic)
                bad_t = D == 2 ? read_levels2p(g, p, i0, i1, shift, h)
                               : read_levels3p(g, p, i0, i1, shift, h);
            else
                bad_t = D == 2 ? read_levels2o(g, p, i0, i1, shift, h)
                               : read_levels3o(g, p, i0, i1, shift, h);
            if (bad_t) {
#ifdef HG_HAVE_OPENMP
#pragma omp atomic write
#endif
                bad = 1;
            }
        } else {
            for (size_t i = i0; i < i1; i++) {
                const level_t *lv = &lev[g->slv[i]];
                uint32_t c = lv->kind == LV_HROWS
                                 ? g->sgc[i]
                                 : local_bucket(g, lv, D, p->x + i * (size_t)D);
                c += (uint32_t)lv->base;
                g->sgc[i] = c;
                h[c >> shift]++;
            }
        }
#ifdef HG_HAVE_OPENMP
#pragma omp barrier
#endif
        /* every thread the running sum over groups and threads (counts
         * now read only) for its own slots; thread 0 also the groups'
         * starts and the scratch, both used after the next barrier (no
         * serial section: one barrier fewer to wait at) */
        size_t *hn = hnext + (size_t)t * hs;
        if (!bad) {
            size_t off = 0, gm = 0;
            for (size_t q = 0; q < ng; q++) {
                size_t g0 = off;
                for (int u = 0; u < T; u++) {
                    if (u == t)
                        hn[q] = off;
                    off += hist[(size_t)u * hs + q];
                }
                if (t == 0)
                    goff[q] = g0;
                if (off - g0 > gm)
                    gm = off - g0;
            }
            if (t == 0) {
                goff[ng] = off;
                gmax = gm;
                size_t need = (size_t)T * (gm * S * sizeof(double) +
                                           (((size_t)1 << shift) + 2 * gm) *
                                               sizeof(uint32_t));
                if (g->scap < need) {
                    void *v = realloc(g->scratch, need);
                    if (v) {
                        g->scratch = v;
                        g->scap = need;
                    } else {
                        fail = 1;
                    }
                }
            }
        }
        /* records travel with the sort: read in input order (sequential),
         * written into their group's window of xr (one write stream per
         * group) */
        if (!bad) {
            if (D == 2)
                scatter2(g, p, i0, i1, shift, ng, hn,
                         hfirst + (size_t)t * hs, g->wcbuf + (size_t)t * wcn);
            else
                scatter3(g, p, i0, i1, shift, ng, hn,
                         hfirst + (size_t)t * hs, g->wcbuf + (size_t)t * wcn);
        }
#ifdef HG_HAVE_OPENMP
#pragma omp barrier
#endif
        const int stop = bad || fail;
        double *win = stop ? NULL : (double *)g->scratch + (size_t)t * gmax * S;
        uint32_t *loc = stop ? NULL
                             : (uint32_t *)(void *)((double *)g->scratch +
                                                    (size_t)T * gmax * S) +
                                   (size_t)t * (((size_t)1 << shift) + 2 * gmax);
        uint32_t *lid = stop ? NULL : loc + ((size_t)1 << shift);
        uint32_t *lce = stop ? NULL : lid + gmax;
        const int narrow = gmax < 65536;
#ifdef HG_HAVE_OPENMP
#pragma omp for schedule(dynamic, 4) nowait
#endif
        for (long long q = 0; q < (long long)(stop ? 0 : ng); q++) {
            size_t c0 = (size_t)q << shift;
            size_t c1 = ((size_t)q + 1) << shift;
            if (c1 > total)
                c1 = total;
            if (narrow)
                place_group(g, 1, c0, c1, goff[q], goff[q + 1], win, loc,
                            lid, lce);
            else
                place_group(g, 0, c0, c1, goff[q], goff[q + 1], win, loc,
                            lid, lce);
            if ((size_t)q == ng - 1)
                cs[total] = (uint32_t)goff[ng];
        }
#ifdef __SSE2__
        _mm_sfence(); /* the streamed bucket starts */
#endif
    }
    free(hist);
    if (bad)
        return HG_EINVAL;
    if (fail)
        return HG_ENOMEM;
    for (int h = 0; find && h < g->L; h++) { /* levels are bucket ranges */
        level_t *lv = &g->lev[h];
        lv->first = cs[lv->base];
        lv->count = lv->total = cs[lv->base + lv->nb] - lv->first;
    }
    for (int h = 0; h < g->L; h++) {
        const level_t *lv = &lev[h];
        if (lv->kind == LV_TABLE && lv->bx == 0)
            continue;
        size_t a = lv->first, end = lv->first + lv->count;
        while (a < end) {
            size_t b = cs[g->cend[a] + 1];
            if (sort_bucket(g, lv, a, b))
                return HG_ENOMEM;
            a = b;
        }
    }
    return HG_OK;
}
