/* cmd_lammps.c - the LAMMPS engine of `calibrate` (`--engine lammps`), the
 * helpers it shares with `validate` and `tune` (cmd_tune.c): options,
 * packings, printing; running lmp and the model live in the library
 * (hg_lammps.h). */
#include "cmd_lammps.h"
#include "hg_lammps.h"
#include "hg_export.h"
#include "hg_pack_gen.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char lmp_run_help[] =
    "  --engine E       lammps: this form (hgrid, the default: the bundled "
    "HGrid's form)\n"
    "  --lmp PATH       LAMMPS executable (default: lmp on PATH)\n"
    "  --mpi N          run under mpirun -np N (default 1: plain lmp)\n"
    "  --keep DIR       keep data file, input script and log in DIR\n"
    "  --steps S        timed steps per setting (default 50), each "
    "rebuilding the\n                   neighbor list\n"
    "  --repeats R      alternating repeats; medians reported (default 3)\n"
    "  --n N            atoms of a generated packing (default 50000)\n"
    "  --seed S         packing seed (default 1)\n"
    "  --skin X         neighbor skin (default 10 % of the smallest "
    "diameter)\n";

/* 1 if argv asks for --engine lammps (the caller then hands over; any
 * other value is checked by cli_parse of the command's own form). */
int cli_engine_is_lammps(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--engine") && i + 1 < argc)
            return !strcmp(argv[i + 1], "lammps");
        if (!strncmp(argv[i], "--engine=", 9))
            return !strcmp(argv[i] + 9, "lammps");
    }
    return 0;
}


static void progress(int done, int total, void *params)
{
    (void)params;
    fprintf(stderr, "\r  lmp: %d of %d timed runs", done, total);
    if (done == total)
        fputs("\n", stderr);
    fflush(stderr);
}

void lmp_run_options(const lmp_opts *lo, double skin,
                     hg_lammps_run_options *o)
{
    hg_lammps_run_options_default(o);
    o->lmp = lo->lmp;
    o->nprocs = (int)lo->mpi;
    o->keep = lo->keep;
    o->steps = (int)lo->steps;
    o->repeats = (int)lo->repeats;
    o->skin = skin;
    if (isatty(STDERR_FILENO))
        o->progress = progress;
}

void lmp_opts_default(lmp_opts *o)
{
    memset(o, 0, sizeof *o);
    o->mpi = 1;
    o->steps = 50;
    o->repeats = 3;
    o->n = 50000;
    o->seed = 1;
    o->max_coll = 6;
    o->budget = 120.0;
}

/* An RSA packing of n atoms (periodic). */
int lmp_make_packing(const hg_psd *psd, int dim, double nu, long n,
                     long seed, hg_particles *p, hg_err *e)
{
    hg_pack_params prm = {dim, (size_t)n, nu, (uint64_t)seed, 1};
    hg_pack_report rep;
    int st = hg_pack_rsa_run(psd, &prm, NULL, p, &rep, e);
    if (st == HG_OK && !rep.reached)
        fprintf(stderr,
                "hgridopt: note: RSA packing stalled at nu = %.4g (%zu of "
                "%zu atoms)\n",
                rep.nu, rep.placed, rep.requested);
    return st;
}

static void print_setting(FILE *f, const hg_lammps_setting *s)
{
    if (s->ncoll == 0) {
        fprintf(f, "bin");
        return;
    }
    fprintf(f, "multi %d:", s->ncoll);
    for (int i = 0; i < s->ncoll; i++)
        fprintf(f, " %.4g", s->cut[i]);
}

cJSON *lmp_setting_json(const hg_lammps_setting *s)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "style", s->ncoll ? "multi" : "bin");
    cJSON_AddNumberToObject(j, "collections", s->ncoll);
    if (s->ncoll)
        cli_json_add_array(j, "cutoffs", s->cut, s->ncoll);
    return j;
}

