/* settings.c - what every engine's settings text shares: the default
 * neighbour skin, the comment block stating the KOL 2014 prediction and
 * closing the text's stream. */
#include "settings_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

double hg_export_default_skin(const hg_psd *psd)
{
    return 0.1 * 2.0 * hg_psd_rmin(psd);
}

void hg_settings_prediction_comment(FILE *f, const hg_export_input *in,
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

int hg_settings_text_close(FILE *f, char **text, hg_err *e)
{
    if (fclose(f) != 0 || !*text) {
        free(*text);
        *text = NULL;
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    return HG_OK;
}
