/* tune.c - tune --engine mercurydpm: a search measured in MercuryDPM from
 * the model's optimum, within run->budget seconds: the optimum, its
 * neighbours in levels and algorithm and MercuryDPM's defaults, then
 * rounds moving each inner size of the best by a shrinking factor, and
 * finally the best, the optimum and the defaults side by side. */
#include "hg_mercurydpm.h"
#include "hg_model.h"
#include "hg_opt.h"
#include "mercurydpm_engine.h"

#include <math.h>
#include <stdlib.h>

#define TUNE_CAP 64

typedef struct tune_state {
    hg_mercurydpm_setting s[TUNE_CAP];
    hg_mercurydpm_timing t[TUNE_CAP];
    double T[TUNE_CAP]; /* model work per particle */
    int n;
} tune_state;

/* Measure the settings idx[0..k-1] of ts in one run; their timings are
 * replaced. Rounds are chained: when idx[0] (the incumbent) was measured
 * before, the round's times are scaled by its earlier time over its time
 * in this round, so that times of different rounds compare (the machine's
 * speed drifts between rounds; within one run the runner pairs them). */
static int tune_measure(const hg_mercurydpm_pack *m, tune_state *ts,
                        const int *idx, int k, const hg_engine_run *run,
                        double K, hg_err *e)
{
    hg_mercurydpm_setting list[TUNE_CAP] = {{0}};
    hg_mercurydpm_timing t[TUNE_CAP];
    hg_work w[TUNE_CAP];
    for (int i = 0; i < k; i++)
        list[i] = ts->s[idx[i]];
    double before = ts->t[idx[0]].seconds;
    int st = hg_mercurydpm_measure(m, list, k, run, K, w, t, e);
    double f = st == HG_OK && before > 0.0 && t[0].seconds > 0.0
                   ? before / t[0].seconds
                   : 1.0;
    for (int i = 0; i < k && st == HG_OK; i++) {
        t[i].seconds *= f;
        t[i].seconds_min *= f;
        t[i].seconds_max *= f;
        t[i].wall *= f;
        ts->t[idx[i]] = t[i];
        ts->T[idx[i]] = w[i].T;
    }
    return st;
}

/* One round: the settings idx[0..k-1] of ts measured (tune_measure) and
 * counted in out; the wall seconds it took per setting into *per_setting
 * (unless NULL). */
static int tune_round(const hg_mercurydpm_pack *m, tune_state *ts,
                      const int *idx, int k, const hg_engine_run *run,
                      double K, double *per_setting, hg_engine_report *out,
                      hg_err *e)
{
    double r0 = hg_wall_seconds();
    int st = tune_measure(m, ts, idx, k, run, K, e);
    if (st)
        return st;
    if (per_setting)
        *per_setting = (hg_wall_seconds() - r0) / k;
    out->settings_measured += k * run->repeats;
    out->rounds++;
    return HG_OK;
}

/* Round 0's settings added to ts, their indices into idx (*k of them): the
 * model's optimum s (index 0), MercuryDPM's defaults (1), the optimum of
 * the other algorithm, the optimum with one level fewer and the optimised
 * sizes of one level more. */
static int first_round(const hg_mercurydpm_pack *m,
                       const hg_mercurydpm_setting *s, double K, int maxL,
                       tune_state *ts, int *idx, int *k, hg_err *e)
{
    hg_mercurydpm_setting o;
    int st = HG_OK;
    *k = 0;
    idx[(*k)++] = hg_mercurydpm_setting_add(ts->s, &ts->n, TUNE_CAP, s);
    hg_mercurydpm_setting_default(&o);
    idx[(*k)++] = hg_mercurydpm_setting_add(ts->s, &ts->n, TUNE_CAP, &o);
    for (int v = 0; v < 3 && st == HG_OK; v++) {
        hg_algorithm alg = v == 0 ? (s->algorithm == HG_TOP_DOWN
                                         ? HG_BOTTOM_UP
                                         : HG_TOP_DOWN)
                                  : s->algorithm;
        int L = v == 0 ? maxL : v == 1 ? s->levels - 1 : s->levels + 1;
        if (L < 1 || L > maxL)
            continue;
        if (v == 2) {
            hg_model_values mv;
            double T;
            o = *s;
            o.levels = L;
            if ((st = hg_mercurydpm_values(&mv, K, e)) == HG_OK)
                st = hg_opt_sizes(hg_mercurydpm_model(alg), m->psd, &m->sys,
                                  &mv, L, NULL, o.sizes, &T, e);
        } else {
            st = hg_mercurydpm_optimum(m, K, alg, L, &o, e);
        }
        int j;
        if (st == HG_OK &&
            (j = hg_mercurydpm_setting_add(ts->s, &ts->n, TUNE_CAP, &o)) >= 0)
            idx[(*k)++] = j;
    }
    return st;
}

/* The incumbent best (into idx[0]) and its neighbours added to ts: each
 * inner size of best divided and multiplied by f, where it stays between
 * the sizes beside it and above the smallest diameter. Returns how many
 * indices idx holds. */
