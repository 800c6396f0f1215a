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
    double K, a;
    int maxL = run->max_levels > 0 ? run->max_levels : 16;
    if (maxL > HG_MERCURYDPM_MAX_LEVELS)
        maxL = HG_MERCURYDPM_MAX_LEVELS;
    if (!ts) {
        st = hg_fail(e, HG_ENOMEM, "out of memory");
        goto done;
    }
    hg_mercurydpm_report_program(out, run);
    hg_mercurydpm_setting s, o;
    if ((st = hg_mercurydpm_K_resolve(m.sys.dim, &K, &a, out->constants,
                                      sizeof out->constants, e)) ||
        (st = hg_mercurydpm_optimum(&m, K, HG_GRID_NONE, maxL, &s, e)))
        goto done;
    int idx[TUNE_CAP], k = 0;
    /* round 0: the optimum (0), the defaults (1), the other algorithm,
     * one level fewer and more */
    idx[k++] = hg_mercurydpm_setting_add(ts->s, &ts->n, TUNE_CAP, &s);
    hg_mercurydpm_setting_default(&o);
    idx[k++] = hg_mercurydpm_setting_add(ts->s, &ts->n, TUNE_CAP, &o);
    for (int v = 0; v < 3 && st == HG_OK; v++) {
        hg_algorithm alg = v == 0 ? (s.algorithm == HG_TOP_DOWN
                                         ? HG_BOTTOM_UP
                                         : HG_TOP_DOWN)
                                  : s.algorithm;
        int L = v == 0 ? maxL : v == 1 ? s.levels - 1 : s.levels + 1;
        if (L < 1 || L > maxL)
            continue;
        if (v == 2) {
            hg_model_values mv;
            double T;
            o = s;
            o.levels = L;
            if ((st = hg_mercurydpm_values(&mv, K, e)) == HG_OK)
                st = hg_opt_sizes(hg_mercurydpm_model(alg), m.psd, &m.sys,
                                  &mv, L, NULL, o.sizes, &T, e);
        } else {
            st = hg_mercurydpm_optimum(&m, K, alg, L, &o, e);
        }
        int j;
        if (st == HG_OK &&
            (j = hg_mercurydpm_setting_add(ts->s, &ts->n, TUNE_CAP, &o)) >= 0)
            idx[k++] = j;
    }
    double r0 = hg_wall_seconds();
    if (st || (st = tune_measure(&m, ts, idx, k, run, K, e)))
        goto done;
    double per_setting = (hg_wall_seconds() - r0) / k;
    out->settings_measured += k * run->repeats;
    out->rounds = 1;
    int best = 0;
    for (int i = 0; i < k; i++)
        if (ts->t[idx[i]].seconds < ts->t[best].seconds)
            best = idx[i];
    double f = 1.3;
    while (st == HG_OK && f > 1.04 && ts->s[best].levels > 1) {
        hg_mercurydpm_setting c = ts->s[best];
        k = 0;
        idx[k++] = best;
        for (int h = 0; h + 1 < c.levels; h++)
            for (int sign = -1; sign <= 1; sign += 2) {
                o = c;
                o.sizes[h] = sign < 0 ? c.sizes[h] / f : c.sizes[h] * f;
                if ((h > 0 && o.sizes[h] <= o.sizes[h - 1]) ||
                    o.sizes[h] >= o.sizes[h + 1] ||
                    o.sizes[h] <= 2.0 * hg_psd_rmin(m.psd))
                    continue;
                int j = hg_mercurydpm_setting_add(ts->s, &ts->n, TUNE_CAP, &o);
                if (j >= 0 && j != best && k < TUNE_CAP)
                    idx[k++] = j;
            }
        if (k < 2 || hg_wall_seconds() - t0 + per_setting * k > budget)
            break;
        r0 = hg_wall_seconds();
        if ((st = tune_measure(&m, ts, idx, k, run, K, e)))
            break;
        per_setting = (hg_wall_seconds() - r0) / k;
        out->settings_measured += k * run->repeats;
        out->rounds++;
        int nb = best;
        for (int i = 1; i < k; i++)
            if (ts->t[idx[i]].seconds < ts->t[nb].seconds)
                nb = idx[i];
        if (nb != best && ts->t[nb].seconds < 0.98 * ts->t[best].seconds)
            best = nb;
        else
            f = sqrt(f);
    }
    if (st)
        goto done;
    /* the best, the optimum and the defaults side by side */
    k = 0;
    idx[k++] = best;
    if (best != 0)
        idx[k++] = 0;
    if (best != 1)
        idx[k++] = 1;
    if ((st = tune_measure(&m, ts, idx, k, run, K, e)))
        goto done;
    out->settings_measured += k * run->repeats;
    out->rounds++;
    for (int i = 0; i < ts->n && st == HG_OK; i++) {
        double sizes[HG_MERCURYDPM_MAX_LEVELS];
        const char *role = i == best ? "tuned" : i == 0 ? "recommended"
                           : i == 1 ? "default" : "searched";
        if (ts->t[i].seconds > 0.0 &&
            (st = hg_mercurydpm_setting_sizes(&m, &ts->s[i], sizes, e)) ==
                HG_OK)
            st = hg_mercurydpm_report_add(out, role, i == 1, &m, K, &ts->s[i],
                                          sizes,
                                          ts->t[i].with_ghosts * a * ts->T[i],
                                          &ts->t[i], e);
        if (st == HG_OK && i == 0)
            out->recommended = out->n - 1;
    }
    if (st == HG_OK)
        hg_engine_report_finish(out);
done:
    free(ts);
    hg_mercurydpm_pack_clear(&m);
    out->seconds = hg_wall_seconds() - t0;
    return st;
}
