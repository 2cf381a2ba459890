/* cli/cmd_dump.c: `warpscope dump FILE`: the records, one per line. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/analysis.h"
#include "cli/cli.h"
#include "cli/trace_filter.h"
#include "formats/wst.h"
#include "analyzer/replay.h"
#include "reports/csv_keys.h"

static const char usage[] =
    "usage: warpscope dump FILE.wst [--kernel N] [--cta N] [--csv]\n"
    "       warpscope dump FILE.wst --order scheduled [--gpu NAME] [--schedule S]\n"
    "                      [--half-warp] [--timed] [--csv]\n\n"
    "Prints every record, one per line, in the order the trace stores them\n"
    "(kernel by kernel, CTA by CTA, each CTA's records in recorded order):\n"
    "kernel, CTA, warp, PC index and offset, SASS, kind, space, cache operator,\n"
    "bytes per lane, active mask, SM and timestamp when recorded, the\n"
    "timing of docs/metrics.md §12 when the collector supplied it (gap: the\n"
    "warp's non-memory instructions before the record; waits: bit i = the\n"
    "warp's (i+1)-th most recent earlier load, whose data the record uses),\n"
    "then lane:address for every active lane.\n\n"
    "  --kernel N   only kernel N (launch order, from 0)\n"
    "  --cta N      only CTA N (linear id)\n"
    "  --csv        CSV with a header row, keyed as the report tables; the\n"
    "               addresses in one field (docs/report-schema.md)\n"
    "  --order scheduled\n"
    "               the exact order `analyze` consumes the records in, with the\n"
    "               SM, warp slot and per-SM step of each; it takes every option\n"
    "               that shapes that order, as analyze does: --gpu, the\n"
    "               overrides --sms, --l1, --l2, --set FIELD=VALUE, --schedule\n"
    "               and --half-warp (GTO's misses depend on the coalescing), so\n"
    "               any figure can be recomputed from the dump\n"
    "  --timed      with --order scheduled: the order of the timed replay of the\n"
    "               config's policies (docs/replay.md, \"Timed replay\"), each\n"
    "               record with the cycle it issued at instead of the step\n\n"
    "examples:\n"
    "  warpscope dump gaussian.wst --kernel 0 --cta 3\n"
    "  warpscope dump gaussian.wst --csv > records.csv\n";

/* The keys of the report tables (reports/csv_keys.h), then the record. */
static const char *const csv_header[] = {
    CSV_KERNEL_COLUMNS, "cta",  "warp", "pc_index", "pc_offset", "sass", "kind", "space",
    "cache_op",         "lane_bytes", "mask", "sm", "timestamp", "addresses"};
#define CSV_COLUMNS (sizeof csv_header / sizeof csv_header[0])
/* Before the addresses, in a trace whose collector supplied timing. */
#define CSV_TIMING_COLUMNS 2

/* Does any kernel of t carry timing (docs/metrics.md §12)?  Then the CSV
 * has its columns; a trace without keeps the columns it always had. */
static int trace_timed(const wst_trace *t)
{
    for (uint32_t k = 0; k < t->kernel_count; k++)
        if (t->kernels[k].has_timing)
            return 1;
    return 0;
}

/* csv_header, with the timing columns before the addresses when timed:
 * how many columns that is. */
static size_t csv_columns(int timed, const char **columns)
{
    memcpy(columns, csv_header, (CSV_COLUMNS - 1) * sizeof *columns);
    size_t n = CSV_COLUMNS - 1;
    if (timed) {
        columns[n++] = "gap";
        columns[n++] = "waits";
    }
    columns[n++] = "addresses";
    return n;
}

/* "lane:0xaddr lane:0xaddr ..." */
static void format_lanes(const wst_record *r, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (uint32_t bits = r->mask; bits && len < cap; bits &= bits - 1) {
        int lane = __builtin_ctz(bits);
        len += (size_t)snprintf(buf + len, cap - len, "%s%d:0x%" PRIx64, len ? " " : "", lane,
                                r->addr[lane]);
    }
}

