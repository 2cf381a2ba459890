/* tests/coalesce_bytes.h: for the coalescer's suites, a load record with
 * lanes at base + lane × stride, and the requests of docs/metrics.md §2
 * found byte by byte, the reference they check every path against. */
#ifndef WS_TEST_COALESCE_BYTES_H
#define WS_TEST_COALESCE_BYTES_H

#include "analyzer/coalesce.h"

/* A global load (CTA 7, warp 3, PC 5, SM 9, cache op ca) of `size`-byte
 * elements, lane l at base + l × stride (mod 2^64), the lanes of `mask`
 * active. */
wst_record coalesce_test_record(uint32_t mask, uint64_t base, uint64_t stride, unsigned size);

/* Asserts that got[0..n), coalesce_record()'s requests of `rec` under
 * `config`, are those found byte by byte: every line an active lane's
 * element touches (cut at 2^64 - 1), ascending within each lane group,
 * group 0 first, with the bytes asked for, their count and sectors, the
 * index, Req and the group.  `iter` names the record in messages. */
void coalesce_expect_bytes(const wst_record *rec, const coalesce_config *config,
                           const ws_request *got, int n, int iter);

#endif
