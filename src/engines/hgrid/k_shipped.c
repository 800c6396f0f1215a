/* k_shipped.c - the K and C of the bundled HGrid shipped with the tool,
 * with the measurements behind them (the engine's K when no calibration
 * of this machine is stored: hg_K_resolve). */
#include "hg_calib.h"
#include "hg_grid.h"

#include <math.h>

/* The shipped default K of the bundled HGrid, in one place: the median of
 * 14 runs of `hgridopt calibrate --dim D` per dimension (defaults:
 * powerlaw:alpha=-3,omega=10, nu 0.3, N = 200000, 3 repeats per grid;
 * Release build, gcc 12, 7 runs with OpenMP on 2 threads and 7 with
 * OMP_NUM_THREADS=1, alternating 2D and 3D) on an otherwise idle 2-core
 * x86_64 Debian 12 machine, 2026-11-23, hgridopt 0.1.0 with the search
 * that tests a chunk's candidates in one loop in 2D. 2D: median 1.23,
 * quartiles 1.07-1.42, range 0.83-1.63 (two threads median 1.12, one
 * 1.41); 3D: median 0.81, quartiles 0.75-0.90, range 0.64-1.23. The same
 * day, 20 runs per dimension of calibrate timing its grids in rounds
 * (unchanged search) agreed: 2D median 1.28 (two threads 1.11, one 1.38),
 * 3D 0.79. With the pair loop that loads no id per pair check, 5 runs
 * on two threads the same day: 2D median 1.25, 3D 0.78. A 2D particle
 * makes 5 cell accesses for ~2 pair checks, so its fixed work per
 * particle weighs on K more than in 3D. The papers' 0.2 (KOL 2014; Ogarko
 * & Luding 2012: 0.2-0.45) was measured in a DEM code whose pair check is
 * its contact routine, far dearer than the bundled HGrid's distance
 * check. */
static const double shipped_K2 = 1.2, shipped_K3 = 0.8;
static const char shipped_where[] =
    "median of 14 runs of hgridopt calibrate, 2-core x86_64 Debian 12, "
    "2026-11-23";
/* 3D with the AVX2 pair loop (hg_grid_simd), which tests four candidates
 * at a time: the same 14 runs (7 on one thread, 7 on two, alternating) on
 * the same machine, 2026-11-26: median 2.14, quartiles 2.05-2.32, range
 * 1.80-2.45 (one thread median 2.06, two 2.22), where the scalar loop
 * gave 0.64-0.77 in three runs alternated with them. A pair check costs
 * less, a cell access the same. */
static const double shipped_K3_simd = 2.1;
static const char shipped_where_simd[] =
    "median of 14 runs of hgridopt calibrate with the AVX2 pair loop, "
    "2-core x86_64 Debian 12, 2026-11-26";

double hg_K_shipped(int dim, const char **where)
{
    const int simd = dim == 3 && hg_grid_simd(-1);
    if (where)
        *where = simd ? shipped_where_simd : shipped_where;
    if (dim == 3)
        return simd ? shipped_K3_simd : shipped_K3;
    return dim == 2 ? shipped_K2 : NAN;
}

/* The shipped C of the bundled HGrid, in one place. Measured 2026-11-26
 * on the 2-core AMD EPYC (Zen 3) VM, one thread, hgridopt 0.1.0, with
 * tests/bench_tables.sh: rebuild plus detection of one level and the
 * model's grids of 2-5 levels on RSA or Poisson packings of 30 000
 * particles of the eight systems of tests/bench_hgrid_tune.sh, 41
 * alternated repeats, paired medians. Least squares of time = a (T_cd +
 * K T_ca) + c T_tab + b per system: C = c / a = 0.36-0.85 on the four
 * systems where sparse tables matter, negative (below the noise) on the
 * other four. The measured time of the grid the model ranks cheapest over
 * the fastest measured, worst over the systems: 1.154 with C = 0, 1.088
 * with C = 0.25-0.75, 1.111 with C = 1. The case C decides: uniform radii
 * on [1, 10] in 2D, where C = 0 recommends a bottom-up grid whose fine
 * level has 8 cells per particle, measured 6-12 % slower than one level.
 * Both dimensions: 0.5. */
static const double shipped_C = 0.5;
static const char shipped_C_where[] =
    "fitted to rebuild + detection of 76 grids over 8 systems, 2-core "
    "x86_64 Debian 12, 2026-11-26";

double hg_C_shipped(int dim, const char **where)
{
    if (where)
        *where = shipped_C_where;
    return dim == 2 || dim == 3 ? shipped_C : NAN;
}

