/* collectors/nvbit/ws_packet.h: one warp-level memory instruction as the
 * NVBit tool's device code sends it to the host (shared by CUDA and C). */
#ifndef WS_PACKET_H
#define WS_PACKET_H

#include <stdint.h>

#define WS_PACKET_SPACE_GLOBAL 0
#define WS_PACKET_SPACE_LOCAL 1
#define WS_PACKET_SPACE_SHARED 2 /* a generic access that hit shared memory: dropped */

typedef struct ws_packet {
    uint64_t addrs[32];  /* per lane; valid where mask has the lane */
    uint64_t timestamp;  /* %globaltimer, ns */
    int32_t cta_x, cta_y, cta_z;
    int32_t warp;        /* warp index inside the CTA */
    int32_t sm;
    int32_t instr;       /* the host's id of the instrumented instruction */
    uint32_t mask;       /* active, predicate-true lanes */
    int32_t space;       /* WS_PACKET_SPACE_* */
} ws_packet;

#endif
