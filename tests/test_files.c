/* test_files.c - reading the files DEM codes write (hg_io_load): LAMMPS
 * and LIGGGHTS dumps (columns in any order, radius or diameter, scaled and
 * unwrapped positions, frames, gzip, dump atom with radii per type),
 * legacy VTK as VTK 9 writes it and XML VTK, MercuryDPM .data and
 * .restart; the content decides the format; the boundary inferred from
 * gaps; the number parser against strtod (random strings, printed seed).
 * The files the codes wrote themselves are read end to end by
 * tests/cli_files.sh. */
#include "hgridopt.h"
#include "io_stream.h"
#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static int load(const char *name, const char *text, const hg_io_options *o,
                hg_particles *p, hg_io_info *info, hg_err *e)
{
    return hg_io_load_mem(text, strlen(text), name, o, p, info, e);
}

/* A dump frame of three atoms in a box [0,10]^2 x [0,20], boundary b,
 * columns cols with the atom lines rows. */
static void frame(char *buf, size_t len, long step, const char *b,
                  const char *cols, const char *rows, int n)
{
    size_t k = strlen(buf);
    snprintf(buf + k, len - k,
             "ITEM: TIMESTEP\n%ld\nITEM: NUMBER OF ATOMS\n%d\n"
             "ITEM: BOX BOUNDS %s\n0 10\n0 10\n0 20\nITEM: ATOMS %s\n%s",
             step, n, b, cols, rows);
}

