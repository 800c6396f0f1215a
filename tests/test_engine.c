/* test_engine.c - the engine registry (hg_engine.h): names unique and
 * found, the default first, every engine's models registered cost models,
 * its constants stated with their source in 2D and 3D, its settings format
 * one the exports know; the constants are a value the engine resolves and
 * the caller passes in (hg_model_values.consts): a model reads no file. */
#include "hgridopt.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    /* hermetic: no calibration file of the user's */
    setenv("HGRIDOPT_CALIBRATION", "/nonexistent/hg-test-calibration.json", 1);
    setenv("HGRIDOPT_LAMMPS_CALIBRATION", "/nonexistent/hg-test-lammps.json",
           1);
    setenv("HGRIDOPT_MERCURYDPM_CALIBRATION",
           "/nonexistent/hg-test-mercurydpm.json", 1);
    setenv("HGRIDOPT_LIGGGHTS_CALIBRATION", "/nonexistent/hg-test-lig.json",
           1);
    size_t n = hg_engine_count();
    CHECK(n >= 2);
    CHECK(!strcmp(hg_engine_at(0)->name, "hgrid"));
    CHECK(hg_engine_at(n) == NULL);
    CHECK(hg_engine_find("lmp") == NULL && hg_engine_find(NULL) == NULL);
    for (size_t i = 0; i < n; i++) {
        const hg_engine *g = hg_engine_at(i);
        CHECK(g && g->name && g->help && g->models);
        if (!g)
            continue;
        CHECK(hg_engine_find(g->name) == g);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(hg_engine_at(j)->name, g->name) != 0);
        CHECK(g->models[0] != NULL);
        /* run defaults: 0 (the generic ones) or usable values */
        CHECK(g->run_steps >= 0 && g->run_warmup >= 0 &&
              g->run_repeats >= 0 && g->run_repeats < 100);
        CHECK(!g->run_steps || g->validate);
        for (size_t m = 0; g->models[m]; m++) {
            if (!hg_model_find(g->models[m]))
                fprintf(stderr, "engine %s: model %s is not registered\n",
                        g->name, g->models[m]);
            CHECK(hg_model_find(g->models[m]) != NULL);
        }
        CHECK(!g->settings_format || !strcmp(g->settings_format, "lammps") ||
              !strcmp(g->settings_format, "mercurydpm") ||
              !strcmp(g->settings_format, "liggghts"));
        for (int d = 2; d <= 3; d++) {
            char buf[1024] = "";
            hg_err e = {0};
            CHECK(hg_engine_constants_text(g, d, buf, sizeof buf, &e) ==
                  HG_OK);
            CHECK(strstr(buf, "shipped") != NULL); /* the source is stated */
            char small[16];
            CHECK(hg_engine_constants_text(g, d, small, sizeof small, &e) ==
                      HG_OK &&
                  strlen(small) == sizeof small - 1);
        }
    }
    /* the bundled HGrid states K as hg_K_resolve chooses it */
    char buf[1024];
    hg_err e = {0};
    CHECK(hg_engine_constants_text(hg_engine_find("hgrid"), 2, buf,
                                   sizeof buf, &e) == HG_OK);
    char want[64];
    snprintf(want, sizeof want, "K = %g (shipped-default", hg_K_shipped(2, NULL));
    CHECK(!strncmp(buf, want, strlen(want)));
    /* every engine's models belong to it or to an earlier engine
     * declaring them too (mercurydpm shares the bundled HGrid's models) */
    for (size_t i = 0; i < n; i++)
        for (size_t m = 0; hg_engine_at(i)->models[m]; m++) {
            const hg_engine *o = hg_engine_of_model(hg_engine_at(i)->models[m]);
            int declared = 0, earlier = 0;
            for (size_t j = 0; o && o->models[j]; j++)
                declared |= !strcmp(o->models[j], hg_engine_at(i)->models[m]);
            for (size_t j = 0; j <= i; j++)
                earlier |= hg_engine_at(j) == o;
            CHECK(declared && earlier);
        }
    CHECK(hg_engine_of_model("nope") == NULL && !hg_engine_of_model(NULL));
    CHECK(hg_engine_find("hgrid")->consts == NULL);
    /* K: the engine of a settings format, else the engine of table and
     * json when it has one, else the default engine's */
    CHECK(hg_engine_K_of(NULL, "table") == hg_engine_at(0));
    CHECK(hg_engine_K_of(NULL, "mercurydpm") == hg_engine_find("mercurydpm"));
    CHECK(hg_engine_K_of(NULL, "lammps") == hg_engine_find("lammps"));
    CHECK(hg_engine_K_of(NULL, "liggghts") == hg_engine_at(0));
    CHECK(hg_engine_K_of(hg_engine_find("mercurydpm"), "json") ==
          hg_engine_find("mercurydpm"));
    CHECK(hg_engine_K_of(hg_engine_find("liggghts"), "table") ==
          hg_engine_at(0));
    CHECK(hg_engine_K_of(hg_engine_find("lammps"), "mercurydpm") ==
          hg_engine_find("mercurydpm"));
    /* MercuryDPM: many short alternating runs (its times wander) */
    CHECK(hg_engine_find("mercurydpm")->run_steps == 2 &&
          hg_engine_find("mercurydpm")->run_repeats == 41);
    const hg_engine *lmp = hg_engine_find("lammps");
    CHECK(lmp->consts == &hg_lammps_consts_kind);

    /* lammps-multi: the same answer with the shipped constants passed
     * explicitly as without any; other constants (a stored calibration
     * resolved by the engine) move it, and only when passed */
    hg_psd *psd = NULL;
    hg_psd_ctx ctx = {3, NULL};
    CHECK(hg_psd_parse("powerlaw:alpha=-3,omega=20", &ctx, &psd, &e) == HG_OK);
    hg_system sys = {3, 0.4};
    const double sizes[3] = {4.0, 12.0, 40.0};
    const hg_model *mm = hg_model_find("lammps-multi");
    hg_consts shipped, resolved;
    hg_consts_shipped(&hg_lammps_consts_kind, &shipped);
    hg_model_values v = {0};
    hg_work w0, w1, w2, w3;
    CHECK(hg_cost_evaluate(mm, psd, &sys, NULL, 3, sizes, NULL, &w0, &e) ==
          HG_OK);
    v.consts = &shipped;
    CHECK(hg_cost_evaluate(mm, psd, &sys, &v, 3, sizes, NULL, &w1, &e) ==
          HG_OK);
    CHECK(w0.T == w1.T && w0.T_cd == w1.T_cd && w0.T > 0.0);
    /* a stored calibration with 10x dearer bins */
    char path[] = "/tmp/hg-test-engine-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    hg_consts dear = shipped;
    dear.c[2] *= 10.0;
    CHECK(hg_consts_save(&hg_lammps_consts_kind, &dear, path, &e) == HG_OK);
    setenv("HGRIDOPT_LAMMPS_CALIBRATION", path, 1);
    char source[4200];
    CHECK(hg_engine_consts(lmp, 3, &resolved, source, sizeof source, &e) ==
          HG_OK);
    CHECK(strstr(source, "stored calibration") && strstr(source, path));
    CHECK(resolved.c[2] == dear.c[2]);
    /* without constants passed, the model ignores the file */
    CHECK(hg_cost_evaluate(mm, psd, &sys, NULL, 3, sizes, NULL, &w2, &e) ==
          HG_OK);
    CHECK(w2.T == w0.T);
    v.consts = &resolved;
    CHECK(hg_cost_evaluate(mm, psd, &sys, &v, 3, sizes, NULL, &w3, &e) ==
          HG_OK);
    CHECK(w3.T > w0.T && w3.T_cd == w0.T_cd);
    unlink(path);
    setenv("HGRIDOPT_LAMMPS_CALIBRATION", "/nonexistent/hg-test-lammps.json",
           1);
    hg_psd_free(psd);
    /* every hook begins its report afresh: validate and tune, handed one
     * full of garbage and a request without a packing, fail and leave a
     * report that hg_engine_report_clear frees (the command line once
     * declared its report without initialising it and a hook freed the
     * garbage; calibrate without packings makes its own and runs) */
    hg_engine_run run;
    hg_engine_run_default(NULL, &run);
    CHECK(run.steps == 50 && run.repeats == 3);
    hg_engine_run_default(hg_engine_find("mercurydpm"), &run);
    CHECK(run.steps == 2 && run.warmup == 1 && run.repeats == 41);
    hg_engine_run_default(NULL, &run);
    run.budget = 1.0;
    for (size_t i = 0; i < n; i++) {
        const hg_engine *g = hg_engine_at(i);
        int (*hooks[2])(const hg_engine_run *, hg_engine_report *,
                        hg_err *) = {g->validate, g->tune};
        for (int h = 0; h < 2; h++) {
            if (!hooks[h])
                continue;
            hg_engine_report rep;
            memset(&rep, 0xA5, sizeof rep);
            hg_err he = {0};
            CHECK(hooks[h](&run, &rep, &he) != HG_OK && he.msg[0]);
            CHECK(rep.n == 0 && rep.points == NULL && isnan(rep.spearman));
            hg_engine_report_clear(&rep);
        }
    }
    return hg_test_summary("test_engine");
}
