/* hard_spheres.c - the statistics of non-overlapping particles (structure
 * "hard-spheres"; hard disks in 2D) used by the cost models (the HGrid's
 * in models/hgrid_hard_spheres.c, models/bin.c, models/lammps.c;
 * derivation in docs/model.md).
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
 * 2. The own hole within a level: around a particle of a dense
 *    fluid 1 - S(0) particles are missing (compressibility sum rule,
 *    Kirkwood & Buff 1951), S(0) the structure factor at k = 0:
 *    S(0) = (1-nu)^4 / (1 + 4nu + 4nu^2 - 4nu^3 + nu^4) for hard spheres
 *    (Carnahan & Starling 1969 equation of state),
 *    S(0) = (1-nu)^3 / (1 + nu + 3nu^2/8 - nu^3/8) for hard disks
 *    (Henderson 1975). For equal spheres that is a ball of radius
 *    r (1 + kappa), (1 + kappa)^d = (1 - S(0)) / nu (hg_hs_kappa); within
 *    a level the model uses r + kappa r'.
 *
 * 3. Pairs of two levels, whichever searches: the net deficit of the
 *    particles of one level around one of the other, including the pile-up
 *    of the small ones at the large one's surface (the contact layer) and
 *    the crowding by the particles of sizes in between, is the
 *    Kirkwood-Buff integral G(r, R) of the pair (Kirkwood & Buff 1951) in
 *    the fluid of the particles up to the coarser level of the two, not a
 *    core. (A core r_big + kappa r_small with the crowding of all larger
 *    particles left 2D Top-Down 5 % low at nu = 0.7: the large disks'
 *    surfaces hold more small ones than the core compensates.)
 *    For a mixture the k = 0 Ornstein-Zernike equation
 *    h = c + c diag(rho) h with -c_ij = d(beta mu_i^ex)/d rho_j gives it
 *    from the chemical potentials. Those of scaled-particle theory are
 *    polynomials in the radius, beta mu^ex(r) = sum_a c_a(xi) r^a,
 *    xi_k = sum rho r^k: in 3D (Lebowitz, Helfand & Praestgaard 1965)
 *      c_0 = -ln(1-eta), c_1 = 4 pi xi_2/(1-eta),
 *      c_2 = 4 pi xi_1/(1-eta) + 8 pi^2 xi_2^2/(1-eta)^2, c_3 = 4 pi P/3,
 *      P = xi_0/(1-eta) + 4 pi xi_1 xi_2/(1-eta)^2
 *          + 16 pi^2 xi_2^3 / (3 (1-eta)^3),   eta = 4 pi xi_3 / 3;
 *    in 2D (Helfand, Frisch & Lebowitz 1961)
 *      c_0 = -ln(1-eta), c_1 = 2 pi xi_1/(1-eta), c_2 = pi P,
 *      P = xi_0/(1-eta) + pi xi_1^2/(1-eta)^2,   eta = pi xi_2.
 *    With u(r) = (1, r, .., r^d), J_ab = dc_a/dxi_b and Xi_ab = xi_(a+b)
 *    the OZ solution is G(r, R) = -u(r)' kb u(R), kb = (I + J Xi)^-1 J
 *    (a rank d+1 kernel: no discretisation). The fluid is that of the
 *    particles up to the coarser level of the pair, at the densities of
 *    the space the larger matrix leaves (rho / (1 - phi)); its crowding
 *    stays in Gbar (item 1). Where the scanned layer is thinner than
 *    the range of the correlations (a coarse particle scanning fine cells
 *    holds the first shell, not the whole oscillating tail) the integral
 *    is only approximately the count in the layer.
 *
 * Valid for disordered, fluid-like packings; not for jammed or ordered
 * ones (see docs/model.md). */
#include "hg_model.h"
#include "model_internal.h"

#include <math.h>
#include <string.h>

double hg_hs_s0(int dim, double nu)
{
    double a = 1.0 - nu;
    if (dim == 2)
        return a * a * a / (1.0 + nu + 0.375 * nu * nu - 0.125 * nu * nu * nu);
    return a * a * a * a /
           (1.0 + 4.0 * nu + 4.0 * nu * nu - 4.0 * nu * nu * nu +
            nu * nu * nu * nu);
}

double hg_structure_fluid_limit(int dim)
{
    return dim == 2 ? 0.75 : 0.64;
}

double hg_hs_kappa(int dim, double nu)
{
    double x = (1.0 - hg_hs_s0(dim, nu)) / nu;
    return (dim == 2 ? sqrt(x) : cbrt(x)) - 1.0;
}

