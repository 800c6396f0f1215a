/* io.c - particle files: loading a file with the reader of its format
 * (io_format.c tells which: from the content, else the extension), the
 * in-memory line reader and particle list shared by the readers of whole
 * files (io_csv.c, io_lammps.c, io_xyz.c, io_vtk.c, io_vtk_xml.c,
 * io_mercury.c's restart), the streamed ones (io_dump.c, io_mercury.c's
 * .data, through io_stream.c and io_frames.c), the box file beside a VTK
 * frame (io_vtk_box.c), and writing. */
#include "io_internal.h"
#include "read_internal.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
    if (!isfinite(r * r * r) || !isfinite(4.2 * r * r * r))
        return io_fail(t, e, HG_EPARSE,
                       "radius %.17g: its volume is not a finite number",
                       r);
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

int io_stream_fail(io_stream *s, hg_err *e, int status, const char *fmt,
                   ...)
{
    if (e) {
        char msg[HG_ERRLEN];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        hg_fail(e, status, "%s:%ld: %s", io_stream_name(s),
                io_stream_lineno(s), msg);
    }
    return status;
}

int io_stream_number(io_stream *s, const char *tok, const char *field,
                     double *out, hg_err *e)
{
    char *end;
    double v = io_strtod(tok, &end);
    if (end == tok || *end)
        return io_stream_fail(s, e, HG_EPARSE, "%s: '%s' is not a number",
                              field, tok);
    if (!isfinite(v))
        return io_stream_fail(s, e, HG_EPARSE,
                              "%s: '%s' is not a finite number", field, tok);
    *out = v;
    return HG_OK;
}

void io_grow_box(hg_particles *p, hg_io_info *info)
{
    size_t k = hg_particles_grow_box(p);
    if (!k || !info)
        return;
    size_t n = strlen(info->note);
    snprintf(info->note + n, sizeof info->note - n,
             "%s%zu centre coordinate%s outside the box along non-periodic "
             "axes: the box grown to hold %s",
             n ? "; " : "", k, k == 1 ? " lies" : "s lie",
             k == 1 ? "it" : "them");
}


static void info_reset(hg_io_info *info)
{
    memset(info, 0, sizeof *info);
    info->frame = 1;
    info->step = -1;
    info->time = NAN;
    snprintf(info->boundary_default, sizeof info->boundary_default,
             "periodic, LAMMPS' default");
}

int io_lammps_is_2d(const double *x, size_t n, double zlo, double zhi,
                    double rmax, int z_periodic, double tol,
                    hg_io_info *info)
{
    int straddles = zlo < 0.0 && zhi > 0.0;
    int thin = zhi - zlo < 2.0 * rmax && z_periodic;
    if (!n || !(straddles || thin))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!(fabs(x[3 * i + 2]) <= tol))
            return 0;
    if (straddles)
        return 1;
    io_info_note(info, "2D: every z is 0, in a z box (%.9g to %.9g) "
                 "thinner than the largest sphere (diameter %.9g)", zlo,
                 zhi, 2.0 * rmax);
    return 2;
}

void io_info_note(hg_io_info *info, const char *fmt, ...)
{
    size_t k = strlen(info->note);
    if (k && k + 2 < sizeof info->note)
        k += (size_t)snprintf(info->note + k, sizeof info->note - k, "; ");
    if (k + 1 >= sizeof info->note)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(info->note + k, sizeof info->note - k, fmt, ap);
    va_end(ap);
}

/* A format read into memory whole: csv, LAMMPS data, XYZ, VTK, restart. */
static int load_text(io_stream *s, const hg_io_options *o,
                     hg_io_format fmt, hg_particles *p, hg_io_info *info,
                     hg_err *e)
{
    io_text t = {0};
    int st = io_stream_slurp(s, &t.buf, &t.len, e);
    if (st)
        return st;
    t.name = io_stream_name(s);
    switch (fmt) {
    case HG_IO_CSV: st = io_csv_read(&t, p, info, e); break;
    case HG_IO_LAMMPS: st = io_lammps_read(&t, p, info, e); break;
    case HG_IO_XYZ: st = io_xyz_read(&t, p, e); break;
    case HG_IO_VTK: {
        const char *c = t.buf;
        while (isspace((unsigned char)*c))
            c++;
        st = *c == '<' ? io_vtk_xml_read(&t, p, info, e)
                       : io_vtk_read(&t, p, info, e);
        break;
    }
    case HG_IO_MERCURY_RESTART:
        st = io_mercury_restart_read(&t, o->boundary_given, p, info, e);
        break;
    default:
        st = hg_fail(e, HG_EINVAL, "%s: unknown format %d", t.name, (int)fmt);
    }
    free(t.buf);
    return st;
}


int io_stream_format(io_stream *s, const hg_io_options *o,
                     const char *path, hg_io_format *fmt, hg_err *e)
{
    const char *h;
    size_t n;
    int st = io_stream_peek(s, 1 << 16, &h, &n, e);
    if (st)
        return st;
    if (n >= 3 && memcmp(h, "\xef\xbb\xbf", 3) == 0) /* UTF-8 BOM */
        io_stream_drop(s, 3);
    if ((st = io_stream_peek(s, 1 << 16, &h, &n, e)))
        return st;
    if (o->format == HG_IO_AUTO &&
        (st = io_refuse_kind(h, n, io_stream_name(s), path, e)))
        return st;
    const char *nul = memchr(h, '\0', n);
    if (nul)
        return hg_fail(e, HG_EPARSE, "%s: binary data (NUL byte at offset "
                                     "%zu) in a text file (it reads %s)",
                       io_stream_name(s), (size_t)(nul - h),
                       hg_io_formats_read());
    if (n == 0)
        return hg_fail(e, HG_EPARSE, "%s: empty file", io_stream_name(s));
    *fmt = o->format;
    if (*fmt == HG_IO_AUTO)
        *fmt = io_sniff(h, n);
    if (*fmt == HG_IO_AUTO && path)
        (void)hg_io_format_from_path(path, fmt, NULL);
    return HG_OK;
}

