/* liggghts.c - the work of one LIGGGHTS neighbor build of a granular pair
 * style (`neighbor SKIN bin`, `neigh_modify binsize X`), its best bin size,
 * and the model `liggghts-bin` of the registry.
 *
 * Each term follows LIGGGHTS' source (CFDEMproject/LIGGGHTS-PUBLIC 3.8,
 * neighbor.cpp, neigh_stencil.cpp, neigh_gran.cpp; Debian ships 3.8.0):
 *  - Cutoff: one value for every pair here, the largest neighbour cutoff
 *    2 r_max + skin (the granular pair style's cutoff of two types is the
 *    sum of their largest radii; with one type, or the largest type pair,
 *    it is the largest diameter). The distance test itself uses each
 *    pair's r_i + r_j + skin, so the list does not depend on the bin size.
 *  - Bins (setup_bins): nominal size the user's binsize, default half the
 *    cutoff; per axis n = floor(box / binsize) (at least 1) bins of width
 *    box / n. The binned region is the rank's sub-box grown by the ghost
 *    cutoff (= the cutoff with `communicate single`), with round-off
 *    slack, one more bin on each side; bin_atoms clears every bin's head
 *    on every build, then bins owned and ghost atoms. LIGGGHTS stops, and
 *    so does the model, where an axis holds more than 2^31 - 1 bins
 *    ("Domain too large for neighbor bins"), where the nominal bin is
 *    over 100x the bin that fits the box ("Cannot use neighbor bins - box
 *    size << cutoff"), where a rank's bins exceed 2^31 - 1 ("Too many
 *    neighbor bins").
 *  - Stencil (stencil_full_bin_3d, also used for the granular no-newton
 *    list): every bin (i, j, k) with |i| <= ceil(cut / w_x) etc. whose
 *    nearest distance to the own bin is below the cutoff, the own bin
 *    included.
 *  - Pair loop (granular_bin_no_newton, newton off as tangential history
 *    requires): every owned atom walks the linked list of every stencil
 *    bin and skips a fetched atom j <= i before taking its distance;
 *    ghost atoms (indices after the owned ones) are always checked.
 *    The fetched atoms are the count `checks`: the distance checks are a
 *    fixed share of them (about half), so one fitted constant prices both.
 * Expected values for uniformly random centres (Poisson): an atom's
 * stencil region of volume V_s = stencil x bin volume holds rho V_s other
 * atoms, plus itself. Hard spheres: the excluded hole removes 1 - S(0)
 * atoms from that count (the compressibility sum rule; S(0) of Carnahan
 * and Starling 1969 in 3D, of scaled-particle theory for disks in 2D).
 * Structure measured (a snapshot, hg_snapshot.h): the box is the
 * snapshot's (scaled to the atom count; a shrink-wrapped axis spans the
 * atoms), the density a stencil finds is the snapshot's measured number
 * density g at the width V_s^(1/d), and the stored neighbours take g at
 * the finest width.
 *
 * The constants (seconds per unit of each count) are a value the caller
 * resolves once (the liggghts engine's consts_resolve: a stored
 * calibration, else the shipped ones, src/engines/liggghts/); the model reads no file.
 */
#include "hg_liggghts.h"
#include "hg_model.h"
#include "hg_snapshot.h"


