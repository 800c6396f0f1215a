/* hg_ranks.h - how LAMMPS (and LIGGGHTS, which keeps its communication
 * code) splits a frame over P MPI ranks: the processor grid, `balance`
 * and `fix balance` by shifting cuts, `balance rcb` with `comm_style
 * tiled`, and per rank its owned atoms, its ghost atoms and its share of
 * the stored neighbour pairs.
 *
 * Model (models/lammps_ranks.c), each rule taken from LAMMPS' source and
 * checked against the counts lmp prints (`Nlocal`, `Nghost`: ave max
 * min) on beds of its own examples (tests/bench_ranks.sh):
 *  - the box: the frame's; shrink-wrapped faces (s, m) are wrapped round
 *    the atoms as LAMMPS does before every build (m: never inside the
 *    frame's own face);
 *  - the grid: px x py x pz = P with the least sub-box surface over the
 *    frame's box, among the grids the `processors` constraints allow
 *    (2D: pz = 1); ties go to the first in LAMMPS' order of trial;
 *  - shift balancing: the cuts along each axis of the balance string are
 *    moved by bisection (`balance`) or interpolation (`fix balance`)
 *    towards equal atoms per slab, at most Niter times, until every cut's
 *    count is within stopthresh^(1/ndim) - 1 of its target, slabs
 *    narrower than the neighbor skin widened, and no further axis is
 *    tried once the ranks' imbalance is at most stopthresh; the layout is
 *    left alone when its imbalance is below the threshold;
 *  - rcb: recursive bisection of the atoms' bounding box, each cut along
 *    the axis whose two halves' smaller length is largest, through the
 *    atom that puts the lower share of the ranks' weight below it;
 *  - ownership: a rank owns the atoms in [lo, hi) of its sub-box;
 *  - ghosts: every image (periodic axes) of every atom within the ghost
 *    cutoff of a rank's sub-box that the rank does not own, the ghost
 *    cutoff being the pair cutoff plus the skin, or `comm_modify cutoff`
 *    when larger, or per atom (`comm_modify mode multi`). */
#ifndef HG_RANKS_H
#define HG_RANKS_H

#include <stddef.h>

#include "hg_common.h"
#include "hg_consts.h"
#include "hg_particles.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HG_RANKS_MAX 4096

typedef enum hg_ranks_balance {
    HG_RANKS_NONE = 0,  /* the uniform grid */
    HG_RANKS_SHIFT = 1, /* balance ... shift DIMS NITER STOPTHRESH */
    HG_RANKS_RCB = 2    /* comm_style tiled; balance ... rcb */
} hg_ranks_balance;

/* A decomposition as an input script sets it. */
typedef struct hg_ranks_layout {
    int nprocs;          /* P, 1..HG_RANKS_MAX */
    int user[3];         /* `processors` Px Py Pz; 0 for '*' */
    hg_ranks_balance balance;
    double thresh;       /* balance only when max/ave atoms exceeds it
                            (>= 1; `balance 1.0` always) */
    char dims[4];        /* shift: the axes in order ("xyz", "xy") */
    int niter;           /* shift: Niter >= 1 */
    double stopthresh;   /* shift: >= 1 */
    int fix;             /* shift by `fix balance` (interpolated cuts);
                            0: the `balance` command (bisection) */
    int fix_every;       /* fix balance: its interval in steps (0: the
                            command) */
    double weight_time;  /* a balance's `weight time FACTOR` (0: none):
                            LAMMPS weighs each rank's atoms by the rank's
                            own timers, which no frame holds; decomposed
                            here as if by atom counts */
    double comm_cutoff;  /* `comm_modify cutoff` (0: none) */
    int newton_off;      /* `newton off`: a pair across two ranks is
                            stored and computed by both (on: by one).
                            Debian 12's LAMMPS (29 Sep 2021) has no
                            reverse communication under comm_style tiled
                            for the contact history of granular pair
                            styles, so rcb runs with it off */
    double skin;         /* the neighbor skin: shift balancing keeps every
                            slab at least this wide (0: no limit) */
    const double *given[3]; /* no balance: the grid's cuts as fractions of
                            the box (grid[a] + 1 each, from 0 to 1; a
                            balance made before), NULL: uniform; not
                            owned */
} hg_ranks_layout;

/* Default layout for P ranks: LAMMPS' own grid, no balancing. */
void hg_ranks_layout_default(hg_ranks_layout *l, int nprocs);

/* Read the decomposition lines of an input (`processors`, `balance`,
 * `fix ID GROUP balance`, `comm_style`, `comm_modify cutoff`; other
 * commands are skipped), separated by newlines or ';', into l (whose
 * nprocs is kept). dim 2 refuses z. Errors name the line and word. */
int hg_ranks_layout_parse(const char *lines, int dim, hg_ranks_layout *l,
                          hg_err *e);

/* The axes a processor grid splits (grid[a] > 1, a < dim), in order, into
 * dims ("xy", "" for one rank); returns how many. */
