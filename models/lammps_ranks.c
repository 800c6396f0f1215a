/* lammps_ranks.c - a frame split over MPI ranks as LAMMPS splits it
 * (hg_ranks.h): the processor grid (procmap.cpp), the shrink-wrapped box
 * (domain.cpp, reset_box), shift balancing (balance.cpp: tally, adjust,
 * imbalance_splits), recursive coordinate bisection (rcb.cpp, compute:
 * the cut tried along every axis, the one whose smaller half is largest
 * kept), the sub-boxes from the cuts' fractions of the box (domain.cpp,
 * set_local_box), ownership by [lo, hi) (comm exchange), and the ghost
 * atoms every rank receives (comm_brick.cpp and comm_tiled.cpp, borders:
 * whatever lies within the ghost cutoff of the sub-box, periodic images
 * included, mode multi per atom).
 *
 * LAMMPS runs these on distributed atoms with reductions over the ranks;
 * here they run on all atoms at once, with the same arithmetic, so the
 * cuts come out the same (the one freedom left, which of several atoms at
 * the very same coordinate rcb moves across a cut, changes no count). */
#include "hg_ranks.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHRINK_SMALL 1.0e-4 /* domain.cpp: shrink-wrap margin, of the edge */
#define RCB_TINY 1.0e-6     /* rcb.cpp: tolerance of one atom's weight */
#define MAX_IMAGES 64       /* periodic images per axis a ghost cutoff
                               may span before the frame is refused */

void hg_ranks_layout_default(hg_ranks_layout *l, int nprocs)
{
    memset(l, 0, sizeof *l);
    l->nprocs = nprocs;
    l->thresh = 1.0;
    l->niter = 20;
    l->stopthresh = 1.0;
}

/* Remove the grids keep() refuses, each replaced by the last of the list
 * (procmap.cpp's culls reorder the list so; the order decides ties). */
static int cull(int (*f)[3], int n, int dim, const int *user)
{
    int i = 0;
    while (i < n) {
        int drop = user ? (user[0] && f[i][0] != user[0]) ||
                              (user[1] && f[i][1] != user[1]) ||
                              (user[2] && f[i][2] != user[2])
                        : dim == 2 && f[i][2] != 1;
        if (drop) {
            memcpy(f[i], f[n - 1], sizeof f[i]);
            n--;
        } else
            i++;
    }
    return n;
}

int hg_ranks_grid(int nprocs, int dim, const double *len, const int *user,
                  int g[3], hg_err *e)
{
    /* every factorisation in LAMMPS' order, the 2D and user culls, the
     * least surface (the first of equals) */
    int n = 0;
    for (int x = 1; x <= nprocs; x++)
        if (nprocs % x == 0)
            for (int y = 1; y <= nprocs / x; y++)
                n += (nprocs / x) % y == 0;
    int(*f)[3] = malloc(sizeof *f * (size_t)n);
    if (!f)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    n = 0;
    for (int x = 1; x <= nprocs; x++)
        if (nprocs % x == 0)
            for (int y = 1; y <= nprocs / x; y++)
                if ((nprocs / x) % y == 0) {
                    f[n][0] = x;
                    f[n][1] = y;
                    f[n][2] = nprocs / x / y;
                    n++;
                }
    if (dim == 2)
        n = cull(f, n, dim, NULL);
    n = cull(f, n, dim, user);
    double z = dim == 3 ? len[2] : 1.0;
    double area[3] = {len[0] * len[1], len[0] * z, len[1] * z};
    double best = 2.0 * (area[0] + area[1] + area[2]);
    int found = 0;
    for (int m = 0; m < n; m++) {
        double surf = area[0] / f[m][0] / f[m][1] +
                      area[1] / f[m][0] / f[m][2] +
                      area[2] / f[m][1] / f[m][2];
        if (surf < best) {
            best = surf;
            memcpy(g, f[m], sizeof f[m]);
            found = 1;
        }
    }
    free(f);
    if (!found)
        return hg_fail(e, HG_EINVAL,
                       "processors %d %d %d: no grid of %d ranks fits (%s)",
                       user[0], user[1], user[2], nprocs,
                       dim == 2 ? "2D: the z count must be 1"
                                : "the counts must multiply to the ranks");
    return HG_OK;
}

int hg_ranks_faces_parse(const char *text, int dim, char faces[3][2],
                         hg_err *e)
{
    hg_particles q = {.dim = dim};
    int st = hg_particles_set_boundary(&q, text, e);
    if (st)
        return st;
    /* the words again, for the upper faces (set_boundary keeps one) */
    const char *t = text;
    int spaced = strpbrk(t, " ,\t") != NULL;
    for (int a = 0; a < 3; a++)
        faces[a][0] = faces[a][1] = a < dim ? q.boundary[a] : 'p';
    for (int a = 0; a < dim && *t; a++) {
        while (*t == ' ' || *t == ',' || *t == '\t')
            t++;
        faces[a][0] = faces[a][1] = *t ? *t++ : 'p';
        if (spaced && *t && !strchr(" ,\t", *t))
            faces[a][1] = *t++;
    }
    return HG_OK;
}

/* ---- the layout's lines ---- */

static int parse_count(const char *w, long hi, int *v)
{
    char *end;
    long x = strtol(w, &end, 10);
    if (end == w || *end || x < 1 || x > hi)
        return -1;
    *v = (int)x;
    return 0;
}

static int parse_int(const char *w, int *v)
{
    return parse_count(w, HG_RANKS_MAX, v);
}

static int parse_num(const char *w, double *v)
{
    char *end;
    double x = strtod(w, &end);
    if (end == w || *end || !isfinite(x))
        return -1;
    *v = x;
    return 0;
}

/* The words of one command line (at most 32, each at most 63 chars). */
static int split_words(const char *line, char w[32][64])
{
    int n = 0;
    const char *t = line;
    while (*t && n < 32) {
        while (isspace((unsigned char)*t))
            t++;
        if (!*t || *t == '#')
            break;
        size_t k = 0;
        while (*t && !isspace((unsigned char)*t)) {
            if (k < 63)
                w[n][k++] = *t;
            t++;
        }
        w[n][k] = 0;
        n++;
    }
    return n;
}

/* The keywords after a balance style from word i: `weight time F` is
 * kept (a rank's atoms weighed by its timers); the other keywords do not
 * move what a frame can show. */
static void parse_weight(char w[32][64], int n, int i, hg_ranks_layout *l)
{
    for (; i + 2 < n; i++)
        if (!strcmp(w[i], "weight") && !strcmp(w[i + 1], "time"))
            (void)parse_num(w[i + 2], &l->weight_time);
}

/* balance/fix balance arguments from word i: THRESH then a style. */
static int parse_balance(char w[32][64], int n, int i, int dim, int fix,
                         const char *line, hg_ranks_layout *l, hg_err *e)
{
    if (i >= n || parse_num(w[i], &l->thresh) || l->thresh < 0.0)
        return hg_fail(e, HG_EINVAL,
                       "'%s': the threshold must be a number >= 0", line);
    i++;
    if (i < n && !strcmp(w[i], "shift")) {
        if (i + 3 >= n)
            return hg_fail(e, HG_EINVAL,
                           "'%s': shift needs DIMS NITER STOPTHRESH", line);
        size_t k = strlen(w[i + 1]);
        if (k < 1 || k > 3)
            return hg_fail(e, HG_EINVAL, "'%s': shift axes '%s'", line,
                           w[i + 1]);
        for (size_t a = 0; a < k; a++) {
            char c = w[i + 1][a];
            if ((c != 'x' && c != 'y' && c != 'z') ||
                (c == 'z' && dim == 2) || strchr(w[i + 1] + a + 1, c))
                return hg_fail(e, HG_EINVAL,
                               "'%s': shift axes '%s' (LAMMPS: \"Balance "
                               "shift string is invalid\")",
                               line, w[i + 1]);
        }
        snprintf(l->dims, sizeof l->dims, "%s", w[i + 1]);
        if (parse_count(w[i + 2], 1000000L, &l->niter) ||
            parse_num(w[i + 3], &l->stopthresh) || l->stopthresh < 1.0)
            return hg_fail(e, HG_EINVAL,
                           "'%s': shift needs NITER >= 1 and STOPTHRESH "
                           ">= 1",
                           line);
        l->balance = HG_RANKS_SHIFT;
        l->fix = fix;
        parse_weight(w, n, i + 4, l);
        return HG_OK;
    }
    if (i < n && !strcmp(w[i], "rcb")) {
        l->balance = HG_RANKS_RCB;
        l->fix = fix;
        parse_weight(w, n, i + 1, l);
        return HG_OK;
    }
    return hg_fail(e, HG_EINVAL,
                   "'%s': only the shift and rcb styles of balance are "
                   "modelled",
                   line);
}