void lmp_setting_text(const hg_lammps_setting *s, char *buf, size_t len)
{
    if (s->ncoll == 0) {
        snprintf(buf, len, "bin");
        return;
    }
    size_t n = (size_t)snprintf(buf, len, "multi with %d collection%s",
                                s->ncoll, s->ncoll == 1 ? "" : "s");
    for (int i = 0; i < s->ncoll && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%.6g",
                              i ? ", " : " (cutoffs ", s->cut[i]);
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

void lmp_print_system(FILE *out, const cli_system *cs,
                      const hg_lammps_system *sys, const char *consts_source)
{
    const char *u = cs->unit ? cs->unit : "";
    fprintf(out, "engine:         lammps (LAMMPS' neighbor build, model "
                 "constants: %s)\n", consts_source);
    if (cs->name)
        fprintf(out, "system:         %s\n", cs->name);
    fprintf(out, "distribution:   %s\n", hg_psd_spec(cs->psd));
    fprintf(out, "radii:          %.6g .. %.6g%s%s (omega = %.6g)\n",
            hg_psd_rmin(cs->psd), hg_psd_rmax(cs->psd), *u ? " " : "", u,
            hg_psd_rmax(cs->psd) / hg_psd_rmin(cs->psd));
    fprintf(out, "dim %d, nu = %.6g, %.6g atoms (%.6g per rank), %d "
                 "rank%s, skin %.6g\n",
            sys->dim, sys->nu, sys->atoms, sys->atoms / sys->nprocs,
            sys->nprocs, sys->nprocs == 1 ? "" : "s", sys->skin);
    cli_print_structure(out, cs);
}

cJSON *lmp_json_document(const char *schema, const cli_system *cs,
                         const hg_lammps_system *sys,
                         const char *consts_source)
{
    cJSON *j = cli_json_document(schema, cs);
    cJSON_AddStringToObject(j, "engine", "lammps");
    if (cs->name)
        cJSON_AddStringToObject(j, "name", cs->name);
    cJSON_AddStringToObject(j, "distribution", hg_psd_spec(cs->psd));
    cJSON_AddNumberToObject(j, "r_min", hg_psd_rmin(cs->psd));
    cJSON_AddNumberToObject(j, "r_max", hg_psd_rmax(cs->psd));
    cJSON_AddNumberToObject(j, "dim", sys->dim);
    cJSON_AddNumberToObject(j, "nu", sys->nu);
    cJSON_AddStringToObject(j, "structure",
                            hg_structure_name(cs->sys.structure));
    cJSON_AddNumberToObject(j, "atoms", sys->atoms);
    cJSON_AddNumberToObject(j, "atoms_per_rank", sys->atoms / sys->nprocs);
    cJSON_AddNumberToObject(j, "ranks", sys->nprocs);
    cJSON_AddNumberToObject(j, "skin", sys->skin);
    cJSON_AddStringToObject(j, "constants", consts_source);
    return j;
}

void lmp_print_lines(FILE *out, const char *text)
{
    for (const char *l = text; l && *l;) {
        size_t n = strcspn(l, "\n");
        if (l[0] != '#')
            fprintf(out, "%.*s\n", (int)n, l);
        l += n + (l[n] == '\n');
    }
}

void lmp_json_add_lines(cJSON *obj, const char *key, const char *text)
{
    cJSON *a = cJSON_AddArrayToObject(obj, key);
    char *copy = strdup(text);
    for (char *sv = NULL, *t = copy ? strtok_r(copy, "\n", &sv) : NULL; t;
         t = strtok_r(NULL, "\n", &sv))
        if (t[0] != '#')
            cJSON_AddItemToArray(a, cJSON_CreateString(t));
    free(copy);
}

cJSON *lmp_point_json(const hg_lammps_point *p)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddItemToObject(j, "setting", lmp_setting_json(&p->setting));
    cJSON_AddNumberToObject(j, "neigh_ms_per_build", 1e3 * p->timing.neigh);
    cJSON_AddNumberToObject(j, "neigh_ms_min", 1e3 * p->timing.neigh_min);
    cJSON_AddNumberToObject(j, "neigh_ms_max", 1e3 * p->timing.neigh_max);
    cJSON_AddNumberToObject(j, "pair_ms_per_step", 1e3 * p->timing.pair);
    cJSON_AddNumberToObject(j, "predicted_ms", 1e3 * p->predicted);
    cJSON_AddNumberToObject(j, "neighbors", p->timing.neighbours);
    return j;
}

void lmp_print_point(FILE *f, const char *label, const hg_lammps_point *p,
                     double bin)
{
    fprintf(f, "  %-14s %8.3f [%.3f-%.3f] %9.3f %7.3f %8.3f  %6.2f  ", label,
            1e3 * p->timing.neigh, 1e3 * p->timing.neigh_min,
            1e3 * p->timing.neigh_max, 1e3 * p->predicted,
            p->predicted / p->timing.neigh, 1e3 * p->timing.pair,
            p->timing.neigh / bin);
    print_setting(f, &p->setting);
    fputc('\n', f);
}

