/* io_stream.h - buffered line input for the particle-file readers (not
 * installed; used by src/io/ and the white-box tests only).
 *
 * A stream reads a file, standard input or a block of memory, inflating
 * gzip data (one or several members, as `gzip` and LAMMPS' dump custom/gz
 * write) on the fly, and hands out lines. Only a window of the input is
 * held at a time, so a reader that does not keep what it has parsed (a
 * dump's skipped frames) runs in constant memory whatever the file's
 * size. Lines point into the stream's buffer and stay valid until the
 * next call on the stream.
 *
 * Refused as one line naming the file: a NUL byte in a line read (binary
 * data), a line longer than IO_STREAM_MAX_LINE, data compressed with
 * another program (zstd, bzip2, xz: the message says how to decompress
 * it), a corrupt or truncated gzip stream. */
#ifndef HG_IO_STREAM_H
#define HG_IO_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "hg_common.h"

#define IO_STREAM_MAX_LINE ((size_t)1 << 24)

typedef struct io_stream io_stream;

/* Open path ("-" = standard input). HG_EIO names the file and the reason. */
int io_stream_open(io_stream **out, const char *path, hg_err *e);
/* A stream over len bytes of memory (not copied: text must outlive the
 * stream); name is used in messages. */
int io_stream_open_mem(io_stream **out, const char *text, size_t len,
                       const char *name, hg_err *e);
void io_stream_close(io_stream *s); /* accepts NULL */

const char *io_stream_name(const io_stream *s);
/* 1 when the input is gzip-compressed. */
int io_stream_compressed(const io_stream *s);
/* Number of the line last returned by io_stream_line (1-based; 0 before
 * the first). */
long io_stream_lineno(const io_stream *s);

/* The first bytes of the (decompressed) input, without consuming them:
 * *head points at up to want bytes (fewer at the end of the input), *len
 * says how many. Only before the first io_stream_line. */
int io_stream_peek(io_stream *s, size_t want, const char **head,
                   size_t *len, hg_err *e);

/* Drop n bytes of the head just peeked (a byte-order mark). */
void io_stream_drop(io_stream *s, size_t n);
/* Size of the raw input in bytes (0 when not known: standard input). */
uint64_t io_stream_raw_size(const io_stream *s);

/* Next line, NUL-terminated, without its "\n" or "\r\n". Returns 1 for a
 * line, 0 at the end of the input, or a negative status. */
int io_stream_line(io_stream *s, char **line, size_t *len, hg_err *e);
/* Skip n lines without parsing them (no NUL check); *skipped (may be
 * NULL) says how many there were before the end of the input. */
int io_stream_skip(io_stream *s, size_t n, size_t *skipped, hg_err *e);

/* Position of the next line (decompressed byte offset) and its number,
 * for io_stream_seek. */
typedef struct io_stream_mark {
    uint64_t offset;
    long line; /* lines before it */
} io_stream_mark;
io_stream_mark io_stream_tell(const io_stream *s);
/* Go back (or on) to a mark. Plain files and memory seek; gzip input is
 * inflated again from its start; standard input cannot go back (HG_EIO):
 * io_stream_can_rewind says so beforehand. */
int io_stream_can_rewind(const io_stream *s);
int io_stream_seek(io_stream *s, io_stream_mark m, hg_err *e);

/* The rest of the input in memory: *text (NUL-terminated, caller frees),
 * *len bytes. HG_ELIMIT beyond hg_input_limit() bytes, HG_EPARSE on a NUL
 * byte. */
int io_stream_slurp(io_stream *s, char **text, size_t *len, hg_err *e);

/* Share of the raw input read so far, in [0, 1] (0 when the size is not
 * known: standard input). */
double io_stream_fraction(const io_stream *s);

/* Parse a decimal floating-point number at s (no leading blanks): the
 * same value as strtod, correctly rounded, with a fast path for up to 19
 * significant digits and exponents the double arithmetic represents
 * exactly. *end is set past it (to s when s holds no number). */
double io_strtod(const char *s, char **end);

#endif
