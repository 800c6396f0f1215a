/* main.c - hgridopt command dispatch. */
#include "cli.h"

#include <string.h>

static const cli_command commands[] = {
    {"evaluate", "cost model for given cell sizes (T_cd, T_ca, per level)",
     cmd_evaluate},
    {"recommend", "optimal algorithm, levels and cell sizes", cmd_recommend},
    {"scan", "work per particle T(L) for every method and algorithm",
     cmd_scan},
    {"pack", "generate a packing (poisson, rsa, dense) as a particle file",
     cmd_pack},
    {"validate", "run the bundled HGrid on a Poisson packing: measured vs "
                 "predicted work",
     cmd_validate},
    {"calibrate", "measure K (cell access / pair check cost) on this machine",
     cmd_calibrate},
    {"bench", "contact-detection methods side by side on one packing",
     cmd_bench},
    {"tune", "measured search of LAMMPS neighbor settings (--engine lammps)",
     cmd_tune},
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
            "       hgridopt --version\n\nCommands:\n",
            HG_VERSION_STRING);
    for (size_t i = 0; i < ncommands; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\nExample:\n"
            "  hgridopt evaluate --psd powerlaw:alpha=-3,omega=100 --dim 3 "
            "--nu 0.7 --sizes 4,20,200\n\n%s",
            cli_exit_help);
}

static void models_help(FILE *out)
{
    fprintf(out, "Cost models: --model NAME (evaluate, recommend, scan, "
                 "validate)\n\n");
    for (size_t i = 0; i < hg_model_count(); i++) {
        const hg_model *m = hg_model_at(i);
        fprintf(out, "  %-16s %s\n", m->name, m->help);
        for (int k = 0; k < m->n_params; k++) {
            const hg_model_param *q = &m->params[k];
            fprintf(out, "  %16s %s (default %g, %s %g): %s\n",
                    "", q->name, q->def, q->open_min ? ">" : ">=", q->min,
                    q->help);
        }
    }
    fprintf(out, "\n--algorithm top-down and --algorithm bottom-up are "
                 "shorthands for\n--model hgrid-top-down and --model "
                 "hgrid-bottom-up.\n");
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
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("hgridopt %s (library %s; %s)\n", HG_VERSION_STRING,
               hg_version_string(), hg_build_options());
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
