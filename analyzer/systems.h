/* analyzer/systems.h: cache-management systems that are more than one
 * replacement policy, by name (SPEC §9).  A system sets a hierarchy's
 * policies at both levels and its stages at once: `sharing-aware` is S0's
 * whole scheme; its parts are switches of their own, so their effects can
 * be told apart (`sa-fill`, `sa-local`, and the replacement policies
 * `sa-l1` and `sa-l2`, which any level can name directly). */
#ifndef WS_SYSTEMS_H
#define WS_SYSTEMS_H

#include "analyzer/hierarchy.h"

typedef struct managed_system {
    const char *name, *description;
    const char *l1, *l2; /* replacement policies, or NULL to keep the hierarchy's */
    int shared_fills, local_misses; /* analyzer/stages/sharing_aware.c */
} managed_system;

extern const managed_system managed_systems[];

/* Applies the system called `name` to o: 1 = done, 0 = no such system,
 * -1 = error (err set). */
int system_apply(const char *name, hierarchy_options *o, ws_error *err);

#endif
