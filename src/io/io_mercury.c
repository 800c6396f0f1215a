/* io_mercury.c - MercuryDPM's output files.
 *
 * .data (DPMBase's XBalls output): per saved time step a header line
 * "N time xMin yMin [zMin] xMax yMax [zMax]" (6 numbers in 2D, 8 in 3D)
 * and N particle lines, 3D "x y z vx vy vz r ..." (14 numbers), 2D
 * "x y vx vy r ..." (8 numbers); the steps follow each other in one file,
 * or one per file (NAME.data.0, ...). Read frame by frame
 * (io_frames_select). The file states neither walls nor periodic
 * boundaries: those come from the .restart written beside it, when there
 * is one.
 * .restart: the domain ("xMin .. xMax .. yMin .. yMax .. zMin .. zMax
 * .."), "systemDimensions D", "Walls W", "Boundaries B" and "Particles N"
 * sections, objects written as "Class key value ...": positions and radii
 * by keyword, InfiniteWall's normal from its orientation quaternion,
 * PeriodicBoundary's two planes from its normal and distanceLeft /
 * distanceRight; and the hGrid line of the run's own neighbour search.
 * Layouts (from MercuryDPM's DPMBase, ParticleHandler, InfiniteWall and
 * PeriodicBoundary writers): tests/data/files/mercurydpm/FORMAT.md. */
#include "io_internal.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define MD_MAXCOL 32

/* ---- .data ------------------------------------------------------------ */

static int data_next(io_stream *s, io_dump_frame *f, hg_err *e)
{
    io_stream_mark start = io_stream_tell(s);
    char *line, *tok[MD_MAXCOL];
    int r;
    do {
        if ((r = io_stream_line(s, &line, NULL, e)) <= 0)
            return r;
    } while (io_blank(line));
    memset(f, 0, sizeof *f);
    f->mark = start;
    f->step = -1;
    f->header_line = io_stream_lineno(s);
    int nt = io_split(line, 0, tok, MD_MAXCOL);
    if (nt != 6 && nt != 8)
        return io_stream_fail(s, e, HG_EPARSE,
                     "expected a time step's header 'N time xMin yMin [zMin] "
                     "xMax yMax [zMax]' (6 or 8 numbers), found %d fields "
                     "(does the previous step hold more particle lines than "
                     "its N?)",
                     nt);
    f->dim = nt == 8 ? 3 : 2;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(tok[0], &end, 10);
    if (*end || end == tok[0] || !isdigit((unsigned char)tok[0][0]) ||
        errno == ERANGE)
        return io_stream_fail(s, e, HG_EPARSE, "N: '%s' is not a particle count", tok[0]);
    f->natoms = (size_t)n;
    int st = io_stream_number(s, tok[1], "time", &f->time, e);
    static const char *const lo_name[3] = {"xMin", "yMin", "zMin"};
    static const char *const hi_name[3] = {"xMax", "yMax", "zMax"};
    for (int a = 0; a < f->dim && st == HG_OK; a++) {
        st = io_stream_number(s, tok[2 + a], lo_name[a], &f->lo[a], e);
        if (st == HG_OK)
            st = io_stream_number(s, tok[2 + f->dim + a], hi_name[a], &f->hi[a], e);
    }
    if (st)
        return st;
    f->atoms = io_stream_tell(s);
    snprintf(f->columns, sizeof f->columns, "%s",
             f->dim == 3 ? "x y z vx vy vz r ... (14 numbers)"
                         : "x y vx vy r ... (8 numbers)");
    return 1;
}

static int data_skip(io_stream *s, const io_dump_frame *f, hg_err *e)
{
    size_t got;
    int st = io_stream_skip(s, f->natoms, &got, e);
    if (st)
        return st;
    if (got < f->natoms)
        return io_stream_fail(s, e, HG_EPARSE,
                     "the time step at line %ld (time %g) ends after %zu of "
                     "its %zu particles (a file still being written?)",
                     f->header_line, f->time, got, f->natoms);
    return HG_OK;
}

