/* particles.c - particle sets and contact-pair lists. */
#include "hg_particles.h"
#include "hg_psd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int hg_particles_alloc(hg_particles *p, int dim, size_t n, hg_err *e)
{
    memset(p, 0, sizeof *p);
    if (dim != 2 && dim != 3)
        return hg_fail(e, HG_EINVAL, "dim: %d is not 2 or 3", dim);
    p->dim = dim;
    p->n = n;
    p->x = calloc(n ? n * (size_t)dim : 1, sizeof *p->x);
    p->r = calloc(n ? n : 1, sizeof *p->r);
    if (!p->x || !p->r) {
        hg_particles_clear(p);
        return hg_fail(e, HG_ENOMEM, "out of memory for %zu particles", n);
    }
    for (int c = 0; c < dim; c++) {
        p->lo[c] = 0.0;
        p->hi[c] = 1.0;
    }
    p->periodic = 1;
    return HG_OK;
}

void hg_particles_clear(hg_particles *p)
{
    if (!p)
        return;
    free(p->x);
    free(p->r);
    p->x = p->r = NULL;
    p->n = 0;
}

int hg_particles_check(const hg_particles *p, hg_err *e)
{
    if (p->dim != 2 && p->dim != 3)
        return hg_fail(e, HG_EINVAL, "dim: %d is not 2 or 3", p->dim);
    for (int c = 0; c < p->dim; c++)
        if (!(isfinite(p->lo[c]) && isfinite(p->hi[c]) && p->hi[c] > p->lo[c]))
            return hg_fail(e, HG_EINVAL, "box: axis %d [%g, %g] is empty", c,
                           p->lo[c], p->hi[c]);
    for (size_t i = 0; i < p->n; i++) {
        if (!(isfinite(p->r[i]) && p->r[i] > 0.0))
            return hg_fail(e, HG_EINVAL,
                           "particle %zu: radius %g must be finite and > 0",
                           i, p->r[i]);
        for (int c = 0; c < p->dim; c++) {
            double x = p->x[i * (size_t)p->dim + (size_t)c];
            if (!isfinite(x))
                return hg_fail(e, HG_EINVAL,
                               "particle %zu: coordinate %d is not finite", i,
                               c);
            if (hg_particles_axis_periodic(p, c) &&
                (x < p->lo[c] || x >= p->hi[c]))
                return hg_fail(e, HG_EINVAL,
                               "particle %zu: coordinate %d = %g is outside "
                               "the periodic box [%g, %g)",
                               i, c, x, p->lo[c], p->hi[c]);
        }
    }
    return HG_OK;
}

double hg_particles_packing_fraction(const hg_particles *p)
{
    double vol = 1.0, sum = 0.0;
    for (int c = 0; c < p->dim; c++)
        vol *= p->hi[c] - p->lo[c];
    for (size_t i = 0; i < p->n; i++)
        sum += pow(p->r[i], p->dim);
    return hg_unit_ball_volume(p->dim) * sum / vol;
}

double hg_particles_rmax(const hg_particles *p)
{
    double m = 0.0;
    for (size_t i = 0; i < p->n; i++)
        if (p->r[i] > m)
            m = p->r[i];
    return m;
}

double hg_particles_rmin(const hg_particles *p)
{
    double m = INFINITY;
    for (size_t i = 0; i < p->n; i++)
        if (p->r[i] < m)
            m = p->r[i];
    return m;
}

int hg_pairs_push(hg_pairs *ps, uint32_t i, uint32_t j)
{
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? 2 * ps->cap : 1024;
        hg_pair *v = realloc(ps->v, cap * sizeof *v);
        if (!v)
            return HG_ENOMEM;
        ps->v = v;
        ps->cap = cap;
    }
    ps->v[ps->n].i = i < j ? i : j;
    ps->v[ps->n].j = i < j ? j : i;
    ps->n++;
    return HG_OK;
}

void hg_pairs_reset(hg_pairs *ps) { ps->n = 0; }

void hg_pairs_clear(hg_pairs *ps)
{
    if (!ps)
        return;
    free(ps->v);
    ps->v = NULL;
    ps->n = ps->cap = 0;
}

static int pair_cmp(const void *a, const void *b)
{
    const hg_pair *x = a, *y = b;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    if (x->j != y->j)
        return x->j < y->j ? -1 : 1;
    return 0;
}

void hg_pairs_sort(hg_pairs *ps)
{
    if (ps->n > 1)
        qsort(ps->v, ps->n, sizeof *ps->v, pair_cmp);
}

