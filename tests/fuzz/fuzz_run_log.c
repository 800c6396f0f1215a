/* fuzz_run_log.c - the reader of a LAMMPS/LIGGGHTS log (hg_run_log_read).
 * An accepted log has runs of steps, counts >= 0, Loop times finite and
 * > 0 in sum, Pair + Neigh within them, and NUL-terminated texts; a
 * refused one a message of one line. */
#include <math.h>
#include <string.h>

#include "fuzz_common.h"
#include "hg_whole_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 1 << 20)
        return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    hg_run_log L;
    hg_err e = {0};
    int st = hg_run_log_read_stream(f, "fuzz.log", &L, &e);
    fclose(f);
    if (st == HG_OK) {
        fuzz_check(L.runs >= 1 && L.procs >= 1 && L.steps > 0,
                   "runs, procs and steps > 0");
        fuzz_check(L.builds >= 0 && L.dangerous >= 0, "counts >= 0");
        fuzz_check(isfinite(L.loop) && L.loop > 0.0, "Loop time > 0");
        fuzz_check(isfinite(L.pair) && L.pair >= 0.0 && isfinite(L.neigh) &&
                       L.neigh >= 0.0 && isfinite(L.output) &&
                       L.output >= 0.0,
                   "timing rows finite and >= 0");
        fuzz_check(L.pair + L.neigh <= L.loop * (1.0 + 1e-3),
                   "Pair + Neigh within the Loop time");
        fuzz_check(L.untimed >= 0 && L.untimed <= L.runs,
                   "runs without a timing table counted");
        fuzz_check(!(L.timestep < 0.0) && isfinite(L.timestep),
                   "timestep finite, >= 0");
        fuzz_check(memchr(L.code, '\0', sizeof L.code) &&
                       memchr(L.lines, '\0', sizeof L.lines) &&
                       memchr(L.units, '\0', sizeof L.units),
                   "texts NUL-terminated");
    } else {
        fuzz_check(e.msg[0] != '\0', "failure gives a message");
        fuzz_check(!strchr(e.msg, '\n'), "the message is one line");
    }
    return 0;
}
