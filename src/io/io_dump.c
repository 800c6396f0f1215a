/* io_dump.c - LAMMPS and LIGGGHTS text dumps (dump atom, dump custom and
 * their gzip-compressed forms): frames of "ITEM:" sections (their headers
 * read by io_dump_frame.c), read through an io_stream so that only the
 * frame wanted is held in memory; the atoms of the frame chosen. */
#include "io_internal.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


static int count_tok(io_stream *s, const char *tok, const char *field,
                     size_t *out, hg_err *e)
{
    char *end;
    if (!isdigit((unsigned char)*tok))
        return io_stream_fail(s, e, HG_EPARSE, "%s: '%s' is not a count", field, tok);
    errno = 0;
    unsigned long long v = strtoull(tok, &end, 10);
    if (*end || errno == ERANGE || v > (unsigned long long)(SIZE_MAX / 64))
        return io_stream_fail(s, e, HG_EPARSE, "%s: '%s' is not a count", field, tok);
    *out = (size_t)v;
    return HG_OK;
}


int io_dump_count(io_stream *s, const char *tok, const char *field,
                  size_t *out, hg_err *e)
{
    return count_tok(s, tok, field, out, e);
}

/* ---- atoms ----------------------------------------------------------- */

int io_dump_atoms_grow(io_dump_atoms *A, size_t want, hg_err *e)
{
    if (want <= A->cap)
        return HG_OK;
    size_t cap = A->cap ? 2 * A->cap : 4096;
    if (cap < want)
        cap = want;
    if (A->limit && cap > A->limit)
        cap = A->limit;
    double *x = realloc(A->x, cap * 3 * sizeof *x);
    if (x)
        A->x = x;
    double *r = x ? realloc(A->r, cap * sizeof *r) : NULL;
    if (r)
        A->r = r;
    if (!x || !r)
        return hg_fail(e, HG_ENOMEM, "out of memory for %zu atoms", cap);
    if (A->want_v) {
        double *v = realloc(A->v, cap * 3 * sizeof *v);
        if (!v)
            return hg_fail(e, HG_ENOMEM, "out of memory for %zu atoms", cap);
        A->v = v;
    }
    if (A->want_id) {
        uint64_t *id = realloc(A->id, cap * sizeof *id);
        if (!id)
            return hg_fail(e, HG_ENOMEM, "out of memory for %zu atoms", cap);
        A->id = id;
    }
    A->cap = cap;
    return HG_OK;
}

void io_dump_atoms_free(io_dump_atoms *A)
{
    free(A->x);
    free(A->r);
    free(A->v);
    free(A->id);
    free(A->seen);
    A->x = A->r = A->v = NULL;
    A->id = NULL;
    A->seen = NULL;
    A->n = A->cap = 0;
}

/* Mark id as seen; 1 if it was already (ids far above the atom count are
 * not tracked). */
static int seen_before(io_dump_atoms *A, uint64_t id, size_t natoms)
{
    if (id > 64 * (uint64_t)natoms + 1024)
        return 0;
    size_t word = (size_t)(id >> 6);
    if (word >= A->seen_words) {
        size_t nw = A->seen_words ? 2 * A->seen_words : 1024;
        while (nw <= word)
            nw *= 2;
        uint64_t *b = realloc(A->seen, nw * sizeof *b);
        if (!b)
            return 0;
        memset(b + A->seen_words, 0, (nw - A->seen_words) * sizeof *b);
        A->seen = b;
        A->seen_words = nw;
    }
    uint64_t bit = (uint64_t)1 << (id & 63);
    int was = (A->seen[word] & bit) != 0;
    A->seen[word] |= bit;
    return was;
}

/* A header without column names: dump atom's id type xs ys zs [ix iy iz]
 * from the nt numbers of the first line, into *c. */
static int guess_atom_columns(io_stream *s, int nt, io_dump_cols *c,
                              hg_err *e)
{
    if (nt != 5 && nt != 8)
        return io_stream_fail(s, e, HG_EPARSE,
                     "ITEM: ATOMS names no columns and the line "
                     "has %d numbers (dump atom has 5 or 8)",
                     nt);
    memset(c, 0, sizeof *c);
    c->n = nt;
    c->id = 0;
    c->type = 1;
    c->radius = c->diameter = -1;
    for (int a = 0; a < 3; a++) {
        c->x[a] = 2 + a;
        c->kind[a] = 2;
        c->v[a] = -1;
    }
    return HG_OK;
}

