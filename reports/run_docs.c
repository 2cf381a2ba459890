/* reports/run_docs.c: see run_docs.h.  Loading and the terminal tables;
 * the pages are in html_run_docs.c. */
#include "reports/run_docs.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "reports/numfmt.h"
#include "reports/pc_label.h"
#include "reports/report_doc.h"
#include "reports/text_columns.h"
#include "util/inputs.h"
#include "util/json_stream.h"

static const char *const schemas[] = {REPORT_SCHEMA, "warpscope-replay", "warpscope-compare",
                                      "warpscope-sweep"};

const char *run_doc_schema(run_doc_kind kind) { return schemas[kind]; }

/* What each document must hold for the drawing: an array or object. */
static int check_shape(const json_t *doc, run_doc_kind kind, ws_error *err)
{
    if (kind == RUN_DOC_REPORT)
        return report_doc_check(doc, err); /* its own words for each problem */
    json_t *version = report_at(doc, "version");
    if (!json_is_integer(version) || json_integer_value(version) < REPORT_VERSION_OLDEST_READ ||
        json_integer_value(version) > REPORT_VERSION)
        return ws_fail(err, "%s: version is not one this warpscope reads (%d to %d)",
                       schemas[kind], REPORT_VERSION_OLDEST_READ, REPORT_VERSION);
    switch (kind) {
    case RUN_DOC_REPORT:
        return 0;
    case RUN_DOC_REPLAY:
        if (!json_is_object(report_at(doc, "summary")) || !json_is_array(report_at(doc, "kernels")))
            return ws_fail(err, "warpscope-replay: no \"summary\" object or \"kernels\" array");
        return 0;
    case RUN_DOC_COMPARE:
        if (json_array_size(report_at(doc, "policies")) == 0)
            return ws_fail(err, "warpscope-compare: no \"policies\"");
        return 0;
    case RUN_DOC_SWEEP:
        if (!json_is_array(report_at(doc, "points")))
            return ws_fail(err, "warpscope-sweep: no \"points\" array");
        return 0;
    }
    return 0;
}

static int spool_kernel(void *ctx, size_t index, json_t *kernel, ws_error *err)
{
    (void)index;
    return kernel_spool_add_held(ctx, kernel, "pcs", err);
}

static int hold_pc(void *ctx, size_t index, json_t *pc, ws_error *err)
{
    (void)index;
    return kernel_spool_hold_element(ctx, pc, err);
}

/* The document with its "kernels" read one at a time into a spool, and
 * each kernel's "pcs" one at a time (held until the rest of the kernel is
 * read), so neither a report of many kernels nor a kernel of many PCs is
 * ever whole in memory (issue 42). */
static json_t *load_spooled(FILE *f, kernel_spool *spool, ws_error *err)
{
    static const json_stream_limits limits = {0, 0};
    return json_stream_load_nested(json_stream_read_file, f, "kernels", spool_kernel, spool,
                                   "pcs", hold_pc, &limits, err);
}

json_t *run_doc_load(const char *path, run_doc_kind *kind, kernel_spool **kernels, ws_error *err)
{
    *kernels = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        ws_fail(err, "cannot open: %s", strerror(errno));
        return NULL;
    }
    ws_inputs_add(path);
    kernel_spool *spool = kernel_spool_new(SPOOL_ENTRIES, err);
    json_t *doc = spool ? load_spooled(f, spool, err) : NULL;
    fclose(f);
    if (!doc) {
        kernel_spool_free(spool);
        return NULL;
    }
    const char *schema = report_str(doc, "schema");
    int k = 0;
    while (schema && k < 4 && strcmp(schema, schemas[k]) != 0)
        k++;
    int rc;
    if (!schema || k == 4) {
        rc = ws_fail(err, "not a warpscope report (\"schema\" is not \"warpscope-report\") nor "
                          "a replay, compare or sweep document");
    } else {
        *kind = (run_doc_kind)k;
        /* only the analysis report is drawn from a spool: the others get
         * their kernels back */
        rc = *kind != RUN_DOC_REPORT && json_is_array(json_object_get(doc, "kernels")) &&
                     kernel_spool_attach(doc, spool, err) != 0
                 ? -1
                 : check_shape(doc, *kind, err);
    }
    if (rc == 0 && *kind == RUN_DOC_REPORT) {
        *kernels = spool;
        return doc;
    }
    kernel_spool_free(spool);
    if (rc == 0)
        return doc;
    json_decref(doc);
    return NULL;
}

static void context(FILE *out, const json_t *doc)
{
    const char *trace = report_str(doc, "trace.path"), *gpu = report_str(doc, "gpu.name");
    const char *schedule = report_str(doc, "schedule");
    fprintf(out, "trace     %s\ngpu       %s\nschedule  %s\n", trace ? trace : "?", gpu ? gpu : "?",
            schedule ? schedule : "?");
    if (report_str(doc, "trace.kernel_filter"))
        fprintf(out, "kernels   %s\n", report_str(doc, "trace.kernel_filter"));
}

