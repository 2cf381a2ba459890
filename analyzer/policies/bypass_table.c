/* analyzer/policies/bypass_table.c: S1's bypass table as an admission
 * module (docs/metrics.md §9).  Global loads to lines the table marks (U × (1 + R) < 1,
 * Eq. 1) never look L1 up: they go to L2 as 32 B sectors, even when the line
 * is in L1, as `__ldcg` would make them.  The table comes from a baseline
 * replay (`warpscope bypass`).  Alone, `bypass-table` is `lru+bypass-table`. */
#include "analyzer/bypass_table.h"
#include "analyzer/policy.h"
#include "formats/trace.h"

static int table_skips(const void *table, const cache_req *r)
{
    return r->kind == WST_LOAD && r->space == WST_GLOBAL && bypass_table_verdict(table, r->line);
}

const admission_ops admission_bypass_table = {
    .name = "bypass-table",
    .description = "lines with U x (1 + R) < 1 bypass L1 (S1 Eq. 1; from `bypass`)",
    .needs_param = 1,
    .skip_lookup = table_skips,
};
