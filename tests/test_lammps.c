/* test_lammps.c - the LAMMPS neighbor-build model: cutoff printing, setting
 * checks, stencil sizes, the expected distance checks against an exact
 * count on Poisson packings, the least-squares fit, the optimiser, and the
 * constants file. */
#include "hg_export.h"
#include "hg_io.h"
#include "hg_lammps.h"
#include "hg_pack_gen.h"
#include "hgridopt.h"
#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_format_up(void)
{
    char buf[64];
    /* values whose nearest 9-digit decimal is below them */
    const double xs[] = {2.9999999996, 1.23456789049, 0.1000000000004,
                         299.99999999, 7.0, 1e-7 * 3.33333333333};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        double v = hg_lammps_format_up(xs[i], buf, sizeof buf);
        CHECK(v >= xs[i]);
        CHECK(strtod(buf, NULL) == v);
        CHECK(v <= xs[i] * (1 + 2e-8));
    }
    CHECK(hg_lammps_format_up(7.0, buf, sizeof buf) == 7.0 &&
          !strcmp(buf, "7"));
    /* random largest diameters: printed value read back never below */
    uint64_t s = 12345;
    for (int i = 0; i < 20000; i++) {
        double x = 0.01 + hg_test_uniform(&s) * 1000.0;
        double v = hg_lammps_format_up(x, buf, sizeof buf);
        if (!(v >= x && strtod(buf, NULL) >= x)) {
            CHECK(!"format_up below its argument");
            fprintf(stderr, "seed 12345 draw %d: x = %.17g -> %s\n", i, x,
                    buf);
            break;
        }
    }
}

/* The collection/interval values of a "neigh_modify" line. */
static int parse_cuts(const char *text, double *cut)
{
    const char *p = strstr(text, "collection/interval ");
    if (!p)
        return 0;
    char *end;
    long n = strtol(p + 20, &end, 10);
    for (long i = 0; i < n; i++)
        cut[i] = strtod(end, &end);
    return (int)n;
}

static void test_lines(void)
{
    double dmax = 2.0 * 1.4999999999876;
    hg_lammps_setting s = {3, {0.9999999999, 1.9999999999, dmax}};
    char *t = NULL;
    CHECK(hg_lammps_lines(&s, 0.04, dmax, &t, NULL) == HG_OK);
    double cut[16];
    int n = t ? parse_cuts(t, cut) : 0;
    CHECK(n == 3);
    CHECK(n == 3 && cut[2] >= dmax && cut[0] >= s.cut[0] &&
          cut[1] >= s.cut[1]);
    CHECK(n == 3 && cut[0] < cut[1] && cut[1] < cut[2]);
    CHECK(t && strstr(t, "neighbor 0.04 multi\n") &&
          strstr(t, "comm_modify mode multi\n"));
    free(t);
    hg_lammps_setting bin = {0};
    CHECK(hg_lammps_lines(&bin, 0.1, dmax, &t, NULL) == HG_OK);
    CHECK(t && !strcmp(t, "neighbor 0.1 bin\n"));
    free(t);
    /* rejections */
    hg_err e = {0};
    hg_lammps_setting low = {2, {1.0, dmax * (1 - 1e-12)}};
    CHECK(hg_lammps_lines(&low, 0.1, dmax, &t, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "below the largest diameter") != NULL);
    hg_lammps_setting dec = {2, {2.0, 2.0}};
    CHECK(hg_lammps_setting_check(&dec, 2.0, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "increase strictly") != NULL);
    hg_lammps_setting nan_ = {1, {NAN}};
    CHECK(hg_lammps_setting_check(&nan_, 1.0, &e) == HG_EINVAL);
    hg_lammps_setting many = {17, {0}};
    CHECK(hg_lammps_setting_check(&many, 1.0, &e) == HG_EINVAL);
    CHECK(hg_lammps_lines(&bin, -1.0, dmax, &t, &e) == HG_EINVAL);
}

