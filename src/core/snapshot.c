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
#define MAX_CENTRES 20000 /* centres counted in full up to this N */
#define TARGET 500.0      /* neighbours per centre and width, about */

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

/* A cell list over the particles with cells of at least w (freed by
 * cells_free, also after a failure). */
typedef struct cells {
    int64_t n[3];
    double w[3], lo[3];
    size_t *start, *idx;
} cells;

static int cells_build(const hg_particles *p, const geom *g, double w,
                       cells *cl, hg_err *e)
{
    memset(cl, 0, sizeof *cl);
    size_t total = 1;
    for (int c = 0; c < 3; c++) {
        cl->n[c] = 1;
        cl->w[c] = 1.0;
        cl->lo[c] = 0.0;
        if (c >= g->d)
            continue;
        double len = g->len[c];
        int64_t n = (int64_t)floor(len / w);
        if (n < 1)
            n = 1;
        if (n > 4096)
            n = 4096;
        cl->n[c] = n;
        cl->w[c] = len / (double)n;
        cl->lo[c] = g->lo[c];
        total *= (size_t)n;
    }
    cl->start = calloc(total + 1, sizeof *cl->start);
    cl->idx = malloc((p->n ? p->n : 1) * sizeof *cl->idx);
    size_t *cell = malloc((p->n ? p->n : 1) * sizeof *cell);
    if (!cl->start || !cl->idx || !cell) {
        free(cell);
        return hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
    }
    for (size_t i = 0; i < p->n; i++) {
        size_t k = 0, m = 1;
        for (int c = 0; c < g->d; c++) {
            int64_t q = (int64_t)floor((p->x[i * (size_t)g->d + (size_t)c] -
                                        cl->lo[c]) /
                                       cl->w[c]);
            if (q < 0)
                q = 0;
            if (q >= cl->n[c])
                q = cl->n[c] - 1;
            k += (size_t)q * m;
            m *= (size_t)cl->n[c];
        }
        cell[i] = k;
        cl->start[k + 1]++;
    }
    for (size_t k = 0; k < total; k++)
        cl->start[k + 1] += cl->start[k];
    size_t *fill = calloc(total, sizeof *fill);
    if (!fill) {
        free(cell);
        return hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
    }
    for (size_t i = 0; i < p->n; i++)
        cl->idx[cl->start[cell[i]] + fill[cell[i]]++] = i;
    free(fill);
    free(cell);
    return HG_OK;
}

static void cells_free(cells *cl)
{
    free(cl->start);
    free(cl->idx);
    cl->start = cl->idx = NULL;
}

/* Cell range along axis c covering [x - R, x + R]: *n0 cells from *k0
 * (wrapped when periodic). */
