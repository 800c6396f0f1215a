/* snapshot_count.c - the neighbour counts of the pair statistics of a
 * snapshot (hg_snapshot.h; snapshot.c turns them into factors): the
 * centres counted around (chosen by hashes of the particles), a grid of
 * the centres per bucket of reach, and the count of every particle's
 * windowed weight around the centres near it, in parallel chunks summed
 * in order. */
#include "snapshot_internal.h"
#include "hg_psd.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static double delta(const geom *g, int c, double d)
{
    if (g->per[c]) {
        if (d > g->half[c])
            d -= g->len[c];
        else if (d < -g->half[c])
            d += g->len[c];
    }
    return d;
}

/* splitmix64: the deterministic choice of sampled centres */
static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* A hash of a particle's centre and radius: which particles are sampled
 * does not depend on the order of the file (a dump and a data file of
 * the same step give the same answer). */
static uint64_t particle_hash(const double *x, int d, double r)
{
    uint64_t h = 0x5eedULL, b;
    for (int c = 0; c < d; c++) {
        memcpy(&b, &x[c], sizeof b);
        h = mix(h ^ b);
    }
    memcpy(&b, &r, sizeof b);
    return mix(h ^ b);
}

static double unit_of(uint64_t h) { return (double)(h >> 11) * 0x1.0p-53; }

/* A grid over the centres: cell k lists the centres whose reach meets
 * it, so a particle finds every centre that may reach it in one list. */
typedef struct cgrid {
    int64_t n[3];
    double lo[3], w[3];
    uint32_t *start, *list;
} cgrid;

static void cgrid_free(cgrid *cg)
{
    free(cg->start);
    free(cg->list);
    cg->start = cg->list = NULL;
}

static int64_t cell_coord(const cgrid *cg, int c, double x)
{
    int64_t q = (int64_t)floor((x - cg->lo[c]) / cg->w[c]);
    return q < 0 ? 0 : q >= cg->n[c] ? cg->n[c] - 1 : q;
}

/* The cells along axis c that [x - R, x + R] meets: *cnt cells from *k0
 * (wrapped along a periodic axis, each at most once). */
static void cell_span(const cgrid *cg, const geom *g, int c, double x,
                      double R, int64_t *k0, int64_t *cnt)
{
    if (c >= g->d) {
        *k0 = 0;
        *cnt = 1;
        return;
    }
    int64_t n = cg->n[c];
    int64_t a = (int64_t)floor((x - R - cg->lo[c]) / cg->w[c]);
    int64_t b = (int64_t)floor((x + R - cg->lo[c]) / cg->w[c]);
    if (g->per[c]) {
        if (b - a + 1 >= n) {
            *k0 = 0;
            *cnt = n;
        } else {
            *k0 = ((a % n) + n) % n;
            *cnt = b - a + 1;
        }
        return;
    }
    a = a < 0 ? 0 : a;
    b = b > n - 1 ? n - 1 : b;
    *k0 = a;
    *cnt = b >= a ? b - a + 1 : 0;
}

/* The grid of the centres of bucket b (bucket[i] == b): cells of half
 * their largest reach (at most 2^17 cells, so that the start array stays
 * in the cache), each listing the centres whose reach meets it. */
