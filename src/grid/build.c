/* build.c - the build (mapping) phase of the bundled HGrid
 * (hg_grid_build): checks, cell widths and storage of every level, the
 * level of every particle, the bucket table, then the sort into (level,
 * bucket) order (sort.c); single insertions (hg_grid_insert). */
#include "grid_internal.h"

#include <string.h>
#include <sys/mman.h>
#ifdef HG_HAVE_OPENMP
#include <omp.h>
#endif

/* Insert (or find) row (y, z) of a hashed-row level; returns its id. */
static uint32_t row_insert(level_t *lv, int64_t y, int64_t z)
{
    size_t mask = lv->cap - 1;
    size_t i = (size_t)hkey(y, z) & mask;
    for (;;) {
        hslot *sl = &lv->tab[i];
        if (sl->id == UINT32_MAX) {
            sl->y = y;
            sl->z = z;
            sl->id = (uint32_t)lv->nb++;
            return sl->id;
        }
        if (sl->y == y && sl->z == z)
            return sl->id;
        i = (i + 1) & mask;
    }
}

/* ------------------------------------------------------------------ */
/* build */

/* Largest n >= 1 with A / n >= w (in floating point). */
static int64_t periodic_cells(double A, double w)
{
    double q = floor(A / w);
    if (q > HG_GRID_MAX_AXIS_CELLS)
        return -1;
    int64_t n = (int64_t)q;
    if (n < 1)
        n = 1;
    while (n > 1 && A / (double)n < w)
        n--;
    while (A / (double)(n + 1) >= w)
        n++;
    return n;
}

/* Cell widths and storage kind of every level (the box is set; the
 * hashed-row tables follow in setup_rows, once the levels' counts are
 * known). */
static int setup_levels(hg_grid *g, hg_err *e)
{
    double budget_total = 16.0 * (double)g->n + 65536.0;
    double per_level = 8.0 * (double)g->n + 4096.0;
    for (int h = 0; h < g->L; h++) {
        level_t *lv = &g->lev[h];
        lv->s = g->sizes[h];
        lv->small = 0;
        double w0 = lv->s + g->skin;
        for (int a = 0; a < 3; a++) {
            if (a >= g->dim) {
                lv->n[a] = 1;
                lv->w[a] = lv->inv[a] = 1.0;
                continue;
            }
            if (g->periodic) {
                int64_t n = periodic_cells(g->len[a], w0);
                if (n < 0)
                    return hg_fail(e, HG_ELIMIT,
                                   "level %d: cell size %g is too small for "
                                   "the box edge %g",
                                   h + 1, lv->s, g->len[a]);
                lv->n[a] = n;
                lv->w[a] = g->len[a] / (double)n;
                if (n < 3)
                    lv->small = 1;
            } else {
                double q = floor(g->len[a] / w0) + 1.0;
                if (q > HG_GRID_MAX_AXIS_CELLS)
                    return hg_fail(e, HG_ELIMIT,
                                   "level %d: cell size %g is too small for "
                                   "the extent %g of the particles",
                                   h + 1, lv->s, g->len[a]);
                lv->n[a] = (int64_t)q;
                lv->w[a] = w0;
            }
            lv->inv[a] = 1.0 / lv->w[a];
        }
    }
    /* storage: for the coarse (cheap) levels first, the finest table
     * within the budget: cells (bx = 0), else blocks of 2^bx cells along
     * x; hashed rows when even one bucket per row is too many */
    double used = 0.0;
    for (int h = g->L - 1; h >= 0; h--) {
        level_t *lv = &g->lev[h];
        double rows = (double)lv->n[1] * (double)lv->n[2];
        double cells = (double)lv->n[0] * rows;
        lv->kind = LV_HROWS;
        lv->bx = 0;
        lv->nbx = lv->n[0];
        if (g->storage == HG_GRID_DENSE) {
            if (!(cells <= 4.0e9) || used + cells > 4.0e9)
                return hg_fail(e, HG_ELIMIT,
                               "level %d: %.3g cells are too many for dense "
                               "storage",
                               h + 1, cells);
            lv->kind = LV_TABLE;
        } else if (g->storage == HG_GRID_AUTO) {
            for (int bx = 0; bx < 62; bx++) {
                int64_t nbx = ((lv->n[0] - 1) >> bx) + 1;
                double nb = (double)nbx * rows;
                if (nb <= per_level && used + nb <= budget_total) {
                    lv->kind = LV_TABLE;
                    lv->bx = bx;
                    lv->nbx = nbx;
                    break;
                }
                if (nbx == 1)
                    break;
            }
        }
        if (lv->kind == LV_TABLE) {
            lv->nb = (size_t)lv->nbx * (size_t)rows;
            used += (double)lv->nb;
        }
    }
    return HG_OK;
}

