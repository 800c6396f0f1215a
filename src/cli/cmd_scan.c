/* cmd_scan.c - `hgridopt scan`: T as a function of L for every cell-size
 * method and algorithm (the data behind KOL 2014 figs. 4-9). */
#include "cli.h"
#include "hg_figure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct scan_opts {
    const char *method, *alpha_range, *omega_range;
    long max_levels;
    double q;
} scan_opts;

static const cli_option options[] = {
    CLI_STR("method", scan_opts, method),
    CLI_LONG("max-levels", scan_opts, max_levels, 1, 256),
    CLI_DOUBLE("q", scan_opts, q, CLI_POSITIVE),
    CLI_STR("alpha-range", scan_opts, alpha_range),
    CLI_STR("omega-range", scan_opts, omega_range),
};

static void help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt scan --psd SPEC --dim 2|3 --nu X [options]\n\n"
            "Predicted work per particle T(L) for L = 1..N levels, for "
            "every cell-size method\nand algorithm: one row per (method, "
            "algorithm, L).\n\n"
            "  --model NAME     all (default), hgrid-top-down or "
            "hgrid-bottom-up;\n"
            "                   --algorithm A: all, top-down or bottom-up\n"
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
            "its T, and\n  the T of the linked cell and of bin (bins of half "
            "the cutoff)\n%s%s\n%s\n"
            "Examples:\n"
            "  hgridopt scan --psd powerlaw:alpha=-3,omega=100 --dim 3 "
            "--nu 0.7 --max-levels 20\n"
            "  hgridopt scan --dim 3 --nu 0.7 --alpha-range -3,0 "
            "--omega-range 2:1000:12 --method optimal\n\n%s",
            cli_output_help, cli_plot_help, cli_system_help, cli_exit_help);
}

/* "LO:HI:N" (N values, log-spaced when logscale) or "V1,V2,...". */
static int parse_range(const char *text, const char *field, int logscale,
                       double **v, size_t *n, hg_err *e)
{
    if (!strchr(text, ':'))
        return hg_parse_list(text, ',', field, v, n, e);
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
    *n = (size_t)cnt;
    return HG_OK;
}

/* C of model m as evaluated (its tables' weight in work_per_particle; 0
 * for a model without it) */
static double table_cost(const cli_system *cs, const hg_model *m)
{
    double C = 0.0;
    if (hg_model_param_index(m, "C") >= 0)
        hg_model_values_get(&cs->c.values, "C", &C);
    return C;
}

static void write_csv(FILE *out, const cli_system *cs, const hg_curve *cv,
                      int n)
{
    fprintf(out, "method,algorithm,levels,nonempty_levels,"
                 "work_per_particle,T_cd,T_ca,K,K_source,C,cell_sizes\n");
    for (int k = 0; k < n; k++)
        for (int i = 0; i < cv[k].n; i++) {
            const hg_curve_point *p = &cv[k].points[i];
            fprintf(out, "%s,%s,%d,%d,%.10g,%.10g,%.10g,%.10g,%s,%.10g,",
                    hg_recipe_name(cv[k].recipe),
                    hg_algorithm_name(cv[k].model->grid_algorithm), p->levels,
                    p->nonempty_levels, p->T, p->T_cd, p->T_ca, cs->c.K,
                    hg_K_source_name(cs->c.Kc.source),
                    table_cost(cs, cv[k].model));
            for (int h = 0; h < p->levels; h++)
                fprintf(out, "%s%.10g", h ? ";" : "", p->sizes[h]);
            fputc('\n', out);
        }
}

