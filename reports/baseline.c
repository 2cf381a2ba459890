/* reports/baseline.c: see baseline.h. */
#include "reports/baseline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/report_doc.h"
#include "util/grow.h"

/* The whole run's figures: the key figures of reports/report_keys.c that
 * are numbers, and the replay's traffic. */
static const struct {
    const char *label, *path;
    numfmt_kind kind;
} run_figures[] = {
    {"kernel launches", "trace.kernels", NUMFMT_COUNT},
    {"counted loads", "summary.instructions.counted", NUMFMT_COUNT},
    {"line requests", "summary.instructions.requests", NUMFMT_COUNT},
    {"U (line)", "summary.utilization.line", NUMFMT_PERCENT},
    {"U (sector)", "summary.utilization.sector", NUMFMT_PERCENT},
    {"coherent loads", "summary.coherent_loads", NUMFMT_COUNT},
    {"divergent loads", "summary.divergent_loads", NUMFMT_COUNT},
    {"L1 LRU hit rate", "summary.l1_lru.hit_rate", NUMFMT_PERCENT},
    {"blocks shared by SMs", "summary.sharing.shared_fraction", NUMFMT_PERCENT},
    {"CTA pairs at distance < 5", "summary.sharing.neighbour_pair_share", NUMFMT_PERCENT},
    {"replay L1 hit rate", "summary.replay.l1.hit_rate", NUMFMT_PERCENT},
    {"replay L2 hit rate", "summary.replay.l2.hit_rate", NUMFMT_PERCENT},
    {"L1 to L2 traffic", "summary.replay.traffic.l1_to_l2_bytes", NUMFMT_BYTES},
    {"DRAM read traffic", "summary.replay.traffic.l2_to_dram_read_bytes", NUMFMT_BYTES},
    {"DRAM write traffic", "summary.replay.traffic.dram_write_bytes", NUMFMT_BYTES},
    {"replay L1 requests", "summary.replay.l1.requests", NUMFMT_COUNT},
    {"replay L2 requests", "summary.replay.l2.requests", NUMFMT_COUNT},
    {"load sectors", "summary.memory.loads.l1.sectors", NUMFMT_COUNT},
    {"excess load sectors", "summary.memory.loads.l1.excess_sectors", NUMFMT_COUNT},
    {"\xce\xbcRC (inter-SM reuse)", "summary.replay.urc", NUMFMT_PERCENT},
    {"MPLI mean", "summary.replay.mpli.mean", NUMFMT_PLAIN},
};
_Static_assert(sizeof run_figures / sizeof run_figures[0] <= BASELINE_FIGURES, "room");

/* One kernel name's launches summed. */
typedef struct name_sums {
    char *name;
    double launches, requests, counted, l1_requests, l1_hits, l2_requests, l2_hits, l1_to_l2;
} name_sums;

typedef struct name_list {
    name_sums *items;
    size_t count, capacity;
} name_list;

static const char *kernel_name(const json_t *kernel)
{
    const char *name = report_str(kernel, "name");
    return name ? name : "?";
}

static name_sums *find(name_list *l, const char *name)
{
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->items[i].name, name) == 0)
            return &l->items[i];
    return NULL;
}

/* Adds one kernel entry to its name's sums (report_kernels_each: the
 * entry may be freed after, so the name is copied). */
static int sum_kernel(void *ctx, size_t index, json_t *k, ws_error *err)
{
    (void)index;
    name_list *l = ctx;
    const char *name = kernel_name(k);
    name_sums *s = find(l, name);
    if (!s) {
        char *copy = strdup(name);
        if (!copy ||
            ws_grow((void **)&l->items, &l->capacity, l->count + 1, sizeof *l->items) != 0) {
            free(copy);
            return ws_fail(err, "out of memory");
        }
        s = &l->items[l->count++];
        *s = (name_sums){.name = copy};
    }
    s->launches++;
    s->requests += report_count(k, "metrics.instructions.requests");
    s->counted += report_count(k, "metrics.instructions.counted");
    s->l1_requests += report_count(k, "metrics.replay.l1.requests");
    s->l1_hits += report_count(k, "metrics.replay.l1.hits");
    s->l2_requests += report_count(k, "metrics.replay.l2.requests");
    s->l2_hits += report_count(k, "metrics.replay.l2.hits");
    s->l1_to_l2 += report_count(k, "metrics.replay.traffic.l1_to_l2_bytes");
    return 0;
}


static double ratio(double num, double den) { return den > 0 ? num / den : NAN; }

static void kernel_figures(baseline_kernel *k, const name_sums *now, const name_sums *then)
{
    baseline_figure *f = k->figures;
    f[0] = (baseline_figure){"launches", NUMFMT_COUNT, now->launches, then->launches};
    f[1] = (baseline_figure){"counted loads", NUMFMT_COUNT, now->counted, then->counted};
    f[2] = (baseline_figure){"line requests", NUMFMT_COUNT, now->requests, then->requests};
    f[3] = (baseline_figure){"replay L1 hit rate", NUMFMT_PERCENT,
                             ratio(now->l1_hits, now->l1_requests),
                             ratio(then->l1_hits, then->l1_requests)};
    f[4] = (baseline_figure){"replay L2 hit rate", NUMFMT_PERCENT,
                             ratio(now->l2_hits, now->l2_requests),
                             ratio(then->l2_hits, then->l2_requests)};
    f[5] = (baseline_figure){"L1 to L2 traffic", NUMFMT_BYTES, now->l1_to_l2, then->l1_to_l2};
}

