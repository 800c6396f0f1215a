/* live_script.c - an input script as commands (`hgridopt run`): lines
 * joined at a trailing '&' as LAMMPS joins them, which commands can be
 * followed one by one, which runs can be split, and where. */
#include "hg_live.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIVE_MAX_LINE (64 * 1024)

void hg_live_script_free(hg_live_script *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->cmd[i]);
    free(s->cmd);
    free(s->line);
    memset(s, 0, sizeof *s);
}

/* The first word of cmd into w (empty for a blank line or a comment). */
static void first_word(const char *cmd, char *w, size_t cap)
{
    while (*cmd == ' ' || *cmd == '\t')
        cmd++;
    size_t k = 0;
    while (cmd[k] && !isspace((unsigned char)cmd[k]) && cmd[k] != '#' &&
           k + 1 < cap) {
        w[k] = cmd[k];
        k++;
    }
    w[k] = '\0';
}

static int count_triple_quotes(const char *s)
{
    int n = 0;
    for (const char *p = strstr(s, "\"\"\""); p; p = strstr(p + 3, "\"\"\""))
        n++;
    return n;
}

static int push(hg_live_script *s, size_t *cap, char *cmd, long line,
                hg_err *e)
{
    if (s->n == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        char **c = realloc(s->cmd, nc * sizeof *c);
        if (!c)
            return hg_fail(e, HG_ENOMEM, "input script: out of memory");
        s->cmd = c;
        long *l = realloc(s->line, nc * sizeof *l);
        if (!l)
            return hg_fail(e, HG_ENOMEM, "input script: out of memory");
        s->line = l;
        *cap = nc;
    }
    s->cmd[s->n] = cmd;
    s->line[s->n] = line;
    s->n++;
    return HG_OK;
}

static const char *const unfollowable[] = {"jump", "label", "next", "if",
                                           "include", "python", "loop",
                                           "partition", NULL};

int hg_live_script_parse(const char *text, const char *name,
                         hg_live_script *s, hg_err *e)
{
    memset(s, 0, sizeof *s);
    size_t cap = 0;
    char *cur = NULL;
    size_t len = 0;
    long lineno = 0, start = 0;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t k = nl ? (size_t)(nl - p) : strlen(p);
        lineno++;
        if (k > LIVE_MAX_LINE) {
            hg_fail_data(e, HG_ELIMIT, "input script '%s' line %ld is longer "
                         "than %d kB", name, lineno, LIVE_MAX_LINE / 1024);
            goto fail;
        }
        if (k && p[k - 1] == '\r')
            k--;
        if (!cur)
            start = lineno;
        char *c = realloc(cur, len + k + 2);
        if (!c) {
            hg_fail(e, HG_ENOMEM, "input script: out of memory");
            goto fail;
        }
        cur = c;
        memcpy(cur + len, p, k);
        len += k;
        cur[len] = '\0';
        /* a '&' that ends the line (blanks after it allowed) joins the
         * next line to this command */
        size_t t = len;
        while (t > 0 && (cur[t - 1] == ' ' || cur[t - 1] == '\t'))
            t--;
        int more = t > 0 && cur[t - 1] == '&';
        if (more) {
            len = t - 1;
            cur[len++] = ' ';
            cur[len] = '\0';
        } else {
            if (!s->unfollowable && count_triple_quotes(cur) % 2) {
                s->unfollowable_line = start;
                s->unfollowable = "\"\"\"";
            }
            if (push(s, &cap, cur, start, e))
                goto fail;
            cur = NULL;
            len = 0;
        }
        p = nl ? nl + 1 : p + k;
        if (!nl)
            break;
    }
    if (cur) { /* a trailing '&' on the last line */
        if (push(s, &cap, cur, start, e))
            goto fail;
        cur = NULL;
    }
    for (size_t i = 0; i < s->n && !s->unfollowable; i++) {
        char w[32];
        first_word(s->cmd[i], w, sizeof w);
        for (int j = 0; unfollowable[j]; j++)
            if (!strcmp(w, unfollowable[j])) {
                s->unfollowable = unfollowable[j];
                s->unfollowable_line = s->line[i];
                break;
            }
    }
    return HG_OK;
fail:
    free(cur);
    hg_live_script_free(s);
    return e->status;
}

