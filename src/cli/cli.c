/* cli.c - shared pieces of the command-line tool. */
#include "cli.h"
#include "hg_calib.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char cli_system_help[] =
    "System (a --system file and/or options; options override the file):\n"
    "  --system FILE    system description (JSON, schema hgridopt.system/1;\n"
    "                   - reads stdin); see examples/*.json\n"
    "  --packing FILE   a particle file (CSV x,y[,z],r / LAMMPS data / XYZ /\n"
    "                   VTK): distribution = its radii, dim and nu from it\n"
    "  --psd SPEC       particle size distribution, e.g.\n"
    "                   powerlaw:alpha=-3,omega=100 (see 'hgridopt help psd')\n"
    "  --dim 2|3        dimension\n"
    "  --nu X           packing fraction, 0 < X < 1\n"
    "  --K X            cost of a cell access per pair check (default 0.2);\n"
    "                   auto: from the file written by 'calibrate --save'\n"
    "  --format F       output format\n"
    "  --output FILE    write to FILE instead of standard output\n";

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("hgridopt: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_fail(const hg_err *e, int status, int from_file)
{
    cli_error("%s", e && e->msg[0] ? e->msg : hg_strerror(status));
    if (status == HG_EIO || status == HG_ENUMERIC || status == HG_ENOMEM ||
        status == HG_ELIMIT || from_file)
        return CLI_EDATA;
    return CLI_EUSAGE;
}

int cli_bad_option(const char *cmd, int c, const char *arg)
{
    if (c == ':')
        cli_error("%s: option '%s' needs a value (see 'hgridopt %s --help')",
                  cmd, arg ? arg : "?", cmd);
    else
        cli_error("%s: unknown option '%s' (see 'hgridopt %s --help')", cmd,
                  arg ? arg : "?", cmd);
    return CLI_EUSAGE;
}

int cli_options_done(const char *cmd, const cli_system *cs, int argc,
                     char **argv, void (*help)(FILE *out),
                     const char *const *formats, const char **format,
                     int *rc)
{
    *rc = CLI_OK;
    if (cs->help) {
        help(stdout);
        return 1;
    }
    if (optind < argc) {
        cli_error("%s: unexpected argument '%s'", cmd, argv[optind]);
        *rc = CLI_EUSAGE;
        return 1;
    }
    *format = cs->format ? cs->format : formats ? formats[0] : NULL;
    if (formats && (*rc = cli_check_format(cmd, *format, formats)))
        return 1;
    return 0;
}

int cli_system_option(cli_system *cs, int opt, const char *arg)
{
    switch (opt) {
    case CLI_OPT_PSD: cs->psd_spec = arg; return 1;
    case CLI_OPT_SYSTEM: cs->system_path = arg; return 1;
    case CLI_OPT_DIM: cs->dim_text = arg; return 1;
    case CLI_OPT_NU: cs->nu_text = arg; return 1;
    case CLI_OPT_K: cs->K_text = arg; return 1;
    case CLI_OPT_FORMAT: cs->format = arg; return 1;
    case CLI_OPT_OUTPUT: cs->output = arg; return 1;
    case CLI_OPT_HELP: cs->help = 1; return 1;
    case CLI_OPT_PACKING: cs->packing_path = arg; return 1;
    default: return 0;
    }
}

void cli_system_clear(cli_system *cs)
{
    if (!cs)
        return;
    hg_sysfile_clear(&cs->file);
    if (cs->has_packing)
        hg_particles_clear(&cs->packing);
    cs->has_packing = 0;
    hg_psd_free(cs->psd);
    cs->psd = NULL;
}

int cli_system_resolve(cli_system *cs, int need_nu)
{
    hg_err e = {0};
    int st;
    int have_file = cs->system_path != NULL;
    if (have_file) {
        st = hg_sysfile_load(cs->system_path, &cs->file, &e);
        if (st)
            return cli_fail(&e, st, 1);
    }
    hg_psd *packing_psd = NULL;
    hg_system packing_sys = {0, 0.0};
    if (cs->packing_path) {
        st = hg_io_read(cs->packing_path, HG_IO_AUTO, &cs->packing, &e);
        if (st)
            return cli_fail(&e, st, 1);
        cs->has_packing = 1;
        st = hg_io_system_from_particles(&cs->packing, &packing_psd,
                                         &packing_sys, &e);
        if (st)
            return cli_fail(&e, st, 1);
        if (cs->dim_text && atoi(cs->dim_text) != packing_sys.dim) {
            hg_psd_free(packing_psd);
            cli_error("--dim: %s contradicts the %dD particle file '%s'",
                      cs->dim_text, packing_sys.dim, cs->packing_path);
            return CLI_EUSAGE;
        }
        /* the particle file's dim and nu override a system file's */
        cs->file.has_dim = 1;
        cs->file.dim = packing_sys.dim;
        if (!cs->nu_text && !(packing_sys.nu > 0.0 && packing_sys.nu < 1.0)) {
            hg_psd_free(packing_psd);
            cli_error("--packing: the packing fraction of '%s' is %g, "
                      "outside (0, 1)", cs->packing_path, packing_sys.nu);
            return CLI_EDATA;
        }
        cs->file.has_nu = 1;
        cs->file.nu = packing_sys.nu;
    }
    /* dimension */
    cs->sys.dim = 0;
    if (cs->dim_text) {
        long d;
        if ((st = hg_parse_long(cs->dim_text, "--dim", 2, 3, &d, &e)))
            return cli_fail(&e, st, 0);
        cs->sys.dim = (int)d;
    } else if (cs->file.has_dim) {
        cs->sys.dim = cs->file.dim;
    } else {
        cli_error("--dim: missing (give --dim 2 or --dim 3, or \"dim\" in "
                  "the system file)");
        return CLI_EUSAGE;
    }
    /* packing fraction */
    cs->sys.nu = NAN;
    if (cs->nu_text) {
        if ((st = hg_parse_double(cs->nu_text, "--nu", &cs->sys.nu, &e)))
            return cli_fail(&e, st, 0);
        if (!(cs->sys.nu > 0.0 && cs->sys.nu < 1.0)) {
            cli_error("--nu: %s is outside (0, 1)", cs->nu_text);
            return CLI_EUSAGE;
        }
    } else if (cs->file.has_nu) {
        cs->sys.nu = cs->file.nu;
    } else if (need_nu) {
        cli_error("--nu: missing (give the packing fraction, 0 < nu < 1)");
        return CLI_EUSAGE;
    }
    /* K */
    cs->K = HG_K_PAPER;
    cs->K_auto = 0;
    if (cs->K_text && strcmp(cs->K_text, "auto") == 0) {
        char path[4096];
        hg_calibration cal;
        if ((st = hg_calibration_default_path(path, sizeof path, &e)) ||
            (st = hg_calibration_load(path, &cal, &e))) {
            cli_error("--K auto: %s", e.msg);
            return st == HG_EIO ? CLI_EUSAGE : CLI_EDATA;
        }
        cs->K = cal.K;
        cs->K_auto = 1;
    } else if (cs->K_text) {
        if ((st = hg_parse_double(cs->K_text, "--K", &cs->K, &e)))
            return cli_fail(&e, st, 0);
        if (!(cs->K > 0.0)) {
            cli_error("--K: %s must be > 0", cs->K_text);
            return CLI_EUSAGE;
        }
    } else if (cs->file.has_K) {
        cs->K = cs->file.K;
    }
    memset(&cs->values, 0, sizeof cs->values);
    if ((st = hg_model_values_set(&cs->values, "K", cs->K, &e)))
        return cli_fail(&e, st, 0);
    /* distribution */
    hg_psd_ctx ctx = {cs->sys.dim, NULL};
    if (cs->psd_spec)
        hg_psd_free(packing_psd);
    if (packing_psd && !cs->psd_spec) {
        cs->psd = packing_psd;
    } else if (cs->psd_spec) {
        st = hg_psd_parse(cs->psd_spec, &ctx, &cs->psd, &e);
        if (st)
            return cli_fail(&e, st, strstr(cs->psd_spec, "file=") != NULL &&
                                        st != HG_EUNKNOWN);
    } else if (cs->file.family) {
        ctx.base_dir = cs->file.base_dir;
        st = hg_psd_create(cs->file.family, &cs->file.params, &ctx, &cs->psd,
                           &e);
        if (st) {
            cli_error("%s: \"distribution\": %s", cs->file.path, e.msg);
            return CLI_EDATA;
        }
    } else {
        cli_error("--psd: missing (give --psd SPEC or a --system file with "
                  "a \"distribution\")");
        return CLI_EUSAGE;
    }
    cs->name = cs->file.name;
    cs->unit = cs->file.length_unit;
    cs->particles = cs->file.has_particles ? cs->file.particles : 0;
    if (cs->has_packing)
        cs->particles = (long)cs->packing.n;
    return CLI_OK;
}

int cli_parse_list(const char *text, const char *field, double **out, int *n,
                   hg_err *e)
{
    *out = NULL;
    *n = 0;
    if (!text || !*text)
        return hg_fail(e, HG_EPARSE, "%s: empty list", field);
    int cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == ',';
    double *v = malloc(sizeof *v * (size_t)cap);
    char *copy = strdup(text);
    if (!v || !copy) {
        free(v);
        free(copy);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    int k = 0, st = HG_OK;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if ((st = hg_parse_double(tok, field, &v[k], e)))
            break;
        k++;
    }
    if (!st && k != cap)
        st = hg_fail(e, HG_EPARSE, "%s: '%s' has an empty item", field, text);
    free(copy);
    if (st) {
        free(v);
        return st;
    }
    *out = v;
    *n = k;
    return HG_OK;
}

FILE *cli_open_output(const char *path)
{
    if (!path || strcmp(path, "-") == 0)
        return stdout;
    FILE *f = fopen(path, "w");
    if (!f)
        cli_error("--output: cannot write '%s': %s", path, strerror(errno));
    return f;
}

int cli_close_output(FILE *f, const char *path)
{
    if (!f)
        return CLI_EDATA;
    if (f == stdout) {
        if (fflush(stdout) != 0) {
            cli_error("standard output: write error");
            return CLI_EDATA;
        }
        return CLI_OK;
    }
    if (ferror(f) | fclose(f)) {
        cli_error("--output: write error on '%s'", path);
        return CLI_EDATA;
    }
    return CLI_OK;
}

int cli_check_format(const char *cmd, const char *format,
                     const char *const *allowed)
{
    for (size_t i = 0; allowed[i]; i++)
        if (strcmp(format, allowed[i]) == 0)
            return CLI_OK;
    char list[256] = "";
    for (size_t i = 0; allowed[i]; i++) {
        if (i)
            strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, allowed[i], sizeof list - strlen(list) - 1);
    }
    cli_error("%s --format: unknown format '%s' (one of: %s)", cmd, format,
              list);
    return CLI_EUSAGE;
}

