/* analyzer/stages/sharing_aware.h: S0's sharing-aware stages (see the .c). */
#ifndef WS_STAGES_SHARING_AWARE_H
#define WS_STAGES_SHARING_AWARE_H

#include "analyzer/hierarchy.h"

extern const hierarchy_stage sharing_shared_fills; /* shared L2 hits fill L1 only over shared */
extern const hierarchy_stage sharing_local_misses; /* local misses go to DRAM past L2 */

#endif
