/* search_pairs.h - the candidate lists and the pair test of the bundled
 * HGrid's pair loop (included by search.c only): the per-thread pair
 * list, the searching particle (probe) and its candidates, tested in
 * batches without a branch per contact. */
#ifndef HG_SEARCH_PAIRS_H
#define HG_SEARCH_PAIRS_H

#include "grid_internal.h"

#include <string.h>

/* The AVX2 pair loop (3D) on x86-64 with GCC or Clang, used when the
 * processor has AVX2 (hg_grid_simd). */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(HG_NO_SIMD)
#define HG_PAIRS_AVX2 1
#include <immintrin.h>
#else
#define HG_PAIRS_AVX2 0
#endif

typedef struct pbuf {
    hg_pair *v;
    size_t n, cap;
    int fail;
} pbuf;

/* Room for m more pairs (m <= HG_CAND); on failure b->fail is set and the
 * pairs go to sink (the search goes on, its result is discarded). */
static hg_pair *pbuf_room_grow(pbuf *b, size_t m, hg_pair *sink)
{
    size_t cap = b->cap ? 2 * b->cap : 4096;
    while (cap - b->n < m)
        cap *= 2;
    hg_pair *v = b->fail ? NULL : realloc(b->v, cap * sizeof *v);
    if (!v) {
        b->fail = 1;
        b->n = 0;
        return sink;
    }
    b->v = v;
    b->cap = cap;
    return v + b->n;
}

HG_INLINE hg_pair *pbuf_room(pbuf *b, size_t m, hg_pair *sink)
{
    if (b->cap - b->n >= m && !b->fail)
        return b->v + b->n;
    return pbuf_room_grow(b, m, sink);
}

typedef struct tcount {
    uint64_t acc, chk;
} tcount;

/* Candidates of one searching particle: short ranges (a few particles in
 * one to three cells, the common case on fine levels) are gathered into
 * one list and tested in one loop. Testing each short range in its own
 * loop costs a mispredicted loop exit per range, more than the range's
 * pair checks; the copy in add_range always writes HG_SHORT indices (no
 * branch on the length) and advances by the range's length. */
#define HG_CAND 512
#define HG_SHORT 8
/* rows ahead whose table entries / first records a large box fetches */
#define HG_AHEAD_T 16
#define HG_AHEAD_R 6

/* The searching particle: its record and the grid's constants, copied so
 * that the pair loop keeps them in registers (stores into the pair list
 * could otherwise alias them). */
typedef struct probe {
    double x[3], r, skin;
    double half[3], len[3];
    const double *xr;
    const uint32_t *id;
    uint32_t self; /* its sorted index */
    pbuf *out;
    /* own-level ranges of the cell ending at own_end (0: none) */
    size_t own_end, own_e2, own_chk, own_b[4], own_e[4];
    int own_nr, own_acc;
    int simd; /* the AVX2 pair loop (3D) */
    size_t nc;
    uint32_t cand[HG_CAND]; /* sorted index of a candidate */
    uint32_t who[HG_CAND];  /* sorted index of the particle testing it */
    hg_pair sink[HG_CAND];
} probe;

/* The contact test of centres a, b with radii ra, rb: the minimum-image
 * distance and the cut-off evaluated as hg_particles_touch does. */
HG_INLINE int pair_touch(const int D, const int PER, const double *a,
                         double ra, const double *b, double rb,
                         const double *h, const double *l, double skin)
{
    double d2 = 0.0;
    for (int c = 0; c < D; c++) {
        double d = a[c] - b[c];
        if (PER)
            d = d > h[c] ? d - l[c] : d < -h[c] ? d + l[c] : d;
        d2 += d * d;
    }
    double cut = ra + rb + skin;
    return d2 < cut * cut;
}

/* The pair of ids a and b, lower first, written at *o. */
HG_INLINE void put_pair(hg_pair *o, uint32_t a, uint32_t b)
{
    o->i = a < b ? a : b;
    o->j = a < b ? b : a;
}

/* Test the probe against sorted particles idx(0..m-1), m <= HG_CAND. The
 * pair of every candidate is written to the output and kept when it
 * touches: no branch per contact, and no second loop over the hits, whose
 * varying length would mispredict its exit. Pairs are written as sorted
 * indices; their ids replace them once per chunk (ids_of_pairs), so a
 * pair check loads no id. */
#define HG_PAIR_LOOP(D, PER, m, idx)                                       \
    do {                                                                   \
        const size_t S_ = (size_t)(D) + 1, m_ = (m);                       \
        double x_[3], h_[3], l_[3];                                        \
        for (int c_ = 0; c_ < (D); c_++) {                                 \
            x_[c_] = q->x[c_];                                             \
            h_[c_] = q->half[c_];                                          \
            l_[c_] = q->len[c_];                                           \
        }                                                                  \
        const double r_ = q->r, k_ = q->skin;                              \
        const double *xr_ = q->xr;                                         \
        const uint32_t self_ = q->self;                                    \
        hg_pair *ov_ = pbuf_room(q->out, m_, q->sink);                     \
        size_t no_ = 0;                                                    \
        for (size_t i_ = 0; i_ < m_; i_++) {                               \
            size_t t_ = (idx);                                             \
            const double *xt_ = xr_ + t_ * S_;                             \
            const int y_ =                                                 \
                pair_touch(D, PER, x_, r_, xt_, xt_[D], h_, l_, k_);       \
            ov_[no_].i = self_;                                            \
            ov_[no_].j = (uint32_t)t_;                                     \
            no_ += (size_t)y_;                                             \
        }                                                                  \
        if (ov_ != q->sink)                                                \
            q->out->n += no_;                                              \
    } while (0)

