/* cmd_tune.c - `validate --engine lammps` and `tune`: time LAMMPS' neighbor
 * settings against the model's prediction. */
#include "cmd_lammps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- validate / tune --engine lammps ---- */

/* Packing from --packing or generated from the system options. */
static int resolve_packing(cli_system *cs, const lmp_opts *lo,
                           hg_particles *p, hg_err *e)
{
    if (cs->has_packing) {
        *p = cs->packing;
        cs->has_packing = 0; /* ownership moves to p */
        memset(&cs->packing, 0, sizeof cs->packing);
        return HG_OK;
    }
    long n = cs->particles > 0 && lo->n == 50000 ? cs->particles : lo->n;
    return lmp_make_packing(cs->psd, cs->sys.dim, cs->sys.nu, n, lo->seed, p,
                            e);
}

static void validate_help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt validate --engine lammps (--packing FILE | "
            "--psd SPEC --dim D --nu X) [options]\n\n"
            "Run LAMMPS on the packing (or an RSA packing generated from the "
            "system) with\nthe LAMMPS model's recommendation, with bin, and "
            "with the best settings of one\ncollection fewer and one more; "
            "report measured Neigh (and Pair) time per build\nagainst the "
            "model's prediction.\n\n%s"
            "  --max-collections N  largest number of collections tried "
            "(default 6)\n"
            "  --format F       table (default) or json\n\n%s\n"
            "Example:\n  hgridopt validate --engine lammps --psd "
            "powerlaw:alpha=-3,omega=20 --dim 3 --nu 0.4 --mpi 2\n",
            lmp_run_help, cli_system_help);
}

static void tune_help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt tune --engine lammps (--packing FILE | --psd "
            "SPEC --dim D --nu X) [options]\n\n"
            "Starting from the LAMMPS model's optimum, a short measured "
            "search in lmp: bin,\nthe optimum and its neighbours, then "
            "rounds moving each collection cutoff,\nsplitting and merging "
            "collections, while the budget lasts. Prints the fastest\n"
            "settings found (ready to paste) with their measured times.\n\n"
            "  --budget S       wall-clock seconds to spend (default 120)\n"
            "%s"
            "  --max-collections N  largest number of collections (default "
            "6)\n"
            "  --format F       table (default), json or lammps (the "
            "lines only)\n\n%s\n"
            "Example:\n  hgridopt tune --engine lammps --packing bed.data "
            "--budget 300\n",
            lmp_run_help, cli_system_help);
}

static const cli_option validate_options[] = {
    LMP_RUN_OPTIONS,
    CLI_LONG("max-collections", lmp_opts, max_coll, 1,
             HG_LAMMPS_MAX_COLLECTIONS),
};
static const cli_option tune_options[] = {
    LMP_RUN_OPTIONS,
    CLI_LONG("max-collections", lmp_opts, max_coll, 1,
             HG_LAMMPS_MAX_COLLECTIONS),
    CLI_DOUBLE("budget", lmp_opts, budget, CLI_POSITIVE),
};
static const char *const tune_formats[] = {"table", "json", "lammps", NULL};
static const cli_spec validate_spec = {
    "validate", validate_help, CLI_SYSTEM | CLI_FORMAT | CLI_LAMMPS,
    validate_options,
    sizeof validate_options / sizeof validate_options[0], lmp_table_json};
static const cli_spec tune_spec = {
    "tune", tune_help, CLI_SYSTEM | CLI_FORMAT | CLI_LAMMPS, tune_options,
    sizeof tune_options / sizeof tune_options[0], tune_formats};

