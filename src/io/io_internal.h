/* io_internal.h - shared machinery of the particle-file readers/writers
 * (not installed; used by the readers in src/io/ only). */
#ifndef HG_IO_INTERNAL_H
#define HG_IO_INTERNAL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "hg_io.h"
#include "io_stream.h"

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

/* The format the first bytes h[0, n) of a file show (HG_IO_AUTO: cannot
 * tell; io_format.c). */
hg_io_format io_sniff(const char *h, size_t n);
/* Files of other people's runs that hold no particles, named with what to
 * give instead (HG_EPARSE): LAMMPS/LIGGGHTS binary restarts, MercuryDPM
 * .fstat, .ene and .xballs; HG_OK for anything else. h[0, n) is the file's head,
 * path its name (may be NULL), name the name for messages. */
int io_refuse_kind(const char *h, size_t n, const char *name,
                   const char *path, hg_err *e);
/* Give a VTK frame read from path the box of the box file LIGGGHTS or LPP
 * wrote beside it, if there is one (xml: an XML VTK frame), wrapping
 * centres that lie outside into it (periodic, LAMMPS' default, until the
 * boundary is known); the note of info says so (io_vtk_box.c). */
void io_vtk_take_box(const char *path, int xml, hg_particles *p,
                     hg_io_info *info);

/* Per-format entry points. */
int io_csv_read(io_text *t, hg_particles *p, hg_io_info *info, hg_err *e);
/* LAMMPS' dimension 2, which its dumps and data files do not store: the
 * n centres x (3 each) all with |z| <= tol, in a z box [zlo, zhi] that
 * straddles 0 (LAMMPS' own for 2D) or, z_periodic (periodic, or not
 * said; 2D needs it), is thinner than the largest sphere (radius rmax:
 * no 3D box holds it). Returns 0 (3D), 1 (straddling) or 2 (thin, said
 * in info's note). */
int io_lammps_is_2d(const double *x, size_t n, double zlo, double zhi,
                    double rmax, int z_periodic, double tol,
                    hg_io_info *info);
