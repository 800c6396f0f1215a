/* hgrid_measured.c - the terms of structure measured (a particle
 * snapshot, hg_snapshot.h) of the `hgrid` cost models (models/hgrid.c,
 * where their equations are): each level's class weights, the cells as
 * the grid builds them on a periodic edge, the measured factors of the
 * pair checks, and the cell accesses of short periodic levels. */
#include "hgrid_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void hg_hgrid_meas_free(meas_terms *ms)
{
    free(ms->w);
    ms->w = ms->rc = NULL;
    ms->snap = NULL;
}

int hg_hgrid_meas_init(const hg_model_input *in, const level *lv,
                       meas_terms *ms, hg_err *e)
{
    memset(ms, 0, sizeof *ms);
    if (in->sys->structure != HG_STRUCTURE_MEASURED)
        return HG_OK;
    const hg_snapshot *snap = in->sys->snapshot;
    int L = in->L, nc = hg_snapshot_classes(snap), d = in->sys->dim;
    if (!(ms->w = calloc(2 * (size_t)L * (size_t)nc, sizeof *ms->w)))
        return hg_fail(e, HG_ENOMEM, "out of memory");
    ms->rc = ms->w + (size_t)L * (size_t)nc;
    ms->snap = snap;
    ms->dim = d;
    const hg_snapshot_info *si = hg_snapshot_get_info(snap);
    for (int a = 0; a < d; a++)
        ms->plen[a] = si->boundary[2 * a] == 'p'
                          ? si->box_hi[a] - si->box_lo[a]
                          : 0.0;
    ms->whole = in->params[2] != 0.0;
    ms->nc = nc;
    ms->nu = in->sys->nu;
    ms->Vp = hg_psd_mean_volume(in->psd, d);
    const double *s = in->sizes;
    double rmax = hg_psd_rmax(in->psd);
    for (int h = 0; h < L; h++) {
        if (!(lv[h].q[0] > 0.0))
            continue;
        double lo = h == 0 ? 0.0 : 0.5 * s[h - 1];
        double hi = h == L - 1 ? fmax(0.5 * s[h], rmax) : 0.5 * s[h];
        hg_snapshot_class_weights(snap, in->psd, lo, hi, ms->w + h * nc,
                                  ms->rc + h * nc);
    }
    return HG_OK;
}

/* Cells of size >= s a periodic edge A holds (the grid stretches them to
 * A / n): the largest n >= 1 with A / n >= s in floating point, as the
 * bundled grid counts them; 0 for a non-periodic axis (no bound). */
static double edge_cells(double A, double s)
{
    if (!(A > 0.0))
        return 0.0;
    double k = floor(A / s);
    if (k < 1.0)
        k = 1.0;
    while (k > 1.0 && A / k < s)
        k -= 1.0;
    while (A / (k + 1.0) >= s)
        k += 1.0;
    return k;
}

/* The edge along axis a of the cells of size s as the grid builds them:
 * stretched to whole cells along a periodic edge (ms->whole), else s. */
static double axis_cell(const meas_terms *ms, int a, double s)
{
    if (!ms->whole || !(ms->plen[a] > 0.0))
        return s;
    return ms->plen[a] / edge_cells(ms->plen[a], s);
}

/* The cells of size s as built: per-axis edges e[a]; returns their volume
 * over s^d. */
static double built_cell(const meas_terms *ms, double s, double *e)
{
    double v = 1.0;
    for (int a = 0; a < ms->dim; a++) {
        e[a] = axis_cell(ms, a, s);
        v *= e[a] / s;
    }
    return v;
}

/* The weights w_k of B(j,h) = sum_k w_k Q_{h,k} for cells of edges e[a]:
 * prod_a (2 + 2r / e_a) expanded in powers of r (KOL 2014 eq. 16 with one
 * cell size per axis). */
