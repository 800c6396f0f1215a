/* calibrate.c - measure K = (seconds per cell access) / (seconds per pair
 * check) of the bundled HGrid on this machine. */
#include "hg_calib.h"
#include "hg_io.h"
#include "psd_internal.h"
#include "hg_grid.h"
#include "hg_opt.h"
#include "hg_pack.h"
#include "hg_validate.h"
#include "hg_version.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <gsl/gsl_multifit.h>
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

void hg_calibration_clear(hg_calibration *c)
{
    if (!c)
        return;
    free(c->points);
    memset(c, 0, sizeof *c);
}

void hg_calibrate_params_default(hg_calibrate_params *p)
{
    memset(p, 0, sizeof *p);
    p->sys.dim = 3;
    p->sys.nu = 0.3;
    p->n = 200000;
    p->seed = 1;
    p->max_levels = 5;
    p->repeats = 3;
    p->budget = 5e8;
}

/* Time one grid; appends a point unless its predicted work exceeds the
 * budget. */
static int time_grid(const hg_psd *psd, const hg_calibrate_params *prm,
                     const hg_particles *p, const hg_model *m, int L,
                     const double *sizes, hg_calibration *out, hg_err *e)
{
    hg_work w;
    hg_algorithm alg = m->grid_algorithm;
    if (alg == HG_GRID_NONE)
        return hg_fail(e, HG_EINVAL,
                       "model: %s describes no grid of hgridopt to time",
                       m->name);
    int st = hg_cost_evaluate(m, psd, &prm->sys, NULL, L, sizes, NULL, &w, e);
    if (st)
        return st;
    if ((w.T_cd + w.T_ca) * (double)p->n > prm->budget)
        return HG_OK;
    hg_grid *g = NULL;
    hg_pairs pairs = {0};
    hg_grid_counts cnt = {0};
    if ((st = hg_grid_create(p->dim, L, sizes, alg, &g, e)) ||
        (st = hg_grid_build(g, p, e)))
        goto done;
    double best = INFINITY;
    for (int k = 0; k < prm->repeats; k++) {
        double t0 = hg_wall_seconds();
        if ((st = hg_grid_find_contacts(g, &pairs, NULL, e)))
            goto done;
        double dt = hg_wall_seconds() - t0;
        if (dt < best)
            best = dt;
    }
    if ((st = hg_grid_find_contacts(g, &pairs, &cnt, e)))
        goto done;
    hg_calib_point *pt = &out->points[out->npoints++];
    pt->levels = L;
    pt->T_cd = (double)cnt.pair_checks / (double)p->n;
    pt->T_ca = (double)cnt.cell_accesses / (double)p->n;
    pt->seconds = best / (double)p->n;
done:
    hg_grid_counts_clear(&cnt);
    hg_pairs_clear(&pairs);
    hg_grid_free(g);
    return st;
}

