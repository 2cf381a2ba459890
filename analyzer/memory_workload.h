/* analyzer/memory_workload.h: a replay's memory workload, the figures of
 * Nsight Compute's memory chart (docs/metrics.md §7, "Memory workload").
 *
 * Per kind of request (loads, stores, atomics, and the write-backs of
 * dirty lines): the requests, 32 B sectors and bytes that reach L1, cross
 * L1 -> L2 and L2 <-> DRAM, and the hits at L1 and L2; the requests each L2
 * slice receives; and per PC the sectors its requests ask for against the
 * ideal for the bytes its lanes asked for (excess sectors, docs/metrics.md
 * §7).
 *
 * A collector of the hierarchy's memory events and L1 hits (hierarchy.h):
 * it only listens, and the core raises the events where it counts, so every
 * sum here is one of the replay's own counts (tests/test_memory_workload.c).
 * Memory: the last few kernels' counts per PC and per L2 slice, and the
 * run's sums. */
#ifndef WS_MEMORY_WORKLOAD_H
#define WS_MEMORY_WORKLOAD_H

#include <stdint.h>

#include "analyzer/hierarchy.h"
#include "util/error.h"

typedef enum memory_kind {
    MEMORY_LOADS,
    MEMORY_STORES,
    MEMORY_ATOMICS,
    MEMORY_WRITE_BACKS, /* dirty lines evicted: from L1 (local data) and from L2 */
    MEMORY_KINDS
} memory_kind;

/* "loads", "stores", "atomics", "write_backs" (the report's keys). */
const char *memory_kind_key(memory_kind kind);

/* Requests over one link, the 32 B sectors they carry, and their bytes. */
typedef struct memory_flow {
    uint64_t requests, sectors, bytes;
} memory_flow;

/* One kind's figures; only uint64_t counters (util/counts.h sums them). */
typedef struct memory_kind_counts {
    /* The requests the instructions make of L1, the sectors they ask for,
     * and the distinct bytes their lanes asked for; the ideal sectors for
     * those bytes (docs/metrics.md §7). */
    memory_flow l1;
    uint64_t l1_ideal_sectors;
    uint64_t l1_hits;          /* loads only: stores and atomics write through */
    memory_flow l1_to_l2;
    uint64_t l2_requests, l2_hits;
    memory_flow l2_to_dram;    /* loads read, the other kinds write */
} memory_kind_counts;

typedef struct memory_pc {
    uint64_t instructions, requests, sectors, ideal_sectors;
    uint8_t kind; /* wst_kind of its instructions */
} memory_pc;

typedef struct memory_kernel {
    memory_kind_counts kinds[MEMORY_KINDS];
    uint64_t *slice_requests; /* [slices]: requests that looked each L2 slice up */
    memory_pc *pcs;           /* [pc_count]; NULL in the summary */
    uint32_t pc_count;
    int seen;                 /* the replay ran this kernel */
} memory_kernel;

typedef struct memory_workload memory_workload;

memory_workload *memory_workload_new(uint32_t kernel_count, uint32_t l2_slices, ws_error *err);
void memory_workload_free(memory_workload *m);

/* Its hooks, for a hierarchy's observers (hierarchy_options.observers). */
l1_observer memory_workload_observer(memory_workload *m);

uint32_t memory_workload_slices(const memory_workload *m);
/* Kernel k's figures while it is one of the last KERNEL_SLOTS the replay
 * began (analyzer/kernel_slots.h; read them when it ends); NULL otherwise. */
const memory_kernel *memory_workload_kernel(const memory_workload *m, uint32_t kernel);
/* The run: every kernel summed, plus the dirty lines the flushes of L2
 * wrote back, which belong to no kernel (as in the replay's totals). */
const memory_kernel *memory_workload_summary(memory_workload *m);

#endif
