/* sort.c - the sort of the build (mapping) phase of the bundled HGrid: every
 * particle into (level, bucket) order, records gathered in that order, the
 * end of each particle's own cell. One parallel region, so that no thread
 * waits (spinning) through a serial phase:
 *   1. bucket of every particle (table levels; hashed rows are numbered
 *      before, serially), counted per thread and per group of 2^shift
 *      consecutive buckets; with table levels only, the particle's level
 *      and checks too (one read of the input for both: sort_levels.c);
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

/* scatter for 2D and 3D, out of line as the first pass (sort_levels.c). */
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

/* Groups of 2^shift buckets, at most 512: the scatter writes one stream
 * per group into tmp and xr, and fewer streams stay within the
 * write-combining and TLB reach (1e6 particles, wall time of a rebuild
 * against 1024 groups: 2D 36.5 -> 31.6 ms on one thread, 19.4 -> 17.2 on
 * two; 3D 41.4 -> 39.1 and 21.6 -> 20.2); 256 and fewer groups are slower
 * again in 3D, as a group outgrows the L2 cache in the second pass. */
static int group_shift(size_t total)
{
    int shift = 0;
    while ((total >> shift) >= 512)
        shift++;
    return shift;
}

/* The counters of nt threads (rows of hs, at least a cache line apart:
 * no line written by two threads; the caller splits them) and the
 * scatter's buffers (g->wcbuf: wcn doubles per thread). NULL when out of
 * memory. */
static size_t *sort_buffers(hg_grid *g, int nt, size_t ng, size_t hs,
                            size_t wcn)
{
    size_t *hist = malloc(((size_t)nt * 3 * hs + ng + 1) * sizeof *hist);
    if (!hist)
        return NULL;
    if (g->wccap < (size_t)nt * wcn) {
        free(g->wcbuf);
        g->wccap = 0;
        g->wcbuf = aligned_alloc(64, (size_t)nt * wcn * sizeof(double));
        if (!g->wcbuf) {
            free(hist);
            return NULL;
        }
        g->wccap = (size_t)nt * wcn;
    }
    return hist;
}

/* The first pass over particles [i0, i1): global bucket of every particle
 * into g->sgc, counted by group into h; with find (table levels only)
 * through hg_grid_read_levels, which finds the levels and checks too
 * (returns 1 for a particle outside or of no level), else from g->slv
 * (hashed rows: their bucket already in g->sgc). */
HG_INLINE int count_buckets(hg_grid *g, const hg_particles *p, int find,
                            size_t i0, size_t i1, int shift, size_t ng,
                            size_t *h)
{
    const int D = g->dim;
    memset(h, 0, ng * sizeof *h);
    if (find)
        return hg_grid_read_levels(g, p, i0, i1, shift, h);
    for (size_t i = i0; i < i1; i++) {
        const level_t *lv = &g->lev[g->slv[i]];
        uint32_t c = lv->kind == LV_HROWS
                         ? g->sgc[i]
                         : local_bucket(g, lv, D, p->x + i * (size_t)D);
        c += (uint32_t)lv->base;
        g->sgc[i] = c;
        h[c >> shift]++;
    }
    return 0;
}

/* The running sum over groups and threads (counts now read only) for
 * thread t of T: its first slot of every group into hn; thread 0 also
 * the groups' starts (goff[0..ng]). Returns the largest group. */
HG_INLINE size_t group_offsets(const size_t *hist, size_t hs, size_t ng,
                               int t, int T, size_t *hn, size_t *goff)
{
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
    if (t == 0)
        goff[ng] = off;
    return gm;
}

/* The second pass's scratch (g->scratch) for T threads and groups of at
 * most gmax particles: per thread a window of gmax records, then per
 * thread 2^shift bucket starts and gmax ids and own-cell ends. 0 when out
 * of memory. */
static int reserve_scratch(hg_grid *g, int T, size_t gmax, int shift)
{
    const size_t S = (size_t)g->stride;
    size_t need = (size_t)T * (gmax * S * sizeof(double) +
                               (((size_t)1 << shift) + 2 * gmax) *
                                   sizeof(uint32_t));
    if (g->scap < need) {
        void *v = realloc(g->scratch, need);
        if (!v)
            return 0;
        g->scratch = v;
        g->scap = need;
    }
    return 1;
}

/* After the parallel sort: with find the levels' count, total and first
 * from the bucket ranges; the buckets of more than one cell (blocks,
 * hashed rows) sorted by cell x. HG_OK or HG_ENOMEM. */
static int finish_levels(hg_grid *g, int find)
{
    const uint32_t *cs = g->cellstart;
    for (int h = 0; find && h < g->L; h++) { /* levels are bucket ranges */
        level_t *lv = &g->lev[h];
        lv->first = cs[lv->base];
        lv->count = lv->total = cs[lv->base + lv->nb] - lv->first;
    }
    for (int h = 0; h < g->L; h++) {
        const level_t *lv = &g->lev[h];
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

/* Sort all particles of p (level and, for hashed rows, bucket of every
 * particle in g->slv / g->sgc; levels' base and first set), or with find
 * (table levels only; open boxes: the extent set) find the levels too:
 * validation, then the levels' count, total and first from the bucket
 * ranges. */
int hg_grid_sort(hg_grid *g, const hg_particles *p, int find)
{
    const int D = g->dim;
    const size_t n = g->n, total = g->total_cells, S = (size_t)g->stride;
    const int shift = group_shift(total);
    const size_t ng = (total >> shift) + 1;
    int nt = 1;
#ifdef HG_HAVE_OPENMP
    nt = n > 50000 ? omp_get_max_threads() : 1;
    if (nt < 1)
        nt = 1;
#endif
    const size_t hs = (ng + 15) & ~(size_t)7; /* a row of counters */
    /* the scatter's buffers: HG_WC records and keys per group and thread */
    const size_t wcn = ng * HG_WC * (S + 1);
    size_t *hist = sort_buffers(g, nt, ng, hs, wcn);
    if (!hist)
        return HG_ENOMEM;
    size_t *hnext = hist + (size_t)nt * hs;   /* per thread: next slots */
    size_t *hfirst = hnext + (size_t)nt * hs; /* per thread: first slots */
    size_t *goff = hfirst + (size_t)nt * hs;  /* start of every group */
    int bad = 0;
    uint32_t *cs = g->cellstart;
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
        if (count_buckets(g, p, find, i0, i1, shift, ng,
                          hist + (size_t)t * hs)) {
#ifdef HG_HAVE_OPENMP
#pragma omp atomic write
#endif
            bad = 1;
        }
#ifdef HG_HAVE_OPENMP
#pragma omp barrier
#endif
        /* every thread the running sum for its own slots; thread 0 also
         * the groups' starts and the scratch, both used after the next
         * barrier (no serial section: one barrier fewer to wait at) */
        size_t *hn = hnext + (size_t)t * hs;
        if (!bad) {
            size_t gm = group_offsets(hist, hs, ng, t, T, hn, goff);
            if (t == 0) {
                gmax = gm;
                fail = !reserve_scratch(g, T, gm, shift);
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
    return finish_levels(g, find);
}
