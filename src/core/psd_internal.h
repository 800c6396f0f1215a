/* psd_internal.h - for distribution families and the library's own
 * callers (not installed): a family state wrapped into a handle, the
 * state of family "sample", and GSL's error handler turned off. */
#ifndef HG_PSD_INTERNAL_H
#define HG_PSD_INTERNAL_H

#include "hg_psd.h"

/* Wrap an already created family state into a handle (takes ownership of
 * state: destroyed by family->destroy on failure too). spec may be NULL. */
int hg_psd_wrap(const hg_psd_family *family, void *state, const char *spec,
                int dim, hg_psd **out, hg_err *e);

/* The state of family "sample" (distributions/sample.c) for the n radii r
 * (finite, > 0; r is taken over and freed, also on failure). */
int hg_psd_sample_state(double *r, size_t n, void **state, hg_err *e);
extern const hg_psd_family hg_psd_sample;

/* Turn GSL's abort-on-error handler off (idempotent). */
void hg_gsl_quiet(void);

#endif