static int write_json(FILE *out, const cli_system *cs, const hg_curve *cv,
                      int n)
{
    cJSON *j = cli_json_document("hgridopt.scan/1", cs);
    if (cs->c.name)
        cJSON_AddStringToObject(j, "name", cs->c.name);
    cJSON_AddStringToObject(j, "distribution", hg_psd_spec(cs->c.psd));
    cJSON_AddNumberToObject(j, "r_min", hg_psd_rmin(cs->c.psd));
    cJSON_AddNumberToObject(j, "r_max", hg_psd_rmax(cs->c.psd));
    cJSON_AddNumberToObject(j, "dim", cs->c.sys.dim);
    cJSON_AddNumberToObject(j, "nu", cs->c.sys.nu);
    cJSON_AddStringToObject(j, "structure",
                            hg_structure_name(cs->c.sys.structure));
    cli_json_add_snapshot(j, cs);
    cli_json_add_K(j, cs);
    cJSON *rows = cJSON_AddArrayToObject(j, "rows");
    for (int k = 0; k < n; k++)
        for (int i = 0; i < cv[k].n; i++) {
            const hg_curve_point *p = &cv[k].points[i];
            cJSON *r = cJSON_CreateObject();
            cJSON_AddStringToObject(r, "method", hg_recipe_name(cv[k].recipe));
            cJSON_AddStringToObject(r, "model", cv[k].model->name);
            cJSON_AddStringToObject(
                r, "algorithm", hg_algorithm_name(cv[k].model->grid_algorithm));
            cJSON_AddNumberToObject(r, "levels", p->levels);
            cJSON_AddNumberToObject(r, "nonempty_levels", p->nonempty_levels);
            cJSON_AddNumberToObject(r, "work_per_particle", p->T);
            cJSON_AddNumberToObject(r, "T_cd", p->T_cd);
            cJSON_AddNumberToObject(r, "T_ca", p->T_ca);
            double C = table_cost(cs, cv[k].model);
            if (C > 0.0) /* work_per_particle - T_cd - K T_ca = C T_tab */
                cJSON_AddNumberToObject(r, "C", C);
            cli_json_add_array(r, "cell_sizes", p->sizes, p->levels);
            cJSON_AddItemToArray(rows, r);
        }
    return cli_json_print(out, j);
}

typedef struct curves_output {
    const cli_system *cs;
    const hg_curve *cv;
    int n;
} curves_output;

static int write_curves(FILE *out, const void *ctx)
{
    const curves_output *w = ctx;
    if (!strcmp(w->cs->opt.format, "json"))
        return write_json(out, w->cs, w->cv, w->n);
    write_csv(out, w->cs, w->cv, w->n);
    return CLI_OK;
}


typedef struct sweep_output {
    const cli_system *cs;
    const hg_sweep_row *rows;
    size_t k;
    int lmax;
} sweep_output;

