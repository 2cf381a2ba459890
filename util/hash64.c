/* util/hash64.c: see hash64.h. */
#include "util/hash64.h"

#include <string.h>

static inline uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v * 0x9e3779b97f4a7c15ULL;
    h = (h << 31) | (h >> 33);
    return h * 0xbf58476d1ce4e5b9ULL;
}

uint64_t hash64(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed ^ (len * 0x94d049bb133111ebULL);
    while (len >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        h = mix(h, v);
        p += 8;
        len -= 8;
    }
    uint64_t tail = 0;
    memcpy(&tail, p, len);
    h = mix(h, tail ^ ((uint64_t)len << 56));
    h ^= h >> 29;
    h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 32);
}
