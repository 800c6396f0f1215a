/* io_format.c - which format a particle file is in: the format names
 * (--format), the format from the file name's extension, and from the
 * content (sniffing: the first lines of the file). */
#include "io_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
           ".data, .restart and Particle_N.vtu, extended XYZ, CSV (x,y,z,r; "
           "ParaView's \"Points:0\",... with radius or diameter), legacy "
           "VTK with a radius array";
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

/* ---- sniffing ------------------------------------------------------- */

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

/* MercuryDPM .data by content: time steps of a header "N time xMin
 * yMin [zMin] xMax yMax [zMax]" (6 or 8 numbers, N an integer) and N
 * particle lines of 8 (2D) or 14 (3D) numbers, whatever N is (a first
 * step of no particles is followed by the next header); the first blocks
 * of h[0, n) all fit and at least one header is whole. */
static int sniff_mercury_data(const char *h, size_t n)
{
    size_t pos = 0;
    const char *l;
    size_t ln;
    int headers = 0, dim_fields = 0;
    for (int block = 0; block < 64; block++) {
        if (!head_line(h, n, &pos, &l, &ln))
            return headers > 0;
        if (pos >= n && headers > 0)
            return 1; /* the last line may be cut by the end of the peek */
        int num, ints;
        int c = count_numbers(l, ln, &num, &ints);
        if (!num || (c != 6 && c != 8) || (dim_fields && c != dim_fields))
            return 0;
        char tok[32];
        size_t k = 0;
        while (k < ln && k + 1 < sizeof tok && !isspace((unsigned char)l[k])) {
            tok[k] = l[k];
            k++;
        }
        tok[k] = '\0';
        char *end;
        unsigned long long cnt = strtoull(tok, &end, 10);
        if (*end || !isdigit((unsigned char)tok[0]))
            return 0;
        dim_fields = c;
        headers++;
        int want = c == 8 ? 14 : 8;
        for (unsigned long long i = 0; i < cnt; i++) {
            if (!head_line(h, n, &pos, &l, &ln))
                return 1; /* the peek ends inside the step */
            int pc = count_numbers(l, ln, &num, &ints);
            if (pos >= n)
                return num; /* the last line may be cut */
            if (!num || pc != want)
                return 0;
        }
    }
    return headers > 0;
}

hg_io_format io_sniff(const char *h, size_t n)
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
        starts_with_ci(l1, l1n, "<VTKFile"))
        return HG_IO_VTK;
    if (starts_with_ci(l1, l1n, "<?xml") || starts_with_ci(l1, l1n, "<!--")) {
        /* XML: the declaration and comments (MercuryDPM writes "<!-- time
         * T-->") before the VTKFile element */
        size_t q = 0;
        const char *l;
        size_t ln;
        for (int k = 0; k < 16 && head_line(h, n, &q, &l, &ln); k++) {
            if (starts_with_ci(l, ln, "<VTKFile"))
                return HG_IO_VTK;
            if (!starts_with_ci(l, ln, "<?xml") && !starts_with_ci(l, ln, "<!--"))
                break;
        }
    }
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
    if (sniff_mercury_data(h, n))
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

/* ---- files refused by name ------------------------------------------ */

static int ends_with_ci(const char *s, const char *w)
{
    size_t n = strlen(s), k = strlen(w);
    return n >= k && strcasecmp(s + n - k, w) == 0;
}

/* The base name of a MercuryDPM output file NAME.EXT[.K] ("" when path
 * has no ".EXT"): NAME. */
static void run_name(const char *path, const char *ext, char *out,
                     size_t len)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    const char *base = slash ? slash + 1 : path ? path : "";
    const char *dot = strstr(base, ext);
    if (dot)
        snprintf(out, len, "%.*s", (int)(dot - base), base);
    else
        snprintf(out, len, "NAME");
}

/* A LAMMPS or LIGGGHTS binary restart (write_restart): LAMMPS since 2017
 * starts with the magic string "LammpS RestartT"; older LAMMPS and
 * LIGGGHTS with an int 0, the length of the version string, and the
 * string ("Version LIGGGHTS-PUBLIC 3.8.0, ..." or LAMMPS' "DD Mon YYYY"). */
