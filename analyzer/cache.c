/* analyzer/cache.c: see cache.h. */
#include "analyzer/cache.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/l1_rules.h" /* l1_whole_sectors: the 32 B sectors a byte mask writes whole */
#include "analyzer/policies/stamp.h"
#include "analyzer/request.h"
#include "analyzer/set_index.h"
#include "util/fastdiv.h"
#include "util/zeroed.h"

/* What a read instance knows of its cache (read_kind):
 *   READ_CALLS      nothing: every hook is called, every check made;
 *   READ_PLAIN_LRU  a plain LRU cache: its policy is exactly LRU's stamps
 *                   (hit and fill move the line to MRU, the victim is the
 *                   smallest stamp, no other hook), and it has no
 *                   admission, no pending lines and no owners;
 *   READ_LRU, READ_FIFO  LRU's or FIFO's stamps (FIFO's hit moves nothing),
 *                   with whatever else the cache keeps (pending lines: the
 *                   timed L1s of `compare --timed`).
 * The stamps are written in place and the checks for what such a cache
 * lacks are compiled out (cache_read); the numbers are those of the calls
 * (tests/test_cache_shapes.c). */
enum { READ_CALLS, READ_PLAIN_LRU, READ_LRU, READ_FIFO };

static cache_read_fn *read_instance(uint32_t ways, int kind);

static int read_kind(const cache_options *o)
{
    const policy_ops *p = o->policy;
    int stamps = p->fill == stamp_promote && p->victim == stamp_victim && !p->miss &&
                 !p->bypass && !p->evicted;
    int plain = !o->admission && !o->track_pending && !o->track_owners;
    if (stamps && p->hit == stamp_promote)
        return plain ? READ_PLAIN_LRU : READ_LRU;
    return stamps && p->hit == stamp_keep ? READ_FIFO : READ_CALLS;
}

cache_options cache_options_for(const cache_config *g, uint32_t divisor)
{
    return (cache_options){.sets = (uint32_t)cache_config_sets(g), .ways = g->ways,
                           .line_bytes = g->line_bytes, .sector_bytes = g->sector_bytes,
                           .index_divisor = divisor, .index = g->index,
                           .track_written_bytes = g->write == WRITE_LAZY_FETCH};
}

