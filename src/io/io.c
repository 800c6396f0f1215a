/* io.c - particle files: the format from the content (else the
 * extension), the in-memory line reader and particle list shared by the
 * readers of whole files (io_csv.c, io_lammps.c, io_xyz.c, io_vtk.c,
 * io_vtk_xml.c, io_mercury.c's restart), the streamed ones (io_dump.c,
 * io_mercury.c's .data, through io_stream.c and io_frames.c), the box file
 * beside a VTK frame, and writing. */
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
#include <unistd.h>

static const struct {
    const char *name;
    hg_io_format fmt;
} format_names[] = {
    {"auto", HG_IO_AUTO},
    {"csv", HG_IO_CSV},
    {"lammps", HG_IO_LAMMPS},
    {"data", HG_IO_LAMMPS},
    {"lmp", HG_IO_LAMMPS},
    {"xyz", HG_IO_XYZ},
    {"extxyz", HG_IO_XYZ},
    {"vtk", HG_IO_VTK},
    {"dump", HG_IO_DUMP},
    {"lammpstrj", HG_IO_DUMP},
    {"mercurydpm-data", HG_IO_MERCURY_DATA},
    {"mercurydpm-restart", HG_IO_MERCURY_RESTART},
    {"restart", HG_IO_MERCURY_RESTART},
};

const char *hg_io_format_name(hg_io_format f)
{
    switch (f) {
    case HG_IO_CSV: return "csv";
    case HG_IO_LAMMPS: return "lammps";
    case HG_IO_XYZ: return "xyz";
    case HG_IO_VTK: return "vtk";
    case HG_IO_DUMP: return "dump";
    case HG_IO_MERCURY_DATA: return "mercurydpm-data";
    case HG_IO_MERCURY_RESTART: return "mercurydpm-restart";
    default: return "auto";
    }
}

int hg_io_format_writable(hg_io_format f)
{
    return f == HG_IO_CSV || f == HG_IO_LAMMPS || f == HG_IO_XYZ ||
           f == HG_IO_VTK;
}

const char *hg_io_formats_read(void)
{
    return "LAMMPS/LIGGGHTS dumps (dump atom, dump custom, .gz), LAMMPS "
           "data files, LIGGGHTS VTK (dump custom/vtk, LPP), MercuryDPM "
           ".data and .restart, extended XYZ, CSV (x,y,z,r), legacy VTK "
           "with a radius array";
}

int hg_io_format_parse(const char *text, hg_io_format *out, hg_err *e)
{
    for (size_t i = 0; i < sizeof format_names / sizeof *format_names; i++)
        if (text && strcasecmp(text, format_names[i].name) == 0) {
            *out = format_names[i].fmt;
            return HG_OK;
        }
    return hg_fail(e, HG_EUNKNOWN,
                   "format: '%s' is not one of csv, lammps, xyz, vtk, dump, "
                   "mercurydpm-data, mercurydpm-restart",
                   text ? text : "(null)");
}

int hg_io_format_from_path(const char *path, hg_io_format *out, hg_err *e)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    const char *base = slash ? slash + 1 : path;
    char name[256];
    snprintf(name, sizeof name, "%s", base ? base : "");
    size_t n = strlen(name);
    if (n > 3 && strcasecmp(name + n - 3, ".gz") == 0)
        name[n - 3] = '\0';
    const char *dot = strrchr(name, '.');
    if (dot && dot[1] != '\0' && strcasecmp(dot + 1, "auto") != 0 &&
        strcasecmp(dot + 1, "restart") != 0 &&
        hg_io_format_parse(dot + 1, out, NULL) == HG_OK)
        return HG_OK;
    if (dot && strcasecmp(dot + 1, "restart") == 0) {
        *out = HG_IO_MERCURY_RESTART;
        return HG_OK;
    }
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

/* The next non-blank line of h[*pos, n): [*b, *b + *len). 0 at the end. */
static int head_line(const char *h, size_t n, size_t *pos, const char **b,
                     size_t *len)
{
    for (;;) {
        if (*pos >= n)
            return 0;
        const char *s = h + *pos;
        const char *nl = memchr(s, '\n', n - *pos);
        size_t k = nl ? (size_t)(nl - s) : n - *pos;
        *pos += k + (nl ? 1 : 0);
        size_t i = 0;
        while (i < k && isspace((unsigned char)s[i]))
            i++;
        if (i == k)
            continue;
        while (k > i && isspace((unsigned char)s[k - 1]))
            k--;
        *b = s + i;
        *len = k - i;
        return 1;
    }
}

/* Blank-separated tokens of s[0, n): how many, and whether all are
 * numbers (*ints: all integers). */