/* Where the radii come from: a radius or diameter column, else (*need_r)
 * the type column and --type-radius. */
static int radius_source(io_stream *s, const io_dump_frame *f,
                         const io_dump_cols *c, const io_dump_read_opts *o,
                         int *need_r, hg_err *e)
{
    *need_r = c->radius < 0 && c->diameter < 0;
    if (*need_r && (!o || !o->type_radius))
        return io_stream_fail(s, e, HG_EPARSE,
                     "the dump has no radius or diameter column "
                     "(columns: %s): write it with 'dump ID all "
                     "custom N FILE id type radius x y z', or give "
                     "each type's radius with --type-radius "
                     "1=R1,2=R2",
                     c->n ? f->columns : "id type xs ys zs");
    if (*need_r && c->type < 0)
        return io_stream_fail(s, e, HG_EPARSE,
                     "--type-radius needs a type column (columns: "
                     "%s)",
                     f->columns);
    return HG_OK;
}

/* The centre of an atom line (tok) into x: scaled columns unscaled,
 * wrapped into the box along periodic axes (per; len: the box's edges),
 * 0 without a column. */
static inline int read_centre(io_stream *s, const io_dump_frame *f,
                              const io_dump_cols *c, char **tok,
                              const double *len, const int *per, double *x,
                              hg_err *e)
{
    for (int a = 0; a < 3; a++) {
        if (c->x[a] < 0) {
            x[a] = 0.0;
            continue;
        }
        static const char *const an[3] = {"x", "y", "z"};
        double v = 0.0;
        int st;
        if ((st = io_stream_number(s, tok[c->x[a]], an[a], &v, e)))
            return st;
        if (c->kind[a] >= 2)
            v = f->lo[a] + v * len[a];
        if (per[a] && (v < f->lo[a] || v >= f->hi[a])) {
            /* LAMMPS remaps atoms into a periodic box only when it
             * rebuilds its neighbour lists; unwrapped columns are
             * outside by whole images */
            v -= floor((v - f->lo[a]) / len[a]) * len[a];
            if (v >= f->hi[a] || v < f->lo[a])
                v = f->lo[a];
        }
        x[a] = v;
    }
    return HG_OK;
}

/* The radius of an atom line: from its radius or diameter column, or
 * (need_r) its type's. */
static inline int read_radius(io_stream *s, const io_dump_cols *c,
                              const io_dump_read_opts *o, int need_r,
                              char **tok, double *out, hg_err *e)
{
    double rad = 0.0;
    int st;
    if (!need_r) {
        int col = c->radius >= 0 ? c->radius : c->diameter;
        if ((st = io_stream_number(s, tok[col], c->radius >= 0 ? "radius"
                                                               : "diameter",
                                   &rad, e)))
            return st;
        if (c->radius < 0)
            rad *= 0.5;
        if (!(rad > 0.0))
            return io_stream_fail(s, e, HG_EPARSE, "%s %.17g must be > 0",
                         c->radius >= 0 ? "radius" : "diameter",
                         c->radius >= 0 ? rad : 2.0 * rad);
        if (!isfinite(4.2 * rad * rad * rad))
            return io_stream_fail(s, e, HG_EPARSE,
                         "%s %.17g: its volume is not a finite number",
                         c->radius >= 0 ? "radius" : "diameter",
                         c->radius >= 0 ? rad : 2.0 * rad);
    } else {
        size_t type;
        if ((st = count_tok(s, tok[c->type], "type", &type, e)))
            return st;
        if (type < 1 || type > o->n_types || !(o->type_radius[type - 1] > 0.0))
            return io_stream_fail(s, e, HG_EPARSE,
                         "atom type %zu has no radius (--type-radius "
                         "gives types 1..%zu)",
                         type, o->n_types);
        rad = o->type_radius[type - 1];
    }
    *out = rad;
    return HG_OK;
}

/* The id (checked: once per frame) and velocity of atom k, when A wants
 * them. */
