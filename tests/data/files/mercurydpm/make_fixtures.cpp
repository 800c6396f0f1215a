// hgridopt test-fixture generator for MercuryDPM output files.
//
// This is our own small driver program; it is compiled against a MercuryDPM
// kernel build by make_fixtures.sh (MercuryDPM itself is not part of hgridopt).
// It produces polydisperse packings and lets MercuryDPM write its standard
// output files (.data, .restart, .ene, optionally .fstat).
//
// Usage: make_fixtures VARIANT N NFRAMES [SEED]
//   VARIANT  periodic3d : 3D spheres, PeriodicBoundary in x and y,
//                         InfiniteWall floor (z=0) and ceiling (z=zMax)
//            walls2d    : 2D discs (Mercury2D), InfiniteWalls at x=xMin,
//                         x=xMax and floor y=0 (plus a lid at y=yMax)
//            walls3d    : 3D spheres, InfiniteWalls on all six sides
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
#include <Boundaries/PeriodicBoundary.h>
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

struct Config
{
    std::string variant;
    unsigned dim = 3;
    bool periodic = false;  // periodic in x (and y for 3D)
    unsigned n = 0;
    unsigned nFrames = 5;
    unsigned long seed = 1;
    Mdouble lx = 0, ly = 0, lz = 0;  // domain extents (lz unused in 2D)
    Mdouble collisionTime = 0;
    Mdouble simTime = 0;
};

template<class Base>
class FixtureProblem : public Base
{
public:
    explicit FixtureProblem(const Config& c) : cfg(c) {}

    void setupInitialConditions() override
    {
        auto species = this->speciesHandler.getObject(0);
        const bool twoD = cfg.dim == 2;

        // --- walls ---------------------------------------------------------
        InfiniteWall w;
        w.setSpecies(species);
        if (twoD)
        {
            w.set(Vec3D(-1, 0, 0), Vec3D(this->getXMin(), 0, 0));
            this->wallHandler.copyAndAddObject(w);
            w.set(Vec3D(1, 0, 0), Vec3D(this->getXMax(), 0, 0));
            this->wallHandler.copyAndAddObject(w);
            w.set(Vec3D(0, -1, 0), Vec3D(0, this->getYMin(), 0));
            this->wallHandler.copyAndAddObject(w);
            w.set(Vec3D(0, 1, 0), Vec3D(0, this->getYMax(), 0));
            this->wallHandler.copyAndAddObject(w);
        }
        else
        {
            w.set(Vec3D(0, 0, -1), Vec3D(0, 0, this->getZMin()));
            this->wallHandler.copyAndAddObject(w);
            w.set(Vec3D(0, 0, 1), Vec3D(0, 0, this->getZMax()));
            this->wallHandler.copyAndAddObject(w);
            if (!cfg.periodic)
            {
                w.set(Vec3D(-1, 0, 0), Vec3D(this->getXMin(), 0, 0));
                this->wallHandler.copyAndAddObject(w);
                w.set(Vec3D(1, 0, 0), Vec3D(this->getXMax(), 0, 0));
                this->wallHandler.copyAndAddObject(w);
                w.set(Vec3D(0, -1, 0), Vec3D(0, this->getYMin(), 0));
                this->wallHandler.copyAndAddObject(w);
                w.set(Vec3D(0, 1, 0), Vec3D(0, this->getYMax(), 0));
                this->wallHandler.copyAndAddObject(w);
            }
        }

        // --- periodic boundaries ------------------------------------------
        if (cfg.periodic)
        {
            PeriodicBoundary b;
            b.set(Vec3D(1, 0, 0), this->getXMin(), this->getXMax());
            this->boundaryHandler.copyAndAddObject(b);
            if (!twoD)
            {
                b.set(Vec3D(0, 1, 0), this->getYMin(), this->getYMax());
                this->boundaryHandler.copyAndAddObject(b);
            }
        }

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
        const bool per[3] = {cfg.periodic, cfg.periodic && !twoD, false};
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
            p.setVelocity(Vec3D(0, 0, 0));
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

private:
    Config cfg;
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
    if (c.dim == 3)
    {
        problem.setZMin(0);
        problem.setZMax(c.lz);
        problem.setGravity(Vec3D(0, 0, -GRAV));
    }
    else
    {
        problem.setZMin(0);
        problem.setZMax(0);
        problem.setGravity(Vec3D(0, -GRAV, 0));
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
    problem.setParticlesWriteVTK(false);
    problem.wallHandler.setWriteVTK(FileType::NO_FILE);
    logger(INFO, "variant % dim % N % dt % steps % saveCount %", c.variant, c.dim, c.n, dt, nSteps, saveCount);
    problem.solve();
    return 0;
}

} // namespace

int main(int argc, char* argv[])
{
    if (argc < 4)
    {
        logger(ERROR, "usage: % VARIANT(periodic3d|walls2d|walls3d) N NFRAMES [SEED]", argv[0]);
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

    if (c.variant == "periodic3d" || c.variant == "walls3d")
    {
        c.dim = 3;
        c.periodic = c.variant == "periodic3d";
        c.lx = c.ly = 8.0e-3;
        const Mdouble vol = c.n * 4.0 / 3.0 * pi * meanR3;
        // loose initial packing, solid fraction about 0.3
        c.lz = vol / 0.3 / (c.lx * c.ly);
        c.collisionTime = 1.0e-4;
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
        c.collisionTime = 1.0e-4;
        c.simTime = 0.16;
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
