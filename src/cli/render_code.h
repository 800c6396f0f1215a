/* render_code.h - a code's own answer in table and JSON (render_code.c). */
#ifndef HG_RENDER_CODE_H
#define HG_RENDER_CODE_H

#include "cli.h"

/* The answer a (HG_ADVICE_COLLECTIONS or HG_ADVICE_SETTING) in
 * cs->opt.format: table, json, else its settings text; evaluated: a
 * setting given (evaluate), not chosen. Returns an exit code. */
int render_code(FILE *out, const cli_system *cs, const hg_advice *a,
                int evaluated);
/* The lines of text that are not comments (#): printed, or as a string
 * array under key. */
void render_print_lines(FILE *out, const char *text);
void render_json_lines(cJSON *obj, const char *key, const char *text);

#endif
