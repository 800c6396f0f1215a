/* resolve.c - the driver layer's first step: common options (system,
 * distribution, K, cost model) resolved into library inputs. */
#include "cli.h"
#include "hg_calib.h"
#include "hg_export.h"
#include "hg_pack_gen.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A --psd spec naming a file (table, sample): an error about the file's
 * content names the file and is a data error; one about the spec's own
 * parameters (a missing size=, a bad basis=) is a usage error. */
static int psd_error_names_file(const char *spec, const char *msg)
{
    const char *f = strstr(spec, "file=");
    if (!f)
        return 0;
    f += 5;
    size_t n = strcspn(f, ",");
    char path[4096];
    snprintf(path, sizeof path, "%.*s", (int)n, f);
    return n > 0 && strstr(msg, path) != NULL;
}

void cli_system_clear(cli_system *cs)
{
    if (!cs)
        return;
    hg_sysfile_clear(&cs->file);
    if (cs->has_packing)
        hg_particles_clear(&cs->packing);
    cs->has_packing = 0;
    hg_snapshot_free(cs->snapshot);
    cs->snapshot = NULL;
    hg_psd_free(cs->psd);
    cs->psd = NULL;
    free(cs->consts);
    cs->consts = NULL;
    cs->values.consts = NULL;
}

/* The constants of the engine the command describes (--engine, else the
 * one declaring --model's model), resolved once here and handed to every
 * model evaluation as cs->values.consts: no model reads a file. */
const hg_engine *cli_engine_of(const cli_opts *o)
{
    if (o->engine)
        return hg_engine_find(o->engine);
    if (o->model_text && hg_engine_of_model(o->model_text))
        return hg_engine_of_model(o->model_text);
    for (size_t i = 0; o->format && i < hg_engine_count(); i++) {
        const hg_engine *g = hg_engine_at(i);
        if (g->settings_format && !strcmp(g->settings_format, o->format))
            return g;
    }
    return NULL;
}

static int resolve_engine_consts(cli_system *cs)
{
    const hg_engine *eng = cli_engine_of(&cs->opt);
    cs->consts_source[0] = '\0';
    if (eng && eng->model_values) {
        hg_kv kv = {0};
        hg_err e = {0};
        int st = hg_kv_parse(eng->model_values, &kv, &e);
        for (size_t i = 0; i < kv.n && !st; i++)
            st = hg_model_values_set(&cs->values, kv.items[i].key,
                                     atof(kv.items[i].val), &e);
        hg_kv_clear(&kv);
        if (st)
            return cli_fail(&e, st, 0);
    }
    if (!eng || !eng->consts)
        return CLI_OK;
    if (!(cs->consts = calloc(1, sizeof(hg_consts)))) {
        cli_error("out of memory");
        return CLI_EDATA;
    }
    hg_err e = {0};
    int st = hg_engine_consts(eng, cs->sys.dim, cs->consts, cs->consts_source,
                              sizeof cs->consts_source, &e);
    if (st)
        return cli_fail(&e, st, 1);
    cs->values.consts = cs->consts;
    return CLI_OK;
}

/* --frame first|last|N|-N|step=S into o. */
static int parse_frame(const char *text, hg_io_options *o)
{
    hg_err e = {0};
    long v;
    if (!strcmp(text, "last"))
        o->frame = 0;
    else if (!strcmp(text, "first"))
        o->frame = 1;
    else if (!strncmp(text, "step=", 5)) {
        double s;
        if (hg_parse_double(text + 5, "--frame step", &s, &e) ||
            s != floor(s) || fabs(s) > 9e15) {
            cli_error("--frame: '%s' is not step=S with an integer timestep "
                      "S", text);
            return CLI_EUSAGE;
        }
        o->by_step = 1;
        o->step = (long long)s;
    } else if (hg_parse_long(text, "--frame", -1000000000L, 1000000000L, &v,
                             &e) == HG_OK &&
               v != 0) {
        o->frame = v;
    } else {
        cli_error("--frame: '%s' is not last, first, N (1 = the first), -N "
                  "(from the end) or step=S",
                  text);
        return CLI_EUSAGE;
    }
    return CLI_OK;
}

