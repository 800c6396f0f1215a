/* lammps_bins.c - the `bin` detector, LAMMPS-style binning (baseline): one
 * grid of bins of half the largest cutoff with a stencil pruned to the bins
 * within reach, as LAMMPS' `neighbor bin` does (the strongest single-level
 * method users run):
 *   cutoff c = 2 r_max + skin (the largest contact distance);
 *   bin width w >= c / 2 (periodic: A / floor(2 A / c), a whole number of
 *   bins per edge; open: c / 2 over the extent of the centres);
 *   stencil: the offsets o with |o_a| <= ceil(c / w_a) whose closest points
 *   are nearer than c: sum_a (max(|o_a| - 1, 0) w_a)^2 < c^2; a particle
 *   tests the rest of its own bin (each pair once) and the half stencil
 *   (offsets after 0 in (z, y, x) order), walked as rows along x.
 * Counters: one cell access per stencil bin visited (own bin included),
 * one pair check per particle found there; the model models/bin.c predicts
 * both. Periodic boxes with fewer than 2 reach + 1 bins on an axis visit
 * every distinct bin of the full stencil once (the larger canonical key). */
#include "detect_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LBINS_MAX_AXIS 2000000000.0

typedef struct lbins_row {
    int dy, dz, x0, x1; /* offsets of one stencil row along x */
} lbins_row;

typedef struct lbins_state {
    int dim;
    size_t ncap, ccap;
    double *xr;        /* sorted records x[0..dim-1], r */
    uint32_t *id;      /* original index of each record */
    uint32_t *cell;    /* bin of each particle (input order) */
    uint32_t *cs;      /* cs[b] .. cs[b + 1]: records of bin b */
    int nrows, rcap;
    lbins_row *rows;   /* half stencil rows (without the own bin) */
    int64_t n[3];
    double w[3], inv[3], lo[3], len[3], half[3];
    int periodic, small;
    int full;          /* full stencil size (offsets within reach) */
} lbins_state;

static const char *const lbins_keys[] = {NULL};

static void lbins_free(void *state)
{
    lbins_state *s = state;
    if (!s)
        return;
    free(s->xr);
    free(s->id);
    free(s->cell);
    free(s->cs);
    free(s->rows);
    free(s);
}

static int lbins_create(const hg_kv *params, void **state, hg_err *e)
{
    (void)params;
    lbins_state *s = calloc(1, sizeof *s);
    if (!s)
        return hg_fail(e, HG_ENOMEM, "bin: out of memory");
    *state = s;
    return HG_OK;
}

static size_t lbins_bytes(const lbins_state *s)
{
    return sizeof *s +
           s->ncap * ((size_t)(s->dim + 1) * sizeof(double) +
                      2 * sizeof(uint32_t)) +
           s->ccap * sizeof(uint32_t) + (size_t)s->rcap * sizeof(lbins_row);
}

/* Stencil rows for cutoff c: for every (dy, dz) the x offsets whose bins
 * can hold a centre within c of a centre in the own bin. */
static int make_stencil(lbins_state *s, double c, hg_err *e)
{
    int reach[3] = {0, 0, 0};
    for (int a = 0; a < s->dim; a++) {
        double q = ceil(c * s->inv[a]);
        reach[a] = (int)(q < 1.0 ? 1.0 : q);
        if (reach[a] * s->w[a] < c) /* rounding of c / w */
            reach[a]++;
    }
    int ny = 2 * reach[1] + 1, nz = 2 * reach[2] + 1;
    if (s->rcap < ny * nz) {
        lbins_row *r = realloc(s->rows, (size_t)(ny * nz) * sizeof *r);
        if (!r)
            return hg_fail(e, HG_ENOMEM, "bin: out of memory");
        s->rows = r;
        s->rcap = ny * nz;
    }
    s->nrows = 0;
    s->full = 0;
    s->small = 0;
    for (int a = 0; a < s->dim; a++)
        if (s->periodic && s->n[a] < 2 * reach[a] + 1)
            s->small = 1;
    double c2 = c * c;
    for (int dz = -reach[2]; dz <= reach[2]; dz++)
        for (int dy = -reach[1]; dy <= reach[1]; dy++) {
            double gy = (abs(dy) > 1 ? abs(dy) - 1 : 0) * s->w[1];
            double gz = (abs(dz) > 1 ? abs(dz) - 1 : 0) * s->w[2];
            double rest = c2 - gy * gy - gz * gz;
            if (!(rest > 0.0))
                continue;
            int xr = 0; /* largest |dx| with (|dx| - 1) w < sqrt(rest) */
            while (xr < reach[0] && (double)xr * s->w[0] * (double)xr *
                                            s->w[0] < rest)
                xr++;
            s->full += 2 * xr + 1;
            int x0 = -xr;
            if (dz < 0 || (dz == 0 && dy < 0))
                continue;
            if (dz == 0 && dy == 0)
                x0 = 1;
            if (x0 > xr)
                continue;
            s->rows[s->nrows++] = (lbins_row){dy, dz, x0, xr};
        }
    return HG_OK;
}

