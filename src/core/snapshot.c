/* snapshot.c - pair statistics of a particle snapshot for the cost model
 * (hg_snapshot.h): windowed neighbour counts per radius class and window
 * width, contacts, the occupied region and a layer profile. */
#include "hg_snapshot.h"
#include "hg_psd.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NB 24             /* log-spaced window widths */
#define NA (NB + 6)       /* plus the kinks of up to 3 periodic edges */
/* Centres counted in full up to MAX_CENTRES particles, about TARGET
 * neighbours per centre and width: the factors of every grid of the
 * fixtures agree with 20000 and 500 (five times the work) within 0.2 %
 * (docs/measurements/snapshots.md) */
#define MAX_CENTRES 4000
#define TARGET 150.0
#define CHUNKS 64         /* the particles' split for counting */
#define BUCKETS 6         /* centres grouped by reach */

struct hg_snapshot {
    hg_snapshot_info info;
    int nc;                               /* radius classes */
    double edge[HG_SNAPSHOT_MAX_CLASSES + 1]; /* class c: (edge[c], edge[c+1]] */
    int na;               /* widths measured, ascending */
    double log_a[NA];
    double frac[HG_SNAPSHOT_MAX_CLASSES]; /* number fraction per class */
    /* g[t][ci][ck]: number density of all particles seen (hg_snapshot.h) */
    double g[NA][HG_SNAPSHOT_MAX_CLASSES][HG_SNAPSHOT_MAX_CLASSES];
};

typedef struct geom {
    int d;
    int per[3];
    double lo[3], len[3], half[3];
} geom;

static int class_of(const hg_snapshot *s, double r)
{
    int c = 0;
    while (c + 1 < s->nc && r > s->edge[c + 1])
        c++;
    return c;
}

/* Window of width a along one axis at offset t >= 0. */
static double window(double t, double a)
{
    double f = a / 3.0;
    if (t <= f)
        return 1.0;
    return t < 2.0 * f ? (2.0 * f - t) / f : 0.0;
}

/* The window of width a summed over the positions of one axis (what a
 * uniform density per unit length fills): a; less on a periodic axis of
 * length A, where the window meets its own image from 3A/4 on and the
 * two together count a particle at most once. */
static double window_span(const geom *g, int c, double a)
{
    if (!g->per[c] || a <= 0.75 * g->len[c])
        return a;
    enum { STEPS = 4096 };
    double h = g->half[c] / STEPS, acc = 0.0;
    for (int k = 0; k < STEPS; k++) {
        double u = (k + 0.5) * h;
        acc += fmin(1.0, window(u, a) + window(g->len[c] - u, a));
    }
    return 2.0 * h * acc;
}

/* The volume window_span fills in d dimensions. */
static double window_volume(const geom *g, double a)
{
    double v = 1.0;
    for (int c = 0; c < g->d; c++)
        v *= window_span(g, c, a);
    return v;
}

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

/* A sampled centre: the particle whose neighbourhood is counted, out to
 * reach (Chebyshev): its contacts and widths 0..thi. */
typedef struct centre {
    double x[3], r, reach;
    int cls, thi;
    size_t index;
} centre;

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

/* The occupied extent, the layer profile and the packing fractions that
 * need no pairs. */