int hg_pairs_equal(const hg_pairs *a, const hg_pairs *b)
{
    if (a->n != b->n)
        return 0;
    return a->n == 0 || memcmp(a->v, b->v, a->n * sizeof *a->v) == 0;
}

int hg_particles_axis_periodic(const hg_particles *p, int a)
{
    if (a < 0 || a > 2)
        return 0;
    if (p->boundary[a])
        return p->boundary[a] == 'p';
    return p->periodic != 0;
}

int hg_particles_set_boundary(hg_particles *p, const char *text, hg_err *e)
{
    char word[3][4] = {"", "", ""};
    int n = 0;
    const char *t = text ? text : "";
    int spaced = strpbrk(t, " ,\t") != NULL;
    while (*t) {
        while (*t == ' ' || *t == ',' || *t == '\t')
            t++;
        if (!*t)
            break;
        if (n == 3)
            return hg_fail(e, HG_EINVAL,
                           "boundary: '%s' has more than 3 words", text);
        size_t k = 0;
        while (*t && *t != ' ' && *t != ',' && *t != '\t') {
            if (k >= 2 || !strchr("pfsm", *t))
                return hg_fail(e, HG_EINVAL,
                               "boundary: '%s' is not LAMMPS' boundary "
                               "letters (p, or f, s, m per face; e.g. "
                               "\"p p f\")",
                               text);
            word[n][k++] = *t++;
            if (!spaced)
                break; /* "ppf": one letter per axis */
        }
        n++;
    }
    int dim = p->dim == 2 ? 2 : 3;
    if (n != dim && !(dim == 2 && n == 3))
        return hg_fail(e, HG_EINVAL,
                       "boundary: '%s' gives %d axes, the %dD particles "
                       "need %d",
                       text, n, dim, dim);
    int all = 1;
    for (int a = 0; a < dim; a++) {
        int has_p = strchr(word[a], 'p') != NULL;
        if (has_p && strlen(word[a]) != 1)
            return hg_fail(e, HG_EINVAL,
                           "boundary: '%s': axis %c mixes p with a "
                           "non-periodic face",
                           text, "xyz"[a]);
        p->boundary[a] = word[a][0];
        all &= has_p;
    }
    if (dim == 2)
        p->boundary[2] = 'p';
    p->periodic = all;
    return HG_OK;
}

int hg_particles_boundary_infer(hg_particles *p, double reach, int told[3],
                                double gap[3])
{
    int d = p->dim == 2 ? 2 : 3, n = 0;
    for (int a = 0; a < 3; a++) {
        told[a] = 0;
        gap[a] = 0.0;
    }
    if (p->n == 0)
        return 0;
    char letter[3];
    for (int a = 0; a < d; a++) {
        letter[a] = hg_particles_axis_periodic(p, a) ? 'p'
                    : p->boundary[a]                  ? p->boundary[a]
                                                      : 'f';
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < p->n; i++) {
            double x = p->x[i * (size_t)d + (size_t)a];
            lo = fmin(lo, x - p->r[i]);
            hi = fmax(hi, x + p->r[i]);
        }
        gap[a] = (p->hi[a] - p->lo[a]) - (hi - lo);
        if (gap[a] > reach) {
            told[a] = 1;
            letter[a] = 'f';
            n++;
        }
    }
    for (int a = 0; a < d; a++)
        p->boundary[a] = letter[a];
    int all = 1;
    for (int a = 0; a < d; a++)
        all &= letter[a] == 'p';
    if (d == 2)
        p->boundary[2] = 'p';
    p->periodic = all;
    return n;
}

size_t hg_particles_grow_box(hg_particles *p)
{
    size_t out = 0;
    int d = p->dim;
    for (int a = 0; a < d; a++) {
        if (hg_particles_axis_periodic(p, a))
            continue;
        for (size_t i = 0; i < p->n; i++) {
            double x = p->x[i * (size_t)d + (size_t)a];
            if (x < p->lo[a] || x > p->hi[a]) {
                out++;
                p->lo[a] = x < p->lo[a] ? x : p->lo[a];
                p->hi[a] = x > p->hi[a] ? x : p->hi[a];
            }
        }
    }
    return out;
}

const char *hg_particles_boundary_text(const hg_particles *p, char *buf)
{
    int d = p->dim == 2 ? 2 : 3, k = 0;
    for (int a = 0; a < d; a++) {
        buf[k++] = hg_particles_axis_periodic(p, a) ? 'p'
                   : p->boundary[a]                  ? p->boundary[a]
                                                     : 'f';
        buf[k++] = a + 1 < d ? ' ' : '\0';
    }
    return buf;
}