static int data_read(io_stream *s, const io_dump_frame *f,
                     const io_dump_read_opts *o, io_dump_atoms *A, hg_err *e)
{
    (void)o;
    int d = f->dim, want = d == 3 ? 14 : 8;
    int ir = d == 3 ? 6 : 4, iv = d;
    size_t n = f->natoms;
    A->n = 0;
    A->has_id = 0;
    A->has_v = 1;
    A->radius_from_type = 0;
    A->guessed_columns = 0;
    A->limit = n ? n : 1;
    int st0 = io_dump_atoms_grow(A, n ? n : 1, e);
    if (st0)
        return st0;
    char *line, *tok[MD_MAXCOL];
    for (size_t k = 0; k < n; k++) {
        int r = io_stream_line(s, &line, NULL, e);
        if (r < 0)
            return r;
        if (r == 0)
            return io_stream_fail(s, e, HG_EPARSE,
                         "the time step at line %ld (time %g) ends after %zu "
                         "of its %zu particles (a file still being written?)",
                         f->header_line, f->time, k, n);
        int nt = io_split(line, 0, tok, MD_MAXCOL);
        if (nt != want)
            return io_stream_fail(s, e, HG_EPARSE,
                         "%d numbers; a %dD particle line has %d (x y%s vx "
                         "vy%s r ...)",
                         nt, d, want, d == 3 ? " z" : "", d == 3 ? " vz" : "");
        double *x = A->x + 3 * k, rad = 0.0, v[3] = {0, 0, 0};
        static const char *const an[3] = {"x", "y", "z"};
        int st = HG_OK;
        x[2] = 0.0;
        for (int a = 0; a < d && st == HG_OK; a++)
            st = io_stream_number(s, tok[a], an[a], &x[a], e);
        for (int a = 0; a < d && st == HG_OK; a++)
            st = io_stream_number(s, tok[iv + a], "velocity", &v[a], e);
        if (st == HG_OK)
            st = io_stream_number(s, tok[ir], "radius", &rad, e);
        if (st)
            return st;
        if (!(rad > 0.0))
            return io_stream_fail(s, e, HG_EPARSE, "radius %.17g must be > 0", rad);
        if (!isfinite(4.2 * rad * rad * rad))
            return io_stream_fail(s, e, HG_EPARSE, "radius %.17g: its volume is not a finite "
                               "number", rad);
        A->r[k] = rad;
        if (A->want_v)
            memcpy(A->v + 3 * k, v, sizeof v);
        if (A->want_id)
            A->id[k] = (uint64_t)k + 1; /* the .data file has no ids */
        A->n = k + 1;
    }
    return HG_OK;
}

static const io_frame_ops data_ops = {"MercuryDPM .data file", 0, data_next,
                                      data_skip, data_read};

/* ---- .restart --------------------------------------------------------- */

/* What a restart file says about the domain. */
typedef struct md_domain {
    int dim;
    double lo[3], hi[3];
    int has_domain;
    int periodic[3];
    double plo[3], phi[3]; /* a periodic axis' planes */
    int walls, axis_walls, others; /* InfiniteWalls (along an axis), other
                                      walls */
    int boundaries;   /* other boundaries (insertion, deletion, ...) */
    char unrepresentable[200]; /* a periodic boundary an axis-aligned box
                                  cannot hold ("" when none) */
    char said[600];            /* what was made of the boundaries */
    char hgrid[200];  /* the run's own HGrid, in words */
} md_domain;

/* The numbers after key in tok[0..nt) (n of them) into out. */
static int key_values(char **tok, int nt, const char *key, int n,
                      double *out)
{
    for (int k = 0; k + n < nt; k++)
        if (!strcmp(tok[k], key)) {
            for (int j = 0; j < n; j++) {
                char *end;
                out[j] = strtod(tok[k + 1 + j], &end);
                if (*end || end == tok[k + 1 + j] || !isfinite(out[j]))
                    return 0;
            }
            return 1;
        }
    return 0;
}

