/* collectors/nvbit/tool/tool.cu: the NVBit tool (warpscope-nvbit.so).
 * Instruments global, local and generic loads, stores and atomics of the
 * kernels WARPSCOPE_KERNELS / WARPSCOPE_LAUNCHES select; a host thread
 * receives the packets and hands them to the host library, which writes
 * WARPSCOPE_OUT through the .wst writer while the application runs.
 * Launches are handled one at a time: a kernel's packets are all handed over
 * before the next kernel begins.  The application's cuMemAlloc allocations
 * go to the trace's allocation table. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unordered_set>

#include "nvbit.h"
#include "nvbit_tool.h"
#include "utils/channel.hpp"

extern "C" {
#include "collectors/nvbit/host/nvbit_host.h"
#include "formats/wst.h"
}

#define CHANNEL_BYTES (1 << 20)

/* Allocated with cudaMallocManaged at the first launch, as NVBit's own
 * tools do, rather than a __managed__ variable of the tool's module, which
 * NVBit may load lazily. */
static ChannelDev *channel_dev;
static ChannelHost channel_host;
/* lock: the host library, shared with the receiving thread.  launch_lock:
 * one launch at a time, from its begin callback to its end. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t launch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t flushed = PTHREAD_COND_INITIALIZER;
static uint64_t flushes_sent, flushes_received; /* under lock */
/* The tool's own CUDA calls (the channel's set-up, the flush kernel, the
 * synchronizations) come back through nvbit_at_cuda_event on the thread
 * that makes them; they are not the application's, and launching the flush
 * kernel from its own end callback would never stop. */
static __thread bool inside_callback;
static wst_writer *writer;
static ws_nvbit_host *host;
static uint64_t launches;
static volatile bool receiving;
static std::unordered_set<CUfunction> instrumented;

static const char *env(const char *name) { return getenv(name); }

static void fail(const ws_error *err)
{
    fprintf(stderr, "warpscope: %s\n", err->msg);
    exit(1);
}

/* The marker the flush kernel sends after a launch's last packet. */
__global__ void ws_flush_channel(ChannelDev *ch)
{
    ws_packet p;
    memset(&p, 0, sizeof p);
    p.instr = -1;
    ch->push(&p, sizeof p);
    ch->flush();
}

static void *receive(void *)
{
    char *buf = (char *)malloc(CHANNEL_BYTES);
    ws_error err;
    while (receiving) {
        int bytes = channel_host.recv(buf, CHANNEL_BYTES);
        for (int at = 0; at + (int)sizeof(ws_packet) <= bytes; at += sizeof(ws_packet)) {
            ws_packet *p = (ws_packet *)(buf + at);
            pthread_mutex_lock(&lock);
            int rc = 0;
            if (p->instr < 0) {
                flushes_received++;
                pthread_cond_broadcast(&flushed);
            } else {
                rc = ws_nvbit_packet(host, p, &err);
            }
            pthread_mutex_unlock(&lock);
            if (rc != 0)
                fail(&err);
        }
    }
    free(buf);
    return NULL;
}

/* A run that ends before nvbit_at_term (a failure here) leaves no
 * temporary trace behind. */
static void discard_unfinished_trace()
{
    wst_writer_abort(writer);
    writer = NULL;
}

/* The knobs, checked as the program starts; the trace is opened only when
 * the first GPU context starts (open_trace), so a run NVBit stops before
 * that (it ends the process from its own start-up code, with no GPU for
 * instance) leaves no file at all. */
static ws_nvbit_config config;

static void open_trace()
{
    ws_error err;
    wst_origin origin = {(char *)"nvbit", (char *)"1", NULL, NULL};
    writer = wst_writer_open(config.out, &origin, NULL, &err);
    if (!writer)
        fail(&err);
    atexit(discard_unfinished_trace);
    wst_sink sink = wst_writer_sink(writer);
    host = ws_nvbit_host_new(&config, &sink, &err); /* takes over config's regex */
    if (!host)
        fail(&err);
}

void nvbit_at_init()
{
    ws_error err;
    if (ws_nvbit_config_parse(&config, env, &err) != 0)
        fail(&err);
}

