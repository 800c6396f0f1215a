/* hg_io.h - particle files: read what DEM codes write, write sphere
 * packings.
 *
 * Read (the format from the content; gzip-compressed input inflated on
 * the fly; src/io/):
 *  dump    LAMMPS and LIGGGHTS text dumps (io_dump.c): dump atom and dump
 *          custom in any column order; radius or diameter (dump atom has
 *          neither: radii per type from hg_io_options.type_radius); x, xu
 *          (unwrapped), xs or xsu (scaled); the box and per-axis boundary
 *          of ITEM: BOX BOUNDS (triclinic boxes refused); several frames
 *          (hg_io_options.frame, the last by default); 2D when every z is
 *          0 in a z box straddling 0. Centres outside a periodic box (LAMMPS
 *          remaps them only when it rebuilds its lists) are wrapped.
 *  lammps  LAMMPS data file, atom_style sphere (io_lammps.c): "N atoms",
 *          "xlo xhi" ... header lines, then "Atoms" lines "atom-ID
 *          atom-type diameter density x y z [ix iy iz]". It states neither
 *          boundary nor dimension: hgridopt's own files carry "dim D
 *          periodic|walls" in the title; otherwise 2D when every z is 0 in
 *          a z box straddling 0. Triclinic boxes are refused.
 *  vtk     legacy VTK (io_vtk.c): POINTS and a point-data array radius
 *          (SCALARS or FIELD), POLYDATA or UNSTRUCTURED_GRID, cells in
 *          either VTK layout (VERTICES n 2n, or VTK 9's OFFSETS and
 *          CONNECTIVITY): LIGGGHTS' dump custom/vtk, LPP's output, ParaView,
 *          hgridopt's own (its title carries dim, box and boundary). XML
 *          VTK PolyData or UnstructuredGrid with ASCII data (io_vtk_xml.c:
 *          dump custom/vtk to .vtp/.vtu). A frame without a box takes the
 *          one of the box file LIGGGHTS or LPP writes beside it
 *          (NAME_boundingBox_STEP.vtk/.vtr, NAME_STEP_boundingBox.vtk);
 *          2D when every z is 0.
 *  mercurydpm-data, mercurydpm-restart  MercuryDPM's .data (frames of
 *          "N time xMin yMin [zMin] xMax yMax [zMax]" and particle lines)
 *          and .restart (domain, dimension, walls, periodic and
 *          Lees-Edwards boundaries, particles, the run's HGrid; also the
 *          restart_version 3 layout); a .data file's boundary, and a
 *          NAMEParticle_N.vtu's, comes from the NAME.restart beside it
 *          (io_mercury.c). A boundary no axis-aligned box holds
 *          (AngledPeriodicBoundary) is refused unless
 *          hg_io_options.boundary_given.
 *  xyz     Extended XYZ (OVITO, ASE): count line, comment line with
 *          Lattice="ax ay az bx by bz cx cy cz" (orthogonal only),
 *          Origin="x0 y0 z0", Properties=species:S:1:pos:R:3:radius:R:1,
 *          pbc="T T T" (per axis: "T T F" is a boundary p p f, read into
 *          hg_particles.boundary), and for 2D dim=2 (z written as 0,
 *          pbc="T T F"). Reading finds pos and radius among any listed
 *          properties; without Lattice the box is the bounding box, with
 *          walls.
 *  csv     Optional '#' comment lines, one header line naming the columns,
 *          then one particle per line, comma separated. Columns are found by
 *          name (case-insensitive): x, y, z (3D only), r or radius; other
 *          columns are allowed and ignored. The box is carried by a comment
 *          line "# box xlo xhi ylo yhi [zlo zhi] periodic|walls" before the
 *          header. Without it the box is the bounding box of the spheres,
 *          with walls. ParaView's CSV export: quoted names, "Points:0",
 *          "Points:1", "Points:2" and "radius" or "diameter".
 * Refused by name (HG_EPARSE, with what to give instead): LAMMPS and
 *          LIGGGHTS binary restarts, MercuryDPM .fstat, .ene and .xballs.
 * Written: csv, lammps, xyz and vtk, every number with %.17g, so write ->
 * read is exact (2D LAMMPS files with z = 0 and a thin z box [-r_max,
 * r_max] straddling 0, as LAMMPS requires for "dimension 2").
 *
 * Malformed input is rejected with HG_EPARSE (HG_EIO if the file cannot be
 * read) and a message "FILE:LINE: reason". Rejected: wrong column count,
 * non-numbers, NaN/Inf, radius <= 0, a centre outside the box (periodic:
 * [lo, hi), walls: [lo, hi]; dumps wrap periodic axes), particle count
 * different from the header's, missing box lines (LAMMPS), an empty box
 * (also an empty bounding box when the file gives none), a radius whose
 * ratio to the largest radius is not a finite normal double, NUL bytes,
 * data compressed by another program than gzip, a file in no format read
 * (one line naming the formats read), input read into memory beyond
 * hg_input_limit() (HG_ELIMIT; dumps and MercuryDPM .data files are
 * streamed and hold one frame). A file without a box is read with its
 * bounding box and walls, and hg_particles.box_inferred = 1.
 */
