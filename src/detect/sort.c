/* sort.c - Leszczynski & Ciesielski 2004 (paper 004, Algorithm 1): sort
 * the particles by l_i = |x_i - x_0| - r_i (x_0 a corner below every
 * particle), then scan forward from each particle and stop at the first j
 * with l_j - l_i >= 2 r_i + skin: by the triangle inequality no later
 * particle can touch i (paper 004 eq. 3 and Step 3, with the skin added).
 * Periodic boxes use ghost images (hg_detector.h). */
#include "detect_internal.h"

#include <math.h>
#include <stdlib.h>

typedef struct sort_state {
    hg_ghosts g;
    hg_mkey *keys;
    size_t cap;
} sort_state;

static const char *const sort_keys[] = {NULL};

static int sort_create(const hg_kv *params, void **state, hg_err *e)
{
    (void)params;
    sort_state *s = calloc(1, sizeof *s);
    if (!s)
        return hg_fail(e, HG_ENOMEM, "sort: out of memory");
    *state = s;
    return HG_OK;
}

static int sort_detect(void *state, const hg_particles *p, double skin,
                       hg_pairs *out, hg_detector_counters *c, hg_err *e)
{
    sort_state *s = state;
    int dim = p->dim;
    double margin = hg_methods_margin(p, skin);
    double cut = 2.0 * hg_particles_rmax(p) + skin;
    int st = hg_ghosts_build(&s->g, p, cut, margin, "sort", e);
    if (st != HG_OK)
        return st;
    const hg_ghosts *g = &s->g;
    if (g->n > s->cap) {
        hg_mkey *k = realloc(s->keys, g->n * sizeof *k);
        if (!k)
            return hg_fail(e, HG_ENOMEM, "sort: out of memory");
        s->keys = k;
        s->cap = g->n;
    }
    /* x_0: below every particle and image on every axis */
    double x0[3];
    for (int d = 0; d < dim; d++)
        x0[d] = p->lo[d] - (p->periodic ? cut + margin : 0.0);
    for (size_t a = 0; a < g->n; a++)
        for (int d = 0; d < dim; d++)
            x0[d] = fmin(x0[d], g->x[a * (size_t)dim + (size_t)d]);
    for (size_t a = 0; a < g->n; a++) {
        double s2 = 0.0;
        for (int d = 0; d < dim; d++) {
            double dx = g->x[a * (size_t)dim + (size_t)d] - x0[d];
            s2 += dx * dx;
        }
        s->keys[a].v = sqrt(s2) - g->r[a]; /* paper 004 eq. 3 */
        s->keys[a].id = (uint32_t)a;
    }
    hg_mkey_sort(s->keys, g->n, &c->sort_comparisons);
    for (size_t k = 0; k < g->n; k++) {
        size_t a = s->keys[k].id;
        double reach = s->keys[k].v + 2.0 * g->r[a] + skin + margin;
        for (size_t m = k + 1; m < g->n && s->keys[m].v < reach; m++) {
            size_t b = s->keys[m].id;
            uint32_t i, j;
            if (!hg_ghosts_accept(g, a, b, &i, &j))
                continue;
            c->pair_checks++;
            /* the images must be the touching ones (else a pair touching
             * through another image would be reported twice) */
            if (p->periodic && !hg_ghosts_near(g, a, b, skin + margin))
                continue;
            if (hg_particles_touch(p, i, j, skin) &&
                hg_pairs_push(out, i, j) != HG_OK)
                return hg_fail(e, HG_ENOMEM, "sort: out of memory for "
                               "contacts");
        }
    }
    c->list_builds = 1;
    c->memory_bytes = sizeof *s + hg_ghosts_bytes(g) + s->cap * sizeof *s->keys;
    return HG_OK;
}

static void sort_free(void *state)
{
    sort_state *s = state;
    hg_ghosts_clear(&s->g);
    free(s->keys);
    free(s);
}

const hg_detector_type hg_detector_sort = {
    .name = "sort",
    .help = "Leszczynski's sorted-distance search: sort by |x_i - x_0| - r_i,"
            " scan forward with an early break; periodic via ghost images",
    .periodic = 1,
    .open = 1,
    .incremental = 0,
    .keys = sort_keys,
    .create = sort_create,
    .detect = sort_detect,
    .update = NULL,
    .free_state = sort_free,
};