/* Particles of every level (cnt) and the empty row tables of the hashed
 * levels. */
static int setup_rows(hg_grid *g, const size_t *cnt, hg_err *e)
{
    for (int h = 0; h < g->L; h++) {
        level_t *lv = &g->lev[h];
        lv->count = lv->total = cnt[h];
        if (lv->kind == LV_HROWS) {
            size_t cap = 16;
            while (cap < 2 * lv->count + 2)
                cap *= 2;
            lv->nb = 0;
            /* keep the table of the previous build unless far too big */
            if (!lv->tab || lv->cap < cap || lv->cap > 4 * cap) {
                free(lv->tab);
                lv->cap = 0;
                lv->tab = malloc(cap * sizeof *lv->tab);
                if (!lv->tab)
                    return hg_fail(e, HG_ENOMEM,
                                   "out of memory for level %d", h + 1);
                lv->cap = cap;
            }
            cap = lv->cap;
            for (size_t i = 0; i < cap; i++)
                lv->tab[i].id = UINT32_MAX;
        }
    }
    return HG_OK;
}

/* A buffer of the build (contents not kept): large ones on 2 MiB
 * boundaries and, where the system offers them, on huge pages (the sort
 * writes up to a thousand streams at once, the search reads the records
 * all over: fewer TLB misses). */
static void *big_alloc(size_t bytes)
{
    const size_t huge = (size_t)2 << 20;
    if (bytes < 2 * huge)
        return malloc(bytes ? bytes : 1);
    bytes = (bytes + huge - 1) / huge * huge;
    void *v = aligned_alloc(huge, bytes);
#ifdef MADV_HUGEPAGE
    if (v)
        madvise(v, bytes, MADV_HUGEPAGE); /* advice only: failure is fine */
#endif
    return v;
}

/* Grow the per-particle buffers (kept between builds, their contents
 * rewritten by every build) to n particles. */
static int reserve_particles(hg_grid *g, size_t n)
{
    if (n <= g->ncap && g->xr)
        return HG_OK;
    size_t cap = n > 2 * g->ncap ? n : 2 * g->ncap;
    if (cap < 16)
        cap = 16;
    size_t rec = (size_t)g->stride * sizeof(double);
    g->ncap = 0;
#define GROW(ptr, size)                                                    \
    do {                                                                   \
        free(ptr);                                                         \
        ptr = big_alloc(cap * (size));                                     \
        if (!ptr)                                                          \
            return HG_ENOMEM;                                              \
    } while (0)
    GROW(g->xr, rec);
    GROW(g->id, sizeof *g->id);
    GROW(g->tmp, sizeof *g->tmp);
    GROW(g->cend, sizeof *g->cend);
    GROW(g->sgc, sizeof *g->sgc);
    GROW(g->lv, sizeof *g->lv);
    GROW(g->slv, sizeof *g->slv);
#undef GROW
    g->ncap = cap;
    return HG_OK;
}

/* The error of particle i, which failed the checks of scan_input. */
static int bad_particle(const hg_grid *g, const hg_particles *p, size_t i,
                        hg_err *e)
{
    const int D = g->dim;
    const double *x = p->x + i * (size_t)D;
    const double r = p->r[i], smax = g->sizes[g->L - 1];
    for (int a = 0; a < D; a++) {
        if (!isfinite(x[a]))
            return hg_fail(e, HG_EINVAL,
                           "particle %zu: coordinate %d is not finite", i, a);
        if (g->periodic && (x[a] < p->lo[a] || x[a] >= p->hi[a]))
            return hg_fail(e, HG_EINVAL,
                           "particle %zu: coordinate %d = %g is outside the "
                           "periodic box [%g, %g)",
                           i, a, x[a], p->lo[a], p->hi[a]);
    }
    if (isfinite(r) && r > 0.0)
        return hg_fail(e, HG_EINVAL,
                       "particle %zu: radius %g exceeds s_L / 2 = %g", i, r,
                       0.5 * smax);
    return hg_fail(e, HG_EINVAL,
                   "particle %zu: radius %g must be finite and > 0", i, r);
}