static inline int read_id_v(io_stream *s, const io_dump_frame *f,
                            const io_dump_cols *c, char **tok, size_t k,
                            io_dump_atoms *A, hg_err *e)
{
    int st;
    if (c->id >= 0) {
        size_t id;
        if ((st = count_tok(s, tok[c->id], "id", &id, e)))
            return st;
        if (seen_before(A, (uint64_t)id, f->natoms))
            return io_stream_fail(s, e, HG_EPARSE,
                         "atom id %zu appears twice in the frame of "
                         "timestep %lld",
                         id, f->step);
        if (A->want_id)
            A->id[k] = (uint64_t)id;
    } else if (A->want_id) {
        A->id[k] = (uint64_t)k + 1;
    }
    if (A->want_v)
        for (int a = 0; a < 3; a++) {
            double v = NAN;
            if (c->v[a] >= 0 &&
                (st = io_stream_number(s, tok[c->v[a]], "v", &v, e)))
                return st;
            A->v[3 * k + a] = v;
        }
    return HG_OK;
}

/* The first allocation for the natoms announced: all at once unless the
 * count may be a lie (more atoms than a file of this size can hold). */
static size_t first_capacity(size_t natoms, const io_dump_read_opts *o)
{
    size_t first = natoms;
    if (o && o->size_hint && first > o->size_hint / 8)
        first = o->size_hint / 8 + 1;
    if (!o || !o->size_hint)
        first = first < ((size_t)1 << 20) ? first : ((size_t)1 << 20);
    return first ? first : 1;
}

int io_dump_read(io_stream *s, const io_dump_frame *f,
                 const io_dump_read_opts *o, io_dump_atoms *A, hg_err *e)
{
    const io_dump_cols *c = &f->cols;
    io_dump_cols atomc; /* dump atom layout for a header without names */
    int guessed = 0;
    A->n = 0;
    A->guessed_columns = 0;
    if (A->seen)
        memset(A->seen, 0, A->seen_words * sizeof *A->seen);
    size_t natoms = f->natoms;
    A->limit = natoms;
    int st = io_dump_atoms_grow(A, first_capacity(natoms, o), e);
    if (st)
        return st;
    int need_r = 1;
    char *line, *tok[DUMP_MAXCOL];
    double len[3];
    int per[3];
    for (int a = 0; a < 3; a++) {
        len[a] = f->hi[a] - f->lo[a];
        per[a] = f->has_bnd ? f->bnd[a][0] == 'p' : 1;
    }
    for (size_t k = 0; k < natoms; k++) {
        size_t ll;
        int r = io_stream_line(s, &line, &ll, e);
        if (r < 0)
            return r;
        if (r == 0 || io_dump_starts_item(line))
            return io_stream_fail(s, e, HG_EPARSE,
                         "frame of timestep %lld (line %ld) ends after %zu "
                         "of its %zu atoms (a dump still being written?)",
                         f->step, f->header_line, k, natoms);
        int nt = io_split(line, 0, tok, DUMP_MAXCOL);
        if (k == 0 && c->n == 0) {
            if ((st = guess_atom_columns(s, nt, &atomc, e)))
                return st;
            c = &atomc;
            guessed = 1;
        }
        if (k == 0 && (st = radius_source(s, f, c, o, &need_r, e)))
            return st;
        if (nt != c->n)
            return io_stream_fail(s, e, HG_EPARSE, "%d columns, ITEM: ATOMS names %d",
                         nt, c->n);
        if ((st = io_dump_atoms_grow(A, k + 1, e)) ||
            (st = read_centre(s, f, c, tok, len, per, A->x + 3 * k, e)) ||
            (st = read_radius(s, c, o, need_r, tok, &A->r[k], e)) ||
            (st = read_id_v(s, f, c, tok, k, A, e)))
            return st;
        A->n = k + 1;
        if (o && o->progress && (k & 0xfffff) == 0xfffff)
            o->progress("reading", io_stream_fraction(s), o->progress_params);
    }
    A->guessed_columns = guessed;
    A->has_id = c->id >= 0;
    A->has_v = c->v[0] >= 0 && c->v[1] >= 0;
    A->radius_from_type = need_r;
    return HG_OK;
}

