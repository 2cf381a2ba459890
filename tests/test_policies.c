/* tests/test_policies.c: every replacement policy on hand-computed
 * sequences (docs/metrics.md §7): hits, victims, insertion positions, set dueling. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/bypass_pcs.h"
#include "analyzer/cache.h"
#include "analyzer/nextuse.h"
#include "analyzer/policies/dueling.h"
#include "analyzer/policies/rrip.h"
#include "analyzer/policies/stamp.h"
#include "formats/trace.h"

static cache *one_set(const char *policy, uint32_t ways, uint32_t sets)
{
    ws_error err;
    cache_options o = {.sets = sets, .ways = ways, .line_bytes = 128, .policy = policy_find(policy),
                       .policy_geometry = {.seed = 7}};
    cr_assert_not_null(o.policy, "policy %s", policy);
    cache *c = cache_new(&o, &err);
    cr_assert_not_null(c, "%s", err.msg);
    return c;
}

/* Next-use positions for OPT computed by brute force. */
static uint64_t next_of(const uint64_t *seq, size_t n, size_t i)
{
    for (size_t j = i + 1; j < n; j++)
        if (seq[j] == seq[i])
            return j;
    return NEXTUSE_NEVER;
}

/* Runs the sequence (line numbers) and returns a string of H/M per access. */
static void run_seq(cache *c, const uint64_t *seq, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) {
        cache_req q = {.line = seq[i], .next_use = next_of(seq, n, i), .sector_mask = 0xf};
        cache_result r;
        cache_read(c, &q, 1, 0, &r);
        out[i] = r.hit ? 'H' : 'M';
    }
    out[n] = '\0';
}

static void expect(const char *policy, uint32_t ways, const uint64_t *seq, size_t n, const char *hm)
{
    cache *c = one_set(policy, ways, 1);
    char got[64];
    run_seq(c, seq, n, got);
    cr_expect_str_eq(got, hm, "%s: got %s, expected %s", policy, got, hm);
    cache_free(c);
}

/* A B A C B A on 2 ways. */
static const uint64_t ABACBA[] = {1, 2, 1, 3, 2, 1};

Test(policies, lru_evicts_least_recent)
{
    /* C evicts B (A was touched), B evicts A, A evicts C. */
    expect("lru", 2, ABACBA, 6, "MMHMMM");
}

Test(policies, fifo_ignores_hits)
{
    /* C evicts A (oldest fill) although A was just hit; B then hits. */
    expect("fifo", 2, ABACBA, 6, "MMHMHM");
}

Test(policies, lip_inserts_at_lru_and_protects_the_reused_line)
{
    /* A hit -> MRU; C replaces B; B replaces C (C sat at LRU); A survives. */
    expect("lip", 2, ABACBA, 6, "MMHMMH");
}

Test(policies, srrip_ages_and_frequency_promotes)
{
    /* A,B at 6; A hit -> 5.  C: the set ages by 1 (A 6, B 7), B goes, C
     * enters at 6.  B: A and C tie at 6, age to 7, the first way (A) goes.
     * A: B 6, C 7: C goes. */
    expect("srrip", 2, ABACBA, 6, "MMHMMM");
    /* A hit twice sits at 4: two scans (C, D) age it only to 6, so it
     * survives where LRU would lose it. */
    static const uint64_t freq[] = {1, 2, 1, 1, 3, 4, 1};
    expect("srrip", 2, freq, 7, "MMHHMMH");
    expect("lru", 2, freq, 7, "MMHHMMM");
}

Test(policies, opt_hits_the_upper_bound)
{
    /* A B C A B with 2 ways: C is used never again, so it is not kept. */
    static const uint64_t seq[] = {1, 2, 3, 1, 2};
    expect("opt", 2, seq, 5, "MMMHH");
    expect("lru", 2, seq, 5, "MMMMM");
}

Test(policies, opt_evicts_the_farthest_next_use)
{
    /* A B C B A C: at C, C's own next use (5) is farther than A's (4) and
     * B's (3), so C is not kept; B and A hit. */
    static const uint64_t seq[] = {1, 2, 3, 2, 1, 3};
    expect("opt", 2, seq, 6, "MMMHHM");
    static const uint64_t evict[] = {1, 2, 3, 1, 3, 2};
    /* At C (pos 2): A next 3, B next 5, C next 4: B is farthest, evicted. */
    expect("opt", 2, evict, 6, "MMMHHM");
}

