/* cost.c - the HGrid cost model of KOL 2014 section 3 (SPEC sections 2-3).
 *
 * Level h holds the radii in (s_{h-1}/2, s_h/2] (level 1 also holds r_min).
 * With Q_{h,k} = M_k(level h) the partial moments:
 *   P_h      = Q_{h,0}                                     (eq. 9)
 *   m_h      = nu s_h^d P_h / V_p                          (eq. 11)
 *   P_h b(j,h) = sum_k C(d,k) 2^(d-k) (2/s_j)^k Q_{h,k}     (eq. 16)
 *   T_cd/N   = sum_h [(1/2 + n_c) m_h P_h + sum_J m_j P_h b(j,h)]  (eqs. 23, 25)
 *   T_ca/N   = sum_h [(1 + n_c) P_h + sum_J P_h b(j,h)]            (eqs. 24, 26)
 * J(h) = {j < h} (Top-Down) or {j > h} (Bottom-Up). Levels holding no
 * particle are not scanned (an implementation skips them), so a level that
 * collapses onto its neighbour costs nothing: the grid then behaves as one
 * with fewer levels.
 * Structure hard-spheres (hard_spheres.c: Gbar_h crowding, kappa the hole
 * parameter, c = nu / V_p, "big"/"small" the coarser/finer of j and h):
 *   within: Gbar_h [(1/2 + n_c) m_h P_h
 *                   - (1/2) c V_d sum_k C(d,k) kappa^(d-k) Q_{h,d-k} Q_{h,k}]
 *   cross:  Gbar_j [m_j P_h b(j,h)
 *                   - c V_d sum_k C(d,k) kappa^(d-k) Q_{small,d-k} Q_{big,k}]
 * T_ca is geometric and does not change. */
#include "hg_model.h"
#include "model_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *hg_algorithm_name(hg_algorithm a)
{
    return a == HG_BOTTOM_UP ? "bottom-up" : "top-down";
}

int hg_algorithm_parse(const char *text, hg_algorithm *out, hg_err *e)
{
    if (text && (!strcmp(text, "top-down") || !strcmp(text, "topdown") ||
                 !strcmp(text, "td"))) {
        *out = HG_TOP_DOWN;
        return HG_OK;
    }
    if (text && (!strcmp(text, "bottom-up") || !strcmp(text, "bottomup") ||
                 !strcmp(text, "bu"))) {
        *out = HG_BOTTOM_UP;
        return HG_OK;
    }
    return hg_fail(e, HG_EUNKNOWN,
                   "algorithm: unknown value '%s' (top-down or bottom-up)",
                   text ? text : "");
}

const char *hg_structure_name(hg_structure s)
{
    return s == HG_STRUCTURE_HARD_SPHERES ? "hard-spheres" : "poisson";
}

int hg_structure_parse(const char *text, hg_structure *out, hg_err *e)
{
    if (text && !strcmp(text, "poisson")) {
        *out = HG_STRUCTURE_POISSON;
        return HG_OK;
    }
    if (text && (!strcmp(text, "hard-spheres") || !strcmp(text, "hard-disks"))) {
        *out = HG_STRUCTURE_HARD_SPHERES;
        return HG_OK;
    }
    return hg_fail(e, HG_EUNKNOWN,
                   "structure: unknown value '%s' (poisson or hard-spheres)",
                   text ? text : "");
}

int hg_system_check(const hg_system *sys, hg_err *e)
{
    if (sys->dim != 2 && sys->dim != 3)
        return hg_fail(e, HG_EINVAL, "dim: %d is not 2 or 3", sys->dim);
    if (!(sys->nu > 0.0 && sys->nu < 1.0))
        return hg_fail(e, HG_EINVAL, "nu: %g is outside (0, 1)", sys->nu);
    if (!(sys->K > 0.0) || !isfinite(sys->K))
        return hg_fail(e, HG_EINVAL, "K: %g must be a finite number > 0",
                       sys->K);
    if (sys->structure != HG_STRUCTURE_POISSON &&
        sys->structure != HG_STRUCTURE_HARD_SPHERES)
        return hg_fail(e, HG_EINVAL, "structure: %d is not a known structure",
                       (int)sys->structure);
    return HG_OK;
}

