/* run_log.c - the log of a run of a LAMMPS-like code (hg_whole_run.h):
 * the timings it printed after each run ("Loop time of ...", the Pair,
 * Neigh and Output rows, "Neighbor list builds", "Dangerous builds"),
 * summed over its runs, and the neighbor, neigh_modify, comm_modify,
 * timestep and units commands it echoed before its first run. LAMMPS
 * prints its rows as "Pair | min | avg | max | %varavg | %total",
 * LIGGGHTS 3 as "Pair  time (%) = avg (%total)"; both are read.
 * What no run prints is refused with the line and the value: a time that
 * is not finite or negative, a Loop time of 0 for a run of steps, Pair
 * + Neigh above the run's Loop time, negative counts, sums beyond 64
 * bits, a NUL byte (binary data; read no further) and a line longer than
 * LOG_MAX_LINE. */
#include "hg_whole_run.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Column col (0: min, 2: max) of a LAMMPS timing row (| min | avg | max
 * |): 1 and *v; 0 where the row has no such column (LIGGGHTS' form) or
 * no time there. */
static int timing_col(const char *line, const char *name, int col, double *v)
{
    size_t k = strlen(name);
    if (strncmp(line, name, k) || (line[k] != ' ' && line[k] != '|'))
        return 0;
    const char *q = strchr(line + k, '|');
    for (int c = 0; q && c < col; c++)
        q = strchr(q + 1, '|');
    if (!q)
        return 0;
    char *end;
    *v = strtod(q + 1, &end);
    return end != q + 1 && isfinite(*v) && *v >= 0.0;
}

/* The average seconds of timing row name (LAMMPS' or LIGGGHTS' form):
 * 1 and *v, 0 for a line that is not the row, -1 for the row without a
 * time in seconds (not a number, negative, infinite). */
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
        return end != bar + 1 && isfinite(*v) && *v >= 0.0 ? 1 : -1;
    }
    if (strncmp(q, "time (%) =", 10))
        return 0;
    *v = strtod(q + 10, &end);
    return end != q + 10 && isfinite(*v) && *v >= 0.0 ? 1 : -1;
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
    /* the first word and the fourth (fix ID GROUP balance) */
    char first[32], fourth[32] = "";
    const char *r2 = word(line, first, sizeof first);
    for (int k = 0; k < 3; k++)
        r2 = word(r2, fourth, sizeof fourth);
    int decomp = !strcmp(first, "processors") ||
                 !strcmp(first, "balance") ||
                 !strcmp(first, "comm_style") ||
                 (!strcmp(first, "fix") && !strcmp(fourth, "balance"));
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


/* The longest line read: a log's lines are short, so a longer one means
 * a file that is not a log (read no further). */
#define LOG_MAX_LINE (1 << 20)

/* The text of the log, line by line, read in blocks. */
typedef struct log_in {
    FILE *f;
    const char *name;
    char buf[65536];
    size_t pos, len;
    long long offset; /* of buf[0] in the file */
    long long line;   /* lines read */
} log_in;

/* The next line into line (its first cap - 1 bytes, the rest read and
 * dropped), without its line end: 1, or 0 at the end of the file, or an
 * error status: a NUL byte (a log is text), a line longer than
 * LOG_MAX_LINE, a read error. */
static int next_line(log_in *r, char *line, size_t cap, hg_err *e)
{
    size_t k = 0, total = 0;
    for (;;) {
        if (r->pos == r->len) {
            r->offset += (long long)r->len;
            r->pos = 0;
            r->len = fread(r->buf, 1, sizeof r->buf, r->f);
            if (r->len == 0) {
                if (ferror(r->f))
                    return hg_fail(e, HG_EIO, "--log: '%s': read error: %s",
                                   r->name, strerror(errno));
                if (total == 0)
                    return 0;
                break; /* a last line without its line end */
            }
        }
        const char *p = r->buf + r->pos, *end = r->buf + r->len;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        const char *nul = memchr(p, '\0', n);
        if (nul)
            return hg_fail_data(e, HG_EINVAL, "--log: '%s': binary data (a "
                                "NUL byte at offset %lld): a log is text",
                                r->name, r->offset + (long long)(nul - r->buf));
        size_t keep = n < cap - 1 - k ? n : cap - 1 - k;
        memcpy(line + k, p, keep);
        k += keep;
        total += n;
        r->pos += n + (nl != NULL);
        if (total > LOG_MAX_LINE)
            return hg_fail_data(e, HG_ELIMIT, "--log: '%s' line %lld is "
                                "longer than %d MB: not a log", r->name,
                                r->line + 1, LOG_MAX_LINE >> 20);
        if (nl)
            break;
    }
    line[k] = '\0';
    r->line++;
    return 1;
}

