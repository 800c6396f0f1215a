/* hg_engine.h - engines: the codes whose contact detection hgridopt
 * advises (the bundled HGrid, LAMMPS). Each is one plug-in in src/engine/
 * (a const table) and one line of the registry (src/engine/registry.c):
 * its cost models, its constants and where they come from, the --format
 * that writes its settings. */
#ifndef HG_ENGINE_H
#define HG_ENGINE_H

#include <stddef.h>

#include "hg_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hg_engine {
    const char *name;   /* "hgrid", "lammps": the value of --engine */
    const char *help;   /* one line */
    const char *const *models; /* its cost models (names in the model
                                  registry, hg_model_find), NULL-terminated */
    const char *settings_format; /* the output format writing its settings
                                    ("lammps"), NULL: the cell sizes of the
                                    table and JSON outputs */
    /* Its constants for dimension dim (2 or 3) with their values and where
     * they come from (calibration file, shipped defaults), as one line in
     * buf (len bytes, truncated). Returns HG_OK or an error (e.g. a
     * malformed calibration file). */
    int (*constants)(int dim, char *buf, size_t len, hg_err *e);
    /* The constants its models read beyond their parameters, resolved once
     * for dimension dim into out (consts_size bytes of the caller's
     * storage; for lammps an hg_lammps_consts) and handed to the models as
     * hg_model_values.consts; where they come from into source (len bytes,
     * may be NULL). consts_resolve is NULL (consts_size 0) when its models
     * read only their parameters (the bundled HGrid: K is a parameter,
     * hg_K_resolve). */
    size_t consts_size;
    int (*consts_resolve)(int dim, void *out, char *source, size_t len,
                          hg_err *e);
} hg_engine;

/* The registered engines, in registry order (the first is the default). */
size_t hg_engine_count(void);
const hg_engine *hg_engine_at(size_t i);
/* By name; NULL if unknown. */
const hg_engine *hg_engine_find(const char *name);
/* The first engine declaring the model named model_name; NULL if none. */
const hg_engine *hg_engine_of_model(const char *model_name);

#ifdef __cplusplus
}
#endif
#endif
