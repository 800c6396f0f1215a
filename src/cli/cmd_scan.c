/* cmd_scan.c - `hgridopt scan`: T as a function of L for every cell-size
 * method and algorithm (the data behind KOL 2014 figs. 4-9). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum {
    OPT_ALGORITHM = CLI_OPT_FIRST_COMMAND,
    OPT_METHOD,
    OPT_MAX_LEVELS,
    OPT_Q
};

static void help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt scan --psd SPEC --dim 2|3 --nu X [options]\n\n"
            "Predicted work per particle T(L) for L = 1..N levels, for "
            "every cell-size method\nand algorithm: one row per (method, "
            "algorithm, L).\n\n"
            "  --algorithm A    all (default), top-down or bottom-up\n"
            "  --method M       all (default), optimal, constant-m, "
            "exponential or linear\n"
            "  --q Q            particles-per-cell ratio of constant-m "
            "(default 1)\n"
            "  --max-levels N   L = 1..N (default 32, at most 256)\n"
            "  --format F       csv (default) or json\n\n"
            "For the optimal method, row L is the best grid with at most L "
            "non-empty levels.\n\n%s\n"
            "Example:\n"
            "  hgridopt scan --psd powerlaw:alpha=-3,omega=100 --dim 3 "
            "--nu 0.7 --max-levels 20\n",
            cli_system_help);
}

static void write_csv(FILE *out, const hg_curve *cv, int n)
{
    fprintf(out, "method,algorithm,levels,nonempty_levels,"
                 "work_per_particle,T_cd,T_ca,cell_sizes\n");
    for (int k = 0; k < n; k++)
        for (int i = 0; i < cv[k].n; i++) {
            const hg_curve_point *p = &cv[k].points[i];
            fprintf(out, "%s,%s,%d,%d,%.10g,%.10g,%.10g,",
                    hg_method_name(cv[k].method),
                    hg_algorithm_name(cv[k].algorithm), p->levels,
                    p->nonempty_levels, p->T, p->T_cd, p->T_ca);
            for (int h = 0; h < p->levels; h++)
                fprintf(out, "%s%.10g", h ? ";" : "", p->sizes[h]);
            fputc('\n', out);
        }
}

static int write_json(FILE *out, const cli_system *cs, const hg_curve *cv,
                      int n)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "schema", "hgridopt.scan/1");
    if (cs->name)
        cJSON_AddStringToObject(j, "name", cs->name);
    cJSON_AddStringToObject(j, "distribution", hg_psd_spec(cs->psd));
    cJSON_AddNumberToObject(j, "r_min", hg_psd_rmin(cs->psd));
    cJSON_AddNumberToObject(j, "r_max", hg_psd_rmax(cs->psd));
    cJSON_AddNumberToObject(j, "dim", cs->sys.dim);
    cJSON_AddNumberToObject(j, "nu", cs->sys.nu);
    cJSON_AddNumberToObject(j, "K", cs->sys.K);
    cJSON *rows = cJSON_AddArrayToObject(j, "rows");
    for (int k = 0; k < n; k++)
        for (int i = 0; i < cv[k].n; i++) {
            const hg_curve_point *p = &cv[k].points[i];
            cJSON *r = cJSON_CreateObject();
            cJSON_AddStringToObject(r, "method", hg_method_name(cv[k].method));
            cJSON_AddStringToObject(r, "algorithm",
                                    hg_algorithm_name(cv[k].algorithm));
            cJSON_AddNumberToObject(r, "levels", p->levels);
            cJSON_AddNumberToObject(r, "nonempty_levels", p->nonempty_levels);
            cJSON_AddNumberToObject(r, "work_per_particle", p->T);
            cJSON_AddNumberToObject(r, "T_cd", p->T_cd);
            cJSON_AddNumberToObject(r, "T_ca", p->T_ca);
            cli_json_add_array(r, "cell_sizes", p->sizes, p->levels);
            cJSON_AddItemToArray(rows, r);
        }
    return cli_json_print(out, j);
}

int cmd_scan(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_SYSTEM_LONG_OPTIONS,
        {"algorithm", required_argument, NULL, OPT_ALGORITHM},
        {"method", required_argument, NULL, OPT_METHOD},
        {"max-levels", required_argument, NULL, OPT_MAX_LEVELS},
        {"q", required_argument, NULL, OPT_Q},
        {NULL, 0, NULL, 0}};
    cli_system cs = {0};
    const char *alg_text = NULL, *method_text = NULL, *lmax_text = NULL,
               *q_text = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        if (cli_system_option(&cs, c, optarg))
            continue;
        switch (c) {
        case OPT_ALGORITHM: alg_text = optarg; break;
        case OPT_METHOD: method_text = optarg; break;
        case OPT_MAX_LEVELS: lmax_text = optarg; break;
        case OPT_Q: q_text = optarg; break;
        default: return cli_bad_option("scan", c, argv[optind - 1]);
        }
    }
    if (cs.help) {
        help(stdout);
        return CLI_OK;
    }
    if (optind < argc) {
        cli_error("scan: unexpected argument '%s'", argv[optind]);
        return CLI_EUSAGE;
    }
    const char *const formats[] = {"csv", "json", NULL};
    const char *format = cs.format ? cs.format : "csv";
    int rc = cli_check_format("scan", format, formats);
    if (rc)
        return rc;
    hg_err e = {0};
    int algs[2] = {HG_TOP_DOWN, HG_BOTTOM_UP}, nalg = 2;
    if (alg_text && strcmp(alg_text, "all")) {
        hg_algorithm a;
        if (hg_algorithm_parse(alg_text, &a, &e)) {
            cli_error("--algorithm: unknown value '%s' (all, top-down or "
                      "bottom-up)",
                      alg_text);
            return CLI_EUSAGE;
        }
        algs[0] = a;
        nalg = 1;
    }
    int methods[HG_METHOD_COUNT], nm = 0;
    if (method_text && strcmp(method_text, "all")) {
        hg_method m;
        if (hg_method_parse(method_text, &m, &e)) {
            cli_error("--%s", e.msg);
            return CLI_EUSAGE;
        }
        methods[nm++] = m;
    } else {
        for (int m = 0; m < HG_METHOD_COUNT; m++)
            methods[nm++] = m;
    }
    long lmax = 32;
    if (lmax_text &&
        hg_parse_long(lmax_text, "--max-levels", 1, 256, &lmax, &e))
        return cli_fail(&e, HG_EINVAL, 0);
    double q = 1.0;
    if (q_text) {
        if (hg_parse_double(q_text, "--q", &q, &e))
            return cli_fail(&e, HG_EINVAL, 0);
        if (!(q > 0.0)) {
            cli_error("--q: %g must be > 0", q);
            return CLI_EUSAGE;
        }
    }
    if ((rc = cli_system_resolve(&cs, 1)))
        goto done;
    hg_curve cv[2 * HG_METHOD_COUNT];
    int n = 0;
    for (int i = 0; i < nm && !rc; i++)
        for (int a = 0; a < nalg && !rc; a++) {
            int st = hg_curve_compute(cs.psd, &cs.sys, (hg_algorithm)algs[a],
                                      (hg_method)methods[i], q, (int)lmax,
                                      &cv[n], &e);
            if (st)
                rc = cli_fail(&e, st, 1);
            else
                n++;
        }
    if (!rc) {
        FILE *out = cli_open_output(cs.output);
        if (!out) {
            rc = CLI_EDATA;
        } else {
            if (!strcmp(format, "json"))
                rc = write_json(out, &cs, cv, n);
            else
                write_csv(out, cv, n);
            int rc2 = cli_close_output(out, cs.output);
            if (!rc)
                rc = rc2;
        }
    }
    for (int i = 0; i < n; i++)
        hg_curve_clear(&cv[i]);
done:
    cli_system_clear(&cs);
    return rc;
}
