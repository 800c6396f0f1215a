/* cmd_run.c - `hgridopt run --engine lammps IN_FILE`: the user's LAMMPS
 * input run through LAMMPS' library, its runs split into segments and its
 * neighbor lines tuned between them (run_lammps.c; hg_live.h). */
#include "cli.h"
#include "run_lammps.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct run_cli_opts {
    const char *log, *screen, *report;
    long mpi, segments, min_steps;
    double min_gain, tuning_share;
    int no_tune;
} run_cli_opts;

static const cli_option options[] = {
    CLI_STR("log", run_cli_opts, log),
    CLI_STR("screen", run_cli_opts, screen),
    CLI_STR("report", run_cli_opts, report),
    CLI_LONG("mpi", run_cli_opts, mpi, 1, 4096),
    CLI_LONG("segments", run_cli_opts, segments, 1, 64),
    CLI_LONG("min-steps", run_cli_opts, min_steps, 1, 1000000000L),
    CLI_DOUBLE("min-gain", run_cli_opts, min_gain, CLI_UNIT_RIGHT_OPEN),
    CLI_DOUBLE("tuning-share", run_cli_opts, tuning_share,
               CLI_UNIT_RIGHT_OPEN),
    CLI_FLAG("no-tune", run_cli_opts, no_tune),
};

static void help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt run --engine lammps IN_FILE [options]\n"
            "       mpirun -np P hgridopt run --engine lammps IN_FILE "
            "[options]\n\n"
            "Your LAMMPS input, run as `lmp -in IN_FILE` runs it, through "
            "LAMMPS' library,\nand made faster while it runs: each `run N` "
            "is split into segments (`run n\nstart S stop E`, the run's "
            "clock kept) on steps where thermo prints anyway;\nafter each, "
            "the frame and the segment's own timers price the rest of the "
            "run\nwith the whole-run model, and the neighbor lines change "
            "where that is\npredicted to save 5 %% of the loop (on "
            "many ranks, with a fix balance on the\ngrid in use where "
            "that pays). A change that then measures slower is\nundone. "
            "The same steps, fixes, "
            "thermo output, dumps and atom counts; LAMMPS'\nown log and "
            "screen; then a report of the segments and the changes.\n"
            "Inputs with jump, label, next, if, include or python run whole "
            "and untuned;\nruns with keywords (upto, every, ...), minimize "
            "and rerun unsplit; so are\nruns after `elaptime` is used (a "
            "variable's `elapsed` is read as `elaplong`,\nthe same steps in "
            "a split run), runs at or after which a dynamic group is\nread, "
            "and runs under `thermo 0`. While fix pour inserts, a change's "
            "setup runs\nas `run 0` and the insertions keep their own "
            "schedule.\n\n"
            "  --engine lammps  the code (the only one with a library here)\n"
            "  --log FILE       LAMMPS' log (default log.lammps; none: no "
            "log)\n"
            "  --screen FILE    LAMMPS' screen output (default: standard "
            "output; none)\n"
            "  --report FILE    the report (default: standard output, after "
            "LAMMPS')\n"
            "  --mpi P          run on P MPI ranks: starts itself under "
            "`mpirun -np P`\n"
            "                   (the same as `mpirun -np P hgridopt run "
            "...`)\n"
            "  --segments N     segments of a run at most (default 10, "
            "1..64)\n"
            "  --min-steps N    steps of a segment at least (default 500)\n"
            "  --min-gain F     change only when predicted to save this share "
            "of the\n"
            "                   loop (default 0.05)\n"
            "  --tuning-share F the tuner's own time (advice and its "
            "frames) at most this\n"
            "                   share of the input's loop by its end: "
            "past it a segment is\n"
            "                   measured, not advised on (default 0.03; "
            "0: no limit)\n"
            "  --no-tune        split and measure only, change nothing\n\n"
            "Built only where LAMMPS' library (Debian: liblammps-dev) was "
            "found.\n\nExample:\n"
            "  hgridopt run --engine lammps in.pour.drum\n\n%s",
            cli_exit_help);
}

static const cli_spec spec = {"run", help, CLI_ENGINES, options,
                              sizeof options / sizeof options[0], NULL};

/* The options that take a value (for finding IN_FILE among them). */
static int takes_value(const char *arg)
{
    static const char *const v[] = {"--engine", "--log", "--screen",
                                    "--report", "--mpi", "--segments",
                                    "--min-steps", "--min-gain",
                                    "--tuning-share", NULL};
    for (int i = 0; v[i]; i++)
        if (!strcmp(arg, v[i]))
            return 1;
    return 0;
}

/* Take IN_FILE (the one argument that is neither an option nor an
 * option's value) out of argv; NULL when there is none, *extra when there
 * are more. */