cache *cache_new(const cache_options *o, ws_error *err)
{
    if (!o->sets || !o->ways || o->ways > 64 || (uint64_t)o->sets * o->ways > (1u << 28) ||
        !o->line_bytes || (o->line_bytes & (o->line_bytes - 1)) || !o->policy)
        return ws_fail(err, "cache: invalid geometry (%u sets × %u ways of %u B)", o->sets,
                       o->ways, o->line_bytes),
               NULL;
    uint32_t sectors = o->sector_bytes ? o->line_bytes / o->sector_bytes : 1;
    if (sectors > 8 || sectors == 0)
        return ws_fail(err, "cache: %u B lines need 1 to 8 sectors", o->line_bytes), NULL;
    cache *c = calloc(1, sizeof *c);
    size_t n = (size_t)o->sets * o->ways;
    /* The arrays' offsets in one zeroed block (util/zeroed.h): a set's
     * pages are mapped when it is first used, and only an owner-tracking
     * (or lazy-fetch) cache has room for the owners (or written bytes). */
    size_t at = 0, lines = ws_zeroed_carve(&at, n * 8), meta = ws_zeroed_carve(&at, n * 8),
           warps = ws_zeroed_carve(&at, n * 4),
           valid = ws_zeroed_carve(&at, n), flags = ws_zeroed_carve(&at, n),
           dirty = ws_zeroed_carve(&at, n), ready = ws_zeroed_carve(&at, n * 8),
           filled = ws_zeroed_carve(&at, o->sets),
           touched = ws_zeroed_carve(&at, ((size_t)o->sets + 63) / 64 * 8),
           owners = ws_zeroed_carve(&at, o->track_owners ? n * 2 : 0),
           filled_at = ws_zeroed_carve(&at, o->track_owners ? n * 8 : 0),
           filled_in = ws_zeroed_carve(&at, o->track_owners ? n * 4 : 0),
           written = ws_zeroed_carve(&at, o->track_written_bytes ? n * REQUEST_MASK_WORDS * 8 : 0);
    if (!c || !(c->block = ws_zeroed_new(at))) {
        free(c);
        return ws_fail(err, "out of memory"), NULL;
    }
    char *b = c->block;
    c->block_bytes = at;
    c->lines = (uint64_t *)(b + lines);
    c->meta = (int64_t *)(b + meta);
    c->warps = (uint32_t *)(b + warps);
    c->valid = (uint8_t *)(b + valid);
    c->flags = (uint8_t *)(b + flags);
    c->dirty = (uint8_t *)(b + dirty);
    c->ready = (uint64_t *)(b + ready);
    c->filled = (uint8_t *)(b + filled);
    c->touched = (uint64_t *)(b + touched);
    if (o->track_owners) {
        c->owners = (uint16_t *)(b + owners);
        c->filled_at = (uint64_t *)(b + filled_at);
        c->filled_in = (uint32_t *)(b + filled_in);
    }
    if (o->track_written_bytes)
        c->written = (uint64_t *)(b + written);
    c->sets = o->sets;
    c->ways = o->ways;
    c->line_shift = (uint32_t)__builtin_ctz(o->line_bytes);
    c->sectors = sectors;
    c->full_mask = (uint8_t)((1u << sectors) - 1);
    c->line_sectors32 = (uint8_t)((1u << (o->line_bytes >= 32 ? o->line_bytes / 32 : 1)) - 1);
    c->by_divisor = fastdiv_of(o->index_divisor ? o->index_divisor : 1);
    c->all_ways = o->ways == 64 ? ~0ull : (1ull << o->ways) - 1;
    c->index = o->index;
    c->masked_index = (uint8_t)set_index_is_mask(o->index, o->sets);
    c->track_pending = o->track_pending;
    c->track_owners = o->track_owners;
    c->policy = o->policy;
    c->admission = o->admission;
    c->admission_param = o->policy_geometry.param;
    c->kind = (uint8_t)read_kind(o);
    c->read = read_instance(o->ways, c->kind);
    policy_geometry g = o->policy_geometry;
    g.sets = o->sets;
    g.ways = o->ways;
    if (!(c->state = o->policy->create(&g, err))) {
        cache_free(c);
        return NULL;
    }
    /* Every array but the tags starts as the zeroes it was mapped as. */
    for (size_t i = 0; i < n; i++)
        c->lines[i] = CACHE_INVALID;
    return c;
}

void cache_free(cache *c)
{
    if (!c)
        return;
    if (c->state)
        c->policy->destroy(c->state);
    ws_zeroed_free(c->block, c->block_bytes);
    free(c);
}

static inline void touch(cache *c, uint32_t set) { c->touched[set >> 6] |= 1ull << (set & 63); }

/* The next run of sets touched since the last clear, at or after `from`:
 * its first set, and its length in *count (0 when none is left).  Walk
 * them as for (set = touched_run(c, 0, &n); n; set = touched_run(c, set + n, &n)). */
static uint32_t touched_run(const cache *c, uint32_t from, uint32_t *count)
{
    uint32_t words = (c->sets + 63) / 64, first = c->sets;
    for (uint32_t w = from >> 6; w < words && first == c->sets; w++) {
        uint64_t bits = c->touched[w] & (w == from >> 6 ? ~0ull << (from & 63) : ~0ull);
        if (bits)
            first = w * 64 + (uint32_t)__builtin_ctzll(bits);
    }
    uint32_t end = first;
    while (end < c->sets && (c->touched[end >> 6] >> (end & 63) & 1))
        end++;
    *count = end - first;
    return first;
}

/* Every line invalid, as cache_new made them: the touched sets, a run at
 * a time (an untouched set still is). */
static void clear(cache *c)
{
    uint32_t count;
    for (uint32_t set = touched_run(c, 0, &count); count; set = touched_run(c, set + count, &count)) {
        size_t base = (size_t)set * c->ways, n = (size_t)count * c->ways;
        for (size_t i = base; i < base + n; i++)
            c->lines[i] = CACHE_INVALID;
        memset(c->valid + base, 0, n);
        memset(c->dirty + base, 0, n);
        memset(c->ready + base, 0, n * sizeof *c->ready);
        memset(c->filled + set, 0, count);
    }
    memset(c->touched, 0, ((size_t)c->sets + 63) / 64 * 8);
    c->filled_since_clear = 0;
}

