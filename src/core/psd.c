/* psd.c - distribution handles: parsing, validation, generic quadrature of
 * partial moments, systematic sampling. */
#include "hg_psd.h"
#include "psd_internal.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hg_psd {
    const hg_psd_family *family;
    void *state;
    char *spec;
    int dim;
    double rmin, rmax;
    gsl_integration_workspace *ws; /* quadrature fallback; not thread-safe */
};

void hg_gsl_quiet(void)
{
    static int done = 0;
    if (!done) {
        gsl_set_error_handler_off();
        done = 1;
    }
}

double hg_unit_ball_volume(int dim)
{
    return dim == 2 ? M_PI : 4.0 * M_PI / 3.0;
}

void hg_psd_free(hg_psd *psd)
{
    if (!psd)
        return;
    if (psd->family && psd->family->destroy)
        psd->family->destroy(psd->state);
    if (psd->ws)
        gsl_integration_workspace_free(psd->ws);
    free(psd->spec);
    free(psd);
}

int hg_psd_wrap(const hg_psd_family *family, void *state, const char *spec,
                int dim, hg_psd **out, hg_err *e)
{
    *out = NULL;
    hg_psd *p = calloc(1, sizeof *p);
    if (!p) {
        family->destroy(state);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    p->family = family;
    p->state = state;
    p->dim = dim;
    p->spec = strdup(spec ? spec : family->name);
    if (!p->spec)
        goto nomem;
    family->range(state, &p->rmin, &p->rmax);
    if (!(isfinite(p->rmin) && isfinite(p->rmax) && p->rmin > 0.0 &&
          p->rmax >= p->rmin)) {
        int st = hg_fail(e, HG_EINVAL,
                         "%s: invalid radius range [%g, %g] (need "
                         "0 < r_min <= r_max)",
                         family->name, p->rmin, p->rmax);
        hg_psd_free(p);
        return st;
    }
    if (!family->moment) {
        p->ws = gsl_integration_workspace_alloc(1000);
        if (!p->ws)
            goto nomem;
    }
    /* Every moment the model uses must be finite and the mass must be 1. */
    for (int k = 0; k <= 3; k++) {
        double m = hg_psd_moment(p, k, 0.0, p->rmax);
        if (!isfinite(m) || m <= 0.0) {
            int st = hg_fail(e, HG_ENUMERIC,
                             "%s: moment M_%d = %g is not finite and "
                             "positive",
                             family->name, k, m);
            hg_psd_free(p);
            return st;
        }
    }
    double m0 = hg_psd_moment(p, 0, 0.0, p->rmax);
    if (fabs(m0 - 1.0) > 1e-6) {
        int st = hg_fail(e, HG_ENUMERIC,
                         "%s: distribution is not normalised (M_0 = %.9g)",
                         family->name, m0);
        hg_psd_free(p);
        return st;
    }
    *out = p;
    return HG_OK;
nomem:
    hg_psd_free(p);
    return hg_fail(e, HG_ENOMEM, "out of memory");
}

static char *kv_to_spec(const char *family, const hg_kv *kv)
{
    size_t len = strlen(family) + 2;
    for (size_t i = 0; kv && i < kv->n; i++)
        len += strlen(kv->items[i].key) + strlen(kv->items[i].val) + 2;
    char *s = malloc(len);
    if (!s)
        return NULL;
    strcpy(s, family);
    for (size_t i = 0; kv && i < kv->n; i++) {
        strcat(s, i == 0 ? ":" : ",");
        strcat(s, kv->items[i].key);
        strcat(s, "=");
        strcat(s, kv->items[i].val);
    }
    return s;
}

int hg_psd_create(const char *family, const hg_kv *kv, const hg_psd_ctx *ctx,
                  hg_psd **out, hg_err *e)
{
    hg_gsl_quiet();
    *out = NULL;
    if (!ctx || (ctx->dim != 2 && ctx->dim != 3))
        return hg_fail(e, HG_EINVAL, "dim: %d is not 2 or 3",
                       ctx ? ctx->dim : 0);
    const hg_psd_family *f = hg_psd_family_find(family);
    if (!f) {
        char list[512] = "";
        for (size_t i = 0; i < hg_psd_family_count(); i++) {
            if (i)
                strncat(list, ", ", sizeof list - strlen(list) - 1);
            strncat(list, hg_psd_family_at(i)->name,
                    sizeof list - strlen(list) - 1);
        }
        return hg_fail(e, HG_EUNKNOWN,
                       "psd: unknown distribution family '%s' (known: %s)",
                       family, list);
    }
    int st = hg_kv_check_known(kv, f->keys, f->name, e);
    if (st)
        return st;
    void *state = NULL;
    st = f->create(kv, ctx, &state, e);
    if (st)
        return st;
    char *spec = kv_to_spec(f->name, kv);
    if (!spec) {
        f->destroy(state);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    st = hg_psd_wrap(f, state, spec, ctx->dim, out, e);
    free(spec);
    return st;
}

int hg_psd_parse(const char *spec, const hg_psd_ctx *ctx, hg_psd **out,
                 hg_err *e)
{
    *out = NULL;
    if (!spec || !*spec)
        return hg_fail(e, HG_EINVAL, "psd: empty distribution spec");
    const char *colon = strchr(spec, ':');
    size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
    char name[64];
    if (nlen == 0 || nlen >= sizeof name)
        return hg_fail(e, HG_EPARSE, "psd: '%s' does not start with a family "
                                     "name (family:key=value,...)", spec);
    memcpy(name, spec, nlen);
    name[nlen] = '\0';
    hg_kv kv = {0};
    int st = colon ? hg_kv_parse(colon + 1, &kv, e) : HG_OK;
    if (st) {
        if (e) {
            char tmp[HG_ERRLEN];
            snprintf(tmp, sizeof tmp, "psd '%.200s': %.300s", spec, e->msg);
            memcpy(e->msg, tmp, sizeof tmp);
        }
    } else {
        st = hg_psd_create(name, &kv, ctx, out, e);
    }
    hg_kv_clear(&kv);
    return st;
}

const hg_psd_family *hg_psd_family_of(const hg_psd *psd)
{
    return psd->family;
}
const char *hg_psd_spec(const hg_psd *psd) { return psd->spec; }
int hg_psd_dim(const hg_psd *psd) { return psd->dim; }
double hg_psd_rmin(const hg_psd *psd) { return psd->rmin; }
double hg_psd_rmax(const hg_psd *psd) { return psd->rmax; }
int hg_psd_is_discrete(const hg_psd *psd) { return psd->family->discrete; }

double hg_psd_pdf(const hg_psd *psd, double r)
{
    if (!psd->family->pdf)
        return NAN;
    if (r < psd->rmin || r > psd->rmax)
        return 0.0;
    return psd->family->pdf(psd->state, r);
}

double hg_psd_cdf(const hg_psd *psd, double r)
{
    if (r < psd->rmin)
        return 0.0;
    if (r >= psd->rmax)
        return 1.0;
    return psd->family->cdf(psd->state, r);
}

double hg_psd_quantile(const hg_psd *psd, double u)
{
    if (!(u > 0.0))
        u = 0.0;
    if (u > 1.0)
        u = 1.0;
    return psd->family->quantile(psd->state, u);
}

typedef struct {
    const hg_psd *psd;
    int k;
} moment_arg;

static double moment_integrand(double r, void *params)
{
    const moment_arg *a = params;
    double f = a->psd->family->pdf(a->psd->state, r);
    double rk = 1.0;
    for (int i = 0; i < a->k; i++)
        rk *= r;
    return rk * f;
}

double hg_psd_moment(const hg_psd *psd, int k, double a, double b)
{
    if (k < 0 || k > 4)
        return NAN;
    if (psd->family->moment)
        return a < b ? psd->family->moment(psd->state, k, a, b) : 0.0;
    if (a < psd->rmin)
        a = psd->rmin;
    if (b > psd->rmax)
        b = psd->rmax;
    if (!(a < b))
        return 0.0;
    moment_arg arg = {psd, k};
    gsl_function fn = {moment_integrand, &arg};
    double result = NAN, abserr = 0.0;
    int st = gsl_integration_qags(&fn, a, b, 0.0, 1e-12, 1000, psd->ws,
                                  &result, &abserr);
    if (st && st != GSL_EROUND)
        return NAN;
    return result;
}

double hg_psd_mean_rk(const hg_psd *psd, int k)
{
    return hg_psd_moment(psd, k, 0.0, psd->rmax);
}

double hg_psd_mean_volume(const hg_psd *psd, int dim)
{
    return hg_unit_ball_volume(dim) * hg_psd_mean_rk(psd, dim);
}

int hg_psd_sample_systematic(const hg_psd *psd, size_t n, uint64_t seed,
                             double *r, hg_err *e)
{
    if (n == 0)
        return HG_OK;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    gsl_rng_set(rng, (unsigned long)(seed ^ 0x5deece66dULL));
    double u = gsl_rng_uniform(rng);
    for (size_t i = 0; i < n; i++) {
        r[i] = hg_psd_quantile(psd, ((double)i + u) / (double)n);
        if (!(isfinite(r[i]) && r[i] > 0.0)) {
            gsl_rng_free(rng);
            return hg_fail(e, HG_ENUMERIC,
                           "%s: quantile(%g) = %g is not a valid radius",
                           psd->spec, ((double)i + u) / (double)n, r[i]);
        }
    }
    gsl_ran_shuffle(rng, r, n, sizeof *r);
    gsl_rng_free(rng);
    return HG_OK;
}
