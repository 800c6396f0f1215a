/* brute.c - all-pairs contact detection, O(N^2): the oracle the other
 * methods are tested against. */
#include "detect_internal.h"

#include <stdlib.h>

typedef struct brute_state {
    long max_n;
    int force;
} brute_state;

static const char *const brute_keys[] = {"max_n", "force", NULL};

static int brute_create(const hg_kv *params, void **state, hg_err *e)
{
    brute_state *s = calloc(1, sizeof *s);
    if (!s)
        return hg_fail(e, HG_ENOMEM, "brute: out of memory");
    s->max_n = 20000;
    const char *v = hg_kv_get(params, "max_n");
    int st;
    if (v && (st = hg_parse_long(v, "brute max_n", 2, 2000000000L,
                                 &s->max_n, e)) != HG_OK)
        goto fail;
    v = hg_kv_get(params, "force");
    if (v) {
        long f;
        if ((st = hg_parse_long(v, "brute force", 0, 1, &f, e)) != HG_OK)
            goto fail;
        s->force = (int)f;
    }
    *state = s;
    return HG_OK;
fail:
    free(s);
    return st;
}

static int brute_detect(void *state, const hg_particles *p, double skin,
                        hg_pairs *out, hg_detector_counters *c, hg_err *e)
{
    const brute_state *s = state;
    if (!s->force && p->n > (size_t)s->max_n)
        return hg_fail(e, HG_ELIMIT,
                       "brute: %zu particles exceed max_n = %ld (O(N^2) "
                       "pairs); set force=1 to run anyway",
                       p->n, s->max_n);
    for (size_t i = 0; i + 1 < p->n; i++)
        for (size_t j = i + 1; j < p->n; j++)
            if (hg_particles_touch(p, i, j, skin) &&
                hg_pairs_push(out, (uint32_t)i, (uint32_t)j) != HG_OK)
                return hg_fail(e, HG_ENOMEM, "brute: out of memory for "
                               "contacts");
    c->pair_checks = p->n > 1 ? (uint64_t)p->n * (p->n - 1) / 2 : 0;
    c->memory_bytes = sizeof *s;
    return HG_OK;
}

static void brute_free(void *state) { free(state); }

const hg_detector_type hg_detector_brute = {
    .name = "brute",
    .help = "all N(N-1)/2 pairs (oracle); max_n=20000 size limit, force=1 "
            "to exceed it",
    .periodic = 1,
    .open = 1,
    .incremental = 0,
    .keys = brute_keys,
    .create = brute_create,
    .detect = brute_detect,
    .update = NULL,
    .free_state = brute_free,
};