uint32_t cache_sectors_per_line(const cache *c) { return c->sectors; }
uint8_t cache_full_mask(const cache *c) { return c->full_mask; }

/* The set as hit(), fill() and miss() see it: the hottest calls build only
 * what every policy reads. */
static inline cache_set view(const cache *c, uint32_t set)
{
    size_t base = (size_t)set * c->ways;
    return (cache_set){.index = set, .ways = c->ways, .lines = c->lines + base, .meta = c->meta + base};
}

/* ... and as victim() and evicted() see it: with fillers and pending times. */
static inline cache_set full_view(const cache *c, uint32_t set, uint64_t now)
{
    size_t base = (size_t)set * c->ways;
    return (cache_set){.index = set, .ways = c->ways, .lines = c->lines + base, .meta = c->meta + base,
                       .warps = c->warps + base, .ready = c->ready + base,
                       .flags = c->flags + base, .now = now};
}

void cache_retire(cache *c)
{
    uint32_t count;
    if (c->filled_since_clear && c->policy->evicted) /* an untouched set holds no line */
        for (uint32_t run = touched_run(c, 0, &count); count; run = touched_run(c, run + count, &count))
            for (uint32_t set = run; set < run + count; set++) {
                cache_set s = full_view(c, set, 0);
                for (uint32_t w = 0; w < c->ways; w++)
                    if (s.lines[w] != CACHE_INVALID)
                        c->policy->evicted(c->state, &s, w, EVICT_FLUSH);
            }
}

void cache_flush(cache *c)
{
    /* Only a fill makes a line valid, or a slot's state other than clear's:
     * a cache left empty since (an SM idle in a kernel) has nothing to drop. */
    if (!c->filled_since_clear)
        return;
    cache_retire(c);
    clear(c);
}

/* The read path is compiled several times over (cache_read), and its steps
 * take the instance's shape as two constants:
 *   ways  4, 8 or 16, so the loops over the ways unroll; 0 for the cache's
 *         own count;
 *   kind  READ_* (above): which hooks are applied in place, and whether the
 *         checks for admission, pending lines and owners are compiled out
 *         (READ_PLAIN_LRU); the write paths are READ_CALLS. */

/* A READ_PLAIN_LRU instance: no admission, pending lines or owners. */
static inline __attribute__((always_inline)) int plain(int kind)
{
    return kind == READ_PLAIN_LRU;
}

/* The policy's hooks are LRU's or FIFO's stamps, applied in place; the
 * optional hooks (miss, bypass, evicted) are none. */
static inline __attribute__((always_inline)) int stamps(int kind)
{
    return kind != READ_CALLS;
}

static inline int64_t find(const cache *c, uint64_t line, size_t base)
{
    return cache_find_in(c, line, base, 0);
}

/* The sectors an access needs: the requested ones, or the whole line. */
static inline uint8_t wanted(const cache *c, const cache_req *r)
{
    uint8_t m = c->sectors == 1 ? 1 : (uint8_t)(r->sector_mask & c->full_mask);
    return m ? m : c->full_mask;
}

/* Picks the way to fill on a miss: an invalid way first, else the policy's
 * victim among the lines that are not pending.  Returns the way, or
 * POLICY_BYPASS with out->bypassed / out->no_victim set. */
static inline __attribute__((always_inline)) uint32_t
choose_way(cache *c, const cache_set *s, const cache_req *r, uint64_t now, cache_result *out,
           uint32_t ways, int kind)
{
    if (!stamps(kind) && c->policy->bypass && c->policy->bypass(c->state, s, r)) {
        out->bypassed = 1;
        return POLICY_BYPASS;
    }
    if (c->filled[s->index] < c->ways) {
        for (uint32_t w = 0; w < cache_ways_of(c, ways); w++)
            if (s->lines[w] == CACHE_INVALID)
                return w;
    }
    uint64_t candidates = c->all_ways;
    if (!plain(kind) && c->track_pending)
        for (uint32_t w = 0; w < cache_ways_of(c, ways); w++)
            if (s->ready[w] > now)
                candidates &= ~(1ull << w);
    if (!candidates) {
        out->no_victim = 1;
        return POLICY_BYPASS;
    }
    /* LRU's and FIFO's victim (stamp_victim) in place; a plain cache has no
     * pending lines, so every way is a candidate. */
    uint32_t way = plain(kind)    ? policy_min_meta_of_first(s, cache_ways_of(c, ways))
                   : stamps(kind) ? policy_min_meta(s, candidates)
                                  : c->policy->victim(c->state, s, candidates, r);
    if (way == POLICY_BYPASS) {
        out->bypassed = 1;
    } else if (way & POLICY_STALL_FLAG) { /* wait until that way may be replaced */
        way &= ~POLICY_STALL_FLAG;
        out->stalled = 1;
        out->stall_until = s->ready[way];
    }
    return way;
}

