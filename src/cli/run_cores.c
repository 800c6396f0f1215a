/* run_cores.c - the node's cores lent to rank 0's advice (run_cores.h).
 * The advice's frame count (hg_snapshot) runs its chunks of particles on
 * OpenMP's threads; under mpirun rank 0 is bound to one core and OpenMP
 * starts one thread, while the other ranks busy-wait in MPI for its
 * decision. Here they wait asleep, and rank 0 widens its own affinity and
 * its threads' to the cores the ranks of its node were bound to for the
 * length of the advice. A rank alone lends the cores it may run on to
 * its own advice, which LAMMPS' one OpenMP thread would leave idle. */
#ifdef HG_HAVE_LAMMPS

#include "run_cores.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void run_cores_init(run_cores *c, int rank, int size)
{
    memset(c, 0, sizeof *c);
    c->lend = 1;
    cpu_set_t mine;
    CPU_ZERO(&mine);
    if (sched_getaffinity(0, sizeof mine, &mine))
        CPU_ZERO(&mine); /* not known: lends nothing */
    if (size < 2) {
#ifdef _OPENMP
        /* a rank alone: LAMMPS sets OpenMP to one thread where
         * OMP_NUM_THREADS is not set, and the rest of the process's
         * cores idle while it waits for the advice; where it is set,
         * LAMMPS keeps the user's threads and the count runs on them */
        if (!getenv("OMP_NUM_THREADS") && CPU_COUNT(&mine) > 1) {
            c->node = mine;
            c->lend = CPU_COUNT(&mine);
        }
#endif
        return;
    }
    /* the ranks that share rank 0's memory (key 0: in their world order,
     * so rank 0 is the node's first) */
    MPI_Comm node;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                            MPI_INFO_NULL, &node) != MPI_SUCCESS)
        return;
    cpu_set_t all;
    CPU_ZERO(&all);
    MPI_Reduce(&mine, &all, (int)sizeof mine, MPI_BYTE, MPI_BOR, 0, node);
    MPI_Comm_free(&node);
    if (rank != 0)
        return;
    c->node = all;
#ifdef _OPENMP
    /* a thread a core: ranks bound to several cores each (LAMMPS' own
     * threads) lend them all */
    int cores = CPU_COUNT(&all);
    if (CPU_COUNT(&mine) > 0 && cores > CPU_COUNT(&mine))
        c->lend = cores;
#endif
}

void run_cores_lend(run_cores *c)
{
#ifdef _OPENMP
    if (c->lend < 2 || c->lent)
        return;
    /* as they are now: LAMMPS' own threads (package omp) may have set
     * them since the start */
    c->threads_before = omp_get_max_threads();
    if (sched_getaffinity(0, sizeof c->own, &c->own) ||
        sched_setaffinity(0, sizeof c->node, &c->node))
        return;
    omp_set_num_threads(c->lend);
    /* OpenMP's threads keep the mask they were started with: each sets
     * its own (a pool started while rank 0 was bound stays on its core),
     * kept to be put back (LAMMPS' own threads may be pinned) */
#pragma omp parallel num_threads(c->lend)
    {
        /* a thread started here has the node's cores already: rank 0's
         * are its own */
        int k = omp_get_thread_num();
        if (k < RUN_CORES_MAX &&
            (sched_getaffinity(0, sizeof c->saved[k], &c->saved[k]) ||
             CPU_EQUAL(&c->saved[k], &c->node)))
            c->saved[k] = c->own;
        sched_setaffinity(0, sizeof c->node, &c->node);
    }
    c->lent = 1;
#else
    (void)c;
#endif
}

void run_cores_return(run_cores *c)
{
#ifdef _OPENMP
    if (!c->lent)
        return;
#pragma omp parallel num_threads(c->lend)
    {
        int k = omp_get_thread_num();
        const cpu_set_t *m = k < RUN_CORES_MAX ? &c->saved[k] : &c->own;
        sched_setaffinity(0, sizeof *m, m);
    }
    omp_set_num_threads(c->threads_before > 0 ? c->threads_before : 1);
    sched_setaffinity(0, sizeof c->own, &c->own);
    c->lent = 0;
#else
    (void)c;
#endif
}

void run_cores_wait(int rank, int size)
{
    if (size < 2)
        return;
    MPI_Request rq;
    if (MPI_Ibarrier(MPI_COMM_WORLD, &rq) != MPI_SUCCESS) {
        MPI_Barrier(MPI_COMM_WORLD);
        return;
    }
    const struct timespec nap = {0, 100000};
    for (int done = 0;;) {
        if (MPI_Test(&rq, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
            break;
        }
        if (done)
            break;
        if (rank != 0)
            nanosleep(&nap, NULL);
    }
}

#endif
