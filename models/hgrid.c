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
 *                + C T_tab,  T_tab = sum_h V_p / (nu s_h^d) = sum_h P_h / m_h
 * T_tab is the cells of the levels' tables per particle. The bundled grid
 * sweeps every table at each rebuild and reads its entries in the
 * detection; a sparse level (m_h << 1) costs its cells, not its particles.
 * KOL 2014 counts the detection only (C = 0, the default); the hgrid
 * engine sets the C measured for the bundled grid (hg_C_shipped). Its
 * gradient is explicit: dT/ds_h += -d C V_p / (nu s_h^(d+1)).
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
 *
 * Structure hard-spheres (sys->structure; the physics and its sources are
 * in src/model/hard_spheres.c, the terms in models/hgrid_hard_spheres.c).
 * With c_v = nu V_d / V_p, kappa the hole
 * parameter, H(h,h) = sum_k C(d,k) kappa^(d-k) Q_{h,d-k} Q_{h,k} and G
 * the crowding factors:
 *   within: G_hh [A m_h P_h - (1/2) c_v H(h,h)]
 *   cross:  G_jh [m_j B(j,h) - n sum_ab kb_ab Q_{h,a} Q_{j,b}]
 * with n = nu / V_p, b = max(h, j) the coarser level of the pair and kb the
 * Kirkwood-Buff kernel of the fluid up to level b (hg_hs_matrix.kb of
 * level b; it depends on s_b: central differences); G_jh is the crowding
 * by the matrix beyond level b. Top-Down and Bottom-Up take the same pair
 * statistics; only the region scanned differs.
 * T_ca does not change. The gradient takes the same terms: the brackets
 * and H are differentiated exactly; G_jh depends on s_b (the crowding
 * particles: radii > s_b/2), on the mean radii Q_{.,1}/Q_{.,0} and on the
 * search volume B(j,h) s_j^d / P_h, and its partial derivatives with
 * respect to these four scalars are central differences of the crowding
 * integral (relative step 1e-4), chained exactly.
 *
 * Structure measured (a particle snapshot, hg_snapshot.h; the terms in
 * models/hgrid_measured.c): every pair-check
 * term is multiplied by the measured factor F of its two levels at the
 * width of its search window, the class factors of hg_snapshot_factor
 * averaged over the radius classes of the two levels (weights: each
 * class's share of the level):
 *   within: A m_h P_h F(3 s_h; h, h)
 *   cross:  m_j B(j,h) F(2 rbar_h + 2 s_j; h, j)
 * (the own-level window is 3 s_h wide; a cross search covers the cells
 * within r + s_j/2 of the centre, 2r + 2 s_j in the mean). T_ca changes
 * only where the snapshot's periodic box is short: a periodic level of
 * fewer than 3 cells along an axis is visited cell by cell once (the
 * bundled grid's deduplicated stencil), so the own level costs
 * 1 + (prod_a min(3, n_a) - 1)/2 accesses and a cross box at most n_a
 * cells along that axis (per class of the scanning level, its mean
 * radius standing for it). The gradient is the central difference of the
 * same T (relative step in->smooth for a discrete distribution, else
 * 1e-5).
 */
#include "hg_model.h"
#include "hg_snapshot.h"
#include "hgrid_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const hg_model_param hgrid_params[] = {HG_MODEL_PARAM_K,
                                              HG_MODEL_PARAM_C,
                                              HG_MODEL_PARAM_WHOLE};


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
        l->r_top = hi;
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
            l->w[k] = hgrid_binom[d][k] * ldexp(1.0, d - k) * c;
            c *= 2.0 / s[h];
        }
        l->rbar = l->q[0] > 0.0 ? l->q[1] / l->q[0] : 0.0;
        l->vol = 1.0;
    }
}

/* Level h's own-level share of T_cd and T_ca (eqs. 23-26: the own cell
 * and the half neighbourhood) into l->cd/.ca, and with grad its partial
 * derivatives and its terms of T into *total. Returns 0 for an empty
 * level (no share). */
