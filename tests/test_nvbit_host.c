/* tests/test_nvbit_host.c: the NVBit collector's host side without a GPU:
 * packets in, records out, knobs, limits. */
#include <criterion/criterion.h>
#include <string.h>

#include "collectors/nvbit/host/nvbit_host.h"
#include "formats/memtrace.h"
#include "formats/wst.h"
#include "tests/helpers.h"

static const char *const *knobs;

static const char *lookup(const char *name)
{
    for (int i = 0; knobs && knobs[i]; i += 2)
        if (strcmp(knobs[i], name) == 0)
            return knobs[i + 1];
    return NULL;
}

static ws_nvbit_host *host_with(const char *const *table, wst_memtrace **m)
{
    knobs = table;
    ws_nvbit_config c;
    ws_error err;
    cr_assert_eq(ws_nvbit_config_parse(&c, lookup, &err), 0, "%s", err.msg);
    *m = wst_memtrace_new(NULL);
    wst_sink sink = wst_memtrace_sink(*m);
    ws_nvbit_host *h = ws_nvbit_host_new(&c, &sink, &err);
    cr_assert_not_null(h);
    return h;
}

static ws_packet packet(int instr, int cta_x, int warp, uint32_t mask, uint64_t base)
{
    ws_packet p;
    memset(&p, 0, sizeof p);
    p.instr = instr;
    p.cta_x = cta_x;
    p.warp = warp;
    p.sm = 7;
    p.mask = mask;
    p.timestamp = 1000 + base;
    for (int l = 0; l < 32; l++)
        p.addrs[l] = (mask >> l) & 1 ? base + 4u * l : 0xdeadull;
    return p;
}

Test(nvbit_host, packets_become_records)
{
    wst_memtrace *m;
    ws_nvbit_host *h = host_with(NULL, &m);
    ws_error err;
    cr_assert_eq(ws_nvbit_kernel_begin(h, 0, "vecAdd", (wst_dim3){4, 2, 1}, (wst_dim3){64, 1, 1},
                                       512, 24, &err), 1);
    cr_assert_eq(ws_nvbit_instr(h, 0, 0x80, "LDG.E.CG.64 R2, [R4.64]", "add.cu", 12, 8, &err), 0);
    cr_assert_eq(ws_nvbit_instr(h, 1, 0x90, "@P0 STG.E [R6.64], R0", NULL, 0, 4, &err), 0);
    ws_packet p = packet(0, 3, 1, 0x0000ffffu, 0x7000);
    p.cta_y = 1;
    cr_assert_eq(ws_nvbit_packet(h, &p, &err), 0, "%s", err.msg);
    p = packet(1, 0, 0, 0x1u, 0x9000);
    p.space = WS_PACKET_SPACE_LOCAL;
    cr_assert_eq(ws_nvbit_packet(h, &p, &err), 0);
    p.space = WS_PACKET_SPACE_SHARED; /* a generic access to shared memory: dropped */
    cr_assert_eq(ws_nvbit_packet(h, &p, &err), 0);
    cr_assert_eq(ws_nvbit_kernel_end(h, &err), 0);

    const wst_kernel *k = &m->trace.kernels[0];
    cr_assert_str_eq(k->name, "vecAdd");
    cr_assert_eq(k->registers_per_thread, 24);
    cr_assert_eq(k->pc_count, 2);
    cr_assert_eq(k->pcs[0].offset, 0x80);
    cr_assert_str_eq(k->pcs[0].file, "add.cu");
    cr_assert_eq(k->pcs[0].line, 12);
    cr_assert_null(k->pcs[1].file);
    cr_assert_eq(m->per_kernel[0].count, 2);
    const wst_record *r = &m->per_kernel[0].records[0];
    cr_assert_eq(r->cta, 3 + 1 * 4, "linear id x + y·gx");
    cr_assert_eq(r->warp, 1);
    cr_assert_eq(r->kind, WST_LOAD);
    cr_assert_eq(r->cache_op, WST_OP_CG);
    cr_assert_eq(r->size, 8);
    cr_assert_eq(r->mask, 0xffffu);
    cr_assert(r->has_sm && r->has_time);
    cr_assert_eq(r->sm, 7);
    cr_assert_eq(r->timestamp, 1000 + 0x7000);
    cr_assert_eq(r->addr[15], 0x7000 + 60);
    cr_assert_eq(r->addr[16], 0, "inactive lanes are not copied");
    cr_assert_eq(m->per_kernel[0].records[1].kind, WST_STORE);
    cr_assert_eq(m->per_kernel[0].records[1].space, WST_LOCAL);
    cr_assert_eq(ws_nvbit_records(h), 2);
    ws_nvbit_host_free(h);
    wst_memtrace_free(m);
}

