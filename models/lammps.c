/* lammps.c - the work of one LAMMPS neighbor build (`neighbor SKIN bin` and
 * `neighbor SKIN multi` with collection/interval cutoffs), as expected
 * values over a periodic box of uniformly placed atoms with the radii of a
 * size distribution.
 *
 * Each term follows LAMMPS' source (lammps/lammps, checked against the
 * 29 Sep 2021 release Debian ships, and its neighbour counts reproduced by
 * an exact counter on packings):
 *  - Collections: an atom belongs to the first collection whose cutoff is
 *    at least its diameter (neighbor.cpp, build_collection); LAMMPS stops
 *    with "Atom cutoff exceeds interval cutoffs for multi" if none is.
 *  - Pair cutoff of collections i, j for a size pair style: (c_i + c_j)/2 +
 *    skin (neighbor.cpp, init of cutcollectionsq with finite-size atoms).
 *    Style bin: one cutoff, the largest diameter + skin.
 *  - Bins (nbin_multi.cpp, setup_bins; nbin_standard.cpp for bin): each
 *    collection has its own bins of nominal size half its self cutoff,
 *    stretched so a whole number spans the box; the binned region is the
 *    rank's sub-box grown by the ghost cutoff comm->cutghost (the largest
 *    cutoff of all), one more bin on each side, plus one. bin_atoms clears
 *    every bin's head on every build, then bins owned and ghost atoms.
 *    LAMMPS stops, and so does the model, where a box edge holds more
 *    than 2^31 - 1 nominal bins ("Domain too large for neighbor bins": an
 *    atom blown far along a shrink-wrapped axis), where the nominal bin
 *    is over 100x the bin that fits the edge ("Cannot use neighbor bins -
 *    box size << cutoff") and where a rank's bins exceed 2^31 - 1 ("Too
 *    many neighbor bins").
 *  - Stencils (nstencil_half_multi_3d.cpp, nstencil_full/half_*): a pair
 *    of equal collections uses a half stencil in its own bins, a smaller
 *    collection a full stencil in the larger one's bins, a larger one none
 *    (searches go from small to large atoms only). A stencil spans
 *    sx = ceil(cut / binsize) bins each way and keeps a bin only if its
 *    nearest distance (nstencil.cpp, bin_distance) is below the cutoff.
 *  - Pair loop (npair_half_size_multi_newton.cpp, npair_half_size_bin_
 *    newton.cpp): every owned atom loops over all collections, visits the
 *    stencil's bins and checks the distance to every atom in them; in its
 *    own bin only to the atoms after it (half).
 *  - Ghosts (comm_brick.cpp, setup with mode multi): collection i's atoms
 *    are sent to a distance of its largest pair cutoff, (c_i + c_n)/2 +
 *    skin; style bin sends all atoms to the largest cutoff.
 *  - Procs grid (procmap.cpp, onelevel_grid): P ranks split the box into
 *    px x py x pz sub-boxes minimising their surface.
 * Time = sum of the counts times fitted constants (hg_lammps_fit).
 *
 * Structure hard-spheres: the distance checks count the atoms of a
 * collection in the stencil's bins, so they take the pair statistics the
 * HGrid model uses (src/model/hard_spheres.c, models/README.md). Per atom
 * of collection i, with Q_{i,k} its partial moments, n = N/V,
 * c_v = nu V_d / V_p and G the crowding factor by the atoms larger than
 * the collection searched (R > c_j / 2), averaged over the stencil:
 *   own:    G_ii [rho_i V_bin (h + 1/2) - (1/2) c_v H(i,i) / P_i]
 *   larger: G_ij [rho_j V_bin f - n sum_ab kb_ab Q_{i,a} Q_{j,b} / P_i]
 * H the excluded-centres hole (KOL-style sum of partial moments with the
 * sum-rule kappa), kb the Kirkwood-Buff kernel of the fluid up to
 * collection j: a small atom's stencil in a larger collection's bins
 * spans the pair cutoff and holds the first shell, as a Bottom-Up search
 * does. The other terms (bins, visits, ghosts) are geometric.
 *
 * Structure measured (a snapshot of the user's simulation,
 * hg_snapshot.h): the box is the snapshot's (its edges scaled by
 * (atoms / N)^(1/d), its boundary per axis; a shrink-wrapped axis, s or m,
 * spans the atoms only), binned whole on every build as LAMMPS does; ghosts
 * come only across periodic faces; the distance checks of collection i in
 * collection j's stencil are g F_ij V_stencil x_j with g F_ij the measured
 * number density the class mix of i sees of the class mix of j at the
 * width of the stencil's region (hg_snapshot_factor at nu = V_p = 1);
 * the stored neighbours take the density at the finest width.
 */
