/* validate.c - predicted vs measured work of the bundled HGrid. */
#include "measure.h"
#include "hg_grid.h"
#include "hg_detector.h"
#include "hg_pack_gen.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
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

static int check_params(const hg_psd *psd, const hg_validate_params *prm,
                        hg_err *e)
{
    int st;
    if (!psd || !prm || !prm->sizes || !prm->model)
        return hg_fail(e, HG_EINVAL, "validate: NULL argument");
    if (prm->model->grid_algorithm == HG_GRID_NONE) /* before any packing */
        return hg_fail(e, HG_EINVAL,
                       "model: %s describes no grid of hgridopt to measure",
                       prm->model->name);
    if ((st = hg_system_check(&prm->sys, e)))
        return st;
    if (prm->L < 1)
        return hg_fail(e, HG_EINVAL, "levels: L = %d must be >= 1", prm->L);
    return hg_sizes_check(psd, prm->L, prm->sizes, 0, e);
}

/* The edge A of which every edge of a periodic box is a whole multiple
 * (a cube, or a box padded by pad_box), else 0: sizes rounded to whole
 * cells of A are whole cells on every axis. */
static double whole_base(const hg_particles *p)
{
    if (!p->periodic)
        return 0.0;
    double A = INFINITY;
    for (int c = 0; c < p->dim; c++)
        A = fmin(A, p->hi[c] - p->lo[c]);
    for (int c = 0; c < p->dim; c++) {
        double k = (p->hi[c] - p->lo[c]) / A;
        if (fabs(k - nearbyint(k)) > 1e-9 * k)
            return 0.0;
    }
    return A;
}

/* Whole cells of size >= s along an edge A (as hg_pack_round_sizes). */
static double cells_per_edge(double A, double s)
{
    double k = floor(A / s);
    while (k > 1.0 && A / k < s)
        k -= 1.0;
    return k;
}

/* The largest size a grid of these sizes uses (the linked cell's 2 r_max
 * included). */
static double largest_size(const hg_psd *psd, int L, const double *sizes)
{
    double s = 2.0 * hg_psd_rmax(psd);
    for (int h = 0; h < L; h++)
        if (sizes[h] > s)
            s = sizes[h];
    return s;
}

int hg_validate_min_particles(const hg_psd *psd, const hg_system *sys,
                              int L, const double *sizes, size_t *nmin,
                              hg_err *e)
{
    if (!psd || !sys || !sizes || !nmin || L < 1)
        return hg_fail(e, HG_EINVAL, "validate: NULL argument");
    const double s = largest_size(psd, L, sizes);
    const int d = sys->dim;
    double A1 = hg_pack_box_edge(psd, d, 1, sys->nu);
    if (!(isfinite(A1) && A1 > 0.0 && isfinite(s)))
        return hg_fail(e, HG_EINVAL, "validate: no box edge for dim %d, "
                       "nu %g", d, sys->nu);
    /* A(N) = A(1) N^(1/d): 3 cells need N >= (3 s / A(1))^d */
    double guess = ceil(pow(3.0 * s / A1, (double)d));
    if (!(guess < 1e15))
        return hg_fail(e, HG_ELIMIT, "validate: %g particles would be "
                       "needed for 3 cells of size %g per box edge", guess,
                       s);
    size_t n = guess < 2.0 ? 2 : (size_t)guess;
    while (cells_per_edge(hg_pack_box_edge(psd, d, n, sys->nu), s) < 3.0)
        n++;
    while (n > 2 &&
           cells_per_edge(hg_pack_box_edge(psd, d, n - 1, sys->nu), s) >= 3.0)
        n--;
    *nmin = n;
    return HG_OK;
}

