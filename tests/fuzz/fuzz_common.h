/* fuzz_common.h - shared by the fuzz harnesses (tests/fuzz/).
 *
 * Each harness defines LLVMFuzzerTestOneInput. Built with clang's libFuzzer
 * (-DHG_FUZZ=ON) it is driven by the fuzzer; built without it, it is linked
 * with replay_main.c, which feeds it every file of the regression corpus.
 * A harness calls fuzz_check() for properties that must hold on any input
 * (finite results, exact write -> read round trips); a violation aborts so
 * that both drivers report it. */
#ifndef HG_FUZZ_COMMON_H
#define HG_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define fuzz_check(cond, what)                                               \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "fuzz: property violated: %s (%s:%d)\n", what,   \
                    __FILE__, __LINE__);                                     \
            abort();                                                         \
        }                                                                    \
    } while (0)

/* data as a NUL-terminated string (malloc'ed; caller frees). */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    for (size_t i = 0; i < size; i++)
        s[i] = (char)data[i];
    s[size] = '\0';
    return s;
}

#endif
