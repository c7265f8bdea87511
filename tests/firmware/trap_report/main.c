/* Test program: a load from address 0 (nothing is mapped there) must end in
   the HAL's fatal-trap report and exit code 128 + cause (5: load access fault). */
#include <stdint.h>
#include <stdio.h>

int main(void) {
  printf("reading address 0\n");
  volatile uint32_t *null_pointer = (volatile uint32_t *)0;
  printf("read %lu\n", (unsigned long)*null_pointer);
  return 0;
}
