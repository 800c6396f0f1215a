/* io_frames.c - files of several frames (LAMMPS/LIGGGHTS dumps,
 * MercuryDPM .data): which frame to read (hg_io_options.frame, by_step)
 * and reading it, for any format that can find, skip and parse a frame
 * (io_frame_ops). Files are counted on a first pass that only skips atom
 * lines, then the frame wanted is read; standard input, which cannot be
 * read twice, is parsed frame by frame keeping the last. */
#include "io_internal.h"

#include <stdlib.h>
#include <string.h>

/* Frames of a multi-frame file, as located on a first pass. */
typedef struct frame_mark {
    io_stream_mark mark;
    long long step;
} frame_mark;

static int push_mark(frame_mark **v, size_t *n, size_t *cap,
                     io_stream_mark m, long long step, hg_err *e)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        frame_mark *nv = realloc(*v, nc * sizeof *nv);
        if (!nv)
            return hg_fail(e, HG_ENOMEM, "out of memory");
        *v = nv;
        *cap = nc;
    }
    (*v)[*n].mark = m;
    (*v)[(*n)++].step = step;
    return HG_OK;
}

static void frame_note(const io_dump_frame *f, size_t index, size_t count,
                       hg_io_info *info)
{
    info->frame = index;
    info->frames = count;
    info->step = f->step;
    info->time = f->time;
}


int io_frames_select(io_stream *s, const hg_io_options *o, uint64_t size,
                     const io_frame_ops *ops, io_dump_frame *out,
                     io_dump_atoms *A, hg_io_info *info, hg_err *e)
{
    const char *name = io_stream_name(s);
    io_dump_frame f;
    io_dump_read_opts ro = {o->type_radius, o->n_types, size, o->progress,
                            o->progress_params};
    frame_mark *marks = NULL;
    size_t nmarks = 0, cap = 0, idx = 0;
    int st = HG_OK, r = 0, found = 0;
    long k = o->frame;
    if (o->by_step && !ops->has_steps)
        return hg_fail(e, HG_EINVAL,
                       "%s: --frame step=%lld, but a %s has no timesteps "
                       "(give the frame's number)",
                       name, o->step, ops->what);
    if (o->by_step || k > 0) {
        /* forward to the frame wanted */
        while ((r = ops->next(s, &f, e)) == 1) {
            idx++;
            if (o->by_step ? f.step == o->step : idx == (size_t)k) {
                st = ops->read(s, &f, &ro, A, e);
                found = 1;
                break;
            }
            if ((st = push_mark(&marks, &nmarks, &cap, f.mark, f.step, e)) ||
                (st = ops->skip(s, &f, e)))
                break;
            if (o->progress)
                o->progress("reading", io_stream_fraction(s),
                            o->progress_params);
        }
        if (r < 0)
            st = r;
        if (!st && !found) {
            if (o->by_step)
                st = hg_fail(e, HG_EPARSE,
                             "%s: no frame of timestep %lld (%zu frames, "
                             "timesteps %lld .. %lld)",
                             name, o->step, idx, nmarks ? marks[0].step : -1,
                             nmarks ? marks[nmarks - 1].step : -1);
            else
                st = hg_fail(e, HG_EPARSE,
                             "%s: --frame %ld, but the file has %zu frame%s",
                             name, k, idx, idx == 1 ? "" : "s");
        }
        if (!st)
            frame_note(&f, idx, 0, info);
    } else if (io_stream_can_rewind(s)) {
        /* count the frames, then read the one wanted */
        while ((r = ops->next(s, &f, e)) == 1) {
            if ((st = push_mark(&marks, &nmarks, &cap, f.mark, f.step, e)) ||
                (st = ops->skip(s, &f, e)))
                break;
            if (o->progress)
                o->progress("reading", 0.5 * io_stream_fraction(s),
                            o->progress_params);
        }
        if (r < 0)
            st = r;
        size_t back = k < -1 ? (size_t)(-k) : 1;
        if (!st && nmarks == 0)
            st = hg_fail(e, HG_EPARSE, "%s: a %s without frames", name, ops->what);
        else if (!st && back > nmarks)
            st = hg_fail(e, HG_EPARSE,
                         "%s: --frame %ld, but the file has %zu frame%s",
                         name, k, nmarks, nmarks == 1 ? "" : "s");
        if (!st) {
            idx = nmarks - back + 1;
            if ((st = io_stream_seek(s, marks[idx - 1].mark, e)) == HG_OK) {
                r = ops->next(s, &f, e);
                st = r < 0   ? r
                     : r == 0 ? hg_fail(e, HG_EIO, "%s: changed while being "
                                                   "read",
                                        name)
                              : ops->read(s, &f, &ro, A, e);
            }
            if (!st)
                frame_note(&f, idx, nmarks, info);
        }
    } else {
        /* standard input: every frame parsed, the last kept */
        if (k < -1)
            st = hg_fail(e, HG_EINVAL,
                         "%s: --frame %ld counts from the end, which "
                         "standard input cannot do (give the file)",
                         name, k);
        io_dump_frame g;
        while (!st && (r = ops->next(s, &g, e)) == 1) {
            if ((st = ops->read(s, &g, &ro, A, e)))
                break;
            f = g;
            idx++;
        }
        if (!st && r < 0)
            st = r;
        if (!st && idx == 0)
            st = hg_fail(e, HG_EPARSE, "%s: a %s without frames", name, ops->what);
        if (!st)
            frame_note(&f, idx, idx, info);
    }
    free(marks);
    if (!st)
        *out = f;
    return st;
}