/* What a probe found; returned, not read back from *out (byte stores then
 * a wider load of the same bytes stall store forwarding on the hottest
 * path). */
enum { PROBE_MISS, PROBE_PRESENT, PROBE_SKIPPED };

/* A probe's `found` when the caller has not looked the line up: the probe
 * does (else `found` is the way find_in gave, or -1). */
#define PROBE_FIND (-2)

/* How an access changes a line it finds or fills: a read makes the sectors
 * it asked for valid; a write-back write makes them valid and dirty; a
 * write-through write (the `allocate` write policy) makes valid only the
 * sectors it writes whole (`whole`, in this cache's sectors) and dirties
 * nothing; a lazy write-back write (an L2's `lazy-fetch`) dirties them all
 * and makes valid only those it writes whole, so a read of a sector written
 * in part misses and fetches it (docs/metrics.md §7).  Writes fetch
 * nothing. */
typedef enum access_mode {
    ACCESS_READ,
    ACCESS_WRITE_BACK,
    ACCESS_WRITE_THROUGH,
    ACCESS_WRITE_BACK_LAZY
} access_mode;

static inline uint8_t made_valid(access_mode mode, uint8_t need, uint8_t whole)
{
    return mode == ACCESS_WRITE_THROUGH || mode == ACCESS_WRITE_BACK_LAZY ? (uint8_t)(need & whole)
                                                                          : need;
}

static inline int makes_dirty(access_mode mode)
{
    return mode == ACCESS_WRITE_BACK || mode == ACCESS_WRITE_BACK_LAZY;
}

static inline __attribute__((always_inline)) int
probe(cache *c, const cache_req *r, access_mode mode, uint8_t whole, uint64_t now, uint32_t set,
      int64_t found, cache_result *out, uint32_t ways, int kind)
{
    int write = mode != ACCESS_READ;
    /* Only the flags: the other fields are read only under their flag. */
    memset(out, 0, offsetof(cache_result, victim_line));
    uint8_t need = wanted(c, r);
    if (!plain(kind) && c->admission && c->admission->skip_lookup(c->admission_param, r)) {
        out->bypassed = 1; /* around the cache: no hit, no change (docs/metrics.md §9) */
        out->fetch_sectors = write ? 0 : need;
        return PROBE_SKIPPED;
    }
    size_t base = (size_t)set * c->ways;
    out->set = set;
    int64_t at = found == PROBE_FIND ? cache_find_in(c, r->line, base, ways) : found;
    if (at >= 0) {
        cache_set s = view(c, set);
        size_t i = base + (size_t)at;
        out->present = 1;
        out->slot = (uint32_t)i;
        out->owner_warp = c->warps[i];
        out->pending = !plain(kind) && c->track_pending && c->ready[i] > now;
        /* A lazy write hits a sector it or another write dirtied, readable
         * or not (GPGPU-Sim counts a write to a modified sector a hit). */
        uint8_t have = mode == ACCESS_WRITE_BACK_LAZY ? (uint8_t)(c->valid[i] | c->dirty[i])
                                                      : c->valid[i];
        uint8_t missing = (uint8_t)(need & ~have);
        out->hit = missing == 0;
        out->hit_sectors = (uint8_t)(need & have);
        out->fetch_sectors = write ? 0 : missing;
        c->valid[i] |= made_valid(mode, need, whole);
        if (makes_dirty(mode))
            c->dirty[i] |= need;
        if (!plain(kind) && c->track_owners) {
            if (!(c->flags[i] & LINE_SHARED) && c->owners[i] != r->sm) {
                c->flags[i] |= LINE_SHARED; /* a second SM: shared from now on */
                out->became_shared = 1;
            }
            out->line_flags = c->flags[i];
        }
        if (kind == READ_PLAIN_LRU || kind == READ_LRU)
            stamp_mru(c->state, &s, (uint32_t)at);
        else if (kind == READ_CALLS)
            c->policy->hit(c->state, &s, (uint32_t)at, r);
        /* READ_FIFO: a hit moves nothing (stamp_keep) */
        return PROBE_PRESENT;
    }
    if (!stamps(kind) && c->policy->miss) {
        cache_set s = view(c, set);
        c->policy->miss(c->state, &s, r);
    }
    /* Not allocated: a read fetches what it asked for from below. */
    out->fetch_sectors = write ? 0 : need;
    return PROBE_MISS;
}

