// --- HGrid settings by hgridopt for KOL 2014 reference: 2D free cooling, omega = 20, nu = 0.4 ---
// distribution: powerlaw:alpha=-3,omega=20 (r_min 1, r_max 20 r_min)
// dim 2, nu 0.4, K 0.2; HGrid top-down, 4 levels
// K from paper, for MercuryDPM: paper value (KOL 2014; Ogarko & Luding 2012 measured 0.2-0.45), the value for MercuryDPM (the papers' code)
// predicted work per particle (KOL 2014 model): T = 4.41093 (T_cd 2.43775 pair checks + K x 9.86593 cell accesses)
// single-level linked cell: T = 153.624 -> predicted speed-up 34.8
// Derive your driver class from HGridOptimised (or paste the override and the
// settings into your own Mercury2D subclass).
#include "Mercury2D.h"

class HGridOptimised : public Mercury2D
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
        static const Mdouble sizes[4] = {4.027756765488666, 8.053212820033218, 16.53511808609598, 40.00000004};
        return sizes[level < 4 ? level : 3];
    }
};
