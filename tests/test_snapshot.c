/* test_snapshot.c - pair statistics of particle snapshots (hg_snapshot.h)
 * and the measured structure of the HGrid model against the bundled grid's
 * counts: a periodic Poisson packing (factor 1), a slab in a tall box with
 * walls (a bed's free space), a layered slab (small above large), and the
 * boundary letters. Seeds are fixed and printed. */
#include "hgridopt.h"
#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0;

static double uni(void)
{
    return hg_test_uniform(&rng);
}

/* n spheres with radii in [r0, r1] (uniform volume: r^-3... here uniform
 * in r for simplicity), centres uniform in [0, L]^2 x [z0, z1], box
 * [0, L]^2 x [0, H]. layered: radii grow downwards (large at the bottom). */
static void slab(hg_particles *p, size_t n, double r0, double r1, double L,
                 double z0, double z1, double H, int layered, uint64_t seed)
{
    hg_err e;
    rng = seed;
    hg_particles_alloc(p, 3, n, &e);
    p->hi[0] = p->hi[1] = L;
    p->hi[2] = H;
    for (size_t i = 0; i < n; i++) {
        double u = uni();
        double z = z0 + (z1 - z0) * uni();
        if (layered)
            u = 1.0 - (z - z0) / (z1 - z0);
        p->r[i] = r0 + (r1 - r0) * u;
        p->x[3 * i] = L * uni();
        p->x[3 * i + 1] = L * uni();
        p->x[3 * i + 2] = z;
    }
}

/* Predicted (measured structure) against counted T_cd of the bundled
 * grid with these sizes, top-down and bottom-up and the linked cell. */
static void compare(const char *name, hg_particles *p, int L,
                    const double *sizes, double tol)
{
    hg_err e = {0};
    hg_psd *psd = NULL;
    hg_system sys = {0};
    hg_snapshot *snap = NULL;
    CHECK(hg_io_system_from_particles(p, &psd, &sys, &e) == HG_OK);
    CHECK(hg_snapshot_create(p, &snap, &e) == HG_OK);
    if (!psd || !snap) {
        fprintf(stderr, "%s: %s\n", name, e.msg);
        hg_psd_free(psd);
        return;
    }
    sys.structure = HG_STRUCTURE_MEASURED;
    sys.snapshot = snap;
    sys.nu = hg_snapshot_get_info(snap)->nu_local;
    const char *models[3] = {"hgrid-top-down", "hgrid-bottom-up",
                             "linked-cell"};
    for (int k = 0; k < 3; k++) {
        hg_validate_params prm;
        memset(&prm, 0, sizeof prm);
        prm.sys = sys;
        prm.model = hg_model_find(models[k]);
        double top = 2.0 * hg_psd_rmax(psd);
        prm.L = k == 2 ? 1 : L;
        prm.sizes = k == 2 ? &top : sizes;
        hg_measure_options_default(&prm.measure);
        prm.measure.repeats = 1;
        hg_validation v;
        int st = hg_validate_particles(psd, &prm, p, &v, &e);
        CHECK(st == HG_OK);
        if (st) {
            fprintf(stderr, "%s %s: %s\n", name, models[k], e.msg);
            continue;
        }
        double q = v.hgrid.measured_T_cd / v.hgrid.predicted_T_cd;
        double qa = v.hgrid.measured_T_ca / v.hgrid.predicted_T_ca;
        printf("%-22s %-16s T_cd counted/predicted %.4f, T_ca %.4f\n", name,
               models[k], q, qa);
        CHECK(fabs(q - 1.0) < tol);
        CHECK(fabs(qa - 1.0) < 0.01);
        hg_validation_clear(&v);
    }
    hg_snapshot_free(snap);
    hg_psd_free(psd);
}