Test(policies, bip_inserts_at_mru_one_time_in_32)
{
    cache *c = one_set("bip", 4, 1);
    ws_error err;
    const policy_ops *bip = policy_find("bip");
    void *state = bip->create(&(policy_geometry){.sets = 1, .ways = 1, .seed = 3}, &err);
    int64_t meta[1] = {0};
    uint64_t lines[1] = {0};
    cache_set s = {.index = 0, .ways = 1, .lines = lines, .meta = meta};
    int mru = 0, fills = 32000;
    for (int i = 0; i < fills; i++) {
        bip->fill(state, &s, 0, &(cache_req){0});
        mru += meta[0] > 0;
    }
    cr_expect(mru > fills / 32 / 2 && mru < fills / 32 * 2, "MRU insertions %d of %d", mru, fills);
    bip->destroy(state);
    cache_free(c);
}

Test(policies, brrip_inserts_distant_mostly)
{
    const policy_ops *p = policy_find("brrip");
    ws_error err;
    void *state = p->create(&(policy_geometry){.sets = 1, .ways = 1, .seed = 3}, &err);
    int64_t meta[1];
    uint64_t lines[1] = {0};
    cache_set s = {.ways = 1, .lines = lines, .meta = meta};
    int long_inserts = 0;
    for (int i = 0; i < 32000; i++) {
        p->fill(state, &s, 0, &(cache_req){0});
        cr_assert(meta[0] == RRIP_MAX || meta[0] == RRIP_LONG);
        long_inserts += meta[0] == RRIP_LONG;
    }
    cr_expect(long_inserts > 500 && long_inserts < 2000, "long insertions %d", long_inserts);
    p->destroy(state);
}

Test(policies, dueling_leaders_and_psel)
{
    /* 32 sets: leaders of A are 0, 8, 16, 24; of B 7, 15, 23, 31. */
    int a = 0, b = 0;
    for (uint32_t s = 0; s < 32; s++) {
        a += dueling_role_of(s, 32) == DUEL_LEADER_A;
        b += dueling_role_of(s, 32) == DUEL_LEADER_B;
    }
    cr_expect_eq(a, 4);
    cr_expect_eq(b, 4);
    uint32_t psel = DUELING_PSEL_START;
    cr_expect(!dueling_uses_b(psel, 3, 32), "followers start with A");
    dueling_miss(&psel, 8, 32); /* an A leader missed: B gains */
    cr_expect_eq(psel, 512u);
    cr_expect(dueling_uses_b(psel, 3, 32));
    cr_expect(!dueling_uses_b(psel, 0, 32), "A leaders always use A");
    cr_expect(dueling_uses_b(0, 7, 32), "B leaders always use B");
    dueling_miss(&psel, 15, 32);
    cr_expect_eq(psel, 511u);
    for (int i = 0; i < 5000; i++)
        dueling_miss(&psel, 0, 32);
    cr_expect_eq(psel, DUELING_PSEL_MAX, "PSEL saturates at 10 bits");
    for (int i = 0; i < 5000; i++)
        dueling_miss(&psel, 7, 32);
    cr_expect_eq(psel, 0u);
}

Test(policies, dip_followers_switch_to_bip_when_lru_leaders_miss)
{
    const policy_ops *dip = policy_find("dip");
    ws_error err;
    stamp_state *state = dip->create(&(policy_geometry){.sets = 32, .ways = 1, .seed = 3}, &err);
    int64_t meta[1];
    uint64_t lines[1] = {0};
    cache_set follower = {.index = 3, .ways = 1, .lines = lines, .meta = meta};
    cache_set lru_leader = {.index = 0, .ways = 1, .lines = lines, .meta = meta};
    dip->fill(state, &follower, 0, &(cache_req){0});
    cr_expect(meta[0] > 0, "LRU insertion (MRU position) while PSEL < 512");
    dip->miss(state, &lru_leader, &(cache_req){0});
    cr_expect_eq(state->psel, 512u);
    int lru_position = 0;
    for (int i = 0; i < 100; i++) {
        dip->fill(state, &follower, 0, &(cache_req){0});
        lru_position += meta[0] < 0;
    }
    cr_expect(lru_position > 80, "BIP insertion in followers: %d of 100 at LRU", lru_position);
    dip->destroy(state);
}

