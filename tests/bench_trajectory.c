/* bench_trajectory.c - benchmark (label bench): the whole-run advice
 * (`recommend --trajectory --engine lammps`, hg_run_advise) on large
 * trajectories, against the targets of the whole-run issue: a frame of
 * 1e6 particles read and priced in at most 1.5 s and 150 bytes per
 * particle; a trajectory of 100 frames of 1e5 particles in at most 30 s
 * (this machine: 2 cores).
 *
 * Each case writes a LAMMPS text dump (dump custom id type radius x y z,
 * %g): radii of a power law r^-3 with size ratio 8, centres uniformly
 * random at packing fraction 0.6 in the lower third of a tall box
 * (boundary pp pp ff), every atom moved along x by 1e-3 of the smallest
 * radius per step, frames 100 steps apart. A child process per case runs
 * hg_run_advise (skin chosen, every frame priced) and reports its wall
 * time and peak resident memory (getrusage); the parent prints them per
 * frame and per particle beside the targets.
 *
 * Usage: bench_trajectory [N FRAMES ...]   (default 1000000 2 100000 100)
 * Environment: BENCH_DIR (default /tmp), BENCH_KEEP=1 (keep the dumps). */
#include "hgridopt.h"
#include "testutil.h"
#include "hg_whole_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

typedef struct result {
    double seconds;
    long maxrss_kb, base_kb;
    size_t frames, priced;
    int ok;
    char msg[HG_ERRLEN];
} result;

static int write_dump(const char *path, size_t n, int frames)
{
    hg_particles p;
    double rmin;
    if (hg_test_bench_bed("bench_trajectory", n, &p, &rmin))
        return -1;
    double A = p.hi[0];
    FILE *f = fopen(path, "w");
    if (!f)
        return perror(path), -1;
    for (int k = 0; k < frames; k++) {
        fprintf(f,
                "ITEM: TIMESTEP\n%d\nITEM: NUMBER OF ATOMS\n%zu\n"
                "ITEM: BOX BOUNDS pp pp ff\n0 %.17g\n0 %.17g\n0 %.17g\n"
                "ITEM: ATOMS id type radius x y z\n",
                100 * k, n, A, A, 3.0 * A);
        double dx = 100.0 * k * 1e-3 * rmin;
        for (size_t i = 0; i < n; i++)
            fprintf(f, "%zu 1 %g %g %g %g\n", i + 1, p.r[i],
                    fmod(p.x[3 * i] + dx, A), p.x[3 * i + 1],
                    p.x[3 * i + 2]);
    }
    hg_particles_clear(&p);
    return fclose(f) == 0 ? 0 : -1;
}

static void run_child(const char *path, int fd)
{
    result r = {0};
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    r.base_kb = ru.ru_maxrss;
    hg_err e = {0};
    const char *paths[] = {path};
    hg_run_input in = {0};
    in.paths = paths;
    in.n_paths = 1;
    in.engine = hg_engine_find("lammps");
    in.max_frames = 100000;
    hg_run_advice a;
    double t0 = hg_wall_seconds();
    int st = hg_run_advise(&in, &a, &e);
    r.seconds = hg_wall_seconds() - t0;
    getrusage(RUSAGE_SELF, &ru);
    r.maxrss_kb = ru.ru_maxrss;
    r.ok = st == HG_OK;
    if (r.ok) {
        r.frames = a.frames;
        r.priced = a.measured;
        hg_run_advice_clear(&a);
    }
    snprintf(r.msg, sizeof r.msg, "%s", e.msg);
    if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(3);
    _exit(0);
}

int main(int argc, char **argv)
{
    const char *dir = getenv("BENCH_DIR") ? getenv("BENCH_DIR") : "/tmp";
    static const char *const dflt[] = {"1000000", "2", "100000", "100"};
    const char *const *args = argc > 2 ? (const char *const *)argv + 1 : dflt;
    int nargs = argc > 2 ? argc - 1 : 4;
    int fails = 0;
    printf("%10s %7s %9s %10s %11s %11s  target\n", "particles", "frames",
           "seconds", "s/frame", "MB peak", "B/particle");
    for (int c = 0; c + 1 < nargs; c += 2) {
        size_t n = strtoull(args[c], NULL, 10);
        int frames = atoi(args[c + 1]);
        char path[4096];
        snprintf(path, sizeof path, "%s/hg_bench_traj_%zu_%d.dump", dir, n,
                 frames);
        if (n < 2 || frames < 2 || write_dump(path, n, frames)) {
            fprintf(stderr, "bench_trajectory: cannot write %s\n", path);
            return 1;
        }
        result r;
        if (hg_test_in_child(run_child, path, &r, sizeof r) || !r.ok) {
            fprintf(stderr, "bench_trajectory: %zu x %d: %s\n", n, frames,
                    r.msg);
            fails++;
        } else {
            double per_frame = r.seconds / frames;
            double bpp = (r.maxrss_kb - r.base_kb) * 1024.0 / (double)n;
            char target[160] = "";
            if (n >= 1000000)
                snprintf(target, sizeof target,
                         "<= 1.5 s a frame: %s; <= 150 B a particle: %s",
                         per_frame <= 1.5 ? "met" : "NOT met",
                         bpp <= 150.0 ? "met" : "NOT met");
            else if (n >= 100000 && frames >= 100)
                snprintf(target, sizeof target, "<= 30 s: %s",
                         r.seconds <= 30.0 ? "met" : "NOT met");
            printf("%10zu %7d %9.2f %10.3f %11.1f %11.0f  %s\n", n, frames,
                   r.seconds, per_frame, r.maxrss_kb / 1024.0, bpp, target);
        }
        if (!getenv("BENCH_KEEP"))
            remove(path);
    }
    return fails ? 1 : 0;
}
