/* analyzer/reuse.c: exact LRU stack distance in O(log n) per access (docs/metrics.md §3).
 *
 * Every key's last access holds one position on a timeline; a position is
 * "live" while it is some key's latest access.  The distance of an access is
 * the number of live positions after the key's previous one: exactly the
 * distinct keys touched since.  The timeline is a bit vector (1 = live) cut
 * into 512-bit blocks whose live counts sit in a Fenwick tree, so counting
 * the live positions after p costs one Fenwick prefix over blocks plus at most
 * eight popcounts.  The block being appended to stays out of the tree until
 * it fills (its live count is what remains of `keys`), so appends never
 * touch the tree and a short reuse, whose previous position is usually in
 * that block, costs no tree walk at all.  Keys map to their position through an open-addressing
 * table (linear probing: a hit usually costs one cache line).
 *
 * When the timeline is full, live positions are renumbered 0..live-1 in
 * order (and the timeline doubles if more than an eighth was live), so its
 * size stays within 8-16 positions per distinct key whatever the stream
 * length.  A position costs one bit, so that is 1-2 bytes per key against
 * the table's 21-43, and it makes renumbering (a sweep of the table) rare.
 *
 * A slot is 16 bytes (four to a cache line): key, position and the low 31
 * bits of the key's last access number, from which reuse times come.  Those
 * bits give the whole number as long as it lies within 2^31 of a floor the
 * state keeps; every 2^30 accesses a sweep moves the high bits of keys
 * older than that into a side map ("far" keys, usually few) and raises the
 * floor, so reuse times stay exact at any stream length. */
#include "analyzer/reuse.h"

#include <stdlib.h>
#include <string.h>

#include "util/u64map.h"

#define BLOCK_BITS 512
#define BLOCK_WORDS (BLOCK_BITS / 64)
#define SLOT_FREE UINT32_MAX
#define SHARDS_MODULUS (UINT64_C(1) << 24)

#define TIME_BITS 31
#define TIME_LOW_MASK ((UINT32_C(1) << TIME_BITS) - 1)
#define TIME_FAR (UINT32_C(1) << TIME_BITS) /* high bits in the far map */
#define TIME_WINDOW_DEFAULT (UINT64_C(1) << (TIME_BITS - 1))

typedef struct reuse_slot {
    uint64_t key;
    uint32_t pos;  /* timeline position; SLOT_FREE = empty slot */
    uint32_t time; /* low TIME_BITS of the previous access's number, | TIME_FAR */
} reuse_slot;
_Static_assert(sizeof(reuse_slot) == 16, "four slots to a cache line");

struct reuse_state {
    /* key -> slot */
    reuse_slot *slots;
    uint32_t slot_mask;   /* slot count - 1 (power of two), 0 before first use */
    uint32_t slot_shift;  /* 64 - log2(slot count) */
    uint64_t keys;
    /* timeline */
    uint64_t *live_bits;  /* capacity bits */
    uint32_t *block_tree; /* Fenwick tree (1-based) over block live counts */
    uint32_t capacity;    /* positions, multiple of BLOCK_BITS */
    uint32_t blocks;
    uint32_t top;         /* next free position */
    uint64_t sealed_live; /* live positions in the blocks before top's (the tree's total) */
    uint32_t initial_positions;
    uint64_t accesses;
    uint64_t renumberings;
    /* The last reuse's previous position + 1 and its distance: a key whose
     * previous position is that one repeats the distance (a repeated run). */
    uint32_t follow_pos; /* SLOT_FREE: none */
    uint64_t follow_distance;
    /* last access numbers: slots hold those in [time_floor, time_floor + 2^31) */
    uint64_t time_floor;
    uint64_t time_window; /* between sweeps; ≤ 2^30 */
    uint64_t next_sweep;  /* access number of the next sweep */
    u64map far;           /* key -> last access >> TIME_BITS, for TIME_FAR slots */
    /* SHARDS */
    double sample_rate;
    uint64_t sample_threshold; /* sample keys with hash mod 2^24 < threshold */
    uint64_t sample_seed;
};