static void test_dump_columns(void)
{
    static char t[4096];
    hg_particles p;
    hg_io_info info;
    hg_err e = {0};
    /* radius, any order, positions unscaled */
    t[0] = '\0';
    frame(t, sizeof t, 100, "pp pp fm", "x radius y id z type",
          "1 0.5 2 1 3 1\n4 0.25 5 2 6 1\n7 1 8 3 9 2\n", 3);
    CHECK(load("a", t, NULL, &p, &info, &e) == HG_OK);
    CHECK(p.n == 3 && p.dim == 3);
    CHECK(p.r[0] == 0.5 && p.r[2] == 1.0);
    CHECK(p.x[3] == 4.0 && p.x[4] == 5.0 && p.x[5] == 6.0);
    CHECK(info.format == HG_IO_DUMP && info.step == 100 && info.frame == 1);
    CHECK(info.boundary_stated && info.box_stated);
    CHECK(hg_particles_axis_periodic(&p, 0) &&
          !hg_particles_axis_periodic(&p, 2));
    hg_particles_clear(&p);
    /* diameter; scaled positions; an atom outside the periodic box */
    t[0] = '\0';
    frame(t, sizeof t, 5, "pp pp ff", "id type diameter xs ys zs",
          "1 1 2 0.1 0.2 0.5\n2 1 1 -0.05 1.02 0.1\n3 1 1 0.5 0.5 0.5\n", 3);
    CHECK(load("b", t, NULL, &p, &info, &e) == HG_OK);
    CHECK(p.r[0] == 1.0 && p.r[1] == 0.5);
    CHECK_CLOSE(p.x[0], 1.0, 1e-12, 0);
    CHECK_CLOSE(p.x[2], 10.0, 1e-12, 0);
    CHECK_CLOSE(p.x[3], 9.5, 1e-12, 0); /* -0.5 wrapped */
    CHECK_CLOSE(p.x[4], 0.2, 1e-12, 1e-12); /* 10.2 wrapped */
    hg_particles_clear(&p);
    /* unwrapped positions several images away */
    t[0] = '\0';
    frame(t, sizeof t, 5, "pp pp ff", "id type radius xu yu zu",
          "1 1 1 31 -12 4\n2 1 1 1 1 1\n3 1 1 2 2 2\n", 3);
    CHECK(load("c", t, NULL, &p, &info, &e) == HG_OK);
    CHECK_CLOSE(p.x[0], 1.0, 1e-12, 1e-12);
    CHECK_CLOSE(p.x[1], 8.0, 1e-12, 1e-12);
    CHECK(p.x[2] == 4.0);
    hg_particles_clear(&p);
    /* 2D: every z 0 in a z box straddling 0 */
    snprintf(t, sizeof t,
             "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n2\nITEM: BOX BOUNDS "
             "ff fm pp\n0 10\n0 10\n-0.5 0.5\nITEM: ATOMS id type radius x y "
             "z\n1 1 0.5 1 1 0\n2 1 0.5 3 3 0\n");
    CHECK(load("d", t, NULL, &p, &info, &e) == HG_OK);
    CHECK(p.dim == 2 && p.x[2] == 3.0 && strstr(info.note, "2D"));
    CHECK(!hg_particles_axis_periodic(&p, 0));
    hg_particles_clear(&p);
    /* 2D: every z 0 in a periodic z box thinner than the largest sphere
     * (a 2D data file may put z from 0 to 1, as LAMMPS' multi/
     * data.powerlaw does); in a box as thin, z differing, or a z box
     * with walls (a 3D monolayer shrink-wrapped, 2D needs z periodic):
     * 3D */
    struct {
        const char *bounds, *z2;
        int dim;
    } thin[] = {{"pp pp pp", "0", 2}, {"pp pp pp", "0.5", 3},
                {"pp pp ss", "0", 3}};
    for (size_t k = 0; k < sizeof thin / sizeof *thin; k++) {
        snprintf(t, sizeof t,
                 "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n2\nITEM: BOX "
                 "BOUNDS %s\n0 10\n0 10\n0 1\nITEM: ATOMS id type radius x "
                 "y z\n1 1 0.75 1 1 0\n2 1 0.5 3 3 %s\n",
                 thin[k].bounds, thin[k].z2);
        int st = load("d", t, NULL, &p, &info, &e);
        CHECKM(st == HG_OK && p.dim == thin[k].dim &&
                   (thin[k].dim == 3
                        ? !strstr(info.note, "2D")
                        : p.x[2] == 3.0 &&
                              strstr(info.note, "thinner than the largest "
                                                "sphere (diameter 1.5)")),
               "%s, z 0 and %s: %dD (%s)", thin[k].bounds, thin[k].z2,
               p.dim, st ? e.msg : info.note);
        hg_particles_clear(&p);
    }
    /* a triclinic box without tilt (LAMMPS' change_box all triclinic,
     * before any deform) is its bounds */
    snprintf(t, sizeof t,
             "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n2\nITEM: BOX BOUNDS "
             "xy xz yz pp pp ff\n0 10 0\n0 10 0.0\n0 20 -0\nITEM: ATOMS id "
             "type radius x y z\n1 1 0.5 1 1 1\n2 1 0.5 3 3 3\n");
    CHECK(load("d", t, NULL, &p, &info, &e) == HG_OK);
    CHECK(p.dim == 3 && p.hi[0] == 10.0 && p.hi[2] == 20.0 &&
          !hg_particles_axis_periodic(&p, 2));
    hg_particles_clear(&p);
    /* refused: no radius, triclinic, wrong column count, duplicate id,
     * radius <= 0, a frame cut short; each with its line */
    struct {
        const char *cols, *rows, *bounds, *msg;
    } bad[] = {
        {"id type x y z", "1 1 1 1 1\n2 1 2 2 2\n3 1 3 3 3\n", "pp pp pp",
         "no radius or diameter column"},
        {"id type radius x y z", "1 1 1 1 1 1\n2 1 1 2 2\n3 1 1 3 3 3\n",
         "pp pp pp", "d:11: 5 columns, ITEM: ATOMS names 6"},
        {"id type radius x y z", "1 1 1 1 1 1\n1 1 1 2 2 2\n3 1 1 3 3 3\n",
         "pp pp pp", "atom id 1 appears twice"},
        {"id type radius x y z", "1 1 0 1 1 1\n2 1 1 2 2 2\n3 1 1 3 3 3\n",
         "pp pp pp", "radius 0 must be > 0"},
        {"id type radius x y z", "1 1 1 1 1 1\n2 1 1 2 2 2\n", "pp pp pp",
         "its 3 atoms (a dump still being written?)"},
        {"id type radius x y z", "1 1 1 1 1 1\n", "xy xz yz pp pp pp",
         "BOX BOUNDS xy xz yz: expected 'lo hi xy' for x"},
        {"id type radius x y z", "1 1 nan 1 1 1\n2 1 1 2 2 2\n3 1 1 3 3 3\n",
         "pp pp pp", "radius: 'nan' is not a finite number"},
    };
    snprintf(t, sizeof t,
             "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS "
             "xy xz yz pp pp pp\n0 10 0\n0 10 0\n0 20 2.5\nITEM: ATOMS id "
             "type radius x y z\n1 1 0.5 1 1 1\n");
    CHECK(load("d", t, NULL, &p, &info, &e) == HG_EPARSE &&
          strstr(e.msg, "triclinic box: tilt yz 2.5; hgridopt reads "
                        "orthogonal boxes only"));
    hg_particles_clear(&p);
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        t[0] = '\0';
        frame(t, sizeof t, 1, bad[k].bounds, bad[k].cols, bad[k].rows, 3);
        int st = load("d", t, NULL, &p, &info, &e);
        CHECK(st == HG_EPARSE && strstr(e.msg, bad[k].msg));
        if (!(st == HG_EPARSE && strstr(e.msg, bad[k].msg)))
            fprintf(stderr, "  case %zu: %s\n", k, e.msg);
        hg_particles_clear(&p);
    }
    /* dump atom: radii per type */
    t[0] = '\0';
    frame(t, sizeof t, 1, "pp pp pp", "id type xs ys zs",
          "1 1 0.1 0.1 0.1\n2 2 0.5 0.5 0.5\n3 1 0.9 0.9 0.9\n", 3);
    double tr[2] = {0.25, 0.75};
    hg_io_options o = {0};
    o.type_radius = tr;
    o.n_types = 2;
    CHECK(load("e", t, &o, &p, &info, &e) == HG_OK);
    CHECK(p.r[0] == 0.25 && p.r[1] == 0.75 && strstr(info.note, "type"));
    hg_particles_clear(&p);
    o.n_types = 1;
    CHECK(load("e", t, &o, &p, &info, &e) == HG_EPARSE &&
          strstr(e.msg, "atom type 2 has no radius"));
    hg_particles_clear(&p);
}

