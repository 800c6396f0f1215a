/* bench.c - the benchmark harness of hg_bench.h: methods side by side on
 * one packing, static and dynamic, each checked against the HGrid. */
#include "hg_bench.h"
#include "hg_opt.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void hg_bench_config_default(hg_bench_config *c)
{
    memset(c, 0, sizeof *c);
    c->verlet_skin = 0.4;
    c->displacement = 0.05;
    c->repeats = 3;
    c->seed = 1;
    c->brute_limit = 20000;
    c->budget = 2e8;
}

void hg_bench_result_clear(hg_bench_result *r)
{
    if (!r)
        return;
    for (size_t k = 0; k < r->n_methods; k++)
        free(r->methods[k].sizes);
    free(r->methods);
    free(r->skipped);
    memset(r, 0, sizeof *r);
}

/* Working state of one method during the run. */
typedef struct run_method {
    hg_detector *det;
    hg_pairs pairs;
    double *t_static, *cpu_static, *t_dyn, *cpu_dyn;
} run_method;

static double median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    gsl_sort(v, 1, n);
    return gsl_stats_median_from_sorted_data(v, 1, n);
}

static double work_of(const hg_detector_counters *c)
{
    return (double)c->pair_checks + (double)c->cell_accesses +
           (double)c->box_tests + (double)c->sort_comparisons +
           (double)c->swaps;
}

/* A detector of the bundled HGrid: created with the cell sizes of its
 * model. */
static int is_sized(const hg_detector_type *t)
{
    return t->create_sized != NULL && t->model != NULL;
}

/* The model's system for the packing: its dim, its nu when in (0, 1). */
static hg_system packing_system(const hg_bench_config *c)
{
    hg_system sys = c->sys;
    sys.dim = c->particles->dim;
    double nu = hg_particles_packing_fraction(c->particles);
    if (nu > 0.0 && nu < 1.0)
        sys.nu = nu;
    return sys;
}

/* Cell sizes for an HGrid of algorithm alg: the given ones or
 * hg_recommend's, the top raised to the largest diameter if needed. */
static int hgrid_sizes(const hg_bench_config *c, hg_bench_method *m,
                       hg_err *e)
{
    double dmax = 2.0 * hg_particles_rmax(c->particles);
    if (c->L > 0) {
        m->sizes = malloc((size_t)c->L * sizeof *m->sizes);
        if (!m->sizes)
            return hg_fail(e, HG_ENOMEM, "bench: out of memory");
        memcpy(m->sizes, c->sizes, (size_t)c->L * sizeof *m->sizes);
        m->L = c->L;
        return HG_OK;
    }
    if (!c->psd)
        return hg_fail(e, HG_EINVAL, "sizes: %s needs cell sizes or a "
                       "distribution", m->type->name);
    hg_recommend_options ro;
    hg_recommend_options_default(&ro);
    ro.n_models = 1;
    ro.models[0] = hg_model_find(m->type->model);
    if (!ro.models[0])
        return hg_fail(e, HG_EINVAL, "methods: %s: model '%s' is unknown",
                       m->type->name, m->type->model);
    ro.grid_only = 1; /* sizes for this grid, even where bin is cheaper */
    hg_system sys = packing_system(c);
    hg_recommendation rec = {0};
    int st = hg_recommend(c->psd, &sys, c->values, &ro, &rec, e);
    if (st)
        return st;
    m->sizes = malloc((size_t)rec.levels * sizeof *m->sizes);
    if (!m->sizes) {
        hg_recommendation_clear(&rec);
        return hg_fail(e, HG_ENOMEM, "bench: out of memory");
    }
    memcpy(m->sizes, rec.cell_sizes, (size_t)rec.levels * sizeof *m->sizes);
    m->L = rec.levels;
    hg_recommendation_clear(&rec);
    if (m->sizes[m->L - 1] < dmax)
        m->sizes[m->L - 1] = dmax;
    return HG_OK;
}

