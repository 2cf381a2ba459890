/* analyzer/ref_l1.h: the scheduler's reference L1 rule (SPEC §6, §7).
 *
 * GTO switches warps when one misses in L1.  So that every consumer sees
 * the same issue order, that miss comes from one fixed model: a tag-only
 * LRU L1 per SM (tagcache.h) under the L1 rules of SPEC §7.  `analyze` and
 * `replay` / `compare` both call this, which is what makes their issue
 * orders identical. */
#ifndef WS_REF_L1_H
#define WS_REF_L1_H

#include "analyzer/tagcache.h"
#include "formats/trace.h"

typedef enum ref_l1_outcome {
    REF_L1_ACCESS,      /* looked up (and filled on a miss): see the result */
    REF_L1_WRITE_EVICT, /* a global store or atomic: the line was invalidated */
    REF_L1_BYPASS       /* a cg load: goes to L2, a miss for GTO */
} ref_l1_outcome;

static inline ref_l1_outcome ref_l1_request(tagcache *l1, uint8_t kind, uint8_t space,
                                            uint8_t cache_op, uint64_t line, uint32_t warp,
                                            tagcache_result *result)
{
    *result = (tagcache_result){0};
    if (space == WST_GLOBAL && kind != WST_LOAD) {
        result->evicted = tagcache_invalidate(l1, line);
        result->victim_line = line;
        return REF_L1_WRITE_EVICT;
    }
    if (space == WST_GLOBAL && cache_op == WST_OP_CG)
        return REF_L1_BYPASS;
    *result = tagcache_access(l1, line, 1, warp);
    return REF_L1_ACCESS;
}

#endif
