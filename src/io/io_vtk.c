/* io_vtk.c - legacy VTK files (ASCII): POLYDATA or UNSTRUCTURED_GRID
 * with a "radius" point array, read and written; the box of a
 * RECTILINEAR_GRID box file (io_vtk_box). */
#include "io_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Free-format token stream over the lines of t. */
typedef struct vtk_lex {
    io_text *t;
    char *s;    /* rest of the current line */
    char *back; /* a token put back (unread), or NULL */
} vtk_lex;

/* Next token or NULL at the end of the text; t->line is its line. */
static char *next_tok(vtk_lex *lx)
{
    if (lx->back) {
        char *b = lx->back;
        lx->back = NULL;
        return b;
    }
    for (;;) {
        if (lx->s) {
            while (*lx->s && isspace((unsigned char)*lx->s))
                lx->s++;
            if (*lx->s) {
                char *b = lx->s;
                while (*lx->s && !isspace((unsigned char)*lx->s))
                    lx->s++;
                if (*lx->s)
                    *lx->s++ = '\0';
                return b;
            }
        }
        if (!io_next_line(lx->t, &lx->s))
            return NULL;
    }
}

/* Read n numbers of block what (announced at line at) into out (may be
 * NULL to skip them); if lines is given, lines[k / stride] is the line of
 * number k. */
static int read_numbers(vtk_lex *lx, size_t n, double *out, long *lines,
                        size_t stride, const char *what, long at, hg_err *e)
{
    for (size_t k = 0; k < n; k++) {
        char *tok = next_tok(lx);
        if (!tok || isalpha((unsigned char)tok[0]))
            return io_fail(lx->t, e, HG_EPARSE,
                           "%s (line %ld) announces %zu numbers, found %zu "
                           "before %s%s%s",
                           what, at, n, k, tok ? "'" : "the end of the file",
                           tok ? tok : "", tok ? "'" : "");
        double v;
        int st = io_number(lx->t, tok, what, &v, e);
        if (st != HG_OK)
            return st;
        if (out)
            out[k] = v;
        if (lines)
            lines[k / stride] = lx->t->line;
    }
    return HG_OK;
}

static int want_count(vtk_lex *lx, const char *what, size_t *out, hg_err *e)
{
    char *tok = next_tok(lx);
    if (!tok)
        return io_fail(lx->t, e, HG_EPARSE, "%s: missing count", what);
    return io_count(lx->t, tok, what, out, e);
}

/* Title "hgridopt dim D box xlo xhi ... periodic|walls". */
static int parse_title(const io_text *t, char *line, int *dim, io_box *box,
                       hg_err *e)
{
    char *tok[12];
    int n = io_split(line, 0, tok, 12);
    if (n < 1 || strcmp(tok[0], "hgridopt") != 0)
        return HG_OK;
    if (n < 4 || strcmp(tok[1], "dim") != 0 || strcmp(tok[3], "box") != 0 ||
        (strcmp(tok[2], "2") != 0 && strcmp(tok[2], "3") != 0))
        return io_fail(t, e, HG_EPARSE,
                       "title: expected 'hgridopt dim 2|3 box xlo xhi ... "
                       "periodic|walls'");
    *dim = tok[2][0] - '0';
    if (n != 5 + 2 * *dim)
        return io_fail(t, e, HG_EPARSE, "title: box needs %d numbers",
                       2 * *dim);
    for (int c = 0; c < *dim; c++) {
        int st = io_number(t, tok[4 + 2 * c], "box", &box->lo[c], e);
        if (st == HG_OK)
            st = io_number(t, tok[5 + 2 * c], "box", &box->hi[c], e);
        if (st != HG_OK)
            return st;
    }
    const char *kind = tok[n - 1];
    if (strcmp(kind, "periodic") != 0 && strcmp(kind, "walls") != 0)
        return io_fail(t, e, HG_EPARSE,
                       "title: '%s' is not 'periodic' or 'walls'", kind);
    box->periodic = strcmp(kind, "periodic") == 0;
    box->has_box = 1;
    return io_check_box(t, box, *dim, e);
}

