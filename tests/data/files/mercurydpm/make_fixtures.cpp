// hgridopt test-fixture generator for MercuryDPM output files.
//
// This is our own small driver program; it is compiled against a MercuryDPM
// kernel build by make_fixtures.sh (MercuryDPM itself is not part of hgridopt).
// It produces polydisperse packings and lets MercuryDPM write its standard
// output files (.data, .restart, .ene, .fstat; ParaView's Particle_N.vtu for
// lees2d).
//
// Usage: make_fixtures VARIANT N NFRAMES [SEED]
//   VARIANT  periodic3d   : 3D spheres, PeriodicBoundary in x and y,
//                           InfiniteWall floor (z=0) and ceiling (z=zMax)
//            walls2d      : 2D discs (Mercury2D), InfiniteWalls at x=xMin,
//                           x=xMax and floor y=0 (plus a lid at y=yMax)
//            walls3d      : 3D spheres, InfiniteWalls on all six sides
//            insert2d     : 2D discs in a walled box, no particle at t=0: a
//                           CubeInsertionBoundary inserts N of them near the
//                           top (uniform radii on [RMIN, RMAX]), which fall
//            lees2d       : 2D discs, no gravity, LeesEdwardsBoundary on the
//                           domain (sheared along x), no walls; also writes
//                           mdpm_lees2dParticle_K.vtu at every saved step
//            tdperiodic3d : 3D spheres, PeriodicBoundary in x,
//                           TimeDependentPeriodicBoundary in y (its images
//                           shifted and boosted along x), floor and ceiling
//            angled3d     : 3D spheres in a quarter of a cell: an
//                           AngledPeriodicBoundary between the planes x=0
//                           and y=0 (about the z axis), InfiniteWalls at
//                           x=xMax, y=yMax, floor and ceiling
//   N        number of particles
//   NFRAMES  number of time steps saved in the ONE_FILE .data file
//            (t=0, equally spaced ones, and the final one)
//   SEED     seed for MercuryDPM's RNG (default 1)
//
// Radii follow a truncated power law n(r) ~ r^-3 on [RMIN, RMAX] (equal
// volume per radius interval), RMAX/RMIN = 5. Particles are placed at random
// without overlap (largest first) in a loose configuration and fall under
// gravity, settling partially. Contacts are frictionless (LinearViscoelastic-
// Species); particles get a random initial spin.

#include <Mercury2D.h>
#include <Mercury3D.h>
#include <Species/LinearViscoelasticSpecies.h>
#include <Walls/InfiniteWall.h>
#include <Boundaries/AngledPeriodicBoundary.h>
#include <Boundaries/CubeInsertionBoundary.h>
#include <Boundaries/LeesEdwardsBoundary.h>
#include <Boundaries/PeriodicBoundary.h>
#include <Boundaries/TimeDependentPeriodicBoundary.h>
#include <Particles/SphericalParticle.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

const Mdouble RMIN = 0.2e-3;   // m
const Mdouble RMAX = 1.0e-3;   // m
const Mdouble DENSITY = 2500;  // kg/m^3
const Mdouble GRAV = 9.81;     // m/s^2
const Mdouble RESTITUTION = 0.5;

// What holds the particles in along each axis, besides the domain.
enum class Setup
{
    Settle,         // walls, or PeriodicBoundary along x (and y in 3D)
    Insert,         // walls; particles come from a CubeInsertionBoundary
    LeesEdwards,    // LeesEdwardsBoundary along x and y, no walls
    TimeDependent,  // PeriodicBoundary x, TimeDependentPeriodicBoundary y
    Angled          // AngledPeriodicBoundary between x=0 and y=0
};

struct Config
{
    std::string variant;
    Setup setup = Setup::Settle;
    unsigned dim = 3;
    bool periodic = false;  // Settle: periodic in x (and y for 3D)
    unsigned n = 0;
    unsigned nFrames = 5;
    unsigned long seed = 1;
    Mdouble lx = 0, ly = 0, lz = 0;  // domain extents (lz unused in 2D)
    Mdouble collisionTime = 0;
    Mdouble simTime = 0;
    Mdouble shear = 0;        // LeesEdwards, TimeDependent: velocity of the
                              // images across y (m/s)
    Mdouble insertTime = 0;   // Insert: N particles inserted over this time
};

