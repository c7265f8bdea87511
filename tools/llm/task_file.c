#include "task_file.h"

int task_file_next(FILE *f, const char *path, int *line, retr_task_t *t, int max_tokens, int vocab) {
  char spans[512];
  if (fscanf(f, "%15s %lf %511s", t->kind, &t->depth, spans) != 3) return 0;
  ++*line;
  int c;
  t->n = 0;
  while ((c = fgetc(f)) != '\n' && c != EOF) {
    if (c == ' ') continue;
    ungetc(c, f);
    if (t->n == max_tokens || fscanf(f, "%d", &t->tokens[t->n]) != 1 || t->tokens[t->n] < 0 ||
        t->tokens[t->n] >= vocab) {
      fprintf(stderr, "%s:%d: bad token or too long for the model\n", path, *line);
      return -1;
    }
    t->n++;
  }
  int used = 0, needle;
  t->n_spans = 0;
  for (const char *p = spans; t->n_spans < TASK_MAX_SPANS &&
                              sscanf(p, "%d:%d:%d%n", &t->span_start[t->n_spans], &t->span_end[t->n_spans],
                                     &needle, &used) == 3;) {
    int a = t->span_start[t->n_spans], b = t->span_end[t->n_spans];
    if (a < 1 || b > t->n || a >= b) {
      fprintf(stderr, "%s:%d: answer span outside the task\n", path, *line);
      return -1;
    }
    t->n_spans++;
    p += used;
    if (*p == ',') p++;
  }
  return 1;
}