static void test_dump_frames(void)
{
    static char t[8192];
    t[0] = '\0';
    const char *rows = "1 1 1 1 1 1\n2 1 1 2 2 2\n3 1 1 3 3 3\n";
    frame(t, sizeof t, 0, "pp pp pp", "id type radius x y z", "", 0);
    frame(t, sizeof t, 10, "pp pp pp", "id type radius x y z", rows, 3);
    frame(t, sizeof t, 20, "pp pp pp", "id type radius x y z",
          "1 1 2 1 1 1\n2 1 1 2 2 2\n3 1 1 3 3 3\n", 3);
    hg_particles p;
    hg_io_info info;
    hg_err e = {0};
    hg_io_options o = {0};
    CHECK(load("f", t, &o, &p, &info, &e) == HG_OK);
    CHECK(info.frame == 3 && info.frames == 3 && info.step == 20);
    CHECK(p.r[0] == 2.0);
    hg_particles_clear(&p);
    o.frame = 2;
    CHECK(load("f", t, &o, &p, &info, &e) == HG_OK && info.step == 10 &&
          p.r[0] == 1.0);
    hg_particles_clear(&p);
    o.frame = -2;
    CHECK(load("f", t, &o, &p, &info, &e) == HG_OK && info.step == 10);
    hg_particles_clear(&p);
    o.frame = 0;
    o.by_step = 1;
    o.step = 20;
    CHECK(load("f", t, &o, &p, &info, &e) == HG_OK && info.frame == 3);
    hg_particles_clear(&p);
    o.step = 15;
    CHECK(load("f", t, &o, &p, &info, &e) == HG_EPARSE &&
          strstr(e.msg, "no frame of timestep 15 (3 frames, timesteps 0 .. 20)"));
    hg_particles_clear(&p);
    o.by_step = 0;
    o.frame = 1;
    CHECK(load("f", t, &o, &p, &info, &e) == HG_EPARSE &&
          strstr(e.msg, "frame 1 (timestep 0) has no atoms"));
    hg_particles_clear(&p);
    o.frame = 4;
    CHECK(load("f", t, &o, &p, &info, &e) == HG_EPARSE &&
          strstr(e.msg, "--frame 4, but the file has 3 frames"));
    hg_particles_clear(&p);
    /* gzip: two members (as two gzip runs appended), read as one text */
    size_t half = strlen(t) / 2;
    while (t[half] != '\n')
        half++;
    half++;
    unsigned char z[16384];
    size_t zl = 0;
    for (int part = 0; part < 2; part++) {
        const char *src = part ? t + half : t;
        size_t n = part ? strlen(t) - half : half;
        z_stream zs;
        memset(&zs, 0, sizeof zs);
        CHECK(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8,
                           Z_DEFAULT_STRATEGY) == Z_OK);
        zs.next_in = (unsigned char *)src;
        zs.avail_in = (uInt)n;
        zs.next_out = z + zl;
        zs.avail_out = (uInt)(sizeof z - zl);
        CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END);
        zl += sizeof z - zl - zs.avail_out;
        deflateEnd(&zs);
    }
    memset(&o, 0, sizeof o);
    CHECK(hg_io_load_mem((const char *)z, zl, "f.gz", &o, &p, &info, &e) ==
          HG_OK);
    CHECK(info.compressed && info.frames == 3 && p.r[0] == 2.0);
    hg_particles_clear(&p);
    /* a gzip stream cut short */
    CHECK(hg_io_load_mem((const char *)z, zl / 3, "cut.gz", &o, &p, &info,
                         &e) == HG_EPARSE);
    CHECK(strstr(e.msg, "cut.gz") != NULL);
    hg_particles_clear(&p);
}

