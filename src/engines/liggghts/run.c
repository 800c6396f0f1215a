/* run.c - run LIGGGHTS (liggghts, optionally under mpirun) on a
 * packing with a list of bin sizes and read the Neigh seconds per build
 * from the timing summary it prints after each run ("Neigh time (%) =
 * SECONDS (PERCENT)").
 *
 * The input is what a granular LIGGGHTS simulation needs around the
 * packing's data file (the LAMMPS sphere format: id type diameter density
 * x y z): atom_style granular with an atom map, newton off (tangential
 * history), ghost velocities, SI units, the four material properties, a
 * Hertz pair style with tangential history and nve/sphere integration
 * with a time step far below the contact time, so the atoms stay where
 * the packing put them and every build does the same work. The list is
 * rebuilt every step; one process runs every bin size in turn, the list
 * repeated in alternating order, each timed run after a short untimed
 * one. The process, folder and summary reading are shared/process.c's, shared
 * with the LAMMPS runner.
 */
#include "liggghts_engine.h"
#include "process.h"
#include "hg_io.h"
#include "hg_liggghts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hg_liggghts_run_options_default(hg_liggghts_run_options *o)
{
    memset(o, 0, sizeof *o);
    o->nprocs = 1;
    o->steps = 30;
    o->warmup = 3;
    o->repeats = 3;
}

static const char install_hint[] =
    "install LIGGGHTS (Debian/Ubuntu: apt-get install liggghts) or give "
    "its path with --program PATH";

int hg_liggghts_find(const char *program, char *buf, size_t len, hg_err *e)
{
    return hg_code_find(program, "liggghts", "liggghts", install_hint, buf,
                        len, e);
}

int hg_liggghts_version(const char *program, char *buf, size_t len,
                        hg_err *e)
{
    /* -log none: liggghts -h would write log.liggghts in the caller's folder */
    int st = hg_code_version(program, "-log none -h", "(Version ", "liggghts",
                             buf, len, e);
    if (st == HG_OK)
        buf[strcspn(buf, ",)")] = '\0';
    return st;
}

/* The batch's script around the bin sizes: read by the shared runner. */
typedef struct script_ctx {
    const double *b;
    int n, thermo, keep_lists;
    double skin;
} script_ctx;

static void script_head(FILE *f, const hg_particles *p, void *ctx)
{
    const script_ctx *c = ctx;
    char bnd[8];
    hg_particles_boundary_text(p, bnd);
    fprintf(f,
            "# written by hgridopt: Neigh time per build of %d bin sizes\n"
            "atom_style granular\natom_modify map array\nboundary %s\n"
            "newton off\ncommunicate single vel yes\nunits si\n"
            "read_data data.liggghts\n",
            c->n, bnd);
    fputs("fix m1 all property/global youngsModulus peratomtype 5.e6\n"
          "fix m2 all property/global poissonsRatio peratomtype 0.45\n"
          "fix m3 all property/global coefficientRestitution "
          "peratomtypepair 1 0.9\n"
          "fix m4 all property/global coefficientFriction peratomtypepair "
          "1 0.5\n"
          "pair_style gran model hertz tangential history\npair_coeff * *\n"
          "fix integrate all nve/sphere\ntimestep 1e-8\n",
          f);
    fprintf(f, "neigh_modify every 1 delay 0 check %s\nthermo %d\n",
            c->keep_lists ? "yes" : "no", c->thermo);
}

static int script_lines(int k, void *ctx, char **text, hg_err *e)
{
    const script_ctx *c = ctx;
    return hg_liggghts_lines(c->b[k], c->skin, text, e);
}

/* "NAME time (%) = X (Y)": X into *v. */
static int named_time(const char *line, const char *name, double *v)
{
    size_t k = strlen(name);
    if (strncmp(line, name, k) != 0)
        return 0;
    const char *q = line + k;
    while (*q == ' ')
        q++;
    if (strncmp(q, "time (%) =", 10) != 0)
        return 0;
    char *end;
    *v = strtod(q + 10, &end);
    return end != q + 10 && isfinite(*v);
}

