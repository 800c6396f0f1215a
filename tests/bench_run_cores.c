/* bench_run_cores.c - what lending the node's cores to rank 0's advice
 * (src/cli/run_cores.c) does to the count of a frame, as `hgridopt run`
 * counts each frame it advises on (600 centres), side by side in one run:
 * rank 0 counts the frame with the cores lent and on its own core, in
 * turn, the other ranks waiting asleep in both. Run under mpirun with the
 * ranks bound to a core each, or alone (the cores it may run on lent,
 * against the one OpenMP thread LAMMPS sets where OMP_NUM_THREADS is not
 * set):
 *   mpirun --bind-to core -np 2 bench_run_cores FILE... [-r ROUNDS]
 *   bench_run_cores FILE... [-r ROUNDS]
 * Prints per file: atoms, threads lent, the median seconds of each (with
 * min-max) and their ratio. */
#include "run_cores.h"

#include "hg_io.h"
#include "hg_snapshot.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <mpi.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, rounds = 9, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    run_cores c;
    run_cores_init(&c, rank, size);
    if (rank == 0 && c.lend < 2)
        printf("bench_run_cores: %d rank(s), %d thread(s) to lend: run "
               "it under mpirun on 2 ranks or more, bound to a core "
               "each, or alone on 2 cores or more without "
               "OMP_NUM_THREADS\n", size, c.lend);
#ifdef _OPENMP
    if (size < 2) /* as LAMMPS leaves OpenMP */
        omp_set_num_threads(1);
#endif
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-r") && a + 1 < argc) {
            rounds = atoi(argv[++a]);
            if (rounds < 1 || rounds > 99) {
                if (rank == 0)
                    fprintf(stderr, "bench_run_cores: -r: '%s' is not "
                            "1-99\n", argv[a]);
                bad = 1;
                break;
            }
            continue;
        }
        hg_particles p;
        memset(&p, 0, sizeof p);
        hg_err e = {0};
        int st = 0;
        double lent[99], alone[99];
        if (rank == 0) {
            hg_io_options o;
            memset(&o, 0, sizeof o);
            o.frame = -1;
            st = hg_io_load(argv[a], &o, &p, NULL, &e);
            if (st)
                fprintf(stderr, "bench_run_cores: %s: %s\n", argv[a],
                        e.msg);
        }
        MPI_Bcast(&st, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (st) {
            bad = 1;
            continue;
        }
        for (int r = 0; r < rounds; r++)
            for (int q = 0; q < 2; q++) {
                int lend = (q + r) % 2; /* alternated, the order too */
                if (rank == 0) {
                    hg_snapshot *s = NULL;
                    if (lend)
                        run_cores_lend(&c);
                    double t = MPI_Wtime();
                    st = hg_snapshot_create_sampled(&p, 600, &s, &e);
                    t = MPI_Wtime() - t;
                    run_cores_return(&c);
                    hg_snapshot_free(s);
                    if (st) {
                        fprintf(stderr, "bench_run_cores: %s: %s\n",
                                argv[a], e.msg);
                        bad = 1;
                    }
                    (lend ? lent : alone)[r] = t;
                }
                run_cores_wait(rank, size);
            }
        if (rank == 0 && !bad) {
            size_t n = (size_t)rounds;
            gsl_sort(lent, 1, n);
            gsl_sort(alone, 1, n);
            double ml = gsl_stats_median_from_sorted_data(lent, 1, n);
            double ma = gsl_stats_median_from_sorted_data(alone, 1, n);
            printf("%s: %zu atoms, %d rounds: lent (%d threads) %.4f s "
                   "(%.4f-%.4f), on rank 0's core %.4f s (%.4f-%.4f): "
                   "lent / alone %.2f\n", argv[a], p.n, rounds, c.lend, ml,
                   lent[0], lent[n - 1], ma, alone[0], alone[n - 1],
                   ml / ma);
        }
        hg_particles_clear(&p);
    }
    MPI_Finalize();
    return bad;
}