void nvbit_at_ctx_init(CUcontext ctx)
{
    if (!host)
        open_trace();
}

static void instrument(CUcontext ctx, CUfunction f)
{
    std::vector<CUfunction> related = nvbit_get_related_functions(ctx, f);
    related.push_back(f);
    ws_error err;
    for (auto fn : related) {
        if (!instrumented.insert(fn).second)
            continue;
        /* Every instruction, in code order, for the traced ones' gaps and
         * the loads they wait on (docs/nvbit.md, "Timing"). */
        ws_nvbit_static deps;
        ws_nvbit_static_begin(&deps);
        for (auto instr : nvbit_get_instrs(ctx, fn)) {
            InstrType::MemorySpace space = instr->getMemorySpace();
            bool traced = space == InstrType::MemorySpace::GLOBAL ||
                          space == InstrType::MemorySpace::LOCAL ||
                          space == InstrType::MemorySpace::GENERIC;
            /* A register as the first operand is the one it writes; a
             * traced instruction that writes one returns data (a load or
             * an atomic with a result). */
            bool writes_first = instr->getNumOperands() > 0 &&
                                instr->getOperand(0)->type == InstrType::OperandType::REG;
            ws_nvbit_timing timing;
            ws_nvbit_static_instr(&deps, instr->getSass(), writes_first, traced, writes_first,
                                  instr->getIdx(), (uint32_t)instr->getSize(), &timing);
            if (!traced)
                continue;
            char *file = NULL, *dir = NULL;
            uint32_t line = 0;
            nvbit_get_line_info(ctx, fn, instr->getOffset(), &file, &dir, &line);
            uint32_t id = instr->getIdx();
            if (ws_nvbit_instr(host, id, instr->getOffset(), instr->getSass(), file, line,
                               (uint32_t)instr->getSize(), &err) != 0 ||
                ws_nvbit_instr_timing(host, id, &timing) != 0)
                fail(&err);
            for (int i = 0, mref = 0; i < instr->getNumOperands(); i++) {
                if (instr->getOperand(i)->type != InstrType::OperandType::MREF)
                    continue;
                nvbit_insert_call(instr, "ws_record_access", IPOINT_BEFORE);
                nvbit_add_call_arg_guard_pred_val(instr);
                nvbit_add_call_arg_const_val32(instr, id);
                nvbit_add_call_arg_mref_addr64(instr, mref++);
                nvbit_add_call_arg_const_val64(instr, (uint64_t)channel_dev);
            }
        }
    }
}

/* A kernel launch, whichever driver call made it: the CUDA 12+ runtime
 * launches through cuLaunchKernelEx as well as cuLaunchKernel. */
struct launch {
    CUfunction f;
    wst_dim3 grid, block;
    uint32_t dynamic_shared;
};

static bool launch_of(nvbit_api_cuda_t cbid, void *params, launch *l)
{
    if (cbid == API_CUDA_cuLaunchKernel || cbid == API_CUDA_cuLaunchKernel_ptsz) {
        const cuLaunchKernel_params *p = (const cuLaunchKernel_params *)params;
        *l = {p->f, {p->gridDimX, p->gridDimY, p->gridDimZ},
              {p->blockDimX, p->blockDimY, p->blockDimZ}, p->sharedMemBytes};
        return true;
    }
    if (cbid == API_CUDA_cuLaunchKernelEx || cbid == API_CUDA_cuLaunchKernelEx_ptsz) {
        const cuLaunchKernelEx_params *p = (const cuLaunchKernelEx_params *)params;
        const CUlaunchConfig *c = p->config;
        *l = {p->f, {c->gridDimX, c->gridDimY, c->gridDimZ},
              {c->blockDimX, c->blockDimY, c->blockDimZ}, c->sharedMemBytes};
        return true;
    }
    return false;
}

static void start_receiving()
{
    cudaMallocManaged(&channel_dev, sizeof *channel_dev);
    receiving = true;
    channel_host.init(0, CHANNEL_BYTES, channel_dev, receive, NULL);
    /* The receiving thread's CUDA calls (some releases copy through a
     * stream) are the tool's, not the application's. */
    nvbit_set_tool_pthread(channel_host.get_thread());
}

