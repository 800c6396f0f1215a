/* measure.c - measuring settings for MercuryDPM's runners: the check of a
 * run, a list of settings predicted and timed on one packing, and the
 * report's points (a setting described, the lines MercuryDPM reads, the
 * build that ran them). */
#include "hg_export.h"
#include "hg_mercurydpm.h"
#include "mercurydpm_engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hg_mercurydpm_run_check(const hg_engine_run *run, int need, hg_err *e)
{
    if (!run || run->n_packings < need ||
        (run->n_packings > 0 && !run->packings))
        return hg_fail(e, HG_EINVAL, "MercuryDPM: %d packing%s given (need "
                       ">= %d)", run ? run->n_packings : 0,
                       run && run->n_packings == 1 ? "" : "s", need);
    for (int i = 0; i < run->n_packings; i++)
        if (!run->packings[i])
            return hg_fail(e, HG_EINVAL, "MercuryDPM: packing %d is NULL", i);
    return HG_OK;
}

int hg_mercurydpm_measure(const hg_mercurydpm_pack *m,
                          const hg_mercurydpm_setting *list, int n,
                          const hg_engine_run *run, double K, hg_work *w,
                          hg_mercurydpm_timing *t, hg_err *e)
{
    int st = HG_OK;
    for (int i = 0; i < n && st == HG_OK; i++)
        st = hg_mercurydpm_predict(m, &list[i], K, &w[i], e);
    if (st == HG_OK)
        st = hg_mercurydpm_run(m->p, list, n, run, t, e);
    return st;
}

static void describe(const hg_mercurydpm_setting *s, char *buf, size_t len)
{
    size_t k = (size_t)snprintf(buf, len, "%s, %d level%s",
                                s->levels == 1 ? "one grid"
                                : s->algorithm == HG_TOP_DOWN ? "TOPDOWN"
                                                              : "BOTTOMUP",
                                s->levels, s->levels == 1 ? "" : "s");
    if (!s->user) {
        if (k < len)
            snprintf(buf + k, len - k, ", EXPONENTIAL (MercuryDPM's sizes)");
        return;
    }
    for (int h = 0; h < s->levels && k < len; h++)
        k += (size_t)snprintf(buf + k, len - k, "%s%.4g", h ? " " : ", cells ",
                              s->sizes[h]);
}

/* The settings as MercuryDPM reads them: the export (a Mercury3D/2D
 * subclass, hg_export_mercurydpm) for user sizes, the setHGrid* calls for
 * MercuryDPM's own exponential sizes. */
static char *setting_lines(const hg_mercurydpm_pack *m,
                           const hg_mercurydpm_setting *s, double K)
{
    char *text = NULL;
    if (s->user) {
        hg_work w;
        hg_export_input x;
        memset(&x, 0, sizeof x);
        if (hg_mercurydpm_predict(m, s, K, &w, NULL) != HG_OK)
            return NULL;
        x.psd = m->psd;
        x.sys = &m->sys;
        x.algorithm = s->algorithm;
        x.levels = s->levels;
        x.sizes = s->sizes;
        x.T = w.T;
        x.T_cd = w.T_cd;
        x.T_ca = w.T_ca;
        x.K = K;
        x.T_linked_cell = NAN;
        return hg_export_mercurydpm(&x, &text, NULL) == HG_OK ? text : NULL;
    }
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, "setHGridMethod(%s);\nsetHGridDistribution(EXPONENTIAL);\n"
               "setHGridMaxLevels(%d);\n",
            s->algorithm == HG_TOP_DOWN ? "TOPDOWN" : "BOTTOMUP", s->levels);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int hg_mercurydpm_report_add(hg_engine_report *r, const char *role,
                             int is_default, const hg_mercurydpm_pack *m,
                             double K, const hg_mercurydpm_setting *s,
                             const double *sizes, double predicted,
                             const hg_mercurydpm_timing *t, hg_err *e)
{
    hg_engine_point *p = hg_engine_report_add(r, role, e);
    if (!p)
        return HG_ENOMEM;
    p->is_default = is_default;
    describe(s, p->setting, sizeof p->setting);
    p->lines = setting_lines(m, s, K);
    p->levels = s->levels;
    for (int h = 0; h < s->levels && h < 16; h++)
        p->sizes[h] = sizes[h];
    p->predicted = predicted;
    p->measured = t->seconds;
    p->measured_min = t->seconds_min;
    p->measured_max = t->seconds_max;
    p->other = t->wall;
    p->found = t->interactions;
    return HG_OK;
}

void hg_mercurydpm_report_program(hg_engine_report *r,
                                  const hg_engine_run *run)
{
    char build[4096];
    hg_err e = {0};
    if (hg_mercurydpm_find(run->program, build, sizeof build, &e) == HG_OK)
        snprintf(r->program, sizeof r->program, "MercuryDPM build %.480s",
                 build);
    else
        snprintf(r->program, sizeof r->program, "MercuryDPM");
    r->unit = "CPU seconds per step (hGridActionsBeforeTimeStep + "
              "computeAllForces; other: wall seconds)";
}
