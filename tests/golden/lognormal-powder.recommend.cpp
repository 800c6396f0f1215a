// --- HGrid settings by hgridopt for Log-normal pharmaceutical powder, d50 = 40 um ---
// distribution: lognormal:median=40,sigma=0.6,size=diameter,basis=volume,qmin=0.001,qmax=0.999 (r_min 3.13175, r_max 127.724 um)
// dim 3, nu 0.45, K 0.74; HGrid top-down, 4 levels
// K from shipped-default, for MercuryDPM: shipped default for MercuryDPM in 3D (calibrate --engine mercurydpm on 3 RSA packings of 10000 spheres (uniform [1,10], r^-3 on [1,10], bidisperse 1:5), kuwt/MercuryDPM_fork fb0ebf1, 2-core x86_64 Debian 12, 2026-11-25), no calibration file
// predicted work per particle (KOL 2014 model): T = 33.3212 (T_cd 15.0476 pair checks + K x 24.6941 cell accesses)
// single-level linked cell: T = 13803.9 -> predicted speed-up 414
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

    // cell size of level 0..3 (length unit: um)
    Mdouble userHGridCellSize(unsigned int level) override
    {
        static const Mdouble sizes[4] = {23.068347316963944, 40.71982286265205, 73.7673081818116, 255.44799269144698};
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
