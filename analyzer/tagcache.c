/* analyzer/tagcache.c: see tagcache.h. */
#include "analyzer/tagcache.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/set_index.h"

#define INVALID UINT64_MAX

struct tagcache {
    uint32_t sets, ways;
    uint32_t line_shift;
    set_index index;
    uint64_t *lines;   /* [sets × ways], INVALID when empty */
    uint64_t *stamps;  /* last use, for LRU */
    uint32_t *owners;
    uint64_t clock;
};

tagcache *tagcache_new(const cache_config *g, ws_error *err)
{
    uint64_t sets = cache_config_sets(g) * (g->slices ? g->slices : 1);
    if (!sets || !g->ways || sets * g->ways > (1u << 26)) {
        ws_fail(err, "tag cache: invalid geometry");
        return NULL;
    }
    tagcache *c = calloc(1, sizeof *c);
    size_t n = (size_t)sets * g->ways;
    if (!c || !(c->lines = malloc(n * sizeof *c->lines)) || !(c->stamps = calloc(n, 8)) ||
        !(c->owners = calloc(n, 4))) {
        tagcache_free(c);
        ws_fail(err, "out of memory");
        return NULL;
    }
    c->sets = (uint32_t)sets;
    c->ways = g->ways;
    c->line_shift = (uint32_t)__builtin_ctz(g->line_bytes);
    c->index = g->index;
    tagcache_flush(c);
    return c;
}

void tagcache_free(tagcache *c)
{
    if (!c)
        return;
    free(c->lines);
    free(c->stamps);
    free(c->owners);
    free(c);
}

void tagcache_flush(tagcache *c)
{
    for (size_t i = 0; i < (size_t)c->sets * c->ways; i++)
        c->lines[i] = INVALID;
}

uint32_t tagcache_set(const tagcache *c, uint64_t line)
{
    return set_index_of(c->index, line, c->line_shift, c->sets);
}

static int64_t find(const tagcache *c, uint64_t line, size_t base)
{
    for (uint32_t w = 0; w < c->ways; w++)
        if (c->lines[base + w] == line)
            return (int64_t)(base + w);
    return -1;
}

tagcache_result tagcache_access(tagcache *c, uint64_t line, int allocate, uint32_t owner)
{
    tagcache_result r = {0};
    size_t base = (size_t)tagcache_set(c, line) * c->ways;
    int64_t at = find(c, line, base);
    c->clock++;
    if (at >= 0) {
        r.hit = 1;
        c->stamps[at] = c->clock;
        return r;
    }
    if (!allocate)
        return r;
    size_t victim = base;
    for (uint32_t w = 0; w < c->ways; w++) {
        size_t i = base + w;
        if (c->lines[i] == INVALID) {
            victim = i;
            break;
        }
        if (c->stamps[i] < c->stamps[victim])
            victim = i;
    }
    if (c->lines[victim] != INVALID) {
        r.evicted = 1;
        r.victim_line = c->lines[victim];
        r.victim_owner = c->owners[victim];
    }
    c->lines[victim] = line;
    c->stamps[victim] = c->clock;
    c->owners[victim] = owner;
    return r;
}

int tagcache_invalidate(tagcache *c, uint64_t line)
{
    int64_t at = find(c, line, (size_t)tagcache_set(c, line) * c->ways);
    if (at < 0)
        return 0;
    c->lines[at] = INVALID;
    return 1;
}

int tagcache_contains(const tagcache *c, uint64_t line)
{
    return find(c, line, (size_t)tagcache_set(c, line) * c->ways) >= 0;
}
