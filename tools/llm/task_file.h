/* Task files, one task a line. Retrieval tasks (tools/retrieval/tasks.py):
   kind, needle depth (fraction of the context), answer spans
   start:end:needle,... and the token ids, answers scored teacher-forced.
   Generation tasks (tools/llm/smol_tasks.py): kind, depth, the tokens to
   generate at most, the expected strings ('|'-separated, %XX escapes) and
   the prompt's token ids, answers scored in the greedy continuation. */
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

enum { GEN_MAX_ANSWERS = 16, GEN_ANSWER_BYTES = 64, GEN_MAX_NEW = 256 };

typedef struct {
  char kind[24];
  double depth;
  int max_new, n_answers;
  char answers[GEN_MAX_ANSWERS][GEN_ANSWER_BYTES];
  int n, *tokens; /* the prompt; tokens: room for the caller's maximum */
} gen_task_t;

/* The next generation task of F, as task_file_next. */
int gen_task_next(FILE *f, const char *path, int *line, gen_task_t *t, int max_tokens, int vocab);

#endif
