/* snapshot.c - pair statistics of a particle snapshot for the cost model
 * (hg_snapshot.h): windowed neighbour counts per radius class and window
 * width (counted in snapshot_count.c) turned into factors, contacts, the
 * occupied region and a layer profile. */
#include "snapshot_internal.h"
#include "hg_psd.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
    /* the last non-periodic axis (gravity) whose occupied extent holds
     * several mean diameters, in slabs of at least one: a monolayer one
     * diameter thick has no layers to tell */
    double rsum = 0.0;
    for (size_t i = 0; i < p->n; i++)
        rsum += p->r[i];
    double dmean = p->n ? 2.0 * rsum / (double)p->n : 0.0;
    in->layer_axis = -1;
    int L = 0;
    for (int c = d - 1; c >= 0; c--) {
        double slabs = (in->occ_hi[c] - in->occ_lo[c]) / dmean;
        if (!g->per[c] && dmean > 0.0 && slabs >= HG_SNAPSHOT_MIN_LAYERS) {
            in->layer_axis = c;
            L = slabs >= HG_SNAPSHOT_LAYERS ? HG_SNAPSHOT_LAYERS : (int)slabs;
            break;
        }
    }
    in->size_layering = 1.0;
    if (in->layer_axis < 0)
        return;
    int ax = in->layer_axis;
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
    /* sampled (a trajectory's many frames): half the classes */
    int nc = (int)ceil((s->max_centres ? 1.0 : 2.0) * log2(om));
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

int hg_snapshot_create(const hg_particles *p, hg_snapshot **out, hg_err *e)
{
    return hg_snapshot_create_progress(p, NULL, NULL, out, e);
}

/* The box of p as the counts see it: non-periodic axes span the centres,
 * wherever they are (a file may hold centres outside a walled box). */
static void setup_geom(const hg_particles *p, geom *g)
{
    const int d = p->dim;
    memset(g, 0, sizeof *g);
    g->d = d;
    for (int c = 0; c < d; c++) {
        g->per[c] = hg_particles_axis_periodic(p, c);
        g->lo[c] = p->lo[c];
        g->len[c] = p->hi[c] - p->lo[c];
        g->half[c] = 0.5 * g->len[c];
    }
    /* a monolayer's centres may share a coordinate: the span is at least
     * the largest diameter, so that the grid of the centres has cells of
     * a width the coordinates divide into (1e-300 overflowed the cell
     * index, and the counts came out empty) */
    double rmax = 0.0;
    for (size_t i = 0; i < p->n; i++)
        rmax = fmax(rmax, p->r[i]);
    for (int c = 0; c < d; c++)
        if (!g->per[c]) {
            double lo = INFINITY, hi = -INFINITY;
            for (size_t i = 0; i < p->n; i++) {
                double x = p->x[i * (size_t)d + (size_t)c];
                lo = fmin(lo, x);
                hi = fmax(hi, x);
            }
            g->lo[c] = lo;
            g->len[c] = fmax(hi - lo, fmax(2.0 * rmax, 1e-300));
        }
}

/* The factors g[t][a][b] from the summed counts T: the density of the
 * particles of class b seen around the centres of class a at width t. */
static void fill_factors(hg_snapshot *s, const hg_particles *p,
                         const tally *T, const size_t *ncls,
                         size_t (*ncen_t)[HG_SNAPSHOT_MAX_CLASSES])
{
    const int d = p->dim, nc = s->nc;
    for (int t = 0; t < s->na; t++) {
        double ad = pow(exp(s->log_a[t]), d);
        for (int a = 0; a < nc; a++)
            for (int b = 0; b < nc; b++) {
                double xk = (double)ncls[b] / (double)p->n;
                s->g[t][a][b] =
                    ncen_t[t][a] && ncls[b]
                        ? T->cnt[t][a][b] / ((double)ncen_t[t][a] * xk * ad)
                        : 0.0;
            }
    }
}

/* The packing fraction experienced: the sphere volume in the window of
 * the linked cell (width 6 r_max) around a particle, per volume the
 * window fills (a box shorter than the window: the box), averaged over
 * the particles. */
