/* run_lammps.c - `hgridopt run --engine lammps`: the user's input executed
 * command by command through LAMMPS' library (MPI_COMM_WORLD: under
 * mpirun every rank runs this), each `run N` split into segments on the
 * steps where thermo prints anyway (`run n start S stop E pre yes|no post
 * no|yes`: the run's clock kept for fixes and output), and between
 * segments the tuner's lines (hg_live.h). Rank 0 writes the frames, asks
 * the tuner and prints the report; the decision is broadcast. */
#ifdef HG_HAVE_LAMMPS

#define LAMMPS_LIB_MPI 1
#include <mpi.h>

#include "library.h"

#include "cli.h"
#include "hg_live.h"
#include "hg_ranks.h"
#include "run_cores.h"
#include "run_lammps.h"

#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RUN_MAX_SEGMENTS 64
/* fixes whose insertion schedule a change's setup puts back, at most */
#define RUN_MAX_FIXES 4096
#define RUN_MAX_EVENTS 256

typedef struct seg_rec {
    long long from, to;
    double loop, neigh, pair, atoms;
    double spread;           /* the busiest rank's Pair + Neigh over the
                                ranks' mean */
    long long builds, dangerous;
    char lines[96];          /* the setting in words */
    char then[64];           /* what was decided after it */
} seg_rec;

typedef struct event {
    long long step;
    hg_live_action action;
    char what[320];
} event;

typedef struct driver {
    const cli_run_opts *o;
    void *h;
    int rank, size;
    run_cores cores;         /* the node's cores, lent to rank 0's advice */
    hg_live_script s;
    hg_live *tuner;
    char workdir[1024];
    int frames;
    /* the input's own neighbor commands, to be replayed (NULL: none) */
    char *own_cmds;
    size_t own_len;
    char own_collections[2048];
    int no_restore;          /* a neigh_modify exclude: not replayable */
    int tilt_noted;          /* a frame's box was tilted: said once */
    long include_line;       /* a neigh_modify include of a group (0:
                                none): the lists hold its atoms only */
    char include_group[64];
    long multi_only;         /* the line of a comm_modify reduce/multi (0:
                                none): LAMMPS keeps it, and no keyword
                                clears it, so only multi lines may follow */
    char *tuned;             /* the tuner's lines in force (NULL: yours) */
    char tuned_name[96];
    char *prev_tuned;        /* those before the change on trial */
    char prev_name[96];
    cli_lmp_state own_state; /* the settings before the first change */
    int clock_words;         /* elaptime, or elapsed outside a variable,
                                seen (or elapsed where a run has start) */
    int dynamic_group;       /* a dynamic group read at or after this run
                                (hg_live_dynamic_read) */
    char dyn_name[64];
    long dyn_line;           /* the command that reads it */
    char balance_time[64];   /* the ID of a fix balance weighted by time
                                in force ("": none) */
    long balance_time_line;
    int rescheduled;         /* a change's setup was made while a fix
                                inserts (noted once) */
    /* the report (rank 0) */
    seg_rec *segs;
    int n_segs, cap_segs;
    event ev[RUN_MAX_EVENTS];
    int n_ev;
    char notes[16][240];
    int n_notes;
    int runs, split_runs;
    long long steps;
    double loop;
    double outside;          /* wall seconds of split runs outside their
                                segments' loops: frames, advice, setups
                                (the first setup aside, as lmp's own) */
    double t_frames, t_advice; /* of which gathering and writing frames,
                                  and the tuner's decisions */
    int advices;             /* decisions that advised */
    double advice_last;      /* wall seconds of the last decision that
                                advised, with the frame written for it */
    double frame_last;       /* of the last frame written */
    double t_probe;          /* of the probes of the pair style's cost */
    double pair_k;           /* a listed pair's cost a step measured on
                                the pair style in force (0: none) */
    int probed;              /* on the pair style in force: 0 none made;
                                1 measured (pair_k) or not measurable,
                                none again until it changes; 2 too few
                                listed pairs (the tuner says when again) */
    double probe_unfit;      /* the probe's cost estimated where it was
                                wanted and past its share (0: none) */
    char *pair_cmds;         /* the input's pair_style, pair_coeff and
                                pair_modify commands as LAMMPS ran them
                                (variables substituted), one a line, for
                                the probe's copy (NULL: none) */
    int pair_unreadable;     /* one of them could not be substituted */
    long long dangerous;
} driver;

static void maybe_probe(driver *d, hg_live_measure *m);

static void note(driver *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void note(driver *d, const char *fmt, ...)
{
    if (d->n_notes >= 16)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->notes[d->n_notes++], sizeof d->notes[0], fmt, ap);
    va_end(ap);
}

static void add_event(driver *d, long long step, hg_live_action a,
                      const char *what)
{
    if (d->n_ev >= RUN_MAX_EVENTS)
        return;
    event *x = &d->ev[d->n_ev++];
    x->step = step;
    x->action = a;
    size_t k = strlen(what);
    if (k >= sizeof x->what)
        k = sizeof x->what - 1;
    memcpy(x->what, what, k);
    x->what[k] = '\0';
}

/* LAMMPS stopped with an error (its message is on its screen and log):
 * the one-line error of this tool; returns the exit code. */
static int lammps_failed(driver *d, long line)
{
    char msg[1024] = "";
    int kind = lammps_has_error(d->h)
                   ? lammps_get_last_error_message(d->h, msg, sizeof msg)
                   : 0;
    (void)kind;
    size_t k = strlen(msg);
    while (k && (msg[k - 1] == '\n' || msg[k - 1] == ' '))
        msg[--k] = '\0';
    if (d->rank == 0)
        cli_error("LAMMPS stopped at line %ld of '%s': %s", line, d->o->input,
                  *msg ? msg : "(no message)");
    return CLI_EDATA;
}

/* Execute one command; 0 or the exit code. */
static int command(driver *d, const char *cmd, long line)
{
    lammps_command(d->h, cmd);
    return lammps_has_error(d->h) ? lammps_failed(d, line) : 0;
}

/* Execute several commands, one a line. */
static int commands(driver *d, const char *text, long line)
{
    lammps_commands_string(d->h, text);
    return lammps_has_error(d->h) ? lammps_failed(d, line) : 0;
}

static const char *style_name(int style)
{
    switch (style) {
    case 0: return "nsq";
    case 1: return "bin";
    case 2: return "multi/old";
    default: return "multi";
    }
}

/* The settings in force as commands, for the model (numbers, no
 * variables). */
static void state_lines(const cli_lmp_state *st, char *buf, size_t cap)
{
    int k = snprintf(buf, cap, "neighbor %.17g %s\nneigh_modify delay %d "
                     "every %d check %s\n", st->skin, style_name(st->style),
                     st->delay, st->every, st->check ? "yes" : "no");
    if (k > 0 && (size_t)k < cap && st->binsizeflag)
        k += snprintf(buf + k, cap - (size_t)k, "neigh_modify binsize "
                      "%.17g\n", st->binsize);
    if (k > 0 && (size_t)k < cap && st->comm_mode == 1)
        snprintf(buf + k, cap - (size_t)k, "comm_modify mode multi\n");
}

/* The commands that bring back the input's own settings st. */
static void restore_lines(const driver *d, const cli_lmp_state *st,
                          char *buf, size_t cap)
{
    int k = snprintf(buf, cap, "neighbor %.17g %s\nneigh_modify delay %d "
                     "every %d check %s binsize %.17g\n", st->skin,
                     style_name(st->style), st->delay, st->every,
                     st->check ? "yes" : "no",
                     st->binsizeflag ? st->binsize : 0.0);
    if (k > 0 && (size_t)k < cap)
        k += snprintf(buf + k, cap - (size_t)k, "comm_modify mode %s\n",
                      st->comm_mode == 1 ? "multi" : "single");
    if (k > 0 && (size_t)k < cap)
        snprintf(buf + k, cap - (size_t)k, "%s", d->own_collections);
}

