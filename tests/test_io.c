/* test_io.c - particle files: exact round trips in every format (2D, 3D,
 * periodic, walls), reading foreign variants, and each rejection of a
 * malformed file with its line number. */
#include "hg_io.h"
#include <cjson/cJSON.h>
#include "testutil.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const hg_io_format formats[] = {HG_IO_CSV, HG_IO_LAMMPS, HG_IO_XYZ,
                                       HG_IO_VTK};

/* Random particles with awkward doubles in an off-origin box. */
static void make_particles(hg_particles *p, int dim, size_t n, int periodic,
                           unsigned long seed)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    CHECK(hg_particles_alloc(p, dim, n, NULL) == HG_OK);
    for (int c = 0; c < dim; c++) {
        p->lo[c] = -1.3 + 0.1 * c;
        p->hi[c] = 7.7 / (c + 1.0) + 1e-9 * gsl_rng_uniform(rng);
    }
    p->periodic = periodic;
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < dim; c++)
            p->x[i * (size_t)dim + (size_t)c] =
                p->lo[c] + (p->hi[c] - p->lo[c]) * gsl_rng_uniform(rng);
        p->r[i] = 1e-3 + gsl_rng_uniform_pos(rng) / 3.0;
    }
    if (n > 1) { /* extremes: a centre on lo, a tiny and a huge radius */
        p->x[0] = p->lo[0];
        p->r[0] = 1e-290; /* r_max / r_min = 1.2e305 is still finite */
        p->r[1] = 123456.789e10;
    }
    gsl_rng_free(rng);
}

static void test_round_trips(void)
{
    for (size_t f = 0; f < sizeof formats / sizeof *formats; f++)
        for (int dim = 2; dim <= 3; dim++)
            for (int periodic = 0; periodic <= 1; periodic++)
                for (size_t n = 0; n <= 200; n += 100) {
                    hg_particles p, q;
                    hg_err e = {0};
                    unsigned long seed = 1000 + 10 * f + 3 * dim + periodic;
                    make_particles(&p, dim, n, periodic, seed);
                    FILE *tf = tmpfile();
                    CHECK(tf != NULL);
                    if (!tf)
                        return;
                    CHECK(hg_io_write_stream(tf, "tmp", formats[f], &p, &e) ==
                          HG_OK);
                    rewind(tf);
                    int st = hg_io_read_stream(tf, "tmp", formats[f], &q, &e);
                    fclose(tf);
                    CHECK(st == HG_OK);
                    int same = st == HG_OK && hg_test_same_particles(&p, &q);
                    CHECK(same);
                    if (!same || st != HG_OK)
                        fprintf(stderr,
                                "round trip %s dim %d periodic %d n %zu "
                                "(seed %lu): %s\n",
                                hg_io_format_name(formats[f]), dim, periodic,
                                n, seed, st == HG_OK ? "differs" : e.msg);
                    hg_particles_clear(&p);
                    hg_particles_clear(&q);
                }
}

/* Files on disk: format from the extension, and from the content. */
static void test_files(void)
{
    static const char *const names[] = {"test_io_tmp.csv", "test_io_tmp.data",
                                        "test_io_tmp.xyz", "test_io_tmp.vtk"};
    hg_particles p;
    make_particles(&p, 3, 50, 1, 7);
    for (int k = 0; k < 4; k++) {
        hg_particles q;
        hg_err e = {0};
        CHECK(hg_io_write(names[k], HG_IO_AUTO, &p, &e) == HG_OK);
        int st = hg_io_read(names[k], HG_IO_AUTO, &q, &e);
        CHECK(st == HG_OK);
        CHECK(st == HG_OK && hg_test_same_particles(&p, &q));
        hg_particles_clear(&q);
        /* content sniffing when the name says nothing */
        FILE *f = fopen(names[k], "rb");
        CHECK(f != NULL);
        if (f) {
            st = hg_io_read_stream(f, "(stdin)", HG_IO_AUTO, &q, &e);
            fclose(f);
            CHECK(st == HG_OK && hg_test_same_particles(&p, &q));
            hg_particles_clear(&q);
        }
        remove(names[k]);
    }
    hg_particles_clear(&p);

    hg_particles q;
    hg_err e = {0};
    CHECK(hg_io_read("/nonexistent/dir/p.csv", HG_IO_AUTO, &q, &e) ==
          HG_EIO);
    CHECK(strstr(e.msg, "/nonexistent/dir/p.csv") != NULL);
    CHECK(q.x == NULL && q.n == 0);
    make_particles(&p, 2, 5, 1, 8);
    CHECK(hg_io_write("/nonexistent/dir/p.csv", HG_IO_AUTO, &p, &e) ==
          HG_EIO);
    CHECK(hg_io_write("out.unknown", HG_IO_AUTO, &p, &e) == HG_EUNKNOWN);
    CHECK(strstr(e.msg, "out.unknown") != NULL);
    CHECK(hg_io_write("-", HG_IO_AUTO, &p, &e) == HG_EINVAL);
    p.r[3] = -1.0;
    remove("test_io_bad.csv");
    CHECK(hg_io_write("test_io_bad.csv", HG_IO_CSV, &p, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "particle 3") != NULL);
    FILE *bf = fopen("test_io_bad.csv", "r");
    CHECK(bf == NULL); /* no file left behind */
    if (bf)
        fclose(bf);
    hg_particles_clear(&p);
}