#include "hg_lammps.h"
#include "hg_ranks.h"
#include "hg_snapshot.h"

#include "model_internal.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LAMMPS' limits of its bins and stencils (nbin_standard.cpp,
 * nbin_multi.cpp: MAXSMALLINT, CUT2BIN_RATIO) */
#define LMP_MAXSMALLINT ((double)INT_MAX)
#define LMP_CUT2BIN_RATIO 100.0

int hg_lammps_system_check(const hg_lammps_system *s, hg_err *e)
{
    if (s->structure == HG_STRUCTURE_MEASURED) {
        if (!s->snapshot || hg_snapshot_dim(s->snapshot) != s->dim)
            return hg_fail(e, HG_EINVAL,
                           "structure: measured needs the pair statistics "
                           "of a %dD particle file",
                           s->dim);
    }
    if (s->dim != 2 && s->dim != 3)
        return hg_fail(e, HG_EINVAL, "dim: %d is not 2 or 3", s->dim);
    if (!(s->nu > 0.0 && s->nu < 1.0))
        return hg_fail(e, HG_EINVAL, "nu: %g is outside (0, 1)", s->nu);
    if (!(s->atoms >= 1.0) || !isfinite(s->atoms))
        return hg_fail(e, HG_EINVAL, "atoms: %g must be >= 1", s->atoms);
    if (!(s->skin > 0.0) || !isfinite(s->skin))
        return hg_fail(e, HG_EINVAL, "skin: %g must be > 0", s->skin);
    if (!(s->cutoff_diameter >= 0.0) || !isfinite(s->cutoff_diameter))
        return hg_fail(e, HG_EINVAL, "cutoff diameter: %g must be >= 0",
                       s->cutoff_diameter);
    if (s->nprocs < 1 || s->nprocs > 4096)
        return hg_fail(e, HG_EINVAL, "nprocs: %d is outside 1..4096",
                       s->nprocs);
    if (s->structure != HG_STRUCTURE_POISSON &&
        s->structure != HG_STRUCTURE_HARD_SPHERES &&
        s->structure != HG_STRUCTURE_MEASURED)
        return hg_fail(e, HG_EINVAL, "structure: %d is not poisson, "
                                     "hard-spheres or measured",
                       (int)s->structure);
    return HG_OK;
}

int hg_lammps_setting_check(const hg_lammps_setting *s, double dmax,
                            hg_err *e)
{
    if (s->ncoll < 0 || s->ncoll > HG_LAMMPS_MAX_COLLECTIONS)
        return hg_fail(e, HG_EINVAL, "collections: %d is outside 0..%d",
                       s->ncoll, HG_LAMMPS_MAX_COLLECTIONS);
    for (int i = 0; i < s->ncoll; i++) {
        if (!(s->cut[i] > 0.0) || !isfinite(s->cut[i]))
            return hg_fail(e, HG_EINVAL,
                           "collection cutoff %d: %g must be finite and > 0",
                           i + 1, s->cut[i]);
        if (i > 0 && !(s->cut[i] > s->cut[i - 1]))
            return hg_fail(e, HG_EINVAL,
                           "collection cutoffs must increase strictly: "
                           "%.17g after %.17g",
                           s->cut[i], s->cut[i - 1]);
    }
    if (!(s->binsize >= 0.0) || !isfinite(s->binsize))
        return hg_fail(e, HG_EINVAL, "binsize: %g must be finite and >= 0",
                       s->binsize);
    if (s->ncoll > 0 && s->binsize > 0.0)
        return hg_fail(e, HG_EINVAL, "binsize: %g is for bin; multi bins "
                       "each collection by its own cutoff", s->binsize);
    if (s->ncoll > 0 && !(s->cut[s->ncoll - 1] >= dmax))
        return hg_fail(e, HG_EINVAL,
                       "last collection cutoff %.17g is below the largest "
                       "diameter %.17g (LAMMPS: \"Atom cutoff exceeds "
                       "interval cutoffs for multi\")",
                       s->cut[s->ncoll - 1], dmax);
    return HG_OK;
}