reuse_state *reuse_state_new(const reuse_options *options, ws_error *err)
{
    reuse_options defaults = {0};
    if (!options)
        options = &defaults;
    double rate = options->sample_rate == 0 ? 1.0 : options->sample_rate;
    if (!(rate > 0 && rate <= 1))
        return ws_fail(err, "sample rate %g: must be in (0, 1]", rate), NULL;
    if (options->time_window > TIME_WINDOW_DEFAULT)
        return ws_fail(err, "reuse time window %llu: above 2^30",
                       (unsigned long long)options->time_window), NULL;
    uint64_t threshold = (uint64_t)(rate * (double)SHARDS_MODULUS + 0.5);
    if (threshold == 0)
        return ws_fail(err, "sample rate %g: below the smallest rate 2^-24", rate), NULL;
    reuse_state *state = calloc(1, sizeof *state);
    if (!state)
        return ws_fail(err, "out of memory"), NULL;
    state->sample_rate = rate;
    state->sample_threshold = threshold;
    state->sample_seed = options->sample_seed * UINT64_C(0xD1B54A32D192ED03);
    state->time_window = options->time_window ? options->time_window : TIME_WINDOW_DEFAULT;
    state->follow_pos = SLOT_FREE;
    state->next_sweep = state->time_window;
    uint64_t initial = options->initial_positions ? options->initial_positions : BLOCK_BITS;
    state->initial_positions = (uint32_t)((initial + BLOCK_BITS - 1) / BLOCK_BITS * BLOCK_BITS);
    return state;
}

void reuse_state_free(reuse_state *state)
{
    if (!state)
        return;
    free(state->slots);
    free(state->live_bits);
    free(state->block_tree);
    u64map_destroy(&state->far);
    free(state);
}

void reuse_state_reset(reuse_state *state)
{
    if (state->slots)
        for (uint32_t i = 0; i <= state->slot_mask; i++)
            state->slots[i].pos = SLOT_FREE;
    if (state->capacity) {
        memset(state->live_bits, 0, state->capacity / 8);
        memset(state->block_tree, 0, ((size_t)state->blocks + 1) * sizeof *state->block_tree);
    }
    state->keys = state->accesses = state->sealed_live = 0;
    state->top = 0;
    state->follow_pos = SLOT_FREE;
    state->time_floor = 0;
    state->next_sweep = state->time_window;
    if (state->far.slots)
        u64map_clear(&state->far);
}

uint64_t reuse_state_keys(const reuse_state *state) { return state->keys; }
uint64_t reuse_state_accesses(const reuse_state *state) { return state->accesses; }
uint64_t reuse_state_renumberings(const reuse_state *state) { return state->renumberings; }
double reuse_state_sample_rate(const reuse_state *state) { return state->sample_rate; }

size_t reuse_state_bytes(const reuse_state *state)
{
    size_t slots = state->slots ? (size_t)state->slot_mask + 1 : 0;
    return sizeof *state + slots * sizeof(reuse_slot) +
           (size_t)state->capacity / 8 + ((size_t)state->blocks + 1) * sizeof(uint32_t) +
           state->far.capacity * sizeof(u64map_slot);
}

/* ---- key table ----------------------------------------------------------- */

/* Runs of 8 consecutive keys (neighbouring lines, which GPU streams touch
 * together) get 8 neighbouring slots, so a streaming or tiled pass touches a
 * new table cache line every few keys instead of every key; the runs
 * themselves are spread by Fibonacci hashing.  Tables have ≥ 16 slots. */
#define REUSE_RUN_BITS 3
static inline uint32_t reuse_hash(const reuse_state *state, uint64_t key)
{
    uint64_t run = (key >> REUSE_RUN_BITS) * UINT64_C(0x9E3779B97F4A7C15);
    return (uint32_t)(run >> (state->slot_shift + REUSE_RUN_BITS)) << REUSE_RUN_BITS |
           (uint32_t)(key & ((1u << REUSE_RUN_BITS) - 1));
}

