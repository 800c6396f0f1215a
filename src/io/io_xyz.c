/* io_xyz.c - extended XYZ files (OVITO, ASE): one frame. */
#include "io_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define XYZ_MAXCOL 64

/* Find key=value in the comment line (value possibly "quoted"); copies the
 * value into out. Returns 1 if found. Keys are case-insensitive. */
static int find_key(const char *s, const char *key, char *out, size_t cap)
{
    size_t klen = strlen(key);
    while (*s) {
        while (isspace((unsigned char)*s))
            s++;
        const char *k = s;
        while (*s && *s != '=' && !isspace((unsigned char)*s))
            s++;
        size_t kl = (size_t)(s - k);
        const char *v = s, *vend = s;
        if (*s == '=') {
            s++;
            if (*s == '"') {
                v = ++s;
                while (*s && *s != '"')
                    s++;
                vend = s;
                if (*s)
                    s++;
            } else {
                v = s;
                while (*s && !isspace((unsigned char)*s))
                    s++;
                vend = s;
            }
        }
        if (kl == klen && strncasecmp(k, key, klen) == 0) {
            size_t n = (size_t)(vend - v);
            if (n >= cap)
                n = cap - 1;
            memcpy(out, v, n);
            out[n] = '\0';
            return 1;
        }
        if (kl == 0 && *s && !isspace((unsigned char)*s))
            s++; /* stray '=' */
    }
    return 0;
}

/* Parse n numbers from a blank-separated value. */
static int parse_numbers(const io_text *t, char *val, const char *key,
                         double *out, int n, hg_err *e)
{
    char *tok[16];
    int nt = io_split(val, 0, tok, 16);
    if (nt != n)
        return io_fail(t, e, HG_EPARSE, "%s: %d numbers, expected %d", key,
                       nt, n);
    for (int k = 0; k < n; k++) {
        int st = io_number(t, tok[k], key, &out[k], e);
        if (st != HG_OK)
            return st;
    }
    return HG_OK;
}

/* The columns of Properties=name:type:count:... (val, split in place):
 * the first column of pos (*pos_col) and of radius (*rad_col), and the
 * number of columns (*ncol). */
static int parse_properties(const io_text *t, char *val, int dim,
                            int *pos_col, int *rad_col, int *ncol, hg_err *e)
{
    char *parts[3 * XYZ_MAXCOL];
    int np = 0;
    *pos_col = *rad_col = -1;
    *ncol = 0;
    for (char *s = val;;) {
        char *c = strchr(s, ':');
        if (c)
            *c = '\0';
        if (np < 3 * XYZ_MAXCOL)
            parts[np] = s;
        np++;
        if (!c)
            break;
        s = c + 1;
    }
    if (np % 3 != 0 || np > 3 * XYZ_MAXCOL)
        return io_fail(t, e, HG_EPARSE,
                       "Properties: expected name:type:count triples");
    for (int k = 0; k < np; k += 3) {
        size_t cnt;
        int st = io_count(t, parts[k + 2], "Properties count", &cnt, e);
        if (st != HG_OK)
            return st;
        if (cnt < 1 || cnt > XYZ_MAXCOL || *ncol + (int)cnt > XYZ_MAXCOL)
            return io_fail(t, e, HG_EPARSE,
                           "Properties: bad count %zu for '%s'", cnt,
                           parts[k]);
        if (strcasecmp(parts[k], "pos") == 0) {
            if (cnt != 3 && !(cnt == 2 && dim == 2))
                return io_fail(t, e, HG_EPARSE,
                               "Properties: pos has %zu components, "
                               "expected 3",
                               cnt);
            *pos_col = *ncol;
        } else if (strcasecmp(parts[k], "radius") == 0) {
            if (cnt != 1)
                return io_fail(t, e, HG_EPARSE,
                               "Properties: radius has %zu components", cnt);
            *rad_col = *ncol;
        }
        *ncol += (int)cnt;
    }
    return HG_OK;
}

static int flag_on(const char *f)
{
    return strcasecmp(f, "T") == 0 || strcasecmp(f, "true") == 0;
}

/* pbc="T T F" (val): periodic on every axis of dim, or the boundary per
 * axis when mixed. */