#ifndef HG_IO_H
#define HG_IO_H

#include <stdint.h>
#include <stdio.h>
#include "hg_common.h"
#include "hg_system.h"
#include "hg_particles.h"
#include "hg_psd.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hg_io_format {
    HG_IO_AUTO = 0, /* reading: from the content (the extension where the
                       content does not tell); writing: from the extension */
    HG_IO_CSV,
    HG_IO_LAMMPS,   /* LAMMPS data file */
    HG_IO_XYZ,
    HG_IO_VTK,
    HG_IO_DUMP,     /* LAMMPS / LIGGGHTS text dump (read only) */
    HG_IO_MERCURY_DATA,   /* MercuryDPM .data (read only) */
    HG_IO_MERCURY_RESTART /* MercuryDPM .restart (read only) */
} hg_io_format;

/* "csv", "lammps", "xyz", "vtk", "dump", "mercurydpm-data",
 * "mercurydpm-restart" (and "auto"). */
const char *hg_io_format_name(hg_io_format f);
/* Accepts the names above, plus "data" and "lmp" for lammps and
 * "lammpstrj" for dump. */
int hg_io_format_parse(const char *text, hg_io_format *out, hg_err *e);
/* From the extension of path: .csv, .data/.lmp, .xyz/.extxyz, .vtk,
 * .dump/.lammpstrj, .restart (case-insensitive; a final .gz is looked
 * through). HG_EUNKNOWN if the extension is none of these. */
int hg_io_format_from_path(const char *path, hg_io_format *out, hg_err *e);
/* 1 if hgridopt writes format f (csv, lammps, xyz, vtk). */
int hg_io_format_writable(hg_io_format f);
/* One line naming the formats read, e.g. for an error message. */
const char *hg_io_formats_read(void);

/* Atomic output files, used for every file the library and the CLI write.
 * hg_io_output_open creates a temporary file PATH.tmpXXXXXX in the folder
 * of path (symbolic links resolved; permissions of the old file, else as
 * fopen would give); write to hg_io_output_stream; hg_io_output_commit
 * flushes, closes and renames it over path, or on any write error removes
 * it and fails with HG_EIO naming path, leaving an old file untouched.
 * hg_io_output_abort removes the temporary file. Both free the handle.
 * path "-" writes to stdout; an existing path that is not a regular file
 * (/dev/null, a pipe) is written directly. Callers should ignore SIGXFSZ
 * so that exceeding a file size limit is a write error (EFBIG), not death
 * by signal. */
typedef struct hg_output hg_output;
int hg_io_output_open(const char *path, hg_output **out, hg_err *e);
FILE *hg_io_output_stream(hg_output *o);
const char *hg_io_output_name(const hg_output *o);
int hg_io_output_commit(hg_output *o, hg_err *e);
void hg_io_output_abort(hg_output *o); /* accepts NULL */