Test(nvbit_host, knobs_select_kernels_launches_and_stop)
{
    static const char *const table[] = {"WARPSCOPE_KERNELS", "^mult", "WARPSCOPE_LAUNCHES", "2-3",
                                        "WARPSCOPE_MAX_RECORDS", "3", "WARPSCOPE_OUT", "/tmp/x.wst",
                                        NULL};
    wst_memtrace *m;
    ws_nvbit_host *h = host_with(table, &m);
    ws_error err;
    wst_dim3 g = {1, 1, 1}, b = {32, 1, 1};
    cr_assert_eq(ws_nvbit_kernel_begin(h, 0, "mult_gpu", g, b, 0, 0, &err), 0, "launch 0 is out of range");
    cr_assert_eq(ws_nvbit_kernel_begin(h, 2, "vecAdd", g, b, 0, 0, &err), 0, "name does not match");
    cr_assert_eq(ws_nvbit_kernel_begin(h, 3, "mult_gpu", g, b, 0, 0, &err), 1);
    ws_nvbit_instr(h, 0, 0, "LDG.E", NULL, 0, 4, &err);
    for (int i = 0; i < 5; i++) {
        ws_packet p = packet(0, 0, 0, 1, 64u * i);
        cr_assert_eq(ws_nvbit_packet(h, &p, &err), 0);
    }
    cr_assert_eq(ws_nvbit_records(h), 3, "WARPSCOPE_MAX_RECORDS stops recording");
    cr_assert(ws_nvbit_stopped(h));
    cr_assert_eq(ws_nvbit_kernel_begin(h, 2, "mult_gpu", g, b, 0, 0, &err), 0, "stopped for good");
    cr_assert_eq(m->trace.kernel_count, 1);
    ws_nvbit_host_free(h);
    wst_memtrace_free(m);
}

Test(nvbit_host, bad_knobs_and_packets)
{
    ws_nvbit_config c;
    ws_error err;
    static const char *const bad_regex[] = {"WARPSCOPE_KERNELS", "(", NULL};
    knobs = bad_regex;
    cr_assert_eq(ws_nvbit_config_parse(&c, lookup, &err), -1);
    cr_assert(strstr(err.msg, "WARPSCOPE_KERNELS: '(' is not a regular expression") != NULL, "%s", err.msg);
    static const char *const bad_range[] = {"WARPSCOPE_LAUNCHES", "5-2", NULL};
    knobs = bad_range;
    cr_assert_eq(ws_nvbit_config_parse(&c, lookup, &err), -1);
    cr_assert(strstr(err.msg, "WARPSCOPE_LAUNCHES") != NULL);
    static const char *const bad_max[] = {"WARPSCOPE_MAX_RECORDS", "lots", NULL};
    knobs = bad_max;
    cr_assert_eq(ws_nvbit_config_parse(&c, lookup, &err), -1);
    cr_assert_str_eq(err.msg, "WARPSCOPE_MAX_RECORDS: expected a whole number, got 'lots'");
    knobs = NULL;
    cr_assert_eq(ws_nvbit_config_parse(&c, lookup, &err), 0);
    cr_assert_str_eq(c.out, "warpscope.wst");
    ws_nvbit_config_free(&c);

    wst_memtrace *m;
    ws_nvbit_host *h = host_with(NULL, &m);
    ws_nvbit_kernel_begin(h, 0, "k", (wst_dim3){2, 1, 1}, (wst_dim3){32, 1, 1}, 0, 0, &err);
    ws_packet p = packet(4, 0, 0, 1, 0);
    cr_assert_eq(ws_nvbit_packet(h, &p, &err), -1, "undeclared instruction");
    ws_nvbit_instr(h, 0, 0, "LDG.E", NULL, 0, 4, &err);
    p = packet(0, 5, 0, 1, 0);
    cr_assert_eq(ws_nvbit_packet(h, &p, &err), -1, "CTA outside the grid");
    p = packet(0, 0, 3, 1, 0);
    cr_assert_eq(ws_nvbit_packet(h, &p, &err), -1, "warp outside the CTA");
    cr_assert_eq(ws_nvbit_instr(h, 1, 0, "LDG.E", NULL, 0, 3, &err), -1, "3 bytes per lane");
    ws_nvbit_host_free(h);
    wst_memtrace_free(m);
}

