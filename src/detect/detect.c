/* detect.c - registry and dispatch of the contact-detection methods
 * (the methods, one file each, in src/detect/). */
#include "hg_detector.h"
#include "detect_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const hg_detector_type *const registry[] = {
    &hg_detector_brute,
    &hg_detector_sap,
    &hg_detector_sap_incremental,
    &hg_detector_sort,
    &hg_detector_lc,
    &hg_detector_lammps_bins,
    &hg_detector_hgrid,
    &hg_detector_hgrid_bu,
    &hg_detector_verlet,
};

#define N_METHODS (sizeof registry / sizeof registry[0])

struct hg_detector {
    const hg_detector_type *type;
    void *state;
    /* what the previous detect/update saw, to decide whether update may
     * reuse the state */
    int have_prev;
    int dim, periodic;
    size_t n;
    double skin, lo[3], hi[3];
    double *r;
};

size_t hg_detector_type_count(void) { return N_METHODS; }

const hg_detector_type *hg_detector_type_at(size_t i)
{
    return i < N_METHODS ? registry[i] : NULL;
}

const hg_detector_type *hg_detector_type_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < N_METHODS; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

static int create(const char *name, const hg_kv *params, int L,
                  const double *sizes, int sized, hg_detector **out,
                  hg_err *e)
{
    hg_kv empty = {0, NULL};
    hg_detector *m = NULL;
    int st;
    *out = NULL;
    const hg_detector_type *t = hg_detector_type_find(name);
    if (!t)
        return hg_fail(e, HG_EUNKNOWN, "method: unknown name '%s'",
                       name ? name : "(null)");
    if (!params)
        params = &empty;
    st = hg_kv_check_known(params, t->keys, t->name, e);
    if (st != HG_OK)
        return st;
    if (sized && !t->create_sized)
        return hg_fail(e, HG_EINVAL, "method %s: has no cell sizes", t->name);
    if (sized && hg_kv_get(params, "sizes"))
        return hg_fail(e, HG_EINVAL, "method %s: cell sizes given twice "
                       "(array and parameter 'sizes')", t->name);
    m = calloc(1, sizeof *m);
    if (!m)
        return hg_fail(e, HG_ENOMEM, "method %s: out of memory", t->name);
    m->type = t;
    st = sized ? t->create_sized(params, L, sizes, &m->state, e)
               : t->create(params, &m->state, e);
    if (st != HG_OK)
        goto fail;
    *out = m;
    return HG_OK;
fail:
    hg_detector_free(m);
    return st;
}

int hg_detector_create(const char *name, const hg_kv *params,
                       hg_detector **out, hg_err *e)
{
    return create(name, params, 0, NULL, 0, out, e);
}

int hg_detector_create_sized(const char *name, const hg_kv *params, int L,
                             const double *sizes, hg_detector **out,
                             hg_err *e)
{
    return create(name, params, L, sizes, 1, out, e);
}

void hg_detector_free(hg_detector *m)
{
    if (!m)
        return;
    if (m->state)
        m->type->free_state(m->state);
    free(m->r);
    free(m);
}

const hg_detector_type *hg_detector_get_type(const hg_detector *m)
{
    return m->type;
}

static int check_input(hg_detector *m, const hg_particles *p, double skin,
                       hg_pairs *out, hg_err *e)
{
    if (!p || !out)
        return hg_fail(e, HG_EINVAL, "%s: particles and output are required",
                       m->type->name);
    if (!(isfinite(skin) && skin >= 0.0))
        return hg_fail(e, HG_EINVAL, "%s: skin %g must be finite and >= 0",
                       m->type->name, skin);
    if (p->n >= UINT32_MAX)
        return hg_fail(e, HG_ELIMIT, "%s: %zu particles exceed the 32-bit "
                       "pair index", m->type->name, p->n);
    int st = hg_particles_check(p, e);
    if (st != HG_OK)
        return st;
    for (int a = 0; !p->periodic && a < p->dim; a++)
        if (hg_particles_axis_periodic(p, a))
            return hg_fail(e, HG_EINVAL,
                           "%s: boundary with periodic and non-periodic "
                           "axes: contact detection takes a box periodic "
                           "on every axis or on none (validate measures "
                           "such a file in a padded periodic box)",
                           m->type->name);
    if (p->periodic && !m->type->periodic)
        return hg_fail(e, HG_EINVAL, "%s: periodic boxes are not supported "
                       "by this method", m->type->name);
    if (!p->periodic && !m->type->open)
        return hg_fail(e, HG_EINVAL, "%s: open boxes are not supported by "
                       "this method", m->type->name);
    return HG_OK;
}

static int same_as_prev(const hg_detector *m, const hg_particles *p,
                        double skin)
{
    if (!m->have_prev || m->dim != p->dim || m->n != p->n ||
        m->periodic != p->periodic || m->skin != skin)
        return 0;
    for (int c = 0; c < p->dim; c++)
        if (m->lo[c] != p->lo[c] || m->hi[c] != p->hi[c])
            return 0;
    return p->n == 0 || memcmp(m->r, p->r, p->n * sizeof *p->r) == 0;
}

static int remember(hg_detector *m, const hg_particles *p, double skin)
{
    double *r = realloc(m->r, (p->n ? p->n : 1) * sizeof *r);
    if (!r)
        return HG_ENOMEM;
    m->r = r;
    if (p->n)
        memcpy(m->r, p->r, p->n * sizeof *r);
    m->dim = p->dim;
    m->n = p->n;
    m->periodic = p->periodic;
    m->skin = skin;
    memcpy(m->lo, p->lo, sizeof m->lo);
    memcpy(m->hi, p->hi, sizeof m->hi);
    m->have_prev = 1;
    return HG_OK;
}

static int run(hg_detector *m, const hg_particles *p, double skin,
               hg_pairs *out, hg_detector_counters *c, int incremental,
               hg_err *e)
{
    hg_detector_counters local;
    if (!c)
        c = &local;
    memset(c, 0, sizeof *c);
    int st = check_input(m, p, skin, out, e);
    if (st != HG_OK)
        return st;
    hg_pairs_reset(out);
    if (incremental && m->type->update && same_as_prev(m, p, skin))
        st = m->type->update(m->state, p, skin, out, c, e);
    else
        st = m->type->detect(m->state, p, skin, out, c, e);
    if (st != HG_OK) {
        m->have_prev = 0;
        return st;
    }
    if (remember(m, p, skin) != HG_OK) {
        m->have_prev = 0;
        return hg_fail(e, HG_ENOMEM, "%s: out of memory", m->type->name);
    }
    return HG_OK;
}

int hg_detector_detect(hg_detector *m, const hg_particles *p, double skin,
                       hg_pairs *out, hg_detector_counters *c, hg_err *e)
{
    return run(m, p, skin, out, c, 0, e);
}

int hg_detector_update(hg_detector *m, const hg_particles *p, double skin,
                       hg_pairs *out, hg_detector_counters *c, hg_err *e)
{
    return run(m, p, skin, out, c, 1, e);
}
