/* mercurydpm_engine.h - what the files of the MercuryDPM engine share. */
#ifndef HG_MERCURYDPM_ENGINE_H
#define HG_MERCURYDPM_ENGINE_H

#include "hg_engine.h"

extern const hg_engine hg_engine_mercurydpm;

/* --format mercurydpm: the C++ subclass of a grid, with the prediction at
 * MercuryDPM's K (or the K the prediction given implies). */
int hg_mercurydpm_write_settings(const hg_engine_settings *in, char **text,
                                 hg_err *e);

#endif
