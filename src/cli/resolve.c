/* resolve.c - the driver layer's first step: common options (system,
 * distribution, K, cost model) resolved into library inputs. */
#include "cli.h"
#include "hg_calib.h"
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
    if (!eng || !eng->consts_resolve || !eng->consts_size)
        return CLI_OK;
    if (!(cs->consts = calloc(1, eng->consts_size))) {
        cli_error("out of memory");
        return CLI_EDATA;
    }
    hg_err e = {0};
    int st = eng->consts_resolve(cs->sys.dim, cs->consts, cs->consts_source,
                                 sizeof cs->consts_source, &e);
    if (st)
        return cli_fail(&e, st, 1);
    cs->values.consts = cs->consts;
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
    if (cs->opt.boundary_text && !cs->opt.packing_path) {
        cli_error("--boundary: '%s' describes a particle file; give it "
                  "with --packing FILE",
                  cs->opt.boundary_text);
        return CLI_EUSAGE;
    }
    if (cs->opt.packing_path) {
        st = hg_io_read(cs->opt.packing_path, HG_IO_AUTO, &cs->packing, &e);
        if (st)
            return cli_fail(&e, st, 1);
        cs->has_packing = 1;
        cli_note_inferred_box(cs->opt.packing_path, &cs->packing);
        if (cs->opt.boundary_text &&
            (st = hg_particles_set_boundary(&cs->packing,
                                            cs->opt.boundary_text, &e))) {
            cli_error("--boundary: %s", e.msg);
            return CLI_EUSAGE;
        }
        st = hg_io_system_from_particles(&cs->packing, &packing_psd,
                                         &packing_sys, &e);
        if (st)
            return cli_fail(&e, st, 1);
        /* the density the particles experience and their pair
         * statistics, measured (a snapshot's box is not its bed) */
        if ((st = hg_snapshot_create(&cs->packing, &cs->snapshot, &e))) {
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
    int plain = !cs->opt.format || !strcmp(cs->opt.format, "table") ||
                !strcmp(cs->opt.format, "json");
    cs->K_target = hg_K_target_for_format(
        plain && eng && eng->settings_format ? eng->settings_format
                                             : cs->opt.format);
    const char *kt = cs->opt.K_text ? cs->opt.K_text
                     : cs->file.K_auto ? "auto" /* "K": "auto" in the file */
                                       : NULL;
    hg_K_request kr = {cs->K_target, cs->sys.dim, kt, cs->file.has_K,
                       cs->file.K,      cs->file.path, NULL};
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
        }
    }
    free(copy);
    return rc;
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
