/* analyzer/policies/dueling.h: set dueling for DIP and DRRIP (docs/metrics.md §7).
 *
 * Leader sets: set % 8 == 0 always uses policy A, set % 8 == 7 policy B
 * (4 leaders of each with 32 sets).  A miss in an A leader counts against A
 * (PSEL up), in a B leader against B (PSEL down).  The 10-bit PSEL starts
 * just below its midpoint, so followers begin with A (the baseline, LRU or
 * SRRIP) and switch to B once its leaders miss less: followers use B while
 * PSEL's top bit is set. */
#ifndef WS_POLICY_DUELING_H
#define WS_POLICY_DUELING_H

#include <stdint.h>

#define DUELING_PSEL_MAX 1023u
#define DUELING_PSEL_START 511u

typedef enum dueling_role { DUEL_FOLLOWER, DUEL_LEADER_A, DUEL_LEADER_B } dueling_role;

static inline dueling_role dueling_role_of(uint32_t set, uint32_t sets)
{
    if (sets < 8)
        return DUEL_FOLLOWER; /* too few sets to duel: followers keep A */
    if (set % 8 == 0)
        return DUEL_LEADER_A;
    if (set % 8 == 7)
        return DUEL_LEADER_B;
    return DUEL_FOLLOWER;
}

static inline void dueling_miss(uint32_t *psel, uint32_t set, uint32_t sets)
{
    dueling_role role = dueling_role_of(set, sets);
    if (role == DUEL_LEADER_A && *psel < DUELING_PSEL_MAX)
        (*psel)++;
    else if (role == DUEL_LEADER_B && *psel > 0)
        (*psel)--;
}

/* Nonzero when this set inserts with policy B. */
static inline int dueling_uses_b(uint32_t psel, uint32_t set, uint32_t sets)
{
    dueling_role role = dueling_role_of(set, sets);
    if (role != DUEL_FOLLOWER)
        return role == DUEL_LEADER_B;
    return (psel & 512u) != 0;
}

#endif
