/* io_vtk_xml.c - XML VTK files as LIGGGHTS' dump custom/vtk writes them
 * for a .vtp (PolyData) or .vtu (UnstructuredGrid) file name, ASCII data:
 * the Points array and a point-data array named radius (or diameter); the
 * .vtr box file written beside each frame (RectilinearGrid). A small
 * reader of the subset VTK writes: tags, attributes in double quotes, the
 * numbers of a DataArray up to its first child element or closing tag. */
#include "io_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One element's start tag: its name and attribute text, both pointing
 * into the buffer; body is what follows '>' (NULL for "<x/>"). */
typedef struct xml_tag {
    const char *name;
    size_t name_len;
    const char *attrs, *attrs_end;
    const char *body;
    int closing; /* "</x>" */
} xml_tag;

static long line_of(const io_text *t, const char *at)
{
    long n = 1;
    for (const char *c = t->buf; c < at; c++)
        n += *c == '\n';
    return n;
}

static int xfail(io_text *t, const char *at, hg_err *e, const char *fmt,
                 const char *arg)
{
    t->line = line_of(t, at);
    return io_fail(t, e, HG_EPARSE, fmt, arg);
}

/* The next tag at or after *pos (comments and <? ?> skipped). 0 at the
 * end. */
static int next_tag(const char **pos, xml_tag *tg)
{
    const char *s = *pos;
    for (;;) {
        s = strchr(s, '<');
        if (!s)
            return 0;
        if (!strncmp(s, "<!--", 4)) {
            const char *e = strstr(s, "-->");
            if (!e)
                return 0;
            s = e + 3;
            continue;
        }
        if (s[1] == '?' || s[1] == '!') {
            const char *e = strchr(s, '>');
            if (!e)
                return 0;
            s = e + 1;
            continue;
        }
        break;
    }
    memset(tg, 0, sizeof *tg);
    s++;
    if (*s == '/') {
        tg->closing = 1;
        s++;
    }
    tg->name = s;
    while (*s && !isspace((unsigned char)*s) && *s != '>' && *s != '/')
        s++;
    tg->name_len = (size_t)(s - tg->name);
    tg->attrs = s;
    int quoted = 0;
    while (*s && (quoted || *s != '>')) {
        if (*s == '"')
            quoted = !quoted;
        s++;
    }
    if (!*s)
        return 0;
    tg->attrs_end = s;
    tg->body = s[-1] == '/' ? NULL : s + 1;
    *pos = s + 1;
    return 1;
}

static int tag_is(const xml_tag *tg, const char *name)
{
    return tg->name_len == strlen(name) &&
           !strncmp(tg->name, name, tg->name_len);
}

/* Attribute key="value" of tg into out ("" and 0 when absent). */
static int attr(const xml_tag *tg, const char *key, char *out, size_t cap)
{
    size_t k = strlen(key);
    out[0] = '\0';
    for (const char *s = tg->attrs; s + k + 2 <= tg->attrs_end; s++) {
        if (strncmp(s, key, k) || s[k] != '=' || s[k + 1] != '"' ||
            (s > tg->attrs && !isspace((unsigned char)s[-1])))
            continue;
        const char *v = s + k + 2, *q = memchr(v, '"', (size_t)(tg->attrs_end - v));
        if (!q)
            return 0;
        size_t n = (size_t)(q - v) < cap - 1 ? (size_t)(q - v) : cap - 1;
        memcpy(out, v, n);
        out[n] = '\0';
        return 1;
    }
    return 0;
}

/* The numbers of a DataArray body: count of them (up to want; more is an
 * error) into out (may be NULL to count only). */