static double local_packing(const hg_snapshot *s, const geom *g,
                            const tally *T,
                            size_t (*ncen_t)[HG_SNAPSHOT_MAX_CLASSES],
                            double rmax)
{
    double f;
    int t = node(s, log(6.0 * rmax), &f);
    double acc = 0.0;
    for (int c = 0; c < s->nc; c++) {
        if (!ncen_t[t][c] || !ncen_t[t + 1][c])
            continue;
        double v0 = T->vcnt[t][c] / window_volume(g, exp(s->log_a[t])) /
                    (double)ncen_t[t][c];
        double v1 = T->vcnt[t + 1][c] /
                    window_volume(g, exp(s->log_a[t + 1])) /
                    (double)ncen_t[t + 1][c];
        acc += s->frac[c] * ((1.0 - f) * v0 + f * v1);
    }
    return acc;
}

/* Contacts expected for uniformly random centres at nu_local:
 * n sum_k x_k V_d (r_i + r_k)^d averaged over i. */
static double poisson_coordination(const hg_snapshot *s,
                                   const hg_particles *p, const size_t *ncls,
                                   double rmin, double nu_local)
{
    const int d = p->dim, nc = s->nc;
    double Vp = 0.0;
    for (size_t i = 0; i < p->n; i++)
        Vp += pow(p->r[i], d);
    Vp *= hg_unit_ball_volume(d) / (double)p->n;
    double n = nu_local / Vp, acc = 0.0;
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
    return n * acc;
}

static int create(const hg_particles *p, size_t max_centres,
                  hg_progress_fn fn, void *params, hg_snapshot **out,
                  hg_err *e);

int hg_snapshot_create_progress(const hg_particles *p, hg_progress_fn fn,
                                void *params, hg_snapshot **out, hg_err *e)
{
    return create(p, 0, fn, params, out, e);
}

int hg_snapshot_create_sampled(const hg_particles *p, size_t max_centres,
                               hg_snapshot **out, hg_err *e)
{
    return create(p, max_centres, NULL, NULL, out, e);
}

static int create(const hg_particles *p, size_t max_centres,
                  hg_progress_fn fn, void *params, hg_snapshot **out,
                  hg_err *e)
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
    if (!s)
        return hg_fail(e, HG_ENOMEM, "snapshot: out of memory");
    s->max_centres = max_centres;
    geom g;
    setup_geom(p, &g);
    hg_snapshot_info *in = &s->info;
    in->dim = p->dim;
    in->n = p->n;
    hg_particles_boundary_text(p, in->boundary);
    profile(p, &g, in);
    double rmin = hg_particles_rmin(p), rmax = hg_particles_rmax(p);
    size_t ncls[HG_SNAPSHOT_MAX_CLASSES];
    setup_classes(s, p, rmin, rmax, ncls);
    setup_widths(s, &g, rmin, rmax);
    double ptc[NA][HG_SNAPSHOT_MAX_CLASSES];
    if ((st = hg_snapshot_choose_centres(s, p, ncls, in, rmax, ptc, &cs,
                                         &ncs, e)))
        goto fail;
    double a3[NA];
    for (int t = 0; t < s->na; t++)
        a3[t] = 2.0 * exp(s->log_a[t]) / 3.0;
    size_t ncen_t[NA][HG_SNAPSHOT_MAX_CLASSES]; /* centres per width, class */
    memset(ncen_t, 0, sizeof ncen_t);
    for (size_t i = 0; i < ncs; i++)
        for (int t = 0; t <= cs[i].thi; t++)
            ncen_t[t][cs[i].cls]++;
    if ((st = hg_snapshot_count(s, p, &g, cs, ncs, a3, fn, params, &T, e)))
        goto fail;
    in->centres = ncs;
    in->max_overlap = T[0].maxov;
    in->coordination = T[0].contacts / (double)ncs;
    fill_factors(s, p, &T[0], ncls, ncen_t);
    in->nu_local = local_packing(s, &g, &T[0], ncen_t, rmax);
    in->coordination_poisson =
        poisson_coordination(s, p, ncls, rmin, in->nu_local);
    *out = s;
    s = NULL;
    st = HG_OK;
fail:
    free(cs);
    free(T);
    free(s);
    return st;
}

void hg_snapshot_free(hg_snapshot *s)
{
    free(s);
}

hg_snapshot *hg_snapshot_copy(const hg_snapshot *s)
{
    hg_snapshot *c = malloc(sizeof *c);
    if (c)
        memcpy(c, s, sizeof *c);
    return c;
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
