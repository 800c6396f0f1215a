/* cmd_trajectory.c - `hgridopt recommend --trajectory FILE...`: the
 * neighbour setting and skin for a whole run (hg_whole_run.h), as a
 * table, JSON or the code's input lines. */
#include "cli.h"
#include "hg_ranks.h"
#include "hg_whole_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 4096

typedef struct traj_opts {
    const char *trajectory, *setting, *skin, *type_radius, *log;
    const char *min_gain_text, *decomposition;
    double timestep;
    long max_frames, max_phases, mpi;
} traj_opts;

static const cli_option options[] = {
    CLI_STR("trajectory", traj_opts, trajectory),
    CLI_STR("setting", traj_opts, setting),
    CLI_STR("log", traj_opts, log),
    CLI_STR("skin", traj_opts, skin),
    CLI_STR("type-radius", traj_opts, type_radius),
    CLI_DOUBLE("timestep", traj_opts, timestep, CLI_POSITIVE),
    CLI_STR("min-gain", traj_opts, min_gain_text),
    CLI_LONG("max-frames", traj_opts, max_frames, 2, 100000),
    CLI_LONG("max-phases", traj_opts, max_phases, 1, HG_RUN_MAX_SEGMENTS),
    CLI_LONG("mpi", traj_opts, mpi, 1, HG_RANKS_MAX),
    CLI_STR("decomposition", traj_opts, decomposition),
};

static void help(FILE *out)
{
    fprintf(out,
            "Usage: hgridopt recommend --trajectory FILE... --engine "
            "lammps|liggghts [options]\n\n"
            "The neighbor setting and skin that make a whole run fastest, "
            "from its\ntrajectory: a LAMMPS or LIGGGHTS dump of several "
            "frames (or several dumps\nof one run, in order) with atom ids. "
            "Every frame is priced with the model\nof the code's neighbor "
            "build and its pair loop; the motion between frames\ngives how "
            "often a build is due for each skin. Per step: builds per step "
            "x\nNeigh seconds per build + Pair seconds per step (stored pairs "
            "grow with\nthe skin). Where switching settings between phases "
            "saves more than 10 %%,\na schedule is printed too. Your own "
            "lines are kept unless a setting saves\n5 %% of the predicted "
            "time (--min-gain).\n\n"
            "  --trajectory FILE...  the dumps (gzip too), in run order\n"
            "  --engine lammps|liggghts  the code (or its --format)\n"
            "  --log FILE            the code's log of the run that wrote "
            "the trajectory:\n"
            "                        your lines and timestep are read from "
            "it, and the\n"
            "                        model is scaled to the times it "
            "measured (Pair,\n"
            "                        Neigh per build, builds); each setting "
            "is then\n"
            "                        predicted as a whole Loop time (the "
            "log's Output,\n"
            "                        the trajectory's dump among it, left "
            "out)\n"
            "  --setting \"LINES\"     your input's neighbor lines, to "
            "compare with\n"
            "                        (\"neighbor 0.2 bin\"; multi with "
            "neigh_modify\n"
            "                        collection/interval; ';' between "
            "commands)\n"
            "  --skin auto|S         auto (default): choose the skin too; S: "
            "keep yours\n"
            "  --timestep DT         the input's timestep: with vx vy vz in "
            "the dump, the\n"
            "                        speeds bound the motion between frames "
            "far apart\n"
            "  --min-gain F          change your lines only for a predicted "
            "saving of at\n"
            "                        least this share of the run (default "
            "0.05; 0: the\n"
            "                        least predicted, however close)\n"
            "  --mpi P               MPI ranks the run will use (default: "
            "your log's, else\n"
            "                        1): every step is priced as its "
            "slowest rank's, and\n"
            "                        the answer adds the processors and "
            "balance lines\n"
            "                        (hgridopt decompose --help for the "
            "model)\n"
            "  --decomposition \"LINES\"  your processors / balance / "
            "fix balance /\n"
            "                        comm_style lines (default: your log's, "
            "else none)\n"
            "  --max-frames N        frames priced at most (default 500; "
            "every k-th)\n"
            "  --max-phases N        phases of a schedule at most (default "
            "3)\n"
            "  --type-radius T=R,... radii of atom types, for dumps without "
            "radii\n"
            "  --format F            table (default), json, or lammps (the "
            "lines to paste)\n"
            "  --output FILE         write to FILE instead of standard "
            "output\n\n"
            "Write the trajectory with one line in the input, e.g.\n"
            "  dump traj all custom 1000 traj.dump id type radius x y z vx vy "
            "vz\n\n"
            "Example:\n"
            "  hgridopt recommend --trajectory traj.dump --engine lammps "
            "--log log.lammps\n\n%s",
            cli_exit_help);
}

