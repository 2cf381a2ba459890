/* analyzer/advice.h: what to change in the source, ranked by the traffic it
 * saves (docs/metrics.md §9, "Advice").
 *
 * One measure for every kind: the bytes moved below L1 (L1 -> L2 reads and
 * writes plus L2 <-> DRAM reads and writes, bypass_traffic) in the baseline
 * replay, minus those with the change.  A replay checks the change where a
 * replay can make it (bypassing a PC, another CTA dispatch); coalescing
 * changes the addresses, so its saving is an estimate from the baseline.
 *
 * Items are ranked by saving and grouped by source line: a line's items
 * stay together, the lines ordered by their largest saving. */
#ifndef WS_ADVICE_H
#define WS_ADVICE_H

#include <stdint.h>

#include "analyzer/sched.h"
#include "formats/trace.h"

/* What the source changes: each kind is named after it. */
typedef enum advice_kind {
    ADVICE_LDCG,        /* "load with __ldcg": the PC's loads go to L2 only */
    ADVICE_COALESCE,    /* "coalesce accesses": the PC asks for excess sectors */
    ADVICE_CTA_SCHEDULE /* "schedule CTAs that share data on one SM" (S0) */
} advice_kind;

/* Why: what the baseline measured. */
typedef enum advice_finding {
    FINDING_BYPASS_WORTHY, /* its requests go to lines S1 Eq. 1 marks */
    FINDING_STREAMING,     /* its fills die unused and evict lines that were reused */
    FINDING_REPLAY,        /* neither, but bypassing it alone lowers the bytes */
    FINDING_UNCOALESCED,   /* excess sectors (docs/metrics.md §7) */
    FINDING_SHARING        /* CTAs on different SMs read the same lines */
} advice_finding;

/* The thresholds of the findings (docs/metrics.md §9, "Advice"). */
#define ADVICE_STREAMING_DEAD_SHARE 0.5   /* dead fills ÷ fills at least this */
#define ADVICE_UNCOALESCED_SHARE 0.25     /* excess ÷ sectors at least this */

typedef struct advice_item {
    advice_kind kind;
    advice_finding finding;
    uint32_t pc;          /* the hint (bypass_advice.pcs) of ldcg and coalesce; UINT32_MAX else */
    uint64_t saved_bytes; /* below L1 */
    int checked;          /* 1: a replay measured it; 0: an estimate */
    cta_policy schedule;  /* ADVICE_CTA_SCHEDULE: the dispatch replayed */
    /* The finding's figures: share (worthy, dead fills, excess ÷ sectors)
     * and count (evicted reused lines, excess sectors). */
    double share;
    uint64_t count;
} advice_item;

/* "ldcg", "coalesce", "cta_schedule": report keys. */
const char *advice_kind_key(advice_kind kind);
/* "load with __ldcg", "coalesce accesses", "schedule CTAs that share data on one SM". */
const char *advice_kind_words(advice_kind kind);
/* "bypass_worthy", "streaming", "replay", "uncoalesced", "sharing". */
const char *advice_finding_key(advice_finding finding);

/* Orders items by saving, grouped by source line: source_of(ctx, item)
 * names an item's place (its file:line, or anything equal for items of
 * one place); ties keep the order given. */
void advice_rank(advice_item *items, uint32_t count,
                 const char *(*place)(void *ctx, const advice_item *item, char *buf, size_t cap),
                 void *ctx);

#endif