/* The `bin` detector (build + search, median of the repeats) on p against
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
    /* the detector's bins: half the cutoff, stretched to whole bins per
     * periodic edge; edges of different lengths (a padded box) give
     * different widths, predicted with their geometric mean */
    double c = 2.0 * rmax, w0 = 0.5 * c, w = 1.0;
    for (int a = 0; a < p->dim; a++) {
        double A = p->hi[a] - p->lo[a];
        w *= p->periodic && A >= w0 ? A / floor(A / w0) : w0;
    }
    w = pow(w, 1.0 / p->dim);
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
    double *wall = NULL, *cpu = NULL;
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
    const int R = prm->measure.repeats > 0 ? prm->measure.repeats : 1;
    wall = malloc((size_t)R * sizeof *wall);
    cpu = malloc((size_t)R * sizeof *cpu);
    if (!wall || !cpu) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    for (int k = 0; k < R; k++) {
        double c0 = hg_cpu_seconds(), t0 = hg_wall_seconds();
        if ((st = hg_detector_detect(d, p, 0.0, &pairs, &cnt, e)))
            goto done;
        wall[k] = hg_wall_seconds() - t0;
        cpu[k] = hg_cpu_seconds() - c0;
    }
    double best = meas_median(wall, R), best_cpu = meas_median(cpu, R);
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
    r->seconds_min = wall[0];
    r->seconds_max = wall[R - 1];
    r->repeats = R;
    r->inner = 1;
    r->cpu_seconds = best_cpu;
    r->build_seconds = -1.0;
    r->first_build_seconds = -1.0;
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
    out->measured_speedup_bin_cpu = r->cpu_seconds / out->hgrid.cpu_seconds;
done:
    free(wall);
    free(cpu);
    hg_detector_free(d);
    hg_pairs_clear(&pairs);
    hg_cost_clear(&cost);
    if (st)
        hg_validate_run_clear(r);
    return st;
}