static const char *const formats[] = {"table", "json", CLI_ENGINE_FORMATS,
                                      NULL};
static const cli_spec spec = {"recommend", help,
                              CLI_FORMAT | CLI_OUTPUT | CLI_ENGINES, options,
                              sizeof options / sizeof options[0], formats};

typedef struct traj_ctx {
    const hg_run_advice *a;
    const hg_engine *engine;
    const char *format;
    const char *const *paths;
    int n_paths;
} traj_ctx;

/* The predicted time compared: the Loop with a log, else Neigh + Pair. */
static double total(const hg_run_advice *a, const hg_run_choice *c)
{
    return a->rest + c->seconds;
}

static void choice_row(FILE *out, const hg_run_advice *a, const char *name,
                       const hg_run_choice *c)
{
    fprintf(out, "  %-52.52s %8.4g %9.0f %9.4g %9.4g %9.4g %7.3f\n", name,
            c->skin, c->builds, c->neigh, c->pair, total(a, c),
            total(a, c) / total(a, &a->best));
}

static void print_lines(FILE *out, const char *indent, const char *text)
{
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        fprintf(out, "%s%.*s\n", indent, (int)n, p);
        p += n + (nl != NULL);
    }
}

static void write_run(FILE *out, const traj_ctx *x)
{
    const hg_run_advice *a = x->a;
    fprintf(out, "trajectory: %zu frames in %d file%s (%s%s), steps %lld to "
                 "%lld, up to %zu atoms, %dD\n",
            a->frames, a->files, a->files == 1 ? "" : "s", x->paths[0],
            x->n_paths > 1 ? ", ..." : "", a->first_step, a->last_step,
            a->max_atoms, a->dim);
    fprintf(out, "diameters: %.6g to %.6g\n", a->dmin, a->dmax);
    fprintf(out, "motion:    largest %.4g per step (step %lld), from %s; "
                 "frames up to %lld steps apart\n",
            a->max_motion, a->max_motion_step,
            a->motion_from_speed ? "speeds x timestep" :
                                   "displacements between frames",
            a->max_gap);
    fprintf(out, "priced:    %zu frames; Neigh constants: %s\n"
                 "           Pair constants: %s\n",
            a->measured, a->build_source, a->pair_source);
    if (!a->has_log)
        return;
    const hg_run_log *L = &a->log;
    fprintf(out, "your log:  %d run%s, %lld steps on %d proc%s: Loop %.4g s, "
                 "Neigh %.4g s, Pair %.4g s, Output %.4g s, %lld builds "
                 "(%lld dangerous)\n",
            L->runs, L->runs == 1 ? "" : "s", L->steps, L->procs,
            L->procs == 1 ? "" : "s", L->loop, L->neigh, L->pair, L->output,
            L->builds, L->dangerous);
    if (a->pair_per_atom > 0.0)
        fprintf(out, "           the model scaled to it: Pair plus %.3g s per "
                     "%s and step (above the model's at your lines: the "
                     "contacts' force law, the same at every setting), "
                     "Neigh per build x%.3g, builds x%.3g; outside Neigh, "
                     "Pair and Output %.4g s over the trajectory\n",
                a->pair_per_atom, a->pair_per_contact ? "contact" : "atom",
                a->scale_neigh, a->scale_builds, a->rest);
    else if (a->pair_per_atom < 0.0) {
        char per_pair[64] = "";
        if (a->scale_pair != 1.0)
            snprintf(per_pair, sizeof per_pair, ", its per-pair part x%.3g",
                     a->scale_pair);
        fprintf(out, "           the model scaled to it: Pair less %.3g s "
                     "per atom and step%s (below the model's at your lines: "
                     "its per-atom part, a bed's contacts, goes first), "
                     "Neigh per build x%.3g, builds x%.3g; outside Neigh, "
                     "Pair and Output %.4g s over the trajectory\n",
                -a->pair_per_atom, per_pair, a->scale_neigh,
                a->scale_builds, a->rest);
    } else
        fprintf(out, "           the model scaled to it: Pair x%.3g, Neigh "
                     "per build x%.3g, builds x%.3g; outside Neigh, Pair and "
                     "Output %.4g s over the trajectory\n",
                a->scale_pair, a->scale_neigh, a->scale_builds, a->rest);
}