static int reuse_slots_resize(reuse_state *state, uint32_t count_log2)
{
    uint32_t count = UINT32_C(1) << count_log2;
    reuse_slot *slots = malloc((size_t)count * sizeof *slots);
    if (!slots)
        return -1;
    for (uint32_t i = 0; i < count; i++)
        slots[i].pos = SLOT_FREE;
    reuse_slot *old = state->slots;
    uint32_t old_count = old ? state->slot_mask + 1 : 0;
    state->slots = slots;
    state->slot_mask = count - 1;
    state->slot_shift = 64 - count_log2;
    for (uint32_t i = 0; i < old_count; i++) {
        if (old[i].pos == SLOT_FREE)
            continue;
        uint32_t at = reuse_hash(state, old[i].key);
        while (slots[at].pos != SLOT_FREE)
            at = (at + 1) & state->slot_mask;
        slots[at] = old[i];
    }
    free(old);
    return 0;
}

/* ---- timeline ------------------------------------------------------------ */

/* Live positions in blocks [0, block). */
static inline uint32_t reuse_tree_prefix(const uint32_t *tree, uint32_t block)
{
    uint32_t sum = 0;
    for (uint32_t i = block; i > 0; i &= i - 1)
        sum += tree[i];
    return sum;
}

static inline void reuse_tree_add(uint32_t *tree, uint32_t blocks, uint32_t block, int32_t delta)
{
    for (uint32_t i = block + 1; i <= blocks; i += i & -i)
        tree[i] += (uint32_t)delta;
}

static inline uint32_t reuse_block_live(const reuse_state *state, uint32_t block)
{
    uint32_t count = 0;
    for (uint32_t w = 0; w < BLOCK_WORDS; w++)
        count += (uint32_t)__builtin_popcountll(state->live_bits[block * BLOCK_WORDS + w]);
    return count;
}

/* Blocks before top's are "sealed": their counts are in the tree. */
static inline int reuse_block_sealed(const reuse_state *state, uint32_t block)
{
    return block < state->top / BLOCK_BITS;
}

/* Live positions strictly after p. */
static inline uint64_t reuse_live_after(const reuse_state *state, uint32_t p)
{
    uint32_t block = p / BLOCK_BITS, word = p / 64;
    const uint64_t *bits = state->live_bits;
    /* Live positions in p's block up to and including p. */
    uint32_t upto = (uint32_t)__builtin_popcountll(bits[word] << (63 - p % 64));
    for (uint32_t w = block * BLOCK_WORDS; w < word; w++)
        upto += (uint32_t)__builtin_popcountll(bits[w]);
    uint64_t before = reuse_block_sealed(state, block) ? reuse_tree_prefix(state->block_tree, block)
                                                       : state->sealed_live;
    return state->keys - before - upto;
}

/* Rebuilds the Fenwick tree of the sealed blocks in O(blocks). */
static void reuse_tree_build(reuse_state *state)
{
    uint32_t *tree = state->block_tree;
    tree[0] = 0;
    state->sealed_live = 0;
    for (uint32_t b = 0; b < state->blocks; b++) {
        tree[b + 1] = reuse_block_sealed(state, b) ? reuse_block_live(state, b) : 0;
        state->sealed_live += tree[b + 1];
    }
    for (uint32_t i = 1; i <= state->blocks; i++) {
        uint32_t parent = i + (i & -i);
        if (parent <= state->blocks)
            tree[parent] += tree[i];
    }
}

/* Moves live positions to 0..keys-1, keeping their order, then grows the
 * timeline if more than an eighth of it is live.  Each key's new position
 * is its rank among the live positions, found from per-block counts and at
 * most eight popcounts, in one sequential sweep of the table (no map from
 * positions back to keys to keep or to write at random).  Amortised O(1): a
 * renumbering follows at least 7/8 × capacity ≥ 7 × keys appends, and the
 * table has at most about 3 slots per key. */
