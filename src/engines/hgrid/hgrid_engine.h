/* hgrid_engine.h - what the files of the bundled HGrid's engine share. */
#ifndef HG_HGRID_ENGINE_H
#define HG_HGRID_ENGINE_H

#include "hg_engine.h"

extern const hg_engine hg_engine_hgrid;

#endif