// Axes whose particle images are plain translations at t = 0 (placement
// keeps no gap to their planes).
void periodicAxes(const Config& c, bool per[3])
{
    const bool p = c.setup == Setup::LeesEdwards || c.setup == Setup::TimeDependent ||
                   (c.setup == Setup::Settle && c.periodic);
    per[0] = p;
    per[1] = p && (c.dim == 3 || c.setup == Setup::LeesEdwards);
    per[2] = false;
}

template<class Base>
class FixtureProblem : public Base
{
public:
    explicit FixtureProblem(const Config& c) : cfg(c) {}

    void setupInitialConditions() override
    {
        auto species = this->speciesHandler.getObject(0);
        addWalls(species);
        addBoundaries();
        if (cfg.setup == Setup::Insert)
            addInsertion(species);
        else
            addParticles(species);
    }

    // the insertion boundary stops once N particles are in
    void actionsAfterTimeStep() override
    {
        if (insertion && insertion->isActivated() &&
            this->particleHandler.getNumberOfObjects() >= cfg.n)
            insertion->deactivate();
    }

private:
    void addWall(InfiniteWall& w, unsigned axis, bool upper)
    {
        Vec3D normal(0, 0, 0), at(0, 0, 0);
        const Mdouble lo[3] = {this->getXMin(), this->getYMin(), this->getZMin()};
        const Mdouble hi[3] = {this->getXMax(), this->getYMax(), this->getZMax()};
        (axis == 0 ? normal.X : axis == 1 ? normal.Y : normal.Z) = upper ? 1 : -1;
        (axis == 0 ? at.X : axis == 1 ? at.Y : at.Z) = upper ? hi[axis] : lo[axis];
        w.set(normal, at);
        this->wallHandler.copyAndAddObject(w);
    }

    void addWalls(ParticleSpecies* species)
    {
        InfiniteWall w;
        w.setSpecies(species);
        switch (cfg.setup)
        {
            case Setup::Settle:
            case Setup::Insert:
                if (cfg.dim == 2)
                {
                    for (unsigned a = 0; a < 2; ++a)
                    {
                        addWall(w, a, false);
                        addWall(w, a, true);
                    }
                    break;
                }
                addWall(w, 2, false);
                addWall(w, 2, true);
                if (!cfg.periodic)
                    for (unsigned a = 0; a < 2; ++a)
                    {
                        addWall(w, a, false);
                        addWall(w, a, true);
                    }
                break;
            case Setup::LeesEdwards:
                break;
            case Setup::TimeDependent:
                addWall(w, 2, false);
                addWall(w, 2, true);
                break;
            case Setup::Angled:
                addWall(w, 2, false);
                addWall(w, 2, true);
                addWall(w, 0, true);
                addWall(w, 1, true);
                break;
        }
    }

