#!/usr/bin/env python3
"""mdpm_old3d.restart: the particles of mdpm_tdperiodic3d.restart (written
by MercuryDPM, make_fixtures.cpp) in the layout of restart_version 3
(before 2014), which a current MercuryDPM build no longer writes but still
reads (DPMBase::readOld): lower-case domain keys, 'dim', InfiniteWall with
'normal .. position ..', PeriodicBoundary with position_left /
position_right, particle lines 'TSP BP x y z vx vy vz r ...'. The periodic
boundaries are plain ones along x and y (the old layout has no
TimeDependentPeriodicBoundary), so both files describe the same box.

    python3 make_old_restart.py [DIR]    (default: this folder)

writes DIR/mdpm_old3d.restart, the same bytes on every run.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else HERE
SOURCE = "mdpm_tdperiodic3d.restart"


def field(tok, key, n):
    k = tok.index(key)
    return [float(v) for v in tok[k + 1:k + 1 + n]]


def main():
    lines = open(os.path.join(HERE, SOURCE)).read().splitlines()
    dom = next(l.split() for l in lines if l.startswith("xMin "))
    lo = [float(dom[dom.index(a + "Min") + 1]) for a in "xyz"]
    hi = [float(dom[dom.index(a + "Max") + 1]) for a in "xyz"]
    i_p = next(i for i, l in enumerate(lines) if l.startswith("Particles "))
    n = int(lines[i_p].split()[1])
    parts = [l.split() for l in lines[i_p + 1:i_p + 1 + n]]
    g = "%.15g"
    old = ["restart_version 3", "name mdpm_old3d",
           ("xmin %s xmax %s ymin %s ymax %s zmin %s zmax %s" %
            tuple(g % v for p in zip(lo, hi) for v in p)),
           "dt 2e-06 t 0.04 tmax 0.04 save_count_data 10000 save_count_ene "
           "10000 save_count_stat 10000 save_count_fstat 20000",
           "dim 3 gravity 0 0 -9.81",
           "options_fstat 1 options_data 1 options_ene 1 options_restart 1",
           "Species 1",
           "k 43.3542191189604 disp 0.000580689624080962 kt 0 dispt 0 mu 0 "
           "rho 2500 dim_particle 3",
           "Walls 2",
           "InfiniteWall normal 0 0 -1 position %s" % (g % -lo[2]),
           "InfiniteWall normal 0 0 1 position %s" % (g % hi[2]),
           "Boundaries 2",
           ("PeriodicBoundary normal 1 0 0 position_left %s position_right "
            "%s shift %s 0 0" % (g % lo[0], g % hi[0], g % (hi[0] - lo[0]))),
           ("PeriodicBoundary normal 0 1 0 position_left %s position_right "
            "%s shift 0 %s 0" % (g % lo[1], g % hi[1], g % (hi[1] - lo[1]))),
           "Particles %d" % n]
    for t in parts:
        x = field(t, "position", 3)
        v = field(t, "velocity", 3)
        r = field(t, "radius", 1)[0]
        m = field(t, "invMass", 1)[0]
        # TSP BP x y z vx vy vz r angles(3) angular velocities(3) invMass
        # invInertia indSpecies
        old.append("TSP BP " + " ".join(g % c for c in x + v + [r]) +
                   " 0 0 0 0 0 0 " + g % m + " 0 0")
    with open(os.path.join(OUT, "mdpm_old3d.restart"), "w") as f:
        f.write("\n".join(old) + "\n")


if __name__ == "__main__":
    main()
