/* json.c - JSON text with shortest round-trip numbers (hg_json_print). */
#include "hg_io.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Depth-first over the document: a finite number becomes a raw item
 * holding its text, which cJSON_Print copies verbatim. Non-finite numbers
 * stay numbers (cJSON writes them as null). */
static int shorten(cJSON *it)
{
    for (; it; it = it->next) {
        if (cJSON_IsNumber(it) && isfinite(it->valuedouble)) {
            char buf[HG_NUMLEN];
            hg_fmt_double(buf, it->valuedouble);
            char *txt = malloc(strlen(buf) + 1);
            if (!txt)
                return -1;
            strcpy(txt, buf);
            it->type = cJSON_Raw;
            it->valuestring = txt; /* freed by cJSON_Delete */
        } else if (it->child && shorten(it->child)) {
            return -1;
        }
    }
    return 0;
}

char *hg_json_print(cJSON *json)
{
    if (!json || shorten(json))
        return NULL;
    return cJSON_Print(json);
}
