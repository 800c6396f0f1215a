/* settings.c - LAMMPS input-script lines: neighbor bin or multi with its
 * collection cutoffs, and the comment blocks of the predictions. */
#include "hg_engine.h"
#include "hg_export.h"
#include "lammps_engine.h"
#include "settings_text.h"
#include "hg_lammps.h"
#include "hg_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hg_export_lammps_cutoffs(const hg_export_input *in, double *cut,
                             hg_err *e)
{
    hg_lammps_setting s;
    int st = hg_sizes_check(in->psd, in->levels, in->sizes, 0, e);
    if (st == HG_OK)
        st = hg_lammps_setting_from_sizes(in->psd, in->levels, in->sizes, &s,
                                          e);
    if (st)
        return st;
    for (int i = 0; i < s.ncoll; i++)
        cut[i] = s.cut[i];
    return s.ncoll;
}

/* The text of a LAMMPS export: a memory stream opened with the heading
 * line (lines is freed on failure), and closed after the 2D hint and the
 * input-script lines (lines is freed). */
static FILE *lammps_text_open(char **text, size_t *len, const char *name,
                              char *lines, hg_err *e)
{
    FILE *f = open_memstream(text, len);
    if (!f) {
        free(lines);
        hg_fail(e, HG_ENOMEM, "out of memory");
        return NULL;
    }
    fprintf(f, "# --- neighbor settings by hgridopt");
    if (name)
        fprintf(f, " for %s", name);
    fprintf(f, " ---\n");
    return f;
}

/* The skin the lines keep, and where it came from. */
static void skin_comment(FILE *f, double skin, const char *source)
{
    fprintf(f, "# neighbor skin %.6g: %s\n", skin,
            source ? source : "as given");
}

static int lammps_text_close(FILE *f, char **text, int dim, char *lines,
                             hg_err *e)
{
    if (dim == 2)
        fprintf(f, "# 2D: use 'dimension 2' and a periodic or thin z "
                   "extent as usual.\n");
    fputs(lines, f);
    free(lines);
    return hg_settings_text_close(f, text, e);
}

int hg_export_lammps(const hg_export_input *in, char **text, hg_err *e)
{
    *text = NULL;
    hg_lammps_setting s;
    int st = hg_sizes_check(in->psd, in->levels, in->sizes, 0, e);
    if (st == HG_OK)
        st = hg_lammps_setting_from_sizes(in->psd, in->levels, in->sizes, &s,
                                          e);
    if (st)
        return st;
    if (s.ncoll == 1)
        s.ncoll = 0; /* one level: plain binning */
    double skin = in->skin > 0.0 ? in->skin : hg_export_default_skin(in->psd);
    char *lines = NULL;
    if ((st = hg_lammps_lines(&s, skin, 2.0 * hg_psd_rmax(in->psd), &lines,
                              e)))
        return st;
    size_t len = 0;
    FILE *f = lammps_text_open(text, &len, in->name, lines, e);
    if (!f)
        return HG_ENOMEM;
    hg_settings_prediction_comment(f, in, "#");
    skin_comment(f, skin, in->skin_source);
    if (s.ncoll == 0)
        fprintf(f, "# One level: LAMMPS' standard binning (bin) is the "
                   "single-level linked cell.\n");
    else
        fprintf(f,
                "# Collections: particles with diameter up to c_h form "
                "collection h; c_h is the\n"
                "# largest diameter on HGrid level h (the last covers the "
                "largest particle;\n"
                "# printed values are rounded up).\n"
                "# Note: LAMMPS bins each collection with bins of half its "
                "cutoff and builds\n"
                "# its own stencils between collections, which is not exactly "
                "the HGrid the model\n"
                "# describes; expect similar, not identical, work.\n");
    return lammps_text_close(f, text, in->sys->dim, lines, e);
}

/* The setting of a code's answer (levels collections; 0: bin, its bin
 * size in sizes[0], 0 for LAMMPS' default). */
