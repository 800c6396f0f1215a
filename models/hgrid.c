/* hgrid.c - the hierarchical-grid (HGrid) cost model of KOL 2014 section 3:
 * Top-Down and Bottom-Up as two tables over one core, which reads the
 * cross-level search from the table's grid_algorithm.
 *
 * Level h holds the radii in (s_{h-1}/2, s_h/2] (level 1 also holds r_min,
 * the last level everything up to r_max). With Q_{h,k} = M_k(level h), the
 * partial moments of the size distribution:
 *   P_h        = Q_{h,0}                                         (eq. 9)
 *   m_h        = nu s_h^d P_h / V_p                              (eq. 11)
 *   B(j,h)     = P_h b(j,h) = sum_k w_k (2/s_j)^k Q_{h,k},
 *                w_k = C(d,k) 2^(d-k)                            (eq. 16)
 *   T_cd       = sum_h [A m_h P_h + sum_{j in J(h)} m_j B(j,h)]  (eqs. 23, 25)
 *   T_ca       = sum_h [(1 + n_c) P_h + sum_{j in J(h)} B(j,h)]  (eqs. 24, 26)
 *   T          = T_cd + K T_ca                                   (eq. 27)
 * with A = 1/2 + n_c, n_c = (3^d - 1)/2 half-neighbour cells, and
 * J(h) = {j < h} (Top-Down, eqs. 19-20) or {j > h} (Bottom-Up, eqs. 21-22).
 * Levels holding no particle are not scanned (an implementation skips
 * them; so does the bundled grid), so a level that collapses onto its
 * neighbour costs nothing: the grid then behaves as one with fewer levels.
 *
 * The gradient is derived from the same per-level terms (one pass computes
 * both). With dT/dm_j = A P_j + sum_{h: j in J(h)} B(j,h):
 *   dT/dQ_{h,k}  = [k = 0] (A m_h + K (1 + n_c) + (m_h / P_h) dT/dm_h)
 *                  + sum_{j in J(h)} (m_j + K) w_k (2/s_j)^k
 *   dT/ds_j|expl = (d m_j / s_j) dT/dm_j
 *                  - sum_{h: j in J(h)} (m_j + K) sum_k k w_k (2/s_j)^k
 *                    Q_{h,k} / s_j
 * and s_h moves the upper bound of level h and the lower bound of level
 * h+1: dQ_{h,k}/ds_h = -dQ_{h+1,k}/ds_h = (1/2) (s_h/2)^k f(s_h/2)
 * (dM_k(a,b)/db = b^k f(b)).
 */
#include "hg_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const hg_model_param hgrid_params[] = {HG_MODEL_PARAM_K};

/* Per-level terms. */
typedef struct level {
    double q[4];   /* Q_{h,k}, k = 0..d */
    double m;      /* m_h */
    double dm_dq;  /* dm_h / dQ_{h,0} = nu s_h^d / V_p */
    double w[4];   /* w_k (2/s_h)^k: the weights of eq. 16 with s_j = s_h */
    double cd, ca; /* this level's share of T_cd and T_ca */
    double dT_dm, dT_dq[4], dT_ds; /* gradient accumulators */
} level;

static const double binom[4][4] = {
    {1, 0, 0, 0}, {1, 1, 0, 0}, {1, 2, 1, 0}, {1, 3, 3, 1}};

/* Moments, particles per cell and box weights of every level.
 * cumulative = 0: Q_{h,k} = M_k(s_{h-1}/2, s_h/2) directly (the reported
 * breakdown); 1: as differences of the cumulative moments M_k(0, s_h/2),
 * one moment evaluation per boundary instead of two (the optimiser's
 * objective; equal to rounding). */
