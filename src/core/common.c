/* common.c - status strings, error messages, number parsing, kv lists. */
#include "hg_common.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *hg_strerror(int status)
{
    switch (status) {
    case HG_OK: return "success";
    case HG_EINVAL: return "invalid argument";
    case HG_ENOMEM: return "out of memory";
    case HG_EIO: return "input/output error";
    case HG_EPARSE: return "malformed input";
    case HG_ENUMERIC: return "numerical failure";
    case HG_EUNKNOWN: return "unknown name";
    case HG_ELIMIT: return "size limit exceeded";
    default: return "unknown error";
    }
}

int hg_fail(hg_err *e, int status, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
        e->status = status;
    }
    return status;
}

int hg_parse_double(const char *text, const char *field, double *out,
                    hg_err *e)
{
    if (!text || !*text)
        return hg_fail(e, HG_EPARSE, "%s: missing number", field);
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text)
        return hg_fail(e, HG_EPARSE, "%s: '%s' is not a number", field, text);
    while (end && isspace((unsigned char)*end))
        end++;
    if (end && *end != '\0')
        return hg_fail(e, HG_EPARSE, "%s: '%s' is not a number", field, text);
    if (!isfinite(v))
        return hg_fail(e, HG_EPARSE, "%s: '%s' is not a finite number", field,
                       text);
    if (errno == ERANGE && fabs(v) > 1.0)
        return hg_fail(e, HG_EPARSE, "%s: '%s' is out of range", field, text);
    *out = v;
    return HG_OK;
}

int hg_parse_list(const char *text, char sep, const char *field,
                  double **out, size_t *n, hg_err *e)
{
    *out = NULL;
    *n = 0;
    if (!text || !*text)
        return hg_fail(e, HG_EPARSE, "%s: empty list", field);
    size_t cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == sep;
    double *v = malloc(cap * sizeof *v);
    char *copy = strdup(text);
    if (!v || !copy) {
        free(v);
        free(copy);
        return hg_fail(e, HG_ENOMEM, "%s: out of memory", field);
    }
    int st = HG_OK;
    char *item = copy;
    for (size_t k = 0; k < cap && st == HG_OK; k++) {
        char *next = strchr(item, sep);
        if (next)
            *next = '\0';
        while (isspace((unsigned char)*item))
            item++;
        size_t len = strlen(item);
        while (len > 0 && isspace((unsigned char)item[len - 1]))
            item[--len] = '\0';
        if (len == 0)
            st = hg_fail(e, HG_EPARSE, "%s: '%s' has an empty item", field,
                         text);
        else
            st = hg_parse_double(item, field, &v[k], e);
        item = next ? next + 1 : item + len;
    }
    free(copy);
    if (st != HG_OK) {
        free(v);
        return st;
    }
    *out = v;
    *n = cap;
    return HG_OK;
}

double hg_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double hg_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int hg_parse_long(const char *text, const char *field, long lo, long hi,
                  long *out, hg_err *e)
{
    if (!text || !*text)
        return hg_fail(e, HG_EPARSE, "%s: missing integer", field);
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text)
        return hg_fail(e, HG_EPARSE, "%s: '%s' is not an integer", field,
                       text);
    while (end && isspace((unsigned char)*end))
        end++;
    if (end && *end != '\0')
        return hg_fail(e, HG_EPARSE, "%s: '%s' is not an integer", field,
                       text);
    if (errno == ERANGE || v < lo || v > hi)
        return hg_fail(e, HG_EINVAL, "%s: %s is outside [%ld, %ld]", field,
                       text, lo, hi);
    *out = v;
    return HG_OK;
}

static char *dup_trim(const char *s, size_t len)
{
    while (len > 0 && isspace((unsigned char)*s)) {
        s++;
        len--;
    }
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    char *d = malloc(len + 1);
    if (!d)
        return NULL;
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

static int kv_append(hg_kv *kv, char *key, char *val, hg_err *e)
{
    for (size_t i = 0; i < kv->n; i++) {
        if (strcmp(kv->items[i].key, key) == 0) {
            hg_fail(e, HG_EPARSE, "parameter '%s' given twice", key);
            free(key);
            free(val);
            return HG_EPARSE;
        }
    }
    hg_kv_item *it = realloc(kv->items, (kv->n + 1) * sizeof *it);
    if (!it) {
        free(key);
        free(val);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    kv->items = it;
    kv->items[kv->n].key = key;
    kv->items[kv->n].val = val;
    kv->n++;
    return HG_OK;
}

int hg_kv_add(hg_kv *kv, const char *key, const char *val, hg_err *e)
{
    char *k = dup_trim(key, strlen(key));
    char *v = dup_trim(val, strlen(val));
    if (!k || !v) {
        free(k);
        free(v);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    return kv_append(kv, k, v, e);
}

int hg_kv_parse(const char *text, hg_kv *kv, hg_err *e)
{
    const char *p = text;
    while (p && *p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (!eq) {
            char *item = dup_trim(p, len);
            hg_fail(e, HG_EPARSE,
                    "parameter '%s' is not of the form key=value",
                    item ? item : "");
            free(item);
            return HG_EPARSE;
        }
        char *k = dup_trim(p, (size_t)(eq - p));
        char *v = dup_trim(eq + 1, len - (size_t)(eq - p) - 1);
        if (!k || !v) {
            free(k);
            free(v);
            return hg_fail(e, HG_ENOMEM, "out of memory");
        }
        if (!*k || !*v) {
            hg_fail(e, HG_EPARSE, "parameter '%s=%s' has an empty %s", k, v,
                    *k ? "value" : "key");
            free(k);
            free(v);
            return HG_EPARSE;
        }
        int st = kv_append(kv, k, v, e);
        if (st)
            return st;
        p = comma ? comma + 1 : NULL;
    }
    return HG_OK;
}

const char *hg_kv_get(const hg_kv *kv, const char *key)
{
    for (size_t i = 0; kv && i < kv->n; i++)
        if (strcmp(kv->items[i].key, key) == 0)
            return kv->items[i].val;
    return NULL;
}

void hg_kv_clear(hg_kv *kv)
{
    if (!kv)
        return;
    for (size_t i = 0; i < kv->n; i++) {
        free(kv->items[i].key);
        free(kv->items[i].val);
    }
    free(kv->items);
    kv->items = NULL;
    kv->n = 0;
}

int hg_kv_check_known(const hg_kv *kv, const char *const *known,
                      const char *what, hg_err *e)
{
    for (size_t i = 0; kv && i < kv->n; i++) {
        int ok = 0;
        for (size_t k = 0; known && known[k]; k++)
            if (strcmp(known[k], kv->items[i].key) == 0)
                ok = 1;
        if (!ok) {
            char list[256] = "";
            for (size_t k = 0; known && known[k]; k++) {
                if (k)
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
                strncat(list, known[k], sizeof list - strlen(list) - 1);
            }
            return hg_fail(e, HG_EUNKNOWN,
                           "%s: unknown parameter '%s' (accepted: %s)", what,
                           kv->items[i].key, list);
        }
    }
    return HG_OK;
}

int hg_kv_double(const hg_kv *kv, const char *key, int required, double *out,
                 int *present, const char *what, hg_err *e)
{
    const char *v = hg_kv_get(kv, key);
    if (present)
        *present = v != NULL;
    if (!v) {
        if (required)
            return hg_fail(e, HG_EINVAL, "%s: missing parameter '%s'", what,
                           key);
        return HG_OK;
    }
    char field[128];
    snprintf(field, sizeof field, "%s %s", what, key);
    return hg_parse_double(v, field, out, e);
}