#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hg_liggghts_system_check(const hg_liggghts_system *s, hg_err *e)
{
    if (s->dim != 2 && s->dim != 3)
        return hg_fail(e, HG_EINVAL, "dim: %d is not 2 or 3", s->dim);
    if (!(s->nu > 0.0 && s->nu < 1.0))
        return hg_fail(e, HG_EINVAL, "nu: %g is outside (0, 1)", s->nu);
    if (!(s->atoms >= 1.0) || !isfinite(s->atoms))
        return hg_fail(e, HG_EINVAL, "atoms: %g must be >= 1", s->atoms);
    if (!(s->skin > 0.0) || !isfinite(s->skin))
        return hg_fail(e, HG_EINVAL, "skin: %g must be > 0", s->skin);
    if (s->nprocs < 1 || s->nprocs > 4096)
        return hg_fail(e, HG_EINVAL, "nprocs: %d is outside 1..4096",
                       s->nprocs);
    for (int c = 0; c < s->dim; c++)
        if (!(s->box[c] >= 0.0) || !isfinite(s->box[c]))
            return hg_fail(e, HG_EINVAL, "box edge %c: %g must be >= 0",
                           'x' + c, s->box[c]);
    if (s->structure == HG_STRUCTURE_MEASURED &&
        (!s->snapshot || hg_snapshot_dim(s->snapshot) != s->dim))
        return hg_fail(e, HG_EINVAL,
                       "structure: measured needs the pair statistics of a "
                       "%dD particle file",
                       s->dim);
    if (s->structure != HG_STRUCTURE_POISSON &&
        s->structure != HG_STRUCTURE_HARD_SPHERES &&
        s->structure != HG_STRUCTURE_MEASURED)
        return hg_fail(e, HG_EINVAL,
                       "structure: %d is not poisson, hard-spheres or "
                       "measured",
                       (int)s->structure);
    return HG_OK;
}

double hg_liggghts_cutoff(const hg_psd *psd, double skin)
{
    return 2.0 * hg_psd_rmax(psd) + skin;
}

double hg_liggghts_default_binsize(const hg_psd *psd, double skin)
{
    return 0.5 * hg_liggghts_cutoff(psd, skin);
}

/* The box LIGGGHTS bins: edges len, periodic axes per, atom density rho
 * (over the box; with a snapshot only used for the ghosts). */
typedef struct lig_box {
    double len[3];
    int per[3];
    double rho;
    const hg_snapshot *snap;
} lig_box;

static void model_box(const hg_psd *psd, const hg_liggghts_system *sys,
                      lig_box *b)
{
    int d = sys->dim;
    b->snap = sys->structure == HG_STRUCTURE_MEASURED ? sys->snapshot : NULL;
    double Vp = hg_psd_mean_volume(psd, d);
    double A = pow(sys->atoms * Vp / sys->nu, 1.0 / d), vol = 1.0;
    for (int c = 0; c < 3; c++) {
        b->len[c] = c < d ? A : 1.0;
        b->per[c] = 1;
    }
    if (b->snap) {
        const hg_snapshot_info *si = hg_snapshot_get_info(b->snap);
        double scale = pow(sys->atoms / (double)si->n, 1.0 / d);
        for (int c = 0; c < d; c++) {
            char k = si->boundary[2 * c];
            b->per[c] = k == 'p';
            b->len[c] = (k == 's' || k == 'm' ? si->occ_hi[c] - si->occ_lo[c]
                                              : si->box_hi[c] - si->box_lo[c]) *
                        scale;
        }
    } else if (sys->box[0] > 0.0) {
        for (int c = 0; c < d; c++) {
            b->len[c] = sys->box[c] > 0.0 ? sys->box[c] : A;
            b->per[c] = !sys->boundary[c] || sys->boundary[c] == 'p';
        }
    }
    for (int c = 0; c < d; c++)
        vol *= b->len[c];
    b->rho = sys->atoms / vol;
}

/* The ranks' grid: P = gx gy gz with the least sub-box surface. */
static void procs_grid(int P, int d, const double *len, int g[3])
{
    double best = INFINITY;
    g[0] = P;
    g[1] = g[2] = 1;
    for (int x = 1; x <= P; x++)
        for (int y = 1; x * y <= P; y++) {
            if (P % (x * y))
                continue;
            int z = P / (x * y);
            if (d == 2 && z != 1)
                continue;
            double a = len[0] / x, b = len[1] / y, c = len[2] / z;
            double area = d == 2 ? a + b : a * b + b * c + a * c;
            if (area < best - 1e-12 * area) {
                best = area;
                g[0] = x;
                g[1] = y;
                g[2] = z;
            }
        }
}

/* Bins one rank clears along one axis (setup_bins): the sub-box [0, sub]
 * grown by cutghost with slack 1e-6 of the box, one more bin each side
 * (LIGGGHTS' casts to int as truncations in double: no overflow before
 * the count is checked). */