/* --type-radius T=R,...: radius[t-1] for types 1..*n (caller frees). */
static int parse_type_radius(const char *text, double **radius, size_t *n)
{
    *radius = NULL;
    *n = 0;
    hg_kv kv = {0};
    hg_err e = {0};
    if (hg_kv_parse(text, &kv, &e) || kv.n == 0) {
        cli_error("--type-radius: '%s' is not TYPE=RADIUS,... (e.g. "
                  "1=0.5,2=1)",
                  text);
        hg_kv_clear(&kv);
        return CLI_EUSAGE;
    }
    long tmax = 0;
    int rc = CLI_OK;
    for (size_t i = 0; i < kv.n && !rc; i++) {
        long t;
        if (hg_parse_long(kv.items[i].key, "--type-radius type", 1, 100000,
                          &t, &e)) {
            cli_error("--type-radius: type '%s' is not an atom type (1, 2, "
                      "...)",
                      kv.items[i].key);
            rc = CLI_EUSAGE;
        }
        tmax = t > tmax ? t : tmax;
    }
    double *r = rc ? NULL : calloc((size_t)tmax, sizeof *r);
    if (!rc && !r) {
        cli_error("out of memory");
        rc = CLI_EDATA;
    }
    for (size_t i = 0; i < kv.n && !rc; i++) {
        long t = atol(kv.items[i].key);
        double v;
        if (hg_parse_double(kv.items[i].val, "--type-radius", &v, &e) ||
            !(v > 0.0)) {
            cli_error("--type-radius: radius '%s' of type %ld is not a "
                      "number > 0",
                      kv.items[i].val, t);
            rc = CLI_EUSAGE;
        } else {
            r[t - 1] = v;
        }
    }
    hg_kv_clear(&kv);
    if (rc) {
        free(r);
        return rc;
    }
    *radius = r;
    *n = (size_t)tmax;
    return CLI_OK;
}

/* Read --packing with --frame and --type-radius, and decide its boundary:
 * --boundary, else the file's own, else what the gaps tell, else the
 * format's default, said as assumed. */