/* The box of p: axes within range (HG_OK) or the error. */
static int check_box(const hg_grid *g, const hg_particles *p, hg_err *e)
{
    for (int a = 0; a < g->dim; a++)
        if (!(isfinite(p->lo[a]) && isfinite(p->hi[a]) &&
              p->hi[a] >= p->lo[a] && (!g->periodic || p->hi[a] > p->lo[a])))
            return hg_fail(e, HG_EINVAL, "box: axis %d [%g, %g] is invalid",
                           a, p->lo[a], p->hi[a]);
    return HG_OK;
}

/* The grid's extent along axis a (unused axes: [0, 1]). */
static void set_axis(hg_grid *g, int a, double lo, double hi)
{
    g->lo[a] = lo;
    g->hi[a] = hi;
    g->len[a] = hi - lo;
    g->half[a] = 0.5 * g->len[a];
}

/* The error of the first particle that fails the checks (some does). */
static int first_bad(const hg_grid *g, const hg_particles *p, hg_err *e)
{
    const int D = g->dim;
    for (size_t i = 0;; i++) {
        const double *x = p->x + i * (size_t)D;
        int bad = 0;
        for (int a = 0; a < D; a++)
            bad |= g->periodic ? !(x[a] >= p->lo[a] && x[a] < p->hi[a])
                               : !isfinite(x[a]);
        if (bad || hg_grid_level_index(g, p->r[i]) < 0)
            return bad_particle(g, p, i, e);
    }
}

/* Validate the particles; sets the grid's box (periodic: p's
 * box; open: p's box widened to the centres), the level of every particle
 * (slv) and counts the particles of every level into cnt. One pass, in
 * parallel (partial extents and counts per thread); the first bad particle
 * is then looked for serially, for its message. */
static int scan_input(hg_grid *g, const hg_particles *p, size_t *cnt,
                      hg_err *e)
{
    const int D = g->dim, L = g->L;
    const size_t n = p->n;
    int nt = 1;
#ifdef HG_HAVE_OPENMP
    nt = n > 50000 ? omp_get_max_threads() : 1;
    if (nt < 1)
        nt = 1;
#endif
    /* per thread: lo[3], hi[3], then L counts; rows at least a cache line
     * apart */
    const size_t w = (6 + (size_t)L + 15) & ~(size_t)7;
    double *part = malloc((size_t)nt * w * sizeof *part);
    if (!part)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    const double smax = g->sizes[L - 1];
    int bad_any = 0;
#ifdef HG_HAVE_OPENMP
#pragma omp parallel num_threads(nt) reduction(| : bad_any)
#endif
    {
        int t = 0, T = 1;
#ifdef HG_HAVE_OPENMP
        t = omp_get_thread_num();
        T = omp_get_num_threads();
#endif
        double *lo = part + (size_t)t * w, *hi = lo + 3, *c = lo + 6;
        for (int a = 0; a < 3; a++) {
            lo[a] = a < D ? p->lo[a] : 0.0;
            hi[a] = a < D ? p->hi[a] : 0.0;
        }
        for (int h = 0; h < L; h++)
            c[h] = 0.0;
        size_t i1 = n * (size_t)(t + 1) / (size_t)T;
        for (size_t i = n * (size_t)t / (size_t)T; i < i1; i++) {
            const double *x = p->x + i * (size_t)D;
            int bad = 0;
            for (int a = 0; a < D; a++) {
                double xa = x[a];
                if (g->periodic)
                    bad |= !(xa >= p->lo[a] && xa < p->hi[a]);
                else
                    bad |= !isfinite(xa);
                lo[a] = xa < lo[a] ? xa : lo[a];
                hi[a] = xa > hi[a] ? xa : hi[a];
            }
            double r = p->r[i];
            int h = (r > 0.0 && 2.0 * r <= smax) ? hg_grid_level_index(g, r)
                                                 : -1;
            if (bad || h < 0) {
                bad_any = 1;
                continue;
            }
            g->slv[i] = (uint16_t)h;
            c[h] += 1.0;
        }
    }
    if (bad_any) {
        free(part);
        return first_bad(g, p, e);
    }
    for (int a = 0; a < D; a++) {
        double lo = p->lo[a], hi = p->hi[a];
        for (int t = 0; t < nt; t++) {
            lo = part[(size_t)t * w + (size_t)a] < lo
                     ? part[(size_t)t * w + (size_t)a] : lo;
            hi = part[(size_t)t * w + 3 + (size_t)a] > hi
                     ? part[(size_t)t * w + 3 + (size_t)a] : hi;
        }
        set_axis(g, a, g->periodic ? p->lo[a] : lo,
                 g->periodic ? p->hi[a] : hi);
    }
    for (int h = 0; h < L; h++)
        for (int t = 0; t < nt; t++)
            cnt[h] += (size_t)part[(size_t)t * w + 6 + (size_t)h];
    free(part);
    return HG_OK;
}