static double bins_axis(double len, double sub, double cutghost, double w)
{
    const double small = 1.0e-6;
    double coord = -cutghost - small * len;
    double lo = trunc(coord / w);
    if (coord < 0.0)
        lo -= 1;
    double hi = trunc((sub + cutghost + small * len) / w);
    return (hi + 1) - (lo - 1) + 1;
}

/* Squared nearest distance of the stencil bin (i, j, k) for bin widths w
 * (neigh_stencil.cpp, bin_distance). */
static double bin_r2(int d, int i, int j, int k, const double *w)
{
    int idx[3] = {i, j, k};
    double r2 = 0.0;
    for (int c = 0; c < d; c++) {
        double x = idx[c] > 0   ? (idx[c] - 1) * w[c]
                   : idx[c] < 0 ? (idx[c] + 1) * w[c]
                                : 0.0;
        r2 += x * x;
    }
    return r2;
}

/* Bins of the stencil's row (j, k) nearer than the cutoff, |i| <= s: an
 * interval around i = 0 (the distances grow with |i|), its end estimated
 * from the square root and settled with bin_r2 itself, so that the count
 * is the one of a loop over i. */
static int row_bins(int d, int s, int j, int k, const double *w,
                    double cutsq)
{
    double r0 = bin_r2(d, 0, j, k, w);
    if (!(r0 < cutsq))
        return 0;
    if (s < 1)
        return 1;
    double est = floor(sqrt(cutsq - r0) / w[0]) + 1.0;
    int m = est >= (double)s ? s : est > 1.0 ? (int)est : 1;
    while (m < s && bin_r2(d, m + 1, j, k, w) < cutsq)
        m++;
    while (m > 1 && !(bin_r2(d, m, j, k, w) < cutsq))
        m--;
    return 2 * m + 1;
}

/* Bins of the full stencil (neigh_stencil.cpp) for bin widths w, counted
 * row by row; *rows the stencil's lines of bins along x (those adjacent
 * in memory). The stencil's reach each way (setup_bins: sx, sy, sz) and
 * the bins allocated for it, smax = (2 sx + 1)(2 sy + 1)(2 sz + 1), an
 * int: refused above 2^31 - 1 (a guard: the rank's bins, checked first,
 * outnumber them). */
static int stencil_full(int d, double cut, const double *w, int *count,
                        int *rows, hg_err *e)
{
    int s[3] = {0, 0, 0};
    double smax = 1.0;
    for (int c = 0; c < d; c++) {
        double sc = trunc(cut / w[c]);
        if (sc * w[c] < cut)
            sc++;
        smax *= 2.0 * sc + 1.0;
        if (!(smax <= (double)INT_MAX))
            return hg_fail(e, HG_ELIMIT,
                           "cutoff %g: its stencil over bins of %g spans "
                           "more than 2^31 - 1 bins, more than LIGGGHTS can "
                           "allocate",
                           cut, w[0]);
        s[c] = (int)sc;
    }
    double cutsq = cut * cut;
    int n = 0;
    *rows = 0;
    for (int k = -s[2]; k <= s[2]; k++)
        for (int j = -s[1]; j <= s[1]; j++) {
            int r = row_bins(d, s[0], j, k, w, cutsq);
            n += r;
            *rows += r > 0;
        }
    *count = n;
    return HG_OK;
}

/* S(0) of hard spheres (Carnahan-Starling) or disks (scaled particle
 * theory) at packing fraction eta: 1 - S(0) atoms are missing around an
 * atom compared with uniformly random centres. */
static double structure_factor_zero(int d, double eta)
{
    if (d == 3) {
        double den = 1.0 + 4.0 * eta + 4.0 * eta * eta -
                     4.0 * eta * eta * eta + pow(eta, 4);
        return pow(1.0 - eta, 4) / den;
    }
    return pow(1.0 - eta, 3) / (1.0 + eta);
}