static int count_numbers(const char *s, size_t n, int *all_num, int *ints)
{
    int count = 0;
    *all_num = 1;
    *ints = 1;
    size_t i = 0;
    while (i < n) {
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        if (i >= n)
            break;
        char tok[64];
        size_t k = 0;
        while (i < n && !isspace((unsigned char)s[i])) {
            if (k + 1 < sizeof tok)
                tok[k++] = s[i];
            i++;
        }
        tok[k] = '\0';
        char *end;
        double v = strtod(tok, &end);
        (void)v;
        if (end == tok || *end)
            *all_num = 0;
        if (strpbrk(tok, ".eE") || end == tok || *end)
            *ints = 0;
        count++;
    }
    return count;
}

static int starts_with_ci(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    return n >= k && strncasecmp(s, w, k) == 0;
}

/* The format the content shows (HG_IO_AUTO: cannot tell). */
static hg_io_format sniff(const char *h, size_t n)
{
    size_t pos = 0, l1n, l2n = 0;
    const char *l1, *l2 = NULL;
    if (!head_line(h, n, &pos, &l1, &l1n))
        return HG_IO_AUTO;
    size_t after1 = pos;
    if (!head_line(h, n, &pos, &l2, &l2n))
        l2 = NULL;
    if (starts_with_ci(l1, l1n, "ITEM:"))
        return HG_IO_DUMP;
    if (starts_with_ci(l1, l1n, "# vtk DataFile") ||
        starts_with_ci(l1, l1n, "<VTKFile") ||
        (starts_with_ci(l1, l1n, "<?xml") && l2 &&
         starts_with_ci(l2, l2n, "<VTKFile")))
        return HG_IO_VTK;
    if (starts_with_ci(l1, l1n, "restart_version") ||
        (starts_with_ci(l1, l1n, "name ") && l2 &&
         starts_with_ci(l2, l2n, "dataFile")))
        return HG_IO_MERCURY_RESTART;
    int num1, int1, num2 = 0, int2 = 0;
    int c1 = count_numbers(l1, l1n, &num1, &int1), c2 = 0;
    if (l2)
        c2 = count_numbers(l2, l2n, &num2, &int2);
    if (num1 && c1 == 1 && int1)
        return HG_IO_XYZ;
    /* MercuryDPM: "N time xmin ymin [zmin] xmax ymax [zmax]", then a
     * particle per line */
    if (num1 && int1 == 0 && (c1 == 8 || c1 == 6) && (!l2 || num2))
        return HG_IO_MERCURY_DATA;
    if (num1 && (c1 == 8 || c1 == 6) && l2 && num2 &&
        (c2 == 14 || c2 == 8 || c2 == 15 || c2 == 9))
        return HG_IO_MERCURY_DATA;
    /* a LAMMPS data file's header has "N atoms" */
    size_t q = after1;
    const char *l;
    size_t ln;
    for (int k = 0; k < 64 && head_line(h, n, &q, &l, &ln); k++) {
        char buf[128];
        size_t m = ln < sizeof buf - 1 ? ln : sizeof buf - 1;
        memcpy(buf, l, m);
        buf[m] = '\0';
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char w[2][64];
        if (sscanf(buf, "%63s %63s", w[0], w[1]) == 2 &&
            strcmp(w[1], "atoms") == 0 && isdigit((unsigned char)w[0][0]))
            return HG_IO_LAMMPS;
    }
    if (memchr(l1, ',', l1n) || (l1[0] == '#' && l2 && memchr(l2, ',', l2n)))
        return HG_IO_CSV;
    if (l1[0] == '#' && l2 && !num2)
        return HG_IO_CSV;
    return HG_IO_AUTO;
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

/* A format read into memory whole: csv, LAMMPS data, XYZ, VTK, restart. */
static int load_text(io_stream *s, hg_io_format fmt, hg_particles *p,
                     hg_io_info *info, hg_err *e)
{
    io_text t = {0};
    int st = io_stream_slurp(s, &t.buf, &t.len, e);
    if (st)
        return st;
    t.name = io_stream_name(s);
    switch (fmt) {
    case HG_IO_CSV: st = io_csv_read(&t, p, e); break;
    case HG_IO_LAMMPS: st = io_lammps_read(&t, p, e); break;
    case HG_IO_XYZ: st = io_xyz_read(&t, p, e); break;
    case HG_IO_VTK: {
        const char *c = t.buf;
        while (isspace((unsigned char)*c))
            c++;
        st = *c == '<' ? io_vtk_xml_read(&t, p, info, e)
                       : io_vtk_read(&t, p, info, e);
        break;
    }
    case HG_IO_MERCURY_RESTART: st = io_mercury_restart_read(&t, p, info, e);
        break;
    default:
        st = hg_fail(e, HG_EINVAL, "%s: unknown format %d", t.name, (int)fmt);
    }
    free(t.buf);
    return st;
}

/* The box file LIGGGHTS (dump custom/vtk: "boundingBox_" where the
 * file name's '*' stood) or LPP ("_boundingBox" after the step) writes
 * beside a VTK frame: read into lo, hi. 0 when there is none. */
static int sibling_box(const char *path, int xml, double lo[3],
                       double hi[3], char *found, size_t flen)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t stem = dot ? (size_t)(dot - base) : strlen(base);
    size_t dir = (size_t)(base - path);
    /* the last run of digits of the stem: the step */
    size_t d1 = stem;
    while (d1 > 0 && !isdigit((unsigned char)base[d1 - 1]))
        d1--;
    size_t d0 = d1;
    while (d0 > 0 && isdigit((unsigned char)base[d0 - 1]))
        d0--;
    char cand[2][4400];
    int nc = 0;
    if (d1 > d0)
        snprintf(cand[nc++], sizeof cand[0], "%.*s%.*sboundingBox_%.*s%s",
                 (int)dir, path, (int)d0, base, (int)(stem - d0), base + d0,
                 xml ? ".vtr" : ".vtk");
    snprintf(cand[nc++], sizeof cand[0], "%.*s%.*s_boundingBox.vtk",
             (int)dir, path, (int)stem, base);
    for (int k = 0; k < nc; k++) {
        io_stream *s = NULL;
        if (access(cand[k], R_OK) || io_stream_open(&s, cand[k], NULL))
            continue;
        io_text t = {0};
        int st = io_stream_slurp(s, &t.buf, &t.len, NULL);
        t.name = cand[k];
        io_stream_close(s);
        if (st)
            continue;
        const char *c = t.buf;
        while (isspace((unsigned char)*c))
            c++;
        st = *c == '<' ? io_vtk_xml_box(&t, lo, hi, NULL)
                       : io_vtk_box(&t, lo, hi, NULL);
        free(t.buf);
        if (st == HG_OK) {
            snprintf(found, flen, "%s", cand[k]);
            return 1;
        }
    }
    return 0;
}