static int size_neighbours(const hg_mercurydpm_pack *m, tune_state *ts,
                           int best, double f, int *idx)
{
    hg_mercurydpm_setting c = ts->s[best], o;
    int k = 0;
    idx[k++] = best;
    for (int h = 0; h + 1 < c.levels; h++)
        for (int sign = -1; sign <= 1; sign += 2) {
            o = c;
            o.sizes[h] = sign < 0 ? c.sizes[h] / f : c.sizes[h] * f;
            if ((h > 0 && o.sizes[h] <= o.sizes[h - 1]) ||
                o.sizes[h] >= o.sizes[h + 1] ||
                o.sizes[h] <= 2.0 * hg_psd_rmin(m->psd))
                continue;
            int j = hg_mercurydpm_setting_add(ts->s, &ts->n, TUNE_CAP, &o);
            if (j >= 0 && j != best && k < TUNE_CAP)
                idx[k++] = j;
        }
    return k;
}

/* The rounds after round 0, from the best so far (*best): its size
 * neighbours by a factor f (1.3 first) measured with it; the best moves to
 * one > 2 % faster, else f shrinks to its square root. They end when f
 * reaches 1.04, the best has one level or no neighbours, or the next round
 * (at per_setting wall seconds per setting, the last round's) would end
 * more than budget seconds after t0. */
static int size_search(const hg_mercurydpm_pack *m, tune_state *ts,
                       const hg_engine_run *run, double K, double t0,
                       double budget, double per_setting, int *best,
                       hg_engine_report *out, hg_err *e)
{
    int idx[TUNE_CAP], st = HG_OK;
    double f = 1.3;
    while (f > 1.04 && ts->s[*best].levels > 1) {
        int k = size_neighbours(m, ts, *best, f, idx);
        if (k < 2 || hg_wall_seconds() - t0 + per_setting * k > budget)
            break;
        if ((st = tune_round(m, ts, idx, k, run, K, &per_setting, out, e)))
            break;
        int nb = *best;
        for (int i = 1; i < k; i++)
            if (ts->t[idx[i]].seconds < ts->t[nb].seconds)
                nb = idx[i];
        if (nb != *best && ts->t[nb].seconds < 0.98 * ts->t[*best].seconds)
            *best = nb;
        else
            f = sqrt(f);
    }
    return st;
}

/* Every measured setting of ts as a point of out: the tuned one (best),
 * the recommended (0, out->recommended), MercuryDPM's defaults (1, the
 * code's default) and the searched, predicted seconds N a T. */
static int tune_report(hg_engine_report *out, const hg_mercurydpm_pack *m,
                       const tune_state *ts, int best, double K, double a,
                       hg_err *e)
{
    int st = HG_OK;
    for (int i = 0; i < ts->n && st == HG_OK; i++) {
        double sizes[HG_MERCURYDPM_MAX_LEVELS];
        const char *role = i == best ? "tuned" : i == 0 ? "recommended"
                           : i == 1 ? "default" : "searched";
        if (ts->t[i].seconds > 0.0 &&
            (st = hg_mercurydpm_setting_sizes(m, &ts->s[i], sizes, e)) ==
                HG_OK)
            st = hg_mercurydpm_report_add(out, role, i == 1, m, K, &ts->s[i],
                                          sizes,
                                          ts->t[i].with_ghosts * a * ts->T[i],
                                          &ts->t[i], e);
        if (st == HG_OK && i == 0)
            out->recommended = out->n - 1;
    }
    return st;
}

int hg_mercurydpm_tune(const hg_engine_run *run, hg_engine_report *out,
                       hg_err *e)
{
    hg_engine_report_init(out);
    int st = hg_mercurydpm_run_check(run, 1, e);
    if (st)
        return st;
    double t0 = hg_wall_seconds();
    double budget = run->budget > 0.0 ? run->budget : 120.0;
    hg_mercurydpm_pack m;
    if ((st = hg_mercurydpm_pack_init(run, run->packings[0], 1, &m, e)))
        return st;
    tune_state *ts = calloc(1, sizeof *ts);
    double K, a, per_setting;
    int maxL = run->max_levels > 0 ? run->max_levels : 16;
    if (maxL > HG_MERCURYDPM_MAX_LEVELS)
        maxL = HG_MERCURYDPM_MAX_LEVELS;
    if (!ts) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    hg_mercurydpm_report_program(out, run);
    hg_mercurydpm_setting s;
    int idx[TUNE_CAP], k;
    if ((st = hg_mercurydpm_K_resolve(m.sys.dim, &K, &a, out->constants,
                                      sizeof out->constants, e)) ||
        (st = hg_mercurydpm_optimum(&m, K, HG_GRID_NONE, maxL, &s, e)) ||
        (st = first_round(&m, &s, K, maxL, ts, idx, &k, e)) ||
        (st = tune_round(&m, ts, idx, k, run, K, &per_setting, out, e)))
        goto done;
    int best = 0;
    for (int i = 0; i < k; i++)
        if (ts->t[idx[i]].seconds < ts->t[best].seconds)
            best = idx[i];
    if ((st = size_search(&m, ts, run, K, t0, budget, per_setting, &best, out,
                          e)))
        goto done;
    /* the best, the optimum and the defaults side by side */
    k = 0;
    idx[k++] = best;
    if (best != 0)
        idx[k++] = 0;
    if (best != 1)
        idx[k++] = 1;
    if ((st = tune_round(&m, ts, idx, k, run, K, NULL, out, e)) ||
        (st = tune_report(out, &m, ts, best, K, a, e)))
        goto done;
    hg_engine_report_finish(out);
done:
    free(ts);
    hg_mercurydpm_pack_clear(&m);
    out->seconds = hg_wall_seconds() - t0;
    return st;
}
