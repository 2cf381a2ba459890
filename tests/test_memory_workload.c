/* tests/test_memory_workload.c: the replay's memory workload
 * (docs/metrics.md §7, "Memory workload"): a hand-worked trace whose every
 * figure is known, and on real workloads the identities with the replay's
 * own counts, in the analyzer and in report.json. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "analyzer/analysis.h"
#include "analyzer/memory_workload.h"
#include "collectors/workloads/workloads.h"
#include "formats/trace.h"
#include "reports/report_doc.h"
#include "tests/helpers.h"
#include "tests/report_fixture.h"

/* One step of a hand-made trace: an instruction of `lanes` requests, one
 * per line from `line`, each asking `sectors` (a mask) and `bytes`. */
typedef struct step {
    wst_kind kind;
    wst_cache_op op;
    uint32_t pc;
    uint64_t line;
    int lines;
    uint8_t sectors;
    uint16_t bytes;
} step;

/* Fermi's caches on one SM (L2: 6 slices, line % 6, unsectored), the
 * collector subscribed; runs the steps as one kernel of 5 PCs. */
static hierarchy *run_steps(memory_workload **m, const step *steps, size_t n)
{
    hierarchy_options o = {.seed = 1};
    ws_error err;
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0, "%s", err.msg);
    o.config.sms = 1;
    cr_assert_not_null(*m = memory_workload_new(1, o.config.l2.slices, &err));
    o.observers[o.observer_count++] = memory_workload_observer(*m);
    hierarchy *h = hierarchy_new(&o, 1, &err);
    cr_assert_not_null(h, "%s", err.msg);
    cr_assert_eq(hierarchy_kernel_begin(h, 0, 5, &err), 0, "%s", err.msg);
    for (size_t i = 0; i < n; i++) {
        ws_request rq[8];
        for (int r = 0; r < steps[i].lines; r++)
            rq[r] = (ws_request){.line_addr = (steps[i].line + (uint64_t)r) * 128,
                                 .sector_mask = steps[i].sectors, .bytes_used = steps[i].bytes,
                                 .req_count = (uint8_t)steps[i].lines, .index = (uint8_t)r};
        replay_issue is = {.pc = steps[i].pc, .kind = (uint8_t)steps[i].kind,
                           .space = WST_GLOBAL, .cache_op = (uint8_t)steps[i].op};
        cr_assert_eq(hierarchy_instruction(h, &is, rq, steps[i].lines, &err), 0, "%s", err.msg);
    }
    cr_assert_eq(hierarchy_finish(h, &err), 0, "%s", err.msg);
    return h;
}

static void expect_flow(const memory_flow *f, uint64_t requests, uint64_t sectors, uint64_t bytes,
                        const char *what)
{
    cr_expect_eq(f->requests, requests, "%s requests: %lu", what, (unsigned long)f->requests);
    cr_expect_eq(f->sectors, sectors, "%s sectors: %lu", what, (unsigned long)f->sectors);
    cr_expect_eq(f->bytes, bytes, "%s bytes: %lu", what, (unsigned long)f->bytes);
}

/* Worked by hand (128 B lines, L2 slice = line % 6):
 *   PC 0 load  line 0, 4 sectors, 128 B: L1 miss, a line from L2 (miss,
 *              slice 0), a line from DRAM;
 *   PC 1 load  lines 1-4, 1 sector and 4 B each: 4 misses, 4 lines from L2
 *              (misses, slices 1-4) and DRAM; ideal ceil(16 / 32) = 1
 *              sector for the 4 asked: 3 in excess;
 *   PC 0 load  line 0 again: an L1 hit;
 *   PC 2 store line 0, 1 sector, 32 B: written through, an L2 hit (slice 0);
 *   PC 3 atomic line 6, 1 sector, 4 B: an L2 write miss (slice 0),
 *              allocated, nothing read;
 *   PC 4 ld.cg line 7, 2 sectors, 64 B: around L1, 64 B from L2 (miss,
 *              slice 1), a line from DRAM;
 *   the end: L2 writes back lines 0 and 6, in no kernel. */
