/* psd_registry.c - the table of distribution families, one line each. */
#include "hg_psd.h"

#include <string.h>

extern const hg_psd_family hg_psd_powerlaw;
extern const hg_psd_family hg_psd_uniform_size;
extern const hg_psd_family hg_psd_uniform_surface;
extern const hg_psd_family hg_psd_uniform_volume;
extern const hg_psd_family hg_psd_mono;
extern const hg_psd_family hg_psd_lognormal;
extern const hg_psd_family hg_psd_weibull;
extern const hg_psd_family hg_psd_rosin_rammler;
extern const hg_psd_family hg_psd_discrete;
extern const hg_psd_family hg_psd_table;
extern const hg_psd_family hg_psd_sample;

static const hg_psd_family *const families[] = {
    &hg_psd_powerlaw,
    &hg_psd_uniform_size,
    &hg_psd_uniform_surface,
    &hg_psd_uniform_volume,
    &hg_psd_mono,
    &hg_psd_lognormal,
    &hg_psd_weibull,
    &hg_psd_rosin_rammler,
    &hg_psd_discrete,
    &hg_psd_table,
    &hg_psd_sample,
};

size_t hg_psd_family_count(void)
{
    return sizeof families / sizeof families[0];
}

const hg_psd_family *hg_psd_family_at(size_t i)
{
    return i < hg_psd_family_count() ? families[i] : NULL;
}

const hg_psd_family *hg_psd_family_find(const char *name)
{
    for (size_t i = 0; name && i < hg_psd_family_count(); i++)
        if (strcmp(families[i]->name, name) == 0)
            return families[i];
    return NULL;
}
