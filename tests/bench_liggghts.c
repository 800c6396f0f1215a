/* bench_liggghts.c - the liggghts engine's runners on particle files,
 * through the engine's hooks (hg_engine.h), as the command line will call
 * them:
 *   bench_liggghts validate FILE...      per file the recommended bin
 *        size against LIGGGHTS' default and 0.25-1.5 x the cutoff, and a
 *        table: system, N, recommended, default, best, recommended / best
 *   bench_liggghts calibrate SAVE FILE...  measure bin sizes on the files,
 *        fit the constants and store them in SAVE
 * Environment: HG_LIGGGHTS_STEPS, HG_LIGGGHTS_REPEATS (timed steps per
 * run, repeats), HG_LIGGGHTS_STRUCTURE (poisson, hard-spheres or measured:
 * the statistics the model counts with; default measured). Exit status 1
 * when a run fails, 2 on usage errors; validate exits 3 when a
 * recommendation is more than 10 % slower than the best measured. */
#include "hgridopt.h"

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct row {
    char name[64];
    size_t n;
    double rec, def, best, t_rec, t_def, t_best, cut;
} row;

static int load(const char *path, hg_particles *p, hg_psd **psd,
                hg_system *sys, hg_snapshot **snap, hg_err *e)
{
    int st = hg_io_read(path, HG_IO_AUTO, p, e);
    if (!st)
        st = hg_io_system_from_particles(p, psd, sys, e);
    const char *s = getenv("HG_LIGGGHTS_STRUCTURE");
    if (!st && s && *s)
        st = hg_structure_parse(s, &sys->structure, e);
    else if (!st)
        sys->structure = HG_STRUCTURE_MEASURED;
    if (!st && sys->structure == HG_STRUCTURE_MEASURED &&
        !(st = hg_snapshot_create(p, snap, e))) {
        sys->snapshot = *snap;
        double nu = hg_snapshot_get_info(*snap)->nu_local;
        if (nu > 0.0 && nu < 1.0)
            sys->nu = nu;
    }
    return st;
}

static void run_defaults(hg_engine_run *r)
{
    hg_engine_run_default(hg_engine_find("liggghts"), r);
    const char *s = getenv("HG_LIGGGHTS_STEPS");
    r->steps = s ? atoi(s) : 30;
    r->warmup = 2;
    s = getenv("HG_LIGGGHTS_REPEATS");
    r->repeats = s ? atoi(s) : 5;
}

