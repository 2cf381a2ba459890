/* tests/test_sharing.c: docs/metrics.md §5 sharing metrics on constructed touches. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/sharing.h"
#include "util/u64map.h"

static sharing *make(uint32_t sms, uint32_t block)
{
    ws_error err;
    sharing *s = sharing_new(sms, block, &err);
    cr_assert_not_null(s, "%s", err.msg);
    return s;
}

static void touch(sharing *s, uint64_t addr, uint32_t sm, uint32_t cta)
{
    ws_error err;
    cr_assert_eq(sharing_touch(s, addr, sm, cta, &err), 0, "%s", err.msg);
}

Test(sharing, sharer_histogram_and_means)
{
    sharing *s = make(4, 128);
    /* Block 0: SMs 0 and 1.  Block 1: SM 2 only (two addresses in the line).
     * Block 2: SMs 0, 1 and 3. */
    touch(s, 0, 0, 0);
    touch(s, 64, 1, 1);
    touch(s, 128, 2, 2);
    touch(s, 200, 2, 2);
    touch(s, 256, 0, 0);
    touch(s, 300, 1, 1);
    touch(s, 383, 3, 3);
    sharing_end_kernel(s);
    const sharing_results *r = sharing_get(s);
    cr_assert_eq(r->blocks, 3);
    cr_assert_eq(r->shared_blocks, 2);
    cr_assert_eq(r->sharers_hist[1], 1);
    cr_assert_eq(r->sharers_hist[2], 1);
    cr_assert_eq(r->sharers_hist[3], 1);
    cr_assert_float_eq(sharing_shared_fraction(r), 2.0 / 3, 1e-12);
    cr_assert_float_eq(sharing_mean_sms_per_block(r), 6.0 / 3, 1e-12);
    cr_assert_float_eq(sharing_mean_sms_per_shared_block(r), 5.0 / 2, 1e-12);
    /* SM×SM: SMs 0 and 1 share blocks 0 and 2; 0 and 3 share block 2. */
    cr_assert_eq(r->sm_matrix[0 * 4 + 1], 2);
    cr_assert_eq(r->sm_matrix[1 * 4 + 0], 2);
    cr_assert_eq(r->sm_matrix[0 * 4 + 3], 1);
    cr_assert_eq(r->sm_matrix[2 * 4 + 2], 1);
    cr_assert_eq(r->sm_matrix[0 * 4 + 0], 2);
    cr_assert_eq(r->sm_matrix[2 * 4 + 0], 0);
    sharing_free(s);
}

Test(sharing, kernels_are_folded_separately)
{
    sharing *s = make(2, 128);
    touch(s, 0, 0, 0);
    sharing_end_kernel(s);
    touch(s, 0, 1, 0); /* same block, next kernel, another SM: not shared */
    sharing_end_kernel(s);
    const sharing_results *r = sharing_get(s);
    cr_assert_eq(r->blocks, 2);
    cr_assert_eq(r->shared_blocks, 0);
    sharing_free(s);
}

Test(sharing, granularity_changes_blocks)
{
    sharing *s = make(2, 32);
    touch(s, 0, 0, 0);
    touch(s, 32, 1, 1); /* same 128 B line, different sector */
    sharing_end_kernel(s);
    cr_assert_eq(sharing_get(s)->blocks, 2);
    cr_assert_eq(sharing_get(s)->shared_blocks, 0);
    sharing_free(s);
}

Test(sharing, cta_distance_hand_worked)
{
    sharing *s = make(1, 128);
    /* Block A: CTAs 3, 4, 10 -> pairs at 1, 7, 6.  Block B: CTAs 0, 40 -> 40.
     * Block C: one CTA only, no pairs. */
    touch(s, 0, 0, 10);
    touch(s, 4, 0, 3);
    touch(s, 8, 0, 4);
    touch(s, 8, 0, 4);
    touch(s, 128, 0, 0);
    touch(s, 130, 0, 40);
    touch(s, 256, 0, 7);
    sharing_end_kernel(s);
    const sharing_results *r = sharing_get(s);
    cr_assert_eq(r->multi_cta_blocks, 2);
    cr_assert_eq(r->cta_pairs, 4);
    cr_assert_eq(r->cta_distance_exact[1], 1);
    cr_assert_eq(r->cta_distance_exact[6], 1);
    cr_assert_eq(r->cta_distance_exact[7], 1);
    cr_assert_eq(r->cta_distance_log2[5], 1, "40 is in [32, 64)");
    cr_assert_float_eq(sharing_neighbour_pair_share(r), 1.0 / 4, 1e-12);
    cr_assert_float_eq(sharing_multi_cta_fraction(r), 2.0 / 3, 1e-12);
    sharing_free(s);
}

