/* analyzer/stages/sharing_aware.c: the hierarchy stages of S0's
 * sharing-aware management (S0 §V, docs/metrics.md §9):
 *   shared fills   on an L2 hit with SF = 1 the block is shared: it fills
 *                  L1 only if the L1 victim is invalid or shared, else it
 *                  bypasses L1, leaving private lines their L1 room;
 *   local misses   bypass L2: local data is private to its SM, so it takes
 *                  no L2 line (S0 Fig. 10); S0 §V: "in the rare case if the
 *                  block hits in L2 then the block is fetched from L2", so
 *                  the miss looks L2 up, and only an L2 miss goes to DRAM
 *                  (docs/metrics.md §9). */
#include "analyzer/stages/sharing_aware.h"

#include "formats/trace.h"

static int shared_fill_filter(void *ctx, const replay_issue *is, uint64_t line, uint8_t fill_hint,
                              uint64_t victim_line, uint8_t victim_flags)
{
    (void)ctx, (void)is, (void)line;
    if (!(fill_hint & LINE_SHARED))
        return 1; /* private (or an L2 miss, tentatively private): fill */
    return victim_line == UINT64_MAX || (victim_flags & LINE_SHARED);
}

static int local_past_l2(void *ctx, const replay_issue *is, l1_miss *miss)
{
    (void)ctx, (void)miss;
    return is->space == WST_LOCAL ? 2 : 0;
}

const hierarchy_stage sharing_shared_fills = {.fill_filter = shared_fill_filter};
const hierarchy_stage sharing_local_misses = {.miss_route = local_past_l2};
