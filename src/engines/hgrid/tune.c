/* tune.c - `tune` of the bundled HGrid (the hgrid engine's tune
 * hook): a measured search from the recommendation, timing grid build
 * plus detection in this process (hg_bench_run; the first build of each
 * candidate, with its allocation, untimed), candidates alternated
 * within each round and repeated, paired medians compared. */
#include "process.h"
#include "hg_bench.h"
#include "hg_calib.h"
#include "hg_engine.h"
#include "hg_opt.h"
#include "hg_version.h"
#include "hgrid_engine.h"

#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SLOW: a candidate over SLOW times the fastest of a measurement's first
 * repeat is timed in that repeat only. FINAL: the final side-by-side run
 * of three takes FINAL times the rounds' repeats: its answer is the one
 * reported, and with 7 paired repeats the ratio of two grids equally fast
 * read above 1.05 in one system of eight per benchmark run (a grid against
 * itself with an empty level added) */
enum { MAX_CAND = 24, MAX_L = 16, MAX_REP = 99, SLOW = 8, FINAL = 3 };
/* and takes over SLOW_SECONDS: a timing of a few milliseconds can read 8
 * times its median when the scheduler gives the CPU to another process
 * (measured with two busy processes on the two CPUs: the recommendation
 * read 8.0 ms in one repeat, 0.6 in the others) */
#define SLOW_SECONDS 0.05

typedef struct cand {
    hg_algorithm alg;
    int L;
    double sizes[MAX_L];
    double T;             /* the model's work per particle */
    double t[MAX_REP];    /* measured seconds, one per repeat */
    int nt;
    int once;             /* timed in the first repeat only (SLOW) */
    int keep_once;        /* so from the start: the model puts it over
                             SLOW times the recommendation (the one-level
                             default of a wide distribution); then it does
                             not depend on how fast the others' first
                             repeat happened to be */
    double spent;         /* wall seconds of its timings */
    double median, lo, hi;
} cand;

typedef struct tune_ctx {
    const hg_engine_run *run;
    const hg_particles *p;
    const hg_psd *psd;
    hg_system sys;
    hg_model_values values;
    double dmax;
    double *diam;         /* the particles' diameters, ascending */
    size_t n_diam;
    int measured;         /* candidate timings done */
    double fast_s;        /* seconds and count of the timings of */
    int fast_n;           /* candidates timed in every repeat */
    double slow_s;        /* the longest timing of one timed once */
    double rec_T;         /* the recommendation's T (0: not known yet) */
    double lc_ratio;      /* the default's predicted time over the
                             recommendation's, when left out of the search */
    double t0;            /* wall seconds at the start */
    int max_L;            /* most levels of a candidate */
    int final_reps;       /* repeats of the final run */
} tune_ctx;

static const hg_model *model_of(hg_algorithm a)
{
    return hg_model_for_grid(a);
}

/* The model's T of c (sizes sorted, top level at least dmax). */
static int settle(tune_ctx *x, cand *c, hg_err *e)
{
    for (int i = 1; i < c->L; i++) /* insertion sort */
        for (int j = i; j > 0 && c->sizes[j] < c->sizes[j - 1]; j--) {
            double t = c->sizes[j];
            c->sizes[j] = c->sizes[j - 1];
            c->sizes[j - 1] = t;
        }
    if (c->sizes[c->L - 1] < x->dmax)
        c->sizes[c->L - 1] = x->dmax;
    /* a level no particle is on is only a table to sweep: dropped */
    int k = 0;
    size_t below = 0;
    for (int h = 0; h < c->L; h++) {
        size_t upto = h == c->L - 1 ? x->n_diam
                                    : hg_count_le(x->diam, x->n_diam,
                                                  c->sizes[h]);
        if (upto > below || h == c->L - 1)
            c->sizes[k++] = c->sizes[h];
        below = upto > below ? upto : below;
    }
    c->L = k;
    hg_cost cost = {0};
    int st = hg_cost_evaluate(model_of(c->alg), x->psd, &x->sys, &x->values,
                              c->L, c->sizes, &cost, NULL, e);
    c->T = st ? NAN : cost.T;
    hg_cost_clear(&cost);
    return st;
}

/* The cell sizes of c's occupied levels (level h holds the diameters in
 * (s_{h-1}, s_h], as the grid assigns them), ascending; their count. */
