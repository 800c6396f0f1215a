/* sap.c - sort-and-sweep on axis-aligned bounding boxes: sort the lower
 * box faces along one axis, sweep each box forward over the boxes starting
 * inside it, test the other axes, then the spheres. A box is the sphere
 * grown by skin/2 (so boxes of a contact overlap). Periodic boxes use ghost
 * images (hg_detector.h). */
#include "detect_internal.h"

#include <math.h>
#include <stdlib.h>

typedef struct sap_state {
    long axis;
    hg_ghosts g;
    hg_mkey *keys;
    size_t cap;
} sap_state;

static const char *const sap_keys[] = {"axis", NULL};

static int sap_create(const hg_kv *params, void **state, hg_err *e)
{
    sap_state *s = calloc(1, sizeof *s);
    if (!s)
        return hg_fail(e, HG_ENOMEM, "sap: out of memory");
    const char *v = hg_kv_get(params, "axis");
    if (v) {
        int st = hg_parse_long(v, "sap axis", 0, 2, &s->axis, e);
        if (st != HG_OK) {
            free(s);
            return st;
        }
    }
    *state = s;
    return HG_OK;
}

static int sap_detect(void *state, const hg_particles *p, double skin,
                      hg_pairs *out, hg_detector_counters *c, hg_err *e)
{
    sap_state *s = state;
    int dim = p->dim, ax = (int)s->axis;
    if (ax >= dim)
        return hg_fail(e, HG_EINVAL, "sap: axis %d does not exist in %dD",
                       ax, dim);
    double margin = hg_methods_margin(p, skin);
    int st = hg_ghosts_build(&s->g, p, 2.0 * hg_particles_rmax(p) + skin,
                             margin, "sap", e);
    if (st != HG_OK)
        return st;
    const hg_ghosts *g = &s->g;
    if (g->n > s->cap) {
        hg_mkey *k = realloc(s->keys, g->n * sizeof *k);
        if (!k)
            return hg_fail(e, HG_ENOMEM, "sap: out of memory");
        s->keys = k;
        s->cap = g->n;
    }
    double half = 0.5 * skin + margin;
    for (size_t a = 0; a < g->n; a++) {
        s->keys[a].v = g->x[a * (size_t)dim + (size_t)ax] - g->r[a] - half;
        s->keys[a].id = (uint32_t)a;
    }
    hg_mkey_sort(s->keys, g->n, &c->sort_comparisons);
    for (size_t k = 0; k < g->n; k++) {
        size_t a = s->keys[k].id;
        const double *xa = g->x + a * (size_t)dim;
        double ha = g->r[a] + half;
        double top = xa[ax] + ha;
        for (size_t m = k + 1; m < g->n && s->keys[m].v <= top; m++) {
            size_t b = s->keys[m].id;
            const double *xb = g->x + b * (size_t)dim;
            double w = ha + g->r[b] + half;
            uint32_t i, j;
            c->box_tests++;
            int overlap = 1;
            for (int d = 0; d < dim && overlap; d++)
                if (d != ax && fabs(xa[d] - xb[d]) > w)
                    overlap = 0;
            if (!overlap || !hg_ghosts_accept(g, a, b, &i, &j))
                continue;
            c->pair_checks++;
            if (hg_particles_touch(p, i, j, skin) &&
                hg_pairs_push(out, i, j) != HG_OK)
                return hg_fail(e, HG_ENOMEM, "sap: out of memory for "
                               "contacts");
        }
    }
    c->list_builds = 1;
    c->memory_bytes = sizeof *s + hg_ghosts_bytes(g) + s->cap * sizeof *s->keys;
    return HG_OK;
}

static void sap_free(void *state)
{
    sap_state *s = state;
    hg_ghosts_clear(&s->g);
    free(s->keys);
    free(s);
}

const hg_detector_type hg_detector_sap = {
    .name = "sap",
    .help = "sort-and-sweep on bounding boxes: sort on one axis (axis=0), "
            "sweep, test the other axes; periodic via ghost images",
    .periodic = 1,
    .open = 1,
    .incremental = 0,
    .keys = sap_keys,
    .create = sap_create,
    .detect = sap_detect,
    .update = NULL,
    .free_state = sap_free,
};
