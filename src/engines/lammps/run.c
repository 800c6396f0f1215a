/* run.c - run LAMMPS (lmp, optionally under mpirun) on a packing
 * with a list of neighbor settings and read the Neigh and Pair times per
 * neighbor build from its timing breakdown.
 *
 * One lmp process runs every setting in turn, the list repeated in
 * alternating order (forward, backward, ...) so that a drift of the
 * machine's load spreads over all settings; each timed run is preceded by
 * a short untimed one after the settings change. Neighbor lists are
 * rebuilt every step (neigh_modify every 1 delay 0 check no) with a
 * granular pair style (gran/hooke) and no time integration: the atoms stay
 * where the packing put them, so each build does the same work. Finding
 * lmp, the working folder, the process and reading the runs' summaries are
 * shared with the LIGGGHTS runner (shared/process.c).
 */
#include "lammps_engine.h"
#include "process.h"
#include "hg_io.h"
#include "hg_lammps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hg_lammps_run_options_default(hg_lammps_run_options *o)
{
    memset(o, 0, sizeof *o);
    o->nprocs = 1;
    o->steps = 50;
    o->warmup = 5;
    o->repeats = 3;
    o->skin = 0.0;
}

static const char install_hint[] =
    "install LAMMPS (Debian/Ubuntu: apt-get install lammps; it brings "
    "lmp and MPI) or give its path with --lmp PATH";

int hg_lammps_find(const char *lmp, char *buf, size_t len, hg_err *e)
{
    return hg_code_find(lmp, "lmp", "lmp", install_hint, buf, len, e);
}

int hg_lammps_version(const char *lmp, char *buf, size_t len, hg_err *e)
{
    return hg_code_version(lmp, "-h", "Simulator - ", "lmp", buf, len, e);
}

/* The batch's script around the settings: read by the shared runner. */
typedef struct script_ctx {
    const hg_lammps_setting *s;
    int n, thermo, keep_lists;
    double skin, dmax;
} script_ctx;

static void script_head(FILE *f, const hg_particles *p, void *ctx)
{
    const script_ctx *c = ctx;
    char b[8];
    hg_particles_boundary_text(p, b);
    fprintf(f, "# written by hgridopt: Neigh time per build of %d neighbor "
               "settings\n",
            c->n);
    fprintf(f, "units lj\natom_style sphere\ndimension %d\n"
               "boundary %s%s\ncomm_modify vel yes\n",
            p->dim, b, p->dim == 2 ? " p" : "");
    fprintf(f, "read_data data.lmp\n");
    fprintf(f, "pair_style gran/hooke 2000.0 NULL 50.0 NULL 0.5 0\n"
               "pair_coeff * *\n");
    fprintf(f, "neigh_modify every 1 delay 0 check %s\ntimestep 0.0001\n"
               "thermo %d\n",
            c->keep_lists ? "yes" : "no", c->thermo);
}

/* Setting k's lines; bins of one cutoff communicate in one mode. */
static int script_lines(int k, void *ctx, char **text, hg_err *e)
{
    const script_ctx *c = ctx;
    char *lines = NULL;
    int st = hg_lammps_lines(&c->s[k], c->skin, c->dmax, &lines, e);
    if (st || c->s[k].ncoll != 0) {
        *text = lines;
        return st;
    }
    static const char single[] = "comm_modify mode single\n";
    *text = malloc(sizeof single + strlen(lines));
    if (*text)
        sprintf(*text, "%s%s", single, lines);
    free(lines);
    return *text ? HG_OK : hg_fail(e, HG_ENOMEM, "out of memory");
}

/* Third number of a timing row "Neigh | min | avg | max | ...". */
static int row_avg(const char *line, double *v)
{
    const char *bar = strchr(line, '|');
    if (!bar)
        return 0;
    bar = strchr(bar + 1, '|');
    if (!bar)
        return 0;
    char *end;
    *v = strtod(bar + 1, &end);
    return end != bar + 1;
}

