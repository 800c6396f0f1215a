/* algorithm.c - names of the bundled grid's cross-level search. */
#include "hg_grid.h"

#include <string.h>

const char *hg_algorithm_name(hg_algorithm a)
{
    switch (a) {
    case HG_TOP_DOWN:
        return "top-down";
    case HG_BOTTOM_UP:
        return "bottom-up";
    default:
        return "none";
    }
}

int hg_algorithm_parse(const char *text, hg_algorithm *out, hg_err *e)
{
    if (text && (!strcmp(text, "top-down") || !strcmp(text, "topdown") ||
                 !strcmp(text, "td"))) {
        *out = HG_TOP_DOWN;
        return HG_OK;
    }
    if (text && (!strcmp(text, "bottom-up") || !strcmp(text, "bottomup") ||
                 !strcmp(text, "bu"))) {
        *out = HG_BOTTOM_UP;
        return HG_OK;
    }
    return hg_fail(e, HG_EUNKNOWN,
                   "algorithm: unknown value '%s' (top-down or bottom-up)",
                   text ? text : "");
}