/* Every allocation reaches the table, recorded launch or not, in order; one
 * that reuses a freed range is left out and counted, an empty one ignored. */
Test(nvbit_host, allocations_reach_the_table)
{
    static const char *const table[] = {"WARPSCOPE_KERNELS", "^none", NULL};
    knobs = table;
    ws_nvbit_config c;
    ws_error err;
    cr_assert_eq(ws_nvbit_config_parse(&c, lookup, &err), 0);
    char *dir = test_tmpdir();
    char *path = test_path(dir, "app.wst");
    wst_writer *w = wst_writer_open(path, NULL, NULL, &err);
    wst_sink sink = wst_writer_sink(w);
    ws_nvbit_host *h = ws_nvbit_host_new(&c, &sink, &err);
    cr_assert_eq(ws_nvbit_allocation(h, 0x7f1200000000, 4096, &err), 0, "%s", err.msg);
    cr_assert_eq(ws_nvbit_kernel_begin(h, 0, "vecAdd", (wst_dim3){1, 1, 1}, (wst_dim3){32, 1, 1},
                                       0, 0, &err), 0, "not recorded");
    cr_assert_eq(ws_nvbit_allocation(h, 0x7f1200200000, 1 << 20, &err), 0);
    cr_assert_eq(ws_nvbit_allocation(h, 0x7f1200000000, 512, &err), 0, "freed and reused");
    cr_assert_eq(ws_nvbit_allocation(h, 0x7f1200400000, 0, &err), 0, "empty");
    cr_assert_eq(ws_nvbit_reused_allocations(h), 1);
    ws_nvbit_host_free(h);
    cr_assert_eq(wst_writer_close(w, &err), 0, "%s", err.msg);
    wst_reader *r = wst_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    const wst_trace *t = wst_reader_trace(r);
    cr_assert_eq(t->allocation_count, 2);
    cr_assert_eq(t->allocations[0].base, 0x7f1200000000);
    cr_assert_eq(t->allocations[0].bytes, 4096);
    cr_assert_eq(t->allocations[1].base, 0x7f1200200000);
    cr_assert_eq(t->allocations[1].bytes, 1 << 20);
    wst_reader_close(r);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* The host keeps no records: everything goes to the sink at once. */
static uint64_t counted;
static int count_record(void *ctx, uint32_t k, const wst_record *r, ws_error *err)
{
    counted++;
    return 0;
}
static int count_kernel(void *ctx, const wst_kernel *k, ws_error *err) { return 0; }
static int64_t count_pc(void *ctx, uint32_t k, const wst_pc *pc, ws_error *err) { return 0; }

Test(nvbit_host, streams_to_the_sink)
{
    knobs = NULL;
    ws_nvbit_config c;
    ws_error err;
    ws_nvbit_config_parse(&c, lookup, &err);
    wst_sink sink = {.add_kernel = count_kernel, .add_pc = count_pc, .add_record = count_record};
    ws_nvbit_host *h = ws_nvbit_host_new(&c, &sink, &err);
    ws_nvbit_kernel_begin(h, 0, "k", (wst_dim3){1, 1, 1}, (wst_dim3){32, 1, 1}, 0, 0, &err);
    ws_nvbit_instr(h, 0, 0, "LDG.E", NULL, 0, 4, &err);
    for (int i = 0; i < 100000; i++) {
        ws_packet p = packet(0, 0, 0, 0xffffffffu, 128u * i);
        ws_nvbit_packet(h, &p, &err);
        cr_assert_eq(counted, (uint64_t)i + 1, "record %d reached the sink at once", i);
    }
    ws_nvbit_host_free(h);
}

/* Without the NVBit tool built, `record -- app` says how to build it. */
Test(nvbit_record, tool_missing_is_a_one_line_error)
{
    setenv("WARPSCOPE_NVBIT_TOOL", "/nonexistent/warpscope-nvbit.so", 1);
    cli_result r = cli_run("record", "-o", "/tmp/never.wst", "--", "/bin/true", NULL);
    cr_assert_eq(r.status, 1);
    cr_assert(strncmp(r.err, "warpscope: the NVBit tool is not built (/nonexistent/warpscope-nvbit.so); "
                             "build it with 'make nvbit NVBIT_PATH=", 95) == 0, "%s", r.err);
    cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1);
    cli_result_free(&r);
    r = cli_run("record", "--", "/bin/true", NULL);
    cr_assert_str_eq(r.err, "warpscope: record needs -o FILE.wst before --\n");
    cli_result_free(&r);
}
