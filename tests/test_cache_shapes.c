/* tests/test_cache_shapes.c: the instances of the cache's read path
 * (analyzer/cache.c, cache_read) give the numbers of the general path.
 *
 * An LRU or FIFO cache reads through an instance that writes the policy's
 * stamps in place (and, when plain, skips the checks for admission,
 * pending lines and owners), with the ways as a constant where they are 4,
 * 8 or 16.  Here the same streams run through that cache and through one
 * whose policy is the same behind hooks of other addresses, which the
 * cache cannot recognise and so reads through the general path: every
 * result of every access, and every line left in the cache, must agree.  Half the reads of the first go
 * through cache_read_found with the slot cache_find gave, as the timed L1
 * reads (analyzer/hierarchy.c). */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/cache.h"
#include "analyzer/policies/stamp.h"
#include "analyzer/request.h"
#include "tests/trace_gen.h"

/* LRU through calls: the same functions, behind addresses of their own. */
static void promote_called(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    stamp_promote(state, set, way, r);
}

static uint32_t victim_called(void *state, const cache_set *set, uint64_t candidates,
                              const cache_req *r)
{
    return stamp_victim(state, set, candidates, r);
}

static void keep_called(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    stamp_keep(state, set, way, r);
}

static const policy_ops lru_called = {
    .name = "lru-called", .description = "LRU through calls", .create = stamp_create,
    .destroy = stamp_destroy, .hit = promote_called, .fill = promote_called,
    .victim = victim_called};

static const policy_ops fifo_called = {
    .name = "fifo-called", .description = "FIFO through calls", .create = stamp_create,
    .destroy = stamp_destroy, .hit = keep_called, .fill = promote_called,
    .victim = victim_called};

/* Turns away every seventh line, so an admission cache is not plain. */
static int skip_sevenths(const void *param, const cache_req *r)
{
    (void)param;
    return r->line % 7 == 0;
}

static const admission_ops sevenths = {.name = "sevenths", .description = "test",
                                       .skip_lookup = skip_sevenths};

typedef struct shape {
    uint32_t sets, ways, sector_bytes, divisor;
    set_index index;
    int track_pending, track_owners, admission;
    int lazy; /* track_written_bytes: the stream writes as an L2 under `lazy-fetch` too */
} shape;

static cache *make(const shape *sh, const policy_ops *policy)
{
    ws_error err;
    cache_options o = {.sets = sh->sets, .ways = sh->ways, .line_bytes = 128,
                       .sector_bytes = sh->sector_bytes, .index_divisor = sh->divisor,
                       .index = sh->index, .policy = policy,
                       .admission = sh->admission ? &sevenths : NULL,
                       .track_pending = sh->track_pending, .track_owners = sh->track_owners,
                       .track_written_bytes = sh->lazy};
    cache *c = cache_new(&o, &err);
    cr_assert_not_null(c, "%s", err.msg);
    return c;
}

/* Runs one random stream of reads (allocating or not), write-back,
 * write-through and (on a `lazy` shape) lazy-fetch writes, invalidations
 * and pending times through both
 * caches, comparing each result whole; returns the hits, so a caller can
 * see the stream was not trivial. */
