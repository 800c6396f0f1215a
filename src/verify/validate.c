/* validate.c - predicted vs measured work of the bundled HGrid. */
#include "hg_validate.h"
#include "hg_grid.h"
#include "hg_detector.h"
#include "hg_pack.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void hg_validate_run_clear(hg_validate_run *r)
{
    if (!r)
        return;
    free(r->sizes);
    free(r->per_level);
    memset(r, 0, sizeof *r);
}

void hg_validation_clear(hg_validation *v)
{
    if (!v)
        return;
    hg_validate_run_clear(&v->hgrid);
    hg_validate_run_clear(&v->linked_cell);
    hg_validate_run_clear(&v->bin);
    memset(v, 0, sizeof *v);
}

void hg_measure_options_default(hg_measure_options *o)
{
    o->budget = 2e8;
    o->repeats = 1;
    o->seed = 1;
}

/* m distinct indices out of n drawn with seed (ascending order). */
static int random_subset(size_t n, size_t m, uint64_t seed, size_t **out,
                         hg_err *e)
{
    size_t *all = malloc(n * sizeof *all), *sub = malloc(m * sizeof *sub);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!all || !sub || !rng) {
        free(all);
        free(sub);
        if (rng)
            gsl_rng_free(rng);
        return hg_fail(e, HG_ENOMEM, "out of memory for a subset of %zu", m);
    }
    gsl_rng_set(rng, (unsigned long)(seed ^ 0x2545F4914F6CDD1DULL));
    for (size_t i = 0; i < n; i++)
        all[i] = i;
    gsl_ran_choose(rng, sub, m, all, n, sizeof *all);
    gsl_rng_free(rng);
    free(all);
    *out = sub;
    return HG_OK;
}

int hg_validate_measure(const hg_model *model, const hg_psd *psd,
                        const hg_system *sys, const hg_model_values *v,
                        const hg_particles *p, int L, const double *sizes,
                        const hg_measure_options *opt, hg_validate_run *out,
                        hg_err *e)
{
    hg_measure_options defo;
    hg_grid *g = NULL;
    hg_cost cost = {0};
    hg_grid_counts cnt = {0};
    hg_pairs pairs = {0};
    size_t *sub = NULL;
    int st;
    memset(out, 0, sizeof *out);
    if (!opt) {
        hg_measure_options_default(&defo);
        opt = &defo;
    }
    if (opt->repeats < 1)
        return hg_fail(e, HG_EINVAL, "repeats: %d must be >= 1",
                       opt->repeats);
    if (!model || !psd || !sys || !p || !sizes)
        return hg_fail(e, HG_EINVAL, "validate: NULL argument");
    hg_algorithm alg = model->grid_algorithm;
    if (alg == HG_GRID_NONE)
        return hg_fail(e, HG_EINVAL,
                       "model: %s describes no grid of hgridopt to measure",
                       model->name);
    if (p->n == 0)
        return hg_fail(e, HG_EINVAL, "particles: none to search");
    if (sys->dim != p->dim)
        return hg_fail(e, HG_EINVAL,
                       "dim: system %d differs from the particles' %d",
                       sys->dim, p->dim);
    st = hg_cost_evaluate(model, psd, sys, v, L, sizes, &cost, NULL, e);
    if (st)
        return st;
    out->model = model;
    out->algorithm = alg;
    out->levels = L;
    out->sizes = malloc((size_t)L * sizeof *out->sizes);
    out->per_level = calloc((size_t)L, sizeof *out->per_level);
    if (!out->sizes || !out->per_level) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto fail;
    }
    memcpy(out->sizes, sizes, (size_t)L * sizeof *sizes);
    out->predicted_T_cd = cost.T_cd;
    out->predicted_T_ca = cost.T_ca;
    out->predicted_T = cost.T;
    if ((st = hg_grid_create(p->dim, L, sizes, alg, &g, e)))
        goto fail;
    double t0 = hg_wall_seconds();
    if ((st = hg_grid_build(g, p, e)))
        goto fail;
    out->build_seconds = hg_wall_seconds() - t0;
    const size_t n = p->n;
    double work = (cost.T_cd + cost.T_ca) * (double)n;
    size_t m = n;
    if (opt->budget > 0.0 && work > opt->budget) {
        double mm = ceil(opt->budget / (cost.T_cd + cost.T_ca));
        m = mm < 1000.0 ? 1000 : (size_t)mm;
        if (m > n)
            m = n;
    }
    out->searched = m;
    out->extrapolated = m < n;
    if (m < n && (st = random_subset(n, m, opt->seed, &sub, e)))
        goto fail;
    double best = INFINITY, best_cpu = INFINITY;
    for (int k = 0; k < opt->repeats; k++) {
        double c0 = hg_cpu_seconds();
        t0 = hg_wall_seconds();
        st = sub ? hg_grid_find_contacts_subset(g, sub, m, &pairs, NULL, e)
                 : hg_grid_find_contacts(g, &pairs, NULL, e);
        double dt = hg_wall_seconds() - t0;
        double dc = hg_cpu_seconds() - c0;
        if (st)
            goto fail;
        if (dt < best)
            best = dt;
        if (dc < best_cpu)
            best_cpu = dc;
    }
    st = sub ? hg_grid_find_contacts_subset(g, sub, m, &pairs, &cnt, e)
             : hg_grid_find_contacts(g, &pairs, &cnt, e);
    if (st)
        goto fail;
    double scale = (double)n / (double)m;
    out->seconds = best * scale;
    out->cpu_seconds = best_cpu * scale;
    out->contacts = (double)cnt.contacts * scale;
    out->memory_bytes = hg_grid_memory(g);
    out->measured_T_cd = (double)cnt.pair_checks / (double)m;
    out->measured_T_ca = (double)cnt.cell_accesses / (double)m;
    out->measured_T = out->measured_T_cd + cost.K * out->measured_T_ca;
    for (int h = 0; h < L; h++) {
        hg_validate_level *lv = &out->per_level[h];
        lv->level = h + 1;
        lv->cell_size = sizes[h];
        lv->predicted_fraction = cost.per_level[h].fraction;
        lv->predicted_T_cd = cost.per_level[h].T_cd;
        lv->predicted_T_ca = cost.per_level[h].T_ca;
        lv->measured_fraction =
            (double)cnt.per_level[h].particles / (double)n;
        lv->measured_T_cd = (double)cnt.per_level[h].pair_checks / (double)m;
        lv->measured_T_ca =
            (double)cnt.per_level[h].cell_accesses / (double)m;
    }
    free(sub);
    hg_pairs_clear(&pairs);
    hg_grid_counts_clear(&cnt);
    hg_grid_free(g);
    hg_cost_clear(&cost);
    return HG_OK;