static int parse_pbc(const io_text *t, char *val, int dim, io_box *box,
                     hg_err *e)
{
    char *pt[4];
    int npb = io_split(val, 0, pt, 4);
    if (npb != 3)
        return io_fail(t, e, HG_EPARSE, "pbc: expected 3 flags");
    int np = 0;
    for (int c = 0; c < 3; c++) {
        int on = flag_on(pt[c]);
        int off = strcasecmp(pt[c], "F") == 0 ||
                  strcasecmp(pt[c], "false") == 0;
        if (!on && !off)
            return io_fail(t, e, HG_EPARSE, "pbc: '%s' is not T or F",
                           pt[c]);
        if (c < dim)
            np += on;
    }
    box->periodic = np == dim;
    if (np != 0 && np != dim) /* mixed: the boundary per axis */
        for (int c = 0; c < 3; c++)
            box->boundary[c] = c >= dim || flag_on(pt[c]) ? 'p' : 'f';
    return HG_OK;
}

/* The box of the comment line (line) when it has a Lattice: Origin,
 * pbc, and hgridopt's exact box (Origin + Lattice rounds); orthogonal
 * cells only. No Lattice: no box. */
static int parse_box(const io_text *t, const char *line, int dim,
                     io_box *box, hg_err *e)
{
    char val[1024];
    double lat[9];
    if (!find_key(line, "Lattice", val, sizeof val))
        return HG_OK;
    int st = parse_numbers(t, val, "Lattice", lat, 9, e);
    if (st != HG_OK)
        return st;
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
            if (a != c && lat[3 * a + c] != 0.0)
                return io_fail(t, e, HG_EPARSE,
                               "Lattice: non-orthogonal cells are not "
                               "supported");
    double org[3] = {0.0, 0.0, 0.0};
    if (find_key(line, "Origin", val, sizeof val)) {
        st = parse_numbers(t, val, "Origin", org, 3, e);
        if (st != HG_OK)
            return st;
    }
    box->has_box = 1;
    for (int c = 0; c < 3; c++) {
        box->lo[c] = org[c];
        box->hi[c] = org[c] + lat[4 * c];
    }
    box->periodic = 1;
    if (find_key(line, "pbc", val, sizeof val) &&
        (st = parse_pbc(t, val, dim, box, e)))
        return st;
    /* exact box as written by hgridopt (Origin + Lattice rounds) */
    if (find_key(line, "hgridopt_box", val, sizeof val)) {
        double bb[6];
        st = parse_numbers(t, val, "hgridopt_box", bb, 2 * dim, e);
        if (st != HG_OK)
            return st;
        for (int c = 0; c < dim; c++) {
            box->lo[c] = bb[2 * c];
            box->hi[c] = bb[2 * c + 1];
        }
    }
    return io_check_box(t, box, dim, e);
}

/* The columns of the particle lines. */
typedef struct xyz_cols {
    int dim, pos, rad, n; /* first column of pos, of radius; columns */
} xyz_cols;

/* The n particle lines of the frame (announced at line 1) into b, each
 * checked against box; only one frame. */
static int read_particles(io_text *t, size_t n, const xyz_cols *cols,
                          const io_box *box, io_build *b, hg_err *e)
{
    const int dim = cols->dim;
    char *line, *tok[XYZ_MAXCOL];
    long count_line = 1;
    size_t k = 0;
    int st = HG_OK;
    while (st == HG_OK && io_next_line(t, &line)) {
        if (io_blank(line)) {
            if (k < n)
                st = io_fail(t, e, HG_EPARSE,
                             "blank line after %zu of the %zu particles "
                             "announced at line %ld",
                             k, n, count_line);
            continue;
        }
        if (k == n)
            return io_fail(t, e, HG_EPARSE,
                           "more particle lines than the %zu announced at "
                           "line %ld (only one frame is read)",
                           n, count_line);
        int nt = io_split(line, 0, tok, XYZ_MAXCOL);
        if (nt != cols->n)
            return io_fail(t, e, HG_EPARSE, "%d columns, Properties lists %d",
                           nt, cols->n);
        double x[3], r;
        static const char *const axis[3] = {"x", "y", "z"};
        for (int c = 0; c < dim && st == HG_OK; c++)
            st = io_number(t, tok[cols->pos + c], axis[c], &x[c], e);
        if (st == HG_OK)
            st = io_number(t, tok[cols->rad], "radius", &r, e);
        if (st == HG_OK)
            st = io_check_particle(t, box, dim, x, r, e);
        if (st == HG_OK)
            st = io_build_push(b, t, x, r, e);
        k++;
    }
    if (st == HG_OK && k < n)
        st = io_fail(t, e, HG_EPARSE,
                     "file ends after %zu of the %zu particles announced at "
                     "line %ld",
                     k, n, count_line);
    return st;
}

