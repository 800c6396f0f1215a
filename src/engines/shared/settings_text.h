/* settings_text.h - the parts of a settings text the engines share. */
#ifndef HG_SETTINGS_TEXT_H
#define HG_SETTINGS_TEXT_H

#include "hg_export.h"

#include <stdio.h>

/* The comment block of a KOL 2014 prediction (distribution, dim, nu, K,
 * algorithm and levels, where K came from, T = T_cd + K T_ca, and the
 * speed-up over the single-level linked cell when in->T_linked_cell is a
 * number), each line started by the comment mark c. */
void hg_settings_prediction_comment(FILE *f, const hg_export_input *in,
                                    const char *c);

/* Close the memory stream f of a settings text (open_memstream into
 * *text): HG_OK, or HG_ENOMEM with *text freed and NULL when the stream
 * failed. */
int hg_settings_text_close(FILE *f, char **text, hg_err *e);

#endif
