/* fuzz_sysfile.c - the system-file (JSON) reader. An accepted file with a
 * distribution not naming a file is also turned into a distribution. */
#include <string.h>

#include "fuzz_psd_check.h"
#include "hg_sysfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    char *text = fuzz_cstr(data, size);
    hg_sysfile s;
    hg_err e;
    if (hg_sysfile_parse(text, "fuzz.json", "/nonexistent", &s, &e) ==
        HG_OK) {
        if (s.family && !hg_kv_get(&s.params, "file")) {
            hg_psd_ctx ctx = {s.has_dim ? s.dim : 3, s.base_dir};
            hg_psd *psd = NULL;
            if (hg_psd_create(s.family, &s.params, &ctx, &psd, &e) == HG_OK)
                fuzz_check_psd(psd);
            hg_psd_free(psd);
        }
        hg_sysfile_clear(&s);
    } else {
        fuzz_check(e.msg[0] != '\0', "failure gives a message");
    }
    free(text);
    return 0;
}