static int write_sweep(FILE *out, const void *ctx)
{
    const sweep_output *w = ctx;
    const cli_system *cs = w->cs;
    const hg_sweep_row *rows = w->rows;
    size_t k = w->k;
    int lmax = w->lmax;
    if (!strcmp(cs->opt.format, "json")) {
        cJSON *j = cli_json_document("hgridopt.sweep/1", cs);
        cJSON_AddNumberToObject(j, "dim", cs->c.sys.dim);
        cJSON_AddNumberToObject(j, "nu", cs->c.sys.nu);
        cJSON_AddStringToObject(j, "structure",
                                hg_structure_name(cs->c.sys.structure));
        cli_json_add_K(j, cs);
        cJSON_AddNumberToObject(j, "max_levels", lmax);
        cJSON *arr = cJSON_AddArrayToObject(j, "rows");
        for (size_t i = 0; i < k; i++) {
            cJSON *r = cJSON_CreateObject();
            cJSON_AddNumberToObject(r, "alpha", rows[i].alpha);
            cJSON_AddNumberToObject(r, "omega", rows[i].omega);
            cJSON_AddStringToObject(r, "method",
                                    hg_recipe_name(rows[i].recipe));
            cJSON_AddStringToObject(r, "model", rows[i].model->name);
            cJSON_AddStringToObject(
                r, "algorithm",
                hg_algorithm_name(rows[i].model->grid_algorithm));
            cJSON_AddNumberToObject(r, "levels", rows[i].levels);
            cJSON_AddNumberToObject(r, "nonempty_levels",
                                    rows[i].nonempty_levels);
            cJSON_AddNumberToObject(r, "work_per_particle",
                                    rows[i].T);
            cJSON_AddNumberToObject(r, "T_cd", rows[i].T_cd);
            cJSON_AddNumberToObject(r, "T_ca", rows[i].T_ca);
            cJSON_AddNumberToObject(r, "linked_cell_work_per_particle",
                                    rows[i].T_linked_cell);
            cJSON_AddNumberToObject(r, "bin_work_per_particle",
                                    rows[i].T_bin);
            double C = table_cost(cs, rows[i].model);
            if (C > 0.0)
                cJSON_AddNumberToObject(r, "C", C);
            cJSON_AddItemToArray(arr, r);
        }
        return cli_json_print(out, j);
    }
    fprintf(out, "alpha,omega,method,algorithm,levels,"
                 "nonempty_levels,work_per_particle,T_cd,T_ca,"
                 "linked_cell_work_per_particle,bin_work_per_particle,K,"
                 "K_source,C\n");
    for (size_t i = 0; i < k; i++)
        fprintf(out, "%.10g,%.10g,%s,%s,%d,%d,%.10g,%.10g,%.10g,"
                     "%.10g,%.10g,%.10g,%s,%.10g\n",
                rows[i].alpha, rows[i].omega,
                hg_recipe_name(rows[i].recipe),
                hg_algorithm_name(rows[i].model->grid_algorithm),
                rows[i].levels, rows[i].nonempty_levels,
                rows[i].T, rows[i].T_cd, rows[i].T_ca,
                rows[i].T_linked_cell, rows[i].T_bin, cs->c.K,
                hg_K_source_name(cs->c.Kc.source),
                table_cost(cs, rows[i].model));
    return CLI_OK;
}

/* The sweep as a figure: best L and T against omega, a series per (alpha,
 * method, model). */
static int plot_sweep(const char *path, const hg_sweep_row *rows, size_t k)
{
    hg_figure_sweep_point *pts = calloc(k > 0 ? k : 1, sizeof *pts);
    char(*labels)[96] = calloc(k > 0 ? k : 1, sizeof *labels);
    hg_err e = {0};
    int st = HG_ENOMEM;
    if (pts && labels) {
        for (size_t i = 0; i < k; i++) {
            snprintf(labels[i], sizeof labels[i], "alpha = %g, %s, %s",
                     rows[i].alpha, hg_recipe_name(rows[i].recipe),
                     rows[i].model->name);
            pts[i] = (hg_figure_sweep_point){labels[i], rows[i].alpha,
                                       rows[i].omega,
                                       rows[i].nonempty_levels,
                                       rows[i].T};
        }
        st = hg_figure_sweep(path, pts, k, &e);
    } else {
        hg_fail(&e, st, "plot: out of memory");
    }
    free(pts);
    free(labels);
    return st ? cli_fail(&e, st, 1) : CLI_OK;
}

/* Best point of every (alpha, omega, method, algorithm) for power laws
 * (hg_sweep_powerlaw), written and plotted. */
static int run_sweep(const cli_system *cs, const hg_model *const *models,
                     int nalg,
                     const int *methods, int nm, double q, int lmax,
                     const double *alphas, size_t na, const double *omegas,
                     size_t no)
{
    hg_recipe recipes[HG_RECIPE_COUNT];
    for (int i = 0; i < nm && i < HG_RECIPE_COUNT; i++)
        recipes[i] = (hg_recipe)methods[i];
    hg_sweep sw;
    hg_err e = {0};
    int st = hg_sweep_powerlaw(&cs->c.sys, &cs->c.values, models, nalg, recipes,
                               nm < HG_RECIPE_COUNT ? nm : HG_RECIPE_COUNT,
                               q, lmax, alphas, na, omegas, no, &sw, &e);
    if (st)
        return cli_fail(&e, st, 0);
    sweep_output w = {cs, sw.rows, sw.n, lmax};
    int rc = cli_write(cs->opt.output, write_sweep, &w);
    if (!rc && cs->opt.plot)
        rc = plot_sweep(cs->opt.plot, sw.rows, sw.n);
    hg_sweep_clear(&sw);
    return rc;
}

