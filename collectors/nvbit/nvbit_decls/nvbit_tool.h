/* collectors/nvbit/nvbit_decls/nvbit_tool.h: the callbacks an NVBit tool
 * defines and the CUDA driver-API event ids it receives (declarations
 * written for warpscope; see nvbit.h beside this file). */
#pragma once

#include <cuda.h>

typedef enum {
    API_CUDA_cuLaunchKernel = 1,
    API_CUDA_cuLaunchKernel_ptsz,
    API_CUDA_cuMemAlloc,
    API_CUDA_cuMemAlloc_v2,
} nvbit_api_cuda_t;

typedef struct {
    CUfunction f;
    unsigned int gridDimX, gridDimY, gridDimZ;
    unsigned int blockDimX, blockDimY, blockDimZ;
    unsigned int sharedMemBytes;
    CUstream hStream;
    void **kernelParams;
    void **extra;
} cuLaunchKernel_params;

/* cuMemAlloc's legacy form: its pointer type, CUdeviceptr_v1 (an unsigned
 * int), is declared by cuda.h only for CUDA's own build. */
typedef struct {
    unsigned int *dptr;
    unsigned int bytesize;
} cuMemAlloc_params;

typedef struct {
    CUdeviceptr *dptr;
    size_t bytesize;
} cuMemAlloc_v2_params;

extern "C" {
void nvbit_at_init();
void nvbit_at_term();
void nvbit_at_ctx_init(CUcontext ctx);
void nvbit_at_ctx_term(CUcontext ctx);
void nvbit_at_cuda_event(CUcontext ctx, int is_exit, nvbit_api_cuda_t cbid, const char *name,
                         void *params, CUresult *pStatus);
}