static int occupied_sizes(const tune_ctx *x, const cand *c, double *out)
{
    double s[MAX_L];
    memcpy(s, c->sizes, sizeof s[0] * (size_t)c->L);
    qsort(s, (size_t)c->L, sizeof s[0], hg_cmp_double);
    int k = 0;
    size_t below = 0;
    for (int h = 0; h < c->L; h++) {
        size_t upto = h == c->L - 1 ? x->n_diam
                                    : hg_count_le(x->diam, x->n_diam, s[h]);
        if (upto > below)
            out[k++] = s[h];
        below = upto;
    }
    return k;
}

/* a and b are the same grid: the same cell size for every particle, and
 * the same algorithm where more than one level is occupied (a level
 * without particles adds nothing to time but its table) */
static int same(const tune_ctx *x, const cand *a, const cand *b)
{
    double sa[MAX_L], sb[MAX_L];
    int ka = occupied_sizes(x, a, sa), kb = occupied_sizes(x, b, sb);
    if (ka != kb || (ka > 1 && a->alg != b->alg))
        return 0;
    for (int i = 0; i < ka; i++) {
        if (fabs(sa[i] - sb[i]) <= 1e-9 * sb[i])
            continue;
        /* in a periodic box: the same whole cells per edge */
        if (!x->p->periodic)
            return 0;
        for (int c = 0; c < x->p->dim; c++) {
            double A = x->p->hi[c] - x->p->lo[c];
            if (floor(A / sa[i]) != floor(A / sb[i]))
                return 0;
        }
    }
    return 1;
}

/* Add c to list (n of cap) unless it is there or invalid. */
static void push(tune_ctx *x, cand *list, int *n, int cap, cand c)
{
    hg_err e = {0};
    if (*n >= cap || c.L < 1 || c.L > MAX_L || settle(x, &c, &e) ||
        !isfinite(c.T))
        return;
    for (int i = 0; i < *n; i++)
        if (same(x, &list[i], &c))
            return;
    c.nt = 0;
    c.keep_once = x->rec_T > 0.0 && c.T > SLOW * x->rec_T;
    list[(*n)++] = c;
}

/* Time every candidate reps times, rotating the order each repeat;
 * medians into the candidates. A candidate the model puts over SLOW
 * times the recommendation, or that measures over SLOW times the fastest
 * and over SLOW_SECONDS in the first repeat (the one-level default of a
 * wide size distribution, say: seconds where the others take
 * milliseconds), is not timed again: its one time is its median (so it
 * still wins if it is the fastest), and the budget goes to the
 * candidates that can win. */
static int measure(tune_ctx *x, cand *list, int n, int reps, hg_err *e)
{
    const hg_engine_run *run = x->run;
    if (reps > MAX_REP)
        reps = MAX_REP;
    int done = 0, total = reps * n;
    for (int i = 0; i < n; i++) {
        list[i].nt = 0;
        list[i].once = list[i].keep_once;
        list[i].spent = 0.0;
        if (list[i].once)
            total -= reps - 1;
    }
    for (int r = 0; r < reps; r++) {
        for (int k = 0; k < n; k++) {
            cand *c = &list[(k + r) % n];
            if (c->once && r > 0)
                continue;
            hg_bench_config bc;
            hg_bench_config_default(&bc);
            const char *name = c->alg == HG_TOP_DOWN ? "hgrid" : "hgrid-bu";
            bc.particles = x->p;
            bc.methods = &name;
            bc.n_methods = 1;
            bc.L = c->L;
            bc.sizes = c->sizes;
            bc.psd = x->psd;
            bc.sys = x->sys;
            bc.values = &x->values;
            bc.repeats = run->steps > 0 ? run->steps : 1;
            /* the steady state a simulation sees: the first build
             * (allocation, page faults; 2-20x a rebuild) untimed */
            bc.warmup = 1;
            bc.budget = 0.0;
            hg_bench_result br = {0};
            double w0 = hg_wall_seconds();
            int st = hg_bench_run(&bc, &br, e);
            c->spent += hg_wall_seconds() - w0;
            if (st == HG_OK && br.n_methods != 1)
                st = hg_fail(e, HG_EINVAL, "tune --engine hgrid: the "
                             "bundled HGrid cannot run this packing");
            if (st) {
                hg_bench_result_clear(&br);
                return st;
            }
            c->t[c->nt++] = br.methods[0].time;
            hg_bench_result_clear(&br);
            x->measured++;
            if (run->progress)
                run->progress(++done, total, run->progress_params);
        }
        if (r == 0 && reps > 1) {
            /* by time as well: where the model was wrong */
            double fastest = list[0].t[0];
            for (int i = 1; i < n; i++)
                fastest = fmin(fastest, list[i].t[0]);
            for (int i = 0; i < n; i++)
                if (!list[i].once && list[i].t[0] > SLOW * fastest &&
                    list[i].t[0] > SLOW_SECONDS) {
                    list[i].once = 1;
                    total -= reps - 1;
                }
        }
    }
    for (int i = 0; i < n; i++)
        if (list[i].once)
            x->slow_s = fmax(x->slow_s, list[i].spent);
        else {
            x->fast_s += list[i].spent;
            x->fast_n += list[i].nt;
        }
    /* paired medians of the candidates timed in every repeat (the
     * machine's speed drifts between repeats, the ratio of two candidates
     * timed in one repeat holds): the first one's median times the median
     * of each one's ratio to it per repeat */
    double *tt = malloc(sizeof *tt * (size_t)(n * reps)),
           *med = malloc(sizeof *med * (size_t)n);
    int st = !tt || !med ? hg_fail(e, HG_ENOMEM, "out of memory") : HG_OK;
    int nk = 0;
    for (int i = 0; st == HG_OK && i < n; i++)
        if (!list[i].once)
            memcpy(tt + (size_t)(nk++) * (size_t)reps, list[i].t,
                   sizeof *tt * (size_t)reps);
    if (st == HG_OK)
        st = hg_code_paired_medians(tt, nk, reps, med, e);
    for (int i = 0, k = 0; st == HG_OK && i < n; i++) {
        cand *c = &list[i];
        c->lo = c->hi = c->t[0];
        for (int r = 1; r < c->nt; r++) {
            c->lo = fmin(c->lo, c->t[r]);
            c->hi = fmax(c->hi, c->t[r]);
        }
        c->median = c->once ? c->t[0] : med[k++];
    }
    free(tt);
    free(med);
    return st;
}

