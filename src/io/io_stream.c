/* io_stream.c - buffered, optionally gzip-inflated line input
 * (io_stream.h). */
#include "io_stream.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define RAW_CHUNK ((size_t)1 << 18)  /* compressed bytes read at a time */
#define BUF_START ((size_t)1 << 20)  /* initial window */

struct io_stream {
    char *name;
    int fd;            /* -1: memory */
    int own_fd;
    int seekable;      /* fd is a regular file */
    const unsigned char *mem;
    size_t mem_len;
    uint64_t raw_pos;  /* raw bytes consumed from the source */
    uint64_t raw_size; /* 0 when unknown */
    int gz;            /* inflating */
    int z_live;        /* z initialised */
    int z_end;         /* the last member ended; more input may follow */
    z_stream z;
    unsigned char *in; /* compressed input (gz) */
    size_t in_len;     /* bytes of in not yet consumed start at z.next_in */
    int raw_eof;
    char *buf;         /* decompressed window buf[beg, end) */
    size_t cap, beg, end;
    int eof;           /* no more bytes will come into buf */
    uint64_t pos;      /* decompressed offset of buf[beg] */
    long line;
    int started;       /* a line was returned */
};

static int stream_fail(const io_stream *s, hg_err *e, int status,
                       const char *what)
{
    return hg_fail(e, status, "%s: %s", s->name, what);
}

/* Raw bytes from the source into dst (at most n); 0 at its end. */
static int raw_read(io_stream *s, unsigned char *dst, size_t n, size_t *got,
                    hg_err *e)
{
    *got = 0;
    if (s->fd < 0) {
        size_t left = s->mem_len - (size_t)s->raw_pos;
        size_t k = left < n ? left : n;
        memcpy(dst, s->mem + s->raw_pos, k);
        s->raw_pos += k;
        *got = k;
        return HG_OK;
    }
    for (;;) {
        ssize_t k = read(s->fd, dst, n);
        if (k >= 0) {
            s->raw_pos += (uint64_t)k;
            *got = (size_t)k;
            return HG_OK;
        }
        if (errno != EINTR)
            return hg_fail(e, HG_EIO, "%s: read error: %s", s->name,
                           strerror(errno));
    }
}

static int raw_rewind(io_stream *s, hg_err *e)
{
    if (s->fd >= 0) {
        if (!s->seekable || lseek(s->fd, 0, SEEK_SET) != 0)
            return stream_fail(s, e, HG_EIO,
                               "cannot read the input a second time (give "
                               "a file, not standard input)");
    }
    s->raw_pos = 0;
    s->raw_eof = 0;
    return HG_OK;
}

/* What the first bytes of raw data say about their compression. */
static int check_magic(io_stream *s, const unsigned char *b, size_t n,
                       hg_err *e)
{
    static const struct {
        unsigned char m[6];
        size_t len;
        const char *what;
    } other[] = {
        {{0x28, 0xb5, 0x2f, 0xfd}, 4,
         "zstd-compressed data: decompress it first (zstd -d FILE), or "
         "write the dump with dump custom/gz"},
        {{'B', 'Z', 'h'}, 3, "bzip2-compressed data: decompress it first "
                             "(bunzip2 FILE)"},
        {{0xfd, '7', 'z', 'X', 'Z', 0}, 6, "xz-compressed data: decompress "
                                           "it first (unxz FILE)"},
    };
    s->gz = n >= 2 && b[0] == 0x1f && b[1] == 0x8b;
    for (size_t k = 0; k < sizeof other / sizeof *other; k++)
        if (n >= other[k].len && !memcmp(b, other[k].m, other[k].len))
            return stream_fail(s, e, HG_EPARSE, other[k].what);
    return HG_OK;
}

static int z_start(io_stream *s, hg_err *e)
{
    if (s->z_live)
        inflateEnd(&s->z);
    memset(&s->z, 0, sizeof s->z);
    if (inflateInit2(&s->z, 15 + 16) != Z_OK) /* gzip wrapper */
        return hg_fail(e, HG_ENOMEM, "%s: cannot start zlib", s->name);
    s->z_live = 1;
    s->z_end = 0;
    return HG_OK;
}

