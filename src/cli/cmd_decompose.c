/* cmd_decompose.c - `hgridopt decompose`: a frame split over P MPI ranks
 * as LAMMPS splits it (hg_ranks.h), every decomposition worth trying
 * priced by its slowest rank, and the lines of the best. */
#include "cli.h"
#include "hg_liggghts.h"
#include "hg_lammps.h"
#include "hg_ranks.h"
#include "render_code.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct decompose_opts {
    long mpi;
    const char *setting;
    double cutoff, steps_per_build;
    long show;
} decompose_opts;

static const cli_option options[] = {
    CLI_LONG("mpi", decompose_opts, mpi, 1, HG_RANKS_MAX),
    CLI_STR("setting", decompose_opts, setting),
    CLI_DOUBLE("cutoff", decompose_opts, cutoff, CLI_POSITIVE),
    CLI_DOUBLE("steps-per-build", decompose_opts, steps_per_build,
               CLI_POSITIVE),
    CLI_LONG("show", decompose_opts, show, 1, HG_RANKS_MAX_CANDIDATES),
};

static void help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt decompose --packing FILE --mpi P [options]\n\n"
            "The frame of FILE split over P MPI ranks as LAMMPS splits it: "
            "its processor\ngrid (least sub-box surface, within your "
            "`processors` constraints), `balance\n... shift` by LAMMPS' own "
            "bisection of the cuts, `balance rcb` with\n`comm_style "
            "tiled`; per rank its atoms (Nlocal), ghost atoms (Nghost: "
            "every\nimage within the ghost cutoff of its sub-box) and "
            "stored pairs. Every\nprocessor grid, each also shift-balanced, "
            "and rcb are priced by the slowest\nrank's step (Pair, Neigh "
            "per build shared out, communication per ghost);\nyour lines "
            "are kept unless another saves 5 %% of the step.\n\n"
            "  --packing FILE   the frame (a dump, data file, ...; --frame, "
            "--type-radius)\n"
            "  --boundary B     its boundary, LAMMPS' letters per face "
            "(\"p p fm\"); data\n"
            "                   files do not record it\n"
            "  --mpi P          MPI ranks (1..%d)\n"
            "  --skin S         neighbor skin (the ghost cutoff is the pair "
            "cutoff + S)\n"
            "  --cutoff D       the pair cutoff (default: the largest "
            "diameter, a granular\n"
            "                   pair style's)\n"
            "  --setting \"LINES\" your processors / balance / comm_style / "
            "comm_modify\n"
            "                   cutoff lines (';' between commands); "
            "default: none\n"
            "  --steps-per-build B  steps between neighbor builds (default "
            "10)\n"
            "  --show N         candidates shown in the table (default 12)\n"
            "  --engine lammps|liggghts  (default lammps; LIGGGHTS 3.8 takes "
            "`processors`\n"
            "                   only: no balance, no comm_style)\n"
            "  --format F       table (default), json, or lammps/liggghts "
            "(the lines)\n"
            "  --output FILE    write to FILE\n\n"
            "Example:\n"
            "  hgridopt decompose --packing tests/data/files/lammps/"
            "pour_poly.data --boundary \"p p fm\" --mpi 8 --skin 0.2\n\n%s",
            HG_RANKS_MAX, cli_exit_help);
}

static const char *const formats[] = {"table", "json", CLI_ENGINE_FORMATS,
                                      NULL};
static const cli_spec spec = {"decompose", help,
                              CLI_SYSTEM | CLI_FORMAT | CLI_OUTPUT |
                                  CLI_ENGINES,
                              options, sizeof options / sizeof options[0],
                              formats};

typedef struct dec_ctx {
    const cli_system *cs;
    const hg_ranks_advice *a;
    const char *path;
    double cutghost, cutoff, skin;
    int liggghts;
    long show;
} dec_ctx;

static cJSON *stats_json(const hg_ranks_stats *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "ave", s->ave);
    cJSON_AddNumberToObject(o, "max", s->max);
    cJSON_AddNumberToObject(o, "min", s->min);
    return o;
}

