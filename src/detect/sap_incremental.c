/* sap_incremental.c - incremental sort-and-update on axis-aligned bounding
 * boxes (paper 003 section 3.3; the linked linear list of paper 001 sec.
 * 2.3). Each axis keeps the sorted list of box beginnings and ends; between
 * steps an insertion sort restores the order of the nearly sorted lists, and
 * each exchange updates the set of overlapping boxes (paper 003 Tables 1,
 * 3): a beginning moving below an end may start an overlap (the boxes are
 * then tested on every axis), an end moving below a beginning ends one;
 * exchanges of two beginnings or two ends change nothing. Contacts are the
 * overlapping boxes whose spheres touch.
 *
 * At equal values a beginning sorts before an end, so the list order agrees
 * exactly with the value test lo_i <= hi_j used when an overlap starts, and
 * the set equals the boxes overlapping on every axis after each update.
 * Open boxes only: periodic wrapping of the endpoint lists is not done. */
#include "detect_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct sapi_ep {
    double v;
    uint32_t code; /* particle << 1 | (1 for an end, 0 for a beginning) */
} sapi_ep;

#define PSET_EMPTY UINT64_MAX

typedef struct pset {
    uint64_t *k;
    size_t cap, n; /* cap: power of two (or 0) */
} pset;

typedef struct sapi_state {
    int dim;
    size_t n;
    sapi_ep *ep[3]; /* 2n endpoints per axis */
    double *hw;     /* box half-widths r + skin/2 + margin */
    pset set;
} sapi_state;

static const char *const sapi_keys[] = {NULL};

/* splitmix64 finaliser: every key bit reaches the low bits */
static size_t pset_slot(uint64_t key, size_t mask)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    key *= 0xc4ceb9fe1a85ec53ull;
    key ^= key >> 33;
    return (size_t)key & mask;
}

static int pset_grow(pset *s, size_t want)
{
    size_t cap = s->cap ? s->cap : 1024;
    while (cap < 2 * want)
        cap *= 2;
    if (cap == s->cap)
        return HG_OK;
    uint64_t *k = malloc(cap * sizeof *k);
    if (!k)
        return HG_ENOMEM;
    for (size_t a = 0; a < cap; a++)
        k[a] = PSET_EMPTY;
    for (size_t a = 0; a < s->cap; a++)
        if (s->k[a] != PSET_EMPTY) {
            size_t h = pset_slot(s->k[a], cap - 1);
            while (k[h] != PSET_EMPTY)
                h = (h + 1) & (cap - 1);
            k[h] = s->k[a];
        }
    free(s->k);
    s->k = k;
    s->cap = cap;
    return HG_OK;
}

static void pset_reset(pset *s)
{
    for (size_t a = 0; a < s->cap; a++)
        s->k[a] = PSET_EMPTY;
    s->n = 0;
}

static uint64_t pair_key(uint32_t i, uint32_t j)
{
    return i < j ? (uint64_t)i << 32 | j : (uint64_t)j << 32 | i;
}

static int pset_insert(pset *s, uint64_t key)
{
    if (2 * (s->n + 1) > s->cap && pset_grow(s, s->n + 1) != HG_OK)
        return HG_ENOMEM;
    size_t mask = s->cap - 1, h = pset_slot(key, mask);
    while (s->k[h] != PSET_EMPTY) {
        if (s->k[h] == key)
            return HG_OK;
        h = (h + 1) & mask;
    }
    s->k[h] = key;
    s->n++;
    return HG_OK;
}

/* Linear probing with backward-shift deletion (no tombstones). */
static void pset_remove(pset *s, uint64_t key)
{
    if (!s->cap)
        return;
    size_t mask = s->cap - 1, h = pset_slot(key, mask);
    while (s->k[h] != key) {
        if (s->k[h] == PSET_EMPTY)
            return;
        h = (h + 1) & mask;
    }
    size_t hole = h, j = h;
    for (;;) {
        j = (j + 1) & mask;
        if (s->k[j] == PSET_EMPTY)
            break;
        size_t home = pset_slot(s->k[j], mask);
        /* move k[j] into the hole unless its home lies in (hole, j] */
        int stays = hole <= j ? (home > hole && home <= j)
                              : (home > hole || home <= j);
        if (!stays) {
            s->k[hole] = s->k[j];
            hole = j;
        }
    }
    s->k[hole] = PSET_EMPTY;
    s->n--;
}