/* s past its blanks and the word w (NULL: w is not next). */
static const char *past(const char *s, const char *w)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(w);
    return strncmp(s, w, n) ? NULL : s + n;
}

/* The whole number at s (after blanks) into *v: the rest, or NULL for
 * none or one out of range. */
static const char *whole(const char *s, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(s, &end, 10);
    return end == s || errno == ERANGE ? NULL : end;
}

/* The number's text at s (after blanks: its digits, sign, point,
 * exponent, inf or nan; at most cap - 1 bytes), for a message. */
static const char *token(const char *s, char *w, size_t cap)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t k = strspn(s, "+-.0123456789eEinfatyINFATY");
    k = k ? k : strcspn(s, " \t");
    k = k < cap - 1 ? k : cap - 1;
    memcpy(w, s, k);
    w[k] = '\0';
    return w;
}

/* One run's "Loop time of T on P procs [...] for N steps with M atoms"
 * (LIGGGHTS adds ", finish time ..."). */
typedef struct loop_line {
    double t;
    int procs;
    long long steps, atoms;
} loop_line;

#define LOG_AT "--log: '%s' line %lld: "

/* line (which begins "Loop time of ") into L, or an error naming what in
 * it is wrong. */
static int loop_read(const log_in *r, const char *line, loop_line *L,
                     hg_err *e)
{
    char w[48];
    const char *q = line + 13, *p;
    char *end;
    long long v;
    L->t = strtod(q, &end);
    if (end == q)
        return hg_fail_data(e, HG_EINVAL, LOG_AT "'%.80s' is not a run's "
                            "timing", r->name, r->line, line);
    if (!isfinite(L->t) || L->t < 0.0)
        return hg_fail_data(e, HG_EINVAL, LOG_AT "Loop time '%s' is not a "
                            "time in seconds", r->name, r->line,
                            token(q, w, sizeof w));
    const char *on = past(end, "on");
    if (!on || !(p = whole(on, &v)) || v < 1 || v > INT_MAX)
        return hg_fail_data(e, HG_EINVAL, LOG_AT "procs '%s' is not a count "
                            "(1 to 2^31 - 1)", r->name, r->line,
                            on ? token(on, w, sizeof w) : "");
    L->procs = (int)v;
    const char *fo = strstr(p, " for ");
    if (!fo || !(p = whole(fo + 5, &L->steps)) || L->steps < 0)
        return hg_fail_data(e, HG_EINVAL, LOG_AT "steps '%s' is not a "
                            "count (0 to 2^63 - 1)", r->name, r->line,
                            fo ? token(fo + 5, w, sizeof w) : "");
    const char *wi = past(p, "steps");
    if (!wi || !(wi = past(wi, "with")) ||
        !whole(wi, &L->atoms) || L->atoms < 0)
        return hg_fail_data(e, HG_EINVAL, LOG_AT "atoms '%s' is not a "
                            "count (0 to 2^63 - 1)", r->name, r->line,
                            wi ? token(wi, w, sizeof w) : "");
    if (L->t == 0.0 && L->steps > 0)
        return hg_fail_data(e, HG_EINVAL, LOG_AT "Loop time 0 for %lld "
                            "steps: not a run's time", r->name, r->line,
                            L->steps);
    return HG_OK;
}

/* "Neighbor list builds = N" or "Dangerous builds = N" at line (what the
 * count is after k bytes): added to *sum. */
static int count_add(const log_in *r, const char *line, size_t k,
                     long long *sum, hg_err *e)
{
    char w[48];
    long long v;
    const char *what = line[0] == 'N' ? "Neighbor list builds"
                                      : "Dangerous builds";
    if (!whole(line + k, &v) || v < 0)
        return hg_fail_data(e, HG_EINVAL, LOG_AT "%s '%s' is not a count "
                            "(0 to 2^63 - 1)", r->name, r->line, what,
                            token(line + k, w, sizeof w));
    if (v > LLONG_MAX - *sum)
        return hg_fail_data(e, HG_ELIMIT, LOG_AT "%s %lld: the log's %s add "
                            "up to more than 2^63 - 1", r->name, r->line,
                            what, v, what);
    *sum += v;
    return HG_OK;
}

/* The timing table of the run read last (its "Loop time of" at line at):
 * its Pair and Neigh rows within its Loop time (the rows print 5 digits,
 * the Loop time 6; a table beyond that is not this run's); a run of
 * steps without them counted in log->untimed. */