static uint64_t agree_on_a_stream(const shape *sh, uint64_t seed, uint32_t accesses,
                                  const char *policy, const policy_ops *through_calls)
{
    cache *fast = make(sh, policy_find(policy)), *called = make(sh, through_calls);
    uint64_t rng = seed, hits = 0;
    uint64_t span = 3ull * sh->sets * sh->ways * (sh->divisor ? sh->divisor : 1) + 5;
    for (uint32_t i = 0; i < accesses; i++) {
        uint64_t pick = test_rand(&rng);
        cache_req q = {.line = test_rand(&rng) % span, .sector_mask = (uint8_t)(pick >> 8),
                       .warp = (uint32_t)(pick >> 16) % 48, .pc = (uint32_t)(pick >> 24) % 9,
                       .sm = (uint32_t)(pick >> 32) % 4, .fill_hint = (uint8_t)(pick >> 40) & 1};
        uint64_t now = i;
        cache_result a, b;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        switch (pick % 20) {
        case 0:
            cr_assert_eq(cache_invalidate(fast, q.line), cache_invalidate(called, q.line));
            continue;
        case 1:
            cache_write(fast, &q, now, &a);
            cache_write(called, &q, now, &b);
            break;
        case 2:
            cache_write_through(fast, &q, q.sector_mask, 1, now, &a);
            cache_write_through(called, &q, q.sector_mask, 1, now, &b);
            break;
        case 4:
        case 5:
            if (sh->lazy) { /* bytes written: sectors whole or in part, one word at a time */
                uint64_t bytes[REQUEST_MASK_WORDS] = {0};
                bytes[(pick >> 50) % REQUEST_MASK_WORDS] = pick & 1 ? ~0ull : test_rand(&rng);
                cache_write_lazy(fast, &q, bytes, now, &a);
                cache_write_lazy(called, &q, bytes, now, &b);
                break;
            }
            /* fall through */
        default: {
            int allocate = pick % 20 != 3;
            if (pick >> 48 & 1) /* the line found first, as the timed L1 reads it */
                cache_read_found(fast, &q, allocate, now, cache_find(fast, q.line), &a);
            else
                cache_read(fast, &q, allocate, now, &a);
            cache_read(called, &q, allocate, now, &b);
            break;
        }
        }
        cr_assert(memcmp(&a, &b, sizeof a) == 0,
                  "%u sets x %u ways, access %u (line %llu): the two paths disagree (hit %d/%d, "
                  "allocated %d/%d, victim %llu/%llu)",
                  sh->sets, sh->ways, i, (unsigned long long)q.line, a.hit, b.hit, a.allocated,
                  b.allocated, (unsigned long long)a.victim_line, (unsigned long long)b.victim_line);
        if (a.present || a.allocated)
            cr_assert_eq(cache_slot_flags(fast, a.slot), cache_slot_flags(called, b.slot),
                         "access %u: the line's flags", i);
        if (sh->track_pending && a.allocated && pick % 3 == 0) {
            cache_set_ready(fast, a.slot, now + pick % 40);
            cache_set_ready(called, b.slot, now + pick % 40);
        }
        hits += a.hit;
    }
    for (uint64_t line = 0; line < span; line++) {
        cr_assert_eq(cache_contains(fast, line), cache_contains(called, line), "line %llu",
                     (unsigned long long)line);
        /* cache_find (its own 4-way loop) names the slot that holds it */
        int64_t slot = cache_find(fast, line);
        cr_assert_eq(slot >= 0, cache_contains(fast, line), "line %llu: found iff held",
                     (unsigned long long)line);
        if (slot >= 0)
            cr_assert_eq(cache_way_line(fast, &(cache_result){.set = (uint32_t)slot / sh->ways},
                                        (cache_way){(uint32_t)slot % sh->ways}),
                         line, "line %llu: its slot holds it", (unsigned long long)line);
    }
    cr_expect_eq(cache_valid_lines(fast), cache_valid_lines(called));
    cache_free(fast);
    cache_free(called);
    return hits;
}

Test(cache_shapes, lru_and_fifo_in_place_agree_with_their_calls)
{
    static const uint32_t ways[] = {1, 2, 3, 4, 5, 8, 12, 16, 32, 64};
    static const uint32_t sets[] = {1, 7, 32, 64};
    for (size_t w = 0; w < sizeof ways / sizeof *ways; w++)
        for (size_t s = 0; s < sizeof sets / sizeof *sets; s++)
            for (uint32_t variant = 0; variant < 4; variant++) {
                shape sh = {.sets = sets[s], .ways = ways[w],
                            .sector_bytes = variant & 1 ? 32 : 0,
                            .index = variant & 2 ? INDEX_FERMI_HASH : INDEX_LINEAR};
                uint64_t seed = 11 + w * 131 + s * 17 + variant;
                cr_expect_gt(agree_on_a_stream(&sh, seed, 4000, "lru", &lru_called), 0,
                             "%u x %u: a stream with hits", sets[s], ways[w]);
                cr_expect_gt(agree_on_a_stream(&sh, seed, 4000, "fifo", &fifo_called), 0,
                             "fifo, %u x %u: a stream with hits", sets[s], ways[w]);
            }
}

/* A cache with admission, pending lines, owners or an L2 slice's divisor
 * is not plain LRU, or divides its lines before indexing, and an L2 under
 * `lazy-fetch` writes through its own instances: still the same
 * numbers either way, LRU's or FIFO's stamps in place or through calls. */
Test(cache_shapes, caches_that_are_not_plain_agree_too)
{
    static const shape shapes[] = {
        {.sets = 32, .ways = 4, .track_pending = 1},
        {.sets = 32, .ways = 8, .track_owners = 1},
        {.sets = 16, .ways = 16, .admission = 1},
        {.sets = 32, .ways = 4, .sector_bytes = 32, .track_pending = 1, .track_owners = 1,
         .admission = 1},
        {.sets = 64, .ways = 16, .divisor = 3},
        {.sets = 24, .ways = 4, .divisor = 12},
        {.sets = 5, .ways = 3, .divisor = 1},
        /* L2 slices under `lazy-fetch` (cache_write_lazy's instances) */
        {.sets = 32, .ways = 8, .sector_bytes = 32, .divisor = 6, .track_pending = 1, .lazy = 1},
        {.sets = 16, .ways = 16, .sector_bytes = 32, .lazy = 1},
        {.sets = 8, .ways = 4, .lazy = 1},
        {.sets = 7, .ways = 5, .sector_bytes = 32, .lazy = 1},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        cr_expect_gt(agree_on_a_stream(&shapes[i], 5 + i, 6000, "lru", &lru_called), 0,
                     "shape %zu", i);
        cr_expect_gt(agree_on_a_stream(&shapes[i], 5 + i, 6000, "fifo", &fifo_called), 0,
                     "fifo, shape %zu", i);
    }
}

