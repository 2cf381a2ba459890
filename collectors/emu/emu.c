/* collectors/emu/emu.c: see emu.h and docs/emulator.md. */
#include "collectors/emu/emu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "collectors/emu/emu_timing.h"
#include "collectors/emu/fiber.h"
#include "util/grow.h"

/* Device addresses look like a real GPU's: global memory in one window,
 * local memory in another. */
#define DEVICE_BASE 0x7f0000000000ULL
#define LOCAL_BASE 0x7e0000000000ULL
#define STACK_BYTES (64 * 1024)

typedef struct lane_access {
    emu_site *site;
    uint64_t address;
    emu_access_timing timing; /* in a timed launch (emu_timing.h) */
} lane_access;

typedef struct lane_log {
    lane_access *items;
    size_t count, capacity;
} lane_log;

typedef enum { THREAD_READY, THREAD_AT_BARRIER, THREAD_EXITED } thread_state;

typedef struct thread_slot {
    emu_thread thread;
    lane_log log;
    uint8_t local[EMU_LOCAL_BYTES];
    ucontext_t context;
    void *stack;
    thread_state state;
    emu_lane_timing timing;
} thread_slot;

struct emu_cta {
    emu *owner;
    thread_slot *threads;
    uint32_t thread_count;
    uint32_t linear_id;
    ucontext_t scheduler;
    fiber_stack scheduler_stack; /* where the coroutines switch back to */
    thread_slot *running;
};

struct emu {
    wst_sink sink;
    uint8_t *arena;
    size_t arena_bytes, arena_used;
    uint32_t kernel;        /* sink index of the current kernel */
    uint32_t launch_serial; /* identifies the current launch to the sites */
    uint64_t records;
    int failed;
    ws_error error;
    emu_cta cta;
    size_t thread_capacity;
    uint32_t warps_per_cta;
    const emu_launch *launch;
    int timing;           /* emu_set_timing: launches may state theirs */
    int timed;            /* the current launch records timing */
    uint32_t *warp_loads; /* timed: per warp of the CTA, its loads so far */
    size_t warp_loads_capacity;
};

/* Launch serials are global: sites are static and shared by every emu. */
static uint32_t next_launch_serial = 1;

emu *emu_new(const wst_sink *sink, size_t arena_bytes, ws_error *err)
{
    emu *e = calloc(1, sizeof *e);
    if (!e) {
        ws_fail(err, "out of memory");
        return NULL;
    }
    e->sink = *sink;
    e->arena_bytes = arena_bytes;
    e->arena = mmap(NULL, arena_bytes, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (e->arena == MAP_FAILED) {
        free(e);
        ws_fail(err, "cannot reserve %zu bytes of emulated device memory", arena_bytes);
        return NULL;
    }
    e->cta.owner = e;
    return e;
}

void emu_free(emu *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < e->thread_capacity; i++) {
        free(e->cta.threads[i].log.items);
        free(e->cta.threads[i].stack);
        emu_lane_timing_free(&e->cta.threads[i].timing);
    }
    free(e->cta.threads);
    free(e->warp_loads);
    munmap(e->arena, e->arena_bytes);
    free(e);
}

static void emu_set_error(emu *e, const char *message)
{
    if (!e->failed) {
        e->failed = 1;
        ws_fail(&e->error, "%s", message);
    }
}

void *emu_malloc(emu *e, size_t bytes)
{
    size_t start = (e->arena_used + 255) & ~(size_t)255;
    if (start > e->arena_bytes || bytes > e->arena_bytes - start)
        return NULL;
    e->arena_used = start + bytes;
    /* The arena never reuses addresses, so no allocation overlaps another;
     * an empty one holds nothing to address. */
    wst_allocation a = {DEVICE_BASE + start, bytes};
    ws_error err;
    if (bytes && wst_sink_add_allocation(&e->sink, &a, &err) < 0)
        emu_set_error(e, err.msg);
    return e->arena + start; /* fresh anonymous pages are zero */
}

