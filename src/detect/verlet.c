/* verlet.c - Verlet neighbour list (paper 001 section 2.1): the pairs
 * within r_i + r_j + skin + list_skin, found by a linked cell (the bundled
 * HGrid with one level), are kept and reused while no particle has moved
 * more than list_skin / 2 since the list was built; each step the contacts
 * are the listed pairs that touch. A pair touching now was listed: its
 * distance at the build was below the contact distance plus the two
 * displacements (each <= list_skin / 2). */
#include "detect_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct verlet_state {
    double list_skin_abs;  /* > 0 if given as list_skin */
    double list_skin_rel;  /* fraction of r_min otherwise */
    double list_skin;      /* in use since the last build */
    void *lc;
    hg_pairs list;
    double *x0;            /* centres at the last build */
    size_t n, cap;
    int valid;
} verlet_state;

static const char *const verlet_keys[] = {"list_skin", "list_skin_rel",
                                          NULL};

static void verlet_free(void *state)
{
    verlet_state *s = state;
    if (!s)
        return;
    hg_methods_grid_free(s->lc);
    hg_pairs_clear(&s->list);
    free(s->x0);
    free(s);
}

static int verlet_create(const hg_kv *params, void **state, hg_err *e)
{
    verlet_state *s = calloc(1, sizeof *s);
    int st, present = 0;
    if (!s)
        return hg_fail(e, HG_ENOMEM, "verlet: out of memory");
    s->list_skin_rel = 0.4;
    if ((st = hg_kv_double(params, "list_skin", 0, &s->list_skin_abs,
                           &present, "verlet", e)) != HG_OK)
        goto fail;
    if (present && !(s->list_skin_abs > 0.0)) {
        st = hg_fail(e, HG_EINVAL, "verlet list_skin: %g must be > 0",
                     s->list_skin_abs);
        goto fail;
    }
    if (!present)
        s->list_skin_abs = 0.0;
    if ((st = hg_kv_double(params, "list_skin_rel", 0, &s->list_skin_rel,
                           &present, "verlet", e)) != HG_OK)
        goto fail;
    if (present && !(s->list_skin_rel > 0.0)) {
        st = hg_fail(e, HG_EINVAL, "verlet list_skin_rel: %g must be > 0",
                     s->list_skin_rel);
        goto fail;
    }
    if ((st = hg_methods_grid_new_lc(&s->lc, e)) != HG_OK)
        goto fail;
    *state = s;
    return HG_OK;
fail:
    verlet_free(s);
    return st;
}

static size_t verlet_bytes(const verlet_state *s)
{
    return sizeof *s + s->list.cap * sizeof *s->list.v +
           s->cap * sizeof *s->x0 + hg_methods_grid_bytes(s->lc);
}

static int extract(verlet_state *s, const hg_particles *p, double skin,
                   hg_pairs *out, hg_detector_counters *c, hg_err *e)
{
    for (size_t k = 0; k < s->list.n; k++) {
        uint32_t i = s->list.v[k].i, j = s->list.v[k].j;
        if (hg_particles_touch(p, i, j, skin) &&
            hg_pairs_push(out, i, j) != HG_OK)
            return hg_fail(e, HG_ENOMEM, "verlet: out of memory for "
                           "contacts");
    }
    c->pair_checks += s->list.n;
    c->list_pairs = s->list.n;
    c->memory_bytes += verlet_bytes(s);
    return HG_OK;
}

static int verlet_detect(void *state, const hg_particles *p, double skin,
                         hg_pairs *out, hg_detector_counters *c, hg_err *e)
{
    verlet_state *s = state;
    s->valid = 0;
    if (s->list_skin_abs > 0.0) {
        s->list_skin = s->list_skin_abs;
    } else {
        s->list_skin = p->n ? s->list_skin_rel * hg_particles_rmin(p) : 1.0;
    }
    size_t nx = p->n * (size_t)p->dim;
    if (nx > s->cap) {
        double *x0 = realloc(s->x0, nx * sizeof *x0);
        if (!x0)
            return hg_fail(e, HG_ENOMEM, "verlet: out of memory");
        s->x0 = x0;
        s->cap = nx;
    }
    int st = hg_methods_grid_search(s->lc, p, skin + s->list_skin, &s->list,
                                    c, e);
    c->memory_bytes = 0; /* counted once, by extract */
    if (st != HG_OK)
        return st;
    if (nx)
        memcpy(s->x0, p->x, nx * sizeof *s->x0);
    s->n = p->n;
    s->valid = 1;
    return extract(s, p, skin, out, c, e);
}

static int verlet_update(void *state, const hg_particles *p, double skin,
                         hg_pairs *out, hg_detector_counters *c, hg_err *e)
{
    verlet_state *s = state;
    if (!s->valid || s->n != p->n)
        return verlet_detect(state, p, skin, out, c, e);
    /* rebuild once a particle moved more than half the list skin (with a
     * relative margin for rounding) */
    double lim = 0.5 * s->list_skin * (1.0 - 1e-9);
    double lim2 = lim * lim;
    for (size_t i = 0; i < p->n; i++) {
        double d2 = 0.0;
        for (int a = 0; a < p->dim; a++) {
            size_t k = i * (size_t)p->dim + (size_t)a;
            double d = hg_particles_delta(p, a, p->x[k] - s->x0[k]);
            d2 += d * d;
        }
        if (d2 > lim2)
            return verlet_detect(state, p, skin, out, c, e);
    }
    return extract(s, p, skin, out, c, e);
}

const hg_detector_type hg_detector_verlet = {
    .name = "verlet",
    .help = "Verlet neighbour list built by a linked cell, reused until a "
            "particle moved > list_skin/2; list_skin (absolute) or "
            "list_skin_rel (x r_min, default 0.4)",
    .periodic = 1,
    .open = 1,
    .incremental = 1,
    .keys = verlet_keys,
    .model = "linked-cell", /* the list is built by one */
    .create = verlet_create,
    .detect = verlet_detect,
    .update = verlet_update,
    .free_state = verlet_free,
};
