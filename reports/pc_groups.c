/* reports/pc_groups.c: see pc_groups.h. */
#include "reports/pc_groups.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/pc_label.h"
#include "reports/report_doc.h"
#include "util/grow.h"

#define NO_GROUP ((size_t)-1)

/* A kernel name (owned) and the first of its groups. */
struct pc_group_name {
    char *name;
    size_t first;
};

static void add_class(pc_group *g, const char *name, double executions)
{
    if (!name)
        return;
    for (int i = 0; i < PC_GROUP_CLASSES; i++) {
        if (!g->class_names[i])
            g->class_names[i] = name;
        if (strcmp(g->class_names[i], name) == 0) {
            g->class_executions[i] += executions;
            return;
        }
    }
}

static void add_reuse(pc_group *g, int scope, const json_t *hist)
{
    double log2[PC_GROUP_BUCKETS];
    size_t n = report_nums(hist, "log2", log2, PC_GROUP_BUCKETS);
    for (size_t b = 0; b < n; b++)
        g->reuse[scope][b] += isnan(log2[b]) ? 0 : log2[b];
    g->reuse[scope][PC_GROUP_BUCKETS] += report_count(hist, "cold");
    g->accesses[scope] += report_count(hist, "requests");
}

/* Sums one launch's PC object into its group; -1 when out of memory. */
static int add_launch(pc_group *g, size_t kernel, const json_t *pc)
{
    if (g->launches < PC_GROUP_LAUNCHES_KEPT) {
        if (ws_grow((void **)&g->launch_list, &g->launch_capacity, g->launches + 1,
                    sizeof *g->launch_list) != 0)
            return -1;
        g->launch_list[g->launches] = (pc_launch){kernel, json_incref((json_t *)pc)};
    }
    g->launches++;
    double executions = report_count(pc, "executions"), requests = report_count(pc, "requests");
    g->executions += executions;
    g->requests += requests;
    double u = report_num(pc, "utilization.line");
    if (!isnan(u)) {
        g->u_line_sum += u * requests;
        g->u_line_weight += requests;
    }
    if (json_is_object(report_at(pc, "replay"))) {
        g->have_replay = 1;
        g->l1_hits += report_count(pc, "replay.l1_hits");
        g->l1_misses += report_count(pc, "replay.l1_misses");
    }
    double share = report_num(pc, "bypass.share");
    if (!isnan(share)) {
        g->bypass_share_sum += share * requests;
        g->bypass_weight += requests;
    }
    json_t *recommend = report_at(pc, "bypass.recommend");
    if (json_is_boolean(recommend)) {
        g->bypass_seen++;
        g->bypass_yes += json_is_true(recommend);
    }
    add_reuse(g, PC_SCOPE_PER_SM, report_at(pc, "reuse.per_sm"));
    add_reuse(g, PC_SCOPE_GLOBAL, report_at(pc, "reuse.global"));
    add_class(g, report_str(pc, "locality.class"), executions);
    return 0;
}

static struct pc_group_name *name_of(pc_groups *b, const char *name)
{
    for (size_t i = 0; i < b->name_count; i++)
        if (strcmp(b->names[i].name, name) == 0)
            return &b->names[i];
    char *copy = strdup(name);
    if (!copy ||
        ws_grow((void **)&b->names, &b->name_capacity, b->name_count + 1, sizeof *b->names) != 0) {
        free(copy);
        return NULL;
    }
    b->names[b->name_count] = (struct pc_group_name){copy, NO_GROUP};
    return &b->names[b->name_count++];
}

/* The group of (name, offset), created at the end of the name's chain. */
static pc_group *group_of(pc_groups *b, const char *name, const json_t *pc)
{
    struct pc_group_name *e = name_of(b, name);
    if (!e)
        return NULL;
    double offset = report_num(pc, "offset");
    size_t last = NO_GROUP;
    for (size_t i = e->first; i != NO_GROUP; i = b->next[i]) {
        if (report_num(b->items[i].pc, "offset") == offset)
            return &b->items[i];
        last = i;
    }
    size_t at = b->count;
    if (ws_grow((void **)&b->items, &b->capacity, at + 1, sizeof *b->items) != 0 ||
        ws_grow((void **)&b->next, &b->next_capacity, at + 1, sizeof *b->next) != 0)
        return NULL;
    *(last == NO_GROUP ? &e->first : &b->next[last]) = at;
    b->next[at] = NO_GROUP;
    pc_group *g = &b->items[b->count++];
    memset(g, 0, sizeof *g);
    g->kernel = e->name;
    g->pc = json_incref((json_t *)pc);
    g->kind = pc_kind_of_sass(report_str(pc, "sass"));
    return g;
}

int pc_groups_add_kernel(pc_groups *g, size_t index, const json_t *kernel)
{
    const char *name = report_str(kernel, "name");
    size_t i;
    json_t *pc;
    json_array_foreach(report_at(kernel, "pcs"), i, pc) {
        if (!json_is_object(pc))
            continue;
        pc_group *group = group_of(g, name ? name : "?", pc);
        if (!group || add_launch(group, index, pc) != 0)
            return -1;
    }
    return 0;
}

void pc_groups_free(pc_groups *g)
{
    for (size_t i = 0; i < g->count; i++) {
        pc_group *x = &g->items[i];
        size_t kept = x->launches < PC_GROUP_LAUNCHES_KEPT ? x->launches : PC_GROUP_LAUNCHES_KEPT;
        for (size_t l = 0; l < kept; l++)
            json_decref((json_t *)x->launch_list[l].pc);
        free(x->launch_list);
        json_decref((json_t *)x->pc);
    }
    for (size_t i = 0; i < g->name_count; i++)
        free(g->names[i].name);
    free(g->names);
    free(g->next);
    free(g->items);
    memset(g, 0, sizeof *g);
}

double pc_group_u_line(const pc_group *g)
{
    return g->u_line_weight > 0 ? g->u_line_sum / g->u_line_weight : NAN;
}

double pc_group_l1_hit_rate(const pc_group *g)
{
    double all = g->l1_hits + g->l1_misses;
    return g->have_replay && all > 0 ? g->l1_hits / all : NAN;
}

const char *pc_group_class(const pc_group *g)
{
    int best = -1;
    for (int i = 0; i < PC_GROUP_CLASSES && g->class_names[i]; i++)
        if (best < 0 || g->class_executions[i] > g->class_executions[best])
            best = i;
    return best < 0 ? NULL : g->class_names[best];
}

double pc_group_bypass_share(const pc_group *g)
{
    return g->bypass_weight > 0 ? g->bypass_share_sum / g->bypass_weight : NAN;
}

double pc_group_traffic_change(const pc_group *g)
{
    return report_num(g->pc, "bypass.traffic_change_bytes");
}

void pc_group_label(const pc_group *g, char *dst, size_t size, size_t width)
{
    json_t *offset = report_at(g->pc, "offset");
    if (json_is_integer(offset) && json_integer_value(offset) >= 0) {
        pc_label(dst, size, g->kernel, (uint64_t)json_integer_value(offset), width);
        return;
    }
    char name[512];
    kernel_label(name, sizeof name, g->kernel, width > 8 ? width - 4 : width);
    snprintf(dst, size, "%s+0x?", name);
}

void pc_group_source(const pc_group *g, char *dst, size_t size)
{
    double line = report_num(g->pc, "line");
    source_label(dst, size, report_str(g->pc, "file"), isnan(line) || line < 0 ? 0 : (uint32_t)line);
}