uint64_t emu_device_address(const emu *e, const void *host)
{
    return DEVICE_BASE + (uint64_t)((const uint8_t *)host - e->arena);
}

uint64_t emu_records(const emu *e) { return e->records; }

void emu_set_timing(emu *e, int on) { e->timing = on; }

/* ---- recording ---- */

static uint64_t site_offset(const emu_site *s)
{
    /* Source order: line first, then order of appearance on the line. */
    return ((uint64_t)s->line << 8 | (s->ordinal & 0xff)) << 4;
}

void *emu_local(emu_thread *t)
{
    thread_slot *slot = (thread_slot *)t;
    return slot->local;
}

/* Local memory is interleaved across the lanes of a warp at 4-byte
 * granularity, as CUDA lays it out, so a warp touching the same local
 * variable makes one coalesced access. */
static uint64_t local_address(const emu *e, const emu_thread *t, const void *ptr)
{
    const thread_slot *slot = (const thread_slot *)t;
    uint64_t offset = (uint64_t)((const uint8_t *)ptr - slot->local);
    uint64_t warp = (uint64_t)t->cta->linear_id * e->warps_per_cta + t->linear / 32;
    uint64_t word = warp * (EMU_LOCAL_BYTES / 4) + offset / 4;
    return LOCAL_BASE + (word * 32 + t->linear % 32) * 4 + offset % 4;
}

void *emu_access(emu_thread *t, emu_site *site, const void *ptr)
{
    thread_slot *slot = (thread_slot *)t;
    emu *e = t->cta->owner;
    uint64_t address;
    if (site->space == WST_LOCAL) {
        if ((const uint8_t *)ptr < slot->local ||
            (const uint8_t *)ptr + site->size > slot->local + EMU_LOCAL_BYTES)
            emu_set_error(e, "local access outside the thread's local memory");
        address = local_address(e, t, ptr);
    } else {
        if ((const uint8_t *)ptr < e->arena ||
            (const uint8_t *)ptr + site->size > e->arena + e->arena_used)
            emu_set_error(e, "global access outside emulated device memory");
        address = emu_device_address(e, ptr);
    }
    lane_log *log = &slot->log;
    if (ws_grow((void **)&log->items, &log->capacity, log->count + 1, sizeof *log->items) != 0) {
        emu_set_error(e, "out of memory");
        return (void *)ptr;
    }
    lane_access *a = &log->items[log->count++];
    *a = (lane_access){site, address, {0, 0}};
    if (e->timed &&
        emu_lane_timing_log(&slot->timing, slot->timing.base + (uint32_t)log->count - 1,
                            &a->timing) != 0)
        emu_set_error(e, "out of memory");
    return (void *)ptr;
}

emu_value emu_loaded(emu_thread *t)
{
    thread_slot *slot = (thread_slot *)t;
    return slot->timing.base + (uint32_t)slot->log.count - 1;
}

void emu_use(emu_thread *t, emu_value value)
{
    thread_slot *slot = (thread_slot *)t;
    if (t->cta->owner->timed && emu_lane_timing_use(&slot->timing, value) != 0)
        emu_set_error(t->cta->owner, "out of memory");
}

void emu_gap(emu_thread *t, uint32_t instructions)
{
    emu_lane_timing_gap(&((thread_slot *)t)->timing, instructions);
}

/* A SASS-like opcode for the PC table: LDG.E, STG.E.64, LDG.E.CG.128, ... */
static void site_sass(const emu_site *s, char *buf, size_t cap)
{
    const char *op = s->space == WST_LOCAL ? (s->kind == WST_LOAD ? "LDL" : "STL")
                     : s->kind == WST_LOAD  ? "LDG.E"
                     : s->kind == WST_STORE ? "STG.E"
                                            : "ATOMG.E.ADD";
    snprintf(buf, cap, "%s%s%s", op, s->cache_op == WST_OP_CG ? ".CG" : "", wst_sass_size_suffix(s->size));
}

