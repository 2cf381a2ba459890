/* reports/kernel_groups.c: see kernel_groups.h. */
#include "reports/kernel_groups.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/report_doc.h"
#include "util/grow.h"

replay_sums replay_sums_of(const json_t *replay)
{
    double loads = report_count(replay, "mpli.loads");
    return (replay_sums){
        .l1_requests = report_count(replay, "l1.requests"),
        .l1_hits = report_count(replay, "l1.hits"),
        .l2_requests = report_count(replay, "l2.requests"),
        .l2_hits = report_count(replay, "l2.hits"),
        .l1_to_l2_bytes = report_count(replay, "traffic.l1_to_l2_bytes"),
        .dram_read_bytes = report_count(replay, "traffic.l2_to_dram_read_bytes"),
        .mpli_misses = report_count(replay, "mpli.mean") * loads,
        .mpli_loads = loads,
    };
}

static void add_sums(replay_sums *to, const replay_sums *s)
{
    to->l1_requests += s->l1_requests;
    to->l1_hits += s->l1_hits;
    to->l2_requests += s->l2_requests;
    to->l2_hits += s->l2_hits;
    to->l1_to_l2_bytes += s->l1_to_l2_bytes;
    to->dram_read_bytes += s->dram_read_bytes;
    to->mpli_misses += s->mpli_misses;
    to->mpli_loads += s->mpli_loads;
}

static kernel_group *group_named(kernel_groups *g, const char *name)
{
    for (size_t i = 0; i < g->count; i++)
        if (strcmp(g->items[i].name, name) == 0)
            return &g->items[i];
    char *copy = strdup(name);
    if (!copy || ws_grow((void **)&g->items, &g->capacity, g->count + 1, sizeof *g->items) != 0) {
        free(copy);
        return NULL;
    }
    g->items[g->count] = (kernel_group){.name = copy};
    return &g->items[g->count++];
}

int kernel_groups_add_kernel(kernel_groups *groups, size_t index, const json_t *kernel)
{
    const json_t *replay = report_at(kernel, "metrics.replay");
    if (!json_is_object(replay))
        return 0;
    const char *name = report_str(kernel, "name");
    kernel_group *g = group_named(groups, name ? name : "?");
    if (!g)
        return -1;
    replay_sums s = replay_sums_of(replay);
    if (g->count < KERNEL_GROUP_LAUNCHES_KEPT) {
        if (ws_grow((void **)&g->launches, &g->capacity, g->count + 1, sizeof *g->launches) != 0)
            return -1;
        g->launches[g->count] = (kernel_launch){index, s};
    }
    g->count++;
    add_sums(&g->sums, &s);
    return 0;
}

void kernel_groups_free(kernel_groups *g)
{
    for (size_t i = 0; i < g->count; i++) {
        free(g->items[i].launches);
        free(g->items[i].name);
    }
    free(g->items);
    memset(g, 0, sizeof *g);
}

static double ratio(double num, double den)
{
    return den > 0 ? num / den : NAN;
}

double replay_sums_l1_hit_rate(const replay_sums *s) { return ratio(s->l1_hits, s->l1_requests); }
double replay_sums_l2_hit_rate(const replay_sums *s) { return ratio(s->l2_hits, s->l2_requests); }
double replay_sums_mpli(const replay_sums *s) { return ratio(s->mpli_misses, s->mpli_loads); }
