/* run_lines.h - the user's neighbor lines read back (run_lines.c). */
#ifndef HG_RUN_LINES_H
#define HG_RUN_LINES_H

#include "hg_whole_run.h"

/* lines ("neighbor 0.2 bin; neigh_modify delay 0", ';' or new lines
 * between commands) into s (binsize, collections) and *skin; *multi: the
 * style is multi; *has_coll: collection/interval given. Errors name the
 * word at fault (--setting: ...). */
int hg_run_lines_parse(const char *lines, hg_run_setting *s, double *skin,
                       int *multi, int *has_coll, hg_err *e);

#endif