static void test_format_names(void)
{
    hg_io_format f;
    CHECK(hg_io_format_from_path("a/b.c/p.CSV", &f, NULL) == HG_OK &&
          f == HG_IO_CSV);
    CHECK(hg_io_format_from_path("p.data", &f, NULL) == HG_OK &&
          f == HG_IO_LAMMPS);
    CHECK(hg_io_format_from_path("p.lmp", &f, NULL) == HG_OK &&
          f == HG_IO_LAMMPS);
    CHECK(hg_io_format_from_path("p.xyz", &f, NULL) == HG_OK &&
          f == HG_IO_XYZ);
    CHECK(hg_io_format_from_path("p.vtk", &f, NULL) == HG_OK &&
          f == HG_IO_VTK);
    CHECK(hg_io_format_from_path("a.d/p", &f, NULL) == HG_EUNKNOWN);
    CHECK(hg_io_format_from_path("p.txt", &f, NULL) == HG_EUNKNOWN);
    CHECK(hg_io_format_from_path("p.auto", &f, NULL) == HG_EUNKNOWN);
    CHECK(hg_io_format_parse("lammps", &f, NULL) == HG_OK &&
          f == HG_IO_LAMMPS);
    hg_err e;
    CHECK(hg_io_format_parse("pdb", &f, &e) == HG_EUNKNOWN);
    CHECK(strstr(e.msg, "pdb") != NULL);
    for (size_t k = 0; k < 4; k++) {
        CHECK(hg_io_format_parse(hg_io_format_name(formats[k]), &f, NULL) ==
              HG_OK);
        CHECK(f == formats[k]);
    }
}

static int read_text(const char *name, hg_io_format fmt, const char *text,
                     hg_particles *p, hg_err *e)
{
    return hg_io_read_mem(text, strlen(text), name, fmt, p, e);
}

/* Files from other programs: no box comment, extra columns, image flags,
 * other sections, other properties. */