static int own_level_terms(const hg_model_input *in, level *l, int h,
                           const hs_terms *hs, const meas_terms *ms, int grad,
                           double *total)
{
    const double *s = in->sizes;
    int d = in->sys->dim, meas = ms && ms->snap;
    double K = in->params[0];
    double nc = 0.5 * (pow(3.0, d) - 1.0), A = 0.5 + nc;
    double P = l->q[0];
    l->cd = l->ca = 0.0;
    if (meas) /* the cells as built */
        l->vol = hg_hgrid_meas_cell_volume(ms, s[h]);
    if (!(P > 0.0))
        return 0;
    l->cd = A * l->m * P;
    if (meas)
        l->cd *= hg_hgrid_meas_own_factor(ms, l, h, s[h]);
    l->ca = (1.0 + nc) * P;
    if (meas) {
        int small;
        double own = hg_hgrid_meas_own_cells(ms, s[h], &small);
        if (small)
            l->ca = own * P;
    }
    double G = 1.0;
    if (hs->on)
        G = hg_hgrid_hs_own(hs, d, l, h, s[h], A, grad, total);
    if (grad) {
        *total += A * l->m * P + K * (1.0 + nc) * P;
        l->dT_dm += G * A * P;
        l->dT_dq[0] += G * A * l->m + K * (1.0 + nc);
    }
    return 1;
}

/* The share of T_cd and T_ca of a level-h particle's search of the
 * non-empty level j (eqs. 23-26: B(j,h), the cells of level j in its box)
 * into lv[h].cd/.ca, and with grad the partial derivatives and the terms
 * of T into *total. */
static void cross_level_terms(const hg_model_input *in, level *lv, int h,
                              int j, const hs_terms *hs, const meas_terms *ms,
                              int grad, double *total)
{
    const double *s = in->sizes;
    int d = in->sys->dim, meas = ms && ms->snap;
    double K = in->params[0];
    level *l = &lv[h], *lj = &lv[j];
    double P = l->q[0];
    double B = 0.0, dB = 0.0;
    for (int k = 0; k <= d; k++) {
        B += lj->w[k] * l->q[k];
        dB += k * lj->w[k] * l->q[k];
    }
    double Gc = 1.0;
    if (hs->on)
        Gc = hg_hgrid_hs_cross(hs, d, lv, h, j, s, B, dB, grad, total);
    else if (meas)
        B = hg_hgrid_meas_cross(ms, l, lj, h, j, s[j]);
    else
        l->cd += lj->m * B;
    double box =
        meas ? hg_hgrid_meas_box_cells(ms, h, s[j], l->r_top) : -1.0;
    l->ca += box >= 0.0 ? P * box : B;
    if (!grad)
        return;
    *total += (lj->m + K) * B;
    for (int k = 0; k <= d; k++)
        l->dT_dq[k] += (Gc * lj->m + K) * lj->w[k];
    lj->dT_dm += Gc * B;
    lj->dT_ds -= (Gc * lj->m + K) * dB / in->sizes[j];
}

/* The per-level terms of T_cd and T_ca (eqs. 23-26) into lv[h].cd/.ca,
 * and, when grad != 0, the partial derivatives of T and T itself summed
 * term by term as sum [A m_h P_h + K (1 + n_c) P_h + (m_j + K) B(j,h)]
 * into *T. Returns the number of non-empty levels. */
