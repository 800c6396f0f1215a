/* test_dense.c - the hard-spheres structure of the HGrid models: the dilute
 * limit, the monodisperse closed form, the gradient against central finite
 * differences, the size of the crowding effect, the optimiser, and the
 * rejection of bad structure values. */
#include "hgridopt.h"
#include "model_internal.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static hg_psd *make(const char *spec, int dim)
{
    hg_psd *p = hg_test_psd(spec, dim);
    CHECK(p != NULL);
    return p;
}

static hg_work work(const hg_model *m, const hg_psd *p, int dim, double nu,
                    hg_structure st, int L, const double *s)
{
    hg_system sys = {dim, nu, st};
    hg_work w = {NAN, NAN, NAN};
    hg_err e = {0};
    if (hg_cost_evaluate(m, p, &sys, NULL, L, s, NULL, &w, &e))
        fprintf(stderr, "%s: %s\n", m->name, e.msg);
    return w;
}

static const char *const grids[2] = {"hgrid-top-down", "hgrid-bottom-up"};

/* nu -> 0: T (= T_cd + K T_ca) equals the Poisson model within 1e-6 at
 * nu = 1e-6; T_cd alone keeps a finite relative deficit (hard cores never
 * overlap), and it is a deficit. */
static void test_dilute(void)
{
    for (int dim = 2; dim <= 3; dim++) {
        hg_psd *p = make(dim == 3 ? "powerlaw:alpha=-3,omega=30"
                                  : "powerlaw:alpha=-2,omega=30",
                         dim);
        double s[4];
        hg_err e = {0};
        CHECK(hg_sizes_exponential(p, 4, s, &e) == HG_OK);
        for (int g = 0; g < 2; g++) {
            const hg_model *m = hg_model_find(grids[g]);
            hg_work a = work(m, p, dim, 1e-6, HG_STRUCTURE_POISSON, 4, s);
            hg_work b =
                work(m, p, dim, 1e-6, HG_STRUCTURE_HARD_SPHERES, 4, s);
            CHECK_CLOSE(b.T, a.T, 1e-6, 0.0);
            CHECK(b.T_cd < a.T_cd);
            CHECK(b.T_ca == a.T_ca);
        }
        hg_psd_free(p);
    }
}

/* One level of monodisperse spheres: T_cd = (1/2 + n_c) m - (1 - S(0))/2,
 * S(0) of the Carnahan-Starling (3D) and Henderson (2D) fluid. */
static void test_monodisperse(void)
{
    for (int dim = 2; dim <= 3; dim++)
        for (int k = 0; k < 3; k++) {
            double nu = 0.1 + 0.25 * k, s = 2.6;
            hg_psd *p = make("mono:r=1", dim);
            const hg_model *m = hg_model_find("hgrid-top-down");
            hg_work a = work(m, p, dim, nu, HG_STRUCTURE_POISSON, 1, &s);
            hg_work b = work(m, p, dim, nu, HG_STRUCTURE_HARD_SPHERES, 1, &s);
            double x = 1.0 - nu, S0;
            if (dim == 3)
                S0 = pow(x, 4) / (1 + 4 * nu + 4 * nu * nu -
                                  4 * pow(nu, 3) + pow(nu, 4));
            else
                S0 = pow(x, 3) / (1 + nu + 3.0 / 8 * nu * nu -
                                  pow(nu, 3) / 8);
            double V = dim == 3 ? 4.0 / 3 * M_PI : M_PI;
            double mm = nu * pow(s, dim) / V; /* m of KOL 2014 eq. 11 */
            double nc = 0.5 * (pow(3, dim) - 1);
            CHECK_CLOSE(a.T_cd, (0.5 + nc) * mm, 1e-12, 0.0);
            CHECK_CLOSE(b.T_cd, (0.5 + nc) * mm - 0.5 * (1 - S0), 1e-12,
                        0.0);
            CHECK_CLOSE(b.T_ca, a.T_ca, 1e-15, 0.0);
            hg_psd_free(p);
        }
}

/* The Kirkwood-Buff kernel (scaled-particle theory + Ornstein-Zernike at
 * k = 0): for one species the hole n u'Ku is 1 - S(0) of the theory's own
 * equation of state, (1-eta)^3/(1+eta) for disks (Helfand, Frisch &
 * Lebowitz 1961) and (1-eta)^4/(1+2 eta)^2 for spheres (the Percus-Yevick
 * compressibility route, equal to scaled-particle theory); dilute, the
 * bare core V_d (r + R)^d of a pair; K symmetric. */
