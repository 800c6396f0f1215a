/* system.c - checks of the particle system (hg_system.h). */
#include "hg_system.h"

int hg_system_check(const hg_system *sys, hg_err *e)
{
    if (!sys)
        return hg_fail(e, HG_EINVAL, "system: NULL argument");
    if (sys->dim != 2 && sys->dim != 3)
        return hg_fail(e, HG_EINVAL, "dim: %d is not 2 or 3", sys->dim);
    if (!(sys->nu > 0.0 && sys->nu < 1.0))
        return hg_fail(e, HG_EINVAL, "nu: %g is outside (0, 1)", sys->nu);
    return HG_OK;
}