static int write_json(FILE *out, const dec_ctx *x)
{
    const hg_ranks_advice *a = x->a;
    const hg_particles *p = &x->cs->c.packing;
    cJSON *j = cli_json_document("hgridopt.ranks/1", x->cs);
    cJSON_AddStringToObject(j, "engine", x->liggghts ? "liggghts" : "lammps");
    cJSON_AddStringToObject(j, "packing", x->path);
    cJSON_AddNumberToObject(j, "atoms", (double)p->n);
    cJSON_AddNumberToObject(j, "dim", p->dim);
    cJSON_AddNumberToObject(j, "skin", x->skin);
    cJSON_AddNumberToObject(j, "pair_cutoff", x->cutoff);
    cJSON_AddNumberToObject(j, "ghost_cutoff", x->cutghost);
    cli_ranks_json(j, a);
    return cli_json_print(out, j);
}

void cli_ranks_json(cJSON *j, const hg_ranks_advice *a)
{
    cJSON_AddNumberToObject(j, "ranks", a->nprocs);
    cJSON *k = cJSON_AddObjectToObject(j, "costs");
    cJSON_AddNumberToObject(k, "pair_per_pair", a->costs.pair_pair);
    cJSON_AddNumberToObject(k, "pair_per_atom", a->costs.pair_atom);
    cJSON_AddNumberToObject(k, "neigh_frame", a->costs.neigh_frame);
    cJSON_AddNumberToObject(k, "neigh_per_bin", a->costs.neigh_bin);
    cJSON_AddNumberToObject(k, "ghost_per_step", a->costs.ghost_step);
    cJSON_AddNumberToObject(k, "ghost_per_build", a->costs.ghost_build);
    cJSON_AddNumberToObject(k, "other_per_atom", a->costs.other_atom);
    cJSON_AddNumberToObject(k, "steps_per_build", a->costs.steps_per_build);
    cJSON_AddStringToObject(k, "source", a->costs.source);
    cJSON *arr = cJSON_AddArrayToObject(j, "candidates");
    for (int i = 0; i < a->n; i++) {
        const hg_ranks_candidate *c = &a->c[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", c->name);
        cJSON_AddStringToObject(o, "lines", c->lines);
        cJSON *g = cJSON_AddArrayToObject(o, "grid");
        for (int d = 0; d < 3; d++)
            cJSON_AddItemToArray(g, cJSON_CreateNumber(c->grid[d]));
        cJSON_AddBoolToObject(o, "balanced", c->balanced);
        cJSON_AddBoolToObject(o, "tiled", c->tiled);
        cJSON_AddItemToObject(o, "nlocal", stats_json(&c->nlocal));
        cJSON_AddItemToObject(o, "nghost", stats_json(&c->nghost));
        cJSON_AddItemToObject(o, "pairs", stats_json(&c->pairs));
        cJSON_AddNumberToObject(o, "imbalance", c->nlocal.max / c->nlocal.ave);
        cJSON_AddNumberToObject(o, "busiest_seconds", c->busiest);
        cJSON_AddNumberToObject(o, "average_seconds", c->average);
        cJSON_AddNumberToObject(o, "busiest_rank", c->busiest_rank);
        cJSON *parts = cJSON_AddObjectToObject(o, "busiest_parts");
        cJSON_AddNumberToObject(parts, "pair", c->pair);
        cJSON_AddNumberToObject(parts, "neigh", c->neigh);
        cJSON_AddNumberToObject(parts, "comm", c->comm);
        cJSON_AddItemToArray(arr, o);
    }
    cJSON_AddNumberToObject(j, "own", a->own);
    cJSON_AddNumberToObject(j, "best", a->best);
    cJSON *ans = cJSON_AddObjectToObject(j, "answer");
    cJSON_AddNumberToObject(ans, "index", a->answer);
    cJSON_AddStringToObject(ans, "name", a->c[a->answer].name);
    cJSON_AddStringToObject(ans, "lines", a->c[a->answer].lines);
    cJSON_AddBoolToObject(ans, "kept_own", a->kept_own);
    const hg_ranks_candidate *c = &a->c[a->answer];
    cJSON_AddNumberToObject(ans, "comm_share",
                            c->busiest > 0.0 ? c->comm / c->busiest : 0.0);
}

static void row(FILE *out, const hg_ranks_candidate *c, double ref,
                const char *mark)
{
    fprintf(out, "  %-34.34s %8.3g %6.2f %8.3g %6.2f %9.3g %7.3f %s\n",
            c->name, c->nlocal.max, c->nlocal.max / c->nlocal.ave,
            c->nghost.max, c->nghost.ave > 0.0 ? c->nghost.max / c->nghost.ave
                                               : 0.0,
            1e6 * c->busiest, c->busiest / ref, mark);
}

static int cmp_busiest(const void *pa, const void *pb, const void *ctx)
{
    const hg_ranks_advice *a = ctx;
    double x = a->c[*(const int *)pa].busiest,
           y = a->c[*(const int *)pb].busiest;
    return (x > y) - (x < y);
}

static int write_table(FILE *out, const dec_ctx *x)
{
    const hg_ranks_advice *a = x->a;
    const hg_particles *p = &x->cs->c.packing;
    char bt[16];
    fprintf(out, "frame:          %s: %zu atoms, %dD, boundary %s\n", x->path,
            p->n, p->dim, hg_particles_boundary_text(p, bt));
    fprintf(out, "ranks:          %d (%s)\n", a->nprocs,
            x->liggghts ? "LIGGGHTS: processors lines only"
                        : "LAMMPS");
    fprintf(out,
            "ghost cutoff:   %.6g (pair cutoff %.6g + skin %.6g; %s)\n",
            x->cutghost, x->cutoff, x->skin, x->cs->c.skin_why);
    fprintf(out, "step priced:    the slowest rank's Pair + Neigh / %.3g "
                 "steps per build + communication + fixes\n",
            a->costs.steps_per_build);
    fprintf(out, "constants:      %s\n\n", a->costs.source);
    return cli_ranks_table(out, a, x->show, x->liggghts);
}

int cli_ranks_table(FILE *out, const hg_ranks_advice *a, long show,
                    int liggghts)
{
    fprintf(out, "  %-34s %8s %6s %8s %6s %9s %7s\n", "decomposition",
            "atoms", "/ave", "ghosts", "/ave", "step us", "/answer");
    double ref = a->c[a->answer].busiest;
    int *ord = malloc(sizeof *ord * (size_t)a->n);
    if (!ord) {
        cli_error("out of memory");
        return CLI_EDATA;
    }
    for (int i = 0; i < a->n; i++)
        ord[i] = i;
    /* sorted by the busiest rank's step (insertion: a few hundred) */
    for (int i = 1; i < a->n; i++)
        for (int k = i; k > 0 && cmp_busiest(&ord[k - 1], &ord[k], a) > 0;
             k--) {
            int t = ord[k];
            ord[k] = ord[k - 1];
            ord[k - 1] = t;
        }
    int shown = 0;
    for (int i = 0; i < a->n; i++) {
        int k = ord[i];
        int special = k == a->own || k == a->answer;
        if (shown >= show && !special)
            continue;
        row(out, &a->c[k], ref,
            k == a->answer ? "<- answer" : k == a->own ? "<- yours" : "");
        shown++;
    }
    free(ord);
    fprintf(out, "  (%d decompositions priced; atoms and ghosts: the "
                 "busiest rank's, and its ratio to the average)\n\n",
            a->n);
    if (a->c[a->own].layout.weight_time > 0.0)
        fprintf(out, "note:           your balance weighs each rank's atoms "
                     "by its timers (weight time %g), which no frame holds: "
                     "it is decomposed here by atom counts, so LAMMPS' own "
                     "counts will differ\n",
                a->c[a->own].layout.weight_time);
    const hg_ranks_candidate *c = &a->c[a->answer];
    if (a->kept_own)
        fprintf(out, "answer:         %s: nothing saves %.0f %% of its "
                     "step\n",
                c->name, 100.0 * a->margin);
    else
        fprintf(out, "answer:         %s: the busiest rank's step %.3g of "
                     "yours (%.3g us against %.3g)\n",
                c->name, c->busiest / a->c[a->own].busiest, 1e6 * c->busiest,
                1e6 * a->c[a->own].busiest);
    fprintf(out, "lines (--format %s; processors before the box is made, "
                 "the rest after the pair style):\n",
            liggghts ? "liggghts" : "lammps");
    render_print_lines(out, c->lines);
    if (c->balanced && !c->tiled)
        fprintf(out, "for a run whose atoms move, keep it balanced: "
                     "fix bal all balance 1000 1.1 shift %s 20 1.1\n",
                c->layout.dims);
    if (c->comm > 0.5 * c->busiest)
        fprintf(out,
                "note:           communication is %.0f %% of the answer's "
                "busiest step (%.3g atoms a rank): the model prices each "
                "ghost atom, not the number of messages, which weigh most "
                "where ranks own this few atoms; its busiest rank owns "
                "%.3gx the average\n",
                100.0 * c->comm / c->busiest, c->nlocal.ave,
                c->nlocal.max / c->nlocal.ave);
    return CLI_OK;
}

static int write_result(FILE *out, const void *ctx)
{
    const dec_ctx *x = ctx;
    const char *f = x->cs->opt.format;
    if (!strcmp(f, "json"))
        return write_json(out, x);
    if (!strcmp(f, "table"))
        return write_table(out, x);
    fputs(x->a->c[x->a->answer].lines, out);
    return CLI_OK;
}

/* The frame's one-rank Neigh per build without its bins (the ranks'
 * bins are priced per sub-box). */
static int frame_neigh(const hg_particles *p, double skin, double cutoff,
                       double *neigh, double *binsize, hg_err *e)
{
    hg_psd *psd = NULL;
    hg_lammps_system sys = {0};
    int st = hg_lammps_system_of(p, skin, 1, &psd, &sys, e);
    if (st) {
        hg_psd_free(psd);
        return st;
    }
    sys.cutoff_diameter = cutoff;
    hg_lammps_setting s = {0};
    hg_lammps_work w;
    hg_consts c;
    hg_consts_shipped(&hg_lammps_consts_kind, &c);
    st = hg_lammps_work_eval(psd, &sys, &s, &w, e);
    hg_psd_free(psd);
    if (st)
        return st;
    *neigh = hg_lammps_predict(&c, &w) - c.c[2] * w.bins;
    *binsize = 0.5 * (cutoff + skin);
    return HG_OK;
}

int cli_ranks_advise(const cli_system *cs, int P, const char *setting,
                     double cutoff_given, double steps_per_build,
                     int liggghts, hg_ranks_advice **out, double *cutghost,
                     double *cutoff_out, hg_err *e)
{
    *out = NULL;
    const hg_particles *p = &cs->c.packing;
    char faces[3][2];
    const char(*fp)[2] = NULL;
    int st;
    if (cs->opt.boundary_text) {
        if ((st = hg_ranks_faces_parse(cs->opt.boundary_text, p->dim, faces,
                                       e)))
            return st;
        fp = (const char(*)[2])faces;
    }
    if (p->n == 0)
        return hg_fail_data(e, HG_EINVAL, "%s: the frame holds no atoms",
                            cs->opt.packing_path);
    double dmax = 2.0 * hg_particles_rmax(p);
    double cutoff = cutoff_given > 0.0 ? cutoff_given : dmax;
    double skin = cs->c.skin;
    *cutghost = cutoff + skin;
    *cutoff_out = cutoff;
    if (liggghts && setting) {
        hg_ranks_layout t;
        hg_ranks_layout_default(&t, P);
        if ((st = hg_ranks_layout_parse(setting, p->dim, &t, e)))
            return st;
        if (t.balance != HG_RANKS_NONE)
            return hg_fail(e, HG_EINVAL,
                           "--setting: LIGGGHTS 3.8 has no balance command "
                           "nor fix balance; give its processors line only");
    }
    double neigh = 0.0, binsize = 0.0;
    if ((st = frame_neigh(p, skin, cutoff, &neigh, &binsize, e)))
        return st;
    hg_pairs pairs = {0};
    if ((st = hg_ranks_pairs_find(p, fp, skin, &pairs, e))) {
        hg_pairs_clear(&pairs);
        return st;
    }
    hg_ranks_costs k;
    hg_ranks_costs_shipped(&k, neigh, binsize, steps_per_build);
    if ((st = hg_ranks_costs_load(&k, liggghts ? &hg_liggghts_comm_kind
                                               : &hg_lammps_comm_kind,
                                  e))) {
        hg_pairs_clear(&pairs);
        return st;
    }
    hg_ranks_advice *a = malloc(sizeof *a);
    if (!a) {
        hg_pairs_clear(&pairs);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    st = hg_ranks_advise(p, fp, P, setting, *cutghost, skin, &pairs, &k,
                         0.05, a, e);
    hg_pairs_clear(&pairs);
    if (st == HG_OK && liggghts) {
        /* LIGGGHTS: the grids only */
        int n = 0, own = a->own, ans = 0;
        for (int i = 0; i < a->n; i++)
            if (a->c[i].layout.balance == HG_RANKS_NONE) {
                if (i == own)
                    own = n;
                a->c[n++] = a->c[i];
            }
        a->n = n;
        a->own = own;
        for (int i = 1; i < n; i++)
            if (a->c[i].busiest < a->c[ans].busiest)
                ans = i;
        a->best = ans;
        a->kept_own =
            a->c[ans].busiest > (1.0 - a->margin) * a->c[own].busiest;
        a->answer = a->kept_own ? own : ans;
    }
    if (st) {
        free(a);
        return st;
    }
    *out = a;
    return HG_OK;
}

int cmd_decompose(int argc, char **argv)
{
    decompose_opts o = {0, NULL, 0.0, 10.0, 12};
    cli_system cs = {0};
    int rc;
    if (cli_parse(&spec, argc, argv, &cs.opt, &o, &rc))
        return rc;
    if (!cs.opt.packing_path) {
        cli_error("decompose needs --packing FILE (the frame to split)");
        return CLI_EUSAGE;
    }
    if (o.mpi < 1) {
        cli_error("decompose needs --mpi P (the MPI ranks)");
        return CLI_EUSAGE;
    }
    const char *eng = cs.opt.engine;
    int liggghts = (eng && !strcmp(eng, "liggghts")) ||
                   !strcmp(cs.opt.format, "liggghts");
    if (eng && strcmp(eng, "lammps") && strcmp(eng, "liggghts")) {
        cli_error("--engine %s: decompose is for lammps and liggghts", eng);
        return CLI_EUSAGE;
    }
    if (strcmp(cs.opt.format, "table") && strcmp(cs.opt.format, "json") &&
        strcmp(cs.opt.format, "lammps") && strcmp(cs.opt.format, "liggghts")) {
        cli_error("--format %s: decompose writes table, json, lammps or "
                  "liggghts",
                  cs.opt.format);
        return CLI_EUSAGE;
    }
    if ((rc = cli_system_resolve(&cs, 0)))
        return rc;
    hg_err e = {0};
    hg_ranks_advice *a = NULL;
    double cutghost = 0.0, cutoff = 0.0;
    int st = cli_ranks_advise(&cs, (int)o.mpi, o.setting, o.cutoff,
                              o.steps_per_build, liggghts, &a, &cutghost,
                              &cutoff, &e);
    if (st == HG_OK) {
        dec_ctx x = {&cs, a, cs.opt.packing_path, cutghost, cutoff,
                     cs.c.skin, liggghts, o.show};
        rc = cli_write(cs.opt.output, write_result, &x);
    } else
        rc = cli_fail(&e, st, 0);
    free(a);
    cli_system_clear(&cs);
    return rc;
}
