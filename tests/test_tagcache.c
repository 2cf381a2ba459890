/* tests/test_tagcache.c: LRU behaviour, the Fermi hash, and the docs/metrics.md §3
 * property: a fully-associative LRU hits exactly the accesses whose reuse
 * distance is below its capacity. */
#include <criterion/criterion.h>

#include "analyzer/reuse.h"
#include "analyzer/tagcache.h"
#include "tests/trace_gen.h"

static tagcache *make(uint64_t size, uint32_t ways, set_index index)
{
    cache_config g = {.size_bytes = size, .ways = ways, .line_bytes = 128, .slices = 1,
                      .index = index};
    ws_error err;
    tagcache *c = tagcache_new(&g, &err);
    cr_assert_not_null(c);
    return c;
}

Test(tagcache, lru_victims_hand_worked)
{
    tagcache *c = make(512, 4, INDEX_LINEAR); /* one set of 4 ways */
    for (uint64_t l = 1; l <= 4; l++)
        cr_assert_not(tagcache_access(c, l, 1, (uint32_t)l).hit);
    cr_assert(tagcache_access(c, 1, 1, 9).hit); /* 1 becomes MRU; LRU is 2 */
    tagcache_result r = tagcache_access(c, 5, 1, 5);
    cr_assert(r.evicted);
    cr_assert_eq(r.victim_line, 2);
    cr_assert_eq(r.victim_owner, 2, "the filler, not the last user");
    cr_assert(tagcache_invalidate(c, 3));
    r = tagcache_access(c, 6, 1, 6);
    cr_assert_not(r.evicted, "the invalidated way is reused first");
    cr_assert_not(tagcache_access(c, 7, 0, 7).hit);
    cr_assert_not(tagcache_contains(c, 7), "no allocation when not asked");
    tagcache_flush(c);
    cr_assert_not(tagcache_contains(c, 1));
    tagcache_free(c);
}

Test(tagcache, fermi_hash_sets)
{
    tagcache *c = make(16384, 4, INDEX_FERMI_HASH); /* 32 sets */
    /* Line 0x41 = address 0x2080: lower bits 0x01, address bit 13 set -> 1 ^ 1 = 0. */
    cr_assert_eq(tagcache_set(c, 0x41), 0);
    cr_assert_eq(tagcache_set(c, 0x3), 3);
    /* Address 0x20000 (bit 17): line 0x400, lower 0, upper 0b01000 -> 8. */
    cr_assert_eq(tagcache_set(c, 0x400), 8);
    tagcache_free(c);
    c = make(16384, 2, INDEX_FERMI_HASH); /* 64 sets: bit 12 goes to bit 5 */
    cr_assert_eq(tagcache_set(c, 0x20), 32, "address 0x1000");
    tagcache_free(c);
}

Test(tagcache, fully_associative_lru_equals_reuse_distance)
{
    uint64_t s = 9;
    const uint32_t capacities[] = {1, 4, 16, 64};
    for (int ci = 0; ci < 4; ci++) {
        tagcache *c = make(128ull * capacities[ci], capacities[ci], INDEX_LINEAR);
        ws_error err;
        reuse_state *rs = reuse_state_new(NULL, &err);
        uint64_t lru_hits = 0, below = 0;
        for (int i = 0; i < 20000; i++) {
            uint64_t line = test_rand(&s) % 4 ? test_rand(&s) % 40 : test_rand(&s) % 400;
            lru_hits += (uint64_t)tagcache_access(c, line, 1, 0).hit;
            uint64_t d = reuse_access(rs, line, NULL);
            below += d != REUSE_COLD && d < capacities[ci];
        }
        cr_assert_eq(lru_hits, below, "capacity %u", capacities[ci]);
        reuse_state_free(rs);
        tagcache_free(c);
    }
}
