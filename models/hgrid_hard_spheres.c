/* hgrid_hard_spheres.c - the terms of structure hard-spheres of the
 * `hgrid` cost models (models/hgrid.c, where their equations are; the
 * physics is in src/model/hard_spheres.c): the hole around a particle
 * taken out of its own-level and cross-level pair checks, the crowding
 * factors G, and their partial derivatives for the gradient. */
#include "hgrid_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void hg_hgrid_hs_free(hs_terms *hs)
{
    free(hs->mx);
    memset(hs, 0, sizeof *hs);
}

int hg_hgrid_hs_init(const hg_model_input *in, int grad, hs_terms *hs,
                     hg_err *e)
{
    memset(hs, 0, sizeof *hs);
    if (in->sys->structure != HG_STRUCTURE_HARD_SPHERES)
        return HG_OK;
    int L = in->L, d = in->sys->dim;
    double nu = in->sys->nu, Vp = hg_psd_mean_volume(in->psd, d);
    size_t n = (size_t)L * (grad ? 3 : 1);
    if (!(hs->mx = malloc(sizeof *hs->mx * n)))
        return hg_fail(e, HG_ENOMEM, "out of memory");
    hs->on = 1;
    hg_hs_consts_init(d, nu, Vp, &hs->c);
    for (int h = 0; h < L; h++)
        hg_hs_matrix_build(in->psd, d, nu, Vp, in->sizes[h], &hs->mx[h]);
    if (grad) {
        hs->mxp = hs->mx + L;
        hs->mxm = hs->mx + 2 * L;
        for (int h = 0; h < L; h++) {
            double s = in->sizes[h];
            hg_hs_matrix_build(in->psd, d, nu, Vp, s * (1.0 + HS_EPS),
                               &hs->mxp[h]);
            hg_hs_matrix_build(in->psd, d, nu, Vp, s * (1.0 - HS_EPS),
                               &hs->mxm[h]);
        }
    }
    return HG_OK;
}

/* dT/dQ of c * H(a, b) into the accumulators of a and b. */
static void hs_hole_grad(int d, const hs_terms *hs, double c, level *a,
                         level *b)
{
    for (int i = 0; i <= d; i++) {
        a->dT_dq[i] += c * hgrid_binom[d][i] * hs->c.kp[i] * b->q[d - i];
        b->dT_dq[i] += c * hgrid_binom[d][i] * hs->c.kp[d - i] * a->q[d - i];
    }
}

/* Kirkwood-Buff hole sum_ab kb_ab Q_{a,a} Q_{b,b} of the particles of
 * level b around those of level a (hard_spheres.c, item 3). */
static double kb_hole(int d, const hg_hs_matrix *mx, const double *qa,
                      const double *qb)
{
    double acc = 0.0;
    for (int a = 0; a <= d; a++)
        for (int b = 0; b <= d; b++)
            acc += mx->kb[a][b] * qa[a] * qb[b];
    return acc;
}

/* dT/dQ of c * kb_hole(a, b) into the accumulators of a and b. */
static void kb_hole_grad(int d, const hg_hs_matrix *mx, double c, level *la,
                         level *lb)
{
    for (int a = 0; a <= d; a++)
        for (int b = 0; b <= d; b++) {
            la->dT_dq[a] += c * mx->kb[a][b] * lb->q[b];
            lb->dT_dq[b] += c * mx->kb[a][b] * la->q[a];
        }
}

/* Crowding factor and (when g != NULL) its partial derivatives
 * g[0..3] = dG/d(s of the matrix), dG/drp, dG/dr_in, dG/dvol. */
static double hs_crowd(const hs_terms *hs, int j, double s, double rp,
                       double r_in, double vol, double *g)
{
    double G = hg_hs_crowding(&hs->mx[j], rp, r_in, vol);
    if (!g)
        return G;
    g[0] = (hg_hs_crowding(&hs->mxp[j], rp, r_in, vol) -
            hg_hs_crowding(&hs->mxm[j], rp, r_in, vol)) /
           (2.0 * HS_EPS * s);
    double x[3] = {rp, r_in, vol};
    for (int i = 0; i < 3; i++) {
        double hstep = HS_EPS * x[i];
        if (!(hstep > 0.0)) {
            g[i + 1] = 0.0;
            continue;
        }
        double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
        xp[i] += hstep;
        xm[i] -= hstep;
        g[i + 1] = (hg_hs_crowding(&hs->mx[j], xp[0], xp[1], xp[2]) -
                    hg_hs_crowding(&hs->mx[j], xm[0], xm[1], xm[2])) /
                   (2.0 * hstep);
    }
    return G;
}

double hg_hgrid_hs_own(const hs_terms *hs, int d, level *l, int h, double s,
                       double A, int grad, double *total)
{
    double P = l->q[0], g[4];
    double r_in = (1.0 + hs->c.kap) * l->rbar;
    double vol = pow(3.0 * s, d);
    double br = l->cd - 0.5 * hs->c.cv * hg_hs_hole(d, &hs->c, l->q, l->q);
    double G = hs_crowd(hs, h, s, 0.0, r_in, vol, grad ? g : NULL);
    l->cd = G * br;
    if (grad) {
        hs_hole_grad(d, hs, -0.5 * G * hs->c.cv, l, l);
        l->dT_ds += br * (g[0] + g[3] * d * vol / s);
        rbar_grad(l, br * g[2] * (1.0 + hs->c.kap));
        *total += G * br - A * l->m * P; /* A m P added by the caller */
    }
    return G;
}

double hg_hgrid_hs_cross(const hs_terms *hs, int d, level *lv, int h, int j,
                         const double *s, double B, double dB, int grad,
                         double *total)
{
    /* the pair in the fluid of the particles up to the coarser level b of
     * the two, crowded by the matrix beyond it: the same statistics
     * whichever of the two searches */
    level *l = &lv[h], *lj = &lv[j];
    double P = l->q[0], g[4];
    int b = j > h ? j : h;
    level *big = &lv[b], *small = j > h ? l : lj;
    double rp = h > j ? l->rbar : 0.0;
    double r_in = big->rbar + hs->c.kap * small->rbar;
    double sd = pow(s[j], d), vol = B / P * sd;
    double br = lj->m * B - hs->c.n * kb_hole(d, &hs->mx[b], l->q, lj->q);
    double Gc = hs_crowd(hs, b, s[b], rp, r_in, vol, grad ? g : NULL);
    l->cd += Gc * br;
    if (!grad)
        return Gc;
    *total += Gc * br - lj->m * B; /* m_j B added by the caller */
    kb_hole_grad(d, &hs->mx[b], -Gc * hs->c.n, l, lj);
    big->dT_ds -= Gc * hs->c.n *
                  (kb_hole(d, &hs->mxp[b], l->q, lj->q) -
                   kb_hole(d, &hs->mxm[b], l->q, lj->q)) /
                  (2.0 * HS_EPS * s[b]);
    big->dT_ds += br * g[0];
    /* vol = B sd / P: through s_j, Q_{h,k}, P_h */
    lj->dT_ds += br * g[3] * (d * vol / s[j] - sd / P * dB / s[j]);
    for (int k = 0; k <= d; k++)
        l->dT_dq[k] += br * g[3] * sd / P * lj->w[k];
    l->dT_dq[0] -= br * g[3] * vol / P;
    if (rp > 0.0)
        rbar_grad(l, br * g[1]);
    rbar_grad(big, br * g[2]);
    rbar_grad(small, br * g[2] * hs->c.kap);
    return Gc;
}