Test(policies, random_repeats_with_its_seed)
{
    uint64_t seq[400];
    uint64_t rng = 11;
    for (int i = 0; i < 400; i++)
        seq[i] = policy_rand(&rng) % 12;
    char a[401], b[401], c[401];
    cache *x = one_set("random", 4, 1), *y = one_set("random", 4, 1);
    run_seq(x, seq, 400, a);
    run_seq(y, seq, 400, b);
    cr_expect_str_eq(a, b, "same seed, same choices");
    ws_error err;
    cache_options o = {.sets = 1, .ways = 4, .line_bytes = 128, .policy = policy_find("random"),
                       .policy_geometry = {.seed = 99}};
    cache *z = cache_new(&o, &err);
    run_seq(z, seq, 400, c);
    cr_expect_str_neq(a, c, "another seed, other choices");
    cache_free(x);
    cache_free(y);
    cache_free(z);
}

Test(policies, every_policy_is_registered_and_described)
{
    const char *names[] = {"lru", "fifo", "random", "lip", "bip", "dip", "srrip", "brrip", "drrip", "opt"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const policy_ops *p = policy_find(names[i]);
        cr_assert_not_null(p, "%s", names[i]);
        cr_expect(p->description && *p->description);
    }
    cr_expect_null(policy_find("nope"));
}

Test(policies, sectored_cache_fetches_only_missing_sectors)
{
    ws_error err;
    cache_options o = {.sets = 1, .ways = 2, .line_bytes = 128, .sector_bytes = 32,
                       .policy = policy_find("lru")};
    cache *c = cache_new(&o, &err);
    cache_result r;
    cache_read(c, &(cache_req){.line = 5, .sector_mask = 0x1}, 1, 0, &r);
    cr_expect(!r.hit && r.allocated && r.fetch_sectors == 0x1);
    cache_read(c, &(cache_req){.line = 5, .sector_mask = 0x3}, 1, 0, &r);
    cr_expect(!r.hit && r.present && r.fetch_sectors == 0x2, "a sector miss fetches sector 1 only");
    cache_read(c, &(cache_req){.line = 5, .sector_mask = 0x3}, 1, 0, &r);
    cr_expect(r.hit);
    cache_free(c);
}

Test(policies, pending_lines_are_not_victims)
{
    ws_error err;
    cache_options o = {.sets = 1, .ways = 2, .line_bytes = 128, .policy = policy_find("lru"),
                       .track_pending = 1};
    cache *c = cache_new(&o, &err);
    cache_result r;
    cache_read(c, &(cache_req){.line = 1}, 1, 0, &r);
    cache_set_ready(c, r.slot, 100);
    cache_read(c, &(cache_req){.line = 2}, 1, 0, &r);
    cache_set_ready(c, r.slot, 100);
    cache_read(c, &(cache_req){.line = 3}, 1, 10, &r);
    cr_expect(!r.allocated && r.no_victim, "both ways pending at t=10");
    cache_read(c, &(cache_req){.line = 1}, 1, 10, &r);
    cr_expect(r.hit && r.pending, "a hit on a pending line is an MSHR merge");
    cache_read(c, &(cache_req){.line = 3}, 1, 200, &r);
    cr_expect(r.allocated && r.evicted, "after the fill arrives, a victim exists");
    cache_free(c);
}

Test(policies, drrip_followers_switch_to_brrip_when_srrip_leaders_miss)
{
    const policy_ops *p = policy_find("drrip");
    ws_error err;
    rrip_state *state = p->create(&(policy_geometry){.sets = 32, .ways = 1, .seed = 3}, &err);
    int64_t meta[1];
    uint64_t lines[1] = {0};
    cache_set follower = {.index = 5, .ways = 1, .lines = lines, .meta = meta};
    cache_set srrip_leader = {.index = 16, .ways = 1, .lines = lines, .meta = meta};
    cache_set brrip_leader = {.index = 23, .ways = 1, .lines = lines, .meta = meta};
    p->fill(state, &follower, 0, &(cache_req){0});
    cr_expect_eq(meta[0], RRIP_LONG, "SRRIP insertion while PSEL < 512");
    p->miss(state, &srrip_leader, &(cache_req){0});
    cr_expect_eq(state->psel, 512u);
    int distant = 0;
    for (int i = 0; i < 100; i++) {
        p->fill(state, &follower, 0, &(cache_req){0});
        distant += meta[0] == RRIP_MAX;
    }
    cr_expect(distant > 80, "BRRIP insertion in followers: %d of 100 distant", distant);
    p->miss(state, &brrip_leader, &(cache_req){0});
    p->fill(state, &follower, 0, &(cache_req){0});
    cr_expect_eq(meta[0], RRIP_LONG, "back to SRRIP");
    p->destroy(state);
}