static void fill_levels(const hg_model_input *in, level *lv, int cumulative)
{
    const hg_psd *psd = in->psd;
    const double *s = in->sizes;
    int L = in->L, d = in->sys->dim;
    double rmax = hg_psd_rmax(psd), full[4], prev[4] = {0, 0, 0, 0};
    for (int k = 0; cumulative && k <= d; k++)
        full[k] = hg_psd_moment(psd, k, 0.0, rmax);
    double nu_Vp = cumulative
                       ? in->sys->nu / (hg_unit_ball_volume(d) * full[d])
                       : 0.0;
    double Vp = cumulative ? 0.0 : hg_psd_mean_volume(psd, d);
    for (int h = 0; h < L; h++) {
        level *l = &lv[h];
        memset(l, 0, sizeof *l);
        double lo = h == 0 ? 0.0 : 0.5 * s[h - 1];
        double hi = h == L - 1 ? fmax(0.5 * s[h], rmax) : 0.5 * s[h];
        if (cumulative) {
            double sd = d == 2 ? s[h] * s[h] : s[h] * s[h] * s[h];
            for (int k = 0; k <= d; k++) {
                double F = h > 0 && s[h] == s[h - 1] ? prev[k]
                           : h == L - 1              ? full[k]
                                          : hg_psd_moment(psd, k, 0.0, hi);
                l->q[k] = fmax(F - prev[k], 0.0);
                prev[k] = F;
            }
            l->dm_dq = nu_Vp * sd;
            l->m = l->dm_dq * l->q[0];
        } else {
            for (int k = 0; k <= d; k++)
                l->q[k] = hg_psd_moment(psd, k, lo, hi);
            l->m = in->sys->nu * pow(s[h], d) * l->q[0] / Vp;
            l->dm_dq = in->sys->nu * pow(s[h], d) / Vp;
        }
        double c = 1.0; /* (2 / s_h)^k */
        for (int k = 0; k <= d; k++) {
            l->w[k] = binom[d][k] * ldexp(1.0, d - k) * c;
            c *= 2.0 / s[h];
        }
    }
}

/* The per-level terms of T_cd and T_ca (eqs. 23-26) into lv[h].cd/.ca,
 * and, when grad != 0, the partial derivatives of T and T itself summed
 * term by term as sum [A m_h P_h + K (1 + n_c) P_h + (m_j + K) B(j,h)]
 * into *T. Returns the number of non-empty levels. */
static int level_terms(const hg_model_input *in, level *lv, int grad,
                       double *T)
{
    int top_down = in->model->grid_algorithm == HG_TOP_DOWN;
    double total = 0.0;
    int L = in->L, d = in->sys->dim, nonempty = 0;
    double K = in->params[0];
    double nc = 0.5 * (pow(3.0, d) - 1.0), A = 0.5 + nc;
    for (int h = 0; h < L; h++) {
        level *l = &lv[h];
        double P = l->q[0];
        l->cd = l->ca = 0.0;
        if (!(P > 0.0))
            continue;
        nonempty++;
        l->cd = A * l->m * P;
        l->ca = (1.0 + nc) * P;
        if (grad) {
            total += A * l->m * P + K * (1.0 + nc) * P;
            l->dT_dm += A * P;
            l->dT_dq[0] += A * l->m + K * (1.0 + nc);
        }
        int j0 = top_down ? 0 : h + 1;
        int j1 = top_down ? h : L;
        for (int j = j0; j < j1; j++) {
            level *lj = &lv[j];
            if (!(lj->q[0] > 0.0))
                continue; /* empty level: not scanned */
            double B = 0.0, dB = 0.0;
            for (int k = 0; k <= d; k++)
                B += lj->w[k] * l->q[k];
            l->cd += lj->m * B;
            l->ca += B;
            if (!grad)
                continue;
            total += (lj->m + K) * B;
            for (int k = 0; k <= d; k++) {
                dB += k * lj->w[k] * l->q[k];
                l->dT_dq[k] += (lj->m + K) * lj->w[k];
            }
            lj->dT_dm += B;
            lj->dT_ds -= (lj->m + K) * dB / in->sizes[j];
        }
    }
    if (T)
        *T = total;
    return nonempty;
}

typedef struct work_buf {
    level stack[64];
    level *lv;
} work_buf;

static int buf_get(work_buf *b, int L, hg_err *e)
{
    b->lv = b->stack;
    if (L > 64 && !(b->lv = malloc(sizeof *b->lv * (size_t)L)))
        return hg_fail(e, HG_ENOMEM, "out of memory");
    return HG_OK;
}

static void buf_free(work_buf *b)
{
    if (b->lv != b->stack)
        free(b->lv);
}

