/* hard_spheres.c - the statistics of non-overlapping particles (structure
 * "hard-spheres"; hard disks in 2D) used by the HGrid models
 * (models/hgrid.c; derivation in models/README.md).
 *
 * The KOL 2014 model counts the level-j particles a search finds as
 * (number density) x (scanned volume), i.e. uniformly random centres.
 * Without overlaps the count is rho_j * integral W(u) g(u) du, and three
 * effects change it:
 *
 * 1. Crowding. A centre cannot lie inside a larger particle, so the
 *    particles of a level are denser than average in the space the larger
 *    ones (R > s_j/2: the matrix, volume fraction phi) leave free. With
 *    omega(u) the part of the matrix covering two points a distance u apart
 *    (sum over the matrix of the lens of two balls of radius R, i.e. the
 *    Mayer overlap), the chance that both points are free is taken as
 *        S(u) = (1 - phi) - delta (1 - delta),  delta = phi - omega(u)
 *    (exact at u = 0 and u -> infinity, and to first order in the density)
 *    and the pair distribution is G(u) = S(u) / (1 - phi)^2, averaged over
 *    the search region outside the hole (hg_hs_crowding).
 * 2. Excluded centres and 3. the own hole: around a particle of a dense
 *    fluid 1 - S(0) particles are missing (compressibility sum rule,
 *    Kirkwood & Buff 1951), S(0) the structure factor at k = 0:
 *    S(0) = (1-nu)^4 / (1 + 4nu + 4nu^2 - 4nu^3 + nu^4) for hard spheres
 *    (Carnahan & Starling 1969 equation of state),
 *    S(0) = (1-nu)^3 / (1 + nu + 3nu^2/8 - nu^3/8) for hard disks
 *    (Henderson 1975). For equal spheres that is a ball of radius
 *    r (1 + kappa), (1 + kappa)^d = (1 - S(0)) / nu (hg_hs_kappa); for
 *    unequal ones the model uses r_big + kappa r_small.
 *
 * Valid for disordered, fluid-like packings; not for jammed or ordered
 * ones (see models/README.md). */
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
