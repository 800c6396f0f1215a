/* io_lammps.c - LAMMPS data files, atom_style sphere. */
#include "io_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Drop a "# comment" from line, returning the comment text (or NULL). */
static char *cut_comment(char *line)
{
    char *h = strchr(line, '#');
    if (!h)
        return NULL;
    *h = '\0';
    return h + 1;
}

static int starts_numeric(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return isdigit((unsigned char)*s) || *s == '-' || *s == '+' || *s == '.';
}

typedef struct atom_id {
    unsigned long long id;
    long line;
} atom_id;

static int id_cmp(const void *a, const void *b)
{
    const atom_id *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Read the n lines of the Atoms section into b (checked against box). */
static int read_atoms(io_text *t, size_t n, long count_line, const io_box *box,
                      io_build *b, atom_id *ids, hg_err *e)
{
    char *line, *tok[12];
    size_t k = 0;
    int dim = b->dim;
    while (k < n) {
        if (!io_next_line(t, &line))
            return io_fail(t, e, HG_EPARSE,
                           "file ends after %zu of the %zu atoms announced "
                           "at line %ld",
                           k, n, count_line);
        cut_comment(line);
        if (io_blank(line)) {
            if (k == 0)
                continue;
            return io_fail(t, e, HG_EPARSE,
                           "Atoms section ends after %zu of the %zu atoms "
                           "announced at line %ld",
                           k, n, count_line);
        }
        if (!starts_numeric(line))
            return io_fail(t, e, HG_EPARSE,
                           "Atoms section ends after %zu of the %zu atoms "
                           "announced at line %ld",
                           k, n, count_line);
        int nt = io_split(line, 0, tok, 12);
        if (nt != 7 && nt != 10)
            return io_fail(t, e, HG_EPARSE,
                           "%d columns; atom_style sphere needs 7 (atom-ID "
                           "atom-type diameter density x y z) or 10 (with "
                           "image flags)",
                           nt);
        size_t id, type;
        int st = io_count(t, tok[0], "atom-ID", &id, e);
        if (st == HG_OK)
            st = io_count(t, tok[1], "atom-type", &type, e);
        if (st != HG_OK)
            return st;
        if (id == 0 || type == 0)
            return io_fail(t, e, HG_EPARSE, "atom-ID and atom-type must be "
                                            ">= 1");
        double diam, dens, x[3];
        st = io_number(t, tok[2], "diameter", &diam, e);
        if (st == HG_OK)
            st = io_number(t, tok[3], "density", &dens, e);
        static const char *const axis[3] = {"x", "y", "z"};
        for (int c = 0; c < 3 && st == HG_OK; c++)
            st = io_number(t, tok[4 + c], axis[c], &x[c], e);
        for (int c = 7; c < nt && st == HG_OK; c++) {
            double img;
            st = io_number(t, tok[c], "image flag", &img, e);
        }
        if (st != HG_OK)
            return st;
        if (!(diam > 0.0))
            return io_fail(t, e, HG_EPARSE, "diameter %.17g must be > 0",
                           diam);
        if (!(dens > 0.0))
            return io_fail(t, e, HG_EPARSE, "density %.17g must be > 0",
                           dens);
        double r = 0.5 * diam;
        if (dim == 2 && x[2] != 0.0)
            return io_fail(t, e, HG_EPARSE,
                           "z = %.17g in a 2D file (the title line says dim "
                           "2; 2D atoms have z = 0)",
                           x[2]);
        st = io_check_particle(t, box, dim, x, r, e);
        if (st == HG_OK)
            st = io_build_push(b, t, x, r, e);
        if (st != HG_OK)
            return st;
        ids[k].id = id;
        ids[k].line = t->line;
        k++;
    }
    /* the section must not hold more lines than announced */
    size_t save_pos = t->pos;
    long save_line = t->line;
    while (io_next_line(t, &line)) {
        cut_comment(line);
        if (io_blank(line))
            continue;
        if (starts_numeric(line))
            return io_fail(t, e, HG_EPARSE,
                           "more atom lines than the %zu atoms announced at "
                           "line %ld",
                           n, count_line);
        break;
    }
    t->pos = save_pos;
    t->line = save_line;
    qsort(ids, n, sizeof *ids, id_cmp);
    for (size_t i = 1; i < n; i++)
        if (ids[i].id == ids[i - 1].id) {
            t->line = ids[i].line;
            return io_fail(t, e, HG_EPARSE,
                           "atom-ID %llu used again (first at line %ld)",
                           ids[i].id, ids[i - 1].line);
        }
    return HG_OK;
}

/* The title line is free text; hgridopt writes "dim D periodic|walls":
 * then *dim (*dim_given), whether the box is periodic, and *titled (the
 * title states the boundary). */
static void read_title(char *line, int *dim, int *dim_given, io_box *box,
                       int *titled)
{
    char *tok[16];
    if (!strstr(line, "hgridopt"))
        return;
    int nt = io_split(line, 0, tok, 16);
    for (int k = 0; k < nt && k < 16; k++) {
        if (strcmp(tok[k], "dim") == 0 && k + 1 < nt && k + 1 < 16) {
            *dim = strcmp(tok[k + 1], "2") == 0 ? 2 : 3;
            *dim_given = 1;
        }
        else if (strcmp(tok[k], "walls") == 0)
            box->periodic = 0;
        if (!strcmp(tok[k], "walls") || !strcmp(tok[k], "periodic"))
            *titled = 1;
    }
}

/* The header: "<numbers> <keywords>" until the first section name, left
 * in *line (NULL at the end of the file) with its comment in *comment:
 * the atom count (*natoms, announced at *atoms_line) and the box of dim
 * axes. */
static int read_header(io_text *t, int dim, char **line, char **comment,
                       size_t *natoms, long *atoms_line, io_box *box,
                       hg_err *e)
{
    char *tok[16];
    long axis_line[3] = {0, 0, 0};
    int st = HG_OK;
    for (;;) {
        if (!io_next_line(t, line)) {
            *line = NULL;
            break;
        }
        *comment = cut_comment(*line);
        if (io_blank(*line))
            continue;
        if (!starts_numeric(*line))
            break;
        int nt = io_split(*line, 0, tok, 8);
        if (nt == 2 && strcmp(tok[1], "atoms") == 0) {
            if (*atoms_line)
                return io_fail(t, e, HG_EPARSE,
                               "second 'atoms' line (first at line %ld)",
                               *atoms_line);
            st = io_count(t, tok[0], "atoms", natoms, e);
            if (st != HG_OK)
                return st;
            *atoms_line = t->line;
        } else if (nt == 4 && tok[2][0] && tok[2][1] == 'l' &&
                   strchr("xyz", tok[2][0]) && strcmp(tok[2] + 1, "lo") == 0 &&
                   tok[3][0] == tok[2][0] && strcmp(tok[3] + 1, "hi") == 0) {
            int c = tok[2][0] - 'x';
            char lo[4] = {tok[2][0], 'l', 'o', 0}, hi[4] = {tok[2][0], 'h',
                                                           'i', 0};
            st = io_number(t, tok[0], lo, &box->lo[c], e);
            if (st == HG_OK)
                st = io_number(t, tok[1], hi, &box->hi[c], e);
            if (st != HG_OK)
                return st;
            if (!(box->hi[c] > box->lo[c]))
                return io_fail(t, e, HG_EPARSE,
                               "box: %s %.17g is not below %s %.17g", lo,
                               box->lo[c], hi, box->hi[c]);
            axis_line[c] = t->line;
        } else if (nt == 6 && strcmp(tok[3], "xy") == 0 &&
                   strcmp(tok[4], "xz") == 0 && strcmp(tok[5], "yz") == 0) {
            /* a box made triclinic and not (yet) tilted is the box:
             * LAMMPS writes the line for every triclinic box (its
             * examples' multi/data.powerlaw has "0 0 0 xy xz yz") */
            for (int k = 0; k < 3; k++) {
                double v;
                st = io_number(t, tok[k], tok[k + 3], &v, e);
                if (st != HG_OK)
                    return st;
                if (v != 0.0)
                    return io_fail(t, e, HG_EPARSE, "triclinic box: tilt "
                                   "%s %.17g; hgridopt reads orthogonal "
                                   "boxes only", tok[k + 3], v);
            }
        }
        /* other counts (atom types, bonds, ...) are not needed */
    }
    if (!*atoms_line)
        return io_fail(t, e, HG_EPARSE, "header has no 'N atoms' line");
    for (int c = 0; c < dim; c++)
        if (!axis_line[c])
            return io_fail(t, e, HG_EPARSE, "header has no '%clo %chi' box "
                                            "line",
                           'x' + c, 'x' + c);
    box->has_box = 1;
    return HG_OK;
}

/* The sections from the section name line (comment: its comment) on:
 * the Atoms section (atom_style sphere, the natoms announced at
 * atoms_line) into b, the others skipped. */
static int read_sections(io_text *t, char *line, char *comment,
                         size_t natoms, long atoms_line, const io_box *box,
                         io_build *b, hg_err *e)
{
    atom_id *ids = malloc((natoms ? natoms : 1) * sizeof *ids);
    if (!ids)
        return hg_fail(e, HG_ENOMEM, "out of memory for %zu atoms", natoms);
    int have_atoms = 0, st = HG_OK;
    while (line) {
        /* line is a section name (comment already cut) */
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        char *end = s + strlen(s);
        while (end > s && isspace((unsigned char)end[-1]))
            *--end = '\0';
        if (strcmp(s, "Atoms") == 0) {
            if (have_atoms) {
                st = io_fail(t, e, HG_EPARSE, "second Atoms section");
                break;
            }
            /* "Atoms # style": the style hint is optional */
            char *ht[2];
            if (comment && io_split(comment, 0, ht, 2) >= 1 &&
                strcmp(ht[0], "sphere") != 0) {
                st = io_fail(t, e, HG_EPARSE,
                             "Atoms section is atom_style %s; only "
                             "sphere is supported",
                             ht[0]);
                break;
            }
            st = read_atoms(t, natoms, atoms_line, box, b, ids, e);
            if (st != HG_OK)
                break;
            have_atoms = 1;
        }
        /* skip to the next section name */
        line = NULL;
        while (io_next_line(t, &line)) {
            comment = cut_comment(line);
            if (!io_blank(line) && !starts_numeric(line))
                break;
            line = NULL;
        }
    }
    free(ids);
    if (st == HG_OK && !have_atoms && natoms > 0)
        st = io_fail(t, e, HG_EPARSE,
                     "no Atoms section for the %zu atoms announced at line "
                     "%ld",
                     natoms, atoms_line);
    return st;
}

/* A file of LAMMPS' own ("dimension 2" is not stored): 2D where every z
 * is 0 and the box allows no other reading (io_lammps_is_2d: LAMMPS'
 * multi/data.powerlaw, z from 0 to 1, diameters 1-164); b then holds 2D
 * centres. */
static void flatten_2d(io_build *b, const io_box *box, hg_io_info *info)
{
    if (!io_lammps_is_2d(b->x, b->n, box->lo[2], box->hi[2], b->rmax, 1,
                         0.0, info))
        return;
    for (size_t i = 0; i < b->n; i++) {
        b->x[2 * i] = b->x[3 * i];
        b->x[2 * i + 1] = b->x[3 * i + 1];
    }
    b->dim = 2;
}

int io_lammps_read(io_text *t, hg_particles *p, hg_io_info *info,
                   hg_err *e)
{
    char *line;
    io_box box = {0};
    int dim = 3, dim_given = 0;
    box.periodic = 1;
    if (!io_next_line(t, &line))
        return io_fail(t, e, HG_EPARSE, "empty file");
    int titled = 0; /* hgridopt's own title states dim and boundary */
    read_title(line, &dim, &dim_given, &box, &titled);
    size_t natoms = 0;
    char *comment = NULL;
    long atoms_line = 0;
    int st = read_header(t, dim, &line, &comment, &natoms, &atoms_line, &box,
                         e);
    if (st != HG_OK)
        return st;
    io_build b = {0};
    b.dim = dim;
    st = read_sections(t, line, comment, natoms, atoms_line, &box, &b, e);
    if (st == HG_OK && !dim_given)
        flatten_2d(&b, &box, info);
    if (st == HG_OK && titled)
        for (int c = 0; c < 3; c++) /* stated: every axis alike */
            box.boundary[c] = box.periodic || c >= b.dim ? 'p' : 'f';
    if (st == HG_OK)
        st = io_build_finish(&b, t, &box, p, e);
    io_build_free(&b);
    return st;
}

void io_lammps_write(FILE *f, const hg_particles *p)
{
    int d = p->dim;
    fprintf(f, "LAMMPS data file (atom_style sphere) written by hgridopt: "
               "dim %d %s\n\n",
            d, p->periodic ? "periodic" : "walls");
    fprintf(f, "%zu atoms\n1 atom types\n\n", p->n);
    for (int c = 0; c < d; c++)
        fprintf(f, "%.17g %.17g %clo %chi\n", p->lo[c], p->hi[c], 'x' + c,
                'x' + c);
    if (d == 2) {
        double h = hg_particles_rmax(p);
        if (!(h > 0.0))
            h = 0.5;
        fprintf(f, "%.17g %.17g zlo zhi\n", -h, h);
    }
    fputs("\nAtoms # sphere\n\n", f);
    for (size_t i = 0; i < p->n; i++) {
        const double *x = p->x + i * (size_t)d;
        fprintf(f, "%zu 1 %.17g 1 %.17g %.17g %.17g\n", i + 1, 2.0 * p->r[i],
                x[0], x[1], d == 3 ? x[2] : 0.0);
    }
}