static int sapi_create(const hg_kv *params, void **state, hg_err *e)
{
    (void)params;
    sapi_state *s = calloc(1, sizeof *s);
    if (!s)
        return hg_fail(e, HG_ENOMEM, "sap-incremental: out of memory");
    *state = s;
    return HG_OK;
}

static void sapi_release(sapi_state *s)
{
    for (int a = 0; a < 3; a++) {
        free(s->ep[a]);
        s->ep[a] = NULL;
    }
    free(s->hw);
    s->hw = NULL;
    free(s->set.k);
    memset(&s->set, 0, sizeof s->set);
    s->n = 0;
}

static void sapi_free(void *state)
{
    sapi_state *s = state;
    sapi_release(s);
    free(s);
}

/* 1 if endpoint f sorts after endpoint g: larger value, or equal value with
 * f an end and g a beginning. */
static int ep_after(const sapi_ep *f, const sapi_ep *g)
{
    return f->v > g->v || (f->v == g->v && (f->code & 1) && !(g->code & 1));
}

static int ep_cmp(const void *a, const void *b, void *ctx)
{
    const sapi_ep *f = a, *g = b;
    (*(uint64_t *)ctx)++;
    if (ep_after(f, g))
        return 1;
    if (ep_after(g, f))
        return -1;
    return (f->code > g->code) - (f->code < g->code);
}

/* Boxes i and j overlap on every axis (same arithmetic as the endpoint
 * values, so the answer agrees with the sorted lists). */
static int boxes_overlap(const sapi_state *s, const hg_particles *p,
                         uint32_t i, uint32_t j)
{
    const double *xi = p->x + (size_t)i * (size_t)s->dim;
    const double *xj = p->x + (size_t)j * (size_t)s->dim;
    double hi = s->hw[i], hj = s->hw[j];
    for (int d = 0; d < s->dim; d++)
        if (!(xi[d] - hi <= xj[d] + hj && xj[d] - hj <= xi[d] + hi))
            return 0;
    return 1;
}

static void fill_values(sapi_state *s, const hg_particles *p, int a)
{
    sapi_ep *ep = s->ep[a];
    for (size_t k = 0; k < 2 * s->n; k++) {
        uint32_t id = ep[k].code >> 1;
        double x = p->x[(size_t)id * (size_t)s->dim + (size_t)a];
        ep[k].v = (ep[k].code & 1) ? x + s->hw[id] : x - s->hw[id];
    }
}

static int collect(sapi_state *s, const hg_particles *p, double skin,
                   hg_pairs *out, hg_detector_counters *c, hg_err *e)
{
    for (size_t a = 0; a < s->set.cap; a++) {
        uint64_t key = s->set.k[a];
        if (key == PSET_EMPTY)
            continue;
        uint32_t i = (uint32_t)(key >> 32), j = (uint32_t)key;
        c->pair_checks++;
        if (hg_particles_touch(p, i, j, skin) &&
            hg_pairs_push(out, i, j) != HG_OK)
            return hg_fail(e, HG_ENOMEM, "sap-incremental: out of memory "
                           "for contacts");
    }
    c->list_pairs = s->set.n;
    c->memory_bytes = sizeof *s + s->n * sizeof *s->hw +
                      (size_t)s->dim * 2 * s->n * sizeof(sapi_ep) +
                      s->set.cap * sizeof *s->set.k;
    return HG_OK;
}

