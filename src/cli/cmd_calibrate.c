/* cmd_calibrate.c - `hgridopt calibrate`: measure K for this machine. */
#include "cli.h"
#include "hg_figure.h"
#include "hg_calib.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct calibrate_opts {
    long n, seed, max_levels, repeats;
    double budget;
    int save;
    const char *file;
} calibrate_opts;

static const cli_option options[] = {
    CLI_LONG("n", calibrate_opts, n, 1000, 100000000L),
    CLI_LONG("seed", calibrate_opts, seed, 0, 2147483647L),
    CLI_LONG("max-levels", calibrate_opts, max_levels, 1, 64),
    CLI_LONG("repeats", calibrate_opts, repeats, 1, 1000),
    CLI_DOUBLE("budget", calibrate_opts, budget, CLI_POSITIVE),
    CLI_FLAG("save", calibrate_opts, save),
    CLI_STR("file", calibrate_opts, file),
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
            "algorithms) on a packing of the system's structure (Poisson, "
            "or with\n--structure hard-spheres non-overlapping from the rsa or "
            "dense generator, as\nin validate), and fit seconds per particle "
            "= a T_cd + b T_ca (weighted least\nsquares); K = b / a. "
            "Defaults: powerlaw:alpha=-3,omega=10, 3D,\nnu = 0.3.\n\n"
            "  --n N            particles (default 200000)\n"
            "  --seed S         packing seed (default 1)\n"
            "  --max-levels L   grids with 1..L levels (default 5)\n"
            "  --repeats R      rounds, each timing every grid once; "
            "the fastest\n                   of a grid's rounds is kept "
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
            "                   $XDG_CONFIG_HOME/hgridopt/calibration.json, "
            "else\n"
            "                   ~/.config/hgridopt/calibration.json)\n"
            "  --format F       table (default) or json\n%s%s\n%s\n"
            "In LAMMPS itself: hgridopt calibrate --engine lammps --help\n\n"
            "Example:\n"
            "  hgridopt calibrate --save\n\n%s",
            cli_output_help, cli_plot_help, cli_system_help, cli_exit_help);
}

typedef struct calibrate_output {
    const cli_system *cs;
    const hg_calibration *cal;
    long n, seed;
    const char *saved_to; /* or NULL */
} calibrate_output;

static int write_result(FILE *out, const void *ctx)
{
    const calibrate_output *r = ctx;
    const cli_system *cs = r->cs;
    const hg_calibration *cal = r->cal;
    if (!strcmp(cs->opt.format, "json")) {
        hg_err e = {0};
        char *text = NULL;
        cJSON *j = NULL;
        int st = hg_calibration_json(cal, &text, &e);
        if (st == HG_OK && !(j = cJSON_Parse(text)))
            st = hg_fail(&e, HG_ENOMEM, "out of memory");
        free(text);
        if (st)
            return cli_fail(&e, st, 0);
        if (cs->c.unit)
            cJSON_AddStringToObject(j, "length_unit", cs->c.unit);
        if (r->saved_to)
            cJSON_AddStringToObject(j, "saved_to", r->saved_to);
        return cli_json_print(out, j);
    }
    cli_print_system(out, cs);
    fprintf(out, "packing:        %s generator, N = %ld, seed %ld\n\n",
            cal->packing, r->n, r->seed);
    fprintf(out, "%6s %12s %12s %16s %16s\n", "levels", "T_cd", "T_ca",
            "ns/particle", "fit ns/particle");
    for (int i = 0; i < cal->npoints; i++) {
        const hg_calib_point *p = &cal->points[i];
        fprintf(out, "%6d %12.5g %12.5g %16.5g %16.5g\n", p->levels,
                p->T_cd, p->T_ca, 1e9 * p->seconds,
                1e9 * (cal->a * p->T_cd + cal->b * p->T_ca));
    }
    fprintf(out,
            "\nseconds per particle = a T_cd + b T_ca (weighted least "
            "squares, %d grids)\n"
            "a = %.4g +- %.2g ns per pair check\n"
            "b = %.4g +- %.2g ns per cell access\n"
            "K = b / a = %.4g +- %.2g   (R^2 = %.4f)\n",
            cal->npoints, 1e9 * cal->a, 1e9 * cal->a_se, 1e9 * cal->b,
            1e9 * cal->b_se, cal->K, cal->K_se, cal->r2);
    fprintf(out, "machine: %s\nbuild:   %s\ncreated: %s\n", cal->machine,
            cal->build, cal->created);
    if (r->saved_to)
        fprintf(out,
                "saved as the %dD entry of %s: the default K of the "
                "bundled HGrid\nand of LAMMPS output in %dD from now on "
                "(--K auto requires it)\n",
                cal->dim, r->saved_to, cal->dim);
    else
        fprintf(out, "not saved: add --save to make it the default K for "
                "%dD\n", cal->dim);
    return CLI_OK;
}

