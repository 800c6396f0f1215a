/* io.c - particle files: format selection, file handling and the line
 * reader shared by the per-format readers (io_csv.c, io_lammps.c,
 * io_xyz.c, io_vtk.c). */
#include "io_internal.h"
#include "read_internal.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    hg_io_format fmt;
} format_names[] = {
    {"auto", HG_IO_AUTO}, {"csv", HG_IO_CSV},     {"lammps", HG_IO_LAMMPS},
    {"data", HG_IO_LAMMPS}, {"lmp", HG_IO_LAMMPS}, {"xyz", HG_IO_XYZ},
    {"extxyz", HG_IO_XYZ}, {"vtk", HG_IO_VTK},
};

const char *hg_io_format_name(hg_io_format f)
{
    switch (f) {
    case HG_IO_CSV: return "csv";
    case HG_IO_LAMMPS: return "lammps";
    case HG_IO_XYZ: return "xyz";
    case HG_IO_VTK: return "vtk";
    default: return "auto";
    }
}

int hg_io_format_parse(const char *text, hg_io_format *out, hg_err *e)
{
    for (size_t i = 0; i < sizeof format_names / sizeof *format_names; i++)
        if (text && strcasecmp(text, format_names[i].name) == 0) {
            *out = format_names[i].fmt;
            return HG_OK;
        }
    return hg_fail(e, HG_EUNKNOWN,
                   "format: '%s' is not one of csv, lammps, xyz, vtk",
                   text ? text : "(null)");
}

int hg_io_format_from_path(const char *path, hg_io_format *out, hg_err *e)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (dot && (!slash || dot > slash) && dot[1] != '\0' &&
        strcasecmp(dot + 1, "auto") != 0 &&
        hg_io_format_parse(dot + 1, out, NULL) == HG_OK)
        return HG_OK;
    return hg_fail(e, HG_EUNKNOWN,
                   "%s: cannot tell the format from the extension (use "
                   ".csv, .data, .lmp, .xyz or .vtk, or give the format)",
                   path ? path : "(null)");
}

/* ---- line reader ---------------------------------------------------- */

int io_next_line(io_text *t, char **line)
{
    if (t->pos >= t->len)
        return 0;
    char *s = t->buf + t->pos;
    char *nl = memchr(s, '\n', t->len - t->pos);
    size_t n = nl ? (size_t)(nl - s) : t->len - t->pos;
    t->pos += n + (nl ? 1 : 0);
    s[n] = '\0';
    if (n > 0 && s[n - 1] == '\r')
        s[n - 1] = '\0';
    t->line++;
    *line = s;
    return 1;
}

int io_blank(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return *s == '\0';
}

