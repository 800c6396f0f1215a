/* cmd_calibrate.c - `hgridopt calibrate`: measure K for this machine. */
#include "cli.h"
#include "hg_calib.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_N = CLI_OPT_FIRST_COMMAND,
    OPT_SEED,
    OPT_MAX_LEVELS,
    OPT_REPEATS,
    OPT_BUDGET,
    OPT_SAVE,
    OPT_FILE
};

static void help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt calibrate [--psd SPEC --dim 2|3 --nu X] "
            "[options]\n\n"
            "Measure K, the cost of one cell access in units of one pair "
            "check, for this\nmachine and the bundled HGrid: time the "
            "contact detection of grids with\nL = 1..max levels "
            "(exponential sizes, and finer/coarser variants, both\n"
            "algorithms) on a Poisson packing, and fit seconds per particle "
            "= a T_cd + b T_ca\n(weighted least squares); K = b / a. "
            "Defaults: powerlaw:alpha=-3,omega=10, 3D,\nnu = 0.3.\n\n"
            "  --n N            particles (default 200000)\n"
            "  --seed S         packing seed (default 1)\n"
            "  --max-levels L   grids with 1..L levels (default 5)\n"
            "  --repeats R      timed repetitions per grid, best kept "
            "(default 3)\n"
            "  --budget W       skip grids whose predicted work exceeds W "
            "(default 5e8)\n"
            "  --save           store the result as this dimension's entry "
            "of the\n"
            "                   calibration file: the default K of the "
            "bundled HGrid\n"
            "                   (and LAMMPS output) in this dimension\n"
            "  --file PATH      calibration file (default "
            "$HGRIDOPT_CALIBRATION, else\n"
            "                   $XDG_CONFIG_HOME or ~/.config "
            "/hgridopt/calibration.json)\n"
            "  --format F       table (default) or json\n\n%s\n"
            "Example:\n"
            "  hgridopt calibrate --save\n",
            cli_system_help);
}

