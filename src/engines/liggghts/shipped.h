/* shipped.h - the LIGGGHTS cost constants shipped with hgridopt
 * (seconds per unit of each count of hg_liggghts_work).
 *
 * Fitted by hg_liggghts_fit on 2026-11-25 (21:53-21:56 UTC) on the
 * development machine, a 2-CPU virtual machine (AMD EPYC), Debian 12,
 * liggghts (LIGGGHTS-PUBLIC 3.8.0, Debian 3.8.0+repack1-9+b2), one rank,
 * with no other timing job running (an earlier fit, made while the
 * machine's speed moved up to 3x between runs, had R^2 0.55 and missed the
 * best bin size by 1.57x on a steep power law). Data: one run of the
 * liggghts engine's calibrate hook over four packings, each measured twice
 * in that run (kept apart as eight systems),
 *   tests/bench_liggghts calibrate OUT c1.data c2.data c3.data c4.data \
 *       c1.data c2.data c3.data c4.data
 * (HG_LIGGGHTS_STEPS 30, HG_LIGGGHTS_REPEATS 5; 7 bin sizes, 0.25-1.5 x
 * the cutoff), with c1-c3 from hgridopt pack --generator rsa --dim 3
 * --n 10000 and --psd powerlaw:alpha=-3,rmin=1,omega=4 --nu 0.35 --seed 11,
 * uniform-size:rmin=1,rmax=8 --nu 0.3 --seed 12,
 * lognormal:median=1,sigma=0.5,rmin=0.5,rmax=4 --nu 0.35 --seed 13, and c4
 * the poured bed tests/data/snapshots/bed3d_d1-8.data: 56 measured Neigh
 * times, R^2 0.92, median error 8.6 %, Spearman 0.978. The within-system
 * constants (checks, lines) are the well determined ones (+- 5 % and
 * 52 %); visits is small and uncertain; bins came out <= 0 and was
 * dropped; binned and neighbours are per-atom and per-neighbour costs that
 * do not change with the bin size (they also carry each atom's share of
 * the build's fixed work). Two more single runs of the same four packings
 * gave checks 2.49 and 2.01 ns, lines 20.4 and 15.6 ns (R^2 0.96 and
 * 0.85, the latter while a compiler ran on the other CPU). */
#ifndef HG_LIGGGHTS_DEFAULTS_H
#define HG_LIGGGHTS_DEFAULTS_H
#define HG_LIGGGHTS_DEFAULT_CHECK 2.2509711865736701e-09
#define HG_LIGGGHTS_DEFAULT_VISIT 4.9657597032208427e-10
#define HG_LIGGGHTS_DEFAULT_LINE 1.8470704205026918e-08
#define HG_LIGGGHTS_DEFAULT_BIN 0.0
#define HG_LIGGGHTS_DEFAULT_BINNED 1.3617250618507743e-07
#define HG_LIGGGHTS_DEFAULT_NEIGH 1.1550711675333191e-07
#define HG_LIGGGHTS_DEFAULT_CHECK_SE 1.1192581104463893e-10
#define HG_LIGGGHTS_DEFAULT_VISIT_SE 1.111954343360931e-09
#define HG_LIGGGHTS_DEFAULT_LINE_SE 9.6150473419999638e-09
#define HG_LIGGGHTS_DEFAULT_BIN_SE 0.0
#define HG_LIGGGHTS_DEFAULT_BINNED_SE 2.466703660692022e-08
#define HG_LIGGGHTS_DEFAULT_NEIGH_SE 5.4735576768601566e-08
#define HG_LIGGGHTS_DEFAULT_R2 0.92116521680185826
#define HG_LIGGGHTS_DEFAULT_NPOINTS 56
#define HG_LIGGGHTS_DEFAULT_MACHINE \
    "2-CPU VM (AMD EPYC), Debian 12, 1 rank, no other timing job"
#define HG_LIGGGHTS_DEFAULT_VERSION "LIGGGHTS-PUBLIC 3.8.0"
#define HG_LIGGGHTS_DEFAULT_DATE "2026-11-25T21:56:25Z"
/* Pair seconds per step (hg_liggghts_pair_kind): per stored neighbour
 * pair and per atom, fitted by `hgridopt calibrate --engine liggghts
 * --packing pour_wide.data,mid.dump --repeats 5` on the development
 * machine (2 CPUs, Debian 12, LIGGGHTS-PUBLIC 3.8.0, one rank):
 * tests/data/files/liggghts/pour_wide.data (the settled bed of
 * in.pour_wide) and mid.dump, the frame at step 10000 of the same input
 * written with `dump traj all custom 100 traj.dump id type radius x y z vx
 * vy vz` (pouring); each bed's lists built once and kept at 1, 3, 6 and 10
 * times the skin, 800 steps each; the slope within each bed, R^2 0.79. */
#define HG_LIGGGHTS_PAIR_NEIGHBOUR 7.805701788798444e-09
#define HG_LIGGGHTS_PAIR_ATOM 4.37750327528358e-08
#define HG_LIGGGHTS_PAIR_NEIGHBOUR_SE 1.8015596327084351e-09
#define HG_LIGGGHTS_PAIR_R2 0.7896746675407271
#define HG_LIGGGHTS_PAIR_NPOINTS 8
#define HG_LIGGGHTS_PAIR_MACHINE \
    "2-CPU VM, Debian 12, 1 rank; beds poured by in.pour_wide"
#define HG_LIGGGHTS_PAIR_VERSION "LIGGGHTS-PUBLIC 3.8.0"
#define HG_LIGGGHTS_PAIR_DATE "2026-11-28T00:50:21Z"
#endif
