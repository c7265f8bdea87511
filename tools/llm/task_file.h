/* Held-out retrieval tasks as tools/retrieval/tasks.py writes them, one per
   line: kind, needle depth (fraction of the context), answer spans
   start:end:needle,... and the token ids. */
#ifndef TASK_FILE_H
#define TASK_FILE_H

#include <stdio.h>

enum { TASK_MAX_SPANS = 16 };

typedef struct {
  char kind[16];
  double depth;
  int n, *tokens; /* tokens: room for the caller's maximum */
  int n_spans, span_start[TASK_MAX_SPANS], span_end[TASK_MAX_SPANS];
} retr_task_t;

/* Reads the next task of F (line number *LINE, for messages): 1, 0 at the
   end, -1 (message on stderr) when it is malformed, longer than MAX_TOKENS
   or has ids outside VOCAB. */
int task_file_next(FILE *f, const char *path, int *line, retr_task_t *t, int max_tokens, int vocab);

#endif
