/* sysfile.c - system description files (JSON via cJSON), and a whole
 * file read into memory (hg_read_file). */
#include "hg_sysfile.h"
#include "read_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hg_read_file(const char *path, char **text, size_t *len, hg_err *e)
{
    *text = NULL;
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return hg_fail(e, HG_EIO, "%s: cannot open: %s", path,
                       strerror(errno));
    int st = hg_read_all(f, is_stdin ? "(stdin)" : path, text, len, e);
    if (!is_stdin)
        fclose(f);
    return st;
}

void hg_sysfile_clear(hg_sysfile *s)
{
    if (!s)
        return;
    free(s->path);
    free(s->base_dir);
    free(s->name);
    free(s->length_unit);
    free(s->family);
    hg_kv_clear(&s->params);
    memset(s, 0, sizeof *s);
}

static char *dupstr(const char *s) { return s ? strdup(s) : NULL; }

static int get_number(const cJSON *it, const char *path, const char *key,
                      double *out, hg_err *e)
{
    if (!cJSON_IsNumber(it))
        return hg_fail(e, HG_EPARSE, "%s: \"%s\" must be a number", path,
                       key);
    if (!isfinite(it->valuedouble))
        return hg_fail(e, HG_EPARSE, "%s: \"%s\" is not finite", path, key);
    *out = it->valuedouble;
    return HG_OK;
}

static int get_string(const cJSON *it, const char *path, const char *key,
                      char **out, hg_err *e)
{
    if (!cJSON_IsString(it) || !it->valuestring)
        return hg_fail(e, HG_EPARSE, "%s: \"%s\" must be a string", path,
                       key);
    free(*out);
    *out = strdup(it->valuestring);
    return *out ? HG_OK : hg_fail(e, HG_ENOMEM, "out of memory");
}

/* The first key of object obj that appears twice in it, or NULL (the last
 * copy would silently win, and distribution parameters would merge). */
static const char *duplicate_key(const cJSON *obj)
{
    for (const cJSON *a = obj->child; a; a = a->next)
        for (const cJSON *b = a->next; b; b = b->next)
            if (a->string && b->string && strcmp(a->string, b->string) == 0)
                return a->string;
    return NULL;
}

/* Distribution: a spec string or an object {"family": ..., key: value}. */
static int parse_distribution(const cJSON *d, const char *path,
                              hg_sysfile *s, hg_err *e)
{
    if (cJSON_IsString(d)) {
        const char *spec = d->valuestring;
        const char *colon = strchr(spec, ':');
        size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
        s->family = strndup(spec, n);
        if (!s->family)
            return hg_fail(e, HG_ENOMEM, "out of memory");
        if (colon) {
            int st = hg_kv_parse(colon + 1, &s->params, e);
            if (st) {
                char tmp[HG_ERRLEN];
                snprintf(tmp, sizeof tmp, "%.200s: \"distribution\": %.280s",
                         path, e ? e->msg : "");
                return hg_fail(e, st, "%s", tmp);
            }
        }
        return HG_OK;
    }
    if (!cJSON_IsObject(d))
        return hg_fail(e, HG_EPARSE,
                       "%s: \"distribution\" must be an object or a spec "
                       "string", path);
    const char *dup = duplicate_key(d);
    if (dup)
        return hg_fail(e, HG_EPARSE,
                       "%s: \"distribution.%s\" is given twice", path, dup);
    const cJSON *it;
    cJSON_ArrayForEach(it, d)
    {
        char buf[64];
        const char *val;
        if (strcmp(it->string, "family") == 0) {
            int st = get_string(it, path, "distribution.family", &s->family,
                                e);
            if (st)
                return st;
            continue;
        }
        if (cJSON_IsNumber(it)) {
            if (!isfinite(it->valuedouble))
                return hg_fail(e, HG_EPARSE,
                               "%s: \"distribution.%s\" is not finite", path,
                               it->string);
            hg_fmt_double(buf, it->valuedouble);
            val = buf;
        } else if (cJSON_IsString(it)) {
            val = it->valuestring;
        } else if (cJSON_IsArray(it)) {
            /* Lists (discrete radii/fractions) become "a;b;c". */
            char list[4096] = "";
            const cJSON *el;
            cJSON_ArrayForEach(el, it)
            {
                if (!cJSON_IsNumber(el))
                    return hg_fail(e, HG_EPARSE,
                                   "%s: \"distribution.%s\" must be a list "
                                   "of numbers", path, it->string);
                char num[40], v[HG_NUMLEN];
                snprintf(num, sizeof num, "%s%s", *list ? ";" : "",
                         hg_fmt_double(v, el->valuedouble));
                if (strlen(list) + strlen(num) + 1 >= sizeof list)
                    return hg_fail(e, HG_ELIMIT,
                                   "%s: \"distribution.%s\" is too long",
                                   path, it->string);
                strcat(list, num);
            }
            int st = hg_kv_add(&s->params, it->string, list, e);
            if (st)
                return st;
            continue;
        } else {
            return hg_fail(e, HG_EPARSE,
                           "%s: \"distribution.%s\" must be a number, string "
                           "or list", path, it->string);
        }
        int st = hg_kv_add(&s->params, it->string, val, e);
        if (st)
            return st;
    }
    if (!s->family)
        return hg_fail(e, HG_EPARSE,
                       "%s: \"distribution\" has no \"family\"", path);
    return HG_OK;
}

