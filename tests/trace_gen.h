/* tests/trace_gen.h: random traces for property tests, and writing a
 * memtrace to a .wst file with records interleaved across CTAs. */
#ifndef WS_TEST_TRACE_GEN_H
#define WS_TEST_TRACE_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "formats/memtrace.h"
#include "formats/wst.h"

/* A deterministic PRNG for tests (splitmix64). */
uint64_t test_rand(uint64_t *state);

/* kernels kernels (one of them empty), several CTAs each, every record kind,
 * space, cache op, size, masks 0 / full / sparse, with and without SM ids
 * and timestamps, regular and irregular addresses, and two allocations.
 * Records of different CTAs are interleaved in the memtrace's arrival
 * order. */
wst_memtrace *test_random_trace(uint64_t seed, uint32_t kernels, uint32_t records_per_kernel);

/* One kernel whose warps loop over `pcs` instructions `iterations` times,
 * as CSR-style code does: most records move every lane of the previous one
 * of their warp and PC by one element (version 2's SHIFTED mode), some add
 * a little per lane (LANE_DELTAS), some are random, some coalesced; lanes
 * drop out as threads finish, and come back every few iterations.  Two CTAs of `warps`
 * warps, interleaved; warps × pcs past 1024 makes history slots collide. */
wst_memtrace *test_looping_trace(uint64_t seed, uint32_t warps, uint32_t pcs,
                                 uint32_t iterations);

/* One kernel of `ctas` CTAs of `warps` warps; each warp issues `records`
 * one-lane records of `kind` (every `store_every`-th a store, 0: none) to
 * lines[] in turn, starting at its own offset. */
wst_memtrace *test_lines_trace(const uint64_t *lines, size_t n, uint32_t ctas, uint32_t warps,
                               uint32_t records, uint32_t store_every, wst_space space);

/* One kernel of 2D thread blocks (formats/lane_tile.h): two CTAs of
 * `warps` warps, each looping over six PCs `iterations` times with tiles
 * of width 2 to 16 and masks full, leading (the first rows), edged (each
 * row's edge lanes out), random with at least four lanes, and too few
 * lanes for a tile; steps small, negative, past 32 bits, and rows that
 * continue each other (a stride); one PC moves one lane off its tile now
 * and then (coded against the tile in its history). */
wst_memtrace *test_tiled_trace(uint64_t seed, uint32_t warps, uint32_t iterations);

/* Gives m's records random timing (docs/metrics.md §12), about a third
 * none, the rest gaps mostly small and waits mostly a few low bits, with
 * the extremes (a gap of 2^32 - 1, waits of bit 31 alone and of every
 * bit) among them, and marks every kernel as timed. */
void test_add_timing(wst_memtrace *m, uint64_t seed);

/* An import of an export of a trace without timing: every record says it
 * waits on no load, with no gap (the export's registers have no readers).
 * Checks that, then forgets the timing, so the records compare with the
 * trace exported. */
void test_untimed_import(wst_memtrace *m);

/* Writes m to path through the writer, in m's arrival order, with its
 * allocations. */
int test_write_memtrace(const wst_memtrace *m, const char *path, const wst_writer_options *opts);

/* One kernel of `pcs` PCs, each load run once (no reuse), then `empty`
 * kernels with no records, written to path (a report's PC table and
 * kernels list at their largest for the records: issue 42). */
void test_write_pcs_trace(const char *path, uint32_t pcs, uint32_t empty);

/* Compares two records field by field (active lanes only). */
int test_records_equal(const wst_record *a, const wst_record *b);

#endif