int cmd_calibrate(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_SYSTEM_LONG_OPTIONS,
        {"n", required_argument, NULL, OPT_N},
        {"seed", required_argument, NULL, OPT_SEED},
        {"max-levels", required_argument, NULL, OPT_MAX_LEVELS},
        {"repeats", required_argument, NULL, OPT_REPEATS},
        {"budget", required_argument, NULL, OPT_BUDGET},
        {"save", no_argument, NULL, OPT_SAVE},
        {"file", required_argument, NULL, OPT_FILE},
        {NULL, 0, NULL, 0}};
    cli_system cs = {0};
    const char *n_text = "200000", *seed_text = "1", *lev_text = "5";
    const char *rep_text = "3", *budget_text = "5e8", *file = NULL;
    int save = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        if (cli_system_option(&cs, c, optarg))
            continue;
        switch (c) {
        case OPT_N: n_text = optarg; break;
        case OPT_SEED: seed_text = optarg; break;
        case OPT_MAX_LEVELS: lev_text = optarg; break;
        case OPT_REPEATS: rep_text = optarg; break;
        case OPT_BUDGET: budget_text = optarg; break;
        case OPT_SAVE: save = 1; break;
        case OPT_FILE: file = optarg; break;
        default: return cli_bad_option("calibrate", c, argv[optind - 1]);
        }
    }
    static const char *const formats[] = {"table", "json", NULL};
    const char *format = NULL;
    int rc;
    if (cli_options_done("calibrate", &cs, argc, argv, help, formats, &format,
                         &rc))
        return rc;
    if (cs.K_text) {
        cli_error("calibrate: --K is what this command measures; leave it "
                  "out");
        return CLI_EUSAGE;
    }
    hg_err e = {0};
    int st;
    long n, seed, levels, repeats;
    double budget;
    if ((st = hg_parse_long(n_text, "--n", 1000, 100000000L, &n, &e)) ||
        (st = hg_parse_long(seed_text, "--seed", 0, 2147483647L, &seed, &e)) ||
        (st = hg_parse_long(lev_text, "--max-levels", 1, 64, &levels, &e)) ||
        (st = hg_parse_long(rep_text, "--repeats", 1, 1000, &repeats, &e)) ||
        (st = hg_parse_double(budget_text, "--budget", &budget, &e)))
        return cli_fail(&e, st, 0);
    if (!(budget > 0.0)) {
        cli_error("--budget: %s must be > 0", budget_text);
        return CLI_EUSAGE;
    }
    if (!cs.psd_spec && !cs.system_path)
        cs.psd_spec = "powerlaw:alpha=-3,omega=10";
    if (!cs.dim_text && !cs.system_path)
        cs.dim_text = "3";
    hg_calibration cal = {0};
    char path[4096];
    if ((rc = cli_system_resolve(&cs, 0)))
        goto done;
    if (!(cs.sys.nu > 0.0))
        cs.sys.nu = 0.3;
    if (save || file) {
        if (file)
            snprintf(path, sizeof path, "%s", file);
        else if ((st = hg_calibration_default_path(path, sizeof path, &e))) {
            rc = cli_fail(&e, st, 0);
            goto done;
        }
    }
    hg_calibrate_params prm;
    hg_calibrate_params_default(&prm);
    prm.sys = cs.sys;
    prm.n = (size_t)n;
    prm.seed = (uint64_t)seed;
    prm.max_levels = (int)levels;
    prm.repeats = (int)repeats;
    prm.budget = budget;
    if ((st = hg_calibrate(cs.psd, &prm, &cal, &e))) {
        cli_error("%s", e.msg);
        rc = st == HG_EINVAL ? CLI_EUSAGE : CLI_EDATA;
        goto done;
    }
    if ((save || file) && (st = hg_calibration_save(&cal, path, &e))) {
        rc = cli_fail(&e, st, 1);
        goto done;
    }
    FILE *out = cli_open_output(cs.output);
    if (!out) {
        rc = CLI_EDATA;
        goto done;
    }
    if (!strcmp(format, "json")) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "schema", "hgridopt.calibration/1");
        cJSON_AddNumberToObject(j, "K", cal.K);
        cJSON_AddNumberToObject(j, "K_stderr", cal.K_se);
        cJSON_AddNumberToObject(j, "seconds_per_pair_check", cal.a);
        cJSON_AddNumberToObject(j, "seconds_per_pair_check_stderr", cal.a_se);
        cJSON_AddNumberToObject(j, "seconds_per_cell_access", cal.b);
        cJSON_AddNumberToObject(j, "seconds_per_cell_access_stderr",
                                cal.b_se);
        cJSON_AddNumberToObject(j, "r_squared", cal.r2);
        cJSON_AddNumberToObject(j, "dim", cal.dim);
        cJSON_AddNumberToObject(j, "particles", (double)cal.n);
        cJSON_AddNumberToObject(j, "nu", cal.nu);
        cJSON_AddStringToObject(j, "distribution", cal.psd);
        cJSON_AddStringToObject(j, "created", cal.created);
        cJSON_AddStringToObject(j, "machine", cal.machine);
        cJSON_AddStringToObject(j, "build", cal.build);
        cJSON *pts = cJSON_AddArrayToObject(j, "points");
        for (int i = 0; i < cal.npoints; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "levels", cal.points[i].levels);
            cJSON_AddNumberToObject(o, "T_cd", cal.points[i].T_cd);
            cJSON_AddNumberToObject(o, "T_ca", cal.points[i].T_ca);
            cJSON_AddNumberToObject(o, "seconds_per_particle",
                                    cal.points[i].seconds);
            cJSON_AddItemToArray(pts, o);
        }
        if (save || file)
            cJSON_AddStringToObject(j, "saved_to", path);
        cli_json_print(out, j);
    } else {
        cli_print_system(out, &cs);
        fprintf(out, "packing:        Poisson, N = %ld, seed %ld\n\n", n,
                seed);
        fprintf(out, "%6s %12s %12s %16s %16s\n", "levels", "T_cd", "T_ca",
                "ns/particle", "fit ns/particle");
        for (int i = 0; i < cal.npoints; i++) {
            const hg_calib_point *p = &cal.points[i];
            fprintf(out, "%6d %12.5g %12.5g %16.5g %16.5g\n", p->levels,
                    p->T_cd, p->T_ca, 1e9 * p->seconds,
                    1e9 * (cal.a * p->T_cd + cal.b * p->T_ca));
        }
        fprintf(out,
                "\nseconds per particle = a T_cd + b T_ca (weighted least "
                "squares, %d grids)\n"
                "a = %.4g +- %.2g ns per pair check\n"
                "b = %.4g +- %.2g ns per cell access\n"
                "K = b / a = %.4g +- %.2g   (R^2 = %.4f)\n",
                cal.npoints, 1e9 * cal.a, 1e9 * cal.a_se, 1e9 * cal.b,
                1e9 * cal.b_se, cal.K, cal.K_se, cal.r2);
        fprintf(out, "machine: %s\nbuild:   %s\ncreated: %s\n", cal.machine,
                cal.build, cal.created);
        if (save || file)
            fprintf(out,
                    "saved as the %dD entry of %s: the default K of the "
                    "bundled HGrid\nand of LAMMPS output in %dD from now on "
                    "(--K auto requires it)\n",
                    cal.dim, path, cal.dim);
        else
            fprintf(out, "not saved: add --save to make it the default K "
                    "for %dD\n", cal.dim);
    }
    rc = cli_close_output(out, cs.output);
done:
    hg_calibration_clear(&cal);
    cli_system_clear(&cs);
    return rc;
}