/* Move the atoms of dump frame f into p. */
int io_dump_finish(io_stream *s, const io_dump_frame *f,
                       io_dump_atoms *A, hg_particles *p, hg_io_info *info,
                       hg_err *e)
{
    const char *name = io_stream_name(s);
    size_t n = A->n;
    if (n == 0)
        return hg_fail(e, HG_EPARSE,
                       "%s: frame %zu (timestep %lld) has no atoms; choose "
                       "another with --frame",
                       name, info->frame, f->step);
    double rmin = INFINITY, rmax = 0.0;
    for (size_t i = 0; i < n; i++) {
        rmin = fmin(rmin, A->r[i]);
        rmax = fmax(rmax, A->r[i]);
    }
    /* LAMMPS' dimension 2: no z column, or every z 0 where 2D is the
     * only reading (io_lammps_is_2d: a 2D data file may put z from 0
     * to 1) */
    int dim = 3;
    const io_dump_cols *c = &f->cols;
    if (c->n && c->x[2] < 0) {
        dim = 2;
    } else {
        int how = io_lammps_is_2d(A->x, n, f->lo[2], f->hi[2], rmax,
                                  !f->has_bnd || f->bnd[2][0] == 'p',
                                  1e-9 * (f->hi[2] - f->lo[2]), info);
        if (how == 1)
            io_info_note(info, "2D: every z is 0 in a z box straddling 0");
        dim = how ? 2 : 3;
    }
    if (!(rmin >= DBL_MIN && isfinite(rmax / rmin)))
        return hg_fail(e, HG_EPARSE,
                       "%s: radius %.17g is too small next to the largest "
                       "radius %.17g (their ratio is not a finite double)",
                       name, rmin, rmax);
    if (dim == 2)
        for (size_t i = 0; i < n; i++) {
            A->x[2 * i] = A->x[3 * i];
            A->x[2 * i + 1] = A->x[3 * i + 1];
        }
    memset(p, 0, sizeof *p);
    p->dim = dim;
    p->n = n;
    double *x = realloc(A->x, n * (size_t)dim * sizeof *x);
    p->x = x ? x : A->x;
    double *r = realloc(A->r, n * sizeof *r);
    p->r = r ? r : A->r;
    A->x = A->r = NULL;
    A->cap = 0;
    for (int a = 0; a < 3; a++) {
        p->lo[a] = a < dim ? f->lo[a] : 0.0;
        p->hi[a] = a < dim ? f->hi[a] : 0.0;
    }
    p->periodic = 1;
    if (f->has_bnd) {
        char text[16], w[3][3];
        for (int a = 0; a < 3; a++) /* "pp" is LAMMPS' p */
            snprintf(w[a], sizeof w[a], "%s",
                     f->bnd[a][0] == 'p' ? "p" : f->bnd[a]);
        snprintf(text, sizeof text, "%s %s %s", w[0], w[1], w[2]);
        int st = hg_particles_set_boundary(p, text, e);
        if (st)
            return st;
    }
    io_grow_box(p, info);
    info->boundary_stated = f->has_bnd;
    info->box_stated = 1;
    snprintf(info->kind, sizeof info->kind, "LAMMPS/LIGGGHTS dump (%s%.100s)%s",
             A->guessed_columns ? "dump atom: " : "columns: ",
             A->guessed_columns ? "id type xs ys zs" : f->columns,
             info->compressed ? ", gzip" : "");
    if (A->guessed_columns)
        io_info_note(info, "ITEM: ATOMS names no columns: read as dump "
                     "atom's id type xs ys zs");
    if (A->radius_from_type)
        io_info_note(info, "radii from --type-radius (the dump has none)");
    return HG_OK;
}


static const io_frame_ops dump_ops = {"dump", 1, io_dump_next, io_dump_skip,
                                      io_dump_read};

int io_dump_load(io_stream *s, const hg_io_options *o, uint64_t size,
                 hg_particles *p, hg_io_info *info, hg_err *e)
{
    io_dump_frame f;
    io_dump_atoms A = {0};
    int st = io_frames_select(s, o, size, &dump_ops, &f, &A, info, e);
    if (!st)
        st = io_dump_finish(s, &f, &A, p, info, e);
    io_dump_atoms_free(&A);
    return st;
}