void hg_hs_consts_init(int dim, double nu, double Vp, hg_hs_consts *c)
{
    c->kap = hg_hs_kappa(dim, nu);
    c->cv = nu * hg_unit_ball_volume(dim) / Vp;
    c->n = nu / Vp;
    c->kp[0] = 1.0;
    for (int k = 1; k < 4; k++)
        c->kp[k] = c->kp[k - 1] * c->kap;
}

double hg_hs_hole(int dim, const hg_hs_consts *c, const double *qa,
                  const double *qb)
{
    static const double binom[4][4] = {
        {1, 0, 0, 0}, {1, 1, 0, 0}, {1, 2, 1, 0}, {1, 3, 3, 1}};
    double acc = 0.0;
    for (int k = 0; k <= dim; k++)
        acc += binom[dim][k] * c->kp[dim - k] * qa[dim - k] * qb[k];
    return acc;
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

/* 2D, 0 <= t <= 1: F0 = integral (acos t - t sqrt(1 - t^2)) dt and
 * F1 = integral t (acos t - t sqrt(1 - t^2)) dt. */
static double lens2_f0(double t)
{
    double q = sqrt(fmax(0.0, 1.0 - t * t));
    return t * acos(t) - q + q * q * q / 3.0;
}

static double lens2_f1(double t)
{
    double q = sqrt(fmax(0.0, 1.0 - t * t)), as = asin(t);
    return 0.5 * t * t * acos(t) + 0.25 * (as - t * q) -
           0.125 * (as - t * (1.0 - 2.0 * t * t) * q);
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
    /* 2D: lens area A(v) = 2R^2 (acos t - t sqrt(1 - t^2)), t = v/(2R);
     * integral (v + rp) A dv = 8R^4 F1(t) + 4R^3 rp F0(t) */
    double t1 = v1 / (2.0 * R), t2 = v2 / (2.0 * R), R3 = R * R * R;
    return 2.0 * M_PI *
           (8.0 * R3 * R * (lens2_f1(t2) - lens2_f1(t1)) +
            4.0 * R3 * rp * (lens2_f0(t2) - lens2_f0(t1)));
}

/* Scaled-particle theory, beta mu^ex(r) = sum_a c_a r^a (see above):
 * J[a][b] = dc_a/dxi_b, written out (symmetric, as the second derivatives
 * of the free energy must be). */
static void spt_jacobian(int d, const double *xi, double J[4][4])
{
    memset(J, 0, 16 * sizeof J[0][0]);
    if (d == 2) {
        double a = 1.0 - M_PI * xi[2], pi = M_PI;
        J[0][2] = pi / a;
        J[1][1] = 2.0 * pi / a;
        J[1][2] = 2.0 * pi * pi * xi[1] / (a * a);
        /* c_2 = pi P, P = xi_0/a + pi xi_1^2/a^2 */
        J[2][0] = pi / a;
        J[2][1] = pi * 2.0 * pi * xi[1] / (a * a);
        J[2][2] = pi * (pi * xi[0] / (a * a) +
                        2.0 * pi * pi * xi[1] * xi[1] / (a * a * a));
        return;
    }
    double v = 4.0 * M_PI / 3.0, a = 1.0 - v * xi[3], a2 = a * a,
           a3 = a2 * a, p2 = M_PI * M_PI;
    J[0][3] = v / a;
    J[1][2] = 4.0 * M_PI / a;
    J[1][3] = 4.0 * M_PI * xi[2] * v / a2;
    J[2][1] = 4.0 * M_PI / a;
    J[2][2] = 16.0 * p2 * xi[2] / a2;
    J[2][3] = 4.0 * M_PI * xi[1] * v / a2 + 16.0 * p2 * xi[2] * xi[2] * v / a3;
    /* c_3 = v P, P = xi_0/a + 4 pi xi_1 xi_2/a^2 + 16 pi^2 xi_2^3/(3 a^3) */
    J[3][0] = v / a;
    J[3][1] = v * 4.0 * M_PI * xi[2] / a2;
    J[3][2] = v * (4.0 * M_PI * xi[1] / a2 + 16.0 * p2 * xi[2] * xi[2] / a3);
    J[3][3] = v * (xi[0] * v / a2 + 8.0 * M_PI * xi[1] * xi[2] * v / a3 +
                   16.0 * p2 * xi[2] * xi[2] * xi[2] * v / (a3 * a));
}

void hg_hs_kb_matrix(int d, const double *xi, double kb[4][4])
{
    int n = d + 1;
    double J[4][4], M[4][8];
    spt_jacobian(d, xi, J);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            double acc = a == b;
            for (int k = 0; k < n; k++)
                acc += J[a][k] * xi[k + b];
            M[a][b] = acc;
            M[a][n + b] = J[a][b];
        }
    /* Gauss-Jordan with partial pivoting on [I + J Xi | J] */
    for (int col = 0; col < n; col++) {
        int piv = col;
        for (int r = col + 1; r < n; r++)
            if (fabs(M[r][col]) > fabs(M[piv][col]))
                piv = r;
        for (int k = 0; k < 2 * n; k++) {
            double t = M[col][k];
            M[col][k] = M[piv][k];
            M[piv][k] = t;
        }
        double inv = 1.0 / M[col][col];
        for (int k = 0; k < 2 * n; k++)
            M[col][k] *= inv;
        for (int r = 0; r < n; r++) {
            if (r == col)
                continue;
            double f = M[r][col];
            for (int k = 0; k < 2 * n; k++)
                M[r][k] -= f * M[col][k];
        }
    }
    memset(kb, 0, 16 * sizeof kb[0][0]);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            kb[a][b] = M[a][n + b];
}

