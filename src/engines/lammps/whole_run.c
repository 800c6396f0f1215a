/* whole_run.c - LAMMPS for whole-run advice (hg_whole_run.h): the
 * settings worth pricing, the user's lines read back, a frame priced by
 * the model of LAMMPS' build (models/lammps.c) with the frame's measured
 * pair statistics, and the lines of a setting at a skin. */
#include "hg_lammps.h"
#include "hg_psd.h"
#include "hg_snapshot.h"
#include "hg_whole_run.h"
#include "lammps_engine.h"
#include "run_lines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Collections the model's optimum is asked for, at most. */
#define OPT_COLL 4

struct hg_run_frame {
    hg_psd *psd;
    hg_lammps_system sys;
    hg_snapshot *snap;
    double atoms;
};

void hg_lammps_run_setting_at(const hg_run_setting *s, double skin,
                              double dmax, hg_lammps_setting *ls)
{
    memset(ls, 0, sizeof *ls);
    ls->ncoll = s->ncoll;
    for (int i = 0; i < s->ncoll && i < HG_LAMMPS_MAX_COLLECTIONS; i++)
        ls->cut[i] = s->cut[i];
    if (s->ncoll == 0)
        ls->binsize = s->bin_factor > 0.0
                          ? hg_run_bin_size(s->bin_factor, dmax + skin)
                          : s->binsize;
}

static void run_setting(const hg_lammps_setting *ls, const char *name,
                        hg_run_setting *s)
{
    memset(s, 0, sizeof *s);
    s->ncoll = ls->ncoll;
    for (int i = 0; i < ls->ncoll && i < HG_RUN_MAX_CUTS; i++)
        s->cut[i] = ls->cut[i];
    s->binsize = ls->ncoll ? 0.0 : ls->binsize;
    snprintf(s->name, sizeof s->name, "%s", name);
}

static int same_setting(const hg_run_setting *a, const hg_run_setting *b)
{
    if (a->ncoll != b->ncoll || a->bin_factor != b->bin_factor ||
        fabs(a->binsize - b->binsize) > 1e-9 * (a->binsize + b->binsize))
        return 0;
    for (int i = 0; i < a->ncoll; i++)
        if (fabs(a->cut[i] - b->cut[i]) > 1e-6 * b->cut[i])
            return 0;
    return 1;
}

static int add(hg_run_setting *out, int n, int cap, const hg_run_setting *s)
{
    for (int i = 0; i < n; i++)
        if (same_setting(&out[i], s))
            return n;
    if (n < cap)
        out[n++] = *s;
    return n;
}

static void frame_free(struct hg_run_frame *f)
{
    if (!f)
        return;
    hg_psd_free(f->psd);
    hg_snapshot_free(f->snap);
    free(f);
}

/* A frame as the model sees it (full: its statistics counted as a
 * --packing file's are). */
static int frame_open_as(const hg_particles *p, double dmax, int full,
                         struct hg_run_frame **out, hg_err *e)
{
    *out = NULL;
    if (p->n == 0)
        return HG_OK;
    struct hg_run_frame *f = calloc(1, sizeof *f);
    if (!f)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    int st = hg_lammps_system_of(p, 0.1 * dmax, 1, &f->psd, &f->sys, e);
    if (st == HG_OK && (f->snap = hg_run_frame_snapshot(p, full, &f->sys.nu))) {
        f->sys.structure = HG_STRUCTURE_MEASURED;
        f->sys.snapshot = f->snap;
    }
    f->sys.cutoff_diameter = dmax;
    f->atoms = (double)p->n;
    if (st) {
        frame_free(f);
        return st;
    }
    *out = f;
    return HG_OK;
}

static double frame_contacts(const struct hg_run_frame *f)
{
    return hg_run_frame_contacts(f->snap);
}

static int frame_open(const hg_particles *p, double dmax,
                      struct hg_run_frame **out, hg_err *e)
{
    return frame_open_as(p, dmax, 0, out, e);
}

int hg_lammps_setting_neigh(const hg_psd *psd, hg_lammps_system *sys,
                            const hg_run_setting *s, double skin,
                            const hg_consts *build, double *neigh,
                            double *neighbours, hg_err *e)
{
    double dmax = sys->cutoff_diameter > 0.0 ? sys->cutoff_diameter
                                             : 2.0 * hg_psd_rmax(psd);
    hg_lammps_setting ls;
    hg_lammps_run_setting_at(s, skin, dmax, &ls);
    sys->skin = skin;
    hg_lammps_work w;
    int st = hg_lammps_work_eval(psd, sys, &ls, &w, e);
    if (st)
        return st;
    *neigh = hg_lammps_predict(build, &w);
    if (neighbours)
        *neighbours = w.neighbours;
    return HG_OK;
}

static int frame_cost(struct hg_run_frame *f, const hg_run_setting *s,
                      double skin, const hg_consts *build,
                      const hg_consts *pair, double *neigh, double *pair_s,
                      hg_err *e)
{
    double pairs;
    int st = hg_lammps_setting_neigh(f->psd, &f->sys, s, skin, build, neigh,
                                     &pairs, e);
    if (st == HG_OK)
        *pair_s = hg_lammps_pair_predict(pair, pairs, f->atoms);
    return st;
}