/* Make room at buf[end]: drop consumed bytes, grow when still full. */
static int make_room(io_stream *s, hg_err *e)
{
    if (s->beg > 0) {
        memmove(s->buf, s->buf + s->beg, s->end - s->beg);
        s->end -= s->beg;
        s->beg = 0;
    }
    if (s->cap - s->end < RAW_CHUNK + 1) {
        size_t nc = s->cap * 2;
        if (nc - s->end < RAW_CHUNK + 1)
            nc = s->end + RAW_CHUNK + 1;
        char *nb = realloc(s->buf, nc);
        if (!nb)
            return hg_fail(e, HG_ENOMEM, "%s: out of memory (%zu bytes)",
                           s->name, nc);
        s->buf = nb;
        s->cap = nc;
    }
    return HG_OK;
}

/* Append decompressed bytes at buf[end]; at least one byte unless the
 * input ended (then s->eof). */
static int fill(io_stream *s, hg_err *e)
{
    int st = make_room(s, e);
    if (st)
        return st;
    size_t room = s->cap - s->end - 1;
    if (!s->gz) {
        size_t got;
        if ((st = raw_read(s, (unsigned char *)s->buf + s->end, room, &got,
                           e)))
            return st;
        if (got == 0)
            s->eof = 1;
        s->end += got;
        return HG_OK;
    }
    for (;;) {
        if (s->in_len == 0 && !s->raw_eof) {
            size_t got;
            if ((st = raw_read(s, s->in, RAW_CHUNK, &got, e)))
                return st;
            s->z.next_in = s->in;
            s->in_len = got;
            if (got == 0)
                s->raw_eof = 1;
        }
        if (s->z_end) {
            if (s->in_len == 0 && s->raw_eof) {
                s->eof = 1;
                return HG_OK;
            }
            /* another gzip member follows */
            if ((st = z_start(s, e)))
                return st;
            s->z.next_in = s->in;
        }
        if (s->in_len == 0 && s->raw_eof)
            return stream_fail(s, e, HG_EPARSE,
                               "gzip data ends early (truncated file)");
        s->z.avail_in = (uInt)s->in_len;
        s->z.next_out = (unsigned char *)s->buf + s->end;
        s->z.avail_out = (uInt)(room > (1u << 30) ? (1u << 30) : room);
        uInt before_out = s->z.avail_out;
        int zr = inflate(&s->z, Z_NO_FLUSH);
        size_t produced = before_out - s->z.avail_out;
        s->in_len = s->z.avail_in;
        s->end += produced;
        if (zr == Z_STREAM_END) {
            s->z_end = 1;
            /* point the next member at what is left of in */
            if (s->in_len) {
                memmove(s->in, s->z.next_in, s->in_len);
            }
            s->z.next_in = s->in;
        } else if (zr != Z_OK && zr != Z_BUF_ERROR) {
            return hg_fail(e, HG_EPARSE, "%s: corrupt gzip data (%s)",
                           s->name, s->z.msg ? s->z.msg : "zlib error");
        } else if (zr == Z_BUF_ERROR && produced == 0 && s->in_len == 0 &&
                   s->raw_eof) {
            return stream_fail(s, e, HG_EPARSE,
                               "gzip data ends early (truncated file)");
        }
        if (produced > 0)
            return HG_OK;
    }
}