static const char *const formats[] = {"csv", "json", NULL};
static const cli_spec spec = {"scan", help,
                              CLI_SYSTEM | CLI_MODEL | CLI_FORMAT | CLI_OUTPUT |
                                  CLI_PLOT,
                              options, sizeof options / sizeof options[0],
                              formats};

int cmd_scan(int argc, char **argv)
{
    scan_opts o = {NULL, NULL, NULL, 32, 1.0};
    cli_system cs = {0};
    int rc;
    if (cli_parse(&spec, argc, argv, &cs.opt, &o, &rc))
        return rc;
    const char *method_text = o.method, *alpha_text = o.alpha_range,
               *omega_text = o.omega_range;
    long lmax = o.max_levels;
    double q = o.q;
    hg_err e = {0};
    static const char *const words[] = {"all", NULL};
    const hg_model *model;
    const char *word;
    const hg_model *models[2] = {hg_model_find("hgrid-top-down"),
                                 hg_model_find("hgrid-bottom-up")};
    int nalg = 2;
    if ((rc = cli_model_resolve(&cs.opt, words, NULL, &model, &word)))
        return rc;
    if (model) {
        models[0] = model;
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
    if (alpha_text && !omega_text) {
        cli_error("--alpha-range: needs --omega-range (a sweep over power "
                  "laws)");
        return CLI_EUSAGE;
    }
    if (omega_text) {
        if (cs.opt.psd_spec) {
            cli_error("--psd: not with --omega-range (the sweep makes its "
                      "own power laws)");
            return CLI_EUSAGE;
        }
        double *alphas = NULL, *omegas = NULL;
        size_t na = 0, no = 0;
        int st;
        if (alpha_text)
            st = parse_range(alpha_text, "--alpha-range", 0, &alphas, &na,
                             &e);
        else
            st = hg_parse_list("-3", ',', "--alpha-range", &alphas, &na, &e);
        if (!st)
            st = parse_range(omega_text, "--omega-range", 1, &omegas, &no,
                             &e);
        for (size_t i = 0; !st && i < no; i++)
            if (!(omegas[i] > 1.0))
                st = hg_fail(&e, HG_EINVAL,
                             "--omega-range: %g must be > 1", omegas[i]);
        if (st) {
            free(alphas);
            free(omegas);
            return cli_fail(&e, st, 0);
        }
        cs.opt.psd_spec = "powerlaw:alpha=0,omega=2"; /* only dim, nu, K used */
        if (!(rc = cli_system_resolve(&cs, 1)))
            rc = run_sweep(&cs, models, nalg, methods, nm, q, (int)lmax,
                           alphas, na, omegas, no);
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
            int st = hg_curve_compute(models[a], cs.c.psd, &cs.c.sys, &cs.c.values,
                                      (hg_recipe)methods[i], q, (int)lmax,
                                      &cv[n], &e);
            if (st)
                rc = cli_fail(&e, st, 1);
            else
                n++;
        }
    if (!rc) {
        curves_output w = {&cs, cv, n};
        rc = cli_write(cs.opt.output, write_curves, &w);
    }
    if (!rc && cs.opt.plot) {
        char title[256];
        snprintf(title, sizeof title,
                 "Work per particle against levels (%dD, nu = %g, K = %g)",
                 cs.c.sys.dim, cs.c.sys.nu, cs.c.K);
        int st = hg_figure_curves(cs.opt.plot, cv, n, title, &e);
        if (st)
            rc = cli_fail(&e, st, 1);
    }
    for (int i = 0; i < n; i++)
        hg_curve_clear(&cv[i]);
done:
    cli_system_clear(&cs);
    return rc;
}