int hg_sizes_check(const hg_psd *psd, int L, const double *sizes, int strict,
                   hg_err *e)
{
    if (L < 1)
        return hg_fail(e, HG_EINVAL, "sizes: need at least one cell size");
    for (int h = 0; h < L; h++) {
        if (!isfinite(sizes[h]) || !(sizes[h] > 0.0))
            return hg_fail(e, HG_EINVAL,
                           "sizes: cell size %d = %g must be finite and > 0",
                           h + 1, sizes[h]);
        if (h > 0 && (strict ? !(sizes[h] > sizes[h - 1])
                             : !(sizes[h] >= sizes[h - 1])))
            return hg_fail(e, HG_EINVAL,
                           "sizes: cell sizes must be %s: size %d = %g "
                           "follows %g",
                           strict ? "strictly ascending" : "non-decreasing",
                           h + 1, sizes[h], sizes[h - 1]);
    }
    double dmax = 2.0 * hg_psd_rmax(psd);
    if (sizes[L - 1] < dmax * (1.0 - 1e-12))
        return hg_fail(e, HG_EINVAL,
                       "sizes: the largest cell size %g is below the largest "
                       "particle diameter %g",
                       sizes[L - 1], dmax);
    return HG_OK;
}

void hg_cost_clear(hg_cost *c)
{
    if (!c)
        return;
    free(c->per_level);
    c->per_level = NULL;
    c->levels = 0;
}

static const double binom[4][4] = {
    {1, 0, 0, 0}, {1, 1, 0, 0}, {1, 2, 1, 0}, {1, 3, 3, 1}};

/* P_h b(j,h) from the moments q[0..d] of level h and the cell size s_j. */
static double level_box(int d, const double *q, double sj)
{
    double acc = 0.0, c = 1.0; /* c = (2 / s_j)^k */
    for (int k = 0; k <= d; k++) {
        acc += binom[d][k] * ldexp(1.0, d - k) * c * q[k];
        c *= 2.0 / sj;
    }
    return acc;
}

/* sum_k C(d,k) kappa^(d-k) Q_{small,d-k} Q_{big,k}: the pair average of
 * (r_big + kappa r_small)^d times the two level fractions. */
static double hole(int d, const double *kp, const double *small,
                   const double *big)
{
    double acc = 0.0;
    for (int k = 0; k <= d; k++)
        acc += binom[d][k] * kp[d - k] * small[d - k] * big[k];
    return acc;
}

