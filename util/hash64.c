/* util/hash64.c: see hash64.h. */
#include "util/hash64.h"

#include <string.h>

static inline uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v * 0x9e3779b97f4a7c15ULL;
    h = (h << 31) | (h >> 33);
    return h * 0xbf58476d1ce4e5b9ULL;
}

static inline uint64_t start(size_t len, uint64_t seed)
{
    return seed ^ (len * 0x94d049bb133111ebULL);
}

/* The last 0 to 7 bytes, and the finish. */
static inline uint64_t finish(uint64_t h, const unsigned char *p, size_t len)
{
    uint64_t tail = 0;
    memcpy(&tail, p, len);
    h = mix(h, tail ^ ((uint64_t)len << 56));
    h ^= h >> 29;
    h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 32);
}

uint64_t hash64(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = start(len, seed);
    while (len >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        h = mix(h, v);
        p += 8;
        len -= 8;
    }
    return finish(h, p, len);
}

void hash64_begin(hash64_stream *s, size_t len, uint64_t seed)
{
    s->h = start(len, seed);
    s->held = 0;
}

void hash64_add(hash64_stream *s, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len > 0) {
        size_t n = 8 - s->held < len ? 8 - s->held : len;
        memcpy(s->bytes + s->held, p, n);
        s->held += n;
        p += n;
        len -= n;
        if (s->held == 8) {
            uint64_t v;
            memcpy(&v, s->bytes, 8);
            s->h = mix(s->h, v);
            s->held = 0;
        }
    }
}

uint64_t hash64_end(const hash64_stream *s) { return finish(s->h, s->bytes, s->held); }