static void setting_of(const hg_engine_answer *a, hg_lammps_setting *s)
{
    memset(s, 0, sizeof *s);
    s->ncoll = a->levels;
    for (int i = 0; i < a->levels && i < HG_LAMMPS_MAX_COLLECTIONS; i++)
        s->cut[i] = a->sizes[i];
    if (a->levels == 0)
        s->binsize = a->sizes[0];
}

/* The LAMMPS model's answer (hg_lammps_answer) as input-script lines: bin
 * (with its bin size) or multi with its cutoffs, a comment block with the
 * predicted Neigh time per build of each setting weighed, and the ratio
 * of the answer to bin. */
static int answer_text(const hg_engine_settings *in, char **text,
                       hg_err *e)
{
    *text = NULL;
    const hg_engine_answer *a = in->answer;
    hg_lammps_setting best;
    setting_of(a, &best);
    double dmax = 2.0 * hg_psd_rmax(in->psd);
    char *lines = NULL;
    int st = hg_lammps_lines(&best, a->skin, dmax, &lines, e);
    if (st)
        return st;
    size_t len = 0;
    FILE *f = lammps_text_open(text, &len, in->name, lines, e);
    if (!f)
        return HG_ENOMEM;
    fprintf(f, "# distribution: %s (r_min %.6g, r_max %.6g%s%s)\n",
            hg_psd_spec(in->psd), hg_psd_rmin(in->psd), hg_psd_rmax(in->psd),
            in->length_unit ? " " : "",
            in->length_unit ? in->length_unit : "");
    fprintf(f,
            "# dim %d, nu %.4g; LAMMPS model of the neighbor build for %.6g "
            "atoms per rank\n# (%d rank%s), constants: %s\n",
            in->sys->dim, in->sys->nu, a->atoms / a->ranks, a->ranks,
            a->ranks == 1 ? "" : "s",
            in->constants ? in->constants : "given");
    skin_comment(f, a->skin, in->skin_source);
    fprintf(f, "# predicted Neigh time per build (ms) of the settings "
               "weighed (those of\n# recommend --trajectory):\n");
    for (int n = 0; n < a->n_options; n++)
        if (isfinite(a->options[n].seconds))
            fprintf(f, "# %9.4g  %s\n", 1e3 * a->options[n].seconds,
                    a->options[n].setting);
    if (best.ncoll == 0 && best.binsize > 0.0)
        fprintf(f, "# answer: %s, predicted Neigh time ratio to bin (LAMMPS' "
                   "default bins) %.3g\n",
                a->setting, a->seconds / a->default_seconds);
    else if (best.ncoll == 0)
        fprintf(f, "# answer: bin (predicted fastest; ratio to bin 1)\n");
    else
        fprintf(f,
                "# answer: multi with %d collection%s, predicted Neigh time "
                "ratio to bin %.3g\n"
                "# Collections: atoms with diameter up to c_h form collection "
                "h (cutoffs rounded\n# up; the last covers the largest "
                "atom). Check it with\n# `hgridopt validate --engine "
                "lammps`, refine with `hgridopt tune --engine lammps`.\n",
                best.ncoll, best.ncoll == 1 ? "" : "s",
                a->seconds / a->default_seconds);
    return lammps_text_close(f, text, in->sys->dim, lines, e);
}