static void add_note(hg_validation *v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void add_note(hg_validation *v, const char *fmt, ...)
{
    if (v->n_notes >= HG_VALIDATE_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->notes[v->n_notes++], HG_VALIDATE_NOTE_LEN, fmt, ap);
    va_end(ap);
}

/* Sizes for the box of p: rounded to whole cells on a periodic cube (see
 * hg_validate_particles), equal rounded sizes merged; *L in: given, out:
 * kept. Refuses a periodic box with fewer than 3 cells per edge. */
static int box_sizes(const hg_psd *psd, const hg_validate_params *prm,
                     const hg_particles *p, int generated, double *out,
                     int *L, hg_validation *v, hg_err *e)
{
    const int L0 = *L;
    const double *sizes = prm->sizes;
    double A = whole_base(p);
    int st;
    if (!(A > 0.0)) {
        memcpy(out, sizes, (size_t)L0 * sizeof *sizes);
        return HG_OK;
    }
    const double s = largest_size(psd, L0, sizes);
    double k = s <= A ? cells_per_edge(A, s) : 0.0;
    /* given particles with their measured structure: the model counts a
     * short periodic level as the grid visits it (models/hgrid.c) */
    int measured = !generated && prm->sys.structure == HG_STRUCTURE_MEASURED;
    if (measured && k < 1.0)
        return hg_fail(e, HG_EINVAL,
                       "validate: the periodic box edge %.6g is shorter "
                       "than the cell size %.6g",
                       A, s);
    if (k < 3.0 && !measured) {
        /* N ~ A^d at the same packing fraction */
        double need = ceil((double)p->n * pow(3.0 * s / A, p->dim));
        size_t nmin = 0;
        if (generated)
            hg_validate_min_particles(psd, &prm->sys, L0, sizes, &nmin,
                                      NULL);
        if (nmin > 0)
            need = (double)nmin;
        return hg_fail(e, HG_EINVAL,
                       "validate: the periodic box (edge %.6g, N = %zu) "
                       "holds %.0f cell(s) of size %.6g per edge; with fewer "
                       "than 3 the stencil would meet cells twice (the "
                       "bundled HGrid visits each once, the cost model "
                       "does not describe that); %s %.0f",
                       A, p->n, k, s,
                       generated ? "use --n" : "use a packing of N >=",
                       need);
    }
    if ((st = hg_pack_round_sizes(A, L0, sizes, out, e)))
        return st;
    v->rounded = 1;
    int n = 0;
    for (int h = 0; h < L0; h++) {
        if (n > 0 && out[h] == out[n - 1]) {
            add_note(v, "cell sizes %.6g and %.6g both round to %.6g (%.0f "
                     "whole cells per box edge): merged into one level",
                     sizes[h - 1], sizes[h], out[h],
                     cells_per_edge(A, sizes[h]));
            continue;
        }
        out[n++] = out[h];
    }
    *L = n;
    return HG_OK;
}

/* Caveats of the verdict: spread of the timings, speed-up off the
 * prediction by more than a factor 2 (K). */
void hg_validate_timing_notes(const hg_validate_params *prm, hg_validation *v)
{
    const hg_validate_run *r[2] = {&v->hgrid, &v->linked_cell};
    const char *name[2] = {"HGrid", "linked cell"};
    for (int i = 0; i < (v->has_baseline && !v->same_grid ? 2 : 1); i++) {
        double spread = (r[i]->seconds_max - r[i]->seconds_min) /
                        r[i]->seconds;
        if (r[i]->repeats > 1 && spread > 0.5)
            add_note(v, "%s detection times vary by %.0f %% over %d repeats "
                     "(%.3g-%.3g s, median %.3g s): the machine is busy; "
                     "use more --repeats or a quiet machine before trusting "
                     "the speed-up",
                     name[i], 100.0 * spread, r[i]->repeats,
                     r[i]->seconds_min, r[i]->seconds_max, r[i]->seconds);
        else if (r[i]->repeats == 1)
            add_note(v, "%s timed once: a single timing is noisy (use "
                     "--repeats 5 or more)", name[i]);
    }
    if (!v->has_baseline)
        return;
    double q = v->measured_speedup / v->predicted_speedup;
    if (!(q < 0.5 || q > 2.0))
        return;
    char kdesc[64];
    double K = v->hgrid.predicted_T_ca > 0.0
                   ? (v->hgrid.predicted_T - v->hgrid.predicted_T_cd) /
                         v->hgrid.predicted_T_ca
                   : NAN;
    if (prm->K_choice)
        snprintf(kdesc, sizeof kdesc, "K = %.4g (%s)", prm->K_choice->K,
                 hg_K_source_name(prm->K_choice->source));
    else
        snprintf(kdesc, sizeof kdesc, "K = %.4g", K);
    const hg_validate_run *h = &v->hgrid, *l = &v->linked_cell;
    double wq[4] = {h->measured_T_cd / h->predicted_T_cd,
                    h->measured_T_ca / h->predicted_T_ca,
                    l->measured_T_cd / l->predicted_T_cd,
                    l->measured_T_ca / l->predicted_T_ca};
    int work_ok = 1;
    for (int i = 0; i < 4; i++)
        work_ok &= fabs(wq[i] - 1.0) < 0.1;
    add_note(v, "measured speed-up %.3g is %.3g times %s than the predicted "
             "%.3g; %s, so the likely cause is %s: on this machine a cell "
             "access costs a different number of pair checks. Measure it "
             "with `hgridopt calibrate --dim %d --save` (the bundled HGrid "
             "then uses it by default) or try another --K",
             v->measured_speedup, q < 1.0 ? 1.0 / q : q,
             q < 1.0 ? "smaller" : "larger", v->predicted_speedup,
             work_ok ? "the counted work matches the model (within 10 %)"
                     : "the counted work deviates from the model too",
             kdesc, prm->sys.dim);
}

/* Particles with a non-periodic axis (walls, a free surface) are measured
 * in a periodic box padded along those axes with empty space wider than
 * any search reaches (3 s_L + 2 r_max): no pair and no search crosses the
 * seam, and the cells go on beyond a wall as LAMMPS' bins over its ghost
 * region and MercuryDPM's hashed cells do, so cell accesses are the
 * model's whatever the boundary; what walls and surfaces change is the
 * pair checks, which the measured structure predicts. The padded edges are
 * whole multiples of the periodic edges when those are equal (of the
 * widest padded extent when no axis is periodic), so sizes round to whole
 * cells on every axis. */
static int pad_box(const hg_particles *p, const hg_psd *psd, int L,
                   const double *sizes, hg_particles *q, hg_err *e)
{
    return hg_particles_pad_periodic(
        p, 3.0 * largest_size(psd, L, sizes) + 2.0 * hg_particles_rmax(p), q,
        e);
}

/* to, released first, a copy of from with its own arrays */
static int run_copy(const hg_validate_run *from, hg_validate_run *to,
                    hg_err *e)
{
    hg_validate_run_clear(to);
    *to = *from;
    to->sizes = malloc(sizeof *to->sizes * (size_t)from->levels);
    to->per_level = malloc(sizeof *to->per_level * (size_t)from->levels);
    if (!to->sizes || !to->per_level) {
        free(to->sizes);
        free(to->per_level);
        memset(to, 0, sizeof *to);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    memcpy(to->sizes, from->sizes, sizeof *to->sizes * (size_t)from->levels);
    memcpy(to->per_level, from->per_level,
           sizeof *to->per_level * (size_t)from->levels);
    return HG_OK;
}

/* A count too small to judge: the pair checks behind a ratio of measured
 * to predicted work (in total and per level) and the contacts are counts,
 * whose relative error is about 1/sqrt(count) (counting statistics); a
 * ratio is judged within 10 % at two standard errors from
 * HG_VALIDATE_ENOUGH = (2 / 0.1)^2 = 400 counted on. One note per run:
 * its smallest count below that, and the particles N that would give
 * HG_VALIDATE_ENOUGH (counts grow in proportion to N). */
static void count_note(hg_validation *v, const char *name,
                       const hg_validate_run *r)
{
    double n = r->extrapolated ? (double)r->searched : (double)v->n;
    double least = r->measured_T_cd * n, ratio = r->measured_T_cd /
                                                   r->predicted_T_cd;
    int level = 0;
    for (int h = 0; r->levels > 1 && h < r->levels; h++) {
        const hg_validate_level *l = &r->per_level[h];
        double c = l->measured_T_cd * n;
        if (l->predicted_T_cd > 0.0 && c < least) {
            least = c;
            level = h + 1;
            ratio = l->measured_T_cd / l->predicted_T_cd;
        }
    }
    if (!(least < HG_VALIDATE_ENOUGH) || !(n > 0.0))
        return;
    char where[32] = "";
    if (level)
        snprintf(where, sizeof where, " on level %d", level);
    double need = ceil(v->n * HG_VALIDATE_ENOUGH / fmax(least, 1.0));
    char rt[48] = "any ratio (none: 0 predicted)";
    if (isfinite(ratio))
        snprintf(rt, sizeof rt, "its ratio %.4g", ratio);
    add_note(v, "%s: only %.0f pair checks counted%s, too few to judge %s "
             "(counting error ~1/sqrt(count) = %.0f %%); %d are "
             "enough (within 10 %% at 2 sigma): about N = %.0f particles",
             name, least, where, rt,
             100.0 / sqrt(fmax(least, 1.0)), HG_VALIDATE_ENOUGH, need);
}

static void count_notes(hg_validation *v)
{
    count_note(v, "HGrid", &v->hgrid);
    if (v->has_baseline && !v->same_grid)
        count_note(v, "linked cell", &v->linked_cell);
    if (v->has_bin)
        count_note(v, "bin", &v->bin);
    double c = v->hgrid.contacts;
    if (c > 0.0 && c < HG_VALIDATE_ENOUGH && !v->hgrid.extrapolated)
        add_note(v, "only %.0f contacts: the contacts per particle (%.3g) "
                 "have a counting error of ~%.0f %% (1/sqrt(count)); %d "
                 "contacts (about N = %.0f particles) are enough to judge "
                 "them within 10 %%",
                 c, 2.0 * c / (double)v->n, 100.0 / sqrt(c),
                 HG_VALIDATE_ENOUGH,
                 ceil(v->n * HG_VALIDATE_ENOUGH / c));
}

static int validate_particles(const hg_psd *psd,
                              const hg_validate_params *prm,
                              const hg_particles *p, int generated,
                              hg_validation *out, hg_err *e)
{
    double *rs = NULL;
    hg_cost ch = {0}, cl = {0};
    meas mh = {0}, ml = {0};
    int st, L;
    memset(out, 0, sizeof *out);
    if ((st = check_params(psd, prm, e)))
        return st;
    /* the prediction of what is timed here, the detection: without the
     * tables' rebuild term of the bundled grid's models (C) */
    hg_validate_params det = *prm;
    if ((st = hg_model_values_set(&det.values, "C", 0.0, e)))
        return st;
    prm = &det;
    if (!p || p->n == 0)
        return hg_fail(e, HG_EINVAL, "particles: none to search");
    hg_measure_options full = prm->measure;
    if ((st = meas_check(prm->model, psd, &prm->sys, p, prm->sizes, &full,
                         e)))
        return st;
    out->n = p->n;
    out->seed = prm->seed;
    out->box_edge = p->hi[0] - p->lo[0];
    out->measured_nu = hg_particles_packing_fraction(p);
    out->requested_levels = L = prm->L;
    rs = malloc((size_t)prm->L * sizeof *rs);
    if (!rs)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    if ((st = box_sizes(psd, prm, p, generated, rs, &L, out, e)))
        goto fail;
    out->merged_levels = prm->L - L;
    full.budget = 0.0; /* the HGrid always searches every particle */
    const hg_algorithm alg = prm->model->grid_algorithm;
    if ((st = meas_run_init(prm->model, psd, &prm->sys, &prm->values, L, rs,
                            &ch, &out->hgrid, e)) ||
        (st = meas_prepare(&mh, p, alg, L, rs, ch.T_cd + ch.T_ca, &full,
                           &out->hgrid.build_seconds,
                           &out->hgrid.first_build_seconds, e)))
        goto fail;
    double lc = 2.0 * hg_psd_rmax(psd);
    /* the HGrid of one level of the linked cell's size is the linked
     * cell: one grid, timed once */
    int same = 0;
    if (prm->baseline) {
        hg_validate_params one = *prm;
        one.L = 1;
        one.sizes = &lc;
        int L1 = 1;
        if ((st = box_sizes(psd, &one, p, generated, &lc, &L1, out, e)))
            goto fail;
        same = L == 1 && fabs(rs[0] - lc) <= 1e-9 * lc;
        if ((st = meas_run_init(prm->model, psd, &prm->sys, &prm->values, 1,
                                &lc, &cl, &out->linked_cell, e)) ||
            (!same &&
             (st = meas_prepare(&ml, p, alg, 1, &lc, cl.T_cd + cl.T_ca,
                                &prm->measure,
                                &out->linked_cell.build_seconds,
                                &out->linked_cell.first_build_seconds, e))))
            goto fail;
    }
    const int two = prm->baseline && !same; /* two grids timed */
    /* alternate the two (and their order) so both see the same load */
    const hg_measure_options *po = &prm->measure;
    for (int k = 0; k < full.repeats; k++) {
        meas *first = two && k % 2 ? &ml : &mh;
        meas *second = first == &mh ? &ml : &mh;
        if ((st = meas_sample(first, e)))
            goto fail;
        if (two && (st = meas_sample(second, e)))
            goto fail;
        if (po->progress)
            po->progress(prm->baseline ? "hgrid and linked cell" : "hgrid",
                         (k + 1.0) / full.repeats, po->progress_params);
    }
    double *ratio = NULL;
    if (same) {
        out->measured_speedup = out->speedup_min = out->speedup_max = 1.0;
        out->measured_speedup_cpu = 1.0;
    } else if (prm->baseline) {
        ratio = malloc((size_t)full.repeats * sizeof *ratio);
        if (!ratio) {
            st = hg_fail(e, HG_ENOMEM, "out of memory");
            goto fail;
        }
        for (int k = 0; k < full.repeats; k++)
            ratio[k] = ml.wall[k] / mh.wall[k];
        out->measured_speedup = meas_median(ratio, full.repeats);
        out->speedup_min = ratio[0];
        out->speedup_max = ratio[full.repeats - 1];
        for (int k = 0; k < full.repeats; k++)
            ratio[k] = ml.cpu[k] / mh.cpu[k];
        out->measured_speedup_cpu = meas_median(ratio, full.repeats);
        free(ratio);
    }
    if ((st = meas_finish(&mh, &ch, &out->hgrid, e)))
        goto fail;
    if (prm->baseline) {
        if ((st = same ? run_copy(&out->hgrid, &out->linked_cell, e)
                       : meas_finish(&ml, &cl, &out->linked_cell, e)))
            goto fail;
        out->has_baseline = 1;
        out->same_grid = same;
        if (same)
            add_note(out, "the HGrid of one level (cells of %.6g) is "
                     "the linked cell: the same grid, timed once (speed-up "
                     "1, predicted %.4g)", lc,
                     out->linked_cell.predicted_T / out->hgrid.predicted_T);
        out->predicted_speedup =
            out->linked_cell.predicted_T / out->hgrid.predicted_T;
        if ((st = measure_bin(psd, prm, p, out, e)))
            goto fail;
    }
    hg_validate_timing_notes(prm, out);
    count_notes(out);
    meas_clear(&mh);
    meas_clear(&ml);
    hg_cost_clear(&ch);
    hg_cost_clear(&cl);
    free(rs);
    return HG_OK;
fail:
    meas_clear(&mh);
    meas_clear(&ml);
    hg_cost_clear(&ch);
    hg_cost_clear(&cl);
    free(rs);
    hg_validation_clear(out);
    return st;
}

/* The runs of v whose counts are averaged over offsets. */
static hg_validate_run *offset_run(hg_validation *v, int k)
{
    return k == 0   ? &v->hgrid
           : k == 1 ? (v->has_baseline ? &v->linked_cell : NULL)
                    : (v->has_bin ? &v->bin : NULL);
}

/* The counts of out (made on q, offset 0) averaged with those of the grid
 * shifted by j s_L / HG_VALIDATE_OFFSETS along p's non-periodic axes. */
static int offset_counts(const hg_psd *psd, const hg_validate_params *prm,
                         const hg_particles *p, hg_particles *q,
                         hg_validation *out, hg_err *e)
{
    out->padded = 1;
    out->offsets = 1;
    for (int k = 0; k < 3; k++) {
        const hg_validate_run *r = offset_run(out, k);
        out->offset_T_cd_min[k] = out->offset_T_cd_max[k] =
            r ? r->measured_T_cd : NAN;
    }
    const int n_offsets = HG_VALIDATE_OFFSETS;
    double step = largest_size(psd, prm->L, prm->sizes) / n_offsets;
    hg_validate_params one = *prm;
    one.measure.repeats = 1;
    one.measure.progress = NULL;
    int st = HG_OK;
    for (int j = 1; j < n_offsets && st == HG_OK; j++) {
        for (int c = 0; c < p->dim; c++)
            if (!hg_particles_axis_periodic(p, c)) {
                q->lo[c] -= step;
                q->hi[c] -= step;
            }
        hg_validation w;
        if ((st = validate_particles(psd, &one, q, 0, &w, e)))
            break;
        for (int k = 0; k < 3; k++) {
            hg_validate_run *a = offset_run(out, k);
            const hg_validate_run *b = offset_run(&w, k);
            if (!a || !b || a->levels != b->levels)
                continue;
            a->measured_T_cd += b->measured_T_cd;
            a->measured_T_ca += b->measured_T_ca;
            for (int h = 0; h < a->levels; h++) {
                a->per_level[h].measured_T_cd += b->per_level[h].measured_T_cd;
                a->per_level[h].measured_T_ca += b->per_level[h].measured_T_ca;
            }
            out->offset_T_cd_min[k] =
                fmin(out->offset_T_cd_min[k], b->measured_T_cd);
            out->offset_T_cd_max[k] =
                fmax(out->offset_T_cd_max[k], b->measured_T_cd);
        }
        out->offsets++;
        hg_validation_clear(&w);
    }
    for (int k = 0; k < 3 && st == HG_OK; k++) {
        hg_validate_run *a = offset_run(out, k);
        if (!a)
            continue;
        double n_done = out->offsets;
        a->measured_T_cd /= n_done;
        a->measured_T_ca /= n_done;
        for (int h = 0; h < a->levels; h++) {
            a->per_level[h].measured_T_cd /= n_done;
            a->per_level[h].measured_T_ca /= n_done;
        }
        double K = a->predicted_T_ca > 0.0
                       ? (a->predicted_T - a->predicted_T_cd) /
                             a->predicted_T_ca
                       : 0.0;
        a->measured_T = a->measured_T_cd + K * a->measured_T_ca;
    }
    return st;
}

int hg_validate_particles(const hg_psd *psd, const hg_validate_params *prm,
                          const hg_particles *p, hg_validation *out,
                          hg_err *e)
{
    int st;
    if (!p || p->periodic)
        return validate_particles(psd, prm, p, 0, out, e);
    memset(out, 0, sizeof *out);
    if ((st = check_params(psd, prm, e)))
        return st;
    hg_particles q = {0};
    if ((st = pad_box(p, psd, prm->L, prm->sizes, &q, e)) == HG_OK)
        st = validate_particles(psd, prm, &q, 0, out, e);
    if (st == HG_OK)
        st = offset_counts(psd, prm, p, &q, out, e);
    hg_particles_clear(&q);
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
    /* refuse a box too small before making a packing (hard spheres take
     * time to pack); box_sizes checks the packing made */
    size_t nmin = 0;
    if (hg_validate_min_particles(psd, &prm->sys, prm->L, prm->sizes, &nmin,
                                  NULL) == HG_OK &&
        prm->n < nmin) {
        double s = largest_size(psd, prm->L, prm->sizes);
        double A = hg_pack_box_edge(psd, prm->sys.dim, prm->n, prm->sys.nu);
        return hg_fail(e, HG_EINVAL,
                       "validate: the periodic box (edge %.6g, N = %zu) "
                       "holds %.0f cell(s) of size %.6g per edge; with fewer "
                       "than 3 the stencil would meet cells twice (the "
                       "bundled HGrid visits each once, the cost model does "
                       "not describe that); use --n %zu",
                       A, prm->n, s <= A ? cells_per_edge(A, s) : 0.0, s,
                       nmin);
    }
    hg_pack_params pp = {prm->sys.dim, prm->n, prm->sys.nu, prm->seed, 1};
    /* the packing must have the structure the model predicts for: hard
     * spheres measured on overlapping centres would be silently wrong */
    hg_pack_options po;
    hg_pack_options_init(&po);
    po.progress = prm->measure.progress;
    po.progress_params = prm->measure.progress_params;
    hg_pack_choice ch;
    hg_pack_report rep;
    if ((st = hg_pack_structure_run(psd, &pp, prm->sys.structure, &po, &p,
                                    &rep, &ch, e)))
        return st;
    st = validate_particles(psd, prm, &p, 1, out, e);
    out->pack_seconds = rep.seconds;
    out->generator = ch.generator;
    snprintf(out->generator_why, sizeof out->generator_why, "%s", ch.why);
    out->max_overlap = rep.max_overlap;
    hg_particles_clear(&p);
    return st;
}
