/* consumer.c - a program that links the installed hgridopt library and asks
 * it for HGrid cell sizes (e.g. from a DEM code whose size distribution
 * evolves). Build: see CMakeLists.txt (find_package) or
 *   cc consumer.c $(pkg-config --cflags --libs hgridopt) */
#include <hgridopt/hgridopt.h>
#include <stdio.h>

int main(void)
{
    hg_err e = {0};
    hg_psd *psd = NULL;
    hg_psd_ctx ctx = {.dim = 2, .base_dir = NULL};
    if (hg_psd_parse("powerlaw:alpha=-3,omega=20", &ctx, &psd, &e) != HG_OK) {
        fprintf(stderr, "consumer: %s\n", e.msg);
        return 1;
    }
    hg_system sys = {.dim = 2, .nu = 0.4};
    hg_recommend_options opt;
    hg_recommend_options_default(&opt);
    hg_recommendation rec;
    int rc = hg_recommend(psd, &sys, NULL, &opt, &rec, &e); /* K: default */
    if (rc == HG_OK) {
        printf("hgridopt %s: %d levels:", hg_version_string(), rec.levels);
        for (int h = 0; h < rec.levels; h++)
            printf(" %.6g", rec.cell_sizes[h]);
        printf("\n");
        hg_recommendation_clear(&rec);
    } else {
        fprintf(stderr, "consumer: %s\n", e.msg);
    }
    hg_psd_free(psd);
    return rc == HG_OK ? 0 : 1;
}