static int site_pc(emu *e, emu_site *s, uint32_t *pc, ws_error *err)
{
    if (s->launch_serial != e->launch_serial) {
        char sass[32];
        site_sass(s, sass, sizeof sass);
        wst_pc entry = {.offset = site_offset(s), .sass = sass, .file = (char *)s->file,
                        .line = s->line};
        int64_t index = wst_sink_add_pc(&e->sink, e->kernel, &entry, err);
        if (index < 0)
            return -1;
        s->pc_index = (uint32_t)index;
        s->launch_serial = e->launch_serial;
    }
    *pc = s->pc_index;
    return 0;
}

/* ---- warp formation: the reconvergence rule of emu.h ----
 *
 * Loops are found from the lanes' logs: a backward jump (an access whose pc
 * is <= the lane's previous pc) enters an iteration of the loop whose header
 * is the jump's target; the loop extends to the furthest pc any lane jumped
 * back from.  Each lane counts its iterations per loop (an outer iteration
 * restarts the counts of the loops inside it).  Two lanes' next accesses are
 * ordered loop by loop, outermost first: inside the same loop, fewer
 * iterations go first; a lane still inside a loop goes before one that is
 * past it; then the lower pc goes first.  Lanes whose next accesses compare
 * equal issue together as one warp instruction. */

#define MAX_LOOPS 16

typedef struct loop_info {
    uint64_t header, end; /* pc range [header, end] */
} loop_info;

typedef struct warp_loops {
    loop_info loops[MAX_LOOPS]; /* outermost (widest) first */
    uint32_t count;
} warp_loops;

typedef struct lane_cursor {
    const lane_access *items;
    size_t count, next;
    uint64_t head, previous;
    uint32_t iterations[MAX_LOOPS];
} lane_cursor;

static int loop_of(const warp_loops *w, uint64_t header)
{
    for (uint32_t j = 0; j < w->count; j++)
        if (w->loops[j].header == header)
            return (int)j;
    return -1;
}

static int wider_first(const void *a, const void *b)
{
    const loop_info *x = a, *y = b;
    uint64_t wx = x->end - x->header, wy = y->end - y->header;
    if (wx != wy)
        return wx > wy ? -1 : 1;
    return (x->header > y->header) - (x->header < y->header);
}

/* More than MAX_LOOPS distinct loops in one barrier interval: the extra ones
 * are ignored, which only loosens lockstep for them (min-pc order). */
static void find_loops(const thread_slot *lanes, uint32_t lane_count, warp_loops *w)
{
    w->count = 0;
    for (uint32_t l = 0; l < lane_count; l++) {
        const lane_log *log = &lanes[l].log;
        for (size_t i = 1; i < log->count; i++) {
            uint64_t from = site_offset(log->items[i - 1].site);
            uint64_t to = site_offset(log->items[i].site);
            if (to > from)
                continue;
            int j = loop_of(w, to);
            if (j >= 0) {
                if (from > w->loops[j].end)
                    w->loops[j].end = from;
            } else if (w->count < MAX_LOOPS) {
                w->loops[w->count++] = (loop_info){to, from};
            }
        }
    }
    qsort(w->loops, w->count, sizeof *w->loops, wider_first);
}

static void lane_advance(lane_cursor *c, const warp_loops *w)
{
    if (c->next >= c->count)
        return;
    uint64_t pc = site_offset(c->items[c->next].site);
    if (c->next > 0 && pc <= c->previous) {
        int j = loop_of(w, pc);
        if (j >= 0) {
            c->iterations[j]++;
            for (uint32_t k = 0; k < w->count; k++) /* loops nested in j restart */
                if ((int)k != j && w->loops[k].header >= w->loops[j].header &&
                    w->loops[k].end <= w->loops[j].end)
                    c->iterations[k] = 0;
        }
    }
    c->previous = pc;
    c->head = pc;
}

