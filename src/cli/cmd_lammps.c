/* cmd_lammps.c - the lammps engine's answer in recommend and evaluate:
 * its settings in words and JSON, its system lines; the model and running
 * lmp live in the library (hg_lammps.h, src/engines/lammps/). */
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

cJSON *lmp_setting_json(const hg_lammps_setting *s)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "style", s->ncoll ? "multi" : "bin");
    cJSON_AddNumberToObject(j, "collections", s->ncoll);
    if (s->ncoll)
        cli_json_add_array(j, "cutoffs", s->cut, s->ncoll);
    return j;
}


void lmp_print_system(FILE *out, const cli_system *cs,
                      const hg_lammps_system *sys, const char *consts_source)
{
    const char *u = cs->c.unit ? cs->c.unit : "";
    fprintf(out, "engine:         lammps (LAMMPS' neighbor build, model "
                 "constants: %s)\n", consts_source);
    if (cs->c.name)
        fprintf(out, "system:         %s\n", cs->c.name);
    fprintf(out, "distribution:   %s\n", hg_psd_spec(cs->c.psd));
    fprintf(out, "radii:          %.6g .. %.6g%s%s (omega = %.6g)\n",
            hg_psd_rmin(cs->c.psd), hg_psd_rmax(cs->c.psd), *u ? " " : "", u,
            hg_psd_rmax(cs->c.psd) / hg_psd_rmin(cs->c.psd));
    fprintf(out, "dim %d, nu = %.6g, %.6g atoms (%.6g per rank), %d "
                 "rank%s\n",
            sys->dim, sys->nu, sys->atoms, sys->atoms / sys->nprocs,
            sys->nprocs, sys->nprocs == 1 ? "" : "s");
    fprintf(out, "skin:           %.6g, %s\n", sys->skin, cs->c.skin_why);
    cli_print_structure(out, cs);
}

cJSON *lmp_json_document(const char *schema, const cli_system *cs,
                         const hg_lammps_system *sys,
                         const char *consts_source)
{
    cJSON *j = cli_json_document(schema, cs);
    cJSON_AddStringToObject(j, "engine", "lammps");
    if (cs->c.name)
        cJSON_AddStringToObject(j, "name", cs->c.name);
    cJSON_AddStringToObject(j, "distribution", hg_psd_spec(cs->c.psd));
    cJSON_AddNumberToObject(j, "r_min", hg_psd_rmin(cs->c.psd));
    cJSON_AddNumberToObject(j, "r_max", hg_psd_rmax(cs->c.psd));
    cJSON_AddNumberToObject(j, "dim", sys->dim);
    cJSON_AddNumberToObject(j, "nu", sys->nu);
    cJSON_AddStringToObject(j, "structure",
                            hg_structure_name(cs->c.sys.structure));
    cli_json_add_snapshot(j, cs);
    cJSON_AddNumberToObject(j, "atoms", sys->atoms);
    cJSON_AddNumberToObject(j, "atoms_per_rank", sys->atoms / sys->nprocs);
    cJSON_AddNumberToObject(j, "ranks", sys->nprocs);
    cJSON_AddNumberToObject(j, "skin", sys->skin);
    cJSON_AddStringToObject(j, "skin_source", cs->c.skin_why);
    cJSON_AddBoolToObject(j, "skin_given", cs->c.skin_given);
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

void lmp_system_from_cli(const cli_system *cs, long atoms, long ranks,
                         hg_lammps_system *sys)
{
    sys->dim = cs->c.sys.dim;
    sys->nu = cs->c.sys.nu;
    sys->atoms = atoms > 0           ? (double)atoms
                 : cs->c.has_packing   ? (double)cs->c.packing.n
                 : cs->c.particles > 0 ? (double)cs->c.particles
                                     : 50000.0;
    sys->skin = cs->c.skin > 0.0 ? cs->c.skin
                                      : hg_export_default_skin(cs->c.psd);
    sys->nprocs = (int)ranks;
    sys->structure = cs->c.sys.structure;
    sys->snapshot = cs->c.sys.snapshot;
    lmp_system_params(cs, sys);
}

void lmp_system_params(const cli_system *cs, hg_lammps_system *sys)
{
    double v;
    if (hg_model_values_get(&cs->c.values, "atoms", &v))
        sys->atoms = v;
    if (hg_model_values_get(&cs->c.values, "ranks", &v))
        sys->nprocs = (int)v;
    if (hg_model_values_get(&cs->c.values, "skin", &v))
        sys->skin = v * 2.0 * hg_psd_rmin(cs->c.psd);
}

int lmp_load_consts(hg_consts *c, const char **source)
{
    hg_err e = {0};
    int from_file = 0;
    int st = hg_consts_auto(&hg_lammps_consts_kind, c, &from_file, NULL, 0,
                            &e);
    if (st)
        return cli_fail(&e, st, 1);
    *source = from_file ? "stored calibration" : "shipped defaults";
    return CLI_OK;
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
    /* hg_recommend over the engine's models, bin and multi (the model's
     * own optimiser finds the cutoffs), in the terms of the export */
    hg_model_values v = {0};
    v.consts = &out->consts;
    double rmin = hg_psd_rmin(cs->c.psd);
    hg_recommend_options ro;
    hg_recommend_options_default(&ro);
    ro.n_models = 2;
    ro.models[0] = hg_model_find("lammps-bin");
    ro.models[1] = hg_model_find("lammps-multi");
    ro.max_levels = (int)max_coll;
    hg_recommendation r;
    int st;
    if ((st = hg_model_values_set(&v, "atoms", sys->atoms, &e)) ||
        (st = hg_model_values_set(&v, "ranks", sys->nprocs, &e)) ||
        (st = hg_model_values_set(&v, "skin", sys->skin / (2.0 * rmin), &e)) ||
        (st = hg_recommend(cs->c.psd, &cs->c.sys, &v, &ro, &r, &e)))
        return cli_fail(&e, st, 0);
    hg_lammps_optimum *o = &out->opt;
    memset(o, 0, sizeof *o);
    double unit = out->consts.c[0] * sys->atoms / sys->nprocs;
    o->max_coll = (int)max_coll;
    o->bin_seconds = o->by_n_seconds[0] = r.curves[0].points[0].T * unit;
    for (int L = 1; L <= o->max_coll && st == HG_OK; L++) {
        const hg_curve_point *pt = &r.curves[1].points[L - 1];
        hg_lammps_setting *s = &o->by_n[L];
        o->by_n_seconds[L] = NAN;
        if (hg_lammps_setting_from_sizes(cs->c.psd, L, pt->sizes, s, &e) ==
                HG_OK &&
            s->ncoll == L)
            o->by_n_seconds[L] = pt->T * unit;
    }
    if (strcmp(r.model->name, "lammps-bin"))
        st = hg_lammps_setting_from_sizes(cs->c.psd, r.levels, r.cell_sizes,
                                          &o->best, &e);
    o->seconds = r.cost.T * unit;
    hg_recommendation_clear(&r);
    if (st)
        return cli_fail(&e, st, 0);
    hg_export_lammps_input in = {cs->c.psd,   sys,      &out->opt,
                                 out->consts_source, cs->c.name, cs->c.unit,
                                 cs->c.skin_why};
    if ((st = hg_export_lammps_model(&in, &out->text, &e)))
        return cli_fail(&e, st, 0);
    return CLI_OK;
}

void cli_lammps_result_clear(cli_lammps_result *r)
{
    free(r->text);
    r->text = NULL;
}
