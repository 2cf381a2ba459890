/* collectors/nvbit/nvbit_decls/nvbit_tool.h: the callbacks an NVBit tool
 * defines and the CUDA driver-API events it receives (declarations written
 * for warpscope; see nvbit.h beside this file).  NVBit's own nvbit_tool.h
 * holds device code the tool must include once; its nvbit.h declares the
 * callbacks, and the event ids and parameter structs come from the
 * tools_cuda_api_meta.h and generated_cuda_meta.h it includes.  The ids are
 * the release's (1.7.x), so the check compares them. */
#pragma once

#include <cuda.h>

typedef enum {
    API_CUDA_INVALID = 0,
    API_CUDA_cuMemAlloc = 29,
    API_CUDA_cuMemAlloc_v2 = 243,
    API_CUDA_cuLaunchKernel = 307,
    API_CUDA_cuLaunchKernel_ptsz = 442,
    API_CUDA_cuLaunchKernelEx = 652,
    API_CUDA_cuLaunchKernelEx_ptsz = 653,
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

/* The CUDA 12+ runtime launches kernels through cuLaunchKernelEx too. */
typedef struct {
    const CUlaunchConfig *config;
    CUfunction f;
    void **kernelParams;
    void **extra;
} cuLaunchKernelEx_params;

/* cuMemAlloc's legacy form: its pointer type, CUdeviceptr_v1 (an unsigned
 * int), is declared by cuda.h only for CUDA's own build. */
typedef struct {
    unsigned int *dptr;
    unsigned int bytesize;
} cuMemAlloc_params;

/* cudaMalloc's: the allocation is *dptr once the call has returned. */
typedef struct {
    CUdeviceptr *dptr;
    size_t bytesize;
} cuMemAlloc_v2_params;

extern "C" {
void nvbit_at_init();
void nvbit_at_term();
void nvbit_at_ctx_init(CUcontext ctx);
void nvbit_at_ctx_term(CUcontext ctx);
void nvbit_at_cuda_event(CUcontext ctx, int is_exit, nvbit_api_cuda_t cbid, const char *event_name,
                         void *params, CUresult *pStatus);
}
