/* lammps_run.c - run LAMMPS (lmp, optionally under mpirun) on a packing
 * with a list of neighbor settings and read the Neigh and Pair times per
 * neighbor build from its timing breakdown.
 *
 * One lmp process runs every setting in turn, the list repeated in
 * alternating order (forward, backward, ...) so that a drift of the
 * machine's load spreads over all settings; each timed run is preceded by
 * a short untimed one after the settings change. Neighbor lists are
 * rebuilt every step (neigh_modify every 1 delay 0 check no) with a
 * granular pair style (gran/hooke) and no time integration: the atoms stay
 * where the packing put them, so each build does the same work.
 */
#include "hg_io.h"
#include "hg_lammps.h"

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void hg_lammps_run_options_default(hg_lammps_run_options *o)
{
    memset(o, 0, sizeof *o);
    o->nprocs = 1;
    o->steps = 50;
    o->warmup = 5;
    o->repeats = 3;
    o->skin = 0.0;
}

static const char install_hint[] =
    "install LAMMPS (Debian/Ubuntu: apt-get install lammps; it brings "
    "lmp and MPI) or give its path with --lmp PATH";

int hg_lammps_find(const char *lmp, char *buf, size_t len, hg_err *e)
{
    const char *name = lmp ? lmp : "lmp";
    if (strchr(name, '/')) {
        if (access(name, X_OK) != 0)
            return hg_fail(e, HG_EIO, "lmp: '%s' is not an executable: %s",
                           name, install_hint);
        snprintf(buf, len, "%s", name);
        return HG_OK;
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    const char *p = path;
    while (*p) {
        const char *q = strchr(p, ':');
        size_t n = q ? (size_t)(q - p) : strlen(p);
        if (n > 0 && n + strlen(name) + 2 < len) {
            snprintf(buf, len, "%.*s/%s", (int)n, p, name);
            if (access(buf, X_OK) == 0)
                return HG_OK;
        }
        p += n + (q ? 1 : 0);
    }
    return hg_fail(e, HG_EIO, "lmp: '%s' not found on PATH: %s", name,
                   install_hint);
}

/* Append s to the command in single quotes (safe for any path). */
static void quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

int hg_lammps_version(const char *lmp, char *buf, size_t len, hg_err *e)
{
    char *cmd = NULL;
    size_t clen = 0;
    FILE *c = open_memstream(&cmd, &clen);
    if (!c)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    quote(c, lmp);
    fputs(" -h 2>/dev/null", c);
    fclose(c);
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p)
        return hg_fail(e, HG_EIO, "lmp: cannot run '%s': %s", lmp,
                       strerror(errno));
    char line[512];
    int found = 0;
    const char *key = "Simulator - ";
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
        return hg_fail(e, HG_EIO, "lmp: '%s -h' printed no version line",
                       lmp);
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

static int write_script(const char *path, const hg_particles *p,
                        const hg_lammps_setting *s, int n,
                        const hg_lammps_run_options *o, const int *order,
                        int nrun, hg_err *e)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return hg_fail(e, HG_EIO, "%s: cannot write: %s", path,
                       strerror(errno));
    double rmax = 0.0;
    for (size_t i = 0; i < p->n; i++)
        rmax = fmax(rmax, p->r[i]);
    fprintf(f, "# written by hgridopt: Neigh time per build of %d neighbor "
               "settings\n",
            n);
    char b[8];
    hg_particles_boundary_text(p, b);
    fprintf(f, "units lj\natom_style sphere\ndimension %d\n"
               "boundary %s%s\ncomm_modify vel yes\n",
            p->dim, b, p->dim == 2 ? " p" : "");
    fprintf(f, "read_data data.lmp\n");
    fprintf(f, "pair_style gran/hooke 2000.0 NULL 50.0 NULL 0.5 0\n"
               "pair_coeff * *\n");
    fprintf(f, "neigh_modify every 1 delay 0 check no\ntimestep 0.0001\n"
               "thermo %d\n",
            o->steps + o->warmup);
    int st = HG_OK;
    for (int r = 0; r < nrun && st == HG_OK; r++) {
        int k = order[r];
        char *lines = NULL;
        st = hg_lammps_lines(&s[k], o->skin, 2.0 * rmax, &lines, e);
        if (st)
            break;
        if (s[k].ncoll == 0)
            fputs("comm_modify mode single\n", f);
        fputs(lines, f);
        free(lines);
        if (o->warmup > 0)
            fprintf(f, "run %d\n", o->warmup);
        fprintf(f, "print \"HGRIDOPT timed %d\"\nrun %d\n", k, o->steps);
    }
    if (fclose(f) != 0 && st == HG_OK)
        st = hg_fail(e, HG_EIO, "%s: write failed", path);
    return st;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Third number of a timing row "Neigh | min | avg | max | ...". */
static int row_avg(const char *line, double *v)
{
    const char *bar = strchr(line, '|');
    if (!bar)
        return 0;
    bar = strchr(bar + 1, '|');
    if (!bar)
        return 0;
    char *end;
    *v = strtod(bar + 1, &end);
    return end != bar + 1;
}

int hg_lammps_run(const hg_particles *p, const hg_lammps_setting *s, int n,
                  const hg_lammps_run_options *opt, hg_lammps_timing *t,
                  hg_err *e)
{
    hg_lammps_run_options o;
    if (opt)
        o = *opt;
    else
        hg_lammps_run_options_default(&o);
    if (n < 1)
        return hg_fail(e, HG_EINVAL, "no neighbor setting to run");
    if (o.steps < 1 || o.warmup < 0 || o.repeats < 1 || o.nprocs < 1)
        return hg_fail(e, HG_EINVAL,
                       "run options: steps %d, warmup %d, repeats %d, "
                       "nprocs %d must be >= 1, >= 0, >= 1, >= 1",
                       o.steps, o.warmup, o.repeats, o.nprocs);
    if (!(o.skin > 0.0))
        return hg_fail(e, HG_EINVAL, "skin: %g must be > 0", o.skin);
    int st = hg_particles_check(p, e);
    if (st)
        return st;
    char lmp[4096];
    if ((st = hg_lammps_find(o.lmp, lmp, sizeof lmp, e)))
        return st;

    char dir[4096];
    int temp = !o.keep;
    if (temp) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/hgridopt-lmp-XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir))
            return hg_fail(e, HG_EIO, "cannot create a folder in %s: %s",
                           tmp && *tmp ? tmp : "/tmp", strerror(errno));
    } else {
        snprintf(dir, sizeof dir, "%s", o.keep);
        if (mkdir(dir, 0777) != 0 && errno != EEXIST)
            return hg_fail(e, HG_EIO, "--keep: cannot create '%s': %s", dir,
                           strerror(errno));
    }
    int nrun = n * o.repeats;
    int *order = malloc(sizeof *order * (size_t)nrun);
    double *neigh = malloc(sizeof *neigh * (size_t)nrun);
    double *pair = malloc(sizeof *pair * (size_t)nrun);
    int *seen = calloc((size_t)n, sizeof *seen);
    char *path = malloc(strlen(dir) + 64);
    char *cmd = NULL;
    FILE *pipe = NULL;
    memset(t, 0, sizeof *t * (size_t)n);
    if (!order || !neigh || !pair || !seen || !path) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    for (int r = 0; r < o.repeats; r++)
        for (int i = 0; i < n; i++)
            order[r * n + i] = r % 2 ? n - 1 - i : i;
    sprintf(path, "%s/data.lmp", dir);
    if ((st = hg_io_write(path, HG_IO_LAMMPS, p, e)))
        goto done;
    sprintf(path, "%s/in.hgridopt", dir);
    if ((st = write_script(path, p, s, n, &o, order, nrun, e)))
        goto done;

    size_t clen = 0;
    FILE *c = open_memstream(&cmd, &clen);
    if (!c) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    fputs("cd ", c);
    quote(c, dir);
    fputs(" && OMP_NUM_THREADS=1 ", c);
    if (o.nprocs > 1)
        fprintf(c, "mpirun %s--oversubscribe -np %d ",
                geteuid() == 0 ? "--allow-run-as-root " : "", o.nprocs);
    quote(c, lmp);
    fputs(" -in in.hgridopt -log log.lammps -echo none 2>&1 "
          "</dev/null",
          c);
    fclose(c);
    pipe = popen(cmd, "r");
    if (!pipe) {
        st = hg_fail(e, HG_EIO, "cannot run lmp: %s", strerror(errno));
        goto done;
    }
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
        if (!strncmp(line, "Neigh ", 6) && row_avg(line, &v))
            cur_neigh = v;
        else if (!strncmp(line, "Pair ", 5) && row_avg(line, &v))
            cur_pair = v;
        else if (!strncmp(line, "Total # of neighbors =", 22))
            t[cur].neighbours = strtod(line + 22, NULL);
        else if (!strncmp(line, "Neighbor list builds =", 22)) {
            long b = strtol(line + 22, NULL, 10);
            if (b > 0 && isfinite(cur_neigh) && done_runs < nrun) {
                int r = seen[cur]++;
                neigh[cur * o.repeats + r] = cur_neigh / (double)b;
                pair[cur * o.repeats + r] = cur_pair / (double)o.steps;
                t[cur].builds = b;
                done_runs++;
                if (o.progress)
                    o.progress(done_runs, nrun, o.progress_params);
            }
            cur = -1;
        }
    }
    int rc = pclose(pipe);
    pipe = NULL;
    if (done_runs < nrun) {
        if (*first_error)
            st = hg_fail(e, HG_EIO, "lmp failed: %s (input and log in %s)",
                         first_error, o.keep ? dir : "a removed folder");
        else
            st = hg_fail(e, HG_EIO,
                         "lmp stopped after %d of %d timed runs (exit "
                         "status %d)%s%s",
                         done_runs, nrun, rc, o.keep ? "; log in " : "",
                         o.keep ? dir : "");
        goto done;
    }
    for (int k = 0; k < n; k++) {
        double *v = neigh + k * o.repeats, *q = pair + k * o.repeats;
        qsort(v, (size_t)o.repeats, sizeof *v, cmp_double);
        qsort(q, (size_t)o.repeats, sizeof *q, cmp_double);
        int m = o.repeats;
        t[k].neigh = m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
        t[k].pair = m % 2 ? q[m / 2] : 0.5 * (q[m / 2 - 1] + q[m / 2]);
        t[k].neigh_min = v[0];
        t[k].neigh_max = v[m - 1];
    }
done:
    if (pipe)
        pclose(pipe);
    if (temp)
        nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(cmd);
    free(path);
    free(order);
    free(neigh);
    free(pair);
    free(seen);
    return st;
}