/* ---- the interface (policy.h): specs, admission, steps, causes, stalls ---- */

Test(policies, specs_resolve_replacement_and_admission)
{
    policy_spec s;
    ws_error err;
    cr_assert_eq(policy_spec_parse("srrip", &s, &err), 0);
    cr_expect_eq(s.replacement, policy_find("srrip"));
    cr_expect_null(s.admission);
    cr_assert_eq(policy_spec_parse("bypass-pc", &s, &err), 0, "an admission alone runs on lru");
    cr_expect_eq(s.replacement, policy_find("lru"));
    cr_expect_eq(s.admission, admission_find("bypass-pc"));
    cr_assert_eq(policy_spec_parse("srrip+bypass-table", &s, &err), 0);
    cr_expect_eq(s.replacement, policy_find("srrip"));
    cr_expect_eq(s.admission, admission_find("bypass-table"));
    cr_expect_eq(policy_spec_parse("srrip+lru", &s, &err), -1);
    cr_expect(strstr(err.msg, "no admission module") != NULL, "%s", err.msg);
    cr_expect_eq(policy_spec_parse("nope", &s, &err), -1);
    cr_expect(strstr(err.msg, "unknown policy 'nope'") != NULL, "%s", err.msg);
}

Test(policies, admission_composes_with_any_replacement)
{
    /* srrip+bypass-pc: PC 1's loads never look the cache up (a resident
     * line is no hit for them); PC 0's follow SRRIP. */
    uint8_t flags[2] = {0, 1};
    uint8_t *rows[1] = {flags};
    uint32_t counts[1] = {2};
    bypass_pcs marks = {.kernels = 1, .pc_counts = counts, .flags = rows};
    ws_error err;
    cache_options o = {.sets = 1, .ways = 2, .line_bytes = 128, .policy = policy_find("srrip"),
                       .admission = admission_find("bypass-pc"),
                       .policy_geometry = {.param = &marks}};
    cache *c = cache_new(&o, &err);
    cr_assert_not_null(c, "%s", err.msg);
    cache_result r;
    cache_req pc0 = {.line = 4, .pc = 0, .kind = WST_LOAD, .space = WST_GLOBAL};
    cache_req pc1 = pc0;
    pc1.pc = 1;
    cache_read(c, &pc0, 1, 0, &r);
    cr_expect(r.allocated);
    cache_read(c, &pc1, 1, 0, &r);
    cr_expect(!r.hit && !r.present && r.bypassed, "around the cache, even with the line in it");
    cache_read(c, &pc0, 1, 0, &r);
    cr_expect(r.hit);
    cache_free(c);
}

/* A policy that records what it is told, for the interface tests. */
typedef struct recorder_state {
    int evictions[3];
    uint32_t victim; /* what victim() returns */
} recorder_state;

static void *rec_create(const policy_geometry *g, ws_error *err)
{
    (void)g, (void)err;
    return calloc(1, sizeof(recorder_state));
}
static void rec_touch(void *s, const cache_set *set, uint32_t way, const cache_req *r)
{
    (void)s, (void)r;
    set->meta[way] = 0;
}
static uint32_t rec_victim(void *s, const cache_set *set, uint64_t candidates, const cache_req *r)
{
    (void)set, (void)candidates, (void)r;
    return ((recorder_state *)s)->victim;
}
static void rec_evicted(void *s, const cache_set *set, uint32_t way, evict_cause cause)
{
    (void)set, (void)way;
    ((recorder_state *)s)->evictions[cause]++;
}
static uint32_t rec_stats(const void *s, policy_stat *out)
{
    const recorder_state *st = s;
    out[0] = (policy_stat){"replaced", (uint64_t)st->evictions[EVICT_REPLACE]};
    out[1] = (policy_stat){"flushed", (uint64_t)st->evictions[EVICT_FLUSH]};
    return 2;
}
static const policy_ops recorder_policy = {
    .name = "recorder", .description = "test", .create = rec_create, .destroy = free,
    .hit = rec_touch, .fill = rec_touch, .victim = rec_victim, .evicted = rec_evicted,
    .stats = rec_stats};

