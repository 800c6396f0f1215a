/* consts.c - the file of an engine's fitted cost constants (LAMMPS,
 * LIGGGHTS): one JSON document per code, written atomically and read back
 * with every constant checked (consts.h). */
#include "consts.h"
#include "hg_io.h"
#include "psd_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* mkdir -p of the folders above path. */
static int make_parents(const char *path, hg_err *e)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0755) && errno != EEXIST)
            return hg_fail(e, HG_EIO, "cannot create folder '%s': %s", dir,
                           strerror(errno));
        *p = '/';
    }
    return HG_OK;
}

int code_consts_save(const code_consts_io *x, const char *path, hg_err *e)
{
    int st = make_parents(path, e);
    if (st)
        return st;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "schema", x->schema);
    cJSON_AddStringToObject(j, "unit", "seconds per unit of each count");
    cJSON *cs = cJSON_AddObjectToObject(j, "constants");
    cJSON *ss = cJSON_AddObjectToObject(j, "standard_errors");
    for (int k = 0; k < x->nterms; k++) {
        cJSON_AddNumberToObject(cs, x->term(k), x->c[k]);
        cJSON_AddNumberToObject(ss, x->term(k), x->se[k]);
    }
    cJSON_AddNumberToObject(j, "r2", *x->r2);
    cJSON_AddNumberToObject(j, "points", *x->npoints);
    cJSON_AddStringToObject(j, "machine", x->machine);
    cJSON_AddStringToObject(j, x->version_key, x->version);
    cJSON_AddStringToObject(j, "created", x->created);
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

int code_consts_load(const char *path, const code_consts_io *x, hg_err *e)
{
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
    int st = HG_OK;
    const cJSON *schema = cJSON_GetObjectItem(j, "schema");
    const cJSON *cs = cJSON_GetObjectItem(j, "constants");
    const cJSON *ss = cJSON_GetObjectItem(j, "standard_errors");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, x->schema)) {
        st = hg_fail(e, HG_EPARSE, "%s: schema is not %s", path, x->schema);
        goto done;
    }
    for (int k = 0; k < x->nterms; k++) {
        const char *name = x->term(k);
        const cJSON *v = cJSON_GetObjectItem(cs, name);
        const cJSON *s = cJSON_GetObjectItem(ss, name);
        if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0.0) ||
            !isfinite(v->valuedouble)) {
            st = hg_fail(e, HG_EPARSE,
                         "%s: constants.%s missing or not a finite number "
                         ">= 0",
                         path, name);
            goto done;
        }
        x->c[k] = v->valuedouble;
        x->se[k] = cJSON_IsNumber(s) ? s->valuedouble : 0.0;
    }
    const cJSON *v;
    if (cJSON_IsNumber(v = cJSON_GetObjectItem(j, "r2")))
        *x->r2 = v->valuedouble;
    if (cJSON_IsNumber(v = cJSON_GetObjectItem(j, "points")))
        *x->npoints = v->valueint;
    if (cJSON_IsString(v = cJSON_GetObjectItem(j, "machine")))
        snprintf(x->machine, x->machine_len, "%s", v->valuestring);
    if (cJSON_IsString(v = cJSON_GetObjectItem(j, x->version_key)))
        snprintf(x->version, x->version_len, "%s", v->valuestring);
    if (cJSON_IsString(v = cJSON_GetObjectItem(j, "created")))
        snprintf(x->created, x->created_len, "%s", v->valuestring);
done:
    cJSON_Delete(j);
    return st;
}
