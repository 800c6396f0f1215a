/* test_export.c - LAMMPS and MercuryDPM settings. */
#include "hg_export.h"
#include "hgridopt.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

int main(void)
{
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=10", 3);
    CHECK(p != NULL);
    if (!p)
        return hg_test_summary("test_export");
    hg_system sys = {3, 0.5};
    double sizes[3] = {4.0, 9.0, 20.0};
    hg_export_input in = {p,   &sys, HG_TOP_DOWN, 3,      sizes, 3.0, 2.0,
                          5.0, 0.2,  100.0,       "demo", "mm",  0.0,
                          NULL};
    double cut[3];
    int n = hg_export_lammps_cutoffs(&in, cut, NULL);
    CHECK(n == 3);
    CHECK_CLOSE(cut[0], 4.0, 1e-15, 0);
    CHECK_CLOSE(cut[1], 9.0, 1e-15, 0);
    CHECK(cut[2] == 20.0); /* printing rounds up (hg_lammps_lines) */

    char *t = NULL;
    CHECK(hg_export_lammps(&in, &t, NULL) == HG_OK);
    CHECK(t && strstr(t, "neighbor 0.2 multi\n"));
    CHECK(t && strstr(t, "neigh_modify collection/interval 3 4 9 20"));
    CHECK(t && strstr(t, "comm_modify mode multi\n"));
    CHECK(t && strstr(t, "predicted speed-up 33.3"));
    free(t);

    in.skin = 0.05;
    in.algorithm = HG_BOTTOM_UP;
    CHECK(hg_export_mercurydpm(&in, &t, NULL) == HG_OK);
    CHECK(t && strstr(t, "setHGridMethod(BOTTOMUP);"));
    CHECK(t && strstr(t, "setHGridDistribution(USER);"));
    CHECK(t && strstr(t, "setHGridMaxLevels(3);"));
    CHECK(t && strstr(t, "setHGridCellOverSizeRatio(1.0);"));
    CHECK(t && strstr(t, "userHGridCellSize(unsigned int level)"));
    CHECK(t && strstr(t, "{4, 9, 20};")); /* nudged at run time */
    CHECK(t && strstr(t, "std::nextafter(reach, up)"));
    CHECK(t && strstr(t, "Mercury3D"));
    free(t);

    /* An empty middle level (sizes above the largest particle) is merged
     * away; equal collection cutoffs never appear. */
    double s2[4] = {4.0, 20.0, 30.0, 40.0};
    hg_export_input in2 = in;
    in2.levels = 4;
    in2.sizes = s2;
    n = hg_export_lammps_cutoffs(&in2, cut, NULL);
    CHECK(n == 2);
    CHECK(hg_export_mercurydpm(&in2, &t, NULL) == HG_OK);
    CHECK(t && strstr(t, "setHGridMaxLevels(2);"));
    free(t);

    /* sizes not covering the largest particle are refused */
    double s3[2] = {4.0, 10.0};
    hg_export_input in3 = in;
    in3.levels = 2;
    in3.sizes = s3;
    hg_err e = {0};
    CHECK(hg_export_lammps(&in3, &t, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "largest particle diameter") != NULL);
    hg_psd_free(p);
    return hg_test_summary("test_export");
}