static int load_packing(cli_system *cs)
{
    hg_io_options io = {0};
    double *tr = NULL;
    int rc;
    if (cs->opt.frame_text && (rc = parse_frame(cs->opt.frame_text, &io)))
        return rc;
    if (cs->opt.type_radius_text &&
        (rc = parse_type_radius(cs->opt.type_radius_text, &tr, &io.n_types)))
        return rc;
    io.type_radius = tr;
    cli_progress pr;
    io.progress = cli_progress_start(&pr);
    io.progress_params = &pr;
    hg_err e = {0};
    int st = hg_io_load(cs->opt.packing_path, &io, &cs->packing,
                        &cs->file_info, &e);
    cli_progress_end(&pr);
    free(tr);
    if (st)
        return cli_fail(&e, st, 1);
    cs->has_packing = 1;
    const hg_io_info *fi = &cs->file_info;
    if (cs->opt.frame_text && fi->format != HG_IO_DUMP &&
        fi->format != HG_IO_MERCURY_DATA) {
        cli_error("--frame: '%s' is a %s, a file of one frame",
                  cs->opt.packing_path, fi->kind);
        return CLI_EUSAGE;
    }
    if (cs->opt.type_radius_text && !(fi->format == HG_IO_DUMP))
        fprintf(stderr, "hgridopt: note: --type-radius: '%s' has its radii; "
                        "the option is not used\n",
                cs->opt.packing_path);
    hg_particles *p = &cs->packing;
    for (int a = 0; a < 3; a++) {
        snprintf(cs->boundary_axes[a], sizeof cs->boundary_axes[a], "file");
        cs->boundary_gap[a] = NAN;
    }
    char given[8];
    if (cs->opt.boundary_text) {
        if ((st = hg_particles_set_boundary(p, cs->opt.boundary_text, &e))) {
            cli_error("--boundary: %s", e.msg);
            return CLI_EUSAGE;
        }
        cs->boundary_source = CLI_BOUNDARY_GIVEN;
        for (int a = 0; a < 3; a++)
            snprintf(cs->boundary_axes[a], sizeof cs->boundary_axes[a],
                     "given");
        snprintf(cs->boundary_why, sizeof cs->boundary_why,
                 "given (--boundary)%s",
                 fi->boundary_stated ? "; the file states its own, which "
                                       "this replaces"
                                     : "");
        return CLI_OK;
    }
    if (fi->boundary_stated) {
        cs->boundary_source = CLI_BOUNDARY_FILE;
        snprintf(cs->boundary_why, sizeof cs->boundary_why, "from the file");
        return CLI_OK;
    }
    if (p->box_inferred) {
        cs->boundary_source = CLI_BOUNDARY_ASSUMED;
        for (int a = 0; a < 3; a++)
            snprintf(cs->boundary_axes[a], sizeof cs->boundary_axes[a],
                     "assumed");
        snprintf(cs->boundary_why, sizeof cs->boundary_why,
                 "assumed: the file gives no box, so the box is the "
                 "bounding box of the spheres with walls; if your "
                 "simulation's box differs, give it in the file (see "
                 "'hgridopt pack --help')");
        return CLI_OK;
    }
    /* the file does not say: what the gaps tell, the rest assumed */
    double skin = 0.0;
    if (cs->opt.skin_text)
        (void)hg_parse_double(cs->opt.skin_text, "--skin", &skin, NULL);
    double rmax = hg_particles_rmax(p);
    double reach = 6.4 * rmax + (skin > 0.0 ? skin : 0.0);
    int told[3];
    int n = hg_particles_boundary_infer(p, reach, told, cs->boundary_gap);
    int d = p->dim;
    hg_particles_boundary_text(p, given);
    char inferred[128] = "", assumed[16] = ""; /* "x, y, z" at most */
    for (int a = 0; a < d; a++) {
        snprintf(cs->boundary_axes[a], sizeof cs->boundary_axes[a], "%s",
                 told[a] ? "inferred" : "assumed");
        if (told[a])
            snprintf(inferred + strlen(inferred),
                     sizeof inferred - strlen(inferred), "%s%c (gap %.4g)",
                     inferred[0] ? ", " : "", "xyz"[a], cs->boundary_gap[a]);
        else
            snprintf(assumed + strlen(assumed),
                     sizeof assumed - strlen(assumed), "%s%c",
                     assumed[0] ? ", " : "", "xyz"[a]);
    }
    if (n == d) {
        cs->boundary_source = CLI_BOUNDARY_INFERRED;
        snprintf(cs->boundary_why, sizeof cs->boundary_why,
                 "inferred: the file does not say; along %s the spheres "
                 "leave a gap wider than any search (%.4g = 6.4 r_max%s), "
                 "so those axes behave as non-periodic",
                 inferred, reach, skin > 0.0 ? " + skin" : "");
        return CLI_OK;
    }
    cs->boundary_source = CLI_BOUNDARY_ASSUMED;
    snprintf(cs->boundary_why, sizeof cs->boundary_why,
             "assumed %s: %s does not say the boundary and the spheres "
             "reach the box's faces along %s (%s assumed %s)%s%s%s; if "
             "your input's boundary differs, give it: --boundary \"%s\" "
             "with your letters",
             given, fi->kind, assumed, assumed, fi->boundary_default,
             n ? "; non-periodic " : "",
             n ? "(inferred from the gaps): " : "", n ? inferred : "",
             given);
    return CLI_OK;
}

