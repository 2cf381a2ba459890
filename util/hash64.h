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

/* The same hash of bytes given a piece at a time (a table written from a
 * temporary file: formats/wst_write.c), whose whole length is known first:
 *   hash64_begin(&s, len, seed); hash64_add(&s, piece, n) ...; hash64_end(&s)
 * equals hash64(all, len, seed) once the pieces add up to len bytes. */
typedef struct hash64_stream {
    uint64_t h;
    unsigned char bytes[8]; /* the piece of a step not yet mixed */
    size_t held;
} hash64_stream;
void hash64_begin(hash64_stream *s, size_t len, uint64_t seed);
void hash64_add(hash64_stream *s, const void *data, size_t len);
uint64_t hash64_end(const hash64_stream *s);

#endif
