/* fuzz_psd_spec.c - the distribution spec parser ("family:key=value,...").
 * Specs naming files (table, sample) are skipped: those readers have their
 * own harnesses. Dimension 3 for even sizes, 2 for odd. */
#include <string.h>

#include "fuzz_psd_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *spec = fuzz_cstr(data, size);
    if (strstr(spec, "file")) {
        free(spec);
        return 0;
    }
    hg_psd_ctx ctx = {size % 2 ? 2 : 3, NULL};
    hg_psd *psd = NULL;
    hg_err e;
    if (hg_psd_parse(spec, &ctx, &psd, &e) == HG_OK) {
        fuzz_check(psd != NULL, "success returns a distribution");
        fuzz_check_psd(psd);
        hg_psd_free(psd);
    } else {
        fuzz_check(psd == NULL && e.msg[0] != '\0',
                   "failure gives a message and no distribution");
    }
    free(spec);
    return 0;
}
