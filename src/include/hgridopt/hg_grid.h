/* hg_grid.h - the bundled hierarchical grid (HGrid): contact detection for
 * spheres in 2D and 3D with work counters (KOL 2014 section 2).
 *
 * Life cycle (opaque handle):
 *   hg_grid_create(dim, L, sizes, alg)      levels and algorithm
 *   hg_grid_set_skin / hg_grid_set_storage  optional
 *   hg_grid_build(grid, particles)          mapping phase (counting sort)
 *   hg_grid_find_contacts(...)              all contact pairs (+ counts)
 *   hg_grid_query(...)                      neighbours of any sphere
 *   hg_grid_insert(...)                     add one particle (RSA style)
 *   hg_grid_free(grid)
 *
 * Levels. sizes[0..L-1] = s_1..s_L (non-decreasing, > 0). A particle of
 * radius r lives on the lowest level h with 2 r <= s_h (KOL 2014 eq. 9); a
 * radius above s_L / 2 is rejected. Equal sizes are allowed (the upper one of two
 * equal levels stays empty).
 *
 * Cells. The cell width of level h along axis c is w = s_h + skin, except:
 *  - periodic box of edge A_c: w = A_c / floor(A_c / (s_h + skin)) >= s_h +
 *    skin, so that a whole number of cells spans the box (at least 1 cell);
 *  - the cell of a centre x is floor((x - lo_c) / w) (KOL 2014 eq. 1:
 *    floor(x / s_h) with the box corner as origin).
 * Open (non-periodic) domains span the bounding box of the particle centres
 * and of p->lo..p->hi; the per-level cell table is a dense array when the
 * number of cells is O(N), otherwise a table of blocks of 2^b cells along
 * x (particles sorted by cell within a block), and a hash table of the
 * non-empty rows only when even one entry per row is too many (huge
 * extents).
 *
 * Search (KOL 2014 sections 2.2 and 3). A particle p on level h scans its
 * own cell (each pair of the cell once) and the n_c = (3^d - 1)/2 half-neighbour cells on level h,
 * and on every other NON-EMPTY level j in J(h) (Top-Down: j < h, Bottom-Up:
 * j > h) every cell overlapping [x - beta, x + beta]^d with
 * beta = r_p + skin + s_j / 2. Levels holding no particle are not scanned
 * (the HGrid cost model, models/hgrid.c, makes the same decision).
 * Periodic levels with fewer than 3 cells along an axis: the stencils are
 * deduplicated (every distinct cell at most once; pairs of distinct cells
 * handled by one side only), so no pair is missed or found twice.
 *
 * Contacts: pairs with minimum-image centre distance < r_i + r_j + skin,
 * evaluated exactly like hg_particles_touch(); every pair once, i < j,
 * indices of the particle set given to hg_grid_build (order of the output
 * list unspecified: call hg_pairs_sort for a canonical order).
 *
 * Threads: the search runs in parallel with OpenMP (when compiled with it)
 * and keeps its visiting order in the grid: one search at a time per grid;
 * hg_grid_query may be called concurrently from several threads as long as
 * nobody builds or inserts at the same time.
 */
#ifndef HG_GRID_H
#define HG_GRID_H

#include <stddef.h>
#include <stdint.h>
#include "hg_common.h"
#include "hg_particles.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hg_grid hg_grid; /* opaque */

/* Cross-level search of the bundled grid (KOL 2014 section 2.2). A cost
 * model states which one it describes (HG_GRID_NONE: no bundled grid). */
typedef enum hg_algorithm {
    HG_GRID_NONE = -1, /* not a bundled-grid algorithm */
    HG_TOP_DOWN = 0,   /* a particle scans the finer levels j < h */
    HG_BOTTOM_UP = 1   /* a particle scans the coarser levels j > h */
} hg_algorithm;

/* "top-down" / "bottom-up" ("none" for HG_GRID_NONE). */
const char *hg_algorithm_name(hg_algorithm a);
/* Accepts "top-down", "topdown", "td", "bottom-up", "bottomup", "bu". */
int hg_algorithm_parse(const char *text, hg_algorithm *out, hg_err *e);

/* Storage of the per-level cell tables. */
typedef enum hg_grid_storage {
    HG_GRID_AUTO = 0,  /* dense when the cell count is O(N), else rows */
    HG_GRID_DENSE = 1, /* always dense (fails with HG_ELIMIT if too big) */
    HG_GRID_HASH = 2   /* always a hash table of the non-empty rows of
                        * cells, each row's particles sorted by cell */
} hg_grid_storage;

/* Work of the particles of one level, counted as the cost model counts it
 * (KOL 2014 section 3), attributed to the level of
 * the searching particle. */
typedef struct hg_grid_level_counts {
    size_t particles;        /* N_h: particles inserted on this level */
    double cell_size;        /* s_h as given (nominal) */
    double cell_width[3];    /* effective cell width per axis after build */
    uint64_t cell_accesses;  /* own + half neighbourhood + cross-level */
    uint64_t pair_checks;    /* particles found in the accessed cells */
} hg_grid_level_counts;

/* Counts of one search. per_level (levels entries) is owned by the struct:
 * hg_grid_counts_clear frees it; a zeroed struct is a valid empty one. */
typedef struct hg_grid_counts {
    int levels;
    hg_grid_level_counts *per_level;
    size_t searching;        /* particles that searched (N, or a subset) */
    uint64_t cell_accesses;  /* totals over levels */
    uint64_t pair_checks;
    uint64_t contacts;       /* pairs reported (0 when no pair list) */
} hg_grid_counts;

