/* util/hash64.h: a fast 64-bit checksum for file integrity.
 *
 * Not cryptographic: it catches truncation, bit flips and misplaced bytes in
 * trace files (formats/).  Processes 8 bytes per step with a
 * multiply-xorshift mix; every input bit affects the result. */
#ifndef WS_HASH64_H
#define WS_HASH64_H

#include <stddef.h>
#include <stdint.h>

uint64_t hash64(const void *data, size_t len, uint64_t seed);

#endif
