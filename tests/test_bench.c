/* test_bench.c - the benchmark harness (hg_bench.h), the HGrid detector
 * with cell sizes as numbers, and the shared number-list parser. */
#include "hgridopt.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_parse_list(void)
{
    hg_err e = {0};
    double *v = NULL;
    size_t n = 0;
    CHECK(hg_parse_list(" 1, 2.5 ,4", ',', "--sizes", &v, &n, &e) == HG_OK);
    CHECK(n == 3 && v[0] == 1.0 && v[1] == 2.5 && v[2] == 4.0);
    free(v);
    CHECK(hg_parse_list("1;2", ';', "sizes", &v, &n, &e) == HG_OK && n == 2);
    free(v);
    CHECK(hg_parse_list("1,,2", ',', "--sizes", &v, &n, &e) == HG_EPARSE);
    CHECK(strstr(e.msg, "--sizes: '1,,2' has an empty item") != NULL);
    CHECK(hg_parse_list("1,x", ',', "--sizes", &v, &n, &e) == HG_EPARSE);
    CHECK(strstr(e.msg, "--sizes: 'x' is not a number") != NULL);
    CHECK(hg_parse_list("1,nan", ',', "f", &v, &n, &e) == HG_EPARSE);
    CHECK(hg_parse_list("", ',', "f", &v, &n, &e) == HG_EPARSE);
    CHECK(v == NULL && n == 0);
}

/* A Poisson packing of n particles, powerlaw omega 5, 3D, nu 0.3. */
static void packing(hg_psd **psd, hg_particles *p, size_t n)
{
    hg_err e = {0};
    hg_psd_ctx ctx = {3, NULL};
    CHECK(hg_psd_parse("powerlaw:alpha=-3,omega=5", &ctx, psd, &e) == HG_OK);
    hg_pack_params pp = {.dim = 3, .n = n, .nu = 0.3, .seed = 5,
                         .periodic = 1};
    CHECK(hg_pack_poisson(*psd, &pp, p, &e) == HG_OK);
}

static void test_sized_detector(void)
{
    hg_psd *psd = NULL;
    hg_particles p = {0};
    hg_err e = {0};
    packing(&psd, &p, 800);
    double sizes[2] = {4.0, 2.0 * hg_particles_rmax(&p)};
    hg_detector *a = NULL, *b = NULL;
    hg_kv kv = {0, NULL};
    char text[80];
    snprintf(text, sizeof text, "%.17g;%.17g", sizes[0], sizes[1]);
    CHECK(hg_kv_add(&kv, "sizes", text, &e) == HG_OK);
    CHECK(hg_detector_create("hgrid", &kv, &a, &e) == HG_OK);
    CHECK(hg_detector_create_sized("hgrid", NULL, 2, sizes, &b, &e) == HG_OK);
    hg_pairs pa = {0}, pb = {0};
    hg_detector_counters ca, cb;
    CHECK(hg_detector_detect(a, &p, 0.0, &pa, &ca, &e) == HG_OK);
    CHECK(hg_detector_detect(b, &p, 0.0, &pb, &cb, &e) == HG_OK);
    hg_pairs_sort(&pa);
    hg_pairs_sort(&pb);
    CHECK(pa.n > 0 && hg_pairs_equal(&pa, &pb));
    CHECK(ca.pair_checks == cb.pair_checks &&
          ca.cell_accesses == cb.cell_accesses);
    hg_detector *c = NULL;
    double bad[2] = {4.0, 2.0};
    CHECK(hg_detector_create_sized("hgrid-bu", NULL, 2, bad, &c, &e) ==
          HG_EINVAL);
    CHECK(strstr(e.msg, "sizes[2]") != NULL);
    CHECK(hg_detector_create_sized("sap", NULL, 2, sizes, &c, &e) ==
          HG_EINVAL);
    CHECK(hg_detector_create_sized("hgrid", &kv, 2, sizes, &c, &e) ==
          HG_EINVAL);
    CHECK(c == NULL);
    hg_kv_clear(&kv);
    hg_pairs_clear(&pa);
    hg_pairs_clear(&pb);
    hg_detector_free(a);
    hg_detector_free(b);
    hg_particles_clear(&p);
    hg_psd_free(psd);
}

