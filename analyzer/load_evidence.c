/* analyzer/load_evidence.c: see load_evidence.h. */
#include "analyzer/load_evidence.h"

#include <stdlib.h>

#include "util/u64map.h"

/* Per resident L1 line, keyed by (line, SM): its filler's group + 1 (0: not
 * a global load's fill) and, in the top bit, whether it was hit since. */
#define LINE_HIT UINT32_C(0x80000000)

struct load_evidence_collector {
    load_evidence_groups groups;
    u64map lines;
    uint32_t current; /* the group of the instruction being replayed */
};

static uint64_t line_key(uint32_t sm, uint64_t line)
{
    return line << 8 ^ sm; /* SMs < 256 (analyzer/config.h) */
}

void load_evidence_instruction(load_evidence *e, const ws_request *rq, int n)
{
    request_sectors s = request_sectors_of(rq, n);
    e->sectors += s.sectors;
    e->ideal_sectors += s.ideal;
}

static void on_requests(void *ctx, const replay_issue *is, const ws_request *rq, int n)
{
    (void)rq, (void)n;
    load_evidence_collector *c = ctx;
    c->current = c->groups.group(c->groups.ctx, is);
}

static void on_transfer(void *ctx, const replay_issue *is, const memory_transfer *t)
{
    load_evidence_collector *c = ctx;
    if (!is || t->write_back || t->link == LINK_L2_LOOKUP)
        return;
    uint32_t g = c->groups.group(c->groups.ctx, is);
    if (g != UINT32_MAX)
        c->groups.at(c->groups.ctx, g)->below_l1_bytes += t->bytes;
}

static int on_fill(void *ctx, const replay_issue *is, uint64_t line, ws_error *err)
{
    load_evidence_collector *c = ctx;
    uint32_t g = c->groups.group(c->groups.ctx, is);
    int inserted;
    uint32_t *v = u64map_upsert(&c->lines, line_key(is->sm, line), 0, &inserted);
    if (!v)
        return ws_fail(err, "out of memory");
    *v = g == UINT32_MAX ? 0 : g + 1;
    if (g != UINT32_MAX)
        c->groups.at(c->groups.ctx, g)->fills++;
    return 0;
}

static int on_hit(void *ctx, const replay_issue *is, uint64_t line, uint32_t owner, ws_error *err)
{
    (void)owner, (void)err;
    load_evidence_collector *c = ctx;
    uint32_t *v = u64map_find(&c->lines, line_key(is->sm, line));
    if (v)
        *v |= LINE_HIT;
    return 0;
}

/* A line's generation ends: a dead fill if it was never hit; a line that
 * was hit, replaced by a global load's fill, is reused data that load evicted. */
static int on_depart(void *ctx, uint32_t sm, uint64_t line, uint32_t evictor, evict_cause cause,
                     ws_error *err)
{
    (void)evictor, (void)err;
    load_evidence_collector *c = ctx;
    uint64_t key = line_key(sm, line);
    uint32_t *v = u64map_find(&c->lines, key);
    if (!v)
        return 0;
    uint32_t state = *v;
    u64map_remove(&c->lines, key);
    uint32_t filler = state & ~LINE_HIT;
    if (filler && !(state & LINE_HIT))
        c->groups.at(c->groups.ctx, filler - 1)->dead_fills++;
    if (cause == EVICT_REPLACE && (state & LINE_HIT) && c->current != UINT32_MAX)
        c->groups.at(c->groups.ctx, c->current)->evicted_reused++;
    return 0;
}

/* The L1s flush at a kernel's end (docs/metrics.md §7): every generation
 * still open ends, unhit lines as dead fills (docs/metrics.md §4). */
static int on_kernel_end(void *ctx, ws_error *err)
{
    (void)err;
    load_evidence_collector *c = ctx;
    c->current = UINT32_MAX;
    if (!c->lines.count)
        return 0;
    for (size_t i = 0; i < c->lines.capacity; i++) {
        const u64map_slot *slot = &c->lines.slots[i];
        uint32_t filler = slot->value & ~LINE_HIT;
        if (slot->tag && filler && !(slot->value & LINE_HIT))
            c->groups.at(c->groups.ctx, filler - 1)->dead_fills++;
    }
    u64map_clear(&c->lines);
    return 0;
}

load_evidence_collector *load_evidence_new(load_evidence_groups groups, ws_error *err)
{
    load_evidence_collector *c = calloc(1, sizeof *c);
    if (!c || u64map_init(&c->lines, 1024) != 0) {
        free(c);
        return ws_fail(err, "out of memory"), NULL;
    }
    c->groups = groups;
    c->current = UINT32_MAX;
    return c;
}

void load_evidence_free(load_evidence_collector *c)
{
    if (!c)
        return;
    u64map_destroy(&c->lines);
    free(c);
}

l1_observer load_evidence_observer(load_evidence_collector *c)
{
    return (l1_observer){.ctx = c, .requests = on_requests, .transfer = on_transfer,
                         .fill = on_fill, .hit = on_hit, .depart = on_depart,
                         .kernel_end = on_kernel_end};
}
