/* model_registry.c - the table of cost models: one line per model file
 * models/<name>.c (which defines `const hg_model hg_model_<name>`), plus
 * the models registered at run time. */
#include "hg_model.h"

#include <string.h>

#define HG_MODELS(X)                                                       \
    X(hgrid_top_down)                                                      \
    X(hgrid_bottom_up)                                                     \
    X(linked_cell)                                                         \
    X(bin)                                                                 \
    X(lammps_multi)                                                        \
    X(lammps_bin)                                                          \
    X(liggghts_bin)

#define DECLARE(name) extern const hg_model hg_model_##name;
HG_MODELS(DECLARE)
#undef DECLARE

#define ENTRY(name) &hg_model_##name,
static const hg_model *const builtin[] = {HG_MODELS(ENTRY)};
#undef ENTRY

enum { N_BUILTIN = sizeof builtin / sizeof builtin[0], EXTRA_MAX = 8 };
static const hg_model *extra[EXTRA_MAX];
static size_t n_extra;

size_t hg_model_count(void) { return N_BUILTIN + n_extra; }

const hg_model *hg_model_at(size_t i)
{
    if (i < N_BUILTIN)
        return builtin[i];
    return i < hg_model_count() ? extra[i - N_BUILTIN] : NULL;
}

const hg_model *hg_model_find(const char *name)
{
    for (size_t i = 0; name && i < hg_model_count(); i++)
        if (strcmp(hg_model_at(i)->name, name) == 0)
            return hg_model_at(i);
    return NULL;
}

const hg_model *hg_model_for_grid(hg_algorithm a)
{
    for (size_t i = 0; a != HG_GRID_NONE && i < hg_model_count(); i++) {
        const hg_model *m = hg_model_at(i);
        if (m->grid_algorithm == a && m->max_levels != 1)
            return m;
    }
    return NULL;
}

int hg_model_register(const hg_model *m, hg_err *e)
{
    if (!m || !m->name || !*m->name || !m->evaluate || !m->gradient ||
        m->n_params < 0 || m->n_params > HG_MODEL_MAX_PARAMS ||
        (m->n_params > 0 && !m->params))
        return hg_fail(e, HG_EINVAL, "model: incomplete table '%s'",
                       m && m->name ? m->name : "");
    if (hg_model_find(m->name))
        return hg_fail(e, HG_EINVAL, "model: '%s' is already registered",
                       m->name);
    if (n_extra >= EXTRA_MAX)
        return hg_fail(e, HG_ELIMIT, "model %s: more than %d models added",
                       m->name, EXTRA_MAX);
    extra[n_extra++] = m;
    return HG_OK;
}