static const char *const formats[] = {"table", "json", NULL};
static const cli_spec spec = {"calibrate", help,
                              CLI_SYSTEM | CLI_FORMAT | CLI_OUTPUT | CLI_PLOT,
                              options,
                              sizeof options / sizeof options[0], formats};

int cmd_calibrate(int argc, char **argv)
{
    const hg_engine *eng = cli_engine_of_argv(argc, argv);
    if (eng && eng != hg_engine_at(0))
        return cmd_engine_run(2, argc, argv);
    calibrate_opts o = {200000, 1, 5, 3, 5e8, 0, NULL};
    cli_system cs = {0};
    int rc, st;
    if (cli_parse(&spec, argc, argv, &cs.opt, &o, &rc))
        return rc;
    if (cs.opt.K_text) {
        cli_error("calibrate: --K is what this command measures; leave it "
                  "out");
        return CLI_EUSAGE;
    }
    hg_err e = {0};
    const char *file = o.file;
    int save = o.save;
    long n = o.n, seed = o.seed;
    if (!cs.opt.psd_spec && !cs.opt.system_path)
        cs.opt.psd_spec = "powerlaw:alpha=-3,omega=10";
    if (!cs.opt.dim_text && !cs.opt.system_path)
        cs.opt.dim_text = "3";
    hg_calibration cal = {0};
    char path[4096];
    if ((rc = cli_system_resolve(&cs, 0)))
        goto done;
    if (!(cs.c.sys.nu > 0.0))
        cs.c.sys.nu = 0.3;
    if (save || file) {
        if (file)
            snprintf(path, sizeof path, "%s", file);
        else if ((st = hg_calibration_default_path(path, sizeof path, &e))) {
            rc = cli_fail(&e, st, 0);
            goto done;
        }
    }
    if ((rc = cli_announce_packing("calibrate", &cs, (size_t)n, seed)))
        goto done;
    hg_calibrate_params prm;
    hg_calibrate_params_default(&prm);
    prm.sys = cs.c.sys;
    prm.n = (size_t)n;
    prm.seed = (uint64_t)seed;
    prm.max_levels = (int)o.max_levels;
    prm.repeats = (int)o.repeats;
    prm.budget = o.budget;
    cli_progress pr;
    prm.progress = cli_progress_start(&pr);
    prm.progress_params = &pr;
    st = hg_calibrate(cs.c.psd, &prm, &cal, &e);
    cli_progress_end(&pr);
    if (st) {
        cli_error("%s", e.msg);
        rc = st == HG_EINVAL ? CLI_EUSAGE : CLI_EDATA;
        goto done;
    }
    if ((save || file) && (st = hg_calibration_save(&cal, path, &e))) {
        rc = cli_fail(&e, st, 1);
        goto done;
    }
    calibrate_output res = {&cs, &cal, n, seed, save || file ? path : NULL};
    rc = cli_write(cs.opt.output, write_result, &res);
    if (!rc && cs.opt.plot &&
        (st = hg_figure_calibration(cs.opt.plot, &cal, &e)))
        rc = cli_fail(&e, st, 1);
done:
    hg_calibration_clear(&cal);
    cli_system_clear(&cs);
    return rc;
}