static int binary_restart(const char *h, size_t n)
{
    if (n >= 15 && memcmp(h, "LammpS RestartT", 15) == 0)
        return 1;
    if (n < 12 || memcmp(h, "\0\0\0\0", 4))
        return 0;
    unsigned char b[4];
    memcpy(b, h + 4, 4);
    size_t len = (size_t)b[0] | (size_t)b[1] << 8 | (size_t)b[2] << 16 |
                 (size_t)b[3] << 24;
    if (len < 4 || len > 256 || 8 + len > n)
        return 0;
    const char *v = h + 8;
    const char *sp = memchr(v, ' ', len);
    return (len >= 7 && memcmp(v, "Version", 7) == 0) ||
           (isdigit((unsigned char)v[0]) && sp && sp - v <= 2);
}

int io_refuse_kind(const char *h, size_t n, const char *name,
                   const char *path, hg_err *e)
{
    const char *p = path ? path : name ? name : "";
    const char *slash = strrchr(p, '/');
    const char *base = slash ? slash + 1 : p;
    if (binary_restart(h, n) ||
        ((!strncmp(base, "restart.", 8) || ends_with_ci(base, ".restart")) &&
         memchr(h, '\0', n)))
        return hg_fail(e, HG_EPARSE,
                       "%s: a LAMMPS/LIGGGHTS binary restart file "
                       "(write_restart), which hgridopt does not read; write "
                       "the particles as text from the same run: write_data "
                       "FILE (LAMMPS), or dump ID all custom N FILE id type "
                       "x y z radius (it reads %s)",
                       name, hg_io_formats_read());
    size_t pos = 0, ln = 0;
    const char *l = NULL;
    int have = head_line(h, n, &pos, &l, &ln);
    const char *first = have ? l : "";
    char run[256];
    int fstat = ends_with_ci(base, ".fstat") || strstr(base, ".fstat.");
    int ene = ends_with_ci(base, ".ene") || strstr(base, ".ene.");
    if (have && !fstat && !ene) {
        char buf[256];
        size_t m = ln < sizeof buf - 1 ? ln : sizeof buf - 1;
        memcpy(buf, l, m);
        buf[m] = '\0';
        if (strstr(buf, "KineticEnergy") || strstr(buf, "ene_kin"))
            ene = 1;
        else if (buf[0] == '#') {
            /* .fstat: "# time 1", "# xMin yMin zMin xMax yMax zMax",
             * "# rMin rMax 0 0 0 0" */
            int num, ints, c[3];
            c[0] = count_numbers(buf + 1, strlen(buf + 1), &num, &ints);
            int ok = num && c[0] == 2;
            for (int k = 1; k < 3 && ok; k++) {
                ok = head_line(h, n, &pos, &l, &ln) && l[0] == '#';
                if (ok) {
                    c[k] = count_numbers(l + 1, ln - 1, &num, &ints);
                    ok = num && c[k] == 6;
                }
            }
            fstat = ok;
        }
    }
    if (fstat || ene) {
        run_name(p, fstat ? ".fstat" : ".ene", run, sizeof run);
        return hg_fail(e, HG_EPARSE,
                       "%s: a MercuryDPM %s file (%s), not particles; give "
                       "the .data or .restart of the same run (%s.data, "
                       "%s.restart) (it reads %s)",
                       name, fstat ? ".fstat" : ".ene",
                       fstat ? "contact forces per saved step"
                             : "energies per saved step",
                       run, run, hg_io_formats_read());
    }
    /* NAME.xballs: the shell script MercuryDPM writes beside NAME.data to
     * show it in XBalls ("... xballs -format 14 -f NAME.data ...") */
    if (ends_with_ci(base, ".xballs") ||
        (!strncmp(first, "#!", 2) && memmem(h, n, "xballs -format", 14))) {
        run_name(p, ".xballs", run, sizeof run);
        return hg_fail(e, HG_EPARSE,
                       "%s: MercuryDPM's XBalls script (it shows a .data "
                       "file in XBalls), not particles; give the .data or "
                       ".restart of the same run (%s.data, %s.restart) (it "
                       "reads %s)",
                       name, run, run, hg_io_formats_read());
    }
    return HG_OK;
}