/* E[(r_a + r_b + skin)^d] over independent radii. */
static double mean_reach(const hg_psd *psd, int d, double skin)
{
    static const double fact[4] = {1, 1, 2, 6};
    double m[4] = {0};
    for (int k = 0; k <= d; k++)
        m[k] = hg_psd_mean_rk(psd, k);
    double sum = 0.0;
    for (int a = 0; a <= d; a++)
        for (int b = 0; a + b <= d; b++) {
            int c = d - a - b;
            sum += fact[d] / (fact[a] * fact[b] * fact[c]) * m[a] * m[b] *
                   pow(skin, c);
        }
    return sum;
}

/* The work with the box already known. */
static int work_box(const hg_psd *psd, const hg_liggghts_system *sys,
                    const lig_box *box, double binsize, hg_liggghts_work *w,
                    hg_err *e)
{
    memset(w, 0, sizeof *w);
    int d = sys->dim;
    double cut = fmax(hg_liggghts_cutoff(psd, sys->skin),
                      sys->cutoff_diameter + sys->skin);
    if (!(binsize > 0.0))
        binsize = 0.5 * cut;
    if (!isfinite(binsize) || binsize < 1e-3 * cut)
        return hg_fail(e, HG_EINVAL,
                       "binsize: %g is below 1e-3 of the cutoff %g", binsize,
                       cut);
    w->binsize = binsize;
    w->cutoff = cut;
    int g[3];
    procs_grid(sys->nprocs, d, box->len, g);
    double vsub = 1.0, bins = 1.0, vbin = 1.0, grow = 1.0;
    double nloc = sys->atoms / sys->nprocs;
    for (int c = 0; c < 3; c++) {
        if (c >= d) {
            w->nbin[c] = 1;
            w->width[c] = box->len[c];
            continue;
        }
        double n = box->len[c] / binsize;
        if (!(n <= (double)INT_MAX))
            return hg_fail(e, HG_ELIMIT,
                           "binsize: %g makes %.6g bins along %c (LIGGGHTS: "
                           "\"Domain too large for neighbor bins\")",
                           binsize, floor(n), 'x' + c);
        n = floor(n);
        w->nbin[c] = n < 1.0 ? 1 : (int)n;
        w->width[c] = box->len[c] / w->nbin[c];
        if (!(binsize / w->width[c] <= 100.0))
            return hg_fail(e, HG_ELIMIT,
                           "box edge %c: %g is below 1/100 of the bins of %g "
                           "(LIGGGHTS: \"Cannot use neighbor bins - box size "
                           "<< cutoff\")",
                           'x' + c, box->len[c], binsize);
        double sub = box->len[c] / g[c];
        vsub *= sub;
        vbin *= w->width[c];
        bins *= bins_axis(box->len[c], sub, cut, w->width[c]);
        if (box->per[c] || g[c] > 1)
            grow *= 1.0 + 2.0 * cut / sub;
    }
    if (bins > (double)INT_MAX)
        return hg_fail(e, HG_ELIMIT,
                       "binsize: %g makes %.3g bins per rank (LIGGGHTS: "
                       "\"Too many neighbor bins\")",
                       binsize, bins);
    (void)vsub;
    int st = stencil_full(d, cut, w->width, &w->stencil, &w->rows, e);
    if (st)
        return st;
    double vs = w->stencil * vbin;
    double found; /* other atoms in an atom's stencil region */
    if (box->snap)
        found = hg_snapshot_factor_all(box->snap, 1.0, 1.0,
                                       pow(vs, 1.0 / d)) *
                vs;
    else if (sys->structure == HG_STRUCTURE_HARD_SPHERES)
        found = fmax(0.0, box->rho * vs -
                              (1.0 - structure_factor_zero(d, sys->nu)));
    else
        found = box->rho * vs;
    w->ghosts = nloc * (grow - 1.0);
    w->checks = nloc * (found + 1.0);
    w->visits = nloc * w->stencil;
    w->lines = nloc * w->rows;
    w->bins = bins;
    w->binned = nloc + w->ghosts;
    double rho_near =
        box->snap ? hg_snapshot_factor_all(box->snap, 1.0, 1.0, 0.0)
                  : box->rho;
    w->neighbours = 0.5 * nloc * rho_near * hg_unit_ball_volume(d) *
                    mean_reach(psd, d, sys->skin);
    return HG_OK;
}