/* LAMMPS' procs grid: px py pz = P minimising the surface of a sub-box
 * of the box of edges len (hg_ranks_grid: procmap.cpp, its order of
 * trial included). */
static void procs_grid(int P, int dim, const double *len, int g[3])
{
    static const int free_grid[3] = {0, 0, 0};
    g[0] = P;
    g[1] = g[2] = 1;
    hg_ranks_grid(P, dim, len, free_grid, g, NULL);
}

/* Squared nearest distance of the stencil bin (i, j, k) (nstencil.cpp,
 * bin_distance). */
static double bin_distance(int i, int j, int k, double b)
{
    int idx[3] = {i, j, k};
    double s = 0.0;
    for (int c = 0; c < 3; c++) {
        double d = idx[c] > 0 ? (idx[c] - 1) * b
                   : idx[c] < 0 ? (idx[c] + 1) * b : 0.0;
        s += d * d;
    }
    return s;
}

/* How many of the bins (1, j, k) .. (s, j, k) are nearer than the cutoff.
 * Their distances (bin_distance) grow with i and (-i, j, k) is as near as
 * (i, j, k): the row's bins within the cutoff are one interval, its end
 * estimated from the square root and settled with bin_distance itself, so
 * that the count is the one of a loop over i. */
static int row_reach(int s, int j, int k, double b, double cutsq)
{
    if (s < 1 || !(bin_distance(1, j, k, b) < cutsq))
        return 0;
    double est = floor(sqrt(cutsq - bin_distance(0, j, k, b)) / b) + 1.0;
    int m = est >= (double)s ? s : est > 1.0 ? (int)est : 1;
    while (m < s && bin_distance(m + 1, j, k, b) < cutsq)
        m++;
    while (m > 1 && !(bin_distance(m, j, k, b) < cutsq))
        m--;
    return m;
}

/* The stencil's reach s in bins each way for cutoff cut over bins of size
 * b (nstencil.cpp, create_setup), and the bins LAMMPS allocates for it,
 * (2 s + 1)^dim: refused above 2^31 - 1, an int's count. (A rank's bins,
 * checked first, outnumber them along every axis: a guard that the int
 * below never overflows.) */
static int stencil_span(int dim, double cut, double b, int *span, hg_err *e)
{
    double s = trunc(cut / b);
    if (s * b < cut)
        s++;
    double smax = pow(2.0 * s + 1.0, dim);
    if (!(smax <= LMP_MAXSMALLINT))
        return hg_fail(e, HG_ELIMIT,
                       "cutoff %g: its stencil over bins of %g spans %.3g "
                       "bins, more than LAMMPS can allocate (2^31 - 1)",
                       cut, b, smax);
    *span = (int)s;
    return HG_OK;
}

/* Bins in a stencil of cutoff cut over bins of size b reaching s bins
 * each way (stencil_span): half (same collection, own bin excluded) or
 * full (own bin included); counted row by row. */
static int stencil_bins(int dim, int s, double cut, double b, int half)
{
    int sz = dim == 3 ? s : 0, n = 0;
    double cutsq = cut * cut;
    for (int k = -sz; k <= sz; k++)
        for (int j = -s; j <= s; j++) {
            if (half && (k < 0 || (k == 0 && j < 0)))
                continue;
            int m = row_reach(s, j, k, b, cutsq);
            if (half && k == 0 && j == 0)
                n += m; /* i > 0 only */
            else if (bin_distance(0, j, k, b) < cutsq)
                n += 2 * m + 1;
        }
    return n;
}

