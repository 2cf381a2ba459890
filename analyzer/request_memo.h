/* analyzer/request_memo.h: the coalesced requests of recent records, kept
 * for the other readers of the same records.
 *
 * The closed loops of a timed compare issue the same records, each in its
 * own order but near the others in time (timed_replay.c keeps them in step
 * by dispatch and then by cycle; docs/replay.md, "Timed replay").  The
 * first loop to issue a record coalesces it and keeps its requests here;
 * the others find them while they are among the last `ring` requests
 * kept, and coalesce the record again otherwise: the same requests either
 * way, since coalescing is a function of the record (analyzer/coalesce.h).
 * A record is named by its kernel, its CTA and its index in the CTA's
 * packed records, which is the same in every loop (the CTA is packed and
 * grouped once, analyzer/cta_cache.h).  Memory is fixed at creation: a
 * ring of requests and a direct-mapped index of the records in it. */
#ifndef WS_REQUEST_MEMO_H
#define WS_REQUEST_MEMO_H

#include <stdint.h>

#include "analyzer/coalesce.h"

typedef struct request_memo request_memo;

/* Room for `ring` requests (a power of two, at least
 * COALESCE_MAX_REQUESTS), indexed by ring / 2 slots. */
request_memo *request_memo_new(uint32_t ring, ws_error *err);
void request_memo_free(request_memo *m);

/* The record's kept requests: their count, with *out pointing at them
 * (valid until the next request_memo_keep), or -1 when they are not kept
 * (never kept, or overwritten since). */
int request_memo_find(const request_memo *m, uint32_t kernel, uint32_t cta, uint32_t index,
                      const ws_request **out);

/* Keeps the record's n requests (0 <= n <= COALESCE_MAX_REQUESTS), in
 * place of the oldest kept. */
void request_memo_keep(request_memo *m, uint32_t kernel, uint32_t cta, uint32_t index,
                       const ws_request *requests, int n);

#endif
