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
    /* K as `hgridopt recommend` chooses it for the bundled HGrid: this
     * machine's calibration file for the dimension, else the shipped
     * default (passing no values would use the models' library default,
     * the papers' 0.2) */
    hg_K_request kr = {.engine = hg_engine_K_of(NULL, "table"),
                       .dim = sys.dim};
    hg_K_choice kc;
    hg_model_values v = {0};
    int rc = hg_K_resolve(&kr, &kc, &e);
    /* K and, for the bundled HGrid with its own K, C (what a cell of its
     * tables costs per rebuild and detection), as the CLI sets them */
    if (rc == HG_OK)
        rc = hg_K_values_set(&kc, &v, &e);
    hg_recommendation rec;
    if (rc == HG_OK)
        rc = hg_recommend(psd, &sys, &v, &opt, &rec, &e);
    if (rc == HG_OK) {
        printf("hgridopt %s: K %g (%s), %d level%s:", hg_version_string(),
               kc.K, hg_K_source_name(kc.source), rec.levels,
               rec.levels == 1 ? "" : "s");
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
