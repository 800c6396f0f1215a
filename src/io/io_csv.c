/* io_csv.c - CSV particle files: "# box ..." comment, header x,y[,z],r;
 * and ParaView's CSV export ("Save Data" of a VTK frame): quoted names,
 * "Points:0","Points:1","Points:2" and a "radius" or "diameter" column
 * among any others ("v:0", "id", ...), no box. */
#include "io_internal.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define CSV_MAXCOL 64

/* "# box xlo xhi ylo yhi [zlo zhi] periodic|walls" -> box (dim from the
 * count of numbers). Returns 1 if line is a box line, 0 if another comment,
 * negative status on a malformed box line. */
static int parse_box_line(const io_text *t, char *line, io_box *box,
                          int *box_dim, hg_err *e)
{
    char *tok[10];
    int n = io_split(line + 1, 0, tok, 10);
    if (n < 1 || strcasecmp(tok[0], "box") != 0)
        return 0;
    if (n != 6 && n != 8)
        return io_fail(t, e, HG_EPARSE,
                       "box line: expected '# box xlo xhi ylo yhi [zlo zhi] "
                       "periodic|walls', got %d fields after 'box'",
                       n - 1);
    int nb = n - 2;
    for (int k = 0; k < nb; k++) {
        static const char *const field[6] = {"xlo", "xhi", "ylo",
                                             "yhi", "zlo", "zhi"};
        double *dst = k % 2 ? &box->hi[k / 2] : &box->lo[k / 2];
        int st = io_number(t, tok[1 + k], field[k], dst, e);
        if (st != HG_OK)
            return st;
    }
    const char *kind = tok[n - 1];
    if (strcasecmp(kind, "periodic") == 0)
        box->periodic = 1;
    else if (strcasecmp(kind, "walls") == 0)
        box->periodic = 0;
    else
        return io_fail(t, e, HG_EPARSE,
                       "box line: '%s' is not 'periodic' or 'walls'", kind);
    box->has_box = 1;
    *box_dim = nb / 2;
    int st = io_check_box(t, box, *box_dim, e);
    return st != HG_OK ? st : 1;
}

/* A header name without the double quotes ParaView puts around it. */
static char *unquote(char *s)
{
    size_t n = strlen(s);
    if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
        s[n - 1] = '\0';
        return s + 1;
    }
    return s;
}