/* The extent of an open box (p's box widened to the centres, as
 * scan_input sets it) when every centre is finite and every radius has a
 * level: one parallel pass of minima and maxima, no level per particle
 * (the sort finds the levels). Returns HG_OK with the axes set, 1 when
 * some particle fails the checks (scan_input then names it), or
 * HG_ENOMEM. */
static int open_extent(hg_grid *g, const hg_particles *p)
{
    const int D = g->dim;
    const size_t n = p->n;
    int nt = 1;
#ifdef HG_HAVE_OPENMP
    nt = n > 50000 ? omp_get_max_threads() : 1;
    if (nt < 1)
        nt = 1;
#endif
    /* per thread lo[3], hi[3], rows a cache line apart */
    double *part = malloc((size_t)nt * 8 * sizeof *part);
    if (!part)
        return HG_ENOMEM;
    const double smax = g->sizes[g->L - 1];
    int bad_any = 0;
#ifdef HG_HAVE_OPENMP
#pragma omp parallel num_threads(nt) reduction(| : bad_any)
#endif
    {
        int t = 0, T = 1;
#ifdef HG_HAVE_OPENMP
        t = omp_get_thread_num();
        T = omp_get_num_threads();
#endif
        double lo[3] = {0.0, 0.0, 0.0}, hi[3] = {0.0, 0.0, 0.0};
        for (int a = 0; a < D; a++) {
            lo[a] = p->lo[a];
            hi[a] = p->hi[a];
        }
        int bad = 0;
        const size_t i0 = n * (size_t)t / (size_t)T;
        const size_t i1 = n * (size_t)(t + 1) / (size_t)T;
        const double *x = p->x + i0 * (size_t)D;
        for (size_t i = i0; i < i1; i++, x += D) {
            const double d = 2.0 * p->r[i];
            bad |= !(d > 0.0 && d <= smax);
            for (int a = 0; a < D; a++) {
                /* finite: x - x is 0, not NaN */
                bad |= !(x[a] - x[a] == 0.0);
                lo[a] = x[a] < lo[a] ? x[a] : lo[a];
                hi[a] = x[a] > hi[a] ? x[a] : hi[a];
            }
        }
        for (int a = 0; a < 3; a++) {
            part[(size_t)t * 8 + (size_t)a] = lo[a];
            part[(size_t)t * 8 + 3 + (size_t)a] = hi[a];
        }
        bad_any |= bad;
    }
    if (!bad_any)
        for (int a = 0; a < D; a++) {
            double lo = p->lo[a], hi = p->hi[a];
            for (int t = 0; t < nt; t++) {
                lo = part[(size_t)t * 8 + (size_t)a] < lo
                         ? part[(size_t)t * 8 + (size_t)a] : lo;
                hi = part[(size_t)t * 8 + 3 + (size_t)a] > hi
                         ? part[(size_t)t * 8 + 3 + (size_t)a] : hi;
            }
            set_axis(g, a, lo, hi);
        }
    free(part);
    return bad_any ? 1 : HG_OK;
}

/* What the grid cannot take: no particles, another dim, too many
 * particles, a box periodic on some axes only. */
static int check_input(const hg_grid *g, const hg_particles *p, hg_err *e)
{
    if (!p)
        return hg_fail(e, HG_EINVAL, "particles: NULL");
    if (p->dim != g->dim)
        return hg_fail(e, HG_EINVAL,
                       "particles: dim %d differs from the grid's %d", p->dim,
                       g->dim);
    if (p->n >= (size_t)UINT32_MAX - 1)
        return hg_fail(e, HG_ELIMIT, "particles: %zu are more than %u",
                       p->n, UINT32_MAX - 2);
    for (int a = 0; !p->periodic && a < p->dim; a++)
        if (hg_particles_axis_periodic(p, a))
            return hg_fail(e, HG_EINVAL,
                           "particles: boundary with periodic and "
                           "non-periodic axes; the grid takes a box "
                           "periodic on every axis or on none");
    return HG_OK;
}

