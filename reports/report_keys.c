/* reports/report_keys.c: see report_keys.h. */
#include "reports/report_keys.h"

#include <math.h>
#include <stdio.h>

#include "reports/numfmt.h"
#include "reports/report_doc.h"

typedef struct keys {
    report_key *items;
    size_t count;
} keys;

static report_key *add(keys *k, const char *label, int context)
{
    report_key *key = &k->items[k->count++];
    key->label = label;
    key->context = context;
    key->value[0] = '\0';
    return key;
}

static void add_figure(keys *k, const char *label, const json_t *doc, const char *path,
                       numfmt_kind kind)
{
    snprintf(add(k, label, 0)->value, sizeof k->items[0].value, "%s", numfmt(kind, report_num(doc, path)).s);
}

/* The trace's launches (the kernels array is empty in a document whose
 * entries are spooled: reports/kernel_spool.h). */
static double launches(const json_t *doc)
{
    double n = report_num(doc, "trace.kernels");
    return isnan(n) ? (double)json_array_size(report_at(doc, "kernels")) : n;
}

size_t report_keys(const json_t *doc, report_key *out)
{
    keys k = {out, 0};
    const char *workload = report_str(doc, "trace.workload");
    snprintf(add(&k, "trace", 1)->value, sizeof out->value, "%s%s%s%s",
             report_str(doc, "trace.path") ? report_str(doc, "trace.path") : "?",
             workload ? " (workload " : "", workload ? workload : "", workload ? ")" : "");
    double sms = report_num(doc, "gpu.sms");
    snprintf(add(&k, "GPU", 1)->value, sizeof out->value, "%s: %s SMs, L1 %s, L2 %s",
             report_str(doc, "gpu.name") ? report_str(doc, "gpu.name") : "?", numfmt_count(sms).s,
             numfmt_bytes(report_num(doc, "gpu.l1.size")).s,
             numfmt_bytes(report_num(doc, "gpu.l2.size")).s);
    if (report_str(doc, "gpu_note")) /* a paper's preset (report_json_set_gpu) */
        snprintf(add(&k, "note", 1)->value, sizeof out->value, "%s", report_str(doc, "gpu_note"));
    const char *filter = report_str(doc, "trace.kernel_filter");
    if (filter) /* the analysis read some launches only (docs/kernel-filters.md) */
        snprintf(add(&k, "kernel filter", 1)->value, sizeof out->value, "%s (%s of the file's %s launches)",
                 filter, numfmt_count(launches(doc)).s,
                 numfmt_count(report_num(doc, "trace.kernels_in_file")).s);
    snprintf(add(&k, "schedule", 1)->value, sizeof out->value, "%s",
             report_str(doc, "options.schedule") ? report_str(doc, "options.schedule") : "?");
    snprintf(add(&k, "kernel launches", 0)->value, sizeof out->value, "%s",
             numfmt_count(launches(doc)).s);
    add_figure(&k, "counted loads", doc, "summary.instructions.counted", NUMFMT_COUNT);
    add_figure(&k, "line requests", doc, "summary.instructions.requests", NUMFMT_COUNT);
    add_figure(&k, "U (line)", doc, "summary.utilization.line", NUMFMT_PERCENT);
    add_figure(&k, "U (sector)", doc, "summary.utilization.sector", NUMFMT_PERCENT);
    add_figure(&k, "L1 LRU hit rate", doc, "summary.l1_lru.hit_rate", NUMFMT_PERCENT);
    add_figure(&k, "sharing block", doc, "summary.sharing.block_bytes", NUMFMT_BYTES);
    add_figure(&k, "blocks shared by SMs", doc, "summary.sharing.shared_fraction", NUMFMT_PERCENT);
    add_figure(&k, "CTA pairs at distance < 5", doc, "summary.sharing.neighbour_pair_share",
               NUMFMT_PERCENT);
    if (json_is_object(report_at(doc, "summary.replay"))) {
        add_figure(&k, "replay L1 hit rate", doc, "summary.replay.l1.hit_rate", NUMFMT_PERCENT);
        add_figure(&k, "replay L2 hit rate", doc, "summary.replay.l2.hit_rate", NUMFMT_PERCENT);
        add_figure(&k, "L1 to L2 traffic", doc, "summary.replay.traffic.l1_to_l2_bytes", NUMFMT_BYTES);
        add_figure(&k, "\xce\xbcRC (inter-SM reuse)", doc, "summary.replay.urc", NUMFMT_PERCENT);
    }
    return k.count;
}