static int inside(const loop_info *loop, uint64_t pc) { return pc >= loop->header && pc <= loop->end; }

/* < 0: a's next access goes first; 0: they issue together. */
static int lane_compare(const lane_cursor *a, const lane_cursor *b, const warp_loops *w)
{
    for (uint32_t j = 0; j < w->count; j++) {
        const loop_info *loop = &w->loops[j];
        int in_a = inside(loop, a->head), in_b = inside(loop, b->head);
        if (in_a && in_b) {
            if (a->iterations[j] != b->iterations[j])
                return a->iterations[j] < b->iterations[j] ? -1 : 1;
        } else if (in_a != in_b) {
            /* One lane is in the loop: it goes first unless the other has
             * not reached the loop yet. */
            const lane_cursor *out = in_a ? b : a;
            int inner_first = out->head > loop->end;
            return (in_a == inner_first) ? -1 : 1;
        }
    }
    return (a->head > b->head) - (a->head < b->head);
}

/* Lane access items[i] joins record r, the warp having issued `loads`
 * loads before it: r's gap is the largest of its lanes', its waits what
 * any lane uses; a load's value is then known as load `loads`. */
static void lane_timing(emu_lane_timing *t, const lane_access *items, size_t i, uint32_t loads,
                        int returns_data, wst_record *r)
{
    uint32_t begin = i ? items[i - 1].timing.uses_end : t->uses_begin;
    r->waits |= emu_lane_timing_waits(t, begin, items[i].timing.uses_end, loads);
    if (items[i].timing.gap > r->gap)
        r->gap = items[i].timing.gap;
    if (returns_data)
        emu_lane_timing_loaded(t, t->base + (uint32_t)i, loads);
}

static int emit_warp(emu *e, uint32_t warp, thread_slot *lanes, uint32_t lane_count,
                     ws_error *err)
{
    warp_loops loops;
    find_loops(lanes, lane_count, &loops);
    lane_cursor cursors[32];
    for (uint32_t l = 0; l < lane_count; l++) {
        memset(&cursors[l], 0, sizeof cursors[l]);
        cursors[l].items = lanes[l].log.items;
        cursors[l].count = lanes[l].log.count;
        lane_advance(&cursors[l], &loops);
    }
    for (;;) {
        const lane_cursor *best = NULL;
        for (uint32_t l = 0; l < lane_count; l++) {
            const lane_cursor *c = &cursors[l];
            if (c->next < c->count && (!best || lane_compare(c, best, &loops) < 0))
                best = c;
        }
        if (!best)
            return 0;
        lane_cursor leader = *best;
        wst_record r;
        memset(&r, 0, sizeof r); /* inactive lanes too: identical runs, identical bytes */
        emu_site *site = leader.items[leader.next].site;
        int timed = e->timed;
        uint32_t *loads = &e->warp_loads[warp];
        int returns_data = site->kind != WST_STORE;
        for (uint32_t l = 0; l < lane_count; l++) {
            lane_cursor *c = &cursors[l];
            if (c->next >= c->count || lane_compare(c, &leader, &loops) != 0)
                continue;
            r.mask |= 1u << l;
            r.addr[l] = c->items[c->next].address;
            if (timed) /* this lane's part of the record's timing */
                lane_timing(&lanes[l].timing, c->items, c->next, *loads, returns_data, &r);
            c->next++;
            lane_advance(c, &loops);
        }
        if (timed && returns_data)
            ++*loads;
        r.has_waits = (uint8_t)timed;
        r.cta = e->cta.linear_id;
        r.warp = warp;
        r.kind = site->kind;
        r.space = site->space;
        r.cache_op = site->cache_op;
        r.size = site->size;
        if (site_pc(e, site, &r.pc, err) != 0 || wst_sink_add_record(&e->sink, e->kernel, &r, err) != 0)
            return -1;
        e->records++;
    }
}