double hg_particles_delta(const hg_particles *p, int c, double d)
{
    if (hg_particles_axis_periodic(p, c)) {
        double len = p->hi[c] - p->lo[c];
        if (d > 0.5 * len)
            d -= len;
        else if (d < -0.5 * len)
            d += len;
    }
    return d;
}

int hg_particles_touch(const hg_particles *p, size_t i, size_t j, double skin)
{
    double d2 = 0.0;
    for (int c = 0; c < p->dim; c++) {
        double d = hg_particles_delta(
            p, c, p->x[i * (size_t)p->dim + (size_t)c] -
                      p->x[j * (size_t)p->dim + (size_t)c]);
        d2 += d * d;
    }
    double cut = p->r[i] + p->r[j] + skin;
    return d2 < cut * cut;
}

/* The extent of the particles along the open axes plus gap, whole
 * multiples of the periodic edges when those are equal (of the widest
 * padded extent when no axis is periodic), centred on the particles. */
int hg_particles_pad_periodic(const hg_particles *p, double gap,
                              hg_particles *q, hg_err *e)
{
    const int d = p->dim;
    int st = hg_particles_alloc(q, d, p->n, e);
    if (st)
        return st;
    memcpy(q->x, p->x, sizeof *q->x * p->n * (size_t)d);
    memcpy(q->r, p->r, sizeof *q->r * p->n);
    double lo[3], ext[3], A = 0.0;
    int equal = 1, nper = 0;
    for (int c = 0; c < d; c++) {
        lo[c] = INFINITY;
        double hi = -INFINITY;
        for (size_t i = 0; i < p->n; i++) {
            lo[c] = fmin(lo[c], p->x[i * (size_t)d + (size_t)c]);
            hi = fmax(hi, p->x[i * (size_t)d + (size_t)c]);
        }
        ext[c] = hi - lo[c] + gap;
        if (hg_particles_axis_periodic(p, c)) {
            double len = p->hi[c] - p->lo[c];
            if (nper++ && fabs(len - A) > 1e-12 * A)
                equal = 0;
            A = len;
        }
    }
    if (!nper)
        for (int c = 0; c < d; c++)
            A = fmax(A, ext[c]);
    if (!equal)
        A = 0.0;
    for (int c = 0; c < d; c++) {
        if (hg_particles_axis_periodic(p, c)) {
            q->lo[c] = p->lo[c];
            q->hi[c] = p->hi[c];
            continue;
        }
        double len = A > 0.0 ? A * ceil(ext[c] / A) : ext[c];
        q->lo[c] = lo[c] - 0.5 * (len - (ext[c] - gap));
        q->hi[c] = q->lo[c] + len;
    }
    q->periodic = 1;
    if ((st = hg_particles_check(q, e)))
        hg_particles_clear(q);
    return st;
}

/* a centre and its particle, sorted by centre then index */
typedef struct centre_at {
    double x[3];
    size_t i;
} centre_at;

static int by_centre(const void *a, const void *b)
{
    const centre_at *u = a, *v = b;
    for (int c = 0; c < 3; c++)
        if (u->x[c] != v->x[c])
            return u->x[c] < v->x[c] ? -1 : 1;
    return u->i < v->i ? -1 : u->i > v->i;
}

static int same_centre(const centre_at *u, const centre_at *v)
{
    return u->x[0] == v->x[0] && u->x[1] == v->x[1] && u->x[2] == v->x[2];
}

int hg_particles_coincident(const hg_particles *p, size_t *atoms,
                            size_t *positions, size_t *first_a,
                            size_t *first_b, hg_err *e)
{
    *atoms = *positions = 0;
    if (!p || p->n < 2)
        return HG_OK;
    centre_at *c = calloc(p->n, sizeof *c);
    if (!c)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    int d = p->dim;
    for (size_t i = 0; i < p->n; i++) {
        for (int a = 0; a < d && a < 3; a++)
            c[i].x[a] = p->x[i * (size_t)d + a];
        c[i].i = i;
    }
    qsort(c, p->n, sizeof *c, by_centre);
    for (size_t i = 0; i + 1 < p->n;) {
        size_t j = i + 1;
        while (j < p->n && same_centre(&c[i], &c[j]))
            j++;
        if (j - i > 1) {
            if (!*positions || c[i].i < *first_a) {
                *first_a = c[i].i; /* the lowest of its run (sorted) */
                *first_b = c[i + 1].i;
            }
            *atoms += j - i;
            (*positions)++;
        }
        i = j;
    }
    free(c);
    return HG_OK;
}