static void print_text(uint32_t kernel, const wst_record *r, const wst_pc *pc)
{
    char lanes[32 * 24 + 1];
    format_lanes(r, lanes, sizeof lanes);
    printf("k%u cta %u warp %u pc %u@0x%" PRIx64 " %s %s %s %s %uB mask 0x%08x", kernel, r->cta,
           r->warp, r->pc, pc->offset, pc->sass ? pc->sass : "-", wst_kind_name(r->kind),
           wst_space_name(r->space),
           r->cache_op ? wst_cache_op_name(r->cache_op) : "-", r->size, r->mask);
    if (r->has_sm)
        printf(" sm %u", r->sm);
    if (r->has_time)
        printf(" t %" PRIu64, r->timestamp);
    if (r->gap)
        printf(" gap %" PRIu32, r->gap);
    if (r->has_waits)
        printf(" waits 0x%08" PRIx32, r->waits);
    printf(" | %s\n", lanes);
}

/* The waits column: hex bits, empty for a blocking load (no waits). */
static void print_csv(csv_table *t, const wst_trace *trace, uint32_t kernel, const wst_record *r,
                      int timed)
{
    const wst_pc *pc = &trace->kernels[kernel].pcs[r->pc];
    char lanes[32 * 24 + 1];
    format_lanes(r, lanes, sizeof lanes);
    csv_row_kernel(t, trace, kernel);
    csv_row_u64(t, r->cta);
    csv_row_u64(t, r->warp);
    csv_row_u64(t, r->pc);
    csv_row_pc_offset(t, pc->offset);
    csv_row_str(t, pc->sass);
    csv_row_str(t, wst_kind_name(r->kind));
    csv_row_str(t, wst_space_name(r->space));
    csv_row_str(t, wst_cache_op_name(r->cache_op));
    csv_row_u64(t, r->size);
    char mask[16];
    snprintf(mask, sizeof mask, "0x%08x", r->mask);
    csv_row_str(t, mask);
    if (r->has_sm)
        csv_row_u64(t, r->sm);
    else
        csv_row_str(t, NULL);
    if (r->has_time)
        csv_row_u64(t, r->timestamp);
    else
        csv_row_str(t, NULL);
    if (timed) {
        char waits[16];
        snprintf(waits, sizeof waits, "0x%08" PRIx32, r->waits);
        csv_row_u64(t, r->gap);
        csv_row_str(t, r->has_waits ? waits : NULL);
    }
    csv_row_str(t, lanes);
    csv_row_end(t);
}

enum { DUMP_MAX_OVERRIDES = 16 };

typedef struct dump_options {
    const char *path;
    long long kernel, cta; /* -1 = all */
    int csv;
    int scheduled;
    int timed; /* --timed: the timed replay's order (docs/metrics.md §12), its cycles */
    int half_warp;
    const char *gpu, *schedule;
    const char *overrides[DUMP_MAX_OVERRIDES][2];
    int override_count;
} dump_options;