void cli_json_add_array(cJSON *obj, const char *key, const double *v, int n)
{
    cJSON *a = cJSON_AddArrayToObject(obj, key);
    for (int i = 0; a && i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
}

void cli_json_add_per_level(cJSON *obj, const hg_cost *c)
{
    cJSON *arr = cJSON_AddArrayToObject(obj, "per_level");
    for (int h = 0; arr && h < c->levels; h++) {
        const hg_level_cost *l = &c->per_level[h];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "level", l->level);
        cJSON_AddNumberToObject(o, "cell_size", l->cell_size);
        cJSON_AddNumberToObject(o, "r_lo", l->r_lo);
        cJSON_AddNumberToObject(o, "r_hi", l->r_hi);
        cJSON_AddNumberToObject(o, "fraction", l->fraction);
        cJSON_AddNumberToObject(o, "particles_per_cell",
                                l->particles_per_cell);
        cJSON_AddNumberToObject(o, "T_cd", l->T_cd);
        cJSON_AddNumberToObject(o, "T_ca", l->T_ca);
        cJSON_AddNumberToObject(o, "work", l->T);
        cJSON_AddItemToArray(arr, o);
    }
}

int cli_json_print(FILE *out, cJSON *json)
{
    char *s = cJSON_Print(json);
    cJSON_Delete(json);
    if (!s) {
        cli_error("out of memory while writing JSON");
        return CLI_EDATA;
    }
    fputs(s, out);
    fputc('\n', out);
    free(s);
    return CLI_OK;
}

