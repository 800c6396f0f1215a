#!/usr/bin/env python3
"""Small MercuryDPM files of the layouts hgridopt reads or refuses (issue
48): written line by line as MercuryDPM's writers write them (see FORMAT.md
and the source files named there), with the particles of the runs of
make_fixtures.cpp (mdpm_walls2d, mdpm_periodic3d: real MercuryDPM output).

    python3 make_boundary_fixtures.py [DIR]    (default: this folder)

Writes:
  mdpm_insert2d.data           2D .data whose first saved step holds no
                               particles (an insertion boundary's run)
  mdpm_lees2d.restart          LeesEdwardsBoundary (2D)
  mdpm_lees2dParticle_2.vtu    its Particle_N.vtu (ParticleVtkWriter)
  mdpm_tdperiodic3d.restart    TimeDependentPeriodicBoundary along y,
                               PeriodicBoundary along x
  mdpm_angled3d.restart        AngledPeriodicBoundary (a wedge)
  mdpm_old3d.restart           restart_version 3 (before 2014): lower-case
                               domain keys, 'dim', PeriodicBoundary with
                               position_left/position_right, particle lines
                               'TSP BP x y z vx vy vz r ...'
  mdpm_walls3d.fstat           .fstat: one saved step, a few contacts
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else HERE
N = 40


def restart_parts(path):
    """Header lines (up to the Walls section), walls, particles, hGrid."""
    lines = open(os.path.join(HERE, path)).read().splitlines()
    i_w = next(i for i, l in enumerate(lines) if l.startswith("Walls "))
    i_b = next(i for i, l in enumerate(lines) if l.startswith("Boundaries "))
    i_p = next(i for i, l in enumerate(lines) if l.startswith("Particles "))
    i_i = next(i for i, l in enumerate(lines) if l.startswith("Interactions "))
    hgrid = next(l for l in lines if l.startswith("hGrid "))
    return lines[:i_w], lines[i_w:i_b], lines[i_p + 1:i_i], hgrid


def field(line, key, n):
    t = line.split()
    k = t.index(key)
    return [float(v) for v in t[k + 1:k + 1 + n]]


def lowest(particles, axis, n):
    """The n particles lowest along axis (gravity), ids from 0."""
    ps = sorted(particles, key=lambda l: field(l, "position", 3)[axis])[:n]
    out = []
    for i, l in enumerate(ps):
        t = l.split()
        t[t.index("id") + 1] = str(i)
        out.append(" ".join(t))
    return out


def write(name, text):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)


def main():
    # 2D: LeesEdwards, its vtu
    head, walls, parts, hgrid = restart_parts("mdpm_walls2d.restart")
    ps = lowest(parts, 1, N)
    top = max(field(l, "position", 3)[1] + field(l, "radius", 1)[0]
              for l in ps)
    top = float("%.6g" % (top * 1.0001))
    head = [("xMin 0 xMax 0.025 yMin 0 yMax %.15g zMin 0 zMax 0" % top)
            if l.startswith("xMin") else l for l in head]
    head[0] = head[0].replace("name mdpm_walls2d", "name mdpm_lees2d")
    body = head + ["Walls 0", "Boundaries 1",
                   "LeesEdwardsBoundary id 0 left 0 right 0.025 down 0 "
                   "up %.15g shift 0.004 vel 0.1" % top,
                   "Particles %d" % len(ps)] + ps + ["Interactions 0", hgrid]
    write("mdpm_lees2d.restart", "\n".join(body) + "\n")
    vtu = ['<?xml version="1.0"?>', "<!-- time 0.16-->",
           '<VTKFile type="UnstructuredGrid" version="0.1" '
           'byte_order="LittleEndian">', "<UnstructuredGrid>",
           '<Piece NumberOfPoints="%d" NumberOfCells="0">' % len(ps),
           "<Points>",
           '  <DataArray type="Float32" Name="Position" '
           'NumberOfComponents="3" format="ascii">']
    f32 = lambda v: "%.6g" % v
    for l in ps:
        x = field(l, "position", 3)
        vtu.append("\t%s %s %s" % (f32(x[0]), f32(x[1]), f32(x[2])))
    vtu += ["  </DataArray>", "</Points>", '<PointData  Vectors="vector">',
            '  <DataArray type="Float32" Name="Velocity" '
            'NumberOfComponents="3" format="ascii">']
    for l in ps:
        v = field(l, "velocity", 3)
        vtu.append("\t%s %s %s" % tuple(f32(c) for c in v))
    vtu += ["  </DataArray>",
            '  <DataArray type="Float32" Name="Radius" format="ascii">']
    vtu += ["\t" + f32(field(l, "radius", 1)[0]) for l in ps]
    vtu += ["  </DataArray>",
            '  <DataArray type="Float32" Name="speciesType" format="ascii">']
    vtu += ["\t0" for l in ps]
    vtu += ["  </DataArray>", "</PointData>", "<Cells>",
            '  <DataArray type="Int32" Name="connectivity" format="ascii">',
            "  </DataArray>",
            '  <DataArray type="Int32" Name="offsets" format="ascii">',
            "  </DataArray>",
            '  <DataArray type="UInt8"  Name="types" format="ascii">',
            "  </DataArray>", "</Cells>", "</Piece>", "</UnstructuredGrid>",
            "</VTKFile>"]
    write("mdpm_lees2dParticle_2.vtu", "\n".join(vtu) + "\n")

    # 2D .data, first step empty (format 8: header of 6, particle of 8)
    dat = open(os.path.join(HERE, "mdpm_walls2d.data")).read().splitlines()
    last = [l for l in dat if len(l.split()) == 8][-1000:]
    last.sort(key=lambda l: float(l.split()[1]))
    out = ["0 0 0 0 0.025 0.0374533209 "]
    for k, (t, n) in enumerate([(0.04, 20), (0.08, N)]):
        out.append("%d %g 0 0 0.025 0.0374533209 " % (n, t))
        out += last[:n]
    write("mdpm_insert2d.data", "\n".join(out) + "\n")

    # 3D: time-dependent periodic, angled periodic
    head, walls, parts, hgrid = restart_parts("mdpm_periodic3d.restart")
    ps = lowest(parts, 2, N)
    floor = walls[:2]  # "Walls 1" + the floor z = 0
    floor[0] = "Walls 1"
    td = head + floor + [
        "Boundaries 2",
        "PeriodicBoundary id 0 normal 1 0 0 scaleFactor 1 distanceLeft 0 "
        "distanceRight 0.008 shift 0.008 0 0",
        "TimeDependentPeriodicBoundary id 1 normal 0 1 0 distanceLeft 0 "
        "distanceRight 0.008",
        "Particles %d" % len(ps)] + ps + ["Interactions 0", hgrid]
    td[0] = td[0].replace("name mdpm_periodic3d", "name mdpm_tdperiodic3d")
    write("mdpm_tdperiodic3d.restart", "\n".join(td) + "\n")
    an = head + floor + [
        "Boundaries 1",
        "AngledPeriodicBoundary id 0 normal_left 1 0 0 normal_right "
        "0 -1 0 origin 0 0 0",
        "Particles %d" % len(ps)] + ps + ["Interactions 0", hgrid]
    an[0] = an[0].replace("name mdpm_periodic3d", "name mdpm_angled3d")
    write("mdpm_angled3d.restart", "\n".join(an) + "\n")

    # restart_version 3 (DPMBase::readOld's layout)
    old = ["restart_version 3", "name mdpm_old3d",
           "xmin 0 xmax 0.008 ymin 0 ymax 0.008 zmin 0 zmax 0.0116355",
           "dt 2e-06 t 0.08 tmax 0.08 save_count_data 10000 save_count_ene "
           "10000 save_count_stat 1000000 save_count_fstat 1000000",
           "dim 3 gravity 0 0 -9.81",
           "options_fstat 1 options_data 1 options_ene 1 options_restart 1",
           "Species 1",
           "k 43.35 disp 0.00058 kt 0 dispt 0 mu 0 rho 2500 dim_particle 3",
           "Walls 1", "InfiniteWall normal 0 0 -1 position -0",
           "Boundaries 2",
           "PeriodicBoundary normal 1 0 0 position_left 0 position_right "
           "0.008 shift 0.008 0 0",
           "PeriodicBoundary normal 0 1 0 position_left 0 position_right "
           "0.008 shift 0 0.008 0",
           "Particles %d" % len(ps)]
    for l in ps:
        x = field(l, "position", 3)
        v = field(l, "velocity", 3)
        r = field(l, "radius", 1)[0]
        old.append("TSP BP %.8g %.8g %.8g %.8g %.8g %.8g %.8g 0 0 0 0 0 0 "
                   "%.8g %.8g 0 0" % tuple(x + v + [r, field(l, "invMass", 1)[0],
                                               0.0]))
    write("mdpm_old3d.restart", "\n".join(old) + "\n")

    # .fstat: DPMBase::writeFstatHeader and writeToFStat lines
    fst = ["# 0.08 1", "# 0 0 0 0.008 0.008 0.01163552835",
           "# 0.0002 0.001 0 0 0 0",
           "0.08 5 75 0.005766821338 0.00390226504 0.002409996379 "
           "3.471691092e-06 0 0.0001506625143 0 0.5254445781 0.1066657549 "
           "0.8441151651 0 0 0",
           "0.08 75 5 0.005766821338 0.00390226504 0.002409996379 "
           "3.471691092e-06 0 0.0001506625143 0 -0.5254445781 -0.1066657549 "
           "-0.8441151651 -0 -0 -0",
           "0.08 106 -6 0.007509566181 0.008000026647 0.001721992781 "
           "5.329307244e-08 0 1.22580579e-06 0 0 1 0 -0 -0 -0"]
    write("mdpm_walls3d.fstat", "\n".join(fst) + "\n")


if __name__ == "__main__":
    main()