/* The axis a unit normal n lies along (-1 when none), *sign its sign. */
static int axis_of(const double *n, int *sign)
{
    for (int a = 0; a < 3; a++)
        if (fabs(fabs(n[a]) - 1.0) < 1e-9 && fabs(n[(a + 1) % 3]) < 1e-9 &&
            fabs(n[(a + 2) % 3]) < 1e-9) {
            *sign = n[a] > 0 ? 1 : -1;
            return a;
        }
    return -1;
}

static int restart_wall(io_text *t, char **tok, int nt, md_domain *dm,
                        hg_err *e)
{
    (void)e;
    dm->walls++;
    if (strcmp(tok[0], "InfiniteWall")) {
        dm->others++;
        return HG_OK;
    }
    double n[3], q[4];
    if (!key_values(tok, nt, "normal", 3, n)) {
        if (!key_values(tok, nt, "orientation", 4, q))
            return io_fail(t, e, HG_EPARSE,
                           "InfiniteWall without orientation or normal");
        /* the unit x axis turned by the quaternion (q0 q1 q2 q3) */
        n[0] = q[0] * q[0] + q[1] * q[1] - q[2] * q[2] - q[3] * q[3];
        n[1] = 2.0 * (q[1] * q[2] + q[0] * q[3]);
        n[2] = 2.0 * (q[1] * q[3] - q[0] * q[2]);
    }
    int sign;
    if (axis_of(n, &sign) >= 0)
        dm->axis_walls++;
    else
        dm->others++;
    return HG_OK;
}

/* A periodic pair of planes n . x = dl, n . x = dr along an axis into
 * dm (what names the boundary for messages). */
static int periodic_planes(io_text *t, const char *what, const double *n,
                           double dl, double dr, md_domain *dm, hg_err *e)
{
    int sign, a = axis_of(n, &sign);
    if (a < 0) {
        snprintf(dm->unrepresentable, sizeof dm->unrepresentable,
                 "%s with normal (%g, %g, %g), not along an axis", what,
                 n[0], n[1], n[2]);
        return HG_OK;
    }
    double lo = sign * dl, hi = sign * dr;
    if (lo > hi) {
        double x = lo;
        lo = hi;
        hi = x;
    }
    if (!(hi > lo))
        return io_fail(t, e, HG_EPARSE,
                       "%s along %c: the two planes coincide (%g)", what,
                       'x' + a, lo);
    dm->periodic[a] = 1;
    dm->plo[a] = lo;
    dm->phi[a] = hi;
    return HG_OK;
}

static void said(md_domain *dm, const char *text)
{
    size_t n = strlen(dm->said);
    snprintf(dm->said + n, sizeof dm->said - n, "%s%s", n ? "; " : "",
             text);
}

/* A boundary line: PeriodicBoundary (normal, distanceLeft/Right; the
 * older position_left/position_right, or the oldest line "normal nx ny
 * nz position_left L position_right R"), TimeDependentPeriodicBoundary
 * (the same planes; its shift moves the images along them),
 * LeesEdwardsBoundary (periodic along x between left and right and along
 * y between down and up: the shear shifts the images, it is no wall);
 * any other periodic kind (AngledPeriodicBoundary: two planes at an angle
 * through an origin) cannot be an axis-aligned box: noted in
 * dm->unrepresentable; the rest (insertion, deletion, ...) counted. */
