/* tests/test_request_memo.c: the requests kept for the other loops of a
 * timed compare (analyzer/request_memo.h): found while in the ring, equal
 * to the coalescer's, gone once overwritten. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/request_memo.h"
#include "tests/trace_gen.h"

/* n requests told apart by their line. */
static void fill(ws_request *rq, int n, uint64_t line)
{
    memset(rq, 0, (size_t)n * sizeof *rq);
    for (int i = 0; i < n; i++) {
        rq[i].line_addr = (line + (uint64_t)i) * 128;
        rq[i].index = (uint8_t)i;
        rq[i].req_count = (uint8_t)n;
    }
}

Test(request_memo, a_record_is_found_until_the_ring_overwrites_it)
{
    /* A ring of 64 requests.  Hand-worked: records of 30, 30 and 10
     * requests go at 0 and 30, and the third, not fitting in the 4 places
     * left, at the ring's start again: over the first, not the second. */
    ws_error err;
    request_memo *m = request_memo_new(64, &err);
    cr_assert_not_null(m, "%s", err.msg);
    ws_request a[30], b[30], c[10];
    const ws_request *got;
    fill(a, 30, 100);
    fill(b, 30, 200);
    fill(c, 10, 300);
    cr_expect_eq(request_memo_find(m, 0, 1, 0, &got), -1, "nothing kept yet");
    request_memo_keep(m, 0, 1, 0, a, 30);
    request_memo_keep(m, 0, 1, 1, b, 30);
    cr_assert_eq(request_memo_find(m, 0, 1, 0, &got), 30);
    cr_expect_eq(memcmp(got, a, sizeof a), 0);
    cr_assert_eq(request_memo_find(m, 0, 1, 1, &got), 30);
    cr_expect_eq(memcmp(got, b, sizeof b), 0);
    cr_expect_eq(request_memo_find(m, 0, 2, 0, &got), -1, "another CTA's record 0");
    cr_expect_eq(request_memo_find(m, 1, 1, 0, &got), -1, "another kernel's");
    request_memo_keep(m, 0, 1, 2, c, 10); /* at the ring's start: over a */
    cr_expect_eq(request_memo_find(m, 0, 1, 0, &got), -1, "overwritten");
    cr_assert_eq(request_memo_find(m, 0, 1, 2, &got), 10);
    cr_expect_eq(memcmp(got, c, sizeof c), 0, "in one piece");
    cr_assert_eq(request_memo_find(m, 0, 1, 1, &got), 30, "b lies past c: still whole");
    cr_expect_eq(memcmp(got, b, sizeof b), 0);
    request_memo_keep(m, 0, 1, 3, a, 0);
    cr_expect_eq(request_memo_find(m, 0, 1, 3, &got), 0, "a record of no request is kept too");
    request_memo_free(m);
}

Test(request_memo, a_ring_that_is_not_a_power_of_two_is_refused)
{
    ws_error err;
    cr_expect_null(request_memo_new(96, &err));
    cr_expect(strstr(err.msg, "power of two") != NULL, "%s", err.msg);
    cr_expect_null(request_memo_new(32, &err), "smaller than one record's most requests");
}

Test(request_memo, kept_requests_equal_the_coalescers_for_random_records)
{
    /* Random records of three shapes, each coalesced and kept, then found
     * again in a shuffled order from a ring big enough to hold them all:
     * the same bytes as coalescing again. */
    ws_error err;
    request_memo *m = request_memo_new(1u << 14, &err);
    cr_assert_not_null(m, "%s", err.msg);
    coalesce_config cc = {.line_bytes = 128, .half_warp = 0};
    enum { RECORDS = 200 };
    static wst_record records[RECORDS];
    uint64_t rng = 41;
    for (uint32_t i = 0; i < RECORDS; i++) {
        wst_record *r = &records[i];
        memset(r, 0, sizeof *r);
        r->cta = i % 7;
        r->warp = i % 4;
        r->kind = WST_LOAD;
        r->space = WST_GLOBAL;
        r->size = 4;
        r->mask = test_rand(&rng) % 2 ? 0xffffffffu : (uint32_t)test_rand(&rng);
        uint64_t base = 0x20000000 + (test_rand(&rng) % 512) * 4, shape = test_rand(&rng) % 3;
        for (uint64_t l = 0; l < WST_WARP_SIZE; l++)
            r->addr[l] = shape == 0   ? base + l * 4
                         : shape == 1 ? base + l * 136
                                      : 0x20000000 + (test_rand(&rng) % 256) * 32 + l % 8;
        ws_request rq[COALESCE_MAX_REQUESTS];
        int n = coalesce_record(&cc, r, 0, rq, NULL, &err);
        cr_assert_geq(n, 0, "%s", err.msg);
        request_memo_keep(m, 0, r->cta, i, rq, n);
    }
    for (uint32_t k = 0; k < RECORDS; k++) {
        uint32_t i = (k * 73) % RECORDS; /* 73 is prime to 200: each once */
        ws_request want[COALESCE_MAX_REQUESTS];
        const ws_request *got;
        int n = coalesce_record(&cc, &records[i], 0, want, NULL, &err);
        cr_assert_eq(request_memo_find(m, 0, records[i].cta, i, &got), n, "record %u", i);
        cr_expect_eq(memcmp(got, want, (size_t)n * sizeof *got), 0, "record %u", i);
    }
    request_memo_free(m);
}
