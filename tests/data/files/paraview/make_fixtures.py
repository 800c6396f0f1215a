#!/usr/bin/env python3
"""CSV files in the layout of ParaView's "Save Data" (CSV) of a LIGGGHTS
VTK frame: one header line of quoted array names, the point-data arrays
first, then "Points:0","Points:1","Points:2"; numbers with 6 significant
digits. The particles are LIGGGHTS' own (tests/data/files/liggghts).

    python3 make_fixtures.py [DIR]      (default: this folder)

  pour_wide_5000.csv   pour_wide_5000.vtk (3D pour, radius column)
  collapse2d_mono.csv  collapse2d_140000.vtk (2D collapse, z = 0) set in a
                       slab one largest diameter thick (every z = r_max):
                       a quasi-2D monolayer, with a diameter column
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "liggghts")
OUT = sys.argv[1] if len(sys.argv) > 1 else HERE


def read_vtk(path):
    """POINTS and the FIELD arrays of a legacy ASCII VTK (LIGGGHTS')."""
    tok = open(path).read().split()
    i = tok.index("POINTS")
    n = int(tok[i + 1])
    pts = [float(v) for v in tok[i + 3:i + 3 + 3 * n]]
    arrays = {}
    j = tok.index("FIELD")
    count = int(tok[j + 2])
    k = j + 3
    for _ in range(count):
        name, nc, nt = tok[k], int(tok[k + 1]), int(tok[k + 2])
        arrays[name] = (nc, [float(v) for v in tok[k + 4:k + 4 + nc * nt]])
        k += 4 + nc * nt
    return n, pts, arrays


def g(v):
    return "%.6g" % v


def main():
    n, pts, arr = read_vtk(os.path.join(SRC, "pour_wide_5000.vtk"))
    rows = ['"id","radius","Points:0","Points:1","Points:2"']
    for i in range(n):
        rows.append(",".join([g(arr["id"][1][i]), g(arr["radius"][1][i])] +
                             [g(c) for c in pts[3 * i:3 * i + 3]]))
    open(os.path.join(OUT, "pour_wide_5000.csv"), "w").write(
        "\n".join(rows) + "\n")
    n, pts, arr = read_vtk(os.path.join(SRC, "collapse2d_140000.vtk"))
    rmax = max(arr["radius"][1])
    rows = ['"id","diameter","v:0","Points:0","Points:1","Points:2"']
    v = arr["v"][1]
    for i in range(n):
        rows.append(",".join([g(arr["id"][1][i]),
                              g(2 * arr["radius"][1][i])] +
                             [g(v[3 * i])] +
                             [g(pts[3 * i]), g(pts[3 * i + 1]), g(rmax)]))
    open(os.path.join(OUT, "collapse2d_mono.csv"), "w").write(
        "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
