/* analyzer/policies/rrip.h: re-reference interval prediction (docs/metrics.md §7,
 * Jaleel et al.), shared by SRRIP, BRRIP and DRRIP.
 *
 * A line's word is its 3-bit RRPV: 0 = re-referenced soon, 7 = distant.
 * The victim is the first replaceable way with RRPV 7; when there is none,
 * every line of the set ages by one until one reaches 7.  A hit lowers the
 * RRPV by one ("frequency priority", S4 §5). */
#ifndef WS_POLICY_RRIP_H
#define WS_POLICY_RRIP_H

#include "analyzer/policy.h"

#define RRIP_MAX 7
#define RRIP_LONG 6

void *rrip_create(const policy_geometry *g, ws_error *err);
void rrip_destroy(void *state);
void rrip_hit(void *state, const cache_set *set, uint32_t way, const cache_req *r);
uint32_t rrip_victim(void *state, const cache_set *set, uint64_t candidates, const cache_req *r);
void rrip_fill_long(void *state, const cache_set *set, uint32_t way, const cache_req *r);
void rrip_fill_bimodal(void *state, const cache_set *set, uint32_t way, const cache_req *r);

typedef struct rrip_state {
    uint64_t rng;
    uint32_t sets;
    uint32_t psel;
} rrip_state;

#endif
