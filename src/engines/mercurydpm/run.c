/* run.c - find a MercuryDPM build, compile hgridopt's timing
 * driver against it (cached), run a list of HGrid settings on a packing
 * and read the seconds per step of its contact detection.
 *
 * The driver (driver.c) is compiled with the flags, defines
 * and include folders the build used for its kernel library (read from
 * Kernel/CMakeFiles/MercuryBase.dir/flags.make) and linked with the
 * static libraries of the build's Kernel folder. */
#include "process.h"
#include "hg_mercurydpm.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void hg_mercurydpm_setting_default(hg_mercurydpm_setting *s)
{
    memset(s, 0, sizeof *s);
    s->algorithm = HG_TOP_DOWN;
    s->user = 0;
    s->levels = 3;
}

int hg_mercurydpm_values(hg_model_values *v, double K, hg_err *e)
{
    memset(v, 0, sizeof *v);
    int st = hg_model_values_set(v, "K", K, e);
    return st ? st : hg_model_values_set(v, "whole", 0.0, e);
}

static const char build_hint[] =
    "build MercuryDPM's kernel (cmake -S SRC -B BUILD "
    "-DMercuryDPM_KERNEL_ONLY=ON -DCMAKE_BUILD_TYPE=Release && cmake "
    "--build BUILD) and give BUILD with --program or $HG_MERCURYDPM_DIR";

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int hg_mercurydpm_find(const char *dir, char *build, size_t len, hg_err *e)
{
    const char *d = dir && *dir ? dir : getenv("HG_MERCURYDPM_DIR");
    if (!d || !*d)
        return hg_fail(e, HG_EIO, "MercuryDPM: no build folder given: %s",
                       build_hint);
    char path[4200];
    snprintf(path, sizeof path, "%s/Kernel/libMercuryBase.a", d);
    if (!is_file(path))
        return hg_fail(e, HG_EIO, "MercuryDPM: '%s' holds no "
                       "Kernel/libMercuryBase.a: %s", d, build_hint);
    snprintf(path, sizeof path,
             "%s/Kernel/CMakeFiles/MercuryBase.dir/flags.make", d);
    if (!is_file(path))
        return hg_fail(e, HG_EIO, "MercuryDPM: '%s' has no "
                       "Kernel/CMakeFiles/MercuryBase.dir/flags.make (not a "
                       "CMake build folder?): %s", d, build_hint);
    if (strlen(d) + 1 > len)
        return hg_fail(e, HG_ELIMIT, "MercuryDPM: path too long: %s", d);
    snprintf(build, len, "%s", d);
    return HG_OK;
}

/* The value of "KEY = value" in flags.make (empty when absent). */
static void flags_value(const char *text, const char *key, char *out,
                        size_t len)
{
    out[0] = '\0';
    size_t k = strlen(key);
    for (const char *l = text; l && *l;) {
        if (!strncmp(l, key, k) && (l[k] == ' ' || l[k] == '=')) {
            const char *v = strchr(l, '=');
            if (v) {
                v++;
                while (*v == ' ')
                    v++;
                size_t n = strcspn(v, "\r\n");
                if (n >= len)
                    n = len - 1;
                memcpy(out, v, n);
                out[n] = '\0';
            }
            return;
        }
        l = strchr(l, '\n');
        if (l)
            l++;
    }
}

static char *slurp(const char *path, size_t max)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(max + 1);
    size_t n = buf ? fread(buf, 1, max, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
    return hg_fnv1a(h, s, strlen(s));
}

