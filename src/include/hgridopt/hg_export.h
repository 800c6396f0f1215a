/* hg_export.h - ready-to-paste HGrid settings for other DEM codes.
 *
 * The emitters turn a chosen grid (algorithm, cell sizes) and its predicted
 * cost into text for LAMMPS (neighbor style multi) and MercuryDPM (a C++
 * subclass with user cell sizes). They return a NUL-terminated string owned
 * by the caller (free). */
#ifndef HG_EXPORT_H
#define HG_EXPORT_H

#include "hg_grid.h"
#include "hg_lammps.h"
#include "hg_psd.h"
#include "hg_system.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hg_export_input {
    const hg_psd *psd;
    const hg_system *sys;
    hg_algorithm algorithm;
    int levels;           /* L */
    const double *sizes;  /* s_1..s_L (non-decreasing, s_L >= 2 r_max) */
    double T, T_cd, T_ca; /* predicted work per particle */
    double K;             /* weight of T_ca in T (the model's K) */
    double T_linked_cell; /* predicted work of the single-level linked cell
                             (NaN: not in T's units, no speed-up line) */
    const char *name;     /* system name or NULL */
    const char *unit;     /* length unit or NULL */
    double skin;          /* LAMMPS neighbor skin; <= 0: default below */
    const char *K_note;   /* where sys->K came from (one line) or NULL */
    const char *skin_source; /* where the skin came from (one line), said
                                in a comment; NULL: not said */
} hg_export_input;

/* Default LAMMPS skin: 10 % of the smallest particle diameter. */
double hg_export_default_skin(const hg_psd *psd);

/* The collection cutoffs c_1 < ... < c_n for LAMMPS: c_h is the largest
 * diameter on non-empty level h (min(s_h, 2 r_max)); empty levels and equal
 * cutoffs are merged; the last is 2 r_max (printing rounds it up, see
 * hg_lammps_lines). Returns n (<= levels) or a negative status. cut must
 * hold `levels` entries. */
int hg_export_lammps_cutoffs(const hg_export_input *in, double *cut,
                             hg_err *e);

/* LAMMPS input-script lines for the given HGrid sizes: neighbor SKIN multi,
 * neigh_modify collection/interval n c_1 .. c_n (rounded up), comm_modify
 * mode multi - or neighbor SKIN bin when one level holds every particle -
 * with a comment block stating the KOL 2014 prediction. */
int hg_export_lammps(const hg_export_input *in, char **text, hg_err *e);

/* MercuryDPM C++ snippet: a Mercury3D/Mercury2D subclass overriding
 * userHGridCellSize(level) with the sizes (non-empty levels only, each
 * returned one ulp above its printed value so a particle whose diameter
 * equals s_h stays on level h; the top one, at run time, strictly above
 * the largest interaction diameter of the particle handler times the
 * over-size ratio, as MercuryDPM requires), and the setHGrid* calls. */
int hg_export_mercurydpm(const hg_export_input *in, char **text, hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
