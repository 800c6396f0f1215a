/* whole_run.c - LIGGGHTS for whole-run advice (hg_whole_run.h): its bin
 * sizes as multiples of the cutoff (its default half, one cutoff, and the
 * model's best on the largest frame), a frame priced by the model of its
 * build (models/liggghts.c) with the frame's measured pair statistics,
 * the user's lines read back, and the lines of a bin size at a skin. */
#include "hg_io.h"
#include "hg_liggghts.h"
#include "hg_psd.h"
#include "hg_snapshot.h"
#include "hg_whole_run.h"
#include "liggghts_engine.h"
#include "run_lines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hg_run_frame {
    hg_psd *psd;
    hg_liggghts_system sys;
    hg_snapshot *snap;
};

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
    hg_system s = {0};
    int st = hg_io_system_from_particles(p, &f->psd, &s, e);
    s.structure = HG_STRUCTURE_POISSON;
    if (st == HG_OK && (f->snap = hg_run_frame_snapshot(p, full, &s.nu))) {
        s.structure = HG_STRUCTURE_MEASURED;
        s.snapshot = f->snap;
    }
    if (st == HG_OK)
        st = hg_liggghts_system_of(p, &s, 0.1 * dmax, 1, &f->sys, e);
    f->sys.cutoff_diameter = dmax;
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

/* The bin size of s at skin: a multiple of the cutoff, or fixed. */
static double binsize_of(const hg_run_setting *s, double skin, double dmax)
{
    if (s->bin_factor > 0.0)
        return hg_run_bin_size(s->bin_factor, dmax + skin);
    return s->binsize > 0.0 ? s->binsize : 0.5 * (dmax + skin);
}

int hg_liggghts_setting_neigh(const hg_psd *psd, hg_liggghts_system *sys,
                              const hg_run_setting *s, double skin,
                              const hg_consts *build, double *neigh,
                              double *neighbours, hg_err *e)
{
    double dmax = sys->cutoff_diameter > 0.0 ? sys->cutoff_diameter
                                             : 2.0 * hg_psd_rmax(psd);
    sys->skin = skin;
    hg_liggghts_work w;
    int st = hg_liggghts_work_eval(psd, sys, binsize_of(s, skin, dmax), &w,
                                   e);
    if (st)
        return st;
    *neigh = hg_liggghts_predict(build, &w);
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
    int st = hg_liggghts_setting_neigh(f->psd, &f->sys, s, skin, build,
                                       neigh, &pairs, e);
    if (st == HG_OK)
        *pair_s = pair->c[0] * pairs + pair->c[1] * f->sys.atoms;
    return st;
}

static void factor_setting(double factor, const char *name, hg_run_setting *s)
{
    memset(s, 0, sizeof *s);
    s->bin_factor = factor;
    snprintf(s->name, sizeof s->name, "%s", name);
}

int hg_liggghts_weighed_settings(const hg_psd *psd,
                                 const hg_liggghts_system *sys,
                                 const hg_consts *build, hg_run_setting *out,
                                 int cap, hg_err *e)
{
    int n = 0;
    if (n < cap)
        factor_setting(0.5, "bin (LIGGGHTS' default bins)", &out[n++]);
    if (n < cap)
        factor_setting(1.0, "bin, bins of one cutoff", &out[n++]);
    if (!psd || !sys)
        return n;
    hg_liggghts_optimum opt;
    int st = hg_liggghts_optimise(psd, sys, build, 0.0, &opt, e);
    if (st == HG_OK && n < cap) {
        double k = opt.binsize / opt.cutoff;
        if (fabs(k / 0.5 - 1.0) > 0.05 && fabs(k - 1.0) > 0.05) {
            char name[96];
            snprintf(name, sizeof name, "bin, the model's best bins (%.3g "
                     "cutoffs)", k);
            factor_setting(k, name, &out[n++]);
        }
    }
    return st ? -st : n;
}

/* The settings weighed (hg_liggghts_weighed_settings) on the largest
 * frame at skin. */
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
    if (!f)
        return hg_liggghts_weighed_settings(NULL, NULL, build, out, cap, e);
    f->sys.skin = skin;
    int n = hg_liggghts_weighed_settings(f->psd, &f->sys, build, out, cap,
                                         e);
    frame_free(f);
    return n;
}

static int parse(const char *lines, double dmax, hg_run_setting *s,
                 double *skin, hg_err *e)
{
    int multi = 0, has_coll = 0;
    int st = hg_run_lines_parse(lines, s, skin, &multi, &has_coll, e);
    if (st)
        return st;
    if (multi)
        return hg_fail(e, HG_EINVAL, "neighbor style multi is "
                       "not modelled for LIGGGHTS (bin)");
    s->ncoll = 0;
    if (s->binsize > 0.0)
        snprintf(s->name, sizeof s->name, "bin (bins of %.4g)", s->binsize);
    else
        factor_setting(0.5, "bin (LIGGGHTS' default bins)", s);
    (void)dmax;
    return HG_OK;
}

static int lines(const hg_run_setting *s, double skin, double dmax, int full,
                 char **text, hg_err *e)
{
    (void)full; /* every bin size is printed: nothing to undo */
    char *base = NULL;
    int st = hg_liggghts_lines(binsize_of(s, skin, dmax), skin, &base, e);
    if (st)
        return st;
    size_t n = strlen(base) + 64;
    *text = malloc(n);
    if (!*text) {
        free(base);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    snprintf(*text, n, "%sneigh_modify delay 0 every 1 check yes\n", base);
    free(base);
    return HG_OK;
}

const hg_run_hooks hg_liggghts_run_hooks = {
    .pair_kind = &hg_liggghts_pair_kind,
    .candidates = candidates,
    .parse = parse,
    .frame_open = frame_open,
    .frame_free = frame_free,
    .frame_cost = frame_cost,
    .frame_contacts = frame_contacts,
    .lines = lines,
    .log_code = "LIGGGHTS",
    .default_skin = hg_run_default_skin,
};