int hg_lammps_weighed_settings(const hg_psd *psd,
                               const hg_lammps_system *sys, double dmax,
                               const hg_consts *build, hg_run_setting *out,
                               int cap, hg_err *e)
{
    int n = 0;
    hg_run_setting s = {0};
    snprintf(s.name, sizeof s.name, "bin");
    n = add(out, n, cap, &s);
    s.bin_factor = 1.0;
    snprintf(s.name, sizeof s.name, "bin, bins of one cutoff");
    n = add(out, n, cap, &s);
    if (!psd || !sys)
        return n;
    double dmin = 2.0 * hg_psd_rmin(psd);
    for (int k = 2; k <= 3 && dmax > 1.05 * dmin; k++) {
        memset(&s, 0, sizeof s);
        s.ncoll = k;
        for (int i = 0; i < k; i++)
            s.cut[i] = dmin * pow(dmax / dmin, (double)(i + 1) / k);
        s.cut[k - 1] = dmax;
        snprintf(s.name, sizeof s.name,
                 "multi, %d collections of geometric cutoffs", k);
        n = add(out, n, cap, &s);
    }
    hg_lammps_optimum opt;
    int st = hg_lammps_optimise(psd, sys, build, OPT_COLL, 0.0, &opt, e);
    for (int k = 1; st == HG_OK && k <= opt.max_coll; k++) {
        hg_lammps_setting ls = opt.by_n[k];
        if (ls.ncoll != k)
            continue;
        if (ls.cut[k - 1] < dmax)
            ls.cut[k - 1] = dmax;
        char name[96];
        snprintf(name, sizeof name,
                 "multi, %d collection%s of the model's best cutoffs", k,
                 k == 1 ? "" : "s");
        run_setting(&ls, name, &s);
        n = add(out, n, cap, &s);
    }
    return st ? -st : n;
}

/* The settings weighed (hg_lammps_weighed_settings) on the largest frame
 * at skin. */
static int candidates(const hg_particles *rep, double dmax, double skin,
                      const hg_consts *build, hg_run_setting *out, int cap,
                      hg_err *e)
{
    struct hg_run_frame *f = NULL;
    /* counted as every priced frame is, so that its statistics are
     * that frame's (hg_run_frame_snapshot keeps the last frames') */
    int st = frame_open_as(rep, dmax, 0, &f, e);
    if (st)
        return -st;
    if (!f) /* no atoms: the two bin settings */
        return hg_lammps_weighed_settings(NULL, NULL, dmax, build, out,
                                          cap, e);
    f->sys.skin = skin;
    int n = hg_lammps_weighed_settings(f->psd, &f->sys, dmax, build, out,
                                       cap, e);
    frame_free(f);
    return n;
}

/* ---- the user's lines ---- */

static int parse(const char *lines, double dmax, hg_run_setting *s,
                 double *skin, hg_err *e)
{
    int multi = 0, has_coll = 0;
    int st = hg_run_lines_parse(lines, s, skin, &multi, &has_coll, e);
    if (st)
        return st;
    int by_type = multi && !has_coll;
    if (by_type) { /* collections by atom type: a dump's radii carry no
                      type, so one collection of the largest diameter
                      (exact for one atom type) */
        s->ncoll = 1;
        s->cut[0] = dmax;
    }
    if (!multi)
        s->ncoll = 0;
    hg_lammps_setting ls;
    hg_lammps_run_setting_at(s, *skin, dmax, &ls);
    if ((st = hg_lammps_setting_check(&ls, dmax, e)))
        return hg_fail(e, HG_EINVAL, "%s", e->msg);
    if (by_type)
        snprintf(s->name, sizeof s->name,
                 "multi by atom type (priced as one collection)");
    else
        hg_lammps_setting_text(&ls, s->name, sizeof s->name);
    return HG_OK;
}

static int lines(const hg_run_setting *s, double skin, double dmax, int full,
                 char **text, hg_err *e)
{
    hg_lammps_setting ls;
    hg_lammps_run_setting_at(s, skin, dmax, &ls);
    char *base = NULL;
    int st = hg_lammps_lines(&ls, skin, dmax, &base, e);
    if (st)
        return st;
    size_t len = 0;
    FILE *f = open_memstream(text, &len);
    if (!f) {
        free(base);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    const char *nl = strchr(base, '\n');
    fprintf(f, "%.*s\nneigh_modify delay 0 every 1 check yes\n",
            (int)(nl - base), base);
    fputs(nl + 1, f);
    /* bin: single mode undoes an input's (or a phase's) mode multi */
    if (full && s->ncoll == 0 && !(ls.binsize > 0.0))
        fprintf(f, "neigh_modify binsize 0.0\n");
    if (s->ncoll == 0)
        fprintf(f, "comm_modify mode single\n");
    free(base);
    fclose(f);
    return *text ? HG_OK : hg_fail(e, HG_ENOMEM, "out of memory");
}

const hg_run_hooks hg_lammps_run_hooks = {
    .pair_kind = &hg_lammps_pair_kind,
    .candidates = candidates,
    .parse = parse,
    .frame_open = frame_open,
    .frame_free = frame_free,
    .frame_cost = frame_cost,
    .frame_contacts = frame_contacts,
    .lines = lines,
    .log_code = "LAMMPS",
    .default_skin = hg_run_default_skin,
};
