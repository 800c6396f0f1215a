/* hg_particles.h - particle sets and contact-pair lists: the plain value
 * data exchanged by the HGrid, the packing generators, the particle-file
 * readers/writers and the baseline contact-detection methods. */
#ifndef HG_PARTICLES_H
#define HG_PARTICLES_H

#include <stddef.h>
#include <stdint.h>
#include "hg_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* n spheres in a box [lo, hi]^dim. Coordinates are interleaved:
 * x[i*dim + c] is coordinate c of particle i. x and r are owned. */
typedef struct hg_particles {
    int dim;        /* 2 or 3 */
    size_t n;
    double *x;      /* n * dim */
    double *r;      /* n */
    double lo[3];
    double hi[3];
    int periodic;   /* 1: periodic in every direction; 0: open / walls
                       on some axis (boundary[] says which) */
    char boundary[3]; /* per axis, LAMMPS' letters: 'p' periodic, 'f'
                         fixed, 's' shrink-wrapped, 'm' shrink-wrapped
                         with a minimum; 0 (zeroed): 'p' when periodic,
                         else 'f' */
    int box_inferred; /* set by the file readers: the file gave no box, the
                         box is the bounding box of the spheres, walls */
} hg_particles;

/* Allocate x and r for n particles (zeroed), box [0,1]^dim, periodic. */
int hg_particles_alloc(hg_particles *p, int dim, size_t n, hg_err *e);
void hg_particles_clear(hg_particles *p); /* frees; accepts NULL */
/* 1 if axis a (0..dim-1) is periodic (boundary[a], else periodic). */
int hg_particles_axis_periodic(const hg_particles *p, int a);
/* Set the boundary from LAMMPS' `boundary` letters: one word per axis
 * ("p p f", "p,p,f" or "ppf"; 2D takes 2 words, or 3 with the z word
 * ignored), each "p" or one or two of f, s, m (lower and upper face; the
 * faces are not told apart here). Sets boundary[] and periodic. HG_EINVAL
 * names the text on a bad word. */
int hg_particles_set_boundary(hg_particles *p, const char *text, hg_err *e);
/* The boundary as "p p f" (2D: "p f") into buf (>= 8 bytes). */
const char *hg_particles_boundary_text(const hg_particles *p, char *buf);

/* For a particle set whose file does not state its boundary: per axis
 * the gap gap[a] the spheres leave in the box (the box's edge minus the
 * extent of the spheres, x -+ r). Along an axis whose gap is wider than
 * reach nothing interacts across the box's faces, so the axis behaves as
 * non-periodic whatever the code does there: it is set 'f' and told[a] =
 * 1. The other axes keep their letter (the format's default) with
 * told[a] = 0. Returns the number of axes told. */
int hg_particles_boundary_infer(hg_particles *p, double reach, int told[3],
                                double gap[3]);

/* Grow the box along the non-periodic axes to hold every centre (a code
 * loses atoms beyond a fixed face only later, at its next rebuild;
 * MercuryDPM's domain bounds nothing). Returns how many centre
 * coordinates lay outside. */
size_t hg_particles_grow_box(hg_particles *p);

/* Check radii finite > 0, coordinates finite, inside the box along
 * periodic axes. */
int hg_particles_check(const hg_particles *p, hg_err *e);
/* q (allocated) = p in a box periodic on every axis: the non-periodic
 * axes (walls, a free surface) padded with empty space of at least gap
 * (> 2 r_max: no pair across the seam; wider than every search reach: no
 * search crosses it). For a grid or detector that takes a box periodic on
 * every axis or on none. */
int hg_particles_pad_periodic(const hg_particles *p, double gap,
                              hg_particles *q, hg_err *e);
/* Packing fraction: sum of particle volumes / box volume. */
double hg_particles_packing_fraction(const hg_particles *p);

/* Coincident particles: those whose centre equals another's exactly.
 * *atoms gets how many particles share a centre with another, *positions
 * how many distinct centres they share, and *first_a < *first_b the
 * indices of one such pair (the lowest first_a; unset when none). Work
 * n log n, memory n indices. */
int hg_particles_coincident(const hg_particles *p, size_t *atoms,
                            size_t *positions, size_t *first_a,
                            size_t *first_b, hg_err *e);
/* Largest radius (0 when empty) and smallest radius (INFINITY when empty). */
double hg_particles_rmax(const hg_particles *p);
double hg_particles_rmin(const hg_particles *p);

/* A contact pair, always i < j. */
typedef struct hg_pair {
    uint32_t i, j;
} hg_pair;

typedef struct hg_pairs {
    hg_pair *v;
    size_t n, cap;
} hg_pairs;

int hg_pairs_push(hg_pairs *ps, uint32_t i, uint32_t j); /* stores min,max */
void hg_pairs_reset(hg_pairs *ps);  /* n = 0, keeps memory */
void hg_pairs_clear(hg_pairs *ps);  /* frees; accepts NULL */
void hg_pairs_sort(hg_pairs *ps);   /* lexicographic (i, j) */
/* 1 if both (sorted) lists are equal. */
int hg_pairs_equal(const hg_pairs *a, const hg_pairs *b);

/* Minimum-image displacement component along axis c (periodic boxes). */
double hg_particles_delta(const hg_particles *p, int c, double d);
/* 1 if particles i and j touch: centre distance < r_i + r_j + skin. */
int hg_particles_touch(const hg_particles *p, size_t i, size_t j, double skin);

#ifdef __cplusplus
}
#endif
#endif