static int add_name(char ***names, size_t *count, const char *name)
{
    char **grown = realloc(*names, (*count + 1) * sizeof *grown);
    if (!grown)
        return -1;
    *names = grown;
    return (grown[*count] = strdup(name)) ? (int)(++*count, 0) : -1;
}

static int match(baseline *b, const name_list *now, name_list *then)
{
    for (size_t i = 0; i < now->count; i++) {
        const name_sums *n = &now->items[i];
        const name_sums *t = find(then, n->name);
        if (!t) {
            if (add_name(&b->only_now, &b->only_now_count, n->name) != 0)
                return -1;
            continue;
        }
        baseline_kernel *grown = realloc(b->kernels, (b->kernel_count + 1) * sizeof *grown);
        if (!grown)
            return -1;
        b->kernels = grown;
        baseline_kernel *k = &b->kernels[b->kernel_count];
        if (!(k->name = strdup(n->name)))
            return -1;
        b->kernel_count++;
        kernel_figures(k, n, t);
    }
    for (size_t i = 0; i < then->count; i++)
        if (!find((name_list *)now, then->items[i].name) &&
            add_name(&b->only_then, &b->only_then_count, then->items[i].name) != 0)
            return -1;
    return 0;
}

/* The policies of profile's comparison that both reports have. */
static int match_policies(baseline *b, const json_t *now, const json_t *then)
{
    size_t i;
    json_t *p;
    json_array_foreach(report_at(now, "compare.policies"), i, p) {
        const char *name = report_str(p, "name");
        const json_t *old = NULL, *q;
        size_t j;
        json_array_foreach(report_at(then, "compare.policies"), j, q)
            if (name && report_str(q, "name") && strcmp(name, report_str(q, "name")) == 0)
                old = q;
        if (!old)
            continue;
        baseline_policy *grown = realloc(b->policies, (b->policy_count + 1) * sizeof *grown);
        if (!grown)
            return -1;
        b->policies = grown;
        baseline_policy *bp = &b->policies[b->policy_count];
        if (!(bp->name = strdup(name)))
            return -1;
        b->policy_count++;
        static const struct {
            const char *label, *path;
            numfmt_kind kind;
        } figures[BASELINE_POLICY_FIGURES] = {
            {"L1 hit rate", "l1.hit_rate", NUMFMT_PERCENT},
            {"L2 hit rate", "l2.hit_rate", NUMFMT_PERCENT},
            {"L1 to L2 traffic", "traffic.l1_to_l2_bytes", NUMFMT_BYTES},
            {"DRAM read traffic", "traffic.l2_to_dram_read_bytes", NUMFMT_BYTES},
        };
        for (size_t f = 0; f < BASELINE_POLICY_FIGURES; f++)
            bp->figures[f] = (baseline_figure){figures[f].label, figures[f].kind,
                                               report_num(p, figures[f].path),
                                               report_num(old, figures[f].path)};
    }
    return 0;
}

static void free_names(name_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i].name);
    free(l->items);
}

int baseline_build(baseline *b, const json_t *now, kernel_spool *now_kernels, const json_t *then,
                   ws_error *err)
{
    memset(b, 0, sizeof *b);
    for (size_t i = 0; i < sizeof run_figures / sizeof run_figures[0]; i++)
        b->figures[b->figure_count++] =
            (baseline_figure){run_figures[i].label, run_figures[i].kind,
                              report_num(now, run_figures[i].path),
                              report_num(then, run_figures[i].path)};
    name_list n = {0}, t = {0};
    /* no PC is summed: a kernel's are read past one at a time (issue 42) */
    int rc = report_kernels_each_streamed(now, now_kernels, "pcs", NULL, sum_kernel, &n, err);
    if (rc == 0 && report_kernels_each(then, NULL, sum_kernel, &t, err) != 0)
        rc = -1;
    if (rc == 0 && (match(b, &n, &t) != 0 || match_policies(b, now, then) != 0))
        rc = ws_fail(err, "out of memory");
    free_names(&n);
    free_names(&t);
    if (rc != 0)
        baseline_free(b);
    return rc;
}

void baseline_free(baseline *b)
{
    for (size_t i = 0; i < b->kernel_count; i++)
        free(b->kernels[i].name);
    for (size_t i = 0; i < b->only_now_count; i++)
        free(b->only_now[i]);
    for (size_t i = 0; i < b->only_then_count; i++)
        free(b->only_then[i]);
    for (size_t i = 0; i < b->policy_count; i++)
        free(b->policies[i].name);
    free(b->policies);
    free(b->kernels);
    free(b->only_now);
    free(b->only_then);
    memset(b, 0, sizeof *b);
}

numtext baseline_change(const baseline_figure *f)
{
    numtext t;
    double d = f->now - f->then;
    if (isnan(d)) {
        snprintf(t.s, sizeof t.s, "n/a");
        return t;
    }
    int zero = f->kind == NUMFMT_PERCENT ? fabs(d) < 0.0005 : d == 0;
    const char *sign = zero ? "" : d > 0 ? "+" : "-";
    double size = fabs(d);
    if (f->kind == NUMFMT_PERCENT)
        snprintf(t.s, sizeof t.s, "%s%.1f pp", sign, size * 100);
    else
        snprintf(t.s, sizeof t.s, "%s%.30s", sign, numfmt(f->kind, size).s);
    return t;
}

numtext baseline_relative(const baseline_figure *f)
{
    numtext t;
    double r = (f->now - f->then) / f->then;
    if (isnan(r) || isinf(r) || f->then == 0)
        snprintf(t.s, sizeof t.s, "n/a");
    else
        snprintf(t.s, sizeof t.s, "%+.1f%%", r * 100);
    return t;
}