/* Bins one rank allocates for a collection along one axis
 * (nbin_multi.cpp, setup_bins): the sub-box [0, sub] grown by cutghost,
 * with round-off slack, one extra bin on each side (LAMMPS' casts to int
 * as truncations in double: no overflow before the count is checked). */
static double bins_axis(double A, double sub, double cutghost, double b)
{
    const double small = 1.0e-6;
    double coord = -cutghost - small * A;
    double lo = trunc(coord / b);
    if (coord < 0.0)
        lo -= 1;
    coord = sub + cutghost + small * A;
    double hi = trunc(coord / b);
    return (hi + 1) - (lo - 1) + 1;
}

/* E[(r_a + r_b + skin)^d] over independent radii (the half list's
 * neighbour count per atom is rho V_d times this over 2). */
static double mean_reach(const hg_psd *psd, int d, double skin)
{
    double m[4];
    for (int k = 0; k <= d; k++)
        m[k] = hg_psd_mean_rk(psd, k);
    double sum = 0.0;
    /* multinomial expansion over powers a of r_a, b of r_b, the rest of
     * skin */
    static const double fact[4] = {1, 1, 2, 6};
    for (int a = 0; a <= d; a++)
        for (int b = 0; a + b <= d; b++) {
            int c = d - a - b;
            sum += fact[d] / (fact[a] * fact[b] * fact[c]) * m[a] * m[b] *
                   pow(skin, c);
        }
    return sum;
}

/* The hard-sphere terms of the distance checks (see the opening comment):
 * per collection its partial moments, mean radius and the matrix of the
 * atoms larger than it. */
typedef struct lmp_hs {
    double q[HG_LAMMPS_MAX_COLLECTIONS][4], rbar[HG_LAMMPS_MAX_COLLECTIONS];
    hg_hs_matrix mx[HG_LAMMPS_MAX_COLLECTIONS];
    hg_hs_consts c;
} lmp_hs;

static void lmp_hs_init(const hg_psd *psd, int d, double nu, int nc,
                        const double *cut, lmp_hs *hs)
{
    double Vp = hg_psd_mean_volume(psd, d), rmax = hg_psd_rmax(psd);
    hg_hs_consts_init(d, nu, Vp, &hs->c);
    for (int i = 0; i < nc; i++) {
        double lo = i == 0 ? 0.0 : 0.5 * cut[i - 1];
        double hi = i == nc - 1 ? rmax : 0.5 * cut[i];
        for (int k = 0; k <= d; k++)
            hs->q[i][k] = hg_psd_moment(psd, k, lo, hi);
        hs->rbar[i] = hs->q[i][0] > 0.0 ? hs->q[i][1] / hs->q[i][0] : 0.0;
        hg_hs_matrix_build(psd, d, nu, Vp, cut[i], &hs->mx[i]);
    }
}

/* Checks per atom of collection i against collection j >= i, from the
 * Poisson count `pois` over the stencil region of volume vol. */
static double lmp_hs_checks(const lmp_hs *hs, int d, int i, int j,
                            double pois, double vol)
{
    const double *qi = hs->q[i], *qj = hs->q[j];
    double hole = 0.0, r_in;
    if (i == j) {
        hole = 0.5 * hs->c.cv * hg_hs_hole(d, &hs->c, qi, qi) / qi[0];
        r_in = (1.0 + hs->c.kap) * hs->rbar[i];
    } else {
        for (int a = 0; a <= d; a++)
            for (int b = 0; b <= d; b++)
                hole += hs->mx[j].kb[a][b] * qi[a] * qj[b];
        hole *= hs->c.n / qi[0];
        r_in = hs->rbar[j] + hs->c.kap * hs->rbar[i];
    }
    return hg_hs_crowding(&hs->mx[j], 0.0, r_in, vol) * (pois - hole);
}

