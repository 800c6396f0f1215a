/* hg_pack_gen.h - non-overlapping packing generators: random sequential
 * addition (rsa) and dense packings by overlap removal (dense).
 *
 * Both have the plain hg_pack_fn form (hg_pack_rsa, hg_pack_dense: default
 * options, no report) and a _run form taking options (progress callback,
 * limits) and filling a report. Radii come from systematic sampling of the
 * quantile function (hg_psd_sample_systematic with prm->seed); the box is
 * the cube [0, A]^d with A chosen so that the n sampled radii fill the
 * target fraction prm->nu exactly: A = (V_d sum r_i^d / nu)^(1/d).
 * prm->periodic = 1: periodic box; 0: walls, every sphere lies inside the
 * box (x - r >= 0, x + r <= A on every axis).
 * The output is the same for the same (psd, params, options except the
 * progress callback, seed), whatever the number of threads.
 */
#ifndef HG_PACK_GEN_H
#define HG_PACK_GEN_H

#include <stddef.h>
#include "hg_pack.h"
#include "hg_system.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Progress: stage is a short static text ("rsa", "relax nu=0.45", ...),
 * fraction in [0, 1] is the share of the whole run done so far. */
typedef void (*hg_pack_progress_fn)(const char *stage, double fraction,
                                    void *params);

typedef struct hg_pack_options {
    /* rsa: random positions tried per particle before it is dropped */
    size_t max_attempts;     /* default 2000 */
    /* rsa: placement has stalled after this many particles in a row were
     * dropped; the run stops there */
    size_t max_dropped;      /* default 50 */
    /* dense: stop when every overlap r_i + r_j - d_ij is below
     * overlap_tol * min(r_i, r_j) */
    double overlap_tol;      /* default 0.01 */
    /* dense: fraction at which the growth starts (an RSA packing of the
     * radii scaled down to it), and the growth step in nu */
    double start_nu;         /* default 0.25 (never above the target) */
    double nu_step;          /* default 0.05 */
    /* dense: relaxation sweeps allowed per growth step */
    size_t max_sweeps;       /* default 20000 */
    hg_pack_progress_fn progress; /* may be NULL */
    void *progress_params;
} hg_pack_options;

/* Fill o with the defaults above. */
void hg_pack_options_init(hg_pack_options *o);

typedef struct hg_pack_report {
    size_t requested;   /* prm->n */
    size_t placed;      /* particles in the output (rsa may drop some) */
    double target_nu;
    double nu;          /* packing fraction of the output */
    int reached;        /* 1: all particles placed and (dense) overlaps
                           within tolerance */
    double max_overlap; /* largest (r_i + r_j - d_ij) / min(r_i, r_j) over
                           overlapping pairs, 0 if none */
    size_t attempts;    /* rsa: positions tried (dense: of its start) */
    size_t sweeps;      /* dense: relaxation sweeps in total */
    size_t rebuilds;    /* dense: neighbour-list rebuilds */
    double seconds;     /* wall-clock time */
} hg_pack_report;

/* Random sequential addition, largest particles first: each particle is
 * tried at up to max_attempts uniformly random positions and placed at the
 * first one where it overlaps nobody (overlap test by the bundled HGrid's
 * neighbour query); otherwise it is dropped. Stops when all particles are
 * placed (nu = target) or when max_dropped particles in a row were dropped
 * (stalled; nu below the target, fewer particles). Particles are output in
 * placement order (non-increasing radius). opt and rep may be NULL. */
int hg_pack_rsa_run(const hg_psd *psd, const hg_pack_params *prm,
                    const hg_pack_options *opt, hg_particles *out,
                    hg_pack_report *rep, hg_err *e);
int hg_pack_rsa(const hg_psd *psd, const hg_pack_params *prm,
                hg_particles *out, hg_err *e);