static const char *take_input(int *argc, char **argv, const char **extra)
{
    const char *in = NULL;
    *extra = NULL;
    int w = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1]) {
            argv[w++] = argv[i];
            if (takes_value(a) && i + 1 < *argc)
                argv[w++] = argv[++i];
            continue;
        }
        if (!in)
            in = a;
        else if (!*extra)
            *extra = a;
    }
    *argc = w;
    argv[w] = NULL;
    return in;
}

#ifdef HG_HAVE_LAMMPS
/* Under mpirun already (Open MPI, MPICH / PMI)? */
static long launched_ranks(void)
{
    const char *v[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", NULL};
    for (int i = 0; v[i]; i++) {
        const char *s = getenv(v[i]);
        if (s && *s)
            return strtol(s, NULL, 10);
    }
    return 0;
}

/* --mpi P outside mpirun: this command again under `mpirun -np P`. */
static int relaunch(long P, int argc, char **argv)
{
    char **args = calloc((size_t)argc + 12, sizeof *args);
    if (!args) {
        cli_error("run: out of memory");
        return CLI_EDATA;
    }
    static char np[32];
    snprintf(np, sizeof np, "%ld", P);
    int k = 0;
    args[k++] = (char *)"mpirun";
    if (geteuid() == 0)
        args[k++] = (char *)"--allow-run-as-root";
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores > 0 && P > cores)
        args[k++] = (char *)"--oversubscribe";
    args[k++] = (char *)"-np";
    args[k++] = np;
    /* this program's own path (/proc/self/exe would name mpirun's) */
    static char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        cli_error("--mpi %ld: cannot find this program's path: %s", P,
                  strerror(errno));
        free(args);
        return CLI_EDATA;
    }
    self[n] = '\0';
    args[k++] = self;
    args[k++] = (char *)"run";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mpi")) {
            i++;
            continue;
        }
        if (!strncmp(argv[i], "--mpi=", 6))
            continue;
        args[k++] = argv[i];
    }
    args[k] = NULL;
    fflush(NULL);
    execvp("mpirun", args);
    cli_error("--mpi %ld: cannot start mpirun: %s (install an MPI, e.g. "
              "Debian's openmpi-bin, or run under mpirun yourself)", P,
              strerror(errno));
    free(args);
    return CLI_EDATA;
}
#endif

int cmd_run(int argc, char **argv)
{
    char **orig = calloc((size_t)argc + 1, sizeof *orig);
    if (!orig) {
        cli_error("run: out of memory");
        return CLI_EDATA;
    }
    memcpy(orig, argv, (size_t)argc * sizeof *orig);
    int orig_argc = argc;
    const char *extra = NULL;
    const char *input = take_input(&argc, argv, &extra);
    cli_opts co = {0};
    run_cli_opts o = {0};
    o.segments = 10;
    o.min_steps = 500;
    o.min_gain = 0.05;
    o.tuning_share = 0.03;
    int rc = 0;
    if (cli_parse(&spec, argc, argv, &co, &o, &rc))
        goto done;
    rc = CLI_EUSAGE;
    if (!co.engine || strcmp(co.engine, "lammps")) {
        cli_error("--engine: %s: hgridopt run drives LAMMPS' library only "
                  "(--engine lammps)", co.engine ? co.engine : "not given");
        goto done;
    }
    if (!input) {
        cli_error("run: give the input script (hgridopt run --engine lammps "
                  "IN_FILE)");
        goto done;
    }
    if (extra) {
        cli_error("run: '%s': one input script only (the first is '%s')",
                  extra, input);
        goto done;
    }
    if (access(input, R_OK)) {
        cli_error("run: input script '%s': %s", input, strerror(errno));
        rc = CLI_EDATA;
        goto done;
    }
#ifndef HG_HAVE_LAMMPS
    (void)orig_argc;
    cli_error("run: this hgridopt was built without LAMMPS' library "
              "(liblammps-dev was not found at build time): install it "
              "(apt-get install liblammps-dev) and build again");
    rc = CLI_EDATA;
#else
    long under = launched_ranks();
    if (o.mpi > 1 && under == 0) {
        rc = relaunch(o.mpi, orig_argc, orig);
        goto done;
    }
    if (o.mpi > 0 && under > 0 && o.mpi != under) {
        cli_error("--mpi %ld: running under mpirun on %ld ranks", o.mpi,
                  under);
        goto done;
    }
    cli_run_opts ro = {0};
    ro.input = input;
    ro.log = o.log;
    ro.screen = o.screen;
    ro.report = o.report;
    ro.segments = o.segments;
    ro.min_steps = o.min_steps;
    /* the tuner's 0 is its default; --min-gain 0: any predicted gain */
    ro.min_gain = o.min_gain > 0.0 ? o.min_gain : 1e-12;
    /* --tuning-share 0: no limit (the tuner's 0 is its default) */
    ro.tuning_share = o.tuning_share > 0.0 ? o.tuning_share : -1.0;
    ro.no_tune = o.no_tune;
    rc = cli_run_lammps(&ro);
#endif
done:
    free(orig);
    return rc;
}
