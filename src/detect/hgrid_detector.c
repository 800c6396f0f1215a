/* hgrid_detector.c - the bundled HGrid (hg_grid.h) as contact-detection methods:
 *   lc        linked cell, one level of cell size 2 r_max (the largest
 *             diameter of the particle set at each detection);
 *   hgrid     HGrid Top-Down with given cell sizes (sizes=s1;...;sL, or
 *             an array through hg_detector_create_sized);
 *   hgrid-bu  HGrid Bottom-Up with given cell sizes.
 * The grid applies the skin itself (cell width s_h + skin). */
#include "detect_internal.h"
#include "hg_grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct grid_state {
    hg_algorithm alg;
    int fixed;        /* 1: sizes given; 0: one level of 2 r_max */
    int L;
    double *sizes;    /* L entries */
    hg_grid *grid;
    int grid_dim, grid_L;
    double *grid_sizes;
    hg_grid_counts counts;
} grid_state;

static const char *const lc_keys[] = {NULL};
static const char *const hgrid_keys[] = {"sizes", NULL};

static void grid_free(void *state)
{
    grid_state *s = state;
    if (!s)
        return;
    hg_grid_free(s->grid);
    hg_grid_counts_clear(&s->counts);
    free(s->sizes);
    free(s->grid_sizes);
    free(s);
}

/* Check and copy the cell sizes (finite, > 0, non-decreasing). */
static int set_sizes(grid_state *s, int L, const double *sizes,
                     const char *who, hg_err *e)
{
    if (L < 1 || !sizes)
        return hg_fail(e, HG_EINVAL, "%s: no cell sizes given", who);
    for (int h = 0; h < L; h++) {
        if (!(isfinite(sizes[h]) && sizes[h] > 0.0))
            return hg_fail(e, HG_EINVAL, "%s sizes[%d]: %g must be finite "
                           "and > 0", who, h + 1, sizes[h]);
        if (h > 0 && sizes[h] < sizes[h - 1])
            return hg_fail(e, HG_EINVAL, "%s sizes[%d]: %g is below the "
                           "previous size %g (sizes must not decrease)", who,
                           h + 1, sizes[h], sizes[h - 1]);
    }
    s->sizes = malloc((size_t)L * sizeof *s->sizes);
    if (!s->sizes)
        return hg_fail(e, HG_ENOMEM, "%s: out of memory", who);
    memcpy(s->sizes, sizes, (size_t)L * sizeof *sizes);
    s->L = L;
    return HG_OK;
}

/* sizes: L entries, or NULL to read the parameter sizes=s1;...;sL. */
static int grid_new(const hg_kv *params, int L, const double *sizes,
                    hg_algorithm alg, int fixed, const char *who,
                    void **state, hg_err *e)
{
    grid_state *s = calloc(1, sizeof *s);
    double *parsed = NULL;
    size_t n = 0;
    int st = HG_OK;
    if (!s)
        return hg_fail(e, HG_ENOMEM, "%s: out of memory", who);
    s->alg = alg;
    s->fixed = fixed;
    if (fixed && !sizes) {
        const char *v = hg_kv_get(params, "sizes");
        char field[64];
        snprintf(field, sizeof field, "%s sizes", who);
        if (!v)
            st = hg_fail(e, HG_EINVAL, "%s: missing parameter 'sizes' (cell "
                         "sizes s_1;...;s_L, the last >= the largest "
                         "diameter)", who);
        else
            st = hg_parse_list(v, ';', field, &parsed, &n, e);
        if (st == HG_OK && n > 1000)
            st = hg_fail(e, HG_EINVAL, "%s: %zu levels (at most 1000)", who,
                         n);
        L = (int)n;
        sizes = parsed;
    }
    if (st == HG_OK && fixed)
        st = set_sizes(s, L, sizes, who, e);
    free(parsed);
    if (st != HG_OK)
        goto fail;
    *state = s;
    return HG_OK;
fail:
    grid_free(s);
    return st;
}

static int lc_create(const hg_kv *params, void **state, hg_err *e)
{
    return grid_new(params, 0, NULL, HG_TOP_DOWN, 0, "lc", state, e);
}

static int hgrid_td_create(const hg_kv *params, void **state, hg_err *e)
{
    return grid_new(params, 0, NULL, HG_TOP_DOWN, 1, "hgrid", state, e);
}

static int hgrid_bu_create(const hg_kv *params, void **state, hg_err *e)
{
    return grid_new(params, 0, NULL, HG_BOTTOM_UP, 1, "hgrid-bu", state, e);
}

static int hgrid_td_create_sized(const hg_kv *params, int L,
                                 const double *sizes, void **state, hg_err *e)
{
    return grid_new(params, L, sizes, HG_TOP_DOWN, 1, "hgrid", state, e);
}

