/* calib_file.c - the calibration file (per-dimension JSON save/load, its
 * default path) and the description of the host a calibration ran on. */
#include "config_file.h"
#include "hg_calib.h"
#include "hg_io.h"
#include "hg_version.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#ifdef HG_HAVE_OPENMP
#include <omp.h>
#endif

#ifndef HG_BUILD_TYPE
#define HG_BUILD_TYPE "unknown"
#endif

int hg_calibration_default_path(char *buf, size_t len, hg_err *e)
{
    return hg_config_path("HGRIDOPT_CALIBRATION", "calibration.json",
                          "calibration file", buf, len, e);
}

void hg_calibration_describe_host(hg_calibration *c)
{
    struct utsname u;
    char cpu[96] = "";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10))
                continue;
            char *v = strchr(line, ':');
            if (v) {
                v += 1 + strspn(v + 1, " \t");
                v[strcspn(v, "\n")] = '\0';
                snprintf(cpu, sizeof cpu, "%s", v);
            }
            break;
        }
        fclose(f);
    }
    if (uname(&u) == 0)
        snprintf(c->machine, sizeof c->machine, "%.32s %.48s %.48s %.16s%s%.96s",
                 u.sysname,
                 u.nodename, u.release, u.machine, cpu[0] ? "; " : "", cpu);
    else
        snprintf(c->machine, sizeof c->machine, "unknown%s%s",
                 cpu[0] ? "; " : "", cpu);
    int threads = 1;
#ifdef HG_HAVE_OPENMP
    threads = omp_get_max_threads();
#endif
    snprintf(c->build, sizeof c->build,
             "hgridopt %s, %s %s, %s build, %s (%d thread%s)",
             HG_VERSION_STRING,
#if defined(__clang__)
             "clang",
#elif defined(__GNUC__)
             "gcc",
#else
             "cc",
#endif
#ifdef __VERSION__
             __VERSION__,
#else
             "",
#endif
             HG_BUILD_TYPE,
#ifdef HG_HAVE_OPENMP
             "OpenMP",
#else
             "no OpenMP",
#endif
             threads, threads == 1 ? "" : "s");
}

static const char schema_v1[] = "hgridopt.calibration/1";
static const char schema_v2[] = "hgridopt.calibration/2";

static cJSON *entry_json(const hg_calibration *c)
{
    cJSON *j = cJSON_CreateObject();
    if (!j)
        return NULL;
    cJSON_AddNumberToObject(j, "K", c->K);
    cJSON_AddNumberToObject(j, "K_stderr", c->K_se);
    cJSON_AddNumberToObject(j, "seconds_per_pair_check", c->a);
    cJSON_AddNumberToObject(j, "seconds_per_pair_check_stderr", c->a_se);
    cJSON_AddNumberToObject(j, "seconds_per_cell_access", c->b);
    cJSON_AddNumberToObject(j, "seconds_per_cell_access_stderr", c->b_se);
    cJSON_AddNumberToObject(j, "r_squared", c->r2);
    cJSON_AddNumberToObject(j, "dim", c->dim);
    cJSON_AddNumberToObject(j, "particles", (double)c->n);
    cJSON_AddNumberToObject(j, "nu", c->nu);
    cJSON_AddStringToObject(j, "distribution", c->psd);
    if (c->packing[0])
        cJSON_AddStringToObject(j, "packing", c->packing);
    cJSON_AddStringToObject(j, "created", c->created);
    cJSON_AddStringToObject(j, "machine", c->machine);
    cJSON_AddStringToObject(j, "build", c->build);
    cJSON *pts = cJSON_AddArrayToObject(j, "points");
    for (int i = 0; pts && i < c->npoints && c->points; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "levels", c->points[i].levels);
        cJSON_AddNumberToObject(o, "T_cd", c->points[i].T_cd);
        cJSON_AddNumberToObject(o, "T_ca", c->points[i].T_ca);
        cJSON_AddNumberToObject(o, "seconds_per_particle",
                                c->points[i].seconds);
        cJSON_AddItemToArray(pts, o);
    }
    return j;
}

int hg_calibration_json(const hg_calibration *c, char **text, hg_err *e)
{
    *text = NULL;
    if (!c)
        return hg_fail(e, HG_EINVAL, "calibration: NULL argument");
    cJSON *j = entry_json(c);
    if (!j)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    /* one calibration: the version 1 document (hg_calibration_load reads
     * it as the entry of its "dim") */
    cJSON_AddItemToObject(j, "schema", cJSON_CreateString(schema_v1));
    cJSON_AddItemToObject(j, "version",
                          cJSON_CreateString(HG_VERSION_STRING));
    char *t = hg_json_print(j);
    cJSON_Delete(j);
    if (!t)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    *text = strdup(t);
    cJSON_free(t);
    return *text ? HG_OK : hg_fail(e, HG_ENOMEM, "out of memory");
}