/* The KOL export: one level gives bin, rounded-up cutoffs. */
static void test_export(void)
{
    hg_psd *p = hg_test_psd(
        "lognormal:median=0.5,sigma=0.4,rmin=0.2,rmax=1.4999999999876", 3);
    CHECK(p != NULL);
    if (!p)
        return;
    hg_system sys = {3, 0.4};
    double one[1] = {2.0 * hg_psd_rmax(p)};
    hg_export_input in = {p, &sys, HG_TOP_DOWN, 1, one, 1, 1, 0, 0.2, 1,
                          NULL, NULL, 0.0};
    char *t = NULL;
    CHECK(hg_export_lammps(&in, &t, NULL) == HG_OK);
    CHECK(t && strstr(t, "bin\n") && !strstr(t, "collection/interval"));
    free(t);
    double two[2] = {1.0, 2.0 * hg_psd_rmax(p)};
    in.levels = 2;
    in.sizes = two;
    CHECK(hg_export_lammps(&in, &t, NULL) == HG_OK);
    double cut[16];
    int n = t ? parse_cuts(t, cut) : 0;
    CHECK(n == 2 && cut[1] >= 2.0 * hg_psd_rmax(p));
    free(t);
    hg_psd_free(p);
}

static void test_stencils(void)
{
    hg_psd *p = hg_test_psd("mono:r=1", 3);
    hg_lammps_system sys = {3, 0.4, 50000, 0.2, 1};
    hg_lammps_setting bin = {0};
    hg_lammps_work w;
    CHECK(p && hg_lammps_work_eval(p, &sys, &bin, &w, NULL) == HG_OK);
    CHECK(w.stencil[0] == 63); /* half stencil + own bin, 3D */
    CHECK(w.coll_loops == 0.0);
    hg_lammps_setting one = {1, {2.0}};
    hg_lammps_work w1;
    CHECK(p && hg_lammps_work_eval(p, &sys, &one, &w1, NULL) == HG_OK);
    CHECK(w1.checks == w.checks && w1.coll_loops == 50000.0);
    hg_psd_free(p);
    hg_psd *q = hg_test_psd("mono:r=1", 2);
    hg_lammps_system s2 = {2, 0.4, 50000, 0.2, 1};
    CHECK(q && hg_lammps_work_eval(q, &s2, &bin, &w, NULL) == HG_OK);
    CHECK(w.stencil[0] == 13); /* 2D */
    hg_psd_free(q);
    /* a small atom visits its own half stencil and 81..125 bins of the
     * larger collection */
    hg_psd *r = hg_test_psd("powerlaw:alpha=-3,omega=20", 3);
    hg_lammps_setting two = {2, {8.0, 40.0}};
    CHECK(r && hg_lammps_work_eval(r, &sys, &two, &w, NULL) == HG_OK);
    CHECK(w.stencil[0] >= 63 + 81 && w.stencil[0] <= 63 + 125);
    CHECK(w.stencil[1] == 63);
    CHECK(w.ghosts > 0.0 && w.bins > 0.0);
    /* more ranks: fewer atoms per rank, more ghosts per atom */
    hg_lammps_system s4 = sys;
    s4.nprocs = 4;
    hg_lammps_work w4;
    CHECK(r && hg_lammps_work_eval(r, &s4, &two, &w4, NULL) == HG_OK);
    CHECK_CLOSE(w4.checks, w.checks / 4, 1e-9, 0);
    CHECK(w4.ghosts / (w4.binned - w4.ghosts) > w.ghosts / (w.binned - w.ghosts));
    hg_psd_free(r);
}

/* hg_lammps_system_of sets the whole system: a caller's stack garbage in
 * cutoff_diameter once priced bin at a cutoff of 1e83 (validate). */