static void test_bench(void)
{
    hg_psd *psd = NULL;
    hg_particles p = {0};
    hg_err e = {0};
    packing(&psd, &p, 1500);
    hg_bench_config c;
    hg_bench_config_default(&c);
    c.particles = &p;
    c.psd = psd;
    c.sys.dim = 3;
    c.sys.nu = 0.3;
    c.repeats = 2;
    c.steps = 2;
    hg_bench_result r;
    /* every method the periodic box allows; sap-incremental skipped */
    CHECK(hg_bench_run(&c, &r, &e) == HG_OK);
    CHECK(r.n_methods + r.n_skipped == hg_detector_type_count());
    CHECK(r.n_skipped == 1 &&
          !strcmp(r.skipped[0].type->name, "sap-incremental"));
    size_t contacts = r.methods[0].contacts;
    for (size_t k = 0; k < r.n_methods; k++) {
        const hg_bench_method *m = &r.methods[k];
        CHECK(m->contacts == contacts && contacts > 0);
        CHECK(m->time > 0.0 && isfinite(m->step_time));
        int hgrid = !strcmp(m->type->name, "hgrid") ||
                    !strcmp(m->type->name, "hgrid-bu");
        CHECK(hgrid == (m->L > 0));
        if (m->L)
            CHECK(m->sizes[m->L - 1] >= 2.0 * r.rmax);
    }
    CHECK(r.n == 1500 && r.dim == 3 && r.periodic);
    hg_bench_result_clear(&r);
    /* large displacements wrap around the periodic box */
    const char *grid[] = {"lc", "hgrid"};
    c.methods = grid;
    c.n_methods = 2;
    c.displacement = 100.0;
    CHECK(hg_bench_run(&c, &r, &e) == HG_OK);
    CHECK(r.n_methods == 2 && r.methods[0].contacts_last > 0);
    hg_bench_result_clear(&r);
    /* untimed warm-up detections: the same contacts; a negative count is
     * refused by name */
    c.warmup = 2;
    CHECK(hg_bench_run(&c, &r, &e) == HG_OK);
    CHECK(r.n_methods == 2 && r.methods[1].contacts == contacts &&
          r.methods[1].time > 0.0);
    hg_bench_result_clear(&r);
    c.warmup = -1;
    CHECK(hg_bench_run(&c, &r, &e) == HG_EINVAL &&
          strstr(e.msg, "warmup") != NULL);
    c.warmup = 0;
    /* the packing itself is not modified */
    hg_particles q = {0};
    hg_psd *psd2 = NULL;
    packing(&psd2, &q, 1500);
    CHECK(hg_test_same_particles(&p, &q));
    hg_particles_clear(&q);
    hg_psd_free(psd2);
    /* the work budget: predicted for lc, measured for sap */
    c.displacement = 0.05;
    c.budget = 1e3;
    CHECK(hg_bench_run(&c, &r, &e) == HG_ELIMIT);
    CHECK(strstr(e.msg, "lc is predicted to do") != NULL);
    hg_bench_result_clear(&r);
    const char *sap[] = {"sap"};
    c.methods = sap;
    c.n_methods = 1;
    CHECK(hg_bench_run(&c, &r, &e) == HG_ELIMIT);
    CHECK(strstr(e.msg, "sap did") != NULL);
    hg_bench_result_clear(&r);
    c.budget = 0.0;
    /* configuration errors name the field */
    const char *bad[] = {"sap", "bogus"};
    c.methods = bad;
    c.n_methods = 2;
    CHECK(hg_bench_run(&c, &r, &e) == HG_EUNKNOWN);
    CHECK(strstr(e.msg, "methods: unknown method 'bogus'") != NULL);
    hg_bench_result_clear(&r);
    const char *twice[] = {"sap", "sap"};
    c.methods = twice;
    CHECK(hg_bench_run(&c, &r, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "listed twice") != NULL);
    hg_bench_result_clear(&r);
    const char *inc[] = {"sap-incremental"};
    c.methods = inc;
    c.n_methods = 1;
    CHECK(hg_bench_run(&c, &r, &e) == HG_EINVAL);
    hg_bench_result_clear(&r);
    double small[1] = {1.0};
    c.methods = grid;
    c.n_methods = 2;
    c.L = 1;
    c.sizes = small;
    CHECK(hg_bench_run(&c, &r, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "sizes: the last cell size 1 is below") != NULL);
    hg_bench_result_clear(&r);
    hg_particles_clear(&p);
    hg_psd_free(psd);
}

int main(void)
{
    test_parse_list();
    test_sized_detector();
    test_bench();
    return hg_test_summary("test_bench");
}