static int init_common(io_stream *s, hg_err *e)
{
    s->cap = BUF_START;
    s->buf = malloc(s->cap);
    if (!s->buf)
        return hg_fail(e, HG_ENOMEM, "%s: out of memory", s->name);
    /* the first raw bytes decide about compression */
    unsigned char head[8];
    size_t n = 0;
    if (s->fd < 0) {
        n = s->mem_len < sizeof head ? s->mem_len : sizeof head;
        memcpy(head, s->mem, n);
    } else {
        /* read them into the window: they are the start of the data
         * unless it is compressed */
        size_t got = 0;
        while (n < sizeof head) {
            int st = raw_read(s, head + n, sizeof head - n, &got, e);
            if (st)
                return st;
            if (got == 0)
                break;
            n += got;
        }
    }
    int st = check_magic(s, head, n, e);
    if (st)
        return st;
    if (s->gz) {
        if (!(s->in = malloc(RAW_CHUNK)))
            return hg_fail(e, HG_ENOMEM, "%s: out of memory", s->name);
        if ((st = z_start(s, e)))
            return st;
        if (s->fd >= 0) {
            memcpy(s->in, head, n);
            s->in_len = n;
            s->z.next_in = s->in;
        }
    } else if (s->fd >= 0) {
        memcpy(s->buf, head, n);
        s->end = n;
    }
    return HG_OK;
}