static void test_foreign(void)
{
    hg_particles p;
    hg_err e = {0};
    int st = read_text("u.csv", HG_IO_AUTO,
                       "id,R,y,x\n1,0.5,2,1\n2,0.25,3,4\n", &p, &e);
    CHECK(st == HG_OK);
    if (st == HG_OK) {
        CHECK(p.dim == 2 && p.n == 2 && p.periodic == 0);
        CHECK(p.x[0] == 1.0 && p.x[1] == 2.0 && p.r[0] == 0.5);
        CHECK(p.lo[0] == 0.5 && p.hi[0] == 4.25); /* bounding box */
        CHECK(p.lo[1] == 1.5 && p.hi[1] == 3.25);
    } else
        fprintf(stderr, "%s\n", e.msg);
    hg_particles_clear(&p);

    st = read_text("u.data", HG_IO_AUTO,
                   "LAMMPS data file via write_data\n\n"
                   "2 atoms\n1 atom types\n\n"
                   "0 10 xlo xhi\n0 10 ylo yhi\n-1 9 zlo zhi\n\n"
                   "Masses\n\n1 1.0\n\n"
                   "Atoms # sphere\n\n"
                   "2 1 1.0 1.9 5 5 5 0 0 0\n"
                   "1 1 0.5 1.9 1 2 3 1 -1 0\n\n"
                   "Velocities\n\n1 0 0 0 0 0 0\n2 0 0 0 0 0 0\n",
                   &p, &e);
    CHECK(st == HG_OK);
    if (st == HG_OK) {
        CHECK(p.dim == 3 && p.n == 2 && p.periodic == 1);
        CHECK(p.r[0] == 0.5 && p.r[1] == 0.25 && p.x[3] == 1.0);
        CHECK(p.lo[2] == -1.0 && p.hi[2] == 9.0);
    } else
        fprintf(stderr, "%s\n", e.msg);
    hg_particles_clear(&p);

    /* LAMMPS' multi/data.powerlaw: "0 0 0 xy xz yz" (a triclinic box
     * without tilt) and a 2D system with z from 0 to 1 */
    st = read_text("pl.data", HG_IO_AUTO,
                   "LAMMPS data file via write_data\n\n"
                   "2 atoms\n1 atom types\n\n"
                   "9.9 331.8 xlo xhi\n9.9 331.8 ylo yhi\n0 1 zlo zhi\n"
                   "0 0 0 xy xz yz\n\n"
                   "Atoms # sphere\n\n"
                   "2 1 27.0148 1 21.5 19.8 0 0 0 0\n"
                   "1 1 1.2402 1 40.1 29.0 0 0 1 0\n",
                   &p, &e);
    CHECK(st == HG_OK);
    if (st == HG_OK)
        CHECK(p.dim == 2 && p.n == 2 && p.x[2] == 40.1 && p.hi[0] == 331.8);
    else
        fprintf(stderr, "%s\n", e.msg);
    hg_particles_clear(&p);

    st = read_text("bom.csv", HG_IO_AUTO, "\xef\xbb\xbfx,y,r\r\n1,2,0.5\r\n",
                   &p, &e);
    CHECK(st == HG_OK && p.n == 1 && p.dim == 2 && p.r[0] == 0.5);
    hg_particles_clear(&p);

    /* LAMMPS' write_data of a "dimension 2" system */
    st = read_text("u2.data", HG_IO_AUTO,
                   "LAMMPS data file via write_data\n\n2 atoms\n"
                   "0 10 xlo xhi\n0 10 ylo yhi\n-0.5 0.5 zlo zhi\n\n"
                   "Atoms # sphere\n\n1 1 1 1 2 3 0 0 0 0\n"
                   "2 1 1 1 4 5 0 0 0 0\n",
                   &p, &e);
    CHECK(st == HG_OK);
    if (st == HG_OK) {
        CHECK(p.dim == 2 && p.n == 2 && p.periodic == 1);
        CHECK(p.x[2] == 4.0 && p.x[3] == 5.0 && p.hi[1] == 10.0);
    } else
        fprintf(stderr, "%s\n", e.msg);
    hg_particles_clear(&p);

    st = read_text("u.xyz", HG_IO_AUTO,
                   "2\nProperties=species:S:1:pos:R:3:id:I:1:Radius:R:1 "
                   "Time=0.0\n"
                   "C 1 2 3 7 0.5\nO 4 5 6 8 0.25\n",
                   &p, &e);
    CHECK(st == HG_OK);
    if (st == HG_OK) {
        CHECK(p.dim == 3 && p.n == 2 && p.periodic == 0);
        CHECK(p.x[5] == 6.0 && p.r[1] == 0.25 && p.lo[0] == 0.5);
    } else
        fprintf(stderr, "%s\n", e.msg);
    hg_particles_clear(&p);

    st = read_text("u.vtk", HG_IO_AUTO,
                   "# vtk DataFile Version 2.0\nfrom ParaView\nASCII\n"
                   "DATASET POLYDATA\nPOINTS 2 float\n0 0 0 1 1 1\n"
                   "POINT_DATA 2\nSCALARS id int\nLOOKUP_TABLE default\n1 2\n"
                   "FIELD FieldData 1\nradius 1 2 double\n0.5 0.25\n",
                   &p, &e);
    CHECK(st == HG_OK);
    if (st == HG_OK) {
        CHECK(p.dim == 3 && p.n == 2 && p.periodic == 0);
        CHECK(p.r[0] == 0.5 && p.x[4] == 1.0 && p.hi[2] == 1.25);
    } else
        fprintf(stderr, "%s\n", e.msg);
    hg_particles_clear(&p);
}

typedef struct bad_case {
    const char *name; /* file name: sets the format */
    const char *text;
    long line;         /* expected line in "name:line:" */
    const char *reason; /* expected substring */
} bad_case;

#define BOX3 "# box 0 1 0 1 0 1 periodic\n"
#define LMP_HEAD "t\n\n2 atoms\n\n0 1 xlo xhi\n0 1 ylo yhi\n0 1 zlo zhi\n\n"
#define XYZ_HEAD "Lattice=\"1 0 0 0 1 0 0 0 1\" " \
                 "Properties=species:S:1:pos:R:3:radius:R:1\n"
