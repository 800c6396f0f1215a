/* sysfile.c - system description files (JSON via cJSON). */
#include "hg_sysfile.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hg_read_file(const char *path, char **text, size_t *len, hg_err *e)
{
    *text = NULL;
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return hg_fail(e, HG_EIO, "%s: cannot open: %s", path,
                       strerror(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        goto nomem;
    for (;;) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb)
                goto nomem;
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        int st = hg_fail(e, HG_EIO, "%s: read error", path);
        free(buf);
        if (f != stdin)
            fclose(f);
        return st;
    }
    if (f != stdin)
        fclose(f);
    buf[n] = '\0';
    if (strlen(buf) != n) {
        free(buf);
        return hg_fail(e, HG_EPARSE, "%s: file contains a NUL byte", path);
    }
    *text = buf;
    if (len)
        *len = n;
    return HG_OK;
nomem:
    free(buf);
    if (f != stdin)
        fclose(f);
    return hg_fail(e, HG_ENOMEM, "%s: out of memory", path);
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
            snprintf(buf, sizeof buf, "%.17g", it->valuedouble);
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
                char num[40];
                snprintf(num, sizeof num, "%s%.17g", *list ? ";" : "",
                         el->valuedouble);
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

int hg_sysfile_parse(const char *text, const char *path, const char *base_dir,
                     hg_sysfile *s, hg_err *e)
{
    memset(s, 0, sizeof *s);
    int st = HG_OK;
    cJSON *root = cJSON_Parse(text);
    if (!root) {
        const char *where = cJSON_GetErrorPtr();
        int line = 1;
        for (const char *p = text; where && p < where && *p; p++)
            line += *p == '\n';
        return hg_fail(e, HG_EPARSE, "%s:%d: malformed JSON", path, line);
    }
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
    const cJSON *it;
    cJSON_ArrayForEach(it, root)
    {
        const char *k = it->string;
        double v = 0.0;
        if (!strcmp(k, "schema")) {
            if (!cJSON_IsString(it) ||
                strcmp(it->valuestring, "hgridopt.system/1") != 0) {
                st = hg_fail(e, HG_EPARSE,
                             "%s: \"schema\" must be \"hgridopt.system/1\"",
                             path);
                goto fail;
            }
        } else if (!strcmp(k, "name")) {
            if ((st = get_string(it, path, k, &s->name, e)))
                goto fail;
        } else if (!strcmp(k, "length_unit")) {
            if ((st = get_string(it, path, k, &s->length_unit, e)))
                goto fail;
        } else if (!strcmp(k, "dim")) {
            if ((st = get_number(it, path, k, &v, e)))
                goto fail;
            if (v != 2.0 && v != 3.0) {
                st = hg_fail(e, HG_EINVAL, "%s: \"dim\": %g is not 2 or 3",
                             path, v);
                goto fail;
            }
            s->has_dim = 1;
            s->dim = (int)v;
        } else if (!strcmp(k, "nu")) {
            if ((st = get_number(it, path, k, &s->nu, e)))
                goto fail;
            if (!(s->nu > 0.0 && s->nu < 1.0)) {
                st = hg_fail(e, HG_EINVAL,
                             "%s: \"nu\": %g is outside (0, 1)", path, s->nu);
                goto fail;
            }
            s->has_nu = 1;
        } else if (!strcmp(k, "structure")) {
            if (!cJSON_IsString(it) ||
                hg_structure_parse(it->valuestring, &s->structure, NULL)) {
                char *txt = cJSON_PrintUnformatted(it);
                st = hg_fail(e, HG_EINVAL,
                             "%s: \"structure\": %s is not \"poisson\" or "
                             "\"hard-spheres\"",
                             path, txt ? txt : "?");
                free(txt);
                goto fail;
            }
            s->has_structure = 1;
        } else if (!strcmp(k, "K")) {
            if (cJSON_IsString(it) && !strcmp(it->valuestring, "auto")) {
                s->K_auto = 1;
                continue;
            }
            if ((st = get_number(it, path, k, &s->K, e)))
                goto fail;
            if (!(s->K > 0.0)) {
                st = hg_fail(e, HG_EINVAL, "%s: \"K\": %g must be > 0", path,
                             s->K);
                goto fail;
            }
            s->has_K = 1;
        } else if (!strcmp(k, "particles")) {
            if ((st = get_number(it, path, k, &v, e)))
                goto fail;
            if (!(v >= 1.0 && v <= 4e9) || v != floor(v)) {
                st = hg_fail(e, HG_EINVAL,
                             "%s: \"particles\": %g must be a whole number "
                             ">= 1", path, v);
                goto fail;
            }
            s->has_particles = 1;
            s->particles = (long)v;
        } else if (!strcmp(k, "distribution")) {
            if ((st = parse_distribution(it, path, s, e)))
                goto fail;
        } else if (!strcmp(k, "description") || k[0] == '$') {
            /* free text and JSON-Schema keywords are ignored */
        } else {
            st = hg_fail(e, HG_EUNKNOWN, "%s: unknown key \"%s\"", path, k);
            goto fail;
        }
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