static int parse_line(const char *line, int dim, int *tiled,
                      hg_ranks_layout *l, hg_err *e)
{
    char w[32][64];
    int n = split_words(line, w);
    if (n == 0)
        return HG_OK;
    if (!strcmp(w[0], "processors")) {
        if (n < 4)
            return hg_fail(e, HG_EINVAL, "'%s': processors Px Py Pz",
                           line);
        for (int a = 0; a < 3; a++) {
            if (!strcmp(w[a + 1], "*"))
                l->user[a] = 0;
            else if (parse_int(w[a + 1], &l->user[a]))
                return hg_fail(e, HG_EINVAL,
                               "'%s': '%s' is not a count or *", line,
                               w[a + 1]);
        }
        if (n > 4)
            return hg_fail(e, HG_EINVAL,
                           "'%s': the keywords after Px Py Pz (grid, map, "
                           "part, ...) are not modelled",
                           line);
        return HG_OK;
    }
    if (!strcmp(w[0], "newton")) { /* newton PAIR [BOND] */
        if (n < 2 || (strcmp(w[1], "on") && strcmp(w[1], "off")))
            return hg_fail(e, HG_EINVAL, "'%s': newton on or off", line);
        l->newton_off = !strcmp(w[1], "off");
        return HG_OK;
    }
    if (!strcmp(w[0], "comm_style")) {
        if (n < 2 || (strcmp(w[1], "tiled") && strcmp(w[1], "brick")))
            return hg_fail(e, HG_EINVAL, "'%s': comm_style brick or tiled",
                           line);
        *tiled = !strcmp(w[1], "tiled");
        return HG_OK;
    }
    if (!strcmp(w[0], "comm_modify")) {
        for (int i = 1; i + 1 < n; i++)
            if (!strcmp(w[i], "cutoff") &&
                (parse_num(w[i + 1], &l->comm_cutoff) ||
                 l->comm_cutoff < 0.0))
                return hg_fail(e, HG_EINVAL,
                               "'%s': cutoff '%s' must be a number >= 0",
                               line, w[i + 1]);
        return HG_OK;
    }
    if (!strcmp(w[0], "balance"))
        return parse_balance(w, n, 1, dim, 0, line, l, e);
    if (n >= 4 && !strcmp(w[0], "fix") && !strcmp(w[3], "balance")) {
        if (n < 6 || parse_count(w[4], 1000000000L, &l->fix_every))
            return hg_fail(e, HG_EINVAL,
                           "'%s': fix ID GROUP balance NEVERY THRESH ...",
                           line);
        return parse_balance(w, n, 5, dim, 1, line, l, e);
    }
    return HG_OK;
}

int hg_ranks_layout_parse(const char *lines, int dim, hg_ranks_layout *l,
                          hg_err *e)
{
    int tiled = 0, st = HG_OK;
    const char *t = lines ? lines : "";
    while (*t && st == HG_OK) {
        size_t k = strcspn(t, "\n;");
        char line[512];
        if (k >= sizeof line)
            return hg_fail(e, HG_EINVAL, "a line of %zu characters is too "
                                         "long",
                           k);
        memcpy(line, t, k);
        line[k] = 0;
        st = parse_line(line, dim, &tiled, l, e);
        t += k + (t[k] != 0);
    }
    if (st)
        return st;
    if (dim == 2 && l->user[2] > 1)
        return hg_fail(e, HG_EINVAL,
                       "processors: a 2D run has 1 rank along z, not %d",
                       l->user[2]);
    if (l->balance == HG_RANKS_RCB && !tiled)
        return hg_fail(e, HG_EINVAL,
                       "balance rcb needs comm_style tiled before it "
                       "(LAMMPS: \"Balance rcb cannot be used with "
                       "comm_style brick\")");
    if (tiled && l->balance != HG_RANKS_RCB)
        return hg_fail(e, HG_EINVAL,
                       "comm_style tiled without balance rcb: the layout "
                       "is a brick until a balance; give the balance line");
    return HG_OK;
}

int hg_ranks_split_axes(const int grid[3], int dim, char dims[4])
{
    int k = 0;
    for (int a = 0; a < dim && a < 3; a++)
        if (grid[a] > 1)
            dims[k++] = (char)('x' + a);
    dims[k] = 0;
    return k;
}

void hg_ranks_layout_lines(const hg_ranks_layout *l, int dim, char *buf,
                           size_t len)
{
    char u[3][16];
    for (int a = 0; a < 3; a++)
        snprintf(u[a], sizeof u[a], l->user[a] ? "%d" : "*", l->user[a]);
    /* rcb: the grid is only where the run starts */
    size_t n = l->balance == HG_RANKS_RCB
                   ? (size_t)snprintf(buf, len, "%s", "")
                   : (size_t)snprintf(buf, len, "processors %s %s %s\n",
                                      u[0], u[1], dim == 2 ? "1" : u[2]);
    if (n < len && l->newton_off) /* pair off, bond as by default */
        n += (size_t)snprintf(buf + n, len - n, "newton off on\n");
    if (n >= len)
        return;
    if (l->comm_cutoff > 0.0)
        n += (size_t)snprintf(buf + n, len - n, "comm_modify cutoff %.6g\n",
                              l->comm_cutoff);
    if (n >= len || l->balance == HG_RANKS_NONE)
        return;
    char head[64];
    if (l->fix)
        snprintf(head, sizeof head, "fix hgridopt_balance all balance %d",
                 l->fix_every > 0 ? l->fix_every : 1000);
    else
        snprintf(head, sizeof head, "balance");
    char th[32], stop[32];
    snprintf(th, sizeof th, l->thresh == floor(l->thresh) ? "%.1f" : "%.6g",
             l->thresh);
    snprintf(stop, sizeof stop,
             l->stopthresh == floor(l->stopthresh) ? "%.1f" : "%.6g",
             l->stopthresh);
    char weight[48] = "";
    if (l->weight_time > 0.0)
        snprintf(weight, sizeof weight, " weight time %.6g", l->weight_time);
    if (l->balance == HG_RANKS_RCB)
        snprintf(buf + n, len - n, "comm_style tiled\n%s %s rcb%s\n", head,
                 th, weight);
    else
        snprintf(buf + n, len - n, "%s %s shift %s %d %s%s\n", head, th,
                 l->dims, l->niter, stop, weight);
}

/* ---- the frame ---- */

typedef struct frame {
    int dim;
    size_t n;
    const double *x; /* n * dim */
    const double *r;
    double lo[3], hi[3], prd[3];
    int per[3];
} frame;

/* LAMMPS' binary(): the slab of value among n slabs of cuts vec[0..n]. */
static int slab_of(double v, int n, const double *vec)
{
    int lo = 0, hi = n - 1;
    if (v < vec[lo])
        return lo;
    if (v >= vec[hi])
        return hi;
    int idx = (lo + hi) / 2;
    while (lo < hi - 1) {
        if (v < vec[idx])
            hi = idx;
        else
            lo = idx;
        idx = (lo + hi) / 2;
    }
    return idx;
}

/* The coordinate of atom i along a, in the box (periodic axes wrapped). */
static double coord(const frame *f, size_t i, int a)
{
    double v = f->x[i * (size_t)f->dim + (size_t)a];
    if (f->per[a] && (v < f->lo[a] || v >= f->hi[a])) {
        v = f->lo[a] + fmod(v - f->lo[a], f->prd[a]);
        if (v < f->lo[a])
            v += f->prd[a];
        if (v >= f->hi[a])
            v = f->lo[a];
    }
    return v;
}

