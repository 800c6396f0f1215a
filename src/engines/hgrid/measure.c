/* measure.c - timing and work counting of one bundled-HGrid detection
 * (hg_validate_measure and the pieces validate.c shares). */
#include "measure.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void hg_measure_options_default(hg_measure_options *o)
{
    memset(o, 0, sizeof *o);
    o->budget = 2e8;
    o->repeats = 5;
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

void meas_clear(meas *x)
{
    free(x->sub);
    hg_pairs_clear(&x->pairs);
    hg_grid_free(x->g);
    free(x->wall);
    free(x->cpu);
    memset(x, 0, sizeof *x);
}

static int meas_detect(meas *x, hg_grid_counts *cnt, hg_err *e)
{
    return x->sub ? hg_grid_find_contacts_subset(x->g, x->sub, x->m,
                                                 &x->pairs, cnt, e)
                  : hg_grid_find_contacts(x->g, &x->pairs, cnt, e);
}

int meas_prepare(meas *x, const hg_particles *p, hg_algorithm alg, int L,
                 const double *sizes, double work_per_particle,
                 const hg_measure_options *opt, double *build_s,
                 double *first_s, hg_err *e)
{
    int st;
    memset(x, 0, sizeof *x);
    x->n = p->n;
    x->cap = opt->repeats;
    x->wall = malloc((size_t)x->cap * sizeof *x->wall);
    x->cpu = malloc((size_t)x->cap * sizeof *x->cpu);
    if (!x->wall || !x->cpu)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    if ((st = hg_grid_create(p->dim, L, sizes, alg, &x->g, e)))
        return st;
    double t0 = hg_wall_seconds();
    if ((st = hg_grid_build(x->g, p, e)))
        return st;
    *first_s = hg_wall_seconds() - t0;
    /* the first build also allocates and first touches the buffers (page
     * faults, on a fragmented machine compaction for huge pages): 2-7x a
     * rebuild at N = 10^5. A dynamic run rebuilds the same grid. */
    for (int k = 0; k < x->cap; k++) {
        t0 = hg_wall_seconds();
        if ((st = hg_grid_build(x->g, p, e)))
            return st;
        x->wall[k] = hg_wall_seconds() - t0;
    }
    *build_s = meas_median(x->wall, x->cap);
    x->m = x->n;
    double work = work_per_particle * (double)x->n;
    if (opt->budget > 0.0 && work > opt->budget) {
        double mm = ceil(opt->budget / work_per_particle);
        x->m = mm < 1000.0 ? 1000 : (size_t)mm;
        if (x->m > x->n)
            x->m = x->n;
    }
    if (x->m < x->n && (st = random_subset(x->n, x->m, opt->seed, &x->sub,
                                           e)))
        return st;
    t0 = hg_wall_seconds();
    if ((st = meas_detect(x, NULL, e)))
        return st;
    double dt = hg_wall_seconds() - t0;
    x->inner = dt >= 0.02 ? 1 : dt <= 2e-5 ? 1000 : (int)ceil(0.02 / dt);
    return HG_OK;
}

int meas_sample(meas *x, hg_err *e)
{
    int st;
    double c0 = hg_cpu_seconds(), t0 = hg_wall_seconds();
    for (int i = 0; i < x->inner; i++)
        if ((st = meas_detect(x, NULL, e)))
            return st;
    double dt = hg_wall_seconds() - t0, dc = hg_cpu_seconds() - c0;
    double scale = (double)x->n / (double)x->m / (double)x->inner;
    x->wall[x->k] = dt * scale;
    x->cpu[x->k] = dc * scale;
    x->k++;
    return HG_OK;
}

/* Median of v[0..n-1] (n >= 1; v is reordered). */
double meas_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, hg_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Count the work once and fill out (prediction already in out). */
int meas_finish(meas *x, const hg_cost *cost, hg_validate_run *out,
                hg_err *e)
{
    hg_grid_counts cnt = {0};
    int st = meas_detect(x, &cnt, e);
    if (st)
        return st;
    const int L = out->levels;
    const double m = (double)x->m, n = (double)x->n;
    double *w = malloc((size_t)x->k * sizeof *w);
    if (!w) {
        hg_grid_counts_clear(&cnt);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    memcpy(w, x->wall, (size_t)x->k * sizeof *w);
    out->seconds = meas_median(w, x->k);
    out->seconds_min = w[0];
    out->seconds_max = w[x->k - 1];
    memcpy(w, x->cpu, (size_t)x->k * sizeof *w);
    out->cpu_seconds = meas_median(w, x->k);
    free(w);
    out->repeats = x->k;
    out->inner = x->inner;
    out->searched = x->m;
    out->extrapolated = x->m < x->n;
    out->contacts = (double)cnt.contacts * n / m;
    out->memory_bytes = hg_grid_memory(x->g);
    out->measured_T_cd = (double)cnt.pair_checks / m;
    out->measured_T_ca = (double)cnt.cell_accesses / m;
    out->measured_T = out->measured_T_cd + cost->K * out->measured_T_ca;
    for (int h = 0; h < L; h++) {
        hg_validate_level *lv = &out->per_level[h];
        lv->level = h + 1;
        lv->cell_size = out->sizes[h];
        lv->predicted_fraction = cost->per_level[h].fraction;
        lv->predicted_T_cd = cost->per_level[h].T_cd;
        lv->predicted_T_ca = cost->per_level[h].T_ca;
        lv->measured_fraction = (double)cnt.per_level[h].particles / n;
        lv->measured_T_cd = (double)cnt.per_level[h].pair_checks / m;
        lv->measured_T_ca = (double)cnt.per_level[h].cell_accesses / m;
    }
    hg_grid_counts_clear(&cnt);
    return HG_OK;
}

/* Predict (hg_cost_evaluate) and allocate out for L levels. */
int meas_run_init(const hg_model *model, const hg_psd *psd,
                  const hg_system *sys, const hg_model_values *v, int L,
                  const double *sizes, hg_cost *cost, hg_validate_run *out,
                  hg_err *e)
{
    memset(out, 0, sizeof *out);
    int st = hg_cost_evaluate(model, psd, sys, v, L, sizes, cost, NULL, e);
    if (st)
        return st;
    out->model = model;
    out->algorithm = model->grid_algorithm;
    out->levels = L;
    out->sizes = malloc((size_t)L * sizeof *out->sizes);
    out->per_level = calloc((size_t)L, sizeof *out->per_level);
    if (!out->sizes || !out->per_level)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    memcpy(out->sizes, sizes, (size_t)L * sizeof *sizes);
    out->predicted_T_cd = cost->T_cd;
    out->predicted_T_ca = cost->T_ca;
    out->predicted_T = cost->T;
    return HG_OK;
}

int meas_check(const hg_model *model, const hg_psd *psd,
               const hg_system *sys, const hg_particles *p,
               const double *sizes, const hg_measure_options *opt,
               hg_err *e)
{
    if (opt->repeats < 1)
        return hg_fail(e, HG_EINVAL, "repeats: %d must be >= 1",
                       opt->repeats);
    if (!model || !psd || !sys || !p || !sizes)
        return hg_fail(e, HG_EINVAL, "validate: NULL argument");
    if (model->grid_algorithm == HG_GRID_NONE)
        return hg_fail(e, HG_EINVAL,
                       "model: %s describes no grid of hgridopt to measure",
                       model->name);
    if (p->n == 0)
        return hg_fail(e, HG_EINVAL, "particles: none to search");
    if (sys->dim != p->dim)
        return hg_fail(e, HG_EINVAL,
                       "dim: system %d differs from the particles' %d",
                       sys->dim, p->dim);
    return HG_OK;
}

int hg_validate_measure(const hg_model *model, const hg_psd *psd,
                        const hg_system *sys, const hg_model_values *v,
                        const hg_particles *p, int L, const double *sizes,
                        const hg_measure_options *opt, hg_validate_run *out,
                        hg_err *e)
{
    hg_measure_options defo;
    hg_cost cost = {0};
    meas x = {0};
    int st;
    memset(out, 0, sizeof *out);
    if (!opt) {
        hg_measure_options_default(&defo);
        opt = &defo;
    }
    if ((st = meas_check(model, psd, sys, p, sizes, opt, e)))
        return st;
    if ((st = meas_run_init(model, psd, sys, v, L, sizes, &cost, out, e)) ||
        (st = meas_prepare(&x, p, model->grid_algorithm, L, sizes,
                           cost.T_cd + cost.T_ca, opt, &out->build_seconds,
                           &out->first_build_seconds, e)))
        goto fail;
    for (int k = 0; k < opt->repeats; k++)
        if ((st = meas_sample(&x, e)))
            goto fail;
    if ((st = meas_finish(&x, &cost, out, e)))
        goto fail;
    meas_clear(&x);
    hg_cost_clear(&cost);
    return HG_OK;
fail:
    meas_clear(&x);
    hg_cost_clear(&cost);
    hg_validate_run_clear(out);
    return st;
}