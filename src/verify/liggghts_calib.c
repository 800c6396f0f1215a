/* liggghts_calib.c - the LIGGGHTS cost constants: fitted to measured Neigh
 * times (code_fit.c), stored next to the LAMMPS ones, loaded; and
 * measuring bin sizes on a packing with the model's prediction beside. */
#include "code_fit.h"
#include "hg_io.h"
#include "hg_lammps.h"
#include "hg_liggghts.h"
#include "hg_snapshot.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void work_terms(const hg_liggghts_work *w, double *x)
{
    x[0] = w->checks;
    x[1] = w->visits;
    x[2] = w->bins;
    x[3] = w->binned;
    x[4] = w->neighbours;
}

int hg_liggghts_fit(const hg_liggghts_work *w, const double *y, int n,
                    hg_liggghts_consts *c, hg_err *e)
{
    enum { M = HG_LIGGGHTS_NTERMS };
    if (n < M + 2)
        return hg_fail(e, HG_EINVAL,
                       "LIGGGHTS fit: %d measurements, at least %d needed", n,
                       M + 2);
    for (int i = 0; i < n; i++)
        if (!(y[i] > 0.0) || !isfinite(y[i]))
            return hg_fail(e, HG_EINVAL,
                           "LIGGGHTS fit: measured time %d is %g, not > 0", i,
                           y[i]);
    double *X = malloc(sizeof *X * (size_t)n * M);
    if (!X)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        work_terms(&w[i], X + (size_t)i * M);
    double coef[M], se[M], r2 = 0.0;
    int rc = hg_fit_costs(X, y, n, M, coef, se, &r2);
    free(X);
    if (rc)
        return hg_fail(e, HG_ENUMERIC, "LIGGGHTS fit: least squares failed "
                                       "(degenerate bin sizes?)");
    for (int k = 0; k < M; k++) {
        c->c[k] = coef[k];
        c->se[k] = se[k];
    }
    c->r2 = r2;
    c->npoints = n;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(c->created, sizeof c->created, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return HG_OK;
}

int hg_liggghts_consts_default_path(char *buf, size_t len, hg_err *e)
{
    const char *env = getenv("HGRIDOPT_LIGGGHTS_CALIBRATION");
    int k;
    if (env && *env) {
        k = snprintf(buf, len, "%s", env);
    } else {
        char lmp[4096];
        int st = hg_lammps_consts_default_path(lmp, sizeof lmp, e);
        if (st)
            return st;
        char *slash = strrchr(lmp, '/');
        if (slash)
            slash[1] = '\0';
        else
            lmp[0] = '\0';
        k = snprintf(buf, len, "%sliggghts.json", lmp);
    }
    if (k < 0 || (size_t)k >= len)
        return hg_fail(e, HG_ELIMIT,
                       "LIGGGHTS calibration file: path too long");
    return HG_OK;
}

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

#define SCHEMA "hgridopt.liggghts-calibration/1"

int hg_liggghts_consts_save(const hg_liggghts_consts *c, const char *path,
                            hg_err *e)
{
    int st = make_parents(path, e);
    if (st)
        return st;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "schema", SCHEMA);
    cJSON_AddStringToObject(j, "unit", "seconds per unit of each count");
    cJSON *cs = cJSON_AddObjectToObject(j, "constants");
    cJSON *ss = cJSON_AddObjectToObject(j, "standard_errors");
    for (int k = 0; k < HG_LIGGGHTS_NTERMS; k++) {
        cJSON_AddNumberToObject(cs, hg_liggghts_term_name(k), c->c[k]);
        cJSON_AddNumberToObject(ss, hg_liggghts_term_name(k), c->se[k]);
    }
    cJSON_AddNumberToObject(j, "r2", c->r2);
    cJSON_AddNumberToObject(j, "points", c->npoints);
    cJSON_AddStringToObject(j, "machine", c->machine);
    cJSON_AddStringToObject(j, "liggghts", c->version);
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

int hg_liggghts_consts_load(const char *path, hg_liggghts_consts *c,
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
    int st = HG_OK;
    const cJSON *schema = cJSON_GetObjectItem(j, "schema");
    const cJSON *cs = cJSON_GetObjectItem(j, "constants");
    const cJSON *ss = cJSON_GetObjectItem(j, "standard_errors");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, SCHEMA)) {
        st = hg_fail(e, HG_EPARSE, "%s: schema is not " SCHEMA, path);
        goto done;
    }
    for (int k = 0; k < HG_LIGGGHTS_NTERMS; k++) {
        const char *name = hg_liggghts_term_name(k);
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
        c->c[k] = v->valuedouble;
        c->se[k] = cJSON_IsNumber(s) ? s->valuedouble : 0.0;
    }
    if (!(c->c[0] > 0.0)) {
        st = hg_fail(e, HG_EPARSE, "%s: constants.checks must be > 0",
                     path);
        goto done;
    }
    const cJSON *v;
    if (cJSON_IsNumber(v = cJSON_GetObjectItem(j, "r2")))
        c->r2 = v->valuedouble;
    if (cJSON_IsNumber(v = cJSON_GetObjectItem(j, "points")))
        c->npoints = v->valueint;
    if (cJSON_IsString(v = cJSON_GetObjectItem(j, "machine")))
        snprintf(c->machine, sizeof c->machine, "%s", v->valuestring);
    if (cJSON_IsString(v = cJSON_GetObjectItem(j, "liggghts")))
        snprintf(c->version, sizeof c->version, "%s", v->valuestring);
    if (cJSON_IsString(v = cJSON_GetObjectItem(j, "created")))
        snprintf(c->created, sizeof c->created, "%s", v->valuestring);