int hg_calibration_fit(hg_calibration *c, hg_err *e)
{
    if (!c || !c->points || c->npoints < 3)
        return hg_fail(e, HG_EINVAL, "calibration: %d points (need >= 3)",
                       c ? c->npoints : 0);
    for (int i = 0; i < c->npoints; i++) {
        const hg_calib_point *p = &c->points[i];
        if (!(isfinite(p->seconds) && p->seconds > 0.0 && isfinite(p->T_cd) &&
              p->T_cd >= 0.0 && isfinite(p->T_ca) && p->T_ca >= 0.0))
            return hg_fail(e, HG_EINVAL,
                           "calibration: point %d (seconds %g, T_cd %g, "
                           "T_ca %g) must be finite, seconds > 0",
                           i, p->seconds, p->T_cd, p->T_ca);
    }
    hg_gsl_quiet(); /* a degenerate design must not abort the process */
    size_t n = (size_t)c->npoints;
    gsl_matrix *X = gsl_matrix_alloc(n, 2), *cov = gsl_matrix_alloc(2, 2);
    gsl_vector *y = gsl_vector_alloc(n), *w = gsl_vector_alloc(n);
    gsl_vector *beta = gsl_vector_alloc(2);
    gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(n, 2);
    int st = HG_OK;
    if (!X || !cov || !y || !w || !beta || !ws) {
        st = hg_fail(e, HG_ENOMEM, "out of memory for the fit");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        const hg_calib_point *p = &c->points[i];
        gsl_matrix_set(X, i, 0, p->T_cd);
        gsl_matrix_set(X, i, 1, p->T_ca);
        gsl_vector_set(y, i, p->seconds);
        gsl_vector_set(w, i, 1.0 / (p->seconds * p->seconds));
    }
    double chisq;
    if (gsl_multifit_wlinear(X, w, y, beta, cov, &chisq, ws)) {
        st = hg_fail(e, HG_ENUMERIC, "calibration: the least-squares fit "
                     "failed");
        goto done;
    }
    /* wlinear's covariance assumes known errors: scale by the residual
     * variance */
    double s2 = chisq / (double)(n - 2);
    c->a = gsl_vector_get(beta, 0);
    c->b = gsl_vector_get(beta, 1);
    double vaa = s2 * gsl_matrix_get(cov, 0, 0);
    double vbb = s2 * gsl_matrix_get(cov, 1, 1);
    double vab = s2 * gsl_matrix_get(cov, 0, 1);
    c->a_se = sqrt(vaa);
    c->b_se = sqrt(vbb);
    double sw = 0, swy = 0;
    for (size_t i = 0; i < n; i++) {
        sw += gsl_vector_get(w, i);
        swy += gsl_vector_get(w, i) * gsl_vector_get(y, i);
    }
    double ybar = swy / sw, tss = 0;
    for (size_t i = 0; i < n; i++) {
        double d = gsl_vector_get(y, i) - ybar;
        tss += gsl_vector_get(w, i) * d * d;
    }
    c->r2 = tss > 0 ? 1.0 - chisq / tss : NAN;
    if (!(c->a > 0.0 && c->b > 0.0 && isfinite(c->a) && isfinite(c->b))) {
        st = hg_fail(e, HG_ENUMERIC,
                     "calibration: fitted a = %g s per pair check, b = %g s "
                     "per cell access (both must be > 0); the timings are "
                     "too noisy - use more particles or repeats",
                     c->a, c->b);
        goto done;
    }
    c->K = c->b / c->a;
    /* delta method: var(b/a) */
    double K = c->K;
    double vk = K * K * (vbb / (c->b * c->b) + vaa / (c->a * c->a) -
                         2.0 * vab / (c->a * c->b));
    c->K_se = vk > 0 ? sqrt(vk) : 0.0;
done:
    gsl_matrix_free(X);
    gsl_matrix_free(cov);
    gsl_vector_free(y);
    gsl_vector_free(w);
    gsl_vector_free(beta);
    if (ws)
        gsl_multifit_linear_free(ws);
    return st;
}