static int restart_boundary(io_text *t, char **tok, int nt, md_domain *dm,
                            hg_err *e)
{
    double n[3], dl, dr;
    int old = !strcmp(tok[0], "normal");
    if (old || !strcmp(tok[0], "PeriodicBoundary") ||
        !strcmp(tok[0], "TimeDependentPeriodicBoundary")) {
        const char *what = old ? "PeriodicBoundary" : tok[0];
        int have = key_values(tok, nt, "normal", 3, n) &&
                   ((key_values(tok, nt, "distanceLeft", 1, &dl) &&
                     key_values(tok, nt, "distanceRight", 1, &dr)) ||
                    (key_values(tok, nt, "position_left", 1, &dl) &&
                     key_values(tok, nt, "position_right", 1, &dr)));
        if (!have && old && nt >= 8) {
            /* the oldest: "normal nx ny nz WORD left WORD right" */
            char *e5, *e7;
            dl = strtod(tok[5], &e5);
            dr = strtod(tok[7], &e7);
            have = key_values(tok, nt, "normal", 3, n) && !*e5 &&
                   e5 != tok[5] && !*e7 && e7 != tok[7] && isfinite(dl) &&
                   isfinite(dr);
        }
        if (!have)
            return io_fail(t, e, HG_EPARSE,
                           "%s without normal and distanceLeft/Right (or "
                           "position_left/right)",
                           what);
        int st = periodic_planes(t, what, n, dl, dr, dm, e), sign;
        int a = axis_of(n, &sign);
        if (st == HG_OK && tok[0][0] == 'T' && a >= 0) {
            char buf[160];
            snprintf(buf, sizeof buf,
                     "TimeDependentPeriodicBoundary: periodic along %c (its "
                     "shift moves the images along the planes; not applied "
                     "here)",
                     'x' + a);
            said(dm, buf);
        }
        return st;
    }
    if (!strcmp(tok[0], "LeesEdwardsBoundary")) {
        double v[4];
        static const char *const key[4] = {"left", "right", "down", "up"};
        for (int k = 0; k < 4; k++)
            if (!key_values(tok, nt, key[k], 1, &v[k]))
                return io_fail(t, e, HG_EPARSE,
                               "LeesEdwardsBoundary without %s", key[k]);
        static const double ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0};
        int st = periodic_planes(t, "LeesEdwardsBoundary", ex, v[0], v[1],
                                 dm, e);
        if (st == HG_OK)
            st = periodic_planes(t, "LeesEdwardsBoundary", ey, v[2], v[3],
                                 dm, e);
        if (st == HG_OK) {
            /* the images across y are taken unshifted: the pairs across
             * that boundary (and an overlap there) are not the run's */
            double shift = 0.0;
            char buf[240];
            if (key_values(tok, nt, "shift", 1, &shift) && shift != 0.0)
                snprintf(buf, sizeof buf,
                         "LeesEdwardsBoundary: periodic along x and y (the "
                         "shear shifts the images along x, here by %g; it "
                         "is not a wall; the shift is not applied: pairs "
                         "across y are measured unshifted)",
                         shift);
            else
                snprintf(buf, sizeof buf,
                         "LeesEdwardsBoundary: periodic along x and y (the "
                         "shear shifts the images along x; it is not a "
                         "wall)");
            said(dm, buf);
        }
        return st;
    }
    if (strstr(tok[0], "Periodic")) {
        if (!dm->unrepresentable[0])
            snprintf(dm->unrepresentable, sizeof dm->unrepresentable, "%s%s",
                     tok[0],
                     !strcmp(tok[0], "AngledPeriodicBoundary")
                         ? " (periodic between two planes at an angle "
                           "through an origin, a wedge)"
                         : "");
        return HG_OK;
    }
    dm->boundaries++;
    return HG_OK;
}

static void restart_hgrid(char **tok, int nt, md_domain *dm)
{
    const char *method = "?", *dist = "?";
    for (int k = 0; k + 1 < nt; k++) {
        if (!strcmp(tok[k], "method"))
            method = tok[k + 1];
        if (!strcmp(tok[k], "distribution"))
            dist = tok[k + 1];
    }
    int n = snprintf(dm->hgrid, sizeof dm->hgrid, "the run's HGrid: %s, %s",
                     method, dist);
    for (int k = 0; k < nt; k++)
        if (!strcmp(tok[k], "cellSizes")) {
            int levels = 0;
            for (int j = k + 1; j < nt && isdigit((unsigned char)tok[j][0]) &&
                                n > 0 && (size_t)n < sizeof dm->hgrid;
                 j++) {
                n += snprintf(dm->hgrid + n, sizeof dm->hgrid - (size_t)n,
                              "%s%.4g", levels ? " " : ", cell sizes ",
                              strtod(tok[j], NULL));
                levels++;
            }
            break;
        }
}