/* Property: the fast pair-distance fold equals counting every pair. */
Test(sharing, cta_distances_match_brute_force)
{
    srand(7);
    sharing *s = make(8, 128);
    enum { BLOCKS = 40, MAX_CTAS = 3000 };
    static uint8_t member[BLOCKS][MAX_CTAS];
    for (int t = 0; t < 20000; t++) {
        int block = rand() % BLOCKS;
        /* Mix dense neighbourhoods with far-apart CTAs. */
        int cta = (rand() % 4) ? block * 50 + rand() % 40 : rand() % MAX_CTAS;
        member[block][cta] = 1;
        touch(s, (uint64_t)block * 128, (uint32_t)(cta % 8), (uint32_t)cta);
    }
    sharing_end_kernel(s);
    uint64_t exact[SHARING_EXACT_DISTANCES] = {0}, log2h[SHARING_LOG2_BUCKETS] = {0}, pairs = 0;
    for (int b = 0; b < BLOCKS; b++)
        for (int x = 0; x < MAX_CTAS; x++)
            for (int y = x + 1; member[b][x] && y < MAX_CTAS; y++) {
                if (!member[b][y])
                    continue;
                int d = y - x;
                pairs++;
                if (d < SHARING_EXACT_DISTANCES)
                    exact[d]++;
                else
                    log2h[31 - __builtin_clz((unsigned)d)]++;
            }
    const sharing_results *r = sharing_get(s);
    cr_assert_eq(r->cta_pairs, pairs);
    for (int d = 0; d < SHARING_EXACT_DISTANCES; d++)
        cr_assert_eq(r->cta_distance_exact[d], exact[d], "distance %d", d);
    for (int k = 0; k < SHARING_LOG2_BUCKETS; k++)
        cr_assert_eq(r->cta_distance_log2[k], log2h[k], "bucket %d", k);
    sharing_free(s);
}

Test(sharing, rejects_bad_arguments)
{
    ws_error err;
    cr_assert_null(sharing_new(0, 128, &err));
    cr_assert_null(sharing_new(4, 100, &err));
    cr_assert(strstr(err.msg, "power of two") != NULL);
    sharing *s = make(2, 128);
    cr_assert_eq(sharing_touch(s, 0, 2, 0, &err), -1);
    cr_assert(strstr(err.msg, "SM 2") != NULL);
    sharing_free(s);
}

Test(u64map, insert_find_grow)
{
    u64map m;
    cr_assert_eq(u64map_init(&m, 4), 0);
    for (uint64_t k = 0; k < 10000; k++) {
        int inserted;
        uint32_t *v = u64map_upsert(&m, k * 128, (uint32_t)k, &inserted);
        cr_assert(inserted);
        cr_assert_eq(*v, k);
    }
    cr_assert_eq(m.count, 10000);
    for (uint64_t k = 0; k < 10000; k++)
        cr_assert_eq(*u64map_find(&m, k * 128), k);
    cr_assert_null(u64map_find(&m, 77));
    u64map_clear(&m);
    cr_assert_null(u64map_find(&m, 128));
    u64map_destroy(&m);
}

/* Random inserts and removals (by key, and where find found the key)
 * against a plain array of what should be there; a small key range makes long probe runs that wrap the table.  Keys
 * far apart, and consecutive keys. */
static void remove_against_array(unsigned key_shift)
{
    enum { RANGE = 300 };
    u64map m;
    cr_assert_eq(u64map_init(&m, 8), 0);
    static uint32_t want[RANGE]; /* value + 1; 0 = absent */
    memset(want, 0, sizeof want);
    uint64_t rng = 17;
    for (int step = 0; step < 200000; step++) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t k = (rng >> 33) % RANGE;
        if ((rng >> 20) & 1) {
            int inserted;
            uint32_t *v = u64map_upsert(&m, k << key_shift, (uint32_t)step, &inserted);
            cr_assert_eq(inserted, want[k] == 0);
            if (inserted)
                want[k] = (uint32_t)step + 1;
            cr_assert_eq(*v + 1, want[k]);
        } else if ((rng >> 21) & 1) {
            cr_assert_eq(u64map_remove(&m, k << key_shift), want[k] != 0);
            want[k] = 0;
        } else { /* removed where find found it (u64map_remove_at) */
            uint32_t *v = u64map_find(&m, k << key_shift);
            cr_assert_eq(v != NULL, want[k] != 0);
            if (v)
                u64map_remove_at(&m, v);
            want[k] = 0;
        }
        if (step % 1000 == 0) {
            size_t count = 0;
            for (uint64_t j = 0; j < RANGE; j++) {
                uint32_t *v = u64map_find(&m, j << key_shift);
                cr_assert_eq(v != NULL, want[j] != 0, "key %llu step %d", (unsigned long long)j, step);
                if (v)
                    cr_assert_eq(*v + 1, want[j]);
                count += want[j] != 0;
            }
            cr_assert_eq(m.count, count);
        }
    }
    u64map_destroy(&m);
}

