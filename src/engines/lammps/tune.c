/* tune.c - measuring neighbor settings in LAMMPS against the model:
 * the calibration grid and the measured search of `tune --engine lammps`.
 */
#include "hg_io.h"
#include "hg_lammps.h"
#include "hg_snapshot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int hg_lammps_system_of(const hg_particles *p, double skin, int nprocs,
                        hg_psd **psd, hg_lammps_system *sys, hg_err *e)
{
    hg_system s = {0};
    int st = hg_io_system_from_particles(p, psd, &s, e);
    if (st)
        return st;
    memset(sys, 0, sizeof *sys); /* cutoff_diameter 0: the radii's */
    sys->dim = s.dim;
    sys->nu = s.nu;
    sys->atoms = (double)p->n;
    sys->skin = skin;
    sys->nprocs = nprocs;
    sys->structure = HG_STRUCTURE_POISSON;
    sys->snapshot = NULL;
    sys->cutoff_diameter = 0.0;
    return hg_lammps_system_check(sys, e);
}

/* The structure of o for the model of p; measured: p's pair statistics
 * (*snap, freed by the caller) and the density its atoms experience. */
static int with_structure(const hg_particles *p, const hg_lammps_run_options *o,
                          hg_lammps_system *sys, hg_snapshot **snap,
                          hg_err *e)
{
    *snap = NULL;
    sys->structure = o->structure;
    if (o->structure != HG_STRUCTURE_MEASURED)
        return HG_OK;
    int st = hg_snapshot_create(p, snap, e);
    if (st)
        return st;
    sys->snapshot = *snap;
    double nu = hg_snapshot_get_info(*snap)->nu_local;
    if (nu > 0.0 && nu < 1.0)
        sys->nu = nu;
    return HG_OK;
}

int hg_lammps_measure(const hg_particles *p, const hg_lammps_setting *s,
                      int n, const hg_lammps_run_options *o,
                      const hg_consts *c, hg_lammps_point *out,
                      hg_err *e)
{
    hg_psd *psd = NULL;
    hg_lammps_system sys;
    hg_lammps_timing *t = calloc((size_t)(n > 0 ? n : 1), sizeof *t);
    if (!t)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    hg_snapshot *snap = NULL;
    int st = hg_lammps_system_of(p, o->skin, o->nprocs, &psd, &sys, e);
    if (st == HG_OK)
        st = with_structure(p, o, &sys, &snap, e);
    for (int i = 0; st == HG_OK && i < n; i++) {
        out[i].setting = s[i];
        st = hg_lammps_work_eval(psd, &sys, &s[i], &out[i].work, e);
        out[i].predicted = c ? hg_lammps_predict(c, &out[i].work) : 0.0;
    }
    if (st == HG_OK)
        st = hg_lammps_run(p, s, n, o, t, e);
    for (int i = 0; st == HG_OK && i < n; i++)
        out[i].timing = t[i];
    free(t);
    hg_psd_free(psd);
    hg_snapshot_free(snap);
    return st;
}

int hg_lammps_calibration_settings(const hg_psd *psd, hg_lammps_setting *out,
                                   int cap)
{
    double dmin = 2.0 * hg_psd_rmin(psd), dmax = 2.0 * hg_psd_rmax(psd);
    int k = 0;
    if (k < cap)
        out[k++] = (hg_lammps_setting){0};
    if (k < cap)
        out[k++] = (hg_lammps_setting){1, {dmax}};
    if (!(dmax > dmin * 1.05))
        return k;
    double w = log(dmax / dmin);
    for (int n = 2; n <= 4 && k < cap; n++) {
        hg_lammps_setting s = {n, {0}};
        for (int i = 0; i < n - 1; i++)
            s.cut[i] = dmin * exp(w * (i + 1) / n);
        s.cut[n - 1] = dmax;
        out[k++] = s;
    }
    static const double shift[2] = {0.35, 0.8};
    for (int i = 0; i < 2 && k < cap; i++)
        out[k++] = (hg_lammps_setting){2, {dmin * exp(w * shift[i]), dmax}};
    if (k < cap) {
        hg_lammps_setting s = {3, {0}};
        double rmax = hg_psd_rmax(psd);
        for (int j = 0; j < 2; j++) { /* radius with (j+1)/3 of the atoms */
            double a = hg_psd_rmin(psd), b = rmax;
            for (int it = 0; it < 60; it++) {
                double m = 0.5 * (a + b);
                if (hg_psd_moment(psd, 0, 0.0, m) < (j + 1) / 3.0)
                    a = m;
                else
                    b = m;
            }
            s.cut[j] = 2.0 * b;
        }
        s.cut[2] = dmax;
        if (s.cut[0] < s.cut[1] && s.cut[1] < dmax)
            out[k++] = s;
    }
    return k;
}

