/* analyzer/cache.h: one functional set-associative cache (docs/metrics.md §7).
 *
 * Tags only, no data: sets × ways of lines, optional 32 B sectors with
 * per-sector valid and dirty bits, linear or Fermi-hash set index, and an
 * optional pending time per line for the reserved-line mode.  Replacement is
 * delegated to a policy (analyzer/policy.h).  The hierarchy
 * (analyzer/hierarchy.c) applies the L1/L2 write rules on top.
 *
 * Lines are identified by their line number (byte address ÷ line size).  An
 * L2 slice sees only every slices-th line, so its set index is taken from
 * line ÷ index_divisor. */
#ifndef WS_CACHE_H
#define WS_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "analyzer/config.h"
#include "analyzer/policy.h"
#include "analyzer/set_index.h"
#include "util/error.h"
#include "util/fastdiv.h"

#define CACHE_INVALID UINT64_MAX

typedef struct cache_options {
    uint32_t sets, ways, line_bytes;
    uint32_t sector_bytes;  /* 0 = whole lines, else 32 */
    uint32_t index_divisor; /* set index from line ÷ this (L2 slices); 0 = 1 */
    set_index index;
    const policy_ops *policy;
    const admission_ops *admission; /* optional; its table is policy_geometry.param */
    policy_geometry policy_geometry; /* sets/ways are filled in by cache_new */
    int track_pending;      /* reserved-line mode: pending lines are not victims */
    /* Each line keeps the SM that filled it; a hit from another SM marks
     * it LINE_SHARED (S0 §VI: ownerId and SF of an L2 line). */
    int track_owners;
    /* Each line keeps which of its bytes writes wrote, so that a sector
     * written whole over several writes becomes readable (an L2 under
     * `lazy-fetch`, docs/metrics.md §7). */
    int track_written_bytes;
} cache_options;

/* The flags come first and are always set; the other fields are valid only
 * under their flag (victim_* with evicted, owner_* with present, slot with
 * present or allocated). */
typedef struct cache_result {
    uint8_t hit;             /* present with every requested sector valid */
    uint8_t present;         /* the tag matched (a sector miss is present, not hit) */
    uint8_t allocated;       /* a way was filled by this access */
    uint8_t bypassed;        /* admission or the policy refused the request */
    uint8_t no_victim;       /* every way pending: nothing could be replaced */
    uint8_t stalled;         /* the policy waited for a way (stall_until) */
    uint8_t became_shared;   /* track_owners: this hit made the line shared */
    uint8_t line_flags;      /* track_owners: the flags of the line hit (LINE_SHARED);
                                0 on a fill, which starts private */
    uint8_t pending;         /* the line hit is still pending (an MSHR merge) */
    uint8_t fetch_sectors;   /* sectors the access must fetch from below */
    uint8_t hit_sectors;     /* the requested sectors found valid (0 unless present) */
    uint8_t evicted;         /* a valid line was replaced */
    uint8_t victim_dirty;    /* its dirty sectors */
    uint64_t victim_line;
    uint32_t victim_warp;    /* who filled the victim */
    uint32_t owner_warp;     /* who filled the line hit */
    uint32_t slot;           /* set × ways + way of the line touched, if any */
    uint64_t stall_until;    /* with stalled: when the way became replaceable */
    uint32_t set;            /* the line's set (after a probe that looked up) */
} cache_result;

/* A miss's way, chosen before the fill (cache_choose). */
typedef struct cache_way {
    uint32_t way;            /* POLICY_BYPASS: not allocated */
} cache_way;

typedef struct cache cache;

/* cache_read's instances (read_instance); slot: cache_find's answer for
 * r's line, or PROBE_FIND when not looked up. */
typedef void cache_read_fn(cache *c, const cache_req *r, int allocate, uint64_t now, int64_t slot,
                           cache_result *out);

/* The fields are here, not in cache.c, so that the lookups the timed
 * hierarchy makes at every L1 request (cache_find, cache_slot_pending_until,
 * cache_slot_ready) are inline: out of line they were calls even the
 * link-time optimiser kept (bench/RESULTS.md, "Branch hier44").  Other
 * files use a cache only through the functions below. */
