/* model_registry.c - the table of cost models, one line each. */
#include "hg_model.h"

#include <string.h>

extern const hg_model hg_model_hgrid_topdown;
extern const hg_model hg_model_hgrid_bottomup;
extern const hg_model hg_model_linkedcell;

static const hg_model *const models[] = {
    &hg_model_hgrid_topdown,
    &hg_model_hgrid_bottomup,
    &hg_model_linkedcell,
};

size_t hg_model_count(void) { return sizeof models / sizeof models[0]; }

const hg_model *hg_model_at(size_t i)
{
    return i < hg_model_count() ? models[i] : NULL;
}

const hg_model *hg_model_find(const char *name)
{
    for (size_t i = 0; name && i < hg_model_count(); i++)
        if (strcmp(models[i]->name, name) == 0)
            return models[i];
    return NULL;
}
