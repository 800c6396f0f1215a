/* settings.c - LIGGGHTS input lines: neighbor SKIN bin with the bin size
 * of neigh_modify binsize, and the comments of the prediction. */
#include "settings_text.h"
#include "hg_engine.h"
#include "hg_export.h"
#include "hg_liggghts.h"
#include "liggghts_engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


int hg_liggghts_lines(double binsize, double skin, char **text, hg_err *e)
{
    *text = NULL;
    if (!(binsize > 0.0) || !isfinite(binsize))
        return hg_fail(e, HG_EINVAL, "binsize: %g must be > 0", binsize);
    if (!(skin > 0.0) || !isfinite(skin))
        return hg_fail(e, HG_EINVAL, "skin: %g must be > 0", skin);
    char buf[160];
    int k = snprintf(buf, sizeof buf,
                     "neighbor %.6g bin\nneigh_modify binsize %.6g\n", skin,
                     binsize);
    if (!(*text = malloc((size_t)k + 1)))
        return hg_fail(e, HG_ENOMEM, "out of memory");
    memcpy(*text, buf, (size_t)k + 1);
    return HG_OK;
}

int hg_liggghts_write_settings(const hg_engine_settings *in, char **text,
                               hg_err *e)
{
    *text = NULL;
    if (in->levels != 1 || !in->sizes)
        return hg_fail(e, HG_EINVAL,
                       "--format liggghts: LIGGGHTS takes one bin size "
                       "(model liggghts-bin), not %d levels",
                       in->levels);
    double skin = in->skin > 0.0 ? in->skin : hg_export_default_skin(in->psd);
    double b = in->sizes[0], cut = hg_liggghts_cutoff(in->psd, skin);
    char *lines = NULL;
    int st = hg_liggghts_lines(b, skin, &lines, e);
    if (st)
        return st;
    size_t len = 0;
    FILE *f = open_memstream(text, &len);
    if (!f) {
        free(lines);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    const char *u = in->length_unit ? in->length_unit : "";
    fprintf(f, "# LIGGGHTS neighbour settings from hgridopt %s (model %s)%s%s\n",
            in->origin ? in->origin : "", in->model ? in->model : "?",
            in->name ? " for " : "", in->name ? in->name : "");
    fprintf(f, "# bin size %.6g%s%s = %.3g x the cutoff %.6g (2 r_max + "
               "skin); LIGGGHTS' default is half the cutoff, %.6g\n",
            b, *u ? " " : "", u, b / cut, cut, 0.5 * cut);
    if (isfinite(in->predicted))
        fprintf(f, "# predicted: %.4g %s (%.0f atoms, %d rank%s)\n",
                in->predicted, in->unit ? in->unit : "",
                in->atoms, in->ranks > 1 ? in->ranks : 1,
                in->ranks > 1 ? "s" : "");
    if (in->constants)
        fprintf(f, "# constants: %s\n", in->constants);
    fprintf(f, "# neighbor skin %.6g: %s\n", skin,
            in->skin_source ? in->skin_source : "as given");
    fputs("# not 'neighbor multi': in LIGGGHTS 3.8 it is a silent stub for "
          "granular pair styles (an empty neighbour list, no error)\n"
          "# keep 'newton off' in the input: granular tangential history "
          "needs it\n",
          f);
    fputs(lines, f);
    free(lines);
    return hg_settings_text_close(f, text, e);
}
