/* order.c - the order in which the pair loop visits the particles.
 *
 * Top-Down, a particle of a coarse level scans a box of every finer level.
 * Visited in the build's order (level after level), every coarse level
 * sweeps the whole of the finer levels once more, and once those outgrow
 * the last-level cache each sweep fetches them again from memory, a short
 * row segment at a time. Visited pencil after pencil - all levels of the
 * rows along x whose (y, z) lie in one cell of the coarsest level (2D: a
 * band of rows), finest level first - the finer particles a coarse
 * particle scans were fetched moments before, for the fine particles of
 * the same pencil. The order changes neither the pairs found nor the
 * counters.
 *
 * The rows of a table level are stored one after another (y fastest), so a
 * pencil's particles on one level are one range of the build's order per
 * plane z: the order is written range by range. */
#include "grid_internal.h"

#include <string.h>

/* First cell c of level lv along axis a whose centre lies in pencil t or
 * beyond (pencils of width pw). */
static int64_t pencil_start(const level_t *lv, int a, int64_t t, double pw)
{
    int64_t c = (int64_t)((double)t * pw / lv->w[a] - 0.5);
    if (c < 0)
        c = 0;
    while (c > 0 && ((double)c - 0.5) * lv->w[a] >= (double)t * pw)
        c--;
    while (c < lv->n[a] && ((double)c + 0.5) * lv->w[a] < (double)t * pw)
        c++;
    return c;
}

const uint32_t *hg_grid_search_order(hg_grid *g)
{
    const int L = g->L, D = g->dim;
    if (g->alg != HG_TOP_DOWN || L < 2 || g->n < 2)
        return NULL;
    const level_t *lc = NULL;
    for (int h = L - 1; h > 0 && !lc; h--)
        if (g->lev[h].count)
            lc = &g->lev[h];
    if (!lc)
        return NULL;
    for (int h = 0; h < L; h++)
        if (g->lev[h].count && g->lev[h].kind != LV_TABLE)
            return NULL;
    const int64_t ny = lc->n[1], nz = D == 3 ? lc->n[2] : 1;
    if (ny * nz < 2)
        return NULL;
    if (g->ordcap < g->n) {
        void *v = realloc(g->ord, g->n * sizeof *g->ord);
        if (!v) /* the build's order is as correct */
            return NULL;
        g->ord = v;
        g->ordcap = g->n;
    }
    uint32_t *ord = g->ord;
    const uint32_t *cs = g->cellstart;
    size_t k = 0;
    for (int64_t tz = 0; tz < nz; tz++) {
        for (int64_t ty = 0; ty < ny; ty++) {
            for (int h = 0; h < L; h++) {
                const level_t *lv = &g->lev[h];
                if (!lv->count)
                    continue;
                int64_t y0 = pencil_start(lv, 1, ty, lc->w[1]);
                int64_t y1 = ty + 1 == ny
                                 ? lv->n[1]
                                 : pencil_start(lv, 1, ty + 1, lc->w[1]);
                int64_t z0 = 0, z1 = 1;
                if (D == 3) {
                    z0 = pencil_start(lv, 2, tz, lc->w[2]);
                    z1 = tz + 1 == nz ? lv->n[2]
                                      : pencil_start(lv, 2, tz + 1, lc->w[2]);
                }
                if (y0 >= y1)
                    continue;
                for (int64_t z = z0; z < z1; z++) {
                    size_t r = lv->base + (size_t)(lv->nbx * lv->n[1] * z);
                    size_t s0 = cs[r + (size_t)(lv->nbx * y0)];
                    size_t s1 = cs[r + (size_t)(lv->nbx * y1)];
                    if (s1 - s0 > g->n - k)
                        goto fail;
                    for (size_t s = s0; s < s1; s++)
                        ord[k++] = (uint32_t)s;
                }
            }
        }
    }
    if (k == g->n) /* the pencils partition every level's rows */
        return ord;
fail:
    return NULL;
}
