/* grid.c - life cycle, settings and accessors of the bundled HGrid
 * (hg_grid.h; layout in grid_internal.h). */
#include "grid_internal.h"

#include <string.h>

void hg_grid_counts_clear(hg_grid_counts *c)
{
    if (!c)
        return;
    free(c->per_level);
    memset(c, 0, sizeof *c);
}

static void levels_free(hg_grid *g)
{
    if (!g->lev)
        return;
    for (int h = 0; h < g->L; h++) {
        free(g->lev[h].tab);
        free(g->lev[h].J);
        g->lev[h].tab = NULL;
        g->lev[h].J = NULL;
        g->lev[h].cap = 0;
        g->lev[h].nj = 0;
    }
}

void hg_grid_inserted_free(hg_grid *g)
{
    free(g->px);
    free(g->pr);
    free(g->pnext);
    free(g->phead);
    g->px = g->pr = NULL;
    g->pnext = g->phead = NULL;
    g->np = g->npcap = 0;
}

void hg_grid_built_free(hg_grid *g)
{
    levels_free(g);
    hg_grid_inserted_free(g);
    free(g->xr);
    free(g->id);
    free(g->lv);
    free(g->cend);
    free(g->cellstart);
    free(g->sgc);
    free(g->tmp);
    free(g->wcbuf);
    free(g->scratch);
    g->tmp = NULL;
    g->wcbuf = NULL;
    g->wccap = 0;
    g->scratch = NULL;
    g->scap = 0;
    free(g->slv);
    free(g->ord);
    g->ord = NULL;
    g->ordcap = 0;
    g->xr = NULL;
    g->id = g->cend = g->cellstart = g->sgc = NULL;
    g->lv = g->slv = NULL;
    g->n = g->total_cells = g->ncap = g->ccap = 0;
    g->built = 0;
}

void hg_grid_free(hg_grid *g)
{
    if (!g)
        return;
    hg_grid_built_free(g);
    for (int t = 0; t < g->ntpairs; t++)
        hg_pairs_clear(&g->tpairs[t]);
    free(g->tpairs);
    free(g->lev);
    free(g->sizes);
    free(g);
}

int hg_grid_create(int dim, int L, const double *sizes, hg_algorithm alg,
                   hg_grid **out, hg_err *e)
{
    hg_grid *g = NULL;
    *out = NULL;
    if (dim != 2 && dim != 3)
        return hg_fail(e, HG_EINVAL, "dim: %d is not 2 or 3", dim);
    if (L < 1 || L > HG_GRID_MAX_LEVELS)
        return hg_fail(e, HG_EINVAL, "levels: L = %d is not in [1, %d]", L,
                       HG_GRID_MAX_LEVELS);
    if (!sizes)
        return hg_fail(e, HG_EINVAL, "sizes: NULL");
    if (alg != HG_TOP_DOWN && alg != HG_BOTTOM_UP)
        return hg_fail(e, HG_EINVAL, "algorithm: %d is unknown", (int)alg);
    for (int h = 0; h < L; h++) {
        if (!(isfinite(sizes[h]) && sizes[h] > 0.0))
            return hg_fail(e, HG_EINVAL,
                           "sizes: s_%d = %g must be finite and > 0", h + 1,
                           sizes[h]);
        if (h > 0 && sizes[h] < sizes[h - 1])
            return hg_fail(e, HG_EINVAL,
                           "sizes: s_%d = %g is below s_%d = %g (sizes must "
                           "be non-decreasing)",
                           h + 1, sizes[h], h, sizes[h - 1]);
    }
    g = calloc(1, sizeof *g);
    if (!g)
        goto fail;
    g->sizes = malloc((size_t)L * sizeof *g->sizes);
    g->lev = calloc((size_t)L, sizeof *g->lev);
    if (!g->sizes || !g->lev)
        goto fail;
    memcpy(g->sizes, sizes, (size_t)L * sizeof *sizes);
    g->dim = dim;
    g->L = L;
    g->alg = alg;
    g->storage = HG_GRID_AUTO;
    *out = g;
    return HG_OK;
fail:
    hg_grid_free(g);
    return hg_fail(e, HG_ENOMEM, "out of memory for a grid of %d levels", L);
}

int hg_grid_set_skin(hg_grid *g, double skin, hg_err *e)
{
    if (!(isfinite(skin) && skin >= 0.0))
        return hg_fail(e, HG_EINVAL, "skin: %g must be finite and >= 0",
                       skin);
    g->skin = skin;
    return HG_OK;
}

int hg_grid_set_storage(hg_grid *g, hg_grid_storage storage, hg_err *e)
{
    if (storage != HG_GRID_AUTO && storage != HG_GRID_DENSE &&
        storage != HG_GRID_HASH)
        return hg_fail(e, HG_EINVAL, "storage: %d is unknown", (int)storage);
    g->storage = storage;
    return HG_OK;
}

size_t hg_grid_count(const hg_grid *g) { return g->n + g->np; }
int hg_grid_levels(const hg_grid *g) { return g->L; }
int hg_grid_dim(const hg_grid *g) { return g->dim; }
hg_algorithm hg_grid_algorithm(const hg_grid *g) { return g->alg; }

int hg_grid_level_of(const hg_grid *g, double r)
{
    return hg_grid_level_index(g, r) + 1;
}

double hg_grid_cell_width(const hg_grid *g, int level, int axis)
{
    if (!g->built || level < 1 || level > g->L || axis < 0 ||
        axis >= g->dim)
        return NAN;
    return g->lev[level - 1].w[axis];
}

int hg_grid_level_is_hashed(const hg_grid *g, int level)
{
    if (!g->built || level < 1 || level > g->L)
        return 0;
    return g->lev[level - 1].kind != LV_TABLE || g->lev[level - 1].bx > 0;
}

size_t hg_grid_memory(const hg_grid *g)
{
    size_t b = sizeof *g + (size_t)g->L * (sizeof *g->lev + sizeof(double));
    b += g->ncap * ((size_t)(g->dim + 1) * sizeof(double) +
                    3 * sizeof(uint32_t) + 2 * sizeof(uint16_t) +
                    sizeof(uint64_t));
    b += g->ccap * sizeof(uint32_t) + g->scap + g->ordcap * sizeof(uint32_t) +
         g->wccap * sizeof(double);
    for (int t = 0; t < g->ntpairs; t++)
        b += g->tpairs[t].cap * sizeof(hg_pair);
    for (int h = 0; h < g->L; h++)
        b += g->lev[h].cap * sizeof(hslot) +
             (size_t)(g->lev[h].J ? g->L : 0) * sizeof(int);
    b += g->npcap * ((size_t)g->dim * sizeof(double) + sizeof(double) +
                     sizeof(int32_t));
    if (g->phead)
        b += g->total_cells * sizeof(int32_t);
    return b;
}