/* The core needs to know which levels a particle scans. */
static int check_algorithm(const hg_model *m, hg_err *e)
{
    if (m->grid_algorithm != HG_TOP_DOWN && m->grid_algorithm != HG_BOTTOM_UP)
        return hg_fail(e, HG_EINVAL,
                       "model %s: the HGrid core needs grid_algorithm "
                       "top-down or bottom-up",
                       m->name);
    return HG_OK;
}

static int evaluate(const hg_model_input *in, hg_cost *out, hg_work *w,
                    hg_err *e)
{
    int L = in->L, st;
    if ((st = check_algorithm(in->model, e)))
        return st;
    double K = in->params[0];
    work_buf b;
    if ((st = buf_get(&b, L, e)))
        return st;
    if (out && !(out->per_level = calloc((size_t)L, sizeof *out->per_level))) {
        buf_free(&b);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    fill_levels(in, b.lv, 0);
    int nonempty = level_terms(in, b.lv, 0, NULL);
    double tcd = 0.0, tca = 0.0;
    double rmin = hg_psd_rmin(in->psd), rmax = hg_psd_rmax(in->psd);
    const double *s = in->sizes;
    for (int h = 0; h < L; h++) {
        const level *l = &b.lv[h];
        tcd += l->cd;
        tca += l->ca;
        if (!out)
            continue;
        hg_level_cost *lc = &out->per_level[h];
        lc->level = h + 1;
        lc->cell_size = s[h];
        lc->r_lo = h == 0 ? rmin : fmax(0.5 * s[h - 1], rmin);
        lc->r_hi = fmin(0.5 * s[h], rmax);
        if (lc->r_hi < lc->r_lo)
            lc->r_hi = lc->r_lo;
        lc->fraction = l->q[0];
        lc->particles_per_cell = l->m;
        lc->T_cd = l->cd;
        lc->T_ca = l->ca;
        lc->T = l->cd + K * l->ca;
    }
    buf_free(&b);
    w->T_cd = tcd;
    w->T_ca = tca;
    w->T = tcd + K * tca;
    if (out) {
        out->K = K;
        out->levels = L;
        out->nonempty_levels = nonempty;
        out->T_cd = tcd;
        out->T_ca = tca;
        out->T = w->T;
    }
    return HG_OK;
}

static int gradient(const hg_model_input *in, double *T, double *dT_ds,
                    hg_err *e)
{
    int L = in->L, d = in->sys->dim, st;
    if ((st = check_algorithm(in->model, e)))
        return st;
    work_buf b;
    if ((st = buf_get(&b, L, e)))
        return st;
    level *lv = b.lv;
    fill_levels(in, lv, 1);
    level_terms(in, lv, 1, T);
    if (dT_ds) {
        const double *s = in->sizes;
        for (int h = 0; h < L; h++) { /* through m_h = m_h(Q_{h,0}, s_h) */
            lv[h].dT_dq[0] += lv[h].dm_dq * lv[h].dT_dm;
            lv[h].dT_ds += d * lv[h].m / s[h] * lv[h].dT_dm;
        }
        for (int h = 0; h < L - 1; h++) {
            double g = lv[h].dT_ds, r = 0.5 * s[h];
            double f = hg_model_density(in, r);
            if (f > 0.0 && isfinite(f)) {
                double rk = 0.5 * f; /* (1/2) r^k f(r) */
                for (int k = 0; k <= d; k++) {
                    g += rk * (lv[h].dT_dq[k] - lv[h + 1].dT_dq[k]);
                    rk *= r;
                }
            }
            dT_ds[h] = g;
        }
        dT_ds[L - 1] = 0.0;
    }
    buf_free(&b);
    return HG_OK;
}

const hg_model hg_model_hgrid_top_down = {
    "hgrid-top-down",
    "hierarchical grid, Top-Down cross-level search (KOL 2014)",
    HG_TOP_DOWN,
    0,
    hgrid_params,
    1,
    evaluate,
    gradient};

const hg_model hg_model_hgrid_bottom_up = {
    "hgrid-bottom-up",
    "hierarchical grid, Bottom-Up cross-level search (KOL 2014)",
    HG_BOTTOM_UP,
    0,
    hgrid_params,
    1,
    evaluate,
    gradient};