int hg_ranks_split_axes(const int grid[3], int dim, char dims[4]);

/* The lines that set l up, one a line, into buf (a `processors` line
 * always; "balance ..." after `comm_style tiled` for rcb). */
void hg_ranks_layout_lines(const hg_ranks_layout *l, int dim, char *buf,
                           size_t len);

/* Per rank, as LAMMPS counts them. */
typedef struct hg_ranks_rank {
    double lo[3], hi[3];  /* the sub-box */
    size_t nlocal, nghost;
    double pairs;         /* stored neighbour pairs the rank holds:
                             owned-owned, and half of owned-ghost (newton
                             on), within r_i + r_j + skin */
} hg_ranks_rank;

typedef struct hg_ranks_stats {
    double ave, max, min;
} hg_ranks_stats;

/* A frame decomposed. ranks is owned (hg_ranks_result_clear). */
typedef struct hg_ranks_result {
    int nprocs, dim;
    int grid[3];          /* the processor grid (rcb: the grid LAMMPS
                             would have used before balancing) */
    int tiled;            /* rcb */
    int balanced;         /* the balancing moved the cuts (its threshold
                             was exceeded) */
    int iterations;       /* shift: iterations made */
    double box_lo[3], box_hi[3]; /* the box after shrink-wrapping */
    double *split[3];     /* shift and uniform: grid[a] + 1 cuts per axis,
                             fractions of the box (owned) */
    hg_ranks_rank *ranks; /* nprocs */
    int *owner;           /* per atom of the frame, its rank (owned) */
    hg_ranks_stats nlocal, nghost, pairs;
    double imbalance;     /* nlocal max / ave */
} hg_ranks_result;

/* Decompose p (its box and boundary; faces given per axis as two
 * letters, lower and upper, in faces[a][0..1], or NULL to take p's
 * boundary letter for both) on l. cutghost > 0: the ghost cutoff of
 * every atom; atom_cut, when not NULL, the ghost cutoff of each atom
 * (mode multi). pairs (NULL: none counted): the stored pairs of the
 * frame (hg_ranks_pairs_find), shared out to the ranks. Errors: an empty
 * frame, P outside 1..HG_RANKS_MAX, a grid the constraints do not allow,
 * a balance string with an axis of the wrong dimension. out is cleared
 * first; free it with hg_ranks_result_clear, also after an error. */
int hg_ranks_decompose(const hg_particles *p, const char (*faces)[2],
                       const hg_ranks_layout *l, double cutghost,
                       const double *atom_cut, const hg_pairs *pairs,
                       hg_ranks_result *out, hg_err *e);

/* The pairs of p within r_i + r_j + skin (skin >= 0), minimum image
 * along its periodic axes (faces as for hg_ranks_decompose), into out
 * (reset first). */
int hg_ranks_pairs_find(const hg_particles *p, const char (*faces)[2],
                        double skin, hg_pairs *out, hg_err *e);
void hg_ranks_result_clear(hg_ranks_result *r);

/* LAMMPS' processor grid for P ranks over a box of edges len with the
 * constraints user (0: free): returns 0 and sets g, or HG_EINVAL when no
 * grid fits. */
int hg_ranks_grid(int nprocs, int dim, const double *len, const int *user,
                  int g[3], hg_err *e);

/* The faces of a boundary text ("p p fm", "ppf") into faces[3][2]. */
int hg_ranks_faces_parse(const char *text, int dim, char faces[3][2],
                         hg_err *e);


/* A frame decomposed once for many skins (whole-run advice): per rank
 * its ghosts at the ghost cutoff pair_cut + skins[j] and its stored pairs
 * within r_i + r_j + skins[j], for every j (skins ascending, >= 0). */
typedef struct hg_ranks_profile {
    hg_ranks_result res;  /* the decomposition (at the largest skin) */
    int ns;
    size_t *nghost;       /* [rank * ns + j] */
    double *pairs;        /* [rank * ns + j] */
} hg_ranks_profile;

int hg_ranks_profile_make(const hg_particles *p, const char (*faces)[2],
                          const hg_ranks_layout *l, double pair_cut,
                          const double *skins, int ns,
                          hg_ranks_profile *out, hg_err *e);
void hg_ranks_profile_clear(hg_ranks_profile *r);

/* The frame's pairs within r_i + r_j + skins[ns - 1], each with the index
 * of the smallest skin that holds it: what the profiles of every
 * decomposition of one frame at the same skins share (found once,
 * hg_ranks_profile_of). */
typedef struct hg_ranks_gaps {
    hg_pairs pairs;
    unsigned char *skin;  /* [pair]: the first j with gap < skins[j] */
    int ns;
} hg_ranks_gaps;

int hg_ranks_gaps_find(const hg_particles *p, const char (*faces)[2],
                       const double *skins, int ns, hg_ranks_gaps *out,
                       hg_err *e);
