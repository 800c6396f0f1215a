/* fuzz_particles.c - one particle-file reader (FUZZ_FORMAT: any
 * hg_io_format; HG_IO_AUTO lets the content decide). Whatever the reader
 * accepts must pass hg_particles_check, be writable in the same format
 * (the formats hgridopt only reads: as extended XYZ), and read back from
 * that output exactly (same dimension, count, box, boundary, every
 * coordinate and radius bit for bit). */
#include <string.h>

#include "fuzz_common.h"
#include "hg_io.h"

#ifndef FUZZ_FORMAT
#error "define FUZZ_FORMAT"
#endif

static void same(const hg_particles *a, const hg_particles *b)
{
    fuzz_check(a->dim == b->dim, "round trip: dimension");
    fuzz_check(a->n == b->n, "round trip: particle count");
    fuzz_check(a->periodic == b->periodic, "round trip: boundary");
    for (int c = 0; c < a->dim; c++)
        fuzz_check(a->lo[c] == b->lo[c] && a->hi[c] == b->hi[c],
                   "round trip: box");
    fuzz_check(memcmp(a->x, b->x, a->n * (size_t)a->dim * sizeof *a->x) == 0,
               "round trip: coordinates");
    fuzz_check(memcmp(a->r, b->r, a->n * sizeof *a->r) == 0,
               "round trip: radii");
}

/* the format the round trip writes */
#define WRITE_FORMAT                                                       \
    (hg_io_format_writable(FUZZ_FORMAT) ? FUZZ_FORMAT : HG_IO_XYZ)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    hg_particles p, q;
    hg_err e;
    if (hg_io_read_mem((const char *)data, size, "fuzz", FUZZ_FORMAT, &p,
                       &e) != HG_OK) {
        fuzz_check(e.msg[0] != '\0', "failure gives a message");
        hg_particles_clear(&p);
        return 0;
    }
    fuzz_check(hg_particles_check(&p, &e) == HG_OK,
               "what is read passes hg_particles_check");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fuzz_check(f != NULL, "open_memstream");
    int st = hg_io_write_stream(f, "fuzz-out", WRITE_FORMAT, &p, &e);
    fclose(f);
    fuzz_check(st == HG_OK, "what is read can be written");
    st = hg_io_read_mem(buf, len, "fuzz-out", WRITE_FORMAT, &q, &e);
    if (st != HG_OK)
        fprintf(stderr, "fuzz: re-read failed: %s\n", e.msg);
    fuzz_check(st == HG_OK, "what is written can be read");
    same(&p, &q);
    hg_particles_clear(&q);
    hg_particles_clear(&p);
    free(buf);
    return 0;
}