/* The measured pair statistics per collection: each collection's share
 * of every radius class of the snapshot. */
typedef struct lmp_meas {
    const hg_snapshot *snap;
    int nc;
    double w[HG_LAMMPS_MAX_COLLECTIONS][HG_SNAPSHOT_MAX_CLASSES];
} lmp_meas;

static void lmp_meas_init(const hg_psd *psd, const hg_snapshot *snap,
                          int n, const double *cut, lmp_meas *m)
{
    memset(m, 0, sizeof *m);
    m->snap = snap;
    m->nc = hg_snapshot_classes(snap);
    double rmax = hg_psd_rmax(psd);
    for (int i = 0; i < n; i++)
        hg_snapshot_class_weights(snap, psd, i == 0 ? 0.0 : 0.5 * cut[i - 1],
                                  i == n - 1 ? rmax : 0.5 * cut[i], m->w[i],
                                  NULL);
}

/* Number density of collection j's class mix seen by collection i's in a
 * window of width a (all classes' density: times x_j for collection j). */
static double lmp_meas_density(const lmp_meas *m, double a, int i, int j)
{
    return hg_snapshot_factor_mix(m->snap, 1.0, 1.0, a, m->w[i], m->w[j]);
}

/* The geometry of one build: the collections' cutoffs (style bin: one, the
 * largest diameter), the box, the ranks' sub-boxes and the density. */
typedef struct lmp_geom {
    int d, n, bin_style;
    double cut[HG_LAMMPS_MAX_COLLECTIONS];
    double binsize;  /* bin: neigh_modify binsize (0: half the cutoff) */
    double len[3];   /* box edges */
    int per[3];      /* periodic axes */
    int g[3];        /* procs grid */
    double sub[3], vsub; /* a rank's sub-box and its volume */
    double rho, nloc, skin;
    double cutghost; /* comm->cutghost */
    const hg_snapshot *snap; /* structure measured, else NULL */
} lmp_geom;

/* The box: a cube of the atoms at nu, or the snapshot's (see the opening
 * comment); sets len, per and rho. */
static void lmp_geom_box(const hg_psd *psd, const hg_lammps_system *sys,
                         lmp_geom *G)
{
    int d = G->d;
    double Vp = hg_psd_mean_volume(psd, d);
    double A = pow(sys->atoms * Vp / sys->nu, 1.0 / d);
    G->rho = sys->atoms / pow(A, d);
    G->len[0] = G->len[1] = A;
    G->len[2] = d == 3 ? A : 1.0;
    G->per[0] = G->per[1] = G->per[2] = 1;
    if (!G->snap)
        return;
    const hg_snapshot_info *si = hg_snapshot_get_info(G->snap);
    double scale = pow(sys->atoms / (double)si->n, 1.0 / d), vbox = 1.0;
    for (int c = 0; c < d; c++) {
        char b = si->boundary[2 * c];
        G->per[c] = b == 'p';
        G->len[c] = (b == 's' || b == 'm' ? si->occ_hi[c] - si->occ_lo[c]
                                          : si->box_hi[c] - si->box_lo[c]) *
                    scale;
        vbox *= G->len[c];
    }
    G->rho = sys->atoms / vbox;
}

/* G of a checked system and setting (dmax the largest diameter). */
static void lmp_geom_init(const hg_psd *psd, const hg_lammps_system *sys,
                          const hg_lammps_setting *s, double dmax,
                          lmp_geom *G)
{
    int d = G->d = sys->dim;
    G->bin_style = s->ncoll == 0;
    G->n = G->bin_style ? 1 : s->ncoll;
    G->binsize = G->bin_style ? s->binsize : 0.0;
    if (G->bin_style)
        G->cut[0] = sys->cutoff_diameter > dmax ? sys->cutoff_diameter : dmax;
    else
        memcpy(G->cut, s->cut, sizeof G->cut[0] * (size_t)G->n);
    G->snap = sys->structure == HG_STRUCTURE_MEASURED ? sys->snapshot : NULL;
    lmp_geom_box(psd, sys, G);
    procs_grid(sys->nprocs, d, G->len, G->g);
    G->sub[0] = G->len[0] / G->g[0];
    G->sub[1] = G->len[1] / G->g[1];
    G->sub[2] = d == 3 ? G->len[2] / G->g[2] : 1.0;
    G->vsub = G->sub[0] * G->sub[1] * (d == 3 ? G->sub[2] : 1.0);
    G->nloc = sys->atoms / sys->nprocs;
    G->skin = sys->skin;
    G->cutghost = G->cut[G->n - 1] + G->skin;
}