void cli_print_system(FILE *out, const cli_system *cs)
{
    const char *u = cs->unit ? cs->unit : "";
    if (cs->name)
        fprintf(out, "system:         %s\n", cs->name);
    if (cs->has_packing && !cs->psd_spec)
        fprintf(out, "distribution:   sample of the %zu radii in %s (%s)\n",
                cs->packing.n, cs->packing_path,
                cs->packing.periodic ? "periodic box" : "box with walls");
    else
        fprintf(out, "distribution:   %s\n", hg_psd_spec(cs->psd));
    fprintf(out, "radii:          %.6g .. %.6g%s%s (omega = %.6g)\n",
            hg_psd_rmin(cs->psd), hg_psd_rmax(cs->psd), *u ? " " : "", u,
            hg_psd_rmax(cs->psd) / hg_psd_rmin(cs->psd));
    fprintf(out, "dim %d, nu = %.6g, K = %.6g%s\n", cs->sys.dim, cs->sys.nu,
            cs->K, cs->K_auto ? " (calibrated)" : "");
}

void cli_print_levels(FILE *out, const hg_cost *c, double rmin,
                      const char *unit)
{
    (void)unit;
    fprintf(out, "%5s %12s %9s %11s %12s %11s %11s %11s\n", "level",
            "cell size", "s/r_min", "fraction", "part./cell", "T_cd", "T_ca",
            "work");
    for (int h = 0; h < c->levels; h++) {
        const hg_level_cost *l = &c->per_level[h];
        fprintf(out, "%5d %12.6g %9.4g %11.5g %12.5g %11.5g %11.5g %11.5g\n",
                l->level, l->cell_size, l->cell_size / rmin, l->fraction,
                l->particles_per_cell, l->T_cd, l->T_ca, l->T);
    }
    fprintf(out, "%5s %12s %9s %11.5g %12s %11.5g %11.5g %11.5g\n", "total",
            "", "", 1.0, "", c->T_cd, c->T_ca, c->T);
}
