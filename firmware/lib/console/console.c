#include "console.h"

#include <stdio.h>
#include <string.h>

#include "sysctl.h"
#include "uart.h"

static const cmd_t *current_table;

int console_execute(const cmd_t *table, char *line) {
  char *argv[CMD_MAX_ARGS];
  int argc = cmd_split(line, argv);
  if (argc < 0) {
    printf("error: too many words (at most %d)\n", CMD_MAX_ARGS);
    return -1;
  }
  if (argc == 0) return 0;
  const cmd_t *cmd = cmd_find(table, argv[0]);
  if (!cmd) {
    printf("error: unknown command '%s' (try 'help')\n", argv[0]);
    return -1;
  }
  return cmd->fn(argc, argv);
}

void console_print_help(const cmd_t *table) {
  int name_w = 0, usage_w = 0;
  for (const cmd_t *c = table; c->name; c++) {
    int n = (int)strlen(c->name), u = (int)strlen(c->usage);
    name_w = n > name_w ? n : name_w;
    usage_w = u > usage_w ? u : usage_w;
  }
  for (; table->name; table++) printf("  %-*s %-*s  %s\n", name_w, table->name, usage_w, table->usage, table->help);
}

/* Bytes of a line that were not printable ASCII (reported after it). */
static unsigned dropped;

/* The last lines entered, oldest first overwritten (Up/Down recall them). */
#define HISTORY_LINES 4
static char history[HISTORY_LINES][CONSOLE_LINE_MAX];
static unsigned history_count; /* lines ever stored */

static void remember(const char *line) {
  if (!line[0]) return;
  if (history_count && !strcmp(history[(history_count - 1) % HISTORY_LINES], line)) return;
  char *slot = history[history_count % HISTORY_LINES];
  size_t n = 0;
  while (n + 1 < CONSOLE_LINE_MAX && line[n]) n++;
  memcpy(slot, line, n);
  slot[n] = '\0';
  history_count++;
}

/* Takes the last character shown off the terminal. */
static void erase_one(void) {
  uart_putc('\b');
  uart_putc(' ');
  uart_putc('\b');
}

/* Replaces the LEN characters shown with TEXT (at most SIZE - 1 of them). */
static unsigned show_instead(char *buf, unsigned len, unsigned size, const char *text) {
  for (; len > 0; len--) erase_one();
  for (; text[len] && len + 1 < size; len++) {
    buf[len] = text[len];
    uart_putc(text[len]);
  }
  return len;
}

/* Reads a line with echo, backspace and history (Up/Down); Ctrl-C abandons
   it (an empty line). Returns false when it was too long (the rest of it is
   swallowed). Printable ASCII only: other escape sequences (ESC [ ... final
   byte) are swallowed whole, other bytes are dropped and counted. */
static bool read_line(char *buf, unsigned size) {
  static bool after_cr; /* "\r\n" ends one line, not two */
  unsigned len = 0, back = 0; /* back: how many lines up the history */
  bool overflow = false;
  int escape = 0; /* 1: after ESC, 2: inside ESC [ or ESC O */
  dropped = 0;
  for (;;) {
    int c = uart_getc();
    if (escape) {
      if (escape == 1 && (c == '[' || c == 'O')) {
        escape = 2;
      } else if (escape == 1 || (c >= 0x40 && c <= 0x7e)) {
        unsigned stored = history_count < HISTORY_LINES ? history_count : HISTORY_LINES;
        if (escape == 2 && c == 'A' && back < stored) back++;
        else if (escape == 2 && c == 'B' && back > 0) back--;
        else c = 0;
        if (c) len = show_instead(buf, len, size, back ? history[(history_count - back) % HISTORY_LINES] : "");
        escape = 0;
      }
      continue;
    }
    if (c == 0x1b) {
      escape = 1;
      continue;
    }
    if (c == 0x03) { /* Ctrl-C: the line is abandoned */
      printf("^C\n");
      buf[0] = '\0';
      return true;
    }
    if (c == '\n' && after_cr) {
      after_cr = false;
      continue;
    }
    after_cr = (c == '\r');
    if (c == '\r' || c == '\n') {
      uart_putc('\r');
      uart_putc('\n');
      buf[len] = '\0';
      if (!overflow) remember(buf);
      return !overflow;
    }
    if (c == '\b' || c == 0x7f) {
      if (len > 0) {
        len--;
        erase_one();
      }
    } else if (c >= ' ' && c < 0x7f) {
      if (len + 1 < size) {
        buf[len++] = (char)c;
        uart_putc((char)c);
      } else {
        overflow = true;
      }
    } else if (c >= 0x80) {
      dropped++;
    }
  }
}

int console_cmd_help(int argc, char **argv) {
  (void)argc;
  (void)argv;
  printf("commands:\n");
  if (current_table) console_print_help(current_table);
  return 0;
}

int console_cmd_exit(int argc, char **argv) {
  int32_t code = 0;
  if (argc > 2 || (argc == 2 && !cmd_parse_i32_range(argv[1], 0, 255, &code))) {
    printf("error: usage: exit [0..255]\n");
    return -1;
  }
  printf("bye\n");
  sysctl_exit(code);
}

void console_run(const cmd_t *table) {
  static char line[CONSOLE_LINE_MAX];
  current_table = table;
  for (;;) {
    printf(CONSOLE_PROMPT);
    fflush(stdout);
    if (!read_line(line, sizeof line)) {
      printf("error: line too long (at most %d characters)\n", CONSOLE_LINE_MAX - 1);
      continue;
    }
    if (uart_take_errors()) printf("warning: characters were lost (receive overrun)\n");
    if (dropped) printf("warning: %u non-ASCII byte%s ignored\n", dropped, dropped > 1 ? "s" : "");
    console_execute(table, line);
  }
}
