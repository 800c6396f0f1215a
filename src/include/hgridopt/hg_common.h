/* hg_common.h - status codes, error messages and key=value lists shared by
 * every hgridopt module.
 *
 * Conventions (all modules):
 *  - functions return an int status: HG_OK (0) or a negative HG_E* code;
 *  - a detailed one-line message goes into a caller-provided hg_err (which
 *    may be NULL when the caller does not want it);
 *  - the library never prints, never exits and never aborts on bad input.
 */
#ifndef HG_COMMON_H
#define HG_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    HG_OK = 0,
    HG_EINVAL = -1,  /* invalid argument or parameter value */
    HG_ENOMEM = -2,  /* allocation failed */
    HG_EIO = -3,     /* file could not be opened, read or written */
    HG_EPARSE = -4,  /* malformed text (spec, CSV, JSON, particle file) */
    HG_ENUMERIC = -5,/* numerical failure (quadrature, root finding, NaN) */
    HG_EUNKNOWN = -6,/* unknown name (family, model, format, key) */
    HG_ELIMIT = -7   /* a size limit was exceeded */
};

/* Progress of a long run: stage is a short static text (e.g. a method's
 * name), fraction in [0, 1] the share of the whole run done so far.
 * params is the caller's. */
typedef void (*hg_progress_fn)(const char *stage, double fraction,
                               void *params);

/* Short static description of a status code. */
const char *hg_strerror(int status);

#define HG_ERRLEN 512

/* Caller-owned error message buffer. */
typedef struct hg_err {
    int status;
    char msg[HG_ERRLEN];
    int data; /* 1: the value at fault came from a file's content (a data
                 problem) rather than from an option; hg_fail clears it,
                 hg_fail_data and hg_err_data set it */
} hg_err;

/* Store a printf-style message and status in e (if e is not NULL) and
 * return status, so that `return hg_fail(e, HG_EINVAL, "...")` works. */
int hg_fail(hg_err *e, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* hg_fail for a value read from a file (sets e->data). */
int hg_fail_data(hg_err *e, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Mark the error in e as a file's (e->data = 1); returns status. */
int hg_err_data(hg_err *e, int status);

/* Shortest decimal text of v that reads back (strtod) as exactly v: the
 * first of %.1g .. %.17g that round-trips ("0.6", not
 * "0.59999999999999998"). Used wherever a number is echoed (specs, tables,
 * exports). buf holds at least HG_NUMLEN bytes; returns buf. */
#define HG_NUMLEN 32
char *hg_fmt_double(char *buf, double v);

/* Input size limit. Every file reader (particle files, system files,
 * table and sample distribution files) stops with HG_ELIMIT, naming the
 * file and the limit, once it has read more than hg_input_limit() bytes, so
 * that /dev/zero or a runaway file cannot exhaust memory. The default is
 * HG_INPUT_LIMIT_DEFAULT (1 GiB); the environment variable
 * HGRIDOPT_MAX_INPUT (bytes, or with a suffix K, M, G, T: powers of 1024)
 * replaces it when set and valid; hg_set_input_limit overrides both
 * (0 restores the default/environment value). The readers also reject NUL
 * bytes as soon as they read them. */
#define HG_INPUT_LIMIT_DEFAULT ((size_t)1 << 30)
size_t hg_input_limit(void);
void hg_set_input_limit(size_t bytes);
/* Parse "123", "64K", "1.5G" (powers of 1024) into bytes; HG_EINVAL with a
 * message naming field unless it is a positive size. */
int hg_parse_size(const char *text, const char *field, size_t *out,
                  hg_err *e);

/* Parse a finite double from the whole of text (no trailing garbage).
 * On failure returns HG_EPARSE with a message naming field and text. */
int hg_parse_double(const char *text, const char *field, double *out, hg_err *e);
/* Parse a base-10 integer in [lo, hi] from the whole of text. */
int hg_parse_long(const char *text, const char *field, long lo, long hi,
                  long *out, hg_err *e);

/* Parse a list of finite numbers separated by sep (',' on the command
 * line, ';' inside key=value parameters), e.g. "1,2.5,4", into a new array
 * (*out, caller frees; *n items). Whitespace around items is ignored. An
 * empty text or an empty item is HG_EPARSE; the message names field. */
int hg_parse_list(const char *text, char sep, const char *field,
                  double **out, size_t *n, hg_err *e);

/* Monotonic wall clock in seconds (clock_gettime CLOCK_MONOTONIC). */
double hg_wall_seconds(void);
/* CPU time of the process in seconds (CLOCK_PROCESS_CPUTIME_ID). */
double hg_cpu_seconds(void);

/* qsort comparator: doubles in ascending order. */
int hg_cmp_double(const void *a, const void *b);

/* The number of entries of sorted (n, ascending) that are <= x. */
size_t hg_count_le(const double *sorted, size_t n, double x);
/* h with len bytes of data folded in by FNV-1a (64 bit; start from
 * 14695981039346656037): a key of cached results, not a checksum. */
uint64_t hg_fnv1a(uint64_t h, const void *data, size_t len);

/* An ordered list of key=value strings (both owned by the list). */
typedef struct hg_kv_item {
    char *key;
    char *val;
} hg_kv_item;

typedef struct hg_kv {
    size_t n;
    hg_kv_item *items;
} hg_kv;

/* Parse "k1=v1,k2=v2" (whitespace around keys and values is trimmed) and
 * append to kv. An empty text gives an empty list. Duplicate keys are an
 * error. */
int hg_kv_parse(const char *text, hg_kv *kv, hg_err *e);
/* Append a copy of key and val. Duplicate keys are an error. */
int hg_kv_add(hg_kv *kv, const char *key, const char *val, hg_err *e);
/* Value of key or NULL. */
const char *hg_kv_get(const hg_kv *kv, const char *key);
/* Free all items; the list is empty afterwards. Accepts NULL. */
void hg_kv_clear(hg_kv *kv);
/* Fail with HG_EUNKNOWN naming the first key of kv not in the
 * NULL-terminated list `known`; `what` names the owner in the message. */
int hg_kv_check_known(const hg_kv *kv, const char *const *known,
                      const char *what, hg_err *e);
/* Read key as a finite double. If absent: HG_OK with *present = 0 (present
 * may be NULL only when required != 0; then absence is an error). */
int hg_kv_double(const hg_kv *kv, const char *key, int required,
                 double *out, int *present, const char *what, hg_err *e);

#ifdef __cplusplus
}
#endif
#endif