/* Structure of arrays: a lookup scans only the tags of one set. */
struct cache {
    uint32_t sets, ways, line_shift, sectors;
    fastdiv by_divisor; /* an L2 slice's index_divisor; 1 for a cache that sees every line */
    set_index index;
    uint8_t masked_index; /* the set is the line's low bits (linear, sets a power of 2) */
    uint8_t full_mask;
    uint8_t line_sectors32; /* the mask of every 32 B sector of a line */
    int track_pending;
    uint64_t *lines;   /* [sets × ways] */
    int64_t *meta;     /* the policy's words */
    uint32_t *warps; /* the warp that filled each line */
    uint8_t *valid, *dirty; /* sector masks */
    uint8_t *flags;         /* LINE_SHARED, ... */
    uint16_t *owners;       /* track_owners: the SM that filled the line */
    uint64_t *filled_at;    /* track_owners: the filler's clock at the fill */
    uint32_t *filled_in;    /* track_owners: the kernel of the fill */
    int track_owners;
    uint64_t *written; /* track_written_bytes: REQUEST_MASK_WORDS words a slot */
    uint64_t *ready;   /* pending until (reserved-line mode) */
    uint8_t *filled;   /* valid lines per set: a full set skips the search for a hole */
    int filled_since_clear; /* a line was filled since the last clear: else a flush has nothing to do */
    /* A bit per set: filled since the last clear (a slot's ready is set
     * only while it holds a line, cache_set_ready).
     * The other sets are as clear left them, so clear, a flush and the
     * walk of the dirty lines visit only these (a kernel touches few of a
     * large L2's sets). */
    uint64_t *touched;
    void *block;       /* every array above, carved from one zeroed block */
    size_t block_bytes;
    uint64_t all_ways; /* mask of every way */
    const policy_ops *policy;
    void *state;
    const admission_ops *admission;
    const void *admission_param;
    cache_read_fn *read; /* cache_read's instance for this cache's shape */
    uint8_t kind;        /* READ_* (below): the lazy-fetch write's instance takes it too */
};

/* The set of `line`. */
static inline __attribute__((always_inline)) uint32_t cache_set_of(const cache *c, uint64_t line)
{
    /* An L2 slice divides by the slice count with a multiply; other caches
     * skip it.  (As `divisor == 1 ? line : line / divisor`, the compiler
     * had folded it into a 64-bit division on every access.) */
    uint64_t key = c->by_divisor.divisor > 1 ? fastdiv_quotient(c->by_divisor, line) : line;
    /* The common case in one AND, without set_index_of's tests of its kind. */
    if (c->masked_index)
        return (uint32_t)(key & (c->sets - 1));
    return set_index_of(c->index, key, c->line_shift, c->sets);
}

/* `ways` where the caller made it a constant (4, 8 or 16), else 0: the
 * cache's own count. */
static inline __attribute__((always_inline)) uint32_t cache_ways_of(const cache *c,
                                                                    uint32_t ways)
{
    return ways ? ways : c->ways;
}

/* The way holding `line`, or -1.  A line is in at most one way of its set;
 * from the last way down, the lowest would win all the same.  The compiler
 * makes this a compare and branch per way, which ran faster than a
 * branch-free mask of the matches on both of bench_replay's streams
 * (bench/RESULTS.md, "Replay, measured apart"). */
static inline __attribute__((always_inline)) int64_t
cache_find_in(const cache *c, uint64_t line, size_t base, uint32_t ways)
{
    const uint64_t *tags = c->lines + base;
    int64_t at = -1;
    for (uint32_t w = cache_ways_of(c, ways); w-- > 0;)
        at = tags[w] == line ? (int64_t)w : at;
    return at;
}

/* The way of `base`'s set holding `line`, or -1, with the loop unrolled
 * for the common way counts: a lookup outside the read path (a store's
 * write-evict, the timed wait) costs a tag compare, not a loop. */
