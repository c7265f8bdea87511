#include "task_file.h"

/* The rest of F's line as token ids into TOKENS (at most MAX, each below
   VOCAB); their count, or -1 (message on stderr). */
static int read_tokens(FILE *f, const char *path, int line, int *tokens, int max, int vocab) {
  int c, n = 0;
  while ((c = fgetc(f)) != '\n' && c != EOF) {
    if (c == ' ') continue;
    ungetc(c, f);
    if (n == max || fscanf(f, "%d", &tokens[n]) != 1 || tokens[n] < 0 || tokens[n] >= vocab) {
      fprintf(stderr, "%s:%d: bad token or too long for the model\n", path, line);
      return -1;
    }
    n++;
  }
  return n;
}

int task_file_next(FILE *f, const char *path, int *line, retr_task_t *t, int max_tokens, int vocab) {
  char spans[512];
  if (fscanf(f, "%15s %lf %511s", t->kind, &t->depth, spans) != 3) return 0;
  ++*line;
  if ((t->n = read_tokens(f, path, *line, t->tokens, max_tokens, vocab)) < 0) return -1;
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

/* "a|b%20c" -> the strings, %XX decoded; 0 or -1 when malformed. */
static int parse_answers(const char *field, gen_task_t *t) {
  t->n_answers = 0;
  size_t len = 0;
  for (const char *p = field;; p++) {
    if (*p == '|' || !*p) {
      if (!len || t->n_answers == GEN_MAX_ANSWERS) return -1;
      t->answers[t->n_answers++][len] = '\0';
      len = 0;
      if (!*p) return 0;
      continue;
    }
    unsigned byte = (unsigned char)*p;
    if (*p == '%' && sscanf(p + 1, "%2x", &byte) == 1 && p[1] && p[2]) p += 2;
    else if (*p == '%') return -1;
    if (len + 1 == GEN_ANSWER_BYTES || !byte) return -1;
    t->answers[t->n_answers][len++] = (char)byte;
  }
}

int gen_task_next(FILE *f, const char *path, int *line, gen_task_t *t, int max_tokens, int vocab) {
  char answers[GEN_MAX_ANSWERS * GEN_ANSWER_BYTES * 3];
  int got = fscanf(f, "%23s", t->kind);
  if (got != 1) return 0;
  ++*line;
  if (fscanf(f, "%lf %d %1535s", &t->depth, &t->max_new, answers) != 3 || t->max_new < 1 ||
      t->max_new > GEN_MAX_NEW || parse_answers(answers, t)) {
    fprintf(stderr, "%s:%d: malformed task (KIND DEPTH MAX_NEW(1..%d) ANSWER|... TOKEN...)\n", path, *line,
            GEN_MAX_NEW);
    return -1;
  }
  if ((t->n = read_tokens(f, path, *line, t->tokens, max_tokens, vocab)) < 0) return -1;
  if (t->n < 1) {
    fprintf(stderr, "%s:%d: the task has no prompt\n", path, *line);
    return -1;
  }
  return 1;
}