static int create(const hg_bench_config *c, const hg_bench_method *m,
                  hg_detector **det, hg_err *e)
{
    hg_kv kv = {0, NULL};
    char buf[64];
    int st = HG_OK;
    const char *name = m->type->name;
    if (!strcmp(name, "verlet")) {
        hg_fmt_double(buf, c->verlet_skin);
        st = hg_kv_add(&kv, "list_skin_rel", buf, e);
    } else if (!strcmp(name, "brute") && c->force_brute) {
        st = hg_kv_add(&kv, "force", "1", e);
    }
    if (st == HG_OK)
        st = is_sized(m->type)
                 ? hg_detector_create_sized(name, &kv, m->L, m->sizes, det, e)
                 : hg_detector_create(name, &kv, det, e);
    hg_kv_clear(&kv);
    return st;
}

/* Why t cannot run on p, or NULL. */
static const char *unfit(const hg_bench_config *c, const hg_detector_type *t)
{
    const hg_particles *p = c->particles;
    if (p->periodic && !t->periodic)
        return "periodic boxes not supported";
    if (!p->periodic && !t->open)
        return "boxes with walls not supported";
    if (!strcmp(t->name, "brute") && p->n > c->brute_limit &&
        !c->force_brute)
        return "above the brute-force limit";
    return NULL;
}

static int choose(const hg_bench_config *c, hg_bench_result *r, hg_err *e)
{
    size_t nt = hg_detector_type_count();
    r->methods = calloc(nt + c->n_methods, sizeof *r->methods);
    r->skipped = calloc(nt, sizeof *r->skipped);
    if (!r->methods || !r->skipped)
        return hg_fail(e, HG_ENOMEM, "bench: out of memory");
    if (!c->methods || c->n_methods == 0) {
        for (size_t i = 0; i < nt; i++) {
            const hg_detector_type *t = hg_detector_type_at(i);
            const char *why = unfit(c, t);
            if (why)
                r->skipped[r->n_skipped++] = (hg_bench_skip){t, why};
            else
                r->methods[r->n_methods++].type = t;
        }
        return HG_OK;
    }
    for (size_t i = 0; i < c->n_methods; i++) {
        const hg_detector_type *t = hg_detector_type_find(c->methods[i]);
        if (!t)
            return hg_fail(e, HG_EUNKNOWN, "methods: unknown method '%s'",
                           c->methods[i]);
        for (size_t k = 0; k < r->n_methods; k++)
            if (r->methods[k].type == t)
                return hg_fail(e, HG_EINVAL, "methods: '%s' is listed twice",
                               t->name);
        const char *why = unfit(c, t);
        if (why && !strcmp(t->name, "brute"))
            return hg_fail(e, HG_EINVAL, "methods: brute force on %zu "
                           "particles exceeds the limit N = %zu (force it)",
                           c->particles->n, c->brute_limit);
        if (why)
            return hg_fail(e, HG_EINVAL, "methods: %s: %s", t->name, why);
        r->methods[r->n_methods++].type = t;
    }
    return HG_OK;
}

/* Work of one detection predicted before running: N(N-1)/2 for brute,
 * the cost model (T_cd + T_ca per particle) for the grids; -1 unknown. */
static double predicted_work(const hg_bench_config *c,
                             const hg_bench_method *m)
{
    double n = (double)c->particles->n;
    const char *name = m->type->name;
    if (!strcmp(name, "brute"))
        return 0.5 * n * (n - 1.0);
    if (!c->psd)
        return -1.0;
    hg_system sys = packing_system(c);
    const hg_model *model = m->type->model ? hg_model_find(m->type->model)
                                           : NULL;
    if (!model)
        return -1.0;
    hg_work w;
    int st = hg_cost_evaluate(model, c->psd, &sys, c->values, m->L, m->sizes,
                              NULL, &w, NULL);
    return st ? -1.0 : n * (w.T_cd + w.T_ca);
}

static int over_budget(const hg_bench_config *c, const char *name,
                       double work, const char *how, hg_err *e)
{
    if (!(c->budget > 0.0) || !(work > c->budget))
        return HG_OK;
    return hg_fail(e, HG_ELIMIT, "bench: %s %s %.3g work units (pair checks "
                   "+ cell accesses + ...) per detection, above the budget "
                   "%.3g; leave it out or raise the budget", name, how, work,
                   c->budget);
}