/* An L2 slice indexes by line ÷ slices (cache.h); a divisor of 0 or 1 is
 * every line. */
Test(cache_shapes, an_l2_slice_indexes_by_line_over_slices)
{
    shape by3 = {.sets = 4, .ways = 2, .divisor = 3}, by1 = {.sets = 4, .ways = 2, .divisor = 1};
    cache *c = make(&by3, policy_find("lru")), *one = make(&by1, policy_find("lru"));
    cr_expect_eq(cache_set_of(c, 12), 0, "12 / 3 = 4, mod 4 sets");
    cr_expect_eq(cache_set_of(c, 15), 1, "15 / 3 = 5");
    cr_expect_eq(cache_set_of(c, 23), 3, "23 / 3 = 7");
    cr_expect_eq(cache_set_of(one, 23), 3, "a divisor of 1: 23 mod 4");
    cr_expect_eq(cache_set_of(one, 6), 2);
    cache_free(c);
    cache_free(one);
}

/* cache_find's slot and when its fill arrives (the timed wait at L1,
 * docs/metrics.md §12): pending strictly before `ready`, absent lines and
 * caches without pending times never. */
Test(cache_shapes, a_found_slot_is_pending_until_its_fill_arrives)
{
    shape pending = {.sets = 2, .ways = 4, .track_pending = 1}, plain = {.sets = 2, .ways = 4};
    cache *c = make(&pending, policy_find("lru")), *p = make(&plain, policy_find("lru"));
    cache_req q = {.line = 5};
    cache_result r = {0}, rp = {0};
    cache_read(c, &q, 1, 0, &r);
    cache_read(p, &q, 1, 0, &rp);
    cr_assert(r.allocated && rp.allocated);
    cache_set_ready(c, r.slot, 30);
    int64_t slot = cache_find(c, 5);
    cr_expect_eq(slot, (int64_t)r.slot, "line 5: the slot its fill took");
    cr_expect_eq(slot / 4, 1, "line 5 of 2 sets: set 1");
    cr_expect_eq(cache_slot_pending_until(c, slot, 10), 30, "in flight at 10: until 30");
    cr_expect_eq(cache_slot_pending_until(c, slot, 29), 30);
    cr_expect_eq(cache_slot_pending_until(c, slot, 30), 0, "arrived at 30");
    cr_expect_eq(cache_find(c, 7), -1, "line 7 (set 1 too) is absent");
    cr_expect_eq(cache_slot_pending_until(c, -1, 10), 0, "absent: not pending");
    cr_expect_eq(cache_slot_pending_until(p, cache_find(p, 5), 0), 0, "no pending times kept");
    cache_free(c);
    cache_free(p);
}

static void note_line(void *ctx, uint64_t line, uint8_t dirty)
{
    uint64_t *seen = ctx;
    cr_assert_lt(seen[0], 8);
    seen[1 + seen[0]++] = line;
    cr_expect_eq(dirty, 1, "an unsectored line is one dirty sector");
}

/* A flush and the walk of the dirty lines visit only the sets touched
 * since the last clear (a bit per set, 64 to a word): sets 3, 63, 64, 65
 * and 129 of 130 (three words, the last in part).  The walk goes in set
 * order, the flush leaves every line invalid, and a set touched before a
 * flush but not since is not visited again. */
Test(cache_shapes, a_flush_clears_the_sets_touched_since_the_last)
{
    shape sh = {.sets = 130, .ways = 2};
    cache *c = make(&sh, policy_find("lru"));
    const uint64_t lines[] = {129, 65, 3, 64, 63, 130 + 3}; /* line mod 130 is its set */
    cache_result r;
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        cache_req q = {.line = lines[i]};
        cache_write(c, &q, 0, &r);
        cr_assert(r.allocated);
    }
    uint64_t seen[9] = {0};
    cr_expect_eq(cache_dirty_lines(c, note_line, seen), 6);
    const uint64_t in_set_order[] = {3, 133, 63, 64, 65, 129};
    for (uint32_t i = 0; i < 6; i++)
        cr_expect_eq(seen[1 + i], in_set_order[i], "dirty line %u", i);
    cache_flush(c);
    cr_expect_eq(cache_valid_lines(c), 0);
    cr_expect_eq(cache_dirty_lines(c, NULL, NULL), 0);
    cache_req q = {.line = 3};
    cache_read(c, &q, 1, 0, &r);
    cr_expect(!r.hit, "flushed: a miss again");
    cr_expect(!r.evicted, "into an empty way");
    cr_expect_eq(cache_valid_lines(c), 1);
    cache_flush(c);
    cr_expect_eq(cache_valid_lines(c), 0);
    cache_free(c);
}