int hg_liggghts_work_eval(const hg_psd *psd, const hg_liggghts_system *sys,
                          double binsize, hg_liggghts_work *w, hg_err *e)
{
    memset(w, 0, sizeof *w);
    int st = hg_liggghts_system_check(sys, e);
    if (st)
        return st;
    lig_box box;
    model_box(psd, sys, &box);
    return work_box(psd, sys, &box, binsize, w, e);
}

double hg_liggghts_predict(const hg_consts *c,
                           const hg_liggghts_work *w)
{
    const double x[HG_LIGGGHTS_NTERMS] = {w->checks, w->visits, w->lines,
                                          w->bins,   w->binned,
                                          w->neighbours};
    double t = 0.0;
    for (int i = 0; i < HG_LIGGGHTS_NTERMS; i++)
        t += c->c[i] * x[i];
    return t;
}

int hg_liggghts_optimise(const hg_psd *psd, const hg_liggghts_system *sys,
                         const hg_consts *c, double tol,
                         hg_liggghts_optimum *out, hg_err *e)
{
    memset(out, 0, sizeof *out);
    int st = hg_liggghts_system_check(sys, e);
    if (st)
        return st;
    if (!(tol >= 0.0) || !isfinite(tol))
        return hg_fail(e, HG_EINVAL, "tolerance: %g must be >= 0", tol);
    hg_consts shipped;
    if (!c) {
        hg_consts_shipped(&hg_liggghts_consts_kind, &shipped);
        c = &shipped;
    }
    lig_box box;
    model_box(psd, sys, &box);
    int d = sys->dim;
    double cut = fmax(hg_liggghts_cutoff(psd, sys->skin),
                      sys->cutoff_diameter + sys->skin);
    double lo = HG_LIGGGHTS_BIN_MIN * cut, hi = HG_LIGGGHTS_BIN_MAX * cut;
    /* bin sizes where some axis changes its bin count: len / k */
    size_t cap = 16, n = 0;
    double *bp = malloc(sizeof *bp * cap);
    if (!bp)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    bp[n++] = lo;
    bp[n++] = hi;
    for (int a = 0; a < d; a++) {
        double kmin = floor(box.len[a] / hi), kmax = ceil(box.len[a] / lo);
        if (kmax - kmin > 1e5) { /* a huge box: a fine geometric grid */
            kmin = 1.0;
            kmax = 0.0;
        }
        for (double k = fmax(kmin, 1.0); k <= kmax; k++) {
            double b = box.len[a] / k;
            if (!(b > lo && b < hi))
                continue;
            if (n == cap) {
                double *t = realloc(bp, sizeof *bp * (cap *= 2));
                if (!t) {
                    free(bp);
                    return hg_fail(e, HG_ENOMEM, "out of memory");
                }
                bp = t;
            }
            bp[n++] = b;
        }
    }
    if (n < 200) { /* few breakpoints: add a geometric grid as well, so a
                      long plateau is sampled at more than one point */
        double *t = realloc(bp, sizeof *bp * (n + 64));
        if (!t) {
            free(bp);
            return hg_fail(e, HG_ENOMEM, "out of memory");
        }
        bp = t;
        for (int i = 1; i < 64; i++)
            bp[n++] = lo * pow(hi / lo, i / 64.0);
    }
    qsort(bp, n, sizeof *bp, hg_cmp_double);
    out->cutoff = cut;
    out->seconds = INFINITY;
    for (size_t i = 0; i + 1 < n && st == HG_OK; i++) {
        if (!(bp[i + 1] > bp[i] * (1.0 + 1e-12)))
            continue;
        double b = sqrt(bp[i] * bp[i + 1]);
        hg_liggghts_work w;
        if ((st = work_box(psd, sys, &box, b, &w, e)))
            break;
        double t = hg_liggghts_predict(c, &w);
        out->grids++;
        if (t < out->seconds) {
            out->seconds = t;
            out->binsize = b;
        }
    }
    free(bp);
    if (st)
        return st;
    hg_liggghts_work w;
    out->default_binsize = 0.5 * cut;
    if ((st = work_box(psd, sys, &box, out->default_binsize, &w, e)))
        return st;
    out->default_seconds = hg_liggghts_predict(c, &w);
    if (!isfinite(out->seconds) ||
        out->default_seconds <= out->seconds * (1.0 + tol)) {
        out->binsize = out->default_binsize;
        out->seconds = out->default_seconds;
        out->is_default = 1;
    }
    return HG_OK;
}