static int out_of_memory(hg_err *e, size_t n)
{
    return hg_fail(e, HG_ENOMEM, "out of memory building a grid of %zu "
                   "particles", n);
}

/* The levels and where each particle goes. A periodic box is known before
 * the particles are read, an open one after a pass of minima and maxima:
 * levels and buckets then follow in one pass (the sort's first: *fused =
 * 1), unless a level has hashed rows or a particle fails the checks
 * (scan_input names it): then a pass of scan_input first (level of every
 * particle, counts cnt per level). *any_hashed: some level has hashed
 * rows. */
static int place_levels(hg_grid *g, const hg_particles *p, size_t *cnt,
                        int *fused, int *any_hashed, hg_err *e)
{
    int st, known = g->periodic;
    *fused = *any_hashed = 0;
    if (!known) {
        int ex = open_extent(g, p);
        if (ex == HG_ENOMEM)
            return out_of_memory(e, p->n);
        known = ex == HG_OK;
    }
    if (known) {
        if ((st = setup_levels(g, e)))
            return st;
        for (int h = 0; h < g->L; h++)
            *any_hashed |= g->lev[h].kind == LV_HROWS;
        *fused = !*any_hashed;
    }
    if (*fused)
        return HG_OK;
    if ((st = scan_input(g, p, cnt, e)))
        return st;
    if (!g->periodic && (st = setup_levels(g, e)))
        return st;
    if ((st = setup_rows(g, cnt, e)))
        return st;
    for (int h = 0; h < g->L; h++)
        *any_hashed |= g->lev[h].kind == LV_HROWS;
    return HG_OK;
}

/* Hashed rows numbered in order of first appearance (serial): the bucket
 * of every particle of a hashed-row level into g->sgc. */
static void number_rows(hg_grid *g, const hg_particles *p)
{
    const int D = g->dim;
    for (size_t i = 0; i < p->n; i++) {
        level_t *lv = &g->lev[g->slv[i]];
        if (lv->kind != LV_HROWS)
            continue;
        const double *x = p->x + i * (size_t)D;
        int64_t y = cell_coord(g, lv, 1, x[1]);
        int64_t z = D == 3 ? cell_coord(g, lv, 2, x[2]) : 0;
        g->sgc[i] = row_insert(lv, y, z);
    }
}

/* The levels' first bucket (base) and first particle (fused: set by the
 * sort), and the bucket table (cellstart) for all buckets. HG_OK,
 * HG_ELIMIT or HG_ENOMEM. */
static int bucket_table(hg_grid *g, size_t n, hg_err *e)
{
    size_t total = 0, first = 0;
    for (int h = 0; h < g->L; h++) {
        g->lev[h].base = total;
        g->lev[h].first = first; /* fused: set by the sort */
        total += g->lev[h].nb;
        first += g->lev[h].count;
    }
    if (total + 2 > (size_t)UINT32_MAX)
        return hg_fail(e, HG_ELIMIT, "grid: %zu cells are too many", total);
    g->total_cells = total;
    if (g->ccap < total + 2) {
        size_t cap = total + 2;
        free(g->cellstart);
        g->ccap = 0;
        /* on cache lines (the sort streams the bucket starts), large
         * tables on huge pages */
        g->cellstart = cap * sizeof *g->cellstart < ((size_t)4 << 20)
                           ? aligned_alloc(64, (cap * sizeof *g->cellstart +
                                                63) / 64 * 64)
                           : big_alloc(cap * sizeof *g->cellstart);
        if (!g->cellstart)
            return out_of_memory(e, n);
        g->ccap = cap;
    }
    return HG_OK;
}