static int array_numbers(io_text *t, const xml_tag *tg, const char *what,
                         double *out, size_t want, hg_err *e)
{
    char fmt[32];
    attr(tg, "format", fmt, sizeof fmt);
    if (fmt[0] && strcasecmp(fmt, "ascii"))
        return xfail(t, tg->name, e,
                     "DataArray '%s' is not ASCII (format binary or "
                     "appended): write the file with ASCII data, or as "
                     "legacy VTK (a .vtk file name in dump custom/vtk)",
                     what);
    if (!tg->body)
        return xfail(t, tg->name, e, "DataArray '%s' is empty", what);
    const char *s = tg->body;
    size_t k = 0;
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '<' || !*s)
            break;
        char *end;
        double v = io_strtod(s, &end);
        if (end == s || !(isspace((unsigned char)*end) || *end == '<'))
            return xfail(t, s, e, "DataArray '%s': not a number", what);
        if (!isfinite(v))
            return xfail(t, s, e, "DataArray '%s': not a finite number",
                         what);
        if (k >= want)
            return xfail(t, s, e, "DataArray '%s' holds more numbers than "
                                  "its points",
                         what);
        if (out)
            out[k] = v;
        k++;
        s = end;
    }
    if (k != want) {
        char msg[96];
        snprintf(msg, sizeof msg, "%s (%zu of %zu numbers)", what, k, want);
        return xfail(t, s, e, "DataArray %s", msg);
    }
    return HG_OK;
}

static size_t count_attr(const xml_tag *tg, const char *key, size_t dflt)
{
    char v[32];
    if (!attr(tg, key, v, sizeof v))
        return dflt;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    return *end || end == v ? (size_t)-1 : (size_t)n;
}

int io_vtk_xml_box(io_text *t, double lo[3], double hi[3], hg_err *e)
{
    const char *pos = t->buf;
    xml_tag tg;
    int in_coords = 0, axis = 0;
    while (next_tag(&pos, &tg)) {
        if (tag_is(&tg, "Coordinates"))
            in_coords = !tg.closing;
        if (!in_coords || tg.closing || !tag_is(&tg, "DataArray"))
            continue;
        if (axis >= 3)
            break;
        double v[64];
        const char *s = tg.body ? tg.body : "";
        size_t k = 0;
        while (k < 64) {
            while (isspace((unsigned char)*s))
                s++;
            char *end;
            double x = io_strtod(s, &end);
            if (end == s)
                break;
            v[k++] = x;
            s = end;
        }
        if (k < 2)
            return xfail(t, tg.name, e, "%s: a box coordinate array needs "
                                        "two numbers",
                         t->name);
        lo[axis] = fmin(v[0], v[k - 1]);
        hi[axis] = fmax(v[0], v[k - 1]);
        axis++;
    }
    if (axis < 3)
        return io_fail(t, e, HG_EPARSE, "no Coordinates of three axes (not "
                                        "a RectilinearGrid box file)");
    return HG_OK;
}