/* M_k(0, b) for k = 0..6: hg_psd_moment up to k = 4; above, by parts
 * from M_4: M_k(0,b) = b^(k-4) M_4(0,b) - (k-4) int_0^b r^(k-5) M_4(0,r)
 * dr (16-point Gauss-Legendre over [r_min, b]). */
static double moment_to(const hg_psd *psd, int k, double b)
{
    if (k <= 4)
        return hg_psd_moment(psd, k, 0.0, b);
    static const double xg[8] = {0.0950125098376374, 0.2816035507792589,
                                 0.4580167776572274, 0.6178762444026438,
                                 0.7554044083550030, 0.8656312023878318,
                                 0.9445750230732326, 0.9894009349916499};
    static const double wg[8] = {0.1894506104550685, 0.1826034150449236,
                                 0.1691565193950025, 0.1495959888165767,
                                 0.1246289712555339, 0.0951585116824928,
                                 0.0622535239386479, 0.0271524594117541};
    double a = hg_psd_rmin(psd), m = 0.5 * (a + b), hw = 0.5 * (b - a);
    double acc = 0.0;
    for (int i = 0; hw > 0.0 && i < 16; i++) {
        double r = m + (i < 8 ? -hw * xg[i] : hw * xg[i - 8]);
        acc += wg[i % 8] * pow(r, k - 5) * hg_psd_moment(psd, 4, 0.0, r);
    }
    return pow(b, k - 4) * hg_psd_moment(psd, 4, 0.0, b) -
           (k - 4) * hw * acc;
}

void hg_hs_matrix_build(const hg_psd *psd, int dim, double nu, double Vp,
                        double s, hg_hs_matrix *mx)
{
    double Rc = 0.5 * s, rmax = hg_psd_rmax(psd);
    double Vd = hg_unit_ball_volume(dim), c = nu / Vp;
    mx->dim = dim;
    mx->phi = 0.0;
    mx->classes = 0;
    double xi[7];
    if (!(Rc < rmax)) {
        for (int k = 0; k <= 2 * dim; k++)
            xi[k] = c * moment_to(psd, k, rmax);
        hg_hs_kb_matrix(dim, xi, mx->kb);
        return;
    }
    double ratio = pow(rmax / Rc, 1.0 / HG_HS_CLASSES), a = Rc;
    for (int i = 0; i < HG_HS_CLASSES; i++) {
        double b = i == HG_HS_CLASSES - 1 ? rmax : a * ratio;
        double p0 = hg_psd_moment(psd, 0, a, b);
        if (p0 > 0.0) {
            double R = hg_psd_moment(psd, 1, a, b) / p0;
            mx->R[mx->classes] = R;
            mx->n[mx->classes] = c * p0;
            mx->phi += c * p0 * Vd * pow(R, dim);
            mx->classes++;
        }
        a = b;
    }
    for (int k = 0; k <= 2 * dim; k++)
        xi[k] = c * moment_to(psd, k, Rc) / (1.0 - mx->phi);
    /* beyond the fluid range (matrix or fluid filling the space) the
     * theory has no answer: no Kirkwood-Buff term */
    if (!(mx->phi < 1.0) || !(Vd * xi[dim] < 1.0))
        memset(mx->kb, 0, sizeof mx->kb);
    else
        hg_hs_kb_matrix(dim, xi, mx->kb);
}

double hg_hs_crowding(const hg_hs_matrix *mx, double rp, double r_in,
                      double vol)
{
    double phi = mx->phi;
    if (mx->classes == 0 || !(phi < 1.0))
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
    for (int i = 0; i < mx->classes; i++)
        om += mx->n[i] * shell_lens(d, mx->R[i], rp, r_in, Rb);
    om /= shell;
    double delta = phi - om;
    double S = (1.0 - phi) - delta * (1.0 - delta);
    return S / ((1.0 - phi) * (1.0 - phi));
}
