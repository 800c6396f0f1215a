/* common.c - status strings, error messages, number parsing, kv lists,
 * clocks, and the bounded readers of text input (read_internal.h). */
#include "hg_common.h"
#include "read_internal.h"

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
        char msg[HG_ERRLEN]; /* the arguments may hold e->msg */
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        memcpy(e->msg, msg, sizeof msg);
        e->status = status;
        e->data = 0;
    }
    return status;
}

int hg_fail_data(hg_err *e, int status, const char *fmt, ...)
{
    if (e) {
        char msg[HG_ERRLEN];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        memcpy(e->msg, msg, sizeof msg);
        e->status = status;
        e->data = 1;
    }
    return status;
}

int hg_err_data(hg_err *e, int status)
{
    if (e)
        e->data = 1;
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

int hg_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

size_t hg_count_le(const double *sorted, size_t n, double x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint64_t hg_fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < len; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
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
    if (end && *end != '\0') {
        /* an integer in another exact notation: 1e5, 2.5e3, 100000.0 */
        char *dend = NULL;
        errno = 0;
        double d = strtod(text, &dend);
        while (dend && isspace((unsigned char)*dend))
            dend++;
        if (dend == text || (dend && *dend != '\0') || !isfinite(d) ||
            !isdigit((unsigned char)text[strspn(text, " \t+-")]))
            return hg_fail(e, HG_EPARSE, "%s: '%s' is not an integer", field,
                           text);
        if (d != floor(d))
            return hg_fail(e, HG_EPARSE,
                           "%s: '%s' is not an integer", field, text);
        if (!(d >= (double)lo && d <= (double)hi))
            return hg_fail(e, HG_EINVAL, "%s: %s is outside [%ld, %ld]",
                           field, text, lo, hi);
        v = (long)d;
        errno = 0;
    }
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

char *hg_fmt_double(char *buf, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, HG_NUMLEN, "%g", v);
        return buf;
    }
    int prec = 1;
    for (; prec <= 17; prec++) {
        snprintf(buf, HG_NUMLEN, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    /* %g switches to an exponent once the exponent reaches the precision,
     * so the shortest round trip of 40 is "4e+01". Whole-number magnitudes
     * below 1e16 read better written out: print them with enough digits
     * to stay positional (more digits still round-trip). */
    const char *ex = strchr(buf, 'e');
    if (ex) {
        int x = atoi(ex + 1);
        if (x >= 0 && x < 16 && x + 1 > prec)
            snprintf(buf, HG_NUMLEN, "%.*g", x + 1, v);
    }
    return buf;
}

/* ---- bounded input -------------------------------------------------- */

static size_t input_limit_set; /* 0: default or environment */

int hg_parse_size(const char *text, const char *field, size_t *out,
                  hg_err *e)
{
    char *end = NULL;
    errno = 0;
    double v = text ? strtod(text, &end) : NAN;
    double mult = 1.0;
    if (end && *end) {
        switch (toupper((unsigned char)*end)) {
        case 'K': mult = 1024.0; break;
        case 'M': mult = 1024.0 * 1024.0; break;
        case 'G': mult = 1024.0 * 1024.0 * 1024.0; break;
        case 'T': mult = 1024.0 * 1024.0 * 1024.0 * 1024.0; break;
        default: mult = 0.0;
        }
        end++;
        if (*end == 'B' || *end == 'b')
            end++;
    }
    v *= mult;
    if (!text || end == text || !end || *end != '\0' || !(v >= 1.0) ||
        !(v < 1.8e19))
        return hg_fail(e, HG_EINVAL,
                       "%s: '%s' is not a size in bytes (e.g. 1073741824, "
                       "512M, 4G)",
                       field, text ? text : "(null)");
    *out = (size_t)v;
    return HG_OK;
}

size_t hg_input_limit(void)
{
    if (input_limit_set)
        return input_limit_set;
    const char *env = getenv("HGRIDOPT_MAX_INPUT");
    size_t v;
    if (env && *env && hg_parse_size(env, "HGRIDOPT_MAX_INPUT", &v, NULL) ==
                           HG_OK)
        return v;
    return HG_INPUT_LIMIT_DEFAULT;
}

void hg_set_input_limit(size_t bytes) { input_limit_set = bytes; }

static int limit_fail(hg_err *e, const char *name, size_t limit)
{
    return hg_fail(e, HG_ELIMIT,
                   "%s: larger than the input limit of %zu bytes (raise it "
                   "with 'hgridopt --max-input SIZE' or the environment "
                   "variable HGRIDOPT_MAX_INPUT)",
                   name, limit);
}

int hg_read_all(FILE *f, const char *name, char **out, size_t *outlen,
                hg_err *e)
{
    *out = NULL;
    size_t limit = hg_input_limit();
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        return hg_fail(e, HG_ENOMEM, "%s: out of memory", name);
    for (;;) {
        if (len + 1 >= cap) {
            char *nb = realloc(buf, 2 * cap);
            if (!nb) {
                free(buf);
                return hg_fail(e, HG_ENOMEM, "%s: out of memory (%zu bytes)",
                               name, 2 * cap);
            }
            buf = nb;
            cap *= 2;
        }
        size_t want = cap - len - 1;
        if (want > limit + 1 - len)
            want = limit + 1 - len; /* one byte past the limit tells */
        size_t got = fread(buf + len, 1, want, f);
        const char *nul = memchr(buf + len, '\0', got);
        if (nul) {
            size_t at = (size_t)(nul - buf);
            free(buf);
            return hg_fail(e, HG_EPARSE,
                           "%s: binary data (NUL byte at offset %zu) in a "
                           "text file",
                           name, at);
        }
        len += got;
        if (len > limit) {
            free(buf);
            return limit_fail(e, name, limit);
        }
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        int err = errno;
        free(buf);
        return hg_fail(e, HG_EIO, "%s: read error: %s", name, strerror(err));
    }
    buf[len] = '\0';
    *out = buf;
    if (outlen)
        *outlen = len;
    return HG_OK;
}

int hg_read_line(FILE *f, const char *name, long lineno, char **line,
                 size_t *cap, size_t *total, hg_err *e)
{
    size_t limit = hg_input_limit(), n = 0;
    int c;
    for (;;) {
        c = getc(f);
        if (c == EOF)
            break;
        if (++*total > limit)
            return limit_fail(e, name, limit);
        if (c == '\0')
            return hg_fail(e, HG_EPARSE,
                           "%s:%ld: binary data (NUL byte) in a text file",
                           name, lineno);
        if (n + 2 > *cap) {
            size_t nc = *cap ? 2 * *cap : 256;
            char *nl = realloc(*line, nc);
            if (!nl)
                return hg_fail(e, HG_ENOMEM, "%s:%ld: out of memory", name,
                               lineno);
            *line = nl;
            *cap = nc;
        }
        if (c == '\n')
            break;
        (*line)[n++] = (char)c;
    }
    if (c == EOF && ferror(f))
        return hg_fail(e, HG_EIO, "%s: read error: %s", name,
                       strerror(errno));
    if (c == EOF && n == 0)
        return 0;
    (*line)[n] = '\0';
    return 1;
}
