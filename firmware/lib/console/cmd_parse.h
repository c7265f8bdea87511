/* Command-line parsing for the UART console: splitting a line into words,
   finding the command, and strict number parsing. Pure C without I/O, so the
   same code is fuzzed on the host. */
#ifndef CONSOLE_CMD_PARSE_H
#define CONSOLE_CMD_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CMD_MAX_ARGS 48

typedef int (*cmd_fn_t)(int argc, char **argv);

typedef struct {
  const char *name;
  const char *usage; /* arguments, e.g. "<value>" */
  const char *help;  /* one line */
  cmd_fn_t fn;       /* returns 0, or non-zero after printing an error */
} cmd_t;

/* Splits LINE in place into at most CMD_MAX_ARGS words separated by spaces or
   tabs. Returns the word count, or -1 when there are too many words. */
int cmd_split(char *line, char **argv);

/* The command called NAME in TABLE (terminated by a NULL name), or NULL. */
const cmd_t *cmd_find(const cmd_t *table, const char *name);

/* Decimal or 0x-hex, the whole word, no overflow. */
bool cmd_parse_u32(const char *s, uint32_t *out);
/* As above with an optional leading '-', within [MIN, MAX]. */
bool cmd_parse_i32_range(const char *s, int32_t min, int32_t max, int32_t *out);
/* A non-negative decimal with at most three places ("0.8", "1", "1.25") in
   thousandths, at most MAX_MILLI. */
bool cmd_parse_milli(const char *s, int32_t max_milli, int32_t *out);

#endif
