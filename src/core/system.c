/* system.c - checks of the particle system (hg_system.h). */
#include "hg_system.h"
#include "hg_snapshot.h"

#include <string.h>

const char *hg_structure_name(hg_structure s)
{
    return s == HG_STRUCTURE_HARD_SPHERES ? "hard-spheres"
           : s == HG_STRUCTURE_MEASURED   ? "measured"
                                          : "poisson";
}

int hg_structure_parse(const char *text, hg_structure *out, hg_err *e)
{
    if (text && !strcmp(text, "poisson")) {
        *out = HG_STRUCTURE_POISSON;
        return HG_OK;
    }
    if (text &&
        (!strcmp(text, "hard-spheres") || !strcmp(text, "hard-disks"))) {
        *out = HG_STRUCTURE_HARD_SPHERES;
        return HG_OK;
    }
    if (text && !strcmp(text, "measured")) {
        *out = HG_STRUCTURE_MEASURED;
        return HG_OK;
    }
    return hg_fail(e, HG_EINVAL,
                   "structure: unknown value '%s' (poisson, hard-spheres or "
                   "measured)",
                   text ? text : "");
}

int hg_system_check(const hg_system *sys, hg_err *e)
{
    if (!sys)
        return hg_fail(e, HG_EINVAL, "system: NULL argument");
    if (sys->dim != 2 && sys->dim != 3)
        return hg_fail(e, HG_EINVAL, "dim: %d is not 2 or 3", sys->dim);
    if (!(sys->nu > 0.0 && sys->nu < 1.0))
        return hg_fail(e, HG_EINVAL, "nu: %g is outside (0, 1)", sys->nu);
    if (sys->structure != HG_STRUCTURE_POISSON &&
        sys->structure != HG_STRUCTURE_HARD_SPHERES &&
        sys->structure != HG_STRUCTURE_MEASURED)
        return hg_fail(e, HG_EINVAL, "structure: %d is not a known structure",
                       (int)sys->structure);
    if (sys->structure == HG_STRUCTURE_MEASURED &&
        (!sys->snapshot || hg_snapshot_dim(sys->snapshot) != sys->dim))
        return hg_fail(e, HG_EINVAL,
                       "structure: measured needs the pair statistics of a "
                       "%dD particle file (give --packing)",
                       sys->dim);
    return HG_OK;
}