/* A cell block: "KEY n m" then m numbers (VTK < 9), or, as VTK 9 writes
 * it (legacy 5.1), "OFFSETS type" with n numbers and "CONNECTIVITY type"
 * with m numbers. */
static int skip_cells(vtk_lex *lx, const char *key, long at, hg_err *e)
{
    size_t n, m;
    int st = want_count(lx, key, &n, e);
    if (st == HG_OK)
        st = want_count(lx, key, &m, e);
    if (st != HG_OK)
        return st;
    io_text *t = lx->t;
    char *tok = next_tok(lx); /* OFFSETS follows in the 5.1 layout */
    if (tok && strcasecmp(tok, "OFFSETS") == 0) {
        if (!next_tok(lx))
            return io_fail(t, e, HG_EPARSE, "%s: OFFSETS without a type", key);
        st = read_numbers(lx, n, NULL, NULL, 1, "OFFSETS", at, e);
        tok = st == HG_OK ? next_tok(lx) : NULL;
        if (st == HG_OK && (!tok || strcasecmp(tok, "CONNECTIVITY") != 0 ||
                            !next_tok(lx)))
            return io_fail(t, e, HG_EPARSE,
                           "%s: expected CONNECTIVITY after OFFSETS", key);
        if (st == HG_OK)
            st = read_numbers(lx, m, NULL, NULL, 1, "CONNECTIVITY", at, e);
        return st;
    }
    lx->back = tok; /* the old layout: the first number */
    return read_numbers(lx, m, NULL, NULL, 1, "cell list", at, e);
}

/* VTK 9's METADATA block: lines up to an empty one. */
static void skip_metadata(vtk_lex *lx)
{
    char *line;
    lx->s = NULL;
    lx->back = NULL;
    while (io_next_line(lx->t, &line) && !io_blank(line))
        ;
}

/* The header up to "DATASET POLYDATA" (or UNSTRUCTURED_GRID): the
 * version line, the title (hgridopt's: dim and box; the writer LIGGGHTS
 * or LPP), ASCII; info->kind says what it is. lx then reads on. */
static int read_header(io_text *t, vtk_lex *lx, int *dim, io_box *box,
                       hg_io_info *info, hg_err *e)
{
    char *line;
    if (!io_next_line(t, &line) || strncasecmp(line, "# vtk DataFile", 14))
        return io_fail(t, e, HG_EPARSE,
                       "first line is not '# vtk DataFile Version ...'");
    if (!io_next_line(t, &line))
        return io_fail(t, e, HG_EPARSE, "missing title line");
    const char *writer = strstr(line, "Generated by LIGGGHTS")
                             ? "LIGGGHTS dump custom/vtk"
                         : strstr(line, "lpp") ? "LPP, LIGGGHTS' post-processing"
                                               : NULL;
    int st = parse_title(t, line, dim, box, e);
    if (st != HG_OK)
        return st;
    if (!io_next_line(t, &line))
        return io_fail(t, e, HG_EPARSE, "missing ASCII line");
    char *fmt[2];
    if (io_split(line, 0, fmt, 2) != 1 || strcasecmp(fmt[0], "ASCII") != 0)
        return io_fail(t, e, HG_EPARSE, "only ASCII legacy VTK is read");
    char *tok = next_tok(lx);
    if (!tok || strcasecmp(tok, "DATASET") != 0)
        return io_fail(t, e, HG_EPARSE, "expected 'DATASET POLYDATA'");
    tok = next_tok(lx);
    if (tok && strcasecmp(tok, "RECTILINEAR_GRID") == 0)
        return io_fail(t, e, HG_EPARSE,
                       "a box file (DATASET RECTILINEAR_GRID, the "
                       "boundingBox file LIGGGHTS and LPP write beside each "
                       "frame), not particles: give the particle file of "
                       "the same step");
    if (!tok || (strcasecmp(tok, "POLYDATA") != 0 &&
                 strcasecmp(tok, "UNSTRUCTURED_GRID") != 0))
        return io_fail(t, e, HG_EPARSE,
                       "dataset '%s' is not POLYDATA or UNSTRUCTURED_GRID",
                       tok ? tok : "");
    if (info)
        snprintf(info->kind, sizeof info->kind, "legacy VTK%s%s%s",
                 writer ? " (" : box->has_box ? " (hgridopt)" : "",
                 writer ? writer : "", writer ? ")" : "");
    return HG_OK;
}

