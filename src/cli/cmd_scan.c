/* cmd_scan.c - `hgridopt scan`: T as a function of L for every cell-size
 * method and algorithm (the data behind KOL 2014 figs. 4-9). */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_ALGORITHM = CLI_OPT_FIRST_COMMAND,
    OPT_METHOD,
    OPT_MAX_LEVELS,
    OPT_Q,
    OPT_ALPHA_RANGE,
    OPT_OMEGA_RANGE
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
            "non-empty levels.\n\n"
            "Sweep over power laws (the data of KOL 2014 figs. 3-5, 7, 8) "
            "instead of --psd:\n"
            "  --omega-range R  omega values: LO:HI:N (N log-spaced values) "
            "or a list W1,W2,..\n"
            "  --alpha-range R  alpha values: LO:HI:N (N evenly spaced) or a "
            "list (default -3)\n"
            "  one row per (alpha, omega, method, algorithm): the best L and "
            "its T\n\n%s\n"
            "Examples:\n"
            "  hgridopt scan --psd powerlaw:alpha=-3,omega=100 --dim 3 "
            "--nu 0.7 --max-levels 20\n"
            "  hgridopt scan --dim 3 --nu 0.7 --alpha-range -3,0 "
            "--omega-range 2:1000:12 --method optimal\n",
            cli_system_help);
}

/* "LO:HI:N" (N values, log-spaced when logscale) or "V1,V2,...". */
static int parse_range(const char *text, const char *field, int logscale,
                       double **v, int *n, hg_err *e)
{
    if (!strchr(text, ':'))
        return cli_parse_list(text, field, v, n, e);
    char buf[128];
    if (strlen(text) >= sizeof buf)
        return hg_fail(e, HG_EPARSE, "%s: '%s' is too long", field, text);
    strcpy(buf, text);
    char *a = buf, *b = strchr(a, ':'), *c = b ? strchr(b + 1, ':') : NULL;
    if (!b || !c || strchr(c + 1, ':'))
        return hg_fail(e, HG_EPARSE, "%s: '%s' is not LO:HI:N", field, text);
    *b++ = '\0';
    *c++ = '\0';
    double lo, hi;
    long cnt;
    int st;
    if ((st = hg_parse_double(a, field, &lo, e)) ||
        (st = hg_parse_double(b, field, &hi, e)) ||
        (st = hg_parse_long(c, field, 1, 1000, &cnt, e)))
        return st;
    if (logscale && !(lo > 0.0 && hi > 0.0))
        return hg_fail(e, HG_EINVAL, "%s: '%s' needs LO, HI > 0", field,
                       text);
    *v = malloc(sizeof **v * (size_t)cnt);
    if (!*v)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    for (long i = 0; i < cnt; i++) {
        double t = cnt == 1 ? 0.0 : (double)i / (double)(cnt - 1);
        (*v)[i] = logscale ? lo * pow(hi / lo, t) : lo + t * (hi - lo);
    }
    *n = (int)cnt;
    return HG_OK;
}

