/* run_log.c - the log of a run of a LAMMPS-like code (hg_whole_run.h):
 * the timings it printed after each run ("Loop time of ...", the Pair,
 * Neigh and Output rows, "Neighbor list builds", "Dangerous builds"),
 * summed over its runs, and the neighbor, neigh_modify, comm_modify,
 * timestep and units commands it echoed before its first run. LAMMPS
 * prints its rows as "Pair | min | avg | max | %varavg | %total",
 * LIGGGHTS 3 as "Pair  time (%) = avg (%total)"; both are read. */
#include "hg_whole_run.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest rank's seconds of a LAMMPS timing row (| min | avg | max
 * |); the average for LIGGGHTS' form, which has no max. */
static int timing_row_max(const char *line, const char *name, double *v)
{
    size_t k = strlen(name);
    if (strncmp(line, name, k) || (line[k] != ' ' && line[k] != '|'))
        return 0;
    const char *q = strchr(line + k, '|');
    if (!q || !(q = strchr(q + 1, '|')) || !(q = strchr(q + 1, '|')))
        return 0;
    char *end;
    *v = strtod(q + 1, &end);
    return end != q + 1 && isfinite(*v) && *v >= 0.0;
}

/* The average seconds of timing row name (LAMMPS' or LIGGGHTS' form). */
static int timing_row(const char *line, const char *name, double *v)
{
    size_t k = strlen(name);
    if (strncmp(line, name, k) || (line[k] != ' ' && line[k] != '|'))
        return 0;
    const char *q = line + k;
    while (*q == ' ')
        q++;
    char *end;
    if (*q == '|') { /* | min | avg | ... */
        const char *bar = strchr(q + 1, '|');
        if (!bar)
            return 0;
        *v = strtod(bar + 1, &end);
        return end != bar + 1 && isfinite(*v) && *v >= 0.0;
    }
    if (strncmp(q, "time (%) =", 10))
        return 0;
    *v = strtod(q + 10, &end);
    return end != q + 10 && isfinite(*v) && *v >= 0.0;
}

/* The first word of s into w (at most len - 1 characters); the rest. */
static const char *word(const char *s, char *w, size_t len)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t k = 0;
    while (*s && !isspace((unsigned char)*s)) {
        if (k + 1 < len)
            w[k++] = *s;
        s++;
    }
    w[k] = '\0';
    return s;
}

static int is_number(const char *w, double *v)
{
    char *end;
    *v = strtod(w, &end);
    return *w && !*end && isfinite(*v);
}

/* line with one space between its words, no comment, into out. */
static void squeeze(const char *line, char *out, size_t cap)
{
    size_t k = 0;
    int space = 0;
    for (const char *s = line; *s && *s != '#' && k + 2 < cap; s++) {
        if (isspace((unsigned char)*s)) {
            space = k > 0;
            continue;
        }
        if (space)
            out[k++] = ' ';
        space = 0;
        out[k++] = *s;
    }
    out[k] = '\0';
}

/* An echoed command: before the first run the neighbor line (the last
 * one), the neigh_modify and comm_modify lines, the timestep and the
 * units are kept; after it, a neighbor line marks the lines changed. */
static void command(const char *line, hg_run_log *log, char *neighbor,
                    size_t ncap, char *modify, size_t mcap)
{
    char first[32], third[32] = "";
    const char *r2 = word(line, first, sizeof first);
    r2 = word(r2, third, sizeof third);
    word(r2, third, sizeof third);
    int decomp = !strcmp(first, "processors") ||
                 !strcmp(first, "balance") ||
                 !strcmp(first, "comm_style") ||
                 (!strcmp(first, "fix") && !strcmp(third, "balance"));
    if (decomp && !strchr(line, '$')) {
        if (log->runs)
            log->decomp_changed = 1;
        else {
            size_t n = strlen(log->decomp);
            if (n + 2 < sizeof log->decomp) {
                squeeze(line, log->decomp + n, sizeof log->decomp - n - 1);
                strcat(log->decomp, "\n");
            }
        }
        return;
    }
    char cmd[32], arg[64];
    const char *rest = word(line, cmd, sizeof cmd);
    word(rest, arg, sizeof arg);
    if (strchr(line, '$')) /* echoed before its variables are put in */
        return;
    double v;
    int neigh = !strcmp(cmd, "neighbor") && is_number(arg, &v);
    int mod = !strcmp(cmd, "neigh_modify") || !strcmp(cmd, "comm_modify");
    if (log->runs) {
        log->lines_changed |= neigh || !strcmp(cmd, "neigh_modify");
        return;
    }
    if (!strcmp(cmd, "run") && is_number(arg, &v))
        log->echoed = 1;
    else if (!strcmp(cmd, "timestep") && is_number(arg, &v) && v > 0.0)
        log->timestep = v;
    else if (!strcmp(cmd, "units") && *arg)
        snprintf(log->units, sizeof log->units, "%.15s", arg);
    else if (neigh)
        squeeze(line, neighbor, ncap);
    else if (mod) {
        size_t n = strlen(modify);
        if (n + 2 < mcap) {
            squeeze(line, modify + n, mcap - n - 1);
            strcat(modify, "\n");
        }
    }
}