/* fill: s is the set's full view (full_view); one view serves both steps. */
static inline __attribute__((always_inline)) void
fill(cache *c, const cache_req *r, cache_way chosen, access_mode mode, uint8_t whole,
     const cache_set *s, cache_result *out, int kind)
{
    if (chosen.way == POLICY_BYPASS)
        return;
    uint32_t way = chosen.way, set = s->index;
    size_t i = (size_t)set * c->ways + way;
    uint8_t need = wanted(c, r);
    if (c->lines[i] == CACHE_INVALID) {
        c->filled[set]++;
        touch(c, set); /* a set holding a line is touched already */
    } else {
        out->evicted = 1;
        out->victim_line = c->lines[i];
        out->victim_dirty = c->dirty[i];
        out->victim_warp = c->warps[i];
        if (!stamps(kind) && c->policy->evicted)
            c->policy->evicted(c->state, s, way, EVICT_REPLACE);
    }
    c->lines[i] = r->line;
    c->filled_since_clear = 1;
    if (c->written) /* a new line: nothing of it written yet */
        memset(&c->written[i * REQUEST_MASK_WORDS], 0, REQUEST_MASK_WORDS * 8);
    c->valid[i] = made_valid(mode, need, whole);
    c->dirty[i] = makes_dirty(mode) ? need : 0;
    c->warps[i] = r->warp;
    if (!plain(kind)) /* a plain cache's lines are never pending: ready stays 0 */
        c->ready[i] = 0;
    /* An owner-tracking cache starts a line private to its filler; others
     * keep what the level below said of it. */
    c->flags[i] = !plain(kind) && c->track_owners ? 0 : r->fill_hint;
    if (!plain(kind) && c->track_owners) {
        c->owners[i] = (uint16_t)r->sm;
        c->filled_at[i] = s->now;
        c->filled_in[i] = r->kernel;
    }
    if (stamps(kind)) /* LRU's and FIFO's fill both move the line to MRU */
        stamp_mru(c->state, s, way);
    else
        c->policy->fill(c->state, s, way, r);
    out->allocated = 1;
    out->slot = (uint32_t)i;
    out->fetch_sectors = mode != ACCESS_READ ? 0 : need;
}

void cache_probe(cache *c, const cache_req *r, int write, uint64_t now, cache_result *out)
{
    probe(c, r, write ? ACCESS_WRITE_BACK : ACCESS_READ, 0, now, cache_set_of(c, r->line),
          PROBE_FIND, out, 0, READ_CALLS);
}

cache_way cache_choose(cache *c, const cache_req *r, uint64_t now, cache_result *out)
{
    cache_set s = full_view(c, out->set, now);
    return (cache_way){choose_way(c, &s, r, now, out, 0, READ_CALLS)};
}

void cache_fill(cache *c, const cache_req *r, cache_way way, int write, cache_result *out)
{
    cache_set s = full_view(c, out->set, 0);
    fill(c, r, way, write ? ACCESS_WRITE_BACK : ACCESS_READ, 0, &s, out, READ_CALLS);
}

void cache_load_done(cache *c, const cache_req *r, uint32_t misses)
{
    if (c->policy->load_done)
        c->policy->load_done(c->state, r, misses);
}

uint64_t cache_way_line(const cache *c, const cache_result *probe, cache_way way)
{
    return way.way == POLICY_BYPASS ? CACHE_INVALID : c->lines[(size_t)probe->set * c->ways + way.way];
}