#define VTK_HEAD "# vtk DataFile Version 3.0\n" \
                 "hgridopt dim 3 box 0 1 0 1 0 1 periodic\nASCII\n" \
                 "DATASET POLYDATA\n"

static const bad_case bad[] = {
    /* CSV */
    {"b.csv", BOX3 "x,y,z,r\n0.1,0.2,0.3,0.01\n0.1,0.2,0.3\n", 4,
     "3 columns, the header has 4"},
    {"b.csv", "x,y,z,r\n0.1,abc,0.3,0.1\n", 2, "y: 'abc' is not a number"},
    {"b.csv", "x,y,z,r\n0.1,0.2,0.3,0.1\n0.1,0.2,0.3,-0.5\n", 3,
     "radius -0.5 must be > 0"},
    {"b.csv", "x,y,r\n\n0.1,0.2,0\n", 3, "radius 0 must be > 0"},
    {"b.csv", "x,y,z,r\n0.1,0.2,0.3,nan\n", 2, "r: 'nan' is not a finite"},
    {"b.csv", "x,y,z,r\n0.1,0.2,0.3,1e999\n", 2, "r: '1e999' is not a finite"},
    {"b.csv", BOX3 "x,y,z,r\n0.5,0.5,1.5,0.1\n", 3,
     "z = 1.5 is outside the periodic box [0, 1)"},
    {"b.csv", BOX3 "x,y,z,r\n1,0.5,0.5,0.1\n", 3,
     "x = 1 is outside the periodic box"},
    {"b.csv", "# box 0 1 0 1 0 1 walls\nx,y,z,r\n0.5,-0.1,0.5,0.1\n", 3,
     "y = -0.10000000000000001 is outside the walled box"},
    {"b.csv", "# box 0 1 0 1 periodic\nx,y,z,r\n0.5,0.5,0.5,0.1\n", 1,
     "box line has 2 axes but the header has 3"},
    {"b.csv", "# box 0 1 1 1 0 1 periodic\nx,y,z,r\n", 1,
     "ylo 1 is not below yhi 1"},
    {"b.csv", "# box 0 1 0 1 0 1 closed\nx,y,z,r\n", 1,
     "'closed' is not 'periodic' or 'walls'"},
    {"b.csv", "# box 0 1 0 1 0 1 7 periodic\n", 1, "got 8 fields"},
    {"b.csv", "# box 0 1 0 x 0 1 periodic\n", 1, "yhi: 'x' is not a number"},
    {"b.csv", BOX3 "# comment\n" BOX3 "x,y,z,r\n", 3,
     "second box line (first at line 1)"},
    {"b.csv", "# only comments\n\n", 2, "no header line"},
    {"b.csv", "x,y,z\n1,2,3\n", 1, "needs columns x, y, r"},
    {"b.csv", "x,y,x,r\n", 1, "column 'x' appears twice"},
    /* issue 12 item 3: r_max / r not a finite double */
    {"b.csv", "x,y,r\n0,0,1.1852\n1,1,1e-320\n2,2,1\n", 3,
     "radius 9.9998886718268301e-321 is too small next to the largest "
     "radius 1.1852"},
    {"b.csv", "x,y,r\n0,0,1e-300\n1,1,1e10\n", 2,
     "radius 1e-300 is too small"},
    {"b.xyz", "2\n" XYZ_HEAD "P 0.5 0.5 0.5 1e-310\nP 0.5 0.5 0.5 0.1\n", 3,
     "radius 9.9999999999999694e-311 is too small"},
    /* issue 12 item 15: a 2D LAMMPS file (title) with z != 0 */
    {"b.data", "hgridopt dim 2 periodic\n\n1 atoms\n\n0 1 xlo xhi\n"
               "0 1 ylo yhi\n-1 1 zlo zhi\n\nAtoms # sphere\n\n"
               "1 1 0.1 1 0.5 0.5 0.5\n",
     11, "z = 0.5 in a 2D file"},
    /* LAMMPS data */
    {"b.data", "t\n\n2 atoms\n\n0 1 xlo xhi\n0 1 zlo zhi\n\nAtoms\n\n", 8,
     "no 'ylo yhi' box line"},
    {"b.data", "t\n\n0 1 xlo xhi\n0 1 ylo yhi\n0 1 zlo zhi\n\nAtoms\n", 7,
     "no 'N atoms' line"},
    {"b.data", LMP_HEAD "Atoms # sphere\n\n1 1 0.1 1 0.5 0.5 0.5\n\n", 12,
     "ends after 1 of the 2 atoms announced at line 3"},
    {"b.data", LMP_HEAD "Atoms # sphere\n\n1 1 0.1 1 0.5 0.5 0.5\n"
                        "2 1 0.1 1 0.5 0.5 0.5\n3 1 0.1 1 0.5 0.5 0.5\n",
     13, "more atom lines than the 2 atoms announced at line 3"},
    {"b.data", LMP_HEAD "Atoms # sphere\n\n1 1 0.1 1 0.5 0.5 0.5\n", 11,
     "file ends after 1 of the 2 atoms"},
    {"b.data", LMP_HEAD "Atoms # sphere\n\n1 1 0.1 0.5 0.5 0.5\n", 11,
     "6 columns"},
    {"b.data", LMP_HEAD "Atoms\n\n1 1 0.1 1 0.5 0.5 0.5\n2 1 d 1 0.5 0.5 "
                        "0.5\n",
     12, "diameter: 'd' is not a number"},
    {"b.data", LMP_HEAD "Atoms\n\n1 1 -0.1 1 0.5 0.5 0.5\n", 11,
     "diameter -0.10000000000000001 must be > 0"},
    {"b.data", LMP_HEAD "Atoms\n\n1 1 0.1 1 0.5 0.5 0.5\n2 1 0.1 1 0.5 1 "
                        "0.5\n",
     12, "y = 1 is outside the periodic box [0, 1)"},
    {"b.data", LMP_HEAD "Atoms # atomic\n\n1 1 0.5 0.5 0.5\n", 9,
     "atom_style atomic; only sphere"},
    {"b.data", LMP_HEAD "Atoms\n\n7 1 0.1 1 0.5 0.5 0.5\n7 1 0.1 1 0.2 0.5 "
                        "0.5\n",
     12, "atom-ID 7 used again (first at line 11)"},
    {"b.data", LMP_HEAD "Atoms\n\n1 1 0.1 1 0.5 0.5 0.5\n-2 1 0.1 1 0.2 0.5 "
                        "0.5\n",
     12, "atom-ID: '-2' is not a non-negative integer"},
    {"b.data", "t\n2 atoms\n0 1 xlo xhi\n0 1 ylo yhi\n0 1 zlo zhi\n"
               "0.5 0 0 xy xz yz\n",
     6, "triclinic box: tilt xy 0.5; hgridopt reads orthogonal boxes only"},
    {"b.data", "t\n2 atoms\n0 1 xlo xhi\n1 0 ylo yhi\n", 4,
     "ylo 1 is not below yhi 0"},
    {"b.data", LMP_HEAD "Velocities\n\n1 0 0 0\n", 11,
     "no Atoms section for the 2 atoms announced at line 3"},
    {"b.data", "t\n99999999999 atoms\n", 2, "more than the file"},
    /* extended XYZ */
    {"b.xyz", "3\n" XYZ_HEAD "P 0.5 0.5 0.5 0.1\nP 0.5 0.5 0.5 0.1\n", 4,
     "file ends after 2 of the 3 particles announced at line 1"},
    {"b.xyz", "1\n" XYZ_HEAD "P 0.5 0.5 0.5 0.1\nP 0.5 0.5 0.5 0.1\n", 4,
     "more particle lines than the 1 announced"},
    {"b.xyz", "1\n" XYZ_HEAD "P 0.5 0.5 0.1\n", 3,
     "4 columns, Properties lists 5"},
    {"b.xyz", "1\n" XYZ_HEAD "P 0.5 0.5 0.5 NaN\n", 3,
     "radius: 'NaN' is not a finite"},
    {"b.xyz", "1\n" XYZ_HEAD "P 0.5 2.5 0.5 0.1\n", 3,
     "y = 2.5 is outside the periodic box"},
    {"b.xyz", "1\nProperties=species:S:1:pos:R:3\nP 1 1 1\n", 2,
     "must list pos:R:3 and radius:R:1"},
    {"b.xyz", "1\nLattice=\"1 0 0 0.5 1 0 0 0 1\" " XYZ_HEAD, 2,
     "non-orthogonal"},
    {"b.xyz", "x\n", 1, "particle count: 'x' is not a non-negative integer"},
    {"b.xyz", "1\n" XYZ_HEAD "P 0.5 0.5 0.5 0\n", 3, "radius 0 must be > 0"},
    /* legacy VTK */
    {"b.vtk", VTK_HEAD "POINTS 2 double\n0.5 0.5 0.5\n"
                       "POINT_DATA 2\nSCALARS radius double 1\n"
                       "LOOKUP_TABLE default\n0.1 0.1\n",
     7, "POINTS (line 5) announces 6 numbers, found 3 before 'POINT_DATA'"},
    {"b.vtk", VTK_HEAD "POINTS 2 double\n0.5 0.5 0.5\n0.1 0.1 0.1\n"
                       "POINT_DATA 2\nSCALARS radius double 1\n"
                       "LOOKUP_TABLE default\n0.1\n-0.1\n",
     12, "radius -0.10000000000000001 must be > 0"},
    {"b.vtk", VTK_HEAD "POINTS 2 double\n0.5 0.5 0.5\n0.1 1.1 0.1\n"
                       "POINT_DATA 2\nSCALARS radius double 1\n"
                       "LOOKUP_TABLE default\n0.1\n0.1\n",
     7, "y = 1.1000000000000001 is outside the periodic box"},
    {"b.vtk", VTK_HEAD "POINTS 1 double\n0.5 0.5 0.5\n", 6,
     "no point-data array named radius"},
    {"b.vtk", VTK_HEAD "POINTS 1 double\n0.5 0.5 0.5\nPOINT_DATA 2\n", 7,
     "POINT_DATA 2 but POINTS 1 (line 5)"},
    {"b.vtk", VTK_HEAD "POINTS 1 double\n0.5 0.5 0..5\n", 6,
     "POINTS: '0..5' is not a number"},
    {"b.vtk", "# vtk DataFile Version 3.0\nt\nBINARY\n", 3,
     "only ASCII"},
    {"b.vtk", "# vtk DataFile Version 3.0\nt\nASCII\nDATASET "
              "STRUCTURED_POINTS\n",
     4, "is not POLYDATA"},
};