/* Quartiles of a's time over b's in each repeat both were timed in (b the
 * fastest of the final run, a the recommendation) into r. */
static void ratio_quartiles(const cand *a, const cand *b,
                            hg_engine_report *r)
{
    r->ratio_repeats = 0;
    if (a->once || b->once || a->nt != b->nt || a->nt < 2)
        return;
    double q[MAX_REP];
    for (int k = 0; k < a->nt; k++)
        q[k] = a->t[k] / b->t[k];
    gsl_sort(q, 1, (size_t)a->nt);
    r->ratio_q1 = gsl_stats_quantile_from_sorted_data(q, 1, (size_t)a->nt,
                                                      0.25);
    r->ratio_q3 = gsl_stats_quantile_from_sorted_data(q, 1, (size_t)a->nt,
                                                      0.75);
    r->ratio_repeats = a->nt;
}

/* The model's optimum with L levels for algorithm a (warm start from
 * geometric sizes). */
static int optimum(tune_ctx *x, hg_algorithm a, int L, cand *c, hg_err *e)
{
    double start[MAX_L];
    memset(c, 0, sizeof *c);
    c->alg = a;
    c->L = L;
    int st = hg_sizes_exponential(x->psd, L, start, e);
    if (st == HG_OK)
        st = hg_opt_sizes(model_of(a), x->psd, &x->sys, &x->values, L, start,
                          c->sizes, &c->T, e);
    return st;
}

static void describe(const cand *c, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "%s, %d level%s (sizes",
                                c->alg == HG_TOP_DOWN ? "top-down"
                                                      : "bottom-up",
                                c->L, c->L == 1 ? "" : "s");
    for (int i = 0; i < c->L && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, " %.6g", c->sizes[i]);
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

static int add_point(hg_engine_report *r, const char *role, int is_default,
                     const cand *c, double per_check, size_t N, hg_err *e)
{
    hg_engine_point *q = hg_engine_report_add(r, role, e);
    if (!q)
        return HG_ENOMEM;
    q->is_default = is_default;
    describe(c, q->setting, sizeof q->setting);
    if (c->once) {
        size_t used = strlen(q->setting);
        snprintf(q->setting + used, sizeof q->setting - used,
                 c->keep_once ? ", timed once: the model puts it over %dx "
                                "the recommendation"
                              : ", timed once: over %dx the fastest",
                 SLOW);
    }
    q->levels = c->L;
    memcpy(q->sizes, c->sizes, sizeof c->sizes[0] * (size_t)c->L);
    char text[512];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "algorithm %s\nlevels %d\nsizes",
                                c->alg == HG_TOP_DOWN ? "top-down"
                                                      : "bottom-up",
                                c->L);
    for (int i = 0; i < c->L && n < sizeof text; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s%.9g",
                              i ? "," : " ", c->sizes[i]);
    if (n < sizeof text)
        snprintf(text + n, sizeof text - n, "\n");
    q->lines = strdup(text);
    if (!q->lines)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    q->predicted = c->T * (double)N * per_check;
    q->measured = c->median;
    q->measured_min = c->lo;
    q->measured_max = c->hi;
    return HG_OK;
}

