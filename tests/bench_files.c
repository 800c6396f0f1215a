/* bench_files.c - benchmark (label bench): reading and measuring a
 * particle file as `recommend --packing` does, at growing N.
 *
 * For each N it writes a LAMMPS text dump (dump custom id type radius x y
 * z, LAMMPS' %g), radii of a power law r^-3 with size ratio 8, centres
 * uniformly random at packing fraction 0.6 in the lower third of a tall
 * box (boundary pp pp ff: a bed under free space), in random order (the
 * worst case for memory locality; LAMMPS' own dumps come sorted by bins).
 * A child process per N then reads it (hg_io_load), builds its size
 * distribution (hg_io_system_from_particles) and measures its pair
 * statistics (hg_snapshot_create); the child's peak resident memory
 * (getrusage) and the wall time of each phase are printed, with the time
 * and memory per particle.
 *
 * Usage: bench_files [N ...]   (default 1e5 1e6 1e7)
 * Environment: BENCH_DIR (where the dumps go, default /tmp),
 * BENCH_GZIP=1 (also time the gzip-compressed dump, written with zlib),
 * BENCH_KEEP=1 (keep the dumps). */
#include "hgridopt.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

typedef struct result {
    double read, psd, snap, total;
    long maxrss_kb;
    int ok;
    char msg[HG_ERRLEN];
} result;

static int write_dump(const char *path, size_t n, int gz)
{
    hg_particles p;
    if (hg_test_bench_bed("bench_files", n, &p, NULL))
        return -1;
    double A = p.hi[0];
    FILE *f = gz ? NULL : fopen(path, "w");
    gzFile z = gz ? gzopen(path, "wb6") : NULL;
    if (!f && !z)
        return perror(path), -1;
    char line[256];
    int k = snprintf(line, sizeof line,
                     "ITEM: TIMESTEP\n1000\nITEM: NUMBER OF ATOMS\n%zu\n"
                     "ITEM: BOX BOUNDS pp pp ff\n0 %.17g\n0 %.17g\n0 %.17g\n"
                     "ITEM: ATOMS id type radius x y z\n",
                     n, A, A, 3.0 * A);
    gz ? (void)gzwrite(z, line, (unsigned)k) : (void)fwrite(line, 1, (size_t)k, f);
    for (size_t i = 0; i < n; i++) {
        const double *x = &p.x[3 * i];
        k = snprintf(line, sizeof line, "%zu 1 %g %g %g %g\n", i + 1, p.r[i],
                     x[0], x[1], x[2]);
        gz ? (void)gzwrite(z, line, (unsigned)k)
           : (void)fwrite(line, 1, (size_t)k, f);
    }
    int bad = gz ? gzclose(z) != Z_OK : fclose(f) != 0;
    hg_particles_clear(&p);
    return bad ? -1 : 0;
}

static void run_child(const char *path, int fd)
{
    result r = {0};
    hg_err e = {0};
    double t0 = hg_wall_seconds();
    hg_particles p;
    hg_io_info info;
    int st = hg_io_load(path, NULL, &p, &info, &e);
    double t1 = hg_wall_seconds();
    hg_psd *psd = NULL;
    hg_system sys = {0};
    hg_snapshot *snap = NULL;
    if (!st)
        st = hg_io_system_from_particles(&p, &psd, &sys, &e);
    double t2 = hg_wall_seconds();
    if (!st)
        st = hg_snapshot_create(&p, &snap, &e);
    double t3 = hg_wall_seconds();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    r.read = t1 - t0;
    r.psd = t2 - t1;
    r.snap = t3 - t2;
    r.total = t3 - t0;
    r.maxrss_kb = ru.ru_maxrss;
    r.ok = st == HG_OK;
    snprintf(r.msg, sizeof r.msg, "%s", e.msg);
    if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(3);
    hg_snapshot_free(snap);
    hg_psd_free(psd);
    hg_particles_clear(&p);
    _exit(0);
}

int main(int argc, char **argv)
{
    const char *dir = getenv("BENCH_DIR") ? getenv("BENCH_DIR") : "/tmp";
    int gz = getenv("BENCH_GZIP") && !strcmp(getenv("BENCH_GZIP"), "1");
    int keep = getenv("BENCH_KEEP") && !strcmp(getenv("BENCH_KEEP"), "1");
    double dflt[3] = {1e5, 1e6, 1e7};
    int nn = argc > 1 ? argc - 1 : 3;
    printf("reading and measuring a LAMMPS dump (recommend --packing): "
           "power law r^-3, size ratio 8, nu 0.6 bed in a tall box\n");
    printf("%10s %5s %9s %8s %8s %8s %8s %9s %8s %10s\n", "N", "gzip",
           "file MB", "read s", "psd s", "pairs s", "total s", "peak MB",
           "us/part", "bytes/part");
    int fails = 0;
    for (int a = 0; a < nn; a++) {
        double v = argc > 1 ? atof(argv[a + 1]) : dflt[a];
        if (!(v >= 10 && v <= 1e9)) {
            fprintf(stderr, "bench_files: N '%s' not in [10, 1e9]\n",
                    argv[a + 1]);
            return 2;
        }
        size_t n = (size_t)v;
        for (int z = 0; z <= gz; z++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/hg_bench_files_%zu.dump%s", dir,
                     n, z ? ".gz" : "");
            if (write_dump(path, n, z)) {
                fprintf(stderr, "bench_files: cannot write %s\n", path);
                return 1;
            }
            FILE *f = fopen(path, "rb");
            double mb = 0.0;
            if (f) {
                fseek(f, 0, SEEK_END);
                mb = (double)ftell(f) / 1e6;
                fclose(f);
            }
            result r;
            if (hg_test_in_child(run_child, path, &r, sizeof r) || !r.ok) {
                fprintf(stderr, "bench_files: N = %zu failed: %s\n", n,
                        r.msg);
                fails++;
            } else {
                printf("%10zu %5s %9.1f %8.3f %8.3f %8.3f %8.3f %9.1f %8.3f "
                       "%10.1f\n",
                       n, z ? "yes" : "no", mb, r.read, r.psd, r.snap,
                       r.total, r.maxrss_kb / 1024.0,
                       1e6 * r.total / (double)n,
                       1024.0 * (double)r.maxrss_kb / (double)n);
                fflush(stdout);
            }
            if (!keep)
                unlink(path);
        }
    }
    return fails ? 1 : 0;
}
