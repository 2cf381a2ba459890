/* analyzer/kernel_slots.h: how many kernels the consumers of one pass keep.
 *
 * analyze reports each kernel once every consumer has ended it
 * (analysis_options.kernel_done) and then forgets it.  So that neither the
 * decoding thread nor the other consumers wait at each kernel's end, every
 * consumer keeps its last KERNEL_SLOTS kernels, kernel k in slot
 * k % KERNEL_SLOTS, and a kernel is reported before any consumer begins the
 * kernel that takes its slot (docs/analysis.md, Memory). */
#ifndef WS_KERNEL_SLOTS_H
#define WS_KERNEL_SLOTS_H

#define KERNEL_SLOTS 8

#endif