static void test_rejections(void)
{
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        hg_particles p;
        hg_err e = {0};
        int st = read_text(bad[k].name, HG_IO_AUTO, bad[k].text, &p, &e);
        char prefix[64];
        snprintf(prefix, sizeof prefix, "%s:%ld: ", bad[k].name, bad[k].line);
        int ok = st == HG_EPARSE &&
                 strncmp(e.msg, prefix, strlen(prefix)) == 0 &&
                 strstr(e.msg, bad[k].reason) != NULL;
        CHECK(ok);
        CHECK(p.x == NULL && p.r == NULL && p.n == 0);
        if (!ok)
            fprintf(stderr, "bad case %zu: status %d, message '%s'; "
                            "expected '%s...%s'\n",
                    k, st, st ? e.msg : "", prefix, bad[k].reason);
    }
}

/* issue 12 items 9 and 15: a file without a box gets the bounding box and
 * says so; an empty bounding box is an error naming the file. */
static void test_inferred_box(void)
{
    hg_particles p;
    hg_err e = {0};
    const char *ok = "x,y,r\n0,0,1\n3,1,0.5\n";
    CHECK(read_text("n.csv", HG_IO_AUTO, ok, &p, &e) == HG_OK);
    CHECK(p.box_inferred == 1 && p.periodic == 0);
    CHECK(p.lo[0] == -1.0 && p.hi[0] == 3.5 && p.lo[1] == -1.0 &&
          p.hi[1] == 1.5);
    hg_particles_clear(&p);
    CHECK(read_text("n.csv", HG_IO_AUTO, BOX3 "x,y,z,r\n0.5,0.5,0.5,0.1\n",
                    &p, &e) == HG_OK);
    CHECK(p.box_inferred == 0);
    hg_particles_clear(&p);
    const char *empty = "#5period\nx,y,r\n96204956319397838,12.87188,1.1852\n";
    int st = read_text("e.csv", HG_IO_AUTO, empty, &p, &e);
    CHECK(st == HG_EPARSE);
    CHECK(strstr(e.msg, "e.csv: no box given and the bounding box of the "
                        "spheres is empty along x") != NULL);
    CHECK(p.x == NULL && p.n == 0);
    if (st != HG_EPARSE)
        hg_particles_clear(&p);
}