static int mkdirs(const char *path)
{
    char tmp[4400];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(tmp, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

static double mtime(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1.0;
    return (double)st.st_mtim.tv_sec + 1e-9 * (double)st.st_mtim.tv_nsec;
}

/* The static libraries of the build's Kernel folder, MercuryBase first,
 * as quoted linker arguments into f. */
static void kernel_libs(FILE *f, const char *build)
{
    char cmd[4400];
    char *q = NULL;
    size_t ql = 0;
    FILE *c = open_memstream(&q, &ql);
    if (!c)
        return;
    hg_code_quote(c, build);
    fclose(c);
    snprintf(cmd, sizeof cmd,
             "find %s/Kernel -name 'lib*.a' ! -name libMercuryBase.a "
             "2>/dev/null | sort",
             q);
    free(q);
    fprintf(f, " -Wl,--start-group ");
    char lib[4200];
    snprintf(lib, sizeof lib, "%s/Kernel/libMercuryBase.a", build);
    hg_code_quote(f, lib);
    FILE *p = popen(cmd, "r");
    char line[4200];
    while (p && fgets(line, sizeof line, p)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (*line) {
            fputc(' ', f);
            hg_code_quote(f, line);
        }
    }
    if (p)
        pclose(p);
    fprintf(f, " -Wl,--end-group");
}

/* The build's compile flags, defines and include folders. */
static int build_flags(const char *build, char *defines, char *includes,
                       char *flags, size_t len, hg_err *e)
{
    char path[4400];
    snprintf(path, sizeof path,
             "%s/Kernel/CMakeFiles/MercuryBase.dir/flags.make", build);
    char *text = slurp(path, 1 << 16);
    if (!text)
        return hg_fail(e, HG_EIO, "MercuryDPM: cannot read %s: %s", path,
                       strerror(errno));
    flags_value(text, "CXX_DEFINES", defines, len);
    flags_value(text, "CXX_INCLUDES", includes, len);
    flags_value(text, "CXX_FLAGS", flags, len);
    free(text);
    if (!*includes)
        return hg_fail(e, HG_EIO, "MercuryDPM: %s names no include folder "
                       "(CXX_INCLUDES)", path);
    return HG_OK;
}

int hg_mercurydpm_compile(const char *build, const char *src,
                          const char *exe, const char *log, hg_err *e)
{
    char defines[4096], includes[4096], flags[4096];
    int st = build_flags(build, defines, includes, flags, sizeof flags, e);
    if (st)
        return st;
    const char *cxx = getenv("CXX");
    char *cmd = NULL;
    size_t clen = 0;
    FILE *c = open_memstream(&cmd, &clen);
    if (!c)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    fprintf(c, "%s %s %s %s -o ", cxx && *cxx ? cxx : "c++", flags, defines,
            includes);
    hg_code_quote(c, exe);
    fputc(' ', c);
    hg_code_quote(c, src);
    kernel_libs(c, build);
    fprintf(c, " -ldl -lgfortran -pthread >");
    hg_code_quote(c, log);
    fprintf(c, " 2>&1");
    fclose(c);
    int rc = system(cmd);
    free(cmd);
    if (rc == 0 && access(exe, X_OK) == 0)
        return HG_OK;
    char first[300] = "";
    FILE *l = fopen(log, "r");
    char line[1024];
    while (l && fgets(line, sizeof line, l))
        if (strstr(line, "error:") || strstr(line, "undefined reference")) {
            line[strcspn(line, "\r\n")] = '\0';
            snprintf(first, sizeof first, "%.290s", line);
            break;
        }
    if (l)
        fclose(l);
    return hg_fail(e, HG_EIO, "MercuryDPM: compiling %s against %s "
                   "failed%s%s (log: %s)", src, build, *first ? ": " : "",
                   first, log);
}

int hg_mercurydpm_driver(const char *build, char *exe, size_t len,
                         hg_err *e)
{
    char defines[4096], includes[4096], flags[4096];
    int st = build_flags(build, defines, includes, flags, sizeof flags, e);
    if (st)
        return st;
    /* cache folder: by the build's path, the driver's text and flags */
    char cache[4096];
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (x && *x)
        snprintf(cache, sizeof cache, "%s/hgridopt", x);
    else if (home && *home)
        snprintf(cache, sizeof cache, "%s/.cache/hgridopt", home);
    else
        snprintf(cache, sizeof cache, "/tmp/hgridopt-cache-%ld",
                 (long)geteuid());
    uint64_t h = fnv1a(1469598103934665603ull, build);
    h = fnv1a(h, hg_mercurydpm_driver_source());
    h = fnv1a(h, defines);
    h = fnv1a(h, flags);
    char dir[4300];
    snprintf(dir, sizeof dir, "%s/mercurydpm-%016llx", cache,
             (unsigned long long)h);
    if (mkdirs(dir) != 0)
        return hg_fail(e, HG_EIO, "MercuryDPM: cannot create the cache "
                       "folder %s: %s", dir, strerror(errno));
    if (strlen(dir) + 16 > len)
        return hg_fail(e, HG_ELIMIT, "MercuryDPM: cache path too long");
    snprintf(exe, len, "%s/driver", dir);
    char lib[4400];
    snprintf(lib, sizeof lib, "%s/Kernel/libMercuryBase.a", build);
    if (access(exe, X_OK) == 0 && mtime(exe) >= mtime(lib))
        return HG_OK;

    /* write the source, compile into a temporary name, rename */
    char src[4400], tmp_exe[4400], log[4400];
    snprintf(src, sizeof src, "%s/driver.cpp", dir);
    snprintf(tmp_exe, sizeof tmp_exe, "%s/driver.tmp.%ld", dir,
             (long)getpid());
    snprintf(log, sizeof log, "%s/compile.log", dir);
    FILE *f = fopen(src, "w");
    if (!f)
        return hg_fail(e, HG_EIO, "MercuryDPM: cannot write %s: %s", src,
                       strerror(errno));
    fputs(hg_mercurydpm_driver_source(), f);
    if (fclose(f) != 0)
        return hg_fail(e, HG_EIO, "MercuryDPM: cannot write %s", src);
    if ((st = hg_mercurydpm_compile(build, src, tmp_exe, log, e))) {
        remove(tmp_exe);
        return st;
    }
    if (rename(tmp_exe, exe) != 0) {
        remove(tmp_exe);
        return hg_fail(e, HG_EIO, "MercuryDPM: cannot rename %s: %s",
                       tmp_exe, strerror(errno));
    }
    return HG_OK;
}

static int write_packing(const char *path, const hg_particles *p, hg_err *e)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return hg_fail(e, HG_EIO, "%s: cannot write: %s", path,
                       strerror(errno));
    int d = p->dim;
    fprintf(f, "dim %d\nlo %.17g %.17g %.17g\nhi %.17g %.17g %.17g\n", d,
            p->lo[0], p->lo[1], d == 3 ? p->lo[2] : 0.0, p->hi[0],
            p->hi[1], d == 3 ? p->hi[2] : 0.0);
    fprintf(f, "periodic %d %d %d\nn %zu\n", hg_particles_axis_periodic(p, 0),
            hg_particles_axis_periodic(p, 1),
            d == 3 ? hg_particles_axis_periodic(p, 2) : 1, p->n);
    for (size_t i = 0; i < p->n; i++)
        fprintf(f, "%.17g %.17g %.17g %.17g\n", p->x[i * d],
                p->x[i * d + 1], d == 3 ? p->x[i * d + 2] : 0.0, p->r[i]);
    if (fclose(f) != 0)
        return hg_fail(e, HG_EIO, "%s: write failed", path);
    return HG_OK;
}

static int check_setting(const hg_mercurydpm_setting *s, int i,
                         double dmax, hg_err *e)
{
    if (s->algorithm != HG_TOP_DOWN && s->algorithm != HG_BOTTOM_UP)
        return hg_fail(e, HG_EINVAL, "MercuryDPM setting %d: algorithm %d "
                       "is not top-down or bottom-up", i, (int)s->algorithm);
    if (s->levels < 1 || s->levels > HG_MERCURYDPM_MAX_LEVELS)
        return hg_fail(e, HG_EINVAL, "MercuryDPM setting %d: levels %d not "
                       "in 1..%d", i, s->levels, HG_MERCURYDPM_MAX_LEVELS);
    for (int h = 0; s->user && h < s->levels; h++)
        if (!(isfinite(s->sizes[h]) && s->sizes[h] > 0.0) ||
            (h > 0 && s->sizes[h] < s->sizes[h - 1]))
            return hg_fail(e, HG_EINVAL, "MercuryDPM setting %d: size %d = "
                           "%g is not finite, > 0 and non-decreasing", i,
                           h + 1, s->sizes[h]);
    if (s->user && !(s->sizes[s->levels - 1] >= dmax))
        return hg_fail(e, HG_EINVAL, "MercuryDPM setting %d: top size %g is "
                       "below the largest diameter %g", i,
                       s->sizes[s->levels - 1], dmax);
    return HG_OK;
}

static int write_settings_file(const char *path,
                               const hg_mercurydpm_setting *s, int n,
                               hg_err *e)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return hg_fail(e, HG_EIO, "%s: cannot write: %s", path,
                       strerror(errno));
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s %s %d", s[i].algorithm == HG_TOP_DOWN ? "td" : "bu",
                s[i].user ? "user" : "exponential", s[i].levels);
        for (int h = 0; s[i].user && h < s[i].levels; h++)
            fprintf(f, " %.17g", s[i].sizes[h]);
        fputc('\n', f);
    }
    if (fclose(f) != 0)
        return hg_fail(e, HG_EIO, "%s: write failed", path);
    return HG_OK;
}