const char lmp_point_header[] =
    "  setting        Neigh ms/build [min-max]  predicted  pred/meas  Pair "
    "ms  vs bin  cutoffs\n";

void lmp_system_from_cli(const cli_system *cs, long atoms, long ranks,
                         hg_lammps_system *sys)
{
    sys->dim = cs->sys.dim;
    sys->nu = cs->sys.nu;
    sys->atoms = atoms > 0           ? (double)atoms
                 : cs->has_packing   ? (double)cs->packing.n
                 : cs->particles > 0 ? (double)cs->particles
                                     : 50000.0;
    sys->skin = cs->export_skin > 0.0 ? cs->export_skin
                                      : hg_export_default_skin(cs->psd);
    sys->nprocs = (int)ranks;
    sys->structure = cs->sys.structure;
    sys->snapshot = cs->sys.snapshot;
    lmp_system_params(cs, sys);
}

void lmp_system_params(const cli_system *cs, hg_lammps_system *sys)
{
    double v;
    if (hg_model_values_get(&cs->values, "atoms", &v))
        sys->atoms = v;
    if (hg_model_values_get(&cs->values, "ranks", &v))
        sys->nprocs = (int)v;
    if (hg_model_values_get(&cs->values, "skin", &v))
        sys->skin = v * 2.0 * hg_psd_rmin(cs->psd);
}

int lmp_load_consts(hg_lammps_consts *c, const char **source)
{
    hg_err e = {0};
    int from_file = 0;
    int st = hg_lammps_consts_auto(c, &from_file, &e);
    if (st)
        return cli_fail(&e, st, 1);
    *source = from_file ? "stored calibration" : "shipped defaults";
    return CLI_OK;
}

/* ---- calibrate --engine lammps ---- */

static void calibrate_help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt calibrate --engine lammps [options]\n\n"
            "Fit the constants of the LAMMPS neighbor-build model (seconds "
            "per distance\ncheck, stencil bin visit, bin, binned atom, "
            "atom x collection, stored\nneighbour) to lmp's Neigh times: "
            "RSA packings of a few systems, each run with\nbin and a grid of "
            "multi settings, fitted by weighted least squares (GSL).\n"
            "Default systems: powerlaw:alpha=-3,omega=20 3D nu 0.4; "
            "lognormal:median=1,\nsigma=0.5,qmin=0.01,qmax=0.99 3D nu 0.4; "
            "powerlaw:alpha=-3,omega=20 2D nu 0.4.\n\n"
            "  --packing FILES  calibrate on these particle files instead "
            "(comma-separated)\n%s"
            "  --save           store the constants (read by recommend "
            "--format lammps,\n                   validate and tune "
            "--engine lammps)\n"
            "  --file PATH      constants file (default "
            "$HGRIDOPT_LAMMPS_CALIBRATION, else\n"
            "                   $XDG_CONFIG_HOME or ~/.config "
            "/hgridopt/lammps.json)\n"
            "  --format F       table (default) or json\n\n"
            "Example:\n  hgridopt calibrate --engine lammps --n 20000 "
            "--steps 20 --save\n\n%s",
            lmp_run_help, cli_exit_help);
}

static const cli_option calibrate_options[] = {
    LMP_RUN_OPTIONS,
    CLI_STR("packing", lmp_opts, packings),
    CLI_FLAG("save", lmp_opts, save),
    CLI_STR("file", lmp_opts, file),
};
const char *const lmp_table_json[] = {"table", "json", NULL};
static const cli_spec calibrate_spec = {
    "calibrate", calibrate_help, CLI_FORMAT | CLI_LAMMPS, calibrate_options,
    sizeof calibrate_options / sizeof calibrate_options[0], lmp_table_json};

