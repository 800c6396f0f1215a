/* process.c - the pieces every runner of a simulation code shares
 * (process.h). */
#include "process.h"
#include "hg_io.h"

#include <errno.h>
#include <math.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int hg_code_find(const char *given, const char *name, const char *label,
                 const char *hint, char *buf, size_t len, hg_err *e)
{
    const char *exe = given ? given : name;
    if (strchr(exe, '/')) {
        if (access(exe, X_OK) != 0)
            return hg_fail(e, HG_EIO, "%s: '%s' is not an executable: %s",
                           label, exe, hint);
        snprintf(buf, len, "%s", exe);
        return HG_OK;
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    for (const char *p = path; *p;) {
        const char *q = strchr(p, ':');
        size_t n = q ? (size_t)(q - p) : strlen(p);
        if (n > 0 && n + strlen(exe) + 2 < len) {
            snprintf(buf, len, "%.*s/%s", (int)n, p, exe);
            if (access(buf, X_OK) == 0)
                return HG_OK;
        }
        p += n + (q ? 1 : 0);
    }
    return hg_fail(e, HG_EIO, "%s: '%s' not found on PATH: %s", label, exe,
                   hint);
}

void hg_code_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

int hg_code_version(const char *exe, const char *args, const char *key,
                    const char *label, char *buf, size_t len, hg_err *e)
{
    char *cmd = NULL;
    size_t clen = 0;
    FILE *c = open_memstream(&cmd, &clen);
    if (!c)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    hg_code_quote(c, exe);
    fprintf(c, " %s 2>/dev/null </dev/null", args);
    fclose(c);
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p)
        return hg_fail(e, HG_EIO, "%s: cannot run '%s': %s", label, exe,
                       strerror(errno));
    char line[512];
    int found = 0;
    while (fgets(line, sizeof line, p)) {
        char *k = strstr(line, key);
        if (k && !found) {
            k += strlen(key);
            k[strcspn(k, "\r\n")] = '\0';
            snprintf(buf, len, "%s", k);
            found = 1;
        }
    }
    pclose(p);
    if (!found)
        return hg_fail(e, HG_EIO, "%s: '%s %s' printed no version line",
                       label, exe, args);
    return HG_OK;
}

int hg_code_dir_open(const char *keep, const char *prefix, hg_code_dir *d,
                     hg_err *e)
{
    d->temp = !keep;
    if (d->temp) {
        const char *tmp = getenv("TMPDIR");
        snprintf(d->path, sizeof d->path, "%s/hgridopt-%s-XXXXXX",
                 tmp && *tmp ? tmp : "/tmp", prefix);
        if (!mkdtemp(d->path)) {
            d->temp = 0;
            return hg_fail(e, HG_EIO, "cannot create a folder in %s: %s",
                           tmp && *tmp ? tmp : "/tmp", strerror(errno));
        }
        return HG_OK;
    }
    snprintf(d->path, sizeof d->path, "%s", keep);
    if (mkdir(d->path, 0777) != 0 && errno != EEXIST)
        return hg_fail(e, HG_EIO, "--keep: cannot create '%s': %s", d->path,
                       strerror(errno));
    return HG_OK;
}

