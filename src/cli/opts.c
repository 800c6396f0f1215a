/* opts.c - the one option parser of the command-line tool: the common
 * options and every command's own options (tables of cli_option) composed
 * into one getopt_long array per command. */
#include "cli.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define HG_STR_(x) #x
#define HG_STR(x) HG_STR_(x)

const char cli_exit_help[] =
    "Exit status: 0 success, 1 data or run-time error (a file, a "
    "measurement,\na numerical failure), 2 usage error (an option or its "
    "value).\n";

const char cli_system_help[] =
    "System (a --system file and/or options; options override the file):\n"
    "  --system FILE    system description (JSON, schema hgridopt.system/1;\n"
    "                   - reads stdin); see examples/*.json\n"
    "  --packing FILE   a particle file, e.g. a snapshot of your simulation:\n"
    "                   a LAMMPS/LIGGGHTS dump (dump atom, dump custom,\n"
    "                   .gz), LAMMPS data file, LIGGGHTS VTK, MercuryDPM\n"
    "                   .data, .restart or Particle_N.vtu, XYZ, CSV\n"
    "                   x,y[,z],r or ParaView's export (the format from the\n"
    "                   content; - reads stdin). Distribution = its radii;\n"
    "                   dim, the density the particles experience and\n"
    "                   their pair statistics are measured from it\n"
    "                   (structure measured). A,B,...: files of one frame\n"
    "                   (a run writing each particle group to its own\n"
    "                   file), joined into one\n"
    "  --frame F        which frame of a dump or MercuryDPM .data: last\n"
    "                   (default), first, N (1 = first), -N (from the end)\n"
    "                   or step=S (the frame of timestep S)\n"
    "  --type-radius T=R,...  radius of each atom type, for dumps without a\n"
    "                   radius or diameter column (dump atom)\n"
    "  --boundary B     the boundary of your input script, LAMMPS' letters\n"
    "                   per axis (e.g. \"p p f\": x, y periodic, z walls);\n"
    "                   default: the file's own (dumps, XYZ, MercuryDPM\n"
    "                   .restart state it); files that do not (a LAMMPS\n"
    "                   data file) are inferred where the spheres leave a\n"
    "                   wide gap, else assumed p and the output says so\n"
    "  --skin X         the neighbour skin of your input (LAMMPS' and\n"
    "                   LIGGGHTS' neighbor SKIN). The settings and\n"
    "                   predictions keep this skin; without it they assume\n"
    "                   10 % of the smallest diameter and say so\n"
    "  --psd SPEC       particle size distribution, e.g.\n"
    "                   powerlaw:alpha=-3,omega=100 (see 'hgridopt help psd')\n"
    "  --dim 2|3        dimension\n"
    "  --nu X           packing fraction, 0 < X < 1\n"
    "  --structure S    poisson (uniformly random centres, KOL 2014),\n"
    "                   hard-spheres (no overlaps; 2D: hard disks) or\n"
    "                   measured (the --packing file's pair statistics);\n"
    "                   default poisson, with --packing measured\n"
    "  --K X            cost of a cell access in pair checks (engines with a K);\n"
    "                   default: the engine's calibration on this machine\n"
    "                   ('calibrate --save'), else its shipped value\n"
    "                   ('hgridopt help engines' lists both with their\n"
    "                   sources); auto: the calibration (required); paper:\n"
    "                   KOL 2014's " HG_STR(HG_K_PAPER) "; shipped: the shipped value\n";

const char cli_model_help[] =
    "Cost model:\n"
    "  --model NAME     a cost model ('hgridopt help models' lists them with\n"
    "                   their engines and parameters)\n"
    "  --algorithm A    shorthand: top-down = --model hgrid-top-down,\n"
    "                   bottom-up = --model hgrid-bottom-up\n";

const char cli_output_help[] =
    "  --output FILE    write to FILE instead of standard output\n";

const char cli_plot_help[] =
    "  --plot FILE      also draw the results as a figure; the format comes\n"
    "                   from the extension: .svg, .png or .pdf\n";

