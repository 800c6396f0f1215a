/* report.c - what every engine's runner shares: the request's defaults and
 * the report (hg_engine.h). */
#include "hg_engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

void hg_engine_run_default(const hg_engine *g, hg_engine_run *r)
{
    memset(r, 0, sizeof *r);
    r->nprocs = 1;
    r->steps = g && g->run_steps > 0 ? g->run_steps : 50;
    r->warmup = g && g->run_warmup > 0 ? g->run_warmup : 5;
    r->repeats = g && g->run_repeats > 0 ? g->run_repeats : 3;
    r->budget = 120.0;
    r->max_levels = 6;
    r->atoms = 50000;
    r->seed = 1;
}

void hg_engine_report_init(hg_engine_report *r)
{
    memset(r, 0, sizeof *r);
    r->recommended = r->baseline = -1;
    r->spearman = NAN;
}

void hg_engine_report_clear(hg_engine_report *r)
{
    for (int i = 0; r->points && i < r->n; i++)
        free(r->points[i].lines);
    free(r->points);
    hg_engine_report_init(r);
}

hg_engine_point *hg_engine_report_add(hg_engine_report *r, const char *role,
                                      hg_err *e)
{
    hg_engine_point *pts = realloc(r->points, sizeof *pts * (size_t)(r->n + 1));
    if (!pts) {
        hg_fail(e, HG_ENOMEM, "out of memory");
        return NULL;
    }
    r->points = pts;
    hg_engine_point *p = &pts[r->n++];
    memset(p, 0, sizeof *p);
    p->role = role ? role : "";
    p->predicted = p->other = p->found = NAN;
    return p;
}

void hg_engine_report_finish(hg_engine_report *r)
{
    r->fastest = 0;
    for (int i = 1; i < r->n; i++)
        if (r->points[i].measured < r->points[r->fastest].measured)
            r->fastest = i;
    r->baseline = -1;
    for (int i = r->n - 1; i >= 0; i--)
        if (r->points[i].is_default)
            r->baseline = i;
    r->spearman = NAN;
    double *x = malloc(sizeof *x * 2 * (size_t)(r->n + 1));
    if (!x)
        return;
    double *y = x + r->n + 1;
    size_t m = 0;
    for (int i = 0; i < r->n; i++)
        if (isfinite(r->points[i].predicted) &&
            isfinite(r->points[i].measured)) {
            x[m] = r->points[i].predicted;
            y[m++] = r->points[i].measured;
        }
    if (m >= 3) {
        double *w2 = malloc(sizeof *w2 * 2 * m);
        if (w2)
            r->spearman = gsl_stats_spearman(x, 1, y, 1, m, w2);
        free(w2);
    }
    free(x);
}
