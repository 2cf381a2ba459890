/* analyzer/systems.h: cache-management systems that are more than one
 * replacement policy, by name (docs/metrics.md §9).  A system sets a hierarchy's
 * policies and stages at once: `sharing-aware` is S0's whole scheme, and
 * its parts are switches of their own, so their effects can be told apart
 * (`sa-fill`, `sa-local`, and the replacement policies `sa-l1` and `sa-l2`,
 * which any level can name directly); `ccn` is S3's Cooperative Caching
 * Network with its request throttler, `ccn-b` the ring alone; `lcm` is
 * S2's locality-based management, `lcm-bypass` and `lcm-coalesce` its two
 * halves.  Systems
 * compose with policies and with each other: `srrip+ccn`,
 * `sharing-aware+ccn`, `lcm-bypass+ccn`. */
#ifndef WS_SYSTEMS_H
#define WS_SYSTEMS_H

#include <stddef.h>

#include "analyzer/hierarchy.h"

typedef enum system_ring { RING_NONE, RING_THROTTLED, RING_ALWAYS } system_ring;
enum { LCM_BYPASS = 1, LCM_COALESCE = 2 }; /* managed_system.lcm */

typedef struct managed_system {
    const char *name, *description;
    const char *l1, *l2; /* replacement policies, or NULL to keep the hierarchy's */
    int shared_fills, local_misses; /* analyzer/stages/sharing_aware.c */
    system_ring ring;               /* analyzer/stages/ccn.c */
    int lcm;                        /* LCM_BYPASS | LCM_COALESCE: analyzer/stages/lcm.c */
} managed_system;

extern const managed_system managed_systems[];

/* Applies the system called `name` to o: 1 = done, 0 = no such system,
 * -1 = error (err set). */
int system_apply(const char *name, hierarchy_options *o, ws_error *err);
/* Applies the systems of a +-joined list ("sharing-aware+ccn"), every one
 * of which must be a system; 0, or -1 with err set. */
int system_apply_list(const char *list, hierarchy_options *o, ws_error *err);
/* Applies the trailing +SYSTEM parts of entry[0, len) ("srrip+ccn") and
 * returns the length of what is left before them, or -1 (err set). */
long system_apply_suffixes(const char *entry, size_t len, hierarchy_options *o, ws_error *err);
/* The system names, comma-separated, for messages. */
const char *system_names(void);

#endif