/* LAMMPS' timing rows: "Neigh | min | avg | max | ..." and "Pair ...". */
static int timing_row(const char *line, int which, double *v)
{
    const char *name = which == 0 ? "Neigh " : "Pair ";
    return !strncmp(line, name, strlen(name)) && row_avg(line, v);
}

int hg_lammps_run(const hg_particles *p, const hg_lammps_setting *s, int n,
                  const hg_lammps_run_options *opt, hg_lammps_timing *t,
                  hg_err *e)
{
    hg_lammps_run_options o;
    if (opt)
        o = *opt;
    else
        hg_lammps_run_options_default(&o);
    if (n < 1)
        return hg_fail(e, HG_EINVAL, "no neighbor setting to run");
    if (o.steps < 1 || o.warmup < 0 || o.repeats < 1 || o.nprocs < 1)
        return hg_fail(e, HG_EINVAL,
                       "run options: steps %d, warmup %d, repeats %d, "
                       "nprocs %d must be >= 1, >= 0, >= 1, >= 1",
                       o.steps, o.warmup, o.repeats, o.nprocs);
    if (!(o.skin > 0.0))
        return hg_fail(e, HG_EINVAL, "skin: %g must be > 0", o.skin);
    int st = hg_particles_check(p, e);
    if (st)
        return st;
    char lmp[4096];
    if ((st = hg_lammps_find(o.lmp, lmp, sizeof lmp, e)))
        return st;
    double rmax = 0.0;
    for (size_t i = 0; i < p->n; i++)
        rmax = fmax(rmax, p->r[i]);
    script_ctx ctx = {s, n, o.steps + o.warmup, o.keep_lists, o.skin,
                      2.0 * rmax};
    hg_code_batch batch = {
        .job = {.label = "lmp", .exe = lmp, .nprocs = o.nprocs,
                .args = "-in in.hgridopt -log log.lammps -echo none",
                .n = n, .repeats = o.repeats, .steps = o.steps,
                .row = timing_row, .progress = o.progress,
                .progress_params = o.progress_params},
        .keep = o.keep,
        .data_file = "data.lmp",
        .warmup = o.warmup,
        .head = script_head,
        .lines = script_lines,
        .ctx = &ctx,
    };
    return hg_code_batch_run(&batch, p, t, e);
}

/* calibrate --mpi: which 0 the Neigh row (read, not used), 1 the Comm
 * row's least rank (its min column: the busiest rank waits least). */
static int comm_row(const char *line, int which, double *v)
{
    if (which == 0)
        return timing_row(line, 0, v);
    if (strncmp(line, "Comm ", 5) != 0)
        return 0;
    const char *bar = strchr(line, '|');
    char *end;
    if (!bar)
        return 0;
    *v = strtod(bar + 1, &end);
    return end != bar + 1 && isfinite(*v);
}

int hg_lammps_comm_measure(const hg_particles *p,
                           const hg_lammps_run_options *o,
                           hg_code_comm_result *out, hg_err *e)
{
    int st = hg_particles_check(p, e);
    if (st)
        return st;
    char lmp[4096];
    if ((st = hg_lammps_find(o->lmp, lmp, sizeof lmp, e)))
        return st;
    script_ctx ctx = {NULL, 10, o->steps + 10, 0, o->skin, 0.0};
    hg_code_comm_job j = {
        .label = "lmp",
        .exe = lmp,
        .args = "-in in.hgridopt -log log.lammps -echo none",
        .data_file = "data.lmp",
        .keep = o->keep,
        .nprocs = o->nprocs,
        .repeats = o->repeats,
        .steps = o->steps,
        .skin = o->skin,
        .cutoff_line = "comm_modify vel yes cutoff %.9g\n",
        .head = script_head,
        .ctx = &ctx,
        .row = comm_row,
        .progress = o->progress,
        .progress_params = o->progress_params,
    };
    return hg_code_comm_measure(&j, p, out, e);
}
