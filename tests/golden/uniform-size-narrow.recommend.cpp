// --- HGrid settings by hgridopt for Narrow uniform-size glass beads (+-5 %): the linked cell wins ---
// distribution: uniform-size:rmin=0.95,rmax=1.05 (r_min 0.95, r_max 1.05 mm)
// dim 3, nu 0.6, K 0.2; HGrid top-down, 1 level
// K from paper, for MercuryDPM: paper value (KOL 2014; Ogarko & Luding 2012 measured 0.2-0.45), the value for MercuryDPM (the papers' code)
// predicted work per particle (KOL 2014 model): T = 20.6636 (T_cd 17.8636 pair checks + K x 14 cell accesses)
// single-level linked cell: T = 20.6636 -> predicted speed-up 1
// Derive your driver class from HGridOptimised (or paste the override and the
// settings into your own Mercury3D subclass).
#include "Mercury3D.h"

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
        static const Mdouble sizes[1] = {2.1000000021000003};
        return sizes[level < 1 ? level : 0];
    }
};