static void test_vtk(void)
{
    /* as VTK 9 writes it (LIGGGHTS dump custom/vtk): OFFSETS/CONNECTIVITY,
     * FIELD arrays; no box: the bounding box, walls */
    const char *v5 =
        "# vtk DataFile Version 5.1\nGenerated by LIGGGHTS\nASCII\n"
        "DATASET POLYDATA\nPOINTS 3 float\n0 0 0 1 1 1 2 2 2\n"
        "VERTICES 4 3\nOFFSETS vtktypeint64\n0 1 2 3\n"
        "CONNECTIVITY vtktypeint64\n0 1 2\nPOINT_DATA 3\nFIELD FieldData 2\n"
        "id 1 3 int\n1 2 3\nradius 1 3 double\n0.5 0.25 0.5\n";
    hg_particles p;
    hg_io_info info;
    hg_err e = {0};
    CHECK(load("v", v5, NULL, &p, &info, &e) == HG_OK);
    CHECK(p.n == 3 && p.r[1] == 0.25 && p.box_inferred);
    CHECK(strstr(info.kind, "LIGGGHTS") != NULL);
    hg_particles_clear(&p);
    /* XML PolyData, ASCII; binary refused */
    const char *xml =
        "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\">"
        "\n<PolyData>\n<Piece NumberOfPoints=\"2\" NumberOfVerts=\"2\">\n"
        "<PointData>\n<DataArray type=\"Float64\" Name=\"radius\" "
        "format=\"ascii\">\n0.5 1\n</DataArray>\n</PointData>\n<Points>\n"
        "<DataArray type=\"Float32\" NumberOfComponents=\"3\" "
        "format=\"ascii\">\n0 0 1 3 3 1\n</DataArray>\n</Points>\n</Piece>\n"
        "</PolyData>\n</VTKFile>\n";
    CHECK(load("v.vtp", xml, NULL, &p, &info, &e) == HG_OK);
    CHECK(p.n == 2 && p.dim == 3 && p.r[1] == 1.0 && p.x[3] == 3.0);
    hg_particles_clear(&p);
    char bin[1024];
    snprintf(bin, sizeof bin, "%s", xml);
    char *f = strstr(bin, "format=\"ascii\"");
    memcpy(f, "format=\"binar\"", 14);
    CHECK(load("v.vtp", bin, NULL, &p, &info, &e) == HG_EPARSE &&
          strstr(e.msg, "not ASCII"));
    hg_particles_clear(&p);
    CHECK(load("b.vtk",
               "# vtk DataFile Version 5.1\nx\nASCII\nDATASET "
               "RECTILINEAR_GRID\n",
               NULL, &p, &info, &e) == HG_EPARSE &&
          strstr(e.msg, "a box file"));
    hg_particles_clear(&p);
}

