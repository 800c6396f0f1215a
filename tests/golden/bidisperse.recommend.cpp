// --- HGrid settings by hgridopt for Bidisperse mixture: 1 mm and 5 mm beads, equal volumes ---
// distribution: discrete:r=0.5;2.5,frac=0.5;0.5,basis=volume (r_min 0.5, r_max 2.5 mm)
// dim 3, nu 0.55, K 0.2; HGrid top-down, 2 levels
// K from paper, for MercuryDPM: paper value (KOL 2014; Ogarko & Luding 2012 measured 0.2-0.45), the value for MercuryDPM (the papers' code)
// predicted work per particle (KOL 2014 model): T = 11.8645 (T_cd 8.52009 pair checks + K x 16.7222 cell accesses)
// single-level linked cell: T = 896.184 -> predicted speed-up 75.5
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
        setHGridMaxLevels(2);
        setHGridCellOverSizeRatio(1.0);
    }

    // cell size of level 0..1 (length unit: mm)
    Mdouble userHGridCellSize(unsigned int level) override
    {
        static const Mdouble sizes[2] = {1, 5.000000005};
        return sizes[level < 2 ? level : 1];
    }
};
