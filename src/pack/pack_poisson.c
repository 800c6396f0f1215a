/* pack_poisson.c - Poisson packings (uniformly random centres, overlaps
 * allowed) and the helpers shared by all packing generators. */
#include "hg_pack.h"
#include "hg_pack_gen.h"
#include "pack_internal.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

int hg_pack_params_check(const hg_pack_params *prm, hg_err *e)
{
    if (!prm)
        return hg_fail(e, HG_EINVAL, "pack parameters: NULL");
    if (prm->dim != 2 && prm->dim != 3)
        return hg_fail(e, HG_EINVAL, "dim: %d is not 2 or 3", prm->dim);
    if (prm->n < 1 || prm->n >= (size_t)UINT32_MAX - 1)
        return hg_fail(e, HG_EINVAL, "n: %zu is not in [1, %u]", prm->n,
                       UINT32_MAX - 2);
    if (!(isfinite(prm->nu) && prm->nu > 0.0 && prm->nu < 1.0))
        return hg_fail(e, HG_EINVAL, "nu: %g is not in (0, 1)", prm->nu);
    return HG_OK;
}

double hg_pack_box_edge(const hg_psd *psd, int dim, size_t n, double nu)
{
    if (!psd || (dim != 2 && dim != 3) || n == 0 || !(nu > 0.0 && nu < 1.0))
        return NAN;
    double vp = hg_psd_mean_volume(psd, dim);
    return pow((double)n * vp / nu, 1.0 / dim); /* KOL 2014 eq. 8 */
}

int hg_pack_poisson(const hg_psd *psd, const hg_pack_params *prm,
                    hg_particles *out, hg_err *e)
{
    gsl_rng *rng = NULL;
    int st = hg_pack_params_check(prm, e);
    if (st)
        return st;
    if (!psd)
        return hg_fail(e, HG_EINVAL, "distribution: NULL");
    if (!prm->periodic)
        return hg_fail(e, HG_EINVAL,
                       "periodic: the Poisson packing needs a periodic box");
    double A = hg_pack_box_edge(psd, prm->dim, prm->n, prm->nu);
    if (!(isfinite(A) && A > 0.0))
        return hg_fail(e, HG_ENUMERIC,
                       "%s: box edge %g from the mean volume is not valid",
                       hg_psd_spec(psd), A);
    st = hg_particles_alloc(out, prm->dim, prm->n, e);
    if (st)
        return st;
    st = hg_psd_sample_systematic(psd, prm->n, prm->seed, out->r, e);
    if (st)
        goto fail;
    rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto fail;
    }
    /* a seed stream distinct from the radii's shuffle */
    gsl_rng_set(rng, (unsigned long)(prm->seed * 0x9E3779B97F4A7C15ULL + 1));
    for (int c = 0; c < prm->dim; c++) {
        out->lo[c] = 0.0;
        out->hi[c] = A;
    }
    out->periodic = 1;
    size_t m = prm->n * (size_t)prm->dim;
    for (size_t i = 0; i < m; i++) {
        double x = A * gsl_rng_uniform(rng);
        out->x[i] = x < A ? x : 0.0;
    }
    gsl_rng_free(rng);
    return HG_OK;
fail:
    if (rng)
        gsl_rng_free(rng);
    hg_particles_clear(out);
    return st;
}

int hg_pack_round_sizes(double A, int L, const double *sizes, double *out,
                        hg_err *e)
{
    if (!(isfinite(A) && A > 0.0))
        return hg_fail(e, HG_EINVAL, "box edge: %g must be finite and > 0",
                       A);
    if (L < 1 || !sizes || !out)
        return hg_fail(e, HG_EINVAL, "sizes: none given (L = %d)", L);
    for (int h = 0; h < L; h++) {
        double s = sizes[h];
        if (!(isfinite(s) && s > 0.0))
            return hg_fail(e, HG_EINVAL,
                           "sizes: s_%d = %g must be finite and > 0", h + 1,
                           s);
        if (s > A)
            return hg_fail(e, HG_EINVAL,
                           "sizes: s_%d = %g exceeds the box edge %g", h + 1,
                           s, A);
        double k = floor(A / s);
        while (k > 1.0 && A / k < s)
            k -= 1.0;
        out[h] = A / k; /* >= s: a whole number k of cells spans A */
    }
    return HG_OK;
}

double hg_pack_memory_estimate(const char *generator, int dim, size_t n)
{
    double per = !strcmp(generator, "poisson") ? 64.0
                 : !strcmp(generator, "rsa")   ? 192.0
                 : !strcmp(generator, "dense") ? 320.0
                                               : NAN;
    (void)dim; /* the 2D runs measured need less: the 3D figure bounds */
    /* plus the RSA grid's dense cell table (pack_grid_sizes bounds the
     * finest level; the coarser ones, a factor 2 apart, add at most 1/3) */
    double cells = strcmp(generator, "poisson")
                       ? 8.0 * (4.0 / 3.0) *
                             fmax(PACK_CELLS_PER_PARTICLE * (double)n,
                                  PACK_CELLS_MIN)
                       : 0.0;
    return 16e6 + per * (double)n + cells;
}