static int lammps_measured_command(int argc, char **argv, int tune)
{
    cli_system cs = {0};
    lmp_opts lo;
    lmp_opts_default(&lo);
    hg_err e = {0};
    int st, rc;
    if (cli_parse(tune ? &tune_spec : &validate_spec, argc, argv, &cs.opt,
                  &lo, &rc))
        return rc;
    const char *format = cs.opt.format;
    double budget = lo.budget;
    long max_coll = lo.max_coll;
    char lmp[4096];
    if ((st = hg_lammps_find(lo.lmp, lmp, sizeof lmp, &e)))
        return cli_fail(&e, st, 0);
    if ((rc = cli_system_resolve(&cs, 1)))
        goto done_cs;
    hg_lammps_consts k;
    const char *source = "";
    if ((rc = lmp_load_consts(&k, &source)))
        goto done_cs;
    hg_particles p = {0};
    if ((st = resolve_packing(&cs, &lo, &p, &e))) {
        rc = cli_fail(&e, st, 1);
        goto done_p;
    }
    hg_psd *psd = NULL;
    hg_lammps_system sys;
    double skin = lo.skin;
    if (!(skin > 0.0)) {
        double rmin = p.r[0];
        for (size_t i = 1; i < p.n; i++)
            rmin = fmin(rmin, p.r[i]);
        skin = 0.2 * rmin;
    }
    if ((st = hg_lammps_system_of(&p, skin, (int)lo.mpi, &psd, &sys, &e))) {
        rc = cli_fail(&e, st, 1);
        goto done_p;
    }
    /* the structure resolved as for the HGrid commands: --structure,
     * the system file, or detected from the particle file's overlaps */
    sys.structure = cs.sys.structure;
    sys.snapshot = cs.sys.snapshot;
    if (cs.snapshot && cs.sys.structure == HG_STRUCTURE_MEASURED)
        sys.nu = cs.sys.nu; /* the density experienced */
    hg_lammps_run_options ro;
    lmp_run_options(&lo, skin, &ro);
    ro.structure = cs.sys.structure;
    double dmax = 2.0 * hg_psd_rmax(psd);
    if (tune) {
        hg_lammps_tune_result tr;
        st = hg_lammps_tune(&p, &k, &ro, budget, (int)max_coll, &tr, &e);
        if (st) {
            rc = cli_fail(&e, st, 0);
            goto done_psd;
        }
        if (!strcmp(format, "lammps")) {
            char *text = NULL;
            if ((st = hg_lammps_lines(&tr.best.setting, skin, dmax, &text,
                                      &e))) {
                rc = cli_fail(&e, st, 0);
                goto done_psd;
            }
            printf("# --- neighbor settings tuned by hgridopt in LAMMPS %s "
                   "---\n# measured Neigh %.4g ms per build (bin %.4g ms, "
                   "model's optimum %.4g ms)\n%s",
                   "(tune --engine lammps)", 1e3 * tr.best.timing.neigh,
                   1e3 * tr.bin.timing.neigh, 1e3 * tr.model.timing.neigh,
                   text);
            free(text);
        } else if (!strcmp(format, "json")) {
            cJSON *j = cli_json_document("hgridopt.lammps-tune/1", &cs);
            cJSON_AddStringToObject(j, "structure",
                                    hg_structure_name(cs.sys.structure));
            cJSON_AddItemToObject(j, "best", lmp_point_json(&tr.best));
            cJSON_AddItemToObject(j, "model_optimum",
                                  lmp_point_json(&tr.model));
            cJSON_AddItemToObject(j, "bin", lmp_point_json(&tr.bin));
            cJSON_AddNumberToObject(j, "settings_measured", tr.settings);
            cJSON_AddNumberToObject(j, "rounds", tr.rounds);
            cJSON_AddNumberToObject(j, "seconds", tr.seconds);
            cli_json_print(stdout, j);
        } else {
            printf("tune --engine lammps: %zu atoms, %dD, nu %.4g, skin %.4g, "
                   "%d rank%s; %d settings measured in %d rounds, %.0f s\n",
                   p.n, sys.dim, sys.nu, skin, (int)lo.mpi,
                   lo.mpi == 1 ? "" : "s", tr.settings, tr.rounds,
                   tr.seconds);
            cli_print_structure(stdout, &cs);
            printf("model constants: %s\n%s", source, lmp_point_header);
            double bin = tr.bin.timing.neigh;
            lmp_print_point(stdout, "bin", &tr.bin, bin);
            lmp_print_point(stdout, "model optimum", &tr.model, bin);
            lmp_print_point(stdout, "tuned (best)", &tr.best, bin);
            char *text = NULL;
            if (hg_lammps_lines(&tr.best.setting, skin, dmax, &text, &e) ==
                HG_OK) {
                printf("\n%s", text);
                free(text);
            }
        }
        goto done_psd;
    }
    hg_lammps_optimum opt;
    if ((st = hg_lammps_optimise(psd, &sys, &k, (int)max_coll, 0.01, &opt,
                                 &e))) {
        rc = cli_fail(&e, st, 0);
        goto done_psd;
    }
    hg_lammps_setting set[4];
    const char *label[4];
    int n = 0, nb = opt.best.ncoll;
    set[n] = opt.best;
    label[n++] = "recommended";
    if (nb != 0) {
        set[n] = opt.by_n[0];
        label[n++] = "bin";
    }
    if (nb >= 2) {
        set[n] = opt.by_n[nb - 1];
        label[n++] = "one fewer";
    }
    int up = nb == 0 ? 2 : nb + 1;
    if (up <= max_coll && isfinite(opt.by_n_seconds[up])) {
        set[n] = opt.by_n[up];
        label[n++] = nb == 0 ? "multi 2" : "one more";
    }
    hg_lammps_point pts[4];
    if ((st = hg_lammps_measure(&p, set, n, &ro, &k, pts, &e))) {
        rc = cli_fail(&e, st, 0);
        goto done_psd;
    }
    double bin = pts[0].timing.neigh;
    for (int i = 0; i < n; i++)
        if (set[i].ncoll == 0)
            bin = pts[i].timing.neigh;
    int fastest = 0;
    for (int i = 1; i < n; i++)
        if (pts[i].timing.neigh < pts[fastest].timing.neigh)
            fastest = i;
    if (!strcmp(format, "json")) {
        cJSON *j = cli_json_document("hgridopt.lammps-validation/1", &cs);
        cJSON_AddNumberToObject(j, "atoms", (double)p.n);
        cJSON_AddNumberToObject(j, "dim", sys.dim);
        cJSON_AddNumberToObject(j, "nu", sys.nu);
        cJSON_AddNumberToObject(j, "skin", skin);
        cJSON_AddStringToObject(j, "structure",
                                hg_structure_name(cs.sys.structure));
        cJSON_AddNumberToObject(j, "ranks", (double)lo.mpi);
        cJSON_AddStringToObject(j, "constants", source);
        cJSON *a = cJSON_AddArrayToObject(j, "settings");
        for (int i = 0; i < n; i++) {
            cJSON *pj = lmp_point_json(&pts[i]);
            cJSON_AddStringToObject(pj, "role", label[i]);
            cJSON_AddItemToArray(a, pj);
        }
        cJSON_AddStringToObject(j, "fastest", label[fastest]);
        cJSON_AddNumberToObject(j, "recommended_over_fastest",
                                pts[0].timing.neigh /
                                    pts[fastest].timing.neigh);
        cJSON_AddNumberToObject(j, "recommended_over_bin",
                                pts[0].timing.neigh / bin);
        cli_json_print(stdout, j);
    } else {
        printf("validate --engine lammps: %zu atoms, %dD, nu %.4g, skin "
               "%.4g, %d rank%s, model constants: %s\n",
               p.n, sys.dim, sys.nu, skin, (int)lo.mpi,
               lo.mpi == 1 ? "" : "s", source);
        cli_print_structure(stdout, &cs);
        printf("%s", lmp_point_header);
        for (int i = 0; i < n; i++)
            lmp_print_point(stdout, label[i], &pts[i], bin);
        printf("fastest measured: %s; recommended / fastest = %.3f, "
               "recommended / bin = %.3f\n",
               label[fastest], pts[0].timing.neigh / pts[fastest].timing.neigh,
               pts[0].timing.neigh / bin);
    }
done_psd:
    hg_psd_free(psd);
done_p:
    hg_particles_clear(&p);
done_cs:
    cli_system_clear(&cs);
    return rc;
}

int cmd_validate_lammps(int argc, char **argv)
{
    return lammps_measured_command(argc, argv, 0);
}

int cmd_tune(int argc, char **argv)
{
    return lammps_measured_command(argc, argv, 1);
}