static int sapi_detect(void *state, const hg_particles *p, double skin,
                       hg_pairs *out, hg_detector_counters *c, hg_err *e)
{
    sapi_state *s = state;
    int dim = p->dim;
    if (p->n >= ((size_t)1 << 31))
        return hg_fail(e, HG_ELIMIT, "sap-incremental: %zu particles exceed "
                       "2^31", p->n);
    sapi_release(s);
    s->dim = dim;
    s->n = p->n;
    s->hw = malloc((p->n ? p->n : 1) * sizeof *s->hw);
    if (!s->hw)
        goto nomem;
    for (int a = 0; a < dim; a++)
        if (!(s->ep[a] = malloc((2 * p->n + 1) * sizeof(sapi_ep))))
            goto nomem;
    double margin = hg_methods_margin(p, skin);
    for (size_t i = 0; i < p->n; i++)
        s->hw[i] = p->r[i] + 0.5 * skin + margin;
    for (int a = 0; a < dim; a++) {
        for (size_t i = 0; i < p->n; i++) {
            s->ep[a][2 * i].code = (uint32_t)(i << 1);
            s->ep[a][2 * i + 1].code = (uint32_t)(i << 1 | 1);
        }
        fill_values(s, p, a);
        if (p->n > 0)
            qsort_r(s->ep[a], 2 * p->n, sizeof(sapi_ep), ep_cmp,
                    &c->sort_comparisons);
    }
    if (pset_grow(&s->set, 16) != HG_OK)
        goto nomem;
    pset_reset(&s->set);
    /* sweep axis 0: each box against the beginnings inside it */
    const sapi_ep *ep = s->ep[0];
    for (size_t k = 0; k < 2 * p->n; k++) {
        if (ep[k].code & 1)
            continue;
        uint32_t i = ep[k].code >> 1;
        for (size_t m = k + 1; ep[m].code != (i << 1 | 1); m++) {
            if (ep[m].code & 1)
                continue;
            uint32_t j = ep[m].code >> 1;
            c->box_tests++;
            if (boxes_overlap(s, p, i, j) &&
                pset_insert(&s->set, pair_key(i, j)) != HG_OK)
                goto nomem;
        }
    }
    c->list_builds = 1;
    return collect(s, p, skin, out, c, e);
nomem:
    sapi_release(s);
    return hg_fail(e, HG_ENOMEM, "sap-incremental: out of memory for %zu "
                   "particles", p->n);
}

static int sapi_update(void *state, const hg_particles *p, double skin,
                       hg_pairs *out, hg_detector_counters *c, hg_err *e)
{
    sapi_state *s = state;
    if (s->n != p->n || s->dim != p->dim || (p->n > 0 && !s->ep[0]))
        return sapi_detect(state, p, skin, out, c, e);
    for (int a = 0; a < s->dim; a++) {
        fill_values(s, p, a);
        sapi_ep *ep = s->ep[a];
        for (size_t k = 1; k < 2 * s->n; k++) {
            sapi_ep cur = ep[k];
            size_t m = k;
            while (m > 0) {
                c->sort_comparisons++;
                if (!ep_after(&ep[m - 1], &cur))
                    break;
                const sapi_ep *f = &ep[m - 1];
                uint32_t i = cur.code >> 1, j = f->code >> 1;
                int cur_end = cur.code & 1, f_end = f->code & 1;
                c->swaps++;
                if (i != j && !cur_end && f_end) {
                    /* beginning of i moves below the end of j */
                    c->box_tests++;
                    if (boxes_overlap(s, p, i, j)) {
                        if (pset_insert(&s->set, pair_key(i, j)) != HG_OK) {
                            sapi_release(s);
                            return hg_fail(e, HG_ENOMEM, "sap-incremental: "
                                           "out of memory for the overlap "
                                           "set");
                        }
                    } else {
                        pset_remove(&s->set, pair_key(i, j));
                    }
                } else if (i != j && cur_end && !f_end) {
                    /* end of i moves below the beginning of j */
                    pset_remove(&s->set, pair_key(i, j));
                }
                ep[m] = ep[m - 1];
                m--;
            }
            ep[m] = cur;
        }
    }
    return collect(s, p, skin, out, c, e);
}

const hg_detector_type hg_detector_sap_incremental = {
    .name = "sap-incremental",
    .help = "incremental sort-and-update: insertion sort of the endpoint "
            "lists between steps, overlaps updated on exchanges; open boxes "
            "only",
    .periodic = 0,
    .open = 1,
    .incremental = 1,
    .keys = sapi_keys,
    .create = sapi_create,
    .detect = sapi_detect,
    .update = sapi_update,
    .free_state = sapi_free,
};