static int cgrid_build(const centre *cs, const unsigned char *bucket,
                       size_t nc, int b, const geom *g, cgrid *cg,
                       hg_err *e)
{
    memset(cg, 0, sizeof *cg);
    double w = 0.0;
    for (size_t i = 0; i < nc; i++)
        if (bucket[i] == b)
            w = fmax(w, cs[i].reach);
    w = w > 0.0 ? 0.5 * w : 1.0;
    for (;;) {
        double total = 1.0;
        for (int c = 0; c < g->d; c++)
            total *= fmax(1.0, floor(g->len[c] / w));
        if (total <= (double)(1 << 17))
            break;
        w *= 1.25;
    }
    size_t total = 1;
    for (int c = 0; c < 3; c++) {
        cg->n[c] = 1;
        cg->w[c] = 1.0;
        cg->lo[c] = 0.0;
        if (c >= g->d)
            continue;
        int64_t n = (int64_t)floor(g->len[c] / w);
        cg->n[c] = n < 1 ? 1 : n;
        cg->w[c] = g->len[c] / (double)cg->n[c];
        cg->lo[c] = g->lo[c];
        total *= (size_t)cg->n[c];
    }
    if (!(cg->start = calloc(total + 1, sizeof *cg->start)))
        return hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < nc; i++) {
            if (bucket[i] != b)
                continue;
            int64_t k0[3], kn[3];
            for (int c = 0; c < 3; c++)
                cell_span(cg, g, c, c < g->d ? cs[i].x[c] : 0.0,
                          cs[i].reach, &k0[c], &kn[c]);
            for (int64_t z = 0; z < kn[2]; z++)
                for (int64_t y = 0; y < kn[1]; y++)
                    for (int64_t x = 0; x < kn[0]; x++) {
                        int64_t q[3] = {k0[0] + x, k0[1] + y, k0[2] + z};
                        for (int c = 0; c < 3; c++)
                            if (q[c] >= cg->n[c])
                                q[c] -= cg->n[c];
                        size_t cell = (size_t)(q[0] + cg->n[0] *
                                                          (q[1] + cg->n[1] *
                                                                      q[2]));
                        if (pass == 0)
                            cg->start[cell + 1]++;
                        else
                            cg->list[cg->start[cell]++] = (uint32_t)i;
                    }
        }
        if (pass == 0) {
            for (size_t k = 0; k < total; k++)
                cg->start[k + 1] += cg->start[k];
            if (!(cg->list = malloc((cg->start[total] ? cg->start[total]
                                                      : 1) *
                                    sizeof *cg->list)))
                return hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
        }
    }
    /* the fill advanced each start to the next cell's: shift back */
    for (size_t k = total; k > 0; k--)
        cg->start[k] = cg->start[k - 1];
    cg->start[0] = 0;
    return HG_OK;
}

/* Centres counted: all up to MAX_CENTRES particles, else about
 * max(200, MAX_CENTRES / classes) per class, chosen by the hash of each
 * particle (file order often follows insertion time, i.e. height, and
 * differs between a dump and a data file of the same step). Wide
 * windows hold many neighbours, whose count a few centres measure as well
 * as all: width t is counted around a centre of class c with probability
 * ptc[t][c] = min(1, max(TARGET / E_t, 64 / centres of c)), E_t the
 * neighbours expected at the occupied region's density (non-increasing
 * in t, so a centre counts the widths up to its own thi). */
int hg_snapshot_choose_centres(const hg_snapshot *s, const hg_particles *p,
                               const size_t *ncls,
                               const hg_snapshot_info *in, double rmax,
                               double (*ptc)[HG_SNAPSHOT_MAX_CLASSES],
                               centre **out, size_t *nout, hg_err *e)
{
    size_t n = p->n;
    int d = p->dim, nc = s->nc;
    double share[HG_SNAPSHOT_MAX_CLASSES];
    size_t most = s->max_centres ? s->max_centres : MAX_CENTRES;
    size_t cap = n <= most ? n : most / (size_t)nc;
    size_t floor_cap = s->max_centres ? 50 : 200; /* sampled: fewer */
    if (cap < floor_cap)
        cap = floor_cap;
    double expect[HG_SNAPSHOT_MAX_CLASSES];
    for (int c = 0; c < nc; c++) {
        share[c] = ncls[c] <= cap ? 1.0 : (double)cap / (double)ncls[c];
        expect[c] = share[c] * (double)ncls[c];
    }
    double vbox = 1.0;
    for (int c = 0; c < d; c++)
        vbox *= p->hi[c] - p->lo[c];
    double nocc = in->nu_occupied / in->nu_box * (double)n / vbox;
    for (int t = 0; t < s->na; t++) {
        double E = fmin(nocc * pow(exp(s->log_a[t]), d), (double)n);
        for (int c = 0; c < nc; c++) {
            double q = E > 0.0 ? TARGET / E : 1.0;
            if (expect[c] > 0.0) /* sampled: fewer centres per width */
                q = fmax(q, (s->max_centres ? 16.0 : 64.0) / expect[c]);
            ptc[t][c] = fmin(1.0, q);
        }
    }
    size_t m = 0, cap_all = 1024;
    centre *cs = malloc(cap_all * sizeof *cs);
    if (!cs)
        return hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
    for (size_t i = 0; i < n; i++) {
        const double *x = &p->x[i * (size_t)d];
        int c = class_of(s, p->r[i]);
        uint64_t h = share[c] < 1.0 ? particle_hash(x, d, p->r[i]) : 0;
        if (share[c] < 1.0 && !(unit_of(h) < share[c]))
            continue;
        if (m == cap_all) {
            centre *nb = realloc(cs, 2 * cap_all * sizeof *cs);
            if (!nb) {
                free(cs);
                return hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
            }
            cs = nb;
            cap_all *= 2;
        }
        centre *q = &cs[m++];
        memset(q, 0, sizeof *q);
        memcpy(q->x, x, (size_t)d * sizeof *x);
        q->r = p->r[i];
        q->cls = c;
        q->index = i;
        if (share[c] >= 1.0)
            h = particle_hash(x, d, p->r[i]);
        double u = unit_of(mix(h ^ 0xc0ffeeULL));
        q->thi = -1;
        while (q->thi + 1 < s->na && u < ptc[q->thi + 1][c])
            q->thi++;
        /* contacts, and the widths counted */
        q->reach = q->r + rmax;
        if (q->thi >= 0)
            q->reach = fmax(q->reach, 2.0 * exp(s->log_a[q->thi]) / 3.0);
    }
    *out = cs;
    *nout = m;
    return HG_OK;
}

