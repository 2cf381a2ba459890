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

/* A kernel name (owned) and the first and last of its groups. */
struct pc_group_name {
    char *name;
    size_t first, last;
};

/* The groups' one copy of a short word (a locality class, a memory kind);
 * NULL for NULL, or when out of memory (*failed set). */
static const char *word_of(pc_groups *g, const char *word, int *failed)
{
    if (!word)
        return NULL;
    for (size_t i = 0; i < g->word_count; i++)
        if (strcmp(g->words[i], word) == 0)
            return g->words[i];
    char *copy = strdup(word);
    if (!copy ||
        ws_grow((void **)&g->words, &g->word_capacity, g->word_count + 1, sizeof *g->words) != 0) {
        free(copy);
        *failed = 1;
        return NULL;
    }
    return g->words[g->word_count++] = copy;
}

static char *copy_or_null(const char *s, int *failed)
{
    char *copy = s ? strdup(s) : NULL;
    *failed |= s && !copy;
    return copy;
}

static int read_place(pc_place *p, const json_t *pc)
{
    int failed = 0;
    const char *sass = report_str(pc, "sass");
    p->sass = copy_or_null(sass, &failed);
    p->file = copy_or_null(report_str(pc, "file"), &failed);
    p->offset = report_num(pc, "offset");
    json_t *offset = report_at(pc, "offset");
    p->offset_known = json_is_integer(offset) && json_integer_value(offset) >= 0;
    p->offset_value = p->offset_known ? (uint64_t)json_integer_value(offset) : 0;
    p->line = report_num(pc, "line");
    p->line_is_integer = json_is_integer(report_at(pc, "line"));
    p->traffic_change = report_num(pc, "bypass.traffic_change_bytes");
    p->kind = pc_kind_of_sass(sass);
    return failed ? -1 : 0;
}

/* A HIST's requests, cold requests and log2 buckets (NaN read as 0, as a
 * sum skips them; 0.0 + v so that a -0 sums as it did). */
static int read_reuse(pc_seen *s, int scope, const json_t *hist)
{
    double log2[PC_GROUP_BUCKETS];
    size_t n = report_nums(hist, "log2", log2, PC_GROUP_BUCKETS);
    for (size_t b = 0; b < n; b++) {
        double v = isnan(log2[b]) ? 0 : log2[b];
        if (v == 0)
            continue;
        if (!s->reuse && !(s->reuse = calloc(1, sizeof *s->reuse)))
            return -1;
        (*s->reuse)[scope][b] = 0.0 + v;
    }
    s->cold[scope] = report_count(hist, "cold");
    s->accesses[scope] = report_count(hist, "requests");
    return 0;
}

int pc_seen_read(pc_groups *g, const json_t *pc, pc_seen *s)
{
    memset(s, 0, sizeof *s);
    int failed = read_place(&s->place, pc) != 0;
    s->executions = report_count(pc, "executions");
    s->requests = report_count(pc, "requests");
    s->launch = (pc_launch){.executions = report_num(pc, "executions"),
                            .requests = report_num(pc, "requests"),
                            .l1_hit_rate = report_num(pc, "replay.hit_rate")};
    s->u_line = report_num(pc, "utilization.line");
    s->have_replay = json_is_object(report_at(pc, "replay"));
    if (s->have_replay) {
        s->l1_hits = report_count(pc, "replay.l1_hits");
        s->l1_misses = report_count(pc, "replay.l1_misses");
    }
    s->bypass_share = report_num(pc, "bypass.share");
    json_t *recommend = report_at(pc, "bypass.recommend");
    s->recommend = json_is_boolean(recommend) ? json_is_true(recommend) : -1;
    failed |= read_reuse(s, PC_SCOPE_PER_SM, report_at(pc, "reuse.per_sm")) != 0 ||
              read_reuse(s, PC_SCOPE_GLOBAL, report_at(pc, "reuse.global")) != 0;
    s->class_name = word_of(g, report_str(pc, "locality.class"), &failed);
    const json_t *m = report_at(pc, "memory");
    s->memory_kind = word_of(g, report_str(m, "kind"), &failed);
    s->memory_instructions = report_num(m, "instructions");
    s->memory_requests = report_num(m, "requests");
    s->memory_sectors = report_num(m, "sectors");
    s->memory_ideal = report_num(m, "ideal_sectors");
    s->memory_excess = report_num(m, "excess_sectors");
    if (failed) {
        pc_seen_free(s);
        return -1;
    }
    return 0;
}

static void place_free(pc_place *p)
{
    free(p->sass);
    free(p->file);
    p->sass = p->file = NULL;
}

void pc_seen_free(pc_seen *s)
{
    place_free(&s->place);
    free(s->reuse);
    s->reuse = NULL;
}

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

static void add_reuse(pc_group *g, pc_seen *s)
{
    for (int scope = 0; scope < PC_SCOPES; scope++) {
        g->cold[scope] += s->cold[scope];
        g->accesses[scope] += s->accesses[scope];
    }
    if (!s->reuse)
        return;
    if (!g->reuse) { /* the first buckets: 0 + v is v, as read */
        g->reuse = s->reuse;
        s->reuse = NULL;
        return;
    }
    for (int scope = 0; scope < PC_SCOPES; scope++)
        for (unsigned b = 0; b < PC_GROUP_BUCKETS; b++)
            (*g->reuse)[scope][b] += (*s->reuse)[scope][b];
}