/* A warp's lanes were merged: their logs start again empty. */
static void lanes_merged(emu *e, thread_slot *lanes, uint32_t lane_count)
{
    for (uint32_t l = 0; l < lane_count; l++) {
        lane_log *log = &lanes[l].log;
        if (e->timed)
            emu_lane_timing_next_log(&lanes[l].timing, (uint32_t)log->count,
                                     log->count ? log->items[log->count - 1].timing.uses_end
                                                : lanes[l].timing.uses_begin);
        log->count = 0;
    }
}

static int emit_warps(emu *e, ws_error *err)
{
    emu_cta *cta = &e->cta;
    for (uint32_t first = 0; first < cta->thread_count; first += 32) {
        uint32_t lanes = cta->thread_count - first < 32 ? cta->thread_count - first : 32;
        if (emit_warp(e, first / 32, &cta->threads[first], lanes, err) != 0)
            return -1;
        lanes_merged(e, &cta->threads[first], lanes);
    }
    return 0;
}

/* ---- running threads ---- */

static emu_cta *current_cta; /* the CTA whose coroutines are running */

static void thread_trampoline(void)
{
    emu_cta *cta = current_cta;
    thread_slot *slot = cta->running;
    fiber_entered(&cta->scheduler_stack);
    cta->owner->launch->kernel(&slot->thread);
    slot->state = THREAD_EXITED; /* returning resumes uc_link: the scheduler */
    fiber_exiting(cta->scheduler_stack);
}

void emu_sync(emu_thread *t)
{
    emu_cta *cta = t->cta;
    thread_slot *slot = (thread_slot *)t;
    if (!cta->owner->launch->uses_barriers) {
        emu_set_error(cta->owner, "EMU_SYNC in a kernel launched without uses_barriers");
        return;
    }
    slot->state = THREAD_AT_BARRIER;
    fiber_switch(&slot->context, &cta->scheduler, cta->scheduler_stack);
}

/* Separate so that getcontext()'s second return cannot clobber a caller's
 * loop variables. */
static __attribute__((noinline)) int make_coroutine(emu_cta *cta, thread_slot *slot)
{
    if (!slot->stack && !(slot->stack = malloc(STACK_BYTES)))
        return -1;
    getcontext(&slot->context);
    slot->context.uc_stack.ss_sp = slot->stack;
    slot->context.uc_stack.ss_size = STACK_BYTES;
    slot->context.uc_link = &cta->scheduler;
    makecontext(&slot->context, thread_trampoline, 0);
    return 0;
}

static int run_cta_with_barriers(emu *e, ws_error *err)
{
    emu_cta *cta = &e->cta;
    current_cta = cta;
    for (uint32_t i = 0; i < cta->thread_count; i++)
        if (make_coroutine(cta, &cta->threads[i]) != 0)
            return ws_fail(err, "out of memory");
    for (;;) {
        uint32_t live = 0;
        for (uint32_t i = 0; i < cta->thread_count; i++) {
            thread_slot *slot = &cta->threads[i];
            if (slot->state == THREAD_EXITED)
                continue;
            slot->state = THREAD_READY;
            cta->running = slot;
            fiber_switch(&cta->scheduler, &slot->context, (fiber_stack){slot->stack, STACK_BYTES});
            live += slot->state != THREAD_EXITED;
        }
        /* Every thread reached the barrier or exited: a reconvergence point. */
        if (emit_warps(e, err) != 0)
            return -1;
        if (!live)
            return 0;
    }
}

static int run_cta_straight(emu *e, ws_error *err)
{
    emu_cta *cta = &e->cta;
    for (uint32_t first = 0; first < cta->thread_count; first += 32) {
        uint32_t lanes = cta->thread_count - first < 32 ? cta->thread_count - first : 32;
        for (uint32_t l = 0; l < lanes; l++)
            e->launch->kernel(&cta->threads[first + l].thread);
        if (emit_warp(e, first / 32, &cta->threads[first], lanes, err) != 0)
            return -1;
        lanes_merged(e, &cta->threads[first], lanes);
    }
    return 0;
}

