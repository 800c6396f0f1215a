/* test_run_cores.c - `hgridopt run`'s cores lent to rank 0's advice
 * (src/cli/run_cores.c), under mpirun -np 2 bound to a core each (CTest
 * runs it so; each rank is also checked alone, and alone with
 * OMP_NUM_THREADS set). Checks: rank 0 learns the node's two cores and
 * lends them (two OpenMP threads on both, its own core back after, for
 * its threads too); a rank alone lends the cores it may run on, from the
 * one thread LAMMPS sets, but not where OMP_NUM_THREADS is set (LAMMPS
 * keeps those threads); a rank that waits for rank 0 sleeps (its CPU
 * time over a 0.3 s wait stays under a fifth of it, where MPI_Barrier
 * spins the whole wait); without a second core nothing is lent. */
#include "run_cores.h"
#include "testutil.h"

#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* rank 0 busy for s seconds of wall time, the others waiting for it by
 * wait(); the waiters' CPU seconds over it */
static double waiters_cpu(int rank, int size, double s, int asleep)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double c0 = cpu_now();
    if (rank == 0) {
        double t0 = MPI_Wtime();
        while (MPI_Wtime() - t0 < s)
            ;
    }
    if (asleep)
        run_cores_wait(rank, size);
    else
        MPI_Barrier(MPI_COMM_WORLD);
    double used = rank ? cpu_now() - c0 : 0.0, most = 0.0;
    MPI_Allreduce(&used, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return most;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    cpu_set_t mine;
    CPU_ZERO(&mine);
    sched_getaffinity(0, sizeof mine, &mine);
    run_cores c;
    run_cores_init(&c, rank, size);
    /* the cores bound to the ranks, or-ed on rank 0 */
    cpu_set_t all;
    CPU_ZERO(&all);
    MPI_Reduce(&mine, &all, (int)sizeof mine, MPI_BYTE, MPI_BOR, 0,
               MPI_COMM_WORLD);
    if (rank == 0) {
        /* lent: the cores of the others, or alone those of its own
         * mask unless OMP_NUM_THREADS is set */
        int user = getenv("OMP_NUM_THREADS") != NULL;
        int more = size > 1 ? CPU_COUNT(&all) > CPU_COUNT(&mine)
                            : !user && CPU_COUNT(&mine) > 1;
        printf("test_run_cores: %d rank(s), rank 0 on %d core(s), the "
               "ranks on %d%s: %d thread(s) lent\n", size,
               CPU_COUNT(&mine), CPU_COUNT(&all),
               user ? ", OMP_NUM_THREADS set" : "", c.lend);
        CHECK(c.lend == (more ? CPU_COUNT(&all) : 1));
        CHECK((size < 2 && !more) || CPU_EQUAL(&c.node, &all));
        /* as LAMMPS leaves OpenMP where OMP_NUM_THREADS is not set */
        if (!user)
            omp_set_num_threads(1);
        int before = omp_get_max_threads();
        run_cores_lend(&c);
        cpu_set_t now;
        CPU_ZERO(&now);
        sched_getaffinity(0, sizeof now, &now);
        CHECK(CPU_EQUAL(&now, more ? &all : &mine));
        CHECK(omp_get_max_threads() == (more ? c.lend : before));
        int threads = 0, wide = 0;
#pragma omp parallel reduction(+ : threads, wide)
        {
            cpu_set_t t;
            CPU_ZERO(&t);
            sched_getaffinity(0, sizeof t, &t);
            threads += 1;
            wide += CPU_EQUAL(&t, &all);
        }
        if (more)
            CHECK(threads == c.lend && wide == c.lend);
        run_cores_return(&c);
        CPU_ZERO(&now);
        sched_getaffinity(0, sizeof now, &now);
        CHECK(CPU_EQUAL(&now, &mine));
        /* OpenMP's threads, started while lent, back on rank 0's cores */
        int back = 0;
#pragma omp parallel num_threads(c.lend) reduction(+ : back)
        {
            cpu_set_t t;
            CPU_ZERO(&t);
            sched_getaffinity(0, sizeof t, &t);
            back += CPU_EQUAL(&t, &mine);
        }
        CHECK(back == c.lend);
        CHECK(omp_get_max_threads() == before);
        run_cores_return(&c); /* twice: a no-op */
        CHECK(omp_get_max_threads() == before);
    }
    if (size > 1) {
        double spun = waiters_cpu(rank, size, 0.3, 0);
        double slept = waiters_cpu(rank, size, 0.3, 1);
        if (rank == 0)
            printf("test_run_cores: the waiting ranks' CPU over rank 0's "
                   "0.3 s: %.3f s in MPI_Barrier, %.3f s asleep\n", spun,
                   slept);
        CHECK(slept < 0.06);
    } else {
        run_cores_wait(rank, size); /* alone: returns */
    }
    int all_failures = 0;
    MPI_Allreduce(&hg_test_failures, &all_failures, 1, MPI_INT, MPI_SUM,
                  MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0)
        printf("test_run_cores: %s\n", all_failures ? "FAILED" : "ok");
    return all_failures ? 1 : 0;
}