#if HG_PAIRS_AVX2
/* The 3D pair loop four candidates at a time with AVX2 (x86-64, chosen at
 * run time): the records (x, y, z, r: 32 bytes) of four candidates loaded
 * whole and transposed, the distances and cut-offs of the four computed
 * in one register each, with the scalar test's operations in its order
 * (and no fused multiply-add in either: the build compiles with
 * -ffp-contract=off), so that every pair gets the same answer as
 * pair_touch. */
typedef struct vprobe {
    __m256d x, y, z, r, skin, h[3], nh[3], l[3];
} vprobe;

/* Candidates t[0..nl-1] (t[nl..3] repeat one of them and are not
 * tested): the touching ones written at ov[0..nl-1] (pairs of self),
 * their number returned. */
__attribute__((target("avx2"), always_inline)) static inline size_t
quad3(const vprobe *v, const int per, const double *xr, const uint32_t *t,
      int nl, uint32_t self, hg_pair *ov)
{
    const __m256d a0 = _mm256_loadu_pd(xr + (size_t)t[0] * 4),
                  a1 = _mm256_loadu_pd(xr + (size_t)t[1] * 4),
                  a2 = _mm256_loadu_pd(xr + (size_t)t[2] * 4),
                  a3 = _mm256_loadu_pd(xr + (size_t)t[3] * 4);
    const __m256d u0 = _mm256_unpacklo_pd(a0, a1), /* x0 x1 z0 z1 */
        u1 = _mm256_unpackhi_pd(a0, a1),           /* y0 y1 r0 r1 */
        u2 = _mm256_unpacklo_pd(a2, a3), u3 = _mm256_unpackhi_pd(a2, a3);
    __m256d d[3];
    d[0] = _mm256_sub_pd(v->x, _mm256_permute2f128_pd(u0, u2, 0x20));
    d[1] = _mm256_sub_pd(v->y, _mm256_permute2f128_pd(u1, u3, 0x20));
    d[2] = _mm256_sub_pd(v->z, _mm256_permute2f128_pd(u0, u2, 0x31));
    const __m256d rt = _mm256_permute2f128_pd(u1, u3, 0x31);
    if (per)
        for (int c = 0; c < 3; c++) {
            /* d > h ? d - l : d < -h ? d + l : d */
            __m256d w = _mm256_blendv_pd(
                d[c], _mm256_add_pd(d[c], v->l[c]),
                _mm256_cmp_pd(d[c], v->nh[c], _CMP_LT_OQ));
            d[c] = _mm256_blendv_pd(w, _mm256_sub_pd(d[c], v->l[c]),
                                    _mm256_cmp_pd(d[c], v->h[c], _CMP_GT_OQ));
        }
    __m256d d2 = _mm256_mul_pd(d[0], d[0]);
    d2 = _mm256_add_pd(d2, _mm256_mul_pd(d[1], d[1]));
    d2 = _mm256_add_pd(d2, _mm256_mul_pd(d[2], d[2]));
    const __m256d cut = _mm256_add_pd(_mm256_add_pd(v->r, rt), v->skin);
    const int y = _mm256_movemask_pd(
                      _mm256_cmp_pd(d2, _mm256_mul_pd(cut, cut), _CMP_LT_OQ)) &
                  ((1 << nl) - 1);
    size_t no = 0;
    if (y) /* rare: a few in a hundred candidates touch */
        for (int j = 0; j < nl; j++) { /* no write past ov[nl - 1] */
            ov[no].i = self;
            ov[no].j = t[j];
            no += (size_t)((y >> j) & 1);
        }
    return no;
}

/* The probe against candidates idx[0..m-1], or b..b+m-1 when idx is
 * NULL; the last group of four repeats the last candidate in its unused
 * lanes, which are masked off. Returns the number of touching pairs
 * written at ov (room for m, as the scalar loop). */
