/* run_lines.c - what the engines share for whole-run advice: the user's
 * neighbor lines of a LAMMPS-like input (LAMMPS, LIGGGHTS) read back
 * (neighbor SKIN bin|multi, neigh_modify binsize and collection/interval;
 * check no refused: it rebuilds on a fixed interval; comm_modify
 * ignored), and the pair statistics of a frame. */
#include "run_lines.h"
#include "hg_snapshot.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

static int next_word(const char **p, char *w, size_t len)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    size_t k = 0;
    while (*s && !isspace((unsigned char)*s) && *s != ';') {
        if (k + 1 < len)
            w[k++] = *s;
        s++;
    }
    w[k] = '\0';
    *p = s;
    return k > 0;
}

static int number(const char *w, const char *what, double lo, double *v,
                  hg_err *e)
{
    char *end;
    *v = strtod(w, &end);
    if (!*w || *end || !isfinite(*v) || !(*v > lo))
        return hg_fail(e, HG_EINVAL, "%s '%s' is not a number "
                       "> %g", what, w, lo);
    return HG_OK;
}

/* neigh_modify's keywords: binsize, collection/interval; the rest of
 * the list options are taken as they are, check no refused. */
static int neigh_modify(const char **p, hg_run_setting *s, int *has_coll,
                        hg_err *e)
{
    char w[128];
    int st = HG_OK;
    while (st == HG_OK && next_word(p, w, sizeof w)) {
        if (!strcmp(w, "binsize")) {
            if (!next_word(p, w, sizeof w))
                return hg_fail(e, HG_EINVAL, "binsize needs a "
                                             "value");
            st = number(w, "binsize", -1e-300, &s->binsize, e);
        } else if (!strcmp(w, "collection/interval")) {
            double n;
            if (!next_word(p, w, sizeof w) ||
                (st = number(w, "collection/interval count", 0.0, &n, e)))
                return st ? st : hg_fail(e, HG_EINVAL,
                                         "collection/interval needs a count");
            if (n != floor(n) || n > HG_RUN_MAX_CUTS)
                return hg_fail(e, HG_EINVAL, "collection/interval "
                               "count '%s' is not 1..%d", w, HG_RUN_MAX_CUTS);
            s->ncoll = (int)n;
            for (int i = 0; st == HG_OK && i < s->ncoll; i++)
                st = next_word(p, w, sizeof w)
                         ? number(w, "collection cutoff", 0.0, &s->cut[i], e)
                         : hg_fail(e, HG_EINVAL, "collection/"
                                   "interval gives fewer than %d cutoffs",
                                   s->ncoll);
            *has_coll = 1;
        } else if (!strcmp(w, "collection/type")) {
            return hg_fail(e, HG_EINVAL, "collection/type (by "
                           "atom type) is not modelled; give "
                           "collection/interval");
        } else if (!strcmp(w, "check")) {
            if (next_word(p, w, sizeof w) && !strcmp(w, "no"))
                return hg_fail(e, HG_EINVAL, "check no rebuilds "
                               "on a fixed interval whatever the motion; "
                               "hgridopt prices check yes");
        }
    }
    return st;
}

int hg_run_lines_parse(const char *lines, hg_run_setting *s, double *skin,
                       int *multi, int *has_coll, hg_err *e)
{
    memset(s, 0, sizeof *s);
    *skin = 0.0;
    *multi = *has_coll = 0;
    int st = HG_OK;
    const char *p = lines;
    char w[128];
    while (st == HG_OK && *p) {
        if (!next_word(&p, w, sizeof w)) {
            p += *p ? 1 : 0; /* an empty command, a line end or ';' */
            continue;
        }
        if (!strcmp(w, "neighbor")) {
            char style[64] = "";
            if (!next_word(&p, w, sizeof w) ||
                (st = number(w, "neighbor skin", 0.0, skin, e)))
                return st ? st : hg_fail(e, HG_EINVAL, "neighbor "
                                         "needs a skin and a style");
            next_word(&p, style, sizeof style);
            if (!strcmp(style, "multi"))
                *multi = 1;
            else if (strcmp(style, "bin"))
                return hg_fail(e, HG_EINVAL, "neighbor style "
                               "'%s' is not modelled (bin or multi)", style);
        } else if (!strcmp(w, "neigh_modify")) {
            st = neigh_modify(&p, s, has_coll, e);
        } else if (strcmp(w, "comm_modify")) {
            return hg_fail(e, HG_EINVAL, "'%s' is not a neighbor, "
                           "neigh_modify or comm_modify command", w);
        }
        while (*p && *p != '\n' && *p != ';') /* the rest of the command */
            p++;
    }
    if (st)
        return st;
    if (!(*skin > 0.0))
        return hg_fail(e, HG_EINVAL, "no neighbor command (give "
                       "the input's lines, e.g. \"neighbor 0.2 bin\")");
    return HG_OK;
}

