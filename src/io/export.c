/* export.c - settings for LAMMPS and MercuryDPM. */
#include "hg_export.h"
#include "hg_lammps.h"
#include "hg_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double hg_export_default_skin(const hg_psd *psd)
{
    return 0.1 * 2.0 * hg_psd_rmin(psd);
}

/* Non-empty levels as (cell size, largest diameter on the level). */
static int nonempty_levels(const hg_export_input *in, double *size,
                           double *dmax, hg_err *e)
{
    int st = hg_sizes_check(in->psd, in->levels, in->sizes, 0, e);
    if (st)
        return st;
    double rmax = hg_psd_rmax(in->psd);
    int n = 0;
    for (int h = 0; h < in->levels; h++) {
        double lo = h == 0 ? 0.0 : 0.5 * in->sizes[h - 1];
        double hi = h == in->levels - 1 ? rmax : 0.5 * in->sizes[h];
        if (!(hg_psd_moment(in->psd, 0, lo, hi) > 0.0))
            continue;
        double d = fmin(in->sizes[h], 2.0 * rmax);
        if (n > 0 && !(d > dmax[n - 1])) {
            size[n - 1] = in->sizes[h];
            continue;
        }
        size[n] = in->sizes[h];
        dmax[n] = d;
        n++;
    }
    if (n == 0)
        return hg_fail(e, HG_EINVAL, "export: no level holds particles");
    return n;
}

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