/* The packing the grid is built on. With walls or a free surface beside
 * periodic axes (a poured bed, "p p f"), *mixed is set: the grid takes a
 * box periodic on every axis or on none, so the open axes are padded into
 * *padded, as validate does, with more than any candidate's search reaches
 * (top cells up to twice the largest diameter). */
static int tune_packing(tune_ctx *x, hg_particles *padded, int *mixed,
                        hg_err *e)
{
    *mixed = 0;
    for (int a = 0; !x->p->periodic && a < x->p->dim; a++)
        *mixed |= hg_particles_axis_periodic(x->p, a);
    if (!*mixed)
        return HG_OK;
    double rmax = hg_particles_rmax(x->p);
    int st = hg_particles_pad_periodic(x->p, 14.0 * rmax, padded, e);
    if (st == HG_OK)
        x->p = padded;
    return st;
}

/* What the model takes: the distribution (the run's, else the packing's
 * radii, then owned by *own), the system (the run's, else the packing's
 * dimension at nu 0.3), the largest diameter, and K (its choice in *kc). */
static int tune_model_inputs(tune_ctx *x, hg_psd **own, hg_K_choice *kc,
                             hg_err *e)
{
    const hg_engine_run *run = x->run;
    int st;
    if (run->psd)
        x->psd = run->psd;
    else if ((st = hg_psd_from_radii(x->p->r, x->p->n, x->p->dim, own, e)))
        return st;
    else
        x->psd = *own;
    if (run->sys)
        x->sys = *run->sys;
    else {
        x->sys.dim = x->p->dim;
        x->sys.nu = 0.3;
    }
    x->dmax = 2.0 * hg_psd_rmax(x->psd);
    hg_K_request kr = {.engine = &hg_engine_hgrid, .dim = x->sys.dim};
    if ((st = hg_K_resolve(&kr, kc, e)))
        return st;
    return hg_K_values_set(kc, &x->values, e);
}

/* The particles' diameters, ascending, into x->diam. */
static int sorted_diameters(tune_ctx *x, hg_err *e)
{
    x->n_diam = x->p->n;
    x->diam = malloc(sizeof *x->diam * (x->n_diam ? x->n_diam : 1));
    if (!x->diam)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    for (size_t i = 0; i < x->n_diam; i++)
        x->diam[i] = 2.0 * x->p->r[i];
    qsort(x->diam, x->n_diam, sizeof *x->diam, hg_cmp_double);
    return HG_OK;
}

/* The recommendation into *best (hg_recommend over both algorithms, a
 * grid even where one level is as good: the search starts from it). */
static int recommendation(tune_ctx *x, cand *best, hg_err *e)
{
    hg_recommend_options ro;
    hg_recommend_options_default(&ro);
    ro.max_levels = x->max_L;
    ro.grid_only = 1;
    hg_recommendation rec;
    int st = hg_recommend(x->psd, &x->sys, &x->values, &ro, &rec, e);
    if (st)
        return st;
    best->alg = rec.model->grid_algorithm == HG_BOTTOM_UP ? HG_BOTTOM_UP
                                                          : HG_TOP_DOWN;
    best->L = rec.levels < MAX_L ? rec.levels : MAX_L;
    memcpy(best->sizes, rec.cell_sizes,
           sizeof rec.cell_sizes[0] * (size_t)best->L);
    best->T = rec.cost.T;
    hg_recommendation_clear(&rec);
    return HG_OK;
}

/* The first round, timed: the recommendation, its other algorithm, the
 * model's optima with one level more and one fewer, and the one-level
 * default lc. The default is searched unless the model puts it over SLOW
 * times the recommendation (seconds where the others take milliseconds;
 * its ratio then into x->lc_ratio): the final run times it either way. */