static void test_system_of(void)
{
    double x[8 * 3], r[8];
    for (int i = 0; i < 8; i++) {
        x[3 * i] = 1.0 + 2.0 * (i & 1);
        x[3 * i + 1] = 1.0 + 2.0 * ((i >> 1) & 1);
        x[3 * i + 2] = 1.0 + 2.0 * (i >> 2);
        r[i] = 0.4 + 0.05 * i;
    }
    hg_particles p = {3, 8, x, r, {0, 0, 0}, {4, 4, 4}, 1};
    hg_lammps_system sys;
    memset(&sys, 0xff, sizeof sys);
    sys.cutoff_diameter = 1e83;
    hg_psd *psd = NULL;
    hg_err e = {0};
    CHECK(hg_lammps_system_of(&p, 0.1, 1, &psd, &sys, &e) == HG_OK);
    CHECK(sys.cutoff_diameter == 0.0 && sys.skin == 0.1 && sys.dim == 3 &&
          sys.atoms == 8.0 && sys.snapshot == NULL);
    hg_psd_free(psd);
}

/* LAMMPS' limits of its bins (nbin_standard.cpp, nbin_multi.cpp): each
 * refused with LAMMPS' own words, the field and the value named. */
static void test_bin_limits(void)
{
    hg_psd *p = hg_test_psd("mono:r=1", 3);
    hg_lammps_setting bin = {0};
    hg_lammps_work w;
    hg_err e = {0};
    /* a box of edge 3.5e9 (1000 atoms at nu 1e-25): 3.3e9 bins of 1.05
     * along each axis */
    hg_lammps_system huge = {3, 1e-25, 1000, 0.1, 1};
    CHECK(p && hg_lammps_work_eval(p, &huge, &bin, &w, &e) == HG_ELIMIT);
    CHECK(strstr(e.msg, "box edge x: 3.") &&
          strstr(e.msg, "Domain too large for neighbor bins"));
    /* one atom in a box of edge 2.03 and a skin of 1000: bins of 501 */
    hg_lammps_system small = {3, 0.5, 1, 1000.0, 1};
    CHECK(p && hg_lammps_work_eval(p, &small, &bin, &w, &e) == HG_ELIMIT);
    CHECK(strstr(e.msg, "box edge x: 2.03") &&
          strstr(e.msg, "Cannot use neighbor bins - box size << cutoff"));
    /* a skin of 100: bins of 51, 25x the edge: accepted */
    small.skin = 100.0;
    CHECK(p && hg_lammps_work_eval(p, &small, &bin, &w, &e) == HG_OK);
    /* bins of 1e-3 in a box of edge 203: 2e5 bins each way */
    hg_lammps_system many = {3, 0.5, 1e6, 0.1, 1};
    hg_lammps_setting fine = {0};
    fine.binsize = 1e-3;
    CHECK(p && hg_lammps_work_eval(p, &many, &fine, &w, &e) == HG_ELIMIT);
    CHECK(strstr(e.msg, "bins of 0.001") &&
          strstr(e.msg, "Too many neighbor bins"));
    hg_psd_free(p);
}

/* Exact count of LAMMPS' distance checks on a Poisson packing, from the
 * rules the model states: per collection bins of A / floor(A / ((c+skin)
 * / 2)); own collection: half stencil plus the later atoms of the own bin;
 * larger collections: full stencil. Periodic wrap stands for the ghosts. */