static int parse(int argc, char **argv, dump_options *o)
{
    *o = (dump_options){.kernel = -1, .cta = -1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        unsigned long long v;
        if (strcmp(a, "--csv") == 0) {
            o->csv = 1;
        } else if (strcmp(a, "--half-warp") == 0) {
            o->half_warp = 1;
        } else if (strcmp(a, "--timed") == 0) {
            o->timed = 1;
        } else if (strcmp(a, "--order") == 0 || strcmp(a, "--gpu") == 0 ||
                   strcmp(a, "--schedule") == 0 || strcmp(a, "--sms") == 0 ||
                   strcmp(a, "--l1") == 0 || strcmp(a, "--l2") == 0 || strcmp(a, "--set") == 0) {
            if (i + 1 >= argc)
                return cli_error(NULL, "%s needs a value", a);
            const char *value = argv[++i];
            if (strcmp(a, "--order") == 0) {
                if (strcmp(value, "scheduled") && strcmp(value, "stored"))
                    return cli_error(NULL, "--order: 'stored' or 'scheduled', not '%s'", value);
                o->scheduled = strcmp(value, "scheduled") == 0;
            } else if (strcmp(a, "--gpu") == 0) {
                o->gpu = value;
            } else if (strcmp(a, "--schedule") == 0) {
                o->schedule = value;
            } else if (o->override_count < DUMP_MAX_OVERRIDES) {
                o->overrides[o->override_count][0] = a;
                o->overrides[o->override_count++][1] = value;
            } else {
                return cli_error(NULL, "dump: at most %d config overrides", DUMP_MAX_OVERRIDES);
            }
        } else if (strcmp(a, "--kernel") == 0 || strcmp(a, "--cta") == 0) {
            if (i + 1 >= argc)
                return cli_error(NULL, "%s needs a number", a);
            if (cli_parse_u64(a, argv[++i], &v) != 0)
                return 1;
            if (v > UINT32_MAX) /* traces number kernels and CTAs in 32 bits */
                return cli_error(NULL, "%s: %llu is more than any trace holds", a, v);
            *(a[2] == 'k' ? &o->kernel : &o->cta) = (long long)v;
        } else if (a[0] == '-') {
            return cli_error(NULL, "dump: unknown option '%s'; see 'warpscope dump --help'", a);
        } else if (o->path) {
            return cli_error(NULL, "dump takes one trace file");
        } else {
            o->path = a;
        }
    }
    return o->path ? 0 : cli_error(NULL, "dump needs a trace file; see 'warpscope dump --help'");
}

typedef struct scheduled_dump {
    const wst_trace *trace;
    const dump_options *options;
    csv_table *table;
    int timed; /* the CSV has the timing columns */
} scheduled_dump;

static void print_scheduled(void *ctx, const sched_event *e)
{
    scheduled_dump *d = ctx;
    const dump_options *o = d->options;
    if ((o->kernel >= 0 && e->kernel != (uint64_t)o->kernel) ||
        (o->cta >= 0 && e->cta != (uint64_t)o->cta))
        return;
    const wst_pc *pc = &d->trace->kernels[e->kernel].pcs[e->record->pc];
    if (d->table) {
        csv_row_u64(d->table, e->sm);
        csv_row_u64(d->table, e->warp_slot);
        csv_row_u64(d->table, e->step);
        print_csv(d->table, d->trace, e->kernel, e->record, d->timed);
    } else {
        printf("sm %u slot %u %s %llu  ", e->sm, e->warp_slot, o->timed ? "cycle" : "step",
               (unsigned long long)e->step);
        print_text(e->kernel, e->record, pc);
    }
}

/* Runs the analysis pass itself, so the order is the analyzer's by
 * construction. */