int hg_run_log_read(const char *path, hg_run_log *log, hg_err *e)
{
    memset(log, 0, sizeof *log);
    FILE *f = fopen(path, "r");
    if (!f)
        return hg_fail(e, HG_EIO, "--log: cannot open '%s': %s", path,
                       strerror(errno));
    char line[4096];
    int first = 1, in_run = 0, bad = 0;
    char neighbor[256] = "", modify[sizeof log->lines - sizeof neighbor] = "";
    long long n_line = 0;
    while (fgets(line, sizeof line, f)) {
        n_line++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            int c; /* a line longer than the buffer: the rest skipped */
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
        }
        for (size_t i = 0; i < len; i++)
            bad |= (unsigned char)line[i] < 8; /* not text */
        line[strcspn(line, "\r\n")] = '\0';
        if (first && *line) {
            first = 0;
            char w[32];
            word(line, w, sizeof w);
            size_t k = 0;
            while (w[k] && isalpha((unsigned char)w[k]))
                k++;
            w[k] = '\0';
            snprintf(log->code, sizeof log->code, "%s", w);
        }
        double t, v;
        int procs;
        long long steps;
        unsigned long long atoms;
        /* "Loop time of T on P procs [...] for N steps with M atoms" */
        const char *fo = strstr(line, " for ");
        if (!strncmp(line, "Loop time of ", 13) && fo &&
            sscanf(line, "Loop time of %lf on %d", &t, &procs) == 2 &&
            sscanf(fo, " for %lld steps with %llu atoms", &steps,
                   &atoms) == 2) {
            if (!(t >= 0.0) || procs < 1 || steps < 0) {
                fclose(f);
                return hg_fail_data(e, HG_EINVAL, "--log: '%s' line %lld: "
                                    "'%.80s' is not a run's timing", path,
                                    n_line, line);
            }
            if (!log->runs)
                log->procs = procs;
            log->runs++;
            log->loop += t;
            log->steps += steps;
            log->max_atoms = atoms > log->max_atoms ? (size_t)atoms
                                                    : log->max_atoms;
            in_run = 1;
            continue;
        }
        if (!strncmp(line, "Thread timing breakdown", 23))
            in_run = 0; /* OpenMP: the threads' share of the same rows */
        else if (!strncmp(line, "Nlocal:", 7) && log->runs)
            sscanf(line + 7, "%lf ave %lf max", &log->nlocal_ave,
                   &log->nlocal_max);
        else if (!strncmp(line, "Nghost:", 7) && log->runs)
            sscanf(line + 7, "%lf ave %lf max", &log->nghost_ave,
                   &log->nghost_max);
        else if (strstr(line, " MPI tasks x ") &&
                 sscanf(strstr(line, "with ") ? strstr(line, "with ") : "",
                        "with %d MPI tasks", &procs) == 1 && procs > 0) {
            if (log->runs == 1)
                log->mpi = procs;
        }
        else if (in_run && timing_row(line, "Pair", &v)) {
            log->pair += v;
            log->pair_max += timing_row_max(line, "Pair", &t) ? t : v;
        }
        else if (in_run && timing_row(line, "Neigh", &v)) {
            log->neigh += v;
            log->neigh_max += timing_row_max(line, "Neigh", &t) ? t : v;
        }
        else if (in_run && timing_row(line, "Comm", &v)) {
            log->comm += v;
            const char *q = strchr(line, '|');
            double mn = q ? strtod(q + 1, NULL) : v;
            log->comm_min += q && isfinite(mn) && mn >= 0.0 ? mn : v;
        }
        else if (in_run && (timing_row(line, "Output", &v) ||
                            timing_row(line, "Outpt", &v)))
            log->output += v;
        else if (!strncmp(line, "Neighbor list builds =", 22))
            log->builds += strtoll(line + 22, NULL, 10);
        else if (!strncmp(line, "Dangerous builds =", 18)) {
            log->dangerous += strtoll(line + 18, NULL, 10);
            in_run = 0;
        }
        else
            command(line, log, neighbor, sizeof neighbor, modify,
                    sizeof modify);
    }
    int err = ferror(f);
    fclose(f);
    if (err)
        return hg_fail(e, HG_EIO, "--log: '%s': read error", path);
    if (bad && !log->runs)
        return hg_fail_data(e, HG_EINVAL, "--log: '%s' is not a text file",
                       path);
    if (!log->runs)
        return hg_fail_data(e, HG_EINVAL, "--log: '%s' has no 'Loop time of' "
                       "line: not the log of a finished run", path);
    if (log->mpi < 1)
        log->mpi = log->procs;
    if (*neighbor)
        snprintf(log->lines, sizeof log->lines, "%s\n%s", neighbor, modify);
    else
        snprintf(log->lines, sizeof log->lines, "%s", modify);
    if (!(log->steps > 0))
        return hg_fail_data(e, HG_EINVAL, "--log: '%s': its runs have no steps",
                       path);
    return HG_OK;
}