static void test_mercurydpm(void)
{
    /* .data: two time steps of a 3D run, then a 2D file */
    const char *d3 = "2 0 0 0 0 4 4 4 \n"
                     "1 1 1 0 0 0 0.5 0 0 0 0 0 0 0\n"
                     "2 2 2 0 0 0 0.25 0 0 0 0 0 0 0\n"
                     "2 0.1 0 0 0 4 4 4 \n"
                     "1 1 0.5 0 0 -1 0.5 0 0 0 0 0 0 0\n"
                     "3 3 3 0 0 0 0.25 0 0 0 0 0 0 0\n";
    hg_particles p;
    hg_io_info info;
    hg_err e = {0};
    CHECK(load("m.data", d3, NULL, &p, &info, &e) == HG_OK);
    CHECK(info.format == HG_IO_MERCURY_DATA && info.frames == 2 &&
          info.time == 0.1 && p.dim == 3 && p.x[2] == 0.5);
    CHECK(!info.boundary_stated && !hg_particles_axis_periodic(&p, 0));
    CHECK(strstr(info.boundary_default, "MercuryDPM") != NULL);
    hg_particles_clear(&p);
    const char *d2 = "2 0 0 0 4 4 \n1 1 0 0 0.5 0 0 0\n2 2 0 0 0.25 0 0 0\n";
    CHECK(load("m2.data", d2, NULL, &p, &info, &e) == HG_OK);
    CHECK(p.dim == 2 && p.x[2] == 2.0 && p.r[1] == 0.25);
    hg_particles_clear(&p);
    CHECK(load("m.data", "3 0 0 0 0 4 4 4\n1 1 1 0 0 0 0.5 0 0 0 0 0 0 0\n",
               NULL, &p, &info, &e) == HG_EPARSE &&
          strstr(e.msg, "ends after 1 of its 3 particles"));
    hg_particles_clear(&p);
    /* .restart: domain, dimension, a periodic boundary along x, walls */
    const char *rs =
        "MercuryDPM 1.0 name m revision x repository y\n"
        "xMin 0 xMax 4 yMin 0 yMax 4 zMin 0 zMax 8\n"
        "systemDimensions 3 particleDimensions 3 gravity 0 0 -9.81\n"
        "Species 1\nLinearViscoelasticSpecies id 0 density 2500\n"
        "Walls 1\nInfiniteWall id 0 indSpecies 0 position 0 0 0 "
        "orientation 0.707106781186548 0 0.707106781186548 0 velocity 0 0 "
        "0\n"
        "Boundaries 1\nPeriodicBoundary id 0 normal 1 0 0 scaleFactor 1 "
        "distanceLeft 0 distanceRight 4 shift 4 0 0\n"
        "Particles 2\nBaseParticle id 0 indSpecies 0 position 4.5 1 1 "
        "orientation 1 0 0 0 radius 0.5 invMass 1\n"
        "BaseParticle id 1 indSpecies 0 position 2 2 2 orientation 1 0 0 0 "
        "radius 0.25 invMass 1\nInteractions 0\n"
        "hGrid method BOTTOMUP distribution EXPONENTIAL cellOverSizeRatio 1 "
        "cellSizes 0.5 1 gridNeedsUpdate 0\n";
    CHECK(load("m.restart", rs, NULL, &p, &info, &e) == HG_OK);
    CHECK(info.format == HG_IO_MERCURY_RESTART && info.boundary_stated);
    CHECK(hg_particles_axis_periodic(&p, 0) &&
          !hg_particles_axis_periodic(&p, 1));
    CHECK_CLOSE(p.x[0], 0.5, 1e-12, 1e-12); /* wrapped into [0, 4) */
    CHECK(strstr(info.note, "BOTTOMUP") && strstr(info.note, "periodic "
                                                             "boundaries "
                                                             "along x"));
    hg_particles_clear(&p);
    char angled[2048];
    snprintf(angled, sizeof angled, "%s", rs);
    char *n = strstr(angled, "normal 1 0 0");
    memcpy(n, "normal 1 1 0", 12);
    CHECK(load("m.restart", angled, NULL, &p, &info, &e) == HG_EPARSE &&
          strstr(e.msg, "not along an axis"));
    hg_particles_clear(&p);
}