/* Dense packing, all n particles kept:
 *  1. RSA at the target radii with 200 attempts per particle. Wide
 *     distributions are done here (no overlap at all). A particle finding
 *     no free spot is put at the best of 32 more random positions (smallest
 *     largest overlap).
 *  2. If the RSA stalled instead (max_dropped drops in a row: narrow
 *     distributions), restart from an RSA packing of the radii scaled down
 *     to start_nu, and grow the radii in steps of nu_step to the target.
 *  3. After each step, overlaps are removed by Gauss-Seidel projection on
 *     the soft-sphere energy E = 1/2 sum_pairs delta_ij^2: each overlapping
 *     pair is pushed apart along its normal, the two moving in inverse
 *     proportion to their volumes (over-relaxed), with Verlet lists from the
 *     bundled HGrid (skin = the smallest radius), until every overlap
 *     delta_ij is below overlap_tol * min(r_i, r_j).
 * Returns HG_OK also when the tolerance was not met within max_sweeps per
 * step: check rep->reached and rep->max_overlap. When growing, a step whose
 * relaxation jams (the largest overlap falls by less than 2 % over 500
 * sweeps) ends the run at the previous step: rep->reached = 0 and rep->nu
 * is the fraction reached. opt->max_attempts is not used. opt and rep may
 * be NULL. */
int hg_pack_dense_run(const hg_psd *psd, const hg_pack_params *prm,
                      const hg_pack_options *opt, hg_particles *out,
                      hg_pack_report *rep, hg_err *e);
int hg_pack_dense(const hg_psd *psd, const hg_pack_params *prm,
                  hg_particles *out, hg_err *e);

/* Rough peak memory in bytes of generating n particles with generator
 * "poisson", "rsa" or "dense" (measured at n = 2e5, 3D: about 30, 140 and
 * 230 bytes per particle; returned with a margin: 64, 192, 320), plus the
 * RSA grid's cell table (bounded at about 16 cells a particle, 8 bytes
 * each, whatever the size ratio) and the particle file written. NaN for
 * an unknown generator. Measured peaks at n = 1e5, 3D, nu = 0.6: 27 MB
 * (alpha = -3, omega = 100), 31 MB (alpha = 0, omega = 100) against the
 * estimate of 65 MB. */
double hg_pack_memory_estimate(const char *generator, int dim, size_t n);

/* Largest relative overlap (r_i + r_j - d_ij) / min(r_i, r_j) of p (0 if
 * no pair overlaps), found with the bundled HGrid. */
int hg_pack_max_overlap(const hg_particles *p, double *max_overlap,
                        hg_err *e);

/* The generator that gives a packing of structure s at prm->nu, and why:
 * "poisson" for HG_STRUCTURE_POISSON; for hard spheres "rsa" up to the
 * fraction where random sequential addition places every particle even
 * for equal spheres (0.28 in 3D, 0.42 in 2D), "dense" above. generator is
 * a static string; why is one sentence. */
typedef struct hg_pack_choice {
    const char *generator; /* "poisson", "rsa" or "dense" */
    char why[240];
} hg_pack_choice;

/* Decide up front (no packing is made): fills c. */
int hg_pack_structure_choose(const hg_pack_params *prm, hg_structure s,
                             hg_pack_choice *c, hg_err *e);

/* Generate the packing hg_pack_structure_choose chose (opt and rep as for
 * the generators; may be NULL). Hard spheres: if rsa stalls below the
 * target, dense is used instead (c says so); above the fraction dense
 * reaches by growing equal spheres (0.60 in 3D, 0.80 in 2D), random
 * sequential addition at the target radii is tried first and, when it
 * stalls, the run fails at once (HG_ELIMIT, "nu: X is beyond what the
 * packing generators reach ...") instead of growing into a jam. A dense
 * run that jams or keeps overlaps above the tolerance fails the same way:
 * the output always has structure s at prm->nu. */
int hg_pack_structure_run(const hg_psd *psd, const hg_pack_params *prm,
                          hg_structure s, const hg_pack_options *opt,
                          hg_particles *out, hg_pack_report *rep,
                          hg_pack_choice *c, hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
