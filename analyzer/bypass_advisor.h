/* analyzer/bypass_advisor.h: L1 bypass hints from a profile (docs/metrics.md §9, S1).
 *
 * Three passes over the same schedule, each decoding the trace once:
 *   1. baseline   the config's hierarchy; every global-load request feeds the
 *                 bypass table (U per line), every L1 fill and hit its R.
 *   2. trials     one hierarchy with the table applied (`bypass-table`), and
 *                 one per candidate load PC with only that PC bypassed
 *                 (`bypass-pc`); meanwhile each PC's share of bypass-worthy
 *                 accesses (S1 Fig. 3).  A PC is recommended when bypassing
 *                 it alone lowers L1->L2 plus L2->DRAM bytes.
 *   3. verify     every recommended PC bypassed together (`bypass-pc`);
 *                 with the baseline's rr dispatch, S0's sharing-aware
 *                 dispatches (bcs, qx_adpt) replayed one after another.
 * The baseline also measures each PC's evidence (analyzer/load_evidence.h),
 * and the advice (analyzer/advice.h) ranks every change by the bytes below
 * L1 it saves: `__ldcg` on a recommended PC, coalescing an uncoalesced one,
 * the CTA dispatch.
 * A PC is a (kernel name, offset): all launches of a kernel share it. */
#ifndef WS_BYPASS_ADVISOR_H
#define WS_BYPASS_ADVISOR_H

#include "analyzer/advice.h"
#include "analyzer/bypass_pcs.h"
#include "analyzer/bypass_table.h"
#include "analyzer/load_evidence.h"
#include "analyzer/replay.h"
#include "util/progress.h"

typedef struct bypass_pc_hint {
    uint32_t kernel, pc;     /* where the PC first appears (index, PC index) */
    uint64_t accesses;       /* global-load line requests, all launches */
    uint64_t worthy;         /* of which to lines the table marks */
    int tested;              /* replayed with only this PC bypassed */
    int recommend;
    int64_t traffic_change;  /* bytes (L1->L2 + DRAM) bypassed minus baseline */
    load_evidence evidence;  /* the baseline's */
} bypass_pc_hint;

typedef struct bypass_advice {
    bypass_table *table;
    bypass_pc_hint *pcs;     /* [pc_count], global-load PCs, first-seen order */
    uint32_t pc_count, recommended;
    replay_counts baseline, with_table, with_pcs;
    char l1_policy[24];      /* the baseline's */
    bypass_u_kind utilization; /* the U of Eq. 1 */
    /* The recommended PCs together: the `bypass-pc` policy's parameter, as
     * with_pcs replayed it (owned; flags NULL when none is recommended). */
    bypass_pcs recommended_pcs;
    /* S0's dispatch that saved most below L1 when replayed instead of the
     * baseline's rr, and its replay; CTA_RR when none was tried. */
    cta_policy schedule;
    replay_counts with_schedule;
    /* Every change, ranked (analyzer/advice.h). */
    advice_item *advice;
    uint32_t advice_count;
} bypass_advice;

#define BYPASS_MAX_TRIALS 64

/* max_trials (at most BYPASS_MAX_TRIALS) caps the PCs replayed one by one,
 * the most accessed first.  `utilization` is Eq. 1's U: sector-rounded
 * (docs/metrics.md §9 default) or S1's raw bytes.
 * Progress bars on stderr unless quiet (util/progress.h). */
bypass_advice *bypass_advise(const sched_source *source, const replay_options *replay,
                             const hierarchy_options *base, uint32_t max_trials,
                             bypass_u_kind utilization, int quiet, ws_error *err);
void bypass_advice_free(bypass_advice *a);

/* Bytes a replay moved below L1: L1->L2 plus L2<->DRAM. */
uint64_t bypass_traffic(const replay_counts *c);
double bypass_share(const bypass_pc_hint *h); /* worthy ÷ accesses */

#endif