static void cell_range(const cells *cl, const geom *g, int c, double x,
                       double R, int64_t *k0, int64_t *cnt)
{
    int64_t n = cl->n[c];
    int64_t a = (int64_t)floor((x - R - cl->lo[c]) / cl->w[c]);
    int64_t b = (int64_t)floor((x + R - cl->lo[c]) / cl->w[c]);
    if (c >= g->d) {
        *k0 = 0;
        *cnt = 1;
        return;
    }
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
    if (a < 0)
        a = 0;
    if (b > n - 1)
        b = n - 1;
    *k0 = a;
    *cnt = b >= a ? b - a + 1 : 0;
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

typedef struct key {
    uint64_t h;
    size_t i;
} key;

static int key_cmp(const void *a, const void *b)
{
    uint64_t x = ((const key *)a)->h, y = ((const key *)b)->h;
    return x < y ? -1 : x > y;
}

/* Centres counted: all up to MAX_CENTRES, else per class the first
 * max(200, MAX_CENTRES / classes) in a fixed pseudo-random order (file
 * order often follows insertion time, i.e. height). */
static int choose_centres(const hg_snapshot *s, const hg_particles *p,
                          const int *cls, unsigned char *use, size_t *cnt,
                          hg_err *e)
{
    size_t n = p->n;
    memset(cnt, 0, sizeof *cnt * HG_SNAPSHOT_MAX_CLASSES);
    if (n <= MAX_CENTRES) {
        for (size_t i = 0; i < n; i++) {
            use[i] = 1;
            cnt[cls[i]]++;
        }
        return HG_OK;
    }
    size_t cap = MAX_CENTRES / (size_t)s->nc;
    if (cap < 200)
        cap = 200;
    key *k = malloc(n * sizeof *k);
    if (!k)
        return hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
    for (size_t i = 0; i < n; i++) {
        k[i].h = mix((uint64_t)i ^ 0x5eedULL);
        k[i].i = i;
    }
    qsort(k, n, sizeof *k, key_cmp);
    for (size_t q = 0; q < n; q++) {
        size_t i = k[q].i;
        if (cnt[cls[i]] < cap) {
            use[i] = 1;
            cnt[cls[i]]++;
        }
    }
    free(k);
    return HG_OK;
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

int hg_snapshot_create(const hg_particles *p, hg_snapshot **out, hg_err *e)
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
    int *cls = malloc(p->n * sizeof *cls);
    unsigned char *use = calloc(p->n, 1);
    cells cl = {0};
    double(*cnt)[HG_SNAPSHOT_MAX_CLASSES][HG_SNAPSHOT_MAX_CLASSES] = NULL;
    double *xs = NULL, *rs = NULL, *vs = NULL; /* in cell order */
    int *cs = NULL;
    double vcnt[NA][HG_SNAPSHOT_MAX_CLASSES]; /* sum of W V_k per class of i */
    if (!s || !cls || !use) {
        st = hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
        goto fail;
    }
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
    /* non-periodic axes: the cell list spans the centres, wherever they
     * are (a file may hold centres outside a walled box) */
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
    /* classes: equal steps in log r, two per factor of 2 in radius */
    double om = rmax / rmin;
    int nc = (int)ceil(2.0 * log2(om));
    nc = nc < 1 ? 1 : nc > HG_SNAPSHOT_MAX_CLASSES ? HG_SNAPSHOT_MAX_CLASSES
                                                   : nc;
    s->nc = nc;
    s->edge[0] = 0.0;
    for (int c = 1; c < nc; c++)
        s->edge[c] = rmin * pow(om, (double)c / nc);
    s->edge[nc] = rmax;
    size_t ncls[HG_SNAPSHOT_MAX_CLASSES] = {0}, ncen[HG_SNAPSHOT_MAX_CLASSES];
    for (size_t i = 0; i < p->n; i++) {
        cls[i] = class_of(s, p->r[i]);
        ncls[cls[i]]++;
    }
    for (int c = 0; c < nc; c++)
        s->frac[c] = (double)ncls[c] / (double)p->n;
    if ((st = choose_centres(s, p, cls, use, ncen, e)))
        goto fail;
    /* widths from below the finest search (3 s_1 >= 6 r_min) to above the
     * coarsest (3 s_L = 6 r_max; 9 r_max when a periodic box stretches
     * the top cells by up to 1.5 to whole cells, 3 A when a short periodic
     * edge A holds a single cell) */
    double a0 = 5.0 * rmin, a1 = 9.5 * rmax;
    /* a periodic edge of fewer than 3 top cells: a cell may span it */
    for (int c = 0; c < d; c++)
        if (g.per[c] && g.len[c] < 6.5 * rmax)
            a1 = fmax(a1, 3.05 * g.len[c]);
    /* log-spaced, plus where a periodic edge A bends the count: the
     * window meets its image from 3A/4 and covers the edge from A */
    int na = 0;
    for (int t = 0; t < NB; t++)
        s->log_a[na++] = log(a0) + (log(a1) - log(a0)) * t / (NB - 1);
    for (int c = 0; c < d; c++) {
        double k[2] = {0.75 * g.len[c], g.len[c]};
        for (int q = 0; q < 2 && g.per[c]; q++) {
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
    /* cells of about 8 particles of the occupied region (at most about 4
     * cells per particle): a centre scans as far as its own widths and
     * its contacts reach */
    double cw;
    {
        double vocc = in->nu_box / in->nu_occupied;
        for (int c = 0; c < d; c++)
            vocc *= p->hi[c] - p->lo[c];
        cw = pow(8.0 * vocc / (double)p->n, 1.0 / d);
        for (;;) { /* at most about 4 cells per particle */
            double cells = 1.0;
            for (int c = 0; c < d; c++)
                cells *= fmax(1.0, floor(g.len[c] / cw));
            if (cells <= 4.0 * (double)p->n + 4096.0)
                break;
            cw *= 1.25;
        }
    }
    if ((st = cells_build(p, &g, cw, &cl, e)))
        goto fail;
    /* the particles in cell order: a cell's neighbours are read in one
     * stream */
    if (!(xs = malloc(p->n * (size_t)d * sizeof *xs)) ||
        !(rs = malloc(p->n * sizeof *rs)) ||
        !(vs = malloc(p->n * sizeof *vs)) ||
        !(cs = malloc(p->n * sizeof *cs))) {
        st = hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
        goto fail;
    }
    for (size_t m = 0; m < p->n; m++) {
        size_t k = cl.idx[m];
        memcpy(&xs[m * (size_t)d], &p->x[k * (size_t)d],
               (size_t)d * sizeof *xs);
        rs[m] = p->r[k];
        cs[m] = cls[k];
    }
    if (!(cnt = calloc(NA, sizeof *cnt))) {
        st = hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
        goto fail;
    }
    memset(vcnt, 0, sizeof vcnt);
    const double Vd = hg_unit_ball_volume(d);
    for (size_t m = 0; m < p->n; m++)
        vs[m] = Vd * pow(rs[m], d);
    double a3[NA];
    for (int t = 0; t < na; t++)
        a3[t] = 2.0 * exp(s->log_a[t]) / 3.0;
    /* Wide windows hold many neighbours, whose count a few centres
     * measure as well as all: width t is counted around a centre of class
     * c with probability p_tc = min(1, max(TARGET / E_t, 64 / centres of
     * c)), E_t the neighbours expected at the occupied region's density
     * (non-increasing in t, so a centre counts the widths up to its own
     * t_hi). The counts are normalised by the centres that counted. */
    double ptc[NA][HG_SNAPSHOT_MAX_CLASSES];
    size_t ncen_t[NA][HG_SNAPSHOT_MAX_CLASSES];
    memset(ncen_t, 0, sizeof ncen_t);
    {
        double vbox = 1.0;
        for (int c = 0; c < d; c++)
            vbox *= p->hi[c] - p->lo[c];
        double nocc = in->nu_occupied / in->nu_box * (double)p->n / vbox;
        for (int t = 0; t < na; t++) {
            double E = fmin(nocc * pow(exp(s->log_a[t]), d), (double)p->n);
            for (int c = 0; c < nc; c++) {
                double q = E > 0.0 ? TARGET / E : 1.0;
                if (ncen[c])
                    q = fmax(q, 64.0 / (double)ncen[c]);
                ptc[t][c] = fmin(1.0, q);
            }
        }
    }
    double contacts = 0.0, maxov = 0.0;
    size_t centres = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (!use[i])
            continue;
        centres++;
        const double *xi = &p->x[i * (size_t)d];
        int ci = cls[i];
        double ui = (double)(mix((uint64_t)i ^ 0xc0ffeeULL) >> 11) * 0x1.0p-53;
        int thi = -1;
        while (thi + 1 < na && ui < ptc[thi + 1][ci])
            thi++;
        for (int t = 0; t <= thi; t++)
            ncen_t[t][ci]++;
        double ri = p->r[i] + rmax; /* contacts */
        if (thi >= 0)
            ri = fmax(ri, a3[thi]);
        int64_t k0[3], kn[3];
        for (int c = 0; c < 3; c++)
            cell_range(&cl, &g, c, c < d ? xi[c] : 0.0, ri, &k0[c], &kn[c]);
        for (int64_t z = 0; z < kn[2]; z++)
            for (int64_t y = 0; y < kn[1]; y++)
                for (int64_t x = 0; x < kn[0]; x++) {
                    int64_t q[3] = {k0[0] + x, k0[1] + y, k0[2] + z};
                    for (int c = 0; c < 3; c++)
                        if (q[c] >= cl.n[c])
                            q[c] -= cl.n[c];
                    size_t cell =
                        (size_t)(q[0] + cl.n[0] * (q[1] + cl.n[1] * q[2]));
                    for (size_t m = cl.start[cell]; m < cl.start[cell + 1];
                         m++) {
                        size_t k = cl.idx[m];
                        if (k == i)
                            continue;
                        const double *xk = &xs[m * (size_t)d];
                        double u[3] = {0, 0, 0}, rho = 0.0, d2 = 0.0;
                        for (int c = 0; c < d; c++) {
                            u[c] = fabs(delta(&g, c, xk[c] - xi[c]));
                            rho = fmax(rho, u[c]);
                            d2 += u[c] * u[c];
                        }
                        double rsum = p->r[i] + rs[m];
                        if (d2 <= rsum * rsum) {
                            contacts += 1.0;
                            double ov = (rsum - sqrt(d2)) /
                                        fmin(p->r[i], rs[m]);
                            maxov = fmax(maxov, ov);
                        }
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
                        int ck = cs[m];
                        double vk = vs[m];
                        for (; t <= thi; t++) {
                            double a = 1.5 * a3[t], w = 1.0;
                            for (int c = 0; c < d; c++) {
                                /* a periodic axis: the window's image
                                 * too, at most once per cell */
                                double f = window(u[c], a);
                                if (g.per[c])
                                    f = fmin(1.0,
                                             f + window(g.len[c] - u[c], a));
                                w *= f;
                            }
                            cnt[t][ci][ck] += w;
                            vcnt[t][ci] += w * vk;
                        }
                    }
                }
    }
    in->centres = centres;
    in->max_overlap = maxov;
    in->coordination = contacts / (double)centres;
    for (int t = 0; t < na; t++) {
        double ad = pow(exp(s->log_a[t]), d);
        for (int a = 0; a < nc; a++)
            for (int b = 0; b < nc; b++) {
                double xk = (double)ncls[b] / (double)p->n;
                s->g[t][a][b] =
                    ncen_t[t][a] && ncls[b]
                        ? cnt[t][a][b] / ((double)ncen_t[t][a] * xk * ad)
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
    Vp *= Vd / (double)p->n;
    {
        double f;
        int t = node(s, log(6.0 * rmax), &f);
        double acc = 0.0;
        for (int c = 0; c < nc; c++) {
            if (!ncen_t[t][c] || !ncen_t[t + 1][c])
                continue;
            double v0 = vcnt[t][c] / window_volume(&g, exp(s->log_a[t])) /
                        (double)ncen_t[t][c];
            double v1 = vcnt[t + 1][c] /
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
    cells_free(&cl);
    free(cnt);
    free(xs);
    free(rs);
    free(vs);
    free(cs);
    free(cls);
    free(use);
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