static int same_setting(const hg_lammps_setting *a, const hg_lammps_setting *b)
{
    if (a->ncoll != b->ncoll)
        return 0;
    for (int i = 0; i < a->ncoll; i++)
        if (fabs(a->cut[i] - b->cut[i]) > 1e-9 * b->cut[i])
            return 0;
    return 1;
}

/* Add s to the list unless present (or invalid for dmax). */
static void add_candidate(hg_lammps_setting *list, int *n, int cap,
                          const hg_lammps_setting *s, double dmax)
{
    if (*n >= cap || hg_lammps_setting_check(s, dmax, NULL))
        return;
    for (int i = 0; i < *n; i++)
        if (same_setting(&list[i], s))
            return;
    list[(*n)++] = *s;
}

/* Settings measured in one run of the search, at most. */
enum { TUNE_CAP = 2 * HG_LAMMPS_MAX_COLLECTIONS + 4 };

/* The model's optimum for p (its radii, o's ranks, skin and structure),
 * and p's smallest and largest diameters. */
static int model_optimum(const hg_particles *p, const hg_consts *c,
                         const hg_lammps_run_options *o, int max_coll,
                         hg_lammps_optimum *opt, double *dmin, double *dmax,
                         hg_err *e)
{
    hg_psd *psd = NULL;
    hg_lammps_system sys;
    hg_snapshot *snap = NULL;
    int st = hg_lammps_system_of(p, o->skin, o->nprocs, &psd, &sys, e);
    if (st)
        return st;
    if ((st = with_structure(p, o, &sys, &snap, e))) {
        hg_psd_free(psd);
        return st;
    }
    *dmin = 2.0 * hg_psd_rmin(psd);
    *dmax = 2.0 * hg_psd_rmax(psd);
    st = hg_lammps_optimise(psd, &sys, c, max_coll, 0.01, opt, e);
    hg_psd_free(psd);
    hg_snapshot_free(snap);
    return st;
}

/* The first round's candidates into cand: the model's optimum (first),
 * bin, and its best settings with one collection fewer and one more (bin
 * the optimum: two collections). Returns their number. */
static int first_candidates(const hg_lammps_optimum *opt, int max_coll,
                            double dmax, hg_lammps_setting *cand)
{
    int n = 0, nb = opt->best.ncoll;
    add_candidate(cand, &n, TUNE_CAP, &opt->best, dmax);
    add_candidate(cand, &n, TUNE_CAP, &opt->by_n[0], dmax);
    if (nb > 1)
        add_candidate(cand, &n, TUNE_CAP, &opt->by_n[nb - 1], dmax);
    if (nb + 1 <= max_coll && isfinite(opt->by_n_seconds[nb + 1]))
        add_candidate(cand, &n, TUNE_CAP, &opt->by_n[nb + 1], dmax);
    if (nb == 0 && max_coll >= 2 && isfinite(opt->by_n_seconds[2]))
        add_candidate(cand, &n, TUNE_CAP, &opt->by_n[2], dmax);
    return n;
}

/* A round's candidates into cand: the incumbent cur (first), each of its
 * cutoffs but the last times and over f (staying above dmin), its top
 * collection split at the geometric mean and its two lowest merged.
 * Returns their number. */
static int round_candidates(const hg_lammps_setting *cur, double f,
                            double dmin, double dmax, int max_coll,
                            hg_lammps_setting *cand)
{
    int n = 0;
    add_candidate(cand, &n, TUNE_CAP, cur, dmax);
    for (int i = 0; i + 1 < cur->ncoll; i++)
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            hg_lammps_setting s = *cur;
            s.cut[i] *= sgn > 0 ? f : 1.0 / f;
            if (s.cut[i] <= dmin)
                continue;
            add_candidate(cand, &n, TUNE_CAP, &s, dmax);
        }
    if (cur->ncoll >= 1 && cur->ncoll < max_coll) { /* split the top */
        hg_lammps_setting s = *cur;
        double lo = cur->ncoll > 1 ? cur->cut[cur->ncoll - 2] : dmin;
        s.cut[cur->ncoll] = dmax;
        s.cut[cur->ncoll - 1] = sqrt(lo * dmax);
        s.ncoll++;
        add_candidate(cand, &n, TUNE_CAP, &s, dmax);
    }
    if (cur->ncoll >= 2) { /* merge the two lowest */
        hg_lammps_setting s = *cur;
        memmove(s.cut, s.cut + 1, sizeof s.cut[0] * (size_t)(s.ncoll - 1));
        s.ncoll--;
        add_candidate(cand, &n, TUNE_CAP, &s, dmax);
    }
    return n;
}