static int rm_entry(const char *path, const struct stat *sb, int flag,
                    struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void hg_code_dir_close(hg_code_dir *d)
{
    if (d->temp)
        nftw(d->path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    d->temp = 0;
}

int hg_code_spawn(const hg_code_dir *d, const char *exe, int nprocs,
                  const char *args, const char *label, FILE **out, hg_err *e)
{
    *out = NULL;
    char *cmd = NULL;
    size_t clen = 0;
    FILE *c = open_memstream(&cmd, &clen);
    if (!c)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    fputs("cd ", c);
    hg_code_quote(c, d->path);
    fputs(" && OMP_NUM_THREADS=1 ", c);
    if (nprocs > 1)
        fprintf(c, "mpirun %s--oversubscribe -np %d ",
                geteuid() == 0 ? "--allow-run-as-root " : "", nprocs);
    hg_code_quote(c, exe);
    fprintf(c, " %s 2>&1 </dev/null", args);
    fclose(c);
    *out = popen(cmd, "r");
    free(cmd);
    if (!*out)
        return hg_fail(e, HG_EIO, "cannot run %s: %s", label,
                       strerror(errno));
    return HG_OK;
}

void hg_code_order(int *order, int n, int repeats)
{
    for (int r = 0; r < repeats; r++)
        for (int i = 0; i < n; i++)
            order[r * n + i] = r % 2 ? n - 1 - i : i;
}

double hg_code_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, hg_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int hg_code_paired_medians(const double *x, int n, int R, double *out,
                           hg_err *e)
{
    double *q = malloc(sizeof *q * (size_t)R);
    if (!q)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    for (int r = 0; r < R; r++)
        q[r] = x[r];
    double base = hg_code_median(q, R);
    out[0] = base;
    for (int k = 1; k < n; k++) {
        for (int r = 0; r < R; r++)
            q[r] = x[(size_t)k * R + r] / x[r];
        out[k] = base * hg_code_median(q, R);
    }
    free(q);
    return HG_OK;
}

int hg_code_collect(const hg_code_dir *d, const hg_code_job *job,
                    hg_code_timing *t, hg_err *e)
{
    int n = job->n, R = job->repeats, nrun = n * R;
    memset(t, 0, sizeof *t * (size_t)n);
    double *neigh = malloc(sizeof *neigh * (size_t)nrun);
    double *pair = malloc(sizeof *pair * (size_t)nrun);
    int *seen = calloc((size_t)n, sizeof *seen);
    FILE *pipe = NULL;
    int st = HG_OK;
    if (!neigh || !pair || !seen) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    if ((st = hg_code_spawn(d, job->exe, job->nprocs, job->args, job->label,
                            &pipe, e)))
        goto done;
    char line[1024], first_error[512] = "";
    int cur = -1, done_runs = 0;
    double cur_neigh = NAN, cur_pair = NAN;
    while (fgets(line, sizeof line, pipe)) {
        if (!*first_error && !strncmp(line, "ERROR", 5)) {
            line[strcspn(line, "\r\n")] = '\0';
            snprintf(first_error, sizeof first_error, "%.200s", line);
        }
        int k;
        if (sscanf(line, "HGRIDOPT timed %d", &k) == 1 && k >= 0 && k < n) {
            cur = k;
            cur_neigh = cur_pair = NAN;
            continue;
        }
        if (cur < 0)
            continue;
        double v;
        if (job->row(line, 0, &v))
            cur_neigh = v;
        else if (job->row(line, 1, &v))
            cur_pair = v;
        else if (!strncmp(line, "Nghost:", 7)) {
            double ave, mx;
            if (sscanf(line + 7, "%lf ave %lf max", &ave, &mx) == 2 &&
                isfinite(mx) && mx >= 0.0)
                t[cur].nghost_max = mx;
        } else if (!strncmp(line, "Total # of neighbors =", 22))
            t[cur].neighbours = strtod(line + 22, NULL);
        else if (!strncmp(line, "Neighbor list builds =", 22)) {
            long b = strtol(line + 22, NULL, 10);
            if (b >= 0 && isfinite(cur_neigh) && done_runs < nrun &&
                seen[cur] < R) {
                int r = seen[cur]++;
                /* no build: a run over lists kept (its Pair time) */
                neigh[cur * R + r] = b > 0 ? cur_neigh / (double)b : NAN;
                pair[cur * R + r] = cur_pair / (double)job->steps;
                t[cur].builds = b;
                done_runs++;
                if (job->progress)
                    job->progress(done_runs, nrun, job->progress_params);
            }
            cur = -1;
        }
    }
    int rc = pclose(pipe);
    if (done_runs < nrun) {
        if (*first_error)
            st = hg_fail(e, HG_EIO, "%s failed: %s (input and log in %s)",
                         job->label, first_error,
                         d->temp ? "a removed folder" : d->path);
        else
            st = hg_fail(e, HG_EIO,
                         "%s stopped after %d of %d timed runs (exit "
                         "status %d)%s%s",
                         job->label, done_runs, nrun, rc,
                         d->temp ? "" : "; log in ", d->temp ? "" : d->path);
        goto done;
    }
    for (int k = 0; k < n; k++) {
        double *v = neigh + k * R, *q = pair + k * R;
        t[k].neigh = hg_code_median(v, R);
        t[k].pair = hg_code_median(q, R);
        t[k].neigh_min = v[0];
        t[k].neigh_max = v[R - 1];
    }
done:
    free(neigh);
    free(pair);
    free(seen);
    return st;
}

/* The script of a batch: the code's head, then the runs in order. */
static int batch_script(const hg_code_batch *b, const hg_particles *p,
                        const char *path, const int *order, int nrun,
                        hg_err *e)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return hg_fail(e, HG_EIO, "%s: cannot write: %s", path,
                       strerror(errno));
    b->head(f, p, b->ctx);
    int st = HG_OK;
    for (int r = 0; r < nrun && st == HG_OK; r++) {
        int k = order[r];
        char *lines = NULL;
        if ((st = b->lines(k, b->ctx, &lines, e)))
            break;
        fputs(lines, f);
        free(lines);
        if (b->warmup > 0)
            fprintf(f, "run %d\n", b->warmup);
        fprintf(f, "print \"HGRIDOPT timed %d\"\nrun %d\n", k,
                b->job.steps);
    }
    if (fclose(f) != 0 && st == HG_OK)
        st = hg_fail(e, HG_EIO, "%s: write failed", path);
    return st;
}

int hg_code_batch_run(const hg_code_batch *b, const hg_particles *p,
                      hg_code_timing *t, hg_err *e)
{
    int n = b->job.n, nrun = n * b->job.repeats;
    hg_code_dir dir;
    int st = hg_code_dir_open(b->keep, b->job.label, &dir, e);
    if (st)
        return st;
    int *order = malloc(sizeof *order * (size_t)nrun);
    char *path = malloc(strlen(dir.path) + strlen(b->data_file) + 16);
    memset(t, 0, sizeof *t * (size_t)n);
    if (!order || !path) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    hg_code_order(order, n, b->job.repeats);
    sprintf(path, "%s/%s", dir.path, b->data_file);
    if ((st = hg_io_write(path, HG_IO_LAMMPS, p, e)))
        goto done;
    sprintf(path, "%s/in.hgridopt", dir.path);
    if ((st = batch_script(b, p, path, order, nrun, e)))
        goto done;
    st = hg_code_collect(&dir, &b->job, t, e);
done:
    hg_code_dir_close(&dir);
    free(path);
    free(order);
    return st;
}
