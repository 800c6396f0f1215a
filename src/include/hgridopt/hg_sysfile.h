/* hg_sysfile.h - system description files (JSON, schema
 * "hgridopt.system/1", see examples/schemas/system.schema.json).
 *
 * A system file states the particle-size distribution, dimension, packing
 * fraction, K, length unit, and optionally a name and particle count:
 *   { "schema": "hgridopt.system/1", "name": "...", "dim": 3, "nu": 0.7,
 *     "K": 0.2, "length_unit": "mm", "particles": 100000,
 *     "distribution": { "family": "powerlaw", "alpha": -3, "omega": 100 } }
 * "distribution" may also be a spec string "powerlaw:alpha=-3,omega=100".
 * File names inside the distribution (table/sample) are relative to the
 * folder of the system file.
 */
#ifndef HG_SYSFILE_H
#define HG_SYSFILE_H

#include "hg_common.h"
#include "hg_system.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a system file gave. Fields not present keep has_* = 0. All strings
 * and the kv list are owned by the struct (hg_sysfile_clear). */
typedef struct hg_sysfile {
    char *path;      /* the file read ("-" for stdin) */
    char *base_dir;  /* folder for relative file names */
    char *name;
    char *length_unit;
    char *family;    /* distribution family; NULL if absent */
    hg_kv params;    /* distribution parameters as strings */
    int has_dim, dim;
    int has_nu;
    double nu;
    int has_structure;
    hg_structure structure; /* "structure": "poisson" | "hard-spheres" */
    int has_K;
    double K;
    int K_auto;      /* "K": "auto" */
    int has_particles;
    long particles;
} hg_sysfile;

/* Read and check a system file (path "-" = stdin). Unknown keys, wrong
 * types, malformed JSON and unreadable files are errors naming the file,
 * the key and the value. */
int hg_sysfile_load(const char *path, hg_sysfile *out, hg_err *e);
/* Parse a system from JSON text; base_dir resolves relative file names. */
int hg_sysfile_parse(const char *text, const char *path, const char *base_dir,
                     hg_sysfile *out, hg_err *e);
void hg_sysfile_clear(hg_sysfile *s); /* accepts NULL */

/* Read a whole file (or stdin for "-") into a NUL-terminated buffer owned by
 * the caller (free). */
int hg_read_file(const char *path, char **text, size_t *len, hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