static void write_csv(FILE *out, const hg_curve *cv, int n)
{
    fprintf(out, "method,algorithm,levels,nonempty_levels,"
                 "work_per_particle,T_cd,T_ca,cell_sizes\n");
    for (int k = 0; k < n; k++)
        for (int i = 0; i < cv[k].n; i++) {
            const hg_curve_point *p = &cv[k].points[i];
            fprintf(out, "%s,%s,%d,%d,%.10g,%.10g,%.10g,",
                    hg_recipe_name(cv[k].recipe),
                    hg_algorithm_name(cv[k].model->grid_algorithm), p->levels,
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
    cJSON_AddNumberToObject(j, "K", cs->K);
    cJSON *rows = cJSON_AddArrayToObject(j, "rows");
    for (int k = 0; k < n; k++)
        for (int i = 0; i < cv[k].n; i++) {
            const hg_curve_point *p = &cv[k].points[i];
            cJSON *r = cJSON_CreateObject();
            cJSON_AddStringToObject(r, "method", hg_recipe_name(cv[k].recipe));
            cJSON_AddStringToObject(
                r, "algorithm", hg_algorithm_name(cv[k].model->grid_algorithm));
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

typedef struct sweep_row {
    double alpha, omega, T_lc;
    hg_recipe method;
    hg_algorithm algorithm;
    hg_curve_point best; /* sizes not owned */
} sweep_row;

/* Best point of every (alpha, omega, method, algorithm) for power laws. */
static int run_sweep(const cli_system *cs, const int *algs, int nalg,
                     const int *methods, int nm, double q, int lmax,
                     const double *alphas, int na, const double *omegas,
                     int no, const char *format)
{
    size_t nrows = (size_t)na * (size_t)no * (size_t)nm * (size_t)nalg;
    sweep_row *rows = calloc(nrows, sizeof *rows);
    if (!rows) {
        cli_error("out of memory");
        return CLI_EDATA;
    }
    hg_psd_ctx ctx = {cs->sys.dim, NULL};
    size_t k = 0;
    int rc = CLI_OK;
    for (int ia = 0; ia < na && !rc; ia++)
        for (int io = 0; io < no && !rc; io++) {
            char spec[128];
            snprintf(spec, sizeof spec, "powerlaw:alpha=%.17g,omega=%.17g",
                     alphas[ia], omegas[io]);
            hg_psd *psd = NULL;
            hg_cost lc = {0};
            hg_err e = {0};
            int st = hg_psd_parse(spec, &ctx, &psd, &e);
            if (!st)
                st = hg_cost_evaluate(hg_model_find("linked-cell"), psd,
                                      &cs->sys, &cs->values, 1, NULL, &lc,
                                      NULL, &e);
            hg_cost_clear(&lc);
            for (int im = 0; im < nm && !st; im++)
                for (int a = 0; a < nalg && !st; a++) {
                    hg_curve cv;
                    st = hg_curve_compute(
                        hg_model_for_grid((hg_algorithm)algs[a]), psd,
                        &cs->sys, &cs->values, (hg_recipe)methods[im], q,
                        lmax, &cv, &e);
                    if (st)
                        break;
                    int b = 0;
                    for (int i = 1; i < cv.n; i++)
                        if (cv.points[i].T < cv.points[b].T)
                            b = i;
                    sweep_row *r = &rows[k++];
                    r->alpha = alphas[ia];
                    r->omega = omegas[io];
                    r->T_lc = lc.T;
                    r->method = (hg_recipe)methods[im];
                    r->algorithm = (hg_algorithm)algs[a];
                    r->best = cv.points[b];
                    r->best.sizes = NULL;
                    hg_curve_clear(&cv);
                }
            hg_psd_free(psd);
            if (st)
                rc = cli_fail(&e, st, 0);
        }
    if (!rc) {
        FILE *out = cli_open_output(cs->output);
        if (!out) {
            rc = CLI_EDATA;
        } else if (!strcmp(format, "json")) {
            cJSON *j = cJSON_CreateObject();
            cJSON_AddStringToObject(j, "schema", "hgridopt.sweep/1");
            cJSON_AddNumberToObject(j, "dim", cs->sys.dim);
            cJSON_AddNumberToObject(j, "nu", cs->sys.nu);
            cJSON_AddNumberToObject(j, "K", cs->K);
            cJSON_AddNumberToObject(j, "max_levels", lmax);
            cJSON *arr = cJSON_AddArrayToObject(j, "rows");
            for (size_t i = 0; i < k; i++) {
                cJSON *r = cJSON_CreateObject();
                cJSON_AddNumberToObject(r, "alpha", rows[i].alpha);
                cJSON_AddNumberToObject(r, "omega", rows[i].omega);
                cJSON_AddStringToObject(r, "method",
                                        hg_recipe_name(rows[i].method));
                cJSON_AddStringToObject(r, "algorithm",
                                        hg_algorithm_name(rows[i].algorithm));
                cJSON_AddNumberToObject(r, "levels", rows[i].best.levels);
                cJSON_AddNumberToObject(r, "nonempty_levels",
                                        rows[i].best.nonempty_levels);
                cJSON_AddNumberToObject(r, "work_per_particle",
                                        rows[i].best.T);
                cJSON_AddNumberToObject(r, "T_cd", rows[i].best.T_cd);
                cJSON_AddNumberToObject(r, "T_ca", rows[i].best.T_ca);
                cJSON_AddNumberToObject(r, "linked_cell_work_per_particle",
                                        rows[i].T_lc);
                cJSON_AddItemToArray(arr, r);
            }
            rc = cli_json_print(out, j);
        } else {
            fprintf(out, "alpha,omega,method,algorithm,levels,"
                         "nonempty_levels,work_per_particle,T_cd,T_ca,"
                         "linked_cell_work_per_particle\n");
            for (size_t i = 0; i < k; i++)
                fprintf(out, "%.10g,%.10g,%s,%s,%d,%d,%.10g,%.10g,%.10g,"
                             "%.10g\n",
                        rows[i].alpha, rows[i].omega,
                        hg_recipe_name(rows[i].method),
                        hg_algorithm_name(rows[i].algorithm),
                        rows[i].best.levels, rows[i].best.nonempty_levels,
                        rows[i].best.T, rows[i].best.T_cd, rows[i].best.T_ca,
                        rows[i].T_lc);
        }
        if (out) {
            int rc2 = cli_close_output(out, cs->output);
            if (!rc)
                rc = rc2;
        }
    }
    free(rows);
    return rc;
}

int cmd_scan(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_SYSTEM_LONG_OPTIONS,
        {"algorithm", required_argument, NULL, OPT_ALGORITHM},
        {"method", required_argument, NULL, OPT_METHOD},
        {"max-levels", required_argument, NULL, OPT_MAX_LEVELS},
        {"q", required_argument, NULL, OPT_Q},
        {"alpha-range", required_argument, NULL, OPT_ALPHA_RANGE},
        {"omega-range", required_argument, NULL, OPT_OMEGA_RANGE},
        {NULL, 0, NULL, 0}};
    cli_system cs = {0};
    const char *alg_text = NULL, *method_text = NULL, *lmax_text = NULL,
               *q_text = NULL, *alpha_text = NULL, *omega_text = NULL;
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
        case OPT_ALPHA_RANGE: alpha_text = optarg; break;
        case OPT_OMEGA_RANGE: omega_text = optarg; break;
        default: return cli_bad_option("scan", c, argv[optind - 1]);
        }
    }
    static const char *const formats[] = {"csv", "json", NULL};
    const char *format = NULL;
    int rc;
    if (cli_options_done("scan", &cs, argc, argv, help, formats, &format,
                         &rc))
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
    int methods[HG_RECIPE_COUNT], nm = 0;
    if (method_text && strcmp(method_text, "all")) {
        hg_recipe m;
        if (hg_recipe_parse(method_text, &m, &e)) {
            cli_error("--%s", e.msg);
            return CLI_EUSAGE;
        }
        methods[nm++] = m;
    } else {
        for (int m = 0; m < HG_RECIPE_COUNT; m++)
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
    if (alpha_text && !omega_text) {
        cli_error("--alpha-range: needs --omega-range (a sweep over power "
                  "laws)");
        return CLI_EUSAGE;
    }
    if (omega_text) {
        if (cs.psd_spec) {
            cli_error("--psd: not with --omega-range (the sweep makes its "
                      "own power laws)");
            return CLI_EUSAGE;
        }
        double *alphas = NULL, *omegas = NULL;
        int na = 0, no = 0, st;
        if (alpha_text)
            st = parse_range(alpha_text, "--alpha-range", 0, &alphas, &na,
                             &e);
        else
            st = cli_parse_list("-3", "--alpha-range", &alphas, &na, &e);
        if (!st)
            st = parse_range(omega_text, "--omega-range", 1, &omegas, &no,
                             &e);
        for (int i = 0; !st && i < no; i++)
            if (!(omegas[i] > 1.0))
                st = hg_fail(&e, HG_EINVAL,
                             "--omega-range: %g must be > 1", omegas[i]);
        if (st) {
            free(alphas);
            free(omegas);
            return cli_fail(&e, st, 0);
        }
        cs.psd_spec = "powerlaw:alpha=0,omega=2"; /* only dim, nu, K used */
        if (!(rc = cli_system_resolve(&cs, 1)))
            rc = run_sweep(&cs, algs, nalg, methods, nm, q, (int)lmax,
                           alphas, na, omegas, no, format);
        free(alphas);
        free(omegas);
        goto done;
    }
    if ((rc = cli_system_resolve(&cs, 1)))
        goto done;
    hg_curve cv[2 * HG_RECIPE_COUNT];
    int n = 0;
    for (int i = 0; i < nm && !rc; i++)
        for (int a = 0; a < nalg && !rc; a++) {
            int st = hg_curve_compute(
                hg_model_for_grid((hg_algorithm)algs[a]), cs.psd, &cs.sys,
                &cs.values, (hg_recipe)methods[i], q, (int)lmax, &cv[n], &e);
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