static void test_system(void)
{
    hg_particles p;
    hg_err e = {0};
    CHECK(hg_particles_alloc(&p, 3, 4, NULL) == HG_OK);
    for (int c = 0; c < 3; c++)
        p.hi[c] = 10.0;
    for (size_t i = 0; i < 4; i++) {
        p.r[i] = i < 2 ? 1.0 : 2.0;
        p.x[3 * i] = 1.0 + 2.0 * (double)i;
    }
    hg_psd *psd = NULL;
    hg_system sys = {0, 0.0};
    int st = hg_io_system_from_particles(&p, &psd, &sys, &e);
    CHECK(st == HG_OK);
    if (st == HG_OK) {
        CHECK(sys.dim == 3);
        /* (2 * 1 + 2 * 8) 4/3 pi / 1000 */
        CHECK_CLOSE(sys.nu, 18.0 * 4.0 / 3.0 * M_PI / 1000.0, 1e-14, 0.0);
        CHECK(hg_psd_rmin(psd) == 1.0 && hg_psd_rmax(psd) == 2.0);
        CHECK_CLOSE(hg_psd_cdf(psd, 1.0), 0.5, 1e-14, 0.0);
        CHECK_CLOSE(hg_psd_mean_rk(psd, 3), 4.5, 1e-14, 0.0);
    } else
        fprintf(stderr, "%s\n", e.msg);
    hg_psd_free(psd);
    /* overlapping spheres filling more than the box */
    for (size_t i = 0; i < 4; i++)
        p.r[i] = 5.0;
    CHECK(hg_io_system_from_particles(&p, &psd, &sys, &e) == HG_EINVAL);
    CHECK(psd == NULL && strstr(e.msg, "packing fraction") != NULL);
    p.n = 0;
    CHECK(hg_io_system_from_particles(&p, &psd, &sys, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "no particles") != NULL);
    p.n = 4;
    hg_particles_clear(&p);
}