/* What the sections of a legacy VTK file gave: the points and the radius
 * array, with the line of each number. */
typedef struct vtk_arrays {
    double *pts, *rad;
    long *pline, *rline;
    size_t npts, nattr; /* points; entries of the current attribute block */
    int have_pts, in_points; /* in_points: in POINT_DATA */
    long pts_line;
} vtk_arrays;

static void vtk_arrays_free(vtk_arrays *v)
{
    free(v->pts);
    free(v->rad);
    free(v->pline);
    free(v->rline);
}

/* Room for the n radii (and their lines) of the radius array. */
static int want_radii(vtk_arrays *v, size_t n, hg_err *e)
{
    v->rad = malloc((n ? n : 1) * sizeof *v->rad);
    v->rline = malloc((n ? n : 1) * sizeof *v->rline);
    if (!v->rad || !v->rline)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    return HG_OK;
}

/* POINTS n type, then the 3 n coordinates (section line at). */
static int read_points(vtk_lex *lx, vtk_arrays *v, long at, hg_err *e)
{
    io_text *t = lx->t;
    if (v->have_pts)
        return io_fail(t, e, HG_EPARSE, "second POINTS block");
    int st = want_count(lx, "POINTS", &v->npts, e);
    if (st != HG_OK || !next_tok(lx))
        return st;
    size_t npts = v->npts;
    v->pts = malloc((npts ? npts : 1) * 3 * sizeof *v->pts);
    v->pline = malloc((npts ? npts : 1) * sizeof *v->pline);
    if (!v->pts || !v->pline)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    st = read_numbers(lx, 3 * npts, v->pts, v->pline, 3, "POINTS", at, e);
    v->have_pts = 1;
    v->pts_line = at;
    return st;
}

/* SCALARS name type [components] LOOKUP_TABLE table, then the numbers:
 * kept when it is the radius array of the points. */
static int read_scalars(vtk_lex *lx, vtk_arrays *v, long at, hg_err *e)
{
    io_text *t = lx->t;
    char *name = next_tok(lx);
    char *type = name ? next_tok(lx) : NULL;
    if (!type)
        return io_fail(t, e, HG_EPARSE, "SCALARS: missing name/type");
    int is_radius = v->in_points && strcmp(name, "radius") == 0;
    size_t ncomp = 1;
    int st;
    char *nx = next_tok(lx);
    if (nx && isdigit((unsigned char)nx[0])) {
        st = io_count(t, nx, "SCALARS components", &ncomp, e);
        if (st != HG_OK)
            return st;
        nx = next_tok(lx);
    }
    if (!nx || strcasecmp(nx, "LOOKUP_TABLE") != 0 || !next_tok(lx))
        return io_fail(t, e, HG_EPARSE, "SCALARS %s: expected LOOKUP_TABLE",
                       name);
    if (is_radius && ncomp != 1)
        return io_fail(t, e, HG_EPARSE, "SCALARS radius has %zu components",
                       ncomp);
    if (is_radius && v->rad)
        return io_fail(t, e, HG_EPARSE, "second radius array");
    if (is_radius && (st = want_radii(v, v->nattr, e)))
        return st;
    return read_numbers(lx, ncomp * v->nattr, is_radius ? v->rad : NULL,
                        is_radius ? v->rline : NULL, 1, "SCALARS", at, e);
}

/* FIELD name n, then n arrays "name components tuples type" and their
 * numbers: an array named radius of one number per point is kept. */