static double count_checks_at(const double *r, const double *x, size_t N,
                              double A, const hg_lammps_system *sys,
                              const hg_lammps_setting *s)
{
    int d = sys->dim;
    int n = s->ncoll;
    int *coll = malloc(sizeof *coll * N);
    for (size_t i = 0; i < N; i++) {
        int c = 0;
        while (c < n - 1 && 2.0 * r[i] > s->cut[c])
            c++;
        coll[i] = c;
    }
    int nb[HG_LAMMPS_MAX_COLLECTIONS];
    double bs[HG_LAMMPS_MAX_COLLECTIONS];
    long *cnt[HG_LAMMPS_MAX_COLLECTIONS];
    for (int c = 0; c < n; c++) {
        nb[c] = (int)(A / (0.5 * (s->cut[c] + sys->skin)));
        bs[c] = A / nb[c];
        long tot = (long)nb[c] * nb[c] * (d == 3 ? nb[c] : 1);
        cnt[c] = calloc((size_t)tot, sizeof(long));
    }
#define BIN(c, i, k)                                                        \
    (((int)(x[3 * (i) + (k)] / bs[c])) % nb[c])
    for (size_t i = 0; i < N; i++) {
        int c = coll[i];
        long b = BIN(c, i, 0) + (long)nb[c] * (BIN(c, i, 1) +
                 (d == 3 ? (long)nb[c] * BIN(c, i, 2) : 0));
        cnt[c][b]++;
    }
    double checks = 0.0;
    for (int c = 0; c < n; c++) { /* own bin, half */
        long tot = (long)nb[c] * nb[c] * (d == 3 ? nb[c] : 1);
        for (long b = 0; b < tot; b++)
            checks += 0.5 * cnt[c][b] * (cnt[c][b] - 1);
    }
    for (size_t i = 0; i < N; i++) {
        int a = coll[i];
        for (int c = a; c < n; c++) {
            double cut = 0.5 * (s->cut[a] + s->cut[c]) + sys->skin;
            int sx = (int)(cut / bs[c]);
            if (sx * bs[c] < cut)
                sx++;
            int bi[3] = {BIN(c, i, 0), BIN(c, i, 1), d == 3 ? BIN(c, i, 2) : 0};
            int sz = d == 3 ? sx : 0;
            for (int k = -sz; k <= sz; k++)
                for (int j = -sx; j <= sx; j++)
                    for (int l = -sx; l <= sx; l++) {
                        if (c == a && !(k > 0 || (k == 0 && j > 0) ||
                                        (k == 0 && j == 0 && l > 0)))
                            continue;
                        int off[3] = {l, j, k};
                        double dist = 0.0;
                        for (int q = 0; q < 3; q++) {
                            double dd = off[q] > 0   ? (off[q] - 1) * bs[c]
                                        : off[q] < 0 ? (off[q] + 1) * bs[c]
                                                     : 0.0;
                            dist += dd * dd;
                        }
                        if (!(dist < cut * cut))
                            continue;
                        long m = nb[c];
                        long X = ((bi[0] + l) % m + m) % m;
                        long Y = ((bi[1] + j) % m + m) % m;
                        long Z = d == 3 ? ((bi[2] + k) % m + m) % m : 0;
                        checks += cnt[c][X + m * (Y + m * Z)];
                    }
        }
    }
#undef BIN
    for (int c = 0; c < n; c++)
        free(cnt[c]);
    free(coll);
    return checks;
}

/* ... on N = sys->atoms uniformly random centres (seed). */
static double count_checks(const hg_psd *psd, const hg_lammps_system *sys,
                           const hg_lammps_setting *s, uint64_t seed)
{
    int d = sys->dim;
    size_t N = (size_t)sys->atoms;
    double A = pow(sys->atoms * hg_psd_mean_volume(psd, d) / sys->nu,
                   1.0 / d);
    double *r = malloc(sizeof *r * N), *x = malloc(sizeof *x * N * 3);
    hg_psd_sample_systematic(psd, N, seed, r, NULL);
    uint64_t z = seed * 2654435761u + 1;
    for (size_t i = 0; i < N * 3; i++)
        x[i] = hg_test_uniform(&z) * A;
    double checks = count_checks_at(r, x, N, A, sys, s);
    free(r);
    free(x);
    return checks;
}

static void test_exact_checks(void)
{
    static const struct {
        const char *psd;
        int dim;
        double nu;
        hg_lammps_setting s;
    } cases[] = {
        {"powerlaw:alpha=-3,omega=20", 3, 0.4, {2, {7.0, 40.0}}},
        {"powerlaw:alpha=-3,omega=20", 3, 0.4, {3, {4.0, 12.0, 40.0}}},
        {"lognormal:median=1,sigma=0.5,qmin=0.01,qmax=0.99", 3, 0.4,
         {1, {0}}},
        {"powerlaw:alpha=-3,omega=20", 2, 0.4, {2, {9.0, 40.0}}},
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        hg_psd *p = hg_test_psd(cases[t].psd, cases[t].dim);
        CHECK(p != NULL);
        if (!p)
            continue;
        hg_lammps_setting s = cases[t].s;
        s.cut[s.ncoll - 1] = 2.0 * hg_psd_rmax(p);
        hg_lammps_system sys = {cases[t].dim, cases[t].nu, 20000,
                                0.2 * hg_psd_rmin(p), 1};
        hg_lammps_work w;
        CHECK(hg_lammps_work_eval(p, &sys, &s, &w, NULL) == HG_OK);
        double counted = count_checks(p, &sys, &s, 7 + t);
        /* expectation vs one draw of 2e4 atoms (seen: within 0.2 %) */
        CHECK_CLOSE(w.checks, counted, 0.01, 0);
        printf("case %zu (%s, %dD, %d collections): model %.0f, counted "
               "%.0f checks (seed %zu)\n",
               t, cases[t].psd, cases[t].dim, s.ncoll, w.checks, counted,
               7 + t);
        hg_psd_free(p);
    }
}

