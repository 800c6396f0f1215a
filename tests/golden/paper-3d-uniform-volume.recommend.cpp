// --- HGrid settings by hgridopt for KOL 2014 reference: 3D uniform volume, omega = 100, nu = 0.7 ---
// distribution: powerlaw:alpha=-3,omega=100 (r_min 1, r_max 100 r_min)
// dim 3, nu 0.7, K 0.74; HGrid top-down, 4 levels
// K from shipped-default, for MercuryDPM: shipped default for MercuryDPM in 3D (calibrate --engine mercurydpm on 3 RSA packings of 10000 spheres (uniform [1,10], r^-3 on [1,10], bidisperse 1:5), kuwt/MercuryDPM_fork fb0ebf1, 2-core x86_64 Debian 12, 2026-11-25), no calibration file
// predicted work per particle (KOL 2014 model): T = 25.2817 (T_cd 8.67644 pair checks + K x 22.4396 cell accesses)
// single-level linked cell: T = 91153.6 -> predicted speed-up 3.61e+03
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
        setHGridMaxLevels(4);
        setHGridCellOverSizeRatio(1.0);
    }

    // cell size of level 0..3 (length unit: r_min)
    Mdouble userHGridCellSize(unsigned int level) override
    {
        static const Mdouble sizes[4] = {7.808883449457481, 22.325145857637498, 60.60425435659615, 200};
        const Mdouble up = std::numeric_limits<Mdouble>::max();
        const Mdouble s = std::nextafter(sizes[level < 4 ? level : 3], up);
        if (level + 1 < 4)
            return s;
        // top level: strictly above the largest interaction diameter
        Mdouble reach = 0.0;
        for (BaseParticle* const p : particleHandler)
            reach = std::max(reach, 2.0 * p->getMaxInteractionRadius() *
                                        getHGridCellOverSizeRatio());
        return std::max(s, std::nextafter(reach, up));
    }
};