/* Collection i's bins (nbin_multi.cpp, setup_bins, with LAMMPS' limits):
 * stored in w (cleared every build); *bsize the x bin size, on which the
 * stencil is counted (cubic bins: the others differ by the rounding to
 * whole bins only). */
static int collection_bins(const lmp_geom *G, int i, hg_lammps_work *w,
                           double *bsize, hg_err *e)
{
    double nominal = G->binsize > 0.0 ? G->binsize
                                       : 0.5 * (G->cut[i] + G->skin);
    double bax[3] = {1.0, 1.0, 1.0};
    for (int c = 0; c < G->d; c++) {
        double nb = G->len[c] / nominal;
        if (!(nb <= LMP_MAXSMALLINT))
            return hg_fail(e, HG_ELIMIT,
                           "box edge %c: %g holds %.3g bins of %g, more "
                           "than LAMMPS allows (2^31 - 1: \"Domain too "
                           "large for neighbor bins\")",
                           'x' + c, G->len[c], nb, nominal);
    }
    for (int c = 0; c < G->d; c++) {
        double nb = floor(G->len[c] / nominal);
        bax[c] = G->len[c] / (nb < 1.0 ? 1.0 : nb);
        if (!(nominal / bax[c] <= LMP_CUT2BIN_RATIO))
            return hg_fail(e, HG_ELIMIT,
                           "box edge %c: %g is below 1/%g of the bins of %g "
                           "(%s) (LAMMPS: \"Cannot use neighbor bins - box "
                           "size << cutoff\")",
                           'x' + c, G->len[c], LMP_CUT2BIN_RATIO, nominal,
                           G->binsize > 0.0 ? "neigh_modify binsize"
                                            : "half the cutoff with the skin");
    }
    double mb = bins_axis(G->len[0], G->sub[0], G->cutghost, bax[0]) *
                bins_axis(G->len[1], G->sub[1], G->cutghost, bax[1]);
    if (G->d == 3)
        mb *= bins_axis(G->len[2], G->sub[2], G->cutghost, bax[2]);
    if (!(mb + 1.0 <= LMP_MAXSMALLINT))
        return hg_fail(e, HG_ELIMIT,
                       "bins of %g: a rank holds %.3g of them, more than "
                       "LAMMPS allows (2^31 - 1: \"Too many neighbor "
                       "bins\")",
                       bax[0], mb + 1.0);
    w->bins += mb + 1.0;
    w->bins_c[i] = mb + 1.0;
    *bsize = bax[0];
    return HG_OK;
}

/* Ghosts of collection i (atom fraction frac) out to its largest pair
 * cutoff, across periodic faces and those between ranks. */
static double collection_ghosts(const lmp_geom *G, int i, double frac)
{
    const double *sub = G->sub;
    double gc = G->bin_style ? G->cutghost
                             : 0.5 * (G->cut[i] + G->cut[G->n - 1]) + G->skin;
    double grow = 1.0;
    for (int c = 0; c < G->d; c++)
        if (G->per[c] || G->g[c] > 1)
            grow *= 1.0 + 2.0 * gc / sub[c];
    return G->snap ? G->nloc * frac * (grow - 1.0)
                   : G->rho * frac *
                         ((sub[0] + 2 * gc) * (sub[1] + 2 * gc) *
                              (G->d == 3 ? sub[2] + 2 * gc : 1.0) -
                          G->vsub);
}

