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
 * in src/model/hard_spheres.c). With c_v = nu V_d / V_p, kappa the hole
 * parameter, H(h,h) = sum_k C(d,k) kappa^(d-k) Q_{h,d-k} Q_{h,k} and G
 * the crowding factors:
 *   within: G_hh [A m_h P_h - (1/2) c_v H(h,h)]
 *   cross:  G_jh [m_j B(j,h) - n sum_ab K_ab Q_{h,a} Q_{j,b}]
 * with n = nu / V_p, b = max(h, j) the coarser level of the pair and K the
 * Kirkwood-Buff kernel of the fluid up to level b (hg_hs_matrix.K of
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
 * Structure measured (a particle snapshot, hg_snapshot.h): every pair-check
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
 * radius standing for it). The gradient is the central difference of the same T (relative
 * step in->smooth for a discrete distribution, else 1e-5).
 */
#include "hg_model.h"
#include "hg_snapshot.h"
#include "model_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const hg_model_param hgrid_params[] = {HG_MODEL_PARAM_K,
                                              HG_MODEL_PARAM_C,
                                              HG_MODEL_PARAM_WHOLE};

/* Per-level terms. */
typedef struct level {
    double q[4];   /* Q_{h,k}, k = 0..d */
    double m;      /* m_h */
    double dm_dq;  /* dm_h / dQ_{h,0} = nu s_h^d / V_p (1 / T_tab's term) */
    double w[4];   /* w_k (2/s_h)^k: the weights of eq. 16 with s_j = s_h */
    double cd, ca; /* this level's share of T_cd and T_ca */
    double dT_dm, dT_dq[4], dT_ds; /* gradient accumulators */
    double rbar;   /* mean radius Q_{h,1} / Q_{h,0} */
    double vol;    /* the built cell's volume over s_h^d (1 unless the
                      grid stretches cells to a periodic edge) */
    double r_top;  /* the level's largest radius bound */
} level;

/* Measured terms (structure measured): each level's class weights. */
typedef struct meas_terms {
    const hg_snapshot *snap;
    int nc;
    double nu, Vp;
    double *w; /* w[h * nc + c]: share of level h's particles in class c */
    double *rc; /* rc[h * nc + c]: mean radius of class c on level h */
    int dim;
    double plen[3]; /* periodic edge per axis, 0 when not periodic */
    int whole;      /* the grid stretches its cells to whole cells along a
                       periodic edge (the bundled grid, LAMMPS' bins) */
} meas_terms;

/* Hard-sphere terms (hard_spheres.c); on = 0 for the Poisson structure. */
typedef struct hs_terms {
    int on;
    hg_hs_consts c;          /* kappa, its powers, c_v, n */
    hg_hs_matrix *mx;        /* L matrices at s_h ... */
    hg_hs_matrix *mxp, *mxm; /* ... and at s_h (1 +- HS_EPS) (gradient) */
} hs_terms;

#define HS_EPS 1e-4

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
            l->w[k] = binom[d][k] * ldexp(1.0, d - k) * c;
            c *= 2.0 / s[h];
        }
        l->rbar = l->q[0] > 0.0 ? l->q[1] / l->q[0] : 0.0;
        l->vol = 1.0;
    }
}

static void hs_free(hs_terms *hs)
{
    free(hs->mx);
    memset(hs, 0, sizeof *hs);
}

/* Set up the hard-sphere terms (nothing for the Poisson structure);
 * grad: also the matrices for the derivative in s. */
static int hs_init(const hg_model_input *in, int grad, hs_terms *hs,
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
        a->dT_dq[i] += c * binom[d][i] * hs->c.kp[i] * b->q[d - i];
        b->dT_dq[i] += c * binom[d][i] * hs->c.kp[d - i] * a->q[d - i];
    }
}

/* Kirkwood-Buff hole sum_ab K_ab Q_{a,a} Q_{b,b} of the particles of
 * level b around those of level a (hard_spheres.c, item 3). */
static double kb_hole(int d, const hg_hs_matrix *mx, const double *qa,
                      const double *qb)
{
    double acc = 0.0;
    for (int a = 0; a <= d; a++)
        for (int b = 0; b <= d; b++)
            acc += mx->K[a][b] * qa[a] * qb[b];
    return acc;
}

