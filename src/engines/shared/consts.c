/* consts.c - where hgridopt keeps its files (one path rule), and the
 * cost constants of a code (hg_consts.h): one JSON document per code,
 * written atomically and read back with every constant checked. */
#include "config_file.h"
#include "hg_consts.h"
#include "hg_io.h"
#include "psd_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int hg_config_path(const char *env, const char *file, const char *what,
                   char *buf, size_t len, hg_err *e)
{
    const char *v = getenv(env);
    int k;
    if (v && *v)
        k = snprintf(buf, len, "%s", v);
    else if ((v = getenv("XDG_CONFIG_HOME")) && *v)
        k = snprintf(buf, len, "%s/hgridopt/%s", v, file);
    else if ((v = getenv("HOME")) && *v)
        k = snprintf(buf, len, "%s/.config/hgridopt/%s", v, file);
    else
        return hg_fail(e, HG_EINVAL,
                       "%s: neither %s, XDG_CONFIG_HOME nor HOME is set",
                       what, env);
    if (k < 0 || (size_t)k >= len)
        return hg_fail(e, HG_ELIMIT, "%s: path too long", what);
    return HG_OK;
}

int hg_config_make_folders(const char *path, const char *what, hg_err *e)
{
    char dir[4096];
    int k = snprintf(dir, sizeof dir, "%s", path);
    if (k < 0 || (size_t)k >= sizeof dir)
        return hg_fail(e, HG_ELIMIT, "%s: path too long", what);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0755) && errno != EEXIST)
            return hg_fail(e, HG_EIO, "%s: cannot create folder %s: %s",
                           what, dir, strerror(errno));
        *p = '/';
    }
    return HG_OK;
}

const char *hg_consts_term(const hg_consts_kind *k, int i)
{
    return i >= 0 && i < k->nterms ? k->terms[i] : "?";
}

void hg_consts_shipped(const hg_consts_kind *k, hg_consts *c)
{
    memset(c, 0, sizeof *c);
    k->shipped(c);
}

/* path's name with -suffix before its .json (or after it) into buf. */
static int beside(const char *path, const char *suffix, const char *what,
                  char *buf, size_t len, hg_err *e)
{
    size_t n = strlen(path);
    int json = n > 5 && !strcmp(path + n - 5, ".json");
    int k = snprintf(buf, len, "%.*s-%s.json", (int)(json ? n - 5 : n), path,
                     suffix);
    if (k < 0 || (size_t)k >= len)
        return hg_fail(e, HG_ELIMIT, "%s: path too long", what);
    return HG_OK;
}

int hg_consts_path(const hg_consts_kind *k, char *buf, size_t len,
                   hg_err *e)
{
    char what[96];
    snprintf(what, sizeof what, "%s calibration file", k->code);
    const char *own = getenv(k->env), *main = NULL;
    if (!(own && *own) && k->beside_env && k->beside_suffix &&
        (main = getenv(k->beside_env)) && *main)
        return beside(main, k->beside_suffix, what, buf, len, e);
    return hg_config_path(k->env, k->file, what, buf, len, e);
}

int hg_consts_save(const hg_consts_kind *k, const hg_consts *c,
                   const char *path, hg_err *e)
{
    char what[96];
    snprintf(what, sizeof what, "%s calibration file", k->code);
    int st = hg_config_make_folders(path, what, e);
    if (st)
        return st;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "schema", k->schema);
    cJSON_AddStringToObject(j, "unit", "seconds per unit of each count");
    cJSON *cs = cJSON_AddObjectToObject(j, "constants");
    cJSON *ss = cJSON_AddObjectToObject(j, "standard_errors");
    for (int t = 0; t < k->nterms; t++) {
        cJSON_AddNumberToObject(cs, k->terms[t], c->c[t]);
        cJSON_AddNumberToObject(ss, k->terms[t], c->se[t]);
    }
    cJSON_AddNumberToObject(j, "r2", c->r2);
    cJSON_AddNumberToObject(j, "points", c->npoints);
    cJSON_AddStringToObject(j, "machine", c->machine);
    cJSON_AddStringToObject(j, k->version_key, c->version);
    cJSON_AddStringToObject(j, "created", c->created);
    char *text = hg_json_print(j);
    cJSON_Delete(j);
    if (!text)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    hg_output *o = NULL;
    if ((st = hg_io_output_open(path, &o, e))) {
        free(text);
        return st;
    }
    FILE *f = hg_io_output_stream(o);
    int bad = fputs(text, f) < 0 || fputc('\n', f) == EOF;
    free(text);
    if (bad) {
        hg_io_output_abort(o);
        return hg_fail(e, HG_EIO, "%s: write failed", path);
    }
    return hg_io_output_commit(o, e);
}