static void test_sniff_and_boundary(void)
{
    hg_particles p;
    hg_io_info info;
    hg_err e = {0};
    /* the content decides, whatever the name */
    CHECK(load("x.data", "3\nLattice=\"4 0 0 0 4 0 0 0 4\" "
                         "Properties=species:S:1:pos:R:3:radius:R:1 "
                         "pbc=\"T T F\"\nA 1 1 1 0.5\nA 2 2 2 0.5\n"
                         "A 3 3 3 0.5\n",
               NULL, &p, &info, &e) == HG_OK &&
          info.format == HG_IO_XYZ && info.boundary_stated);
    hg_particles_clear(&p);
    CHECK(load("p.csv", "hello\nworld\n", NULL, &p, &info, &e) ==
          HG_EPARSE);
    hg_particles_clear(&p);
    CHECK(load("n.txt", "no\nparticles here\n", NULL, &p, &info, &e) ==
              HG_EPARSE &&
          strstr(e.msg, "not a particle file hgridopt reads"));
    hg_particles_clear(&p);
    CHECK(load("z", "\x28\xb5\x2f\xfd rest", NULL, &p, &info, &e) ==
              HG_EPARSE &&
          strstr(e.msg, "zstd"));
    hg_particles_clear(&p);
    /* the boundary told by gaps wider than the reach, the others kept */
    CHECK(hg_particles_alloc(&p, 3, 2, &e) == HG_OK);
    p.hi[0] = p.hi[1] = 4.0;
    p.hi[2] = 40.0;
    p.r[0] = p.r[1] = 1.0;
    double xs[6] = {1, 1, 1, 3, 3, 3};
    memcpy(p.x, xs, sizeof xs);
    int told[3];
    double gap[3];
    CHECK(hg_particles_boundary_infer(&p, 6.4, told, gap) == 1);
    CHECK(!told[0] && !told[1] && told[2] && gap[2] == 36.0 &&
          gap[0] == 0.0);
    CHECK(hg_particles_axis_periodic(&p, 0) &&
          !hg_particles_axis_periodic(&p, 2));
    hg_particles_clear(&p);
}

/* io_strtod gives strtod's value on random numbers of every length and
 * exponent (the fast path and the fall-back). */
static void test_numbers(void)
{
    uint64_t seed = 20261127, s = seed;
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        hg_test_lcg(&s);
        char buf[64];
        int digits = 1 + (int)((s >> 33) % 20), exp = (int)((s >> 20) % 60) - 30;
        int k = 0;
        if (s & 1)
            buf[k++] = '-';
        for (int j = 0; j < digits; j++) {
            hg_test_lcg(&s);
            buf[k++] = (char)('0' + (s >> 59) % 10);
            if (j == 0 && (s & 2))
                buf[k++] = '.';
        }
        k += snprintf(buf + k, sizeof buf - (size_t)k, "e%d", exp);
        char *e1, *e2;
        double a = io_strtod(buf, &e1), b = strtod(buf, &e2);
        if (memcmp(&a, &b, sizeof a) || e1 != e2) {
            if (bad++ < 5)
                fprintf(stderr, "io_strtod('%s') = %.17g, strtod %.17g\n",
                        buf, a, b);
        }
    }
    if (bad)
        fprintf(stderr, "test_numbers: seed %llu\n", (unsigned long long)seed);
    CHECK(bad == 0);
    char *end;
    CHECK(io_strtod("inf", &end) == INFINITY && *end == '\0');
    CHECK(io_strtod("0x10", &end) == 16.0);
    CHECK(io_strtod("1.5e", &end) == 1.5 && *end == 'e');
    CHECK(io_strtod("x", &end) == 0.0 && *end == 'x');
}

int main(void)
{
    test_dump_columns();
    test_dump_frames();
    test_vtk();
    test_mercurydpm();
    test_sniff_and_boundary();
    test_numbers();
    return hg_test_summary("test_files");
}
