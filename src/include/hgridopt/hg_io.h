/* hg_io.h - particle files: read and write sphere packings.
 *
 * Formats (one file each: src/io/io_csv.c, io_lammps.c, io_xyz.c, io_vtk.c).
 * Every number is written with %.17g, so write -> read is exact.
 *
 *  csv     Optional '#' comment lines, one header line naming the columns,
 *          then one particle per line, comma separated. Columns are found by
 *          name (case-insensitive): x, y, z (3D only), r or radius; other
 *          columns are allowed and ignored. The box is carried by a comment
 *          line "# box xlo xhi ylo yhi [zlo zhi] periodic|walls" before the
 *          header. Without it the box is the bounding box of the spheres,
 *          with walls. Written as "# box ...", "x,y,z,r" (2D: "x,y,r").
 *  lammps  LAMMPS data file, atom_style sphere: "N atoms", "xlo xhi",
 *          "ylo yhi", "zlo zhi" header lines, then an "Atoms" section of
 *          "atom-ID atom-type diameter density x y z [ix iy iz]" lines.
 *          Other sections (Velocities, Masses, ...) are skipped. A data file
 *          does not say whether the box is periodic nor its dimension: the
 *          title line written by hgridopt ("... dim 2 walls") does; without
 *          it the box is periodic (LAMMPS' default boundary p p p) and the
 *          system 2D if every z is 0 in a z box straddling 0 (as LAMMPS
 *          requires for "dimension 2"), else 3D.
 *          2D systems are written with z = 0 and a thin z box
 *          [-r_max, r_max] straddling 0, as LAMMPS requires for
 *          "dimension 2". Triclinic boxes are rejected.
 *  xyz     Extended XYZ (OVITO, ASE): count line, comment line with
 *          Lattice="ax ay az bx by bz cx cy cz" (orthogonal only),
 *          Origin="x0 y0 z0", Properties=species:S:1:pos:R:3:radius:R:1,
 *          pbc="T T T" (per axis: "T T F" is a boundary p p f, read into
 *          hg_particles.boundary), and for 2D dim=2 (z written as 0,
 *          pbc="T T F").
 *          Reading finds pos and radius among any listed properties;
 *          without Lattice the box is the bounding box, with walls.
 *  vtk     Legacy VTK polydata, ASCII: POINTS, one VERTICES cell per point
 *          and a point-data scalar array "radius" (ParaView: Glyph ->
 *          Sphere, Scale Array radius, scale factor 2 since the glyph's
 *          default radius is 0.5). The title line carries
 *          "hgridopt dim D box xlo xhi ... periodic|walls"; without it the
 *          file is read as 3D with the bounding box and walls.
 *
 * Malformed input is rejected with HG_EPARSE (HG_EIO if the file cannot be
 * read) and a message "FILE:LINE: reason". Rejected: wrong column count,
 * non-numbers, NaN/Inf, radius <= 0, a centre outside the box (periodic:
 * [lo, hi), walls: [lo, hi]), particle count different from the header's,
 * missing box lines (LAMMPS), an empty box (also an empty bounding box
 * when the file gives none), a radius whose ratio to the largest radius is
 * not a finite normal double, z != 0 in a LAMMPS file whose title says
 * dim 2, NUL bytes, input beyond hg_input_limit() (HG_ELIMIT). A file
 * without a box is read with its bounding box and walls, and
 * hg_particles.box_inferred = 1.
 */
#ifndef HG_IO_H
#define HG_IO_H

#include <stdio.h>
#include "hg_common.h"
#include "hg_system.h"
#include "hg_particles.h"
#include "hg_psd.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hg_io_format {
    HG_IO_AUTO = 0, /* from the file extension (reading: else from content) */
    HG_IO_CSV,
    HG_IO_LAMMPS,
    HG_IO_XYZ,
    HG_IO_VTK
} hg_io_format;

/* "csv", "lammps", "xyz", "vtk" (and "auto"). */
const char *hg_io_format_name(hg_io_format f);
/* Accepts the names above, plus "data" and "lmp" for lammps. */
int hg_io_format_parse(const char *text, hg_io_format *out, hg_err *e);
/* From the extension of path: .csv, .data/.lmp, .xyz/.extxyz, .vtk
 * (case-insensitive). HG_EUNKNOWN if the extension is none of these. */
int hg_io_format_from_path(const char *path, hg_io_format *out, hg_err *e);

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

/* Read path ("-" = stdin) into *p (allocated here; the caller frees it with
 * hg_particles_clear, also after a failure). HG_IO_AUTO: from the extension,
 * else from the first line of the content. */
int hg_io_read(const char *path, hg_io_format fmt, hg_particles *p,
               hg_err *e);
/* Read from an open stream (read to its end); name is used in messages. */
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
#endif