/* Give a VTK frame the box of its box file, wrapping centres that lie
 * outside into it (periodic, LAMMPS' default, until the boundary is
 * known). */
static void vtk_take_box(const char *path, int xml, hg_particles *p,
                         hg_io_info *info)
{
    double lo[3], hi[3];
    char found[9000];
    if (!sibling_box(path, xml, lo, hi, found, sizeof found))
        return;
    int d = p->dim;
    for (int a = 0; a < d; a++)
        if (!(hi[a] > lo[a]))
            return;
    for (int a = 0; a < d; a++) {
        p->lo[a] = lo[a];
        p->hi[a] = hi[a];
        double len = hi[a] - lo[a];
        for (size_t i = 0; i < p->n; i++) {
            double *x = &p->x[i * (size_t)d + (size_t)a];
            if (*x < lo[a] || *x >= hi[a]) {
                *x -= floor((*x - lo[a]) / len) * len;
                if (*x < lo[a] || *x >= hi[a])
                    *x = lo[a];
            }
        }
    }
    p->box_inferred = 0;
    p->periodic = 1;
    memset(p->boundary, 0, sizeof p->boundary);
    info->box_stated = 1;
    const char *b = strrchr(found, '/');
    snprintf(info->note + strlen(info->note),
             sizeof info->note - strlen(info->note), "%sbox from %s",
             info->note[0] ? "; " : "", b ? b + 1 : found);
}

static int load_stream(io_stream *s, const hg_io_options *o,
                       const char *path, uint64_t size, hg_particles *p,
                       hg_io_info *info, hg_err *e)
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
    info->compressed = io_stream_compressed(s);
    const char *nul = memchr(h, '\0', n);
    if (nul)
        return hg_fail(e, HG_EPARSE, "%s: binary data (NUL byte at offset "
                                     "%zu) in a text file",
                       io_stream_name(s), (size_t)(nul - h));
    if (n == 0)
        return hg_fail(e, HG_EPARSE, "%s: empty file", io_stream_name(s));
    hg_io_format fmt = o->format;
    if (fmt == HG_IO_AUTO)
        fmt = sniff(h, n);
    if (fmt == HG_IO_AUTO && path)
        (void)hg_io_format_from_path(path, &fmt, NULL);
    if (fmt == HG_IO_AUTO) {
        if (n == 0)
            return hg_fail(e, HG_EPARSE, "%s: empty file",
                           io_stream_name(s));
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
    st = load_text(s, fmt, p, info, e);
    if (!st && fmt == HG_IO_VTK && p->box_inferred && path)
        vtk_take_box(path, xml, p, info);
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
