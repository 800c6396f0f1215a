/* io_trajectory.c - every frame of a LAMMPS/LIGGGHTS dump in one pass
 * (hg_io_frames): each frame's header and atoms parsed with the dump
 * reader's own functions, ids and velocities kept beside the particles. */
#include "io_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hg_io_frames {
    io_stream *s;
    io_dump_read_opts ro;
    io_dump_atoms A;
    hg_particles p;
    hg_io_info info;
    size_t index;
};

void hg_io_frames_free(hg_io_frames *t)
{
    if (!t)
        return;
    io_stream_close(t->s);
    io_dump_atoms_free(&t->A);
    hg_particles_clear(&t->p);
    free(t);
}

/* The stream is a dump, or an error naming what it is. */
static int check_dump(io_stream *s, const hg_io_options *o, const char *path,
                      hg_err *e)
{
    const char *h;
    size_t n;
    int st = io_stream_peek(s, 1 << 16, &h, &n, e);
    if (st)
        return st;
    if (n == 0)
        return hg_fail(e, HG_EPARSE, "%s: empty file", io_stream_name(s));
    hg_io_format fmt = o->format;
    if (fmt == HG_IO_AUTO)
        fmt = io_sniff(h, n);
    if (fmt == HG_IO_AUTO && path)
        (void)hg_io_format_from_path(path, &fmt, NULL);
    if (fmt != HG_IO_DUMP)
        return hg_fail(e, HG_EINVAL,
                       "%s: a trajectory is read from a LAMMPS or LIGGGHTS "
                       "dump; this file is %s",
                       io_stream_name(s),
                       fmt == HG_IO_AUTO ? "of no format known"
                                         : hg_io_format_name(fmt));
    return HG_OK;
}

int hg_io_frames_open(const char *path, const hg_io_options *o,
                      hg_io_frames **out, hg_err *e)
{
    static const hg_io_options dflt;
    o = o ? o : &dflt;
    *out = NULL;
    if (!path)
        return hg_fail(e, HG_EINVAL, "trajectory: no file name");
    hg_io_frames *t = calloc(1, sizeof *t);
    if (!t)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    int st = io_stream_open(&t->s, path, e);
    if (!st)
        st = check_dump(t->s, o, strcmp(path, "-") ? path : NULL, e);
    if (st) {
        hg_io_frames_free(t);
        return st;
    }
    t->ro = (io_dump_read_opts){o->type_radius, o->n_types,
                                io_stream_raw_size(t->s), o->progress,
                                o->progress_params};
    t->A.want_id = 1;
    t->A.want_v = 1;
    *out = t;
    return HG_OK;
}

int hg_io_frames_next(hg_io_frames *t, hg_io_frame *out, hg_err *e)
{
    io_dump_frame f;
    int r = io_dump_next(t->s, &f, e);
    if (r <= 0)
        return r;
    int st = io_dump_read(t->s, &f, &t->ro, &t->A, e);
    if (st)
        return st;
    hg_particles_clear(&t->p);
    memset(&t->info, 0, sizeof t->info);
    t->info.frame = ++t->index;
    t->info.step = f.step;
    t->info.time = f.time;
    t->info.compressed = io_stream_compressed(t->s);
    if (t->A.n == 0) { /* a frame before the first atom came in */
        t->p.dim = f.cols.n && f.cols.x[2] < 0 ? 2 : 3;
        for (int a = 0; a < t->p.dim; a++) {
            t->p.lo[a] = f.lo[a];
            t->p.hi[a] = f.hi[a];
        }
    } else if ((st = io_dump_finish(t->s, &f, &t->A, &t->p, &t->info, e))) {
        return st;
    }
    memset(out, 0, sizeof *out);
    out->p = &t->p;
    out->id = t->A.id;
    out->has_id = t->A.has_id;
    out->v = t->A.has_v ? t->A.v : NULL;
    out->step = f.step;
    out->time = f.time;
    out->index = t->index;
    out->info = &t->info;
    return 1;
}
