/* stencil.c - which cells and levels a particle of the bundled HGrid
 * visits, as the KOL 2014 cost model counts them: the own-level half
 * neighbourhood, its deduplicated form on periodic levels of fewer than 3
 * cells, and the levels scanned across
 * (Top-Down: finer, Bottom-Up: coarser). */
#include "grid_internal.h"

#include <string.h>

const int hg_grid_half2[4][3] = {{1, 0, 0}, {-1, 1, 0}, {0, 1, 0},
                                 {1, 1, 0}};
const int hg_grid_half3[13][3] = {
    {1, 0, 0},  {-1, 1, 0}, {0, 1, 0},  {1, 1, 0},  {-1, -1, 1},
    {0, -1, 1}, {1, -1, 1}, {-1, 0, 1}, {0, 0, 1},  {1, 0, 1},
    {-1, 1, 1}, {0, 1, 1},  {1, 1, 1}};

int hg_grid_stencil_levels(hg_grid *g, hg_err *e)
{
    for (int h = 0; h < g->L; h++) {
        level_t *lv = &g->lev[h];
        lv->nj = 0;
        if (g->L > 1 && !lv->J) {
            lv->J = malloc((size_t)g->L * sizeof *lv->J);
            if (!lv->J)
                return hg_fail(e, HG_ENOMEM, "out of memory");
        }
        for (int j = 0; j < g->L; j++) {
            if (j == h || g->lev[j].total == 0)
                continue;
            if ((g->alg == HG_TOP_DOWN && j < h) ||
                (g->alg == HG_BOTTOM_UP && j > h))
                lv->J[lv->nj++] = j;
        }
    }
    return HG_OK;
}

int hg_grid_small_neighbours(const hg_grid *g, const level_t *lv,
                             const int64_t *k, int64_t nb[26][3])
{
    int m = 0;
    int64_t own = canon(lv, k);
    int zr = g->dim == 3 ? 1 : 0;
    int64_t keys[26];
    for (int dz = -zr; dz <= zr; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int64_t q[3] = {wrap(k[0] + dx, lv->n[0]),
                                wrap(k[1] + dy, lv->n[1]),
                                wrap(k[2] + dz, lv->n[2])};
                int64_t key = canon(lv, q);
                if (key <= own)
                    continue;
                int dup = 0;
                for (int i = 0; i < m; i++)
                    dup |= keys[i] == key;
                if (dup)
                    continue;
                keys[m] = key;
                memcpy(nb[m], q, sizeof q);
                m++;
            }
    return m;
}

