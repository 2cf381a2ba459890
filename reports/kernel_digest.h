/* reports/kernel_digest.h: what the HTML report draws from the kernel
 * entries, gathered in one walk over them (reports/kernel_spool.h), so the
 * page never needs every kernel in memory: the PC groups, the kernel
 * groups, the sectors per source line, and the largest CTA distance. */
#ifndef WS_KERNEL_DIGEST_H
#define WS_KERNEL_DIGEST_H

#include <jansson.h>

#include "reports/kernel_groups.h"
#include "reports/kernel_spool.h"
#include "reports/pc_groups.h"
#include "reports/source_lines.h"
#include "util/error.h"

typedef struct kernel_digest {
    pc_groups pcs;
    kernel_groups kernels;
    source_lines lines; /* most excess sectors first */
    /* The largest CTA distance any launch can have (its grid's CTAs − 1);
     * -1 when no launch gives its grid. */
    double largest_cta_distance;
    /* Building: the PCs of the kernel being read, until its name is. */
    pc_seen *held;
    size_t held_count, held_capacity;
} kernel_digest;

/* From the spool, or from doc's "kernels" without one. */
int kernel_digest_build(kernel_digest *d, const json_t *doc, kernel_spool *spool, ws_error *err);
void kernel_digest_free(kernel_digest *d);

#endif