/* Many ranks: every decomposition priced at its best setting, the
 * busiest rank's atoms against the average (mean over the priced frames,
 * and at the last) and its ghosts against its atoms. */
static void decomp_table(FILE *out, const hg_run_advice *a)
{
    fprintf(out, "\nOn %d MPI ranks (each step priced as its slowest "
                 "rank's; hgridopt decompose --help):\n",
            a->nprocs);
    fprintf(out, "  %-44s %9s %9s %11s %9s %7s\n", "decomposition",
            "atoms/ave", "at end", "ghosts/atom", a->has_log ? "Loop s" : "total s",
            "/answer");
    double ref = a->decomps[a->best_decomp].loop;
    for (int i = 0; i < a->n_decomps; i++) {
        const hg_run_decomp *d = &a->decomps[i];
        fprintf(out, "  %-44.44s %9.3f %9.3f %11.3f %9.4g %7.3f %s\n",
                d->name, d->atoms_ratio,
                d->last_atoms_ave > 0.0 ? d->last_atoms_max / d->last_atoms_ave
                                        : 0.0,
                d->ghosts_ratio, d->loop, ref > 0.0 ? d->loop / ref : 0.0,
                i == a->best_decomp  ? "<- answer"
                : i == a->own_decomp ? "<- yours"
                                     : "");
    }
    if (a->has_log && a->log.nlocal_ave > 0.0 && a->log.mpi == a->nprocs)
        fprintf(out, "  your log at its end (LAMMPS' counts): atoms %.4g "
                     "max / %.4g ave = %.3f, ghosts %.4g max; the model at "
                     "the last frame with your lines: %.4g / %.4g = %.3f\n",
                a->log.nlocal_max, a->log.nlocal_ave,
                a->log.nlocal_max / a->log.nlocal_ave, a->log.nghost_max,
                a->decomps[a->own_decomp].last_atoms_max,
                a->decomps[a->own_decomp].last_atoms_ave,
                a->decomps[a->own_decomp].last_atoms_ave > 0.0
                    ? a->decomps[a->own_decomp].last_atoms_max /
                          a->decomps[a->own_decomp].last_atoms_ave
                    : 0.0);
    fprintf(out, "  decomposition: %s%s\n",
            a->decomps[a->best_decomp].name,
            a->kept_own_decomp && a->best_decomp == a->own_decomp
                ? " (yours kept: nothing saves 5 % of the loop)"
                : "");
    print_lines(out, "    ", a->decomp_lines);
}

