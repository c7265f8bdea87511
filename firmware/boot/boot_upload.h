/* The bootloader's upload protocol, apart from the hardware it runs on (so
   the host can fuzz it: tests/fuzz/fuzz_upload.c). See bootloader.c for the
   exchange. */
#ifndef BOOT_UPLOAD_H
#define BOOT_UPLOAD_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
  int (*get_byte)(uint64_t deadline); /* a byte, or -1 once DEADLINE passed (0: never) */
  void (*put_char)(char c);
  uint64_t (*now)(void);
  uint8_t *(*ram)(uint32_t addr);    /* where memory address ADDR is (RAM or external) */
  void (*start)(uint32_t entry);     /* runs the image; does not return on the SoC */
  uint32_t ram_base, ram_bytes;      /* the top STACK_RESERVE bytes are the bootloader's */
  uint32_t ext_base, ext_bytes;      /* external memory (0 bytes: none); data only */
  uint64_t second;                   /* ticks of now() in a second */
} boot_port_t;

#define BOOT_MAGIC "UCB1"
#define BOOT_HEADER_MAGIC "UCHD"
#define BOOT_BLOCK_BYTES 1024u
#define BOOT_STACK_RESERVE 4096u
/* The entry of an image that is only loaded: a program in pieces (its data
   in external memory) sends every piece but the last with it. */
#define BOOT_NO_ENTRY 0xFFFFFFFFu

/* Waits for the 4-byte MAGIC until DEADLINE (0 = forever); false on timeout. */
bool boot_wait_for(const boot_port_t *p, const char *magic, uint64_t deadline);

/* One upload after the boot magic: the header, the image, its check, then
   p->start -- or, with entry BOOT_NO_ENTRY, "LOADED ..." and a return.
   Returns also when the upload is refused (with "ERR <reason>" sent). */
void boot_receive(const boot_port_t *p);

void boot_put_str(const boot_port_t *p, const char *s);
void boot_put_hex(const boot_port_t *p, uint32_t v);

#endif