/* The index of the fastest of pts[0..n-1] (the first of equals). */
static int fastest(const hg_lammps_point *pts, int n)
{
    int win = 0;
    for (int i = 1; i < n; i++)
        if (pts[i].timing.neigh < pts[win].timing.neigh)
            win = i;
    return win;
}

/* The answer: out's best, model optimum and bin measured again side by
 * side in one run. */
static int final_run(const hg_particles *p, const hg_consts *c,
                     const hg_lammps_run_options *o, double dmax,
                     hg_lammps_tune_result *out, hg_err *e)
{
    hg_lammps_setting cand[3];
    hg_lammps_point pts[3];
    int n = 0, st;
    add_candidate(cand, &n, 3, &out->best.setting, dmax);
    add_candidate(cand, &n, 3, &out->model.setting, dmax);
    add_candidate(cand, &n, 3, &out->bin.setting, dmax);
    if ((st = hg_lammps_measure(p, cand, n, o, c, pts, e)))
        return st;
    out->settings += n;
    for (int i = 0; i < n; i++) {
        if (same_setting(&pts[i].setting, &out->model.setting))
            out->model = pts[i];
        if (same_setting(&pts[i].setting, &out->bin.setting))
            out->bin = pts[i];
    }
    out->best = pts[fastest(pts, n)];
    return HG_OK;
}

int hg_lammps_tune(const hg_particles *p, const hg_consts *c,
                   const hg_lammps_run_options *o, double budget,
                   int max_coll, hg_lammps_tune_result *out, hg_err *e)
{
    memset(out, 0, sizeof *out);
    if (!(budget > 0.0))
        return hg_fail(e, HG_EINVAL, "budget: %g seconds must be > 0",
                       budget);
    double t0 = hg_wall_seconds(), dmin, dmax;
    hg_lammps_optimum opt;
    int st = model_optimum(p, c, o, max_coll, &opt, &dmin, &dmax, e);
    if (st)
        return st;
    hg_lammps_setting cand[TUNE_CAP];
    hg_lammps_point pts[TUNE_CAP];
    int n = first_candidates(&opt, max_coll, dmax, cand);
    double b0 = hg_wall_seconds();
    if ((st = hg_lammps_measure(p, cand, n, o, c, pts, e)))
        return st;
    double per_setting = (hg_wall_seconds() - b0) / n;
    out->settings = n;
    out->model = pts[0];
    for (int i = 0; i < n; i++)
        if (pts[i].setting.ncoll == 0)
            out->bin = pts[i];
    out->best = pts[fastest(pts, n)];
    double f = 1.3;
    /* rounds while the next one fits the budget */
    while (f > 1.02) {
        hg_lammps_setting cur = out->best.setting;
        n = round_candidates(&cur, f, dmin, dmax, max_coll, cand);
        if (n < 2)
            break;
        /* keep room for the final side-by-side run of three settings */
        if (hg_wall_seconds() - t0 + per_setting * (n + 3) > budget)
            break;
        b0 = hg_wall_seconds();
        if ((st = hg_lammps_measure(p, cand, n, o, c, pts, e)))
            return st;
        per_setting = (hg_wall_seconds() - b0) / n;
        out->settings += n;
        out->rounds++;
        /* pts[0] is the incumbent re-measured */
        int win = fastest(pts, n);
        if (win != 0 && pts[win].timing.neigh < 0.98 * pts[0].timing.neigh)
            out->best = pts[win];
        else {
            out->best = pts[0];
            f = sqrt(f);
        }
    }
    if ((st = final_run(p, c, o, dmax, out, e)))
        return st;
    out->seconds = hg_wall_seconds() - t0;
    return HG_OK;
}