int cmd_calibrate_lammps(int argc, char **argv)
{
    lmp_opts lo;
    lmp_opts_default(&lo);
    cli_opts co = {0};
    hg_err e = {0};
    int st, rc0;
    if (cli_parse(&calibrate_spec, argc, argv, &co, &lo, &rc0))
        return rc0;
    const char *format = co.format;
    int save = lo.save;
    const char *file = lo.file;
    /* --packing FILE[,FILE...] */
    char *plist = lo.packings ? strdup(lo.packings) : NULL;
    const char *packing[16];
    int npacking = 0;
    for (char *t = plist ? strtok(plist, ",") : NULL; t;
         t = strtok(NULL, ",")) {
        if (npacking == 16) {
            cli_error("--packing: at most 16 files");
            free(plist);
            return CLI_EUSAGE;
        }
        packing[npacking++] = t;
    }
    char lmp[4096], version[64] = "";
    if ((st = hg_lammps_find(lo.lmp, lmp, sizeof lmp, &e)) ||
        (st = hg_lammps_version(lmp, version, sizeof version, &e)))
    {
        free(plist);
        return cli_fail(&e, st, 0);
    }
    static const struct {
        const char *psd;
        int dim;
        double nu;
    } defaults[] = {
        {"powerlaw:alpha=-3,omega=20", 3, 0.4},
        {"lognormal:median=1,sigma=0.5,qmin=0.01,qmax=0.99", 3, 0.4},
        {"powerlaw:alpha=-3,omega=20", 2, 0.4},
    };
    int nsys = npacking ? npacking : 3;
    enum { PER = 10 };
    hg_lammps_point *pts = calloc((size_t)nsys * PER, sizeof *pts);
    int *sysof = calloc((size_t)nsys * PER, sizeof *sysof);
    int npts = 0, rc = CLI_OK;
    if (!pts || !sysof) {
        cli_error("out of memory");
        rc = CLI_EDATA;
        goto done;
    }
    for (int s = 0; s < nsys && rc == CLI_OK; s++) {
        hg_particles p = {0};
        hg_psd *psd = NULL;
        if (npacking) {
            st = hg_io_read(packing[s], HG_IO_AUTO, &p, &e);
            if (st == HG_OK)
                st = hg_psd_from_radii(p.r, p.n, p.dim, &psd, &e);
        } else {
            hg_psd_ctx ctx = {defaults[s].dim, NULL};
            st = hg_psd_parse(defaults[s].psd, &ctx, &psd, &e);
            if (st == HG_OK)
                st = lmp_make_packing(psd, defaults[s].dim, defaults[s].nu,
                                      lo.n, lo.seed, &p, &e);
        }
        hg_lammps_setting set[PER];
        int n = st == HG_OK ? hg_lammps_calibration_settings(psd, set, PER)
                            : 0;
        double skin = lo.skin > 0.0 ? lo.skin : (psd ? hg_export_default_skin(psd) : 0);
        if (st == HG_OK) {
            fprintf(stderr, "calibrate: system %d of %d (%s, %zu atoms, %d "
                            "settings)\n",
                    s + 1, nsys, npacking ? packing[s] : defaults[s].psd,
                    p.n, n);
            hg_lammps_run_options ro;
            lmp_run_options(&lo, skin, &ro);
            char keep[4096];
            if (lo.keep) { /* one folder per system under --keep */
                if (mkdir(lo.keep, 0777) != 0 && errno != EEXIST) {
                    cli_error("--keep: cannot create '%s': %s", lo.keep,
                              strerror(errno));
                    rc = CLI_EDATA;
                }
                snprintf(keep, sizeof keep, "%s/system%d", lo.keep, s + 1);
                ro.keep = keep;
            }
            if (rc == CLI_OK)
                st = hg_lammps_measure(&p, set, n, &ro, NULL, pts + npts, &e);
        }
        if (st == HG_OK)
            for (int i = 0; i < n; i++)
                sysof[npts++] = s;
        hg_particles_clear(&p);
        hg_psd_free(psd);
        if (st && rc == CLI_OK)
            rc = cli_fail(&e, st, npacking > 0);
    }
    if (rc)
        goto done;
    hg_lammps_work *w = malloc(sizeof *w * (size_t)npts);
    double *y = malloc(sizeof *y * (size_t)npts);
    hg_lammps_consts k = {0};
    st = !w || !y ? hg_fail(&e, HG_ENOMEM, "out of memory") : HG_OK;
    for (int i = 0; st == HG_OK && i < npts; i++) {
        w[i] = pts[i].work;
        y[i] = pts[i].timing.neigh;
    }
    if (st == HG_OK)
        st = hg_lammps_fit(w, y, npts, &k, &e);
    free(w);
    free(y);
    if (st) {
        rc = cli_fail(&e, st, 0);
        goto done;
    }
    char host[64] = "";
    gethostname(host, sizeof host - 1);
    snprintf(k.machine, sizeof k.machine, "%s, %ld online CPUs, %ld rank%s",
             host, sysconf(_SC_NPROCESSORS_ONLN), lo.mpi,
             lo.mpi == 1 ? "" : "s");
    snprintf(k.lammps, sizeof k.lammps, "%s", version);
    for (int i = 0; i < npts; i++)
        pts[i].predicted = hg_lammps_predict(&k, &pts[i].work);
    if (!strcmp(format, "json")) {
        cJSON *j = cli_json_document("hgridopt.lammps-fit/1", NULL);
        cJSON_AddStringToObject(j, "lammps", k.lammps);
        cJSON_AddStringToObject(j, "machine", k.machine);
        cJSON *cs = cJSON_AddObjectToObject(j, "constants_ns");
        cJSON *ss = cJSON_AddObjectToObject(j, "standard_errors_ns");
        for (int t = 0; t < HG_LAMMPS_NTERMS; t++) {
            cJSON_AddNumberToObject(cs, hg_lammps_term_name(t), 1e9 * k.c[t]);
            cJSON_AddNumberToObject(ss, hg_lammps_term_name(t), 1e9 * k.se[t]);
        }
        cJSON_AddNumberToObject(j, "r2", k.r2);
        cJSON *a = cJSON_AddArrayToObject(j, "points");
        for (int i = 0; i < npts; i++) {
            cJSON *pj = lmp_point_json(&pts[i]);
            cJSON_AddNumberToObject(pj, "system", sysof[i] + 1);
            cJSON_AddItemToArray(a, pj);
        }
        cli_json_print(stdout, j);
    } else {
        printf("LAMMPS %s on %s: %d measurements\n", k.lammps, k.machine,
               npts);
        printf("Neigh seconds per build = sum of count x constant "
               "(weighted least squares, R^2 = %.4f)\n",
               k.r2);
        for (int t = 0; t < HG_LAMMPS_NTERMS; t++)
            printf("  %-11s %10.4g ns  +- %.2g ns%s\n", hg_lammps_term_name(t),
                   1e9 * k.c[t], 1e9 * k.se[t],
                   k.c[t] == 0.0 ? "  (dropped: not > 0)" : "");
        printf("\n%s", lmp_point_header);
        int prev = -1;
        double bin = 0.0;
        for (int i = 0; i < npts; i++) {
            if (sysof[i] != prev) {
                prev = sysof[i];
                bin = pts[i].timing.neigh; /* each system starts with bin */
                printf("system %d: %s\n", prev + 1,
                       npacking ? packing[prev] : defaults[prev].psd);
            }
            lmp_print_point(stdout, "", &pts[i], bin);
        }
    }
    if (save) {
        char path[4096];
        if (file)
            snprintf(path, sizeof path, "%s", file);
        else if ((st = hg_lammps_consts_default_path(path, sizeof path, &e))) {
            rc = cli_fail(&e, st, 0);
            goto done;
        }
        if ((st = hg_lammps_consts_save(&k, path, &e))) {
            rc = cli_fail(&e, st, 0);
            goto done;
        }
        fprintf(stderr, "calibrate: LAMMPS constants saved to %s\n", path);
    }
done:
    free(pts);
    free(sysof);
    free(plist);
    return rc;
}


/* ---- recommend --engine lammps: the LAMMPS model's answer ---- */

int cli_lammps_answer(const cli_system *cs, long atoms, long ranks,
                      long max_coll, cli_lammps_result *out)
{
    memset(out, 0, sizeof *out);
    int rc = lmp_load_consts(&out->consts, &out->consts_source);
    if (rc)
        return rc;
    hg_lammps_system *sys = &out->sys;
    lmp_system_from_cli(cs, atoms, ranks, sys);
    hg_err e = {0};
    int st = hg_lammps_optimise(cs->psd, sys, &out->consts, (int)max_coll,
                                0.01, &out->opt, &e);
    if (st)
        return cli_fail(&e, st, 0);
    hg_export_lammps_input in = {cs->psd, sys, &out->opt,
                                 out->consts_source, cs->name, cs->unit};
    if ((st = hg_export_lammps_model(&in, &out->text, &e)))
        return cli_fail(&e, st, 0);
    return CLI_OK;
}

void cli_lammps_result_clear(cli_lammps_result *r)
{
    free(r->text);
    r->text = NULL;
}