/* text wrapped at 78 columns, every line indented by indent (the first
 * continues a line already at column indent) */
static void wrap(FILE *out, const char *text, int indent)
{
    int col = indent;
    const char *w = text;
    while (*w) {
        while (*w == ' ')
            w++;
        size_t n = strcspn(w, " ");
        if (!n)
            break;
        if (col > indent && col + 1 + (int)n > 78) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fwrite(w, 1, n, out);
        col += (int)n;
        w += n;
    }
    fputc('\n', out);
}

void cli_print_engines_help(FILE *out, const char *cmd)
{
    fprintf(out, "  --engine E       the code whose contact detection is "
                 "advised:\n");
    for (size_t i = 0; i < hg_engine_count(); i++) {
        const hg_engine *g = hg_engine_at(i);
        char line[600];
        snprintf(line, sizeof line, "%s%s", i == 0 ? "(default) " : "",
                 g->help);
        fprintf(out, "                   %-11s ", g->name);
        wrap(out, line, 31);
    }
    fprintf(out, "  --format F       table (default), json");
    for (size_t i = 0; i < hg_engine_count(); i++) {
        const hg_engine *g = hg_engine_at(i);
        if (g->settings_format)
            fprintf(out, ", %s", g->settings_format);
    }
    fprintf(out, "\n                   (a code's format: the settings to "
                 "paste into its input;\n                   it implies "
                 "that engine)%s\n",
            strcmp(cmd, "evaluate") ? ""
                                    : "; for the given --sizes");
}

#define COMMON(name, type, field)                                            \
    {name, type, offsetof(cli_opts, field), 0, 0, CLI_ANY}

static const cli_option system_options[] = {
    COMMON("system", CLI_T_STRING, system_path),
    COMMON("packing", CLI_T_STRING, packing_path),
    COMMON("psd", CLI_T_STRING, psd_spec),
    COMMON("dim", CLI_T_STRING, dim_text),
    COMMON("nu", CLI_T_STRING, nu_text),
    COMMON("structure", CLI_T_STRING, structure_text),
    COMMON("boundary", CLI_T_STRING, boundary_text),
    COMMON("frame", CLI_T_STRING, frame_text),
    COMMON("type-radius", CLI_T_STRING, type_radius_text),
    COMMON("skin", CLI_T_STRING, skin_text),
    COMMON("K", CLI_T_STRING, K_text),
};
static const cli_option model_options[] = {
    COMMON("model", CLI_T_STRING, model_text),
    COMMON("algorithm", CLI_T_STRING, algorithm_text),
};
static const cli_option format_option = COMMON("format", CLI_T_STRING, format);
static const cli_option output_option = COMMON("output", CLI_T_STRING, output);
static const cli_option plot_option = COMMON("plot", CLI_T_STRING, plot);
static const cli_option help_option = COMMON("help", CLI_T_FLAG, help);
static const cli_option engine_option = COMMON("engine", CLI_T_STRING, engine);

#define N_OF(a) (sizeof a / sizeof a[0])
#define MAX_OPTIONS 64

/* An option of the composed list: its table entry and whether it stores
 * into the common options (else into the command's struct). */
typedef struct slot {
    const cli_option *opt;
    int common;
} slot;

static size_t compose(const cli_spec *spec, slot *v)
{
    size_t n = 0;
    if (spec->groups & CLI_SYSTEM)
        for (size_t i = 0; i < N_OF(system_options); i++)
            v[n++] = (slot){&system_options[i], 1};
    if (spec->groups & CLI_MODEL)
        for (size_t i = 0; i < N_OF(model_options); i++)
            v[n++] = (slot){&model_options[i], 1};
    if (spec->groups & CLI_FORMAT)
        v[n++] = (slot){&format_option, 1};
    if (spec->groups & CLI_OUTPUT)
        v[n++] = (slot){&output_option, 1};
    if (spec->groups & CLI_PLOT)
        v[n++] = (slot){&plot_option, 1};
    v[n++] = (slot){&help_option, 1};
    v[n++] = (slot){&engine_option, 1};
    for (size_t i = 0; i < spec->n_options && n < MAX_OPTIONS; i++)
        v[n++] = (slot){&spec->options[i], 0};
    return n;
}

