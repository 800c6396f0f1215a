// --- HGrid settings by hgridopt for Bidisperse mixture: 1 mm and 5 mm beads, equal volumes ---
// distribution: discrete:r=0.5;2.5,frac=0.5;0.5,basis=volume (r_min 0.5, r_max 2.5 mm)
// dim 3, nu 0.55, K 0.74; HGrid top-down, 2 levels
// K from shipped-default, for MercuryDPM: shipped default for MercuryDPM in 3D (calibrate --engine mercurydpm on 3 RSA packings of 10000 spheres (uniform [1,10], r^-3 on [1,10], bidisperse 1:5), kuwt/MercuryDPM_fork fb0ebf1, 2-core x86_64 Debian 12, 2026-11-25), no calibration file
// predicted work per particle (KOL 2014 model): T = 20.8945 (T_cd 8.52009 pair checks + K x 16.7222 cell accesses)
// single-level linked cell: T = 903.744 -> predicted speed-up 43.3
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
        setHGridMaxLevels(2);
        setHGridCellOverSizeRatio(1.0);
    }

    // cell size of level 0..1 (length unit: mm)
    Mdouble userHGridCellSize(unsigned int level) override
    {
        static const Mdouble sizes[2] = {1, 5};
        const Mdouble up = std::numeric_limits<Mdouble>::max();
        const Mdouble s = std::nextafter(sizes[level < 2 ? level : 1], up);
        if (level + 1 < 2)
            return s;
        // top level: strictly above the largest interaction diameter
        Mdouble reach = 0.0;
        for (BaseParticle* const p : particleHandler)
            reach = std::max(reach, 2.0 * p->getMaxInteractionRadius() *
                                        getHGridCellOverSizeRatio());
        return std::max(s, std::nextafter(reach, up));
    }
};
