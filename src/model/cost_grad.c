/* cost_grad.c - the HGrid work T (SPEC 3, KOL 2014 eqs. 23-27) together
 * with its analytic gradient with respect to the cell sizes.
 *
 * With Q_{h,k} = M_k(s_{h-1}/2, s_h/2), P_h = Q_{h,0},
 * m_h = c s_h^d P_h (c = nu / V_p, KOL 2014 eq. 11) and
 * B(j,h) = P_h b(j,h) = sum_k w_k (2/s_j)^k Q_{h,k}, w_k = C(d,k) 2^(d-k)
 * (KOL 2014 eq. 16), the work per particle is
 *   T = sum_h [ A m_h P_h + K (1 + n_c) P_h
 *               + sum_{j in J(h)} (m_j + K) B(j,h) ],    A = 1/2 + n_c,
 * the sums running over non-empty levels only. Its partial derivatives:
 *   dT/dm_j      = A P_j + sum_{h: j in J(h)} B(j,h)
 *   dT/dQ_{h,k}  = [k = 0] (A m_h + K (1 + n_c) + c s_h^d dT/dm_h)
 *                  + sum_{j in J(h)} (m_j + K) w_k (2/s_j)^k
 *   dT/ds_j|expl = d m_j / s_j dT/dm_j
 *                  - sum_{h: j in J(h)} (m_j + K) sum_k k w_k (2/s_j)^k
 *                    Q_{h,k} / s_j
 * and s_h moves the upper bound of level h and the lower bound of level
 * h+1: dQ_{h,k}/ds_h = -dQ_{h+1,k}/ds_h = (1/2) (s_h/2)^k f(s_h/2)
 * (dM_k(a,b)/db = b^k f(b)). */
#include "hg_opt.h"
#include "opt_internal.h"

#include <math.h>
#include <stdlib.h>

static const double binom[4][4] = {
    {1, 0, 0, 0}, {1, 1, 0, 0}, {1, 2, 1, 0}, {1, 3, 3, 1}};

int hg_cost_gradient(const hg_psd *psd, const hg_system *sys,
                     hg_algorithm alg, int L, const double *s, double *T,
                     double *grad, hg_err *e)
{
    return hg_cost_gradient_smoothed(psd, sys, alg, L, s, 0.0, NULL, T, grad,
                                     e);
}