/* Append a sentence to info->note ("; " between sentences). */
void io_info_note(hg_io_info *info, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int io_lammps_read(io_text *t, hg_particles *p, hg_io_info *info,
                   hg_err *e);
int io_xyz_read(io_text *t, hg_particles *p, hg_err *e);
int io_vtk_read(io_text *t, hg_particles *p, hg_io_info *info, hg_err *e);
/* XML VTK (io_vtk_xml.c): PolyData / UnstructuredGrid with ASCII data. */
int io_vtk_xml_read(io_text *t, hg_particles *p, hg_io_info *info,
                    hg_err *e);
/* The box of a box file written beside a frame (LIGGGHTS, LPP): legacy
 * RECTILINEAR_GRID (io_vtk_box) or XML RectilinearGrid (io_vtk_xml_box). */
int io_vtk_box(io_text *t, double lo[3], double hi[3], hg_err *e);
int io_vtk_xml_box(io_text *t, double lo[3], double hi[3], hg_err *e);
/* MercuryDPM (io_mercury.c): a .restart file in memory (a periodic
 * boundary no axis-aligned box holds is refused unless boundary_given); a
 * .data file streamed frame by frame (the frame of o, as for dumps); the
 * boundary of a Particle_N.vtu frame from the NAME.restart beside it, when
 * there is one (nothing changed otherwise). */
int io_mercury_restart_read(io_text *t, int boundary_given, hg_particles *p,
                            hg_io_info *info, hg_err *e);
void io_mercury_vtu_restart(const char *path, hg_particles *p,
                            hg_io_info *info);
int io_mercury_data_load(io_stream *s, const hg_io_options *o,
                         const char *path, hg_particles *p, hg_io_info *info,
                         hg_err *e);

/* The messages of the streamed readers: "name:line: reason", the line
 * being the one last read from s; a whole token as a finite number. */
int io_stream_fail(io_stream *s, hg_err *e, int status, const char *fmt,
                   ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
int io_stream_number(io_stream *s, const char *tok, const char *field,
                     double *out, hg_err *e);

/* ---- LAMMPS / LIGGGHTS text dumps (io_dump.c) ---- */

/* Columns of "ITEM: ATOMS ..." (indices, -1 when absent). kind[a] of the
 * position column of axis a: 0 x, 1 xu (unwrapped), 2 xs (scaled), 3 xsu. */
typedef struct io_dump_cols {
    int n;
    int id, type, radius, diameter;
    int x[3], kind[3], v[3];
} io_dump_cols;

/* The header of one frame. */
typedef struct io_dump_frame {
    int dim;               /* 2 or 3 when the format says; 0: from the
                              coordinates (dumps) */
    long long step;        /* -1 when the frame has no TIMESTEP */
    double time;           /* NAN unless the dump has ITEM: TIME */
    size_t natoms;
    double lo[3], hi[3];
    char bnd[3][3];        /* per axis "pp", "fm", ... when has_bnd */
    int has_bnd;
    io_stream_mark mark;   /* where the frame starts */
    io_stream_mark atoms;  /* its first atom line */
    long header_line, atoms_line;
    io_dump_cols cols;
    char columns[512];     /* the column names as written */
} io_dump_frame;

typedef struct io_dump_read_opts {
    const double *type_radius; /* radius of type t at [t-1], or NULL */
    size_t n_types;
    uint64_t size_hint;        /* bytes of the file (0: unknown): bounds the
                                  first allocation for the count announced */
    hg_progress_fn progress;
    void *progress_params;
} io_dump_read_opts;

/* The atoms of a frame: x[3k..3k+2] (z = 0 without a z column), r[k];
 * ids and velocities when asked for (want_id, want_v; NAN where the dump
 * has no such column). Reused from frame to frame. */
typedef struct io_dump_atoms {
    size_t n, cap, limit;
    double *x, *r, *v;
    uint64_t *id;
    int want_id, want_v;
    uint64_t *seen; /* ids seen (duplicate check) */
    size_t seen_words;
    int guessed_columns; /* no column names: dump atom's layout */
    int has_id, has_v, radius_from_type;
} io_dump_atoms;

/* The format of the stream s (o->format, else sniffed from its start,
 * else from path's name; HG_IO_AUTO when none fits), a UTF-8 mark
 * dropped; an empty or binary stream refused. */
int io_stream_format(io_stream *s, const hg_io_options *o,
                     const char *path, hg_io_format *fmt, hg_err *e);

/* Columns of an atom line at most. */
#define DUMP_MAXCOL 256

/* 1 if line s starts an item ("ITEM:", after blanks). */
static inline int io_dump_starts_item(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return strncmp(s, "ITEM:", 5) == 0;
}
/* A whole token as a count (io_dump.c). */
int io_dump_count(io_stream *s, const char *tok, const char *field,
                  size_t *out, hg_err *e);

/* io_dump_frame.c: */
/* Read the next frame's header up to and including its ITEM: ATOMS line.
 * Returns 1 for a frame, 0 at the end of the input, or a status. */
int io_dump_next(io_stream *s, io_dump_frame *f, hg_err *e);
/* Skip the frame's atom lines (counted, not parsed). */
int io_dump_skip(io_stream *s, const io_dump_frame *f, hg_err *e);
/* io_dump.c: */
/* Parse the frame's atom lines into A (positions wrapped into the box
 * along periodic axes, scaled ones unscaled). */
int io_dump_read(io_stream *s, const io_dump_frame *f,
                 const io_dump_read_opts *o, io_dump_atoms *A, hg_err *e);
void io_dump_atoms_free(io_dump_atoms *A);
/* Room for want atoms in A (its arrays grown, at most A->limit). */
int io_dump_atoms_grow(io_dump_atoms *A, size_t want, hg_err *e);
/* The frame f read into A as particles p (A's positions and radii move
 * into p; ids and velocities stay in A), with its box and boundary; info
 * gets what was read and assumed. */
int io_dump_finish(io_stream *s, const io_dump_frame *f, io_dump_atoms *A,
                   hg_particles *p, hg_io_info *info, hg_err *e);
/* A dump into p: the frame of o (io_frames_select), its box and boundary. */
int io_dump_load(io_stream *s, const hg_io_options *o, uint64_t size,
                 hg_particles *p, hg_io_info *info, hg_err *e);

/* ---- files of several frames (io_frames.c) ---- */

/* How a format finds, skips and parses its frames (the frame header type
 * is the dump's; a format fills what it has). */
typedef struct io_frame_ops {
    const char *what; /* "dump", "MercuryDPM .data file" (messages) */
    int has_steps;    /* frames carry timesteps (--frame step=S) */
    int (*next)(io_stream *s, io_dump_frame *f, hg_err *e);
    int (*skip)(io_stream *s, const io_dump_frame *f, hg_err *e);
    int (*read)(io_stream *s, const io_dump_frame *f,
                const io_dump_read_opts *o, io_dump_atoms *A, hg_err *e);
} io_frame_ops;

/* The frame o asks for (the last by default) into *f and A; info gets its
 * number, the frames counted, its timestep and time. */
int io_frames_select(io_stream *s, const hg_io_options *o, uint64_t size,
                     const io_frame_ops *ops, io_dump_frame *f,
                     io_dump_atoms *A, hg_io_info *info, hg_err *e);

/* After reading: hg_particles_grow_box, said in info->note. */
void io_grow_box(hg_particles *p, hg_io_info *info);

/* Writers return HG_OK or HG_EIO only through ferror checked by the caller;
 * they do not fail otherwise. */
void io_csv_write(FILE *f, const hg_particles *p);
void io_lammps_write(FILE *f, const hg_particles *p);
void io_xyz_write(FILE *f, const hg_particles *p);
void io_vtk_write(FILE *f, const hg_particles *p);

#endif