double hg_run_default_skin(const char *units)
{
    static const struct {
        const char *units;
        double skin;
    } table[] = {{"lj", 0.3}, {"real", 2.0}, {"metal", 2.0},
                 {"si", 0.001}, {"cgs", 0.1}};
    for (size_t i = 0; units && i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(units, table[i].units))
            return table[i].skin;
    return 0.0;
}

/* The last frames' statistics, by a hash of the frame: `hgridopt run`
 * prices each frame twice, as the last of one segment and the first of
 * the next, and counting is most of an advice. */
#define FRAME_CACHE 4

static struct frame_cached {
    uint64_t key;
    int full;
    hg_snapshot *snap;
    unsigned long used;
} frame_cache[FRAME_CACHE];
static unsigned long frame_clock;
static mtx_t frame_mtx;
static once_flag frame_once = ONCE_FLAG_INIT;
static int frame_mtx_ok;

static void frame_cache_init(void)
{
    frame_mtx_ok = mtx_init(&frame_mtx, mtx_plain) == thrd_success;
}

/* Everything of p that the statistics read. */
static uint64_t frame_key(const hg_particles *p)
{
    uint64_t h = 14695981039346656037ull;
    h = hg_fnv1a(h, &p->dim, sizeof p->dim);
    h = hg_fnv1a(h, &p->n, sizeof p->n);
    h = hg_fnv1a(h, p->lo, sizeof p->lo);
    h = hg_fnv1a(h, p->hi, sizeof p->hi);
    h = hg_fnv1a(h, &p->periodic, sizeof p->periodic);
    h = hg_fnv1a(h, p->boundary, sizeof p->boundary);
    h = hg_fnv1a(h, p->x, p->n * (size_t)p->dim * sizeof *p->x);
    return hg_fnv1a(h, p->r, p->n * sizeof *p->r);
}

/* A copy of the cached statistics of key (NULL: none). */
static hg_snapshot *cache_get(uint64_t key, int full)
{
    hg_snapshot *s = NULL;
    call_once(&frame_once, frame_cache_init);
    if (!frame_mtx_ok || mtx_lock(&frame_mtx) != thrd_success)
        return NULL;
    for (int i = 0; i < FRAME_CACHE && !s; i++)
        if (frame_cache[i].snap && frame_cache[i].key == key &&
            frame_cache[i].full == full) {
            s = hg_snapshot_copy(frame_cache[i].snap);
            frame_cache[i].used = ++frame_clock;
        }
    mtx_unlock(&frame_mtx);
    return s;
}

/* Keep a copy of snap under key, in place of the least recently used. */
static void cache_put(uint64_t key, int full, const hg_snapshot *snap)
{
    if (!frame_mtx_ok || mtx_lock(&frame_mtx) != thrd_success)
        return;
    int v = 0;
    for (int i = 1; i < FRAME_CACHE; i++)
        if (frame_cache[i].used < frame_cache[v].used)
            v = i;
    hg_snapshot *c = hg_snapshot_copy(snap);
    if (c) {
        hg_snapshot_free(frame_cache[v].snap);
        frame_cache[v].snap = c;
        frame_cache[v].key = key;
        frame_cache[v].full = full;
        frame_cache[v].used = ++frame_clock;
    }
    mtx_unlock(&frame_mtx);
}

hg_snapshot *hg_run_frame_snapshot(const hg_particles *p, int full,
                                   double *nu)
{
    if (p->n < 2)
        return NULL; /* a handful of atoms: priced as random centres */
    uint64_t key = frame_key(p);
    hg_snapshot *snap = cache_get(key, full);
    if (!snap) {
        if (hg_snapshot_create_sampled(p, full ? 0 : HG_RUN_FRAME_CENTRES,
                                       &snap, NULL))
            return NULL;
        cache_put(key, full, snap);
    }
    double v = hg_snapshot_get_info(snap)->nu_local;
    if (v > 0.0 && v < 1.0)
        *nu = v;
    return snap;
}

double hg_run_frame_contacts(const hg_snapshot *snap)
{
    if (!snap)
        return -1.0;
    const hg_snapshot_info *in = hg_snapshot_get_info(snap);
    double c = 0.5 * in->coordination * (double)in->n;
    return isfinite(c) && c >= 0.0 ? c : -1.0;
}

double hg_run_bin_size(double factor, double cutoff)
{
    double x = factor * cutoff;
    if (!(x > 0.0) || !isfinite(x))
        return x;
    double p = pow(10.0, floor(log10(x)) - 3.0);
    return ceil(x / p * (1.0 - 1e-12)) * p;
}