fail:
    free(sub);
    hg_pairs_clear(&pairs);
    hg_grid_counts_clear(&cnt);
    hg_grid_free(g);
    hg_cost_clear(&cost);
    hg_validate_run_clear(out);
    return st;
}

static int check_params(const hg_psd *psd, const hg_validate_params *prm,
                        hg_err *e)
{
    int st;
    if (!psd || !prm || !prm->sizes || !prm->model)
        return hg_fail(e, HG_EINVAL, "validate: NULL argument");
    if ((st = hg_system_check(&prm->sys, e)))
        return st;
    if (prm->L < 1)
        return hg_fail(e, HG_EINVAL, "levels: L = %d must be >= 1", prm->L);
    return hg_sizes_check(psd, prm->L, prm->sizes, 0, e);
}

/* Rounded sizes for the box of p (see hg_validate_particles). */
static int box_sizes(const hg_particles *p, int L, const double *sizes,
                     double *out, hg_err *e)
{
    double A = p->hi[0] - p->lo[0];
    int cubic = 1;
    for (int c = 1; c < p->dim; c++)
        cubic &= fabs((p->hi[c] - p->lo[c]) - A) <= 1e-12 * A;
    if (p->periodic && cubic)
        return hg_pack_round_sizes(A, L, sizes, out, e);
    memcpy(out, sizes, (size_t)L * sizeof *sizes);
    return HG_OK;
}

/* The `bin` detector (build + search, best of the repeats) on p against
 * the model "bin" evaluated with the detector's bin width. Skipped (out
 * ->has_bin = 0, bin_skipped_work set) when the predicted work exceeds
 * the budget. */