static int first_round(tune_ctx *x, const cand *best, const cand *lc,
                       cand *list, int *n, hg_err *e)
{
    push(x, list, n, MAX_CAND, *best);
    x->rec_T = *n > 0 ? list[0].T : 0.0;
    cand c = *best;
    c.alg = best->alg == HG_TOP_DOWN ? HG_BOTTOM_UP : HG_TOP_DOWN;
    push(x, list, n, MAX_CAND, c);
    for (int d = -1; d <= 1; d += 2)
        if (best->L + d >= 1 && best->L + d <= x->max_L &&
            optimum(x, best->alg, best->L + d, &c, e) == HG_OK)
            push(x, list, n, MAX_CAND, c);
    int before = *n;
    push(x, list, n, MAX_CAND, *lc);
    if (*n > before && before > 0 && list[*n - 1].T > SLOW * list[0].T) {
        x->lc_ratio = list[*n - 1].T / list[0].T;
        (*n)--;
    }
    return measure(x, list, *n, x->run->repeats, e);
}

/* The candidates of a round into list (their count into *n): the
 * incumbent, each of its cell sizes times and over f, its other
 * algorithm, the widest gap split (below max_L levels) and the smallest
 * level dropped. */
static void neighbours(tune_ctx *x, const cand *inc, double f, cand *list,
                       int *n)
{
    cand c;
    *n = 0;
    push(x, list, n, MAX_CAND, *inc);
    for (int i = 0; i < inc->L; i++)
        for (int s = -1; s <= 1; s += 2) {
            c = *inc;
            c.sizes[i] *= s > 0 ? f : 1.0 / f;
            push(x, list, n, MAX_CAND, c);
        }
    c = *inc;
    c.alg = inc->alg == HG_TOP_DOWN ? HG_BOTTOM_UP : HG_TOP_DOWN;
    push(x, list, n, MAX_CAND, c);
    if (inc->L < x->max_L) { /* split the widest gap */
        c = *inc;
        int g = 0;
        double wide = inc->sizes[0] / (2.0 * hg_psd_rmin(x->psd));
        for (int i = 1; i < inc->L; i++)
            if (inc->sizes[i] / inc->sizes[i - 1] > wide) {
                wide = inc->sizes[i] / inc->sizes[i - 1];
                g = i;
            }
        double lo = g ? inc->sizes[g - 1] : 2.0 * hg_psd_rmin(x->psd);
        c.sizes[c.L++] = sqrt(lo * inc->sizes[g]);
        push(x, list, n, MAX_CAND, c);
    }
    if (inc->L > 1) { /* drop the smallest level */
        c = *inc;
        memmove(c.sizes, c.sizes + 1, sizeof c.sizes[0] * (size_t)(c.L - 1));
        c.L--;
        push(x, list, n, MAX_CAND, c);
    }
}

/* Rounds: the incumbent *inc and its neighbours, while the budget lasts
 * (a round costs about as long as the last one per candidate); a
 * neighbour 2 % faster becomes the incumbent, else the step f shrinks.
 * Each round counted in r->rounds. */
static int search_rounds(tune_ctx *x, cand *list, cand *inc,
                         hg_engine_report *r, hg_err *e)
{
    const hg_engine_run *run = x->run;
    double f = 1.3, last = hg_wall_seconds() - x->t0;
    int st = HG_OK;
    while (f > 1.04) {
        int n;
        neighbours(x, inc, f, list, &n);
        /* a timing of a candidate that can win, and the one-level
         * default again in the final run if it was too slow to repeat */
        double per = x->fast_n ? x->fast_s / x->fast_n
                               : last / (double)(x->measured ? x->measured
                                                             : 1);
        double spent = hg_wall_seconds() - x->t0;
        /* keep time for the final side-by-side run of three, with the
         * default's one timing there (measured, else predicted) */
        double slow = fmax(x->slow_s, per * x->lc_ratio);
        if (spent + per * (double)(n * run->repeats + 3 * x->final_reps) +
                slow >
            run->budget)
            break;
        if ((st = measure(x, list, n, run->repeats, e)))
            break;
        last = hg_wall_seconds() - x->t0;
        int win = 0;
        for (int i = 1; i < n; i++)
            if (list[i].median < list[win].median)
                win = i;
        if (win != 0 && list[win].median < 0.98 * list[0].median)
            *inc = list[win];
        else
            f = sqrt(f);
        r->rounds++;
    }
    return st;
}

/* Seconds per pair check: least squares through the origin of the
 * measured times on the model's work over the final run's nf. */
