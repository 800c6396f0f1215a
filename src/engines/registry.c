/* registry.c - the engines (hg_engine.h): one line per plug-in. */
#include "hg_engine.h"

#include <string.h>

extern const hg_engine hg_engine_hgrid, hg_engine_lammps,
    hg_engine_mercurydpm, hg_engine_liggghts;

static const hg_engine *const engines[] = {
    &hg_engine_hgrid,  /* the default */
    &hg_engine_lammps,
    &hg_engine_mercurydpm,
    &hg_engine_liggghts,
};
#define N_ENGINES (sizeof engines / sizeof engines[0])

size_t hg_engine_count(void) { return N_ENGINES; }

const hg_engine *hg_engine_at(size_t i)
{
    return i < N_ENGINES ? engines[i] : NULL;
}

const hg_engine *hg_engine_of_model(const char *model_name)
{
    for (size_t i = 0; model_name && i < N_ENGINES; i++)
        for (const char *const *m = engines[i]->models; m && *m; m++)
            if (!strcmp(*m, model_name))
                return engines[i];
    return NULL;
}

const hg_engine *hg_engine_find(const char *name)
{
    for (size_t i = 0; name && i < N_ENGINES; i++)
        if (!strcmp(engines[i]->name, name))
            return engines[i];
    return NULL;
}
