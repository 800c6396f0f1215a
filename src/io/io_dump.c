/* io_dump.c - LAMMPS and LIGGGHTS text dumps (dump atom, dump custom and
 * their gzip-compressed forms): frames of "ITEM:" sections, read through
 * an io_stream so that only the frame wanted is held in memory. */
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

#define DUMP_MAXCOL 256

static int starts_item(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return strncmp(s, "ITEM:", 5) == 0;
}

/* The words after "ITEM:" */
static char *item_text(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    s += 5;
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

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

/* Next non-blank line (1), end (0) or error. */
static int next_line(io_stream *s, char **line, hg_err *e)
{
    for (;;) {
        int r = io_stream_line(s, line, NULL, e);
        if (r <= 0)
            return r;
        if (!io_blank(*line))
            return 1;
    }
}

/* ---- columns --------------------------------------------------------- */

/* What "ITEM: ATOMS col ..." names. */
static int parse_columns(io_stream *s, char *text, io_dump_frame *f,
                         hg_err *e)
{
    io_dump_cols *c = &f->cols;
    memset(c, 0, sizeof *c);
    c->id = c->type = c->radius = c->diameter = -1;
    for (int a = 0; a < 3; a++)
        c->x[a] = c->v[a] = -1;
    while (*text == ' ' || *text == '\t')
        text++;
    snprintf(f->columns, sizeof f->columns, "%s", text);
    for (size_t k = strlen(f->columns); k > 0 && isspace((unsigned char)f->columns[k - 1]); k--)
        f->columns[k - 1] = '\0';
    char *tok[DUMP_MAXCOL];
    int n = io_split(text, 0, tok, DUMP_MAXCOL);
    if (n > DUMP_MAXCOL)
        return io_stream_fail(s, e, HG_EPARSE, "ITEM: ATOMS: more than %d columns",
                     DUMP_MAXCOL);
    c->n = n;
    if (n == 0)
        return HG_OK; /* very old dumps: the layout of dump atom */
    /* per axis the best position column: x, then xu, xs, xsu */
    int rank[3] = {9, 9, 9};
    for (int k = 0; k < n; k++) {
        const char *w = tok[k];
        for (int a = 0; a < 3; a++) {
            static const char *const forms[4][3] = {{"x", "y", "z"},
                                                    {"xu", "yu", "zu"},
                                                    {"xs", "ys", "zs"},
                                                    {"xsu", "ysu", "zsu"}};
            for (int q = 0; q < 4; q++)
                if (!strcmp(w, forms[q][a])) {
                    if (rank[a] == q)
                        return io_stream_fail(s, e, HG_EPARSE,
                                     "ITEM: ATOMS: column '%s' appears "
                                     "twice",
                                     w);
                    if (q < rank[a]) {
                        rank[a] = q;
                        c->x[a] = k;
                        c->kind[a] = q;
                    }
                }
        }
        int *slot = !strcmp(w, "id")         ? &c->id
                    : !strcmp(w, "type")     ? &c->type
                    : !strcmp(w, "radius")   ? &c->radius
                    : !strcmp(w, "diameter") ? &c->diameter
                    : !strcmp(w, "vx")       ? &c->v[0]
                    : !strcmp(w, "vy")       ? &c->v[1]
                    : !strcmp(w, "vz")       ? &c->v[2]
                                             : NULL;
        if (slot) {
            if (*slot >= 0)
                return io_stream_fail(s, e, HG_EPARSE,
                             "ITEM: ATOMS: column '%s' appears twice", w);
            *slot = k;
        }
    }
    if (c->x[0] < 0 || c->x[1] < 0)
        return io_stream_fail(s, e, HG_EPARSE,
                     "ITEM: ATOMS %s: no positions (the dump needs columns "
                     "x y z, xu yu zu or xs ys zs)",
                     f->columns);
    return HG_OK;
}

/* ---- frame headers --------------------------------------------------- */

/* The value line of an item (what: the item, for the message when the
 * file ends there). HG_OK or a status. */
static int item_line(io_stream *s, char **line, const char *what,
                     hg_err *e)
{
    int r = next_line(s, line, e);
    if (r > 0)
        return HG_OK;
    return r ? r : io_stream_fail(s, e, HG_EPARSE, "file ends in %s", what);
}

static int read_timestep(io_stream *s, io_dump_frame *f, hg_err *e)
{
    char *line, *end;
    int r = item_line(s, &line, "the TIMESTEP item", e);
    if (r)
        return r;
    long long v = strtoll(line, &end, 10);
    if (end == line || !io_blank(end))
        return io_stream_fail(s, e, HG_EPARSE, "TIMESTEP: '%.40s' is not an "
                                               "integer",
                              line);
    f->step = v;
    return HG_OK;
}

static int read_time(io_stream *s, io_dump_frame *f, hg_err *e)
{
    char *line, *tok[2];
    int r = item_line(s, &line, "the TIME item", e);
    if (r)
        return r;
    if (io_split(line, 0, tok, 2) != 1 ||
        io_stream_number(s, tok[0], "TIME", &f->time, e))
        return io_stream_fail(s, e, HG_EPARSE, "TIME: expected one number");
    return HG_OK;
}

static int read_natoms(io_stream *s, io_dump_frame *f, hg_err *e)
{
    char *line, *tok[2];
    int r = item_line(s, &line, "the NUMBER OF ATOMS item", e);
    if (r)
        return r;
    if (io_split(line, 0, tok, 2) != 1)
        return io_stream_fail(s, e, HG_EPARSE,
                              "NUMBER OF ATOMS: expected one count");
    return count_tok(s, tok[0], "NUMBER OF ATOMS", &f->natoms, e);
}

/* The boundary words after "BOX BOUNDS" (text): none, or three (pp, ff,
 * fm, ...); triclinic boxes refused. */
static int read_boundary_words(io_stream *s, char *text, io_dump_frame *f,
                               hg_err *e)
{
    char *tok[8];
    int nt = io_split(text, 0, tok, 8);
    if (nt >= 3 && !strcmp(tok[0], "xy"))
        return io_stream_fail(s, e, HG_EPARSE,
                     "triclinic box (BOX BOUNDS xy xz yz): hgridopt "
                     "reads orthogonal boxes only");
    if (nt > 8)
        nt = 8;
    if (nt == 3) {
        for (int a = 0; a < 3; a++) {
            const char *w = tok[a];
            if (strlen(w) != 2 || !strchr("pfsm", w[0]) ||
                !strchr("pfsm", w[1]) || ((w[0] == 'p') != (w[1] == 'p')))
                return io_stream_fail(s, e, HG_EPARSE,
                             "BOX BOUNDS: '%s' is not a boundary "
                             "(pp, ff, fm, ...)",
                             w);
            memcpy(f->bnd[a], w, 2);
        }
        f->has_bnd = 1;
    } else if (nt != 0) {
        return io_stream_fail(s, e, HG_EPARSE,
                     "BOX BOUNDS: expected three boundary words "
                     "(e.g. 'pp pp fm')");
    }
    return HG_OK;
}

/* ITEM: BOX BOUNDS (the words after ITEM: in it) and its three lines
 * "lo hi". */
static int read_box_bounds(io_stream *s, char *it, io_dump_frame *f,
                           hg_err *e)
{
    int r = read_boundary_words(s, it + 10, f, e);
    if (r)
        return r;
    for (int a = 0; a < 3; a++) {
        char *line;
        if ((r = item_line(s, &line, "BOX BOUNDS", e)))
            return r;
        char *bt[4];
        int nb = io_split(line, 0, bt, 4);
        if (nb == 3)
            return io_stream_fail(s, e, HG_EPARSE,
                         "triclinic box (three numbers per BOX "
                         "BOUNDS line): hgridopt reads orthogonal "
                         "boxes only");
        if (nb != 2)
            return io_stream_fail(s, e, HG_EPARSE,
                         "BOX BOUNDS: expected 'lo hi' for %c", 'x' + a);
        static const char *const lon[3] = {"xlo", "ylo", "zlo"};
        static const char *const hin[3] = {"xhi", "yhi", "zhi"};
        if ((r = io_stream_number(s, bt[0], lon[a], &f->lo[a], e)) ||
            (r = io_stream_number(s, bt[1], hin[a], &f->hi[a], e)))
            return r;
        if (!(f->hi[a] > f->lo[a]))
            return io_stream_fail(s, e, HG_EPARSE,
                         "box: %s %.17g is not below %s %.17g",
                         lon[a], f->lo[a], hin[a], f->hi[a]);
    }
    return HG_OK;
}

/* Past the rest of an item (another item, UNITS, ...: its lines skipped)
 * to the next ITEM: line of the frame. */
static int next_item(io_stream *s, const io_dump_frame *f, char **line,
                     hg_err *e)
{
    int r;
    do {
        r = next_line(s, line, e);
        if (r < 0)
            return r;
        if (r == 0)
            return io_stream_fail(s, e, HG_EPARSE,
                         "file ends before the frame's ITEM: ATOMS "
                         "(frame at line %ld)",
                         f->header_line);
    } while (!starts_item(*line));
    return HG_OK;
}

int io_dump_next(io_stream *s, io_dump_frame *f, hg_err *e)
{
    char *line;
    io_stream_mark start = io_stream_tell(s);
    int r = next_line(s, &line, e);
    if (r <= 0)
        return r;
    memset(f, 0, sizeof *f);
    f->step = -1;
    f->time = NAN;
    f->mark = start;
    f->header_line = io_stream_lineno(s);
    if (!starts_item(line))
        return io_stream_fail(s, e, HG_EPARSE,
                     "expected an 'ITEM:' line (a new frame), found '%.40s' "
                     "(does the previous frame hold more atom lines than "
                     "it announces?)",
                     line);
    int have_n = 0, have_box = 0;
    for (;;) {
        char *it = item_text(line);
        r = HG_OK;
        if (!strncmp(it, "TIMESTEP", 8)) {
            r = read_timestep(s, f, e);
        } else if (!strncmp(it, "TIME", 4) && !isalpha((unsigned char)it[4])) {
            r = read_time(s, f, e);
        } else if (!strncmp(it, "NUMBER OF ATOMS", 15)) {
            r = read_natoms(s, f, e);
            have_n = 1;
        } else if (!strncmp(it, "BOX BOUNDS", 10)) {
            r = read_box_bounds(s, it, f, e);
            have_box = 1;
        } else if (!strncmp(it, "ATOMS", 5) &&
                   (it[5] == '\0' || isspace((unsigned char)it[5]))) {
            if (!have_n)
                return io_stream_fail(s, e, HG_EPARSE,
                             "ITEM: ATOMS before ITEM: NUMBER OF ATOMS");
            if (!have_box)
                return io_stream_fail(s, e, HG_EPARSE,
                             "ITEM: ATOMS before ITEM: BOX BOUNDS");
            f->atoms_line = io_stream_lineno(s);
            if ((r = parse_columns(s, it + 5, f, e)))
                return r;
            f->atoms = io_stream_tell(s);
            return 1;
        }
        if (r || (r = next_item(s, f, &line, e)))
            return r;
    }
}

int io_dump_skip(io_stream *s, const io_dump_frame *f, hg_err *e)
{
    size_t got = 0;
    if (f->natoms == 0)
        return HG_OK;
    int st = io_stream_skip(s, f->natoms - 1, &got, e);
    if (st)
        return st;
    char *line;
    int r = io_stream_line(s, &line, NULL, e);
    if (r < 0)
        return r;
    if (r == 0 || got < f->natoms - 1 || starts_item(line))
        return io_stream_fail(s, e, HG_EPARSE,
                     "frame of timestep %lld (line %ld) ends before its "
                     "%zu atoms (a dump still being written?)",
                     f->step, f->header_line, f->natoms);
    return HG_OK;
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
        if (r == 0 || starts_item(line))
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
static int dump_finish(io_stream *s, const io_dump_frame *f,
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
    /* LAMMPS' dimension 2: every z 0 in a z box straddling 0 */
    int dim = 3;
    const io_dump_cols *c = &f->cols;
    if (c->n && c->x[2] < 0) {
        dim = 2;
    } else if (f->lo[2] < 0.0 && f->hi[2] > 0.0) {
        double tol = 1e-9 * (f->hi[2] - f->lo[2]);
        size_t i = 0;
        while (i < n && fabs(A->x[3 * i + 2]) <= tol)
            i++;
        if (i == n) {
            dim = 2;
            snprintf(info->note + strlen(info->note),
                     sizeof info->note - strlen(info->note),
                     "%s2D: every z is 0 in a z box straddling 0",
                     info->note[0] ? "; " : "");
        }
    }
    double rmin = INFINITY, rmax = 0.0;
    for (size_t i = 0; i < n; i++) {
        rmin = fmin(rmin, A->r[i]);
        rmax = fmax(rmax, A->r[i]);
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
        snprintf(info->note + strlen(info->note),
                 sizeof info->note - strlen(info->note),
                 "%sITEM: ATOMS names no columns: read as dump atom's id "
                 "type xs ys zs",
                 info->note[0] ? "; " : "");
    if (A->radius_from_type)
        snprintf(info->note + strlen(info->note),
                 sizeof info->note - strlen(info->note),
                 "%sradii from --type-radius (the dump has none)",
                 info->note[0] ? "; " : "");
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
        st = dump_finish(s, &f, &A, p, info, e);
    io_dump_atoms_free(&A);
    return st;
}
