/* hard_spheres.c - what changes in the HGrid cost model when the particles
 * do not overlap (structure "hard-spheres"; hard disks in 2D).
 *
 * The model of KOL 2014 counts, for a level-h particle, the level-j
 * particles in the scanned cells as (number density) x (scanned volume):
 * uniformly random (Poisson) centres. Without overlaps the expected count
 * is rho_j * integral W(u) g_jh(u) du over the scanned region W, with g_jh
 * the pair distribution of the mixture. Three effects, each from the
 * statistics of hard-sphere mixtures:
 *
 * 1. Crowding (scale separation). A level-h centre can only lie outside
 *    the particles much larger than the search region, so the level-h
 *    particles are denser than average in the space those leave free.
 *    With phi = volume fraction of the particles larger than level h
 *    (R > s_h / 2) and omega(u) = the part of it covering two points a
 *    distance u apart (the lens of two balls of radius R, Mayer overlap),
 *    the probability that both points are free is
 *        S(u) = (1 - phi) - delta (1 - delta),  delta = phi - omega(u)
 *    (exact at u = 0: 1 - phi, at u -> infinity: (1 - phi)^2, and to first
 *    order in the density: the second virial term of g), so the pair
 *    distribution at scales below the large particles' size is
 *        G(u) = S(u) / (1 - phi)^2.
 *    G is averaged over the search region of level h by averaging omega
 *    over a ball of the same volume (3^d s_h^d, the own cell and its
 *    neighbours): Gbar_h. The level-j particles found by any search are
 *    counted Gbar_j times as often as in the Poisson model.
 * 2. Excluded centres in cross-level searches. A level-j centre cannot lie
 *    within r + r' of the searching particle's centre; that ball lies in
 *    the scanned box (r' <= s_j/2), so each cross-level count loses
 *    rho_j E[V_d (r + r')^d] = (nu / V_p) V_d sum_k C(d,k) Q_{j,d-k} Q_{h,k}
 *    (per particle of the system; Q_{h,k} the partial moments of level h).
 * 3. The own hole in within-level searches. Around a particle, the other
 *    particles of a dense fluid are missing by the compressibility sum
 *    rule (Kirkwood-Buff): rho * integral (g - 1) = S(0) - 1, S(0) the
 *    structure factor at k = 0: the hole holds 1 - S(0) particles of the
 *    local density, i.e. a volume v = V_p (1 - S(0)) / nu. Applied to each
 *    level with its own mean volume, the within-level count of a level-h
 *    particle loses (1/2) Gbar_h rho_h V_d E_h[r^d] (1 - S(0)) / nu.
 *    S(0) = (1-nu)^4 / (1 + 4nu + 4nu^2 - 4nu^3 + nu^4) for hard spheres
 *    (Carnahan & Starling 1969 equation of state), (1-nu)^3 /
 *    (1 + nu + 3nu^2/8 - nu^3/8) for hard disks (Henderson 1975).
 *
 * Monodisperse (one level, nothing larger: Gbar = 1) the result is closed:
 *    T_cd = (1/2 + n_c) m - (1 - S(0)) / 2.
 * The correction of T = T_cd + K T_ca vanishes with nu (to first order);
 * the relative correction of T_cd does not: hard cores cannot overlap at
 * any density, and V_d (2r)^d / (3 s)^d of the within-level volume stays
 * empty however dilute the system.
 * Where it stops holding: the fluid range of the hard-sphere mixture. The
 * compressibility and the crowding closure assume a disordered packing;
 * jammed or crystalline packings (3D nu > ~0.64 monodisperse, 2D
 * nu > ~0.72-0.84) and packings with strong order (walls, layering) are
 * outside it.
 */
#include "hg_model.h"
#include "model_internal.h"

#include <math.h>

double hg_hs_s0(int dim, double nu)
{
    double a = 1.0 - nu;
    if (dim == 2)
        return a * a * a / (1.0 + nu + 0.375 * nu * nu - 0.125 * nu * nu * nu);
    return a * a * a * a /
           (1.0 + 4.0 * nu + 4.0 * nu * nu - 4.0 * nu * nu * nu +
            nu * nu * nu * nu);
}

double hg_hs_kappa(int dim, double nu)
{
    double x = (1.0 - hg_hs_s0(dim, nu)) / nu;
    return (dim == 2 ? sqrt(x) : cbrt(x)) - 1.0;
}

/* Volume (area) of the intersection of balls (disks) of radii a and b at
 * the distance u. */