/* The JSON document of text (nothing but blanks after it) into *root;
 * errors name the line. */
static int parse_json(const char *text, const char *path, cJSON **root,
                      hg_err *e)
{
    const char *end = NULL;
    *root = cJSON_ParseWithOpts(text, &end, 0);
    if (!*root) {
        const char *where = cJSON_GetErrorPtr();
        int line = 1;
        for (const char *p = text; where && p < where && *p; p++)
            line += *p == '\n';
        return hg_fail(e, HG_EPARSE, "%s:%d: malformed JSON", path, line);
    }
    while (end && (*end == ' ' || *end == '\t' || *end == '\n' ||
                   *end == '\r'))
        end++;
    if (end && *end) {
        int line = 1;
        for (const char *p = text; p < end; p++)
            line += *p == '\n';
        cJSON_Delete(*root);
        *root = NULL;
        return hg_fail(e, HG_EPARSE,
                       "%s:%d: text after the JSON document (byte offset "
                       "%ld)",
                       path, line, (long)(end - text));
    }
    return HG_OK;
}

/* "structure": poisson or hard-spheres (hg_structure_parse). */
static int parse_structure(const cJSON *it, const char *path, hg_sysfile *s,
                           hg_err *e)
{
    if (!cJSON_IsString(it) ||
        hg_structure_parse(it->valuestring, &s->structure, NULL)) {
        char *txt = cJSON_PrintUnformatted(it);
        int st = hg_fail(e, HG_EINVAL,
                         "%s: \"structure\": %s is not \"poisson\" or "
                         "\"hard-spheres\"",
                         path, txt ? txt : "?");
        free(txt);
        return st;
    }
    s->has_structure = 1;
    return HG_OK;
}

