/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32). */
#ifndef UTIL_CRC32_H
#define UTIL_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Continue CRC over LEN bytes; start with crc = 0. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len);

#endif