/* Whole file into a new string; HG_EIO if it cannot be opened (errno
 * kept). */
static int slurp(const char *path, char **out, hg_err *e)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return hg_fail(e, HG_EIO, "calibration file %s: %s", path,
                       strerror(errno));
    char *text = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 8192;
            if (cap > (1u << 24)) {
                free(text);
                fclose(f);
                return hg_fail(e, HG_ELIMIT, "calibration file %s: larger "
                               "than 16 MiB", path);
            }
            char *t = realloc(text, cap);
            if (!t) {
                free(text);
                fclose(f);
                return hg_fail(e, HG_ENOMEM, "out of memory");
            }
            text = t;
        }
        size_t k = fread(text + n, 1, 4096, f);
        n += k;
        if (k < 4096)
            break;
    }
    int rerr = ferror(f);
    fclose(f);
    if (rerr) {
        free(text);
        return hg_fail(e, HG_EIO, "calibration file %s: read failed", path);
    }
    text[n] = '\0';
    *out = text;
    return HG_OK;
}


/* Parse path into *doc, a "calibrations" object keyed by dimension
 * (version 1 files are converted). */
static int read_doc(const char *path, cJSON **doc, hg_err *e)
{
    char *text;
    *doc = NULL;
    int st = slurp(path, &text, e);
    if (st)
        return st;
    cJSON *j = cJSON_Parse(text);
    free(text);
    if (!j)
        return hg_fail(e, HG_EPARSE, "calibration file %s: not valid JSON",
                       path);
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(j, "schema");
    const char *sv = cJSON_IsString(schema) ? schema->valuestring : "";
    if (!strcmp(sv, schema_v2)) {
        cJSON *cal = cJSON_DetachItemFromObjectCaseSensitive(j,
                                                             "calibrations");
        cJSON_Delete(j);
        if (!cJSON_IsObject(cal)) {
            cJSON_Delete(cal);
            return hg_fail(e, HG_EPARSE, "calibration file %s: "
                           "\"calibrations\" is missing or not an object",
                           path);
        }
        *doc = cal;
        return HG_OK;
    }
    if (!strcmp(sv, schema_v1)) {
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(j, "dim");
        int dim = 3; /* version 1 had no per-dimension entries; its
                        calibrate defaulted to 3D */
        if (d) {
            if (!cJSON_IsNumber(d) ||
                (d->valuedouble != 2.0 && d->valuedouble != 3.0)) {
                cJSON_Delete(j);
                return hg_fail(e, HG_EPARSE, "calibration file %s: \"dim\" "
                               "is not 2 or 3", path);
            }
            dim = (int)d->valuedouble;
        }
        cJSON *cal = cJSON_CreateObject();
        if (!cal) {
            cJSON_Delete(j);
            return hg_fail(e, HG_ENOMEM, "out of memory");
        }
        cJSON_DeleteItemFromObjectCaseSensitive(j, "schema");
        cJSON_AddItemToObject(cal, dim == 2 ? "2" : "3", j);
        *doc = cal;
        return HG_OK;
    }
    cJSON_Delete(j);
    return hg_fail(e, HG_EPARSE, "calibration file %s: \"schema\" is not "
                   "\"%s\"", path, schema_v2);
}

int hg_calibration_save(const hg_calibration *c, const char *path,
                        hg_err *e)
{
    if (!c || !path)
        return hg_fail(e, HG_EINVAL, "calibration: NULL argument");
    if (!(isfinite(c->K) && c->K > 0.0))
        return hg_fail(e, HG_EINVAL, "calibration: K = %g is not finite and "
                       "> 0", c->K);
    if (c->dim != 2 && c->dim != 3)
        return hg_fail(e, HG_EINVAL, "calibration: dim = %d is not 2 or 3",
                       c->dim);
    int st = hg_config_make_folders(path, "calibration file", e);
    if (st)
        return st;
    cJSON *cal = NULL;
    /* keep the other dimension; never overwrite a file we cannot read */
    if (access(path, F_OK) == 0 && (st = read_doc(path, &cal, e)))
        return st;
    cJSON *j = cJSON_CreateObject();
    cJSON *entry = entry_json(c);
    if (!j || !entry) {
        cJSON_Delete(j);
        cJSON_Delete(entry);
        cJSON_Delete(cal);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    cJSON_AddStringToObject(j, "schema", schema_v2);
    if (!cal)
        cal = cJSON_CreateObject();
    const char *key = c->dim == 2 ? "2" : "3";
    if (cJSON_GetObjectItemCaseSensitive(cal, key))
        cJSON_ReplaceItemInObjectCaseSensitive(cal, key, entry);
    else
        cJSON_AddItemToObject(cal, key, entry);
    cJSON_AddItemToObject(j, "calibrations", cal);
    char *text = hg_json_print(j);
    cJSON_Delete(j);
    if (!text)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    /* temporary file next to path, renamed when complete (hg_io_output) */
    hg_output *o = NULL;
    st = hg_io_output_open(path, &o, e);
    if (st == HG_OK) {
        FILE *f = hg_io_output_stream(o);
        fputs(text, f);
        fputc('\n', f);
        st = hg_io_output_commit(o, e);
    }
    if (st != HG_OK && e) {
        char msg[HG_ERRLEN];
        snprintf(msg, sizeof msg, "calibration file %.480s", e->msg);
        memcpy(e->msg, msg, sizeof msg);
    }
    cJSON_free(text);
    return st;
}

static int get_number(const cJSON *j, const char *key, int required,
                      double *out, const char *path, hg_err *e)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    if (!v) {
        if (required)
            return hg_fail(e, HG_EPARSE, "calibration file %s: \"%s\" is "
                           "missing", path, key);
        return HG_OK;
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return hg_fail(e, HG_EPARSE, "calibration file %s: \"%s\" is not a "
                       "finite number", path, key);
    *out = v->valuedouble;
    return HG_OK;
}

static void get_string(const cJSON *j, const char *key, char *buf,
                       size_t len)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    if (cJSON_IsString(v))
        snprintf(buf, len, "%s", v->valuestring);
}

