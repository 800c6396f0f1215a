// --- HGrid settings by hgridopt for Concrete sand: ASTM C33 fine aggregate, mid-band grading ---
// distribution: table:file=../distributions/data/astm-c33-fine.csv,size=diameter,basis=mass (r_min 0.0375, r_max 4.75 mm)
// dim 3, nu 0.6, K 0.2; HGrid top-down, 6 levels
// K from paper, for MercuryDPM: paper value (KOL 2014; Ogarko & Luding 2012 measured 0.2-0.45), the value for MercuryDPM (the papers' code)
// predicted work per particle (KOL 2014 model): T = 15.712 (T_cd 8.92767 pair checks + K x 33.9219 cell accesses)
// single-level linked cell: T = 826357 -> predicted speed-up 5.26e+04
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
        setHGridMaxLevels(6);
        setHGridCellOverSizeRatio(1.0);
    }

    // cell size of level 0..5 (length unit: mm)
    Mdouble userHGridCellSize(unsigned int level) override
    {
        static const Mdouble sizes[6] = {0.16452755647828674, 0.2930184905217345, 0.4904052176682169, 0.8474878203563597, 1.9564708127375665, 9.5000000095};
        return sizes[level < 6 ? level : 5];
    }
};