    void addBoundaries()
    {
        const Mdouble v = cfg.shear;
        switch (cfg.setup)
        {
            case Setup::Settle:
                if (cfg.periodic)
                {
                    PeriodicBoundary b;
                    b.set(Vec3D(1, 0, 0), this->getXMin(), this->getXMax());
                    this->boundaryHandler.copyAndAddObject(b);
                    if (cfg.dim == 3)
                    {
                        b.set(Vec3D(0, 1, 0), this->getYMin(), this->getYMax());
                        this->boundaryHandler.copyAndAddObject(b);
                    }
                }
                break;
            case Setup::Insert:
                break;
            case Setup::LeesEdwards:
            {
                // the images across y move along x at +-v
                LeesEdwardsBoundary b;
                b.set([v](Mdouble t) { return v * t; }, [v](Mdouble) { return v; },
                      this->getXMin(), this->getXMax(), this->getYMin(), this->getYMax());
                this->boundaryHandler.copyAndAddObject(b);
                break;
            }
            case Setup::TimeDependent:
            {
                PeriodicBoundary b;
                b.set(Vec3D(1, 0, 0), this->getXMin(), this->getXMax());
                this->boundaryHandler.copyAndAddObject(b);
                // images across y shifted along x by v t (modulo the x period)
                // and boosted by v
                const Mdouble lx = this->getXMax() - this->getXMin();
                TimeDependentPeriodicBoundary td;
                td.set(Vec3D(0, 1, 0), this->getYMin(), this->getYMax(),
                       [v, lx](Mdouble t) { return Vec3D(std::fmod(v * t, lx), 0, 0); },
                       [v](Mdouble) { return Vec3D(v, 0, 0); });
                // 0: the shift function is used as given (the default wraps
                // it by its length, undefined for a zero shift at t = 0)
                td.setMaxShift(0);
                this->boundaryHandler.copyAndAddObject(td);
                break;
            }
            case Setup::Angled:
            {
                // the quarter x > 0, y > 0; a particle leaving through x = 0
                // comes back through y = 0, turned by 90 degrees about z
                AngledPeriodicBoundary b;
                b.set(Vec3D(1, 0, 0), Vec3D(0, -1, 0), Vec3D(0, 0, 0));
                this->boundaryHandler.copyAndAddObject(b);
                break;
            }
        }
    }

    void addInsertion(ParticleSpecies* species)
    {
        // uniform radii on [RMIN, RMAX], at rest, in the upper half of the
        // box; the volume (area) rate brings N of them in over insertTime
        SphericalParticle p;
        p.setSpecies(species);
        p.setRadius(RMAX);
        CubeInsertionBoundary b;
        const Vec3D lo(this->getXMin() + RMAX, 0.5 * (this->getYMin() + this->getYMax()), 0);
        const Vec3D hi(this->getXMax() - RMAX, this->getYMax() - RMAX, 0);
        b.set(&p, 50, lo, hi, Vec3D(0, 0, 0), Vec3D(0, 0, 0), RMIN, RMAX);
        const Mdouble meanR2 = (RMAX * RMAX * RMAX - RMIN * RMIN * RMIN) / (3 * (RMAX - RMIN));
        b.setVolumeFlowRate(cfg.n * constants::pi * meanR2 / cfg.insertTime);
        insertion = this->boundaryHandler.copyAndAddObject(b);
    }