static int dump_scheduled(const dump_options *o, wst_reader *r)
{
    gpu_config config;
    analysis_options options;
    ws_error err;
    analysis_options_default(&options);
    /* Without --gpu, analyze's default (cli/default_gpu.h), so the order is
     * the one analyze consumes. */
    const char *origin = config_preset_for_gpu(wst_reader_trace(r)->origin.gpu);
    if (config_load(&config, o->gpu ? o->gpu : origin ? origin : CONFIG_DEFAULT_PRESET, &err) != 0)
        return cli_fail(NULL, &err);
    for (int i = 0; i < o->override_count; i++)
        if (config_override(&config, o->overrides[i][0], o->overrides[i][1], &err) < 0)
            return cli_fail(NULL, &err);
    if (o->schedule && sched_options_parse(o->schedule, &options.schedule, &err) != 0)
        return cli_fail(NULL, &err);
    options.half_warp = o->half_warp;
    const char *header[] = {"placed_sm", "warp_slot", o->timed ? "cycle" : "step"};
    const char *columns[3 + CSV_COLUMNS + CSV_TIMING_COLUMNS];
    memcpy(columns, header, sizeof header);
    int timed = trace_timed(wst_reader_trace(r));
    size_t n = 3 + csv_columns(timed, columns + 3);
    scheduled_dump d = {.trace = wst_reader_trace(r), .options = o, .timed = timed,
                        .table = o->csv ? csv_table_on_stream(stdout, columns, n) : NULL};
    int rc;
    if (o->timed) { /* the order a timed replay of the config's own policies makes */
        replay_options ro;
        replay_options_default(&ro);
        ro.schedule = options.schedule;
        ro.half_warp = o->half_warp;
        ro.observe_event = print_scheduled;
        ro.observe_event_ctx = &d;
        hierarchy_options ho = {.config = config, .seed = 1, .timed = 1,
                                .collect = COLLECT_NONE};
        sched_source src = sched_source_wst(r);
        hierarchy *h = NULL;
        rc = replay_run(&src, &config, &ro, &ho, 1, &h, NULL, &err) == 0 ? 0
                                                                          : cli_fail(o->path, &err);
        hierarchy_free(h);
    } else {
        options.observe = print_scheduled;
        options.observe_ctx = &d;
        analysis *a = analysis_run(r, &config, &options, NULL, &err);
        rc = a ? 0 : cli_fail(o->path, &err);
        analysis_free(a);
    }
    if (d.table && csv_table_commit(d.table, &err) != 0 && rc == 0)
        rc = cli_fail("stdout", &err);
    return rc;
}

static int run(int argc, char **argv)
{
    dump_options o;
    if (parse(argc, argv, &o) != 0)
        return 1;
    ws_error err;
    wst_reader *r = cli_open_trace(o.path, &err);
    if (!r)
        return cli_fail(o.path, &err);
    const wst_trace *t = wst_reader_trace(r);
    if (o.kernel >= (long long)t->kernel_count) {
        uint32_t kernels = t->kernel_count;
        wst_reader_close(r);
        return cli_error(o.path, "no kernel %lld (the trace has %u)", o.kernel, kernels);
    }
    if ((o.half_warp || o.timed) && !o.scheduled) {
        wst_reader_close(r);
        return cli_error(NULL, "--half-warp and --timed shape the scheduled order; use them with "
                               "--order scheduled");
    }
    if (o.scheduled) {
        int rc = dump_scheduled(&o, r);
        wst_reader_close(r);
        return rc;
    }
    const char *columns[CSV_COLUMNS + CSV_TIMING_COLUMNS];
    int timed = trace_timed(t);
    size_t column_count = csv_columns(timed, columns);
    csv_table *table = o.csv ? csv_table_on_stream(stdout, columns, column_count) : NULL;
    int rc = 0;
    uint32_t first = o.kernel < 0 ? 0 : (uint32_t)o.kernel;
    uint32_t last = o.kernel < 0 ? t->kernel_count : first + 1;
    for (uint32_t k = first; k < last && rc == 0; k++) {
        wst_cursor *c = o.cta < 0 ? wst_cursor_kernel(r, k, &err)
                                  : wst_cursor_cta(r, k, (uint32_t)o.cta, &err);
        const wst_record *batch;
        uint32_t kernel;
        int64_t n;
        while (c && (n = wst_cursor_next_batch(c, &batch, &kernel, &err)) > 0) {
            for (int64_t i = 0; i < n; i++) {
                const wst_pc *pc = &t->kernels[kernel].pcs[batch[i].pc];
                if (table)
                    print_csv(table, t, kernel, &batch[i], timed);
                else
                    print_text(kernel, &batch[i], pc);
            }
            if (ferror(stdout)) /* a full disk: stop now, not after the whole trace */
                break;
        }
        if (ferror(stdout))
            rc = cli_stdout_check();
        else if (!c || n < 0)
            rc = cli_fail(o.path, &err);
        wst_cursor_free(c);
    }
    if (table && csv_table_commit(table, &err) != 0 && rc == 0)
        rc = cli_fail("stdout", &err);
    wst_reader_close(r);
    return rc;
}

const cli_command cmd_dump = {"dump", "the records of a trace, as text or CSV", usage, run};