int hg_live_script_read(const char *path, hg_live_script *s, hg_err *e)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "rb");
    if (!f)
        return hg_fail(e, HG_EIO, "input script '%s': %s", path,
                       strerror(errno));
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (cap - len < 65536) {
            size_t nc = cap ? 2 * cap : 65536;
            if (nc > (size_t)256 << 20) {
                fclose(f);
                free(text);
                return hg_fail_data(e, HG_ELIMIT, "input script '%s' is "
                                    "larger than 256 MB", path);
            }
            char *t = realloc(text, nc + 1);
            if (!t) {
                fclose(f);
                free(text);
                return hg_fail(e, HG_ENOMEM, "input script: out of memory");
            }
            text = t;
            cap = nc;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(text);
        return hg_fail(e, HG_EIO, "input script '%s': read error", path);
    }
    text[len] = '\0';
    if (memchr(text, '\0', len)) {
        size_t at = strlen(text);
        long line = 1;
        for (size_t i = 0; i < at; i++)
            line += text[i] == '\n';
        free(text);
        return hg_fail_data(e, HG_EINVAL, "input script '%s' line %ld: "
                            "binary data (a NUL byte): a script is text",
                            path, line);
    }
    int st = hg_live_script_parse(text, path, s, e);
    free(text);
    return st;
}

/* Does cmd hold word as a word of its own (letters, digits, '_' around
 * it are not part of it)? */