/* ---- the model of the registry ---- */

static const hg_model_param params[] = {
    {"binsize", 0.0, 0.0, DBL_MAX, 0,
     "neigh_modify binsize, a length (0: LIGGGHTS' default, half the "
     "cutoff 2 r_max + skin)"},
    {"atoms", 50000.0, 1.0, 1e12, 0, "atoms in the simulation"},
    {"skin", 0.1, 0.0, 100.0, 1,
     "neighbor skin in units of the smallest diameter"},
    {"ranks", 1.0, 1.0, 4096.0, 0, "MPI ranks"},
};

static int evaluate(const hg_model_input *in, hg_cost *out, hg_work *wk,
                    hg_err *e)
{
    hg_consts shipped;
    const hg_consts *c = in->consts;
    if (!c) {
        hg_consts_shipped(&hg_liggghts_consts_kind, &shipped);
        c = &shipped;
    }
    if (!(c->c[0] > 0.0))
        return hg_fail(e, HG_EINVAL, "LIGGGHTS constants: the cost of a "
                                     "fetched atom is not > 0");
    hg_liggghts_system sys = {in->sys->dim,
                              in->sys->nu,
                              in->params[1],
                              in->params[2] * 2.0 * hg_psd_rmin(in->psd),
                              (int)in->params[3],
                              in->sys->structure,
                              in->sys->snapshot};
    hg_liggghts_work w;
    int st = hg_liggghts_work_eval(in->psd, &sys, in->params[0], &w, e);
    if (st)
        return st;
    double nloc = sys.atoms / sys.nprocs;
    double unit = c->c[0] * nloc; /* one fetched atom per atom */
    double T = hg_liggghts_predict(c, &w) / unit, T_cd = w.checks / nloc;
    if (wk) {
        wk->T = T;
        wk->T_cd = T_cd;
        wk->T_ca = T - T_cd;
    }
    if (!out)
        return HG_OK;
    if (!(out->per_level = calloc(1, sizeof *out->per_level)))
        return hg_fail(e, HG_ENOMEM, "out of memory");
    hg_level_cost *lv = out->per_level;
    lv->level = 1;
    lv->cell_size = w.width[0];
    lv->r_lo = 0.0;
    lv->r_hi = hg_psd_rmax(in->psd);
    lv->fraction = 1.0;
    lv->particles_per_cell = (w.checks / nloc - 1.0) / w.stencil;
    lv->T_cd = T_cd;
    lv->T_ca = T - T_cd;
    lv->T = T;
    out->levels = out->nonempty_levels = 1;
    out->K = 1.0;
    out->T = T;
    out->T_cd = T_cd;
    out->T_ca = T - T_cd;
    return HG_OK;
}

/* The bin size is a parameter, not a cell size: the gradient in the (one,
 * fixed) cell size is zero. */
static int gradient(const hg_model_input *in, double *T, double *dT_ds,
                    hg_err *e)
{
    hg_work w;
    int st = evaluate(in, NULL, &w, e);
    if (st)
        return st;
    *T = w.T;
    for (int h = 0; dT_ds && h < in->L; h++)
        dT_ds[h] = 0.0;
    return HG_OK;
}

const hg_model hg_model_liggghts_bin = {
    "liggghts-bin",
    "LIGGGHTS neighbor bin with neigh_modify binsize (parameter binsize): "
    "Neigh time per atom in fetched atoms",
    HG_GRID_NONE,
    1,
    params,
    (int)(sizeof params / sizeof params[0]),
    evaluate,
    gradient};