/* dT/dQ of c * kb_hole(a, b) into the accumulators of a and b. */
static void kb_hole_grad(int d, const hg_hs_matrix *mx, double c, level *la,
                         level *lb)
{
    for (int a = 0; a <= d; a++)
        for (int b = 0; b <= d; b++) {
            la->dT_dq[a] += c * mx->K[a][b] * lb->q[b];
            lb->dT_dq[b] += c * mx->K[a][b] * la->q[a];
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

static void meas_free(meas_terms *ms)
{
    free(ms->w);
    ms->w = ms->rc = NULL;
    ms->snap = NULL;
}

/* The class weights of the levels (after fill_levels); nothing unless
 * the structure is measured. */
static int meas_init(const hg_model_input *in, const level *lv,
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
static double small_own_cells(const meas_terms *ms, double s, int *small)
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
static double clipped_box_cells(const meas_terms *ms, int h, double s,
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

/* c * d(rbar of level l)/dQ into its accumulators. */
static void rbar_grad(level *l, double c)
{
    l->dT_dq[1] += c / l->q[0];
    l->dT_dq[0] -= c * l->q[1] / (l->q[0] * l->q[0]);
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
    const double *s = in->sizes;
    double total = 0.0;
    int L = in->L, d = in->sys->dim, nonempty = 0;
    double K = in->params[0];
    double nc = 0.5 * (pow(3.0, d) - 1.0), A = 0.5 + nc;
    for (int h = 0; h < L; h++) {
        level *l = &lv[h];
        double P = l->q[0], eh[3];
        l->cd = l->ca = 0.0;
        if (ms && ms->snap) /* the cells as built */
            l->vol = built_cell(ms, s[h], eh);
        if (!(P > 0.0))
            continue;
        nonempty++;
        l->cd = A * l->m * P;
        if (ms && ms->snap) {
            /* cells as built: their volume, the window at the mean edge */
            double vh = l->vol;
            l->cd *= vh * meas_factor(ms, 3.0 * s[h] * pow(vh, 1.0 / d), h,
                                      h);
        }
        l->ca = (1.0 + nc) * P;
        if (ms && ms->snap) {
            int small;
            double own = small_own_cells(ms, s[h], &small);
            if (small)
                l->ca = own * P;
        }
        double G = 1.0, g[4];
        if (hs->on) {
            double r_in = (1.0 + hs->c.kap) * l->rbar;
            double vol = pow(3.0 * s[h], d);
            double br = l->cd - 0.5 * hs->c.cv * hg_hs_hole(d, &hs->c, l->q, l->q);
            G = hs_crowd(hs, h, s[h], 0.0, r_in, vol, grad ? g : NULL);
            l->cd = G * br;
            if (grad) {
                hs_hole_grad(d, hs, -0.5 * G * hs->c.cv, l, l);
                l->dT_ds += br * (g[0] + g[3] * d * vol / s[h]);
                rbar_grad(l, br * g[2] * (1.0 + hs->c.kap));
                total += G * br - A * l->m * P; /* A m P added below */
            }
        }
        if (grad) {
            total += A * l->m * P + K * (1.0 + nc) * P;
            l->dT_dm += G * A * P;
            l->dT_dq[0] += G * A * l->m + K * (1.0 + nc);
        }
        int j0 = top_down ? 0 : h + 1;
        int j1 = top_down ? h : L;
        for (int j = j0; j < j1; j++) {
            level *lj = &lv[j];
            if (!(lj->q[0] > 0.0))
                continue; /* empty level: not scanned */
            double B = 0.0, dB = 0.0;
            for (int k = 0; k <= d; k++) {
                B += lj->w[k] * l->q[k];
                dB += k * lj->w[k] * l->q[k];
            }
            double Gc = 1.0;
            if (hs->on) {
                /* the pair in the fluid of the particles up to the coarser
                 * level b of the two, crowded by the matrix beyond it:
                 * the same statistics whichever of the two searches */
                int b = j > h ? j : h;
                level *big = &lv[b], *small = j > h ? l : lj;
                double rp = h > j ? l->rbar : 0.0;
                double r_in = big->rbar + hs->c.kap * small->rbar;
                double sd = pow(s[j], d), vol = B / P * sd;
                double br =
                    lj->m * B - hs->c.n * kb_hole(d, &hs->mx[b], l->q, lj->q);
                Gc = hs_crowd(hs, b, s[b], rp, r_in, vol, grad ? g : NULL);
                l->cd += Gc * br;
                if (grad) {
                    total += Gc * br - lj->m * B; /* m_j B added below */
                    kb_hole_grad(d, &hs->mx[b], -Gc * hs->c.n, l, lj);
                    big->dT_ds -= Gc * hs->c.n *
                                  (kb_hole(d, &hs->mxp[b], l->q, lj->q) -
                                   kb_hole(d, &hs->mxm[b], l->q, lj->q)) /
                                  (2.0 * HS_EPS * s[b]);
                    big->dT_ds += br * g[0];
                    /* vol = B sd / P: through s_j, Q_{h,k}, P_h */
                    lj->dT_ds += br * g[3] * (d * vol / s[j] -
                                              sd / P * dB / s[j]);
                    for (int k = 0; k <= d; k++)
                        l->dT_dq[k] += br * g[3] * sd / P * lj->w[k];
                    l->dT_dq[0] -= br * g[3] * vol / P;
                    if (rp > 0.0)
                        rbar_grad(l, br * g[1]);
                    rbar_grad(big, br * g[2]);
                    rbar_grad(small, br * g[2] * hs->c.kap);
                }
            } else if (ms && ms->snap) {
                /* cells as built: m_j over their volume, B over their
                 * edges, the window at its mean width */
                double ej[3], wj[4], vj = built_cell(ms, s[j], ej), Bs = 0.0;
                box_weights(d, ej, wj);
                for (int k = 0; k <= d; k++)
                    Bs += wj[k] * l->q[k];
                double width = 1.0;
                for (int a = 0; a < d; a++)
                    width *= 2.0 * l->rbar + 2.0 * ej[a];
                l->cd += lj->m * vj * Bs *
                         meas_factor(ms, pow(width, 1.0 / d), h, j);
                B = Bs;
            } else {
                l->cd += lj->m * B;
            }
            double box = ms && ms->snap
                             ? clipped_box_cells(ms, h, s[j], l->r_top)
                             : -1.0;
            l->ca += box >= 0.0 ? P * box : B;
            if (!grad)
                continue;
            total += (lj->m + K) * B;
            for (int k = 0; k <= d; k++)
                l->dT_dq[k] += (Gc * lj->m + K) * lj->w[k];
            lj->dT_dm += Gc * B;
            lj->dT_ds -= (Gc * lj->m + K) * dB / in->sizes[j];
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
    double K = in->params[0], C = in->params[1];
    work_buf b;
    if ((st = buf_get(&b, L, e)))
        return st;
    if (out && !(out->per_level = calloc((size_t)L, sizeof *out->per_level))) {
        buf_free(&b);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    hs_terms hs;
    if ((st = hs_init(in, 0, &hs, e))) {
        if (out) {
            free(out->per_level);
            out->per_level = NULL;
        }
        buf_free(&b);
        return st;
    }
    fill_levels(in, b.lv, 0);
    meas_terms ms;
    if ((st = meas_init(in, b.lv, &ms, e))) {
        hs_free(&hs);
        if (out) {
            free(out->per_level);
            out->per_level = NULL;
        }
        buf_free(&b);
        return st;
    }
    int nonempty = level_terms(in, b.lv, &hs, &ms, 0, NULL);
    meas_free(&ms);
    hs_free(&hs);
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
    if ((st = meas_init(&q, b.lv, &ms, e))) {
        buf_free(&b);
        return st;
    }
    level_terms(&q, b.lv, &none, &ms, 0, NULL);
    meas_free(&ms);
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
    if ((st = hs_init(in, 1, &hs, e))) {
        buf_free(&b);
        return st;
    }
    fill_levels(in, lv, 1);
    level_terms(in, lv, &hs, NULL, 1, T);
    hs_free(&hs);
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