static void begin_launch(CUcontext ctx, const launch *l)
{
    if (!receiving)
        start_receiving();
    int regs = 0, static_shared = 0;
    cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, l->f);
    cuFuncGetAttribute(&static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, l->f);
    ws_error err;
    pthread_mutex_lock(&lock);
    int record = ws_nvbit_kernel_begin(host, launches++, nvbit_get_func_name(ctx, l->f), l->grid,
                                       l->block, l->dynamic_shared + (uint32_t)static_shared,
                                       (uint32_t)regs, &err);
    if (record < 0)
        fail(&err);
    if (record)
        instrument(ctx, l->f);
    pthread_mutex_unlock(&lock);
    nvbit_enable_instrumented(ctx, l->f, record == 1);
}

/* Waits until the receiving thread has handed over every packet of the
 * kernel that just ran: the flush kernel's marker comes after them in the
 * channel, and the device side of the flush returns once the host has
 * copied the buffer, not once it has read it. */
static void end_launch()
{
    cudaDeviceSynchronize();
    ws_flush_channel<<<1, 1>>>(channel_dev);
    /* After a kernel that failed the context is unusable and no marker
     * comes: the application reports its own error. */
    bool marker_sent = cudaDeviceSynchronize() == cudaSuccess;
    ws_error err;
    pthread_mutex_lock(&lock);
    if (marker_sent) {
        flushes_sent++;
        while (flushes_received < flushes_sent)
            pthread_cond_wait(&flushed, &lock);
    }
    if (ws_nvbit_kernel_end(host, &err) != 0)
        fail(&err);
    pthread_mutex_unlock(&lock);
}

/* After cuMemAlloc returned: the application's allocation, for the trace's
 * allocation table (cudaMalloc calls cuMemAlloc_v2). */
static void record_allocation(nvbit_api_cuda_t cbid, void *params)
{
    uint64_t base, bytes;
    if (cbid == API_CUDA_cuMemAlloc_v2) {
        const cuMemAlloc_v2_params *p = (const cuMemAlloc_v2_params *)params;
        base = *p->dptr;
        bytes = p->bytesize;
    } else {
        const cuMemAlloc_params *p = (const cuMemAlloc_params *)params;
        base = *p->dptr;
        bytes = p->bytesize;
    }
    ws_error err;
    pthread_mutex_lock(&lock);
    int rc = ws_nvbit_allocation(host, base, bytes, &err);
    pthread_mutex_unlock(&lock);
    if (rc != 0)
        fail(&err);
}

void nvbit_at_cuda_event(CUcontext ctx, int is_exit, nvbit_api_cuda_t cbid, const char *name,
                         void *params, CUresult *status)
{
    if (inside_callback)
        return;
    if (cbid == API_CUDA_cuMemAlloc || cbid == API_CUDA_cuMemAlloc_v2) {
        if (is_exit && *status == CUDA_SUCCESS)
            record_allocation(cbid, params);
        return;
    }
    launch l;
    if (!launch_of(cbid, params, &l))
        return;
    inside_callback = true;
    if (!is_exit) {
        pthread_mutex_lock(&launch_lock);
        begin_launch(ctx, &l);
    } else {
        end_launch();
        pthread_mutex_unlock(&launch_lock);
    }
    inside_callback = false;
}

void nvbit_at_term()
{
    if (!host) /* no GPU context: an empty trace says so */
        open_trace();
    receiving = false;
    channel_host.destroy(false);
    ws_error err;
    if (ws_nvbit_reused_allocations(host))
        fprintf(stderr, "warpscope: %llu allocations reused freed addresses and are not in the "
                        "trace's allocation table (docs/nvbit.md)\n",
                (unsigned long long)ws_nvbit_reused_allocations(host));
    ws_nvbit_host_free(host);
    wst_writer *done = writer;
    writer = NULL; /* closed (or aborted) here, not again at exit */
    if (wst_writer_close(done, &err) != 0)
        fail(&err);
}