/* domain.cpp reset_box: shrink-wrapped faces round the atoms. */
static void shrink_wrap(frame *f, const char (*faces)[2])
{
    for (int a = 0; a < f->dim; a++) {
        if (f->per[a])
            continue;
        double mn = INFINITY, mx = -INFINITY;
        for (size_t i = 0; i < f->n; i++) {
            double v = f->x[i * (size_t)f->dim + (size_t)a];
            mn = fmin(mn, v);
            mx = fmax(mx, v);
        }
        double small = SHRINK_SMALL * (f->hi[a] - f->lo[a]);
        char lo = faces[a][0], hi = faces[a][1];
        if (lo == 's')
            f->lo[a] = mn - small;
        else if (lo == 'm')
            f->lo[a] = fmin(mn - small, f->lo[a]);
        if (hi == 's')
            f->hi[a] = mx + small;
        else if (hi == 'm')
            f->hi[a] = fmax(mx + small, f->hi[a]);
        f->prd[a] = f->hi[a] - f->lo[a];
    }
}

/* ---- shift balancing (balance.cpp) ---- */

typedef struct shift_state {
    int np;
    double *sum, *target, *lo, *hi, *losum, *hisum;
} shift_state;

static void tally(const frame *f, const double *lam, int np,
                  const double *split, double *sum)
{
    (void)f;
    for (int i = 0; i <= np; i++)
        sum[i] = 0.0;
    double *one = sum + 1; /* counts per slab, summed below */
    for (size_t i = 0; i < f->n; i++)
        one[slab_of(lam[i], np, split)] += 1.0;
    for (int i = 1; i <= np; i++)
        sum[i] += sum[i - 1];
}

static int adjust(shift_state *s, double *split, int rho)
{
    int n = s->np;
    for (int i = 1; i < n; i++) {
        if (s->sum[i] <= s->target[i]) {
            s->lo[i] = split[i];
            s->losum[i] = s->sum[i];
        }
        if (s->sum[i] >= s->target[i]) {
            s->hi[i] = split[i];
            s->hisum[i] = s->sum[i];
        }
    }
    for (int i = 1; i < n; i++)
        if (s->lo[i] < s->lo[i - 1]) {
            s->lo[i] = s->lo[i - 1];
            s->losum[i] = s->losum[i - 1];
        }
    for (int i = n - 1; i > 0; i--)
        if (s->hi[i] > s->hi[i + 1]) {
            s->hi[i] = s->hi[i + 1];
            s->hisum[i] = s->hisum[i + 1];
        }
    int change = 0;
    for (int i = 1; i < n; i++)
        if (s->sum[i] != s->target[i]) {
            change = 1;
            if (!rho || !(s->hisum[i] > s->losum[i]))
                split[i] = 0.5 * (s->lo[i] + s->hi[i]);
            else
                split[i] = s->lo[i] + (s->target[i] - s->losum[i]) /
                                          (s->hisum[i] - s->losum[i]) *
                                          (s->hi[i] - s->lo[i]);
        }
    return change;
}

/* max / ave atoms over the grid's ranks for the cuts split (lamda
 * coordinates lam[a][i]). */
static double imbalance_splits(const frame *f, double *const lam[3],
                               const int *g, double *const split[3],
                               double *cost)
{
    int P = g[0] * g[1] * g[2];
    for (int r = 0; r < P; r++)
        cost[r] = 0.0;
    for (size_t i = 0; i < f->n; i++) {
        int ix = slab_of(lam[0][i], g[0], split[0]);
        int iy = slab_of(lam[1][i], g[1], split[1]);
        int iz = f->dim == 3 ? slab_of(lam[2][i], g[2], split[2]) : 0;
        cost[(iz * g[1] + iy) * g[0] + ix] += 1.0;
    }
    double mx = 0.0, tot = 0.0;
    for (int r = 0; r < P; r++) {
        mx = fmax(mx, cost[r]);
        tot += cost[r];
    }
    return mx > 0.0 ? mx / (tot / P) : 1.0;
}

static int shift_balance(const frame *f, const hg_ranks_layout *l,
                         const int *g, double *split[3], int *iters,
                         hg_err *e)
{
    int P = g[0] * g[1] * g[2], ndim = (int)strlen(l->dims), st = HG_OK;
    int mx = g[0] > g[1] ? g[0] : g[1];
    mx = mx > g[2] ? mx : g[2];
    double *lam[3] = {NULL, NULL, NULL};
    double *buf = malloc(sizeof(double) * (6 * (size_t)(mx + 1) + (size_t)P));
    for (int a = 0; a < f->dim; a++)
        lam[a] = malloc(sizeof(double) * (f->n ? f->n : 1));
    if (!buf || !lam[0] || !lam[1] || (f->dim == 3 && !lam[2])) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    for (int a = 0; a < f->dim; a++) {
        double inv = 1.0 / f->prd[a];
        for (size_t i = 0; i < f->n; i++)
            lam[a][i] = inv * (coord(f, i, a) - f->lo[a]);
    }
    shift_state s;
    s.sum = buf;
    s.target = s.sum + mx + 1;
    s.lo = s.target + mx + 1;
    s.hi = s.lo + mx + 1;
    s.losum = s.hi + mx + 1;
    s.hisum = s.losum + mx + 1;
    double *cost = s.hisum + mx + 1;
    /* one variable, as in balance.cpp: the spreading of equal cuts and of
     * cuts closer than the skin below reuse it, and the next axis's test
     * of convergence then takes what they left in it */
    double delta = pow(l->stopthresh, 1.0 / ndim) - 1.0;
    double total = (double)f->n;
    *iters = 0;
    for (int id = 0; id < ndim; id++) {
        int a = l->dims[id] - 'x';
        int np = g[a];
        double *sp = split[a];
        s.np = np;
        tally(f, lam[a], np, sp, s.sum);
        for (int i = 0; i < np; i++)
            s.target[i] = total / np * i;
        s.target[np] = total;
        s.lo[0] = s.hi[0] = 0.0;
        s.lo[np] = s.hi[np] = 1.0;
        s.losum[0] = s.hisum[0] = 0.0;
        s.losum[np] = s.hisum[np] = total;
        for (int i = 1; i < np; i++) {
            for (int j = i; j >= 0; j--)
                if (s.sum[j] <= s.target[i]) {
                    s.lo[i] = sp[j];
                    s.losum[i] = s.sum[j];
                    break;
                }
            for (int j = i; j <= np; j++)
                if (s.sum[j] >= s.target[i]) {
                    s.hi[i] = sp[j];
                    s.hisum[i] = s.sum[j];
                    break;
                }
        }
        for (int m = 0; m < l->niter; m++) {
            int change = adjust(&s, sp, l->fix);
            tally(f, lam[a], np, sp, s.sum);
            (*iters)++;
            if (!change)
                break;
            int done = 1;
            for (int i = 1; i < np; i++)
                if (fabs(s.sum[i] - s.target[i]) / s.target[i] > delta)
                    done = 0;
            if (done)
                break;
        }
        /* adjacent equal cuts spread between their neighbours' midpoints */
        int dup = 0;
        for (int i = 1; i < np - 1; i++)
            if (sp[i] == sp[i + 1])
                dup = 1;
        if (dup) {
            for (int i = 0; i < np; i++)
                s.lo[i] = 0.5 * (sp[i] + sp[i + 1]);
            int i = 1;
            while (i < np - 1) {
                int j = i + 1;
                while (j < np && sp[j] == sp[i])
                    j++;
                j--;
                if (j > i) {
                    delta = (s.lo[j] - s.lo[i - 1]) / (j - i + 2);
                    for (int k = i; k <= j; k++)
                        sp[k] = s.lo[i - 1] + (k - i + 1) * delta;
                }
                i = j + 1;
            }
        }
        /* slabs narrower than the skin widened, the cuts moved as little
         * as possible (balance.cpp after 2021: EPSNEIGH) */
        double close = (1.0 + 1.0e-3) * l->skin / f->prd[a];
        int i = 0;
        while (l->skin > 0.0 && i < np) {
            if (!(sp[i + 1] - sp[i] < close)) {
                i++;
                continue;
            }
            int j = i + 1;
            double start, stop;
            for (;;) {
                delta = (j - i) * close;
                double mid = 0.5 * (sp[i] + sp[j]);
                start = mid - 0.5 * delta;
                stop = mid + 0.5 * delta;
                double lb = i > 0 ? sp[i - 1] + close : 0.0;
                double ub = j < np ? sp[j + 1] - close : 1.0;
                if (start >= lb && stop <= ub)
                    break;
                if (start < lb) {
                    start = lb;
                    stop = start + delta;
                    if (stop <= ub)
                        break;
                } else if (stop > ub) {
                    stop = ub;
                    start = stop - delta;
                    if (start >= lb)
                        break;
                }
                if (i == 0 && j == np) {
                    start = 0.0;
                    stop = 1.0;
                    break;
                }
                if (i == 0)
                    j++;
                else if (j == np)
                    i--;
                else if (mid - lb < ub - mid)
                    i--;
                else
                    j++;
            }
            double spacing = (stop - start) / (j - i);
            for (int m = i; m <= j; m++)
                sp[m] = start + (m - i) * spacing;
            if (j == np)
                sp[np] = 1.0;
            i = j + 1;
        }
        for (int i = 0; i < np; i++)
            if (sp[i] >= sp[i + 1]) {
                st = hg_fail(e, HG_ENUMERIC,
                             "balance shift %s: the cuts along %c collapse "
                             "(LAMMPS: \"Balance produced bad splits\")",
                             l->dims, 'x' + a);
                goto done;
            }
        if (imbalance_splits(f, lam, g, split, cost) <= l->stopthresh)
            break;
    }
done:
    free(buf);
    for (int a = 0; a < 3; a++)
        free(lam[a]);
    return st;
}

