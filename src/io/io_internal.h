/* io_internal.h - shared machinery of the particle-file readers/writers
 * (not installed; used by src/io*.c only). */
#ifndef HG_IO_INTERNAL_H
#define HG_IO_INTERNAL_H

#include <stdio.h>
#include "hg_io.h"

/* A whole file in memory, consumed line by line. */
typedef struct io_text {
    char *buf;        /* owned copy, NUL-terminated */
    size_t len, pos;
    long line;        /* number of the line last returned (1-based) */
    const char *name; /* file name for messages */
} io_text;

/* Next line, NUL-terminated in place, trailing "\r" removed. Returns 0 at
 * the end of the text. */
int io_next_line(io_text *t, char **line);
/* 1 if s holds only blanks. */
int io_blank(const char *s);
/* Split s in place at commas (comma != 0) or runs of blanks; blanks around
 * tokens are trimmed. Stores up to max tokens, returns how many there are
 * (possibly more than max). */
int io_split(char *s, int comma, char **tok, int max);

/* hg_fail with the prefix "name:line: ". */
int io_fail(const io_text *t, hg_err *e, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Parse a finite double from the whole token; message names field. */
int io_number(const io_text *t, const char *tok, const char *field,
              double *out, hg_err *e);
/* Parse a non-negative integer count from the whole token. */
int io_count(const io_text *t, const char *tok, const char *field,
             size_t *out, hg_err *e);

/* Growable particle list used while reading. */
typedef struct io_build {
    int dim;
    size_t n, cap;
    double *x, *r;
    double rmin, rmax;   /* smallest and largest radius so far */
    long rmin_line;      /* line of the smallest radius */
} io_build;

/* Append a particle read at the current line of t. */
int io_build_push(io_build *b, const io_text *t, const double *x, double r,
                  hg_err *e);
void io_build_free(io_build *b);

/* Box of a file: has_box = 0 means "use the bounding box, walls". */
typedef struct io_box {
    int has_box;
    double lo[3], hi[3];
    int periodic;      /* every axis periodic */
    char boundary[3];  /* per axis 'p'/'f' when the file says (XYZ pbc);
                          0: from periodic */
} io_box;

/* Check radius > 0 and, when the box is known, that the centre lies in the
 * box ([lo, hi) periodic, [lo, hi] walls); message at the current line. */
int io_check_particle(const io_text *t, const io_box *box, int dim,
                      const double *x, double r, hg_err *e);
/* Check a box read from the file (finite, hi > lo on each axis). */
int io_check_box(const io_text *t, const io_box *box, int dim, hg_err *e);
/* Move the built list into p with the given (or bounding) box. Fails when
 * r_max / r of some particle is not a finite normal number (the message
 * names the line of the smallest radius) or the bounding box is empty
 * along an axis (coordinates too large for their radii). */
int io_build_finish(io_build *b, io_text *t, const io_box *box,
                    hg_particles *p, hg_err *e);

/* Per-format entry points. */
int io_csv_read(io_text *t, hg_particles *p, hg_err *e);
int io_lammps_read(io_text *t, hg_particles *p, hg_err *e);
int io_xyz_read(io_text *t, hg_particles *p, hg_err *e);
int io_vtk_read(io_text *t, hg_particles *p, hg_err *e);

/* Writers return HG_OK or HG_EIO only through ferror checked by the caller;
 * they do not fail otherwise. */
void io_csv_write(FILE *f, const hg_particles *p);
void io_lammps_write(FILE *f, const hg_particles *p);
void io_xyz_write(FILE *f, const hg_particles *p);
void io_vtk_write(FILE *f, const hg_particles *p);

#endif