Test(policies, probe_choose_fill_and_eviction_causes)
{
    ws_error err;
    cache_options o = {.sets = 1, .ways = 2, .line_bytes = 128, .policy = &recorder_policy};
    cache *c = cache_new(&o, &err);
    cr_assert_not_null(c, "%s", err.msg);
    cache_result r;
    cache_req a = {.line = 1}, b = {.line = 2}, d = {.line = 3};
    cache_read(c, &a, 1, 0, &r);
    cache_read(c, &b, 1, 0, &r);
    /* Probe: a miss, nothing changed yet. */
    cache_probe(c, &d, 0, 0, &r);
    cr_expect(!r.hit && !r.present);
    cr_expect(cache_contains(c, 1) && cache_contains(c, 2));
    cache_way w = cache_choose(c, &d, 0, &r);
    cr_expect_eq(w.way, 0, "the policy's victim (way 0)");
    cr_expect(cache_contains(c, 1), "choosing changes nothing");
    cache_fill(c, &d, w, 0, &r);
    cr_expect(r.allocated && r.evicted && r.victim_line == 1);
    cache_invalidate(c, 2);
    cache_flush(c);
    policy_stat stats[POLICY_MAX_STATS];
    uint32_t n = 0;
    cache_add_policy_stats(c, stats, &n);
    cache_add_policy_stats(c, stats, &n); /* summed by name over caches */
    cr_assert_eq(n, 2);
    cr_expect_str_eq(stats[0].name, "replaced");
    cr_expect_eq(stats[0].value, 2, "one replacement, counted twice");
    cr_expect_eq(stats[1].value, 2, "line 3 flushed, counted twice");
    cache_free(c);
}

/* A policy that always waits for way 1. */
static uint32_t stall_on_way1(void *s, const cache_set *set, uint64_t candidates, const cache_req *r)
{
    (void)s, (void)set, (void)candidates, (void)r;
    return policy_stall(1);
}

Test(policies, a_victim_may_be_a_stall)
{
    ws_error err;
    policy_ops stalling = recorder_policy;
    stalling.victim = stall_on_way1;
    cache_options o = {.sets = 1, .ways = 2, .line_bytes = 128, .policy = &stalling,
                       .track_pending = 1};
    cache *c = cache_new(&o, &err);
    cache_result r;
    cache_read(c, &(cache_req){.line = 1}, 1, 0, &r);
    cache_read(c, &(cache_req){.line = 2}, 1, 0, &r);
    cache_set_ready(c, r.slot, 50); /* way 1 pending until 50 */
    cache_read(c, &(cache_req){.line = 3}, 1, 10, &r);
    cr_expect(r.stalled && r.allocated, "waited for way 1, then replaced it");
    cr_expect_eq(r.stall_until, 50);
    cr_expect_eq(r.victim_line, 2);
    cache_free(c);
}

/* A flush drops every line, including those of a cache flushed before with
 * nothing filled since (cache.c skips that second clear): on 2 ways,
 * A B | flush | flush | A B A misses A and B again, then hits A. */
Test(policies, a_flush_after_an_empty_flush_still_empties)
{
    cache *c = one_set("lru", 2, 1);
    static const uint64_t ab[] = {1, 2}, aba[] = {1, 2, 1};
    char got[8];
    run_seq(c, ab, 2, got);
    cr_expect_str_eq(got, "MM");
    cache_flush(c);
    cache_flush(c);
    run_seq(c, aba, 3, got);
    cr_expect_str_eq(got, "MMH", "after the flushes: got %s", got);
    cache_flush(c);
    run_seq(c, aba, 3, got);
    cr_expect_str_eq(got, "MMH", "after one more: got %s", got);
    cr_expect(!cache_contains(c, 3));
    cache_free(c);
}