static int read_field(vtk_lex *lx, vtk_arrays *v, hg_err *e)
{
    io_text *t = lx->t;
    size_t na;
    if (!next_tok(lx))
        return io_fail(t, e, HG_EPARSE, "FIELD: missing name");
    int st = want_count(lx, "FIELD arrays", &na, e);
    for (size_t a = 0; a < na && st == HG_OK; a++) {
        char *name = next_tok(lx);
        size_t nc, ntup;
        if (!name)
            return io_fail(t, e, HG_EPARSE, "FIELD: missing array");
        long aat = t->line;
        st = want_count(lx, "FIELD components", &nc, e);
        if (st == HG_OK)
            st = want_count(lx, "FIELD tuples", &ntup, e);
        if (st != HG_OK || !next_tok(lx))
            return st;
        int is_radius = v->in_points && strcmp(name, "radius") == 0 &&
                        nc == 1 && ntup == v->npts && !v->rad;
        if (is_radius && (st = want_radii(v, v->npts, e)))
            return st;
        st = read_numbers(lx, nc * ntup, is_radius ? v->rad : NULL,
                          is_radius ? v->rline : NULL, 1, "FIELD array", aat,
                          e);
    }
    return st;
}

/* One section of the dataset, from its keyword tok on. */
static int read_section(vtk_lex *lx, vtk_arrays *v, char *tok, hg_err *e)
{
    io_text *t = lx->t;
    long at = t->line;
    size_t n;
    int st;
    if (strcasecmp(tok, "POINTS") == 0)
        return read_points(lx, v, at, e);
    if (strcasecmp(tok, "VERTICES") == 0 || strcasecmp(tok, "LINES") == 0 ||
        strcasecmp(tok, "POLYGONS") == 0 ||
        strcasecmp(tok, "TRIANGLE_STRIPS") == 0 ||
        strcasecmp(tok, "CELLS") == 0) {
        char key[32];
        snprintf(key, sizeof key, "%s", tok);
        return skip_cells(lx, key, at, e);
    }
    if (strcasecmp(tok, "CELL_TYPES") == 0) {
        st = want_count(lx, tok, &n, e);
        if (st == HG_OK)
            st = read_numbers(lx, n, NULL, NULL, 1, "CELL_TYPES", at, e);
        return st;
    }
    if (strcasecmp(tok, "METADATA") == 0) {
        skip_metadata(lx);
        return HG_OK;
    }
    if (strcasecmp(tok, "POINT_DATA") == 0 ||
        strcasecmp(tok, "CELL_DATA") == 0) {
        v->in_points = toupper((unsigned char)tok[0]) == 'P';
        st = want_count(lx, tok, &v->nattr, e);
        if (st == HG_OK && v->in_points && v->nattr != v->npts)
            st = io_fail(t, e, HG_EPARSE,
                         "POINT_DATA %zu but POINTS %zu (line %ld)",
                         v->nattr, v->npts, v->pts_line);
        return st;
    }
    if (strcasecmp(tok, "SCALARS") == 0)
        return read_scalars(lx, v, at, e);
    if (strcasecmp(tok, "VECTORS") == 0 || strcasecmp(tok, "NORMALS") == 0) {
        if (!next_tok(lx) || !next_tok(lx))
            return io_fail(t, e, HG_EPARSE, "%s: missing name/type", tok);
        return read_numbers(lx, 3 * v->nattr, NULL, NULL, 1, "VECTORS", at,
                            e);
    }
    if (strcasecmp(tok, "FIELD") == 0)
        return read_field(lx, v, e);
    return io_fail(t, e, HG_EPARSE, "unexpected keyword '%s'", tok);
}

/* The points and radii into p, each checked (the radius at its line, the
 * centre in the box at its line). */
static int build_particles(io_text *t, const vtk_arrays *v, int dim,
                           const io_box *box, hg_particles *p, hg_err *e)
{
    io_build b = {0};
    b.dim = dim;
    const io_box nobox = {0};
    int st = HG_OK;
    for (size_t i = 0; st == HG_OK && i < v->npts; i++) {
        const double *x = v->pts + 3 * i;
        t->line = v->rline[i];
        st = io_check_particle(t, &nobox, dim, x, v->rad[i], e);
        if (st == HG_OK) {
            t->line = v->pline[i];
            st = io_check_particle(t, box, dim, x, 1.0, e);
        }
        if (st == HG_OK) {
            t->line = v->rline[i];
            st = io_build_push(&b, t, x, v->rad[i], e);
        }
    }
    if (st == HG_OK)
        st = io_build_finish(&b, t, box, p, e);
    io_build_free(&b);
    return st;
}