static int check_config(const hg_bench_config *c, hg_err *e)
{
    if (!c->particles || c->particles->n < 2)
        return hg_fail(e, HG_EINVAL, "particles: the packing has %zu "
                       "particle(s); need at least 2",
                       c->particles ? c->particles->n : 0);
    if (!(isfinite(c->skin) && c->skin >= 0.0))
        return hg_fail(e, HG_EINVAL, "skin: %g must be >= 0", c->skin);
    if (!(c->verlet_skin > 0.0))
        return hg_fail(e, HG_EINVAL, "verlet-skin: %g must be > 0",
                       c->verlet_skin);
    if (!(isfinite(c->displacement) && c->displacement >= 0.0))
        return hg_fail(e, HG_EINVAL, "displacement: %g must be >= 0",
                       c->displacement);
    if (c->repeats < 1 || c->steps < 0)
        return hg_fail(e, HG_EINVAL, "repeats: %ld must be >= 1 and steps "
                       "%ld >= 0", c->repeats, c->steps);
    if (c->warmup < 0)
        return hg_fail(e, HG_EINVAL, "warmup: %ld must be >= 0", c->warmup);
    for (int a = 0; !c->particles->periodic && a < c->particles->dim; a++)
        if (hg_particles_axis_periodic(c->particles, a))
            return hg_fail(e, HG_EINVAL,
                           "boundary: periodic and non-periodic axes mixed; "
                           "bench takes a box periodic on every axis or on "
                           "none (--boundary \"p p p\" or \"f f f\")");
    double dmax = 2.0 * hg_particles_rmax(c->particles);
    if (c->L > 0 && c->sizes[c->L - 1] < dmax)
        return hg_fail(e, HG_EINVAL, "sizes: the last cell size %g is below "
                       "the largest particle diameter %g",
                       c->sizes[c->L - 1], dmax);
    return hg_particles_check(c->particles, e);
}

/* Move every particle by a uniform random vector in [-d, d]^dim; in a
 * periodic box wrap the position back into [lo, hi) however far it
 * went. */
static void move_all(hg_particles *p, double d, gsl_rng *rng)
{
    for (size_t i = 0; i < p->n; i++)
        for (int c = 0; c < p->dim; c++) {
            double *x = &p->x[i * (size_t)p->dim + (size_t)c];
            *x += d * (2.0 * gsl_rng_uniform(rng) - 1.0);
            if (p->periodic) {
                double len = p->hi[c] - p->lo[c];
                if (*x < p->lo[c] || *x >= p->hi[c])
                    *x -= len * floor((*x - p->lo[c]) / len);
                if (*x >= p->hi[c] || *x < p->lo[c]) /* rounding */
                    *x = p->lo[c];
            }
        }
}

static int compare(const hg_pairs *got, const hg_pairs *ref,
                   const char *name, const char *phase, long step, hg_err *e)
{
    if (hg_pairs_equal(got, ref))
        return HG_OK;
    size_t k = 0;
    while (k < got->n && k < ref->n && got->v[k].i == ref->v[k].i &&
           got->v[k].j == ref->v[k].j)
        k++;
    char what[96] = "";
    if (k < ref->n)
        snprintf(what, sizeof what, "; first difference at HGrid pair (%u, "
                 "%u)", ref->v[k].i, ref->v[k].j);
    else if (k < got->n)
        snprintf(what, sizeof what, "; extra pair (%u, %u)", got->v[k].i,
                 got->v[k].j);
    return hg_fail(e, HG_ENUMERIC, "bench: %s found %zu contacts, the HGrid "
                   "%zu (%s, step %ld)%s", name, got->n, ref->n, phase, step,
                   what);
}

