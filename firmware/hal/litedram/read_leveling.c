#include "read_leveling.h"

read_level_t read_level_choose(const uint32_t *ok, unsigned bitslips, unsigned taps) {
  read_level_t best = {0, 0, 0};
  for (unsigned b = 0; b < bitslips; b++) {
    unsigned start = 0, run = 0;
    for (unsigned d = 0; d <= taps; d++) {
      if (d < taps && (ok[b] >> d) & 1u) {
        if (run++ == 0) start = d;
        continue;
      }
      if (run > best.width) best = (read_level_t){b, start + (run - 1) / 2, run};
      run = 0;
    }
  }
  return best;
}
