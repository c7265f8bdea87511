/* A generation sweep's finished tasks on disk (prune_eval --journal): a
   sweep of days stopped part way -- a session's end, a killed job -- goes
   on from its last finished task with the same results. The file's first
   line names the run (the command line and the task file's CRC), so one
   run's tasks never count for another's. */
#ifndef GEN_JOURNAL_H
#define GEN_JOURNAL_H

#include <stdint.h>
#include <stdio.h>

/* The array's modeled cost over some tokens, and the unpruned array's. */
typedef struct {
  uint64_t energy_fj, latency_ps, tokens, dense_fj, dense_ps;
} cost_sum_t;

/* One task under one (policy, budget): its score and what it cost, in all
   (prompt and answer) and for the answer's steps alone. */
typedef struct {
  double score;
  uint32_t evictions;
  cost_sum_t cost, decode;
} journal_result_t;

typedef struct {
  FILE *f;
  int n_tasks, n_runs;
  unsigned char *done;       /* [task]: finished in an earlier invocation */
  journal_result_t *results; /* [task * n_runs + run], of the finished tasks */
} gen_journal_t;

/* Opens PATH for a run named ID of N_TASKS tasks x N_RUNS results: the
   tasks it finished before (a task cut off part way is dropped), none for
   a new or empty file. 0, or -1 with the reason on stderr: another run's
   journal, a malformed line, a file that cannot be written. */
int gen_journal_open(gen_journal_t *j, const char *path, const char *id, int n_tasks, int n_runs);
/* Records task T's N_RUNS results and flushes them. 0, or -1. */
int gen_journal_add(gen_journal_t *j, int t, const journal_result_t *results);
void gen_journal_close(gen_journal_t *j);

#endif
