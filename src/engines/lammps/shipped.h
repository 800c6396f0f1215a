/* shipped.h - the LAMMPS cost constants shipped with hgridopt
 * (seconds per unit of each count of hg_lammps_work), fitted by
 * `hgridopt calibrate --engine lammps --n 50000 --steps 20 --repeats 3`
 * on the development machine: a 2-CPU virtual machine shared with other
 * jobs (load average ~20 during the fit, so absolute times are about 5x
 * those of an idle machine; the ratios between settings are what the
 * recommendation uses), Debian 12, LAMMPS 29 Sep 2021 - Update 2, one
 * rank; 24 measurements (3 systems x 8 settings), R^2 = 0.912. The terms
 * "binned" and "neighbours" came out <= 0 and were dropped; the
 * collection-loop constant is poorly determined (+- 53 ns). */
#ifndef HG_LAMMPS_DEFAULTS_H
#define HG_LAMMPS_DEFAULTS_H
#define HG_LAMMPS_DEFAULT_CHECK 1.1429934798813561e-08
#define HG_LAMMPS_DEFAULT_VISIT 1.4721900908516179e-08
#define HG_LAMMPS_DEFAULT_BIN 1.1667019235472238e-08
#define HG_LAMMPS_DEFAULT_BINNED 0.0
#define HG_LAMMPS_DEFAULT_COLL 3.0441376373473173e-08
#define HG_LAMMPS_DEFAULT_NEIGH 0.0
#define HG_LAMMPS_DEFAULT_CHECK_SE 1.1257159262996255e-09
#define HG_LAMMPS_DEFAULT_VISIT_SE 2.2349016175447153e-09
#define HG_LAMMPS_DEFAULT_BIN_SE 3.1884971143332883e-09
#define HG_LAMMPS_DEFAULT_BINNED_SE 0.0
#define HG_LAMMPS_DEFAULT_COLL_SE 5.2751600561433051e-08
#define HG_LAMMPS_DEFAULT_NEIGH_SE 0.0
#define HG_LAMMPS_DEFAULT_R2 0.91239589736576865
#define HG_LAMMPS_DEFAULT_NPOINTS 24
#define HG_LAMMPS_DEFAULT_MACHINE \
    "2-CPU VM shared with other jobs (load ~20), Debian 12, 1 rank"
#define HG_LAMMPS_DEFAULT_VERSION "29 Sep 2021 - Update 2"
#define HG_LAMMPS_DEFAULT_DATE "2026-11-22T17:04:47Z"
/* Pair seconds per step (hg_lammps_pair_kind): per stored neighbour pair
 * and per atom, fitted by `hgridopt calibrate --engine lammps --packing
 * pour_poly.data,drum.data,funnel_settled.data --steps 40 --repeats 5`
 * (tests/data/files/lammps: beds poured by LAMMPS' own examples) on the
 * development machine (2 CPUs, Debian 12, lmp 29 Sep 2021 - Update 2, one
 * rank): each bed's lists built once and kept, at 1, 3, 6 and 10 times
 * the default skin, 1000 steps each; the slope within each bed. The
 * per-pair cost is small next to a bed's contacts (R^2 0.23 of the
 * within-bed fit) and agrees with LAMMPS' pour run whole at skins 0.2 and
 * 0.8 (Pair 4.39 and 6.47 s: 3 ns a stored pair); random packings of a
 * size ratio 20 and 50000 atoms gave 15.6 ns (their neighbours scattered
 * in memory). */
#define HG_LAMMPS_PAIR_NEIGHBOUR 3.4167846332650237e-09
#define HG_LAMMPS_PAIR_ATOM 5.461284750571974e-08
#define HG_LAMMPS_PAIR_NEIGHBOUR_SE 2.2155372058834755e-09
#define HG_LAMMPS_PAIR_ATOM_SE 0.0
#define HG_LAMMPS_PAIR_R2 0.2291651076513863
#define HG_LAMMPS_PAIR_NPOINTS 12
#define HG_LAMMPS_PAIR_MACHINE \
    "2-CPU VM, Debian 12, 1 rank; beds poured by LAMMPS' examples"
#define HG_LAMMPS_PAIR_VERSION "29 Sep 2021 - Update 2"
#define HG_LAMMPS_PAIR_DATE "2026-11-28T00:33:02Z"
#endif