static char *trim(char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

int io_split(char *s, int comma, char **tok, int max)
{
    int n = 0;
    if (comma) {
        for (;;) {
            char *c = strchr(s, ',');
            if (c)
                *c = '\0';
            if (n < max)
                tok[n] = trim(s);
            n++;
            if (!c)
                break;
            s = c + 1;
        }
        return n;
    }
    for (;;) {
        while (*s && isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        char *b = s;
        while (*s && !isspace((unsigned char)*s))
            s++;
        if (*s)
            *s++ = '\0';
        if (n < max)
            tok[n] = b;
        n++;
    }
    return n;
}

int io_fail(const io_text *t, hg_err *e, int status, const char *fmt, ...)
{
    if (e) {
        char msg[HG_ERRLEN];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        hg_fail(e, status, "%s:%ld: %s", t->name, t->line, msg);
    }
    return status;
}

int io_number(const io_text *t, const char *tok, const char *field,
              double *out, hg_err *e)
{
    if (!*tok)
        return io_fail(t, e, HG_EPARSE, "%s: missing number", field);
    char *end = NULL;
    errno = 0;
    double v = strtod(tok, &end);
    if (end == tok || *end != '\0')
        return io_fail(t, e, HG_EPARSE, "%s: '%s' is not a number", field,
                       tok);
    if (!isfinite(v))
        return io_fail(t, e, HG_EPARSE, "%s: '%s' is not a finite number",
                       field, tok);
    if (errno == ERANGE && fabs(v) > 1.0)
        return io_fail(t, e, HG_EPARSE, "%s: '%s' is out of range", field,
                       tok);
    *out = v;
    return HG_OK;
}

int io_count(const io_text *t, const char *tok, const char *field,
             size_t *out, hg_err *e)
{
    char *end = NULL;
    errno = 0;
    if (!isdigit((unsigned char)*tok))
        return io_fail(t, e, HG_EPARSE,
                       "%s: '%s' is not a non-negative integer", field, tok);
    unsigned long long v = strtoull(tok, &end, 10);
    if (*end != '\0')
        return io_fail(t, e, HG_EPARSE,
                       "%s: '%s' is not a non-negative integer", field, tok);
    /* every particle takes at least a few bytes of the file */
    if (errno == ERANGE || v > (unsigned long long)t->len)
        return io_fail(t, e, HG_EPARSE,
                       "%s: %s is more than the file (%zu bytes) can hold",
                       field, tok, t->len);
    *out = (size_t)v;
    return HG_OK;
}

/* ---- particle list -------------------------------------------------- */

int io_build_push(io_build *b, const io_text *t, const double *x, double r,
                  hg_err *e)
{
    if (b->n == 0 || r < b->rmin) {
        b->rmin = r;
        b->rmin_line = t->line;
    }
    if (b->n == 0 || r > b->rmax)
        b->rmax = r;
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1024;
        double *nx = realloc(b->x, cap * (size_t)b->dim * sizeof *nx);
        if (!nx)
            return hg_fail(e, HG_ENOMEM, "out of memory");
        b->x = nx;
        double *nr = realloc(b->r, cap * sizeof *nr);
        if (!nr)
            return hg_fail(e, HG_ENOMEM, "out of memory");
        b->r = nr;
        b->cap = cap;
    }
    memcpy(b->x + b->n * (size_t)b->dim, x, (size_t)b->dim * sizeof *x);
    b->r[b->n++] = r;
    return HG_OK;
}

void io_build_free(io_build *b)
{
    free(b->x);
    free(b->r);
    b->x = b->r = NULL;
    b->n = b->cap = 0;
}

static const char axis_name[3] = {'x', 'y', 'z'};

int io_check_box(const io_text *t, const io_box *box, int dim, hg_err *e)
{
    for (int c = 0; c < dim; c++)
        if (!(box->hi[c] > box->lo[c]))
            return io_fail(t, e, HG_EPARSE,
                           "box: %clo %.17g is not below %chi %.17g",
                           axis_name[c], box->lo[c], axis_name[c],
                           box->hi[c]);
    return HG_OK;
}

int io_check_particle(const io_text *t, const io_box *box, int dim,
                      const double *x, double r, hg_err *e)
{
    if (!(r > 0.0))
        return io_fail(t, e, HG_EPARSE, "radius %.17g must be > 0", r);
    if (!box->has_box)
        return HG_OK;
    for (int c = 0; c < dim; c++) {
        int per = box->boundary[c] ? box->boundary[c] == 'p' : box->periodic;
        int out = per ? (x[c] < box->lo[c] || x[c] >= box->hi[c])
                      : (x[c] < box->lo[c] || x[c] > box->hi[c]);
        if (out)
            return io_fail(t, e, HG_EPARSE,
                           "%c = %.17g is outside the %s box [%.17g, %.17g%c",
                           axis_name[c], x[c], per ? "periodic" : "walled",
                           box->lo[c], box->hi[c], per ? ')' : ']');
    }
    return HG_OK;
}

int io_build_finish(io_build *b, io_text *t, const io_box *box,
                    hg_particles *p, hg_err *e)
{
    int dim = b->dim;
    /* the cost model works with r / r_min up to r_max / r_min (omega) */
    if (b->n > 0 && !(b->rmin >= DBL_MIN && isfinite(b->rmax / b->rmin))) {
        t->line = b->rmin_line;
        return io_fail(t, e, HG_EPARSE,
                       "radius %.17g is too small next to the largest "
                       "radius %.17g (their ratio is not a finite double)",
                       b->rmin, b->rmax);
    }
    memset(p, 0, sizeof *p);
    p->dim = dim;
    p->n = b->n;
    p->x = b->x ? b->x : calloc(1, sizeof *p->x);
    p->r = b->r ? b->r : calloc(1, sizeof *p->r);
    b->x = b->r = NULL;
    b->n = b->cap = 0;
    if (!p->x || !p->r) {
        hg_particles_clear(p);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    if (box->has_box) {
        for (int c = 0; c < 3; c++) {
            p->lo[c] = c < dim ? box->lo[c] : 0.0;
            p->hi[c] = c < dim ? box->hi[c] : 0.0;
        }
        p->periodic = box->periodic;
        memcpy(p->boundary, box->boundary, sizeof p->boundary);
        return HG_OK;
    }
    p->periodic = 0;
    p->box_inferred = 1;
    if (p->n == 0) {
        for (int c = 0; c < dim; c++) {
            p->lo[c] = 0.0;
            p->hi[c] = 1.0;
        }
        return HG_OK;
    }
    for (int c = 0; c < dim; c++) {
        p->lo[c] = INFINITY;
        p->hi[c] = -INFINITY;
    }
    for (size_t i = 0; i < p->n; i++)
        for (int c = 0; c < dim; c++) {
            double x = p->x[i * (size_t)dim + (size_t)c];
            if (x - p->r[i] < p->lo[c])
                p->lo[c] = x - p->r[i];
            if (x + p->r[i] > p->hi[c])
                p->hi[c] = x + p->r[i];
        }
    for (int c = 0; c < dim; c++)
        if (!(p->hi[c] > p->lo[c])) {
            int st = hg_fail(e, HG_EPARSE,
                             "%s: no box given and the bounding box of the "
                             "spheres is empty along %c (lo = hi = %.17g: "
                             "the radii vanish next to the coordinates)",
                             t->name, axis_name[c], p->lo[c]);
            hg_particles_clear(p);
            return st;
        }
    return HG_OK;
}

/* ---- reading -------------------------------------------------------- */

/* Guess the format from the first non-blank line of the text. */
static hg_io_format sniff(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && isspace((unsigned char)s[i]))
        i++;
    size_t j = i;
    while (j < len && s[j] != '\n')
        j++;
    size_t n = j - i;
    if (n >= 5 && strncasecmp(s + i, "# vtk", 5) == 0)
        return HG_IO_VTK;
    int digits = n > 0;
    for (size_t k = i; k < j; k++)
        if (!isdigit((unsigned char)s[k]) && !isspace((unsigned char)s[k]))
            digits = 0;
    if (digits)
        return HG_IO_XYZ;
    if (memchr(s + i, ',', n) || (n > 0 && s[i] == '#'))
        return HG_IO_CSV;
    return HG_IO_LAMMPS;
}

int hg_io_read_mem(const char *text, size_t len, const char *name,
                   hg_io_format fmt, hg_particles *p, hg_err *e)
{
    memset(p, 0, sizeof *p);
    if (!name)
        name = "(memory)";
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) { /* UTF-8 BOM */
        text += 3;
        len -= 3;
    }
    if (fmt == HG_IO_AUTO &&
        hg_io_format_from_path(name, &fmt, NULL) != HG_OK)
        fmt = sniff(text, len);
    io_text t = {0};
    t.buf = malloc(len + 1);
    if (!t.buf)
        return hg_fail(e, HG_ENOMEM, "%s: out of memory (%zu bytes)", name,
                       len);
    memcpy(t.buf, text, len);
    t.buf[len] = '\0';
    t.len = len;
    t.name = name;
    if (memchr(t.buf, '\0', len)) {
        free(t.buf);
        return hg_fail(e, HG_EPARSE, "%s: binary data (NUL byte) in a text "
                                     "file", name);
    }
    int st;
    switch (fmt) {
    case HG_IO_CSV: st = io_csv_read(&t, p, e); break;
    case HG_IO_LAMMPS: st = io_lammps_read(&t, p, e); break;
    case HG_IO_XYZ: st = io_xyz_read(&t, p, e); break;
    case HG_IO_VTK: st = io_vtk_read(&t, p, e); break;
    default:
        st = hg_fail(e, HG_EINVAL, "%s: unknown format %d", name, (int)fmt);
    }
    free(t.buf);
    if (st != HG_OK)
        hg_particles_clear(p);
    return st;
}

