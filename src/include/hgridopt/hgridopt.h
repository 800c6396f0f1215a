/* hgridopt.h - umbrella header of the hgridopt library. */
#ifndef HGRIDOPT_H
#define HGRIDOPT_H

#include "hg_advise.h"
#include "hg_bench.h"
#include "hg_calib.h"
#include "hg_common.h"
#include "hg_consts.h"
#include "hg_export.h"
#include "hg_figure.h"
#include "hg_io.h"
#include "hg_grid.h"
#include "hg_detector.h"
#include "hg_engine.h"
#include "hg_lammps.h"
#include "hg_liggghts.h"
#include "hg_mercurydpm.h"
#include "hg_model.h"
#include "hg_pack.h"
#include "hg_pack_gen.h"
#include "hg_plot.h"
#include "hg_opt.h"
#include "hg_particles.h"
#include "hg_psd.h"
#include "hg_snapshot.h"
#include "hg_sysfile.h"
#include "hg_system.h"
#include "hg_validate.h"
#include "hg_version.h"
#include "hg_whole_run.h"
#include "hg_ranks.h"

#endif