/* The pair loop of an atom of collection i over collections j >= i:
 * stencil bins visited (*visits) and distance checks (*checks), with the
 * structure's pair statistics (ms measured, hs hard spheres, else
 * Poisson). */
static int collection_search(const lmp_geom *G, int i, const double *frac,
                             const double *bsize, const lmp_meas *ms,
                             const lmp_hs *hs, double *visits,
                             double *checks, hg_err *e)
{
    int d = G->d;
    double per_visit = 0.0, per_check = 0.0;
    for (int j = i; j < G->n; j++) {
        double cij = 0.5 * (G->cut[i] + G->cut[j]) + G->skin;
        double b = bsize[j];
        double vbin = pow(b, d);
        int s = 0;
        int st = stencil_span(d, cij, b, &s, e);
        if (st)
            return st;
        if (j == i) {
            int h = stencil_bins(d, s, cij, b, 1);
            double vol = vbin * (2 * h + 1);
            double c = ms ? lmp_meas_density(ms, pow(vol, 1.0 / d), i, i) *
                                frac[i] * 0.5 * vol
                          : G->rho * frac[i] * vbin * (h + 0.5);
            per_visit += h + 1;
            per_check += hs ? lmp_hs_checks(hs, d, i, i, c, vol) : c;
        } else if (frac[j] > 0.0) {
            int f = stencil_bins(d, s, cij, b, 0);
            double vol = vbin * f;
            double c = ms ? lmp_meas_density(ms, pow(vol, 1.0 / d), i, j) *
                                frac[j] * vol
                          : G->rho * frac[j] * vbin * f;
            per_visit += f;
            per_check += hs ? lmp_hs_checks(hs, d, i, j, c, vol) : c;
        } else {
            per_visit += stencil_bins(d, s, cij, b, 0);
        }
    }
    *visits = per_visit;
    *checks = per_check;
    return HG_OK;
}

/* The density the stored neighbours see: rho, or measured, the density at
 * the finest width the snapshot measured of all collections' mix. */
static double near_density(const lmp_meas *ms, const double *frac, int n,
                           double rho)
{
    if (!ms)
        return rho;
    lmp_meas all = *ms;
    memset(all.w, 0, sizeof all.w);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < ms->nc; c++)
            all.w[0][c] += frac[i] * ms->w[i][c];
    return lmp_meas_density(&all, 0.0, 0, 0);
}