/* A particle line of restart_version 3: a class word or two ("TSP
 * BP"), then x y z vx vy vz radius ... */
static int old_particle(char **tok, int nt, double *x, double *r)
{
    int k = 0;
    while (k < nt && k < 3 && !isdigit((unsigned char)tok[k][0]) &&
           tok[k][0] != '-' && tok[k][0] != '.')
        k++;
    if (nt - k < 7)
        return 0;
    double v[7];
    for (int j = 0; j < 7; j++) {
        char *end;
        v[j] = strtod(tok[k + j], &end);
        if (*end || end == tok[k + j] || !isfinite(v[j]))
            return 0;
    }
    memcpy(x, v, 3 * sizeof *x);
    *r = v[6];
    return 1;
}

/* Read t up to its Particles section (particles: 1 to read them into b
 * as well). */
static int restart_scan(io_text *t, md_domain *dm, io_build *b, hg_err *e)
{
    char *line, *tok[512];
    memset(dm, 0, sizeof *dm);
    dm->dim = 3;
    if (!io_next_line(t, &line))
        return io_fail(t, e, HG_EPARSE, "empty file");
    char first[32] = "";
    sscanf(line, "%31s", first);
    if (strcmp(first, "MercuryDPM") && strcmp(first, "restart_version"))
        return io_fail(t, e, HG_EPARSE,
                       "not a MercuryDPM restart file (its first word is "
                       "MercuryDPM or restart_version)");
    int st = HG_OK, in_particles = 0;
    while (st == HG_OK && io_next_line(t, &line)) {
        int nt = io_split(line, 0, tok, 512);
        if (nt < 1)
            continue;
        if (nt > 512)
            nt = 512;
        if ((!strcmp(tok[0], "xMin") || !strcmp(tok[0], "xmin")) &&
            nt >= 12) {
            /* restart_version 3 (before 2014) writes xmin xmax ... */
            double v[2];
            int lower = tok[0][1] == 'm';
            static const char *const k[2][3][2] = {
                {{"xMin", "xMax"}, {"yMin", "yMax"}, {"zMin", "zMax"}},
                {{"xmin", "xmax"}, {"ymin", "ymax"}, {"zmin", "zmax"}}};
            for (int a = 0; a < 3; a++)
                if (key_values(tok, nt, k[lower][a][0], 1, &v[0]) &&
                    key_values(tok, nt, k[lower][a][1], 1, &v[1])) {
                    dm->lo[a] = v[0];
                    dm->hi[a] = v[1];
                }
            dm->has_domain = 1;
        } else if ((!strcmp(tok[0], "systemDimensions") ||
                    !strcmp(tok[0], "dim")) && nt >= 2) {
            dm->dim = atoi(tok[1]) == 2 ? 2 : 3;
        } else if ((!strcmp(tok[0], "Walls") || !strcmp(tok[0], "Boundaries")) &&
                   nt == 2) {
            int walls = tok[0][0] == 'W';
            long cnt = atol(tok[1]);
            for (long k = 0; k < cnt && st == HG_OK; k++) {
                if (!io_next_line(t, &line)) {
                    st = io_fail(t, e, HG_EPARSE,
                                 "file ends in the %s section", tok[0]);
                    break;
                }
                char *ot[512];
                int on = io_split(line, 0, ot, 512);
                if (on < 1)
                    continue;
                on = on > 512 ? 512 : on;
                st = walls ? restart_wall(t, ot, on, dm, e)
                           : restart_boundary(t, ot, on, dm, e);
            }
        } else if (!strcmp(tok[0], "Particles") && nt == 2 && !b) {
            /* the hGrid line comes last: skip the particles */
            long cnt = atol(tok[1]);
            for (long k = 0; k < cnt && io_next_line(t, &line); k++)
                ;
        } else if (!strcmp(tok[0], "Particles") && nt == 2) {
            size_t n;
            if ((st = io_count(t, tok[1], "Particles", &n, e)))
                break;
            long at = t->line;
            b->dim = dm->dim;
            for (size_t k = 0; k < n && st == HG_OK; k++) {
                if (!io_next_line(t, &line)) {
                    st = io_fail(t, e, HG_EPARSE,
                                 "file ends after %zu of the %zu particles "
                                 "of line %ld",
                                 k, n, at);
                    break;
                }
                int on = io_split(line, 0, tok, 512);
                on = on > 512 ? 512 : on;
                double x[3], r;
                if ((!key_values(tok, on, "position", 3, x) ||
                     !key_values(tok, on, "radius", 1, &r)) &&
                    !old_particle(tok, on, x, &r)) {
                    st = io_fail(t, e, HG_EPARSE,
                                 "particle without position and radius");
                    break;
                }
                if (r == 0.0 && !strcmp(tok[0], "Clump"))
                    continue; /* a clump's master: its pebbles count */
                if (dm->dim == 2)
                    x[2] = 0.0;
                st = io_check_particle(t, &(io_box){0}, dm->dim, x, r, e);
                if (st == HG_OK)
                    st = io_build_push(b, t, x, r, e);
            }
            in_particles = 1;
        } else if (!strcmp(tok[0], "hGrid")) {
            restart_hgrid(tok, nt, dm);
        }
    }
    if (st == HG_OK && b && !in_particles)
        st = io_fail(t, e, HG_EPARSE, "no Particles section");
    if (st == HG_OK && !dm->has_domain)
        st = io_fail(t, e, HG_EPARSE, "no domain line (xMin .. xMax ..)");
    return st;
}

