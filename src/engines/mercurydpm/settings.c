/* settings.c - MercuryDPM settings: a C++ subclass of Mercury3D/2D whose
 * userHGridCellSize returns the chosen cell sizes, with the prediction. */
#include "hg_calib.h"
#include "hg_engine.h"
#include "hg_export.h"
#include "hg_mercurydpm.h"
#include "hg_model.h"
#include "mercurydpm_engine.h"
#include "settings_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    hg_settings_prediction_comment(f, in, "//");
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
    return hg_settings_text_close(f, text, e);
}

/* The export of the grid in: the KOL grid with its prediction as given
 * (in->grid), else the sizes given with their work from the model at
 * MercuryDPM's K (its calibration, else the shipped K). */
int hg_mercurydpm_write_settings(const hg_engine_settings *in, char **text,
                                 hg_err *e)
{
    *text = NULL;
    if (in && in->grid)
        return hg_export_mercurydpm(in->grid, text, e);
    if (!in || !in->psd || !in->sys || !in->sizes || in->levels < 1)
        return hg_fail(e, HG_EINVAL, "mercurydpm settings: no grid given");
    const hg_model *m = in->model ? hg_model_find(in->model) : NULL;
    if (!m || m->grid_algorithm == HG_GRID_NONE)
        m = hg_model_for_grid(in->algorithm == HG_BOTTOM_UP ? HG_BOTTOM_UP
                                                            : HG_TOP_DOWN);
    hg_model_values v;
    hg_work w;
    int st = hg_mercurydpm_values(&v, 1e-300, e);
    if (st == HG_OK)
        st = hg_cost_evaluate(m, in->psd, in->sys, &v, in->levels, in->sizes,
                              NULL, &w, e);
    if (st)
        return st;
    char note[600];
    hg_K_request rq = {.engine = &hg_engine_mercurydpm, .dim = in->sys->dim};
    hg_K_choice c;
    if ((st = hg_K_resolve(&rq, &c, e)))
        return st;
    double K = c.K;
    hg_K_choice_describe(&c, note, sizeof note);
    hg_export_input x;
    memset(&x, 0, sizeof x);
    x.psd = in->psd;
    x.sys = in->sys;
    x.algorithm = m->grid_algorithm;
    x.levels = in->levels;
    x.sizes = in->sizes;
    x.K = K;
    x.T_cd = w.T_cd;
    x.T_ca = w.T_ca;
    x.T = w.T_cd + K * w.T_ca;
    x.T_linked_cell = NAN;
    x.name = in->name;
    x.unit = in->length_unit;
    x.K_note = note;
    return hg_export_mercurydpm(&x, text, e);
}
