/* main.c - hgridopt command dispatch. */
#include "cli.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

static const cli_command commands[] = {
    {"evaluate", "cost model for given cell sizes (T_cd, T_ca, per level)",
     cmd_evaluate},
    {"recommend", "optimal algorithm, levels and cell sizes", cmd_recommend},
    {"scan", "work per particle T(L) for every method and algorithm",
     cmd_scan},
    {"pack", "generate a packing (poisson, rsa, dense) as a particle file",
     cmd_pack},
    {"validate", "measured vs predicted: the bundled HGrid's counts, or "
                 "the advice run in a DEM code",
     cmd_validate},
    {"calibrate", "fit the engine's cost constants (K, ...) on this machine",
     cmd_calibrate},
    {"bench", "contact-detection methods side by side on one packing",
     cmd_bench},
    {"tune", "measured search from the recommendation for the fastest "
             "setting",
     cmd_tune},
    {"decompose", "a frame split over MPI ranks as LAMMPS splits it, and "
                  "the best split",
     cmd_decompose},
    {"run", "your LAMMPS input run through LAMMPS' library, its neighbor "
            "lines tuned as it runs",
     cmd_run},
};
static const size_t ncommands = sizeof commands / sizeof commands[0];

static void usage(FILE *out)
{
    fprintf(out,
            "hgridopt %s - optimal hierarchical-grid contact detection for "
            "polydisperse particles\n\n"
            "Usage: hgridopt <command> [options]   (hgridopt <command> --help)\n"
            "       hgridopt help psd               distribution families\n"
            "       hgridopt help models            cost models (--model)\n"
            "       hgridopt help engines           engines (--engine): "
            "models, constants\n"
            "       hgridopt --version\n"
            "       hgridopt <command> --engine NAME ...   the code advised "
            "(see below)\n"
            "       hgridopt --max-input SIZE <command> ...   read input "
            "files up to SIZE\n"
            "               bytes (default 1G; suffix K, M, G; also the "
            "environment\n"
            "               variable HGRIDOPT_MAX_INPUT)\n\nCommands:\n",
            HG_VERSION_STRING);
    for (size_t i = 0; i < ncommands; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nEngines (--engine NAME; hgridopt help engines):");
    for (size_t i = 0; i < hg_engine_count(); i++)
        fprintf(out, "%s %s%s", i ? "," : "", hg_engine_at(i)->name,
                i ? "" : " (default)");
    fprintf(out, "\n");
    fprintf(out,
            "\nEnvironment: HGRIDOPT_SIMD=0 makes the bundled HGrid's 3D "
            "search test one\ncandidate at a time (default: four with "
            "AVX2 where the processor has it;\n--version says which), and "
            "K in 3D the scalar loop's.\n"
            "\nExample:\n"
            "  hgridopt evaluate --psd powerlaw:alpha=-3,omega=100 --dim 3 "
            "--nu 0.7 --sizes 4,20,200\n\n%s",
            cli_exit_help);
}

/* The K the commands use when neither --K nor the system file gives one:
 * the same resolver as theirs (hg_K_resolve), per engine with a K of its
 * own (the default engine first; the others' with their --format) and
 * dimension. The model's declared default (HG_K_PAPER) is only the
 * library's, for callers that pass no value, so the help shows what the
 * CLI uses. */
#define K_ENGINES 4
typedef struct K_used {
    const hg_engine *g[K_ENGINES];
    int n;
    hg_K_choice c[K_ENGINES][2]; /* [engine][3D, 2D] */
    int ok[K_ENGINES][2];
    char err[K_ENGINES][2][HG_ERRLEN];
} K_used;

static void K_resolve_all(K_used *u)
{
    u->n = 0;
    for (size_t k = 0; k < hg_engine_count() && u->n < K_ENGINES; k++) {
        const hg_engine *g = hg_engine_at(k);
        if (!g->K || !g->K->own || (k && !g->settings_format))
            continue;
        u->g[u->n] = g;
        for (int i = 0; i < 2; i++) {
            hg_K_request rq = {.engine = g, .dim = 3 - i};
            hg_err e = {0};
            u->ok[u->n][i] = hg_K_resolve(&rq, &u->c[u->n][i], &e) == HG_OK;
            snprintf(u->err[u->n][i], sizeof u->err[u->n][i], "%s", e.msg);
        }
        u->n++;
    }
}

/* "2.9 (shipped-default)" or "none (error)" */
static const char *K_text(const K_used *u, int t, int i, char *buf,
                          size_t len)
{
    if (u->ok[t][i])
        snprintf(buf, len, "%g (%s)", u->c[t][i].K,
                 hg_K_source_name(u->c[t][i].source));
    else
        snprintf(buf, len, "none (see below)");
    return buf;
}

static void K_param_help(FILE *out, const hg_model *m,
                         const hg_model_param *q, const K_used *u)
{
    char a[64], b[64];
    fprintf(out, "  %16s K (%s %g): %s\n", "", q->open_min ? ">" : ">=",
            q->min, q->help);
    fprintf(out, "  %16s   used: %s in 3D, %s in 2D", "",
            K_text(u, 0, 0, a, sizeof a), K_text(u, 0, 1, b, sizeof b));
    for (int t = 1; t < u->n && m->grid_algorithm != HG_GRID_NONE; t++)
        fprintf(out, ";\n  %16s   %s in 3D, %s in 2D with --format "
                "%s", "", K_text(u, t, 0, a, sizeof a),
                K_text(u, t, 1, b, sizeof b), u->g[t]->settings_format);
    fprintf(out, "\n");
}

static void models_help(FILE *out)
{
    K_used u;
    K_resolve_all(&u);
    fprintf(out, "Cost models: --model NAME (evaluate, recommend, scan, "
                 "validate); their\nparameters below: --param "
                 "NAME=VALUE,... (evaluate, recommend; K: --K)\n\n");
    for (size_t i = 0; i < hg_model_count(); i++) {
        const hg_model *m = hg_model_at(i);
        fprintf(out, "  %-16s %s\n", m->name, m->help);
        for (int k = 0; k < m->n_params; k++) {
            const hg_model_param *q = &m->params[k];
            if (!strcmp(q->name, "K")) {
                K_param_help(out, m, q, &u);
                continue;
            }
            if (!strcmp(q->name, "C")) { /* set by the hgrid engine */
                const char *where;
                double C = hg_C_shipped(3, &where);
                fprintf(out, "  %16s C (>= %g): %s\n  %16s   used: %g for "
                        "the bundled HGrid with its own K (%s);\n  %16s   0 "
                        "(the detection only) with a K given by --K X or a "
                        "system file,\n  %16s   for other codes and in "
                        "validate\n",
                        "", q->min, q->help, "", C, where, "", "");
                continue;
            }
            fprintf(out, "  %16s %s (default %g, %s %g): %s\n",
                    "", q->name, q->def, q->open_min ? ">" : ">=", q->min,
                    q->help);
        }
    }
    fprintf(out, "\nK used when neither --K nor the system file's \"K\" "
                 "gives it (by the code\nthe output describes and the "
                 "dimension):\n");
    for (int t = 0; t < u.n; t++) {
        const hg_engine_K *k = u.g[t]->K;
        fprintf(out, "  %s%s (", k->article, k->target);
        if (t == 0) { /* and the codes whose K is the default engine's */
            fprintf(out, "tables, JSON, validate, bench");
            for (size_t i = 0; i < hg_engine_count(); i++) {
                const hg_engine *g = hg_engine_at(i);
                if (g->K && !g->K->own && g->settings_format)
                    fprintf(out, ", --format %s --model kol",
                            g->settings_format);
            }
        } else {
            fprintf(out, "--format %s", u.g[t]->settings_format);
        }
        fprintf(out, "):\n");
        for (int d = 0; d < 2; d++)
            if (u.ok[t][d])
                fprintf(out, "    %dD: %g, %s\n", 3 - d, u.c[t][d].K,
                        u.c[t][d].detail);
            else
                fprintf(out, "    %dD: none: %s\n", 3 - d, u.err[t][d]);
    }
    fprintf(out, "\nvalidate --model measures the models of the bundled "
                 "grid:");
    for (size_t i = 0, n = 0; i < hg_model_count(); i++)
        if (hg_model_at(i)->grid_algorithm != HG_GRID_NONE)
            fprintf(out, "%s %s", n++ ? "," : "", hg_model_at(i)->name);
    fprintf(out, "\n(bin is measured next to them as a baseline; the LAMMPS "
                 "models by validate\n--engine lammps).\n");
    fprintf(out, "\n--algorithm top-down and --algorithm bottom-up are "
                 "shorthands for\n--model hgrid-top-down and --model "
                 "hgrid-bottom-up.\n");
}

static void engines_help(FILE *out)
{
    fprintf(out, "Engines: --engine NAME, the code whose contact detection "
                 "is advised\n\n");
    for (size_t i = 0; i < hg_engine_count(); i++) {
        const hg_engine *g = hg_engine_at(i);
        fprintf(out, "  %-10s %s%s\n", g->name, g->help,
                i == 0 ? " (default)" : "");
        fprintf(out, "  %10s models:", "");
        for (size_t m = 0; g->models[m]; m++)
            fprintf(out, "%s %s", m ? "," : "", g->models[m]);
        if (g->settings_format)
            fprintf(out, "\n  %10s settings: --format %s\n", "",
                    g->settings_format);
        else
            fprintf(out, "\n  %10s settings: the cell sizes of the table "
                         "and JSON outputs\n", "");
        if (i != 0) /* the bundled grid: its help line says it */
            fprintf(out, "  %10s runs the code: %s%s%s%s\n", "",
                g->validate ? "validate " : "", g->tune ? "tune " : "",
                g->calibrate ? "calibrate " : "",
                g->validate || g->tune || g->calibrate ? "--engine NAME"
                                                       : "no");
        for (int d = 3; d >= 2; d--) {
            char buf[1024];
            hg_err e = {0};
            if (hg_engine_constants_text(g, d, buf, sizeof buf, &e) == HG_OK)
                fprintf(out, "  %10s constants %dD: %s\n", "", d, buf);
            else
                fprintf(out, "  %10s constants %dD: none: %s\n", "", d, e.msg);
        }
    }
}

static void psd_help(FILE *out)
{
    fprintf(out,
            "Particle size distributions: --psd FAMILY:KEY=VALUE,KEY=VALUE\n"
            "(values are numbers unless said; lists inside a value are "
            "separated by ';')\n\n");
    for (size_t i = 0; i < hg_psd_family_count(); i++) {
        const hg_psd_family *f = hg_psd_family_at(i);
        fprintf(out, "  %-16s %s\n", f->name, f->help);
    }
    fprintf(out, "\nExamples:\n"
                 "  powerlaw:alpha=-3,omega=100\n"
                 "  uniform-volume:rmin=0.5e-3,rmax=5e-3\n"
                 "  mono:r=1\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EUSAGE;
    }
    /* failed writes are reported by the writers (EFBIG) instead of the
     * process being killed by SIGXFSZ without a message */
    signal(SIGXFSZ, SIG_IGN);
    const char *simd = getenv("HGRIDOPT_SIMD");
    if (simd && strcmp(simd, "0") && strcmp(simd, "1")) {
        cli_error("HGRIDOPT_SIMD: '%s' is not 0 (the scalar pair loop) or "
                  "1 (AVX2 where the processor has it)",
                  simd);
        return CLI_EUSAGE;
    }
    if (!strcmp(argv[1], "--max-input") ||
        !strncmp(argv[1], "--max-input=", 12)) {
        const char *v = argv[1][11] == '=' ? argv[1] + 12 : argv[2];
        int used = argv[1][11] == '=' ? 1 : 2;
        size_t bytes;
        hg_err e = {0};
        if (!v || hg_parse_size(v, "--max-input", &bytes, &e) != HG_OK) {
            cli_error("%s", v ? e.msg : "--max-input: needs a size");
            return CLI_EUSAGE;
        }
        hg_set_input_limit(bytes);
        argc -= used;
        argv += used;
        if (argc < 2) {
            usage(stderr);
            return CLI_EUSAGE;
        }
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("hgridopt %s (library %s; %s; 3D pair loop %s)\n",
               HG_VERSION_STRING, hg_version_string(), hg_build_options(),
               hg_grid_simd(-1) ? "avx2" : "scalar");
        return CLI_OK;
    }
    if (!strcmp(cmd, "help")) {
        if (argc < 3) {
            usage(stdout);
            return CLI_OK;
        }
        if (!strcmp(argv[2], "psd") || !strcmp(argv[2], "distributions")) {
            psd_help(stdout);
            return CLI_OK;
        }
        if (!strcmp(argv[2], "models")) {
            models_help(stdout);
            return CLI_OK;
        }
        if (!strcmp(argv[2], "engines")) {
            engines_help(stdout);
            return CLI_OK;
        }
        for (size_t i = 0; i < ncommands; i++)
            if (!strcmp(argv[2], commands[i].name)) {
                char *args[] = {argv[2], "--help", NULL};
                return commands[i].run(2, args);
            }
        cli_error("help: unknown topic '%s'", argv[2]);
        return CLI_EUSAGE;
    }
    for (size_t i = 0; i < ncommands; i++)
        if (!strcmp(cmd, commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    cli_error("unknown command '%s' (see 'hgridopt --help')", cmd);
    return CLI_EUSAGE;
}