/* One timed detection (dynamic: update) of m into rm->pairs, sorted. */
static int detect(hg_detector *det, const hg_particles *p, double skin,
                  int dynamic, hg_pairs *out, double *t, double *cpu,
                  hg_detector_counters *cn, hg_err *e)
{
    hg_err de = {0};
    double c0 = hg_cpu_seconds(), t0 = hg_wall_seconds();
    int st = dynamic ? hg_detector_update(det, p, skin, out, cn, &de)
                     : hg_detector_detect(det, p, skin, out, cn, &de);
    *t = hg_wall_seconds() - t0;
    *cpu = hg_cpu_seconds() - c0;
    if (st != HG_OK)
        return hg_fail(e, st == HG_ENOMEM || st == HG_ELIMIT ? st
                                                              : HG_ENUMERIC,
                       "bench: %s: %s", hg_detector_get_type(det)->name,
                       de.msg);
    hg_pairs_sort(out);
    return HG_OK;
}

static int run(const hg_bench_config *c, hg_bench_result *r, run_method *v,
               hg_particles *p, hg_err *e)
{
    hg_bench_method refm = {0};
    hg_detector *ref = NULL;
    hg_pairs refpairs = {0};
    gsl_rng *rng = NULL;
    double t, cpu;
    hg_detector_counters cn;
    refm.type = hg_detector_type_find("hgrid");
    double units = (double)r->n_methods *
                   ((double)c->repeats +
                    (c->steps > 0 ? (double)c->steps + 1.0 : 0.0)),
           done = 0.0;
    int st = hgrid_sizes(c, &refm, e);
    if (!st)
        st = create(c, &refm, &ref, e);
    if (!st)
        st = detect(ref, p, c->skin, 0, &refpairs, &t, &cpu, NULL, e);
    for (long w = 0; !st && w < c->warmup; w++)
        for (size_t k = 0; !st && k < r->n_methods; k++)
            st = detect(v[k].det, p, c->skin, 0, &v[k].pairs, &t, &cpu, NULL,
                        e);
    for (long rep = 0; !st && rep < c->repeats; rep++)
        for (size_t k = 0; !st && k < r->n_methods; k++) {
            hg_bench_method *m = &r->methods[k];
            st = detect(v[k].det, p, c->skin, 0, &v[k].pairs,
                        &v[k].t_static[rep], &v[k].cpu_static[rep],
                        &m->counters, e);
            if (!st && rep == 0)
                st = over_budget(c, m->type->name, work_of(&m->counters),
                                 "did", e);
            if (!st)
                st = compare(&v[k].pairs, &refpairs, m->type->name, "static",
                             rep, e);
            m->contacts = v[k].pairs.n;
            if (c->progress)
                c->progress(m->type->name, ++done / units,
                            c->progress_params);
        }
    if (!st && c->steps > 0) {
        rng = gsl_rng_alloc(gsl_rng_mt19937);
        if (!rng)
            st = hg_fail(e, HG_ENOMEM, "bench: out of memory");
        else
            gsl_rng_set(rng, (unsigned long)c->seed + 1);
        for (size_t k = 0; !st && k < r->n_methods; k++) {
            hg_detector_free(v[k].det);
            v[k].det = NULL;
            st = create(c, &r->methods[k], &v[k].det, e);
        }
    }
    double d = c->displacement * r->rmin;
    for (long s = 0; !st && c->steps > 0 && s <= c->steps; s++) {
        if (s > 0)
            move_all(p, d, rng);
        st = detect(ref, p, c->skin, 0, &refpairs, &t, &cpu, NULL, e);
        for (size_t k = 0; !st && k < r->n_methods; k++) {
            hg_bench_method *m = &r->methods[k];
            st = detect(v[k].det, p, c->skin, 1, &v[k].pairs, &t, &cpu, &cn,
                        e);
            if (!st)
                st = compare(&v[k].pairs, &refpairs, m->type->name,
                             "dynamic", s, e);
            if (c->progress)
                c->progress(m->type->name, ++done / units,
                            c->progress_params);
            if (st || s == 0) {
                m->first_time = t;
                m->first_cpu = cpu;
                continue;
            }
            v[k].t_dyn[s - 1] = t;
            v[k].cpu_dyn[s - 1] = cpu;
            m->pair_checks_per_step += (double)cn.pair_checks;
            m->cell_accesses_per_step += (double)cn.cell_accesses;
            m->swaps_per_step += (double)cn.swaps;
            m->comparisons_per_step += (double)cn.sort_comparisons;
            m->builds += cn.list_builds;
            if (cn.memory_bytes > m->memory_max)
                m->memory_max = cn.memory_bytes;
            m->contacts_last = v[k].pairs.n;
        }
    }
    free(refm.sizes);
    hg_detector_free(ref);
    hg_pairs_clear(&refpairs);
    gsl_rng_free(rng);
    return st;
}