int hg_cost_gradient_smoothed(const hg_psd *psd, const hg_system *sys,
                              hg_algorithm alg, int L, const double *s,
                              double smooth, const double *full, double *T,
                              double *grad, hg_err *e)
{
    int st;
    if ((st = hg_system_check(sys, e)) ||
        (st = hg_sizes_check(psd, L, s, 0, e)))
        return st;
    int d = sys->dim;
    double A = 0.5 + 0.5 * (pow(3.0, d) - 1.0);
    double C1 = 1.0 + 0.5 * (pow(3.0, d) - 1.0); /* 1 + n_c */
    double K = sys->K;
    double c = sys->nu / (full ? hg_unit_ball_volume(d) * full[d]
                               : hg_psd_mean_volume(psd, d));
    double rmax = hg_psd_rmax(psd);
    double w[4];
    for (int k = 0; k <= d; k++)
        w[k] = binom[d][k] * ldexp(1.0, d - k);

    /* per level: Q[4], m, sd = s^d, pw[k] = w_k (2/s)^k, dTdm, GQ[4], gs */
    enum { STRIDE = 16 };
    double stackbuf[64 * STRIDE];
    double *buf = stackbuf;
    if (L > 64) {
        buf = malloc(sizeof *buf * STRIDE * (size_t)L);
        if (!buf)
            return hg_fail(e, HG_ENOMEM, "out of memory");
    }
#define Q(h) (buf + STRIDE * (h))
#define M(h) buf[STRIDE * (h) + 4]
#define SD(h) buf[STRIDE * (h) + 5]
#define PW(h) (buf + STRIDE * (h) + 6)
#define DTDM(h) buf[STRIDE * (h) + 10]
#define GQ(h) (buf + STRIDE * (h) + 11)
#define GS(h) buf[STRIDE * (h) + 15]

    /* Level moments as differences of cumulative moments F_k(s_h/2) =
     * M_k(0, s_h/2): one moment evaluation per boundary instead of one per
     * level bound (the absolute error stays at rounding level). */
    double Fprev[4] = {0, 0, 0, 0}, Fcur[4];
    for (int h = 0; h < L; h++) {
        double hi = h == L - 1 ? fmax(0.5 * s[h], rmax) : 0.5 * s[h];
        double *q = Q(h), *pw = PW(h);
        for (int k = 0; k <= d; k++) {
            if (h > 0 && s[h] == s[h - 1])
                Fcur[k] = Fprev[k];
            else if (h == L - 1 && full) /* hi >= r_max */
                Fcur[k] = full[k];
            else
                Fcur[k] = hg_psd_moment(psd, k, 0.0, hi);
            q[k] = fmax(Fcur[k] - Fprev[k], 0.0);
            Fprev[k] = Fcur[k];
        }
        SD(h) = d == 2 ? s[h] * s[h] : s[h] * s[h] * s[h];
        M(h) = c * SD(h) * q[0];
        double r = 1.0;
        for (int k = 0; k <= d; k++) {
            pw[k] = w[k] * r;
            r *= 2.0 / s[h];
        }
        DTDM(h) = 0.0;
        GS(h) = 0.0;
        for (int k = 0; k < 4; k++)
            GQ(h)[k] = 0.0;
    }

    double total = 0.0;
    for (int h = 0; h < L; h++) {
        const double *q = Q(h);
        double P = q[0];
        if (!(P > 0.0))
            continue;
        total += A * M(h) * P + K * C1 * P;
        DTDM(h) += A * P;
        GQ(h)[0] += A * M(h) + K * C1;
        int j0 = alg == HG_TOP_DOWN ? 0 : h + 1;
        int j1 = alg == HG_TOP_DOWN ? h : L;
        for (int j = j0; j < j1; j++) {
            if (!(Q(j)[0] > 0.0))
                continue; /* empty level: not scanned */
            const double *pw = PW(j);
            double B = 0.0, dB = 0.0;
            for (int k = 0; k <= d; k++) {
                B += pw[k] * q[k];
                dB += k * pw[k] * q[k];
                GQ(h)[k] += (M(j) + K) * pw[k];
            }
            total += (M(j) + K) * B;
            DTDM(j) += B;
            GS(j) -= (M(j) + K) * dB / s[j];
        }
    }
    if (!isfinite(total)) {
        if (buf != stackbuf)
            free(buf);
        return hg_fail(e, HG_ENUMERIC, "cost model: work is not finite (%g)",
                       total);
    }
    if (grad) {
        int discrete = hg_psd_is_discrete(psd);
        for (int h = 0; h < L; h++) {
            GQ(h)[0] += c * SD(h) * DTDM(h);
            GS(h) += d * M(h) / s[h] * DTDM(h);
        }
        for (int h = 0; h < L - 1; h++) {
            double g = GS(h);
            double b = 0.5 * s[h];
            double f = 0.0;
            if (!discrete)
                f = hg_psd_pdf(psd, b);
            else if (smooth > 0.0) /* mass per length around b */
                f = (hg_psd_moment(psd, 0, b * (1.0 - smooth),
                                   b * (1.0 + smooth))) /
                    (2.0 * smooth * b);
            if (f > 0.0 && isfinite(f)) {
                double bk = 0.5 * f;
                for (int k = 0; k <= d; k++) {
                    g += bk * (GQ(h)[k] - GQ(h + 1)[k]);
                    bk *= b;
                }
            }
            grad[h] = g;
        }
        grad[L - 1] = 0.0;
    }
#undef Q
#undef M
#undef SD
#undef PW
#undef DTDM
#undef GQ
#undef GS
    if (buf != stackbuf)
        free(buf);
    if (T)
        *T = total;
    return HG_OK;
}
