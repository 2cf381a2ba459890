/* formats/trace.c: names and ownership helpers for the trace model. */
#include "formats/trace.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {"load", "store", "atomic"};
static const char *const space_names[] = {"global", "local"};
static const char *const cache_op_names[WST_OP_COUNT] = {"", "ca", "cg", "cs", "lu", "cv"};

const char *wst_kind_name(wst_kind kind)
{
    return (unsigned)kind < 3 ? kind_names[kind] : "?";
}

const char *wst_space_name(wst_space space)
{
    return (unsigned)space < 2 ? space_names[space] : "?";
}

const char *wst_cache_op_name(wst_cache_op op)
{
    return (unsigned)op < WST_OP_COUNT ? cache_op_names[op] : "?";
}

int wst_cache_op_parse(const char *text)
{
    for (int op = 0; op < WST_OP_COUNT; op++)
        if (strcmp(text, cache_op_names[op]) == 0)
            return op;
    return -1;
}

const char *wst_sass_size_suffix(unsigned size)
{
    switch (size) {
    case 1: return ".U8";
    case 2: return ".U16";
    case 8: return ".64";
    case 16: return ".128";
    default: return "";
    }
}

void wst_kernel_clear(wst_kernel *kernel)
{
    free(kernel->name);
    for (uint32_t i = 0; i < kernel->pc_count; i++) {
        free(kernel->pcs[i].sass);
        free(kernel->pcs[i].file);
    }
    free(kernel->pcs);
    memset(kernel, 0, sizeof *kernel);
}

static void origin_clear(wst_origin *origin)
{
    free(origin->collector);
    free(origin->collector_version);
    free(origin->gpu);
    free(origin->workload);
    memset(origin, 0, sizeof *origin);
}

void wst_trace_clear(wst_trace *trace)
{
    origin_clear(&trace->origin);
    for (uint32_t k = 0; k < trace->kernel_count; k++)
        wst_kernel_clear(&trace->kernels[k]);
    free(trace->kernels);
    free(trace->allocations);
    memset(trace, 0, sizeof *trace);
}

/* strdup that maps NULL to NULL; *ok cleared on allocation failure. */
static char *dup_optional(const char *s, int *ok)
{
    if (!s)
        return NULL;
    char *copy = strdup(s);
    if (!copy)
        *ok = 0;
    return copy;
}

int wst_kernel_copy(wst_kernel *dst, const wst_kernel *src)
{
    int ok = 1;
    *dst = *src;
    dst->name = dup_optional(src->name, &ok);
    dst->pcs = NULL;
    dst->pc_count = 0;
    if (src->pc_count) {
        dst->pcs = calloc(src->pc_count, sizeof *dst->pcs);
        if (!dst->pcs)
            ok = 0;
        else {
            dst->pc_count = src->pc_count;
            for (uint32_t i = 0; i < src->pc_count; i++) {
                dst->pcs[i] = src->pcs[i];
                dst->pcs[i].sass = dup_optional(src->pcs[i].sass, &ok);
                dst->pcs[i].file = dup_optional(src->pcs[i].file, &ok);
            }
        }
    }
    if (!ok) {
        wst_kernel_clear(dst);
        return -1;
    }
    return 0;
}

int wst_origin_copy(wst_origin *dst, const wst_origin *src)
{
    int ok = 1;
    memset(dst, 0, sizeof *dst);
    if (src) {
        dst->collector = dup_optional(src->collector, &ok);
        dst->collector_version = dup_optional(src->collector_version, &ok);
        dst->gpu = dup_optional(src->gpu, &ok);
        dst->workload = dup_optional(src->workload, &ok);
    }
    if (!ok) {
        origin_clear(dst);
        return -1;
    }
    return 0;
}
