/* registry.c - the engines (hg_engine.h): one line per plug-in. */
#include "hg_calib.h"
#include "hg_engine.h"

#include <stdio.h>
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

const hg_engine *hg_engine_of_format(const char *format)
{
    for (size_t i = 0; format && i < N_ENGINES; i++)
        if (engines[i]->settings_format &&
            !strcmp(engines[i]->settings_format, format))
            return engines[i];
    return NULL;
}

const hg_engine *hg_engine_K_of(const hg_engine *engine, const char *format)
{
    int plain = !format || !strcmp(format, "table") || !strcmp(format, "json");
    const hg_engine *g = hg_engine_of_format(format);
    if (plain && engine && engine->settings_format)
        g = engine; /* table and json describe the engine's code */
    return g && g->K ? g : engines[0];
}

int hg_engine_consts(const hg_engine *g, int dim, hg_consts *out,
                     char *source, size_t len, hg_err *e)
{
    (void)dim; /* one set of constants serves both dimensions */
    if (!g || !g->consts)
        return hg_fail(e, HG_EINVAL, "engine %s: no fitted constants",
                       g ? g->name : "?");
    int from_file = 0;
    char path[4096];
    int st = hg_consts_auto(g->consts, out, &from_file, path, sizeof path,
                            e);
    if (st || !source || !len)
        return st;
    snprintf(source, len, "%s%s%s",
             from_file ? "stored calibration" : "shipped defaults",
             from_file ? " " : "", from_file ? path : "");
    return HG_OK;
}

int hg_engine_constants_text(const hg_engine *g, int dim, char *buf,
                             size_t len, hg_err *e)
{
    if (g->consts) {
        hg_consts c;
        char source[4200];
        int st = hg_engine_consts(g, dim, &c, source, sizeof source, e);
        if (st)
            return st;
        size_t n = (size_t)snprintf(buf, len, "ns per unit:");
        for (int t = 0; t < g->consts->nterms && n < len; t++)
            n += (size_t)snprintf(buf + n, len - n, " %s %.3g",
                                  hg_consts_term(g->consts, t),
                                  1e9 * c.c[t]);
        if (n < len)
            snprintf(buf + n, len - n, " (%s)", source);
        return HG_OK;
    }
    if (!g->K) {
        snprintf(buf, len, "the model's parameters");
        return HG_OK;
    }
    hg_K_request rq = {.engine = g, .dim = dim};
    hg_K_choice c;
    int st = hg_K_resolve(&rq, &c, e);
    if (st)
        return st;
    size_t n = (size_t)snprintf(buf, len, "K = %g (%s: %s)", c.K,
                                hg_K_source_name(c.source), c.detail);
    const char *where = "";
    if (g->K->C && n < len) {
        /* C first: the order of a call's arguments is unspecified */
        double C = g->K->C(dim, &where);
        snprintf(buf + n, len - n, "; C = %g per table cell (%s)", C, where);
    }
    return HG_OK;
}