done:
    cJSON_Delete(j);
    return st;
}

int hg_liggghts_consts_auto(hg_liggghts_consts *c, int *from_file,
                            hg_err *e)
{
    char path[4096];
    *from_file = 0;
    if (hg_liggghts_consts_default_path(path, sizeof path, NULL) == HG_OK &&
        access(path, R_OK) == 0) {
        int st = hg_liggghts_consts_load(path, c, e);
        if (st)
            return st;
        *from_file = 1;
        return HG_OK;
    }
    hg_liggghts_consts_default(c);
    return HG_OK;
}

int hg_liggghts_system_of(const hg_particles *p, const hg_system *sys,
                          double skin, int nprocs, hg_liggghts_system *out,
                          hg_err *e)
{
    memset(out, 0, sizeof *out);
    out->dim = p->dim;
    out->atoms = (double)p->n;
    out->skin = skin;
    out->nprocs = nprocs;
    out->nu = hg_particles_packing_fraction(p);
    if (sys) {
        out->structure = sys->structure;
        out->snapshot = sys->snapshot;
        if (sys->nu > 0.0 && sys->nu < 1.0)
            out->nu = sys->nu;
    }
    for (int c = 0; c < p->dim; c++) {
        out->box[c] = p->hi[c] - p->lo[c];
        out->boundary[c] = hg_particles_axis_periodic(p, c) ? 'p' : 'f';
    }
    return hg_liggghts_system_check(out, e);
}

int hg_liggghts_measure(const hg_particles *p, const hg_psd *psd,
                        const hg_liggghts_system *sys, const double *b,
                        int n, const hg_liggghts_run_options *o,
                        const hg_liggghts_consts *c, hg_liggghts_point *out,
                        hg_err *e)
{
    if (n < 1)
        return hg_fail(e, HG_EINVAL, "no bin size to measure");
    hg_liggghts_timing *t = calloc((size_t)n, sizeof *t);
    if (!t)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    int st = HG_OK;
    for (int i = 0; st == HG_OK && i < n; i++) {
        out[i].binsize = b[i];
        st = hg_liggghts_work_eval(psd, sys, b[i], &out[i].work, e);
        out[i].predicted = c ? hg_liggghts_predict(c, &out[i].work) : 0.0;
    }
    if (st == HG_OK)
        st = hg_liggghts_run(p, b, n, o, t, e);
    for (int i = 0; st == HG_OK && i < n; i++)
        out[i].timing = t[i];
    free(t);
    return st;
}

int hg_liggghts_scan_sizes(double cut, double *out, int cap)
{
    static const double f[] = {0.25, 0.35, 0.5, 0.7, 1.0, 1.25, 1.5};
    int k = 0;
    for (size_t i = 0; i < sizeof f / sizeof f[0] && k < cap; i++)
        out[k++] = f[i] * cut;
    return k;
}