/* The same count on dense non-overlapping packings of 2e4 atoms
 * (hgridopt's dense generator, seed printed): structure hard-spheres
 * within 5 %, and where the Poisson count is off by more than 2 % (seen:
 * 2-6 % with fine collections), at most half as far off. */
static void test_exact_checks_dense(void)
{
    static const struct {
        const char *psd;
        int dim;
        double nu;
        hg_lammps_setting s;
    } cases[] = {
        {"powerlaw:alpha=-3,omega=20", 3, 0.55, {2, {7.0, 40.0}}},
        {"powerlaw:alpha=-3,omega=20", 3, 0.55, {3, {4.0, 12.0, 40.0}}},
        {"powerlaw:alpha=-3,omega=30", 3, 0.6, {4, {2.5, 5.0, 15.0, 60.0}}},
        {"powerlaw:alpha=-3,omega=30", 3, 0.6, {3, {3.0, 10.0, 60.0}}},
        {"powerlaw:alpha=-3,omega=20", 3, 0.55, {1, {0}}},
        {"powerlaw:alpha=-2,omega=10", 2, 0.6, {2, {5.0, 20.0}}},
        {"powerlaw:alpha=-3,omega=30", 2, 0.7, {4, {2.5, 5.0, 15.0, 60.0}}},
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        hg_psd *p = hg_test_psd(cases[t].psd, cases[t].dim), *sample = NULL;
        hg_particles pk = {0};
        hg_system ps = {0, 0.0, HG_STRUCTURE_POISSON};
        hg_pack_params prm = {cases[t].dim, 20000, cases[t].nu, 21 + t, 1};
        int ok = p && hg_pack_dense(p, &prm, &pk, NULL) == HG_OK &&
                 hg_io_system_from_particles(&pk, &sample, &ps, NULL) ==
                     HG_OK;
        CHECK(ok);
        if (!ok) {
            hg_particles_clear(&pk);
            hg_psd_free(p);
            continue;
        }
        hg_lammps_setting s = cases[t].s;
        if (s.ncoll)
            s.cut[s.ncoll - 1] = 2.0 * hg_psd_rmax(sample);
        hg_lammps_system sys = {pk.dim, ps.nu, (double)pk.n,
                                0.2 * hg_psd_rmin(sample), 1,
                                HG_STRUCTURE_HARD_SPHERES};
        double *x = calloc(pk.n * 3, sizeof *x);
        for (size_t i = 0; x && i < pk.n; i++)
            for (int c = 0; c < pk.dim; c++)
                x[3 * i + c] = pk.x[i * (size_t)pk.dim + (size_t)c] - pk.lo[c];
        double counted = x ? count_checks_at(pk.r, x, pk.n,
                                             pk.hi[0] - pk.lo[0], &sys, &s)
                           : 0.0;
        hg_lammps_work hs, po;
        CHECK(hg_lammps_work_eval(sample, &sys, &s, &hs, NULL) == HG_OK);
        sys.structure = HG_STRUCTURE_POISSON;
        CHECK(hg_lammps_work_eval(sample, &sys, &s, &po, NULL) == HG_OK);
        CHECK_CLOSE(hs.checks, counted, 0.05, 0);
        if (fabs(counted / po.checks - 1) > 0.02) /* structure matters */
            CHECK(fabs(counted / hs.checks - 1) <
                  0.5 * fabs(counted / po.checks - 1));
        printf("dense case %zu (%s, %dD, nu %.2f, %d collections, seed "
               "%zu): counted / model %.3f hard-spheres, %.3f poisson\n",
               t, cases[t].psd, cases[t].dim, ps.nu, s.ncoll,
               21 + t, counted / hs.checks, counted / po.checks);
        free(x);
        hg_particles_clear(&pk);
        hg_psd_free(sample);
        hg_psd_free(p);
    }
}

