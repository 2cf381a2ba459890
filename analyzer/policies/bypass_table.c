/* analyzer/policies/bypass_table.c: S1's bypass table (SPEC §9).  Global
 * loads to lines the table marks (U × (1 + R) < 1, Eq. 1) never look L1 up:
 * they go to L2 as 32 B sectors, even when the line is in L1, as `__ldcg`
 * would make them (SPEC §9).  Everything else is LRU.  The table comes
 * from a baseline replay (`warpscope bypass`). */
#include "analyzer/bypass_table.h"
#include "analyzer/policies/stamp.h"
#include "formats/trace.h"

static int table_bypass(const void *state, const cache_req *r)
{
    const stamp_state *s = state;
    return r->kind == WST_LOAD && r->space == WST_GLOBAL &&
           bypass_table_verdict(s->param, r->line);
}

const policy_ops policy_bypass_table =
    STAMP_LRU_WITH_BYPASS("bypass-table", "LRU, but lines with U x (1 + R) < 1 bypass L1 (S1 Eq. 1; from `bypass`)", table_bypass);