static int check_double(const cli_option *o, const char *text, double v)
{
    switch (o->check) {
    case CLI_POSITIVE:
        if (v > 0.0)
            return CLI_OK;
        cli_error("--%s: %s must be > 0", o->name, text);
        return CLI_EUSAGE;
    case CLI_NONNEGATIVE:
        if (v >= 0.0)
            return CLI_OK;
        cli_error("--%s: %s must be >= 0", o->name, text);
        return CLI_EUSAGE;
    case CLI_OPEN_UNIT:
        if (v > 0.0 && v < 1.0)
            return CLI_OK;
        cli_error("--%s: %s is outside (0, 1)", o->name, text);
        return CLI_EUSAGE;
    case CLI_UNIT_RIGHT_OPEN:
        if (v >= 0.0 && v < 1.0)
            return CLI_OK;
        cli_error("--%s: %s is outside [0, 1)", o->name, text);
        return CLI_EUSAGE;
    default: return CLI_OK;
    }
}

/* Store the value of option o given as text into base. */
static int store(const cli_option *o, const char *text, char *base)
{
    char field[64];
    hg_err e = {0};
    int st;
    snprintf(field, sizeof field, "--%s", o->name);
    switch (o->type) {
    case CLI_T_STRING: *(const char **)(base + o->offset) = text; break;
    case CLI_T_FLAG: *(int *)(base + o->offset) = 1; break;
    case CLI_T_LONG:
        if ((st = hg_parse_long(text, field, o->lo, o->hi,
                                (long *)(base + o->offset), &e)))
            return cli_fail(&e, st, 0);
        break;
    case CLI_T_DOUBLE: {
        double *v = (double *)(base + o->offset);
        if ((st = hg_parse_double(text, field, v, &e)))
            return cli_fail(&e, st, 0);
        return check_double(o, text, *v);
    }
    }
    return CLI_OK;
}

/* The formats of a command's list; the entry CLI_ENGINE_FORMATS stands
 * for every engine's settings format. Returns the count (<= cap). */
static size_t expand_formats(const char *const *allowed, const char **out,
                             size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; allowed[i]; i++) {
        if (strcmp(allowed[i], CLI_ENGINE_FORMATS)) {
            if (n < cap)
                out[n++] = allowed[i];
            continue;
        }
        for (size_t k = 0; k < hg_engine_count(); k++) {
            const char *f = hg_engine_at(k)->settings_format;
            int seen = !f;
            for (size_t j = 0; j < n && !seen; j++)
                seen = !strcmp(out[j], f);
            if (!seen && n < cap)
                out[n++] = f;
        }
    }
    return n;
}

static int check_format(const char *cmd, const char *format,
                        const char *const *allowed_list)
{
    const char *allowed[32];
    size_t n = expand_formats(allowed_list, allowed, 32);
    for (size_t i = 0; i < n; i++)
        if (strcmp(format, allowed[i]) == 0)
            return CLI_OK;
    char list[256] = "";
    for (size_t i = 0; i < n; i++) {
        if (i)
            strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, allowed[i], sizeof list - strlen(list) - 1);
    }
    cli_error("%s --format: unknown format '%s' (one of: %s)", cmd, format,
              list);
    return CLI_EUSAGE;
}

/* --engine NAME: a known engine, and one this command runs (the default
 * engine, or any with CLI_ENGINES: the command checks its engine). */