static int write_table(FILE *out, const void *ctx)
{
    const traj_ctx *x = ctx;
    const hg_run_advice *a = x->a;
    write_run(out, x);
    if (a->has_log)
        fprintf(out, "\nPredicted over the run (seconds, scaled to your log; "
                     "Loop = Neigh + Pair + the\nlog's other time; the skin "
                     "shown is each setting's best%s):\n",
                a->n_skins == 1 ? ", the one given" : ", at least 4x the "
                                                      "largest motion per "
                                                      "step");
    else
        fprintf(out, "\nPredicted over the run (seconds of Neigh and Pair "
                     "on one rank; the skin\nshown is each setting's "
                     "best%s):\n",
                a->n_skins == 1 ? ", the one given" : ", at least 4x the "
                                                      "largest motion per "
                                                      "step");
    fprintf(out, "  %-52s %8s %9s %9s %9s %9s %7s\n", "setting", "skin",
            "builds", "Neigh s", "Pair s", a->has_log ? "Loop s" : "total s",
            "/answer");
    for (int k = 0; k < a->n_candidates; k++)
        if (isfinite(a->per_candidate[k].seconds))
            choice_row(out, a, a->candidates[k].name, &a->per_candidate[k]);
    if (a->has_own) {
        char name[260];
        snprintf(name, sizeof name, "yours: %.90s (%.150s)",
                 a->own_setting.name, a->own_why);
        choice_row(out, a, name, &a->own);
    }
    choice_row(out, a, "bin at the answer's skin", &a->bin);
    if (a->nprocs > 1)
        decomp_table(out, a);
    if (a->kept_own)
        fprintf(out, "\nanswer: keep your lines (%s, skin %.4g): %.4g s "
                     "predicted\n",
                a->own_setting.name, a->best.skin, total(a, &a->best));
    else {
        fprintf(out, "\nanswer: %s, skin %.4g: %.4g s predicted",
                a->candidates[a->best.candidate].name, a->best.skin,
                total(a, &a->best));
        if (a->has_own && a->nprocs > 1)
            fprintf(out, " (your lines on your decomposition %.4g s: %.3gx)",
                    a->own_loop, a->own_loop / total(a, &a->best));
        else if (a->has_own)
            fprintf(out, " (yours %.4g s: %.3gx)", total(a, &a->own),
                    total(a, &a->own) / total(a, &a->best));
        fprintf(out, "\n");
    }
    if (a->has_own && a->own.steps_every_step > 0.0)
        fprintf(out, "warning: at your skin atoms move half of it in one step "
                     "during %.0f steps: expect dangerous builds\n",
                a->own.steps_every_step);
    print_lines(out, "  ", a->lines);
    if (a->n_segments) {
        fprintf(out, "\nschedule: %d phases, %.4g s predicted (%.1f %% less "
                     "than the answer)\n",
                a->n_segments, a->rest + a->schedule_seconds,
                100.0 * (1.0 - (a->rest + a->schedule_seconds) /
                                   total(a, &a->best)));
        for (int i = 0; i < a->n_segments; i++) {
            const hg_run_segment *s = &a->segments[i];
            fprintf(out, "  steps %lld to %lld: %s, skin %.4g%s%s (%.4g s)\n",
                    s->from, s->to, a->candidates[s->choice.candidate].name,
                    s->choice.skin, s->decomp >= 0 ? ", " : "",
                    s->decomp >= 0 ? a->decomps[s->decomp].name : "",
                    s->choice.seconds);
            print_lines(out, "    ", s->lines);
        }
    } else {
        fprintf(out, "\nschedule: none (no split into phases saves 10 %%)\n");
    }
    if (a->sampling_change > 0.0)
        fprintf(out, "sampling: with every other priced frame the answer's "
                     "total moves %.2g %%\n", 100.0 * a->sampling_change);
    for (int i = 0; i < a->n_notes; i++)
        fprintf(out, "note: %s\n", a->notes[i]);
    return CLI_OK;
}

static cJSON *choice_json(const hg_run_advice *a, const hg_run_choice *c)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "setting", a->candidates[c->candidate].name);
    cJSON_AddNumberToObject(j, "skin", c->skin);
    cJSON_AddNumberToObject(j, "seconds", c->seconds);
    cJSON_AddNumberToObject(j, "neigh_seconds", c->neigh);
    cJSON_AddNumberToObject(j, "pair_seconds", c->pair);
    cJSON_AddNumberToObject(j, "builds", c->builds);
    cJSON_AddNumberToObject(j, "steps_with_a_build_every_step",
                            c->steps_every_step);
    if (a->has_log)
        cJSON_AddNumberToObject(j, "loop_seconds", a->rest + c->seconds);
    return j;
}

