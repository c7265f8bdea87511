#include "host_file.h"

#include <stdio.h>
#include <stdlib.h>

void *host_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  void *buf = NULL;
  long n;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
    buf = malloc((size_t)n + 4);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
      free(buf);
      buf = NULL;
    }
    *len = (size_t)n;
  }
  fclose(f);
  return buf;
}

int host_open_model(const char *tool, const char *path, llm_model_t *m) {
  size_t len;
  void *image = host_read_file(path, &len);
  const char *error = "cannot read";
  if (image && !llm_model_open(m, image, len, 0, &error)) return 0;
  fprintf(stderr, "%s: %s: %s\n", tool, path, error);
  return 2;
}
