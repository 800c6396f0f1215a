/* liggghts_integration.c - the liggghts engine against Debian's LIGGGHTS,
 * through the engine's hooks (as `recommend --format liggghts`, validate
 * and tune --engine liggghts call them):
 *  - the settings write_settings emits for the model's best bin size run
 *    in liggghts on the packing (a granular input around them) and find
 *    the same neighbours as LIGGGHTS' default bin size;
 *  - validate measures the recommendation, the default and the scan, with
 *    the same neighbour count everywhere;
 *  - tune returns within its budget with the tuned, recommended and
 *    default bin sizes measured side by side;
 *  - calibrate without packings fits and stores constants.
 * usage: liggghts_integration PACKING (3D; tests/liggghts_integration.sh
 * writes one with hgridopt pack). */
#include "hgridopt.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Run liggghts on data.liggghts in dir with the neighbour lines given;
 * *neigh = "Total # of neighbors", returns 0 when it ran without ERROR
 * and built lists. */
static int run_lines(const char *dir, const char *lines, const char *name,
                     double *neigh)
{
    char path[512];
    snprintf(path, sizeof path, "%s/in.%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "atom_style granular\natom_modify map array\n"
               "boundary p p p\nnewton off\ncommunicate single vel yes\n"
               "units si\nread_data data.liggghts\n"
               "fix m1 all property/global youngsModulus peratomtype 5.e6\n"
               "fix m2 all property/global poissonsRatio peratomtype 0.45\n"
               "fix m3 all property/global coefficientRestitution "
               "peratomtypepair 1 0.9\n"
               "fix m4 all property/global coefficientFriction "
               "peratomtypepair 1 0.5\n"
               "pair_style gran model hertz tangential history\n"
               "pair_coeff * *\n%s"
               "fix integrate all nve/sphere\ntimestep 1e-6\n"
               "neigh_modify every 1 delay 0 check no\nrun 20\n",
            lines);
    fclose(f);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && OMP_NUM_THREADS=1 timeout 120 liggghts -in in.%s "
             "-log none -echo none -nocite > out.%s 2>&1 < /dev/null",
             dir, name, name);
    int rc = system(cmd);
    snprintf(path, sizeof path, "%s/out.%s", dir, name);
    f = fopen(path, "r");
    if (!f)
        return -1;
    char line[512];
    int error = 0, builds = 0;
    *neigh = NAN;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "ERROR", 5)) {
            fprintf(stderr, "%s: %s", name, line);
            error = 1;
        }
        if (!strncmp(line, "Total # of neighbors =", 22))
            *neigh = strtod(line + 22, NULL);
        if (!strncmp(line, "Neighbor list builds =", 22))
            builds = atoi(line + 22);
    }
    fclose(f);
    printf("%s: exit %d, neighbours %.0f, builds %d\n", name, rc, *neigh,
           builds);
    return rc == 0 && !error && builds > 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: liggghts_integration PACKING\n");
        return 2;
    }
    setenv("HGRIDOPT_LIGGGHTS_CALIBRATION", "/nonexistent/hg-test-lig.json",
           1);
    hg_particles p = {0};
    hg_psd *psd = NULL;
    hg_system sys = {0};
    hg_snapshot *snap = NULL;
    hg_err e = {0};
    int st = hg_io_read(argv[1], HG_IO_AUTO, &p, &e);
    if (!st)
        st = hg_io_system_from_particles(&p, &psd, &sys, &e);
    if (!st && !(st = hg_snapshot_create(&p, &snap, &e))) {
        sys.structure = HG_STRUCTURE_MEASURED;
        sys.snapshot = snap;
    }
    CHECK(st == HG_OK);
    if (st) {
        fprintf(stderr, "%s: %s\n", argv[1], e.msg);
        return 1;
    }
    const hg_engine *g = hg_engine_find("liggghts");
    CHECK(g != NULL);
    if (!g)
        return 1;

    /* the model's best bin size and the settings text of it */
    hg_consts c;
    char source[4200], constants[1024];
    CHECK(hg_engine_consts(g, 3, &c, source, sizeof source, &e) == HG_OK);
    CHECK(hg_engine_constants_text(g, 3, constants, sizeof constants, &e) ==
          HG_OK);
    double skin = hg_export_default_skin(psd);
    hg_liggghts_system ls;
    CHECK(hg_liggghts_system_of(&p, &sys, skin, 1, &ls, &e) == HG_OK);
    hg_liggghts_optimum opt;
    CHECK(hg_liggghts_optimise(psd, &ls, &c, 0.0, &opt, &e) == HG_OK);
    hg_engine_settings in = {0};
    in.psd = psd;
    in.sys = &sys;
    in.model = "liggghts-bin";
    in.levels = 1;
    in.sizes = &opt.binsize;
    in.predicted = opt.seconds;
    in.unit = "Neigh seconds per build";
    in.skin = skin;
    in.atoms = (double)p.n;
    in.constants = constants;
    in.origin = "recommend";
    char *text = NULL;
    CHECK(g->write_settings(&in, &text, &e) == HG_OK && text);
    if (!text)
        return hg_test_summary("liggghts_integration");
    printf("--- emitted settings ---\n%s---\n", text);
    CHECK(strstr(text, "\nneigh_modify binsize ") != NULL);
    CHECK(strstr(text, "bin\n") != NULL);

    char dir[] = "/tmp/hg-liggghts-int-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[512];
    snprintf(path, sizeof path, "%s/data.liggghts", dir);
    CHECK(hg_io_write(path, HG_IO_LAMMPS, &p, &e) == HG_OK);
    char deflines[128];
    snprintf(deflines, sizeof deflines, "neighbor %.6g bin\n", skin);
    double n_rec = NAN, n_def = NAN;
    CHECK(run_lines(dir, text, "recommended", &n_rec) == 0);
    CHECK(run_lines(dir, deflines, "default", &n_def) == 0);
    CHECK(n_rec > 0 && n_rec == n_def);
    free(text);
    char rm[600];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    if (system(rm) != 0)
        fprintf(stderr, "could not remove %s\n", dir);

    /* validate and tune through the hooks, a few steps each */
    const hg_particles *pk[1] = {&p};
    hg_engine_run run;
    hg_engine_run_default(g, &run);
    run.packings = pk;
    run.n_packings = 1;
    run.sys = &sys;
    run.psd = psd;
    run.nprocs = 1;
    run.steps = 5;
    run.warmup = 1;
    run.repeats = 1;
    hg_engine_report rep;
    st = g->validate(&run, &rep, &e);
    CHECK(st == HG_OK);
    if (st)
        fprintf(stderr, "validate: %s\n", e.msg);
    if (st == HG_OK) {
        CHECK(rep.n >= 7 && rep.recommended == 0 && rep.baseline >= 0);
        CHECK(rep.fastest >= 0 && rep.fastest < rep.n);
        CHECK(strstr(rep.program, "LIGGGHTS") != NULL);
        for (int i = 0; i < rep.n; i++) {
            CHECK(rep.points[i].measured > 0.0);
            CHECK(rep.points[i].found == n_def);
            CHECK(isfinite(rep.points[i].predicted));
            printf("  %-24s %-56s %8.3f ms\n", rep.points[i].role,
                   rep.points[i].setting, 1e3 * rep.points[i].measured);
        }
        hg_engine_report_clear(&rep);
    }
    run.budget = 6.0;
    st = g->tune(&run, &rep, &e);
    CHECK(st == HG_OK);
    if (st)
        fprintf(stderr, "tune: %s\n", e.msg);
    if (st == HG_OK) {
        CHECK(rep.n >= 1 && rep.n <= 3 && !strcmp(rep.points[0].role, "tuned"));
        /* the budget limits when a new setting starts; how long the runs
         * take depends on the machine's load, so no bound is asserted */
        CHECK(rep.seconds > 0.0 && rep.settings_measured >= rep.n);
        hg_engine_report_clear(&rep);
    }
    /* calibrate without packings: three small packings of its own, the
     * constants stored where asked and readable */
    hg_engine_run_default(g, &run);
    run.atoms = 3000;
    run.steps = 5;
    run.warmup = 1;
    run.repeats = 1;
    run.store = 1;
    char saved[] = "/tmp/hg-liggghts-cal-XXXXXX";
    int fd = mkstemp(saved);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    run.save = saved;
    st = g->calibrate(&run, &rep, &e);
    CHECK(st == HG_OK);
    if (st)
        fprintf(stderr, "calibrate: %s\n", e.msg);
    if (st == HG_OK) {
        printf("calibrate: %s; median error %.2f\n", rep.fitted,
               rep.fit_median_error);
        char both[9000];
        snprintf(both, sizeof both, "%s and %s-pair.json", saved, saved);
        CHECK(rep.n == 21 && !strcmp(rep.saved, both));
        hg_consts back, pair;
        CHECK(hg_consts_load(&hg_liggghts_consts_kind, saved, &back, &e) == HG_OK);
        CHECK(back.npoints == 21 && back.c[0] > 0.0);
        /* the pair loop's constants beside them: per stored pair > 0 */
        snprintf(both, sizeof both, "%s-pair.json", saved);
        CHECK(hg_consts_load(&hg_liggghts_pair_kind, both, &pair, &e) ==
                  HG_OK &&
              pair.c[0] > 0.0 && pair.npoints == 12);
        remove(both);
        hg_engine_report_clear(&rep);
    }
    remove(saved);
    hg_snapshot_free(snap);
    hg_psd_free(psd);
    hg_particles_clear(&p);
    return hg_test_summary("liggghts_integration");
}