static double per_pair_check(const tune_ctx *x, const cand *fin, int nf)
{
    double sxy = 0.0, sxx = 0.0;
    for (int i = 0; i < nf; i++) {
        double w = fin[i].T * (double)x->p->n;
        sxy += w * fin[i].median;
        sxx += w * w;
    }
    return sxx > 0.0 ? sxy / sxx : NAN;
}

/* The report from the final run fin (nf of the code's default, the
 * model's optimum and the fastest found, want[] in that order): its
 * constants, the ratio's quartiles and the three points, the tuned one the
 * fastest of the final run. */
static int report_final(const tune_ctx *x, const hg_K_choice *kc,
                        const cand *fin, int nf, const cand *const want[3],
                        hg_engine_report *r, hg_err *e)
{
    double per_check = per_pair_check(x, fin, nf);
    snprintf(r->constants, sizeof r->constants,
             "K = %g (%.300s); %.3g ns per pair check fitted to these "
             "measurements",
             kc->K, kc->detail, 1e9 * per_check);
    int idx[3] = {0, 1, 1};
    for (int i = 0; i < nf; i++)
        for (int k = 0; k < 3; k++)
            if (same(x, &fin[i], want[k]))
                idx[k] = i;
    for (int i = 0; i < nf; i++)
        if (fin[i].median < fin[idx[2]].median)
            idx[2] = i;
    ratio_quartiles(&fin[idx[1]], &fin[idx[2]], r);
    r->point_repeats = x->final_reps;
    static const char *const role[3] = {"default", "recommended", "tuned"};
    int st = HG_OK;
    for (int i = 0; i < 3 && st == HG_OK; i++)
        st = add_point(r, role[i], i == 0, &fin[idx[i]], per_check, x->p->n,
                       e);
    r->recommended = 1;
    return st;
}

int hg_hgrid_tune(const hg_engine_run *run, hg_engine_report *r, hg_err *e)
{
    hg_engine_report_init(r);
    r->unit = "seconds per build and detection";
    if (run->n_packings < 1 || !run->packings[0])
        return hg_fail(e, HG_EINVAL, "tune --engine hgrid: no packing");
    tune_ctx x = {0};
    x.t0 = hg_wall_seconds();
    x.run = run;
    x.p = run->packings[0];
    hg_psd *own = NULL;
    hg_particles padded = {0};
    hg_K_choice kc;
    int mixed, st;
    if ((st = tune_packing(&x, &padded, &mixed, e)))
        return st;
    if ((st = tune_model_inputs(&x, &own, &kc, e))) {
        hg_psd_free(own);
        hg_particles_clear(&padded);
        return st;
    }
    snprintf(r->program, sizeof r->program, "the bundled HGrid (this "
             "process, %s)%s", hg_version_string(),
             mixed ? "; the open axes padded with empty space to a periodic "
                     "box"
                   : "");
    st = sorted_diameters(&x, e);
    x.max_L = run->max_levels < MAX_L ? run->max_levels : MAX_L;
    x.final_reps = FINAL * run->repeats < MAX_REP ? FINAL * run->repeats
                                                  : MAX_REP;
    cand best_model = {0};
    if (st == HG_OK)
        st = recommendation(&x, &best_model, e);
    cand lc = {0}; /* the code's default: one level of the largest diameter */
    lc.alg = HG_TOP_DOWN;
    lc.L = 1;
    lc.sizes[0] = x.dmax;
    cand list[MAX_CAND];
    int n = 0;
    if (st == HG_OK)
        st = first_round(&x, &best_model, &lc, list, &n, e);
    cand inc = n > 0 ? list[0] : lc;
    for (int i = 1; st == HG_OK && i < n; i++)
        if (list[i].median < inc.median)
            inc = list[i];
    r->rounds = st == HG_OK;
    if (st == HG_OK)
        st = search_rounds(&x, list, &inc, r, e);
    r->settings_measured = x.measured;
    /* the code's default, the model's optimum and the fastest found, side
     * by side */
    const cand *const want[3] = {&lc, &best_model, &inc};
    cand fin[3];
    int nf = 0;
    if (st == HG_OK) {
        for (int i = 0; i < 3; i++)
            push(&x, fin, &nf, 3, *want[i]);
        st = measure(&x, fin, nf, x.final_reps, e);
        r->settings_measured = x.measured;
    }
    if (st == HG_OK)
        st = report_final(&x, &kc, fin, nf, want, r, e);
    r->seconds = hg_wall_seconds() - x.t0;
    hg_engine_report_finish(r);
    free(x.diam);
    hg_psd_free(own);
    hg_particles_clear(&padded);
    return st;
}
