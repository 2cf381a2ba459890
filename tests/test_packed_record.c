/* tests/test_packed_record.c: packing the resident CTAs' records is exact. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/packed_record.h"
#include "tests/trace_gen.h"

/* Packs into p (which may hold an earlier CTA: slots are refilled) and
 * checks every record and timestamp comes back. */
static void refill_round_trip(packed_cta *p, const wst_record *records, size_t n,
                              const uint32_t *order)
{
    ws_error err;
    cr_assert_eq(packed_cta_fill(p, records, order, n, &err), 0, "%s", err.msg);
    for (size_t i = 0; i < n; i++) {
        const wst_record *want = &records[order ? order[i] : i];
        wst_record got;
        packed_cta_expand(p, i, want->cta, &got);
        cr_assert(test_records_equal(want, &got), "record %zu", i);
        cr_assert_eq(packed_cta_timestamp(p, i), want->has_time ? want->timestamp : 0);
    }
}

static void round_trip(const wst_record *records, size_t n, const uint32_t *order)
{
    packed_cta p = {0};
    refill_round_trip(&p, records, n, order);
    packed_cta_free(&p);
}

Test(packed_record, random_traces_round_trip)
{
    for (uint64_t seed = 1; seed <= 5; seed++) {
        wst_memtrace *m = test_random_trace(seed, 2, 3000);
        packed_cta reused = {0};
        for (uint32_t k = 0; k < m->trace.kernel_count; k++) {
            round_trip(m->per_kernel[k].records, m->per_kernel[k].count, NULL);
            refill_round_trip(&reused, m->per_kernel[k].records, m->per_kernel[k].count, NULL);
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
    round_trip(r, 6, NULL);
    uint32_t reversed[6] = {5, 4, 3, 2, 1, 0};
    round_trip(r, 6, reversed);
}