/* The numbers of the system: dim, nu, K (or "auto"), particles. */
static int parse_number_key(const cJSON *it, const char *path, const char *k,
                            hg_sysfile *s, hg_err *e)
{
    double v = 0.0;
    int st;
    if (!strcmp(k, "K") && cJSON_IsString(it) &&
        !strcmp(it->valuestring, "auto")) {
        s->K_auto = 1;
        return HG_OK;
    }
    if ((st = get_number(it, path, k, &v, e)))
        return st;
    if (!strcmp(k, "dim")) {
        if (v != 2.0 && v != 3.0)
            return hg_fail(e, HG_EINVAL, "%s: \"dim\": %g is not 2 or 3",
                           path, v);
        s->has_dim = 1;
        s->dim = (int)v;
    } else if (!strcmp(k, "nu")) {
        s->nu = v;
        if (!(s->nu > 0.0 && s->nu < 1.0))
            return hg_fail(e, HG_EINVAL, "%s: \"nu\": %g is outside (0, 1)",
                           path, s->nu);
        s->has_nu = 1;
    } else if (!strcmp(k, "K")) {
        s->K = v;
        if (!(s->K > 0.0))
            return hg_fail(e, HG_EINVAL, "%s: \"K\": %g must be > 0", path,
                           s->K);
        s->has_K = 1;
    } else { /* particles */
        if (!(v >= 1.0 && v <= 4e9) || v != floor(v))
            return hg_fail(e, HG_EINVAL,
                           "%s: \"particles\": %g must be a whole number "
                           ">= 1", path, v);
        s->has_particles = 1;
        s->particles = (long)v;
    }
    return HG_OK;
}

/* One key of the system object. */
static int parse_key(const cJSON *it, const char *path, hg_sysfile *s,
                     hg_err *e)
{
    const char *k = it->string;
    if (!strcmp(k, "schema")) {
        if (!cJSON_IsString(it) ||
            strcmp(it->valuestring, "hgridopt.system/1") != 0)
            return hg_fail(e, HG_EPARSE,
                           "%s: \"schema\" must be \"hgridopt.system/1\"",
                           path);
        return HG_OK;
    }
    if (!strcmp(k, "name"))
        return get_string(it, path, k, &s->name, e);
    if (!strcmp(k, "length_unit"))
        return get_string(it, path, k, &s->length_unit, e);
    if (!strcmp(k, "dim") || !strcmp(k, "nu") || !strcmp(k, "K") ||
        !strcmp(k, "particles"))
        return parse_number_key(it, path, k, s, e);
    if (!strcmp(k, "structure"))
        return parse_structure(it, path, s, e);
    if (!strcmp(k, "distribution"))
        return parse_distribution(it, path, s, e);
    if (!strcmp(k, "description") || k[0] == '$')
        return HG_OK; /* free text and JSON-Schema keywords are ignored */
    return hg_fail(e, HG_EUNKNOWN, "%s: unknown key \"%s\"", path, k);
}

int hg_sysfile_parse(const char *text, const char *path, const char *base_dir,
                     hg_sysfile *s, hg_err *e)
{
    memset(s, 0, sizeof *s);
    cJSON *root;
    int st = parse_json(text, path, &root, e);
    if (st)
        return st;
    s->path = dupstr(path);
    s->base_dir = dupstr(base_dir ? base_dir : ".");
    if (!s->path || !s->base_dir) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto fail;
    }
    if (!cJSON_IsObject(root)) {
        st = hg_fail(e, HG_EPARSE, "%s: the system must be a JSON object",
                     path);
        goto fail;
    }
    const char *dup = duplicate_key(root);
    if (dup) {
        st = hg_fail(e, HG_EPARSE, "%s: key \"%s\" is given twice", path,
                     dup);
        goto fail;
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, root)
    {
        if ((st = parse_key(it, path, s, e)))
            goto fail;
    }
    cJSON_Delete(root);
    return HG_OK;
fail:
    cJSON_Delete(root);
    hg_sysfile_clear(s);
    return st;
}

int hg_sysfile_load(const char *path, hg_sysfile *out, hg_err *e)
{
    memset(out, 0, sizeof *out);
    char *text = NULL;
    int st = hg_read_file(path, &text, NULL, e);
    if (st)
        return st;
    char *dir = NULL;
    const char *slash = strrchr(path, '/');
    if (strcmp(path, "-") == 0 || !slash)
        dir = strdup(".");
    else
        dir = strndup(path, (size_t)(slash - path) + (slash == path));
    if (!dir) {
        free(text);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    st = hg_sysfile_parse(text, path, dir, out, e);
    free(dir);
    free(text);
    return st;
}
