#include "bpe_pretok.h"

static int in_ranges(const uint32_t *r, int count, uint32_t cp) {
  int lo = 0, hi = count - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (cp < r[2 * mid]) hi = mid - 1;
    else if (cp > r[2 * mid + 1]) lo = mid + 1;
    else return 1;
  }
  return 0;
}

llm_char_class_t llm_bpe_class(const llm_bpe_t *t, uint32_t cp) {
  for (int k = LLM_CLASS_LETTER; k <= LLM_CLASS_SPACE; k++)
    if (in_ranges(t->class_range[k], t->class_count[k], cp)) return (llm_char_class_t)k;
  return LLM_CLASS_OTHER;
}

/* Invalid sequences (a stray continuation byte, a truncated or overlong
   sequence, a surrogate) decode as the lead byte alone, above Unicode's
   range so that it is in no class. */
uint32_t llm_utf8_next(const char *s, size_t avail, int *len) {
  const uint8_t *u = (const uint8_t *)s;
  uint32_t cp = u[0];
  int n = cp < 0x80 ? 1 : cp >= 0xC2 && cp < 0xE0 ? 2 : cp >= 0xE0 && cp < 0xF0 ? 3 : cp >= 0xF0 && cp < 0xF5 ? 4 : 0;
  if (n == 1) {
    *len = 1;
    return cp;
  }
  uint32_t v = n ? cp & (0x7Fu >> n) : 0;
  for (int i = 1; i < n; i++) {
    if ((size_t)i >= avail || (u[i] & 0xC0) != 0x80) n = 0;
    else v = v << 6 | (u[i] & 0x3Fu);
  }
  static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (!n || v < least[n] || v > 0x10FFFF || (v >= 0xD800 && v < 0xE000)) {
    *len = 1;
    return 0x110000u + cp;
  }
  *len = n;
  return v;
}

static llm_char_class_t class_at(const llm_pretok_t *p, size_t pos, size_t end, int *len) {
  return llm_bpe_class(p->t, llm_utf8_next(p->text + pos, end - pos, len));
}

/* The end of the run of class K from POS (before END). */
static size_t run_of(const llm_pretok_t *p, size_t pos, size_t end, llm_char_class_t k) {
  int len;
  while (pos < end && class_at(p, pos, end, &len) == k) pos += (size_t)len;
  return pos;
}

/* GPT-2's pattern at POS in a segment without number characters. */
static size_t pattern(const llm_pretok_t *p, size_t pos, size_t end) {
  const char *s = p->text;
  if (s[pos] == '\'' && pos + 1 < end) {
    char c = s[pos + 1];
    if (c == 's' || c == 't' || c == 'm' || c == 'd') return pos + 2;
    if (pos + 2 < end) {
      char d = s[pos + 2];
      if ((c == 'r' && d == 'e') || (c == 'v' && d == 'e') || (c == 'l' && d == 'l')) return pos + 3;
    }
  }
  int len;
  llm_char_class_t k = class_at(p, pos, end, &len);
  if (s[pos] == ' ' && pos + 1 < end) { /* " ?" before a letter, number or other run */
    int len1;
    llm_char_class_t k1 = class_at(p, pos + 1, end, &len1);
    if (k1 != LLM_CLASS_SPACE) return run_of(p, pos + 1, end, k1);
  }
  if (k != LLM_CLASS_SPACE) return run_of(p, pos, end, k);
  /* \s+(?!\S): the run, less its last character when a non-space follows
     and that leaves one; else \s+, the run. */
  size_t q = pos, last = 0;
  int chars = 0;
  while (q < end && class_at(p, q, end, &len) == LLM_CLASS_SPACE) {
    q += (size_t)len;
    last = (size_t)len;
    chars++;
  }
  return q < end && chars >= 2 ? q - last : q;
}

void llm_pretok_start(llm_pretok_t *p, const llm_bpe_t *t, const char *text, size_t end) {
  p->t = t;
  p->text = text;
  p->end = end;
  p->seg_end = 0;
}

size_t llm_pretok_next(llm_pretok_t *p, size_t pos) {
  int len;
  if (class_at(p, pos, p->end, &len) == LLM_CLASS_NUMBER) return pos + (size_t)len;
  if (pos >= p->seg_end) { /* the run up to the next number character */
    size_t q = pos;
    while (q < p->end && class_at(p, q, p->end, &len) != LLM_CLASS_NUMBER) q += (size_t)len;
    p->seg_end = q;
  }
  return pattern(p, pos, p->seg_end);
}