static int prepare_cta(emu *e, uint32_t linear, emu_dim3 block_idx, void *shared, ws_error *err)
{
    const emu_launch *l = e->launch;
    emu_cta *cta = &e->cta;
    uint32_t threads = l->block.x * l->block.y * l->block.z;
    if (threads > e->thread_capacity) {
        thread_slot *grown = realloc(cta->threads, threads * sizeof *grown);
        if (!grown)
            return ws_fail(err, "out of memory");
        memset(grown + e->thread_capacity, 0, (threads - e->thread_capacity) * sizeof *grown);
        cta->threads = grown;
        e->thread_capacity = threads;
    }
    cta->thread_count = threads;
    cta->linear_id = linear;
    for (uint32_t i = 0; i < threads; i++) {
        thread_slot *slot = &cta->threads[i];
        slot->thread = (emu_thread){
            .threadIdx = {i % l->block.x, (i / l->block.x) % l->block.y,
                          i / (l->block.x * l->block.y)},
            .blockIdx = block_idx,
            .blockDim = l->block,
            .gridDim = l->grid,
            .args = l->args,
            .shared = shared,
            .cta = cta,
            .linear = i,
        };
        slot->log.count = 0;
        slot->state = THREAD_READY;
        memset(slot->local, 0, sizeof slot->local);
        emu_lane_timing_reset(&slot->timing);
    }
    memset(e->warp_loads, 0, e->warps_per_cta * sizeof *e->warp_loads);
    return 0;
}

int emu_launch_kernel(emu *e, const emu_launch *l, ws_error *err)
{
    uint64_t threads = (uint64_t)l->block.x * l->block.y * l->block.z;
    if (!l->grid.x || !l->grid.y || !l->grid.z || !threads || threads > 1024)
        return ws_fail(err, "%s: invalid launch dimensions", l->name);
    if (e->failed) /* an allocation the sink could not list */
        return ws_fail(err, "%s: %s", l->name, e->error.msg);
    wst_kernel kernel = {.name = (char *)l->name,
                         .grid = {l->grid.x, l->grid.y, l->grid.z},
                         .block = {l->block.x, l->block.y, l->block.z},
                         .shared_mem_bytes = l->shared_bytes,
                         .registers_per_thread = l->registers,
                         .has_timing = (uint8_t)(l->timed && e->timing)};
    int index = wst_sink_add_kernel(&e->sink, &kernel, err);
    if (index < 0)
        return -1;
    e->kernel = (uint32_t)index;
    e->launch = l;
    e->timed = l->timed && e->timing;
    e->launch_serial = next_launch_serial++;
    e->warps_per_cta = (uint32_t)((threads + 31) / 32);
    if (ws_grow((void **)&e->warp_loads, &e->warp_loads_capacity, e->warps_per_cta,
                sizeof *e->warp_loads) != 0)
        return ws_fail(err, "out of memory");
    void *shared = l->shared_bytes ? calloc(1, l->shared_bytes) : NULL;
    if (l->shared_bytes && !shared)
        return ws_fail(err, "out of memory");
    int rc = 0;
    uint32_t linear = 0;
    for (uint32_t z = 0; z < l->grid.z && rc == 0; z++)
        for (uint32_t y = 0; y < l->grid.y && rc == 0; y++)
            for (uint32_t x = 0; x < l->grid.x && rc == 0; x++, linear++) {
                if (shared)
                    memset(shared, 0, l->shared_bytes);
                rc = prepare_cta(e, linear, (emu_dim3){x, y, z}, shared, err);
                if (rc == 0)
                    rc = l->uses_barriers ? run_cta_with_barriers(e, err) : run_cta_straight(e, err);
                if (rc == 0 && e->failed)
                    rc = ws_fail(err, "%s: %s", l->name, e->error.msg);
                if (rc == 0)
                    rc = wst_sink_end_cta(&e->sink, e->kernel, linear, err);
            }
    free(shared);
    return rc;
}
