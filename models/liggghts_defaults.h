/* liggghts_defaults.h - the LIGGGHTS cost constants shipped with hgridopt
 * (seconds per unit of each count of hg_liggghts_work).
 *
 * Fitted by hg_liggghts_fit on 2026-11-25 (19:03-19:27 UTC) on the
 * development machine: a 2-CPU virtual machine shared with other jobs
 * (its speed changed up to 3x between runs), Debian 12, liggghts
 * (LIGGGHTS-PUBLIC 3.8.0, Debian 3.8.0+repack1-9+b2), one rank. Data: three
 * runs of the liggghts engine's calibrate hook,
 *   tests/bench_liggghts calibrate OUT c1.data c2.data c3.data c4.data
 * (HG_LIGGGHTS_STEPS 20/30/30, HG_LIGGGHTS_REPEATS 3/5/5; 7 bin sizes,
 * 0.25-1.5 x the cutoff, on each of: hgridopt pack --generator rsa --dim 3
 * --n 10000 with --psd powerlaw:alpha=-3,rmin=1,omega=4 --nu 0.35 --seed 11,
 * uniform-size:rmin=1,rmax=8 --nu 0.3 --seed 12,
 * lognormal:median=1,sigma=0.5,rmin=0.5,rmax=4 --nu 0.35 --seed 13, and
 * the poured bed tests/data/snapshots/bed3d_d1-8.data), 84 measured Neigh
 * times fitted together with each run's systems kept apart (the machine's
 * load differed between runs). The within-system constants (checks,
 * lines) are the well determined ones (+- 6 % and 9 %); visits and bins
 * came out <= 0 and were dropped; binned and neighbours are poorly
 * determined (the load moved every system's mean). R^2 0.55 over all 84
 * (mostly the load between runs). */
#ifndef HG_LIGGGHTS_DEFAULTS_H
#define HG_LIGGGHTS_DEFAULTS_H
#define HG_LIGGGHTS_DEFAULT_CHECK 3.5580350045462921e-09
#define HG_LIGGGHTS_DEFAULT_VISIT 0.0
#define HG_LIGGGHTS_DEFAULT_LINE 2.5214533233265159e-08
#define HG_LIGGGHTS_DEFAULT_BIN 0.0
#define HG_LIGGGHTS_DEFAULT_BINNED 5.8888136088938294e-10
#define HG_LIGGGHTS_DEFAULT_NEIGH 8.5463185878260271e-10
#define HG_LIGGGHTS_DEFAULT_CHECK_SE 2.2100027927650846e-10
#define HG_LIGGGHTS_DEFAULT_VISIT_SE 0.0
#define HG_LIGGGHTS_DEFAULT_LINE_SE 2.2008506888203133e-09
#define HG_LIGGGHTS_DEFAULT_BIN_SE 0.0
#define HG_LIGGGHTS_DEFAULT_BINNED_SE 5.9975872728619446e-10
#define HG_LIGGGHTS_DEFAULT_NEIGH_SE 2.7145915376854941e-09
#define HG_LIGGGHTS_DEFAULT_R2 0.54753929918491551
#define HG_LIGGGHTS_DEFAULT_NPOINTS 84
#define HG_LIGGGHTS_DEFAULT_MACHINE \
    "2-CPU VM shared with other jobs, Debian 12, 1 rank"
#define HG_LIGGGHTS_DEFAULT_VERSION "LIGGGHTS-PUBLIC 3.8.0"
#define HG_LIGGGHTS_DEFAULT_DATE "2026-11-25T19:27:00Z"
#endif