/* hg_json_print: shortest round-trip numbers, also nested; NaN as null. */
static void test_json_print(void)
{
    cJSON *j = cJSON_CreateObject(), *a = cJSON_CreateArray();
    cJSON_AddNumberToObject(j, "nu", 0.6);
    cJSON_AddNumberToObject(j, "n", 40.0);
    cJSON_AddNumberToObject(j, "third", 1.0 / 3.0);
    cJSON_AddNumberToObject(j, "bad", NAN);
    cJSON_AddItemToArray(a, cJSON_CreateNumber(2.9));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(-1e-300));
    cJSON_AddItemToObject(j, "list", a);
    char *t = hg_json_print(j);
    CHECK(t != NULL);
    if (t) {
        CHECK(strstr(t, "\"nu\":\t0.6,") != NULL);
        CHECK(strstr(t, "\"n\":\t40,") != NULL);
        CHECK(strstr(t, "0.3333333333333333,") != NULL);
        CHECK(strstr(t, "\"bad\":\tnull") != NULL);
        CHECK(strstr(t, "[2.9, -1e-300]") != NULL);
        cJSON *back = cJSON_Parse(t);
        CHECK(back && cJSON_GetObjectItem(back, "third")->valuedouble ==
                          1.0 / 3.0);
        cJSON_Delete(back);
        free(t);
    }
    cJSON_Delete(j);
    CHECK(hg_json_print(NULL) == NULL);
}

/* Files of other people's runs (issue 48), from memory: a MercuryDPM 2D
 * .data whose first step is empty, ParaView's CSV export with a diameter
 * column, a restart's Lees-Edwards boundary, the angled periodic one
 * refused unless the boundary is given, binary restarts, .fstat and
 * .xballs named. */