static int reuse_timeline_renumber(reuse_state *state)
{
    uint32_t *live_before = state->block_tree; /* scratch until the tree is rebuilt */
    uint32_t next = 0;
    for (uint32_t b = 0; b < state->blocks; b++) {
        live_before[b] = next;
        next += reuse_block_live(state, b);
    }
    const uint64_t *bits = state->live_bits;
    for (uint32_t i = 0; state->slots && i <= state->slot_mask; i++) {
        reuse_slot *slot = &state->slots[i];
        if (slot->pos == SLOT_FREE)
            continue;
        uint32_t p = slot->pos, block = p / BLOCK_BITS, word = p / 64;
        uint32_t rank = live_before[block] +
                        (uint32_t)__builtin_popcountll(bits[word] & ((UINT64_C(1) << (p % 64)) - 1));
        for (uint32_t w = block * BLOCK_WORDS; w < word; w++)
            rank += (uint32_t)__builtin_popcountll(bits[w]);
        slot->pos = rank;
    }
    if (state->capacity)
        memset(state->live_bits, 0, state->capacity / 8);
    state->renumberings++;
    state->follow_pos = SLOT_FREE; /* positions change */
    uint64_t capacity = state->capacity;
    if (capacity == 0)
        capacity = state->initial_positions;
    while ((uint64_t)next * 8 > capacity)
        capacity *= 2;
    /* If growing fails, the old timeline still works as long as it has room. */
    if (capacity != state->capacity && capacity <= UINT32_MAX - BLOCK_BITS) {
        uint32_t blocks = (uint32_t)(capacity / BLOCK_BITS);
        uint64_t *grown = realloc(state->live_bits, capacity / 8);
        if (grown)
            state->live_bits = grown;
        uint32_t *tree = grown ? realloc(state->block_tree, ((size_t)blocks + 1) * sizeof *tree) : NULL;
        if (tree) {
            state->block_tree = tree;
            memset(state->live_bits + state->capacity / 64, 0, (capacity - state->capacity) / 8);
            state->capacity = (uint32_t)capacity;
            state->blocks = blocks;
        }
    }
    for (uint32_t p = 0; p < next; p++)
        state->live_bits[p / 64] |= UINT64_C(1) << (p % 64);
    state->top = next;
    reuse_tree_build(state);
    return state->top < state->capacity ? 0 : -1;
}

/* ---- last access numbers -------------------------------------------------- */

/* The whole last access number of a slot that is not far. */
static inline uint64_t reuse_slot_last(const reuse_state *state, const reuse_slot *slot)
{
    return state->time_floor + ((slot->time - (uint32_t)state->time_floor) & TIME_LOW_MASK);
}

/* Moves keys last accessed a window or more before `now` to the far map
 * and raises the floor to the oldest number left in the slots.  Every slot
 * number is below the sweep that was due, so the old floor still decodes
 * them even when sampling skipped the access the sweep was due at. */
static int reuse_sweep(reuse_state *state, uint64_t now)
{
    if (!state->far.slots && u64map_init(&state->far, 16) != 0)
        return -1;
    for (uint32_t i = 0; state->slots && i <= state->slot_mask; i++) {
        reuse_slot *slot = &state->slots[i];
        if (slot->pos == SLOT_FREE || (slot->time & TIME_FAR))
            continue;
        uint64_t last = reuse_slot_last(state, slot);
        if (now - last < state->time_window)
            continue;
        int inserted;
        uint32_t *high = u64map_upsert(&state->far, slot->key, 0, &inserted);
        if (!high)
            return -1;
        *high = (uint32_t)(last >> TIME_BITS);
        slot->time |= TIME_FAR;
    }
    state->time_floor = now - state->time_window + 1;
    state->next_sweep = now + state->time_window;
    return 0;
}

/* The previous access number of a used slot; a far key leaves the far map. */
static uint64_t reuse_slot_take_last(reuse_state *state, const reuse_slot *slot)
{
    if (!(slot->time & TIME_FAR))
        return reuse_slot_last(state, slot);
    uint32_t *high = u64map_find(&state->far, slot->key);
    uint64_t last = (uint64_t)*high << TIME_BITS | (slot->time & TIME_LOW_MASK);
    u64map_remove(&state->far, slot->key);
    return last;
}

/* ---- access -------------------------------------------------------------- */

