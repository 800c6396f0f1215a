/* snapshot_internal.h - the parts of the pair statistics of a particle
 * snapshot (hg_snapshot.h) shared by its files (not part of the API):
 *   snapshot.c        the statistics: radius classes, widths, profile,
 *                     the factors from the counts, the accessors;
 *   snapshot_count.c  the neighbour counts around sampled centres: the
 *                     choice of centres, their grids, the parallel count. */
#ifndef HG_SNAPSHOT_INTERNAL_H
#define HG_SNAPSHOT_INTERNAL_H

#include "hg_snapshot.h"

#include <stddef.h>
#include <stdint.h>

#define NB 24             /* log-spaced window widths */
#define NA (NB + 6)       /* plus the kinks of up to 3 periodic edges */
/* Centres counted in full up to MAX_CENTRES particles, about TARGET
 * neighbours per centre and width: the factors of every grid of the
 * fixtures agree with 20000 and 500 (five times the work) within 0.2 %
 * (docs/measurements/snapshots.md) */
#define MAX_CENTRES 4000
#define TARGET 150.0
#define CHUNKS 64         /* the particles' split for counting, at most */
#define CHUNK_PARTICLES 2048 /* and at least this many particles a chunk */
#define BUCKETS 6         /* centres grouped by reach */

struct hg_snapshot {
    hg_snapshot_info info;
    int nc;                               /* radius classes */
    double edge[HG_SNAPSHOT_MAX_CLASSES + 1]; /* class c: (edge[c], edge[c+1]] */
    int na;               /* widths measured, ascending */
    double log_a[NA];
    double frac[HG_SNAPSHOT_MAX_CLASSES]; /* number fraction per class */
    /* g[t][ci][ck]: number density of all particles seen (hg_snapshot.h) */
    double g[NA][HG_SNAPSHOT_MAX_CLASSES][HG_SNAPSHOT_MAX_CLASSES];
    size_t max_centres;   /* centres counted at most (0: MAX_CENTRES) */
};

/* The box as the counts see it: per axis periodic or not, lower end,
 * length and half length (a non-periodic axis: the span of the
 * centres). */
typedef struct geom {
    int d;
    int per[3];
    double lo[3], len[3], half[3];
} geom;

/* The radius class of radius r. */
static inline int class_of(const hg_snapshot *s, double r)
{
    int c = 0;
    while (c + 1 < s->nc && r > s->edge[c + 1])
        c++;
    return c;
}

/* A sampled centre: the particle whose neighbourhood is counted, out to
 * reach (Chebyshev): its contacts and widths 0..thi. */
typedef struct centre {
    double x[3], r, reach;
    int cls, thi;
    size_t index;
} centre;

/* What the particles of one chunk add around the centres. */
typedef struct tally {
    double cnt[NA][HG_SNAPSHOT_MAX_CLASSES][HG_SNAPSHOT_MAX_CLASSES];
    double vcnt[NA][HG_SNAPSHOT_MAX_CLASSES]; /* sum of W V_k per class of
                                                 the centre */
    /* the pairs with W = 1 from a width on, as differences over t */
    double dcnt[NA + 1][HG_SNAPSHOT_MAX_CLASSES][HG_SNAPSHOT_MAX_CLASSES];
    double dvcnt[NA + 1][HG_SNAPSHOT_MAX_CLASSES];
    double contacts, maxov;
} tally;


/* The centres counted (snapshot_count.c): all up to MAX_CENTRES
 * particles, else a share per class chosen by the particles' hashes;
 * ptc[t][c]: the probability that width t is counted around a centre of
 * class c. ncls[c]: the particles of class c; in: the packing fractions
 * of the profile. *out is allocated, *nout centres. */
int hg_snapshot_choose_centres(const hg_snapshot *s, const hg_particles *p,
                               const size_t *ncls,
                               const hg_snapshot_info *in, double rmax,
                               double (*ptc)[HG_SNAPSHOT_MAX_CLASSES],
                               centre **out, size_t *nout, hg_err *e);
/* The windowed neighbour counts of the particles of p around the ncs
 * centres cs (a3[t] = 2 a_t / 3, the reach of width t), in up to CHUNKS
 * chunks summed in order into (*out)[0] (allocated: a tally per chunk;
 * the counts cumulated over the widths); fn reports progress. */
int hg_snapshot_count(const hg_snapshot *s, const hg_particles *p,
                      const geom *g, const centre *cs, size_t ncs,
                      const double *a3, hg_progress_fn fn, void *params,
                      tally **out, hg_err *e);

#endif
