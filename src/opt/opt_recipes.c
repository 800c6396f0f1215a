/* opt_recipes.c - the closed-form and root-finding cell-size recipes of
 * KOL 2014 section 5.2: linear (eq. 34), exponential (eq. 36) and a constant
 * ratio of particles per cell (eqs. 37-38). */
#include "hg_opt.h"
#include "opt_internal.h"
#include "psd_internal.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <string.h>

static const char *const recipe_names[HG_RECIPE_COUNT] = {
    "optimal", "constant-m", "exponential", "linear"};

const char *hg_recipe_name(hg_recipe m)
{
    return (unsigned)m < HG_RECIPE_COUNT ? recipe_names[m] : "unknown";
}

int hg_recipe_parse(const char *text, hg_recipe *out, hg_err *e)
{
    for (int i = 0; text && i < HG_RECIPE_COUNT; i++)
        if (!strcmp(text, recipe_names[i])) {
            *out = (hg_recipe)i;
            return HG_OK;
        }
    return hg_fail(e, HG_EUNKNOWN,
                   "method: unknown value '%s' (optimal, constant-m, "
                   "exponential or linear)",
                   text ? text : "");
}

static int check_L(int L, hg_err *e)
{
    if (L < 1 || L > 100000)
        return hg_fail(e, HG_EINVAL, "levels: %d is outside 1..100000", L);
    return HG_OK;
}

/* s_h / s_0 of linear sizes (KOL 2014 eq. 34). */
static double linear_ratio(double omega, int h, int L)
{
    return 1.0 + h * (omega - 1.0) / L;
}

/* s_h / s_0 of exponential sizes (KOL 2014 eq. 36). */
static double exponential_ratio(double omega, int h, int L)
{
    return pow(omega, (double)h / L);
}

/* s_h = 2 r_min ratio(omega, h, L) for h < L, s_L = 2 r_max. */
static int closed_form(const hg_psd *psd, int L,
                       double (*ratio)(double, int, int), double *sizes,
                       hg_err *e)
{
    int st = check_L(L, e);
    if (st)
        return st;
    double rmin = hg_psd_rmin(psd), omega = hg_psd_rmax(psd) / rmin;
    for (int h = 1; h < L; h++)
        sizes[h - 1] = 2.0 * rmin * ratio(omega, h, L);
    sizes[L - 1] = 2.0 * hg_psd_rmax(psd);
    return HG_OK;
}

int hg_sizes_linear(const hg_psd *psd, int L, double *sizes, hg_err *e)
{
    return closed_form(psd, L, linear_ratio, sizes, e);
}

int hg_sizes_exponential(const hg_psd *psd, int L, double *sizes, hg_err *e)
{
    return closed_form(psd, L, exponential_ratio, sizes, e);
}

/* ---- constant ratio of particles per cell ----
 * m_h is proportional to s_h^d M_0(s_{h-1}/2, s_h/2) (KOL 2014 eq. 11), so
 * eq. 38 reads s_{h+1}^d M_0(s_h/2, s_{h+1}/2) = q s_h^d M_0(s_{h-1}/2, s_h/2).
 * Given s_1, each s_{h+1} follows from a 1-D root (the left side increases
 * from 0 with s_{h+1}); s_1 is found by shooting so that the last equation
 * gives s_L = 2 r_max. */

typedef struct {
    const hg_psd *psd;
    int d, L;
    double q, s0, smax, rmax, tol;
    double *s;
    gsl_root_fsolver *inner, *outer;
} cm_ctx;

typedef struct {
    const hg_psd *psd;
    int d;
    double lo, target;
} level_eq;

static double powd(double x, int d) { return d == 2 ? x * x : x * x * x; }

static double level_fn(double x, void *p)
{
    const level_eq *a = p;
    return powd(x, a->d) * hg_psd_moment(a->psd, 0, a->lo, 0.5 * x) -
           a->target;
}

/* Smallest x >= s_prev with x^d M_0(s_prev/2, x/2) >= target. Returns the
 * solution (possibly above smax, in closed form) or NAN on failure. */
static double solve_level(cm_ctx *c, double s_prev, double target)
{
    if (!(target > 0.0))
        return s_prev;
    double rem = hg_psd_moment(c->psd, 0, 0.5 * s_prev, c->rmax);
    if (!(rem > 0.0))
        return INFINITY;
    if (powd(c->smax, c->d) * rem <= target) /* past r_max M_0 is constant */
        return pow(target / rem, 1.0 / c->d);
    level_eq a = {c->psd, c->d, 0.5 * s_prev, target};
    gsl_function F = {level_fn, &a};
    if (gsl_root_fsolver_set(c->inner, &F, s_prev, c->smax))
        return NAN;
    double x = c->smax;
    for (int it = 0; it < 200; it++) {
        if (gsl_root_fsolver_iterate(c->inner))
            return NAN;
        x = gsl_root_fsolver_root(c->inner);
        double lo = gsl_root_fsolver_x_lower(c->inner);
        double hi = gsl_root_fsolver_x_upper(c->inner);
        if (gsl_root_test_interval(lo, hi, 0.0, c->tol) == GSL_SUCCESS) {
            x = hi; /* the side where the equation is satisfied */
            break;
        }
    }
    return x;
}