Test(memory_workload, hand_worked_trace)
{
    const step steps[] = {
        {WST_LOAD, WST_OP_DEFAULT, 0, 0, 1, 0xf, 128},
        {WST_LOAD, WST_OP_DEFAULT, 1, 1, 4, 0x1, 4},
        {WST_LOAD, WST_OP_DEFAULT, 0, 0, 1, 0xf, 128},
        {WST_STORE, WST_OP_DEFAULT, 2, 0, 1, 0x1, 32},
        {WST_ATOMIC, WST_OP_DEFAULT, 3, 6, 1, 0x1, 4},
        {WST_LOAD, WST_OP_CG, 4, 7, 1, 0x3, 64},
    };
    memory_workload *m;
    hierarchy *h = run_steps(&m, steps, sizeof steps / sizeof steps[0]);
    const memory_kernel *k = memory_workload_kernel(m, 0);
    const memory_kind_counts *loads = &k->kinds[MEMORY_LOADS];
    expect_flow(&loads->l1, 7, 4 + 4 + 4 + 2, 128 + 16 + 128 + 64, "loads at L1");
    cr_expect_eq(loads->l1_ideal_sectors, 4 + 1 + 4 + 2);
    cr_expect_eq(loads->l1_hits, 1);
    expect_flow(&loads->l1_to_l2, 6, 4 + 16 + 2, 128 + 512 + 64, "loads L1->L2");
    cr_expect_eq(loads->l2_requests, 6);
    cr_expect_eq(loads->l2_hits, 0);
    expect_flow(&loads->l2_to_dram, 6, 24, 768, "loads DRAM");
    const memory_kind_counts *stores = &k->kinds[MEMORY_STORES];
    expect_flow(&stores->l1, 1, 1, 32, "stores at L1");
    expect_flow(&stores->l1_to_l2, 1, 1, 32, "stores L1->L2");
    cr_expect_eq(stores->l2_requests, 1);
    cr_expect_eq(stores->l2_hits, 1, "line 0 is in L2");
    expect_flow(&stores->l2_to_dram, 0, 0, 0, "stores DRAM");
    const memory_kind_counts *atomics = &k->kinds[MEMORY_ATOMICS];
    expect_flow(&atomics->l1, 1, 1, 4, "atomics at L1");
    cr_expect_eq(atomics->l1_ideal_sectors, 1);
    expect_flow(&atomics->l1_to_l2, 1, 1, 32, "atomics L1->L2");
    cr_expect_eq(atomics->l2_requests, 1);
    cr_expect_eq(atomics->l2_hits, 0);
    expect_flow(&k->kinds[MEMORY_WRITE_BACKS].l2_to_dram, 0, 0, 0, "the kernel's write-backs");
    const uint64_t slices[6] = {3, 2, 1, 1, 1, 0};
    for (int s = 0; s < 6; s++)
        cr_expect_eq(k->slice_requests[s], slices[s], "slice %d", s);
    cr_expect_eq(k->pcs[0].instructions, 2);
    cr_expect_eq(k->pcs[1].requests, 4);
    cr_expect_eq(k->pcs[1].sectors - k->pcs[1].ideal_sectors, 3, "PC 1's excess");
    cr_expect_eq(k->pcs[3].kind, WST_ATOMIC);
    const memory_kernel *all = memory_workload_summary(m);
    expect_flow(&all->kinds[MEMORY_WRITE_BACKS].l2_to_dram, 2, 8, 256, "L2's final write-backs");
    expect_flow(&all->kinds[MEMORY_LOADS].l1_to_l2, 6, 22, 704, "the summary's loads L1->L2");
    const replay_counts *r = &hierarchy_results(h)->total;
    cr_expect_eq(r->traffic.dram_write_bytes, 256);
    cr_expect_eq(r->traffic.l1_to_l2_requests, 8);
    hierarchy_free(h);
    memory_workload_free(m);
}

/* Σ over kinds = the replay's count, for one kernel or the run. */
static void expect_identities(const memory_kernel *k, const replay_counts *r, uint32_t slices)
{
    const memory_kind_counts *c = k->kinds, *loads = &c[MEMORY_LOADS];
    cr_expect_eq(loads->l1.requests, r->l1.accesses, "load requests at L1 = replay.l1.requests");
    cr_expect_eq(loads->l1_hits, r->l1.hits);
    uint64_t to_l2 = 0, written = 0, l2 = 0, l2_hits = 0, dram_written = 0, sliced = 0;
    for (int kind = 0; kind < MEMORY_KINDS; kind++) {
        to_l2 += c[kind].l1_to_l2.requests;
        l2 += c[kind].l2_requests;
        l2_hits += c[kind].l2_hits;
        if (kind != MEMORY_LOADS) {
            written += c[kind].l1_to_l2.bytes;
            dram_written += c[kind].l2_to_dram.bytes;
            cr_expect_eq(c[kind].l1_hits, 0, "only loads hit in L1");
        }
        cr_expect_eq(c[kind].l1_to_l2.sectors * 32, c[kind].l1_to_l2.bytes);
        cr_expect_leq(c[kind].l1_ideal_sectors, c[kind].l1.sectors, "the ideal is a floor");
    }
    cr_expect_eq(to_l2, r->traffic.l1_to_l2_requests);
    cr_expect_eq(loads->l1_to_l2.bytes, r->traffic.l1_to_l2_read_bytes, "loads read");
    cr_expect_eq(written, r->traffic.l1_to_l2_write_bytes, "the other kinds write");
    cr_expect_eq(l2, r->l2.accesses);
    cr_expect_eq(l2_hits, r->l2.hits);
    cr_expect_eq(loads->l2_to_dram.bytes, r->traffic.dram_read_bytes);
    cr_expect_eq(dram_written, r->traffic.dram_write_bytes);
    for (uint32_t s = 0; s < slices; s++)
        sliced += k->slice_requests[s];
    cr_expect_eq(sliced, r->l2.accesses, "every L2 request in one slice");
}

/* Each kernel as the pass ends it: the memory workload's figures against
 * the replay's counts of the same kernel. */
