/* config_file.h - the folders of hgridopt's stored files (the engines'
 * calibration files; the path rule itself is public: hg_config_path). */
#ifndef HG_CONFIG_FILE_H
#define HG_CONFIG_FILE_H

#include "hg_consts.h"

/* mkdir -p of the folders above path; what names the file in messages. */
int hg_config_make_folders(const char *path, const char *what, hg_err *e);

#endif
