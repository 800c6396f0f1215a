/* query.c - the neighbour query of the bundled HGrid: every particle
 * (built or inserted) within a gap of a sphere, handed to a visitor. */
#include "grid_internal.h"

typedef struct qctx {
    const hg_grid *g;
    const double *x;
    double r, gap;
    hg_grid_visit_fn fn;
    void *params;
} qctx;

static int visit(const qctx *q, size_t j, const double *xj, double rj)
{
    double d2 = dist2(q->g, q->g->dim, q->x, xj);
    double cut = q->r + rj + q->gap;
    if (d2 < cut * cut)
        return q->fn(j, sqrt(d2), q->params);
    return 0;
}

static int query_range(const qctx *q, size_t b, size_t e)
{
    const hg_grid *g = q->g;
    const size_t S = (size_t)g->stride;
    for (size_t t = b; t < e; t++) {
        const double *xt = g->xr + t * S;
        int rc = visit(q, g->id[t], xt, xt[g->dim]);
        if (rc)
            return rc;
    }
    return 0;
}

/* Cells x0..x1 (inside 0..n0-1) of row (y, z): built particles, then the
 * inserted ones (dense levels only). */
static int query_row(const qctx *q, const level_t *lv, int64_t y, int64_t z,
                     int64_t x0, int64_t x1)
{
    const hg_grid *g = q->g;
    size_t b, e;
    row_range(g, lv, y, z, x0, x1, &b, &e);
    int rc = query_range(q, b, e);
    if (rc || !g->phead || lv->kind != LV_TABLE || lv->bx)
        return rc;
    const int D = g->dim;
    for (int64_t x = x0; x <= x1; x++) {
        int64_t k[3] = {x, y, z};
        size_t gid = lv->base + (size_t)canon(lv, k);
        for (int32_t t = g->phead[gid]; t >= 0; t = g->pnext[t]) {
            rc = visit(q, g->n + (size_t)t, g->px + (size_t)t * (size_t)D,
                       g->pr[t]);
            if (rc)
                return rc;
        }
    }
    return 0;
}

int hg_grid_query(const hg_grid *g, const double *x, double r, double gap,
                  hg_grid_visit_fn fn, void *params, hg_err *e)
{
    if (!g->built)
        return hg_fail(e, HG_EINVAL, "grid: not built (call hg_grid_build)");
    if (!x || !fn)
        return hg_fail(e, HG_EINVAL, "query: NULL centre or visitor");
    if (!(isfinite(r) && r >= 0.0))
        return hg_fail(e, HG_EINVAL, "query: radius %g must be finite and "
                       ">= 0", r);
    if (!(isfinite(gap) && gap >= 0.0))
        return hg_fail(e, HG_EINVAL, "query: gap %g must be finite and >= 0",
                       gap);
    const int D = g->dim;
    for (int a = 0; a < D; a++) {
        if (!isfinite(x[a]))
            return hg_fail(e, HG_EINVAL, "query: coordinate %d is not "
                           "finite", a);
        if (g->periodic && (x[a] < g->lo[a] || x[a] >= g->hi[a]))
            return hg_fail(e, HG_EINVAL,
                           "query: coordinate %d = %g is outside the "
                           "periodic box",
                           a, x[a]);
    }
    qctx q = {g, x, r, gap, fn, params};
    for (int h = 0; h < g->L; h++) {
        const level_t *lv = &g->lev[h];
        if (lv->total == 0)
            continue;
        double beta = r + gap + 0.5 * lv->s;
        int64_t c0[3] = {0, 0, 0}, c1[3] = {0, 0, 0};
        int empty = 0;
        for (int a = 0; a < D; a++)
            if (!box_axis(g, lv, a, x[a], beta, &c0[a], &c1[a]))
                empty = 1;
        if (empty)
            continue;
        int64_t n0 = lv->n[0];
        for (int64_t z = c0[2]; z <= c1[2]; z++)
            for (int64_t y = c0[1]; y <= c1[1]; y++) {
                int64_t ky = y >= lv->n[1] ? y - lv->n[1] : y;
                int64_t kz = z >= lv->n[2] ? z - lv->n[2] : z;
                int rc = query_row(&q, lv, ky, kz, c0[0],
                                   c1[0] < n0 ? c1[0] : n0 - 1);
                if (!rc && c1[0] >= n0)
                    rc = query_row(&q, lv, ky, kz, 0, c1[0] - n0);
                if (rc)
                    return rc;
            }
    }
    return HG_OK;
}