int io_csv_read(io_text *t, hg_particles *p, hg_io_info *info, hg_err *e)
{
    int paraview = 0, diameter = 0;
    io_box box = {0};
    int box_dim = 0;
    long box_line = 0;
    char *line, *tok[CSV_MAXCOL];
    int col[4] = {-1, -1, -1, -1}; /* x, y, z, r */
    int ncol = 0;

    /* comments and the header */
    for (;;) {
        if (!io_next_line(t, &line))
            return io_fail(t, e, HG_EPARSE,
                           "no header line (expected e.g. 'x,y,z,r')");
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '\0')
            continue;
        if (*s == '#') {
            long first = box_line;
            int st = parse_box_line(t, s, &box, &box_dim, e);
            if (st < 0)
                return st;
            if (st == 1 && first)
                return io_fail(t, e, HG_EPARSE,
                               "second box line (first at line %ld)", first);
            if (st == 1)
                box_line = t->line;
            continue;
        }
        ncol = io_split(s, 1, tok, CSV_MAXCOL);
        if (ncol > CSV_MAXCOL)
            return io_fail(t, e, HG_EPARSE, "header: more than %d columns",
                           CSV_MAXCOL);
        int dcol = -1;
        for (int k = 0; k < ncol; k++) {
            int which = -1;
            tok[k] = unquote(tok[k]);
            if (strcasecmp(tok[k], "x") == 0 ||
                strcasecmp(tok[k], "Points:0") == 0)
                which = 0;
            else if (strcasecmp(tok[k], "y") == 0 ||
                     strcasecmp(tok[k], "Points:1") == 0)
                which = 1;
            else if (strcasecmp(tok[k], "z") == 0 ||
                     strcasecmp(tok[k], "Points:2") == 0)
                which = 2;
            else if (strcasecmp(tok[k], "r") == 0 ||
                     strcasecmp(tok[k], "radius") == 0)
                which = 3;
            else if (strcasecmp(tok[k], "diameter") == 0 && dcol < 0)
                dcol = k;
            if (!strncasecmp(tok[k], "Points:", 7))
                paraview = 1;
            if (which < 0)
                continue;
            if (col[which] >= 0)
                return io_fail(t, e, HG_EPARSE,
                               "header: column '%s' appears twice", tok[k]);
            col[which] = k;
        }
        if (col[3] < 0 && dcol >= 0) {
            col[3] = dcol;
            diameter = 1;
        }
        if (col[0] < 0 || col[1] < 0 || col[3] < 0)
            return io_fail(t, e, HG_EPARSE,
                           "header: needs columns x, y, r (and z in 3D), "
                           "or ParaView's \"Points:0\",\"Points:1\","
                           "\"Points:2\" with \"radius\" or \"diameter\"");
        break;
    }
    int dim = col[2] >= 0 ? 3 : 2;
    if (box.has_box && box_dim != dim) {
        t->line = box_line;
        return io_fail(t, e, HG_EPARSE,
                       "box line has %d axes but the header has %d "
                       "coordinates",
                       box_dim, dim);
    }

    io_build b = {0};
    b.dim = dim;
    int st = HG_OK;
    static const char *const field[4] = {"x", "y", "z", "r"};
    while (io_next_line(t, &line)) {
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        int n = io_split(s, 1, tok, CSV_MAXCOL);
        if (n != ncol) {
            st = io_fail(t, e, HG_EPARSE, "%d columns, the header has %d", n,
                         ncol);
            break;
        }
        double v[4] = {0};
        for (int k = 0; k < 4 && st == HG_OK; k++)
            if (col[k] >= 0)
                st = io_number(t, tok[col[k]], k == 3 && diameter ? "diameter" : field[k], &v[k], e);
        if (diameter)
            v[3] *= 0.5;
        if (st == HG_OK)
            st = io_check_particle(t, &box, dim, v, v[3], e);
        if (st == HG_OK)
            st = io_build_push(&b, t, v, v[3], e);
        if (st != HG_OK)
            break;
    }
    if (st == HG_OK && paraview && dim == 3 && b.n > 0) {
        /* a 2D run's points have z = 0, as in its VTK files */
        size_t i = 0;
        while (i < b.n && b.x[3 * i + 2] == 0.0)
            i++;
        if (i == b.n) {
            for (i = 0; i < b.n; i++) {
                b.x[2 * i] = b.x[3 * i];
                b.x[2 * i + 1] = b.x[3 * i + 1];
            }
            b.dim = dim = 2;
            if (info)
                snprintf(info->note, sizeof info->note, "2D: every z is 0");
        }
    }
    if (st == HG_OK && paraview && info)
        snprintf(info->kind, sizeof info->kind,
                 "ParaView CSV export (Points:0..2, %s)",
                 diameter ? "diameter" : "radius");
    if (st == HG_OK)
        st = io_build_finish(&b, t, &box, p, e);
    io_build_free(&b);
    return st;
}

void io_csv_write(FILE *f, const hg_particles *p)
{
    int d = p->dim;
    fprintf(f, "# box");
    for (int c = 0; c < d; c++)
        fprintf(f, " %.17g %.17g", p->lo[c], p->hi[c]);
    fprintf(f, " %s\n", p->periodic ? "periodic" : "walls");
    fputs(d == 3 ? "x,y,z,r\n" : "x,y,r\n", f);
    for (size_t i = 0; i < p->n; i++) {
        const double *x = p->x + i * (size_t)d;
        if (d == 3)
            fprintf(f, "%.17g,%.17g,%.17g,%.17g\n", x[0], x[1], x[2],
                    p->r[i]);
        else
            fprintf(f, "%.17g,%.17g,%.17g\n", x[0], x[1], p->r[i]);
    }
}
