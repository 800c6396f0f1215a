/* io_vtk_box.c - the box file LIGGGHTS or LPP writes beside a VTK frame
 * (io_vtk_box, io_vtk_xml_box read it): found by the frame's name, its
 * box given to the frame. */
#include "io_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The box file LIGGGHTS (dump custom/vtk: "boundingBox_" where the
 * file name's '*' stood) or LPP ("_boundingBox" after the step) writes
 * beside a VTK frame: read into lo, hi. 0 when there is none. */
static int sibling_box(const char *path, int xml, double lo[3],
                       double hi[3], char *found, size_t flen)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t stem = dot ? (size_t)(dot - base) : strlen(base);
    size_t dir = (size_t)(base - path);
    /* the last run of digits of the stem: the step */
    size_t d1 = stem;
    while (d1 > 0 && !isdigit((unsigned char)base[d1 - 1]))
        d1--;
    size_t d0 = d1;
    while (d0 > 0 && isdigit((unsigned char)base[d0 - 1]))
        d0--;
    char cand[2][4400];
    int nc = 0;
    if (d1 > d0)
        snprintf(cand[nc++], sizeof cand[0], "%.*s%.*sboundingBox_%.*s%s",
                 (int)dir, path, (int)d0, base, (int)(stem - d0), base + d0,
                 xml ? ".vtr" : ".vtk");
    snprintf(cand[nc++], sizeof cand[0], "%.*s%.*s_boundingBox.vtk",
             (int)dir, path, (int)stem, base);
    for (int k = 0; k < nc; k++) {
        io_stream *s = NULL;
        if (access(cand[k], R_OK) || io_stream_open(&s, cand[k], NULL))
            continue;
        io_text t = {0};
        int st = io_stream_slurp(s, &t.buf, &t.len, NULL);
        t.name = cand[k];
        io_stream_close(s);
        if (st)
            continue;
        const char *c = t.buf;
        while (isspace((unsigned char)*c))
            c++;
        st = *c == '<' ? io_vtk_xml_box(&t, lo, hi, NULL)
                       : io_vtk_box(&t, lo, hi, NULL);
        free(t.buf);
        if (st == HG_OK) {
            snprintf(found, flen, "%s", cand[k]);
            return 1;
        }
    }
    return 0;
}

void io_vtk_take_box(const char *path, int xml, hg_particles *p,
                     hg_io_info *info)
{
    double lo[3], hi[3];
    char found[9000];
    if (!sibling_box(path, xml, lo, hi, found, sizeof found))
        return;
    int d = p->dim;
    for (int a = 0; a < d; a++)
        if (!(hi[a] > lo[a]))
            return;
    for (int a = 0; a < d; a++) {
        p->lo[a] = lo[a];
        p->hi[a] = hi[a];
        double len = hi[a] - lo[a];
        for (size_t i = 0; i < p->n; i++) {
            double *x = &p->x[i * (size_t)d + (size_t)a];
            if (*x < lo[a] || *x >= hi[a]) {
                *x -= floor((*x - lo[a]) / len) * len;
                if (*x < lo[a] || *x >= hi[a])
                    *x = lo[a];
            }
        }
    }
    p->box_inferred = 0;
    p->periodic = 1;
    memset(p->boundary, 0, sizeof p->boundary);
    info->box_stated = 1;
    const char *b = strrchr(found, '/');
    io_info_note(info, "box from %s", b ? b + 1 : found);
}