int io_vtk_read(io_text *t, hg_particles *p, hg_io_info *info, hg_err *e)
{
    int dim = 3;
    io_box box = {0};
    vtk_lex lx = {t, NULL, NULL};
    int st = read_header(t, &lx, &dim, &box, info, e);
    if (st != HG_OK)
        return st;
    vtk_arrays v = {0};
    char *tok;
    while (st == HG_OK && (tok = next_tok(&lx)))
        st = read_section(&lx, &v, tok, e);
    if (st == HG_OK && !v.have_pts)
        st = io_fail(t, e, HG_EPARSE, "no POINTS block");
    if (st == HG_OK && !v.rad)
        st = io_fail(t, e, HG_EPARSE, "no point-data array named radius");
    /* a foreign file of discs: every z 0 */
    if (st == HG_OK && !box.has_box && dim == 3 && v.npts > 0) {
        size_t i = 0;
        while (i < v.npts && v.pts[3 * i + 2] == 0.0)
            i++;
        if (i == v.npts) {
            dim = 2;
            if (info)
                snprintf(info->note, sizeof info->note,
                         "2D: every z is 0");
        }
    }
    if (st == HG_OK)
        st = build_particles(t, &v, dim, &box, p, e);
    vtk_arrays_free(&v);
    return st;
}

void io_vtk_write(FILE *f, const hg_particles *p)
{
    int d = p->dim;
    fprintf(f, "# vtk DataFile Version 3.0\nhgridopt dim %d box", d);
    for (int c = 0; c < d; c++)
        fprintf(f, " %.17g %.17g", p->lo[c], p->hi[c]);
    fprintf(f, " %s\nASCII\nDATASET POLYDATA\n", p->periodic ? "periodic"
                                                             : "walls");
    fprintf(f, "POINTS %zu double\n", p->n);
    for (size_t i = 0; i < p->n; i++) {
        const double *x = p->x + i * (size_t)d;
        fprintf(f, "%.17g %.17g %.17g\n", x[0], x[1], d == 3 ? x[2] : 0.0);
    }
    fprintf(f, "VERTICES %zu %zu\n", p->n, 2 * p->n);
    for (size_t i = 0; i < p->n; i++)
        fprintf(f, "1 %zu\n", i);
    fprintf(f, "POINT_DATA %zu\nSCALARS radius double 1\n"
               "LOOKUP_TABLE default\n",
            p->n);
    for (size_t i = 0; i < p->n; i++)
        fprintf(f, "%.17g\n", p->r[i]);
}

int io_vtk_box(io_text *t, double lo[3], double hi[3], hg_err *e)
{
    char *line;
    int got = 0;
    while (got != 7 && io_next_line(t, &line)) {
        char *tok[4];
        int nt = io_split(line, 0, tok, 4);
        if (nt != 3 || strlen(tok[0]) != 13 ||
            strcmp(tok[0] + 1, "_COORDINATES") || tok[0][0] < 'X' ||
            tok[0][0] > 'Z')
            continue;
        int a = tok[0][0] - 'X';
        size_t n;
        int st = io_count(t, tok[1], tok[0], &n, e);
        if (st)
            return st;
        if (n < 2)
            return io_fail(t, e, HG_EPARSE, "%s: needs 2 numbers", tok[0]);
        vtk_lex lx = {t, NULL, NULL};
        double v0 = 0, v1 = 0;
        for (size_t k = 0; k < n; k++) {
            char *w = next_tok(&lx);
            double v;
            if (!w || (st = io_number(t, w, tok[0], &v, e)))
                return w ? st : io_fail(t, e, HG_EPARSE, "%s: too few numbers",
                                        "coordinates");
            if (k == 0)
                v0 = v;
            v1 = v;
        }
        lo[a] = fmin(v0, v1);
        hi[a] = fmax(v0, v1);
        got |= 1 << a;
        if (got == 7)
            return HG_OK;
    }
    return io_fail(t, e, HG_EPARSE, "no X, Y and Z_COORDINATES (not a box "
                                    "file)");
}
