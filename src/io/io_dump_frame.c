/* io_dump_frame.c - the frame headers of LAMMPS and LIGGGHTS text dumps
 * (io_dump.c reads their atoms): the "ITEM:" sections up to and
 * including ITEM: ATOMS and its column names, one reader per item; a
 * frame's atom lines skipped. */
#include "io_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    return io_dump_count(s, tok[0], "NUMBER OF ATOMS", &f->natoms, e);
}

/* The boundary words after "BOX BOUNDS" (text): none, or three (pp, ff,
 * fm, ...), after "xy xz yz" in a triclinic box (*tilted). */
static int read_boundary_words(io_stream *s, char *text, io_dump_frame *f,
                               int *tilted, hg_err *e)
{
    char *tok[8];
    int nt = io_split(text, 0, tok, 8);
    *tilted = nt >= 3 && !strcmp(tok[0], "xy") && !strcmp(tok[1], "xz") &&
              !strcmp(tok[2], "yz");
    char **words = *tilted ? tok + 3 : tok;
    if (*tilted)
        nt -= 3;
    if (nt > 8)
        nt = 8;
    if (nt == 3) {
        for (int a = 0; a < 3; a++) {
            const char *w = words[a];
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
 * "lo hi", or "lo hi tilt" in a triclinic box: read where every tilt is
 * 0 (LAMMPS writes a box made triclinic, as by `change_box all
 * triclinic`, so before it is deformed: the bounds are then the box),
 * refused otherwise. */
static int read_box_bounds(io_stream *s, char *it, io_dump_frame *f,
                           hg_err *e)
{
    int tilted = 0;
    int r = read_boundary_words(s, it + 10, f, &tilted, e);
    if (r)
        return r;
    for (int a = 0; a < 3; a++) {
        char *line;
        if ((r = item_line(s, &line, "BOX BOUNDS", e)))
            return r;
        char *bt[4];
        int nb = io_split(line, 0, bt, 4);
        static const char *const tilt[3] = {"xy", "xz", "yz"};
        if (nb == 3 || tilted) {
            double v = 0.0;
            if (nb != 3)
                return io_stream_fail(s, e, HG_EPARSE,
                             "BOX BOUNDS xy xz yz: expected 'lo hi %s' "
                             "for %c", tilt[a], 'x' + a);
            if ((r = io_stream_number(s, bt[2], tilt[a], &v, e)))
                return r;
            if (v != 0.0)
                return io_stream_fail(s, e, HG_EPARSE,
                             "triclinic box: tilt %s %.17g; hgridopt "
                             "reads orthogonal boxes only", tilt[a], v);
        } else if (nb != 2)
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
    } while (!io_dump_starts_item(*line));
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
    if (!io_dump_starts_item(line))
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
    if (r == 0 || got < f->natoms - 1 || io_dump_starts_item(line))
        return io_stream_fail(s, e, HG_EPARSE,
                     "frame of timestep %lld (line %ld) ends before its "
                     "%zu atoms (a dump still being written?)",
                     f->step, f->header_line, f->natoms);
    return HG_OK;
}