/* Write p to path ("-" = stdout) in format fmt (HG_IO_AUTO: from the
 * extension). p must pass hg_particles_check. */
int hg_io_write(const char *path, hg_io_format fmt, const hg_particles *p,
                hg_err *e);
/* Write to an open stream; name is used in messages only. */
int hg_io_write_stream(FILE *f, const char *name, hg_io_format fmt,
                       const hg_particles *p, hg_err *e);

/* How to read a particle file (zero-initialised: every default). */
typedef struct hg_io_options {
    hg_io_format format; /* HG_IO_AUTO: from the content */
    /* Files of several frames (dumps, MercuryDPM .data): frame 0 or -1
     * the last (default), k > 0 the k-th (1 = the first), k < -1 the
     * |k|-th from the end; by_step: the frame of timestep step instead. */
    long frame;
    int by_step;
    long long step;
    /* Dumps without a radius or diameter column (dump atom): the radius
     * of atom type t is type_radius[t-1], t = 1..n_types (not owned). */
    const double *type_radius;
    size_t n_types;
    hg_progress_fn progress; /* reading progress (may be NULL) */
    void *progress_params;
    /* The caller replaces the file's boundary (--boundary): a boundary
     * the file states that no axis-aligned box can hold (MercuryDPM's
     * AngledPeriodicBoundary) is then no error; the box is the file's. */
    int boundary_given;
} hg_io_options;

/* What a file said about itself, beyond its particles. */
typedef struct hg_io_info {
    hg_io_format format;
    char kind[160];         /* e.g. "LAMMPS dump (custom: id type radius x
                               y z), gzip" */
    int compressed;         /* gzip */
    size_t frames;          /* frames in the file (0: not counted, the
                               frame was found before its end) */
    size_t frame;           /* the frame read, 1-based (1 for files of one
                               frame) */
    long long step;         /* its timestep, -1 when the file has none */
    double time;            /* its time, NAN when the file has none */
    int boundary_stated;    /* the file states every axis' boundary */
    int box_stated;         /* the file states the box (else the bounding
                               box of the spheres, hg_particles.box_inferred) */
    char boundary_default[96]; /* what a boundary not stated is taken to
                               be, in words: "periodic, LAMMPS' default"
                               or "non-periodic, MercuryDPM's default ..." */
    char note[640];         /* what was decided on reading that the file
                               does not say outright ("" when nothing):
                               2D because every z is 0, dump atom's columns
                               assumed, radii from --type-radius, ... */
} hg_io_info;

/* Read path ("-" = stdin) into *p (allocated here; the caller frees it
 * with hg_particles_clear, also after a failure), as o says (NULL: the
 * defaults); info (may be NULL) receives what the file said. The format
 * comes from the content (the extension only where the content does not
 * tell); gzip-compressed input is inflated on the fly. Dumps and
 * MercuryDPM .data files are streamed: memory holds one frame, whatever
 * the file's length. A file in no format read fails with HG_EPARSE and
 * one line naming the formats read. */
int hg_io_load(const char *path, const hg_io_options *o, hg_particles *p,
               hg_io_info *info, hg_err *e);
/* One frame written to several files, comma-separated in paths
 * ("big_1000.vtk,small_1000.vtk", at most 16; a single name, also one
 * holding a comma that names a file, is hg_io_load): each read as
 * hg_io_load does, the particles joined in the union of the boxes (info
 * says whether the boxes agree, info->kind and note name every file). The
 * files share the dimension and, where they state it, the boundary; an
 * error names the file at fault. */
int hg_io_load_files(const char *paths, const hg_io_options *o,
                     hg_particles *p, hg_io_info *info, hg_err *e);
/* The same from len bytes of memory (need not be NUL-terminated). */
int hg_io_load_mem(const char *text, size_t len, const char *name,
                   const hg_io_options *o, hg_particles *p, hg_io_info *info,
                   hg_err *e);