/* ---- recursive coordinate bisection (rcb.cpp) ---- */

typedef struct rcb_node {
    int dim;        /* -1: a leaf */
    double cut;     /* real coordinate of the sub-boxes' common face */
    int lower, upper; /* children (node indices) */
    int rank;       /* leaf */
} rcb_node;

typedef struct rcb_tree {
    rcb_node *v;
    int n;
} rcb_tree;

/* The cut along d of the atoms idx[0..n) between lo and hi with targetlo
 * of them below it (rcb.cpp's median iteration with unit weights); marks
 * mark[k] 0 (lower) or 1 (upper) for each listed atom k; returns the cut
 * value. act is scratch of n indices. */
static double rcb_median(const double *xs, size_t n, double lo, double hi,
                         double targetlo, double targethi,
                         unsigned char *mark, size_t *act)
{
    const double tol = 1.0 + RCB_TINY;
    double wtlo = 0.0, wthi = 0.0, vmin = lo, vmax = hi, half = lo;
    size_t na = n;
    for (size_t k = 0; k < n; k++)
        act[k] = k;
    for (;;) {
        half = 0.5 * (vmin + vmax);
        double totlo = 0.0, tothi = 0.0, vlo = -1e30, vhi = 1e30;
        double clo = 0.0, chi = 0.0;
        size_t ilo = 0, ihi = 0;
        for (size_t j = 0; j < na; j++) {
            size_t k = act[j];
            double v = xs[k];
            if (v <= half) {
                totlo += 1.0;
                mark[k] = 0;
                if (v > vlo) {
                    vlo = v;
                    clo = 1.0;
                    ilo = k;
                } else if (v == vlo)
                    clo += 1.0;
            } else {
                tothi += 1.0;
                mark[k] = 1;
                if (v < vhi) {
                    vhi = v;
                    chi = 1.0;
                    ihi = k;
                } else if (v == vhi)
                    chi += 1.0;
            }
        }
        int active;
        if (wtlo + totlo < targetlo) {
            wtlo += totlo;
            half = vhi;
            if (chi == 1.0) {
                if (wtlo + 1.0 < targetlo)
                    mark[ihi] = 0;
                else {
                    if (wtlo + 1.0 - targetlo < targetlo - wtlo)
                        mark[ihi] = 0;
                    break;
                }
            } else {
                double ok = chi;
                int brk = 0;
                if (wtlo + chi >= targetlo) {
                    if (ok > targetlo - wtlo)
                        ok = targetlo - wtlo;
                    brk = 1;
                }
                double s = 0.0;
                for (size_t j = 0; j < na && s < ok; j++) {
                    size_t k = act[j];
                    if (xs[k] == vhi) {
                        if (s + 1.0 - ok < ok - s)
                            mark[k] = 0;
                        s += 1.0;
                    }
                }
                if (brk)
                    break;
            }
            wtlo += chi;
            if (targetlo - wtlo <= tol)
                break;
            vmin = vhi;
            active = 1;
        } else if (wthi + tothi < targethi) {
            wthi += tothi;
            half = vlo;
            if (clo == 1.0) {
                if (wthi + 1.0 < targethi)
                    mark[ilo] = 1;
                else {
                    if (wthi + 1.0 - targethi < targethi - wthi)
                        mark[ilo] = 1;
                    break;
                }
            } else {
                double ok = clo;
                int brk = 0;
                if (wthi + clo >= targethi) {
                    if (ok > targethi - wthi)
                        ok = targethi - wthi;
                    brk = 1;
                }
                double s = 0.0;
                for (size_t j = 0; j < na && s < ok; j++) {
                    size_t k = act[j];
                    if (xs[k] == vlo) {
                        if (s + 1.0 - ok < ok - s)
                            mark[k] = 1;
                        s += 1.0;
                    }
                }
                if (brk)
                    break;
            }
            wthi += clo;
            if (targethi - wthi <= tol)
                break;
            vmax = vlo;
            active = 0;
        } else
            break;
        size_t m = 0;
        for (size_t j = 0; j < na; j++)
            if (mark[act[j]] == active)
                act[m++] = act[j];
        na = m;
        if (na == 0)
            break;
    }
    return half;
}

typedef struct rcb_work {
    const frame *f;
    double *xs;           /* coordinates of the partition along one axis */
    unsigned char *mark, *best;
    size_t *act;
    double (*box)[6];     /* per rank: lo[3], hi[3] as RCB left them */
    rcb_tree *tree;
} rcb_work;

/* Partition idx[0..n) over ranks [plo, phi] within box lo..hi; returns
 * the node index. */
static int rcb_split(rcb_work *w, size_t *idx, size_t n, int plo, int phi,
                     double lo[3], double hi[3])
{
    rcb_node *node = &w->tree->v[w->tree->n];
    int self = w->tree->n++;
    if (plo == phi) {
        node->dim = -1;
        node->rank = plo;
        for (int a = 0; a < 3; a++) {
            w->box[plo][a] = lo[a];
            w->box[plo][3 + a] = hi[a];
        }
        return self;
    }
    int mid = plo + (phi - plo) / 2 + 1;
    double tot = (double)n;
    double tlo = tot * (mid - plo) / (phi + 1 - plo), thi = tot - tlo;
    int dsel = -1;
    double largest = -1.0, vsel = 0.0;
    for (int d = 0; d < w->f->dim; d++) {
        for (size_t k = 0; k < n; k++)
            w->xs[k] = coord(w->f, idx[k], d);
        double v = rcb_median(w->xs, n, lo[d], hi[d], tlo, thi, w->mark,
                              w->act);
        double smaller = fmin(v - lo[d], hi[d] - v);
        if (smaller > largest) {
            largest = smaller;
            dsel = d;
            vsel = v;
            memcpy(w->best, w->mark, n);
        }
    }
    if (largest == 0.0) {
        dsel = hi[1] - lo[1] > hi[0] - lo[0] ? 1 : 0;
        if (w->f->dim == 3 && hi[2] - lo[2] > hi[dsel] - lo[dsel])
            dsel = 2;
        vsel = 0.5 * (lo[dsel] + hi[dsel]);
        for (size_t k = 0; k < n; k++)
            w->best[k] = coord(w->f, idx[k], dsel) <= vsel ? 0 : 1;
    }
    /* lower atoms first */
    size_t nl = 0;
    for (size_t k = 0; k < n; k++)
        if (!w->best[k])
            nl++;
    size_t *tmp = malloc(sizeof *tmp * (n ? n : 1));
    if (!tmp)
        return -1;
    size_t a = 0, b = nl;
    for (size_t k = 0; k < n; k++)
        tmp[w->best[k] ? b++ : a++] = idx[k];
    memcpy(idx, tmp, sizeof *tmp * n);
    free(tmp);
    double lhi[3] = {hi[0], hi[1], hi[2]}, ulo[3] = {lo[0], lo[1], lo[2]};
    lhi[dsel] = vsel;
    ulo[dsel] = vsel;
    int li = rcb_split(w, idx, nl, plo, mid - 1, lo, lhi);
    if (li < 0)
        return -1;
    int ui = rcb_split(w, idx + nl, n - nl, mid, phi, ulo, hi);
    if (ui < 0)
        return -1;
    node = &w->tree->v[self];
    node->dim = dsel;
    node->cut = vsel; /* made real below */
    node->lower = li;
    node->upper = ui;
    return self;
}