static double lens_volume(int dim, double a, double b, double u)
{
    double lo = fabs(a - b), c = a + b;
    if (u >= c)
        return 0.0;
    if (u <= lo) {
        double m = fmin(a, b);
        return dim == 3 ? 4.0 / 3.0 * M_PI * m * m * m : M_PI * m * m;
    }
    if (dim == 3)
        return M_PI * (c - u) * (c - u) *
               (u * u + 2.0 * u * c - 3.0 * (a - b) * (a - b)) / (12.0 * u);
    double ca = (u * u + a * a - b * b) / (2.0 * u * a);
    double cb = (u * u + b * b - a * a) / (2.0 * u * b);
    double k = (-u + c) * (u + a - b) * (u - a + b) * (u + c);
    return a * a * acos(fmax(-1.0, fmin(1.0, ca))) +
           b * b * acos(fmax(-1.0, fmin(1.0, cb))) - 0.5 * sqrt(fmax(0.0, k));
}

/* 3D: antiderivative in v of (v + rp)^2 V_intersect(R, R, v) / (pi/12)
 * on 0 <= v <= 2R, where V_intersect = (pi/12)(16R^3 - 12R^2 v + v^3). */
static double lens_prim(double R, double rp, double v)
{
    double R2 = R * R, R3 = R2 * R, v2 = v * v, v3 = v2 * v;
    return 16.0 * R3 * v3 / 3.0 - 3.0 * R2 * v2 * v2 + v3 * v3 / 6.0 +
           2.0 * rp * (8.0 * R3 * v2 - 4.0 * R2 * v3 + v2 * v3 / 5.0) +
           rp * rp * (16.0 * R3 * v - 6.0 * R2 * v2 + 0.25 * v2 * v2);
}

/* integral over the shell u1 <= u <= u2 around a particle of radius rp of
 * V_intersect(R, R, u - rp): the chance that one matrix particle of radius
 * R covers both the point at u and the nearest point of the particle's
 * surface (u - rp away), rp <= u1 <= u2. */
static double shell_lens(int dim, double R, double rp, double u1, double u2)
{
    double v1 = u1 - rp, v2 = fmin(u2 - rp, 2.0 * R);
    if (!(v2 > v1))
        return 0.0;
    if (dim == 3)
        return 4.0 * M_PI * M_PI / 12.0 *
               (lens_prim(R, rp, v2) - lens_prim(R, rp, v1));
    /* 2D: Gauss-Legendre, 8 nodes */
    static const double x[4] = {0.1834346424956498, 0.5255324099163290,
                                0.7966664774136267, 0.9602898564975363};
    static const double w[4] = {0.3626837833783620, 0.3137066458778873,
                                0.2223810344533745, 0.1012285362903763};
    double mid = 0.5 * (v1 + v2), half = 0.5 * (v2 - v1), acc = 0.0;
    for (int i = 0; i < 4; i++)
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            double v = mid + sgn * half * x[i];
            acc += w[i] * (v + rp) * lens_volume(2, R, R, v);
        }
    return 2.0 * M_PI * half * acc;
}

void hg_hs_matrix_build(const hg_psd *psd, int dim, double nu, double Vp,
                        double s, hg_hs_matrix *mx)
{
    double Rc = 0.5 * s, rmax = hg_psd_rmax(psd);
    double Vd = hg_unit_ball_volume(dim), c = nu / Vp;
    mx->dim = dim;
    mx->phi = 0.0;
    mx->bins = 0;
    if (!(Rc < rmax))
        return;
    double ratio = pow(rmax / Rc, 1.0 / HG_HS_BINS), a = Rc;
    for (int i = 0; i < HG_HS_BINS; i++) {
        double b = i == HG_HS_BINS - 1 ? rmax : a * ratio;
        double p0 = hg_psd_moment(psd, 0, a, b);
        if (p0 > 0.0) {
            double R = hg_psd_moment(psd, 1, a, b) / p0;
            mx->R[mx->bins] = R;
            mx->n[mx->bins] = c * p0;
            mx->phi += c * p0 * Vd * pow(R, dim);
            mx->bins++;
        }
        a = b;
    }
}

double hg_hs_crowding(const hg_hs_matrix *mx, double rp, double r_in,
                      double vol)
{
    double phi = mx->phi;
    if (mx->bins == 0 || !(phi < 1.0))
        return 1.0; /* nothing larger, or outside the fluid range */
    int d = mx->dim;
    double Vd = hg_unit_ball_volume(d);
    double Rb = d == 3 ? cbrt(vol / Vd) : sqrt(vol / Vd);
    if (r_in < rp)
        r_in = rp;
    double shell = vol - Vd * pow(r_in, d);
    if (!(shell > 0.0))
        return 1.0;
    double om = 0.0;
    for (int i = 0; i < mx->bins; i++)
        om += mx->n[i] * shell_lens(d, mx->R[i], rp, r_in, Rb);
    om /= shell;
    double delta = phi - om;
    double S = (1.0 - phi) - delta * (1.0 - delta);
    return S / ((1.0 - phi) * (1.0 - phi));
}