static inline int64_t cache_find_unrolled(const cache *c, uint64_t line, size_t base)
{
    switch (c->ways) {
    case 4: return cache_find_in(c, line, base, 4);
    case 8: return cache_find_in(c, line, base, 8);
    case 16: return cache_find_in(c, line, base, 16);
    default: return cache_find_in(c, line, base, 0);
    }
}

/* The options of one cache (an L1, or one L2 slice when divisor = slices)
 * of geometry g; the caller sets the policy and what else it needs. */
cache_options cache_options_for(const cache_config *g, uint32_t divisor);
cache *cache_new(const cache_options *o, ws_error *err);
void cache_free(cache *c);
/* Drops every line (dirty ones too: callers write them back first); the
 * policy is told of each (EVICT_FLUSH). */
void cache_flush(cache *c);
/* The end of a cache's use: the policy is told of each line as by
 * cache_flush (EVICT_FLUSH), and nothing is cleared, since nothing looks
 * the cache up again (only its policy's statistics are read): the final
 * flush of the L2 (analyzer/hierarchy.c, hierarchy_finish). */
void cache_retire(cache *c);

uint32_t cache_sectors_per_line(const cache *c);
/* All sectors of a line, as a mask. */
uint8_t cache_full_mask(const cache *c);

/* The two steps of an access, so a fill can be decided after the level
 * below answers:
 *   cache_probe   looks the line up (admission first: a request it turns
 *                 away is out->bypassed and looks nothing up); a hit is
 *                 promoted; a miss sets fetch_sectors;
 *   cache_choose  on a miss, picks the way to fill: an invalid way, or the
 *                 policy's victim among the replaceable ones, or none
 *                 (out->bypassed / out->no_victim), or after a stall
 *                 (out->stalled); changes nothing;
 *   cache_fill    puts the line in the chosen way (the victim is evicted,
 *                 the policy told) and sets out->allocated and out->slot.
 * write = 1 marks the sectors dirty and fetches nothing.  now is the
 * requester's clock for pending lines. */
void cache_probe(cache *c, const cache_req *r, int write, uint64_t now, cache_result *out);
cache_way cache_choose(cache *c, const cache_req *r, uint64_t now, cache_result *out);
void cache_fill(cache *c, const cache_req *r, cache_way way, int write, cache_result *out);
/* A global warp-load whose first request was r finished with `misses`
 * misses: tells the policy (policy.h load_done). */
void cache_load_done(cache *c, const cache_req *r, uint32_t misses);
/* The line in the chosen way (CACHE_INVALID for an empty way or none),
 * and its flags (0 for those). */
uint64_t cache_way_line(const cache *c, const cache_result *probe, cache_way way);
uint8_t cache_way_flags(const cache *c, const cache_result *probe, cache_way way);
/* The flags of the line in `slot` (a probe's or fill's out->slot). */
uint8_t cache_slot_flags(const cache *c, uint32_t slot);
/* track_owners: whether the line in `slot` was filled at least `interval`
 * before `now` of `kernel` on the requesters' clock (a fill in an earlier
 * kernel always was: the clocks restart with each kernel). */
int cache_slot_filled_long_ago(const cache *c, uint32_t slot, uint32_t kernel, uint64_t now,
                               uint64_t interval);

/* A read: probe and, on a miss with `allocate`, choose and fill (the
 * requested sectors if sectored, else the whole line). */
void cache_read(cache *c, const cache_req *r, int allocate, uint64_t now, cache_result *out);
/* cache_read of a line cache_find answered `slot` (-1: absent) for, the
 * cache unchanged since: the read looks it up no more (the timed L1, whose
 * wait finds the line first: analyzer/hierarchy.c, wait_for_l1). */
void cache_read_found(cache *c, const cache_req *r, int allocate, uint64_t now, int64_t slot,
                      cache_result *out);
/* A write-back, write-allocate write of r->sector_mask: marks the sectors
 * valid and dirty without fetching them. */
void cache_write(cache *c, const cache_req *r, uint64_t now, cache_result *out);
/* A write-back, write-allocate write of an L2 under `lazy-fetch`
 * (docs/metrics.md §7) of the line's `bytes` (REQUEST_MASK_WORDS words; the
 * cache must track_written_bytes): marks every written sector dirty, and
 * valid those that this write and the earlier ones since the line's fill
 * wrote whole; a read of one written in part misses and fetches it, as
 * GPGPU-Sim's lazy fetch-on-read. */