void hg_grid_counts_clear(hg_grid_counts *c); /* accepts NULL */

/* The pair loop of 3D searches: on x86-64 processors with AVX2 it tests
 * four candidates at a time (on by default; off when the environment
 * variable HGRIDOPT_SIMD is "0" at the first call), elsewhere one. set < 0
 * asks; 0 turns the AVX2 loop off and 1 on again (where the processor has
 * it) for every later search in the process; returns 1 when the AVX2 loop
 * is in use. Both loops give the same pairs; they differ in speed, and so in
 * the cost of a pair check relative to a cell access (the shipped K of
 * 3D, hg_K_shipped, follows this). */
int hg_grid_simd(int set);

/* Create a grid with L >= 1 levels of cell sizes sizes[0..L-1] = s_1..s_L
 * (finite, > 0, non-decreasing; copied) for algorithm alg. *out is owned by
 * the caller (hg_grid_free). Skin 0, storage HG_GRID_AUTO. */
int hg_grid_create(int dim, int L, const double *sizes, hg_algorithm alg,
                   hg_grid **out, hg_err *e);
void hg_grid_free(hg_grid *g); /* accepts NULL */

/* Contact distance added to r_i + r_j (>= 0, finite). Takes effect at the
 * next hg_grid_build. */
int hg_grid_set_skin(hg_grid *g, double skin, hg_err *e);
/* Choose the cell-table storage. Takes effect at the next hg_grid_build. */
int hg_grid_set_storage(hg_grid *g, hg_grid_storage storage, hg_err *e);

/* Mapping phase: assign every particle of p to its level and cell and
 * sort them by (level, cell) into contiguous arrays. p is copied (the grid
 * keeps its own reordered copy; p may change or be freed afterwards).
 * The box and periodicity are taken from p (p->lo, p->hi, p->periodic;
 * periodic centres must lie in [lo, hi]). p->n may be 0 (an empty grid for
 * hg_grid_insert). The buffers are kept between builds: a rebuild of at
 * most as many particles and cells allocates nothing (dynamic runs).
 * Errors: dim mismatch, a radius > s_L / 2, non-finite data, more than
 * 2^32 - 2 particles, memory; after an error the grid is not built. */
int hg_grid_build(hg_grid *g, const hg_particles *p, hg_err *e);

/* Find all contact pairs of the built grid and append them to out (out is
 * reset first). counts may be NULL (uncounted fast path); otherwise it is
 * filled (allocated or reused). Fails if particles were inserted since the
 * last build (HG_EINVAL: rebuild first). */
int hg_grid_find_contacts(hg_grid *g, hg_pairs *out, hg_grid_counts *counts,
                          hg_err *e);

/* Same search, but only the m particles idx[0..m-1] (indices of the built
 * particle set, distinct) search; finds the pairs those particles own under
 * the half-stencil / Top-Down / Bottom-Up rules. Used to time the linked
 * cell on a random subset and extrapolate. out may be NULL (count only);
 * counts may be NULL. */
int hg_grid_find_contacts_subset(hg_grid *g, const size_t *idx, size_t m,
                                 hg_pairs *out, hg_grid_counts *counts,
                                 hg_err *e);

/* Visitor of hg_grid_query: j is the index of a particle (as in the built
 * set, inserted particles continue the numbering), dist its minimum-image
 * centre distance to the query centre. Return 0 to continue, non-zero to
 * stop the query (the value is passed back by hg_grid_query). */
typedef int (*hg_grid_visit_fn)(size_t j, double dist, void *params);

/* Visit every particle j of the grid (built + inserted) whose sphere lies
 * within `gap` of the sphere (x[0..dim-1], r): centre distance
 * < r + r_j + gap (gap >= 0; 0 gives the overlapping spheres). All
 * non-empty levels are scanned with beta = r + gap + s_j / 2. x must lie in
 * the box for periodic grids. Returns HG_OK, a negative status on bad
 * arguments, or the first non-zero value returned by fn. */
int hg_grid_query(const hg_grid *g, const double *x, double r, double gap,
                  hg_grid_visit_fn fn, void *params, hg_err *e);

/* Add one particle to a built grid (index = current particle count, see
 * hg_grid_count). Cheap (O(1)); requires dense storage and, for open
 * domains, a centre inside the extent of the last build. The particle is
 * seen by hg_grid_query; hg_grid_find_contacts needs a rebuild. */
int hg_grid_insert(hg_grid *g, const double *x, double r, hg_err *e);

/* Number of particles in the grid (built + inserted). */
size_t hg_grid_count(const hg_grid *g);
int hg_grid_levels(const hg_grid *g);
int hg_grid_dim(const hg_grid *g);
hg_algorithm hg_grid_algorithm(const hg_grid *g);
/* Level (1..L) on which a radius r lives, 0 if r > s_L / 2 or not > 0. */
int hg_grid_level_of(const hg_grid *g, double r);
/* After build: effective cell width of level (1..L) along axis; NaN if
 * not built or out of range. */
double hg_grid_cell_width(const hg_grid *g, int level, int axis);
/* 1 if the last build stored this level (1..L) sparsely (rows of
 * non-empty cells: the HG_GRID_AUTO fallback or HG_GRID_HASH), 0 dense. */
int hg_grid_level_is_hashed(const hg_grid *g, int level);
/* Bytes allocated by the grid (cell tables, particle copies, buffers). */
size_t hg_grid_memory(const hg_grid *g);

#ifdef __cplusplus
}
#endif
#endif
