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

/* One slot holds key, value and tag, so a probe touches one cache line
 * (the maps are large and looked up at random: the miss is the cost).  The
 * tag is 0 in an empty slot; otherwise the hash's low 31 bits with bit 31
 * set, so removal and growth find an entry's home slot without hashing it
 * again (capacity is at most 2^31). */
typedef struct u64map_slot {
    uint64_t key;
    uint32_t value;
    uint32_t tag;
} u64map_slot;

#define U64MAP_USED UINT32_C(0x80000000)

typedef struct u64map {
    u64map_slot *slots;
    size_t capacity; /* power of two */
    size_t count;
} u64map;

int u64map_init(u64map *m, size_t expected);
void u64map_destroy(u64map *m);
void u64map_clear(u64map *m);

/* Pointer to the value of key, or NULL.  Inline (below), as upsert: the
 * collectors look lines up at every L1 miss and departure, where the
 * call's own work weighed (bench/RESULTS.md, "Branch hier42"). */
static inline uint32_t *u64map_find(const u64map *m, uint64_t key);

/* Pointer to the value of key, inserting it with `initial` if absent;
 * *inserted says which.  NULL on out of memory (*inserted 0).  Inline
 * (below): the collectors insert at every L1 fill and departure, where the
 * call's own work weighed (bench/RESULTS.md, "Branch hier42"). */
static inline uint32_t *u64map_upsert(u64map *m, uint64_t key, uint32_t initial, int *inserted);
/* Doubles the table (upsert's, when it would be over half full); -1 on
 * out of memory, the map unchanged. */
int u64map_grow(u64map *m);

/* Starts fetching the slot where key's probe begins: callers that know
 * their next keys (an instruction's requests) overlap the cache misses. */
static inline void u64map_prefetch(const u64map *m, uint64_t key);

/* Removes key if present (returns whether it was).  Pointers from find or
 * upsert are invalid after a removal: later entries may move back. */
int u64map_remove(u64map *m, uint64_t key);
/* Removes the entry whose value `value` points at (from find or upsert,
 * still valid): a removal without looking the key up again. */
void u64map_remove_at(u64map *m, uint32_t *value);

static inline uint64_t u64map_hash(uint64_t key)
{
    /* The splitmix64 finalizer: line addresses differ in few low bits, and
     * consecutive ones (which GPU streams touch together) must land apart,
     * or linear probing builds long clusters. */
    key ^= key >> 30;
    key *= 0xbf58476d1ce4e5b9ULL;
    key ^= key >> 27;
    key *= 0x94d049bb133111ebULL;
    return key ^ (key >> 31);
}

static inline void u64map_prefetch(const u64map *m, uint64_t key)
{
    __builtin_prefetch(&m->slots[u64map_hash(key) & (m->capacity - 1)]);
}

static inline uint32_t *u64map_find(const u64map *m, uint64_t key)
{
    size_t mask = m->capacity - 1;
    for (size_t i = u64map_hash(key) & mask; m->slots[i].tag; i = (i + 1) & mask)
        if (m->slots[i].key == key)
            return &m->slots[i].value;
    return NULL;
}

static inline uint32_t *u64map_upsert(u64map *m, uint64_t key, uint32_t initial, int *inserted)
{
    if ((m->count + 1) * 2 > m->capacity && u64map_grow(m) != 0) {
        *inserted = 0; /* defined for callers that read it before the NULL */
        return NULL;
    }
    size_t mask = m->capacity - 1;
    uint64_t hash = u64map_hash(key);
    size_t i = hash & mask;
    for (; m->slots[i].tag; i = (i + 1) & mask) {
        if (m->slots[i].key == key) {
            *inserted = 0;
            return &m->slots[i].value;
        }
    }
    m->slots[i] = (u64map_slot){.key = key, .value = initial, .tag = (uint32_t)hash | U64MAP_USED};
    m->count++;
    *inserted = 1;
    return &m->slots[i].value;
}

#endif
