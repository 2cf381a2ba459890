/* tests/timed_fixture.h: small hand-made traces for the timed replay's
 * tests (docs/metrics.md §12), each timeline worked by hand to its cycle
 * (tests/test_timed.c, tests/test_timed_seeds.c).
 *
 * The GPU (timed_tiny_gpu): a preset cut to one SM with one scheduler and
 * one L2 slice; L1 hit 20 cycles, L2 120, DRAM 220 (issue to data back);
 * one request a cycle through the LD/ST unit and the slice; 16 bytes a
 * cycle of DRAM; 32 MSHRs of 8 merges.  Lines are 128 B, so a DRAM line
 * transfer holds the channel 8 cycles. */
#ifndef WS_TEST_TIMED_FIXTURE_H
#define WS_TEST_TIMED_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "analyzer/bypass_pcs.h"
#include "analyzer/replay.h"
#include "formats/memtrace.h"

enum { TIMED_L1 = 20, TIMED_L2 = 120, TIMED_DRAM = 220 };

/* One record: the warp of CTA `cta` that issues it (in this order per
 * warp), its kind, and the lines of its lanes (lane l reads line[l] at
 * offset 0; `lanes` of them). */
typedef struct rec {
    uint32_t kernel, warp;
    wst_kind kind;
    uint32_t lanes;
    uint64_t line[8];
    uint32_t gap, waits; /* timing (docs/metrics.md §12), with has_waits */
    uint8_t has_waits;
    uint32_t cta;        /* linear CTA id (timed_trace_grid) */
    uint32_t pc;         /* the PC's index in its kernel (0 unless set) */
} rec;

/* `kernels` kernels of one CTA of `warps` warps, with PCs 0 to the
 * highest `pc` of their records. */
wst_memtrace *timed_trace(const rec *recs, size_t n, uint32_t kernels, uint32_t warps);
/* One kernel on a grid_x × grid_y grid of CTAs of `warps` warps, its PCs
 * as above. */
wst_memtrace *timed_trace_grid(const rec *recs, size_t n, uint32_t grid_x, uint32_t grid_y,
                               uint32_t warps);

/* The preset `gpu` cut as above. */
gpu_config timed_tiny_gpu(const char *gpu);
/* A --set FIELD=VALUE on c (the test fails if it is refused). */
void timed_set(gpu_config *c, const char *assignment);

/* The instructions as the hierarchy saw them, in order. */
typedef struct seen {
    uint64_t cycle[64];
    uint32_t warp[64]; /* the warp's index in its CTA */
    uint32_t sm[64], cta[64];
    uint16_t age_rank[64];
    uint32_t count;
} seen;

/* A one-kernel, one-PC trace's PC sent around L1 (`bypass-pc`, S1
 * §III-B): the table lives in *b, the options name it, LRU otherwise. */
typedef struct one_pc_bypass {
    uint8_t flag, *flags[1];
    uint32_t counts[1];
    bypass_pcs pcs;
} one_pc_bypass;
hierarchy_options timed_bypass_pc(const gpu_config *c, one_pc_bypass *b);

/* Replays m timed under `schedule` on c with hierarchy options `base` (its
 * config replaced by c; NULL: the config's own policies); the hierarchy
 * stays the caller's. */
hierarchy *timed_run(const wst_memtrace *m, const gpu_config *c, const char *schedule,
                     const hierarchy_options *base, seen *order);
/* The same with the schedule's warp order replaced by order_ops (its
 * parameters still the schedule's). */
hierarchy *timed_run_order(const wst_memtrace *m, const gpu_config *c, const char *schedule,
                           const warp_order_ops *order_ops);
/* The same, functional (no --timed). */
hierarchy *functional_run(const wst_memtrace *m, const gpu_config *c, const char *schedule,
                          const hierarchy_options *base);

uint64_t timed_kernel_cycles(const hierarchy *h, uint32_t k);
uint64_t timed_total_cycles(const hierarchy *h);
/* Scheduler-cycles add up: issued + stalled = cycles × schedulers × SMs. */
void timed_assert_cycles_add_up(const hierarchy *h, const gpu_config *c);

#endif