static inline int reuse_sampled(const reuse_state *state, uint64_t key)
{
    /* A hash independent of the table's (splitmix64 finaliser). */
    uint64_t h = (key ^ state->sample_seed) + UINT64_C(0x9E3779B97F4A7C15);
    h = (h ^ (h >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    h = (h ^ (h >> 27)) * UINT64_C(0x94D049BB133111EB);
    h ^= h >> 31;
    return (h & (SHARDS_MODULUS - 1)) < state->sample_threshold;
}

/* A sampled distance: `sampled` keys of the sample lay between the two
 * accesses, which stands for any distance within half a step (1 / rate) of
 * sampled / rate.  Spreading it over that step, at a point drawn from the
 * access number, makes the miss-ratio curve between steps a line instead of
 * a staircase whose treads sit half a step off (docs/metrics.md §3). */
static inline uint64_t reuse_scale_spread(const reuse_state *state, uint64_t sampled, uint64_t now)
{
    uint64_t h = now * UINT64_C(0x9E3779B97F4A7C15);
    h ^= h >> 29;
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    h ^= h >> 32;
    double u = (double)(h >> 11) * 0x1p-53; /* [0, 1) */
    double scaled = ((double)sampled - 0.5 + u) / state->sample_rate;
    if (scaled <= 0)
        return 0;
    return scaled >= (double)REUSE_FAILED ? REUSE_FAILED - 1 : (uint64_t)scaled;
}

/* Load ≤ 3/4: linear probing stays short, and the table (most of the state)
 * stays small enough for per-SM scopes. */
static inline int reuse_table_full(const reuse_state *state)
{
    return !state->slots || (state->keys + 1) * 4 > ((uint64_t)state->slot_mask + 1) * 3;
}

/* Makes sure one more position and one more key fit, and sweeps when due;
 * -1 on failure. */
static int reuse_make_room(reuse_state *state, uint64_t now)
{
    if (now >= state->next_sweep && reuse_sweep(state, now) < 0)
        return -1;
    if (state->top == state->capacity && reuse_timeline_renumber(state) < 0)
        return -1;
    if (reuse_table_full(state)) {
        uint32_t log2 = state->slots ? 65 - state->slot_shift : 4;
        if (log2 > 31 || reuse_slots_resize(state, log2) < 0)
            return -1;
    }
    return 0;
}

/* Inlined into the batch loops whatever the compiler's size heuristics say:
 * a call per access costs more than the loop's prefetching saves. */
static inline __attribute__((always_inline)) uint64_t
reuse_access_one(reuse_state *state, uint64_t key, uint64_t *reuse_time_out)
{
    uint64_t now = state->accesses++;
    if (state->sample_threshold != SHARDS_MODULUS && !reuse_sampled(state, key)) {
        if (reuse_time_out) /* batch callers read every time: say it was skipped */
            *reuse_time_out = REUSE_SKIPPED;
        return REUSE_SKIPPED;
    }
    if ((state->top == state->capacity || reuse_table_full(state) || now >= state->next_sweep) &&
        reuse_make_room(state, now) < 0) {
        state->accesses--;
        return REUSE_FAILED;
    }

    uint32_t at = reuse_hash(state, key);
    reuse_slot *slot;
    for (;;) {
        slot = &state->slots[at];
        if (slot->pos == SLOT_FREE || slot->key == key)
            break;
        at = (at + 1) & state->slot_mask;
    }

    uint64_t distance, reuse_time;
    if (slot->pos == SLOT_FREE) {
        slot->key = key;
        state->keys++;
        distance = reuse_time = REUSE_COLD;
        state->follow_pos = SLOT_FREE;
    } else {
        uint32_t p = slot->pos;
        /* A repeated run (a line's sectors, a loop's lines in the same
         * order): the previous access reused q and this key sat at q + 1, so
         * the live positions after p are those that were after q, less p,
         * plus the one that access appended: as many.  (If this key is that
         * access's own, q was the last position and both counts are 0.) */
        if (p == state->follow_pos)
            distance = state->follow_distance;
        else /* keys counts this key too, whose own position is not "after p". */
            distance = state->sample_rate == 1.0
                           ? reuse_live_after(state, p)
                           : reuse_scale_spread(state, reuse_live_after(state, p), now);
        state->follow_pos = p + 1;
        state->follow_distance = distance;
        /* `accesses` counts skipped accesses too: no scaling needed. */
        reuse_time = now - reuse_slot_take_last(state, slot) - 1;
        state->live_bits[p / 64] &= ~(UINT64_C(1) << (p % 64));
        if (reuse_block_sealed(state, p / BLOCK_BITS)) {
            reuse_tree_add(state->block_tree, state->blocks, p / BLOCK_BITS, -1);
            state->sealed_live--;
        }
    }
    uint32_t pos = state->top++;
    state->live_bits[pos / 64] |= UINT64_C(1) << (pos % 64);
    if (state->top % BLOCK_BITS == 0) {
        /* pos's block is full: it joins the tree. */
        uint32_t live = reuse_block_live(state, pos / BLOCK_BITS);
        reuse_tree_add(state->block_tree, state->blocks, pos / BLOCK_BITS, (int32_t)live);
        state->sealed_live += live;
    }
    slot->pos = pos;
    slot->time = (uint32_t)now & TIME_LOW_MASK;
    if (reuse_time_out)
        *reuse_time_out = reuse_time;
    return distance;
}

uint64_t reuse_access(reuse_state *state, uint64_t key, uint64_t *reuse_time_out)
{
    return reuse_access_one(state, key, reuse_time_out);
}

/* Keys this far ahead have their table slot prefetched: a table lookup is
 * usually a cache miss on large key sets, and this hides most of it. */
#define REUSE_PREFETCH_AHEAD 12

/* Inlined early whatever its size, as are its callers: GCC's pure-const
 * pass counts __builtin_prefetch as no side effect, so a prefetcher left a
 * function of its own is "pure", returns nothing, and every call to it is
 * deleted as dead.  That is what happened when a sampling test made this one
 * too big for the early inliner (0686c03): the exact path lost its only
 * prefetch and 1.4-1.7x (bench/RESULTS.md, "Exact reuse distance,
 * measured apart").  A second stage that fetched the timeline word of the
 * key's previous position was lost that way from the start; restored, it
 * cost more than it saved (its test of the slot mispredicts), so it is
 * gone. */
static inline __attribute__((always_inline)) void reuse_prefetch(const reuse_state *state,
                                                                 uint64_t key)
{
    if (state->slots)
        __builtin_prefetch(&state->slots[reuse_hash(state, key)]);
}

/* The batch loop: access i goes to states[i], or to `one` when states is
 * NULL; `prefetch` is a constant in each copy. */
static inline __attribute__((always_inline)) void
reuse_access_run(reuse_state *one, reuse_state *const *states, const uint64_t *keys, size_t count,
                 uint64_t *distances, uint64_t *reuse_times, int prefetch)
{
    for (size_t i = 0; i < count; i++) {
        if (prefetch && i + REUSE_PREFETCH_AHEAD < count)
            reuse_prefetch(states ? states[i + REUSE_PREFETCH_AHEAD] : one,
                           keys[i + REUSE_PREFETCH_AHEAD]);
        distances[i] = reuse_access_one(states ? states[i] : one, keys[i],
                                        reuse_times ? &reuse_times[i] : NULL);
    }
}

/* Only exact states prefetch.  A sampling state skips most keys, and
 * fetching their slots cost most of its time; its sample's table is small
 * enough to stay in the CPU's caches, so a fetch of its own keys' slots
 * gains less than testing each key twice costs (R = 0.001 on the large
 * streams: 1.2-1.7x faster without).  A batch does as its first state does:
 * the choice changes no result, and analyze's states share one rate. */
static inline __attribute__((always_inline)) void
reuse_access_split(reuse_state *one, reuse_state *const *states, const uint64_t *keys,
                   size_t count, uint64_t *distances, uint64_t *reuse_times)
{
    if (count == 0)
        return;
    if ((states ? states[0] : one)->sample_threshold == SHARDS_MODULUS)
        reuse_access_run(one, states, keys, count, distances, reuse_times, 1);
    else
        reuse_access_run(one, states, keys, count, distances, reuse_times, 0);
}

void reuse_access_batch(reuse_state *state, const uint64_t *keys, size_t count,
                        uint64_t *distances, uint64_t *reuse_times)
{
    reuse_access_split(state, NULL, keys, count, distances, reuse_times);
}

void reuse_access_each(reuse_state *const *states, const uint64_t *keys, size_t count,
                       uint64_t *distances, uint64_t *reuse_times)
{
    reuse_access_split(NULL, states, keys, count, distances, reuse_times);
}