static void box_weights(int d, const double *e, double *w)
{
    double c[4] = {1.0, 0.0, 0.0, 0.0}; /* the product's coefficients */
    for (int a = 0; a < d; a++)
        for (int k = a + 1; k >= 0; k--)
            c[k] = 2.0 * c[k] + (k > 0 ? 2.0 / e[a] * c[k - 1] : 0.0);
    for (int k = 0; k <= d; k++)
        w[k] = c[k];
}

/* A periodic level of fewer than 3 cells along an axis: the grid visits
 * every cell once, so its own neighbourhood holds prod min(3, n_a) cells
 * and a cross-level box at most n_a along that axis. Own level: the own
 * cell and half of the others. */
double hg_hgrid_meas_own_cells(const meas_terms *ms, double s, int *small)
{
    double cells = 1.0;
    *small = 0;
    for (int a = 0; a < ms->dim; a++) {
        double n = edge_cells(ms->plen[a], s);
        if (n > 0.0 && n < 3.0) {
            *small = 1;
            cells *= n;
        } else {
            cells *= 3.0;
        }
    }
    return 1.0 + 0.5 * (cells - 1.0);
}

/* Mean cells of level j (size s) in the box of a level-h particle, when a
 * periodic axis of level j is short enough to clip it (else -1): per axis
 * the cells covering [x - beta, x + beta], beta = r + s/2, are k + 1 or
 * k + 2 (k = floor(2 beta / s), the second with probability
 * 2 beta / s - k), at most the n_a cells of a periodic axis; the radius
 * of each class on level h stands for its particles. */
double hg_hgrid_meas_box_cells(const meas_terms *ms, int h, double s,
                               double rmax_h)
{
    int clip = 0;
    for (int a = 0; a < ms->dim; a++) {
        double n = edge_cells(ms->plen[a], s);
        clip |= n > 0.0 && n < 2.0 * rmax_h / s + 3.0;
    }
    if (!clip)
        return -1.0;
    double acc = 0.0;
    for (int c = 0; c < ms->nc; c++) {
        double w = ms->w[h * ms->nc + c];
        if (!(w > 0.0))
            continue;
        double prod = 1.0;
        for (int a = 0; a < ms->dim; a++) {
            double sa = axis_cell(ms, a, s);
            double u = (2.0 * ms->rc[h * ms->nc + c] + sa) / sa,
                   k = floor(u), f = u - k;
            double n = edge_cells(ms->plen[a], s);
            prod *= n > 0.0 ? (1.0 - f) * fmin(k + 1.0, n) +
                                  f * fmin(k + 2.0, n)
                            : u + 1.0;
        }
        acc += w * prod;
    }
    return acc;
}

/* F(a; h, j): the measured factor of the pairs of levels h and j. */
static double meas_factor(const meas_terms *ms, double a, int h, int j)
{
    return hg_snapshot_factor_mix(ms->snap, ms->nu, ms->Vp, a,
                                  ms->w + (size_t)h * (size_t)ms->nc,
                                  ms->w + (size_t)j * (size_t)ms->nc);
}

double hg_hgrid_meas_cell_volume(const meas_terms *ms, double s)
{
    double e[3];
    return built_cell(ms, s, e);
}

double hg_hgrid_meas_own_factor(const meas_terms *ms, const level *l, int h,
                                double s)
{
    /* cells as built: their volume, the window at the mean edge */
    double vh = l->vol;
    return vh * meas_factor(ms, 3.0 * s * pow(vh, 1.0 / ms->dim), h, h);
}

double hg_hgrid_meas_cross(const meas_terms *ms, level *l, const level *lj,
                           int h, int j, double sj)
{
    /* cells as built: m_j over their volume, B over their edges, the
     * window at its mean width */
    int d = ms->dim;
    double ej[3], wj[4], vj = built_cell(ms, sj, ej), Bs = 0.0;
    box_weights(d, ej, wj);
    for (int k = 0; k <= d; k++)
        Bs += wj[k] * l->q[k];
    double width = 1.0;
    for (int a = 0; a < d; a++)
        width *= 2.0 * l->rbar + 2.0 * ej[a];
    l->cd += lj->m * vj * Bs * meas_factor(ms, pow(width, 1.0 / d), h, j);
    return Bs;
}
