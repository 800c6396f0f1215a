/* params.c - the model and its parameters as the user names them
 * (hg_advise.h): --model or --algorithm, --param NAME=VALUE, and the size
 * of the simulation (atoms, MPI ranks) for the models of a code's build
 * time. */
#include "hg_advise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The parameter names the models declare, each once, for messages. */
static void declared_names(const hg_model *const *models, size_t n,
                           char *names, size_t len)
{
    names[0] = '\0';
    for (size_t i = 0; i < n; i++)
        for (int k = 0; models[i] && k < models[i]->n_params; k++) {
            const char *p = models[i]->params[k].name;
            int seen = 0;
            for (size_t j = 0; j < i && !seen; j++)
                seen = hg_model_param_index(models[j], p) >= 0;
            if (!seen)
                snprintf(names + strlen(names), len - strlen(names), "%s%s",
                         names[0] ? ", " : "", p);
        }
}

/* One NAME=VALUE item of --param into c->values (given: the names seen). */
static int param_item(hg_case *c, char *item, const hg_model *const *models,
                      size_t n, const char *names, hg_model_values *given,
                      hg_err *e)
{
    char *eq = strchr(item, '=');
    if (!eq || eq == item || !eq[1])
        return hg_fail(e, HG_EINVAL,
                       "--param: '%s' is not NAME=VALUE (e.g. atoms=1e6)",
                       item);
    *eq = '\0';
    const char *name = item, *val = eq + 1;
    char *end;
    double x = strtod(val, &end);
    const hg_model_param *decl = NULL;
    for (size_t i = 0; i < n && !decl; i++) {
        int k = hg_model_param_index(models[i], name);
        if (k >= 0)
            decl = &models[i]->params[k];
    }
    double old;
    if (!strcmp(name, "K"))
        return hg_fail(e, HG_EINVAL,
                       "--param K: give K with --K (its source is reported)");
    if (!decl)
        return hg_fail(e, HG_EINVAL, "--param %s: not a parameter of %s%s "
                       "(%s: %s)", name, n == 1 ? "" : "the models ",
                       n == 1 && models[0] ? models[0]->name : "evaluated",
                       "declared", names[0] ? names : "none");
    if (*end || end == val || !isfinite(x))
        return hg_fail(e, HG_EINVAL, "--param %s: '%s' is not a number",
                       name, val);
    if (hg_model_values_get(given, name, &old))
        return hg_fail(e, HG_EINVAL, "--param %s: given twice", name);
    if (!strcmp(name, "skin") && c->skin_given)
        return hg_fail(e, HG_EINVAL,
                       "--param skin: --skin gives the skin too (in length "
                       "units; --param skin in units of the smallest "
                       "diameter); give one");
    if (decl->open_min ? !(x > decl->min) : !(x >= decl->min))
        return hg_fail(e, HG_EINVAL, "--param %s: %g must be %s %g (%s)",
                       name, x, decl->open_min ? ">" : ">=", decl->min,
                       decl->help);
    if (!(x <= decl->max))
        return hg_fail(e, HG_EINVAL, "--param %s: %g must be <= %g (%s)",
                       name, x, decl->max, decl->help);
    int st = hg_model_values_set(given, name, x, e);
    if (!st)
        st = hg_model_values_set(&c->values, name, x, e);
    if (!st && !strcmp(name, "skin")) {
        c->skin = x * 2.0 * hg_psd_rmin(c->psd);
        snprintf(c->skin_why, sizeof c->skin_why,
                 "given (--param skin=%g: %g x the smallest diameter)", x, x);
    }
    return st;
}

int hg_case_params(hg_case *c, const char *text,
                   const hg_model *const *models, size_t n, hg_err *e)
{
    if (!text)
        return HG_OK;
    char names[256];
    declared_names(models, n, names, sizeof names);
    char *copy = strdup(text);
    if (!copy)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    hg_model_values given = {0};
    int st = HG_OK;
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item && !st;
         item = strtok_r(NULL, ",", &save))
        st = param_item(c, item, models, n, names, &given, e);
    free(copy);
    return st;
}

int hg_case_size_params(hg_case *c, const hg_model *const *models, size_t n,
                        long atoms, long ranks, hg_err *e)
{
    int has_atoms = 0, has_ranks = 0;
    for (size_t i = 0; i < n; i++) {
        has_atoms |= models[i] && hg_model_param_index(models[i], "atoms") >= 0;
        has_ranks |= models[i] && hg_model_param_index(models[i], "ranks") >= 0;
    }
    double given;
    int st = HG_OK;
    if (atoms > 0 && hg_model_values_get(&c->values, "atoms", &given))
        return hg_fail(e, HG_EINVAL,
                       "--atoms: the same as --param atoms=N; give one");
    if (has_atoms && !hg_model_values_get(&c->values, "atoms", &given)) {
        double a = atoms > 0 ? (double)atoms : (double)c->particles;
        if (a > 0.0)
            st = hg_model_values_set(&c->values, "atoms", a, e);
    }
    if (!st && has_ranks && ranks > 0 &&
        !hg_model_values_get(&c->values, "ranks", &given))
        st = hg_model_values_set(&c->values, "ranks", (double)ranks, e);
    return st;
}

int hg_model_choose(const char *model_text, const char *algorithm_text,
                    const char *const *words, const hg_model *dflt,
                    const hg_model **model, const char **word, hg_err *e)
{
    *model = dflt;
    *word = NULL;
    const char *text = model_text ? model_text : algorithm_text;
    const char *opt = model_text ? "--model" : "--algorithm";
    if (model_text && algorithm_text)
        return hg_fail(e, HG_EINVAL,
                       "--algorithm: '%s' is a shorthand for --model; give "
                       "one of them",
                       algorithm_text);
    if (!text)
        return HG_OK;
    for (size_t i = 0; words && words[i]; i++)
        if (!strcmp(text, words[i])) {
            *model = NULL;
            *word = words[i];
            return HG_OK;
        }
    hg_algorithm a;
    if (model_text)
        *model = hg_model_find(text);
    else if (hg_algorithm_parse(text, &a, NULL) == HG_OK)
        *model = hg_model_for_grid(a);
    else
        *model = NULL;
    if (*model)
        return HG_OK;
    char list[256] = "";
    for (size_t i = 0; words && words[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s, ",
                 words[i]);
    if (model_text)
        for (size_t i = 0; i < hg_model_count(); i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     i ? ", " : "", hg_model_at(i)->name);
    else
        snprintf(list + strlen(list), sizeof list - strlen(list),
                 "top-down, bottom-up");
    return hg_fail(e, HG_EUNKNOWN, "%s: unknown value '%s' (one of: %s)", opt,
                   text, list);
}
