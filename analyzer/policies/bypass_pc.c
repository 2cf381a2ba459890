/* analyzer/policies/bypass_pc.c: per-PC L1 bypass as an admission module
 * (docs/metrics.md §9): global loads of the marked PCs go to L2 as 32 B sectors
 * without looking L1 up (a hit is lost too), as `__ldcg` or -dlcm=cg would
 * make them.  The marks come from `bypass`.  Alone, `bypass-pc` is
 * `lru+bypass-pc`. */
#include "analyzer/bypass_pcs.h"
#include "analyzer/policy.h"
#include "formats/trace.h"

static int pc_skips(const void *marks, const cache_req *r)
{
    return r->kind == WST_LOAD && r->space == WST_GLOBAL &&
           bypass_pcs_marked(marks, r->kernel, r->pc);
}

const admission_ops admission_bypass_pc = {
    .name = "bypass-pc",
    .description = "the load PCs `bypass` recommends bypass L1 (as __ldcg would)",
    .needs_param = 1,
    .skip_lookup = pc_skips,
};
