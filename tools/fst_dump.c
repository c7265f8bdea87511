/* fst_dump: signals read back from a simulator's FST waveform, with the
   reader Verilator ships (its gtkwave/fstapi.c), for the tests that check a
   trace holds what the design did.
   usage: fst_dump FILE.fst CLOCK ENABLE DATA
   Each signal is named by the end of its hierarchical name ("u_uart.tx_pop").
   Prints DATA's value (hexadecimal) at every rising edge of CLOCK where
   ENABLE is 1, the values as they stood before the edge (what the flops
   sample), then "EDGES n" (CLOCK's rising edges in the trace). Exit 2 when a
   name matches no signal or the file is not an FST. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstapi.h"

enum { CLOCK, ENABLE, DATA, SIGNALS, MAX_PENDING = 4096 };

typedef struct {
  fstHandle handle[SIGNALS];
  uint64_t now[SIGNALS];     /* the values as they stand */
  int known[SIGNALS];        /* no x or z in them */
  uint64_t time;             /* of the pending changes */
  int n_pending;
  int which[MAX_PENDING];
  uint64_t value[MAX_PENDING];
  int ok[MAX_PENDING];
  unsigned long edges;
} reader_t;

/* "0101..." -> its value; 0 in *OK when a bit is x or z. */
static uint64_t bits(const unsigned char *v, int *ok) {
  uint64_t x = 0;
  *ok = 1;
  for (; *v; v++) {
    if (*v != '0' && *v != '1') *ok = 0;
    x = x << 1 | (*v == '1');
  }
  return x;
}

/* The changes of one time step: a rising clock samples the old values. */
static void settle(reader_t *r) {
  int rises = 0;
  for (int i = 0; i < r->n_pending; i++)
    if (r->which[i] == CLOCK && r->ok[i] && r->value[i] == 1 && r->known[CLOCK] && r->now[CLOCK] == 0) rises = 1;
  if (rises) {
    r->edges++;
    if (r->known[ENABLE] && r->now[ENABLE] == 1) printf("%llx\n", (unsigned long long)r->now[DATA]);
  }
  for (int i = 0; i < r->n_pending; i++) {
    r->now[r->which[i]] = r->value[i];
    r->known[r->which[i]] = r->ok[i];
  }
  r->n_pending = 0;
}

static void change(void *user, uint64_t time, fstHandle handle, const unsigned char *value) {
  reader_t *r = user;
  if (time != r->time || r->n_pending == MAX_PENDING) settle(r);
  r->time = time;
  for (int s = 0; s < SIGNALS; s++) {
    if (r->handle[s] != handle) continue;
    r->which[r->n_pending] = s;
    r->value[r->n_pending] = bits(value, &r->ok[r->n_pending]);
    r->n_pending++;
  }
}

static int ends_with(const char *name, const char *tail) {
  size_t n = strlen(name), t = strlen(tail);
  return n >= t && !strcmp(name + n - t, tail) && (n == t || name[n - t - 1] == '.');
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: fst_dump FILE.fst CLOCK ENABLE DATA\n");
    return 2;
  }
  void *fst = fstReaderOpen(argv[1]);
  if (!fst) {
    fprintf(stderr, "fst_dump: %s is not a readable FST file\n", argv[1]);
    return 2;
  }
  static reader_t r;
  char scope[4096] = "";
  struct fstHier *h;
  while ((h = fstReaderIterateHier(fst))) {
    if (h->htyp == FST_HT_SCOPE) {
      size_t used = strlen(scope);
      snprintf(scope + used, sizeof scope - used, "%s%s", used ? "." : "", h->u.scope.name);
    } else if (h->htyp == FST_HT_UPSCOPE) {
      char *dot = strrchr(scope, '.');
      if (dot) *dot = '\0';
      else scope[0] = '\0';
    } else if (h->htyp == FST_HT_VAR) {
      char name[4400]; /* scope.var, without the var's " [7:0]" */
      snprintf(name, sizeof name, "%s.%.*s", scope, (int)strcspn(h->u.var.name, " "), h->u.var.name);
      for (int s = 0; s < SIGNALS; s++)
        if (!r.handle[s] && ends_with(name, argv[2 + s]) && h->u.var.length <= 64) r.handle[s] = h->u.var.handle;
    }
  }
  for (int s = 0; s < SIGNALS; s++) {
    if (!r.handle[s]) {
      fprintf(stderr, "fst_dump: no signal named '%s' (of 64 bits at most) in %s\n", argv[2 + s], argv[1]);
      fstReaderClose(fst);
      return 2;
    }
    fstReaderSetFacProcessMask(fst, r.handle[s]);
  }
  fstReaderIterBlocks(fst, change, &r, NULL);
  settle(&r);
  printf("EDGES %lu\n", r.edges);
  fstReaderClose(fst);
  return 0;
}
