/* hg_psd.h - particle size distributions (number density of radii).
 *
 * A distribution is a number density f(r) of particle radii on
 * [r_min, r_max]. Whatever basis the user gave (number, volume/mass), every
 * family exposes the NUMBER density. Everything the cost model needs reduces
 * to partial moments M_k(a,b) = int_{(a,b]} r^k dF(r) (KOL 2014 section 3).
 *
 * Families are plug-ins (distributions/<family>.c), each a const
 * hg_psd_family registered by name in src/core/psd_registry.c.
 */
#ifndef HG_PSD_H
#define HG_PSD_H

#include <stddef.h>
#include <stdint.h>
#include "hg_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Context a family needs when it is created. */
typedef struct hg_psd_ctx {
    int dim;              /* 2 or 3: used by basis conversions and aliases */
    const char *base_dir; /* folder for relative file names; NULL = cwd */
} hg_psd_ctx;

/* The plug-in table of one family. State is created by `create` from the
 * key=value parameters and passed back to every other function. */
typedef struct hg_psd_family {
    const char *name;            /* e.g. "powerlaw" */
    const char *help;            /* one line: parameters and meaning */
    const char *const *keys;     /* accepted parameter keys, NULL-terminated */
    int discrete;                /* 1: F has jumps (no pdf); 0: continuous */
    int (*create)(const hg_kv *kv, const hg_psd_ctx *ctx, void **state,
                  hg_err *e);
    void (*destroy)(void *state);
    void (*range)(const void *state, double *rmin, double *rmax);
    double (*pdf)(const void *state, double r);      /* NULL if discrete */
    double (*cdf)(const void *state, double r);      /* P(R <= r) */
    double (*quantile)(const void *state, double u); /* u in [0,1] */
    /* M_k(a,b) over (a,b] clipped to the support, k = 0..4; NULL means
     * numerical quadrature of r^k pdf (continuous families only). */
    double (*moment)(const void *state, int k, double a, double b);
} hg_psd_family;

/* Registry. */
size_t hg_psd_family_count(void);
const hg_psd_family *hg_psd_family_at(size_t i);
const hg_psd_family *hg_psd_family_find(const char *name);

typedef struct hg_psd hg_psd; /* opaque */

/* Parse a command-line spec "family:key=val,key=val" (e.g.
 * "powerlaw:alpha=-3,omega=100") and create the distribution. *out is owned
 * by the caller (hg_psd_free). Errors name the family/key and the value. */
int hg_psd_parse(const char *spec, const hg_psd_ctx *ctx, hg_psd **out,
                 hg_err *e);
/* Create from a family name and parameter list (used by system files). */
int hg_psd_create(const char *family, const hg_kv *kv, const hg_psd_ctx *ctx,
                  hg_psd **out, hg_err *e);
/* Create the empirical distribution of n radii (copied; all must be finite
 * and > 0) for dimension dim (2 or 3). Same as family "sample" but from
 * memory. */
int hg_psd_from_radii(const double *r, size_t n, int dim, hg_psd **out,
                      hg_err *e);
void hg_psd_free(hg_psd *psd); /* accepts NULL */

const hg_psd_family *hg_psd_family_of(const hg_psd *psd);
/* The spec text the distribution was created from (canonical form
 * "family:k=v,..."); owned by psd. */
const char *hg_psd_spec(const hg_psd *psd);
int hg_psd_dim(const hg_psd *psd);
double hg_psd_rmin(const hg_psd *psd);
double hg_psd_rmax(const hg_psd *psd);
int hg_psd_is_discrete(const hg_psd *psd);

double hg_psd_pdf(const hg_psd *psd, double r); /* 0 outside; NaN if discrete */
double hg_psd_cdf(const hg_psd *psd, double r);
double hg_psd_quantile(const hg_psd *psd, double u);
/* Partial moment M_k(a,b) = int_{(a,b]} r^k dF, k = 0..4. a may be below
 * r_min (use a = 0 to include an atom at r_min). Returns 0 when a >= b. */
double hg_psd_moment(const hg_psd *psd, int k, double a, double b);
/* Full moment M_k(0, r_max). */
double hg_psd_mean_rk(const hg_psd *psd, int k);
/* Mean particle volume V_p = V_d M_d (KOL 2014 eq. 6). */
double hg_psd_mean_volume(const hg_psd *psd, int dim);
/* Volume of the unit d-ball (pi in 2D, 4 pi / 3 in 3D). */
double hg_unit_ball_volume(int dim);

/* Systematic sampling of the quantile function: r[i] = Q((i + u) / n) with
 * one uniform offset u drawn from seed, then shuffled with the same seed.
 * Deterministic for (psd, n, seed). */
int hg_psd_sample_systematic(const hg_psd *psd, size_t n, uint64_t seed,
                             double *r, hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