static void prediction_comment(FILE *f, const hg_export_input *in,
                               const char *c)
{
    fprintf(f, "%s distribution: %s (r_min %.6g, r_max %.6g%s%s)\n", c,
            hg_psd_spec(in->psd), hg_psd_rmin(in->psd), hg_psd_rmax(in->psd),
            in->unit ? " " : "", in->unit ? in->unit : "");
    fprintf(f, "%s dim %d, nu %.4g, K %.4g; HGrid %s, %d level%s\n", c,
            in->sys->dim, in->sys->nu, in->K,
            hg_algorithm_name(in->algorithm), in->levels,
            in->levels == 1 ? "" : "s");
    if (in->K_note)
        fprintf(f, "%s K from %s\n", c, in->K_note);
    fprintf(f,
            "%s predicted work per particle (KOL 2014 model): T = %.6g "
            "(T_cd %.6g pair checks + K x %.6g cell accesses)\n",
            c, in->T, in->T_cd, in->T_ca);
    if (!isnan(in->T_linked_cell))
        fprintf(f,
                "%s single-level linked cell: T = %.6g -> predicted "
                "speed-up %.3g\n",
                c, in->T_linked_cell, in->T_linked_cell / in->T);
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
    if (fclose(f) != 0 || !*text) {
        free(*text);
        *text = NULL;
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    return HG_OK;
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
    prediction_comment(f, in, "#");
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

int hg_export_lammps_model(const hg_export_lammps_input *in, char **text,
                           hg_err *e)
{
    *text = NULL;
    const hg_lammps_optimum *o = in->optimum;
    double dmax = 2.0 * hg_psd_rmax(in->psd);
    char *lines = NULL;
    int st = hg_lammps_lines(&o->best, in->sys->skin, dmax, &lines, e);
    if (st)
        return st;
    size_t len = 0;
    FILE *f = lammps_text_open(text, &len, in->name, lines, e);
    if (!f)
        return HG_ENOMEM;
    fprintf(f, "# distribution: %s (r_min %.6g, r_max %.6g%s%s)\n",
            hg_psd_spec(in->psd), hg_psd_rmin(in->psd), hg_psd_rmax(in->psd),
            in->unit ? " " : "", in->unit ? in->unit : "");
    fprintf(f,
            "# dim %d, nu %.4g; LAMMPS model of the neighbor build for %.6g "
            "atoms per rank\n# (%d rank%s), constants: %s\n",
            in->sys->dim, in->sys->nu, in->sys->atoms / in->sys->nprocs,
            in->sys->nprocs, in->sys->nprocs == 1 ? "" : "s",
            in->consts_source ? in->consts_source : "given");
    skin_comment(f, in->sys->skin, in->skin_source);
    fprintf(f, "# predicted Neigh time per build: bin %.4g ms", 
            1e3 * o->bin_seconds);
    for (int n = 1; n <= o->max_coll; n++)
        if (isfinite(o->by_n_seconds[n]))
            fprintf(f, "%s multi %d: %.4g", n == 1 ? ";" : ",", n,
                    1e3 * o->by_n_seconds[n]);
    fprintf(f, "\n");
    if (o->best.ncoll == 0)
        fprintf(f, "# answer: bin (predicted fastest; ratio to bin 1)\n");
    else
        fprintf(f,
                "# answer: multi with %d collection%s, predicted Neigh time "
                "ratio to bin %.3g\n"
                "# Collections: atoms with diameter up to c_h form collection "
                "h (cutoffs rounded\n# up; the last covers the largest "
                "atom). Check it with\n# `hgridopt validate --engine "
                "lammps`, refine with `hgridopt tune --engine lammps`.\n",
                o->best.ncoll, o->best.ncoll == 1 ? "" : "s",
                o->seconds / o->bin_seconds);
    return lammps_text_close(f, text, in->sys->dim, lines, e);
}

int hg_export_mercurydpm(const hg_export_input *in, char **text, hg_err *e)
{
    *text = NULL;
    int cap = in->levels > 0 ? in->levels : 1;
    double *size = malloc(sizeof *size * (size_t)cap);
    double *dmax = malloc(sizeof *dmax * (size_t)cap);
    if (!size || !dmax) {
        free(size);
        free(dmax);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    int n = nonempty_levels(in, size, dmax, e);
    if (n < 0) {
        free(size);
        free(dmax);
        return n;
    }
    size_t len = 0;
    FILE *f = open_memstream(text, &len);
    if (!f) {
        free(size);
        free(dmax);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    const char *base = in->sys->dim == 2 ? "Mercury2D" : "Mercury3D";
    fprintf(f, "// --- HGrid settings by hgridopt");
    if (in->name)
        fprintf(f, " for %s", in->name);
    fprintf(f, " ---\n");
    prediction_comment(f, in, "//");
    fprintf(f,
            "// Derive your driver class from HGridOptimised (or paste the "
            "override and the\n// settings into your own %s subclass).\n"
            "#include \"%s.h\"\n#include <algorithm>\n#include <cmath>\n"
            "#include <limits>\n\n",
            base, base);
    fprintf(f, "class HGridOptimised : public %s\n{\npublic:\n", base);
    fprintf(f, "    HGridOptimised()\n    {\n");
    fprintf(f, "        setHGridMethod(%s);\n",
            in->algorithm == HG_TOP_DOWN ? "TOPDOWN" : "BOTTOMUP");
    fprintf(f, "        setHGridDistribution(USER);\n");
    fprintf(f, "        setHGridMaxLevels(%d);\n", n);
    fprintf(f, "        setHGridCellOverSizeRatio(1.0);\n    }\n\n");
    /* MercuryDPM puts a particle on the first level whose cell exceeds
     * its interaction diameter times the over-size ratio, and refuses
     * every insertion (no contact is found) when the top cell does not:
     * each size is nudged one ulp above its printed value (a diameter
     * equal to s_h stays on level h, as in the model), and the top one is
     * kept above the largest interaction diameter present when the grid
     * is built (cohesive species reach beyond their radius). */
    fprintf(f,
            "    // cell size of level 0..%d (length unit%s%s)\n"
            "    Mdouble userHGridCellSize(unsigned int level) override\n"
            "    {\n        static const Mdouble sizes[%d] = {",
            n - 1, in->unit ? ": " : " of the distribution",
            in->unit ? in->unit : "", n);
    for (int i = 0; i < n; i++) {
        char v[HG_NUMLEN];
        fprintf(f, "%s%s", i ? ", " : "", hg_fmt_double(v, size[i]));
    }
    fprintf(f,
            "};\n"
            "        const Mdouble up = std::numeric_limits<Mdouble>::max();\n"
            "        const Mdouble s = std::nextafter(sizes[level < %d ? "
            "level : %d], up);\n"
            "        if (level + 1 < %d)\n"
            "            return s;\n"
            "        // top level: strictly above the largest interaction "
            "diameter\n"
            "        Mdouble reach = 0.0;\n"
            "        for (BaseParticle* const p : particleHandler)\n"
            "            reach = std::max(reach, 2.0 * "
            "p->getMaxInteractionRadius() *\n"
            "                                        "
            "getHGridCellOverSizeRatio());\n"
            "        return std::max(s, std::nextafter(reach, up));\n"
            "    }\n};\n",
            n, n - 1, n);
    free(size);
    free(dmax);
    if (fclose(f) != 0 || !*text) {
        free(*text);
        *text = NULL;
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    return HG_OK;
}