/* A fraction of the box and back (balance.cpp, domain.cpp set_local_box),
 * the arithmetic LAMMPS does. */
static double frac_real(const frame *f, int a, double v)
{
    double fr = (v - f->lo[a]) / f->prd[a];
    return fr < 1.0 ? f->lo[a] + f->prd[a] * fr : f->hi[a];
}

static int rcb_balance(const frame *f, int P, rcb_tree *tree,
                       double (*box)[6], hg_err *e)
{
    double lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = a < f->dim ? INFINITY : f->lo[a];
        hi[a] = a < f->dim ? -INFINITY : f->hi[a];
    }
    for (size_t i = 0; i < f->n; i++)
        for (int a = 0; a < f->dim; a++) {
            double v = coord(f, i, a);
            lo[a] = fmin(lo[a], v);
            hi[a] = fmax(hi[a], v);
        }
    double slo[3], shi[3];
    for (int a = 0; a < 3; a++) {
        if (lo[a] == hi[a]) {
            lo[a] = f->lo[a];
            hi[a] = f->hi[a];
        }
        slo[a] = lo[a];
        shi[a] = hi[a];
    }
    rcb_work w = {.f = f, .box = box, .tree = tree};
    size_t n = f->n ? f->n : 1;
    size_t *idx = malloc(sizeof *idx * n);
    w.xs = malloc(sizeof *w.xs * n);
    w.mark = malloc(n);
    w.best = malloc(n);
    w.act = malloc(sizeof *w.act * n);
    tree->v = calloc((size_t)(2 * P), sizeof *tree->v);
    tree->n = 0;
    int st = HG_OK;
    if (!idx || !w.xs || !w.mark || !w.best || !w.act || !tree->v) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < f->n; i++)
        idx[i] = i;
    if (rcb_split(&w, idx, f->n, 0, P - 1, lo, hi) < 0) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    /* faces on the atoms' bounding box are the box's; the rest go through
     * fractions of the box */
    for (int r = 0; r < P; r++)
        for (int a = 0; a < 3; a++) {
            double *l = &box[r][a], *h = &box[r][3 + a];
            *l = *l == slo[a] ? f->lo[a]
                 : a < f->dim ? frac_real(f, a, *l)
                              : *l;
            *h = *h == shi[a] ? f->hi[a]
                 : a < f->dim ? frac_real(f, a, *h)
                              : *h;
        }
    for (int k = 0; k < tree->n; k++)
        if (tree->v[k].dim >= 0)
            tree->v[k].cut = frac_real(f, tree->v[k].dim, tree->v[k].cut);
done:
    free(idx);
    free(w.xs);
    free(w.mark);
    free(w.best);
    free(w.act);
    return st;
}

/* ---- owners, ghosts, pairs ---- */

static int rcb_owner(const rcb_tree *t, const double *y)
{
    int k = 0;
    while (t->v[k].dim >= 0)
        k = y[t->v[k].dim] < t->v[k].cut ? t->v[k].lower : t->v[k].upper;
    return t->v[k].rank;
}

/* Where ghosts are counted: per rank at the ghost cutoff c, and, for a
 * profile, at each of the cutoffs cuts[0..ncut-1] (ascending) into
 * bucket[rank * ncut + i] (made cumulative by the caller). */
typedef struct ghost_sink {
    hg_ranks_rank *rk;
    double c;
    const double *cuts;
    int ncut;
    size_t *bucket;
} ghost_sink;

static void sink_add(ghost_sink *g, int rank, double dist)
{
    if (dist <= g->c)
        g->rk[rank].nghost++;
    if (!g->ncut)
        return;
    int lo = 0, hi = g->ncut; /* the first cut >= dist */
    while (lo < hi) {
        int m = (lo + hi) / 2;
        if (g->cuts[m] >= dist)
            hi = m;
        else
            lo = m + 1;
    }
    if (lo < g->ncut)
        g->bucket[(size_t)rank * (size_t)g->ncut + (size_t)lo]++;
}

/* How far y lies outside box b (the largest distance along an axis; 0
 * inside). */
static double outside(const double *b, const double *y, int dim)
{
    double d = 0.0;
    for (int a = 0; a < dim; a++)
        d = fmax(d, fmax(b[a] - y[a], y[a] - b[3 + a]));
    return d;
}

/* The ranks whose boxes, grown by c, hold the point y, but skip (its
 * owner for the unshifted image, -1 else). */
static void rcb_ghosts(const rcb_tree *t, int k, const double *y, double c,
                       double (*box)[6], int dim, int skip, ghost_sink *g)
{
    const rcb_node *nd = &t->v[k];
    if (nd->dim < 0) {
        if (nd->rank == skip)
            return;
        double d = outside(box[nd->rank], y, dim);
        if (d <= c)
            sink_add(g, nd->rank, d);
        return;
    }
    if (y[nd->dim] <= nd->cut + c)
        rcb_ghosts(t, nd->lower, y, c, box, dim, skip, g);
    if (y[nd->dim] >= nd->cut - c)
        rcb_ghosts(t, nd->upper, y, c, box, dim, skip, g);
}

/* The image shifts along axis a that can reach within c of the box. */
static int image_range(const frame *f, int a, double c, int *kmax)
{
    if (!f->per[a]) {
        *kmax = 0;
        return HG_OK;
    }
    double k = ceil(c / f->prd[a]) + 1.0;
    if (k > MAX_IMAGES)
        return -1;
    *kmax = (int)k;
    return HG_OK;
}

/* Cell list over the frame for the stored pairs (mixed periodicity). */
typedef struct cells {
    int nc[3];
    double w[3];
    size_t *head, *next;
} cells;

static size_t cell_of(const frame *f, const cells *cl, const double *y)
{
    size_t idx = 0;
    for (int a = f->dim - 1; a >= 0; a--) {
        long k = (long)floor((y[a] - f->lo[a]) / cl->w[a]);
        if (k < 0)
            k = 0;
        if (k >= cl->nc[a])
            k = cl->nc[a] - 1;
        idx = idx * (size_t)cl->nc[a] + (size_t)k;
    }
    return idx;
}

/* The cells along axis a that particle cell c with reach k cells scans:
 * *cnt from *k0 (wrapped along a periodic axis, each at most once). */
static void scan_span(const frame *f, const cells *cl, int a, int c, int k,
                      int *k0, int *cnt)
{
    int n = cl->nc[a];
    if (f->per[a] && 2 * k + 1 >= n) {
        *k0 = 0;
        *cnt = n;
    } else if (f->per[a]) {
        *k0 = c - k;
        *cnt = 2 * k + 1;
    } else {
        int lo = c - k < 0 ? 0 : c - k, hi = c + k >= n ? n - 1 : c + k;
        *k0 = lo;
        *cnt = hi - lo + 1;
    }
}

/* Every pair within r_i + r_j + skin (periodic axes: minimum image),
 * each found by the larger of the two (the later in file order between
 * equals), which scans the cells within its 2 r_i + skin: cells sized
 * for the median atom, so that a few large atoms among many small ones
 * cost their own neighbourhood, not every pair (a cell list sized for
 * the largest, as before, checked all 5e7 pairs of LAMMPS'
 * multi/in.powerlaw, diameters 1-164 in a box of 322). */