int cli_system_resolve(cli_system *cs, int need_nu)
{
    hg_err e = {0};
    int st;
    int have_file = cs->opt.system_path != NULL;
    if (have_file) {
        st = hg_sysfile_load(cs->opt.system_path, &cs->file, &e);
        if (st)
            return cli_fail(&e, st, 1);
    }
    hg_psd *packing_psd = NULL;
    hg_system packing_sys = {0, 0.0};
    static const char *const file_opts[][2] = {
        {"--boundary", "boundary_text"}, {"--frame", "frame_text"},
        {"--type-radius", "type_radius_text"}};
    const char *file_vals[3] = {cs->opt.boundary_text, cs->opt.frame_text,
                                cs->opt.type_radius_text};
    for (int k = 0; k < 3 && !cs->opt.packing_path; k++)
        if (file_vals[k]) {
            cli_error("%s: '%s' describes a particle file; give it with "
                      "--packing FILE",
                      file_opts[k][0], file_vals[k]);
            return CLI_EUSAGE;
        }
    if (cs->opt.packing_path) {
        if ((st = load_packing(cs)))
            return st;
        st = hg_io_system_from_particles(&cs->packing, &packing_psd,
                                         &packing_sys, &e);
        if (st)
            return cli_fail(&e, st, 1);
        /* an assumed boundary: one note on stderr whatever the format
         * (the table repeats it on its boundary line, JSON carries it) */
        if (cs->packing.box_inferred)
            cli_note_inferred_box(cs->opt.packing_path, &cs->packing);
        else if (cs->boundary_source == CLI_BOUNDARY_ASSUMED)
            fprintf(stderr, "hgridopt: note: boundary %s\n",
                    cs->boundary_why);
        /* the density the particles experience and their pair
         * statistics, measured (a snapshot's box is not its bed) */
        cli_progress pr;
        hg_progress_fn fn = cli_progress_start(&pr);
        st = hg_snapshot_create_progress(&cs->packing, fn, &pr,
                                         &cs->snapshot, &e);
        cli_progress_end(&pr);
        if (st) {
            hg_psd_free(packing_psd);
            cli_error("--packing: '%s': %s", cs->opt.packing_path, e.msg);
            return CLI_EDATA;
        }
        const hg_snapshot_info *si = hg_snapshot_get_info(cs->snapshot);
        if (si->nu_local > 0.0 && si->nu_local < 1.0)
            packing_sys.nu = si->nu_local;
        if (cs->opt.dim_text && atoi(cs->opt.dim_text) != packing_sys.dim) {
            hg_psd_free(packing_psd);
            cli_error("--dim: %s contradicts the %dD particle file '%s'",
                      cs->opt.dim_text, packing_sys.dim, cs->opt.packing_path);
            return CLI_EUSAGE;
        }
        /* the particle file's dim and nu override a system file's */
        cs->file.has_dim = 1;
        cs->file.dim = packing_sys.dim;
        if (!cs->opt.nu_text && !(packing_sys.nu > 0.0 && packing_sys.nu < 1.0)) {
            hg_psd_free(packing_psd);
            cli_error("--packing: the packing fraction of '%s' is %g, "
                      "outside (0, 1)", cs->opt.packing_path, packing_sys.nu);
            return CLI_EDATA;
        }
        cs->file.has_nu = 1;
        cs->file.nu = packing_sys.nu;
    }
    /* dimension */
    cs->sys.dim = 0;
    if (cs->opt.dim_text) {
        long d;
        if ((st = hg_parse_long(cs->opt.dim_text, "--dim", 2, 3, &d, &e)))
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
    if (cs->opt.nu_text) {
        if ((st = hg_parse_double(cs->opt.nu_text, "--nu", &cs->sys.nu, &e)))
            return cli_fail(&e, st, 0);
        if (!(cs->sys.nu > 0.0 && cs->sys.nu < 1.0)) {
            cli_error("--nu: %s is outside (0, 1)", cs->opt.nu_text);
            return CLI_EUSAGE;
        }
    } else if (cs->file.has_nu) {
        cs->sys.nu = cs->file.nu;
    } else if (need_nu) {
        cli_error("--nu: missing (give the packing fraction, 0 < nu < 1)");
        return CLI_EUSAGE;
    }
    /* structure: option > system file > measured from --packing > poisson */
    cs->sys.structure = HG_STRUCTURE_POISSON;
    cs->sys.snapshot = cs->snapshot;
    if (cs->opt.structure_text) {
        if (hg_structure_parse(cs->opt.structure_text, &cs->sys.structure,
                               &e)) {
            cli_error("--structure: unknown value '%s' (poisson, "
                      "hard-spheres or measured)",
                      cs->opt.structure_text);
            return CLI_EUSAGE;
        }
        snprintf(cs->structure_why, sizeof cs->structure_why,
                 "given (--structure)");
        if (cs->sys.structure == HG_STRUCTURE_MEASURED && !cs->has_packing) {
            cli_error("--structure: measured needs a particle file "
                      "(--packing FILE)");
            return CLI_EUSAGE;
        }
    } else if (cs->file.has_structure) {
        cs->sys.structure = cs->file.structure;
        snprintf(cs->structure_why, sizeof cs->structure_why,
                 "from the system file");
    } else if (cs->has_packing) {
        const hg_snapshot_info *si = hg_snapshot_get_info(cs->snapshot);
        cs->sys.structure = HG_STRUCTURE_MEASURED;
        snprintf(cs->structure_why, sizeof cs->structure_why,
                 "measured from the particle file: %.3g contacts per "
                 "particle (%.3g for random centres), largest overlap "
                 "%.3g of the smaller radius",
                 si->coordination, si->coordination_poisson,
                 si->max_overlap);
    } else {
        snprintf(cs->structure_why, sizeof cs->structure_why, "default");
    }
    /* K: one resolver decides (command line, system file, calibration
     * file, shipped default or paper value, by the target the output
     * format describes) */
    /* (table and json of an engine given by --engine describe its code) */
    const hg_engine *eng = cs->opt.engine ? hg_engine_find(cs->opt.engine)
                                          : NULL;
    const hg_engine *K_of = hg_engine_K_of(eng, cs->opt.format);
    const char *kt = cs->opt.K_text ? cs->opt.K_text
                     : cs->file.K_auto ? "auto" /* "K": "auto" in the file */
                                       : NULL;
    hg_K_request kr = {K_of, cs->sys.dim, kt, cs->file.has_K,
                       cs->file.K, cs->file.path, NULL};
    if ((st = hg_K_resolve(&kr, &cs->Kc, &e))) {
        /* a bad --K value is a usage error; a calibration file that is
         * missing, malformed or lacks the dimension is a data problem */
        int bad_text = cs->opt.K_text && strcmp(cs->opt.K_text, "auto") &&
                       strcmp(cs->opt.K_text, "paper") &&
                       strcmp(cs->opt.K_text, "shipped");
        cli_error("%s", e.msg);
        return bad_text ? CLI_EUSAGE : CLI_EDATA;
    }
    cs->K = cs->Kc.K;
    cs->K_auto = cs->Kc.source == HG_K_SOURCE_CALIBRATION;
    memset(&cs->values, 0, sizeof cs->values);
    /* K, and C for the bundled HGrid with its own K (--param C=V sets C) */
    if ((st = hg_K_values_set(&cs->Kc, &cs->values, &e)))
        return cli_fail(&e, st, 0);
    if ((st = resolve_engine_consts(cs)))
        return st;
    /* distribution */
    hg_psd_ctx ctx = {cs->sys.dim, NULL};
    if (cs->opt.psd_spec)
        hg_psd_free(packing_psd);
    if (packing_psd && !cs->opt.psd_spec) {
        cs->psd = packing_psd;
    } else if (cs->opt.psd_spec) {
        st = hg_psd_parse(cs->opt.psd_spec, &ctx, &cs->psd, &e);
        if (st)
            return cli_fail(&e, st,
                            psd_error_names_file(cs->opt.psd_spec, e.msg));
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
    /* the neighbour skin the settings and the models assume */
    cs->skin_given = cs->opt.skin_text != NULL;
    if (cs->skin_given) {
        double v = NAN;
        if (hg_parse_double(cs->opt.skin_text, "--skin", &v, &e) ||
            !(v > 0.0)) {
            cli_error("--skin: '%s' is not a skin > 0 (your input's neighbor "
                      "SKIN, in the file's length unit)",
                      cs->opt.skin_text);
            return CLI_EUSAGE;
        }
        cs->export_skin = v;
        snprintf(cs->skin_why, sizeof cs->skin_why, "given (--skin)");
    } else {
        cs->export_skin = hg_export_default_skin(cs->psd);
        snprintf(cs->skin_why, sizeof cs->skin_why,
                 "hgridopt's default, 10 %% of the smallest diameter: give "
                 "your input's neighbor skin with --skin");
    }
    cs->name = cs->file.name;
    cs->unit = cs->file.length_unit;
    cs->particles = cs->file.has_particles ? cs->file.particles : 0;
    if (cs->has_packing)
        cs->particles = (long)cs->packing.n;
    return CLI_OK;
}


const char cli_param_help[] =
    "  --param N=V,...  set parameters the model declares, e.g. "
    "atoms=1e6,ranks=4\n"
    "                   for lammps-multi (see 'hgridopt help models'; K: "
    "--K)\n";

int cli_params_apply(cli_system *cs, const char *text,
                     const hg_model *const *models, size_t n)
{
    if (!text)
        return CLI_OK;
    /* the declared names, for the messages */
    char names[256] = "";
    for (size_t i = 0; i < n; i++)
        for (int k = 0; models[i] && k < models[i]->n_params; k++) {
            const char *p = models[i]->params[k].name;
            int seen = 0;
            for (size_t j = 0; j < i && !seen; j++)
                seen = hg_model_param_index(models[j], p) >= 0;
            if (!seen)
                snprintf(names + strlen(names), sizeof names - strlen(names),
                         "%s%s", names[0] ? ", " : "", p);
        }
    char *copy = strdup(text);
    if (!copy) {
        cli_error("out of memory");
        return CLI_EDATA;
    }
    hg_model_values given = {0};
    int rc = CLI_OK;
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item && !rc;
         item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq || eq == item || !eq[1]) {
            cli_error("--param: '%s' is not NAME=VALUE (e.g. atoms=1e6)",
                      item);
            rc = CLI_EUSAGE;
            break;
        }
        *eq = '\0';
        const char *name = item, *val = eq + 1;
        char *end;
        double x = strtod(val, &end);
        const hg_model_param *decl = NULL;
        for (size_t i = 0; i < n && !decl; i++) {
            int k = hg_model_param_index(models[i], name);
            if (k >= 0)
                decl = &models[i]->params[k];
        }
        double old;
        if (!strcmp(name, "K")) {
            cli_error("--param K: give K with --K (its source is reported)");
            rc = CLI_EUSAGE;
        } else if (!decl) {
            cli_error("--param %s: not a parameter of %s%s (%s: %s)", name,
                      n == 1 ? "" : "the models ",
                      n == 1 && models[0] ? models[0]->name : "evaluated",
                      "declared", names[0] ? names : "none");
            rc = CLI_EUSAGE;
        } else if (*end || end == val || !isfinite(x)) {
            cli_error("--param %s: '%s' is not a number", name, val);
            rc = CLI_EUSAGE;
        } else if (hg_model_values_get(&given, name, &old)) {
            cli_error("--param %s: given twice", name);
            rc = CLI_EUSAGE;
        } else if (!strcmp(name, "skin") && cs->skin_given) {
            cli_error("--param skin: --skin gives the skin too (in length "
                      "units; --param skin in units of the smallest "
                      "diameter); give one");
            rc = CLI_EUSAGE;
        } else if (decl->open_min ? !(x > decl->min) : !(x >= decl->min)) {
            cli_error("--param %s: %g must be %s %g (%s)", name, x,
                      decl->open_min ? ">" : ">=", decl->min, decl->help);
            rc = CLI_EUSAGE;
        } else if (!(x <= decl->max)) {
            cli_error("--param %s: %g must be <= %g (%s)", name, x,
                      decl->max, decl->help);
            rc = CLI_EUSAGE;
        } else {
            hg_err e = {0};
            int st = hg_model_values_set(&given, name, x, &e);
            if (!st)
                st = hg_model_values_set(&cs->values, name, x, &e);
            if (st)
                rc = cli_fail(&e, st, 0);
            if (!st && !strcmp(name, "skin")) {
                cs->export_skin = x * 2.0 * hg_psd_rmin(cs->psd);
                snprintf(cs->skin_why, sizeof cs->skin_why,
                         "given (--param skin=%g: %g x the smallest "
                         "diameter)",
                         x, x);
            }
        }
    }
    free(copy);
    return rc;
}

