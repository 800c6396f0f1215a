/* io_system.c - turn a particle set into (distribution, dim, nu) for the
 * cost model: `validate --packing` and `recommend --packing`. Kept apart
 * from io.c so that reading files does not pull in the sample family. */
#include "hg_io.h"

#include <math.h>

int hg_io_system_from_particles(const hg_particles *p, hg_psd **psd,
                                hg_system *sys, hg_err *e)
{
    *psd = NULL;
    int st = hg_particles_check(p, e);
    if (st != HG_OK)
        return st;
    if (p->n == 0)
        return hg_fail(e, HG_EINVAL, "particle set: no particles");
    double nu = hg_particles_packing_fraction(p);
    if (!isfinite(nu))
        return hg_fail(e, HG_EINVAL,
                       "particle set: the spheres' or the box's volume is "
                       "not a finite number (box edges %g x %g%s%.0g)",
                       p->hi[0] - p->lo[0], p->hi[1] - p->lo[1],
                       p->dim == 3 ? " x " : "",
                       p->dim == 3 ? p->hi[2] - p->lo[2] : 0.0);
    if (!(nu > 0.0 && nu < 1.0))
        return hg_fail(e, HG_EINVAL,
                       "particle set: packing fraction %g is not in (0, 1)",
                       nu);
    st = hg_psd_from_radii(p->r, p->n, p->dim, psd, e);
    if (st != HG_OK)
        return st;
    sys->dim = p->dim;
    sys->nu = nu;
    return HG_OK;
}