int hg_bench_run(const hg_bench_config *c, hg_bench_result *r, hg_err *e)
{
    memset(r, 0, sizeof *r);
    int st = check_config(c, e);
    if (st)
        return st;
    const hg_particles *p0 = c->particles;
    r->n = p0->n;
    r->dim = p0->dim;
    r->periodic = p0->periodic;
    r->nu = hg_particles_packing_fraction(p0);
    r->rmin = hg_particles_rmin(p0);
    r->rmax = hg_particles_rmax(p0);
    if ((st = choose(c, r, e)))
        return st;
    if (r->n_methods == 0)
        return hg_fail(e, HG_EINVAL, "methods: no method to run");
    for (size_t k = 0; k < r->n_methods && !st; k++) {
        hg_bench_method *m = &r->methods[k];
        if (is_sized(m->type))
            st = hgrid_sizes(c, m, e);
        if (!st)
            st = over_budget(c, m->type->name, predicted_work(c, m),
                             "is predicted to do", e);
    }
    if (st)
        return st;
    hg_particles p = {0};
    run_method *v = calloc(r->n_methods, sizeof *v);
    size_t nd = c->steps > 0 ? (size_t)c->steps : 1;
    if (!v || hg_particles_alloc(&p, p0->dim, p0->n, e)) {
        free(v);
        return hg_fail(e, HG_ENOMEM, "bench: out of memory");
    }
    memcpy(p.x, p0->x, p0->n * (size_t)p0->dim * sizeof *p.x);
    memcpy(p.r, p0->r, p0->n * sizeof *p.r);
    memcpy(p.lo, p0->lo, sizeof p.lo);
    memcpy(p.hi, p0->hi, sizeof p.hi);
    memcpy(p.boundary, p0->boundary, sizeof p.boundary);
    p.periodic = p0->periodic;
    for (size_t k = 0; k < r->n_methods && !st; k++) {
        v[k].t_static = calloc((size_t)c->repeats, sizeof(double));
        v[k].cpu_static = calloc((size_t)c->repeats, sizeof(double));
        v[k].t_dyn = calloc(nd, sizeof(double));
        v[k].cpu_dyn = calloc(nd, sizeof(double));
        if (!v[k].t_static || !v[k].cpu_static || !v[k].t_dyn ||
            !v[k].cpu_dyn)
            st = hg_fail(e, HG_ENOMEM, "bench: out of memory");
        else
            st = create(c, &r->methods[k], &v[k].det, e);
    }
    if (!st)
        st = run(c, r, v, &p, e);
    for (size_t k = 0; k < r->n_methods; k++) {
        hg_bench_method *m = &r->methods[k];
        if (!st) {
            m->time = median(v[k].t_static, (size_t)c->repeats);
            m->cpu = median(v[k].cpu_static, (size_t)c->repeats);
            if (c->steps > 0) {
                double ns = (double)c->steps;
                m->step_time = median(v[k].t_dyn, (size_t)c->steps);
                m->step_cpu = median(v[k].cpu_dyn, (size_t)c->steps);
                m->pair_checks_per_step /= ns;
                m->cell_accesses_per_step /= ns;
                m->comparisons_per_step /= ns;
                m->swaps_per_step /= ns;
            }
        }
        hg_detector_free(v[k].det);
        hg_pairs_clear(&v[k].pairs);
        free(v[k].t_static);
        free(v[k].cpu_static);
        free(v[k].t_dyn);
        free(v[k].cpu_dyn);
    }
    free(v);
    hg_particles_clear(&p);
    return st;
}