static void profile(const hg_particles *p, const geom *g, hg_snapshot_info *in)
{
    int d = g->d;
    double Vd = hg_unit_ball_volume(d), vol = 0.0;
    for (int c = 0; c < 3; c++) {
        in->occ_lo[c] = c < d ? INFINITY : 0.0;
        in->occ_hi[c] = c < d ? -INFINITY : 0.0;
        in->box_lo[c] = c < d ? p->lo[c] : 0.0;
        in->box_hi[c] = c < d ? p->hi[c] : 0.0;
    }
    for (size_t i = 0; i < p->n; i++) {
        double r = p->r[i];
        vol += Vd * pow(r, d);
        for (int c = 0; c < d; c++) {
            double x = p->x[i * (size_t)d + (size_t)c];
            in->occ_lo[c] = fmin(in->occ_lo[c], x - r);
            in->occ_hi[c] = fmax(in->occ_hi[c], x + r);
        }
    }
    double vbox = 1.0, vocc = 1.0;
    for (int c = 0; c < d; c++) {
        double len = p->hi[c] - p->lo[c];
        vbox *= len;
        if (g->per[c]) {
            vocc *= len;
        } else {
            double lo = fmax(in->occ_lo[c], p->lo[c]);
            double hi = fmin(in->occ_hi[c], p->hi[c]);
            if (!(hi > lo)) { /* a file whose spheres stick out of its box */
                lo = in->occ_lo[c];
                hi = in->occ_hi[c];
            }
            vocc *= hi - lo;
        }
    }
    in->nu_box = vol / vbox;
    in->nu_occupied = vol / vocc;
    in->layer_axis = -1;
    for (int c = d - 1; c >= 0; c--)
        if (!g->per[c]) {
            in->layer_axis = c;
            break;
        }
    in->size_layering = 1.0;
    if (in->layer_axis < 0)
        return;
    int ax = in->layer_axis, L = HG_SNAPSHOT_LAYERS;
    double lo = in->occ_lo[ax], w = (in->occ_hi[ax] - lo) / L;
    double cross = vocc / (in->occ_hi[ax] - in->occ_lo[ax]);
    double sv[HG_SNAPSHOT_LAYERS] = {0}, sr[HG_SNAPSHOT_LAYERS] = {0};
    size_t cnt[HG_SNAPSHOT_LAYERS] = {0};
    for (size_t i = 0; i < p->n; i++) {
        int k = (int)floor((p->x[i * (size_t)d + (size_t)ax] - lo) / w);
        k = k < 0 ? 0 : k >= L ? L - 1 : k;
        sv[k] += Vd * pow(p->r[i], d);
        sr[k] += p->r[i];
        cnt[k]++;
    }
    in->layers = L;
    double rlo = INFINITY, rhi = 0.0;
    for (int k = 0; k < L; k++) {
        in->layer_nu[k] = sv[k] / (cross * w);
        in->layer_rmean[k] = cnt[k] ? sr[k] / (double)cnt[k] : 0.0;
        in->layer_fraction[k] = (double)cnt[k] / (double)p->n;
        if (in->layer_fraction[k] >= 0.05) {
            rlo = fmin(rlo, in->layer_rmean[k]);
            rhi = fmax(rhi, in->layer_rmean[k]);
        }
    }
    if (rlo > 0.0 && isfinite(rlo))
        in->size_layering = rhi / rlo;
}

/* The interval [t, t+1] of the widths holding log width la and the
 * position f in it (0 below the first, 1 above the last). */
static int node(const hg_snapshot *s, double la, double *f)
{
    int n = s->na;
    if (n < 2 || !(la > s->log_a[0])) {
        *f = 0.0;
        return 0;
    }
    if (!(la < s->log_a[n - 1])) {
        *f = 1.0;
        return n - 2;
    }
    int lo = 0, hi = n - 1; /* log_a[lo] < la < log_a[hi] */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (s->log_a[mid] <= la)
            lo = mid;
        else
            hi = mid;
    }
    *f = (la - s->log_a[lo]) / (s->log_a[lo + 1] - s->log_a[lo]);
    return lo;
}

/* Radius classes: equal steps in log r, two per factor of 2 in radius;
 * ncls[c] particles in class c. */
static void setup_classes(hg_snapshot *s, const hg_particles *p, double rmin,
                          double rmax, size_t *ncls)
{
    double om = rmax / rmin;
    int nc = (int)ceil(2.0 * log2(om));
    nc = nc < 1 ? 1 : nc > HG_SNAPSHOT_MAX_CLASSES ? HG_SNAPSHOT_MAX_CLASSES
                                                   : nc;
    s->nc = nc;
    s->edge[0] = 0.0;
    for (int c = 1; c < nc; c++)
        s->edge[c] = rmin * pow(om, (double)c / nc);
    s->edge[nc] = rmax;
    memset(ncls, 0, sizeof *ncls * HG_SNAPSHOT_MAX_CLASSES);
    for (size_t i = 0; i < p->n; i++)
        ncls[class_of(s, p->r[i])]++;
    for (int c = 0; c < nc; c++)
        s->frac[c] = (double)ncls[c] / (double)p->n;
}

/* Widths from below the finest search (3 s_1 >= 6 r_min) to above the
 * coarsest (3 s_L = 6 r_max; 9 r_max when a periodic box stretches the
 * top cells by up to 1.5 to whole cells, 3 A when a short periodic edge
 * A holds a single cell), log-spaced, plus where a periodic edge A bends
 * the count: the window meets its image from 3A/4 and covers the edge
 * from A. */