/* Sums one launch's PC into its group; -1 when out of memory. */
static int add_launch(pc_group *g, size_t kernel, pc_seen *s)
{
    if (g->launches < PC_GROUP_LAUNCHES_KEPT) {
        if (!g->launch_capacity) /* most PCs of a hostile report run in one launch */
            g->launch_capacity = (g->launch_list = malloc(sizeof *g->launch_list)) ? 1 : 0;
        if (ws_grow((void **)&g->launch_list, &g->launch_capacity, g->launches + 1,
                    sizeof *g->launch_list) != 0)
            return -1;
        g->launch_list[g->launches] = s->launch;
        g->launch_list[g->launches].kernel = kernel;
    }
    g->launches++;
    g->executions += s->executions;
    g->requests += s->requests;
    if (!isnan(s->u_line)) {
        g->u_line_sum += s->u_line * s->requests;
        g->u_line_weight += s->requests;
    }
    if (s->have_replay) {
        g->have_replay = 1;
        g->l1_hits += s->l1_hits;
        g->l1_misses += s->l1_misses;
    }
    if (!isnan(s->bypass_share)) {
        g->bypass_share_sum += s->bypass_share * s->requests;
        g->bypass_weight += s->requests;
    }
    if (s->recommend >= 0) {
        g->bypass_seen++;
        g->bypass_yes += (unsigned)s->recommend;
    }
    add_reuse(g, s);
    add_class(g, s->class_name, s->executions);
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
    b->names[b->name_count] = (struct pc_group_name){copy, NO_GROUP, NO_GROUP};
    return &b->names[b->name_count++];
}

/* The key of (name, offset) in by_place: the name's index and the
 * offset's bits (0 and -0 alike, as they compare equal). */
static uint64_t place_key(size_t name, double offset)
{
    uint64_t bits = 0;
    if (offset != 0)
        memcpy(&bits, &offset, sizeof bits);
    return bits ^ ((uint64_t)name * 0x9e3779b97f4a7c15ULL);
}

/* The group of (name, offset) whose first launch is s, found or created
 * at the end of the name's chain (taking s's place).  A NaN offset equals
 * none, so such a PC is a group of its own each launch. */
static pc_group *group_of(pc_groups *b, const char *name, pc_seen *s)
{
    struct pc_group_name *e = name_of(b, name);
    if (!e)
        return NULL;
    size_t name_index = (size_t)(e - b->names);
    double offset = s->place.offset;
    uint64_t key = place_key(name_index, offset);
    uint32_t *at = isnan(offset) || !b->by_place.slots ? NULL : u64map_find(&b->by_place, key);
    if (at && b->items[*at].kernel == e->name && b->items[*at].place.offset == offset)
        return &b->items[*at];
    for (size_t i = at ? e->first : NO_GROUP; i != NO_GROUP; i = b->next[i])
        if (b->items[i].place.offset == offset) /* another place had the key first */
            return &b->items[i];
    size_t index = b->count;
    if (index >= UINT32_MAX ||
        ws_grow((void **)&b->items, &b->capacity, index + 1, sizeof *b->items) != 0 ||
        ws_grow((void **)&b->next, &b->next_capacity, index + 1, sizeof *b->next) != 0)
        return NULL;
    if (!isnan(offset) && !at) {
        int inserted;
        if ((!b->by_place.slots && u64map_init(&b->by_place, 64) != 0) ||
            !u64map_upsert(&b->by_place, key, (uint32_t)index, &inserted))
            return NULL;
    }
    *(e->last == NO_GROUP ? &e->first : &b->next[e->last]) = index;
    e->last = index;
    b->next[index] = NO_GROUP;
    pc_group *g = &b->items[b->count++];
    memset(g, 0, sizeof *g);
    g->kernel = e->name;
    g->place = s->place;
    memset(&s->place, 0, sizeof s->place); /* the group holds its strings now */
    return g;
}

int pc_groups_add(pc_groups *g, size_t kernel, const char *name, pc_seen *seen)
{
    pc_group *group = group_of(g, name ? name : "?", seen);
    return group && add_launch(group, kernel, seen) == 0 ? 0 : -1;
}

void pc_groups_free(pc_groups *g)
{
    for (size_t i = 0; i < g->count; i++) {
        free(g->items[i].launch_list);
        free(g->items[i].reuse);
        place_free(&g->items[i].place);
    }
    for (size_t i = 0; i < g->name_count; i++)
        free(g->names[i].name);
    for (size_t i = 0; i < g->word_count; i++)
        free(g->words[i]);
    free(g->words);
    free(g->names);
    free(g->next);
    free(g->items);
    u64map_destroy(&g->by_place);
    memset(g, 0, sizeof *g);
}

double pc_group_reuse(const pc_group *g, int scope, unsigned bucket)
{
    if (bucket == PC_GROUP_BUCKETS)
        return g->cold[scope];
    return g->reuse ? (*g->reuse)[scope][bucket] : 0;
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

double pc_group_traffic_change(const pc_group *g) { return g->place.traffic_change; }

void pc_group_label(const pc_group *g, char *dst, size_t size, size_t width)
{
    if (g->place.offset_known) {
        pc_label(dst, size, g->kernel, g->place.offset_value, width);
        return;
    }
    char name[512];
    kernel_label(name, sizeof name, g->kernel, width > 8 ? width - 4 : width);
    snprintf(dst, size, "%s+0x?", name);
}

void pc_group_source(const pc_group *g, char *dst, size_t size)
{
    double line = g->place.line;
    source_label(dst, size, g->place.file, isnan(line) || line < 0 ? 0 : (uint32_t)line);
}