/* "HGRIDOPT timed k rep cpu wall inter real total size:count ..." */
static int parse_timed(char *line, int n, int repeats, double *sec,
                       double *wall, int *seen, hg_mercurydpm_timing *t)
{
    int k, rep, used = 0;
    double s, w;
    unsigned inter, real, total;
    if (sscanf(line, "HGRIDOPT timed %d %d %lf %lf %u %u %u%n", &k, &rep, &s,
               &w, &inter, &real, &total, &used) != 7 ||
        k < 0 || k >= n || seen[k] >= repeats || !(s > 0.0))
        return 0;
    wall[k * repeats + seen[k]] = w;
    sec[k * repeats + seen[k]++] = s;
    t[k].interactions = inter;
    t[k].particles = real;
    t[k].with_ghosts = total;
    t[k].levels = 0;
    char *p = line + used;
    double size;
    unsigned count;
    int m = 0;
    while (t[k].levels < HG_MERCURYDPM_MAX_LEVELS &&
           sscanf(p, " %lf:%u%n", &size, &count, &m) == 2) {
        t[k].cells[t[k].levels] = size;
        t[k].on_level[t[k].levels] = count;
        t[k].levels++;
        p += m;
    }
    return 1;
}

/* The arguments of hg_mercurydpm_run checked. */
static int check_run(const hg_particles *p, const hg_mercurydpm_setting *s,
                     int n, const hg_engine_run *run, hg_err *e)
{
    if (n < 1)
        return hg_fail(e, HG_EINVAL, "MercuryDPM: no HGrid setting to run");
    if (!run || run->steps < 1 || run->warmup < 0 || run->repeats < 1)
        return hg_fail(e, HG_EINVAL, "MercuryDPM run: steps %d, warmup %d, "
                       "repeats %d must be >= 1, >= 0, >= 1",
                       run ? run->steps : 0, run ? run->warmup : 0,
                       run ? run->repeats : 0);
    int st = hg_particles_check(p, e);
    if (st)
        return st;
    if (p->n < 2)
        return hg_fail(e, HG_EINVAL, "MercuryDPM: %zu particles (need >= 2)",
                       p->n);
    double dmax = 2.0 * hg_particles_rmax(p);
    for (int i = 0; i < n; i++)
        if ((st = check_setting(&s[i], i, dmax, e)))
            return st;
    return HG_OK;
}

