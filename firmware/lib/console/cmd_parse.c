#include "cmd_parse.h"

#include <string.h>

static bool is_space(char c) { return c == ' ' || c == '\t'; }

int cmd_split(char *line, char **argv) {
  int argc = 0;
  char *p = line;
  for (;;) {
    while (is_space(*p)) p++;
    if (*p == '\0') return argc;
    if (argc == CMD_MAX_ARGS) return -1;
    argv[argc++] = p;
    while (*p && !is_space(*p)) p++;
    if (*p) *p++ = '\0';
  }
}

const cmd_t *cmd_find(const cmd_t *table, const char *name) {
  for (; table->name; table++) {
    if (strcmp(table->name, name) == 0) return table;
  }
  return NULL;
}

bool cmd_parse_u32(const char *s, uint32_t *out) {
  uint32_t base = 10, value = 0;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
  }
  if (*s == '\0') return false;
  for (; *s; s++) {
    uint32_t digit;
    if (*s >= '0' && *s <= '9') digit = (uint32_t)(*s - '0');
    else if (base == 16 && *s >= 'a' && *s <= 'f') digit = (uint32_t)(*s - 'a' + 10);
    else if (base == 16 && *s >= 'A' && *s <= 'F') digit = (uint32_t)(*s - 'A' + 10);
    else return false;
    if (value > (UINT32_MAX - digit) / base) return false;
    value = value * base + digit;
  }
  *out = value;
  return true;
}

bool cmd_parse_i32_range(const char *s, int32_t min, int32_t max, int32_t *out) {
  bool negative = (s[0] == '-');
  uint32_t magnitude;
  if (!cmd_parse_u32(negative ? s + 1 : s, &magnitude)) return false;
  int64_t value = negative ? -(int64_t)magnitude : (int64_t)magnitude;
  if (value < min || value > max) return false;
  *out = (int32_t)value;
  return true;
}

bool cmd_parse_milli(const char *s, int32_t max_milli, int32_t *out) {
  int64_t value = 0;
  int places = -1; /* digits after the point; -1 before it */
  bool digits = false;
  for (; *s; s++) {
    if (*s == '.' && places < 0) {
      places = 0;
      continue;
    }
    if (*s < '0' || *s > '9' || places == 3) return false;
    value = value * 10 + (*s - '0');
    if (places >= 0) places++;
    digits = true;
    if (value > (int64_t)max_milli * 1000) return false;
  }
  for (int p = places < 0 ? 0 : places; p < 3; p++) value *= 10;
  if (!digits || value > max_milli) return false;
  *out = (int32_t)value;
  return true;
}