static void test_kb_kernel(void)
{
    for (int d = 2; d <= 3; d++) {
        double Vd = d == 2 ? M_PI : 4.0 * M_PI / 3.0, r = 1.3, K[4][4];
        for (int i = 0; i < 3; i++) {
            double eta = i == 0 ? 1e-7 : i == 1 ? 0.3 : 0.6;
            double n = eta / (Vd * pow(r, d)), xi[7];
            for (int k = 0; k <= 2 * d; k++)
                xi[k] = n * pow(r, k);
            hg_hs_kb_matrix(d, xi, K);
            double hole = 0.0;
            for (int a = 0; a <= d; a++)
                for (int b = 0; b <= d; b++) {
                    hole += n * K[a][b] * pow(r, a + b);
                    CHECK_CLOSE(K[a][b], K[b][a], 1e-6, 1e-9);
                }
            double s0 = d == 2 ? pow(1 - eta, 3) / (1 + eta)
                               : pow(1 - eta, 4) / pow(1 + 2 * eta, 2);
            if (i == 0) /* dilute: n V_d (2r)^d */
                CHECK_CLOSE(hole, n * Vd * pow(2 * r, d), 1e-4, 0.0);
            else
                CHECK_CLOSE(hole, 1.0 - s0, 1e-6, 0.0);
        }
        /* two species, dilute: the core of the pair, r = 1 and R = 5 */
        double n1 = 1e-9, n2 = 1e-9, xi[7];
        for (int k = 0; k <= 2 * d; k++)
            xi[k] = n1 + n2 * pow(5.0, k);
        hg_hs_kb_matrix(d, xi, K);
        double g = 0.0;
        for (int a = 0; a <= d; a++)
            for (int b = 0; b <= d; b++)
                g += K[a][b] * pow(5.0, b);
        CHECK_CLOSE(g, Vd * pow(6.0, d), 1e-5, 0.0);
    }
}

/* The analytic gradient of T against central differences, hard spheres. */
static void test_gradient(void)
{
    static const struct {
        const char *spec;
        int dim, L;
        double nu;
    } cases[] = {
        {"powerlaw:alpha=-3,omega=100", 3, 5, 0.6},
        {"powerlaw:alpha=0,omega=10", 3, 4, 0.45},
        {"lognormal:median=1,sigma=0.5,qmin=0.001,qmax=0.999", 3, 4, 0.3},
        {"powerlaw:alpha=-2,omega=30", 2, 4, 0.7},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        hg_psd *p = make(cases[c].spec, cases[c].dim);
        int L = cases[c].L;
        double s[8], g[8], T;
        hg_err e = {0};
        CHECK(hg_sizes_exponential(p, L, s, &e) == HG_OK);
        hg_system sys = {cases[c].dim, cases[c].nu,
                         HG_STRUCTURE_HARD_SPHERES};
        for (int a = 0; a < 2; a++) {
            const hg_model *m = hg_model_find(grids[a]);
            CHECK(hg_test_gradient(m, p, &sys, NULL, L, s, &T, g, &e) ==
                  HG_OK);
            CHECK_CLOSE(T, work(m, p, sys.dim, sys.nu, sys.structure, L, s).T,
                        1e-9, 0.0);
            for (int h = 0; h < L - 1; h++) {
                double sp[8], sm[8], Tp, Tm, dh = 1e-6 * s[h];
                memcpy(sp, s, sizeof s);
                memcpy(sm, s, sizeof s);
                sp[h] += dh;
                sm[h] -= dh;
                CHECK(hg_test_gradient(m, p, &sys, NULL, L, sp, &Tp, NULL,
                                       &e) == HG_OK);
                CHECK(hg_test_gradient(m, p, &sys, NULL, L, sm, &Tm, NULL,
                                       &e) == HG_OK);
                double fd = (Tp - Tm) / (2 * dh);
                if (!hg_close(g[h], fd, 1e-4, 1e-6 * T / s[h]))
                    fprintf(stderr, "%s %s level %d: %g vs fd %g\n",
                            cases[c].spec, m->name, h + 1, g[h], fd);
                CHECK_CLOSE(g[h], fd, 1e-4, 1e-6 * T / s[h]);
            }
        }
        hg_psd_free(p);
    }
}

/* 3D, alpha = -3, omega = 100, nu = 0.6, Top-Down: the finest level's pair
 * checks rise by the crowding into the space the large particles leave
 * (measured x1.85 on dense packings); the cross-level pair checks of the
 * coarsest level fall (its own volume holds no small centres). */