/* Box and boundary of p from the domain: periodic boundaries where the
 * restart has them (their planes), walls or open space elsewhere;
 * centres outside a periodic axis wrapped into it. */
static void apply_domain(const md_domain *dm, hg_particles *p)
{
    int d = p->dim, all = 1;
    for (int a = 0; a < d; a++) {
        p->lo[a] = dm->periodic[a] ? dm->plo[a] : dm->lo[a];
        p->hi[a] = dm->periodic[a] ? dm->phi[a] : dm->hi[a];
        p->boundary[a] = dm->periodic[a] ? 'p' : 'f';
        all &= dm->periodic[a];
        if (!dm->periodic[a])
            continue;
        double len = p->hi[a] - p->lo[a];
        for (size_t i = 0; i < p->n; i++) {
            double *x = &p->x[i * (size_t)d + (size_t)a];
            if (*x < p->lo[a] || *x >= p->hi[a]) {
                *x -= floor((*x - p->lo[a]) / len) * len;
                if (*x < p->lo[a] || *x >= p->hi[a])
                    *x = p->lo[a];
            }
        }
    }
    if (d == 2)
        p->boundary[2] = 'p';
    p->periodic = all;
    p->box_inferred = 0;
}

static void describe(const md_domain *dm, int d, char *buf, size_t len)
{
    char per[16] = "";
    for (int a = 0; a < d; a++)
        if (dm->periodic[a])
            snprintf(per + strlen(per), sizeof per - strlen(per), "%s%c",
                     per[0] ? ", " : "", 'x' + a);
    snprintf(buf, len,
             "%d wall%s (%d InfiniteWall%s along an axis), periodic "
             "boundaries along %s",
             dm->walls, dm->walls == 1 ? "" : "s", dm->axis_walls,
             dm->axis_walls == 1 ? "" : "s", per[0] ? per : "no axis");
}

static void append_note(hg_io_info *info, const char *text)
{
    size_t n = strlen(info->note);
    snprintf(info->note + n, sizeof info->note - n, "%s%s", n ? "; " : "",
             text);
}