int hg_lammps_work_eval(const hg_psd *psd, const hg_lammps_system *sys,
                        const hg_lammps_setting *s, hg_lammps_work *w,
                        hg_err *e)
{
    memset(w, 0, sizeof *w);
    double dmax = 2.0 * hg_psd_rmax(psd);
    int st;
    if ((st = hg_lammps_system_check(sys, e)) ||
        (st = hg_lammps_setting_check(s, dmax, e)))
        return st;
    lmp_geom G;
    lmp_geom_init(psd, sys, s, dmax, &G);
    int n = G.n;
    double frac[HG_LAMMPS_MAX_COLLECTIONS], bsize[HG_LAMMPS_MAX_COLLECTIONS];
    for (int i = 0; i < n; i++) {
        double lo = i == 0 ? 0.0 : 0.5 * G.cut[i - 1];
        double hi = i == n - 1 ? hg_psd_rmax(psd) : 0.5 * G.cut[i];
        frac[i] = hg_psd_moment(psd, 0, lo, hi);
        w->fraction[i] = frac[i];
        if ((st = collection_bins(&G, i, w, &bsize[i], e)))
            return st;
        double ghosts = collection_ghosts(&G, i, frac[i]);
        w->ghosts += ghosts;
        w->binned_c[i] = G.nloc * frac[i] + ghosts;
    }
    lmp_meas *ms = NULL;
    lmp_hs *hs = NULL;
    if ((G.snap && !(ms = malloc(sizeof *ms))) ||
        (sys->structure == HG_STRUCTURE_HARD_SPHERES &&
         !(hs = malloc(sizeof *hs)))) {
        free(ms);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    if (ms)
        lmp_meas_init(psd, G.snap, n, G.cut, ms);
    if (hs)
        lmp_hs_init(psd, G.d, sys->nu, n, G.cut, hs);
    for (int i = 0; i < n; i++) {
        if (!(frac[i] > 0.0))
            continue;
        double per_visit, per_check;
        if ((st = collection_search(&G, i, frac, bsize, ms, hs, &per_visit,
                                    &per_check, e))) {
            free(hs);
            free(ms);
            return st;
        }
        w->stencil[i] = per_visit;
        w->visits_c[i] = G.nloc * frac[i] * per_visit;
        w->checks_c[i] = G.nloc * frac[i] * per_check;
        w->visits += w->visits_c[i];
        w->checks += w->checks_c[i];
    }
    free(hs);
    double rho_near = near_density(ms, frac, n, G.rho);
    free(ms);
    w->ncoll = n;
    w->binned = G.nloc + w->ghosts;
    w->coll_loops = G.bin_style ? 0.0 : G.nloc * n;
    w->neighbours = 0.5 * G.nloc * rho_near * hg_unit_ball_volume(G.d) *
                    mean_reach(psd, G.d, G.skin);
    return HG_OK;
}

double hg_lammps_predict(const hg_consts *c, const hg_lammps_work *w)
{
    const double x[HG_LAMMPS_NTERMS] = {w->checks, w->visits,     w->bins,
                                        w->binned, w->coll_loops,
                                        w->neighbours};
    double t = 0.0;
    for (int i = 0; i < HG_LAMMPS_NTERMS; i++)
        t += c->c[i] * x[i];
    return t;
}

int hg_lammps_setting_from_sizes(const hg_psd *psd, int L,
                                 const double *sizes, hg_lammps_setting *s,
                                 hg_err *e)
{
    memset(s, 0, sizeof *s);
    double rmax = hg_psd_rmax(psd);
    int n = 0;
    for (int h = 0; h < L; h++) {
        if (!(sizes[h] > 0.0) || !isfinite(sizes[h]) ||
            (h > 0 && sizes[h] < sizes[h - 1]))
            return hg_fail(e, HG_EINVAL,
                           "cell size %d: %g must be finite, > 0 and not "
                           "below the previous",
                           h + 1, sizes[h]);
        double lo = h == 0 ? 0.0 : 0.5 * sizes[h - 1];
        double hi = h == L - 1 ? rmax : 0.5 * sizes[h];
        if (!(hg_psd_moment(psd, 0, lo, hi) > 0.0))
            continue;
        double c = fmin(sizes[h], 2.0 * rmax);
        if (n > 0 && !(c > s->cut[n - 1]))
            continue;
        if (n == HG_LAMMPS_MAX_COLLECTIONS)
            return hg_fail(e, HG_ELIMIT,
                           "more than %d non-empty levels: LAMMPS export "
                           "supports at most %d collections",
                           HG_LAMMPS_MAX_COLLECTIONS,
                           HG_LAMMPS_MAX_COLLECTIONS);
        s->cut[n++] = c;
    }
    if (n == 0)
        return hg_fail(e, HG_EINVAL, "no level holds particles");
    s->cut[n - 1] = 2.0 * rmax;
    s->ncoll = n;
    return HG_OK;
}

void hg_lammps_setting_text(const hg_lammps_setting *s, char *buf,
                            size_t len)
{
    if (s->ncoll == 0) {
        if (s->binsize > 0.0)
            snprintf(buf, len, "bin (bins of %.4g)", s->binsize);
        else
            snprintf(buf, len, "bin");
        return;
    }
    size_t n = (size_t)snprintf(buf, len, "multi with %d collection%s",
                                s->ncoll, s->ncoll == 1 ? "" : "s");
    for (int i = 0; i < s->ncoll && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%.6g",
                              i ? ", " : " (cutoffs ", s->cut[i]);
    if (n < len)
        snprintf(buf + n, len - n, ")");
}