int main(void)
{
    hg_err e = {0};
    const uint64_t seed = 20261125;
    printf("seed %llu\n", (unsigned long long)seed);

    /* a periodic Poisson packing: every factor ~ 1 */
    {
        hg_particles p;
        slab(&p, 6000, 0.5, 2.0, 60.0, 0.0, 60.0, 60.0, 0, seed);
        p.hi[2] = 60.0;
        hg_snapshot *s = NULL;
        CHECK(hg_snapshot_create(&p, &s, &e) == HG_OK);
        const hg_snapshot_info *si = hg_snapshot_get_info(s);
        double nu = si->nu_box;
        CHECK_CLOSE(si->nu_local, nu, 0.02, 0.0);
        CHECK_CLOSE(si->nu_occupied, nu, 1e-12, 0.0);
        CHECK(si->layer_axis == -1);
        double Vp = 0.0;
        for (size_t i = 0; i < p.n; i++)
            Vp += 4.0 / 3.0 * M_PI * pow(p.r[i], 3);
        Vp /= (double)p.n;
        int nc = hg_snapshot_classes(s);
        CHECK(nc == 4);
        for (int c = 0; c < nc; c++)
            CHECK_CLOSE(hg_snapshot_factor(s, nu, Vp, 9.0, c, c), 1.0, 0.1,
                        0.0);
        hg_snapshot_free(s);
        double sz[2] = {2.0, 4.0};
        compare("poisson periodic", &p, 2, sz, 0.01);
        hg_particles_clear(&p);
    }

    /* a periodic box shorter than the linked cell's window (6 r_max = 48
     * against an edge of 45): the window meets its own images, the
     * density experienced is still the box's (it read 0.4 of it when the
     * window's volume was not capped at the box), and the pair checks
     * follow */
    {
        hg_particles p;
        hg_particles_alloc(&p, 3, 10020, &e);
        rng = seed + 7;
        for (int c = 0; c < 3; c++)
            p.hi[c] = 45.0;
        for (size_t i = 0; i < p.n; i++) {
            p.r[i] = i < 20 ? 8.0 : 0.5;
            for (int c = 0; c < 3; c++)
                p.x[3 * i + c] = 45.0 * uni();
        }
        hg_snapshot *s = NULL;
        CHECK(hg_snapshot_create(&p, &s, &e) == HG_OK);
        const hg_snapshot_info *si = hg_snapshot_get_info(s);
        printf("short periodic box: nu box %.4f, experienced %.4f\n",
               si->nu_box, si->nu_local);
        CHECK_CLOSE(si->nu_local, si->nu_box, 0.03, 0.0);
        hg_snapshot_free(s);
        double sz[2] = {1.0, 16.0};
        compare("short periodic box", &p, 2, sz, 0.05);
        hg_particles_clear(&p);
    }
    /* a slab filling the lower sixth of a tall box, walls at z: the
     * density seen is the slab's, not the box's */
    {
        hg_particles p;
        slab(&p, 5000, 0.5, 2.0, 60.0, 2.0, 40.0, 240.0, 0, seed + 1);
        CHECK(hg_particles_set_boundary(&p, "p p f", &e) == HG_OK);
        CHECK(!p.periodic && hg_particles_axis_periodic(&p, 0) &&
              !hg_particles_axis_periodic(&p, 2));
        hg_snapshot *s = NULL;
        CHECK(hg_snapshot_create(&p, &s, &e) == HG_OK);
        const hg_snapshot_info *si = hg_snapshot_get_info(s);
        printf("slab: nu box %.4f occupied %.4f local %.4f\n", si->nu_box,
               si->nu_occupied, si->nu_local);
        CHECK(si->nu_local > 4.0 * si->nu_box);
        CHECK_CLOSE(si->nu_local, si->nu_occupied, 0.15, 0.0);
        CHECK(si->layer_axis == 2 && si->layers == HG_SNAPSHOT_LAYERS);
        CHECK(si->size_layering < 1.2);
        hg_snapshot_free(s);
        double sz[3] = {2.0, 3.0, 4.0};
        compare("slab p p f", &p, 3, sz, 0.03);
        /* padded to a periodic box (tune and validate of the bundled
         * grid): x, y as they were, z whole multiples of the x edge with at
         * least the gap beyond the particles, the same contacts */
        hg_particles q = {0};
        CHECK(hg_particles_pad_periodic(&p, 10.0, &q, &e) == HG_OK);
        CHECK(q.periodic && q.n == p.n);
        double zlo = INFINITY, zhi = -INFINITY;
        for (size_t i = 0; i < p.n; i++) {
            zlo = fmin(zlo, p.x[3 * i + 2]);
            zhi = fmax(zhi, p.x[3 * i + 2]);
        }
        double A = p.hi[0] - p.lo[0], Z = q.hi[2] - q.lo[2];
        CHECK(q.lo[0] == p.lo[0] && q.hi[1] == p.hi[1]);
        CHECK(Z >= zhi - zlo + 10.0 - 1e-9 && zlo - q.lo[2] >= 5.0 - 1e-9);
        CHECK_CLOSE(Z / A, round(Z / A), 1e-12, 0.0);
        size_t brute = 0;
        for (size_t i = 0; i < p.n; i++)
            for (size_t j = i + 1; j < p.n; j++)
                brute += (size_t)hg_particles_touch(&p, i, j, 0.0);
        hg_grid *g = NULL;
        hg_pairs pairs = {0};
        double gs[2] = {4.0, 4.0};
        CHECK(hg_grid_create(3, 2, gs, HG_TOP_DOWN, &g, &e) == HG_OK &&
              hg_grid_build(g, &q, &e) == HG_OK &&
              hg_grid_find_contacts(g, &pairs, NULL, &e) == HG_OK);
        CHECK(pairs.n == brute && brute > 0);
        hg_grid_free(g);
        hg_pairs_clear(&pairs);
        hg_particles_clear(&q);
        hg_particles_clear(&p);
    }
    /* layered: large particles low, small high: the cross-level terms
     * would be far off with one density */
    {
        hg_particles p;
        slab(&p, 5000, 0.5, 2.0, 60.0, 2.0, 40.0, 240.0, 1, seed + 2);
        CHECK(hg_particles_set_boundary(&p, "ppf", &e) == HG_OK);
        hg_snapshot *s = NULL;
        CHECK(hg_snapshot_create(&p, &s, &e) == HG_OK);
        const hg_snapshot_info *si = hg_snapshot_get_info(s);
        printf("layered: size layering %.3f\n", si->size_layering);
        CHECK(si->size_layering > 2.0);
        CHECK(si->layer_rmean[0] > si->layer_rmean[si->layers - 1]);
        double sz[3] = {2.0, 3.0, 4.0};
        /* one density for all misses that each size meets mostly its
         * own: the pair checks are more than 10 % off */
        hg_psd *psd = NULL;
        hg_system sys = {0};
        CHECK(hg_io_system_from_particles(&p, &psd, &sys, &e) == HG_OK);
        sys.nu = si->nu_local;
        hg_work hom, mea;
        const hg_model *td = hg_model_find("hgrid-top-down");
        CHECK(hg_cost_evaluate(td, psd, &sys, NULL, 3, sz, NULL, &hom, &e) ==
              HG_OK);
        sys.structure = HG_STRUCTURE_MEASURED;
        sys.snapshot = s;
        CHECK(hg_cost_evaluate(td, psd, &sys, NULL, 3, sz, NULL, &mea, &e) ==
              HG_OK);
        printf("layered: T_cd homogeneous %.4g, measured %.4g\n", hom.T_cd,
               mea.T_cd);
        CHECK(fabs(hom.T_cd / mea.T_cd - 1.0) > 0.1);
        /* the gradient of the measured structure: central differences
         * of the same T, against a wider difference here */
        hg_model_input in;
        CHECK(hg_model_prepare(td, psd, &sys, NULL, &in, &e) == HG_OK);
        in.L = 3;
        in.sizes = sz;
        in.smooth = 0.01; /* a sample: the step spans many atoms */
        double T0, g[3];
        CHECK(hg_model_gradient(td, &in, &T0, g, &e) == HG_OK);
        CHECK_CLOSE(T0, mea.T, 1e-9, 0.0);
        double up[3] = {2.0, 3.03, 4.0}, dn[3] = {2.0, 2.97, 4.0};
        hg_work wu, wd;
        hg_cost_evaluate(td, psd, &sys, NULL, 3, up, NULL, &wu, &e);
        hg_cost_evaluate(td, psd, &sys, NULL, 3, dn, NULL, &wd, &e);
        CHECK_CLOSE(g[1], (wu.T - wd.T) / 0.06, 1e-6, 1e-9);
        CHECK(g[2] == 0.0);
        hg_psd_free(psd);
        hg_snapshot_free(s);
        compare("layered p p f", &p, 3, sz, 0.03);
        hg_particles_clear(&p);
    }
    /* boundary letters */
    {
        hg_particles p;
        hg_particles_alloc(&p, 3, 1, &e);
        char b[8];
        CHECK(hg_particles_set_boundary(&p, "p p fm", &e) == HG_OK);
        CHECK(!strcmp(hg_particles_boundary_text(&p, b), "p p f"));
        CHECK(hg_particles_set_boundary(&p, "p,s,p", &e) == HG_OK);
        CHECK(!strcmp(hg_particles_boundary_text(&p, b), "p s p"));
        CHECK(hg_particles_set_boundary(&p, "ppp", &e) == HG_OK && p.periodic);
        CHECK(hg_particles_set_boundary(&p, "p p", &e) == HG_EINVAL);
        CHECK(strstr(e.msg, "'p p'") != NULL);
        CHECK(hg_particles_set_boundary(&p, "p x f", &e) == HG_EINVAL);
        CHECK(hg_particles_set_boundary(&p, "pf p p", &e) == HG_EINVAL);
        CHECK(hg_particles_set_boundary(&p, "p p f f", &e) == HG_EINVAL);
        CHECK(hg_particles_set_boundary(&p, "", &e) == HG_EINVAL);
        hg_particles_clear(&p);
        hg_particles_alloc(&p, 2, 1, &e);
        CHECK(hg_particles_set_boundary(&p, "p f p", &e) == HG_OK);
        CHECK(!strcmp(hg_particles_boundary_text(&p, b), "p f"));
        hg_particles_clear(&p);
    }
    /* bad input: one particle, the measured structure without snapshot */
    {
        hg_particles p;
        hg_particles_alloc(&p, 3, 1, &e);
        p.r[0] = 0.1;
        p.x[0] = p.x[1] = p.x[2] = 0.5;
        hg_snapshot *s = NULL;
        CHECK(hg_snapshot_create(&p, &s, &e) == HG_EINVAL && !s);
        hg_particles_clear(&p);
        hg_system sys = {3, 0.5, HG_STRUCTURE_MEASURED, NULL};
        CHECK(hg_system_check(&sys, &e) == HG_EINVAL);
        CHECK(strstr(e.msg, "measured") != NULL);
    }
    return hg_test_summary("test_snapshot");
}