Test(u64map, remove_keeps_every_other_key_findable)
{
    remove_against_array(40);
    remove_against_array(0);
}

/* The CTA-distance histogram from runs of CTA ids equals the pairwise
 * count over every pair, on random sets: runs that merge from both sides,
 * CTAs arriving out of order and repeated, ids near 2^32, and spans
 * reaching the top log2 bucket. */
static uint64_t next_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

Test(sharing, cta_distances_from_runs_equal_the_pairwise_count)
{
    uint64_t seed = 7;
    for (int trial = 0; trial < 300; trial++) {
        sharing *s = make(1, 128);
        uint32_t ctas[400];
        uint32_t n = 1 + (uint32_t)(next_rand(&seed) % 300);
        uint32_t base = trial % 3 == 0 ? UINT32_MAX - 1000 : (uint32_t)(next_rand(&seed) % 100000);
        uint32_t spread = trial % 5 == 0 ? 3000000000u : 1 + (uint32_t)(next_rand(&seed) % 600);
        for (uint32_t i = 0; i < n; i++) {
            uint64_t c = base + next_rand(&seed) % (trial % 5 == 0 ? spread : spread % 900 + 1);
            ctas[i] = (uint32_t)(c > UINT32_MAX ? UINT32_MAX - (c - UINT32_MAX) : c);
            touch(s, 0, 0, ctas[i]);
            if (i % 7 == 0)
                touch(s, 0, 0, ctas[i]); /* repeats change nothing */
        }
        sharing_end_kernel(s);
        qsort(ctas, n, sizeof *ctas, by_u32);
        uint32_t distinct = 0;
        for (uint32_t i = 0; i < n; i++)
            if (i == 0 || ctas[i] != ctas[i - 1])
                ctas[distinct++] = ctas[i];
        uint64_t exact[SHARING_EXACT_DISTANCES] = {0}, log2[SHARING_LOG2_BUCKETS] = {0};
        for (uint32_t i = 0; i < distinct; i++)
            for (uint32_t j = i + 1; j < distinct; j++) {
                uint64_t d = (uint64_t)ctas[j] - ctas[i];
                if (d < SHARING_EXACT_DISTANCES)
                    exact[d]++;
                else
                    log2[63 - __builtin_clzll(d)]++;
            }
        const sharing_results *r = sharing_get(s);
        cr_assert_eq(r->cta_pairs, (uint64_t)distinct * (distinct - 1) / 2, "trial %d", trial);
        cr_assert_eq(r->multi_cta_blocks, distinct >= 2, "trial %d", trial);
        for (int d = 0; d < SHARING_EXACT_DISTANCES; d++)
            cr_assert_eq(r->cta_distance_exact[d], exact[d], "trial %d d %d", trial, d);
        for (int k = 0; k < SHARING_LOG2_BUCKETS; k++)
            cr_assert_eq(r->cta_distance_log2[k], log2[k], "trial %d bucket %d", trial, k);
        sharing_free(s);
    }
}

/* A block every CTA of a huge grid touches is one run: the state does not
 * grow with the CTAs, and the histogram is still exact. */
Test(sharing, a_block_touched_by_every_cta_is_one_run)
{
    sharing *s = make(1, 128);
    const uint32_t n = 3000000;
    for (uint32_t c = 0; c < n; c++)
        touch(s, 0, 0, n - 1 - c); /* backwards: every insert extends the run down */
    sharing_end_kernel(s);
    const sharing_results *r = sharing_get(s);
    cr_assert_eq(r->cta_pairs, (uint64_t)n * (n - 1) / 2);
    for (int d = 1; d < SHARING_EXACT_DISTANCES; d++)
        cr_assert_eq(r->cta_distance_exact[d], n - (uint64_t)d);
    /* Bucket k holds distances 2^k .. 2^(k+1) - 1, each n - d times. */
    uint64_t lo = 16, hi = 31, want = 0;
    for (uint64_t d = lo; d <= hi; d++)
        want += n - d;
    cr_assert_eq(r->cta_distance_log2[4], want);
    sharing_free(s);
}