    void addParticles(ParticleSpecies* species)
    {
        const bool twoD = cfg.dim == 2;

        // --- radii: n(r) ~ r^-3 on [RMIN, RMAX], inverse-CDF sampling ------
        std::vector<Mdouble> radii(cfg.n);
        const Mdouble a = 1.0 / (RMIN * RMIN), b2 = 1.0 / (RMAX * RMAX);
        for (auto& r : radii)
        {
            const Mdouble u = this->random.getRandomNumber(0.0, 1.0);
            r = 1.0 / std::sqrt(a - u * (a - b2));
        }
        // guarantee the extremes of the range are present
        if (cfg.n >= 2)
        {
            radii[0] = RMAX;
            radii[1] = RMIN;
        }
        std::sort(radii.begin(), radii.end(), std::greater<Mdouble>());

        // --- random sequential placement without overlap -------------------
        const Mdouble lo[3] = {this->getXMin(), this->getYMin(), this->getZMin()};
        const Mdouble hi[3] = {this->getXMax(), this->getYMax(), this->getZMax()};
        bool per[3];
        periodicAxes(cfg, per);
        std::vector<Vec3D> placed;
        placed.reserve(cfg.n);
        SphericalParticle p;
        p.setSpecies(species);
        for (unsigned i = 0; i < cfg.n; ++i)
        {
            const Mdouble r = radii[i];
            bool ok = false;
            Vec3D x;
            for (unsigned attempt = 0; attempt < 200000 && !ok; ++attempt)
            {
                Mdouble c[3] = {0, 0, 0};
                for (unsigned d = 0; d < cfg.dim; ++d)
                {
                    // leave a gap of 1.05 r to non-periodic walls
                    Mdouble l = lo[d], h = hi[d];
                    if (!per[d])
                    {
                        l += 1.05 * r;
                        h -= 1.05 * r;
                    }
                    c[d] = this->random.getRandomNumber(l, h);
                }
                x = Vec3D(c[0], c[1], c[2]);
                ok = true;
                for (unsigned j = 0; j < placed.size() && ok; ++j)
                {
                    Mdouble dd[3] = {x.X - placed[j].X, x.Y - placed[j].Y, x.Z - placed[j].Z};
                    for (unsigned d = 0; d < 3; ++d)
                        if (per[d])
                        {
                            const Mdouble L = hi[d] - lo[d];
                            dd[d] -= L * std::round(dd[d] / L);
                        }
                    const Mdouble s = radii[j] + r;
                    if (dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2] < s * s * 1.0001)
                        ok = false;
                }
            }
            logger.assert_always(ok, "could not place particle % (r=%)", i, r);
            placed.push_back(x);
            p.setRadius(r);
            p.setPosition(x);
            // sheared runs start from the shear profile v_x = shear (y - yMid) / ly
            Vec3D v(0, 0, 0);
            if (cfg.shear != 0)
                v.X = cfg.shear * (x.Y - 0.5 * (lo[1] + hi[1])) / (hi[1] - lo[1]);
            p.setVelocity(v);
            // frictionless contacts keep the spin constant; a random initial
            // spin makes the orientation/angular-velocity columns non-trivial
            const Mdouble w = 100.0;  // rad/s
            if (twoD)
                p.setAngularVelocity(Vec3D(0, 0, this->random.getRandomNumber(-w, w)));
            else
                p.setAngularVelocity(Vec3D(this->random.getRandomNumber(-w, w),
                                           this->random.getRandomNumber(-w, w),
                                           this->random.getRandomNumber(-w, w)));
            this->particleHandler.copyAndAddObject(p);
        }
    }

    Config cfg;
    InsertionBoundary* insertion = nullptr;
};

template<class Base>
int runProblem(const Config& c)
{
    FixtureProblem<Base> problem(c);
    problem.setName("mdpm_" + c.variant);
    problem.setSystemDimensions(c.dim);
    problem.setParticleDimensions(c.dim);
    problem.random.setRandomSeed(c.seed);
    problem.setXMin(0);
    problem.setYMin(0);
    problem.setXMax(c.lx);
    problem.setYMax(c.ly);
    const Mdouble g = c.setup == Setup::LeesEdwards ? 0 : GRAV;
    if (c.dim == 3)
    {
        problem.setZMin(0);
        problem.setZMax(c.lz);
        problem.setGravity(Vec3D(0, 0, -g));
    }
    else
    {
        problem.setZMin(0);
        problem.setZMax(0);
        problem.setGravity(Vec3D(0, -g, 0));
    }

    LinearViscoelasticSpecies species;
    species.setDensity(DENSITY);
    auto s = problem.speciesHandler.copyAndAddObject(species);
    const Mdouble massMin = s->getMassFromRadius(RMIN);
    s->setCollisionTimeAndRestitutionCoefficient(c.collisionTime, RESTITUTION, massMin);
    // frictionless species switch rotation off; switch it on so the spin is
    // integrated and orientations (Euler angles / quaternions) are non-trivial
    problem.setRotation(true);

    const Mdouble dt = c.collisionTime / 50.0;
    const unsigned nFrames = std::max(2u, c.nFrames);
    unsigned nSteps = static_cast<unsigned>(std::ceil(c.simTime / dt));
    const unsigned saveCount = std::max(1u, nSteps / (nFrames - 1));
    nSteps = saveCount * (nFrames - 1);
    problem.setTimeStep(dt);
    // loop runs while time < timeMax: exactly nSteps steps; the final state
    // is then written by DPMBase::forceWriteOutputFiles.
    problem.setTimeMax((nSteps - 0.5) * dt);
    problem.setSaveCount(saveCount);
    problem.dataFile.setFileType(FileType::ONE_FILE);
    problem.restartFile.setFileType(FileType::ONE_FILE);
    problem.eneFile.setFileType(FileType::ONE_FILE);
    problem.fStatFile.setFileType(FileType::ONE_FILE);
    // the .fstat file is big (one line per contact and saved step): only the
    // initial (contact-free) and the final step are written to it
    problem.fStatFile.setSaveCount(nSteps);
    // ParaView's particle files (NAMEParticle_K.vtu, K = 0, 1, ... at each
    // saved step of the .data) for the Lees-Edwards run only
    problem.setParticlesWriteVTK(c.setup == Setup::LeesEdwards);
    problem.wallHandler.setWriteVTK(FileType::NO_FILE);
    logger(INFO, "variant % dim % N % dt % steps % saveCount %", c.variant, c.dim, c.n, dt, nSteps, saveCount);
    problem.solve();
    logger(INFO, "variant % ends with % particles", c.variant, problem.particleHandler.getNumberOfObjects());
    return 0;
}

} // namespace

