/* test_trajectory.c - every frame of a dump in one pass (hg_io_frames)
 * equals that frame read alone (hg_io_load --frame k), gzip equals plain,
 * ids and velocities are kept, other formats are refused by name. The
 * dumps are LAMMPS' own (tests/data/files/lammps/, written by lmp). */
#include "hg_io.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src_dir(void)
{
    const char *s = getenv("HG_SOURCE_DIR");
    return s ? s : ".";
}

/* Every frame of path against hg_io_load of frame k; returns the frames. */
static size_t same_as_one_by_one(const char *path)
{
    hg_err e;
    hg_io_frames *t = NULL;
    CHECK(hg_io_frames_open(path, NULL, &t, &e) == HG_OK);
    if (!t)
        return 0;
    hg_io_frame f;
    int r;
    size_t k = 0;
    while ((r = hg_io_frames_next(t, &f, &e)) == 1) {
        k++;
        CHECK(f.index == k);
        hg_io_options o = {0};
        o.frame = (long)k;
        hg_particles q;
        hg_io_info info;
        if (f.p->n == 0) { /* read alone, a frame without atoms is refused */
            CHECK(hg_io_load(path, &o, &q, &info, &e) == HG_EPARSE);
            CHECK(strstr(e.msg, "has no atoms") != NULL);
            continue;
        }
        CHECK(hg_io_load(path, &o, &q, &info, &e) == HG_OK);
        CHECK(q.n == f.p->n && q.dim == f.p->dim);
        CHECK(info.step == f.step);
        int same = q.n == f.p->n;
        for (size_t i = 0; same && i < q.n; i++) {
            same = q.r[i] == f.p->r[i];
            for (int a = 0; a < q.dim; a++)
                same = same && q.x[i * q.dim + a] == f.p->x[i * q.dim + a];
        }
        CHECK(same);
        for (int a = 0; a < 3; a++)
            CHECK(q.lo[a] == f.p->lo[a] && q.hi[a] == f.p->hi[a]);
        hg_particles_clear(&q);
    }
    if (r != 0)
        fprintf(stderr, "%s: %s\n", path, e.msg);
    CHECK(r == 0);
    hg_io_frames_free(t);
    return k;
}

/* The motion fields of every frame of path against a brute-force join of
 * consecutive frames by id. */
static void motion_brute(const char *path)
{
    hg_err e;
    hg_io_frames *t = NULL;
    CHECK(hg_io_frames_open(path, NULL, &t, &e) == HG_OK);
    hg_io_frame f;
    uint64_t *pid = NULL;
    double *px = NULL;
    size_t pn = 0;
    long long pstep = -1;
    int frames = 0, moved = 0;
    while (t && hg_io_frames_next(t, &f, &e) == 1) {
        const hg_particles *p = f.p;
        double d2max = 0.0;
        size_t m = 0;
        for (size_t i = 0; i < p->n; i++)
            for (size_t j = 0; j < pn; j++) {
                if (pid[j] != f.id[i])
                    continue;
                double d2 = 0.0;
                for (int a = 0; a < p->dim; a++) {
                    double d = p->x[i * p->dim + a] - px[j * 3 + a];
                    if (hg_particles_axis_periodic(p, a)) {
                        double L = p->hi[a] - p->lo[a];
                        d -= L * nearbyint(d / L);
                    }
                    d2 += d * d;
                }
                d2max = d2 > d2max ? d2 : d2max;
                m++;
            }
        CHECK(f.matched == m);
        if (frames == 0 || m == 0)
            CHECK(isnan(f.max_step_displacement));
        else
            CHECK_CLOSE(f.max_step_displacement,
                        sqrt(d2max) / (double)(f.step - pstep), 1e-6, 0.0);
        moved += m > 0 && f.max_step_displacement > 0.0;
        free(pid);
        free(px);
        pid = malloc((p->n ? p->n : 1) * sizeof *pid);
        px = calloc((p->n ? p->n : 1) * 3, sizeof *px);
        for (size_t i = 0; pid && px && i < p->n; i++) {
            pid[i] = f.id[i];
            for (int a = 0; a < p->dim; a++)
                px[i * 3 + a] = p->x[i * p->dim + a];
        }
        pn = p->n;
        pstep = f.step;
        frames++;
    }
    CHECK(frames > 1 && moved > 0);
    free(pid);
    free(px);
    hg_io_frames_free(t);
}

int main(void)
{
    char path[4000], gz[4096];
    snprintf(path, sizeof path, "%s/tests/data/files/lammps/pour_poly.dump",
             src_dir());
    snprintf(gz, sizeof gz, "%s.gz", path);
    size_t n = same_as_one_by_one(path);
    CHECK(n == 6);
    CHECK(same_as_one_by_one(gz) == n);
    motion_brute(path);

    /* ids as written (atoms in another order) and the frames' steps */
    snprintf(path, sizeof path,
             "%s/tests/data/files/lammps/pour_poly_reorder.dump", src_dir());
    hg_err e;
    hg_io_frames *t = NULL;
    CHECK(hg_io_frames_open(path, NULL, &t, &e) == HG_OK);
    hg_io_frame f;
    long long prev = -1;
    int frames = 0;
    while (t && hg_io_frames_next(t, &f, &e) == 1) {
        frames++;
        CHECK(f.has_id && f.id != NULL);
        CHECK(f.step > prev);
        prev = f.step;
        int distinct = 1;
        for (size_t i = 1; i < f.p->n && i < 50; i++)
            distinct = distinct && f.id[i] != f.id[i - 1];
        CHECK(distinct);
    }
    CHECK(frames == 3);
    hg_io_frames_free(t);

    /* a data file is not a trajectory: refused, naming its format */
    snprintf(path, sizeof path, "%s/tests/data/files/lammps/pour_poly.data",
             src_dir());
    t = NULL;
    CHECK(hg_io_frames_open(path, NULL, &t, &e) == HG_EINVAL && !t);
    CHECK(strstr(e.msg, "lammps") != NULL);
    CHECK(hg_io_frames_open("/nonexistent.dump", NULL, &t, &e) != HG_OK);
    hg_io_frames_free(NULL);
    return hg_test_summary("test_trajectory");
}