/* The fields of document j into c (schema and constants checked). */
static int read_fields(const hg_consts_kind *k, const cJSON *j,
                       const char *path, hg_consts *c, hg_err *e)
{
    const cJSON *schema = cJSON_GetObjectItem(j, "schema");
    const cJSON *cs = cJSON_GetObjectItem(j, "constants");
    const cJSON *ss = cJSON_GetObjectItem(j, "standard_errors");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, k->schema))
        return hg_fail(e, HG_EPARSE, "%s: schema is not %s", path,
                       k->schema);
    for (int t = 0; t < k->nterms; t++) {
        const char *name = k->terms[t];
        const cJSON *v = cJSON_GetObjectItem(cs, name);
        const cJSON *s = cJSON_GetObjectItem(ss, name);
        if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0.0) ||
            !isfinite(v->valuedouble))
            return hg_fail(e, HG_EPARSE,
                           "%s: constants.%s missing or not a finite number "
                           ">= 0",
                           path, name);
        c->c[t] = v->valuedouble;
        c->se[t] = cJSON_IsNumber(s) ? s->valuedouble : 0.0;
    }
    if (k->positive >= 0 && !(c->c[k->positive] > 0.0))
        return hg_fail(e, HG_EPARSE, "%s: constants.%s must be > 0", path,
                       k->terms[k->positive]);
    const cJSON *v;
    if (cJSON_IsNumber(v = cJSON_GetObjectItem(j, "r2")))
        c->r2 = v->valuedouble;
    if (cJSON_IsNumber(v = cJSON_GetObjectItem(j, "points")))
        c->npoints = v->valueint;
    if (cJSON_IsString(v = cJSON_GetObjectItem(j, "machine")))
        snprintf(c->machine, sizeof c->machine, "%s", v->valuestring);
    if (cJSON_IsString(v = cJSON_GetObjectItem(j, k->version_key)))
        snprintf(c->version, sizeof c->version, "%s", v->valuestring);
    if (cJSON_IsString(v = cJSON_GetObjectItem(j, "created")))
        snprintf(c->created, sizeof c->created, "%s", v->valuestring);
    return HG_OK;
}

int hg_consts_load(const hg_consts_kind *k, const char *path, hg_consts *c,
                   hg_err *e)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "r");
    if (!f)
        return hg_fail(e, HG_EIO, "%s: cannot read: %s", path,
                       strerror(errno));
    char buf[16384];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    cJSON *j = cJSON_Parse(buf);
    if (!j)
        return hg_fail(e, HG_EPARSE, "%s: not valid JSON", path);
    int st = read_fields(k, j, path, c, e);
    cJSON_Delete(j);
    return st;
}

int hg_consts_auto(const hg_consts_kind *k, hg_consts *c, int *from_file,
                   char *path, size_t len, hg_err *e)
{
    char p[4096];
    *from_file = 0;
    if (path && len)
        path[0] = '\0';
    if (hg_consts_path(k, p, sizeof p, NULL) == HG_OK &&
        access(p, R_OK) == 0) {
        int st = hg_consts_load(k, p, c, e);
        if (st)
            return st;
        *from_file = 1;
        if (path && len)
            snprintf(path, len, "%s", p);
        return HG_OK;
    }
    hg_consts_shipped(k, c);
    return HG_OK;
}

int hg_consts_save_with_pair(const hg_consts_kind *k, const hg_consts *c,
                             const hg_consts_kind *pk, const hg_consts *pair,
                             const char *save, char *saved, size_t len,
                             hg_err *e)
{
    char path[4096], ppath[4096];
    int st = HG_OK;
    if (save) {
        snprintf(path, sizeof path, "%s", save);
        st = beside(save, "pair", "calibration file", ppath, sizeof ppath,
                    e);
    } else if ((st = hg_consts_path(k, path, sizeof path, e)) == HG_OK) {
        st = hg_consts_path(pk, ppath, sizeof ppath, e);
    }
    if (st == HG_OK)
        st = hg_consts_save(k, c, path, e);
    if (st == HG_OK)
        st = hg_consts_save(pk, pair, ppath, e);
    if (st == HG_OK)
        snprintf(saved, len, "%.2040s and %.2040s", path, ppath);
    return st;
}

int hg_consts_save_beside(const hg_consts_kind *k, const hg_consts *c,
                          const char *save, const char *suffix, char *path,
                          size_t len, hg_err *e)
{
    int st = HG_OK;
    if (save)
        st = beside(save, suffix, "calibration file", path, len, e);
    else
        st = hg_consts_path(k, path, len, e);
    if (st)
        return st;
    return hg_consts_save(k, c, path, e);
}