static int find_pairs(const frame *f, double skin, hg_pairs *out, hg_err *e)
{
    double *rs = malloc(sizeof(double) * (f->n ? f->n : 1));
    if (!rs)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    memcpy(rs, f->r, sizeof(double) * f->n);
    qsort(rs, f->n, sizeof(double), hg_cmp_double);
    double rmed = f->n ? rs[f->n / 2] : 0.0;
    free(rs);
    double reach = 2.0 * rmed + skin;
    cells cl = {{1, 1, 1}, {1, 1, 1}, NULL, NULL};
    size_t ncell = 1;
    for (int a = 0; a < f->dim; a++) {
        double nb = reach > 0.0 ? floor(f->prd[a] / reach) : 1.0;
        if (nb < 1.0)
            nb = 1.0;
        double room = floor((double)(4 * f->n + 1000) / (double)ncell);
        if (nb > room)
            nb = fmax(1.0, room);
        cl.nc[a] = (int)nb;
        cl.w[a] = f->prd[a] / nb;
        ncell *= (size_t)nb;
    }
    cl.head = malloc(sizeof(size_t) * ncell);
    cl.next = malloc(sizeof(size_t) * (f->n ? f->n : 1));
    double *y = malloc(sizeof(double) * 3 * (f->n ? f->n : 1));
    int st = HG_OK;
    if (!cl.head || !cl.next || !y) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t c = 0; c < ncell; c++)
        cl.head[c] = (size_t)-1;
    for (size_t i = 0; i < f->n; i++) {
        for (int a = 0; a < 3; a++)
            y[3 * i + a] = a < f->dim ? coord(f, i, a) : 0.0;
        size_t c = cell_of(f, &cl, &y[3 * i]);
        cl.next[i] = cl.head[c];
        cl.head[c] = i;
    }
    for (size_t i = 0; i < f->n && st == HG_OK; i++) {
        int k0[3] = {0, 0, 0}, kn[3] = {1, 1, 1};
        for (int a = 0; a < f->dim; a++) {
            long q = (long)floor((y[3 * i + a] - f->lo[a]) / cl.w[a]);
            int ci = (int)(q < 0 ? 0 : q >= cl.nc[a] ? cl.nc[a] - 1 : q);
            /* the cells within 2 r_i + skin of any point of its own
             * (r_j <= r_i: every partner is that near) */
            double kk = ceil((2.0 * f->r[i] + skin) / cl.w[a]);
            int k = kk > (double)cl.nc[a] ? cl.nc[a] : (int)kk;
            scan_span(f, &cl, a, ci, k < 1 ? 1 : k, &k0[a], &kn[a]);
        }
        for (int oz = 0; oz < kn[2] && st == HG_OK; oz++)
            for (int oy = 0; oy < kn[1] && st == HG_OK; oy++)
                for (int ox = 0; ox < kn[0] && st == HG_OK; ox++) {
                    int o[3] = {k0[0] + ox, k0[1] + oy, k0[2] + oz};
                    size_t id = 0;
                    for (int a = f->dim - 1; a >= 0; a--) {
                        int c = ((o[a] % cl.nc[a]) + cl.nc[a]) % cl.nc[a];
                        id = id * (size_t)cl.nc[a] + (size_t)c;
                    }
                    for (size_t j = cl.head[id]; j != (size_t)-1;
                         j = cl.next[j]) {
                        if (j == i || f->r[j] > f->r[i] ||
                            (f->r[j] == f->r[i] && j < i))
                            continue;
                        double d2 = 0.0;
                        for (int a = 0; a < f->dim; a++) {
                            double d = y[3 * j + a] - y[3 * i + a];
                            if (f->per[a]) {
                                if (d > 0.5 * f->prd[a])
                                    d -= f->prd[a];
                                else if (d < -0.5 * f->prd[a])
                                    d += f->prd[a];
                            }
                            d2 += d * d;
                        }
                        double c = f->r[i] + f->r[j] + skin;
                        size_t lo = i < j ? i : j, hi = i < j ? j : i;
                        if (d2 < c * c &&
                            hg_pairs_push(out, (uint32_t)lo, (uint32_t)hi)) {
                            st = hg_fail(e, HG_ENOMEM, "out of memory");
                            break;
                        }
                    }
                }
    }
done:
    free(cl.head);
    free(cl.next);
    free(y);
    return st;
}

/* Every image of every atom within the ghost cutoff of a rank's
 * sub-box (comm_brick and comm_tiled borders), counted per rank (and per
 * profile cutoff: sink_add). The reach searched is the largest of the
 * cutoffs. */
static int count_ghosts(const frame *f, const hg_ranks_layout *l,
                        hg_ranks_result *out, const int *owner,
                        double (*box)[6], const rcb_tree *tree,
                        double cutghost, const double *atom_cut,
                        const double *cuts, int ncut, size_t *bucket,
                        hg_err *e)
{
    const int *g = out->grid;
    ghost_sink sink = {out->ranks, 0.0, cuts, ncut, bucket};
    /* per axis: the (slab, image shift, distance) triples in reach */
    int cap[3];
    int *sl[3] = {NULL, NULL, NULL}, *sh[3] = {NULL, NULL, NULL};
    double *sd[3] = {NULL, NULL, NULL};
    int st = HG_OK;
    for (int a = 0; a < 3; a++) {
        cap[a] = (2 * MAX_IMAGES + 1) * g[a];
        sl[a] = malloc(sizeof(int) * (size_t)cap[a]);
        sh[a] = malloc(sizeof(int) * (size_t)cap[a]);
        sd[a] = malloc(sizeof(double) * (size_t)cap[a]);
        if (!sl[a] || !sh[a] || !sd[a]) {
            st = hg_fail(e, HG_ENOMEM, "out of memory");
            goto done;
        }
    }
    for (size_t i = 0; i < f->n; i++) {
        double c = atom_cut ? atom_cut[i] : cutghost;
        if (l->comm_cutoff > c)
            c = l->comm_cutoff;
        if (!(c >= 0.0) || !isfinite(c)) {
            st = hg_fail(e, HG_EINVAL, "ghost cutoff of atom %zu: %g", i, c);
            goto done;
        }
        sink.c = c;
        double reach = ncut ? fmax(c, cuts[ncut - 1]) : c;
        int kmax[3] = {0, 0, 0};
        for (int a = 0; a < f->dim; a++)
            if (image_range(f, a, reach, &kmax[a])) {
                st = hg_fail(e, HG_ELIMIT,
                             "ghost cutoff %g spans more than %d periodic "
                             "images of the %c edge %g",
                             reach, MAX_IMAGES, 'x' + a, f->prd[a]);
                goto done;
            }
        double x0[3];
        for (int a = 0; a < 3; a++)
            x0[a] = a < f->dim ? coord(f, i, a) : 0.5 * (f->lo[a] + f->hi[a]);
        if (out->tiled) {
            double y[3];
            for (int kz = -kmax[2]; kz <= kmax[2]; kz++)
                for (int ky = -kmax[1]; ky <= kmax[1]; ky++)
                    for (int kx = -kmax[0]; kx <= kmax[0]; kx++) {
                        int k[3] = {kx, ky, kz};
                        for (int a = 0; a < 3; a++)
                            y[a] = x0[a] + k[a] * f->prd[a];
                        int shifted = kx || ky || kz;
                        rcb_ghosts(tree, 0, y, reach, box, f->dim,
                                   shifted ? -1 : owner[i], &sink);
                    }
            continue;
        }
        int ns[3] = {0, 0, 0};
        for (int a = 0; a < 3; a++) {
            if (a >= f->dim) {
                sl[a][0] = sh[a][0] = 0;
                sd[a][0] = 0.0;
                ns[a] = 1;
                continue;
            }
            for (int k = -kmax[a]; k <= kmax[a]; k++) {
                double v = x0[a] + k * f->prd[a];
                for (int s = 0; s < g[a]; s++) {
                    double bl = f->lo[a] + f->prd[a] * out->split[a][s];
                    double bh = s < g[a] - 1
                                    ? f->lo[a] +
                                          f->prd[a] * out->split[a][s + 1]
                                    : f->hi[a];
                    double d = fmax(0.0, fmax(bl - v, v - bh));
                    if (d <= reach && ns[a] < cap[a]) {
                        sl[a][ns[a]] = s;
                        sh[a][ns[a]] = k;
                        sd[a][ns[a]] = d;
                        ns[a]++;
                    }
                }
            }
        }
        int own[3] = {owner[i] % g[0], (owner[i] / g[0]) % g[1],
                      owner[i] / (g[0] * g[1])};
        for (int u = 0; u < ns[2]; u++)
            for (int v = 0; v < ns[1]; v++)
                for (int w = 0; w < ns[0]; w++) {
                    if (!sh[0][w] && !sh[1][v] && !sh[2][u] &&
                        sl[0][w] == own[0] && sl[1][v] == own[1] &&
                        sl[2][u] == own[2])
                        continue;
                    double d = fmax(sd[0][w], fmax(sd[1][v], sd[2][u]));
                    sink_add(&sink,
                             (sl[2][u] * g[1] + sl[1][v]) * g[0] + sl[0][w],
                             d);
                }
    }
done:
    for (int a = 0; a < 3; a++) {
        free(sl[a]);
        free(sh[a]);
        free(sd[a]);
    }
    return st;
}

