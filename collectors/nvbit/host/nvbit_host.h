/* collectors/nvbit/host/nvbit_host.h: the host side of the NVBit collector.
 *
 * Plain C, unit-tested without a GPU: the tool (collectors/nvbit/tool/)
 * only forwards kernel launches, instrumented instructions and device
 * packets here.  This library decides what to record (WARPSCOPE_* knobs),
 * declares kernels and PCs, and turns packets into wst_records sent
 * straight to a sink: it keeps no records, so memory is bounded by the
 * sink (the .wst writer's chunk buffers). */
#ifndef WS_NVBIT_HOST_H
#define WS_NVBIT_HOST_H

#include <regex.h>
#include <stdint.h>

#include "collectors/nvbit/host/nvbit_deps.h"
#include "collectors/nvbit/ws_packet.h"
#include "formats/sink.h"

typedef struct ws_nvbit_config {
    char out[4096];          /* WARPSCOPE_OUT, default "warpscope.wst" */
    int has_regex;
    regex_t kernels;         /* WARPSCOPE_KERNELS: POSIX extended regex on names */
    uint64_t launch_first;   /* WARPSCOPE_LAUNCHES: "N" or "A-B" (launch indices from 0) */
    uint64_t launch_last;
    uint64_t max_records;    /* WARPSCOPE_MAX_RECORDS: stop after N; 0 = no limit */
} ws_nvbit_config;

/* Reads the knobs through lookup (getenv in the tool, a table in tests). */
int ws_nvbit_config_parse(ws_nvbit_config *c, const char *(*lookup)(const char *name),
                          ws_error *err);
void ws_nvbit_config_free(ws_nvbit_config *c);

typedef struct ws_nvbit_host ws_nvbit_host;

ws_nvbit_host *ws_nvbit_host_new(const ws_nvbit_config *c, const wst_sink *sink, ws_error *err);
void ws_nvbit_host_free(ws_nvbit_host *h);

/* A launch; returns 1 if it is recorded (then instrument it), 0 if not. */
int ws_nvbit_kernel_begin(ws_nvbit_host *h, uint64_t launch_index, const char *name,
                          wst_dim3 grid, wst_dim3 block, uint32_t shared_bytes,
                          uint32_t registers, ws_error *err);
/* An instrumented memory instruction of the current kernel: its id in the
 * device packets, PC offset, SASS, source line (file NULL / line 0 when the
 * app was built without -lineinfo) and bytes per lane. */
int ws_nvbit_instr(ws_nvbit_host *h, uint32_t id, uint64_t offset, const char *sass,
                   const char *file, uint32_t line, uint32_t size, ws_error *err);
/* Instruction id's gap and the loads it waits on, from the tool's static
 * pass over its function (nvbit_deps.h); each of its records gets them. */
int ws_nvbit_instr_timing(ws_nvbit_host *h, uint32_t id, const ws_nvbit_timing *timing);
int ws_nvbit_packet(ws_nvbit_host *h, const ws_packet *p, ws_error *err);
int ws_nvbit_kernel_end(ws_nvbit_host *h, ws_error *err);

/* A device allocation the application made (cuMemAlloc, once it returned),
 * for the trace's allocation table: every one, whatever is being recorded,
 * so ordinals count the application's allocations.  One that reuses the
 * range of a freed allocation is left out and counted (the table holds
 * address ranges, not lifetimes); an empty one holds nothing to address. */
int ws_nvbit_allocation(ws_nvbit_host *h, uint64_t base, uint64_t bytes, ws_error *err);
/* Allocations left out because they reused a freed range. */
uint64_t ws_nvbit_reused_allocations(const ws_nvbit_host *h);

uint64_t ws_nvbit_records(const ws_nvbit_host *h);
/* True once WARPSCOPE_MAX_RECORDS is reached: nothing more is recorded. */
int ws_nvbit_stopped(const ws_nvbit_host *h);

#endif