static int write_json(FILE *out, const void *ctx)
{
    const traj_ctx *x = ctx;
    const hg_run_advice *a = x->a;
    cJSON *j = cli_json_document("hgridopt.whole-run/1", NULL);
    cJSON_AddStringToObject(j, "engine", x->engine->name);
    cJSON *files = cJSON_AddArrayToObject(j, "files");
    for (int i = 0; i < x->n_paths; i++)
        cJSON_AddItemToArray(files, cJSON_CreateString(x->paths[i]));
    cJSON *run = cJSON_AddObjectToObject(j, "run");
    cJSON_AddNumberToObject(run, "frames", (double)a->frames);
    cJSON_AddNumberToObject(run, "priced_frames", (double)a->measured);
    cJSON_AddNumberToObject(run, "first_step", (double)a->first_step);
    cJSON_AddNumberToObject(run, "last_step", (double)a->last_step);
    cJSON_AddNumberToObject(run, "max_atoms", (double)a->max_atoms);
    cJSON_AddNumberToObject(run, "dim", a->dim);
    cJSON_AddNumberToObject(run, "d_min", a->dmin);
    cJSON_AddNumberToObject(run, "d_max", a->dmax);
    cJSON_AddNumberToObject(run, "max_motion_per_step", a->max_motion);
    cJSON_AddStringToObject(run, "motion_from", a->motion_from_speed
                                                    ? "speeds"
                                                    : "displacements");
    cJSON_AddNumberToObject(run, "max_steps_between_frames",
                            (double)a->max_gap);
    cJSON *k = cJSON_AddObjectToObject(j, "constants");
    cJSON_AddStringToObject(k, "neigh", a->build_source);
    cJSON_AddStringToObject(k, "pair", a->pair_source);
    if (a->has_log) {
        const hg_run_log *L = &a->log;
        cJSON *l = cJSON_AddObjectToObject(j, "log");
        cJSON_AddStringToObject(l, "code", L->code);
        cJSON_AddNumberToObject(l, "runs", L->runs);
        cJSON_AddNumberToObject(l, "steps", (double)L->steps);
        cJSON_AddNumberToObject(l, "procs", L->procs);
        cJSON_AddNumberToObject(l, "loop_seconds", L->loop);
        cJSON_AddNumberToObject(l, "neigh_seconds", L->neigh);
        cJSON_AddNumberToObject(l, "pair_seconds", L->pair);
        cJSON_AddNumberToObject(l, "output_seconds", L->output);
        cJSON_AddNumberToObject(l, "builds", (double)L->builds);
        cJSON_AddNumberToObject(l, "dangerous_builds", (double)L->dangerous);
        cJSON_AddNumberToObject(l, "timestep", L->timestep);
        cJSON_AddStringToObject(l, "lines", L->lines);
        cJSON *sc = cJSON_AddObjectToObject(l, "model_scaled");
        cJSON_AddNumberToObject(sc, "pair", a->scale_pair);
        if (a->pair_per_contact)
            cJSON_AddNumberToObject(sc, "pair_per_contact_step",
                                    a->pair_per_atom);
        else
            cJSON_AddNumberToObject(sc, "pair_per_atom_step",
                                    a->pair_per_atom);
        cJSON_AddNumberToObject(sc, "neigh_per_build", a->scale_neigh);
        cJSON_AddNumberToObject(sc, "builds", a->scale_builds);
        cJSON_AddNumberToObject(l, "other_seconds", a->rest);
    }
    cJSON *ans = choice_json(a, &a->best);
    cJSON_AddBoolToObject(ans, "keeps_yours", a->kept_own);
    if (a->nprocs > 1)
        cJSON_AddNumberToObject(ans, "yours_on_your_decomposition_seconds",
                                a->own_loop);
    cJSON_AddItemToObject(j, "answer", ans);
    cJSON_AddStringToObject(j, "lines", a->lines);
    if (a->has_own) {
        cJSON *o = choice_json(a, &a->own);
        cJSON_AddStringToObject(o, "source", a->own_why);
        cJSON_AddStringToObject(o, "lines", a->own_lines);
        cJSON_AddItemToObject(j, "yours", o);
    }
    cJSON_AddItemToObject(j, "bin", choice_json(a, &a->bin));
    cJSON *all = cJSON_AddArrayToObject(j, "settings");
    for (int i = 0; i < a->n_candidates; i++)
        if (isfinite(a->per_candidate[i].seconds))
            cJSON_AddItemToArray(all, choice_json(a, &a->per_candidate[i]));
    cJSON *sch = cJSON_AddArrayToObject(j, "schedule");
    for (int i = 0; i < a->n_segments; i++) {
        cJSON *s = choice_json(a, &a->segments[i].choice);
        cJSON_AddNumberToObject(s, "from_step", (double)a->segments[i].from);
        cJSON_AddNumberToObject(s, "to_step", (double)a->segments[i].to);
        cJSON_AddStringToObject(s, "lines", a->segments[i].lines);
        if (a->segments[i].decomp >= 0)
            cJSON_AddStringToObject(
                s, "decomposition", a->decomps[a->segments[i].decomp].name);
        cJSON_AddItemToArray(sch, s);
    }
    if (a->n_segments)
        cJSON_AddNumberToObject(j, "schedule_seconds", a->schedule_seconds);
    if (a->nprocs > 1) {
        cJSON *rk = cJSON_AddObjectToObject(j, "ranks");
        cJSON_AddNumberToObject(rk, "mpi", a->nprocs);
        cJSON_AddNumberToObject(rk, "answer", a->best_decomp);
        cJSON_AddNumberToObject(rk, "yours", a->own_decomp);
        cJSON_AddBoolToObject(rk, "keeps_yours", a->kept_own_decomp);
        cJSON_AddStringToObject(rk, "lines", a->decomp_lines);
        cJSON *arr = cJSON_AddArrayToObject(rk, "decompositions");
        for (int i = 0; i < a->n_decomps; i++) {
            const hg_run_decomp *d = &a->decomps[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", d->name);
            cJSON_AddStringToObject(o, "lines", d->lines);
            cJSON_AddNumberToObject(o, "seconds", d->seconds);
            cJSON_AddNumberToObject(o, "loop_seconds", d->loop);
            cJSON_AddNumberToObject(o, "atoms_max_over_ave", d->atoms_ratio);
            cJSON_AddNumberToObject(o, "ghosts_per_atom_busiest",
                                    d->ghosts_ratio);
            cJSON_AddNumberToObject(o, "last_atoms_max", d->last_atoms_max);
            cJSON_AddNumberToObject(o, "last_atoms_ave", d->last_atoms_ave);
            cJSON_AddNumberToObject(o, "last_ghosts_max", d->last_ghosts_max);
            cJSON_AddNumberToObject(o, "last_ghosts_ave", d->last_ghosts_ave);
            cJSON_AddStringToObject(o, "setting",
                                    a->candidates[d->candidate].name);
            cJSON_AddNumberToObject(o, "skin", d->skin);
            cJSON_AddItemToArray(arr, o);
        }
        if (a->has_log) {
            cJSON *lg = cJSON_AddObjectToObject(rk, "log");
            cJSON_AddNumberToObject(lg, "mpi", a->log.mpi);
            cJSON_AddNumberToObject(lg, "nlocal_max", a->log.nlocal_max);
            cJSON_AddNumberToObject(lg, "nlocal_ave", a->log.nlocal_ave);
            cJSON_AddNumberToObject(lg, "nghost_max", a->log.nghost_max);
            cJSON_AddNumberToObject(lg, "nghost_ave", a->log.nghost_ave);
            cJSON_AddStringToObject(lg, "decomposition", a->log.decomp);
        }
    }
    cJSON_AddNumberToObject(j, "sampling_change", a->sampling_change);
    cJSON *notes = cJSON_AddArrayToObject(j, "notes");
    for (int i = 0; i < a->n_notes; i++)
        cJSON_AddItemToArray(notes, cJSON_CreateString(a->notes[i]));
    return cli_json_print(out, j);
}

static int write_code(FILE *out, const void *ctx)
{
    const traj_ctx *x = ctx;
    const hg_run_advice *a = x->a;
    fprintf(out, "# --- neighbor settings by hgridopt (recommend "
                 "--trajectory, %s) ---\n", x->engine->name);
    fprintf(out, "# run: %zu frames, steps %lld to %lld, up to %zu atoms, "
                 "diameters %.6g to %.6g\n",
            a->frames, a->first_step, a->last_step, a->max_atoms, a->dmin,
            a->dmax);
    fprintf(out, "# predicted %s over the run: %.4g s with these "
                 "lines (%s, skin %.4g)\n",
            a->has_log ? "Loop time (scaled to your log)" : "Neigh + Pair",
            total(a, &a->best),
            a->kept_own ? "your lines kept" :
                          a->candidates[a->best.candidate].name,
            a->best.skin);
    if (a->has_own && a->nprocs > 1)
        fprintf(out, "# yours (%s) on your decomposition: %.4g s, %.3gx\n",
                a->own_why, a->own_loop, a->own_loop / total(a, &a->best));
    else if (a->has_own && !a->kept_own)
        fprintf(out, "# yours (%s): %.4g s, %.3gx\n", a->own_why,
                total(a, &a->own), total(a, &a->own) / total(a, &a->best));
    fputs(a->lines, out);
    if (a->nprocs > 1) {
        fprintf(out, "# for %d MPI ranks (%s): processors before the box is "
                     "made (create_box,\n# read_data), the balance lines "
                     "after the pair style (before the first run)\n",
                a->nprocs, a->decomps[a->best_decomp].name);
        fputs(a->decomp_lines, out);
    }
    if (a->n_segments) {
        fprintf(out, "# A schedule saves %.1f %% more: put each block before "
                     "the run that starts at its\n# step (split a run at a "
                     "phase change with run N upto).\n",
                100.0 * (1.0 - a->schedule_seconds / a->best.seconds));
        for (int i = 0; i < a->n_segments; i++) {
            fprintf(out, "# phase %d, steps %lld to %lld (%.4g s):\n", i + 1,
                    a->segments[i].from, a->segments[i].to,
                    a->segments[i].choice.seconds);
            print_lines(out, "#   ", a->segments[i].lines);
        }
    }
    fprintf(out, "# --- end of hgridopt settings ---\n");
    return CLI_OK;
}

static int write_result(FILE *out, const void *ctx)
{
    const traj_ctx *x = ctx;
    if (!strcmp(x->format, "json"))
        return write_json(out, ctx);
    if (!strcmp(x->format, "table"))
        return write_table(out, ctx);
    return write_code(out, ctx);
}

/* The files after --trajectory (up to the next option; "-" is standard
 * input) out of argv, the first left as the option's value (none: the
 * option dropped, so that --help still reaches the parser). */
static int take_files(int *argc, char **argv, const char **paths)
{
    int n = 0, w = 0;
    for (int i = 0; i < *argc; i++) {
        if (strcmp(argv[i], "--trajectory")) {
            argv[w++] = argv[i];
            continue;
        }
        while (i + 1 < *argc && strncmp(argv[i + 1], "--", 2) &&
               n < MAX_FILES) {
            paths[n++] = argv[++i];
            if (n == 1) { /* the option with its first file */
                argv[w++] = "--trajectory";
                argv[w++] = argv[i];
            }
        }
    }
    *argc = w;
    return n;
}

/* The engine: --engine, else the one of --format. */
static const hg_engine *engine_of(const cli_opts *o)
{
    if (o->engine)
        return hg_engine_find(o->engine);
    return hg_engine_of_format(o->format);
}

int cmd_trajectory(int argc, char **argv)
{
    static const char *paths[MAX_FILES];
    int n_paths = take_files(&argc, argv, paths);
    cli_opts co = {0};
    traj_opts o = {0};
    int rc;
    if (cli_parse(&spec, argc, argv, &co, &o, &rc))
        return rc;
    if (n_paths == 0) {
        cli_error("--trajectory: give the run's dumps (--trajectory FILE...)");
        return CLI_EUSAGE;
    }
    const hg_engine *g = engine_of(&co);
    if (!g) {
        cli_error("--engine: give the code the trajectory comes from "
                  "(--engine lammps)");
        return CLI_EUSAGE;
    }
    const hg_engine *w = hg_engine_of_format(co.format);
    if (w && w != g) {
        cli_error("--format: %s is not the format of --engine %s",
                  co.format, g->name);
        return CLI_EUSAGE;
    }
    hg_run_input in = {0};
    in.paths = paths;
    in.n_paths = n_paths;
    in.engine = g;
    in.setting = o.setting;
    in.log = o.log;
    in.timestep = o.timestep;
    in.max_frames = (int)o.max_frames;
    in.max_segments = (int)o.max_phases;
    in.mpi = (int)o.mpi;
    in.decomposition = o.decomposition;
    in.engine_balance = !strcmp(g->name, "lammps");
    hg_err e = {0};
    if (o.skin && strcmp(o.skin, "auto") &&
        (hg_parse_double(o.skin, "--skin", &in.skin, &e) ||
         !(in.skin > 0.0))) {
        cli_error("--skin: '%s' is not auto or a number > 0", o.skin);
        return CLI_EUSAGE;
    }
    if (o.min_gain_text) {
        double g;
        if (hg_parse_double(o.min_gain_text, "--min-gain", &g, &e) ||
            !(g >= 0.0 && g < 1.0)) {
            cli_error("--min-gain: '%s' is not a share in [0, 1)",
                      o.min_gain_text);
            return CLI_EUSAGE;
        }
        in.keep_margin = g > 0.0 ? g : -1.0;
    }
    double *tr = NULL;
    if (o.type_radius && hg_type_radius_parse(o.type_radius, &tr,
                                              &in.io.n_types, &e)) {
        cli_error("%s", e.msg);
        return CLI_EUSAGE;
    }
    in.io.type_radius = tr;
    cli_progress pr;
    in.progress = cli_progress_start(&pr);
    in.progress_params = &pr;
    hg_run_advice a;
    int st = hg_run_advise(&in, &a, &e);
    cli_progress_end(&pr);
    free(tr);
    if (st)
        return cli_fail(&e, st, 0);
    traj_ctx x = {&a, g, co.format, paths, n_paths};
    rc = cli_write(co.output, write_result, &x);
    hg_run_advice_clear(&a);
    return rc;
}