int hg_calibration_load(const char *path, int dim, hg_calibration *out,
                        hg_err *e)
{
    memset(out, 0, sizeof *out);
    if (!path)
        return hg_fail(e, HG_EINVAL, "calibration file: NULL path");
    if (dim != 2 && dim != 3)
        return hg_fail(e, HG_EINVAL, "calibration: dim = %d is not 2 or 3",
                       dim);
    cJSON *cal;
    int st = read_doc(path, &cal, e);
    if (st == HG_EIO) {
        char msg[HG_ERRLEN];
        snprintf(msg, sizeof msg, "%s", e ? e->msg : "");
        return hg_fail(e, HG_EIO, "%s (run `hgridopt calibrate --dim %d "
                       "--save` to write it)", msg, dim);
    }
    if (st)
        return st;
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(cal, dim == 2 ? "2"
                                                                    : "3");
    if (!j) {
        const cJSON *other = cJSON_GetObjectItemCaseSensitive(
            cal, dim == 2 ? "3" : "2");
        st = hg_fail(e, HG_EUNKNOWN, "calibration file %s holds no %dD "
                     "calibration%s (run `hgridopt calibrate --dim %d "
                     "--save`)", path, dim,
                     other ? (dim == 2 ? ", only a 3D one"
                                       : ", only a 2D one")
                           : "",
                     dim);
        goto done;
    }
    if (!cJSON_IsObject(j)) {
        st = hg_fail(e, HG_EPARSE, "calibration file %s: the %dD entry is "
                     "not an object", path, dim);
        goto done;
    }
    double d = dim, parts = 0;
    if ((st = get_number(j, "K", 1, &out->K, path, e)) ||
        (st = get_number(j, "K_stderr", 0, &out->K_se, path, e)) ||
        (st = get_number(j, "seconds_per_pair_check", 0, &out->a, path, e)) ||
        (st = get_number(j, "seconds_per_pair_check_stderr", 0, &out->a_se,
                         path, e)) ||
        (st = get_number(j, "seconds_per_cell_access", 0, &out->b, path,
                         e)) ||
        (st = get_number(j, "seconds_per_cell_access_stderr", 0, &out->b_se,
                         path, e)) ||
        (st = get_number(j, "r_squared", 0, &out->r2, path, e)) ||
        (st = get_number(j, "dim", 0, &d, path, e)) ||
        (st = get_number(j, "particles", 0, &parts, path, e)) ||
        (st = get_number(j, "nu", 0, &out->nu, path, e)))
        goto done;
    if (!(out->K > 0.0)) {
        st = hg_fail(e, HG_EPARSE, "calibration file %s: \"K\" = %g must be "
                     "> 0", path, out->K);
        goto done;
    }
    if (d != (double)dim) {
        st = hg_fail(e, HG_EPARSE, "calibration file %s: the entry for %dD "
                     "says \"dim\" %g", path, dim, d);
        goto done;
    }
    out->dim = dim;
    out->n = parts > 0 ? (size_t)parts : 0;
    get_string(j, "distribution", out->psd, sizeof out->psd);
    get_string(j, "packing", out->packing, sizeof out->packing);
    get_string(j, "created", out->created, sizeof out->created);
    get_string(j, "machine", out->machine, sizeof out->machine);
    get_string(j, "build", out->build, sizeof out->build);
done:
    cJSON_Delete(cal);
    if (st)
        memset(out, 0, sizeof *out);
    return st;
}