static void test_other_runs(void)
{
    hg_particles p;
    hg_err e = {0};
    hg_io_info info;
    static const char data2d[] =
        "0 0 0 0 2 3 \n"
        "2 0.5 0 0 2 3 \n"
        "0.5 0.5 0 0 0.25 0 0 0\n"
        "1.5 1 0 0 0.5 0 0 0\n";
    int st = hg_io_load_mem(data2d, sizeof data2d - 1, "ins.txt", NULL, &p,
                            &info, &e);
    CHECK(st == HG_OK && info.format == HG_IO_MERCURY_DATA);
    CHECK(st == HG_OK && p.dim == 2 && p.n == 2 && info.frame == 2);
    CHECK(st == HG_OK && p.r[1] == 0.5 && p.hi[1] == 3.0);
    hg_particles_clear(&p);

    static const char pv[] = "\"id\",\"diameter\",\"v:0\",\"Points:0\","
                             "\"Points:1\",\"Points:2\"\n"
                             "1,1,0,0.5,0.5,0.5\n2,0.5,0,2,0.5,0.5\n";
    st = hg_io_load_mem(pv, sizeof pv - 1, "pv.csv", NULL, &p, &info, &e);
    CHECK(st == HG_OK && p.dim == 3 && p.n == 2);
    CHECK(st == HG_OK && p.r[0] == 0.5 && p.r[1] == 0.25 && p.x[3] == 2.0);
    CHECK(st == HG_OK && strstr(info.kind, "ParaView") != NULL);
    hg_particles_clear(&p);

    static const char lees[] =
        "MercuryDPM 1.0 name le\n"
        "xMin 0 xMax 4 yMin 0 yMax 5 zMin 0 zMax 0\n"
        "systemDimensions 2 particleDimensions 2\n"
        "Walls 0\nBoundaries 1\n"
        "LeesEdwardsBoundary id 0 left 0 right 4 down 0 up 5 shift 1 vel 1\n"
        "Particles 1\n"
        "BaseParticle id 0 position 1 1 0 radius 0.5\n";
    st = hg_io_load_mem(lees, sizeof lees - 1, "le.restart", NULL, &p, &info,
                        &e);
    CHECK(st == HG_OK && p.dim == 2 && p.periodic == 1 &&
          info.boundary_stated);
    CHECK(st == HG_OK && p.hi[0] == 4.0 && p.hi[1] == 5.0);
    hg_particles_clear(&p);

    char angled[2 * sizeof lees + 128]; /* prefix, the line, the rest */
    snprintf(angled, sizeof angled, "%.*sAngledPeriodicBoundary id 0 "
             "normal_left 1 0 0 normal_right 0 -1 0 origin 0 0 0\n%s",
             (int)(strstr(lees, "LeesEdwards") - lees), lees,
             strstr(lees, "Particles"));
    st = hg_io_load_mem(angled, strlen(angled), "an.restart", NULL, &p,
                        &info, &e);
    CHECK(st == HG_EPARSE && strstr(e.msg, "AngledPeriodicBoundary") &&
          strstr(e.msg, "--boundary"));
    hg_particles_clear(&p);
    hg_io_options o = {0};
    o.boundary_given = 1;
    st = hg_io_load_mem(angled, strlen(angled), "an.restart", &o, &p, &info,
                        &e);
    CHECK(st == HG_OK && p.n == 1 && !info.boundary_stated);
    hg_particles_clear(&p);

    static const char lmp[] = "LammpS RestartT\0\1\0\0\0";
    st = hg_io_load_mem(lmp, sizeof lmp, "state", NULL, &p, &info, &e);
    CHECK(st == HG_EPARSE && strstr(e.msg, "binary restart") &&
          strstr(e.msg, "write_data"));
    hg_particles_clear(&p);
    static const char lig[] = "\0\0\0\0\x0c\0\0\0Version LIG\0\0";
    st = hg_io_load_mem(lig, sizeof lig, "state", NULL, &p, &info, &e);
    CHECK(st == HG_EPARSE && strstr(e.msg, "binary restart"));
    hg_particles_clear(&p);
    static const char fstat[] = "# 0.08 1\n# 0 0 0 1 1 1\n"
                                "# 0.1 0.2 0 0 0 0\n"
                                "0.08 1 2 0 0 0 0 0 0 0 1 0 0 0 0 0\n";
    st = hg_io_load_mem(fstat, sizeof fstat - 1, "run.fstat", NULL, &p,
                        &info, &e);
    CHECK(st == HG_EPARSE && strstr(e.msg, ".fstat") &&
          strstr(e.msg, "run.data, run.restart"));
    hg_particles_clear(&p);
    /* MercuryDPM's XBalls script, by name and (renamed) by content */
    static const char xb[] = "#!/bin/bash\ncd $dirname\n"
                             "../XBalls/xballs -format 8 -f run.data -s 1 $*\n";
    st = hg_io_load_mem(xb, sizeof xb - 1, "run.xballs", NULL, &p, &info,
                        &e);
    CHECK(st == HG_EPARSE && strstr(e.msg, "XBalls script") &&
          strstr(e.msg, "run.data, run.restart"));
    hg_particles_clear(&p);
    st = hg_io_load_mem(xb, sizeof xb - 1, "show.sh", NULL, &p, &info, &e);
    CHECK(st == HG_EPARSE && strstr(e.msg, "XBalls script"));
    hg_particles_clear(&p);
}

int main(void)
{
    test_other_runs();
    test_json_print();
    test_system();
    test_format_names();
    test_round_trips();
    test_files();
    test_foreign();
    test_rejections();
    test_inferred_box();
    return hg_test_summary("test_io");
}
