/* Read levelling's choice for one byte lane of the DDR3: litedram_init.c
   scans the A7DDRPHY's input bitslips and delay taps, reading back a
   pattern at each setting; this picks the setting from what came back. */
#ifndef HAL_READ_LEVELING_H
#define HAL_READ_LEVELING_H

#include <stdint.h>

typedef struct {
  unsigned bitslip;
  unsigned delay; /* the tap in the middle of the window */
  unsigned width; /* good taps in the window; 0: none anywhere */
} read_level_t;

/* OK[b] has bit d set when the pattern read back right at bitslip b and
   delay tap d (TAPS <= 32). The widest run of consecutive good taps of any
   bitslip wins (the most margin either side), the lower bitslip on a tie. */
read_level_t read_level_choose(const uint32_t *ok, unsigned bitslips, unsigned taps);

#endif