/* "Neigh time (%) = 0.0799 (94.4)" and "Pair  time (%) = ...". */
static int timing_row(const char *line, int which, double *v)
{
    return named_time(line, which == 0 ? "Neigh" : "Pair", v);
}

/* The packing checked (3D) and the program found, into exe. */
static int packing_and_program(const hg_particles *p, const char *program,
                               char *exe, size_t len, hg_err *e)
{
    int st = hg_particles_check(p, e);
    if (st)
        return st;
    if (p->dim != 3)
        return hg_fail(e, HG_EINVAL,
                       "dim: %d: the LIGGGHTS runner takes 3D packings",
                       p->dim);
    return hg_liggghts_find(program, exe, len, e);
}

int hg_liggghts_run(const hg_particles *p, const double *b, int n,
                    const hg_liggghts_run_options *opt,
                    hg_liggghts_timing *t, hg_err *e)
{
    hg_liggghts_run_options o;
    if (opt)
        o = *opt;
    else
        hg_liggghts_run_options_default(&o);
    if (n < 1)
        return hg_fail(e, HG_EINVAL, "no bin size to run");
    if (o.steps < 1 || o.warmup < 0 || o.repeats < 1 || o.nprocs < 1)
        return hg_fail(e, HG_EINVAL,
                       "run options: steps %d, warmup %d, repeats %d, "
                       "nprocs %d must be >= 1, >= 0, >= 1, >= 1",
                       o.steps, o.warmup, o.repeats, o.nprocs);
    if (!(o.skin > 0.0) || !isfinite(o.skin))
        return hg_fail(e, HG_EINVAL, "skin: %g must be > 0", o.skin);
    for (int i = 0; i < n; i++)
        if (!(b[i] > 0.0) || !isfinite(b[i]))
            return hg_fail(e, HG_EINVAL, "binsize %d: %g must be > 0", i + 1,
                           b[i]);
    char exe[4096];
    int st = packing_and_program(p, o.program, exe, sizeof exe, e);
    if (st)
        return st;
    script_ctx ctx = {b, n, o.steps + o.warmup, o.keep_lists, o.skin};
    hg_code_batch batch = {
        .job = {.label = "liggghts", .exe = exe, .nprocs = o.nprocs,
                .args = "-in in.hgridopt -log log.liggghts -echo none "
                        "-nocite",
                .n = n, .repeats = o.repeats, .steps = o.steps,
                .row = timing_row, .progress = o.progress,
                .progress_params = o.progress_params},
        .keep = o.keep,
        .data_file = "data.liggghts",
        .warmup = o.warmup,
        .head = script_head,
        .lines = script_lines,
        .ctx = &ctx,
    };
    return hg_code_batch_run(&batch, p, t, e);
}

/* calibrate --mpi: which 0 the Neigh row (read, not used), 1 the Comm
 * row ("Comm  time (%) = X (Y)": LIGGGHTS prints the average only). */
static int comm_row(const char *line, int which, double *v)
{
    return which == 0 ? timing_row(line, 0, v) : named_time(line, "Comm", v);
}

int hg_liggghts_comm_measure(const hg_particles *p,
                             const hg_liggghts_run_options *o,
                             hg_code_comm_result *out, hg_err *e)
{
    char exe[4096];
    int st = packing_and_program(p, o->program, exe, sizeof exe, e);
    if (st)
        return st;
    script_ctx ctx = {NULL, 10, o->steps + 10, 0, o->skin};
    hg_code_comm_job j = {
        .label = "liggghts",
        .exe = exe,
        .args = "-in in.hgridopt -log log.liggghts -echo none -nocite",
        .data_file = "data.liggghts",
        .keep = o->keep,
        .nprocs = o->nprocs,
        .repeats = o->repeats,
        .steps = o->steps,
        .skin = o->skin,
        .cutoff_line = "communicate single vel yes cutoff %.9g\n",
        .head = script_head,
        .ctx = &ctx,
        .row = comm_row,
        .progress = o->progress,
        .progress_params = o->progress_params,
    };
    return hg_code_comm_measure(&j, p, out, e);
}
