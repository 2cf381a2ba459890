/* collectors/nvbit/tool/inject_funcs.cu: the device function NVBit calls
 * before every instrumented memory instruction: one lane per warp packs the
 * active lanes' addresses into a ws_packet and pushes it to the host. */
#include <stdint.h>

#include "utils/channel.hpp"

extern "C" {
#include "collectors/nvbit/ws_packet.h"
}

static __device__ __forceinline__ uint32_t ws_laneid()
{
    uint32_t id;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
    return id;
}

static __device__ __forceinline__ uint32_t ws_smid()
{
    uint32_t id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

static __device__ __forceinline__ uint64_t ws_globaltimer()
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

extern "C" __device__ __noinline__ void ws_record_access(int pred, int instr, uint64_t addr,
                                                         uint64_t channel)
{
    uint32_t active = __activemask();
    uint32_t mask = __ballot_sync(active, pred);
    if (!pred)
        return;
    /* Generic addresses: the first active lane decides the space. */
    int space = __isLocal((const void *)addr) ? WS_PACKET_SPACE_LOCAL
                : __isShared((const void *)addr) ? WS_PACKET_SPACE_SHARED
                                                 : WS_PACKET_SPACE_GLOBAL;
    int leader = __ffs(mask) - 1;
    ws_packet p;
    for (int lane = 0; lane < 32; lane++)
        p.addrs[lane] = __shfl_sync(mask, addr, lane);
    if ((int)ws_laneid() != leader)
        return;
    uint32_t tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    p.timestamp = ws_globaltimer();
    p.cta_x = blockIdx.x;
    p.cta_y = blockIdx.y;
    p.cta_z = blockIdx.z;
    p.warp = tid / 32;
    p.sm = ws_smid();
    p.instr = instr;
    p.mask = mask;
    p.space = space;
    ((ChannelDev *)channel)->push(&p, sizeof p);
}