/* Particles [k0, k1) against the centres near them (every bucket's
 * grid). */
static void count_chunk(const hg_snapshot *s, const hg_particles *p,
                        const geom *g, const cgrid *grids, int ngrids,
                        const centre *cs, const double *a3, size_t k0,
                        size_t k1, tally *T)
{
    const int d = p->dim, na = s->na;
    double inv_a3[NA]; /* 3 / a: the window's slope */
    for (int t = 0; t < na; t++)
        inv_a3[t] = 2.0 / a3[t];
    const double Vd = hg_unit_ball_volume(d);
    for (size_t k = k0; k < k1; k++) {
        const double *xk = &p->x[k * (size_t)d];
        double rk = p->r[k];
        int ck = -1;
        double vk = 0.0;
        for (int b = 0; b < ngrids; b++) {
            const cgrid *cg = &grids[b];
            size_t cell = 0, m = 1;
            for (int c = 0; c < d; c++) {
                cell += (size_t)cell_coord(cg, c, xk[c]) * m;
                m *= (size_t)cg->n[c];
            }
            uint32_t j0 = cg->start[cell], j1 = cg->start[cell + 1];
            for (uint32_t j = j0; j < j1; j++) {
                const centre *q = &cs[cg->list[j]];
                double u[3] = {0, 0, 0}, rho = 0.0, d2 = 0.0;
                for (int c = 0; c < d; c++) {
                    double v = delta(g, c, xk[c] - q->x[c]);
                    u[c] = v < 0.0 ? -v : v;
                    rho = u[c] > rho ? u[c] : rho;
                    d2 += u[c] * u[c];
                }
                if (rho > q->reach || q->index == k)
                    continue;
                double rsum = q->r + rk;
                if (d2 <= rsum * rsum) {
                    T->contacts += 1.0;
                    double ov = (rsum - sqrt(d2)) / (q->r < rk ? q->r : rk);
                    T->maxov = ov > T->maxov ? ov : T->maxov;
                }
                int thi = q->thi;
                if (thi < 0 || rho >= a3[thi])
                    continue;
                int t = 0, hi = na - 1;
                while (t < hi) { /* first width that reaches rho */
                    int mid = (t + hi) / 2;
                    if (a3[mid] > rho)
                        hi = mid;
                    else
                        t = mid + 1;
                }
                if (ck < 0) {
                    ck = class_of(s, rk);
                    vk = Vd * (d == 3 ? rk * rk * rk : rk * rk);
                }
                /* from the first width whose flat top (a/3 = a3/2) holds
                 * rho on, the window is 1 on every axis: counted once, as
                 * a difference (summed over t at the end) */
                int t1 = t;
                while (t1 <= thi && 0.5 * a3[t1] < rho)
                    t1++;
                if (t1 <= thi) {
                    T->dcnt[t1][q->cls][ck] += 1.0;
                    T->dcnt[thi + 1][q->cls][ck] -= 1.0;
                    T->dvcnt[t1][q->cls] += vk;
                    T->dvcnt[thi + 1][q->cls] -= vk;
                }
                for (; t < t1; t++) {
                    /* the window of width a = 1.5 a3 per axis: 1 up to a/3,
                     * falling to 0 at 2a/3, i.e. clamp(2 - 3u/a) */
                    double inv = inv_a3[t], w = 1.0;
                    for (int c = 0; c < d; c++) {
                        double f = 2.0 - u[c] * inv;
                        f = f > 1.0 ? 1.0 : f < 0.0 ? 0.0 : f;
                        if (g->per[c]) { /* the image too, at most once */
                            double fi = 2.0 - (g->len[c] - u[c]) * inv;
                            f += fi > 1.0 ? 1.0 : fi < 0.0 ? 0.0 : fi;
                            f = f < 1.0 ? f : 1.0;
                        }
                        w *= f;
                    }
                    T->cnt[t][q->cls][ck] += w;
                    T->vcnt[t][q->cls] += w * vk;
                }
            }
        }
    }
}

