/* analyzer/load_evidence.h: what the bypass advisor's baseline replay
 * measures of each global-load PC besides S1's table (docs/metrics.md §9,
 * "Advice"): the figures the advice beside `__ldcg` stands on.
 *
 *   - sectors and ideal sectors of its instructions (request_sectors_of,
 *     docs/metrics.md §7): an uncoalesced load asks for more than the ideal;
 *   - the bytes its loads moved below L1 (L1 -> L2 and L2 -> DRAM, no
 *     write-backs): what coalescing it could shrink;
 *   - its L1 fills, those whose generation (docs/metrics.md §4: to their
 *     eviction, invalidation or the kernel's end) saw no hit (dead fills:
 *     it streams), and the lines its fills evicted that had been hit since
 *     their own fill (it evicts reused data).
 *
 * An L1 collector (analyzer/hierarchy.h, l1_observer) of one hierarchy;
 * PCs are the advisor's groups, told by the caller's callbacks. */
#ifndef WS_LOAD_EVIDENCE_H
#define WS_LOAD_EVIDENCE_H

#include <stdint.h>

#include "analyzer/hierarchy.h"
#include "analyzer/request.h"
#include "util/error.h"

typedef struct load_evidence {
    uint64_t sectors, ideal_sectors;
    uint64_t below_l1_bytes;
    uint64_t fills, dead_fills, evicted_reused;
} load_evidence;

typedef struct load_evidence_groups {
    void *ctx;
    /* The group of a global load's PC, UINT32_MAX for any other request. */
    uint32_t (*group)(void *ctx, const replay_issue *is);
    /* The evidence of a group (valid until the next call of group). */
    load_evidence *(*at)(void *ctx, uint32_t group);
} load_evidence_groups;

typedef struct load_evidence_collector load_evidence_collector;

load_evidence_collector *load_evidence_new(load_evidence_groups groups, ws_error *err);
void load_evidence_free(load_evidence_collector *c);
l1_observer load_evidence_observer(load_evidence_collector *c);

/* Adds one instruction's sectors and ideal sectors to e. */
void load_evidence_instruction(load_evidence *e, const ws_request *rq, int n);

#endif
