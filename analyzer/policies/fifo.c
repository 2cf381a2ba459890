/* analyzer/policies/fifo.c: first in, first out (docs/metrics.md §7): hits do not
 * move a line, so the oldest fill is evicted. */
#include "analyzer/policies/stamp.h"

const policy_ops policy_fifo = {
    .name = "fifo",
    .description = "first in, first out: evict the oldest fill, hits change nothing",
    .create = stamp_create,
    .destroy = stamp_destroy,
    .hit = stamp_keep,
    .fill = stamp_promote,
    .victim = stamp_victim,
};