static void stats_of(const hg_ranks_rank *rk, int P, int which,
                     hg_ranks_stats *s)
{
    s->ave = 0.0;
    s->max = -INFINITY;
    s->min = INFINITY;
    for (int r = 0; r < P; r++) {
        double v = which == 0   ? (double)rk[r].nlocal
                   : which == 1 ? (double)rk[r].nghost
                                : rk[r].pairs;
        s->ave += v;
        s->max = fmax(s->max, v);
        s->min = fmin(s->min, v);
    }
    s->ave /= P;
}

void hg_ranks_result_clear(hg_ranks_result *r)
{
    if (!r)
        return;
    for (int a = 0; a < 3; a++)
        free(r->split[a]);
    free(r->ranks);
    free(r->owner);
    memset(r, 0, sizeof *r);
}

/* The frame of p: its box, periodic axes and faces (faces NULL: p's
 * letter for both faces of an axis). */
static int frame_init(const hg_particles *p, const char (*faces)[2],
                      frame *f, char fc[3][2], hg_err *e)
{
    if (p->n == 0)
        return hg_fail(e, HG_EINVAL, "the frame holds no atoms");
    if (p->dim != 2 && p->dim != 3)
        return hg_fail(e, HG_EINVAL, "dim: %d is not 2 or 3", p->dim);
    *f = (frame){.dim = p->dim, .n = p->n, .x = p->x, .r = p->r};
    for (int a = 0; a < 3; a++) {
        char b = p->boundary[a] ? p->boundary[a]
                                : (p->periodic ? 'p' : 'f');
        fc[a][0] = faces ? faces[a][0] : b;
        fc[a][1] = faces ? faces[a][1] : b;
        f->lo[a] = p->lo[a];
        f->hi[a] = p->hi[a];
        f->per[a] = a < p->dim ? fc[a][0] == 'p' : 1;
        if (a >= p->dim && !(f->hi[a] > f->lo[a])) {
            f->lo[a] = -0.5;
            f->hi[a] = 0.5;
        }
        f->prd[a] = f->hi[a] - f->lo[a];
        if (!(f->prd[a] > 0.0) || !isfinite(f->prd[a]))
            return hg_fail(e, HG_EINVAL, "box: the %c edge %g is not > 0",
                           'x' + a, f->prd[a]);
    }
    return HG_OK;
}

int hg_ranks_pairs_find(const hg_particles *p, const char (*faces)[2],
                        double skin, hg_pairs *out, hg_err *e)
{
    frame f = {0};
    char fc[3][2];
    int st = frame_init(p, faces, &f, fc, e);
    if (st)
        return st;
    if (!(skin >= 0.0) || !isfinite(skin))
        return hg_fail(e, HG_EINVAL, "skin: %g must be >= 0", skin);
    if (p->n > UINT32_MAX)
        return hg_fail(e, HG_ELIMIT, "%zu atoms: at most %u", p->n,
                       (unsigned)UINT32_MAX);
    hg_pairs_reset(out);
    return find_pairs(&f, skin, out, e);
}

static int decompose(const hg_particles *p, const char (*faces)[2],
                     const hg_ranks_layout *l, double cutghost,
                     const double *atom_cut, const hg_pairs *pairs,
                     const double *cuts, int ncut, size_t *bucket,
                     hg_ranks_result *out, hg_err *e)
{
    memset(out, 0, sizeof *out);
    int P = l->nprocs, st;
    if (P < 1 || P > HG_RANKS_MAX)
        return hg_fail(e, HG_EINVAL, "ranks: %d is outside 1..%d", P,
                       HG_RANKS_MAX);
    if (!(cutghost > 0.0) || !isfinite(cutghost))
        return hg_fail(e, HG_EINVAL, "ghost cutoff: %g must be > 0",
                       cutghost);
    if (l->balance == HG_RANKS_SHIFT) {
        for (const char *c = l->dims; *c; c++)
            if (*c - 'x' >= p->dim)
                return hg_fail(e, HG_EINVAL,
                               "balance shift %s: a %dD frame has no %c",
                               l->dims, p->dim, *c);
        if (!l->dims[0] || l->niter < 1 || !(l->stopthresh >= 1.0))
            return hg_fail(e, HG_EINVAL,
                           "balance shift: axes, NITER >= 1 and "
                           "STOPTHRESH >= 1 needed");
    }
    frame f = {0};
    char fc[3][2];
    if ((st = frame_init(p, faces, &f, fc, e)))
        return st;
    /* the grid from the box as read (LAMMPS: at read_data), the cuts
     * over the box wrapped round the atoms (at every build) */
    double len[3] = {f.prd[0], f.prd[1], f.prd[2]};
    if ((st = hg_ranks_grid(P, p->dim, len, l->user, out->grid, e)))
        return st;
    shrink_wrap(&f, fc);
    out->nprocs = P;
    out->dim = p->dim;
    out->tiled = l->balance == HG_RANKS_RCB;
    for (int a = 0; a < 3; a++) {
        out->box_lo[a] = f.lo[a];
        out->box_hi[a] = f.hi[a];
    }
    out->ranks = calloc((size_t)P, sizeof *out->ranks);
    int *owner = out->owner = malloc(sizeof *owner * p->n);
    double(*box)[6] = malloc(sizeof *box * (size_t)P);
    rcb_tree tree = {NULL, 0};
    double *cost = malloc(sizeof *cost * (size_t)P);
    for (int a = 0; a < 3; a++)
        out->split[a] = malloc(sizeof(double) * (size_t)(out->grid[a] + 1));
    if (!out->ranks || !owner || !box || !cost || !out->split[0] ||
        !out->split[1] || !out->split[2]) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto fail;
    }
    const int *g = out->grid;
    for (int a = 0; a < 3; a++) {
        for (int i = 0; i < g[a]; i++)
            out->split[a][i] = l->given[a] ? l->given[a][i] : i * 1.0 / g[a];
        out->split[a][g[a]] = 1.0;
    }
    /* the uniform grid's imbalance decides whether a balance acts */
    double *lam[3] = {NULL, NULL, NULL};
    for (int a = 0; a < f.dim && st == HG_OK; a++) {
        if (!(lam[a] = malloc(sizeof(double) * p->n)))
            st = hg_fail(e, HG_ENOMEM, "out of memory");
        else
            for (size_t i = 0; i < p->n; i++)
                lam[a][i] = (1.0 / f.prd[a]) * (coord(&f, i, a) - f.lo[a]);
    }
    double imb0 =
        st == HG_OK ? imbalance_splits(&f, lam, g, out->split, cost) : 0.0;
    for (int a = 0; a < 3; a++)
        free(lam[a]);
    if (st)
        goto fail;
    if (l->balance != HG_RANKS_NONE && !(imb0 < l->thresh)) {
        out->balanced = 1;
        if (l->balance == HG_RANKS_SHIFT)
            st = shift_balance(&f, l, g, out->split, &out->iterations, e);
        else
            st = rcb_balance(&f, P, &tree, box, e);
        if (st)
            goto fail;
    }
    if (!out->tiled || !out->balanced) {
        out->tiled = 0;
        for (int r = 0; r < P; r++) {
            int ix = r % g[0], iy = (r / g[0]) % g[1], iz = r / (g[0] * g[1]);
            int ic[3] = {ix, iy, iz};
            for (int a = 0; a < 3; a++) {
                box[r][a] = f.lo[a] + f.prd[a] * out->split[a][ic[a]];
                box[r][3 + a] = ic[a] < g[a] - 1
                                    ? f.lo[a] + f.prd[a] * out->split[a][ic[a] + 1]
                                    : f.hi[a];
            }
        }
    }
    for (int r = 0; r < P; r++)
        for (int a = 0; a < 3; a++) {
            out->ranks[r].lo[a] = box[r][a];
            out->ranks[r].hi[a] = box[r][3 + a];
        }
    /* owners */
    double y[3] = {0.0, 0.0, 0.0};
    for (size_t i = 0; i < p->n; i++) {
        for (int a = 0; a < 3; a++)
            y[a] = a < f.dim ? coord(&f, i, a) : 0.5 * (f.lo[a] + f.hi[a]);
        int r;
        if (out->tiled)
            r = rcb_owner(&tree, y);
        else {
            int ic[3] = {0, 0, 0};
            for (int a = 0; a < f.dim; a++) {
                int lo = 0, hi = g[a] - 1;
                while (lo < hi) { /* the last slab whose lo <= y */
                    int m = (lo + hi + 1) / 2;
                    double bl = f.lo[a] + f.prd[a] * out->split[a][m];
                    if (y[a] >= bl)
                        lo = m;
                    else
                        hi = m - 1;
                }
                ic[a] = lo;
            }
            r = (ic[2] * g[1] + ic[1]) * g[0] + ic[0];
        }
        owner[i] = r;
        out->ranks[r].nlocal++;
    }
    /* ghosts */
    if ((st = count_ghosts(&f, l, out, owner, box, &tree, cutghost, atom_cut,
                           cuts, ncut, bucket, e)))
        goto fail;
    for (size_t k = 0; pairs && k < pairs->n; k++) {
        const hg_pair *q = &pairs->v[k];
        if (q->i >= p->n || q->j >= p->n) {
            st = hg_fail(e, HG_EINVAL, "pair %zu: atom %u or %u is not in "
                                       "the frame of %zu",
                         k, q->i, q->j, p->n);
            goto fail;
        }
        int a = owner[q->i], b = owner[q->j];
        if (a == b)
            out->ranks[a].pairs += 1.0;
        else if (l->newton_off) { /* both ranks store it */
            out->ranks[a].pairs += 1.0;
            out->ranks[b].pairs += 1.0;
        } else {
            out->ranks[a].pairs += 0.5;
            out->ranks[b].pairs += 0.5;
        }
    }
    stats_of(out->ranks, P, 0, &out->nlocal);
    stats_of(out->ranks, P, 1, &out->nghost);
    stats_of(out->ranks, P, 2, &out->pairs);
    out->imbalance = out->nlocal.max / out->nlocal.ave;
    free(box);
    free(cost);
    free(tree.v);
    return HG_OK;