void cache_write_lazy(cache *c, const cache_req *r, const uint64_t *bytes, uint64_t now,
                      cache_result *out);
/* A write-through write (the L1 `allocate` write policy, docs/metrics.md §7):
 * a hit updates the line in place; a miss allocates it when `allocate`.
 * Of the sectors written, those in `whole` (32 B sectors written in full)
 * become valid; a partly written invalid sector stays invalid, so a load
 * fetches it.  Nothing is marked dirty: the data goes on to L2. */
void cache_write_through(cache *c, const cache_req *r, uint8_t whole, int allocate, uint64_t now,
                         cache_result *out);
/* cache_invalidate of the line in way `way` of the set at `base` (set x ways). */
void cache_remove(cache *c, size_t base, uint32_t way);
/* Removes the line (dirty sectors dropped: only a global store's
 * write-evict removes lines, and global lines are never dirty); returns 1
 * if it was present, 0 if absent.  The look-up inline: every global store
 * makes one, and most find no line. */
static inline int cache_invalidate(cache *c, uint64_t line)
{
    size_t base = (size_t)cache_set_of(c, line) * c->ways;
    int64_t at = cache_find_unrolled(c, line, base);
    if (at < 0)
        return 0;
    cache_remove(c, base, (uint32_t)at);
    return 1;
}
int cache_contains(const cache *c, uint64_t line);
/* The slot (set x ways + way) holding `line`, or -1.  Found once, it stays
 * true until the cache next changes: the timed wait for an L1 asks it of
 * one line at every retry (analyzer/hierarchy.c, wait_for_l1). */
static inline __attribute__((always_inline)) int64_t cache_find(const cache *c, uint64_t line)
{
    size_t base = (size_t)cache_set_of(c, line) * c->ways;
    int64_t at = cache_find_unrolled(c, line, base);
    return at < 0 ? -1 : (int64_t)base + at;
}
/* A look through shadow tags (S3 §4.4.3): the slot holding `line` with
 * every one of `sectors` valid (whole lines when unsectored) and not
 * pending at `now`, or -1.  Changes nothing: no promotion, no policy call. */
int64_t cache_peek(const cache *c, uint64_t line, uint8_t sectors, uint64_t now);
/* Tells the policy of a hit by r on the line in `slot` (a remote read that
 * is allowed to promote the line it found). */
void cache_touch(cache *c, uint32_t slot, const cache_req *r);

/* Reserved-line mode: the line in `slot` (a slot holding a line: a
 * probe's or fill's out->slot) is pending until `ready`. */
void cache_set_ready(cache *c, uint32_t slot, uint64_t ready);
static inline uint64_t cache_slot_ready(const cache *c, uint32_t slot) { return c->ready[slot]; }
/* The cycle the fill of the line in `slot` (cache_find's; -1: absent)
 * arrives when it is pending at `now`; 0 otherwise (absent, or valid). */
static inline uint64_t cache_slot_pending_until(const cache *c, int64_t slot, uint64_t now)
{
    if (slot < 0 || !c->track_pending || c->ready[slot] <= now)
        return 0;
    return c->ready[slot];
}
/* The first cycle from `now` at which the set of `line` has a way a fill
 * may take (an invalid way, or a line not pending): `now`, or when the
 * soonest pending line arrives (GPGPU-Sim's reservation fail waits for it). */
uint64_t cache_replaceable_from(const cache *c, uint64_t line, uint64_t now);

/* Visits every dirty line (for the final write-back); returns the count. */
uint64_t cache_dirty_lines(const cache *c, void (*visit)(void *ctx, uint64_t line, uint8_t dirty),
                           void *ctx);
uint64_t cache_valid_lines(const cache *c);

/* Adds the policy's own figures (policy.h stats) into out[0..*count),
 * matching by name; *count grows with new names. */
void cache_add_policy_stats(const cache *c, policy_stat *out, uint32_t *count);

#endif