int hg_io_read_stream(FILE *f, const char *name, hg_io_format fmt,
                      hg_particles *p, hg_err *e)
{
    memset(p, 0, sizeof *p);
    char *buf = NULL;
    size_t len = 0;
    int st = hg_read_all(f, name, &buf, &len, e);
    if (st != HG_OK)
        return st;
    st = hg_io_read_mem(buf, len, name, fmt, p, e);
    free(buf);
    return st;
}

int hg_io_read(const char *path, hg_io_format fmt, hg_particles *p,
               hg_err *e)
{
    memset(p, 0, sizeof *p);
    if (!path)
        return hg_fail(e, HG_EINVAL, "particle file: no file name");
    if (strcmp(path, "-") == 0)
        return hg_io_read_stream(stdin, "(stdin)", fmt, p, e);
    if (fmt == HG_IO_AUTO)
        (void)hg_io_format_from_path(path, &fmt, NULL);
    FILE *f = fopen(path, "rb");
    if (!f)
        return hg_fail(e, HG_EIO, "%s: cannot open: %s", path,
                       strerror(errno));
    int st = hg_io_read_stream(f, path, fmt, p, e);
    fclose(f);
    return st;
}

/* ---- writing -------------------------------------------------------- */

int hg_io_write_stream(FILE *f, const char *name, hg_io_format fmt,
                       const hg_particles *p, hg_err *e)
{
    hg_err ce;
    if (hg_particles_check(p, &ce) != HG_OK)
        return hg_fail(e, HG_EINVAL, "%s: cannot write: %s", name, ce.msg);
    switch (fmt) {
    case HG_IO_CSV: io_csv_write(f, p); break;
    case HG_IO_LAMMPS: io_lammps_write(f, p); break;
    case HG_IO_XYZ: io_xyz_write(f, p); break;
    case HG_IO_VTK: io_vtk_write(f, p); break;
    default:
        return hg_fail(e, HG_EINVAL, "%s: no format given for writing", name);
    }
    if (fflush(f) != 0 || ferror(f))
        return hg_fail(e, HG_EIO, "%s: write error: %s", name,
                       strerror(errno));
    return HG_OK;
}

int hg_io_write(const char *path, hg_io_format fmt, const hg_particles *p,
                hg_err *e)
{
    if (!path)
        return hg_fail(e, HG_EINVAL, "particle file: no file name");
    int to_stdout = strcmp(path, "-") == 0;
    if (fmt == HG_IO_AUTO) {
        if (to_stdout)
            return hg_fail(e, HG_EINVAL,
                           "(stdout): give the format of the particle file");
        int st = hg_io_format_from_path(path, &fmt, e);
        if (st != HG_OK)
            return st;
    }
    if (to_stdout)
        return hg_io_write_stream(stdout, "(stdout)", fmt, p, e);
    hg_err ce;
    if (hg_particles_check(p, &ce) != HG_OK) /* before creating the file */
        return hg_fail(e, HG_EINVAL, "%s: cannot write: %s", path, ce.msg);
    hg_output *o = NULL;
    int st = hg_io_output_open(path, &o, e);
    if (st != HG_OK)
        return st;
    st = hg_io_write_stream(hg_io_output_stream(o), path, fmt, p, e);
    if (st != HG_OK) {
        hg_io_output_abort(o);
        return st;
    }
    st = hg_io_output_commit(o, e);
    return st;
}