int hg_cost_hgrid(const hg_model_input *in, hg_algorithm alg, hg_cost *out,
                  double *T, double *T_cd, double *T_ca, hg_err *e)
{
    const hg_psd *psd = in->psd;
    const hg_system *sys = in->sys;
    int L = in->L, d = sys->dim, st;
    if ((st = hg_system_check(sys, e)))
        return st;
    if ((st = hg_sizes_check(psd, L, in->sizes, 0, e)))
        return st;

    int hs = sys->structure == HG_STRUCTURE_HARD_SPHERES;
    enum { STACK_L = 64 };
    double qbuf[STACK_L * 4], mbuf[STACK_L * 2];
    double *q = qbuf, *m = mbuf;
    if (L > STACK_L) {
        q = malloc(sizeof *q * 4 * (size_t)L);
        m = malloc(sizeof *m * 2 * (size_t)L);
        if (!q || !m) {
            free(q);
            free(m);
            return hg_fail(e, HG_ENOMEM, "out of memory");
        }
    }
    double *rbar = m + L; /* mean radius of each level */
    hg_hs_matrix *mx = NULL;
    if (hs && !(mx = malloc(sizeof *mx * (size_t)L))) {
        if (q != qbuf) {
            free(q);
            free(m);
        }
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    if (out) {
        memset(out, 0, sizeof *out);
        out->per_level = calloc((size_t)L, sizeof *out->per_level);
        if (!out->per_level) {
            free(mx);
            if (q != qbuf) {
                free(q);
                free(m);
            }
            return hg_fail(e, HG_ENOMEM, "out of memory");
        }
    }

    const double *s = in->sizes;
    double Vp = hg_psd_mean_volume(psd, d);
    double nc = 0.5 * (pow(3.0, d) - 1.0);
    for (int h = 0; h < L; h++) {
        double lo = h == 0 ? 0.0 : 0.5 * s[h - 1];
        double hi = h == L - 1 ? fmax(0.5 * s[h], hg_psd_rmax(psd))
                               : 0.5 * s[h];
        for (int k = 0; k <= d; k++)
            q[4 * h + k] = hg_psd_moment(psd, k, lo, hi);
        m[h] = sys->nu * pow(s[h], d) * q[4 * h] / Vp;
        rbar[h] = q[4 * h] > 0.0 ? q[4 * h + 1] / q[4 * h] : 0.0;
        if (hs)
            hg_hs_matrix_build(psd, d, sys->nu, Vp, s[h], &mx[h]);
    }
    double cv = sys->nu / Vp * hg_unit_ball_volume(d);
    double kap = hs ? hg_hs_kappa(d, sys->nu) : 0.0, kp[4] = {1, 0, 0, 0};
    for (int k = 1; k <= d; k++)
        kp[k] = kp[k - 1] * kap;

    double tcd = 0.0, tca = 0.0;
    int nonempty = 0;
    for (int h = 0; h < L; h++) {
        const double *qh = q + 4 * h;
        double P = qh[0];
        double cd = 0.0, ca = 0.0;
        if (P > 0.0) {
            nonempty++;
            cd = (0.5 + nc) * m[h] * P;
            if (hs) {
                double G = hg_hs_crowding(&mx[h], 0.0,
                                          (1.0 + kap) * rbar[h],
                                          pow(3.0 * s[h], d));
                cd = G * (cd - 0.5 * cv * hole(d, kp, qh, qh));
            }
            ca = (1.0 + nc) * P;
            int j0 = alg == HG_TOP_DOWN ? 0 : h + 1;
            int j1 = alg == HG_TOP_DOWN ? h : L;
            for (int j = j0; j < j1; j++) {
                if (!(q[4 * j] > 0.0))
                    continue; /* empty level: not scanned */
                double B = level_box(d, qh, s[j]);
                if (hs) {
                    const double *big = j > h ? q + 4 * j : qh;
                    const double *small = j > h ? qh : q + 4 * j;
                    double rb = rbar[j > h ? j : h], rs = rbar[j > h ? h : j];
                    double G = hg_hs_crowding(&mx[j], h > j ? rbar[h] : 0.0, rb + kap * rs,
                                              B / P * pow(s[j], d));
                    cd += G * (m[j] * B - cv * hole(d, kp, small, big));
                } else {
                    cd += m[j] * B;
                }
                ca += B;
            }
        }
        tcd += cd;
        tca += ca;
        if (out) {
            hg_level_cost *lc = &out->per_level[h];
            lc->level = h + 1;
            lc->cell_size = s[h];
            lc->r_lo = h == 0 ? hg_psd_rmin(psd)
                              : fmax(0.5 * s[h - 1], hg_psd_rmin(psd));
            lc->r_hi = fmin(0.5 * s[h], hg_psd_rmax(psd));
            if (lc->r_hi < lc->r_lo)
                lc->r_hi = lc->r_lo;
            lc->fraction = P;
            lc->particles_per_cell = m[h];
            lc->T_cd = cd;
            lc->T_ca = ca;
            lc->T = cd + sys->K * ca;
        }
    }
    free(mx);
    if (q != qbuf) {
        free(q);
        free(m);
    }
    double total = tcd + sys->K * tca;
    if (!isfinite(total)) {
        if (out)
            hg_cost_clear(out);
        return hg_fail(e, HG_ENUMERIC, "cost model: work is not finite (%g)",
                       total);
    }
    if (out) {
        out->algorithm = alg;
        out->dim = d;
        out->nu = sys->nu;
        out->K = sys->K;
        out->levels = L;
        out->nonempty_levels = nonempty;
        out->T_cd = tcd;
        out->T_ca = tca;
        out->T = total;
    }
    if (T)
        *T = total;
    if (T_cd)
        *T_cd = tcd;
    if (T_ca)
        *T_ca = tca;
    return HG_OK;
}

int hg_cost_evaluate(const hg_psd *psd, const hg_system *sys,
                     hg_algorithm alg, int L, const double *sizes,
                     hg_cost *out, double *T, double *T_cd, double *T_ca,
                     hg_err *e)
{
    hg_model_input in = {psd, sys, L, sizes};
    return hg_cost_hgrid(&in, alg, out, T, T_cd, T_ca, e);
}

int hg_cost_linked_cell(const hg_psd *psd, const hg_system *sys,
                        hg_cost *out, hg_err *e)
{
    double s = 2.0 * hg_psd_rmax(psd);
    hg_model_input in = {psd, sys, 1, &s};
    return hg_cost_hgrid(&in, HG_TOP_DOWN, out, NULL, NULL, NULL, e);
}
