/* tests/test_packed_record.c: packing the resident CTAs' records is exact. */
#include <criterion/criterion.h>
#include <string.h>

#include "formats/packed_record.h"
#include "tests/trace_gen.h"

/* Packs into p (which may hold an earlier CTA: slots are refilled), in
 * batches of `batch` records as a source hands them over, and checks every
 * record and timestamp comes back. */
static void refill_round_trip(packed_cta *p, const wst_record *records, size_t n, size_t batch)
{
    ws_error err;
    packed_cta_clear(p);
    for (size_t at = 0; at < n; at += batch)
        cr_assert_eq(packed_cta_append(p, records + at, n - at < batch ? n - at : batch, &err), 0,
                     "%s", err.msg);
    cr_assert_eq(p->count, n);
    for (size_t i = 0; i < n; i++) {
        wst_record got;
        packed_cta_expand(p, i, records[i].cta, &got);
        cr_assert(test_records_equal(&records[i], &got), "record %zu", i);
        cr_assert_eq(packed_cta_timestamp(p, i), records[i].has_time ? records[i].timestamp : 0);
    }
}

static void round_trip(const wst_record *records, size_t n)
{
    packed_cta p = {0};
    refill_round_trip(&p, records, n, n ? n : 1);
    packed_cta_free(&p);
}

Test(packed_record, random_traces_round_trip)
{
    for (uint64_t seed = 1; seed <= 5; seed++) {
        wst_memtrace *m = test_random_trace(seed, 2, 3000);
        packed_cta reused = {0};
        for (uint32_t k = 0; k < m->trace.kernel_count; k++) {
            round_trip(m->per_kernel[k].records, m->per_kernel[k].count);
            refill_round_trip(&reused, m->per_kernel[k].records, m->per_kernel[k].count, 7);
        }
        packed_cta_free(&reused);
        wst_memtrace_free(m);
    }
}

Test(packed_record, affine_edge_cases_and_order)
{
    wst_record r[6];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 6; i++)
        r[i].size = 4, r[i].warp = (uint32_t)i, r[i].pc = (uint32_t)i;
    /* Descending addresses (negative stride), sparse lanes. */
    r[0].mask = 0x80000101u;
    for (int l = 0; l < 32; l++)
        r[0].addr[l] = 0x100000 - (uint64_t)l * 8;
    /* Wrapping past 2^64. */
    r[1].mask = 0x3u;
    r[1].addr[0] = UINT64_MAX - 3;
    r[1].addr[1] = 4;
    /* A stride that does not divide: lanes 0 and 3 differ by 10. */
    r[2].mask = 0x9u;
    r[2].addr[0] = 100;
    r[2].addr[3] = 110;
    /* Broadcast, one lane, no lane. */
    r[3].mask = 0xffffffffu;
    for (int l = 0; l < 32; l++)
        r[3].addr[l] = 4096;
    r[4].mask = 1u << 17;
    r[4].addr[17] = 77;
    r[5].mask = 0;
    round_trip(r, 6);
}

/* Grouping by warp is a stable counting sort: warp w's records land at
 * [starts[w], starts[w + 1]) in their trace order, lanes and timestamps with
 * them, and the spare's buffers serve the next CTA. */
Test(packed_record, group_by_warp_is_stable)
{
    for (uint64_t seed = 11; seed <= 13; seed++) {
        wst_memtrace *m = test_random_trace(seed, 1, 4000);
        const wst_record *records = m->per_kernel[0].records;
        size_t n = m->per_kernel[0].count;
        enum { WARPS = 16 };
        static wst_record local[4000];
        cr_assert_leq(n, 4000);
        uint32_t starts[WARPS + 1] = {0};
        for (size_t i = 0; i < n; i++) {
            local[i] = records[i];
            local[i].warp = (uint32_t)((records[i].pc * 7 + i) % WARPS);
            local[i].has_time = (i % 3) != 0;
            local[i].timestamp = local[i].has_time ? 1000 + i : 0;
            starts[local[i].warp + 1]++;
        }
        for (uint32_t w = 0; w < WARPS; w++)
            starts[w + 1] += starts[w];
        packed_cta p = {0}, spare = {0};
        ws_error err;
        for (int round = 0; round < 2; round++) {
            packed_cta_clear(&p);
            cr_assert_eq(packed_cta_append(&p, local, n, &err), 0, "%s", err.msg);
            cr_assert_eq(packed_cta_group_by_warp(&p, &spare, starts, WARPS, &err), 0, "%s",
                         err.msg);
            uint32_t next[WARPS];
            memcpy(next, starts, sizeof next);
            for (size_t i = 0; i < n; i++) {
                size_t at = next[local[i].warp]++;
                wst_record got;
                packed_cta_expand(&p, at, local[i].cta, &got);
                cr_assert(test_records_equal(&local[i], &got), "seed %llu record %zu",
                          (unsigned long long)seed, i);
                cr_assert_eq(packed_cta_timestamp(&p, at), local[i].timestamp);
            }
        }
        packed_cta_free(&p);
        packed_cta_free(&spare);
        wst_memtrace_free(m);
    }
}