int io_vtk_xml_read(io_text *t, hg_particles *p, hg_io_info *info, hg_err *e)
{
    const char *pos = t->buf;
    xml_tag tg;
    char type[64] = "";
    while (next_tag(&pos, &tg))
        if (tag_is(&tg, "VTKFile")) {
            attr(&tg, "type", type, sizeof type);
            break;
        }
    if (!type[0])
        return io_fail(t, e, HG_EPARSE, "no <VTKFile type=...> element");
    if (!strcmp(type, "RectilinearGrid"))
        return io_fail(t, e, HG_EPARSE,
                       "a box file (VTKFile RectilinearGrid, the boundingBox "
                       "file LIGGGHTS writes beside each frame), not "
                       "particles: give the particle file of the same step");
    if (strcmp(type, "PolyData") && strcmp(type, "UnstructuredGrid"))
        return io_fail(t, e, HG_EPARSE,
                       "VTKFile type '%s' is not PolyData or "
                       "UnstructuredGrid",
                       type);
    size_t n = (size_t)-1;
    int in_points = 0, in_pdata = 0, pieces = 0;
    double *x = NULL, *r = NULL;
    int r_is_diameter = 0, st = HG_OK, mercury = 0;
    while (st == HG_OK && next_tag(&pos, &tg)) {
        if (tag_is(&tg, "Piece") && !tg.closing) {
            if (pieces++)
                st = xfail(t, tg.name, e, "%s",
                           "more than one Piece (a parallel file: give "
                           "each piece, or merge them)");
            n = count_attr(&tg, "NumberOfPoints", (size_t)-1);
            if (n == (size_t)-1 || n > t->len)
                st = xfail(t, tg.name, e, "%s",
                           "Piece without a valid NumberOfPoints");
        } else if (tag_is(&tg, "Points")) {
            in_points = !tg.closing;
        } else if (tag_is(&tg, "PointData")) {
            in_pdata = !tg.closing && tg.body;
        } else if (tag_is(&tg, "DataArray") && !tg.closing) {
            if (n == (size_t)-1) {
                st = xfail(t, tg.name, e, "%s", "DataArray before Piece");
                break;
            }
            char name[64];
            attr(&tg, "Name", name, sizeof name);
            size_t nc = count_attr(&tg, "NumberOfComponents", 1);
            if (in_points && !x) {
                if (nc != 3) {
                    st = xfail(t, tg.name, e, "%s",
                               "Points need 3 components");
                    break;
                }
                mercury = !strcmp(name, "Position");
                if (!(x = malloc((n ? n : 1) * 3 * sizeof *x))) {
                    st = hg_fail(e, HG_ENOMEM, "out of memory");
                    break;
                }
                st = array_numbers(t, &tg, "Points", x, 3 * n, e);
            } else if (in_pdata && nc == 1 && !r &&
                       (!strcasecmp(name, "radius") ||
                        !strcasecmp(name, "diameter"))) {
                /* MercuryDPM's Particle_N.vtu names it Radius */
                r_is_diameter = !strcasecmp(name, "diameter");
                mercury &= !strcmp(name, "Radius");
                if (!(r = malloc((n ? n : 1) * sizeof *r))) {
                    st = hg_fail(e, HG_ENOMEM, "out of memory");
                    break;
                }
                st = array_numbers(t, &tg, name, r, n, e);
            }
        }
    }
    if (st == HG_OK && !x)
        st = io_fail(t, e, HG_EPARSE, "no Points");
    if (st == HG_OK && !r)
        st = io_fail(t, e, HG_EPARSE,
                     "no point-data array named radius (or diameter)");
    int dim = 3;
    if (st == HG_OK) {
        size_t i = 0;
        while (i < n && x[3 * i + 2] == 0.0)
            i++;
        if (i == n && n > 0) {
            dim = 2;
            if (info)
                snprintf(info->note, sizeof info->note, "2D: every z is 0");
        }
    }
    io_build b = {0};
    b.dim = dim;
    const io_box nobox = {0};
    for (size_t i = 0; st == HG_OK && i < n; i++) {
        double ri = r_is_diameter ? 0.5 * r[i] : r[i];
        st = io_check_particle(t, &nobox, dim, x + 3 * i, ri, e);
        if (st == HG_OK)
            st = io_build_push(&b, t, x + 3 * i, ri, e);
    }
    free(x);
    free(r);
    if (st == HG_OK) {
        if (info && mercury) {
            snprintf(info->kind, sizeof info->kind,
                     "MercuryDPM Particle_N.vtu (XML VTK %s)", type);
            snprintf(info->boundary_default, sizeof info->boundary_default,
                     "non-periodic, MercuryDPM's default (no "
                     "PeriodicBoundary)");
            /* "<!-- time T-->" after the XML declaration */
            const char *c = strstr(t->buf, "<!-- time ");
            char *end;
            double tv = c && c - t->buf < 256 ? strtod(c + 10, &end) : NAN;
            if (isfinite(tv))
                info->time = tv;
        } else if (info)
            snprintf(info->kind, sizeof info->kind,
                     "XML VTK %s (as LIGGGHTS' dump custom/vtk writes "
                     ".%s files)",
                     type, strcmp(type, "PolyData") ? "vtu" : "vtp");
        st = io_build_finish(&b, t, &nobox, p, e);
    }
    io_build_free(&b);
    return st;
}