static void test_fit(void)
{
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=20", 3);
    if (!p)
        return;
    const double truth[HG_LAMMPS_NTERMS] = {2e-9, 2.5e-9, 3e-9,
                                            20e-9, 5e-9, 10e-9};
    hg_lammps_work w[40];
    double y[40];
    int n = 0;
    for (int a = 0; a < 5; a++)
        for (int nc = 0; nc <= 4 && n < 40; nc++) {
            hg_lammps_setting s = {nc, {0}};
            for (int i = 0; i < nc; i++)
                s.cut[i] = 2.0 * pow(20.0, (i + 1.0) / nc);
            hg_lammps_system sys = {3, 0.2 + 0.1 * a, 10000 + 20000 * a,
                                    0.2, 1};
            if (hg_lammps_work_eval(p, &sys, &s, &w[n], NULL))
                continue;
            hg_consts c;
            memset(&c, 0, sizeof c);
            memcpy(c.c, truth, sizeof truth);
            y[n] = hg_lammps_predict(&c, &w[n]);
            n++;
        }
    hg_consts c;
    CHECK(hg_lammps_fit(w, y, n, &c, NULL) == HG_OK);
    for (int k = 0; k < HG_LAMMPS_NTERMS; k++)
        CHECK_CLOSE(c.c[k], truth[k], 1e-5, 1e-15);
    CHECK(c.r2 > 0.999999);
    hg_err e = {0};
    CHECK(hg_lammps_fit(w, y, 3, &c, &e) == HG_EINVAL);
    y[0] = -1.0;
    CHECK(hg_lammps_fit(w, y, n, &c, &e) == HG_EINVAL);
    hg_psd_free(p);
}

static void test_optimise(void)
{
    hg_consts c;
    hg_consts_shipped(&hg_lammps_consts_kind, &c);
    hg_psd *mono = hg_test_psd("mono:r=1", 3);
    hg_lammps_system sys = {3, 0.4, 50000, 0.2, 1};
    hg_lammps_optimum o;
    CHECK(mono && hg_lammps_optimise(mono, &sys, &c, 4, 0.01, &o, NULL) ==
                      HG_OK);
    CHECK(o.best.ncoll == 0); /* one size: bin */
    hg_psd *wide = hg_test_psd("powerlaw:alpha=-3,omega=50", 3);
    CHECK(wide && hg_lammps_optimise(wide, &sys, &c, 5, 0.01, &o, NULL) ==
                      HG_OK);
    CHECK(o.best.ncoll >= 2 && o.seconds < 0.5 * o.bin_seconds);
    CHECK(hg_lammps_setting_check(&o.best, 100.0, NULL) == HG_OK);
    for (int n = 0; n <= 5; n++)
        CHECK(o.seconds <= o.by_n_seconds[n] * (1 + 0.01 + 1e-12));
    hg_err e = {0};
    CHECK(hg_lammps_optimise(wide, &sys, &c, 0, 0.01, &o, &e) == HG_EINVAL);
    hg_lammps_system bad = sys;
    bad.skin = 0.0;
    CHECK(hg_lammps_optimise(wide, &bad, &c, 3, 0.01, &o, &e) == HG_EINVAL);
    CHECK(strstr(e.msg, "skin") != NULL);
    hg_psd_free(mono);
    hg_psd_free(wide);
}