int io_stream_open(io_stream **out, const char *path, hg_err *e)
{
    *out = NULL;
    if (!path)
        return hg_fail(e, HG_EINVAL, "particle file: no file name");
    io_stream *s = calloc(1, sizeof *s);
    if (!s)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    int is_stdin = strcmp(path, "-") == 0;
    s->name = strdup(is_stdin ? "(stdin)" : path);
    s->fd = -1;
    if (!s->name) {
        free(s);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    int st = HG_OK;
    if (is_stdin) {
        s->fd = STDIN_FILENO;
    } else {
        s->fd = open(path, O_RDONLY);
        if (s->fd < 0) {
            st = hg_fail(e, HG_EIO, "%s: cannot open: %s", path,
                         strerror(errno));
            goto fail;
        }
        s->own_fd = 1;
        struct stat sb;
        if (fstat(s->fd, &sb) == 0) {
            if (S_ISDIR(sb.st_mode)) {
                st = hg_fail(e, HG_EIO, "%s: cannot read: it is a folder",
                             path);
                goto fail;
            }
            if (S_ISREG(sb.st_mode)) {
                s->seekable = 1;
                s->raw_size = (uint64_t)sb.st_size;
            }
        }
    }
    if ((st = init_common(s, e)))
        goto fail;
    *out = s;
    return HG_OK;
fail:
    io_stream_close(s);
    return st;
}

int io_stream_open_mem(io_stream **out, const char *text, size_t len,
                       const char *name, hg_err *e)
{
    *out = NULL;
    io_stream *s = calloc(1, sizeof *s);
    if (!s)
        return hg_fail(e, HG_ENOMEM, "out of memory");
    s->name = strdup(name ? name : "(memory)");
    s->fd = -1;
    s->mem = (const unsigned char *)text;
    s->mem_len = len;
    s->raw_size = len;
    s->seekable = 1;
    int st = s->name ? init_common(s, e)
                     : hg_fail(e, HG_ENOMEM, "out of memory");
    if (st) {
        io_stream_close(s);
        return st;
    }
    *out = s;
    return HG_OK;
}

void io_stream_close(io_stream *s)
{
    if (!s)
        return;
    if (s->z_live)
        inflateEnd(&s->z);
    if (s->own_fd && s->fd >= 0)
        close(s->fd);
    free(s->in);
    free(s->buf);
    free(s->name);
    free(s);
}

const char *io_stream_name(const io_stream *s) { return s->name; }
int io_stream_compressed(const io_stream *s) { return s->gz; }
long io_stream_lineno(const io_stream *s) { return s->line; }

double io_stream_fraction(const io_stream *s)
{
    if (!s->raw_size)
        return 0.0;
    double f = (double)s->raw_pos / (double)s->raw_size;
    return f > 1.0 ? 1.0 : f;
}

int io_stream_peek(io_stream *s, size_t want, const char **head,
                   size_t *len, hg_err *e)
{
    while (s->end - s->beg < want && !s->eof) {
        int st = fill(s, e);
        if (st)
            return st;
    }
    *head = s->buf + s->beg;
    *len = s->end - s->beg < want ? s->end - s->beg : want;
    return HG_OK;
}

void io_stream_drop(io_stream *s, size_t n)
{
    if (n > s->end - s->beg)
        n = s->end - s->beg;
    s->beg += n;
    s->pos += n;
}

uint64_t io_stream_raw_size(const io_stream *s) { return s->raw_size; }

int io_stream_line(io_stream *s, char **line, size_t *len, hg_err *e)
{
    size_t scanned = 0;
    for (;;) {
        char *b = s->buf + s->beg;
        size_t avail = s->end - s->beg;
        char *nl = memchr(b + scanned, '\n', avail - scanned);
        if (nl || (s->eof && avail > 0)) {
            size_t n = nl ? (size_t)(nl - b) : avail;
            size_t used = nl ? n + 1 : n;
            s->line++;
            if (memchr(b, '\0', n))
                return hg_fail(e, HG_EPARSE,
                               "%s:%ld: binary data (NUL byte) in a text "
                               "file",
                               s->name, s->line);
            b[n] = '\0'; /* the '\n', or the spare byte at the end */
            if (n > 0 && b[n - 1] == '\r')
                b[--n] = '\0';
            s->beg += used;
            s->pos += used;
            s->started = 1;
            *line = b;
            if (len)
                *len = n;
            return 1;
        }
        if (s->eof)
            return 0;
        if (avail > IO_STREAM_MAX_LINE)
            return hg_fail(e, HG_EPARSE,
                           "%s:%ld: a line longer than %zu bytes (not a "
                           "text particle file?)",
                           s->name, s->line + 1, IO_STREAM_MAX_LINE);
        scanned = avail;
        int st = fill(s, e);
        if (st)
            return st;
    }
}

int io_stream_skip(io_stream *s, size_t n, size_t *skipped, hg_err *e)
{
    size_t done = 0;
    while (done < n) {
        char *b = s->buf + s->beg;
        size_t avail = s->end - s->beg;
        char *p = b, *end = b + avail;
        while (done < n) {
            char *nl = memchr(p, '\n', (size_t)(end - p));
            if (!nl)
                break;
            p = nl + 1;
            done++;
        }
        size_t used = (size_t)(p - b);
        s->beg += used;
        s->pos += used;
        if (done == n)
            break;
        if (s->eof) {
            if (s->end > s->beg) { /* a last line without '\n' */
                s->pos += s->end - s->beg;
                s->beg = s->end;
                done++;
            }
            break;
        }
        int st = fill(s, e);
        if (st)
            return st;
    }
    s->line += (long)done;
    if (skipped)
        *skipped = done;
    return HG_OK;
}

io_stream_mark io_stream_tell(const io_stream *s)
{
    io_stream_mark m = {s->pos, s->line};
    return m;
}

int io_stream_can_rewind(const io_stream *s)
{
    return s->fd < 0 || s->seekable;
}

int io_stream_seek(io_stream *s, io_stream_mark m, hg_err *e)
{
    /* ahead within the window (the lines handed out were cut in place:
     * going back means reading again) */
    uint64_t win_lo = s->pos - s->beg, win_hi = s->pos + (s->end - s->beg);
    if (m.offset >= s->pos && m.offset <= win_hi) {
        size_t at = (size_t)(m.offset - win_lo);
        s->beg = at;
        s->pos = m.offset;
        s->line = m.line;
        return HG_OK;
    }
    int st;
    /* plain data: straight to the offset (memory, or a regular file) */
    if (!s->gz && (s->fd < 0 || s->seekable)) {
        if (s->fd >= 0 && lseek(s->fd, (off_t)m.offset, SEEK_SET) < 0)
            return hg_fail(e, HG_EIO, "%s: cannot seek: %s", s->name,
                           strerror(errno));
        s->raw_pos = m.offset;
        s->beg = s->end = 0;
        s->eof = 0;
        s->pos = m.offset;
        s->line = m.line;
        return HG_OK;
    }
    /* gzip, or standard input: behind the window only from the start
     * again (not possible on standard input), ahead by reading on */
    if (m.offset < s->pos) {
        if ((st = raw_rewind(s, e)))
            return st;
        if (s->gz && (st = z_start(s, e)))
            return st;
        s->in_len = 0;
        s->beg = s->end = 0;
        s->eof = 0;
        s->pos = 0;
    }
    while (s->pos + (s->end - s->beg) < m.offset) {
        s->pos += s->end - s->beg;
        s->beg = s->end;
        if (s->eof)
            return stream_fail(s, e, HG_EIO, "input shorter on a second "
                                             "reading (file changed?)");
        if ((st = fill(s, e)))
            return st;
    }
    size_t skip = (size_t)(m.offset - s->pos);
    s->beg += skip;
    s->pos = m.offset;
    s->line = m.line;
    return HG_OK;
}

int io_stream_slurp(io_stream *s, char **text, size_t *len, hg_err *e)
{
    *text = NULL;
    size_t limit = hg_input_limit();
    for (;;) {
        if (s->end - s->beg > limit)
            return hg_fail(e, HG_ELIMIT,
                           "%s: larger than the input limit of %zu bytes "
                           "(raise it with 'hgridopt --max-input SIZE' or "
                           "the environment variable HGRIDOPT_MAX_INPUT)",
                           s->name, limit);
        if (s->eof)
            break;
        int st = fill(s, e);
        if (st)
            return st;
    }
    size_t n = s->end - s->beg;
    const char *nul = memchr(s->buf + s->beg, '\0', n);
    if (nul)
        return hg_fail(e, HG_EPARSE,
                       "%s: binary data (NUL byte at offset %llu) in a text "
                       "file",
                       s->name,
                       (unsigned long long)(s->pos +
                                            (uint64_t)(nul - s->buf -
                                                       s->beg)));
    /* hand the window over when it starts at the front */
    if (s->beg == 0) {
        s->buf[n] = '\0';
        *text = s->buf;
        s->buf = NULL;
        s->cap = s->end = 0;
    } else {
        char *t = malloc(n + 1);
        if (!t)
            return hg_fail(e, HG_ENOMEM, "%s: out of memory (%zu bytes)",
                           s->name, n);
        memcpy(t, s->buf + s->beg, n);
        t[n] = '\0';
        *text = t;
        s->beg = s->end;
    }
    s->pos += n;
    *len = n;
    if (!s->buf) { /* keep the stream usable (at its end) */
        s->buf = malloc(RAW_CHUNK + 2);
        s->cap = s->buf ? RAW_CHUNK + 2 : 0;
        s->beg = s->end = 0;
    }
    return HG_OK;
}

/* ---- numbers --------------------------------------------------------- */

static const double pow10_exact[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

double io_strtod(const char *s, char **end)
{
    const char *p = s;
    int neg = 0;
    if (*p == '-' || *p == '+')
        neg = *p++ == '-';
    uint64_t m = 0;
    int sig = 0, exp10 = 0, digits = 0;
    while (*p >= '0' && *p <= '9') {
        if (m || *p != '0') {
            if (sig < 19)
                m = m * 10 + (uint64_t)(*p - '0');
            else
                exp10++;
            sig++;
        }
        digits++;
        p++;
    }
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9') {
            if (m || *p != '0') {
                if (sig < 19) {
                    m = m * 10 + (uint64_t)(*p - '0');
                    exp10--;
                }
                sig++;
            } else {
                exp10--;
            }
            digits++;
            p++;
        }
    }
    if (!digits)
        return strtod(s, end); /* inf, nan, hex or no number */
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        int eneg = 0;
        if (*q == '-' || *q == '+')
            eneg = *q++ == '-';
        if (*q >= '0' && *q <= '9') {
            int ev = 0;
            while (*q >= '0' && *q <= '9') {
                if (ev < 100000)
                    ev = ev * 10 + (*q - '0');
                q++;
            }
            exp10 += eneg ? -ev : ev;
            p = q;
        }
    }
    if (isalnum((unsigned char)*p) || *p == '.' || sig > 19 ||
        m > ((uint64_t)1 << 53) || exp10 > 22 || exp10 < -22)
        return strtod(s, end); /* let the C library decide */
    double v = (double)m;
    if (m != 0)
        v = exp10 >= 0 ? v * pow10_exact[exp10] : v / pow10_exact[-exp10];
    *end = (char *)p;
    return neg ? -v : v;
}