typedef struct run_table {
    long long at; /* line of its "Loop time of" (0: no run open) */
    loop_line loop;
    double pair, neigh;
    int has_pair, has_neigh;
} run_table;

static int run_close(const log_in *r, run_table *t, hg_run_log *log,
                     hg_err *e)
{
    if (!t->at)
        return HG_OK;
    long long at = t->at;
    t->at = 0;
    if (t->loop.steps > 0 && !(t->has_pair && t->has_neigh) &&
        !log->untimed++)
        log->untimed_line = at;
    if (t->pair + t->neigh > t->loop.t * (1.0 + 1e-3))
        return hg_fail_data(e, HG_EINVAL, "--log: '%s' line %lld: Pair %g s "
                            "+ Neigh %g s exceed the run's Loop time %g s",
                            r->name, at, t->pair, t->neigh, t->loop.t);
    return HG_OK;
}

/* A run's timing into log: its Loop line (checked sums) and its rows. */
static int run_open(const log_in *r, const loop_line *L, run_table *t,
                    hg_run_log *log, hg_err *e)
{
    if (log->runs == INT_MAX)
        return hg_fail_data(e, HG_ELIMIT, LOG_AT "more than %d runs",
                            r->name, r->line, INT_MAX);
    if (L->steps > LLONG_MAX - log->steps)
        return hg_fail_data(e, HG_ELIMIT, LOG_AT "steps %lld: the log's "
                            "steps add up to more than 2^63 - 1", r->name,
                            r->line, L->steps);
    if (!isfinite(log->loop + L->t))
        return hg_fail_data(e, HG_ELIMIT, LOG_AT "Loop time %g: the log's "
                            "Loop times add up beyond a double", r->name,
                            r->line, L->t);
    if (!log->runs)
        log->procs = L->procs;
    log->runs++;
    log->loop += L->t;
    log->steps += L->steps;
    if ((unsigned long long)L->atoms > log->max_atoms)
        log->max_atoms = (size_t)L->atoms;
    memset(t, 0, sizeof *t);
    t->at = r->line;
    t->loop = *L;
    return HG_OK;
}

/* A timing row of the open run: added to *sum (and the run's *row). */
static int row_add(const log_in *r, const char *line, const char *name,
                   double v, int ok, double *sum, double *row, int *has,
                   hg_err *e)
{
    if (ok < 0)
        return hg_fail_data(e, HG_EINVAL, LOG_AT "'%.60s' has no %s time "
                            "in seconds", r->name, r->line, line, name);
    if (!isfinite(*sum + v))
        return hg_fail_data(e, HG_ELIMIT, LOG_AT "%s %g s: the log's %s "
                            "times add up beyond a double", r->name,
                            r->line, name, v, name);
    *sum += v;
    if (row)
        *row += v;
    if (has)
        *has = 1;
    return HG_OK;
}

/* "A ave B max C min" of LAMMPS' Nlocal and Nghost lines: *ave and *max
 * when both are finite counts >= 0 (else left). */
static void end_counts(const char *s, double *ave, double *max)
{
    double a, m;
    if (sscanf(s, "%lf ave %lf max", &a, &m) == 2 && isfinite(a) &&
        isfinite(m) && a >= 0.0 && m >= 0.0) {
        *ave = a;
        *max = m;
    }
}

/* One line of the log into log (t: the run whose table is read, in_run
 * while it is). */