typedef struct lbins_out {
    hg_pairs *out;
    uint64_t acc, chk;
    int fail;
} lbins_out;

static inline void test_range(const lbins_state *s, const int D, size_t i,
                              size_t b, size_t e, double skin, lbins_out *o)
{
    const size_t S = (size_t)D + 1;
    const double *xi = s->xr + i * S;
    o->chk += e - b;
    for (size_t t = b; t < e; t++) {
        const double *xt = s->xr + t * S;
        double d2 = 0.0;
        for (int a = 0; a < D; a++) {
            double d = xi[a] - xt[a];
            if (s->periodic) {
                if (d > s->half[a])
                    d -= s->len[a];
                else if (d < -s->half[a])
                    d += s->len[a];
            }
            d2 += d * d;
        }
        double cut = xi[D] + xt[D] + skin; /* as hg_particles_touch */
        if (d2 < cut * cut && hg_pairs_push(o->out, s->id[i], s->id[t]))
            o->fail = 1;
    }
}

static inline int64_t wrapi(int64_t c, int64_t n)
{
    c %= n;
    return c < 0 ? c + n : c;
}

/* Bins of cells kx..kx+len-1 (periodic: wrapped) of row (ky, kz): at most
 * two contiguous ranges of bin ids. */
static void scan_row(const lbins_state *s, const int D, size_t i, int64_t kx0,
                     int64_t kx1, int64_t ky, int64_t kz, double skin,
                     lbins_out *o)
{
    const int64_t n0 = s->n[0];
    size_t row = (size_t)(n0 * (ky + s->n[1] * kz));
    int64_t a = kx0, b = kx1;
    if (s->periodic) { /* b - a < n0: at most one wrap */
        a = wrapi(kx0, n0);
        b = a + (kx1 - kx0);
    } else {
        if (a < 0)
            a = 0;
        if (b > n0 - 1)
            b = n0 - 1;
        if (a > b)
            return;
    }
    int64_t be = b < n0 ? b : n0 - 1;
    o->acc += (uint64_t)(be - a + 1);
    test_range(s, D, i, s->cs[row + (size_t)a], s->cs[row + (size_t)be + 1],
               skin, o);
    if (b >= n0) {
        o->acc += (uint64_t)(b - n0 + 1);
        test_range(s, D, i, s->cs[row], s->cs[row + (size_t)(b - n0) + 1],
                   skin, o);
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Small periodic grid: the distinct bins of the full stencil with a larger
 * key than the own bin, each once. keys must hold s->full entries. */
static void scan_small(const lbins_state *s, const int D, size_t i,
                       const int64_t *k, double skin, int64_t *keys,
                       lbins_out *o)
{
    int m = 0;
    int64_t own = k[0] + s->n[0] * (k[1] + s->n[1] * k[2]);
    for (int r = 0; r < s->nrows; r++) {
        /* every row of the half stencil and its mirror image */
        for (int sign = -1; sign <= 1; sign += 2) {
            const lbins_row *w = &s->rows[r];
            int dy = sign * w->dy, dz = sign * w->dz;
            int x0 = w->x0, x1 = w->x1;
            for (int dx = x0; dx <= x1; dx++) {
                int64_t q[3] = {wrapi(k[0] + sign * dx, s->n[0]),
                                wrapi(k[1] + dy, s->n[1]),
                                wrapi(k[2] + dz, s->n[2])};
                int64_t key = q[0] + s->n[0] * (q[1] + s->n[1] * q[2]);
                if (key > own)
                    keys[m++] = key;
            }
        }
    }
    qsort(keys, (size_t)m, sizeof *keys, cmp_i64);
    for (int j = 0; j < m; j++) {
        if (j > 0 && keys[j] == keys[j - 1])
            continue;
        o->acc++;
        test_range(s, D, i, s->cs[keys[j]], s->cs[keys[j] + 1], skin, o);
    }
}

static int lbins_reserve(lbins_state *s, size_t n, size_t cells, hg_err *e)
{
    if (n > s->ncap || !s->xr) {
        size_t cap = n > 16 ? n : 16;
        double *xr = realloc(s->xr, cap * (size_t)(s->dim + 1) * sizeof *xr);
        if (xr)
            s->xr = xr;
        uint32_t *id = realloc(s->id, cap * sizeof *id);
        if (id)
            s->id = id;
        uint32_t *cell = realloc(s->cell, cap * sizeof *cell);
        if (cell)
            s->cell = cell;
        if (!xr || !id || !cell)
            return hg_fail(e, HG_ENOMEM, "bin: out of memory for %zu "
                           "particles", n);
        s->ncap = cap;
    }
    if (cells + 2 > s->ccap) {
        uint32_t *cs = realloc(s->cs, (cells + 2) * sizeof *cs);
        if (!cs)
            return hg_fail(e, HG_ENOMEM, "bin: out of memory for %zu bins",
                           cells);
        s->cs = cs;
        s->ccap = cells + 2;
    }
    return HG_OK;
}

/* The bins for cutoff cut: the extent (the box; open: widened to the
 * centres), bins per axis (periodic: a whole number per edge) and their
 * width; *cells: their number. HG_ELIMIT when there would be too many. */
static int setup_bins(lbins_state *s, const hg_particles *p, double cut,
                      double *cells, hg_err *e)
{
    const int D = p->dim;
    const size_t n = p->n;
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    for (int a = 0; a < D; a++) {
        lo[a] = p->lo[a];
        hi[a] = p->hi[a];
        for (size_t i = 0; !s->periodic && i < n; i++) {
            double x = p->x[i * (size_t)D + (size_t)a];
            lo[a] = x < lo[a] ? x : lo[a];
            hi[a] = x > hi[a] ? x : hi[a];
        }
    }
    *cells = 1.0;
    for (int a = 0; a < 3; a++) {
        s->lo[a] = lo[a];
        s->len[a] = hi[a] - lo[a];
        s->half[a] = 0.5 * s->len[a];
        if (a >= D) {
            s->n[a] = 1;
            s->w[a] = s->inv[a] = 1.0;
            continue;
        }
        double q = s->periodic ? floor(s->len[a] / (0.5 * cut))
                               : floor(s->len[a] / (0.5 * cut)) + 1.0;
        if (q < 1.0)
            q = 1.0;
        if (q > LBINS_MAX_AXIS)
            return hg_fail(e, HG_ELIMIT, "bin: axis %d needs %.3g bins "
                           "(cutoff %g, extent %g)", a, q, cut, s->len[a]);
        s->n[a] = (int64_t)q;
        s->w[a] = s->periodic ? s->len[a] / q : 0.5 * cut;
        s->inv[a] = 1.0 / s->w[a];
        *cells *= q;
    }
    if (*cells > 64.0 * (double)n + 16777216.0 || *cells > 4.0e9)
        return hg_fail(e, HG_ELIMIT, "bin: %.3g bins for %zu particles are "
                       "too many (extent / cutoff too large)", *cells, n);
    return HG_OK;
}

/* Every particle into its bin by counting sort: records and ids in bin
 * order, cs[b] .. cs[b + 1] the records of bin b (nc bins). */
static void place_in_bins(lbins_state *s, const hg_particles *p, size_t nc)
{
    const int D = p->dim;
    const size_t n = p->n;
    uint32_t *cs = s->cs;
    memset(cs, 0, (nc + 2) * sizeof *cs);
    for (size_t i = 0; i < n; i++) {
        const double *x = p->x + i * (size_t)D;
        int64_t k[3] = {0, 0, 0};
        for (int a = 0; a < D; a++) {
            int64_t q = (int64_t)floor((x[a] - s->lo[a]) * s->inv[a]);
            k[a] = q < 0 ? 0 : q >= s->n[a] ? s->n[a] - 1 : q;
        }
        uint32_t b = (uint32_t)(k[0] + s->n[0] * (k[1] + s->n[1] * k[2]));
        s->cell[i] = b;
        cs[b + 2]++;
    }
    for (size_t b = 0; b < nc; b++)
        cs[b + 2] += cs[b + 1];
    const size_t S = (size_t)D + 1;
    for (size_t i = 0; i < n; i++) {
        size_t t = cs[s->cell[i] + 1]++;
        s->id[t] = (uint32_t)i;
        for (int a = 0; a < D; a++)
            s->xr[t * S + (size_t)a] = p->x[i * (size_t)D + (size_t)a];
        s->xr[t * S + (size_t)D] = p->r[i];
    }
}

/* Every particle of the nc bins against the rest of its own bin and the
 * half stencil (small periodic boxes: the distinct bins of the full
 * stencil once). */
static int search_bins(const lbins_state *s, const int D, size_t nc,
                       double skin, lbins_out *o, hg_err *e)
{
    const uint32_t *cs = s->cs;
    int64_t *keys = NULL;
    if (s->small) {
        keys = malloc((size_t)(s->full > 0 ? s->full : 1) * sizeof *keys);
        if (!keys)
            return hg_fail(e, HG_ENOMEM, "bin: out of memory");
    }
    for (size_t b = 0; b < nc; b++) {
        size_t b0 = cs[b], b1 = cs[b + 1];
        if (b0 == b1)
            continue;
        int64_t k[3] = {(int64_t)b % s->n[0],
                        ((int64_t)b / s->n[0]) % s->n[1],
                        (int64_t)b / (s->n[0] * s->n[1])};
        for (size_t i = b0; i < b1; i++) {
            o->acc++;
            test_range(s, D, i, i + 1, b1, skin, o);
            if (s->small) {
                scan_small(s, D, i, k, skin, keys, o);
                continue;
            }
            for (int r = 0; r < s->nrows; r++) {
                const lbins_row *w = &s->rows[r];
                int64_t ky = k[1] + w->dy, kz = k[2] + w->dz;
                if (s->periodic) {
                    ky = wrapi(ky, s->n[1]);
                    kz = wrapi(kz, s->n[2]);
                } else if (ky < 0 || ky >= s->n[1] || kz >= s->n[2]) {
                    continue;
                }
                scan_row(s, D, i, k[0] + w->x0, k[0] + w->x1, ky, kz, skin,
                         o);
            }
        }
    }
    free(keys);
    return HG_OK;
}

static int lbins_detect(void *state, const hg_particles *p, double skin,
                        hg_pairs *out, hg_detector_counters *c, hg_err *e)
{
    lbins_state *s = state;
    const int D = p->dim;
    const size_t n = p->n;
    s->dim = D;
    s->periodic = p->periodic ? 1 : 0;
    double cut = 2.0 * hg_particles_rmax(p) + skin;
    if (!(cut > 0.0))
        cut = 1.0;
    double cells;
    int st = setup_bins(s, p, cut, &cells, e);
    if (st != HG_OK)
        return st;
    const size_t nc = (size_t)cells;
    st = lbins_reserve(s, n, nc, e);
    if (st == HG_OK)
        st = make_stencil(s, cut, e);
    if (st != HG_OK)
        return st;
    place_in_bins(s, p, nc);
    lbins_out o = {out, 0, 0, 0};
    if ((st = search_bins(s, D, nc, skin, &o, e)))
        return st;
    if (o.fail)
        return hg_fail(e, HG_ENOMEM, "bin: out of memory for the pairs");
    c->cell_accesses += o.acc;
    c->pair_checks += o.chk;
    c->list_builds++;
    c->memory_bytes += lbins_bytes(s);
    return HG_OK;
}

const hg_detector_type hg_detector_lammps_bins = {
    .name = "bin",
    .help = "single grid of bins of half the largest cutoff, stencil pruned "
            "to the bins within reach (LAMMPS `neighbor bin`)",
    .periodic = 1,
    .open = 1,
    .incremental = 0,
    .keys = lbins_keys,
    .create = lbins_create,
    .detect = lbins_detect,
    .update = NULL,
    .free_state = lbins_free,
};
