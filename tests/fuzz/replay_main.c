/* replay_main.c - runs a fuzz harness without libFuzzer: every file named
 * on the command line (or found in a folder named there) is passed once to
 * LLVMFuzzerTestOneInput. Used by the default test run to replay the
 * regression corpus tests/fuzz/corpus-regress/<target>/. */
#include "fuzz_common.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf)
            abort();
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            continue;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0)
            break;
        n += got;
    }
    fclose(f);
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int bad = 0, count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s does not exist\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            bad |= run_file(argv[i]);
            count++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d)
            return 1;
        char **names = NULL;
        size_t nn = 0;
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.')
                continue;
            names = realloc(names, (nn + 1) * sizeof *names);
            if (!names)
                abort();
            size_t len = strlen(argv[i]) + strlen(de->d_name) + 2;
            names[nn] = malloc(len);
            if (!names[nn])
                abort();
            snprintf(names[nn], len, "%s/%s", argv[i], de->d_name);
            nn++;
        }
        closedir(d);
        if (nn)
            qsort(names, nn, sizeof *names, by_name);
        for (size_t k = 0; k < nn; k++) {
            bad |= run_file(names[k]);
            count++;
            free(names[k]);
        }
        free(names);
    }
    fprintf(stderr, "replay: %d inputs, no property violated\n", count);
    return bad;
}