static int measure_bin(const hg_psd *psd, const hg_validate_params *prm,
                       const hg_particles *p, hg_validation *out, hg_err *e)
{
    const hg_model *m = hg_model_find("bin");
    if (!m)
        return HG_OK;
    double rmax = 0.0;
    for (size_t i = 0; i < p->n; i++)
        rmax = fmax(rmax, p->r[i]);
    double c = 2.0 * rmax, w = 0.5 * c, A = p->hi[0] - p->lo[0];
    if (p->periodic && A >= w)
        w = A / floor(A / w);
    hg_model_values v = prm->values;
    int st = hg_model_values_set(&v, "bin", fmin(fmax(w / (0.5 * c), 0.05),
                                                 100.0), e);
    hg_cost cost = {0};
    hg_work wk;
    if (st || (st = hg_cost_evaluate(m, psd, &prm->sys, &v, 1, &c, &cost,
                                     &wk, e)))
        return st;
    const size_t n = p->n;
    double work = (wk.T_cd + wk.T_ca) * (double)n;
    if (prm->measure.budget > 0.0 && work > prm->measure.budget) {
        out->bin_skipped_work = work;
        hg_cost_clear(&cost);
        return HG_OK;
    }
    hg_validate_run *r = &out->bin;
    hg_detector *d = NULL;
    hg_pairs pairs = {0};
    hg_detector_counters cnt;
    r->sizes = malloc(sizeof *r->sizes);
    r->per_level = calloc(1, sizeof *r->per_level);
    if (!r->sizes || !r->per_level) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    if ((st = hg_detector_create("bin", NULL, &d, e)))
        goto done;
    double best = INFINITY, best_cpu = INFINITY;
    for (int k = 0; k < prm->measure.repeats; k++) {
        double c0 = hg_cpu_seconds(), t0 = hg_wall_seconds();
        if ((st = hg_detector_detect(d, p, 0.0, &pairs, &cnt, e)))
            goto done;
        best = fmin(best, hg_wall_seconds() - t0);
        best_cpu = fmin(best_cpu, hg_cpu_seconds() - c0);
    }
    r->model = m;
    r->algorithm = HG_GRID_NONE;
    r->levels = 1;
    r->sizes[0] = w;
    r->predicted_T_cd = wk.T_cd;
    r->predicted_T_ca = wk.T_ca;
    r->predicted_T = wk.T;
    r->measured_T_cd = (double)cnt.pair_checks / (double)n;
    r->measured_T_ca = (double)cnt.cell_accesses / (double)n;
    r->measured_T = r->measured_T_cd + cost.K * r->measured_T_ca;
    r->seconds = best;
    r->cpu_seconds = best_cpu;
    r->build_seconds = -1.0;
    r->contacts = (double)pairs.n;
    r->searched = n;
    r->memory_bytes = cnt.memory_bytes;
    hg_validate_level *l = &r->per_level[0];
    l->level = 1;
    l->cell_size = w;
    l->predicted_fraction = l->measured_fraction = 1.0;
    l->predicted_T_cd = wk.T_cd;
    l->predicted_T_ca = wk.T_ca;
    l->measured_T_cd = r->measured_T_cd;
    l->measured_T_ca = r->measured_T_ca;
    out->has_bin = 1;
    out->predicted_speedup_bin = r->predicted_T / out->hgrid.predicted_T;
    out->measured_speedup_bin = r->seconds / out->hgrid.seconds;
done:
    hg_detector_free(d);
    hg_pairs_clear(&pairs);
    hg_cost_clear(&cost);
    if (st)
        hg_validate_run_clear(r);
    return st;
}

int hg_validate_particles(const hg_psd *psd, const hg_validate_params *prm,
                          const hg_particles *p, hg_validation *out,
                          hg_err *e)
{
    double *rs = NULL;
    int st;
    memset(out, 0, sizeof *out);
    if ((st = check_params(psd, prm, e)))
        return st;
    if (!p || p->n == 0)
        return hg_fail(e, HG_EINVAL, "particles: none to search");
    out->n = p->n;
    out->seed = prm->seed;
    out->box_edge = p->hi[0] - p->lo[0];
    out->measured_nu = hg_particles_packing_fraction(p);
    rs = malloc((size_t)prm->L * sizeof *rs);
    if (!rs)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    if ((st = box_sizes(p, prm->L, prm->sizes, rs, e)))
        goto fail;
    hg_measure_options full = prm->measure;
    full.budget = 0.0; /* the HGrid always searches every particle */
    st = hg_validate_measure(prm->model, psd, &prm->sys, &prm->values, p,
                             prm->L, rs, &full, &out->hgrid, e);
    if (st)
        goto fail;
    if (prm->baseline) {
        double lc = 2.0 * hg_psd_rmax(psd);
        if ((st = box_sizes(p, 1, &lc, &lc, e)))
            goto fail;
        st = hg_validate_measure(prm->model, psd, &prm->sys, &prm->values,
                                 p, 1, &lc, &prm->measure, &out->linked_cell,
                                 e);
        if (st)
            goto fail;
        out->has_baseline = 1;
        out->predicted_speedup =
            out->linked_cell.predicted_T / out->hgrid.predicted_T;
        out->measured_speedup =
            out->linked_cell.seconds / out->hgrid.seconds;
        if ((st = measure_bin(psd, prm, p, out, e)))
            goto fail;
    }
    free(rs);
    return HG_OK;
fail:
    free(rs);
    hg_validation_clear(out);
    return st;
}

int hg_validate(const hg_psd *psd, const hg_validate_params *prm,
                hg_validation *out, hg_err *e)
{
    hg_particles p = {0};
    int st;
    memset(out, 0, sizeof *out);
    if ((st = check_params(psd, prm, e)))
        return st;
    hg_pack_params pp = {prm->sys.dim, prm->n, prm->sys.nu, prm->seed, 1};
    double t0 = hg_wall_seconds();
    if ((st = hg_pack_poisson(psd, &pp, &p, e)))
        return st;
    double pack_seconds = hg_wall_seconds() - t0;
    st = hg_validate_particles(psd, prm, &p, out, e);
    out->pack_seconds = pack_seconds;
    hg_particles_clear(&p);
    return st;
}
