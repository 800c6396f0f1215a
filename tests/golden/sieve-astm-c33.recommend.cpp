// --- HGrid settings by hgridopt for Concrete sand: ASTM C33 fine aggregate, mid-band grading ---
// distribution: table:file=../distributions/data/astm-c33-fine.csv,size=diameter,basis=mass (r_min 0.0375, r_max 4.75 mm)
// dim 3, nu 0.6, K 0.74; HGrid top-down, 5 levels
// K from shipped-default, for MercuryDPM: shipped default for MercuryDPM in 3D (calibrate --engine mercurydpm on 3 RSA packings of 10000 spheres (uniform [1,10], r^-3 on [1,10], bidisperse 1:5), kuwt/MercuryDPM_fork fb0ebf1, 2-core x86_64 Debian 12, 2026-11-25), no calibration file
// predicted work per particle (KOL 2014 model): T = 31.0276 (T_cd 12.6995 pair checks + K x 24.7677 cell accesses)
// single-level linked cell: T = 826364 -> predicted speed-up 2.66e+04
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
        setHGridMaxLevels(5);
        setHGridCellOverSizeRatio(1.0);
    }

    // cell size of level 0..4 (length unit: mm)
    Mdouble userHGridCellSize(unsigned int level) override
    {
        static const Mdouble sizes[5] = {0.20178806450263198, 0.41261395623858677, 0.7604216289829827, 1.8430433485326467, 9.5};
        const Mdouble up = std::numeric_limits<Mdouble>::max();
        const Mdouble s = std::nextafter(sizes[level < 5 ? level : 4], up);
        if (level + 1 < 5)
            return s;
        // top level: strictly above the largest interaction diameter
        Mdouble reach = 0.0;
        for (BaseParticle* const p : particleHandler)
            reach = std::max(reach, 2.0 * p->getMaxInteractionRadius() *
                                        getHGridCellOverSizeRatio());
        return std::max(s, std::nextafter(reach, up));
    }
};