/* The walk of the dirty lines reads the dirty masks eight slots at a time
 * where none of the eight is dirty (analyzer/cache.c, cache_dirty_lines):
 * 5 sets x 12 ways (linear index: line mod 5 is its set; an empty set
 * fills its ways in order), so the runs of touched sets (sets 0-1, slots
 * 0-23, and sets 3-4, slots 36-59) are not multiples of eight.  Dirty
 * lines: 55 in set 0's last way (slot 11), 1 in set 1's first (slot 12),
 * 44 in set 4's way 8 (slot 56) and 59 in its last (slot 59, the run's
 * end); every other line is clean (read). */
Test(cache_shapes, the_walk_of_dirty_lines_finds_each_among_clean_ones)
{
    shape sh = {.sets = 5, .ways = 12};
    cache *c = make(&sh, policy_find("lru"));
    cache_result r;
    const uint64_t reads[] = {0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 3,
                              4, 9, 14, 19, 24, 29, 34, 39};
    for (size_t i = 0; i < sizeof reads / sizeof *reads; i++) {
        cache_read(c, &(cache_req){.line = reads[i]}, 1, 0, &r);
        cr_assert(r.allocated && !r.evicted, "read of %llu", (unsigned long long)reads[i]);
    }
    const uint64_t writes[] = {55, 1, 44};
    for (size_t i = 0; i < 3; i++) {
        cache_write(c, &(cache_req){.line = writes[i]}, 0, &r);
        cr_assert(r.allocated && !r.evicted);
    }
    cache_read(c, &(cache_req){.line = 49}, 1, 0, &r);
    cache_read(c, &(cache_req){.line = 54}, 1, 0, &r);
    cache_write(c, &(cache_req){.line = 59}, 0, &r);
    cr_assert(r.allocated && r.slot == 59, "line 59 in the last slot");
    uint64_t seen[9] = {0};
    cr_expect_eq(cache_dirty_lines(c, note_line, seen), 4);
    const uint64_t in_slot_order[] = {55, 1, 44, 59};
    for (uint32_t i = 0; i < 4; i++)
        cr_expect_eq(seen[1 + i], in_slot_order[i], "dirty line %u", i);
    cache_free(c);
}

/* A policy that counts the lines it is told of at a flush. */
static uint64_t flushed_lines;

static void count_flushed(void *state, const cache_set *set, uint32_t way, evict_cause cause)
{
    (void)state;
    (void)set;
    (void)way;
    flushed_lines += cause == EVICT_FLUSH;
}

static const policy_ops lru_counting = {
    .name = "lru-counting", .description = "LRU that counts its flushed lines",
    .create = stamp_create, .destroy = stamp_destroy, .hit = promote_called,
    .fill = promote_called, .victim = victim_called, .evicted = count_flushed};

/* The end of a cache's use (cache_retire, the final L2 flush): the policy
 * hears of each of the 3 lines as at a flush, and nothing is cleared (the
 * lines and the dirty one stay), where cache_flush empties the cache. */
Test(cache_shapes, a_retired_cache_tells_its_policy_of_each_line_and_keeps_them)
{
    shape sh = {.sets = 4, .ways = 2};
    cache *c = make(&sh, &lru_counting);
    cache_result r;
    cache_read(c, &(cache_req){.line = 1}, 1, 0, &r);
    cache_read(c, &(cache_req){.line = 6}, 1, 0, &r);
    cache_write(c, &(cache_req){.line = 5}, 0, &r);
    flushed_lines = 0;
    cache_retire(c);
    cr_expect_eq(flushed_lines, 3, "each line told");
    cr_expect_eq(cache_valid_lines(c), 3, "nothing cleared");
    cr_expect_eq(cache_dirty_lines(c, NULL, NULL), 1);
    flushed_lines = 0;
    cache_flush(c);
    cr_expect_eq(flushed_lines, 3, "a flush tells them too");
    cr_expect_eq(cache_valid_lines(c), 0, "and empties the cache");
    cache_free(c);
}
