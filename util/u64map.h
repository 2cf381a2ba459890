/* util/u64map.h: an open-addressing hash map from u64 keys to u32 values.
 *
 * The analyzer keys almost everything by line or block address and keeps the
 * per-key data in a dense array of its own; this map only finds the index.
 * Linear probing over a power-of-two table at most half full.  Removal
 * shifts the following entries back, so maps that track only what a cache
 * holds stay as small as the cache and in the CPU's cache. */
#ifndef WS_U64MAP_H
#define WS_U64MAP_H

#include <stddef.h>
#include <stdint.h>

/* One slot holds key, value and the used flag, so a probe touches one cache
 * line (the maps are large and looked up at random: the miss is the cost). */
typedef struct u64map_slot {
    uint64_t key;
    uint32_t value;
    uint32_t used;
} u64map_slot;

typedef struct u64map {
    u64map_slot *slots;
    size_t capacity; /* power of two */
    size_t count;
} u64map;

int u64map_init(u64map *m, size_t expected);
void u64map_destroy(u64map *m);
void u64map_clear(u64map *m);

/* Pointer to the value of key, or NULL. */
uint32_t *u64map_find(const u64map *m, uint64_t key);

/* Pointer to the value of key, inserting it with `initial` if absent;
 * *inserted says which.  NULL on out of memory. */
uint32_t *u64map_upsert(u64map *m, uint64_t key, uint32_t initial, int *inserted);

/* Starts fetching the slot where key's probe begins: callers that know
 * their next keys (an instruction's requests) overlap the cache misses. */
static inline void u64map_prefetch(const u64map *m, uint64_t key);

/* Removes key if present (returns whether it was).  Pointers from find or
 * upsert are invalid after a removal: later entries may move back. */
int u64map_remove(u64map *m, uint64_t key);

static inline uint64_t u64map_hash(uint64_t key)
{
    /* Runs of 4 consecutive keys (neighbouring lines, which GPU streams
     * touch together) share one 64-byte line of slots; the runs are spread
     * by the splitmix64 finalizer, since line addresses differ in few low
     * bits.  Callers mask with a capacity >= 16. */
    uint64_t run = key >> 2;
    run ^= run >> 30;
    run *= 0xbf58476d1ce4e5b9ULL;
    run ^= run >> 27;
    run *= 0x94d049bb133111ebULL;
    return (run ^ (run >> 31)) << 2 | (key & 3);
}

static inline void u64map_prefetch(const u64map *m, uint64_t key)
{
    __builtin_prefetch(&m->slots[u64map_hash(key) & (m->capacity - 1)]);
}

#endif