static int has_word(const char *cmd, const char *word)
{
    size_t k = strlen(word);
    for (const char *p = strstr(cmd, word); p; p = strstr(p + 1, word)) {
        int before = p > cmd && (isalnum((unsigned char)p[-1]) ||
                                 p[-1] == '_');
        int after = isalnum((unsigned char)p[k]) || p[k] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* cmd without a trailing comment (the words past '#' are not LAMMPS',
 * quotes aside) into body. */
static void strip_comment(const char *cmd, char *body, size_t cap)
{
    snprintf(body, cap, "%s", cmd);
    char *hash = strchr(body, '#');
    if (hash && !strchr(body, '"') && !strchr(body, '\''))
        *hash = '\0';
}

void hg_live_classify(const char *cmd, hg_live_cmd *c)
{
    memset(c, 0, sizeof *c);
    first_word(cmd, c->word, sizeof c->word);
    char body[512];
    strip_comment(cmd, body, sizeof body);
    int elapsed = has_word(body, "elapsed");
    int elaptime = has_word(body, "elaptime");
    c->elapsed_var = elapsed && !elaptime && !strcmp(c->word, "variable");
    c->clock_words = (elapsed && !c->elapsed_var) || elaptime;
    c->dynamic_group = !strcmp(c->word, "group") && has_word(body, "dynamic");
    if (!strcmp(c->word, "fix") || !strcmp(c->word, "unfix")) {
        char w[6][64] = {{0}};
        int n = sscanf(body, "%63s %63s %63s %63s", w[0], w[1], w[2], w[3]);
        if (n >= 2)
            snprintf(c->fix_id, sizeof c->fix_id, "%s", w[1]);
        const char *wt = strstr(body, "weight");
        c->balance_time = n >= 4 && !strcmp(c->word, "fix") &&
                          !strcmp(w[3], "balance") && wt &&
                          sscanf(wt, "%63s %63s", w[4], w[5]) == 2 &&
                          !strcmp(w[4], "weight") && !strcmp(w[5], "time");
    }
    if (!strcmp(c->word, "minimize") || !strcmp(c->word, "rerun") ||
        !strcmp(c->word, "minimize/kk")) {
        c->kind = HG_LIVE_NOTED;
        snprintf(c->why, sizeof c->why, "%s: executed as written, not "
                 "split", c->word);
        return;
    }
    if (strcmp(c->word, "run"))
        return;
    const char *p = strstr(body, "run") + 3;
    while (*p == ' ' || *p == '\t')
        p++;
    char *end = NULL;
    errno = 0;
    long long n = strtoll(p, &end, 10);
    int is_count = end != p && errno == 0 && n >= 0 &&
                   (*end == '\0' || isspace((unsigned char)*end));
    if (!is_count) {
        c->kind = HG_LIVE_RUN_WHOLE;
        char w[40];
        first_word(p, w, sizeof w);
        snprintf(c->why, sizeof c->why, "run %s: its steps are not a plain "
                 "count (a variable?): run unsplit", w);
        return;
    }
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end) {
        char w[40];
        first_word(end, w, sizeof w);
        c->kind = HG_LIVE_RUN_WHOLE;
        snprintf(c->why, sizeof c->why, "run %lld %s...: a run with "
                 "keywords (upto, start, stop, pre, post, every) runs "
                 "unsplit", n, w);
        return;
    }
    c->n = n;
    c->kind = HG_LIVE_RUN;
}

int hg_live_split(long long start, long long n, long long every,
                  long long min_steps, int max_segments, long long *ends)
{
    long long stop = start + n;
    if (n < 1 || every < 1 || min_steps < 1 || max_segments < 1) {
        if (max_segments >= 1)
            ends[0] = stop;
        return 1;
    }
    int k = max_segments;
    if (n / min_steps < k)
        k = (int)(n / min_steps);
    if (k < 1)
        k = 1;
    int count = 0;
    long long prev = start;
    for (int i = 1; i < k; i++) {
        /* the ideal boundary, rounded to the nearest multiple of every */
        long long ideal = start + (long long)((double)n * i / k + 0.5);
        long long b = (ideal + every / 2) / every * every;
        if (b - prev < min_steps)
            b = ((prev + min_steps + every - 1) / every) * every;
        if (b <= prev || stop - b < min_steps)
            continue;
        ends[count++] = b;
        prev = b;
    }
    ends[count++] = stop;
    return count;
}

int hg_live_elaplong(const char *cmd, char *out, size_t cap)
{
    size_t k = 0, n = 0;
    const char *w = "elapsed";
    size_t wl = strlen(w);
    for (const char *p = cmd; *p;) {
        int at = !strncmp(p, w, wl) &&
                 !(p > cmd && (isalnum((unsigned char)p[-1]) ||
                               p[-1] == '_')) &&
                 !(isalnum((unsigned char)p[wl]) || p[wl] == '_');
        const char *put = at ? "elaplong" : NULL;
        size_t len = at ? strlen(put) : 1;
        if (k + len + 1 > cap)
            return -1;
        if (at) {
            memcpy(out + k, put, len);
            p += wl;
            n++;
        } else {
            out[k] = *p++;
        }
        k += len;
    }
    if (!cap)
        return -1;
    out[k] = '\0';
    return (int)n;
}

long long hg_live_later_steps(const hg_live_script *s, size_t at)
{
    long long steps = 0;
    for (size_t i = at + 1; i < s->n; i++) {
        hg_live_cmd c;
        hg_live_classify(s->cmd[i], &c);
        if (c.kind == HG_LIVE_RUN && c.n < LLONG_MAX - steps)
            steps += c.n;
    }
    return steps;
}

int hg_live_run_started(const hg_live_script *s)
{
    for (size_t i = 0; i < s->n; i++) {
        hg_live_cmd c;
        hg_live_classify(s->cmd[i], &c);
        char body[512];
        strip_comment(s->cmd[i], body, sizeof body);
        if (!strcmp(c.word, "run") &&
            (has_word(body, "start") || has_word(body, "every")))
            return 1;
    }
    return 0;
}

/* Commands that read a group's atoms once, when they are executed: a
 * dynamic group's later updates do not reach them. Any other command
 * naming the group (a fix, a compute, a dump, a variable's group
 * function, ...) may read it during every later run. */
static int reads_once(const char *word)
{
    static const char *const once[] = {
        "delete_atoms", "set", "velocity", "group", "displace_atoms",
        "write_dump", "write_data", "write_restart", "delete_bonds"};
    for (size_t i = 0; i < sizeof once / sizeof once[0]; i++)
        if (!strcmp(word, once[i]))
            return 1;
    return 0;
}

int hg_live_dynamic_read(const hg_live_script *s, size_t at, char *name,
                         size_t cap, long *line)
{
    for (size_t g = 0; g < at && g < s->n; g++) {
        hg_live_cmd c;
        hg_live_classify(s->cmd[g], &c);
        if (!c.dynamic_group)
            continue;
        /* group NAME dynamic ...: its name is the second word */
        const char *p = s->cmd[g];
        while (*p == ' ' || *p == '\t')
            p++;
        p += strlen(c.word);
        char nm[64];
        first_word(p, nm, sizeof nm);
        if (!nm[0])
            continue;
        for (size_t k = g + 1; k < s->n; k++) {
            char body[512], w[32];
            strip_comment(s->cmd[k], body, sizeof body);
            first_word(body, w, sizeof w);
            if (!has_word(body, nm))
                continue;
            if (!reads_once(w) || k > at) {
                if (cap)
                    snprintf(name, cap, "%s", nm);
                if (line)
                    *line = s->line[k];
                return 1;
            }
        }
    }
    return 0;
}
