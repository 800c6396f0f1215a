/* hgridopt.h - umbrella header of the hgridopt library. */
#ifndef HGRIDOPT_H
#define HGRIDOPT_H

#include "hg_common.h"
#include "hg_model.h"
#include "hg_opt.h"
#include "hg_particles.h"
#include "hg_psd.h"

#endif