/* The columns of one REPLAY: the figures compare and replay print alike. */
static const struct {
    const char *head, *path;
    numfmt_kind kind;
    int width;
} replay_columns[] = {
    {"L1 requests", "l1.requests", NUMFMT_COUNT, 12},
    {"L1 hit", "l1.hit_rate", NUMFMT_PERCENT, 8},
    {"L2 hit", "l2.hit_rate", NUMFMT_PERCENT, 8},
    {"L1->L2", "traffic.l1_to_l2_bytes", NUMFMT_BYTES, 11},
    {"DRAM read", "traffic.l2_to_dram_read_bytes", NUMFMT_BYTES, 11},
    {"MPLI", "mpli.mean", NUMFMT_PLAIN, 6},
};
#define REPLAY_COLUMNS (sizeof replay_columns / sizeof replay_columns[0])

static void replay_head(FILE *out, const char *first, int width)
{
    text_column(out, first, width);
    for (size_t c = 0; c < REPLAY_COLUMNS; c++)
        text_column(out, replay_columns[c].head, replay_columns[c].width);
    fputc('\n', out);
}

static void replay_row(FILE *out, const char *first, int width, const json_t *r)
{
    text_column(out, first, width);
    for (size_t c = 0; c < REPLAY_COLUMNS; c++)
        text_column(out, numfmt(replay_columns[c].kind, report_num(r, replay_columns[c].path)).s,
                    replay_columns[c].width);
    fputc('\n', out);
}

#define PRINTED_KERNELS 50

static void print_replay(FILE *out, const json_t *doc)
{
    fprintf(out, "policies  L1 %s, L2 %s\n\n", report_str(doc, "summary.l1_policy") ?: "?",
            report_str(doc, "summary.l2_policy") ?: "?");
    replay_head(out, "", 28);
    replay_row(out, "whole trace", 28, report_at(doc, "summary"));
    const json_t *kernels = report_at(doc, "kernels");
    size_t n = json_array_size(kernels);
    if (n == 0)
        return;
    fputs("\nper launch:\n", out);
    replay_head(out, "kernel", 28);
    for (size_t i = 0; i < n && i < PRINTED_KERNELS; i++) {
        const json_t *k = json_array_get(kernels, i);
        char label[40], row[72];
        kernel_label(label, sizeof label, report_str(k, "name"), 22);
        snprintf(row, sizeof row, "%g %s", report_num(k, "index"), label);
        replay_row(out, row, 28, k);
    }
    if (n > PRINTED_KERNELS)
        fprintf(out, "and %zu more launches (warpscope report --html draws them all)\n",
                n - PRINTED_KERNELS);
}

static void print_compare(FILE *out, const json_t *doc)
{
    const json_t *policies = report_at(doc, "policies");
    double base = report_num(json_array_get(policies, 0), "traffic.l1_to_l2_bytes");
    fputc('\n', out);
    text_column(out, "policy", 24);
    for (size_t c = 0; c < REPLAY_COLUMNS; c++)
        text_column(out, replay_columns[c].head, replay_columns[c].width);
    fputs("L1->L2 vs first\n", out);
    size_t i;
    const json_t *p;
    json_array_foreach(policies, i, p) {
        const char *name = report_str(p, "name");
        text_column(out, name ? name : "?", 24);
        for (size_t c = 0; c < REPLAY_COLUMNS; c++)
            text_column(out, numfmt(replay_columns[c].kind, report_num(p, replay_columns[c].path)).s,
                        replay_columns[c].width);
        double bytes = report_num(p, "traffic.l1_to_l2_bytes");
        fprintf(out, "%s\n", numfmt(NUMFMT_TIMES, base > 0 ? bytes / base : NAN).s);
    }
}

static void sweep_point(FILE *out, const char *label, const json_t *pt)
{
    text_column(out, label, 20);
    char np[32];
    snprintf(np, sizeof np, "(%g, %g)", report_num(pt, "n"), report_num(pt, "p"));
    text_column(out, np, 10);
    text_column(out, numfmt_percent(report_num(pt, "l1_hit_rate")).s, 9);
    text_column(out, numfmt_bytes(report_num(pt, "l1_to_l2_bytes")).s, 11);
    fprintf(out, "%s\n", numfmt_bytes(report_num(pt, "dram_read_bytes")).s);
}

static void print_sweep(FILE *out, const json_t *doc)
{
    fprintf(out, "grid      N, p = 1 .. %g (%zu points)\n\n", report_num(doc, "n_max"),
            json_array_size(report_at(doc, "points")));
    text_column(out, "", 20);
    text_column(out, "(N, p)", 10);
    text_column(out, "L1 hit", 9);
    text_column(out, "L1->L2", 11);
    fputs("DRAM read\n", out);
    sweep_point(out, "baseline", report_at(doc, "baseline"));
    sweep_point(out, "best hit rate", report_at(doc, "best.hit_rate"));
    sweep_point(out, "best traffic", report_at(doc, "best.traffic"));
    if (json_is_object(report_at(doc, "poise.predicted")))
        sweep_point(out, "Poise predicted", report_at(doc, "poise.predicted"));
}

void run_doc_print(FILE *out, const json_t *doc, run_doc_kind kind)
{
    fprintf(out, "%s\n", schemas[kind]);
    context(out, doc);
    if (kind == RUN_DOC_REPLAY)
        print_replay(out, doc);
    else if (kind == RUN_DOC_COMPARE)
        print_compare(out, doc);
    else if (kind == RUN_DOC_SWEEP)
        print_sweep(out, doc);
}
