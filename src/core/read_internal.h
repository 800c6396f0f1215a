/* read_internal.h - bounded readers of text input shared by the particle,
 * system and distribution file readers (not installed). Both reject a NUL
 * byte as soon as it is read and stop once more than hg_input_limit()
 * bytes were read, so that neither binary data nor endless input
 * (/dev/zero) is ever held in memory. */
#ifndef HG_READ_INTERNAL_H
#define HG_READ_INTERNAL_H

#include <stdio.h>

#include "hg_common.h"

/* Read f to its end into *buf (NUL-terminated, caller frees; *len bytes
 * without the terminator). name is used in messages. HG_EPARSE on a NUL
 * byte (with its offset), HG_ELIMIT past the limit, HG_EIO, HG_ENOMEM. */
int hg_read_all(FILE *f, const char *name, char **buf, size_t *len,
                hg_err *e);

/* Read one line of f (without its '\n') into *line (grown as needed,
 * capacity *cap; caller frees). *total counts the bytes read so far and is
 * checked against the limit. Returns 1 for a line, 0 at the end of the
 * file, or a negative status (NUL byte: HG_EPARSE; limit: HG_ELIMIT; read
 * error: HG_EIO; HG_ENOMEM) with a message "name:lineno: ..." where lineno
 * is the number of the line being read. */
int hg_read_line(FILE *f, const char *name, long lineno, char **line,
                 size_t *cap, size_t *total, hg_err *e);

#endif
