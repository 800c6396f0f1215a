// --- HGrid settings by hgridopt for Narrow uniform-size glass beads (+-5 %): the linked cell wins ---
// distribution: uniform-size:rmin=0.95,rmax=1.05 (r_min 0.95, r_max 1.05 mm)
// dim 3, nu 0.6, K 0.74; HGrid top-down, 1 level
// K from shipped-default, for MercuryDPM: shipped default for MercuryDPM in 3D (calibrate --engine mercurydpm on 3 RSA packings of 10000 spheres (uniform [1,10], r^-3 on [1,10], bidisperse 1:5), kuwt/MercuryDPM_fork fb0ebf1, 2-core x86_64 Debian 12, 2026-11-25), no calibration file
// predicted work per particle (KOL 2014 model): T = 28.2236 (T_cd 17.8636 pair checks + K x 14 cell accesses)
// single-level linked cell: T = 28.2236 -> predicted speed-up 1
// Derive your driver class from HGridOptimised (or paste the override and the
// settings into your own Mercury3D subclass).
#include "Mercury3D.h"
#include <algorithm>
#include <cmath>
#include <limits>

class HGridOptimised : public Mercury3D
{
public:
    HGridOptimised()
    {
        setHGridMethod(TOPDOWN);
        setHGridDistribution(USER);
        setHGridMaxLevels(1);
        setHGridCellOverSizeRatio(1.0);
    }

    // cell size of level 0..0 (length unit: mm)
    Mdouble userHGridCellSize(unsigned int level) override
    {
        static const Mdouble sizes[1] = {2.1};
        const Mdouble up = std::numeric_limits<Mdouble>::max();
        const Mdouble s = std::nextafter(sizes[level < 1 ? level : 0], up);
        if (level + 1 < 1)
            return s;
        // top level: strictly above the largest interaction diameter
        Mdouble reach = 0.0;
        for (BaseParticle* const p : particleHandler)
            reach = std::max(reach, 2.0 * p->getMaxInteractionRadius() *
                                        getHGridCellOverSizeRatio());
        return std::max(s, std::nextafter(reach, up));
    }
};