/* Read path ("-" = stdin) into *p (allocated here; the caller frees it with
 * hg_particles_clear, also after a failure): hg_io_load with format fmt
 * and the other options at their defaults. */
int hg_io_read(const char *path, hg_io_format fmt, hg_particles *p,
               hg_err *e);
/* Read from an open stream (read to its end, into memory); name is used
 * in messages. */
int hg_io_read_stream(FILE *f, const char *name, hg_io_format fmt,
                      hg_particles *p, hg_err *e);
/* Read from memory (text of len bytes, need not be NUL-terminated). */
int hg_io_read_mem(const char *text, size_t len, const char *name,
                   hg_io_format fmt, hg_particles *p, hg_err *e);

/* Describe a particle set for the cost model: *psd becomes the empirical
 * distribution of its radii (hg_psd_from_radii; caller frees with
 * hg_psd_free), sys->dim the dimension and sys->nu the packing fraction of
 * the spheres in the box (overlaps counted twice). Fails if nu is not in (0, 1). */
int hg_io_system_from_particles(const hg_particles *p, hg_psd **psd,
                                hg_system *sys, hg_err *e);

/* Indented text of a cJSON document with every finite number written in
 * its shortest round-trip form (hg_fmt_double: 0.6, not the
 * 0.59999999999999998 of cJSON's %.17g). The numbers of json are turned
 * into raw items in place, so print a document once, then delete it.
 * Returns malloc'ed text (free with free) or NULL when out of memory. */
struct cJSON;
char *hg_json_print(struct cJSON *json);

#ifdef __cplusplus
}
#endif
/* ---- trajectories: every frame of a dump, one after the other ---------
 *
 * A LAMMPS or LIGGGHTS dump of several frames (gzip too) read frame by
 * frame in one pass, for what changes between frames (displacements,
 * rebuild rates): memory holds one frame. o as hg_io_load's (o->frame and
 * o->by_step are ignored: every frame is read). Other formats: HG_EINVAL
 * naming the format found. */
typedef struct hg_io_frames hg_io_frames;

/* One frame, owned by the reader and valid until the next call. */
typedef struct hg_io_frame {
    const hg_particles *p;  /* positions wrapped into the box, radii; n 0
                               (box only) in a frame without atoms */
    const uint64_t *id;     /* p->n atom ids (1..n when the dump has none) */
    int has_id;             /* the dump has an id column */
    const double *v;        /* velocities v[3i..3i+2]; NULL without them */
    long long step;         /* -1 without ITEM: TIMESTEP */
    double time;            /* NAN without ITEM: TIME */
    size_t index;           /* 1-based */
    const hg_io_info *info; /* what was read and assumed for this frame */
    /* Motion since the previous frame (what decides how often a
     * neighbour list is rebuilt): the largest displacement of an atom
     * present in both frames (matched by id; minimum image along
     * periodic axes) divided by the steps between them, and how many
     * atoms were matched. NAN and 0 for the first frame, a dump without
     * ids or timesteps, or steps that do not increase. */
    double max_step_displacement;
    double mean_step_displacement; /* the mean over the atoms matched */
    size_t matched;
    double max_speed;       /* largest |v| of the frame; NAN without v */
} hg_io_frame;

int hg_io_frames_open(const char *path, const hg_io_options *o,
                      hg_io_frames **out, hg_err *e);
/* The next frame into *f: 1, 0 after the last, or a status. */
int hg_io_frames_next(hg_io_frames *t, hg_io_frame *f, hg_err *e);
/* Go on with the next file of the same run (the frames that follow):
 * its first frame's motion is measured from the last frame read. */
int hg_io_frames_continue(hg_io_frames *t, const char *path,
                          const hg_io_options *o, hg_err *e);
void hg_io_frames_free(hg_io_frames *t); /* accepts NULL */
/* Read on without the motion (no atom kept from the frame before: less
 * memory; max_step_displacement NAN). */
void hg_io_frames_no_motion(hg_io_frames *t);

#endif