int hg_calibrate(const hg_psd *psd, const hg_calibrate_params *prm,
                 hg_calibration *out, hg_err *e)
{
    hg_particles p = {0};
    double *s = NULL, *r = NULL;
    int st;
    memset(out, 0, sizeof *out);
    if (!psd || !prm)
        return hg_fail(e, HG_EINVAL, "calibrate: NULL argument");
    hg_system sys = prm->sys;
    if ((st = hg_system_check(&sys, e)))
        return st;
    int nm = prm->n_models;
    const hg_model *models[HG_CALIB_MAX_MODELS] = {
        hg_model_find("hgrid-top-down"), hg_model_find("hgrid-bottom-up")};
    if (nm < 0 || nm > HG_CALIB_MAX_MODELS)
        return hg_fail(e, HG_EINVAL, "models: %d is not in [0, %d]", nm,
                       HG_CALIB_MAX_MODELS);
    if (nm == 0)
        nm = 2;
    else
        memcpy(models, prm->models, sizeof *models * (size_t)nm);
    if (prm->n < 1000)
        return hg_fail(e, HG_EINVAL, "n: %zu particles are too few to time "
                       "(>= 1000)", prm->n);
    if (prm->max_levels < 1 || prm->max_levels > 64)
        return hg_fail(e, HG_EINVAL, "max_levels: %d is not in [1, 64]",
                       prm->max_levels);
    if (prm->repeats < 1)
        return hg_fail(e, HG_EINVAL, "repeats: %d must be >= 1",
                       prm->repeats);
    if (!(prm->budget > 0.0))
        return hg_fail(e, HG_EINVAL, "budget: %g must be > 0", prm->budget);
    hg_pack_params pp = {sys.dim, prm->n, sys.nu, prm->seed, 1};
    if ((st = hg_pack_poisson(psd, &pp, &p, e)))
        return st;
    double A = p.hi[0] - p.lo[0];
    int Lmax = prm->max_levels;
    out->points = calloc((size_t)Lmax * 6, sizeof *out->points);
    s = malloc((size_t)Lmax * sizeof *s);
    r = malloc((size_t)Lmax * sizeof *r);
    if (!out->points || !s || !r) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto fail;
    }
    static const double scale[3] = {1.0, 0.6, 1.6};
    for (int L = 1; L <= Lmax; L++) {
        for (int v = 0; v < 3; v++) {
            if ((st = hg_sizes_exponential(psd, L, s, e)))
                goto fail;
            if (L == 1) {
                s[0] *= v == 0 ? 1.0 : v == 1 ? 1.3 : 1.7;
                if (s[0] > A)
                    continue;
            } else {
                for (int h = 0; h < L - 1; h++) {
                    s[h] *= scale[v];
                    if (s[h] > s[L - 1])
                        s[h] = s[L - 1];
                }
            }
            if (s[L - 1] > A)
                continue;
            if ((st = hg_pack_round_sizes(A, L, s, r, e)))
                goto fail;
            for (int a = 0; a < (L == 1 ? 1 : nm); a++)
                if ((st = time_grid(psd, prm, &p, models[a], L, r, out, e)))
                    goto fail;
        }
        if (prm->progress)
            prm->progress("grids", (double)L / Lmax, prm->progress_params);
    }
    if (out->npoints < 3) {
        st = hg_fail(e, HG_ELIMIT,
                     "calibration: only %d grid(s) fit the work budget %g "
                     "(need 3); raise the budget or use fewer particles",
                     out->npoints, prm->budget);
        goto fail;
    }
    if ((st = hg_calibration_fit(out, e)))
        goto fail;
    out->dim = sys.dim;
    out->n = prm->n;
    out->nu = sys.nu;
    snprintf(out->psd, sizeof out->psd, "%s", hg_psd_spec(psd));
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out->created, sizeof out->created, "%Y-%m-%dT%H:%M:%SZ", &tm);
    hg_calibration_describe_host(out);
    free(s);
    free(r);
    hg_particles_clear(&p);
    return HG_OK;
fail:
    free(s);
    free(r);
    hg_particles_clear(&p);
    hg_calibration_clear(out);
    return st;
}

int hg_calibration_default_path(char *buf, size_t len, hg_err *e)
{
    const char *env = getenv("HGRIDOPT_CALIBRATION");
    int k;
    if (env && *env)
        k = snprintf(buf, len, "%s", env);
    else if ((env = getenv("XDG_CONFIG_HOME")) && *env)
        k = snprintf(buf, len, "%s/hgridopt/calibration.json", env);
    else if ((env = getenv("HOME")) && *env)
        k = snprintf(buf, len, "%s/.config/hgridopt/calibration.json", env);
    else
        return hg_fail(e, HG_EINVAL, "calibration file: neither "
                       "HGRIDOPT_CALIBRATION, XDG_CONFIG_HOME nor HOME is "
                       "set");
    if (k < 0 || (size_t)k >= len)
        return hg_fail(e, HG_ELIMIT, "calibration file: path too long");
    return HG_OK;
}

/* mkdir -p of the folder holding path. */
static int make_parent(const char *path, hg_err *e)
{
    char dir[4096];
    int k = snprintf(dir, sizeof dir, "%s", path);
    if (k < 0 || (size_t)k >= sizeof dir)
        return hg_fail(e, HG_ELIMIT, "calibration file: path too long");
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return HG_OK;
    *slash = '\0';
    for (char *q = dir + 1; *q; q++) {
        if (*q != '/')
            continue;
        *q = '\0';
        if (mkdir(dir, 0755) && errno != EEXIST)
            return hg_fail(e, HG_EIO, "calibration file: cannot create "
                           "folder %s: %s", dir, strerror(errno));
        *q = '/';
    }
    if (mkdir(dir, 0755) && errno != EEXIST)
        return hg_fail(e, HG_EIO, "calibration file: cannot create folder "
                       "%s: %s", dir, strerror(errno));
    return HG_OK;
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
    char *t = cJSON_Print(j);
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
    int st = make_parent(path, e);
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
    char *text = cJSON_Print(j);
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
    get_string(j, "created", out->created, sizeof out->created);
    get_string(j, "machine", out->machine, sizeof out->machine);
    get_string(j, "build", out->build, sizeof out->build);
done:
    cJSON_Delete(cal);
    if (st)
        memset(out, 0, sizeof *out);
    return st;
}