/* t[0..n-1] from the seconds and wall times of R repeats of n settings
 * (sec[k * R + r]; sorted in place). Paired medians
 * (hg_code_paired_medians): the machine's speed drifts between repeats
 * (one setting's repeats spread 2x on the development machine while the
 * ratios of two settings in one repeat held). */
static int summarise(double *sec, double *wall, int n, int R,
                     hg_mercurydpm_timing *t, hg_err *e)
{
    double *paired = malloc(sizeof *paired * (size_t)n);
    if (!paired)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    int st = hg_code_paired_medians(sec, n, R, paired, e);
    for (int k = 0; k < n && st == HG_OK; k++) {
        double *v = sec + k * R;
        hg_code_median(v, R); /* sorts v */
        t[k].seconds = paired[k];
        t[k].seconds_min = v[0];
        t[k].seconds_max = v[R - 1];
        t[k].wall = hg_code_median(wall + k * R, R);
    }
    free(paired);
    return st;
}

int hg_mercurydpm_run(const hg_particles *p, const hg_mercurydpm_setting *s,
                      int n, const hg_engine_run *run,
                      hg_mercurydpm_timing *t, hg_err *e)
{
    int st = check_run(p, s, n, run, e);
    if (st)
        return st;
    char build[4096], exe[4400];
    if ((st = hg_mercurydpm_find(run->program, build, sizeof build, e)) ||
        (st = hg_mercurydpm_driver(build, exe, sizeof exe, e)))
        return st;

    hg_code_dir dir;
    if ((st = hg_code_dir_open(run->keep, "mdpm", &dir, e)))
        return st;
    int R = run->repeats;
    double *sec = malloc(sizeof *sec * (size_t)n * (size_t)R);
    double *wall = malloc(sizeof *wall * (size_t)n * (size_t)R);
    int *seen = calloc((size_t)n, sizeof *seen);
    char *path = malloc(strlen(dir.path) + 64);
    FILE *pipe = NULL, *log = NULL;
    memset(t, 0, sizeof *t * (size_t)n);
    if (!sec || !wall || !seen || !path) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    sprintf(path, "%s/particles.txt", dir.path);
    if ((st = write_packing(path, p, e)))
        goto done;
    sprintf(path, "%s/settings.txt", dir.path);
    if ((st = write_settings_file(path, s, n, e)))
        goto done;
    char args[64];
    snprintf(args, sizeof args, "particles.txt settings.txt %d %d %d",
             run->steps, run->warmup, R);
    if (run->keep) { /* the driver's output, as read */
        sprintf(path, "%s/driver.log", dir.path);
        if (!(log = fopen(path, "w"))) {
            st = hg_fail(e, HG_EIO, "%s: cannot write: %s", path,
                         strerror(errno));
            goto done;
        }
    }
    if ((st = hg_code_spawn(&dir, exe, 1, args, "the MercuryDPM driver",
                            &pipe, e)))
        goto done;
    char line[8192], first_error[300] = "";
    int done_runs = 0, total = n * R;
    while (fgets(line, sizeof line, pipe)) {
        if (log)
            fputs(line, log);
        if (!*first_error && (!strncmp(line, "HGRIDOPT error", 14) ||
                              strstr(line, "ERROR"))) {
            line[strcspn(line, "\r\n")] = '\0';
            snprintf(first_error, sizeof first_error, "%.290s", line);
        }
        if (!strncmp(line, "HGRIDOPT timed ", 15) &&
            parse_timed(line, n, R, sec, wall, seen, t)) {
            done_runs++;
            if (run->progress)
                run->progress(done_runs, total, run->progress_params);
        }
    }
    int rc = pclose(pipe);
    pipe = NULL;
    if (done_runs < total) {
        st = hg_fail(e, HG_EIO, "MercuryDPM driver stopped after %d of %d "
                     "timed runs (exit status %d)%s%s%s%s", done_runs, total,
                     rc, *first_error ? ": " : "", first_error,
                     run->keep ? "; output in " : "",
                     run->keep ? dir.path : "");
        goto done;
    }
    st = summarise(sec, wall, n, R, t, e);
done:
    if (pipe)
        pclose(pipe);
    if (log)
        fclose(log);
    hg_code_dir_close(&dir);
    free(path);
    free(sec);
    free(wall);
    free(seen);
    return st;
}