static int check_engine(const cli_spec *spec, const char *name)
{
    char list[256] = "";
    for (size_t i = 0; i < hg_engine_count(); i++) {
        if (i)
            strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, hg_engine_at(i)->name, sizeof list - strlen(list) - 1);
    }
    if (!hg_engine_find(name)) {
        cli_error("%s --engine: unknown engine '%s' (one of: %s)", spec->name,
                  name, list);
        return CLI_EUSAGE;
    }
    if (spec->groups & CLI_ENGINES)
        return CLI_OK;
    const char *mine = hg_engine_at(0)->name;
    if (strcmp(name, mine)) {
        cli_error("%s --engine: '%s' is not available for %s (it runs: %s)",
                  spec->name, name, spec->name, mine);
        return CLI_EUSAGE;
    }
    return CLI_OK;
}

/* --plot FILE: a known extension, and a build that can plot. */
static int check_plot(const char *cmd, const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot || (strcasecmp(dot, ".svg") && strcasecmp(dot, ".png") &&
                 strcasecmp(dot, ".pdf"))) {
        cli_error("%s --plot: '%s' has no known extension (.svg, .png or "
                  ".pdf)", cmd, path);
        return CLI_EUSAGE;
    }
    if (!hg_plot_available()) {
        cli_error("%s --plot: this hgridopt was built without plotting "
                  "(configure with -DHG_PLOT=ON and PLplot installed)", cmd);
        return CLI_EUSAGE;
    }
    return CLI_OK;
}

int cli_parse(const cli_spec *spec, int argc, char **argv, cli_opts *o,
              void *cmd, int *rc)
{
    slot v[MAX_OPTIONS];
    struct option lo[MAX_OPTIONS + 1];
    size_t n = compose(spec, v);
    for (size_t i = 0; i < n; i++)
        lo[i] = (struct option){v[i].opt->name,
                                v[i].opt->type == CLI_T_FLAG
                                    ? no_argument
                                    : required_argument,
                                NULL, (int)i + 1000};
    lo[n] = (struct option){NULL, 0, NULL, 0};
    int c;
    unsigned char given[MAX_OPTIONS] = {0};
    *rc = CLI_OK;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", lo, NULL)) != -1) {
        const char *arg = argv[optind - 1];
        if (c == ':' || c == '?') {
            if (c == ':')
                cli_error("%s: option '%s' needs a value (see 'hgridopt %s "
                          "--help')", spec->name, arg ? arg : "?",
                          spec->name);
            else
                cli_error("%s: unknown option '%s' (see 'hgridopt %s "
                          "--help')", spec->name, arg ? arg : "?",
                          spec->name);
            *rc = CLI_EUSAGE;
            return 1;
        }
        const slot *s = &v[c - 1000];
        /* a value given twice is refused, not silently replaced (aliases
         * share their field: the first slot with it stands for all) */
        size_t first = (size_t)(c - 1000);
        for (size_t i = 0; i < n; i++)
            if (v[i].common == s->common &&
                v[i].opt->offset == s->opt->offset) {
                first = i;
                break;
            }
        if (s->opt->type != CLI_T_FLAG && given[first]++) {
            cli_error("%s: option '--%s' given twice (give it once%s)",
                      spec->name, s->opt->name,
                      strcmp(s->opt->name, "packing") ? ""
                      : s->common ? "; the files of one frame: --packing "
                                    "big_1000.vtk,small_1000.vtk"
                                  : "; several files: --packing a.data,b.data");
            *rc = CLI_EUSAGE;
            return 1;
        }
        if ((*rc = store(s->opt, optarg, s->common ? (char *)o : cmd)))
            return 1;
    }
    if (o->help) {
        spec->help(stdout);
        return 1;
    }
    if (optind < argc) {
        cli_error("%s: unexpected argument '%s'", spec->name, argv[optind]);
        *rc = CLI_EUSAGE;
        return 1;
    }
    if (o->engine && (*rc = check_engine(spec, o->engine)))
        return 1;
    if (o->plot && (*rc = check_plot(spec->name, o->plot)))
        return 1;
    if (spec->formats) {
        if (!o->format)
            o->format = spec->formats[0];
        if ((*rc = check_format(spec->name, o->format, spec->formats)))
            return 1;
    }
    return 0;
}