/* A frame of every atom (gathered on every rank, written by rank 0) as a
 * dump at path. 0 or an exit code. */
/* The run's atoms, gathered (atoms_gather). */
typedef struct atoms {
    size_t n;
    int *id, *type;
    double *r, *x, *v;
} atoms;

static void atoms_free(atoms *a)
{
    free(a->id);
    free(a->type);
    free(a->r);
    free(a->x);
    free(a->v);
    memset(a, 0, sizeof *a);
}

/* Every atom's id, type, radius, position and (with_v) velocity,
 * gathered on every rank (lammps_gather_atoms_concat), into arrays the
 * caller frees (atoms_free). Returns 0, or the exit code after a
 * one-line error (rank 0). */
static int atoms_gather(driver *d, int with_v, atoms *a)
{
    memset(a, 0, sizeof *a);
    double na = lammps_get_natoms(d->h);
    if (!(na >= 0.0) || na > 2e9) {
        if (d->rank == 0)
            cli_error("run: %.0f atoms: too many to measure", na);
        return CLI_EDATA;
    }
    size_t n = (size_t)na, k = n ? n : 1;
    a->n = n;
    a->id = malloc(k * sizeof *a->id);
    a->type = malloc(k * sizeof *a->type);
    a->r = malloc(k * sizeof *a->r);
    a->x = malloc(3 * k * sizeof *a->x);
    a->v = with_v ? malloc(3 * k * sizeof *a->v) : NULL;
    if (!a->id || !a->type || !a->r || !a->x || (with_v && !a->v)) {
        cli_error("run: out of memory for %zu atoms", n);
        atoms_free(a);
        return CLI_EDATA;
    }
    if (!n)
        return 0;
    lammps_gather_atoms_concat(d->h, (char *)"id", 0, 1, a->id);
    lammps_gather_atoms_concat(d->h, (char *)"type", 0, 1, a->type);
    lammps_gather_atoms_concat(d->h, (char *)"radius", 1, 1, a->r);
    lammps_gather_atoms_concat(d->h, (char *)"x", 1, 3, a->x);
    if (with_v)
        lammps_gather_atoms_concat(d->h, (char *)"v", 1, 3, a->v);
    if (lammps_has_error(d->h)) {
        atoms_free(a);
        return lammps_failed(d, 0);
    }
    return 0;
}

