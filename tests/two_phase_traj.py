#!/usr/bin/env python3
"""A trajectory of two phases as LAMMPS' dump custom writes it (id type
radius x y z vx vy vz), for the schedule tests: N spheres of diameters 0.25
to 1 in a periodic box of edge 40, first a dilute gas in straight flight
(about 0.01 a step at the timestep 0.001; steps 0 to 5000), then a dense
bed (packing fraction about 0.4, overlaps allowed) that barely moves
(steps 5500 to 10000). Frames every 500 steps. Deterministic (seeded).

usage: two_phase_traj.py [N] > traj.dump
"""
import random
import sys

N = int(sys.argv[1]) if len(sys.argv) > 1 else 600
EDGE, EVERY, DT = 40.0, 500, 0.001
rng = random.Random(7)
radius = [0.5 * (0.25 + 0.75 * rng.random() ** 3) for _ in range(N)]
pos = [[rng.uniform(0.0, EDGE) for _ in range(3)] for _ in range(N)]
vel = [[10.0 * rng.gauss(0.0, 1.0) for _ in range(3)] for _ in range(N)]
# the bed: uniform centres in a cube holding the spheres at 0.4
side = (sum(4.18879 * r ** 3 for r in radius) / 0.4) ** (1.0 / 3.0)
bed = [[rng.uniform(0.5, 0.5 + side) for _ in range(3)] for _ in range(N)]
out = sys.stdout


def frame(step, p, v):
    out.write("ITEM: TIMESTEP\n%d\nITEM: NUMBER OF ATOMS\n%d\n" % (step, N))
    out.write("ITEM: BOX BOUNDS pp pp pp\n" + ("0 %g\n" % EDGE) * 3)
    out.write("ITEM: ATOMS id type radius x y z vx vy vz\n")
    for i in range(N):
        x = [c % EDGE for c in p[i]]
        out.write("%d 1 %.6g %.6g %.6g %.6g %.6g %.6g %.6g\n"
                  % (i + 1, radius[i], *x, *v[i]))


step = 0
for _ in range(11):  # the gas
    frame(step, pos, vel)
    pos = [[c + u * DT * EVERY for c, u in zip(p, v)] for p, v in zip(pos, vel)]
    step += EVERY
for _ in range(10):  # the bed: jitter of 1e-5 a step
    jit = [[rng.gauss(0.0, 1e-5 * EVERY) for _ in range(3)] for _ in range(N)]
    frame(step, [[c + j for c, j in zip(b, q)] for b, q in zip(bed, jit)],
          [[rng.gauss(0.0, 1e-5 / DT) for _ in range(3)] for _ in range(N)])
    step += EVERY
