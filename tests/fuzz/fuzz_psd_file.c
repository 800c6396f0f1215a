/* fuzz_psd_file.c - the data-file readers of the table and sample families
 * (FUZZ_FAMILY "table" or "sample"). The input is written to a temporary
 * file; its first byte picks the options (kind, basis, size, column), the
 * rest is the file. An accepted distribution must have the properties of
 * fuzz_check_psd. */
#include <string.h>
#include <unistd.h>

#include "fuzz_psd_check.h"

#ifndef FUZZ_FAMILY
#error "define FUZZ_FAMILY"
#endif

static char path[64];

static void cleanup(void) { unlink(path); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 1 << 20)
        return 0;
    if (!path[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(path, sizeof path, "%.30s/hgfuzzXXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        int fd = mkstemp(path);
        fuzz_check(fd >= 0, "mkstemp");
        close(fd);
        atexit(cleanup);
    }
    FILE *f = fopen(path, "wb");
    fuzz_check(f != NULL, "temporary file");
    fwrite(data + 1, 1, size - 1, f);
    fclose(f);
    unsigned o = data[0];
    char spec[256];
    if (strcmp(FUZZ_FAMILY, "table") == 0)
        snprintf(spec, sizeof spec, "table:file=%s,kind=%s,basis=%s,size=%s",
                 path, o & 1 ? "fraction" : "cumulative",
                 o & 2 ? "volume" : "number", o & 4 ? "diameter" : "radius");
    else
        snprintf(spec, sizeof spec, "sample:file=%s,column=%u,size=%s", path,
                 1 + (o & 1), o & 4 ? "diameter" : "radius");
    hg_psd_ctx ctx = {o & 8 ? 2 : 3, NULL};
    hg_psd *psd = NULL;
    hg_err e;
    if (hg_psd_parse(spec, &ctx, &psd, &e) == HG_OK) {
        fuzz_check_psd(psd);
        hg_psd_free(psd);
    } else {
        fuzz_check(psd == NULL && e.msg[0] != '\0', "failure gives a message");
    }
    return 0;
}
