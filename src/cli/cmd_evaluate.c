/* cmd_evaluate.c - `hgridopt evaluate`: the cost model for given sizes. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_SIZES = CLI_OPT_FIRST_COMMAND, OPT_ALGORITHM };

static void help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt evaluate --psd SPEC --dim 2|3 --nu X "
            "--sizes s1,...,sL [options]\n\n"
            "Evaluate the KOL 2014 cost model (pair checks T_cd, cell "
            "accesses T_ca,\nwork T = T_cd + K T_ca per particle) for given "
            "cell sizes, per level and in total.\n\n"
            "  --sizes LIST     cell edge lengths s_1..s_L in the "
            "distribution's units,\n"
            "                   strictly ascending; the last >= the largest "
            "diameter\n"
            "  --algorithm A    top-down (default) or bottom-up\n"
            "  --format F       table (default) or json\n\n%s\n"
            "Example:\n"
            "  hgridopt evaluate --psd powerlaw:alpha=-3,omega=20 --dim 2 "
            "--nu 0.4 \\\n      --sizes 4.0,7.9,15.1,27.2,40\n",
            cli_system_help);
}

static cJSON *to_json(const cli_system *cs, const hg_cost *c,
                      const hg_cost *lc, const double *sizes)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "schema", "hgridopt.evaluation/1");
    if (cs->name)
        cJSON_AddStringToObject(j, "name", cs->name);
    cJSON_AddStringToObject(j, "distribution", hg_psd_spec(cs->psd));
    cJSON_AddNumberToObject(j, "r_min", hg_psd_rmin(cs->psd));
    cJSON_AddNumberToObject(j, "r_max", hg_psd_rmax(cs->psd));
    cJSON_AddStringToObject(j, "algorithm", hg_algorithm_name(c->model->grid_algorithm));
    cJSON_AddNumberToObject(j, "dim", c->dim);
    cJSON_AddNumberToObject(j, "nu", c->nu);
    cJSON_AddNumberToObject(j, "K", c->K);
    cJSON_AddNumberToObject(j, "levels", c->levels);
    cJSON_AddNumberToObject(j, "nonempty_levels", c->nonempty_levels);
    cli_json_add_array(j, "cell_sizes", sizes, c->levels);
    cli_json_add_per_level(j, c);
    cJSON_AddNumberToObject(j, "T_cd", c->T_cd);
    cJSON_AddNumberToObject(j, "T_ca", c->T_ca);
    cJSON_AddNumberToObject(j, "work_per_particle", c->T);
    cJSON_AddNumberToObject(j, "linked_cell_work_per_particle", lc->T);
    cJSON_AddNumberToObject(j, "speedup_vs_linked_cell", lc->T / c->T);
    return j;
}

int cmd_evaluate(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_SYSTEM_LONG_OPTIONS,
        {"sizes", required_argument, NULL, OPT_SIZES},
        {"algorithm", required_argument, NULL, OPT_ALGORITHM},
        {NULL, 0, NULL, 0}};
    cli_system cs = {0};
    const char *sizes_text = NULL, *alg_text = "top-down";
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        if (cli_system_option(&cs, c, optarg))
            continue;
        switch (c) {
        case OPT_SIZES: sizes_text = optarg; break;
        case OPT_ALGORITHM: alg_text = optarg; break;
        default: return cli_bad_option("evaluate", c, argv[optind - 1]);
        }
    }
    static const char *const formats[] = {"table", "json", NULL};
    const char *format = NULL;
    int rc;
    if (cli_options_done("evaluate", &cs, argc, argv, help, formats, &format,
                         &rc))
        return rc;
    hg_err e = {0};
    hg_algorithm alg;
    if (hg_algorithm_parse(alg_text, &alg, &e)) {
        cli_error("--algorithm: unknown value '%s' (top-down or bottom-up)",
                  alg_text);
        return CLI_EUSAGE;
    }
    if (!sizes_text) {
        cli_error("--sizes: missing (give the cell sizes s_1,...,s_L; the "
                  "last must cover the largest diameter)");
        return CLI_EUSAGE;
    }
    double *sizes = NULL;
    int L = 0;
    int st = cli_parse_list(sizes_text, "--sizes", &sizes, &L, &e);
    if (st)
        return cli_fail(&e, st, 0);
    if ((rc = cli_system_resolve(&cs, 1)))
        goto done;
    st = hg_sizes_check(cs.psd, L, sizes, 1, &e);
    if (st) {
        if (sizes[L - 1] < 2.0 * hg_psd_rmax(cs.psd) * (1 - 1e-12))
            cli_error("--sizes: the last cell size %g is below the largest "
                      "particle diameter %g; add a level of size >= %g",
                      sizes[L - 1], 2.0 * hg_psd_rmax(cs.psd),
                      2.0 * hg_psd_rmax(cs.psd));
        else
            cli_error("--%s", e.msg);
        rc = CLI_EUSAGE;
        goto done;
    }
    hg_cost cost = {0}, lc = {0};
    st = hg_cost_evaluate(hg_model_for_grid(alg), cs.psd, &cs.sys, &cs.values,
                          L, sizes, &cost, NULL, &e);
    if (!st)
        st = hg_cost_evaluate(hg_model_find("linked-cell"), cs.psd, &cs.sys,
                              &cs.values, 1, NULL, &lc, NULL, &e);
    if (st) {
        rc = cli_fail(&e, st, 1);
        hg_cost_clear(&cost);
        goto done;
    }
    FILE *out = cli_open_output(cs.output);
    if (!out) {
        rc = CLI_EDATA;
    } else {
        if (!strcmp(format, "json")) {
            cli_json_print(out, to_json(&cs, &cost, &lc, sizes));
        } else {
            cli_print_system(out, &cs);
            fprintf(out, "algorithm:      %s, %d levels (%d non-empty)\n\n",
                    hg_algorithm_name(alg), L, cost.nonempty_levels);
            cli_print_levels(out, &cost, hg_psd_rmin(cs.psd), cs.unit);
            fprintf(out,
                    "\nwork per particle T = T_cd + K T_ca = %.6g + %.6g x "
                    "%.6g = %.6g\n",
                    cost.T_cd, cs.K, cost.T_ca, cost.T);
            fprintf(out,
                    "linked cell (one level, s = %.6g): T = %.6g  -> "
                    "predicted speed-up %.4g\n",
                    2.0 * hg_psd_rmax(cs.psd), lc.T, lc.T / cost.T);
        }
        rc = cli_close_output(out, cs.output);
    }
    hg_cost_clear(&cost);
    hg_cost_clear(&lc);
done:
    free(sizes);
    cli_system_clear(&cs);
    return rc;
}
