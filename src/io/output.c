/* output.c - atomic output files: data goes to a temporary file in the
 * folder of the target and replaces it by rename() only once everything
 * was written, so that a failed write (disk full, file size limit) never
 * leaves a truncated file nor destroys the file that was there. */
#include "hg_io.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct hg_output {
    FILE *f;
    char *path;  /* the name given (for messages) */
    char *final; /* the file replaced (symbolic links resolved) */
    char *tmp;   /* NULL: writing directly (stdout, devices, pipes) */
};

static void output_free(hg_output *o)
{
    free(o->path);
    free(o->final);
    free(o->tmp);
    free(o);
}

int hg_io_output_open(const char *path, hg_output **out, hg_err *e)
{
    *out = NULL;
    if (!path)
        return hg_fail(e, HG_EINVAL, "output: no file name");
    hg_output *o = calloc(1, sizeof *o);
    if (!o || !(o->path = strdup(path))) {
        free(o);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        *out = o;
        return HG_OK;
    }
    struct stat sb;
    int exists = stat(path, &sb) == 0;
    if (exists && !S_ISREG(sb.st_mode)) {
        /* /dev/null, /dev/stdout, a pipe: cannot be replaced by rename */
        o->f = fopen(path, "w");
        if (!o->f) {
            int st = hg_fail(e, HG_EIO, "%s: cannot open for writing: %s",
                             path, strerror(errno));
            output_free(o);
            return st;
        }
        *out = o;
        return HG_OK;
    }
    char *real = exists ? realpath(path, NULL) : NULL;
    o->final = real ? real : strdup(path);
    size_t len = o->final ? strlen(o->final) + 12 : 0;
    o->tmp = o->final ? malloc(len) : NULL;
    if (!o->tmp) {
        output_free(o);
        return hg_fail(e, HG_ENOMEM, "out of memory");
    }
    snprintf(o->tmp, len, "%s.tmpXXXXXX", o->final);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int st = hg_fail(e, HG_EIO,
                         "cannot write '%s' (no temporary file can be "
                         "created next to it): %s",
                         path, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        output_free(o);
        return st;
    }
    /* the permissions a plain fopen would give (or the old file's) */
    mode_t mode;
    if (exists) {
        mode = sb.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    (void)fchmod(fd, mode);
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        int st = hg_fail(e, HG_EIO, "%s: %s", path, strerror(errno));
        close(fd);
        unlink(o->tmp);
        output_free(o);
        return st;
    }
    *out = o;
    return HG_OK;
}

FILE *hg_io_output_stream(hg_output *o) { return o ? o->f : NULL; }

const char *hg_io_output_name(const hg_output *o)
{
    return o ? o->path : "(none)";
}

int hg_io_output_commit(hg_output *o, hg_err *e)
{
    if (!o)
        return hg_fail(e, HG_EINVAL, "output: not open");
    int st = HG_OK;
    errno = 0;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int err = errno;
    if (o->f == stdout) {
        if (bad)
            st = hg_fail(e, HG_EIO, "standard output: write error%s%s",
                         err ? ": " : "", err ? strerror(err) : "");
        output_free(o);
        return st;
    }
    if (fclose(o->f) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (bad) {
        if (o->tmp) {
            unlink(o->tmp);
            st = hg_fail(e, HG_EIO,
                         "%s: write error%s%s (nothing written; the "
                         "previous file, if any, is unchanged)",
                         o->path, err ? ": " : "", err ? strerror(err) : "");
        } else {
            st = hg_fail(e, HG_EIO, "%s: write error%s%s", o->path,
                         err ? ": " : "", err ? strerror(err) : "");
        }
    } else if (o->tmp && rename(o->tmp, o->final) != 0) {
        err = errno;
        unlink(o->tmp);
        st = hg_fail(e, HG_EIO, "%s: cannot replace it by the new file: %s",
                     o->path, strerror(err));
    }
    output_free(o);
    return st;
}

void hg_io_output_abort(hg_output *o)
{
    if (!o)
        return;
    if (o->f && o->f != stdout)
        fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    output_free(o);
}