fail:
    free(box);
    free(cost);
    free(tree.v);
    hg_ranks_result_clear(out);
    return st;
}

int hg_ranks_decompose(const hg_particles *p, const char (*faces)[2],
                       const hg_ranks_layout *l, double cutghost,
                       const double *atom_cut, const hg_pairs *pairs,
                       hg_ranks_result *out, hg_err *e)
{
    return decompose(p, faces, l, cutghost, atom_cut, pairs, NULL, 0, NULL,
                     out, e);
}

void hg_ranks_profile_clear(hg_ranks_profile *r)
{
    if (!r)
        return;
    hg_ranks_result_clear(&r->res);
    free(r->nghost);
    free(r->pairs);
    memset(r, 0, sizeof *r);
}

static int check_skins(const double *skins, int ns, hg_err *e)
{
    if (ns < 1)
        return hg_fail(e, HG_EINVAL, "skins: none given");
    if (ns > 255)
        return hg_fail(e, HG_EINVAL, "skins: %d, at most 255", ns);
    for (int j = 0; j < ns; j++)
        if (!(skins[j] >= 0.0) || !isfinite(skins[j]) ||
            (j && !(skins[j] > skins[j - 1])))
            return hg_fail(e, HG_EINVAL,
                           "skins: %g must be finite, >= 0 and above the "
                           "one before",
                           skins[j]);
    return HG_OK;
}

void hg_ranks_gaps_clear(hg_ranks_gaps *g)
{
    if (!g)
        return;
    hg_pairs_clear(&g->pairs);
    free(g->skin);
    memset(g, 0, sizeof *g);
}

int hg_ranks_gaps_find(const hg_particles *p, const char (*faces)[2],
                       const double *skins, int ns, hg_ranks_gaps *out,
                       hg_err *e)
{
    memset(out, 0, sizeof *out);
    int st = check_skins(skins, ns, e);
    if (st)
        return st;
    frame f = {0};
    char fc[3][2];
    hg_pairs pr = {0};
    if ((st = frame_init(p, faces, &f, fc, e)) ||
        (st = find_pairs(&f, skins[ns - 1], &pr, e))) {
        hg_pairs_clear(&pr);
        return st;
    }
    out->skin = malloc(pr.n ? pr.n : 1);
    if (!out->skin) {
        hg_pairs_clear(&pr);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    /* each pair at the smallest skin that holds it; those beyond the
     * largest (find_pairs' cells reach further) dropped */
    size_t m = 0;
    for (size_t k = 0; k < pr.n; k++) {
        size_t i = pr.v[k].i, j = pr.v[k].j;
        double d2 = 0.0;
        for (int a = 0; a < f.dim; a++) {
            double d = coord(&f, j, a) - coord(&f, i, a);
            if (f.per[a]) {
                if (d > 0.5 * f.prd[a])
                    d -= f.prd[a];
                else if (d < -0.5 * f.prd[a])
                    d += f.prd[a];
            }
            d2 += d * d;
        }
        double gap = sqrt(d2) - f.r[i] - f.r[j];
        int lo = 0, hi = ns; /* the first skin the pair is within */
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (gap < skins[mid])
                hi = mid;
            else
                lo = mid + 1;
        }
        if (lo == ns)
            continue;
        pr.v[m] = pr.v[k];
        out->skin[m++] = (unsigned char)lo;
    }
    pr.n = m;
    out->pairs = pr;
    out->ns = ns;
    return HG_OK;
}

int hg_ranks_profile_make(const hg_particles *p, const char (*faces)[2],
                          const hg_ranks_layout *l, double pair_cut,
                          const double *skins, int ns,
                          hg_ranks_profile *out, hg_err *e)
{
    memset(out, 0, sizeof *out);
    hg_ranks_gaps g;
    int st = hg_ranks_gaps_find(p, faces, skins, ns, &g, e);
    if (st == HG_OK)
        st = hg_ranks_profile_of(p, faces, l, pair_cut, skins, ns, &g, out,
                                 e);
    hg_ranks_gaps_clear(&g);
    return st;
}

int hg_ranks_profile_of(const hg_particles *p, const char (*faces)[2],
                        const hg_ranks_layout *l, double pair_cut,
                        const double *skins, int ns,
                        const hg_ranks_gaps *g, hg_ranks_profile *out,
                        hg_err *e)
{
    memset(out, 0, sizeof *out);
    int st = check_skins(skins, ns, e);
    if (st)
        return st;
    if (g->ns != ns)
        return hg_fail(e, HG_EINVAL, "gaps: found at %d skins, not %d",
                       g->ns, ns);
    if (!(pair_cut > 0.0) || !isfinite(pair_cut))
        return hg_fail(e, HG_EINVAL, "pair cutoff: %g must be > 0", pair_cut);
    int P = l->nprocs;
    if (P < 1 || P > HG_RANKS_MAX)
        return hg_fail(e, HG_EINVAL, "ranks: %d is outside 1..%d", P,
                       HG_RANKS_MAX);
    double *cuts = malloc(sizeof *cuts * (size_t)ns);
    size_t *bucket = calloc((size_t)P * (size_t)ns, sizeof *bucket);
    out->pairs = calloc((size_t)P * (size_t)ns, sizeof *out->pairs);
    out->nghost = bucket;
    if (!cuts || !bucket || !out->pairs) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    out->ns = ns;
    for (int j = 0; j < ns; j++)
        cuts[j] = pair_cut + skins[j];
    if ((st = decompose(p, faces, l, cuts[ns - 1], NULL, NULL, cuts, ns,
                        bucket, &out->res, e)))
        goto done;
    for (int r = 0; r < P; r++)
        for (int j = 1; j < ns; j++)
            bucket[(size_t)r * ns + j] += bucket[(size_t)r * ns + j - 1];
    /* the stored pairs at every skin: each counted from the smallest skin
     * that holds it */
    for (size_t k = 0; k < g->pairs.n; k++) {
        size_t i = g->pairs.v[k].i, j = g->pairs.v[k].j;
        int lo = g->skin[k];
        int a = out->res.owner[i], b = out->res.owner[j];
        if (a == b || l->newton_off) {
            out->pairs[(size_t)a * ns + lo] += 1.0;
            if (a != b)
                out->pairs[(size_t)b * ns + lo] += 1.0;
        } else {
            out->pairs[(size_t)a * ns + lo] += 0.5;
            out->pairs[(size_t)b * ns + lo] += 0.5;
        }
    }
    for (int r = 0; r < P; r++)
        for (int j = 1; j < ns; j++)
            out->pairs[(size_t)r * ns + j] += out->pairs[(size_t)r * ns + j - 1];
done:
    free(cuts);
    if (st) {
        out->nghost = bucket; /* freed below */
        hg_ranks_profile_clear(out);
    }
    return st;
}