static void test_file(void)
{
    char path[] = "/tmp/hg_test_lammps_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    hg_consts c, d;
    hg_consts_shipped(&hg_lammps_consts_kind, &c);
    c.c[1] = 1.25e-9;
    CHECK(hg_consts_save(&hg_lammps_consts_kind, &c, path, NULL) == HG_OK);
    CHECK(hg_consts_load(&hg_lammps_consts_kind, path, &d, NULL) == HG_OK);
    for (int k = 0; k < HG_LAMMPS_NTERMS; k++)
        CHECK_CLOSE(d.c[k], c.c[k], 1e-15, 0);
    FILE *f = fopen(path, "w");
    fputs("{\"schema\": \"other\"}", f);
    fclose(f);
    hg_err e = {0};
    CHECK(hg_consts_load(&hg_lammps_consts_kind, path, &d, &e) == HG_EPARSE);
    CHECK(strstr(e.msg, "schema") != NULL);
    remove(path);
    CHECK(hg_consts_load(&hg_lammps_consts_kind, path, &d, &e) == HG_EIO);
    char buf[256];
    CHECK(hg_lammps_find("/nonexistent/lmp", buf, sizeof buf, &e) == HG_EIO);
    CHECK(strstr(e.msg, "apt-get install lammps") != NULL);
}

/* The registered models give the same time, in units of one check. */
static void test_registry(void)
{
    const hg_model *mm = hg_model_find("lammps-multi");
    const hg_model *mb = hg_model_find("lammps-bin");
    CHECK(mm != NULL && mb != NULL);
    hg_psd *p = hg_test_psd("powerlaw:alpha=-3,omega=20", 3);
    if (!mm || !mb || !p)
        return;
    hg_consts c;
    hg_consts_shipped(&hg_lammps_consts_kind, &c);
    hg_system sys = {3, 0.4};
    double sizes[2] = {12.0, 40.0};
    hg_cost cost = {0};
    hg_work w;
    CHECK(hg_cost_evaluate(mm, p, &sys, NULL, 2, sizes, &cost, &w, NULL) ==
          HG_OK);
    hg_lammps_system ls = {3, 0.4, 50000, 0.2, 1};
    hg_lammps_setting s = {2, {12.0, 40.0}};
    hg_lammps_work lw;
    CHECK(hg_lammps_work_eval(p, &ls, &s, &lw, NULL) == HG_OK);
    CHECK_CLOSE(w.T, hg_lammps_predict(&c, &lw) / (c.c[0] * 50000), 1e-12,
                0);
    CHECK_CLOSE(w.T_cd, lw.checks / 50000, 1e-12, 0);
    CHECK(cost.nonempty_levels == 2);
    double sum = 0.0;
    for (int h = 0; h < cost.levels; h++)
        sum += cost.per_level[h].T;
    CHECK_CLOSE(sum, w.T, 1e-9, 0);
    hg_cost_clear(&cost);
    hg_lammps_setting bin = {0};
    CHECK(hg_lammps_work_eval(p, &ls, &bin, &lw, NULL) == HG_OK);
    CHECK(hg_cost_evaluate(mb, p, &sys, NULL, 2, sizes, NULL, &w, NULL) ==
          HG_OK);
    CHECK_CLOSE(w.T, hg_lammps_predict(&c, &lw) / (c.c[0] * 50000), 1e-12,
                0);
    /* the gradient (finite differences) vanishes only at s_L */
    double T, g[2];
    hg_model_input in;
    CHECK(hg_model_prepare(mm, p, &sys, NULL, &in, NULL) == HG_OK);
    in.L = 2;
    in.sizes = sizes;
    CHECK(hg_model_gradient(mm, &in, &T, g, NULL) == HG_OK);
    CHECK(isfinite(g[0]) && g[1] == 0.0);
    hg_psd_free(p);
}

int main(void)
{
    /* the registered models read the stored constants: use the shipped */
    setenv("HGRIDOPT_LAMMPS_CALIBRATION", "/nonexistent/hg-lammps.json", 1);
    test_registry();
    test_format_up();
    test_lines();
    test_export();
    test_stencils();
    test_bin_limits();
    test_system_of();
    test_exact_checks();
    test_exact_checks_dense();
    test_fit();
    test_optimise();
    test_file();
    return hg_test_summary("test_lammps");
}