/* A setting given (evaluate --engine lammps) with its prediction. */
static int evaluated_text(const hg_engine_settings *in, char **text,
                          hg_err *e)
{
    *text = NULL;
    const hg_engine_answer *a = in->answer;
    hg_lammps_setting s;
    setting_of(a, &s);
    char *lines = NULL;
    int st = hg_lammps_lines(&s, a->skin, 2.0 * hg_psd_rmax(in->psd), &lines,
                             e);
    if (st)
        return st;
    size_t len = 0;
    FILE *f = open_memstream(text, &len);
    if (!f) {
        free(lines);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    fprintf(f, "# --- neighbor settings by hgridopt (evaluate --engine "
               "lammps) ---\n");
    fprintf(f, "# distribution: %s (r_min %.6g, r_max %.6g)\n",
            hg_psd_spec(in->psd), hg_psd_rmin(in->psd), hg_psd_rmax(in->psd));
    fprintf(f, "# dim %d, nu %.4g; LAMMPS model of the neighbor build for "
               "%.6g atoms per rank\n# (%d rank%s), constants: %s\n",
            in->sys->dim, in->sys->nu, a->atoms / a->ranks, a->ranks,
            a->ranks == 1 ? "" : "s", in->constants ? in->constants : "given");
    fprintf(f, "# %s: predicted Neigh time per build %.4g ms (bin %.4g ms, "
               "ratio %.3g)\n",
            a->setting, 1e3 * a->seconds, 1e3 * a->default_seconds,
            a->seconds / a->default_seconds);
    fputs(lines, f);
    free(lines);
    return hg_settings_text_close(f, text, e);
}

double hg_lammps_format_up(double x, char *buf, size_t len)
{
    double v = x;
    snprintf(buf, len, "%.9g", x);
    v = strtod(buf, NULL);
    for (int k = 0; v < x && k < 8; k++) {
        double step = pow(10.0, floor(log10(fabs(v))) - 8.0);
        snprintf(buf, len, "%.9g", v + step);
        v = strtod(buf, NULL);
    }
    if (v < x) { /* cannot happen for finite x; full precision is exact */
        snprintf(buf, len, "%.17g", x);
        v = strtod(buf, NULL);
    }
    return v;
}

int hg_lammps_lines(const hg_lammps_setting *s, double skin, double dmax,
                    char **text, hg_err *e)
{
    *text = NULL;
    int st = hg_lammps_setting_check(s, dmax, e);
    if (st)
        return st;
    if (!(skin > 0.0) || !isfinite(skin))
        return hg_fail(e, HG_EINVAL, "skin: %g must be > 0", skin);
    size_t len = 0;
    FILE *f = open_memstream(text, &len);
    if (!f)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    char buf[64];
    snprintf(buf, sizeof buf, "%.6g", skin);
    if (s->ncoll == 0) {
        fprintf(f, "neighbor %s bin\n", buf);
        if (s->binsize > 0.0) {
            hg_lammps_format_up(s->binsize, buf, sizeof buf);
            fprintf(f, "neigh_modify binsize %s\n", buf);
        }
    } else {
        fprintf(f, "neighbor %s multi\n", buf);
        fprintf(f, "neigh_modify collection/interval %d", s->ncoll);
        double prev = 0.0;
        for (int i = 0; i < s->ncoll; i++) {
            double need = s->cut[i];
            if (i == s->ncoll - 1 && need < dmax)
                need = dmax;
            if (i > 0 && !(need > prev))
                need = nextafter(prev, INFINITY);
            prev = hg_lammps_format_up(need, buf, sizeof buf);
            fprintf(f, " %s", buf);
        }
        fprintf(f, "\ncomm_modify mode multi\n");
    }
    return hg_settings_text_close(f, text, e);
}

/* ---- the settings writer of the engine: --format lammps ---- */

int hg_lammps_write_settings(const hg_engine_settings *in, char **text,
                             hg_err *e)
{
    if (in->grid) /* the KOL grid's levels as collections */
        return hg_export_lammps(in->grid, text, e);
    if (in->answer)
        return in->evaluated ? evaluated_text(in, text, e)
                             : answer_text(in, text, e);
    hg_lammps_setting s = {0};
    double dmax = 2.0 * hg_psd_rmax(in->psd);
    if (in->levels > 1 || (in->levels == 1 && in->model &&
                           strcmp(in->model, "lammps-bin") != 0)) {
        s.ncoll = in->levels;
        for (int i = 0; i < in->levels && i < HG_LAMMPS_MAX_COLLECTIONS; i++)
            s.cut[i] = in->sizes[i];
    }
    int st = hg_lammps_setting_check(&s, dmax, e);
    if (st)
        return st;
    double skin = in->skin > 0.0 ? in->skin : hg_export_default_skin(in->psd);
    return hg_lammps_lines(&s, skin, dmax, text, e);
}
