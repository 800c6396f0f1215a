/* golden_compare.c - compare an output with its stored golden copy:
 * numbers must agree within a relative tolerance, everything else exactly.
 * Usage: golden_compare EXPECTED ACTUAL [REL_TOL]   (exit 0 when equal) */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "golden_compare: cannot open %s\n", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0, got;
    char *b = malloc(cap);
    while (b && (got = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb) {
                free(b);
                b = NULL;
            } else {
                b = nb;
            }
        }
    }
    fclose(f);
    if (b)
        b[n] = '\0';
    return b;
}

/* A number starts with a digit, or a sign/point followed by a digit. */
static int number_at(const char *p, const char *start, double *v,
                     const char **end)
{
    if (p > start && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
        return 0;
    const char *q = p;
    if (*q == '-' || *q == '+')
        q++;
    if (*q == '.')
        q++;
    if (!isdigit((unsigned char)*q))
        return 0;
    char *e;
    *v = strtod(p, &e);
    if (e == p)
        return 0;
    *end = e;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: golden_compare EXPECTED ACTUAL [REL_TOL]\n");
        return 2;
    }
    double tol = argc > 3 ? atof(argv[3]) : 1e-6;
    char *a = slurp(argv[1]), *b = slurp(argv[2]);
    if (!a || !b)
        return 2;
    const char *p = a, *q = b;
    int line = 1;
    while (*p || *q) {
        double x, y;
        const char *pe, *qe;
        int nx = number_at(p, a, &x, &pe), ny = number_at(q, b, &y, &qe);
        if (nx && ny) {
            double scale = fmax(fabs(x), fabs(y));
            if (fabs(x - y) > tol * scale && fabs(x - y) > 1e-12) {
                fprintf(stderr,
                        "%s:%d: number %.12g differs from expected %.12g\n",
                        argv[2], line, y, x);
                return 1;
            }
            p = pe;
            q = qe;
            continue;
        }
        if (*p != *q) {
            fprintf(stderr, "%s:%d: text differs from %s\n", argv[2], line,
                    argv[1]);
            return 1;
        }
        line += *p == '\n';
        p++;
        q++;
    }
    free(a);
    free(b);
    return 0;
}