int cli_size_params(cli_system *cs, const hg_model *const *models, size_t n,
                    long atoms, long ranks)
{
    int has_atoms = 0, has_ranks = 0;
    for (size_t i = 0; i < n; i++) {
        has_atoms |= models[i] && hg_model_param_index(models[i], "atoms") >= 0;
        has_ranks |= models[i] && hg_model_param_index(models[i], "ranks") >= 0;
    }
    double given;
    hg_err e = {0};
    int st = HG_OK;
    if (atoms > 0 && hg_model_values_get(&cs->values, "atoms", &given)) {
        cli_error("--atoms: the same as --param atoms=N; give one");
        return CLI_EUSAGE;
    }
    if (has_atoms && !hg_model_values_get(&cs->values, "atoms", &given)) {
        double a = atoms > 0 ? (double)atoms : (double)cs->particles;
        if (a > 0.0)
            st = hg_model_values_set(&cs->values, "atoms", a, &e);
    }
    if (!st && has_ranks && ranks > 0 &&
        !hg_model_values_get(&cs->values, "ranks", &given))
        st = hg_model_values_set(&cs->values, "ranks", (double)ranks, &e);
    return st ? cli_fail(&e, st, 0) : CLI_OK;
}

int cli_model_resolve(const cli_opts *o, const char *const *words,
                      const hg_model *dflt, const hg_model **model,
                      const char **word)
{
    *model = dflt;
    *word = NULL;
    const char *text = o->model_text ? o->model_text : o->algorithm_text;
    const char *opt = o->model_text ? "--model" : "--algorithm";
    if (o->model_text && o->algorithm_text) {
        cli_error("--algorithm: '%s' is a shorthand for --model; give one "
                  "of them", o->algorithm_text);
        return CLI_EUSAGE;
    }
    if (!text)
        return CLI_OK;
    for (size_t i = 0; words && words[i]; i++)
        if (!strcmp(text, words[i])) {
            *model = NULL;
            *word = words[i];
            return CLI_OK;
        }
    hg_algorithm a;
    if (o->model_text)
        *model = hg_model_find(text);
    else if (hg_algorithm_parse(text, &a, NULL) == HG_OK)
        *model = hg_model_for_grid(a);
    else
        *model = NULL;
    if (*model)
        return CLI_OK;
    char list[256] = "";
    for (size_t i = 0; words && words[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s, ",
                 words[i]);
    if (o->model_text)
        for (size_t i = 0; i < hg_model_count(); i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     i ? ", " : "", hg_model_at(i)->name);
    else
        snprintf(list + strlen(list), sizeof list - strlen(list),
                 "top-down, bottom-up");
    cli_error("%s: unknown value '%s' (one of: %s)", opt, text, list);
    return CLI_EUSAGE;
}

/* The message is printed for hard spheres only (their packing takes time
 * to make, a Poisson one does not) and, like progress, only on a
 * terminal: the output names the generator too. */
int cli_announce_packing(const char *cmd, const cli_system *cs, size_t n,
                         long seed)
{
    hg_pack_params pp = {cs->sys.dim, n, cs->sys.nu, (uint64_t)seed, 1};
    hg_pack_choice ch;
    hg_err e = {0};
    int st = hg_pack_structure_choose(&pp, cs->sys.structure, &ch, &e);
    if (st)
        return cli_fail(&e, st, 0);
    double need = hg_pack_memory_estimate(ch.generator, cs->sys.dim, n);
    double have = (double)sysconf(_SC_PHYS_PAGES) *
                  (double)sysconf(_SC_PAGE_SIZE);
    char mem[32];
    if (have > 0.0 && need > have) {
        cli_error("--n: %zu particles with the %s generator need about "
                  "%.3g GiB of memory, more than the %.3g GiB of this "
                  "machine", n, ch.generator, need / 1073741824.0,
                  have / 1073741824.0);
        return CLI_EUSAGE;
    }
    if (cs->sys.structure != HG_STRUCTURE_POISSON && isatty(STDERR_FILENO))
        fprintf(stderr, "%s: packing %zu particles with the %s generator "
                "(about %s of memory): %s\n", cmd, n, ch.generator,
                cli_bytes(need, mem, sizeof mem), ch.why);
    return CLI_OK;
}
