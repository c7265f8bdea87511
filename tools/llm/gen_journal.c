#include "gen_journal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { LINE_MAX_BYTES = 8192 };

#define COST_FORMAT(conv) " %" conv " %" conv " %" conv " %" conv " %" conv

static void write_cost(FILE *f, const cost_sum_t *c) {
  fprintf(f, COST_FORMAT(PRIu64), c->energy_fj, c->latency_ps, c->tokens, c->dense_fj, c->dense_ps);
}

static void write_result(FILE *f, int t, int run, const journal_result_t *r) {
  fprintf(f, "%d %d %.17g %" PRIu32, t, run, r->score, r->evictions);
  write_cost(f, &r->cost);
  write_cost(f, &r->decode);
  fputc('\n', f);
}

/* LINE's cost fields from its FIELD-th character on: 0, or -1 when malformed. */
static int read_cost(const char *line, int *field, cost_sum_t *c) {
  int used = 0;
  if (sscanf(line + *field, COST_FORMAT(SCNu64) "%n", &c->energy_fj, &c->latency_ps, &c->tokens, &c->dense_fj,
             &c->dense_ps, &used) != 5)
    return -1;
  *field += used;
  return 0;
}

/* The records of PATH's earlier invocations into J (HAVE: which arrived);
   0, 1 for no file or an empty one, -1 with the reason on stderr. */
static int read_old(gen_journal_t *j, const char *path, const char *header, unsigned char *have) {
  FILE *f = fopen(path, "r");
  if (!f) return 1;
  static char line[LINE_MAX_BYTES];
  int rc = 1;
  for (int number = 1; fgets(line, sizeof line, f); number++) {
    if (!strchr(line, '\n')) break; /* cut off as it was written */
    if (number == 1) {
      if (strcmp(line, header)) {
        fprintf(stderr, "prune_eval: %s is the journal of another run (its first line differs); delete it to "
                        "start again\n", path);
        rc = -1;
        break;
      }
      rc = 0;
      continue;
    }
    int t, run, used = 0;
    journal_result_t r;
    if (sscanf(line, "%d %d %lg %" SCNu32 "%n", &t, &run, &r.score, &r.evictions, &used) != 4 ||
        read_cost(line, &used, &r.cost) || read_cost(line, &used, &r.decode) || line[used] != '\n' || t < 0 ||
        t >= j->n_tasks || run < 0 || run >= j->n_runs) {
      fprintf(stderr, "prune_eval: %s:%d: malformed journal line\n", path, number);
      rc = -1;
      break;
    }
    j->results[(size_t)t * (size_t)j->n_runs + (size_t)run] = r;
    have[(size_t)t * (size_t)j->n_runs + (size_t)run] = 1;
  }
  fclose(f);
  return rc;
}

int gen_journal_open(gen_journal_t *j, const char *path, const char *id, int n_tasks, int n_runs) {
  const size_t cells = (size_t)n_tasks * (size_t)n_runs;
  *j = (gen_journal_t){.n_tasks = n_tasks, .n_runs = n_runs};
  j->done = calloc((size_t)n_tasks, 1);
  j->results = calloc(cells, sizeof *j->results);
  unsigned char *have = calloc(cells, 1);
  char *header = malloc(strlen(id) + 64);
  int rc = -1;
  if (!j->done || !j->results || !have || !header) {
    fprintf(stderr, "prune_eval: out of memory\n");
    goto out;
  }
  sprintf(header, "prune_eval journal 2 %d %d %s\n", n_tasks, n_runs, id);
  if (read_old(j, path, header, have) < 0) goto out;
  /* Keep the finished tasks only, written again whole: a task cut off part
     way is run again, and nothing torn stays behind to be appended to. */
  for (int t = 0; t < n_tasks; t++) j->done[t] = memchr(have + (size_t)t * n_runs, 0, (size_t)n_runs) == NULL;
  char *tmp = malloc(strlen(path) + 5);
  FILE *f = tmp ? fopen(strcat(strcpy(tmp, path), ".tmp"), "w") : NULL;
  if (!f) {
    fprintf(stderr, "prune_eval: cannot write %s.tmp\n", path);
    free(tmp);
    goto out;
  }
  fputs(header, f);
  for (int t = 0; t < n_tasks; t++)
    for (int run = 0; j->done[t] && run < n_runs; run++)
      write_result(f, t, run, &j->results[(size_t)t * (size_t)n_runs + (size_t)run]);
  int written = !ferror(f);
  written = !fclose(f) && written;
  written = written && !rename(tmp, path);
  free(tmp);
  if (!written || !(j->f = fopen(path, "a"))) {
    fprintf(stderr, "prune_eval: cannot write %s\n", path);
    goto out;
  }
  rc = 0;
out:
  free(have);
  free(header);
  if (rc) gen_journal_close(j);
  return rc;
}

int gen_journal_add(gen_journal_t *j, int t, const journal_result_t *results) {
  for (int run = 0; run < j->n_runs; run++) write_result(j->f, t, run, &results[run]);
  return fflush(j->f) || ferror(j->f) ? -1 : 0;
}

void gen_journal_close(gen_journal_t *j) {
  if (j->f) fclose(j->f);
  free(j->done);
  free(j->results);
  *j = (gen_journal_t){0};
}
