/* ghosts.c - periodic ghost images and small helpers shared by the
 * sorting-based methods (sap, sort). */
#include "detect_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int mkey_cmp(const void *a, const void *b, void *ctx)
{
    const hg_mkey *x = a, *y = b;
    (*(uint64_t *)ctx)++;
    if (x->v < y->v)
        return -1;
    if (x->v > y->v)
        return 1;
    return (x->id > y->id) - (x->id < y->id);
}

void hg_mkey_sort(hg_mkey *k, size_t n, uint64_t *comparisons)
{
    uint64_t count = 0;
    if (n > 1)
        qsort_r(k, n, sizeof *k, mkey_cmp, &count);
    *comparisons += count;
}

double hg_methods_margin(const hg_particles *p, double skin)
{
    double scale = 2.0 * hg_particles_rmax(p) + skin;
    for (int c = 0; c < p->dim; c++) {
        scale = fmax(scale, fabs(p->lo[c]));
        scale = fmax(scale, fabs(p->hi[c]));
    }
    for (size_t i = 0; i < p->n * (size_t)p->dim; i++)
        scale = fmax(scale, fabs(p->x[i]));
    return 1e-12 * scale;
}

static int ghosts_reserve(hg_ghosts *g, size_t n)
{
    if (n <= g->cap)
        return HG_OK;
    size_t cap = g->cap ? g->cap : 64;
    while (cap < n)
        cap *= 2;
    double *x = realloc(g->x, cap * (size_t)g->dim * sizeof *x);
    if (!x)
        return HG_ENOMEM;
    g->x = x;
    double *r = realloc(g->r, cap * sizeof *r);
    if (!r)
        return HG_ENOMEM;
    g->r = r;
    uint32_t *o = realloc(g->orig, cap * sizeof *o);
    if (!o)
        return HG_ENOMEM;
    g->orig = o;
    g->cap = cap;
    return HG_OK;
}

int hg_ghosts_build(hg_ghosts *g, const hg_particles *p, double cut,
                    double margin, const char *who, hg_err *e)
{
    int dim = p->dim;
    if (g->dim != dim) {
        hg_ghosts_clear(g);
        g->dim = dim;
    }
    if (p->periodic)
        for (int c = 0; c < dim; c++) {
            double len = p->hi[c] - p->lo[c];
            if (!(len > 2.0 * (cut + margin)))
                return hg_fail(e, HG_EINVAL,
                               "%s: periodic box edge %g on axis %d must "
                               "exceed 2 (2 r_max + skin) = %g",
                               who, len, c, 2.0 * cut);
        }
    if (ghosts_reserve(g, p->n ? p->n : 1) != HG_OK)
        return hg_fail(e, HG_ENOMEM, "%s: out of memory for %zu particles",
                       who, p->n);
    if (p->n) {
        memcpy(g->x, p->x, p->n * (size_t)dim * sizeof *g->x);
        memcpy(g->r, p->r, p->n * sizeof *g->r);
    }
    for (size_t i = 0; i < p->n; i++)
        g->orig[i] = (uint32_t)i;
    g->n = g->n_orig = p->n;
    g->rmax = hg_particles_rmax(p);
    if (!p->periodic)
        return HG_OK;
    double reach = cut + margin;
    for (size_t i = 0; i < p->n; i++) {
        const double *xi = p->x + i * (size_t)dim;
        int shift[3] = {0, 0, 0}; /* +1: image at x + L, -1: at x - L */
        int any = 0;
        for (int c = 0; c < dim; c++) {
            if (xi[c] - p->lo[c] <= reach)
                shift[c] = 1;
            else if (p->hi[c] - xi[c] <= reach)
                shift[c] = -1;
            any |= shift[c] != 0;
        }
        if (!any)
            continue;
        /* every non-empty subset of the axes that have a shift */
        int ncomb = 1 << dim;
        for (int mask = 1; mask < ncomb; mask++) {
            int ok = 1;
            for (int c = 0; c < dim; c++)
                if ((mask >> c & 1) && shift[c] == 0)
                    ok = 0;
            if (!ok)
                continue;
            if (ghosts_reserve(g, g->n + 1) != HG_OK)
                return hg_fail(e, HG_ENOMEM, "%s: out of memory for ghost "
                               "images", who);
            double *xg = g->x + g->n * (size_t)dim;
            for (int c = 0; c < dim; c++) {
                double len = p->hi[c] - p->lo[c];
                xg[c] = xi[c] + ((mask >> c & 1) ? shift[c] * len : 0.0);
            }
            g->r[g->n] = p->r[i];
            g->orig[g->n] = (uint32_t)i;
            g->n++;
        }
    }
    return HG_OK;
}

void hg_ghosts_clear(hg_ghosts *g)
{
    if (!g)
        return;
    free(g->x);
    free(g->r);
    free(g->orig);
    memset(g, 0, sizeof *g);
}

size_t hg_ghosts_bytes(const hg_ghosts *g)
{
    return g->cap * ((size_t)g->dim * sizeof(double) + sizeof(double) +
                     sizeof(uint32_t));
}