int io_mercury_restart_read(io_text *t, int boundary_given, hg_particles *p,
                            hg_io_info *info, hg_err *e)
{
    md_domain dm;
    io_build b = {0};
    b.dim = 3;
    /* systemDimensions comes before the particles: one pass */
    int st = restart_scan(t, &dm, &b, e);
    if (st == HG_OK && dm.unrepresentable[0] && !boundary_given)
        st = hg_fail(e, HG_EPARSE,
                     "%s: %s: a periodic boundary that an axis-aligned box "
                     "cannot hold; give the boundary to use instead with "
                     "--boundary (e.g. \"f f f\")",
                     t->name, dm.unrepresentable);
    if (st == HG_OK) {
        io_box box = {0};
        st = io_build_finish(&b, t, &box, p, e);
    }
    io_build_free(&b);
    if (st)
        return st;
    apply_domain(&dm, p);
    io_grow_box(p, info);
    for (int a = 0; a < p->dim; a++)
        if (!(p->hi[a] > p->lo[a])) { /* a domain left unset */
            hg_particles_clear(p);
            return io_fail(t, e, HG_EPARSE,
                           "domain along %c is empty (%g .. %g)", 'x' + a,
                           dm.lo[a], dm.hi[a]);
        }
    if (info) {
        info->boundary_stated = !dm.unrepresentable[0];
        info->box_stated = 1;
        char what[200];
        describe(&dm, p->dim, what, sizeof what);
        append_note(info, what);
        if (dm.said[0])
            append_note(info, dm.said);
        if (dm.unrepresentable[0]) {
            char buf[300];
            snprintf(buf, sizeof buf, "%.200s not represented (--boundary "
                     "replaces it)", dm.unrepresentable);
            append_note(info, buf);
        }
        if (dm.hgrid[0])
            append_note(info, dm.hgrid);
    }
    return HG_OK;
}

/* The .restart beside a .data file (NAME.data[.K] -> NAME.restart[.K]). */
static int sibling_restart(const char *path, md_domain *dm, char *found,
                           size_t flen)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strstr(base, ".data");
    if (!dot)
        return 0;
    const char *suffix = dot + 5; /* "" or ".K" */
    char cand[2][4400];
    snprintf(cand[0], sizeof cand[0], "%.*s.restart%s",
             (int)(dot - path), path, suffix);
    snprintf(cand[1], sizeof cand[1], "%.*s.restart", (int)(dot - path),
             path);
    for (int k = 0; k < (*suffix ? 2 : 1); k++) {
        io_stream *s = NULL;
        if (access(cand[k], R_OK) || io_stream_open(&s, cand[k], NULL))
            continue;
        io_text t = {0};
        int st = io_stream_slurp(s, &t.buf, &t.len, NULL);
        io_stream_close(s);
        t.name = cand[k];
        if (st == HG_OK)
            st = restart_scan(&t, dm, NULL, NULL);
        free(t.buf);
        if (st == HG_OK) {
            snprintf(found, flen, "%s", cand[k]);
            return 1;
        }
    }
    return 0;
}

/* Take the boundary of md's restart file found beside a frame (named
 * found) into p. */
static void take_restart(const md_domain *dm, const char *found,
                         hg_particles *p, hg_io_info *info)
{
    apply_domain(dm, p);
    io_grow_box(p, info);
    info->boundary_stated = 1;
    info->box_stated = 1;
    const char *b = strrchr(found, '/');
    char what[200], note[sizeof info->note];
    describe(dm, p->dim, what, sizeof what);
    snprintf(note, sizeof note, "boundary from %.80s: %.160s%s%.160s%s%.200s",
             b ? b + 1 : found, what, dm->said[0] ? "; " : "", dm->said,
             dm->hgrid[0] ? "; " : "", dm->hgrid);
    append_note(info, note);
}

void io_mercury_vtu_restart(const char *path, hg_particles *p,
                            hg_io_info *info)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    const char *base = slash ? slash + 1 : path;
    const char *part = base ? strstr(base, "Particle_") : NULL;
    if (!part)
        return;
    char cand[4400];
    snprintf(cand, sizeof cand, "%.*s.restart", (int)(part - path), path);
    io_stream *s = NULL;
    if (access(cand, R_OK) || io_stream_open(&s, cand, NULL))
        return;
    io_text t = {0};
    int st = io_stream_slurp(s, &t.buf, &t.len, NULL);
    io_stream_close(s);
    t.name = cand;
    md_domain dm;
    if (st == HG_OK)
        st = restart_scan(&t, &dm, NULL, NULL);
    free(t.buf);
    if (st == HG_OK && dm.dim == p->dim && !dm.unrepresentable[0])
        take_restart(&dm, cand, p, info);
}

