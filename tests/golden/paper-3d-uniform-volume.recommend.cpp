// --- HGrid settings by hgridopt for KOL 2014 reference: 3D uniform volume, omega = 100, nu = 0.7 ---
// distribution: powerlaw:alpha=-3,omega=100 (r_min 1, r_max 100 r_min)
// dim 3, nu 0.7, K 0.2; HGrid top-down, 5 levels
// K from paper, for MercuryDPM: paper value (KOL 2014; Ogarko & Luding 2012 measured 0.2-0.45), the value for MercuryDPM (the papers' code)
// predicted work per particle (KOL 2014 model): T = 11.633 (T_cd 5.68458 pair checks + K x 29.7421 cell accesses)
// single-level linked cell: T = 91146.1 -> predicted speed-up 7.84e+03
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
        setHGridMaxLevels(5);
        setHGridCellOverSizeRatio(1.0);
    }

    // cell size of level 0..4 (length unit: r_min)
    Mdouble userHGridCellSize(unsigned int level) override
    {
        static const Mdouble sizes[5] = {6.231077640738336, 14.867750142316897, 31.98527086918852, 72.87167163065222, 200.00000020000002};
        return sizes[level < 5 ? level : 4];
    }
};
