/* Reading a whole file for the host tools (model images, checkpoints). */
#ifndef HOST_FILE_H
#define HOST_FILE_H

#include <stddef.h>

/* The contents of PATH in a malloc'd buffer (4-byte aligned), or NULL. */
void *host_read_file(const char *path, size_t *len);

#endif