static void test_crowding(void)
{
    hg_psd *p = make("powerlaw:alpha=-3,omega=100", 3);
    double s[5] = {6.4, 15.5, 34.2, 85.5, 200.0};
    hg_system a = {3, 0.6, HG_STRUCTURE_POISSON};
    hg_system b = {3, 0.6, HG_STRUCTURE_HARD_SPHERES};
    const hg_model *m = hg_model_find("hgrid-top-down");
    hg_cost ca, cb;
    hg_err e = {0};
    memset(&ca, 0, sizeof ca);
    memset(&cb, 0, sizeof cb);
    CHECK(hg_cost_evaluate(m, p, &a, NULL, 5, s, &ca, NULL, &e) == HG_OK);
    CHECK(hg_cost_evaluate(m, p, &b, NULL, 5, s, &cb, NULL, &e) == HG_OK);
    double r1 = cb.per_level[0].T_cd / ca.per_level[0].T_cd;
    double r5 = cb.per_level[4].T_cd / ca.per_level[4].T_cd;
    printf("crowding: level 1 x%.3f, level 5 x%.3f\n", r1, r5);
    CHECK(r1 > 1.6 && r1 < 2.1);
    CHECK(r5 < 1.05);
    hg_cost_clear(&ca);
    hg_cost_clear(&cb);
    hg_psd_free(p);
}

/* recommend optimises for the structure: the hard-spheres optimum is no
 * worse under hard spheres than the Poisson optimum, and it differs. */
static void test_optimum(void)
{
    hg_psd *p = make("powerlaw:alpha=-3,omega=100", 3);
    hg_recommend_options ro;
    hg_recommend_options_default(&ro);
    ro.n_models = 1;
    ro.models[0] = hg_model_find("hgrid-top-down");
    hg_recommendation ra, rb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    hg_system a = {3, 0.6, HG_STRUCTURE_POISSON};
    hg_system b = {3, 0.6, HG_STRUCTURE_HARD_SPHERES};
    hg_err e = {0};
    CHECK(hg_recommend(p, &a, NULL, &ro, &ra, &e) == HG_OK);
    CHECK(hg_recommend(p, &b, NULL, &ro, &rb, &e) == HG_OK);
    double Tab = work(ro.models[0], p, 3, 0.6, HG_STRUCTURE_HARD_SPHERES,
                      ra.levels, ra.cell_sizes)
                     .T;
    printf("optimum: poisson L %d (T_hs %.4f), hard-spheres L %d "
           "(T_hs %.4f)\n",
           ra.levels, Tab, rb.levels, rb.cost.T);
    CHECK(rb.cost.T <= Tab * (1 + 1e-9));
    int differ = ra.levels != rb.levels;
    for (int h = 0; !differ && h < ra.levels; h++)
        differ = fabs(ra.cell_sizes[h] / rb.cell_sizes[h] - 1) > 1e-3;
    CHECK(differ);
    hg_recommendation_clear(&ra);
    hg_recommendation_clear(&rb);
    hg_psd_free(p);
}

static void test_bad_input(void)
{
    hg_structure st = HG_STRUCTURE_POISSON;
    hg_err e = {0};
    CHECK(hg_structure_parse("hard", &st, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "structure") && strstr(e.msg, "'hard'"));
    CHECK(hg_structure_parse(NULL, &st, &e) == HG_EINVAL);
    CHECK(hg_structure_parse("hard-disks", &st, &e) == HG_OK &&
          st == HG_STRUCTURE_HARD_SPHERES);
    CHECK(!strcmp(hg_structure_name(st), "hard-spheres"));
    hg_system sys = {3, 0.5, (hg_structure)7};
    CHECK(hg_system_check(&sys, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "structure") && strstr(e.msg, "7"));
    hg_sysfile f;
    memset(&f, 0, sizeof f);
    CHECK(hg_sysfile_parse("{\"distribution\": \"mono:r=1\", \"structure\": "
                           "\"hard-spheres\"}",
                           "t.json", ".", &f, &e) == HG_OK);
    CHECK(f.has_structure && f.structure == HG_STRUCTURE_HARD_SPHERES);
    hg_sysfile_clear(&f);
    memset(&f, 0, sizeof f);
    CHECK(hg_sysfile_parse("{\"distribution\": \"mono:r=1\", \"structure\": "
                           "3}",
                           "t.json", ".", &f, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "\"structure\": 3"));
    hg_sysfile_clear(&f);
}

int main(void)
{
    test_dilute();
    test_monodisperse();
    test_kb_kernel();
    test_gradient();
    test_crowding();
    test_optimum();
    test_bad_input();
    return hg_test_summary("test_dense");
}
