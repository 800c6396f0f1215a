/* lammps_defaults.h - the LAMMPS cost constants shipped with hgridopt
 * (seconds per unit of each count of hg_lammps_work), fitted by
 * `hgridopt calibrate --engine lammps` on the development machine. */
#ifndef HG_LAMMPS_DEFAULTS_H
#define HG_LAMMPS_DEFAULTS_H
#define HG_LAMMPS_DEFAULT_CHECK 2.0e-9
#define HG_LAMMPS_DEFAULT_VISIT 2.2e-9
#define HG_LAMMPS_DEFAULT_BIN 2.1e-9
#define HG_LAMMPS_DEFAULT_BINNED 0.0
#define HG_LAMMPS_DEFAULT_COLL 0.0
#define HG_LAMMPS_DEFAULT_NEIGH 0.0
#define HG_LAMMPS_DEFAULT_CHECK_SE 0.0
#define HG_LAMMPS_DEFAULT_VISIT_SE 0.0
#define HG_LAMMPS_DEFAULT_BIN_SE 0.0
#define HG_LAMMPS_DEFAULT_BINNED_SE 0.0
#define HG_LAMMPS_DEFAULT_COLL_SE 0.0
#define HG_LAMMPS_DEFAULT_NEIGH_SE 0.0
#define HG_LAMMPS_DEFAULT_R2 0.0
#define HG_LAMMPS_DEFAULT_NPOINTS 0
#define HG_LAMMPS_DEFAULT_MACHINE "development machine"
#define HG_LAMMPS_DEFAULT_VERSION "29 Sep 2021 - Update 2"
#define HG_LAMMPS_DEFAULT_DATE "2026-11-22"
#endif
