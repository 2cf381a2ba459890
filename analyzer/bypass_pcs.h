/* analyzer/bypass_pcs.h: which load PCs bypass L1, the parameter of the
 * `bypass-pc` policy (docs/metrics.md §9: per-PC recommendation).
 *
 * flags[k][pc] != 0: global loads of PC index pc in kernel k go to L2 as 32 B
 * sectors.  A PC is named by kernel name and byte offset, so every launch of
 * a kernel gets the same flags. */
#ifndef WS_BYPASS_PCS_H
#define WS_BYPASS_PCS_H

#include <stdint.h>

typedef struct bypass_pcs {
    uint32_t kernels;
    const uint32_t *pc_counts; /* [kernels] */
    uint8_t *const *flags;     /* [kernels][pc_counts[k]] */
} bypass_pcs;

static inline int bypass_pcs_marked(const bypass_pcs *s, uint32_t kernel, uint32_t pc)
{
    return kernel < s->kernels && pc < s->pc_counts[kernel] && s->flags[kernel][pc];
}

#endif
