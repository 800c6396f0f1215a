/* test_engine.c - the engine registry (hg_engine.h): names unique and
 * found, the default first, every engine's models registered cost models,
 * its constants stated with their source in 2D and 3D, its settings format
 * one the exports know. */
#include "hgridopt.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    /* hermetic: no calibration file of the user's */
    setenv("HGRIDOPT_CALIBRATION", "/nonexistent/hg-test-calibration.json", 1);
    setenv("HGRIDOPT_LAMMPS_CALIBRATION", "/nonexistent/hg-test-lammps.json",
           1);
    size_t n = hg_engine_count();
    CHECK(n >= 2);
    CHECK(!strcmp(hg_engine_at(0)->name, "hgrid"));
    CHECK(hg_engine_at(n) == NULL);
    CHECK(hg_engine_find("lmp") == NULL && hg_engine_find(NULL) == NULL);
    for (size_t i = 0; i < n; i++) {
        const hg_engine *g = hg_engine_at(i);
        CHECK(g && g->name && g->help && g->models && g->constants);
        if (!g)
            continue;
        CHECK(hg_engine_find(g->name) == g);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(hg_engine_at(j)->name, g->name) != 0);
        CHECK(g->models[0] != NULL);
        for (size_t m = 0; g->models[m]; m++) {
            if (!hg_model_find(g->models[m]))
                fprintf(stderr, "engine %s: model %s is not registered\n",
                        g->name, g->models[m]);
            CHECK(hg_model_find(g->models[m]) != NULL);
        }
        CHECK(!g->settings_format || !strcmp(g->settings_format, "lammps"));
        for (int d = 2; d <= 3; d++) {
            char buf[1024] = "";
            hg_err e = {0};
            CHECK(g->constants(d, buf, sizeof buf, &e) == HG_OK);
            CHECK(strstr(buf, "shipped") != NULL); /* the source is stated */
            char small[16];
            CHECK(g->constants(d, small, sizeof small, &e) == HG_OK &&
                  strlen(small) == sizeof small - 1);
        }
    }
    /* the bundled HGrid states K as hg_K_resolve chooses it */
    char buf[1024];
    hg_err e = {0};
    CHECK(hg_engine_find("hgrid")->constants(2, buf, sizeof buf, &e) ==
          HG_OK);
    char want[64];
    snprintf(want, sizeof want, "K = %g (shipped-default", hg_K_shipped(2, NULL));
    CHECK(!strncmp(buf, want, strlen(want)));
    return hg_test_summary("test_engine");
}
