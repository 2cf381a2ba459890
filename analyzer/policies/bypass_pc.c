/* analyzer/policies/bypass_pc.c: per-PC L1 bypass (SPEC §9): global loads of
 * the marked PCs go to L2 as 32 B sectors without looking L1 up (a hit is
 * lost too), as `__ldcg` or -dlcm=cg would make them; everything else is
 * LRU.  The marks come from `bypass`. */
#include "analyzer/bypass_pcs.h"
#include "analyzer/policies/stamp.h"
#include "formats/trace.h"

static int pc_bypass(const void *state, const cache_req *r)
{
    const stamp_state *s = state;
    return r->kind == WST_LOAD && r->space == WST_GLOBAL &&
           bypass_pcs_marked(s->param, r->kernel, r->pc);
}

const policy_ops policy_bypass_pc =
    STAMP_LRU_WITH_BYPASS("bypass-pc", "LRU, but the load PCs `bypass` recommends bypass L1 (as __ldcg would)", pc_bypass);