uint8_t cache_slot_flags(const cache *c, uint32_t slot) { return c->flags[slot]; }

int cache_slot_filled_long_ago(const cache *c, uint32_t slot, uint32_t kernel, uint64_t now,
                               uint64_t interval)
{
    return c->filled_in[slot] != kernel || now >= c->filled_at[slot] + interval;
}

uint8_t cache_way_flags(const cache *c, const cache_result *probe, cache_way way)
{
    if (way.way == POLICY_BYPASS)
        return 0;
    size_t i = (size_t)probe->set * c->ways + way.way;
    return c->lines[i] == CACHE_INVALID ? 0 : c->flags[i];
}

/* An access to r's line in `set`, found in way `found` (PROBE_FIND: not
 * looked up yet). */
static inline __attribute__((always_inline)) void
access_found(cache *c, const cache_req *r, int allocate, access_mode mode, uint8_t whole,
             uint64_t now, uint32_t set, int64_t found, cache_result *out, uint32_t ways, int kind)
{
    if (probe(c, r, mode, whole, now, set, found, out, ways, kind) != PROBE_MISS || !allocate)
        return;
    cache_set s = full_view(c, set, now);
    fill(c, r, (cache_way){choose_way(c, &s, r, now, out, ways, kind)}, mode, whole, &s, out,
         kind);
}

static inline __attribute__((always_inline)) void
access_line(cache *c, const cache_req *r, int allocate, access_mode mode, uint8_t whole,
            uint64_t now, cache_result *out, uint32_t ways, int kind)
{
    access_found(c, r, allocate, mode, whole, now, cache_set_of(c, r->line), PROBE_FIND, out, ways, kind);
}

/* The set of `line`, whose slot (set x ways + way) a lookup found, or -1:
 * a found slot names its set, with `ways` a constant a shift, instead of
 * the index computed again (the timed L1's reads: cache_read_found). */
static inline __attribute__((always_inline)) uint32_t set_of_slot(const cache *c, uint64_t line,
                                                                  int64_t slot, uint32_t ways)
{
    return slot >= 0 && ways ? (uint32_t)((uint64_t)slot / ways) : cache_set_of(c, line);
}

/* Reads are most of a replay's cache work, so their path is compiled once
 * for each common shape (docs/replay.md, "How the cache reads"): 4, 8 or 16
 * ways as a constant, and the policy's stamps in place (READ_*, above) or
 * any policy through its calls.  cache_new picks the instance once; every
 * instance is the same code, so the numbers cannot differ. */
#define READ_INSTANCE(name, way_count, kind)                                            \
    static void name(cache *c, const cache_req *r, int allocate, uint64_t now,          \
                     int64_t slot, cache_result *out)                                   \
    {                                                                                   \
        uint32_t set = set_of_slot(c, r->line, slot, way_count);                        \
        int64_t found = slot < 0 ? slot : slot - (int64_t)set * c->ways;                \
        access_found(c, r, allocate, ACCESS_READ, 0, now, set, found, out, way_count,   \
                     kind);                                                             \
    }
