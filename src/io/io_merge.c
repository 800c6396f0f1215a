/* io_merge.c - one frame written to several files (a run that writes each
 * particle group to its own file: big_1000.vtk, small_1000.vtk): each
 * read as hg_io_load reads one, the particles joined, the boxes checked
 * (the same box, or their union, said so) and the boundaries compared. */
#include "io_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MERGE_MAX 16

static void append(char *buf, size_t len, const char *fmt, const char *a)
{
    size_t n = strlen(buf);
    if (n + 1 < len)
        snprintf(buf + n, len - n, fmt, a);
}

/* Same box within a relative 1e-9 of its edge along every axis. */
static int same_box(const hg_particles *a, const hg_particles *b)
{
    for (int c = 0; c < a->dim; c++) {
        double tol = 1e-9 * (a->hi[c] - a->lo[c]);
        if (fabs(a->lo[c] - b->lo[c]) > tol || fabs(a->hi[c] - b->hi[c]) > tol)
            return 0;
    }
    return 1;
}

int hg_io_load_files(const char *paths, const hg_io_options *o,
                     hg_particles *p, hg_io_info *info, hg_err *e)
{
    hg_io_info scratch;
    info = info ? info : &scratch;
    memset(p, 0, sizeof *p);
    if (!paths)
        return hg_fail(e, HG_EINVAL, "particle file: no file name");
    /* one file, also one whose name holds a comma */
    if (!strchr(paths, ',') || access(paths, F_OK) == 0)
        return hg_io_load(paths, o, p, info, e);
    char *list = strdup(paths);
    hg_particles part[MERGE_MAX];
    hg_io_info pinfo;
    const char *name[MERGE_MAX];
    int k = 0, st = HG_OK;
    memset(part, 0, sizeof part);
    if (!list)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    for (char *sv = NULL, *t = strtok_r(list, ",", &sv); t && st == HG_OK;
         t = strtok_r(NULL, ",", &sv)) {
        if (k == MERGE_MAX) {
            st = hg_fail(e, HG_EINVAL,
                         "particle files: at most %d files of one frame "
                         "(%s)",
                         MERGE_MAX, paths);
            break;
        }
        name[k] = t;
        st = hg_io_load(t, o, &part[k], k ? &pinfo : info, e);
        if (st)
            break;
        const hg_io_info *fi = k ? &pinfo : info;
        if (k && part[k].dim != part[0].dim)
            st = hg_fail(e, HG_EPARSE,
                         "%s: %dD particles, but %s holds %dD ones: the "
                         "files of one frame share the dimension",
                         t, part[k].dim, name[0], part[0].dim);
        for (int a = 0; k && st == HG_OK && a < part[0].dim; a++)
            if (fi->boundary_stated && info->boundary_stated &&
                hg_particles_axis_periodic(&part[k], a) !=
                    hg_particles_axis_periodic(&part[0], a))
                st = hg_fail(e, HG_EPARSE,
                             "%s: its boundary along %c is %s, %s's is %s: "
                             "the files of one frame share the boundary",
                             t, 'x' + a,
                             hg_particles_axis_periodic(&part[k], a)
                                 ? "periodic" : "not periodic",
                             name[0],
                             hg_particles_axis_periodic(&part[0], a)
                                 ? "periodic" : "not periodic");
        if (k && st == HG_OK) {
            info->boundary_stated &= fi->boundary_stated;
            info->box_stated &= fi->box_stated;
            if (k == 1) {
                char first[sizeof info->kind];
                snprintf(first, sizeof first, "%s", info->kind);
                snprintf(info->kind, sizeof info->kind, "%.60s: %.90s",
                         name[0], first);
            }
            size_t kn = strlen(info->kind);
            if (kn + 1 < sizeof info->kind)
                snprintf(info->kind + kn, sizeof info->kind - kn,
                         " + %.60s: %.90s", t, fi->kind);
            if (fi->note[0]) {
                char nt[sizeof fi->note + 64];
                snprintf(nt, sizeof nt, "%s: %s", t, fi->note);
                append(info->note, sizeof info->note,
                       info->note[0] ? "; %s" : "%s", nt);
            }
        }
        k++;
    }
    if (st == HG_OK) {
        /* the joined particles in the union of the boxes */
        int d = part[0].dim, same = 1, stated = 0;
        size_t n = 0;
        for (int j = 0; j < k; j++) {
            n += part[j].n;
            same &= same_box(&part[0], &part[j]) &&
                    part[j].box_inferred == part[0].box_inferred;
            stated += !part[j].box_inferred;
        }
        /* the box: the union of the boxes the files state (grown along
         * non-periodic axes to hold the particles of files that state
         * none), else the union of the spheres' bounding boxes */
        int first = 0;
        while (stated && part[first].box_inferred)
            first++;
        double lo[3], hi[3];
        memcpy(lo, part[first].lo, sizeof lo);
        memcpy(hi, part[first].hi, sizeof hi);
        for (int j = 0; j < k; j++)
            if (!stated || !part[j].box_inferred)
                for (int c = 0; c < d; c++) {
                    lo[c] = fmin(lo[c], part[j].lo[c]);
                    hi[c] = fmax(hi[c], part[j].hi[c]);
                }
        *p = part[first];
        memset(&part[first], 0, sizeof part[first]);
        memcpy(p->lo, lo, sizeof lo);
        memcpy(p->hi, hi, sizeof hi);
        size_t had = p->n;
        double *x = realloc(p->x, (n ? n : 1) * (size_t)d * sizeof *x);
        double *r = x ? realloc(p->r, (n ? n : 1) * sizeof *r) : NULL;
        if (x)
            p->x = x;
        if (r)
            p->r = r;
        if (!x || !r)
            st = hg_fail(e, HG_ENOMEM, "out of memory");
        p->n = 0;
        for (int j = 0; j < k && st == HG_OK; j++) {
            const hg_particles *q = j == first ? NULL : &part[j];
            size_t m = q ? q->n : had;
            if (q) {
                memcpy(p->x + p->n * (size_t)d, q->x,
                       m * (size_t)d * sizeof *x);
                memcpy(p->r + p->n, q->r, m * sizeof *r);
            } else if (p->n) {
                memmove(p->x + p->n * (size_t)d, p->x,
                        m * (size_t)d * sizeof *x);
                memmove(p->r + p->n, p->r, m * sizeof *r);
            }
            p->n += m;
        }
        p->box_inferred = !stated;
        info->box_stated = stated == k;
        if (st == HG_OK)
            io_grow_box(p, info);
        char what[240];
        snprintf(what, sizeof what, "%d files of one frame joined (%zu "
                 "particles); %s", k, n,
                 same ? "their boxes agree"
                 : stated == k ? "their boxes differ: the union of the boxes "
                                 "taken"
                 : stated ? "some state no box: the union of the boxes "
                            "stated taken, grown to hold every particle"
                          : "none states a box: the bounding box of all "
                            "their spheres taken");
        append(info->note, sizeof info->note, info->note[0] ? "; %s" : "%s",
               what);
    }
    for (int j = 0; j < k; j++)
        hg_particles_clear(&part[j]);
    free(list);
    if (st)
        hg_particles_clear(p);
    return st;
}
