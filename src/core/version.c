/* version.c - the library's version and build options. */
#include "hg_version.h"

int hg_version(void) { return HG_VERSION_NUMBER; }

const char *hg_version_string(void) { return HG_VERSION_STRING; }

const char *hg_build_options(void)
{
    return "openmp="
#ifdef HG_HAVE_OPENMP
           "yes"
#else
           "no"
#endif
           " plot="
#ifdef HG_HAVE_PLOT
           "yes"
#else
           "no"
#endif
        ;
}