static void setup_widths(hg_snapshot *s, const geom *g, double rmin,
                         double rmax)
{
    double a0 = 5.0 * rmin, a1 = 9.5 * rmax;
    for (int c = 0; c < g->d; c++)
        if (g->per[c] && g->len[c] < 6.5 * rmax)
            a1 = fmax(a1, 3.05 * g->len[c]);
    int na = 0;
    for (int t = 0; t < NB; t++)
        s->log_a[na++] = log(a0) + (log(a1) - log(a0)) * t / (NB - 1);
    for (int c = 0; c < g->d; c++) {
        double k[2] = {0.75 * g->len[c], g->len[c]};
        for (int q = 0; q < 2 && g->per[c]; q++) {
            double la = log(k[q]);
            int dup = 0;
            for (int t = 0; t < na; t++)
                dup |= fabs(s->log_a[t] - la) < 1e-9;
            if (la > s->log_a[0] && la < s->log_a[NB - 1] && !dup)
                s->log_a[na++] = la;
        }
    }
    for (int t = 1; t < na; t++) /* insertion sort: a handful */
        for (int u = t; u > 0 && s->log_a[u] < s->log_a[u - 1]; u--) {
            double x = s->log_a[u];
            s->log_a[u] = s->log_a[u - 1];
            s->log_a[u - 1] = x;
        }
    s->na = na;
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
static int choose_centres(const hg_snapshot *s, const hg_particles *p,
                          const size_t *ncls, const hg_snapshot_info *in,
                          double rmax, double (*ptc)[HG_SNAPSHOT_MAX_CLASSES],
                          centre **out, size_t *nout, hg_err *e)
{
    size_t n = p->n;
    int d = p->dim, nc = s->nc;
    double share[HG_SNAPSHOT_MAX_CLASSES];
    size_t cap = n <= MAX_CENTRES ? n : MAX_CENTRES / (size_t)nc;
    if (cap < 200)
        cap = 200;
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
            if (expect[c] > 0.0)
                q = fmax(q, 64.0 / expect[c]);
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

/* What the particles of one chunk add around the centres. */
typedef struct tally {
    double cnt[NA][HG_SNAPSHOT_MAX_CLASSES][HG_SNAPSHOT_MAX_CLASSES];
    double vcnt[NA][HG_SNAPSHOT_MAX_CLASSES]; /* sum of W V_k per class of
                                                 the centre */
    /* the pairs with W = 1 from a width on, as differences over t */
    double dcnt[NA + 1][HG_SNAPSHOT_MAX_CLASSES][HG_SNAPSHOT_MAX_CLASSES];
    double dvcnt[NA + 1][HG_SNAPSHOT_MAX_CLASSES];
    double contacts, maxov;
} tally;

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

int hg_snapshot_create(const hg_particles *p, hg_snapshot **out, hg_err *e)
{
    return hg_snapshot_create_progress(p, NULL, NULL, out, e);
}

int hg_snapshot_create_progress(const hg_particles *p, hg_progress_fn fn,
                                void *params, hg_snapshot **out, hg_err *e)
{
    *out = NULL;
    int st = hg_particles_check(p, e);
    if (st)
        return st;
    if (p->n < 2)
        return hg_fail(e, HG_EINVAL,
                       "snapshot: %zu particle(s); pair statistics need at "
                       "least 2",
                       p->n);
    hg_snapshot *s = calloc(1, sizeof *s);
    tally *T = NULL;
    centre *cs = NULL;
    size_t ncs = 0;
    cgrid grids[BUCKETS];
    int ngrids = 0;
    unsigned char *bucket = NULL;
    memset(grids, 0, sizeof grids);
    if (!s)
        return hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
    const int d = p->dim;
    geom g = {.d = d};
    for (int c = 0; c < d; c++) {
        g.per[c] = hg_particles_axis_periodic(p, c);
        g.lo[c] = p->lo[c];
        g.len[c] = p->hi[c] - p->lo[c];
        g.half[c] = 0.5 * g.len[c];
    }
    hg_snapshot_info *in = &s->info;
    in->dim = d;
    in->n = p->n;
    hg_particles_boundary_text(p, in->boundary);
    profile(p, &g, in);
    /* non-periodic axes: the grid spans the centres, wherever they are
     * (a file may hold centres outside a walled box) */
    for (int c = 0; c < d; c++)
        if (!g.per[c]) {
            double lo = INFINITY, hi = -INFINITY;
            for (size_t i = 0; i < p->n; i++) {
                double x = p->x[i * (size_t)d + (size_t)c];
                lo = fmin(lo, x);
                hi = fmax(hi, x);
            }
            g.lo[c] = lo;
            g.len[c] = fmax(hi - lo, 1e-300);
        }
    double rmin = hg_particles_rmin(p), rmax = hg_particles_rmax(p);
    size_t ncls[HG_SNAPSHOT_MAX_CLASSES];
    setup_classes(s, p, rmin, rmax, ncls);
    setup_widths(s, &g, rmin, rmax);
    const int nc = s->nc, na = s->na;
    double ptc[NA][HG_SNAPSHOT_MAX_CLASSES];
    if ((st = choose_centres(s, p, ncls, in, rmax, ptc, &cs, &ncs, e)))
        goto fail;
    double a3[NA], reach = 0.0;
    for (int t = 0; t < na; t++)
        a3[t] = 2.0 * exp(s->log_a[t]) / 3.0;
    size_t ncen_t[NA][HG_SNAPSHOT_MAX_CLASSES];
    memset(ncen_t, 0, sizeof ncen_t);
    for (size_t i = 0; i < ncs; i++) {
        reach = fmax(reach, cs[i].reach);
        for (int t = 0; t <= cs[i].thi; t++)
            ncen_t[t][cs[i].cls]++;
    }
    /* centres in buckets of reach (halving from the largest): each its
     * own grid, so that a particle meets few centres that cannot reach
     * it */
    if (!(bucket = malloc(ncs ? ncs : 1))) {
        st = hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
        goto fail;
    }
    for (size_t i = 0; i < ncs; i++) {
        int b = (int)floor(log2(reach / cs[i].reach));
        bucket[i] = (unsigned char)(b < 0 ? 0 : b >= BUCKETS ? BUCKETS - 1 : b);
    }
    for (; ngrids < BUCKETS; ngrids++)
        if ((st = cgrid_build(cs, bucket, ncs, ngrids, &g, &grids[ngrids],
                              e))) {
            ngrids++;
            goto fail;
        }
    /* the particles in a fixed number of chunks, summed in order: the
     * same figures with any number of threads */
    if (!(T = calloc(CHUNKS, sizeof *T))) {
        st = hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
        goto fail;
    }
    {
        long nchunk = CHUNKS;
        size_t n = p->n;
        int done = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
        for (long q = 0; q < nchunk; q++) {
            count_chunk(s, p, &g, grids, ngrids, cs, a3,
                        n * (size_t)q / CHUNKS, n * (size_t)(q + 1) / CHUNKS,
                        &T[q]);
            if (fn) {
#ifdef _OPENMP
#pragma omp critical(hg_snapshot_progress)
#endif
                fn("measuring", (double)++done / CHUNKS, params);
            }
        }
    }
    for (int q = 0; q < CHUNKS; q++) {
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
    in->centres = ncs;
    in->max_overlap = T[0].maxov;
    in->coordination = T[0].contacts / (double)ncs;
    for (int t = 0; t < na; t++) {
        double ad = pow(exp(s->log_a[t]), d);
        for (int a = 0; a < nc; a++)
            for (int b = 0; b < nc; b++) {
                double xk = (double)ncls[b] / (double)p->n;
                s->g[t][a][b] =
                    ncen_t[t][a] && ncls[b]
                        ? T[0].cnt[t][a][b] / ((double)ncen_t[t][a] * xk * ad)
                        : 0.0;
            }
    }
    /* the packing fraction experienced: the sphere volume in the window
     * of the linked cell (width 6 r_max) around a particle, per volume the
     * window fills (a box shorter than the window: the box), averaged
     * over the particles */
    double Vp = 0.0;
    for (size_t i = 0; i < p->n; i++)
        Vp += pow(p->r[i], d);
    Vp *= hg_unit_ball_volume(d) / (double)p->n;
    {
        double f;
        int t = node(s, log(6.0 * rmax), &f);
        double acc = 0.0;
        for (int c = 0; c < nc; c++) {
            if (!ncen_t[t][c] || !ncen_t[t + 1][c])
                continue;
            double v0 = T[0].vcnt[t][c] /
                        window_volume(&g, exp(s->log_a[t])) /
                        (double)ncen_t[t][c];
            double v1 = T[0].vcnt[t + 1][c] /
                        window_volume(&g, exp(s->log_a[t + 1])) /
                        (double)ncen_t[t + 1][c];
            acc += s->frac[c] * ((1.0 - f) * v0 + f * v1);
        }
        in->nu_local = acc;
    }
    /* contacts expected for uniformly random centres at nu_local:
     * n sum_k x_k V_d (r_i + r_k)^d averaged over i */
    {
        double n = in->nu_local / Vp, acc = 0.0;
        double Vd = hg_unit_ball_volume(d);
        for (int a = 0; a < nc; a++)
            for (int b = 0; b < nc; b++) {
                double ra = 0.5 * (s->edge[a] > 0 ? s->edge[a] : rmin) +
                            0.5 * s->edge[a + 1];
                double rb = 0.5 * (s->edge[b] > 0 ? s->edge[b] : rmin) +
                            0.5 * s->edge[b + 1];
                acc += (double)ncls[a] / (double)p->n * (double)ncls[b] /
                       (double)p->n * Vd * pow(ra + rb, d);
            }
        in->coordination_poisson = n * acc;
    }
    *out = s;
    s = NULL;
    st = HG_OK;
fail:
    for (int b = 0; b < ngrids; b++)
        cgrid_free(&grids[b]);
    free(bucket);
    free(cs);
    free(T);
    free(s);
    return st;
}

void hg_snapshot_free(hg_snapshot *s)
{
    free(s);
}

const hg_snapshot_info *hg_snapshot_get_info(const hg_snapshot *s)
{
    return &s->info;
}

int hg_snapshot_dim(const hg_snapshot *s)
{
    return s->info.dim;
}

int hg_snapshot_classes(const hg_snapshot *s)
{
    return s->nc;
}

double hg_snapshot_factor_mix(const hg_snapshot *s, double nu, double Vp,
                              double a, const double *wi, const double *wk)
{
    double acc = 0.0;
    for (int ci = 0; ci < s->nc; ci++) {
        if (!(wi[ci] > 0.0))
            continue;
        for (int ck = 0; ck < s->nc; ck++)
            if (wk[ck] > 0.0)
                acc += wi[ci] * wk[ck] *
                       hg_snapshot_factor(s, nu, Vp, a, ci, ck);
    }
    return acc;
}

double hg_snapshot_factor_all(const hg_snapshot *s, double nu, double Vp,
                              double a)
{
    return hg_snapshot_factor_mix(s, nu, Vp, a, s->frac, s->frac);
}

double hg_snapshot_class_weights(const hg_snapshot *s, const hg_psd *psd,
                                 double lo, double hi, double *w,
                                 double *rmean)
{
    for (int c = 0; c < s->nc; c++) {
        w[c] = 0.0;
        if (rmean)
            rmean[c] = 0.0;
    }
    double P = hi > lo ? hg_psd_moment(psd, 0, lo, hi) : 0.0;
    if (!(P > 0.0))
        return 0.0;
    for (int c = 0; c < s->nc; c++) {
        double a = fmax(lo, s->edge[c]);
        double b = fmin(hi, c == s->nc - 1 ? fmax(s->edge[c + 1], hi)
                                           : s->edge[c + 1]);
        if (!(b > a))
            continue;
        double q0 = hg_psd_moment(psd, 0, a, b);
        w[c] = q0 / P;
        if (rmean && q0 > 0.0)
            rmean[c] = hg_psd_moment(psd, 1, a, b) / q0;
    }
    return P;
}

double hg_snapshot_factor(const hg_snapshot *s, double nu, double Vp,
                          double a, int ci, int ck)
{
    double f;
    int t = node(s, log(a), &f);
    double g0 = s->g[t][ci][ck], g1 = s->g[t + 1][ci][ck], g;
    /* log-log: a count that stops growing (the window covers a periodic
     * box) falls as a^-d exactly */
    if (f <= 0.0)
        g = g0;
    else if (f >= 1.0)
        g = g1;
    else
        g = g0 > 0.0 && g1 > 0.0 ? exp((1.0 - f) * log(g0) + f * log(g1))
                                 : (1.0 - f) * g0 + f * g1;
    return g * Vp / nu;
}