/* March from s_1 = exp(y) and return log(s_L / (2 r_max)), continuous and
 * increasing in y; a march that passes 2 r_max before level L adds the
 * number of levels left so that the sign stays right. */
static double shoot(double y, void *p)
{
    cm_ctx *c = p;
    double *s = c->s;
    s[0] = exp(y);
    if (s[0] > c->smax)
        s[0] = c->smax;
    double prev = c->s0;
    for (int h = 1; h < c->L; h++) {
        double lo = h == 1 ? 0.0 : 0.5 * prev;
        double target =
            c->q * powd(s[h - 1], c->d) *
            hg_psd_moment(c->psd, 0, lo, 0.5 * s[h - 1]);
        double x = solve_level(c, s[h - 1], target);
        if (isnan(x))
            return NAN;
        if (isinf(x)) { /* nothing left above level h */
            for (int k = h; k < c->L; k++)
                s[k] = c->smax;
            return 1.0 + (c->L - 1 - h);
        }
        if (h < c->L - 1 && x >= c->smax) {
            for (int k = h; k < c->L; k++)
                s[k] = c->smax;
            return log(x / c->smax) + (c->L - 1 - h);
        }
        prev = s[h - 1];
        s[h] = x;
    }
    return log(s[c->L - 1] / c->smax);
}

int hg_sizes_constant_m(const hg_psd *psd, int dim, int L, double q,
                        double *sizes, hg_err *e)
{
    return hg_sizes_constant_m_tol(psd, dim, L, q, 1e-13, sizes, e);
}

int hg_sizes_constant_m_tol(const hg_psd *psd, int dim, int L, double q,
                            double tol, double *sizes, hg_err *e)
{
    hg_gsl_quiet();
    int st = check_L(L, e);
    if (st)
        return st;
    if (dim != 2 && dim != 3)
        return hg_fail(e, HG_EINVAL, "dim: %d is not 2 or 3", dim);
    if (!(q > 0.0) || !isfinite(q))
        return hg_fail(e, HG_EINVAL,
                       "q: %g must be a finite ratio > 0 (m_{h+1} = q m_h)",
                       q);
    double rmin = hg_psd_rmin(psd), rmax = hg_psd_rmax(psd);
    double s0 = 2.0 * rmin, smax = 2.0 * rmax;
    if (L == 1 || !(rmax > rmin)) {
        for (int h = 0; h < L; h++)
            sizes[h] = smax;
        return HG_OK;
    }
    cm_ctx c = {psd, dim, L, q, s0, smax, rmax, tol, sizes, NULL, NULL};
    c.inner = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    c.outer = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!c.inner || !c.outer) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    double ylo = log(s0) + 1e-12 * log(smax / s0), yhi = log(smax);
    double glo = shoot(ylo, &c), ghi = shoot(yhi, &c);
    if (isnan(glo) || isnan(ghi)) {
        st = hg_fail(e, HG_ENUMERIC,
                     "constant-m: level equation failed (q = %g, L = %d)", q,
                     L);
        goto done;
    }
    /* With atoms (a discrete distribution) the residual jumps and can be
     * zero or of one sign on the whole bracket: take the end that is
     * closest to a solution. */
    if (!(glo < 0.0) || !(ghi > 0.0)) {
        shoot(!(glo < 0.0) ? ylo : yhi, &c);
        goto finish;
    }
    gsl_function F = {shoot, &c};
    if (gsl_root_fsolver_set(c.outer, &F, ylo, yhi)) {
        st = hg_fail(e, HG_ENUMERIC, "constant-m: root finder failed");
        goto done;
    }
    double y = ylo;
    int ok = 0;
    for (int it = 0; it < 300 && !ok; it++) {
        if (gsl_root_fsolver_iterate(c.outer)) {
            st = hg_fail(e, HG_ENUMERIC,
                         "constant-m: root finder failed (q = %g, L = %d)",
                         q, L);
            goto done;
        }
        y = gsl_root_fsolver_root(c.outer);
        ok = gsl_root_test_interval(gsl_root_fsolver_x_lower(c.outer),
                                    gsl_root_fsolver_x_upper(c.outer), 0.0,
                                    0.1 * tol) == GSL_SUCCESS;
    }
    if (isnan(shoot(y, &c))) {
        st = hg_fail(e, HG_ENUMERIC,
                     "constant-m: level equation failed (q = %g, L = %d)", q,
                     L);
        goto done;
    }
finish:
    /* s_L is fixed; the shot lands on it up to the root tolerance (exactly
     * only for a continuous distribution). */
    sizes[L - 1] = smax;
    for (int h = L - 2; h >= 0; h--) {
        if (sizes[h] > sizes[h + 1])
            sizes[h] = sizes[h + 1];
        if (sizes[h] < s0)
            sizes[h] = s0;
    }
    st = HG_OK;
done:
    if (c.inner)
        gsl_root_fsolver_free(c.inner);
    if (c.outer)
        gsl_root_fsolver_free(c.outer);
    return st;
}
