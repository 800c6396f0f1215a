// --- HGrid settings by hgridopt for Log-normal pharmaceutical powder, d50 = 40 um ---
// distribution: lognormal:median=40,sigma=0.6,size=diameter,basis=volume,qmin=0.001,qmax=0.999 (r_min 3.13175, r_max 127.724 um)
// dim 3, nu 0.45, K 0.2; HGrid top-down, 5 levels
// K from paper, for MercuryDPM: paper value (KOL 2014; Ogarko & Luding 2012 measured 0.2-0.45), the value for MercuryDPM (the papers' code)
// predicted work per particle (KOL 2014 model): T = 17.6561 (T_cd 10.6723 pair checks + K x 34.9189 cell accesses)
// single-level linked cell: T = 13796.3 -> predicted speed-up 781
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

    // cell size of level 0..4 (length unit: um)
    Mdouble userHGridCellSize(unsigned int level) override
    {
        static const Mdouble sizes[5] = {18.821134626299266, 29.997498453466807, 45.299261979509254, 77.43128756555363, 255.447992946895};
        return sizes[level < 5 ? level : 4];
    }
};