static int level_terms(const hg_model_input *in, level *lv,
                       const hs_terms *hs, const meas_terms *ms, int grad,
                       double *T)
{
    int top_down = in->model->grid_algorithm == HG_TOP_DOWN;
    double total = 0.0;
    int L = in->L, nonempty = 0;
    for (int h = 0; h < L; h++) {
        if (!own_level_terms(in, &lv[h], h, hs, ms, grad, &total))
            continue;
        nonempty++;
        int j0 = top_down ? 0 : h + 1;
        int j1 = top_down ? h : L;
        for (int j = j0; j < j1; j++)
            if (lv[j].q[0] > 0.0) /* an empty level is not scanned */
                cross_level_terms(in, lv, h, j, hs, ms, grad, &total);
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
    double K = in->params[0], C = in->params[1];
    work_buf b;
    if ((st = buf_get(&b, L, e)))
        return st;
    if (out && !(out->per_level = calloc((size_t)L, sizeof *out->per_level))) {
        buf_free(&b);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    hs_terms hs;
    if ((st = hg_hgrid_hs_init(in, 0, &hs, e))) {
        if (out) {
            free(out->per_level);
            out->per_level = NULL;
        }
        buf_free(&b);
        return st;
    }
    fill_levels(in, b.lv, 0);
    meas_terms ms;
    if ((st = hg_hgrid_meas_init(in, b.lv, &ms, e))) {
        hg_hgrid_hs_free(&hs);
        if (out) {
            free(out->per_level);
            out->per_level = NULL;
        }
        buf_free(&b);
        return st;
    }
    int nonempty = level_terms(in, b.lv, &hs, &ms, 0, NULL);
    hg_hgrid_meas_free(&ms);
    hg_hgrid_hs_free(&hs);
    double tcd = 0.0, tca = 0.0, ttab = 0.0;
    double rmin = hg_psd_rmin(in->psd), rmax = hg_psd_rmax(in->psd);
    const double *s = in->sizes;
    for (int h = 0; h < L; h++) {
        const level *l = &b.lv[h];
        double tab = 1.0 / (l->dm_dq * l->vol);
        tcd += l->cd;
        tca += l->ca;
        ttab += tab;
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
        lc->particles_per_cell = l->m * l->vol;
        lc->T_cd = l->cd;
        lc->T_ca = l->ca;
        lc->T_tab = tab;
        lc->T = l->cd + K * l->ca + C * tab;
    }
    buf_free(&b);
    w->T_cd = tcd;
    w->T_ca = tca;
    w->T_tab = ttab;
    w->T = tcd + K * tca + C * ttab;
    if (out) {
        out->K = K;
        out->C = C;
        out->T_tab = ttab;
        out->levels = L;
        out->nonempty_levels = nonempty;
        out->T_cd = tcd;
        out->T_ca = tca;
        out->T = w->T;
    }
    return HG_OK;
}

/* T of the measured structure at sizes s (the objective's form). */
static int measured_T(const hg_model_input *in, const double *s, double *T,
                      hg_err *e)
{
    hg_model_input q = *in;
    q.sizes = s;
    work_buf b;
    int st;
    if ((st = buf_get(&b, q.L, e)))
        return st;
    fill_levels(&q, b.lv, 1);
    meas_terms ms;
    hs_terms none = {0};
    if ((st = hg_hgrid_meas_init(&q, b.lv, &ms, e))) {
        buf_free(&b);
        return st;
    }
    level_terms(&q, b.lv, &none, &ms, 0, NULL);
    hg_hgrid_meas_free(&ms);
    double tcd = 0.0, tca = 0.0, ttab = 0.0;
    for (int h = 0; h < q.L; h++) {
        tcd += b.lv[h].cd;
        tca += b.lv[h].ca;
        ttab += 1.0 / (b.lv[h].dm_dq * b.lv[h].vol);
    }
    buf_free(&b);
    *T = tcd + in->params[0] * tca + in->params[1] * ttab;
    return HG_OK;
}

/* Central differences of measured_T; a step never crosses a neighbour. */
static int measured_gradient(const hg_model_input *in, double *T,
                             double *dT_ds, hg_err *e)
{
    int L = in->L, st;
    if ((st = measured_T(in, in->sizes, T, e)) || !dT_ds)
        return st;
    double stack[64], *s = L <= 64 ? stack : malloc(sizeof *s * (size_t)L);
    if (!s)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    memcpy(s, in->sizes, sizeof *s * (size_t)L);
    double rel = in->smooth > 0.0 ? in->smooth : 1e-5;
    for (int h = 0; h < L - 1 && !st; h++) {
        double s0 = s[h], step = rel * s0;
        double up = fmin(s0 + step, s[h + 1]);
        double dn = h > 0 ? fmax(s0 - step, s[h - 1]) : s0 - step;
        double tp = 0.0, tm = 0.0;
        s[h] = up;
        st = measured_T(in, s, &tp, e);
        s[h] = dn;
        if (!st)
            st = measured_T(in, s, &tm, e);
        s[h] = s0;
        dT_ds[h] = !st && up > dn ? (tp - tm) / (up - dn) : 0.0;
    }
    dT_ds[L - 1] = 0.0;
    if (s != stack)
        free(s);
    return st;
}

static int gradient(const hg_model_input *in, double *T, double *dT_ds,
                    hg_err *e)
{
    int L = in->L, d = in->sys->dim, st;
    if ((st = check_algorithm(in->model, e)))
        return st;
    if (in->sys->structure == HG_STRUCTURE_MEASURED)
        return measured_gradient(in, T, dT_ds, e);
    work_buf b;
    if ((st = buf_get(&b, L, e)))
        return st;
    level *lv = b.lv;
    hs_terms hs;
    if ((st = hg_hgrid_hs_init(in, 1, &hs, e))) {
        buf_free(&b);
        return st;
    }
    fill_levels(in, lv, 1);
    level_terms(in, lv, &hs, NULL, 1, T);
    hg_hgrid_hs_free(&hs);
    const double C = in->params[1];
    for (int h = 0; h < L; h++) { /* the tables: C V_p / (nu s_h^d) */
        *T += C / lv[h].dm_dq;
        lv[h].dT_ds -= d * C / (lv[h].dm_dq * in->sizes[h]);
    }
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
    3,
    evaluate,
    gradient};

const hg_model hg_model_hgrid_bottom_up = {
    "hgrid-bottom-up",
    "hierarchical grid, Bottom-Up cross-level search (KOL 2014)",
    HG_BOTTOM_UP,
    0,
    hgrid_params,
    3,
    evaluate,
    gradient};