void hg_ranks_gaps_clear(hg_ranks_gaps *g);
/* hg_ranks_profile_make with the frame's gaps at the same skins. */
int hg_ranks_profile_of(const hg_particles *p, const char (*faces)[2],
                        const hg_ranks_layout *l, double pair_cut,
                        const double *skins, int ns,
                        const hg_ranks_gaps *g, hg_ranks_profile *out,
                        hg_err *e);

/* ---- advice: the decomposition of least busiest-rank time ---- */

/* Seconds of the parts of a step one rank spends, per count. */
typedef struct hg_ranks_costs {
    double pair_pair;    /* Pair per step, per stored pair */
    double pair_atom;    /* Pair per step, per owned atom */
    double neigh_frame;  /* Neigh per build of the whole frame on one
                            rank (the engine's model), shared out to the
                            ranks by their atoms and pairs */
    double neigh_bin;    /* Neigh per build, per empty bin of the rank's
                            grown sub-box (cleared every build) */
    double bin_size;     /* the bins' edge */
    double ghost_step;   /* communication per step, per ghost atom (the
                            forward communication of positions and
                            velocities) */
    double ghost_build;  /* communication per build, per ghost atom
                            (exchange and borders) */
    double other_atom;   /* per step, per owned atom: the fixes
                            (integration, gravity, walls: LAMMPS' Modify
                            row) */
    double steps_per_build; /* > 0 */
    char source[800];    /* where the figures came from */
} hg_ranks_costs;

#define HG_RANKS_MAX_CANDIDATES 256
/* Decompositions within this share of the least predicted step are taken
 * as equal; of those the one whose busiest rank owns the fewest atoms is
 * the best. */
#define HG_RANKS_TIE 0.03

typedef struct hg_ranks_candidate {
    hg_ranks_layout layout;
    char name[96];
    char lines[256];     /* the input lines that set it */
    int grid[3];
    int balanced, tiled;
    hg_ranks_stats nlocal, nghost, pairs;
    double busiest;      /* seconds per step of the slowest rank */
    double average;      /* seconds per step averaged over the ranks */
    int busiest_rank;
    double pair, neigh, comm; /* the busiest rank's parts, per step */
} hg_ranks_candidate;

typedef struct hg_ranks_advice {
    int nprocs, dim;
    int n;
    hg_ranks_candidate c[HG_RANKS_MAX_CANDIDATES];
    int own;             /* the user's lines (or LAMMPS' default) */
    int best;            /* the least busiest-rank time */
    int answer;          /* best, or own when best saves less than the
                            margin */
    int kept_own;
    double margin;
    hg_ranks_costs costs;
} hg_ranks_advice;

/* Decompose p for P ranks every way worth trying (every processor grid,
 * each also with shift balancing along its split axes, and rcb), price
 * each by its slowest rank, and choose (the fewest atoms on the busiest
 * rank among those within HG_RANKS_TIE of the least step): own_lines
 * (NULL: LAMMPS' default grid) is kept unless the best saves margin (0:
 * 0.05) of its step. cutghost as for hg_ranks_decompose, skin the neighbor skin (the
 * narrowest slab of a shift balance); pairs the frame's stored pairs
 * (hg_ranks_pairs_find at the skin). */
int hg_ranks_advise(const hg_particles *p, const char (*faces)[2], int P,
                    const char *own_lines, double cutghost, double skin,
                    const hg_pairs *pairs, const hg_ranks_costs *k,
                    double margin, hg_ranks_advice *out, hg_err *e);

/* Price one decomposition (the rank model of hg_ranks_advise). */
void hg_ranks_price(const hg_ranks_result *r, const hg_ranks_costs *k,
                    double cutghost, hg_ranks_candidate *c);

/* LAMMPS' bins of a sub-box lo..hi grown by the ghost cutoff on every
 * side (what a rank clears and fills at each build), of edge binsize. */
double hg_ranks_bins(int dim, const double *lo, const double *hi,
                     double cutghost, double binsize);

/* The bins of the sub-box lo..hi (hg_ranks_bins) beyond share (0..1) of
 * those of the box box_lo..box_hi: what a rank clears at each build
 * beyond its share of the one-rank build, whose cost the one-rank model
 * already prices (never below 0). */
double hg_ranks_bins_beyond(int dim, const double *lo, const double *hi,
                            const double *box_lo, const double *box_hi,
                            double cutghost, double binsize, double share);

/* The shipped costs (measured: the source says where) for steps_per_build
 * and a frame's one-rank Neigh per build. */
void hg_ranks_costs_shipped(hg_ranks_costs *k, double neigh_frame,
                            double bin_size, double steps_per_build);
/* The communication constants (ghost_step, ghost_build) of a code's comm
 * kind (hg_engine.comm): its file when calibrate stored one (the source
 * then names it), else its shipped values. NULL: k unchanged. Fails when
 * the file exists but cannot be read (the message names it). */
int hg_ranks_costs_load(hg_ranks_costs *k, const hg_consts_kind *comm,
                        hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