int io_mercury_data_load(io_stream *s, const hg_io_options *o,
                         const char *path, hg_particles *p, hg_io_info *info,
                         hg_err *e)
{
    io_dump_frame f;
    io_dump_atoms A = {0};
    int st = io_frames_select(s, o, 0, &data_ops, &f, &A, info, e);
    if (st) {
        io_dump_atoms_free(&A);
        return st;
    }
    size_t n = A.n;
    int d = f.dim;
    double rmin = INFINITY, rmax = 0.0;
    for (size_t i = 0; i < n; i++) {
        rmin = fmin(rmin, A.r[i]);
        rmax = fmax(rmax, A.r[i]);
    }
    if (n == 0)
        st = hg_fail(e, HG_EPARSE,
                     "%s: time step %zu (time %g) has no particles; choose "
                     "another with --frame",
                     io_stream_name(s), info->frame, f.time);
    else if (!(rmin >= DBL_MIN && isfinite(rmax / rmin)))
        st = hg_fail(e, HG_EPARSE,
                     "%s: radius %.17g is too small next to the largest "
                     "radius %.17g (their ratio is not a finite double)",
                     io_stream_name(s), rmin, rmax);
    if (st) {
        io_dump_atoms_free(&A);
        return st;
    }
    if (d == 2)
        for (size_t i = 0; i < n; i++) {
            A.x[2 * i] = A.x[3 * i];
            A.x[2 * i + 1] = A.x[3 * i + 1];
        }
    memset(p, 0, sizeof *p);
    p->dim = d;
    p->n = n;
    double *x = realloc(A.x, n * (size_t)d * sizeof *x);
    p->x = x ? x : A.x;
    double *r = realloc(A.r, n * sizeof *r);
    p->r = r ? r : A.r;
    A.x = A.r = NULL;
    io_dump_atoms_free(&A);
    int good_box = 1;
    for (int a = 0; a < d; a++) {
        p->lo[a] = f.lo[a];
        p->hi[a] = f.hi[a];
        good_box &= f.hi[a] > f.lo[a];
    }
    p->periodic = 0; /* MercuryDPM: nothing periodic without a boundary */
    snprintf(info->kind, sizeof info->kind, "MercuryDPM .data file%s",
             info->compressed ? ", gzip" : "");
    snprintf(info->boundary_default, sizeof info->boundary_default,
             "non-periodic, MercuryDPM's default (no PeriodicBoundary)");
    md_domain dm;
    char found[9000];
    if (path && sibling_restart(path, &dm, found, sizeof found) &&
        dm.dim == d) {
        if (!dm.unrepresentable[0]) {
            take_restart(&dm, found, p, info);
            return HG_OK;
        }
        if (!o->boundary_given) {
            st = hg_fail(e, HG_EPARSE,
                         "%s: the boundary of its run (%s) is %s: a periodic "
                         "boundary that an axis-aligned box cannot hold; give "
                         "the boundary to use instead with --boundary (e.g. "
                         "\"f f f\")",
                         io_stream_name(s), found, dm.unrepresentable);
            hg_particles_clear(p);
            return st;
        }
    }
    if (!good_box) {
        /* a domain left unset: the spheres' bounding box */
        io_text t = {0};
        t.name = io_stream_name(s);
        io_build b = {0};
        b.dim = d;
        b.x = p->x;
        b.r = p->r;
        b.n = b.cap = n;
        b.rmin = rmin;
        b.rmax = rmax;
        p->x = p->r = NULL;
        hg_particles_clear(p);
        st = io_build_finish(&b, &t, &(io_box){0}, p, e);
        io_build_free(&b);
        return st;
    }
    info->box_stated = 1;
    io_grow_box(p, info);
    return HG_OK;
}
