/* analyzer/mem_timing.h: the memory side of the timed replay
 * (docs/metrics.md §12): each L2 slice's request queue and each slice's
 * DRAM channel, served in arrival order at their configured rates, and
 * what the loads waited, by where they were served.
 *
 * A queue is its next free slot: a request arriving at cycle a starts at
 * the first free slot from a on, and takes one slot (an L2 slice: 1 ÷
 * l2_requests_per_cycle cycles; a DRAM channel: its bytes ÷
 * dram_bytes_per_cycle).  The hierarchy books each request when its
 * instruction issues, so requests are served in the order their
 * instructions issued; a request that waited at its L1 for an MSHR is
 * booked at its later arrival, and one that arrives later but was booked
 * earlier goes first (docs/replay.md, "Timed replay"). */
#ifndef WS_MEM_TIMING_H
#define WS_MEM_TIMING_H

#include <stdint.h>

#include "analyzer/config.h"
#include "util/error.h"
#include "util/fastdiv.h"

/* Where a load request's data came from. */
typedef enum served_by {
    SERVED_L1,        /* an L1 hit */
    SERVED_L1_MERGE,  /* a merge into an MSHR of a line in flight (a pending hit) */
    SERVED_REMOTE_L1, /* another SM's L1 (the CCN ring) */
    SERVED_L2,        /* an L2 hit, or a merge into an L2 fill in flight */
    SERVED_DRAM,
    SERVED_KINDS
} served_by;

extern const char *const served_by_names[SERVED_KINDS];

enum { LATENCY_BUCKETS = 16 }; /* log2 buckets: [0,1], [2,3], [4,7], ..., [2^15, ∞) */

typedef struct latency_counts {
    uint64_t requests[SERVED_KINDS];
    uint64_t cycles[SERVED_KINDS];            /* from issue to data back, summed */
    uint64_t histogram[SERVED_KINDS][LATENCY_BUCKETS];
} latency_counts;

/* A queue's figures over a run: requests it took, the cycles they waited
 * for a slot (÷ the run's cycles = its mean occupancy, by Little's law),
 * and the longest wait. */
typedef struct queue_counts {
    uint64_t requests, wait_cycles, max_wait;
} queue_counts;

/* The queues, in the header so that their booking is inline: the timed
 * hierarchy books every L2 request and DRAM transfer (a call was a third
 * of a booking's instructions). */
typedef struct mem_timing {
    uint32_t slices, l2_rate, dram_rate;
    fastdiv by_l2_rate, by_dram_rate; /* a slot's cycle without a 64-bit division */
    /* Each queue's next free slot, in its own units: 1 ÷ l2_rate cycles
     * for a slice, 1 ÷ dram_rate cycles (one byte) for a channel. */
    uint64_t *l2_next, *dram_next;
    queue_counts *l2, *dram;
} mem_timing;

mem_timing *mem_timing_new(const gpu_config *c, ws_error *err);
void mem_timing_free(mem_timing *t);

/* Takes `units` of a queue from `arrive` (in cycles); returns the cycle
 * its slot starts. */
static inline uint64_t mem_timing_book(uint64_t *next, queue_counts *q, uint32_t rate,
                                       fastdiv by_rate, uint64_t arrive, uint64_t units)
{
    uint64_t from = arrive * rate > *next ? arrive * rate : *next;
    *next = from + units;
    uint64_t start = fastdiv_quotient(by_rate, from), wait = start - arrive;
    q->requests++;
    q->wait_cycles += wait;
    if (wait > q->max_wait)
        q->max_wait = wait;
    return start;
}

/* Books a request of `units` slots (its sectors on a sectored L2, else 1:
 * docs/metrics.md §12) arriving at `slice`'s L2 queue at `arrive`; returns
 * the cycle its lookup starts. */
static inline uint64_t mem_timing_l2(mem_timing *t, uint32_t slice, uint64_t arrive,
                                     uint32_t units)
{
    return mem_timing_book(&t->l2_next[slice], &t->l2[slice], t->l2_rate, t->by_l2_rate, arrive,
                           units);
}

/* Books `bytes` on `slice`'s DRAM channel from `arrive`; returns the cycle
 * the transfer starts. */
static inline uint64_t mem_timing_dram(mem_timing *t, uint32_t slice, uint64_t arrive,
                                       uint64_t bytes)
{
    return mem_timing_book(&t->dram_next[slice], &t->dram[slice], t->dram_rate, t->by_dram_rate,
                           arrive, bytes);
}

/* The bucket of a latency. */
static inline uint32_t latency_bucket(uint64_t cycles)
{
    uint32_t b = cycles < 2 ? 0 : 63u - (uint32_t)__builtin_clzll(cycles);
    return b < LATENCY_BUCKETS ? b : LATENCY_BUCKETS - 1;
}

/* Counts a load request's latency; inline, as the timed L1 counts every
 * load request. */
static inline void latency_add(latency_counts *l, served_by where, uint64_t cycles)
{
    l->requests[where]++;
    l->cycles[where] += cycles;
    l->histogram[where][latency_bucket(cycles)]++;
}

uint32_t mem_timing_slices(const mem_timing *t);
const queue_counts *mem_timing_l2_queues(const mem_timing *t);   /* [slices] */
const queue_counts *mem_timing_dram_queues(const mem_timing *t); /* [slices] */

#endif
