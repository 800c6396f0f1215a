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

/* integral_0^y t acos t dt and integral_0^y t^2 sqrt(1 - t^2) dt, y <= 1 */
static double int_t_acos(double y)
{
    double q = sqrt(fmax(0.0, 1.0 - y * y));
    return 0.5 * y * y * acos(y) + 0.25 * (asin(y) - y * q);
}

static double int_t2_sqrt(double y)
{
    double q = sqrt(fmax(0.0, 1.0 - y * y));
    return 0.125 * (asin(y) - y * (1.0 - 2.0 * y * y) * q);
}

/* Mean over a ball (disk) of radius RK of the lens fraction
 * V_intersect(a, a, u) / V(a) of two balls of radius a at distance u. */
double hg_hs_lens_mean(int dim, double a, double RK)
{
    if (!(a > 0.0))
        return 0.0;
    double X = fmin(RK, 2.0 * a);
    if (dim == 3) {
        /* lens fraction 1 - 3u/(4a) + u^3/(16 a^3) for u < 2a */
        double X3 = X * X * X;
        double v = X3 / 3.0 - 3.0 * X3 * X / (16.0 * a) +
                   X3 * X3 / (96.0 * a * a * a);
        return 3.0 * v / (RK * RK * RK);
    }
    /* 2D: (2/pi) (acos t - t sqrt(1 - t^2)), t = u / (2a) */
    double Y = X / (2.0 * a);
    double v = 4.0 * a * a * (2.0 / M_PI) * (int_t_acos(Y) - int_t2_sqrt(Y));
    return 2.0 * v / (RK * RK);
}

enum { HS_BINS = 24 };

double hg_hs_crowding(const hg_psd *psd, int dim, double nu, double Vp,
                      double s)
{
    double Rc = 0.5 * s, rmax = hg_psd_rmax(psd);
    if (!(Rc < rmax))
        return 1.0;
    double Vd = hg_unit_ball_volume(dim);
    double RK = s * (dim == 3 ? 3.0 * cbrt(0.75 / M_PI) : 3.0 / sqrt(M_PI));
    double c = nu / Vp, phi = 0.0, om = 0.0;
    double ratio = pow(rmax / Rc, 1.0 / HS_BINS), a = Rc;
    for (int i = 0; i < HS_BINS; i++) {
        double b = i == HS_BINS - 1 ? rmax : a * ratio;
        double p0 = hg_psd_moment(psd, 0, a, b);
        if (p0 > 0.0) {
            double R = hg_psd_moment(psd, 1, a, b) / p0;
            double v = Vd * pow(R, dim);
            phi += p0 * v;
            om += p0 * v * hg_hs_lens_mean(dim, R, RK);
        }
        a = b;
    }
    phi *= c;
    om *= c;
    if (!(phi < 1.0))
        return 1.0; /* outside the fluid range: no crowding information */
    double delta = phi - om;
    double S = (1.0 - phi) - delta * (1.0 - delta);
    return S / ((1.0 - phi) * (1.0 - phi));
}