static int hgrid_bu_create_sized(const hg_kv *params, int L,
                                 const double *sizes, void **state, hg_err *e)
{
    return grid_new(params, L, sizes, HG_BOTTOM_UP, 1, "hgrid-bu", state, e);
}

/* Sizes in use: *L levels, NULL before the first detection of lc. */
const double *hg_methods_grid_sizes(const void *state, int *L)
{
    const grid_state *s = state;
    *L = s->fixed ? s->L : s->grid_L;
    return s->fixed ? s->sizes : s->grid_sizes;
}

/* (Re)create the grid when the dimension or the sizes changed. */
static int grid_ready(grid_state *s, int dim, int L, const double *sizes,
                      hg_err *e)
{
    if (s->grid && s->grid_dim == dim && s->grid_L == L &&
        memcmp(s->grid_sizes, sizes, (size_t)L * sizeof *sizes) == 0)
        return HG_OK;
    hg_grid_free(s->grid);
    s->grid = NULL;
    double *copy = realloc(s->grid_sizes, (size_t)L * sizeof *copy);
    if (!copy)
        return hg_fail(e, HG_ENOMEM, "grid: out of memory");
    s->grid_sizes = copy;
    memcpy(copy, sizes, (size_t)L * sizeof *copy);
    int st = hg_grid_create(dim, L, sizes, s->alg, &s->grid, e);
    if (st != HG_OK)
        return st;
    s->grid_dim = dim;
    s->grid_L = L;
    return HG_OK;
}

int hg_methods_grid_search(void *state, const hg_particles *p, double skin,
                           hg_pairs *out, hg_detector_counters *c, hg_err *e)
{
    grid_state *s = state;
    double lc_size = 2.0 * hg_particles_rmax(p);
    if (p->n == 0)
        lc_size = 1.0;
    int L = s->fixed ? s->L : 1;
    const double *sizes = s->fixed ? s->sizes : &lc_size;
    int st = grid_ready(s, p->dim, L, sizes, e);
    if (st == HG_OK)
        st = hg_grid_set_skin(s->grid, skin, e);
    if (st == HG_OK)
        st = hg_grid_build(s->grid, p, e);
    if (st == HG_OK)
        st = hg_grid_find_contacts(s->grid, out, &s->counts, e);
    if (st != HG_OK)
        return st;
    c->cell_accesses += s->counts.cell_accesses;
    c->pair_checks += s->counts.pair_checks;
    c->list_builds++;
    c->memory_bytes += hg_methods_grid_bytes(s);
    return HG_OK;
}

size_t hg_methods_grid_bytes(const void *state)
{
    const grid_state *s = state;
    return sizeof *s + (s->grid ? hg_grid_memory(s->grid) : 0) +
           (size_t)(s->L + s->grid_L) * sizeof(double) +
           (size_t)s->counts.levels * sizeof(hg_grid_level_counts);
}

int hg_methods_grid_new_lc(void **state, hg_err *e)
{
    return grid_new(NULL, 0, NULL, HG_TOP_DOWN, 0, "verlet", state, e);
}

void hg_methods_grid_free(void *state) { grid_free(state); }

static int grid_detect(void *state, const hg_particles *p, double skin,
                       hg_pairs *out, hg_detector_counters *c, hg_err *e)
{
    return hg_methods_grid_search(state, p, skin, out, c, e);
}

const hg_detector_type hg_detector_lc = {
    .name = "lc",
    .help = "linked cell: the bundled HGrid with one level of cell size "
            "2 r_max (largest diameter) + skin",
    .periodic = 1,
    .open = 1,
    .incremental = 0,
    .keys = lc_keys,
    .model = "linked-cell",
    .create = lc_create,
    .detect = grid_detect,
    .update = NULL,
    .free_state = grid_free,
};

const hg_detector_type hg_detector_hgrid = {
    .name = "hgrid",
    .help = "bundled HGrid, Top-Down; sizes=s1;...;sL (the last >= the "
            "largest diameter)",
    .periodic = 1,
    .open = 1,
    .incremental = 0,
    .keys = hgrid_keys,
    .model = "hgrid-top-down",
    .create = hgrid_td_create,
    .create_sized = hgrid_td_create_sized,
    .detect = grid_detect,
    .update = NULL,
    .free_state = grid_free,
};

const hg_detector_type hg_detector_hgrid_bu = {
    .name = "hgrid-bu",
    .help = "bundled HGrid, Bottom-Up; sizes=s1;...;sL (the last >= the "
            "largest diameter)",
    .periodic = 1,
    .open = 1,
    .incremental = 0,
    .keys = hgrid_keys,
    .model = "hgrid-bottom-up",
    .create = hgrid_bu_create,
    .create_sized = hgrid_bu_create_sized,
    .detect = grid_detect,
    .update = NULL,
    .free_state = grid_free,
};