__attribute__((target("avx2"))) static size_t
pairs3_avx2(const probe *q, const int per, const uint32_t *idx, size_t b,
            size_t m, hg_pair *ov)
{
    vprobe v;
    v.x = _mm256_set1_pd(q->x[0]);
    v.y = _mm256_set1_pd(q->x[1]);
    v.z = _mm256_set1_pd(q->x[2]);
    v.r = _mm256_set1_pd(q->r);
    v.skin = _mm256_set1_pd(q->skin);
    for (int c = 0; c < 3; c++) {
        v.h[c] = _mm256_set1_pd(q->half[c]);
        v.nh[c] = _mm256_set1_pd(-q->half[c]);
        v.l[c] = _mm256_set1_pd(q->len[c]);
    }
    const double *xr = q->xr;
    const uint32_t self = q->self;
    size_t no = 0, i = 0;
    uint32_t t[4];
    for (; i + 4 <= m; i += 4) {
        for (int j = 0; j < 4; j++)
            t[j] = idx ? idx[i + (size_t)j] : (uint32_t)(b + i + (size_t)j);
        no += per ? quad3(&v, 1, xr, t, 4, self, ov + no)
                  : quad3(&v, 0, xr, t, 4, self, ov + no);
    }
    if (i < m) {
        for (int j = 0; j < 4; j++) {
            size_t k = i + (size_t)j < m ? i + (size_t)j : m - 1;
            t[j] = idx ? idx[k] : (uint32_t)(b + k);
        }
        no += quad3(&v, per, xr, t, (int)(m - i), self, ov + no);
    }
    return no;
}

/* The probe against m candidates with the AVX2 loop (3D). */
HG_INLINE void pairs3_vec(probe *q, const int PER, const uint32_t *idx,
                          size_t b, size_t m)
{
    hg_pair *ov = pbuf_room(q->out, m, q->sink);
    size_t no = pairs3_avx2(q, PER, idx, b, m, ov);
    if (ov != q->sink)
        q->out->n += no;
}
#endif

HG_INLINE void test_range(probe *q, const int D, const int PER, size_t b,
                          size_t e)
{
    for (;;) { /* one copy of the loop: it is inlined in many places */
        const size_t m = e - b < HG_CAND ? e - b : HG_CAND;
#if HG_PAIRS_AVX2
        if (D == 3 && q->simd)
            pairs3_vec(q, PER, NULL, b, m);
        else
#endif
            HG_PAIR_LOOP(D, PER, m, b + i_);
        b += m;
        if (b == e)
            break;
    }
}

/* Test the probe against its gathered candidates. */
HG_INLINE void flush_one(probe *q, const int D, const int PER)
{
#if HG_PAIRS_AVX2
    if (D == 3 && q->simd && q->nc)
        pairs3_vec(q, PER, q->cand, 0, q->nc);
    else
#endif
        HG_PAIR_LOOP(D, PER, q->nc, q->cand[i_]);
    q->nc = 0;
}

/* Test the gathered candidates, each against the particle that gathered
 * it: one loop over the candidates of many particles (a chunk of the
 * search), so that the loop set-up and its mispredicted exit are paid once
 * per HG_CAND candidates, not once per particle. It pays in 2D, where a
 * particle has a few candidates; in 3D, with several times as many, the
 * extra loads per candidate cost more than the per-particle loop. */
HG_INLINE void flush_batch(probe *q, const int D, const int PER)
{
    const size_t S = (size_t)D + 1, m = q->nc;
    double h[3], l[3];
    for (int c = 0; c < D; c++) {
        h[c] = q->half[c];
        l[c] = q->len[c];
    }
    const double k = q->skin, *xr = q->xr;
    hg_pair *ov = pbuf_room(q->out, m, q->sink);
    size_t no = 0;
    for (size_t i = 0; i < m; i++) {
        const size_t s = q->who[i], t = q->cand[i];
        const double *xs = xr + s * S, *xt = xr + t * S;
        const int y = pair_touch(D, PER, xs, xs[D], xt, xt[D], h, l, k);
        ov[no].i = (uint32_t)s;
        ov[no].j = (uint32_t)t;
        no += (size_t)y;
    }
    if (ov != q->sink)
        q->out->n += no;
    q->nc = 0;
}

/* 2D gathers candidates across particles, 3D per particle. */
#define HG_BATCH(D) ((D) == 2)

HG_INLINE void flush(probe *q, const int D, const int PER)
{
    if (HG_BATCH(D))
        flush_batch(q, D, PER);
    else
        flush_one(q, D, PER);
}

/* Test the probe against sorted particles [b, e) (now or at the next
 * flush). */
HG_INLINE void add_range(probe *q, const int D, const int PER, size_t b,
                         size_t e)
{
    if (e - b > HG_SHORT) {
        test_range(q, D, PER, b, e);
        return;
    }
    uint32_t *v = q->cand + q->nc, *w = q->who + q->nc;
#if defined(__GNUC__)
    /* 16-byte stores: two for the candidates, two for their particle */
    typedef uint32_t u32x4 __attribute__((vector_size(16)));
    const uint32_t b32 = (uint32_t)b, s32 = q->self;
    const u32x4 lo = {b32, b32 + 1, b32 + 2, b32 + 3};
    const u32x4 hi = lo + 4;
    memcpy(v, &lo, sizeof lo);
    memcpy(v + 4, &hi, sizeof hi);
    if (HG_BATCH(D)) {
        const u32x4 me = {s32, s32, s32, s32};
        memcpy(w, &me, sizeof me);
        memcpy(w + 4, &me, sizeof me);
    }
#else
    for (uint32_t i = 0; i < HG_SHORT; i++) {
        v[i] = (uint32_t)b + i;
        w[i] = q->self;
    }
#endif
    q->nc += e - b;
    if (q->nc > HG_CAND - HG_SHORT)
        flush(q, D, PER);
}

#endif