int main(int argc, char* argv[])
{
    if (argc < 4)
    {
        logger(ERROR, "usage: % VARIANT(periodic3d|walls2d|walls3d|insert2d|lees2d|tdperiodic3d|angled3d) "
                      "N NFRAMES [SEED]", argv[0]);
        return 1;
    }
    Config c;
    c.variant = argv[1];
    c.n = static_cast<unsigned>(std::atoi(argv[2]));
    c.nFrames = static_cast<unsigned>(std::atoi(argv[3]));
    if (argc > 4) c.seed = std::strtoul(argv[4], nullptr, 10);

    // mean volume (area) per particle for n(r) ~ r^-3 on [RMIN, RMAX]
    const Mdouble norm = 0.5 * (1 / (RMIN * RMIN) - 1 / (RMAX * RMAX));
    const Mdouble meanR3 = (RMAX - RMIN) / norm;
    const Mdouble meanR2 = std::log(RMAX / RMIN) / norm;
    const Mdouble pi = constants::pi;
    c.collisionTime = 1.0e-4;

    if (c.variant == "periodic3d" || c.variant == "walls3d")
    {
        c.dim = 3;
        c.periodic = c.variant == "periodic3d";
        c.lx = c.ly = 8.0e-3;
        const Mdouble vol = c.n * 4.0 / 3.0 * pi * meanR3;
        // loose initial packing, solid fraction about 0.3
        c.lz = vol / 0.3 / (c.lx * c.ly);
        c.simTime = 0.08;
    }
    else if (c.variant == "walls2d")
    {
        c.dim = 2;
        c.periodic = false;
        c.lx = 25.0e-3;
        const Mdouble area = c.n * pi * meanR2;
        // loose initial packing, area fraction about 0.45
        c.ly = area / 0.45 / c.lx;
        c.simTime = 0.16;
    }
    else if (c.variant == "insert2d")
    {
        c.setup = Setup::Insert;
        c.dim = 2;
        c.lx = c.ly = 15.0e-3;
        c.insertTime = 0.06;
        c.simTime = 0.12;
    }
    else if (c.variant == "lees2d")
    {
        c.setup = Setup::LeesEdwards;
        c.dim = 2;
        // a square at area fraction 0.5
        c.lx = c.ly = std::sqrt(c.n * pi * meanR2 / 0.5);
        c.shear = 0.1;
        c.simTime = 0.02;
    }
    else if (c.variant == "tdperiodic3d" || c.variant == "angled3d")
    {
        c.setup = c.variant == "angled3d" ? Setup::Angled : Setup::TimeDependent;
        c.dim = 3;
        c.lx = c.ly = 6.0e-3;
        const Mdouble vol = c.n * 4.0 / 3.0 * pi * meanR3;
        c.lz = vol / 0.3 / (c.lx * c.ly);
        c.shear = c.setup == Setup::TimeDependent ? 0.05 : 0;
        c.simTime = 0.04;
    }
    else
    {
        logger(ERROR, "unknown variant %", c.variant);
        return 1;
    }
    if (c.dim == 3)
        return runProblem<Mercury3D>(c);
    return runProblem<Mercury2D>(c);
}
