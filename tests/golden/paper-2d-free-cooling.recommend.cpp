// --- HGrid settings by hgridopt for KOL 2014 reference: 2D free cooling, omega = 20, nu = 0.4 ---
// distribution: powerlaw:alpha=-3,omega=20 (r_min 1, r_max 20 r_min)
// dim 2, nu 0.4, K 0.74; HGrid top-down, 3 levels
// K from shipped-default, for MercuryDPM: shipped default for MercuryDPM in 2D (the 3D value, not measured on disks: if 2D's K is in 0.2-1.5 the grid chosen with 0.74 does at most 15 % more work than with it (model, disk packings; docs/measurements/mercurydpm.md); fitted on 3 RSA sphere packings, MercuryDPM_fork fb0ebf1), no calibration file
// predicted work per particle (KOL 2014 model): T = 8.94532 (T_cd 3.41743 pair checks + K x 7.47012 cell accesses)
// single-level linked cell: T = 156.324 -> predicted speed-up 17.5
// Derive your driver class from HGridOptimised (or paste the override and the
// settings into your own Mercury2D subclass).
#include "Mercury2D.h"
#include <algorithm>
#include <cmath>
#include <limits>

class HGridOptimised : public Mercury2D
{
public:
    HGridOptimised()
    {
        setHGridMethod(TOPDOWN);
        setHGridDistribution(USER);
        setHGridMaxLevels(3);
        setHGridCellOverSizeRatio(1.0);
    }

    // cell size of level 0..2 (length unit: r_min)
    Mdouble userHGridCellSize(unsigned int level) override
    {
        static const Mdouble sizes[3] = {5.195842937122786, 13.426949066951531, 40};
        const Mdouble up = std::numeric_limits<Mdouble>::max();
        const Mdouble s = std::nextafter(sizes[level < 3 ? level : 2], up);
        if (level + 1 < 3)
            return s;
        // top level: strictly above the largest interaction diameter
        Mdouble reach = 0.0;
        for (BaseParticle* const p : particleHandler)
            reach = std::max(reach, 2.0 * p->getMaxInteractionRadius() *
                                        getHGridCellOverSizeRatio());
        return std::max(s, std::nextafter(reach, up));
    }
};