#define READ_INSTANCES(prefix, kind)                                                    \
    READ_INSTANCE(prefix##_any, 0, kind)                                                \
    READ_INSTANCE(prefix##_4, 4, kind)                                                  \
    READ_INSTANCE(prefix##_8, 8, kind)                                                  \
    READ_INSTANCE(prefix##_16, 16, kind)
READ_INSTANCES(read_calls, READ_CALLS)
READ_INSTANCES(read_plain_lru, READ_PLAIN_LRU)
READ_INSTANCES(read_lru, READ_LRU)
READ_INSTANCES(read_fifo, READ_FIFO)

static cache_read_fn *read_instance(uint32_t ways, int kind)
{
    static cache_read_fn *const instances[][4] = {
        [READ_CALLS] = {read_calls_any, read_calls_4, read_calls_8, read_calls_16},
        [READ_PLAIN_LRU] = {read_plain_lru_any, read_plain_lru_4, read_plain_lru_8,
                            read_plain_lru_16},
        [READ_LRU] = {read_lru_any, read_lru_4, read_lru_8, read_lru_16},
        [READ_FIFO] = {read_fifo_any, read_fifo_4, read_fifo_8, read_fifo_16}};
    return instances[kind][ways == 4 ? 1 : ways == 8 ? 2 : ways == 16 ? 3 : 0];
}

void cache_read(cache *c, const cache_req *r, int allocate, uint64_t now, cache_result *out)
{
    c->read(c, r, allocate, now, PROBE_FIND, out);
}

void cache_read_found(cache *c, const cache_req *r, int allocate, uint64_t now, int64_t slot,
                      cache_result *out)
{
    c->read(c, r, allocate, now, slot, out);
}

void cache_write(cache *c, const cache_req *r, uint64_t now, cache_result *out)
{
    access_line(c, r, 1, ACCESS_WRITE_BACK, 0, now, out, 0, READ_CALLS);
}

/* cache_write_lazy with `ways` a constant (ways_of) and the cache's kind
 * (READ_*: LRU's or FIFO's stamps in place, as its reads): the line is
 * looked up once, for the bytes written so far and for the access. */
static inline __attribute__((always_inline)) void
write_lazy_in(cache *c, const cache_req *r, const uint64_t *bytes, uint64_t now,
              cache_result *out, uint32_t ways, int kind)
{
    /* The line's bytes written so far, this write's included. */
    uint64_t written[REQUEST_MASK_WORDS];
    uint32_t set = cache_set_of(c, r->line);
    size_t base = (size_t)set * c->ways;
    int64_t at = cache_find_in(c, r->line, base, ways);
    const uint64_t *before = at >= 0 ? &c->written[(base + (size_t)at) * REQUEST_MASK_WORDS] : NULL;
    for (int w = 0; w < REQUEST_MASK_WORDS; w++)
        written[w] = bytes[w] | (before ? before[w] : 0);
    /* 128 B lines (every preset's) a constant: the sectors' loop unrolled */
    uint8_t whole = c->line_shift == 7 ? l1_whole_sectors(written, 128)
                                       : l1_whole_sectors(written, 1u << c->line_shift);
    access_found(c, r, 1, ACCESS_WRITE_BACK_LAZY, whole, now, set, at, out, ways, kind);
    if (out->present || out->allocated)
        memcpy(&c->written[(size_t)out->slot * REQUEST_MASK_WORDS], written, sizeof written);
}

/* write_lazy_in of a kind, its ways a constant where they are 4, 8 or 16. */
static inline __attribute__((always_inline)) void
write_lazy_of_kind(cache *c, const cache_req *r, const uint64_t *bytes, uint64_t now,
                   cache_result *out, int kind)
{
    switch (c->ways) {
    case 4: write_lazy_in(c, r, bytes, now, out, 4, kind); break;
    case 8: write_lazy_in(c, r, bytes, now, out, 8, kind); break;
    case 16: write_lazy_in(c, r, bytes, now, out, 16, kind); break;
    default: write_lazy_in(c, r, bytes, now, out, 0, kind); break;
    }
}

/* The L2 under `lazy-fetch` takes every store (bfs fermi: 25,584 of them,
 * 215 instructions each through the policy's calls): an LRU or FIFO L2
 * writes its stamps in place as its reads do (tests/test_cache_shapes.c,
 * the two paths agree). */
void cache_write_lazy(cache *c, const cache_req *r, const uint64_t *bytes, uint64_t now,
                      cache_result *out)
{
    switch (c->kind) {
    case READ_PLAIN_LRU: write_lazy_of_kind(c, r, bytes, now, out, READ_PLAIN_LRU); break;
    case READ_LRU: write_lazy_of_kind(c, r, bytes, now, out, READ_LRU); break;
    case READ_FIFO: write_lazy_of_kind(c, r, bytes, now, out, READ_FIFO); break;
    default: write_lazy_of_kind(c, r, bytes, now, out, READ_CALLS); break;
    }
}

void cache_write_through(cache *c, const cache_req *r, uint8_t whole, int allocate, uint64_t now,
                         cache_result *out)
{
    /* An unsectored line becomes valid only when the store writes it all. */
    if (c->sectors == 1)
        whole = whole == c->line_sectors32 ? 1 : 0;
    access_line(c, r, allocate, ACCESS_WRITE_THROUGH, whole, now, out, 0, READ_CALLS);
}

void cache_remove(cache *c, size_t base, uint32_t way)
{
    size_t i = base + way;
    if (c->policy->evicted) {
        cache_set s = full_view(c, (uint32_t)(base / c->ways), 0);
        c->policy->evicted(c->state, &s, way, EVICT_INVALIDATE);
    }
    c->filled[base / c->ways]--;
    c->lines[i] = CACHE_INVALID;
    c->valid[i] = c->dirty[i] = 0;
}

int cache_contains(const cache *c, uint64_t line)
{
    return find(c, line, (size_t)cache_set_of(c, line) * c->ways) >= 0;
}

int64_t cache_peek(const cache *c, uint64_t line, uint8_t sectors, uint64_t now)
{
    size_t base = (size_t)cache_set_of(c, line) * c->ways;
    int64_t at = find(c, line, base);
    if (at < 0)
        return -1;
    size_t i = base + (size_t)at;
    uint8_t need = c->sectors == 1 ? 1 : (uint8_t)(sectors & c->full_mask);
    if (!need)
        need = c->full_mask;
    if ((need & ~c->valid[i]) || (c->track_pending && c->ready[i] > now))
        return -1;
    return (int64_t)i;
}

void cache_touch(cache *c, uint32_t slot, const cache_req *r)
{
    cache_set s = view(c, slot / c->ways);
    c->policy->hit(c->state, &s, slot % c->ways, r);
}

void cache_set_ready(cache *c, uint32_t slot, uint64_t ready)
{
    /* The slot holds a line (cache.h), so its set is touched already:
     * clear then resets the slot's ready with its set's. */
    c->ready[slot] = ready;
}

uint64_t cache_replaceable_from(const cache *c, uint64_t line, uint64_t now)
{
    size_t base = (size_t)cache_set_of(c, line) * c->ways;
    if (!c->track_pending || c->filled[base / c->ways] < c->ways)
        return now;
    uint64_t soonest = UINT64_MAX;
    for (uint32_t w = 0; w < c->ways; w++) {
        uint64_t ready = c->ready[base + w];
        if (ready <= now)
            return now;
        if (ready < soonest)
            soonest = ready;
    }
    return soonest;
}

uint64_t cache_dirty_lines(const cache *c, void (*visit)(void *ctx, uint64_t line, uint8_t dirty),
                           void *ctx)
{
    uint64_t n = 0;
    /* Only a fill makes a line valid, and it touches its set.  A dirty
     * line is valid (a fill, a hit's write or clear sets its dirty mask,
     * and an invalidation clears it), so the walk reads the dirty masks
     * alone, eight at a time where none of eight is dirty: the final
     * write-back walks the whole L2 once a run (bench/RESULTS.md, "Branch
     * hier43"). */
    uint32_t count;
    for (uint32_t set = touched_run(c, 0, &count); count; set = touched_run(c, set + count, &count)) {
        size_t i = (size_t)set * c->ways, end = (size_t)(set + count) * c->ways;
        while (i < end) {
            uint64_t eight;
            if (i + 8 <= end && (memcpy(&eight, c->dirty + i, 8), eight == 0)) {
                i += 8;
                continue;
            }
            if (c->dirty[i]) {
                n++;
                if (visit)
                    visit(ctx, c->lines[i], c->dirty[i]);
            }
            i++;
        }
    }
    return n;
}

uint64_t cache_valid_lines(const cache *c)
{
    uint64_t n = 0;
    for (size_t i = 0; i < (size_t)c->sets * c->ways; i++)
        n += c->lines[i] != CACHE_INVALID;
    return n;
}

void cache_add_policy_stats(const cache *c, policy_stat *out, uint32_t *count)
{
    if (!c->policy->stats)
        return;
    policy_stat mine[POLICY_MAX_STATS];
    uint32_t n = c->policy->stats(c->state, mine);
    for (uint32_t i = 0; i < n && i < POLICY_MAX_STATS; i++) {
        uint32_t at = 0;
        while (at < *count && strcmp(out[at].name, mine[i].name) != 0)
            at++;
        if (at == *count) {
            if (*count == POLICY_MAX_STATS)
                continue;
            out[(*count)++] = (policy_stat){.name = mine[i].name};
        }
        out[at].value += mine[i].value;
    }
}