/* Each centre's bucket of reach (halving from the largest reach): each
 * bucket its own grid, so that a particle meets few centres that cannot
 * reach it. */
static int build_grids(const centre *cs, size_t ncs, const geom *g,
                       cgrid *grids, int *ngrids, hg_err *e)
{
    double reach = 0.0;
    for (size_t i = 0; i < ncs; i++)
        reach = fmax(reach, cs[i].reach);
    unsigned char *bucket = malloc(ncs ? ncs : 1);
    if (!bucket)
        return hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
    for (size_t i = 0; i < ncs; i++) {
        int b = (int)floor(log2(reach / cs[i].reach));
        bucket[i] = (unsigned char)(b < 0 ? 0 : b >= BUCKETS ? BUCKETS - 1 : b);
    }
    int st = HG_OK;
    for (*ngrids = 0; *ngrids < BUCKETS; (*ngrids)++)
        if ((st = cgrid_build(cs, bucket, ncs, *ngrids, g, &grids[*ngrids],
                              e))) {
            (*ngrids)++;
            break;
        }
    free(bucket);
    return st;
}

/* The differences over the widths of each chunk into counts, and the
 * chunks summed in order into T[0]. */
static void sum_chunks(int nchunk, int na, int nc, tally *T)
{
    for (int q = 0; q < nchunk; q++) {
        /* the differences into counts */
        double run[HG_SNAPSHOT_MAX_CLASSES][HG_SNAPSHOT_MAX_CLASSES] = {{0}};
        double vrun[HG_SNAPSHOT_MAX_CLASSES] = {0};
        for (int t = 0; t < na; t++)
            for (int a = 0; a < nc; a++) {
                for (int b = 0; b < nc; b++) {
                    run[a][b] += T[q].dcnt[t][a][b];
                    T[q].cnt[t][a][b] += run[a][b];
                }
                vrun[a] += T[q].dvcnt[t][a];
                T[q].vcnt[t][a] += vrun[a];
            }
        if (q == 0)
            continue;
        for (int t = 0; t < na; t++)
            for (int a = 0; a < nc; a++) {
                for (int b = 0; b < nc; b++)
                    T[0].cnt[t][a][b] += T[q].cnt[t][a][b];
                T[0].vcnt[t][a] += T[q].vcnt[t][a];
            }
        T[0].contacts += T[q].contacts;
        T[0].maxov = fmax(T[0].maxov, T[q].maxov);
    }
}

int hg_snapshot_count(const hg_snapshot *s, const hg_particles *p,
                      const geom *g, const centre *cs, size_t ncs,
                      const double *a3, hg_progress_fn fn, void *params,
                      tally **out, hg_err *e)
{
    *out = NULL;
    cgrid grids[BUCKETS];
    int ngrids = 0;
    memset(grids, 0, sizeof grids);
    int st = build_grids(cs, ncs, g, grids, &ngrids, e);
    tally *T = NULL;
    /* the particles in chunks fixed by their number (not the threads'),
     * summed in order: the same figures with any number of threads. A
     * tally is 70 kB, fresh pages cost 10-20 us each on a VM, and one
     * tally stays below malloc's 128 kB (fresh pages each call above it),
     * so a few thousand particles share one (64 of them cost 25 ms, the
     * count itself 0.3 ms, at 224 particles) */
    size_t n = p->n;
    long nchunk = (long)((n + CHUNK_PARTICLES - 1) / CHUNK_PARTICLES);
    nchunk = nchunk < 1 ? 1 : nchunk > CHUNKS ? CHUNKS : nchunk;
    if (!st && !(T = calloc((size_t)nchunk, sizeof *T)))
        st = hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
    if (!st) {
        int done = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) if (nchunk > 1)
#endif
        for (long q = 0; q < nchunk; q++) {
            count_chunk(s, p, g, grids, ngrids, cs, a3,
                        n * (size_t)q / (size_t)nchunk,
                        n * (size_t)(q + 1) / (size_t)nchunk, &T[q]);
            if (fn) {
#ifdef _OPENMP
#pragma omp critical(hg_snapshot_progress)
#endif
                fn("measuring", (double)++done / (double)nchunk, params);
            }
        }
        sum_chunks((int)nchunk, s->na, s->nc, T);
        *out = T;
    }
    for (int b = 0; b < ngrids; b++)
        cgrid_free(&grids[b]);
    return st;
}