static int load_stream(io_stream *s, const hg_io_options *o,
                       const char *path, uint64_t size, hg_particles *p,
                       hg_io_info *info, hg_err *e)
{
    hg_io_format fmt;
    int st = io_stream_format(s, o, path, &fmt, e);
    if (st)
        return st;
    info->compressed = io_stream_compressed(s);
    const char *h;
    size_t n;
    if ((st = io_stream_peek(s, 1 << 16, &h, &n, e)))
        return st;
    if (fmt == HG_IO_AUTO) {
        return hg_fail(e, HG_EPARSE,
                       "%s: not a particle file hgridopt reads (it reads %s)",
                       io_stream_name(s), hg_io_formats_read());
    }
    info->format = fmt;
    switch (fmt) {
    case HG_IO_DUMP: return io_dump_load(s, o, size, p, info, e);
    case HG_IO_MERCURY_DATA:
        return io_mercury_data_load(s, o, path, p, info, e);
    default: break;
    }
    static const char *const kinds[] = {
        [HG_IO_CSV] = "CSV", [HG_IO_LAMMPS] = "LAMMPS data file",
        [HG_IO_XYZ] = "extended XYZ", [HG_IO_VTK] = "legacy VTK",
        [HG_IO_MERCURY_RESTART] = "MercuryDPM restart file"};
    if (!info->kind[0])
        snprintf(info->kind, sizeof info->kind, "%s%s", kinds[fmt],
                 info->compressed ? ", gzip" : "");
    int xml = n > 0 && (h[0] == '<' || (n > 1 && isspace((unsigned char)h[0]) &&
                                       memchr(h, '<', n < 64 ? n : 64)));
    st = load_text(s, o, fmt, p, info, e);
    if (!st && fmt == HG_IO_VTK && path && !strncmp(info->kind, "MercuryDPM", 10))
        io_mercury_vtu_restart(path, p, info);
    else if (!st && fmt == HG_IO_VTK && p->box_inferred && path)
        io_vtk_take_box(path, xml, p, info);
    if (!st && fmt == HG_IO_VTK)
        info->box_stated = !p->box_inferred;
    if (!st && fmt != HG_IO_MERCURY_RESTART && fmt != HG_IO_VTK) {
        info->box_stated = !p->box_inferred;
        /* CSV and XYZ say periodic or walls with their box, hgridopt's
         * LAMMPS data files in their title */
        info->boundary_stated = ((fmt == HG_IO_CSV || fmt == HG_IO_XYZ) &&
                                 !p->box_inferred) ||
                                (fmt == HG_IO_LAMMPS && p->boundary[0]);
    }
    return st;
}

/* Read the stream s (closed here) as o says. */
static int load_and_close(io_stream *s, const hg_io_options *o,
                          const char *path, uint64_t size, hg_particles *p,
                          hg_io_info *info, hg_err *e)
{
    static const hg_io_options dflt;
    int st = load_stream(s, o ? o : &dflt, path, size, p, info, e);
    io_stream_close(s);
    if (st)
        hg_particles_clear(p);
    return st;
}

int hg_io_load(const char *path, const hg_io_options *o, hg_particles *p,
               hg_io_info *info, hg_err *e)
{
    hg_io_info scratch;
    info = info ? info : &scratch;
    info_reset(info);
    memset(p, 0, sizeof *p);
    io_stream *s = NULL;
    int st = io_stream_open(&s, path, e);
    if (st)
        return st;
    return load_and_close(s, o, strcmp(path, "-") ? path : NULL,
                          io_stream_raw_size(s), p, info, e);
}

int hg_io_load_mem(const char *text, size_t len, const char *name,
                   const hg_io_options *o, hg_particles *p, hg_io_info *info,
                   hg_err *e)
{
    hg_io_info scratch;
    info = info ? info : &scratch;
    info_reset(info);
    memset(p, 0, sizeof *p);
    name = name ? name : "(memory)";
    io_stream *s = NULL;
    int st = io_stream_open_mem(&s, text, len, name, e);
    if (st)
        return st;
    return load_and_close(s, o, name, len, p, info, e);
}

int hg_io_read_mem(const char *text, size_t len, const char *name,
                   hg_io_format fmt, hg_particles *p, hg_err *e)
{
    hg_io_options o = {0};
    o.format = fmt;
    return hg_io_load_mem(text, len, name, &o, p, NULL, e);
}

int hg_io_read_stream(FILE *f, const char *name, hg_io_format fmt,
                      hg_particles *p, hg_err *e)
{
    memset(p, 0, sizeof *p);
    char *buf = NULL;
    size_t len = 0;
    int st = hg_read_all(f, name, &buf, &len, e);
    if (st)
        return st;
    st = hg_io_read_mem(buf, len, name, fmt, p, e);
    free(buf);
    return st;
}

int hg_io_read(const char *path, hg_io_format fmt, hg_particles *p,
               hg_err *e)
{
    hg_io_options o = {0};
    o.format = fmt;
    memset(p, 0, sizeof *p);
    if (!path)
        return hg_fail(e, HG_EINVAL, "particle file: no file name");
    return hg_io_load(path, &o, p, NULL, e);
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
