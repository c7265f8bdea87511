/* Reading a whole file for the host tools (model images, checkpoints). */
#ifndef HOST_FILE_H
#define HOST_FILE_H

#include <stddef.h>

#include "llm_model.h"

/* The contents of PATH in a malloc'd buffer (4-byte aligned), or NULL. */
void *host_read_file(const char *path, size_t *len);
/* The model image at PATH read and opened into M (its CRC checked);
   returns 0, or 2 after printing "TOOL: PATH: reason" on stderr. */
int host_open_model(const char *tool, const char *path, llm_model_t *m);

#endif
