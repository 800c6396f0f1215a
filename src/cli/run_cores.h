/* run_cores.h - `hgridopt run` on many ranks: while rank 0 advises, the
 * other ranks of its node wait asleep and their cores count rank 0's
 * frame (run_cores.c). mpirun binds each rank to its core, so rank 0
 * alone would count on one core while the others spin in MPI. A rank
 * alone counts on the cores it may run on. Built with run_lammps.c
 * (HG_HAVE_LAMMPS). */
#ifndef HG_CLI_RUN_CORES_H
#define HG_CLI_RUN_CORES_H

#include <sched.h>

/* threads whose own cores are put back after an advice (more: rank 0's) */
#define RUN_CORES_MAX 256

typedef struct run_cores {
    int lend;          /* rank 0: threads the advice may run (1: none
                          lent: no more cores, or a rank alone with
                          OMP_NUM_THREADS set) */
    int threads_before; /* rank 0: OpenMP's threads before the advice */
    cpu_set_t own;     /* rank 0: its cores, read at each lend */
    cpu_set_t node;    /* rank 0: the cores of the ranks on its node */
    int lent;          /* rank 0: the cores are lent now */
    cpu_set_t saved[RUN_CORES_MAX]; /* rank 0: each thread's cores before */
} run_cores;

/* Collective over MPI_COMM_WORLD: the cores of the ranks on rank 0's node
 * (their affinity masks, or-ed) and the threads an advice may use there
 * (one a core, where they are more than rank 0's own; a rank alone: one
 * a core of its own mask, unless OMP_NUM_THREADS is set). */
void run_cores_init(run_cores *c, int rank, int size);

/* Rank 0, around an advice: its thread and OpenMP's on the node's cores,
 * then back on theirs. No-ops where none are lent. */
void run_cores_lend(run_cores *c);
void run_cores_return(run_cores *c);

/* Collective: every rank waits here for rank 0's advice asleep (polling
 * a barrier every 0.1 ms) instead of spinning in MPI. */
void run_cores_wait(int rank, int size);

#endif