int hg_grid_build(hg_grid *g, const hg_particles *p, hg_err *e)
{
    int st = check_input(g, p, e);
    if (st)
        return st;
    size_t cnt_small[16];
    size_t *cnt = cnt_small;
    const int D = g->dim;
    const size_t n = p->n;
    hg_grid_inserted_free(g);
    g->built = 0;
    g->stride = D + 1;
    g->periodic = p->periodic ? 1 : 0;
    if (g->L > 16) {
        cnt = calloc((size_t)g->L, sizeof *cnt);
        if (!cnt) {
            st = out_of_memory(e, n);
            goto fail;
        }
    } else {
        memset(cnt_small, 0, sizeof cnt_small);
    }
    if (reserve_particles(g, n)) {
        st = out_of_memory(e, n);
        goto fail;
    }
    if ((st = check_box(g, p, e)))
        goto fail;
    g->n = n;
    for (int a = 0; a < 3; a++)
        set_axis(g, a, a < D && g->periodic ? p->lo[a] : 0.0,
                 a < D && g->periodic ? p->hi[a] : 1.0);
    int fused, any_hashed;
    if ((st = place_levels(g, p, cnt, &fused, &any_hashed, e)))
        goto fail;
    if (any_hashed)
        number_rows(g, p);
    if ((st = bucket_table(g, n, e)))
        goto fail;
    if ((st = hg_grid_sort(g, p, fused))) {
        st = st == HG_EINVAL ? first_bad(g, p, e) : out_of_memory(e, n);
        goto fail;
    }
    if ((st = hg_grid_stencil_levels(g, e)))
        goto fail;
    if (cnt != cnt_small)
        free(cnt);
    g->built = 1;
    return HG_OK;
fail:
    if (cnt != cnt_small)
        free(cnt);
    g->n = 0;
    g->built = 0;
    return st;
}

int hg_grid_insert(hg_grid *g, const double *x, double r, hg_err *e)
{
    if (!g->built)
        return hg_fail(e, HG_EINVAL, "grid: not built (call hg_grid_build)");
    if (!x)
        return hg_fail(e, HG_EINVAL, "insert: NULL centre");
    int h = hg_grid_level_index(g, r);
    if (h < 0)
        return hg_fail(e, HG_EINVAL,
                       "insert: radius %g must be > 0 and <= s_L / 2 = %g", r,
                       0.5 * g->sizes[g->L - 1]);
    level_t *lv = &g->lev[h];
    if (lv->kind != LV_TABLE || lv->bx)
        return hg_fail(e, HG_EINVAL,
                       "insert: level %d uses sparse storage (build with "
                       "HG_GRID_DENSE storage to insert)",
                       h + 1);
    const int D = g->dim;
    int64_t k[3] = {0, 0, 0};
    for (int a = 0; a < D; a++) {
        double lo = g->lo[a], hi = g->hi[a];
        if (!(isfinite(x[a]) && x[a] >= lo &&
              (g->periodic ? x[a] < hi : x[a] <= hi)))
            return hg_fail(e, HG_EINVAL,
                           "insert: coordinate %d = %g is outside the grid "
                           "[%g, %g]",
                           a, x[a], lo, hi);
        k[a] = cell_coord(g, lv, a, x[a]);
    }
    if (g->n + g->np + 1 >= (size_t)INT32_MAX)
        return hg_fail(e, HG_ELIMIT, "insert: too many particles");
    if (!g->phead) {
        g->phead = malloc((g->total_cells ? g->total_cells : 1) *
                          sizeof *g->phead);
        if (!g->phead)
            return hg_fail(e, HG_ENOMEM, "out of memory");
        for (size_t c = 0; c < g->total_cells; c++)
            g->phead[c] = -1;
    }
    if (g->np == g->npcap) {
        size_t cap = g->npcap ? 2 * g->npcap : 256;
        double *px = realloc(g->px, cap * (size_t)D * sizeof *px);
        if (px)
            g->px = px;
        double *pr = realloc(g->pr, cap * sizeof *pr);
        if (pr)
            g->pr = pr;
        int32_t *pn = realloc(g->pnext, cap * sizeof *pn);
        if (pn)
            g->pnext = pn;
        if (!px || !pr || !pn)
            return hg_fail(e, HG_ENOMEM, "out of memory");
        g->npcap = cap;
    }
    size_t gid = lv->base + (size_t)canon(lv, k);
    memcpy(g->px + g->np * (size_t)D, x, (size_t)D * sizeof *x);
    g->pr[g->np] = r;
    g->pnext[g->np] = g->phead[gid];
    g->phead[gid] = (int32_t)g->np;
    g->np++;
    lv->total++;
    return HG_OK;
}