int io_xyz_read(io_text *t, hg_particles *p, hg_err *e)
{
    char *line, *tok[2];
    size_t n;
    if (!io_next_line(t, &line))
        return io_fail(t, e, HG_EPARSE, "empty file");
    int nt = io_split(line, 0, tok, 2);
    if (nt != 1)
        return io_fail(t, e, HG_EPARSE,
                       "first line must hold only the particle count");
    int st = io_count(t, tok[0], "particle count", &n, e);
    if (st != HG_OK)
        return st;
    if (!io_next_line(t, &line))
        return io_fail(t, e, HG_EPARSE, "missing comment line");

    char val[1024];
    xyz_cols cols = {.dim = 3};
    if (find_key(line, "dim", val, sizeof val)) {
        if (strcmp(val, "2") == 0)
            cols.dim = 2;
        else if (strcmp(val, "3") != 0)
            return io_fail(t, e, HG_EPARSE, "dim: '%s' is not 2 or 3", val);
    }
    /* Properties=name:type:count:... -> column of pos and radius */
    if (!find_key(line, "Properties", val, sizeof val))
        snprintf(val, sizeof val, "species:S:1:pos:R:3");
    st = parse_properties(t, val, cols.dim, &cols.pos, &cols.rad, &cols.n,
                          e);
    if (st != HG_OK)
        return st;
    if (cols.pos < 0 || cols.rad < 0)
        return io_fail(t, e, HG_EPARSE,
                       "Properties must list pos:R:3 and radius:R:1");
    io_box box = {0};
    if ((st = parse_box(t, line, cols.dim, &box, e)))
        return st;
    io_build b = {0};
    b.dim = cols.dim;
    st = read_particles(t, n, &cols, &box, &b, e);
    if (st == HG_OK)
        st = io_build_finish(&b, t, &box, p, e);
    io_build_free(&b);
    return st;
}

void io_xyz_write(FILE *f, const hg_particles *p)
{
    int d = p->dim;
    double lo[3] = {0.0, 0.0, 0.0}, len[3] = {0.0, 0.0, 0.0};
    for (int c = 0; c < d; c++) {
        lo[c] = p->lo[c];
        len[c] = p->hi[c] - p->lo[c];
    }
    if (d == 2) {
        double h = hg_particles_rmax(p);
        if (!(h > 0.0))
            h = 0.5;
        lo[2] = -h;
        len[2] = 2.0 * h;
    }
    const char *pb[3];
    for (int c = 0; c < 3; c++)
        pb[c] = c < d && hg_particles_axis_periodic(p, c) ? "T" : "F";
    fprintf(f, "%zu\n", p->n);
    fprintf(f,
            "Lattice=\"%.17g 0 0 0 %.17g 0 0 0 %.17g\" "
            "Origin=\"%.17g %.17g %.17g\" "
            "Properties=species:S:1:pos:R:3:radius:R:1 pbc=\"%s %s %s\"",
            len[0], len[1], len[2], lo[0], lo[1], lo[2], pb[0], pb[1],
            pb[2]);
    fprintf(f, " hgridopt_box=\"");
    for (int c = 0; c < d; c++)
        fprintf(f, "%s%.17g %.17g", c ? " " : "", p->lo[c], p->hi[c]);
    fprintf(f, "\"%s\n", d == 2 ? " dim=2" : "");
    for (size_t i = 0; i < p->n; i++) {
        const double *x = p->x + i * (size_t)d;
        fprintf(f, "P %.17g %.17g %.17g %.17g\n", x[0], x[1],
                d == 3 ? x[2] : 0.0, p->r[i]);
    }
}