typedef struct kernel_check {
    uint32_t kernels;
} kernel_check;

static int check_kernel(void *ctx, const analysis *a, uint32_t k, ws_error *err)
{
    (void)err;
    kernel_check *c = ctx;
    const replay_results *res = hierarchy_results(a->replay);
    const memory_kernel *mk = memory_workload_kernel(a->memory, k);
    cr_assert(mk && mk->seen, "kernel %u", k);
    expect_identities(mk, &res->kernels[k].counts, memory_workload_slices(a->memory));
    uint64_t load_requests = 0;
    for (uint32_t p = 0; p < mk->pc_count; p++)
        load_requests += mk->pcs[p].kind == WST_LOAD ? mk->pcs[p].requests : 0;
    cr_expect_eq(load_requests, mk->kinds[MEMORY_LOADS].l1.requests, "Σ PCs = the kind's");
    if (k >= KERNEL_SLOTS)
        cr_expect_null(memory_workload_kernel(a->memory, k - KERNEL_SLOTS),
                       "only the last KERNEL_SLOTS are kept");
    c->kernels++;
    return 0;
}

static analysis *analyze_checking(const char *dir, const char *name, const char *gpu,
                                  wst_reader **r, kernel_check *check)
{
    ws_error err;
    char *trace = test_path(dir, "t.wst");
    cr_assert_eq(record_workload(name, SIZE_SMALL, 1, 0, trace, NULL, &err), 0, "%s", err.msg);
    cr_assert_not_null(*r = wst_reader_open(trace, &err), "%s", err.msg);
    free(trace);
    gpu_config config;
    cr_assert_eq(config_load(&config, gpu, &err), 0, "%s", err.msg);
    analysis_options options;
    analysis_options_default(&options);
    if (check) {
        options.kernel_done = check_kernel;
        options.kernel_done_ctx = check;
    }
    analysis *a = analysis_run(*r, &config, &options, NULL, &err);
    cr_assert_not_null(a, "%s", err.msg);
    cr_assert_not_null(a->memory, "the replay collects the memory workload");
    return a;
}


/* gaussian (loads and stores, many launches), bfs (scattered), spmv on
 * Volta (sectored L1 and L2, 64 slices). */
Test(memory_workload, sums_are_the_replays_counts)
{
    static const char *const runs[][2] = {{"gaussian", "fermi"}, {"bfs", "fermi"},
                                          {"spmv", "volta"}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char *dir = test_tmpdir();
        wst_reader *r;
        kernel_check check = {0};
        analysis *a = analyze_checking(dir, runs[i][0], runs[i][1], &r, &check);
        const replay_results *res = hierarchy_results(a->replay);
        uint32_t slices = memory_workload_slices(a->memory);
        expect_identities(memory_workload_summary(a->memory), &res->total, slices);
        cr_expect_eq(check.kernels, res->kernel_count, "every kernel was checked as it ended");
        analysis_free(a);
        wst_reader_close(r);
        test_tmpdir_cleanup(dir);
    }
}

/* The same identities as a reader of report.json sees them. */
Test(memory_workload, report_json_carries_them)
{
    char *dir = test_tmpdir();
    json_t *doc = test_report_for(dir, "gemm", "fermi");
    const json_t *mem = report_at(doc, "summary.memory"), *rep = report_at(doc, "summary.replay");
    cr_assert(json_is_object(mem));
    cr_expect_eq(report_num(mem, "loads.l1.requests"), report_num(rep, "l1.requests"));
    cr_expect_eq(report_num(mem, "loads.l1.hit_rate"), report_num(rep, "l1.hit_rate"));
    double l1_to_l2 = 0, l2 = 0, slices = 0;
    static const char *const kinds[] = {"loads", "stores", "atomics", "write_backs"};
    char path[64];
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s.l1_to_l2.bytes", kinds[i]);
        l1_to_l2 += report_num(mem, path);
        snprintf(path, sizeof path, "%s.l2.requests", kinds[i]);
        l2 += report_num(mem, path);
    }
    cr_expect_eq(l1_to_l2, report_num(rep, "traffic.l1_to_l2_bytes"), "L1->L2 bytes = traffic");
    cr_expect_eq(l2, report_num(rep, "l2.requests"));
    double counts[256];
    size_t n = report_nums(mem, "l2_slices.requests", counts, 256);
    cr_expect_eq(n, (size_t)report_num(doc, "gpu.l2.slices"));
    for (size_t s = 0; s < n; s++)
        slices += counts[s];
    cr_expect_eq(slices, l2);
    cr_expect_eq(report_num(mem, "loads.l1.excess_sectors"),
                 report_num(mem, "loads.l1.sectors") - report_num(mem, "loads.l1.ideal_sectors"));
    const json_t *pc = report_at(doc, "kernels.0.pcs.0.memory");
    cr_expect_str_eq(report_str(pc, "kind"), "load");
    cr_expect(json_is_object(report_at(doc, "kernels.0.metrics.memory")));
    json_decref(doc);
    test_tmpdir_cleanup(dir);
}