static int write_frame(driver *d, long long step, char *path, size_t cap)
{
    snprintf(path, cap, "%s/frame-%d.dump", d->workdir, d->frames++ % 4);
    int dim = lammps_extract_setting(d->h, "dimension");
    atoms a;
    int rc = atoms_gather(d, 1, &a);
    size_t n = a.n;
    const int *id = a.id, *type = a.type;
    const double *r = a.r, *x = a.x, *v = a.v;
    if (!rc && d->rank == 0) {
        double lo[3], hi[3], xy, yz, xz;
        int per[3] = {0, 0, 0}, boxflag = 0;
        lammps_extract_box(d->h, lo, hi, &xy, &yz, &xz, per, &boxflag);
        if ((xy != 0.0 || xz != 0.0 || yz != 0.0) && !d->tilt_noted) {
            /* the model's grids are orthogonal: the atoms as they are,
             * the periodic images across a tilted face off by its tilt */
            note(d, "step %lld: the box is tilted (xy %.4g, xz %.4g, yz "
                 "%.4g): the advice counts the atoms in it as in the box "
                 "without its tilt", step, xy, xz, yz);
            d->tilt_noted = 1;
        }
        FILE *f = fopen(path, "w");
        if (!f) {
            cli_error("run: cannot write '%s': %s", path, strerror(errno));
            rc = CLI_EDATA;
            goto done;
        }
        fprintf(f, "ITEM: TIMESTEP\n%lld\nITEM: NUMBER OF ATOMS\n%zu\n"
                "ITEM: BOX BOUNDS %s %s %s\n", step, n,
                per[0] ? "pp" : "ff", per[1] ? "pp" : "ff",
                per[2] ? "pp" : "ff");
        for (int k = 0; k < 3; k++)
            fprintf(f, "%.17g %.17g\n", lo[k], hi[k]);
        /* dimension 2 as a dump without z says it (a 2D box need not
         * straddle z = 0: LAMMPS' multi/in.powerlaw has z from 0 to 1) */
        if (dim == 2) {
            fprintf(f, "ITEM: ATOMS id type radius x y vx vy\n");
            for (size_t i = 0; i < n; i++)
                fprintf(f, "%d %d %.9g %.12g %.12g %.9g %.9g\n", id[i],
                        type[i], r[i], x[3 * i], x[3 * i + 1], v[3 * i],
                        v[3 * i + 1]);
        } else {
            fprintf(f, "ITEM: ATOMS id type radius x y z vx vy vz\n");
            for (size_t i = 0; i < n; i++)
                fprintf(f, "%d %d %.9g %.12g %.12g %.12g %.9g %.9g %.9g\n",
                        id[i], type[i], r[i], x[3 * i], x[3 * i + 1],
                        x[3 * i + 2], v[3 * i], v[3 * i + 1],
                        v[3 * i + 2]);
        }
        int bad = ferror(f);
        if (fclose(f) || bad) {
            cli_error("run: cannot write '%s'", path);
            rc = CLI_EDATA;
        }
    }
done:
    atoms_free(&a);
    int any = rc;
    MPI_Allreduce(&rc, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}

/* The decomposition in force as the commands that would set it up (on
 * more than one rank; hg_ranks_layout_lines writes them): the processor
 * grid LAMMPS made, and a balance: the input's fix balance (its own
 * interval and thresholds are not read: priced as 100 steps, 1.1), else
 * cuts a balance command moved (priced as a shift balance on the
 * segment's first frame). */
static void decomposition_lines(const cli_lmp_state *st, char *buf,
                                size_t cap)
{
    buf[0] = 0;
    int P = st->procgrid[0] * st->procgrid[1] * st->procgrid[2];
    if (P <= 1)
        return;
    hg_ranks_layout l;
    hg_ranks_layout_default(&l, P);
    l.newton_off = !st->newton_pair;
    if (st->comm_tiled) {
        l.balance = HG_RANKS_RCB;
        l.thresh = 1.1;
    } else {
        for (int a = 0; a < 3; a++)
            l.user[a] = st->procgrid[a];
        int k = hg_ranks_split_axes(st->procgrid, st->dimension, l.dims);
        if (k && (st->balance_fix[0] || st->cuts_moved)) {
            l.balance = HG_RANKS_SHIFT;
            l.niter = 20;
            l.thresh = l.stopthresh = st->balance_fix[0] ? 1.1 : 1.0;
        }
    }
    l.fix = st->balance_fix[0] != 0;
    l.fix_every = l.fix ? 100 : 0;
    hg_ranks_layout_lines(&l, st->dimension, buf, cap);
}

/* The segment's timers over the ranks. */
static void measure(driver *d, long long from, long long to,
                    long long calls0, long long danger0, hg_live_measure *m)
{
    cli_lmp_state st;
    cli_lmp_state_get(d->h, &st, !d->dynamic_group);
    double v[6] = {st.pair, st.neigh, st.comm, st.output, st.modify,
                   st.loop};
    double sum[6], mx[6], mn[6];
    MPI_Allreduce(v, sum, 6, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(v, mx, 6, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(v, mn, 6, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    double cnt[2] = {st.nlocal, st.nghost}, csum[2], cmax[2];
    MPI_Allreduce(cnt, csum, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(cnt, cmax, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double P = d->size;
    memset(m, 0, sizeof *m);
    m->from = from;
    m->to = to;
    m->procs = d->size;
    m->loop = mx[5];
    m->pair = sum[0] / P;
    m->pair_max = mx[0];
    m->pair_min = mn[0];
    m->neigh = sum[1] / P;
    m->neigh_max = mx[1];
    m->neigh_min = mn[1];
    m->comm = sum[2] / P;
    m->comm_max = mx[2];
    m->comm_min = mn[2];
    m->output = sum[3] / P;
    m->modify = sum[4] / P;
    /* LAMMPS counts builds from the last setup (pre yes) on: calls0 and
     * danger0 are its counts before the segment (0 after a setup) */
    m->builds = st.ncalls - calls0;
    m->dangerous = st.ndanger - danger0;
    m->atoms = lammps_get_natoms(d->h);
    m->nlocal_ave = csum[0] / P;
    m->nlocal_max = cmax[0];
    m->nghost_ave = csum[1] / P;
    m->nghost_max = cmax[1];
    decomposition_lines(&st, m->decomposition, sizeof m->decomposition);
    m->cutoff = st.cutneighmax;
}

static int push_seg(driver *d, const hg_live_measure *m)
{
    if (d->n_segs == d->cap_segs) {
        int nc = d->cap_segs ? 2 * d->cap_segs : 64;
        seg_rec *s = realloc(d->segs, (size_t)nc * sizeof *s);
        if (!s)
            return -1;
        d->segs = s;
        d->cap_segs = nc;
    }
    seg_rec *r = &d->segs[d->n_segs++];
    r->from = m->from;
    r->to = m->to;
    r->loop = m->loop;
    r->neigh = m->neigh_max;
    r->pair = m->pair_max;
    r->atoms = m->atoms;
    r->spread = hg_live_spread(m);
    r->builds = m->builds;
    r->dangerous = m->dangerous;
    snprintf(r->lines, sizeof r->lines, "%s",
             d->tuned ? d->tuned_name : "yours");
    r->then[0] = '\0';
    return 0;
}

/* What was decided after the last segment recorded. */
static void seg_then(driver *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void seg_then(driver *d, const char *fmt, ...)
{
    if (d->rank != 0 || !d->n_segs)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->segs[d->n_segs - 1].then, sizeof d->segs[0].then, fmt, ap);
    va_end(ap);
}

/* Broadcast rank 0's decision: action and lines. */
static int bcast_decision(driver *d, hg_live_decision *dec, int *rc)
{
    int hdr[3] = {dec->action, *rc, dec->lines ? (int)strlen(dec->lines) : 0};
    MPI_Bcast(hdr, 3, MPI_INT, 0, MPI_COMM_WORLD);
    *rc = hdr[1];
    if (d->rank != 0) {
        dec->action = (hg_live_action)hdr[0];
        free(dec->lines);
        dec->lines = hdr[2] ? calloc((size_t)hdr[2] + 1, 1) : NULL;
        if (hdr[2] && !dec->lines)
            return -1;
    }
    MPI_Bcast(dec->name, sizeof dec->name, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Bcast(dec->rebalance, sizeof dec->rebalance, MPI_CHAR, 0,
              MPI_COMM_WORLD);
    if (hdr[2])
        MPI_Bcast(dec->lines, hdr[2], MPI_CHAR, 0, MPI_COMM_WORLD);
    return 0;
}

/* Before one of the input's own neighbor commands: the tuner's lines give
 * way to the input's (restored first), then the input's command runs. */
static int yield_to_input(driver *d, long line)
{
    if (!d->tuned)
        return 0;
    char buf[4096];
    restore_lines(d, &d->own_state, buf, sizeof buf);
    free(d->tuned);
    free(d->prev_tuned);
    d->tuned = d->prev_tuned = NULL;
    return commands(d, buf, line);
}

/* Keep the input's neighbor command cmd for a later restore. */
static void remember_own(driver *d, const char *word, const char *cmd,
                         long line)
{
    if (!strcmp(word, "comm_modify") && strstr(cmd, "reduce/multi") &&
        !d->multi_only) {
        d->multi_only = line;
        note(d, "line %ld: comm_modify reduce/multi stays set in LAMMPS "
             "(no keyword clears it, and bin lines would stop the run): "
             "only multi lines are weighed", line);
    }
    if (strcmp(word, "neigh_modify"))
        return;
    if (strstr(cmd, "exclude"))
        d->no_restore = 1;
    const char *inc = strstr(cmd, "include");
    if (inc) {
        char g[64] = "";
        sscanf(inc + 7, " %63s", g);
        d->include_line = strcmp(g, "all") ? line : 0;
        snprintf(d->include_group, sizeof d->include_group, "%s", g);
    }
    if (strstr(cmd, "collection")) {
        size_t k = strlen(d->own_collections);
        snprintf(d->own_collections + k, sizeof d->own_collections - k,
                 "%s\n", cmd);
    }
}

static int run_split(driver *d, const hg_live_cmd *c, long line,
                     const char *cmd)
{
    long long start = *(int64_t *)lammps_extract_global(d->h, "ntimestep");
    cli_lmp_state st;
    cli_lmp_state_get(d->h, &st, !d->dynamic_group);
    const char *why = NULL;
    char buf[1024];
    if (d->clock_words)
        why = "the input uses elapsed or elaptime (steps since the run "
              "command began), which segments would restart";
    else if (d->dynamic_group) {
        snprintf(buf, sizeof buf, "dynamic group %s is read at or after "
                 "it (line %ld), and LAMMPS updates a dynamic group at the "
                 "start of every run, so would at every segment",
                 d->dyn_name, d->dyn_line);
        why = buf;
    }
    else if (d->balance_time[0]) {
        snprintf(buf, sizeof buf, "fix %s (line %ld) balances weighted by "
                 "time, and LAMMPS stops a run split with pre no while it "
                 "is defined (\"Balance weight <= 0.0\")",
                 d->balance_time, d->balance_time_line);
        why = buf;
    } else if (st.thermo_variable)
        why = "thermo is set by a variable: segment boundaries would add "
              "thermo lines";
    else if (st.thermo_every <= 0)
        why = "thermo 0 prints the first and last step of a run only: "
              "segment boundaries would add thermo lines";
    else if (!st.radius)
        why = "its atoms carry no radius (atom_style sphere)";
    else if (d->no_restore)
        why = "neigh_modify exclude: the input's lines could not be "
              "restored";
    else if (d->include_line) {
        snprintf(buf, sizeof buf, "neigh_modify include %s (line %ld): "
                 "the lists hold that group's atoms only, and the advice "
                 "counts every atom", d->include_group, d->include_line);
        why = buf;
    }
    long long ends[RUN_MAX_SEGMENTS];
    int ns = why ? 1
                 : hg_live_split(start, c->n, st.thermo_every,
                                 d->o->min_steps, (int)d->o->segments, ends);
    d->runs++;
    if (ns <= 1) {
        if (why)
            note(d, "run %lld (line %ld): unsplit: %s", c->n, line, why);
        int rc = command(d, cmd, line);
        if (!rc) {
            hg_live_measure m;
            /* a run's setup (pre yes) starts LAMMPS' counts of builds
             * at 0 */
            measure(d, start, start + c->n, 0, 0, &m);
            if (d->rank == 0) {
                d->loop += m.loop;
                d->steps += c->n;
                d->dangerous += m.dangerous;
                if (push_seg(d, &m)) {
                    cli_error("run: out of memory");
                    rc = CLI_EDATA;
                }
            }
        }
        return rc;
    }
    d->split_runs++;
    if (!d->tuned)
        d->own_state = st;
    /* what splitting costs: the run's wall time outside its segments'
     * loops, but for the first segment's setup (a plain run has it too) */
    double wall0 = MPI_Wtime(), loops = 0.0, setup0 = 0.0;
    hg_live_run_begin(d->tuner, start, c->n);
    char f0[4096], f1[4096];
    int have_f0 = 0, have_f1 = 0, rc = 0;
    double t;
    if (!d->o->no_tune) { /* --no-tune: no advice, no frames */
        t = MPI_Wtime();
        rc = write_frame(d, start, f0, sizeof f0);
        d->frame_last = MPI_Wtime() - t;
        d->t_frames += d->frame_last;
        if (rc)
            return rc;
        have_f0 = 1;
    }
    long long from = start;
    int pre_yes = 1, waited = 0, reschedule = 0;
    for (int i = 0; i < ns && !rc; i++) {
        long long to = ends[i];
        int last = i == ns - 1;
        char run[256];
        if (pre_yes && i > 0 && reschedule) {
            /* the new lines' setup alone (run 0), then the fixes that
             * insert put back on their own schedule, and the segment on
             * without a setup of its own */
            static long long sched[RUN_MAX_FIXES];
            int nf = cli_lmp_schedule_get(d->h, sched, RUN_MAX_FIXES);
            snprintf(run, sizeof run, "run 0 start %lld stop %lld pre yes "
                     "post no", start, start + c->n);
            if ((rc = command(d, run, line)))
                break;
            if (cli_lmp_schedule_set(d->h, sched, nf)) {
                if (d->rank == 0)
                    cli_error("run %lld (line %ld): the fixes changed in a "
                              "setup at step %lld; the insertions' schedule "
                              "cannot be put back", c->n, line, from);
                rc = CLI_EDATA;
                break;
            }
            if (!d->rescheduled) {
                note(d, "step %lld: a change while atoms are inserted: its "
                     "setup ran as `run 0`, then the inserting fixes were "
                     "put back on their own schedule", from);
                d->rescheduled = 1;
            }
            pre_yes = 0;
        }
        snprintf(run, sizeof run, "run %lld start %lld stop %lld pre %s "
                 "post %s", to - from, start, start + c->n,
                 pre_yes ? "yes" : "no", last ? "yes" : "no");
        cli_lmp_state before;
        cli_lmp_state_get(d->h, &before, !d->dynamic_group);
        double w = MPI_Wtime();
        if ((rc = command(d, run, line)))
            break;
        hg_live_measure m;
        measure(d, from, to, pre_yes ? 0 : before.ncalls,
                pre_yes ? 0 : before.ndanger, &m);
        loops += m.loop;
        if (pre_yes)
            m.setup = fmax(0.0, MPI_Wtime() - w - m.loop);
        if (i == 0)
            setup0 = m.setup;
        if (d->rank == 0) {
            d->loop += m.loop;
            d->steps += to - from;
            d->dangerous += m.dangerous;
            if (push_seg(d, &m)) {
                cli_error("run: out of memory");
                rc = CLI_EDATA;
            }
        }
        pre_yes = 0;
        if (last)
            break;
        if (d->o->no_tune) {
            from = to;
            continue;
        }
        /* the tuner's own time: its decisions and their frames; a frame
         * only where an advice may follow (the tuning share not spent) */
        m.tuning = d->t_advice + d->t_frames; /* the probe's apart */
        m.advice_cost = d->advice_last;
        int want = d->rank == 0 && hg_live_wants_frame(d->tuner, &m);
        MPI_Bcast(&want, 1, MPI_INT, 0, MPI_COMM_WORLD);
        have_f1 = 0;
        if (want) {
            t = MPI_Wtime();
            rc = write_frame(d, to, f1, sizeof f1);
            d->frame_last = MPI_Wtime() - t;
            d->t_frames += d->frame_last;
            if (rc)
                break;
            have_f1 = 1;
        }
        hg_live_decision dec = {0};
        int drc = 0;
        cli_lmp_state now;
        cli_lmp_state_get(d->h, &now, !d->dynamic_group);
        reschedule = now.inserting;
        /* the pair style's cost measured before the first advice prices
         * listed pairs (an advice may follow where a frame was wanted) */
        if (want)
            maybe_probe(d, &m);
        if (now.setup_unsafe) {
            /* no change now: the next segment runs on (pre no) */
            if (d->rank == 0 && !waited) {
                snprintf(buf, sizeof buf, "run %lld (line %ld): no change "
                         "at step %lld and while %s", c->n, line, to,
                         now.setup_why);
                note(d, "%s", buf);
            }
            waited = 1;
            seg_then(d, "waits: a setup would change the run");
        } else if (d->rank == 0) {
            char own[1024], restore[4096];
            state_lines(&now, own, sizeof own);
            if (d->tuned)
                snprintf(restore, sizeof restore, "%s", d->tuned);
            else
                restore_lines(d, &d->own_state, restore, sizeof restore);
            hg_err e = {0};
            t = MPI_Wtime();
            run_cores_lend(&d->cores);
            int st2 = hg_live_segment(d->tuner, &m, own, restore,
                                      have_f0 ? f0 : NULL,
                                      have_f1 ? f1 : NULL, 0, &dec, &e);
            run_cores_return(&d->cores);
            double t_dec = MPI_Wtime() - t;
            d->t_advice += t_dec;
            if (dec.advised) {
                d->advice_last = t_dec + d->frame_last;
                d->advices++;
            }
            if (!st2 && dec.judged[0]) /* before what follows it */
                add_event(d, to, HG_LIVE_KEEP, dec.judged);
            if (st2) {
                /* the advice failed on this segment: keep the lines */
                snprintf(buf, sizeof buf, "step %lld: no advice: %s", to,
                         e.msg);
                note(d, "%s", buf);
                hg_live_decision_clear(&dec);
                seg_then(d, "no advice");
            } else if (dec.action == HG_LIVE_CHANGE) {
                snprintf(buf, sizeof buf, "%s", dec.why);
                add_event(d, to, dec.action, buf);
                seg_then(d, "change: %.1f %% predicted",
                         100.0 * dec.predicted_gain);
            } else if (dec.action == HG_LIVE_KEEP && dec.rebalance[0])
                seg_then(d, "rebalance: %.1f %% predicted",
                         100.0 * dec.rebalance_gain);
            else if (dec.action == HG_LIVE_KEEP)
                seg_then(d, "%.60s", dec.why);
            if (dec.action == HG_LIVE_UNDO && dec.lines) {
                seg_then(d, "undo: %+.1f %% measured",
                         100.0 * dec.measured_change);
                snprintf(buf, sizeof buf, "%s (back to %s)", dec.why,
                         d->prev_tuned ? d->prev_name : "yours");
                add_event(d, to, dec.action, buf);
            } else if (dec.action == HG_LIVE_UNDO) {
                /* the undo confirmed: the lines in force stay */
                if (isfinite(dec.measured_change))
                    seg_then(d, "undo kept: %+.1f %% measured",
                             100.0 * dec.measured_change);
                else
                    seg_then(d, "undo kept: the atoms changed");
                snprintf(buf, sizeof buf, "%s (%s stay)", dec.why,
                         d->tuned ? d->tuned_name : "yours");
                add_event(d, to, dec.action, buf);
            }
        }
        if (d->rank == 0 && dec.rebalance[0])
            add_event(d, to, HG_LIVE_KEEP, dec.rebalance_why);
        /* the other ranks asleep while rank 0 advised (their cores
         * counted its frame) */
        run_cores_wait(d->rank, d->size);
        if (bcast_decision(d, &dec, &drc)) {
            hg_live_decision_clear(&dec);
            return CLI_EDATA;
        }
        if (dec.action != HG_LIVE_KEEP && dec.lines) {
            if ((rc = commands(d, dec.lines, line))) {
                hg_live_decision_clear(&dec);
                break;
            }
            pre_yes = 1;
            if (dec.action == HG_LIVE_CHANGE) {
                free(d->prev_tuned);
                d->prev_tuned = d->tuned;
                snprintf(d->prev_name, sizeof d->prev_name, "%s",
                         d->tuned_name);
                d->tuned = malloc(strlen(dec.lines) + 1);
                if (d->tuned)
                    strcpy(d->tuned, dec.lines);
                snprintf(d->tuned_name, sizeof d->tuned_name, "%s",
                         dec.name);
            } else if (dec.action == HG_LIVE_UNDO) {
                /* undone: back to the lines before the change */
                free(d->tuned);
                d->tuned = d->prev_tuned;
                d->prev_tuned = NULL;
                snprintf(d->tuned_name, sizeof d->tuned_name, "%s",
                         d->prev_name);
            }
        }
        if (dec.rebalance[0]) { /* after the lines, on every rank */
            if ((rc = commands(d, dec.rebalance, line))) {
                hg_live_decision_clear(&dec);
                break;
            }
            pre_yes = 1;
        }
        hg_live_decision_clear(&dec);
        /* the next segment's first frame is this one (if written) */
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s", f0);
        snprintf(f0, sizeof f0, "%s", f1);
        snprintf(f1, sizeof f1, "%s", tmp);
        have_f0 = have_f1;
        from = to;
    }
    if (d->rank == 0)
        d->outside += fmax(0.0, MPI_Wtime() - wall0 - loops - setup0);
    return rc;
}

/* The input's pair commands, for the probe's copy of the run (its atoms
 * only: probe_data), as LAMMPS parsed them when it ran them (its
 * variables substituted then, once: an equal-style variable drawing a
 * random number is not drawn again). A pair_style starts them anew,
 * clear forgets them. Returns -1 when out of memory. */
static int remember_pair(driver *d, const char *word)
{
    if (!strcmp(word, "clear") || !strcmp(word, "pair_style")) {
        free(d->pair_cmds);
        d->pair_cmds = NULL;
        d->pair_unreadable = 0;
        if (!strcmp(word, "clear"))
            return 0;
    }
    char *x = cli_lmp_last_command(d->h, word);
    if (!x) {
        d->pair_unreadable = 1;
        return 0;
    }
    size_t old = d->pair_cmds ? strlen(d->pair_cmds) : 0;
    char *t = realloc(d->pair_cmds, old + strlen(x) + 2);
    if (!t) {
        free(x);
        if (d->rank == 0)
            cli_error("run: out of memory");
        return -1;
    }
    sprintf(t + old, "%s\n", x);
    d->pair_cmds = t;
    free(x);
    return 0;
}

/* The probe of the pair style's cost: rounds, steps a skin a round, and
 * the atoms of the copy at most (a share of the atoms at random: a
 * listed pair costs the same, and the probe's cost stays a few tens of
 * ms whatever the run's size). */
#define PROBE_ROUNDS 2
#define PROBE_STEPS 10
#define PROBE_ATOMS 2000.0

/* Listed pairs a rank the probe's two skins must differ by at least:
 * fewer are within the noise of a 10-step Pair (LAMMPS' 2D pour at step
 * 3000, 224 falling atoms, had 1-4; flatwall's pour at step 1000, 2275
 * atoms, 8386, their Pair 0.075 ms a step apart). */
#define PROBE_MIN_PAIRS 2000.0

/* A command of the probe's instance h; 0, or -1 with LAMMPS' message in
 * why. */
static int probe_command(void *h, const char *cmd, char *why, size_t cap)
{
    lammps_command(h, cmd);
    if (!lammps_has_error(h))
        return 0;
    char msg[512] = "";
    lammps_get_last_error_message(h, msg, sizeof msg);
    size_t k = strlen(msg);
    while (k && (msg[k - 1] == '\n' || msg[k - 1] == ' '))
        msg[--k] = '\0';
    snprintf(why, cap, "'%.200s': %.400s", cmd, msg);
    return -1;
}

/* Every line of text (NULL: none) as a command of the probe's instance,
 * up to the first that fails; 0, or -1 with why. */
static int probe_lines(void *h, const char *text, char *why, size_t cap)
{
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char one[1400];
        snprintf(one, sizeof one, "%.*s", (int)(len < 1399 ? len : 1399), p);
        if (probe_command(h, one, why, cap))
            return -1;
        p = nl ? nl + 1 : p + len;
    }
    return 0;
}

/* The copy the probe runs on: the atoms of the run as they stand (a
 * share of about PROBE_ATOMS kept, each atom by a hash of its id), in a
 * LAMMPS data file of atom_style sphere written by rank 0, its box the
 * run's along periodic axes and around the atoms along the others.
 * Returns 0, or -1 with why. */
static int probe_data(driver *d, const char *path, char *why, size_t cap)
{
    int ntypes = lammps_extract_setting(d->h, "ntypes");
    int dim = lammps_extract_setting(d->h, "dimension");
    atoms a;
    if (atoms_gather(d, 0, &a)) {
        snprintf(why, cap, "the atoms were not gathered");
        return -1;
    }
    int rc = 0;
    if (!a.n || ntypes < 1) {
        snprintf(why, cap, "no atoms, or no atom types");
        rc = -1;
    }
    if (!rc && d->rank == 0) {
        double na = (double)a.n;
        double keep = na > PROBE_ATOMS ? PROBE_ATOMS / na : 1.0;
        double lo[3], hi[3], xy, yz, xz;
        int per[3] = {0, 0, 0}, changed = 0;
        lammps_extract_box(d->h, lo, hi, &xy, &yz, &xz, per, &changed);
        size_t kept = 0;
        for (size_t i = 0; i < a.n; i++) {
            uint32_t h = (uint32_t)a.id[i] * 2654435761u;
            if ((double)(h >> 8) >= keep * 16777216.0) {
                a.id[i] = 0; /* not in the copy */
                continue;
            }
            kept++;
            for (int k = 0; k < 3; k++)
                if (!per[k]) {
                    lo[k] = fmin(lo[k], a.x[3 * i + k] - a.r[i]);
                    hi[k] = fmax(hi[k], a.x[3 * i + k] + a.r[i]);
                }
        }
        FILE *f = fopen(path, "w");
        if (!f) {
            snprintf(why, cap, "cannot write '%.300s': %s", path,
                     strerror(errno));
            rc = -1;
        } else {
            fprintf(f, "hgridopt run: a copy of the run's atoms\n\n"
                       "%zu atoms\n%d atom types\n", kept, ntypes);
            const char *ax[3] = {"x", "y", "z"};
            for (int k = 0; k < 3; k++)
                fprintf(f, "%.17g %.17g %slo %shi\n", lo[k], hi[k], ax[k],
                        ax[k]);
            fprintf(f, "\nAtoms # sphere\n\n");
            for (size_t i = 0; i < a.n; i++)
                if (a.id[i])
                    fprintf(f, "%d %d %.12g 1 %.12g %.12g %.12g\n", a.id[i],
                            a.type[i], 2.0 * a.r[i], a.x[3 * i],
                            a.x[3 * i + 1], dim == 2 ? 0.0 : a.x[3 * i + 2]);
            int bad = ferror(f);
            if (fclose(f) || bad) {
                snprintf(why, cap, "cannot write '%.300s'", path);
                rc = -1;
            }
        }
    }
    atoms_free(&a);
    int any = rc;
    MPI_Allreduce(&rc, &any, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return any;
}

/* What a listed pair costs a step in the input's pair style, measured on
 * a copy of the run's atoms as they stand (probe_data), read by a second
 * LAMMPS instance on the same ranks whose screen and log go nowhere,
 * with the input's pair commands (maybe_probe lets only what the copy
 * takes reach it: an error of LAMMPS' there ends the process): its Pair
 * per step at skins of a tenth of the pair cutoff and of all of it, the
 * two alternated over
 * PROBE_ROUNDS rounds of PROBE_STEPS steps in which no atom moves (no
 * fix), the least of each skin's rounds over the difference of their
 * listed pairs (the ranks' mean Pair and mean pairs). The copy starts
 * without the contacts' history and at rest: a listed pair's cost is its
 * distance check and the force law of the pairs that touch. The run
 * itself is not touched (LAMMPS' restart files were tried first: this
 * LAMMPS' `granular` style crashed on the first force computation after
 * read_restart, and atoms past a shrink-wrapped face since the last
 * build made read_restart fail). Every rank returns the same: 0 and *k,
 * out[6] (the two skins, their Pair per step and pairs per rank), or -1
 * and why (-2: the skins' listed pairs too few apart to time). */
static int probe_pair(driver *d, const cli_lmp_state *now, double *k,
                      double out[6], char *why, size_t cap)
{
    char path[1200], cmd[1400];
    snprintf(path, sizeof path, "%s/probe.data", d->workdir);
    if (probe_data(d, path, why, cap))
        return -1;
    /* a tenth of the pair cutoff and the whole of it: listed pairs
     * several times apart (a skin and three times it, at 10 steps, gave
     * 10-24 ns a pair on flatwall's forming bed, these 9-17) */
    double cut = now->cutneighmax - now->skin;
    double s0 = 0.1 * cut, s1 = cut;
    char *argv[] = {(char *)"hgridopt-probe", (char *)"-log",
                    (char *)"none", (char *)"-screen", (char *)"none",
                    (char *)"-nocite", NULL};
    void *h = lammps_open(6, argv, MPI_COMM_WORLD, NULL);
    if (!h) {
        snprintf(why, cap, "LAMMPS' library did not start a second "
                 "instance");
        remove(path);
        return -1;
    }
    const char *units = lammps_extract_global(d->h, "units");
    int per[3] = {0, 0, 0}, changed = 0;
    double lo[3], hi[3], xy, yz, xz;
    lammps_extract_box(d->h, lo, hi, &xy, &yz, &xz, per, &changed);
    snprintf(cmd, sizeof cmd, "units %s\ndimension %d\natom_style sphere\n"
             "boundary %s %s %s\ncomm_modify vel yes\nread_data %s\n",
             units ? units : "lj", now->dimension, per[0] ? "p" : "f",
             per[1] ? "p" : "f", per[2] ? "p" : "f", path);
    int rc = probe_lines(h, cmd, why, cap);
    if (!rc)
        rc = probe_lines(h, d->pair_cmds, why, cap);
    if (!rc && !cli_lmp_pair_complete(h)) {
        snprintf(why, cap, "the input's pair_coeff commands do not set "
                 "every atom type's coefficients (some came from a file)");
        rc = -1;
    }
    if (!rc) {
        /* no atom of the copy (PROBE_ATOMS) can overflow these */
        int one = now->oneatom > 20000 ? now->oneatom : 20000;
        snprintf(cmd, sizeof cmd, "neigh_modify delay 0 every 1 check yes "
                 "one %d page %d", one, 10 * one);
        rc = probe_command(h, cmd, why, cap);
    }
    double best[2] = {INFINITY, INFINITY}, pairs[2] = {0.0, 0.0};
    for (int r = 0; r < PROBE_ROUNDS && !rc; r++)
        for (int q = 0; q < 2 && !rc; q++) {
            int j = r % 2 ? 1 - q : q; /* alternated */
            /* bins: the pair style's cost is the list's length, not
             * how it was built */
            snprintf(cmd, sizeof cmd, "neighbor %.10g bin", j ? s1 : s0);
            if ((rc = probe_command(h, cmd, why, cap)))
                break;
            snprintf(cmd, sizeof cmd, "run %d pre yes post no",
                     PROBE_STEPS);
            if ((rc = probe_command(h, cmd, why, cap)))
                break;
            cli_lmp_state st;
            cli_lmp_state_get(h, &st, 1);
            double v[2] = {st.pair, cli_lmp_listed_pairs(h)}, sum[2];
            MPI_Allreduce(v, sum, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            best[j] = fmin(best[j], sum[0] / d->size / PROBE_STEPS);
            pairs[j] = sum[1] / d->size;
            if (v[1] < 0.0) {
                snprintf(why, cap, "no neighbor list of the pair style found "
                         "in the copy");
                rc = -1;
            }
        }
    lammps_close(h);
    remove(path);
    /* the same verdict on every rank (an error is LAMMPS' on each) */
    int bad = rc != 0, any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any) {
        if (!rc)
            snprintf(why, cap, "it failed on another rank");
        return -1;
    }
    double dp = pairs[1] - pairs[0];
    *k = dp != 0.0 ? (best[1] - best[0]) / dp : NAN;
    out[0] = s0;
    out[1] = s1;
    out[2] = best[0];
    out[3] = best[1];
    out[4] = pairs[0];
    out[5] = pairs[1];
    if (!(dp >= PROBE_MIN_PAIRS)) {
        snprintf(why, cap, "%.0f listed pairs a rank at skin %.4g and %.0f "
                 "at %.4g: too few to time", pairs[0], s0, pairs[1], s1);
        return -2;
    }
    if (!(*k > 0.0) || !isfinite(*k)) {
        snprintf(why, cap, "Pair per step %.3g s at skin %.4g (%.0f listed "
                 "pairs a rank) and %.3g s at %.4g (%.0f): no cost per "
                 "pair to take", best[0], s0, pairs[0], best[1], s1,
                 pairs[1]);
        return -1;
    }
    return 0;
}

/* After segment m, before its advice: the pair style's cost probed
 * where the tuner wants it (hg_live_wants_probe: once for a pair style,
 * within its own share of the loop), so that the advice prices listed
 * pairs with it. */
static void maybe_probe(driver *d, hg_live_measure *m)
{
    if (d->probed == 1)
        return;
    cli_lmp_state now;
    cli_lmp_state_get(d->h, &now, !d->dynamic_group);
    if (now.setup_unsafe)
        return; /* a restart's migration is a setup's: not now */
    /* what the copy cannot take stops before it: an error of LAMMPS'
     * there (Debian's library is built without exceptions) would end the
     * run */
    const char *style = cli_lmp_pair_style(d->h);
    static const char *const copied[] = {"granular", "gran/hooke",
                                         "gran/hooke/history",
                                         "gran/hertz/history"};
    int known = 0;
    for (size_t i = 0; i < sizeof copied / sizeof *copied; i++)
        known |= !strcmp(style, copied[i]);
    char no[300] = "";
    if (!known)
        snprintf(no, sizeof no, "pair style %.100s: the copy takes "
                 "granular, gran/hooke, gran/hooke/history and "
                 "gran/hertz/history", *style ? style : "none");
    else if (lammps_extract_setting(d->h, "triclinic"))
        snprintf(no, sizeof no, "a triclinic box");
    else if (!d->pair_cmds || d->pair_unreadable)
        snprintf(no, sizeof no, "%s", d->pair_unreadable
                                          ? "a pair command could not be "
                                            "read back"
                                          : "the input sets no pair_style "
                                            "of its own");
    if (no[0]) {
        d->probed = 1;
        hg_live_set_pair_cost(d->tuner, -1.0);
        note(d, "step %lld: the pair style's cost per listed pair was not "
             "measured (%s): the engine's constant stays", m->to, no);
        return;
    }
    double steps = (double)(m->to - m->from);
    double f = m->atoms > PROBE_ATOMS ? PROBE_ATOMS / m->atoms : 1.0;
    /* each of its runs: a setup (a build and a force computation) and
     * its steps on the copy's share f of the atoms, each of which keeps
     * a share f of its contacts (Pair as f^2); 20 ms more for the
     * instance, its data file and the larger skin's pairs (the probes
     * took 5 ms on the test gas's 384 atoms, 8-47 ms on LAMMPS'
     * examples) */
    double pair = steps > 0.0 ? m->pair / steps : 0.0;
    double build = m->builds > 0 ? m->neigh / (double)m->builds : 0.0;
    double est = 2.0 * PROBE_ROUNDS *
                     ((PROBE_STEPS + 1) * f * f * pair + f * build) +
                 0.02;
    int want = d->rank == 0 ? hg_live_wants_probe(d->tuner, m, est) : 0;
    MPI_Bcast(&want, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (want < 0 && !d->probed)
        d->probe_unfit = est;
    if (want != 1)
        return;
    d->probe_unfit = 0.0;
    double t = MPI_Wtime(), k = 0.0, v[6] = {0};
    char why[700] = "";
    int st = probe_pair(d, &now, &k, v, why, sizeof why);
    double spent = MPI_Wtime() - t;
    d->t_probe += spent;
    d->probed = 1;
    if (st == -2) {
        /* a pour's first atoms, a sparse gas: again on more of them */
        d->probed = 2;
        hg_live_probe_retry(d->tuner, m->atoms);
        note(d, "step %lld: the pair style's cost per listed pair was not "
             "measured yet (%s): the engine's constant stays until the "
             "atoms have grown by half", m->to, why);
        return;
    }
    if (st) {
        note(d, "step %lld: the pair style's cost per listed pair was not "
             "measured (%s): the engine's constant stays", m->to, why);
        hg_live_set_pair_cost(d->tuner, -1.0);
        return;
    }
    d->pair_k = k;
    hg_live_set_pair_cost(d->tuner, k);
    note(d, "step %lld: a listed pair costs the pair style %.3g ns a step, "
         "measured on a copy of the run (Pair %.3g ms a step at skin %.4g "
         "with %.0f listed pairs a rank, %.3g ms at %.4g with %.0f; %.2g "
         "s): the model's constant from now on", m->to, 1e9 * k,
         1e3 * v[2], v[0], v[4], 1e3 * v[3], v[1], v[5], spent);
}

/* A probe wanted on the pair style in force and never made: said
 * (before another pair style, and at the input's end). */
static void note_unprobed(driver *d)
{
    if (!d->probed && d->probe_unfit > 0.0)
        note(d, "the pair style's cost per listed pair was not measured: "
             "its probe, about %.2g s, did not fit its share of the loop "
             "(%g %%) at any segment; the engine's constant stayed",
             d->probe_unfit, 100.0 * HG_LIVE_PROBE_SHARE);
    d->probe_unfit = 0.0;
}

static void print_report(const driver *d, FILE *out)
{
    if (d->s.unfollowable) {
        fprintf(out, "\nhgridopt run: %s on %d rank%s: run whole by LAMMPS, "
                "untuned\n", d->o->input, d->size, d->size == 1 ? "" : "s");
        for (int i = 0; i < d->n_notes; i++)
            fprintf(out, "note: %s\n", d->notes[i]);
        return;
    }
    fprintf(out, "\nhgridopt run: %s on %d rank%s: %d run%s (%d split), "
            "%lld steps, Loop %.4g s, %lld dangerous builds\n", d->o->input,
            d->size, d->size == 1 ? "" : "s", d->runs,
            d->runs == 1 ? "" : "s", d->split_runs, d->steps, d->loop,
            d->dangerous);
    char probe[64] = "";
    if (d->t_probe > 0.0)
        snprintf(probe, sizeof probe, ", the pair style's probe %.3g s",
                 d->t_probe);
    /* the advices, and the cores they counted frames on where more than
     * one were lent (the other ranks', or a rank alone its own) */
    char cores[32] = "";
    if (d->advices && d->cores.lend > 1)
        snprintf(cores, sizeof cores, " on %d cores", d->cores.lend);
    fprintf(out, "splitting: %.3g s outside LAMMPS' Loop (frames %.3g s, "
            "advice %.3g s for %d advice%s%s%s, the rest setups and LAMMPS' "
            "output); Loop and splitting %.4g s\n", d->outside, d->t_frames,
            d->t_advice, d->advices, d->advices == 1 ? "" : "s", cores,
            probe, d->loop + d->outside);
    if (d->n_segs) {
        fprintf(out, "  %-17s %10s %9s %9s %7s %9s %8s %6s  %-34s %s\n",
                "steps", "Loop s", "Neigh s", "Pair s", "builds",
                "dangerous", "atoms", "/ave", "lines", "then");
        for (int i = 0; i < d->n_segs; i++) {
            const seg_rec *r = &d->segs[i];
            char steps[48];
            snprintf(steps, sizeof steps, "%lld-%lld", r->from, r->to);
            fprintf(out, "  %-17s %10.4g %9.4g %9.4g %7lld %9lld %8.0f "
                    "%6.2f  %-34s %s\n", steps, r->loop, r->neigh, r->pair,
                    r->builds, r->dangerous, r->atoms, r->spread, r->lines,
                    r->then);
        }
    }
    if (d->n_ev) {
        fprintf(out, "changes:\n");
        for (int i = 0; i < d->n_ev; i++)
            fprintf(out, "  step %lld: %s\n", d->ev[i].step, d->ev[i].what);
    } else
        fprintf(out, "changes: none (your lines kept)\n");
    for (int i = 0; i < d->n_notes; i++)
        fprintf(out, "note: %s\n", d->notes[i]);
}

/* The working folder of this process (rank 0), removed at exit too:
 * LAMMPS ends the process itself on an error in the input. */
static char g_workdir[1024];

static void remove_dir(const char *dir)
{
    for (int i = 0; i < 4; i++) {
        char p[1100];
        snprintf(p, sizeof p, "%s/frame-%d.dump", dir, i);
        remove(p);
    }
    rmdir(dir);
}

static void remove_at_exit(void)
{
    if (g_workdir[0])
        remove_dir(g_workdir);
}

static int make_workdir(driver *d)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(d->workdir, sizeof d->workdir, "%s/hgridopt-run-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(d->workdir)) {
        cli_error("run: cannot make a working folder in %s: %s",
                  tmp && *tmp ? tmp : "/tmp", strerror(errno));
        return CLI_EDATA;
    }
    snprintf(g_workdir, sizeof g_workdir, "%s", d->workdir);
    atexit(remove_at_exit);
    return 0;
}

static void remove_workdir(driver *d)
{
    remove_dir(d->workdir);
    g_workdir[0] = '\0';
}

int cli_run_lammps(const cli_run_opts *o)
{
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited)
        MPI_Init(NULL, NULL);
    driver d = {0};
    d.o = o;
    MPI_Comm_rank(MPI_COMM_WORLD, &d.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &d.size);
    run_cores_init(&d.cores, d.rank, d.size);
    int rc = 0;
    hg_err e = {0};
    if (hg_live_script_read(o->input, &d.s, &e)) {
        if (d.rank == 0)
            cli_error("%s", e.msg);
        rc = CLI_EDATA;
        goto finalize;
    }
    if (d.rank == 0 && (rc = make_workdir(&d)))
        goto finalize;
    MPI_Bcast(d.workdir, sizeof d.workdir, MPI_CHAR, 0, MPI_COMM_WORLD);
    char *argv[8];
    int argc = 0;
    argv[argc++] = (char *)"hgridopt-run";
    argv[argc++] = (char *)"-log";
    argv[argc++] = (char *)(o->log ? o->log : "log.lammps");
    if (o->screen) {
        argv[argc++] = (char *)"-screen";
        argv[argc++] = (char *)o->screen;
    }
    argv[argc] = NULL;
    d.h = lammps_open(argc, argv, MPI_COMM_WORLD, NULL);
    if (!d.h || lammps_has_error(d.h)) {
        rc = d.h ? lammps_failed(&d, 0) : CLI_EDATA;
        if (!d.h && d.rank == 0)
            cli_error("run: LAMMPS' library did not start");
        goto close;
    }
    if (d.s.unfollowable) {
        note(&d, "'%s' (line %ld): the input runs whole in LAMMPS, "
             "unsplit and untuned (hgridopt run follows scripts without "
             "jump, label, next, if, include, python)", d.s.unfollowable,
             d.s.unfollowable_line);
        lammps_file(d.h, o->input);
        if (lammps_has_error(d.h))
            rc = lammps_failed(&d, d.s.unfollowable_line);
        goto close;
    }
    double *dt = lammps_extract_global(d.h, "dt");
    hg_live_options lo = {0};
    lo.engine = "lammps";
    lo.workdir = d.workdir;
    lo.timestep = 1.0;
    lo.mpi = d.size;
    lo.min_gain = o->min_gain;
    lo.tuning_share = o->tuning_share;
    (void)dt;
    if (hg_live_create(&lo, &d.tuner, &e)) {
        if (d.rank == 0)
            cli_error("%s", e.msg);
        rc = CLI_EUSAGE;
        goto close;
    }
    for (size_t i = 0; i < d.s.n && !rc; i++) {
        const char *cmd = d.s.cmd[i];
        long line = d.s.line[i];
        hg_live_cmd c;
        hg_live_classify(cmd, &c);
        d.clock_words |= c.clock_words;
        char *own = NULL;
        if (c.elapsed_var && hg_live_run_started(&d.s)) {
            d.clock_words = 1;
        } else if (c.elapsed_var) {
            size_t cap = 2 * strlen(cmd) + 1;
            if (!(own = malloc(cap)) || hg_live_elaplong(cmd, own, cap) < 0) {
                free(own);
                if (d.rank == 0)
                    cli_error("out of memory");
                rc = CLI_EDATA;
                break;
            }
            note(&d, "line %ld: elapsed read as elaplong (the steps since "
                 "the run began, the same count in a split run)", line);
            cmd = own;
        }
        if (c.kind == HG_LIVE_RUN) {
            d.dynamic_group = hg_live_dynamic_read(
                &d.s, i, d.dyn_name, sizeof d.dyn_name, &d.dyn_line);
            /* the timestep and units the advice prices with, as now */
            hg_live *last_tuner = d.tuner;
            d.tuner = NULL;
            double *dtp = lammps_extract_global(d.h, "dt");
            const char *units = lammps_extract_global(d.h, "units");
            lo.timestep = dtp && *dtp > 0.0 ? *dtp : 1.0;
            lo.units = units ? units : "";
            /* the tuning share is of the input's loop: the runs before
             * this one and those still to come */
            lo.loop_before = d.loop;
            lo.later_steps = hg_live_later_steps(&d.s, i);
            lo.multi_only = d.multi_only > 0;
            int st = hg_live_create(&lo, &d.tuner, &e);
            /* a change made before the last run's last segment is judged
             * on this run's first; the pair style's probe goes on */
            if (!st)
                hg_live_carry_trial(d.tuner, last_tuner);
            hg_live_free(last_tuner);
            if (st) {
                if (d.rank == 0)
                    cli_error("%s", e.msg);
                rc = CLI_EDATA;
                break;
            }
            rc = run_split(&d, &c, line, cmd);
            continue;
        }
        if (c.kind == HG_LIVE_RUN_WHOLE || c.kind == HG_LIVE_NOTED) {
            note(&d, "line %ld: %s", line, c.why);
            if (c.kind == HG_LIVE_RUN_WHOLE)
                d.runs++;
        }
        if (!strcmp(c.word, "neighbor") || !strcmp(c.word, "neigh_modify") ||
            !strcmp(c.word, "comm_modify")) {
            if ((rc = yield_to_input(&d, line)))
                break;
            hg_live_drop_trial(d.tuner);
            remember_own(&d, c.word, cmd, line);
        }
        if (c.fix_id[0] && !strcmp(c.fix_id, d.balance_time))
            d.balance_time[0] = '\0'; /* unfixed, or defined anew */
        if (c.balance_time) {
            snprintf(d.balance_time, sizeof d.balance_time, "%s", c.fix_id);
            d.balance_time_line = line;
        }
        int pair_cmd = !strcmp(c.word, "clear") ||
                       !strcmp(c.word, "pair_style") ||
                       !strcmp(c.word, "pair_coeff") ||
                       !strcmp(c.word, "pair_modify");
        if (pair_cmd) {
            /* another pair style, or its coefficients: measured anew */
            note_unprobed(&d);
            d.pair_k = 0.0;
            d.probed = 0;
            hg_live_set_pair_cost(d.tuner, 0.0);
        }
        if (!strcmp(c.word, "clear")) {
            d.balance_time[0] = '\0';
            free(d.tuned);
            free(d.prev_tuned);
            d.tuned = d.prev_tuned = NULL;
            hg_live_drop_trial(d.tuner);
            d.own_collections[0] = '\0';
            d.no_restore = 0;
            d.include_line = 0;
            d.multi_only = 0;
        }
        rc = command(&d, cmd, line);
        if (!rc && pair_cmd && remember_pair(&d, c.word))
            rc = CLI_EDATA;
        free(own);
    }
close:
    if (d.h) {
        cli_lmp_flush(d.h);
        lammps_close(d.h);
    }
    if (rc == 0 && d.rank == 0) {
        note_unprobed(&d);
        FILE *out = stdout;
        if (o->report && !(out = fopen(o->report, "w"))) {
            cli_error("--report: cannot write '%s': %s", o->report,
                      strerror(errno));
            rc = CLI_EDATA;
        } else {
            print_report(&d, out);
            if (out != stdout && fclose(out)) {
                cli_error("--report: cannot write '%s'", o->report);
                rc = CLI_EDATA;
            }
        }
    }
finalize:
    if (d.rank == 0 && d.workdir[0])
        remove_workdir(&d);
    hg_live_free(d.tuner);
    hg_live_script_free(&d.s);
    free(d.tuned);
    free(d.prev_tuned);
    free(d.segs);
    free(d.pair_cmds);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}

#else
typedef int run_lammps_unused; /* ISO C: not an empty translation unit */
#endif