int main(int argc, char **argv)
{
    if (argc < 3 || (strcmp(argv[1], "validate") && strcmp(argv[1], "calibrate")) ||
        (!strcmp(argv[1], "calibrate") && argc < 4)) {
        fprintf(stderr, "usage: bench_liggghts validate FILE... | calibrate "
                        "SAVE FILE...\n");
        return 2;
    }
    const hg_engine *g = hg_engine_find("liggghts");
    if (!g || !g->validate || !g->calibrate) {
        fprintf(stderr, "bench_liggghts: no liggghts engine\n");
        return 1;
    }
    int calib = !strcmp(argv[1], "calibrate");
    int first = calib ? 3 : 2, nf = argc - first, rc = 0;
    hg_particles *ps = calloc((size_t)nf, sizeof *ps);
    const hg_particles **pp = calloc((size_t)nf, sizeof *pp);
    row *rows = calloc((size_t)nf, sizeof *rows);
    if (!ps || !pp || !rows)
        return 1;
    for (int f = 0; f < nf && !rc; f++) {
        hg_err e = {0};
        hg_psd *psd = NULL;
        hg_system sys = {0};
        hg_snapshot *snap = NULL;
        if (load(argv[first + f], &ps[f], &psd, &sys, &snap, &e)) {
            fprintf(stderr, "bench_liggghts: %s: %s\n", argv[first + f],
                    e.msg);
            rc = 1;
            break;
        }
        pp[f] = &ps[f];
        if (calib) {
            hg_psd_free(psd);
            hg_snapshot_free(snap);
            continue;
        }
        hg_engine_run r;
        run_defaults(&r);
        r.packings = &pp[f];
        r.n_packings = 1;
        r.sys = &sys;
        r.psd = psd;
        hg_engine_report rep;
        if (g->validate(&r, &rep, &e)) {
            fprintf(stderr, "bench_liggghts: %s: %s\n", argv[first + f],
                    e.msg);
            rc = 1;
        } else {
            char tmp[4096];
            snprintf(tmp, sizeof tmp, "%s", argv[first + f]);
            printf("%s: %zu atoms, %s\n  program %s\n  constants %s\n",
                   basename(tmp), ps[f].n, hg_structure_name(sys.structure),
                   rep.program, rep.constants);
            printf("  %-24s %-52s %12s %12s %12s\n", "role", "setting",
                   "predicted", "measured", "neighbours");
            for (int i = 0; i < rep.n; i++) {
                const hg_engine_point *q = &rep.points[i];
                printf("  %-24s %-52s %9.3f ms %9.3f ms %12.0f%s\n", q->role,
                       q->setting, 1e3 * q->predicted, 1e3 * q->measured,
                       q->found, i == rep.fastest ? "  fastest" : "");
            }
            printf("  spearman %.2f, %.1f s\n", rep.spearman, rep.seconds);
            row *w = &rows[f];
            snprintf(w->name, sizeof w->name, "%.63s", basename(tmp));
            w->n = ps[f].n;
            const hg_engine_point *R = &rep.points[rep.recommended],
                                  *D = &rep.points[rep.baseline],
                                  *B = &rep.points[rep.fastest];
            w->rec = R->sizes[0];
            w->def = D->sizes[0];
            w->best = B->sizes[0];
            w->t_rec = R->measured;
            w->t_def = D->measured;
            w->t_best = B->measured;
            for (int i = 1; i < rep.n; i++)
                if (rep.points[i].found != rep.points[0].found) {
                    fprintf(stderr, "bench_liggghts: %s: neighbour counts "
                                    "differ between bin sizes\n",
                            w->name);
                    rc = 1;
                }
            hg_engine_report_clear(&rep);
        }
        hg_psd_free(psd);
        hg_snapshot_free(snap);
        fflush(stdout);
    }
    if (!rc && calib) {
        hg_err e = {0};
        hg_psd *psd = NULL;
        hg_system sys = {0};
        hg_snapshot *snap = NULL;
        hg_particles tmp = {0};
        int st = load(argv[first], &tmp, &psd, &sys, &snap, &e);
        hg_particles_clear(&tmp);
        hg_engine_run r;
        run_defaults(&r);
        r.packings = pp;
        r.n_packings = nf;
        r.sys = &sys;
        r.psd = psd;
        r.store = 1;
        r.save = argv[2];
        hg_engine_report rep;
        if (st || g->calibrate(&r, &rep, &e)) {
            fprintf(stderr, "bench_liggghts: calibrate: %s\n", e.msg);
            rc = 1;
        } else {
            printf("program %s\nfitted %s\nmedian error %.1f %%, max %.1f "
                   "%%, spearman %.3f, %d settings, %.1f s\nsaved %s\n",
                   rep.program, rep.fitted, 100 * rep.fit_median_error,
                   100 * rep.fit_max_error, rep.spearman,
                   rep.settings_measured, rep.seconds, rep.saved);
            for (int i = 0; i < rep.n; i++)
                printf("  %-60s %9.3f ms predicted %9.3f ms measured\n",
                       rep.points[i].setting, 1e3 * rep.points[i].predicted,
                       1e3 * rep.points[i].measured);
            hg_engine_report_clear(&rep);
        }
        hg_psd_free(psd);
        hg_snapshot_free(snap);
    }
    if (!calib && !rc) {
        printf("\n| system | N | recommended binsize | default | best | "
               "Neigh ms/build rec / default / best | ratio rec/best |\n"
               "|---|---|---|---|---|---|---|\n");
        for (int f = 0; f < nf; f++) {
            row *w = &rows[f];
            double ratio = w->t_rec / w->t_best;
            printf("| %s | %zu | %.4g | %.4g | %.4g | %.3f / %.3f / %.3f | "
                   "%.3f |\n",
                   w->name, w->n, w->rec, w->def, w->best, 1e3 * w->t_rec,
                   1e3 * w->t_def, 1e3 * w->t_best, ratio);
            if (!(ratio <= 1.10))
                rc = 3;
        }
    }
    for (int f = 0; f < nf; f++)
        hg_particles_clear(&ps[f]);
    free(ps);
    free(pp);
    free(rows);
    return rc;
}
