#include "kernels.h"

#include <stdint.h>
#include <string.h>

/* xorshift32: deterministic inputs. */
static uint32_t rng_state;
static uint32_t rng(void) {
  uint32_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return rng_state = x;
}

/* ---------------------------------------------------------------- sort */
#define SORT_N 1024
static int32_t sort_buf[SORT_N];

static void quicksort(int32_t *a, int lo, int hi) {
  while (lo < hi) {
    int32_t pivot = a[(lo + hi) / 2];
    int i = lo, j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        int32_t t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    }
    /* Recurse into the smaller part, loop on the larger: bounded stack. */
    if (j - lo < hi - i) {
      quicksort(a, lo, j);
      lo = i;
    } else {
      quicksort(a, i, hi);
      hi = j;
    }
  }
}

int kernel_sort(void) {
  rng_state = 12345;
  uint32_t sum_before = 0, sum_after = 0;
  for (int i = 0; i < SORT_N; i++) {
    sort_buf[i] = (int32_t)rng();
    sum_before += (uint32_t)sort_buf[i];
  }
  quicksort(sort_buf, 0, SORT_N - 1);
  for (int i = 0; i < SORT_N; i++) {
    sum_after += (uint32_t)sort_buf[i];
    if (i && sort_buf[i - 1] > sort_buf[i]) return 1;
  }
  return sum_before != sum_after;
}

/* ---------------------------------------------------------------- crc32 */
static uint32_t crc_table[256];

static uint32_t crc32(const uint8_t *p, uint32_t n) {
  uint32_t crc = 0xffffffffu;
  while (n--) crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return ~crc;
}

static uint32_t crc32_bitwise(const uint8_t *p, uint32_t n) {
  uint32_t crc = 0xffffffffu;
  while (n--) {
    crc ^= *p++;
    for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
  }
  return ~crc;
}

int kernel_crc32(void) {
  static uint8_t buf[4096];
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & -(c & 1));
    crc_table[i] = c;
  }
  /* The standard check value of CRC-32. */
  if (crc32((const uint8_t *)"123456789", 9) != 0xcbf43926u) return 1;
  rng_state = 777;
  for (uint32_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)rng();
  return crc32(buf, sizeof buf) != crc32_bitwise(buf, sizeof buf);
}

/* ---------------------------------------------------------------- matmul */
#define MAT_N 24
static int32_t mat_a[MAT_N][MAT_N], mat_b[MAT_N][MAT_N], mat_c[MAT_N][MAT_N], mat_d[MAT_N][MAT_N];

int kernel_matmul(void) {
  rng_state = 4242;
  for (int i = 0; i < MAT_N; i++) {
    for (int j = 0; j < MAT_N; j++) {
      mat_a[i][j] = (int32_t)(rng() % 2001) - 1000;
      mat_b[i][j] = (int32_t)(rng() % 2001) - 1000;
    }
  }
  for (int i = 0; i < MAT_N; i++) {
    for (int j = 0; j < MAT_N; j++) {
      int32_t acc = 0;
      for (int k = 0; k < MAT_N; k++) acc += mat_a[i][k] * mat_b[k][j];
      mat_c[i][j] = acc;
    }
  }
  /* Check with the other loop order. */
  memset(mat_d, 0, sizeof mat_d);
  for (int i = 0; i < MAT_N; i++) {
    for (int k = 0; k < MAT_N; k++) {
      for (int j = 0; j < MAT_N; j++) mat_d[i][j] += mat_a[i][k] * mat_b[k][j];
    }
  }
  return memcmp(mat_c, mat_d, sizeof mat_c) != 0;
}

/* ---------------------------------------------------------------- string */
static const char *const words[] = {"once", "upon", "a", "time", "there", "was", "a", "little",
                                    "core", "that", "counted", "every", "cycle"};

int kernel_string(void) {
  static char text[2048], copy[2048];
  size_t len = 0;
  unsigned rounds = 0;
  while (len + 16 < sizeof text) {
    const char *w = words[rounds++ % (sizeof words / sizeof words[0])];
    strcpy(text + len, w);
    len += strlen(w);
    text[len++] = ' ';
    text[len] = '\0';
  }
  if (strlen(text) != len) return 1;
  memcpy(copy, text, len + 1);
  if (strcmp(copy, text) != 0) return 1;
  /* Count words by scanning for spaces; compare with the construction count. */
  unsigned spaces = 0;
  for (const char *p = text; (p = strchr(p, ' ')) != NULL; p++) spaces++;
  if (spaces != rounds) return 1;
  /* Reverse in place twice. */
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0, j = len - 1; i < j; i++, j--) {
      char t = copy[i];
      copy[i] = copy[j];
      copy[j] = t;
    }
  }
  return strcmp(copy, text) != 0;
}

/* ---------------------------------------------------------------- division */
int kernel_division(void) {
  rng_state = 99;
  uint32_t check = 0;
  for (int i = 0; i < 2000; i++) {
    int32_t n = (int32_t)rng(), d = (int32_t)(rng() >> (rng() & 31));
    uint32_t un = rng(), ud = rng() >> (rng() & 31);
    if (d == 0) d = 1;
    if (ud == 0) ud = 3;
    int32_t q = n / d, r = n % d;
    uint32_t uq = un / ud, ur = un % ud;
    /* The defining identities of truncating division. */
    if (q * d + r != n || (r != 0 && (r < 0) != (n < 0))) return 1;
    if (uq * ud + ur != un || ur >= ud) return 1;
    check += (uint32_t)q ^ uq;
  }
  return check == 0;
}