static int log_line(const log_in *r, char *line, hg_run_log *log,
                    run_table *t, int *in_run, char *neighbor, size_t ncap,
                    char *modify, size_t mcap, hg_err *e)
{
    double v;
    int k, st = HG_OK;
    if (!strncmp(line, "Loop time of ", 13)) {
        loop_line L;
        if ((st = loop_read(r, line, &L, e)) ||
            (st = run_close(r, t, log, e)) ||
            (st = run_open(r, &L, t, log, e)))
            return st;
        *in_run = 1;
        return HG_OK;
    }
    if (!strncmp(line, "Thread timing breakdown", 23))
        *in_run = 0; /* OpenMP: the threads' share of the same rows */
    else if (!strncmp(line, "Nlocal:", 7) && log->runs)
        end_counts(line + 7, &log->nlocal_ave, &log->nlocal_max);
    else if (!strncmp(line, "Nghost:", 7) && log->runs)
        end_counts(line + 7, &log->nghost_ave, &log->nghost_max);
    else if (strstr(line, " MPI tasks x ")) {
        const char *w = strstr(line, "with ");
        char *end;
        long n = w ? strtol(w + 5, &end, 10) : 0;
        if (w && end != w + 5 && n >= 1 && n <= INT_MAX && log->runs == 1)
            log->mpi = (int)n;
    } else if (*in_run && (k = timing_row(line, "Pair", &v))) {
        double m = v;
        if (k > 0 && !timing_col(line, "Pair", 2, &m))
            m = v;
        if (!(st = row_add(r, line, "Pair", v, k, &log->pair, &t->pair,
                           &t->has_pair, e)))
            st = row_add(r, line, "Pair", m, 1, &log->pair_max, NULL, NULL,
                         e);
    } else if (*in_run && (k = timing_row(line, "Neigh", &v))) {
        double m = v;
        if (k > 0 && !timing_col(line, "Neigh", 2, &m))
            m = v;
        if (!(st = row_add(r, line, "Neigh", v, k, &log->neigh, &t->neigh,
                           &t->has_neigh, e)))
            st = row_add(r, line, "Neigh", m, 1, &log->neigh_max, NULL, NULL,
                         e);
    } else if (*in_run && (k = timing_row(line, "Comm", &v))) {
        double m = v;
        if (k > 0 && !timing_col(line, "Comm", 0, &m))
            m = v;
        if (!(st = row_add(r, line, "Comm", v, k, &log->comm, NULL, NULL, e)))
            st = row_add(r, line, "Comm", m, 1, &log->comm_min, NULL, NULL,
                         e);
    }
    else if (*in_run && ((k = timing_row(line, "Output", &v)) ||
                         (k = timing_row(line, "Outpt", &v))))
        st = row_add(r, line, "Output", v, k, &log->output, NULL, NULL, e);
    else if (!strncmp(line, "Neighbor list builds =", 22))
        st = count_add(r, line, 22, &log->builds, e);
    else if (!(log->cutoff > 0.0) &&
             !strncmp(line + strspn(line, " "), "master list distance cutoff =",
                      29)) {
        char *end;
        const char *v = line + strspn(line, " ") + 29;
        double c = strtod(v, &end);
        if (end != v && isfinite(c) && c > 0.0)
            log->cutoff = c;
    }
    else if (!strncmp(line, "Dangerous builds =", 18)) {
        st = count_add(r, line, 18, &log->dangerous, e);
        *in_run = 0;
    } else
        command(line, log, neighbor, ncap, modify, mcap);
    return st;
}

int hg_run_log_read_stream(FILE *f, const char *name, hg_run_log *log,
                           hg_err *e)
{
    memset(log, 0, sizeof *log);
    log_in *r = calloc(1, sizeof *r);
    if (!r)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    r->f = f;
    r->name = name;
    char line[4096];
    int first = 1, in_run = 0, bad = 0, st;
    char neighbor[256] = "", modify[sizeof log->lines - sizeof neighbor] = "";
    run_table t = {0};
    while ((st = next_line(r, line, sizeof line, e)) == 1) {
        for (const char *c = line; *c; c++)
            bad |= (unsigned char)*c < 8; /* not text */
        line[strcspn(line, "\r")] = '\0';
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
        if ((st = log_line(r, line, log, &t, &in_run, neighbor,
                           sizeof neighbor, modify, sizeof modify, e)))
            break;
    }
    if (st == HG_OK)
        st = run_close(r, &t, log, e);
    free(r);
    if (st)
        return st;
    if (bad && !log->runs)
        return hg_fail_data(e, HG_EINVAL, "--log: '%s' is not a text file",
                            name);
    if (!log->runs)
        return hg_fail_data(e, HG_EINVAL, "--log: '%s' has no 'Loop time of' "
                            "line: not the log of a finished run", name);
    if (log->mpi < 1)
        log->mpi = log->procs;
    if (*neighbor)
        snprintf(log->lines, sizeof log->lines, "%s\n%s", neighbor, modify);
    else
        snprintf(log->lines, sizeof log->lines, "%s", modify);
    if (!(log->steps > 0))
        return hg_fail_data(e, HG_EINVAL, "--log: '%s': its runs have no "
                            "steps", name);
    return HG_OK;
}

int hg_run_log_read(const char *path, hg_run_log *log, hg_err *e)
{
    memset(log, 0, sizeof *log);
    FILE *f = fopen(path, "r");
    if (!f)
        return hg_fail(e, HG_EIO, "--log: cannot open '%s': %s", path,
                       strerror(errno));
    int st = hg_run_log_read_stream(f, path, log, e);
    fclose(f);
    return st;
}
