/* tests/test_workloads.c: every workload computes the right answer at small
 * size, is deterministic, and its traces match closed forms derived from the
 * original kernels' indexing. */
#include <criterion/criterion.h>
#include <string.h>

#include "collectors/workloads/workloads.h"
#include "formats/alloc_map.h"
#include "formats/memtrace.h"
#include "tests/workload_record.h"
#include "tests/helpers.h"

static wst_memtrace *record(const char *name, uint64_t seed, int verify)
{
    return test_record_workload(name, SIZE_SMALL, seed, verify);
}

Test(workloads, every_workload_matches_its_cpu_reference)
{
    for (unsigned i = 0; workload_at(i); i++)
        wst_memtrace_free(record(workload_at(i)->name, 7, 1));
}

static int same_records(const wst_memtrace *a, const wst_memtrace *b)
{
    if (a->trace.kernel_count != b->trace.kernel_count)
        return 0;
    for (uint32_t k = 0; k < a->trace.kernel_count; k++)
        if (a->per_kernel[k].count != b->per_kernel[k].count ||
            (a->per_kernel[k].count &&
             memcmp(a->per_kernel[k].records, b->per_kernel[k].records,
                    a->per_kernel[k].count * sizeof(wst_record)) != 0))
            return 0;
    return 1;
}

Test(workloads, every_workload_is_deterministic)
{
    for (unsigned i = 0; workload_at(i); i++) {
        const char *name = workload_at(i)->name;
        wst_memtrace *a = record(name, 3, 0), *b = record(name, 3, 0);
        cr_assert(same_records(a, b), "%s: the same seed gives the same trace", name);
        wst_memtrace_free(a);
        wst_memtrace_free(b);
    }
}

/* The emulator lists every buffer a workload allocates, so each global
 * address of its trace lies in one (what `diff` maps addresses by). */
Test(workloads, every_global_address_lies_in_an_allocation)
{
    for (unsigned i = 0; workload_at(i); i++) {
        const char *name = workload_at(i)->name;
        wst_memtrace *m = record(name, 5, 0);
        cr_assert_gt(m->trace.allocation_count, 0, "%s", name);
        wst_alloc_map map;
        ws_error err;
        cr_assert_eq(wst_alloc_map_build(&map, m->trace.allocations, m->trace.allocation_count,
                                         &err), 0, "%s: %s", name, err.msg);
        for (uint32_t k = 0; k < m->trace.kernel_count; k++)
            for (size_t j = 0; j < m->per_kernel[k].count; j++) {
                const wst_record *r = &m->per_kernel[k].records[j];
                for (uint32_t bits = r->mask; bits && r->space == WST_GLOBAL; bits &= bits - 1) {
                    uint32_t ordinal;
                    uint64_t offset, address = r->addr[__builtin_ctz(bits)];
                    cr_assert(wst_alloc_map_find(&map, address, &ordinal, &offset),
                              "%s kernel %u: 0x%llx in no allocation", name, k,
                              (unsigned long long)address);
                    cr_assert_leq(offset + r->size, m->trace.allocations[ordinal].bytes);
                }
            }
        wst_alloc_map_free(&map);
        wst_memtrace_free(m);
    }
}

Test(workloads, data_dependent_traces_follow_the_seed)
{
    const char *names[] = {"bfs", "spmv", "streamcluster"};
    for (int n = 0; n < 3; n++) {
        wst_memtrace *a = record(names[n], 3, 0), *c = record(names[n], 4, 0);
        cr_assert_not(same_records(a, c), "%s: another seed gives another trace", names[n]);
        wst_memtrace_free(a);
        wst_memtrace_free(c);
    }
}

/* gemm, N = 64, block 32×8: CTA (bx, by) warp w covers i = 8·by + w, j =
 * 32·bx + lane.  Per thread: load C, store C, then for each k: load A[i][k],
 * load B[k][j], load C, store C. */
Test(workloads, gemm_closed_form)
{
    wst_memtrace *m = record("gemm", 1, 0);
    cr_assert_eq(m->trace.kernel_count, 1);
    const wst_kernel *k = &m->trace.kernels[0];
    cr_assert_eq(k->grid.x, 2);
    cr_assert_eq(k->grid.y, 8);
    const uint64_t n = 64;
    cr_assert_eq(m->per_kernel[0].count, 16 * 8 * (2 + 4 * n), "records: warps × (2 + 4N)");
    cr_assert_eq(k->pc_count, 6);
    /* Per PC: C load and C store once per warp, then A, B, C load, C store
     * once per warp and k. */
    uint64_t per_pc[6] = {0};
    for (size_t i = 0; i < m->per_kernel[0].count; i++)
        per_pc[m->per_kernel[0].records[i].pc]++;
    uint64_t want_pc[6] = {128, 128, 128 * n, 128 * n, 128 * n, 128 * n};
    for (int p = 0; p < 6; p++)
        cr_assert_eq(per_pc[p], want_pc[p], "PC %d", p);
    /* Allocations are consecutive and 256-aligned: A, B, C of 16 KiB each. */
    const wst_record *first = &m->per_kernel[0].records[0];
    uint64_t c_base = first->addr[0]; /* CTA 0 warp 0 lane 0: C[0][0] */
    uint64_t a_base = c_base - 2 * n * n * 4, b_base = c_base - n * n * 4;
    /* Find CTA 3 (bx 1, by 1), warp 2, iteration k = 5, the A load. */
    const wst_record *r = NULL;
    uint32_t seen = 0;
    for (size_t i = 0; i < m->per_kernel[0].count; i++) {
        const wst_record *x = &m->per_kernel[0].records[i];
        if (x->cta == 3 && x->warp == 2 && x->kind == WST_LOAD && x->pc == 2 && seen++ == 5) {
            r = x;
            break;
        }
    }
    cr_assert_not_null(r);
    uint64_t i_row = 8 * 1 + 2;
    for (int lane = 0; lane < 32; lane++) {
        cr_assert_eq(r->addr[lane], a_base + 4 * (i_row * n + 5), "A[i][k] is a broadcast");
        cr_assert_eq(r[1].addr[lane], b_base + 4 * (5 * n + 32 + lane), "B[k][j] coalesced");
    }
    wst_memtrace_free(m);
}

/* gaussian, Size = 64: 63 iterations of Fan1 then Fan2.  Fan1 at t has
 * Size-1-t active threads in one 512-thread CTA; its first load of thread x
 * reads a[Size·(x+t+1) + t]. */
Test(workloads, gaussian_fan1_masks_and_addresses)
{
    wst_memtrace *m = record("gaussian", 1, 0);
    cr_assert_eq(m->trace.kernel_count, 2 * 63);
    cr_assert_str_eq(m->trace.kernels[0].name, "_Z4Fan1PfS_ii");
    cr_assert_str_eq(m->trace.kernels[1].name, "_Z4Fan2PfS_S_iii");
    /* Fan1 at t = 30: 33 active threads, warps 0 (full) and 1 (lane 0 only). */
    const wst_memkernel_records *fan1 = &m->per_kernel[60];
    cr_assert_eq(fan1->count, 6, "two warps × (two loads, one store)");
    cr_assert_eq(fan1->records[0].mask, 0xffffffffu);
    cr_assert_eq(fan1->records[3].mask, 0x1u);
    uint64_t a_base = fan1->records[1].addr[0] - 4 * (64 * 30 + 30); /* a[Size*t + t] */
    for (int x = 0; x < 32; x++)
        cr_assert_eq(fan1->records[0].addr[x], a_base + 4 * (64 * (x + 31) + 30));
    /* Fan2 at t = 62: one row left (x = 0), y in 0..1: CTA (0,0) only, with
     * lanes (x=0, y=0) and (x=0, y=1) = lanes 0 and 4 of the 4×4 block. */
    const wst_memkernel_records *fan2 = &m->per_kernel[125];
    cr_assert_eq(fan2->records[0].mask, 0x11u);
    cr_assert_eq(fan2->records[0].cta, 0);
    /* The yidx == 0 branch: lane 0 only. */
    cr_assert_eq(fan2->records[fan2->count - 1].mask, 0x1u);
    cr_assert_eq(fan2->records[fan2->count - 1].kind, WST_STORE);
    wst_memtrace_free(m);
}

/* spmv scalar: lane l of warp w in CTA c handles row 128c + 32w + l; its
 * first two loads are rowDelimiters[row] and [row + 1]. */
Test(workloads, spmv_row_pointers)
{
    wst_memtrace *m = record("spmv", 1, 0);
    cr_assert_eq(m->trace.kernel_count, 2);
    const wst_record *r = m->per_kernel[0].records;
    cr_assert_eq(r[0].mask, 0xffffffffu);
    for (int lane = 0; lane < 32; lane++) {
        cr_assert_eq(r[0].addr[lane], r[0].addr[0] + 4u * lane);
        cr_assert_eq(r[1].addr[lane], r[0].addr[lane] + 4);
    }
    /* The vector kernel: one warp per row, so rowDelimiters is a broadcast. */
    const wst_record *v = m->per_kernel[1].records;
    cr_assert_eq(v[0].addr[31], v[0].addr[0]);
    cr_assert_eq(v[0].addr[0], r[0].addr[0], "row 0 of both kernels");
    wst_memtrace_free(m);
}

/* bfs: the first level has one frontier node (0), so Kernel's mask load is
 * full for every warp but only lane 0 of CTA 0 goes on. */
Test(workloads, bfs_first_level_frontier)
{
    wst_memtrace *m = record("bfs", 1, 0);
    cr_assert_geq(m->trace.kernel_count, 4, "at least two levels");
    cr_assert_eq(m->trace.kernel_count % 2, 0, "Kernel and Kernel2 per level");
    const wst_memkernel_records *k0 = &m->per_kernel[0];
    cr_assert_eq(k0->records[0].mask, 0xffffffffu, "every thread reads its mask");
    cr_assert_eq(k0->records[1].mask, 0x1u, "only node 0 is in the frontier");
    cr_assert_eq(k0->records[1].kind, WST_STORE);
    wst_memtrace_free(m);
}

Test(workloads, record_cli_and_errors)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "g.wst");
    cli_result r = cli_run("record", "--workload", "gemm", "--size", "small", "-o", path, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run("info", path, NULL);
    cr_assert(strstr(r.out, "records    33024\n") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "workload   gemm --size small --seed 1\n") != NULL);
    cr_assert(strstr(r.out, "allocs     3 (49152 bytes)\n") != NULL, "A, B and C: %s", r.out);
    cli_result_free(&r);
    r = cli_run("record", "--workload", "nope", "-o", path, NULL);
    cr_assert_eq(r.status, 1);
    cr_assert(strstr(r.err, "warpscope: unknown workload 'nope' (workloads: gaussian,") != NULL,
              "%s", r.err);
    cli_result_free(&r);
    r = cli_run("record", "--workload", "gemm", "--size", "huge", "-o", path, NULL);
    cr_assert_str_eq(r.err, "warpscope: unknown size 'huge' (sizes: small, medium, large)\n");
    cli_result_free(&r);
    r = cli_run("workloads", NULL);
    cr_assert(strstr(r.out, "spmv") != NULL);
    cli_result_free(&r);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* Every row's description starts in the header's column, however long the
 * name (streamcluster, gramschmidt); --names lists exactly the workloads. */
Test(workloads, listing_aligns_on_long_names)
{
    cli_result r = cli_run("workloads", NULL);
    cr_assert_eq(r.status, 0);
    const char *header_end = strchr(r.out, '\n');
    cr_assert_not_null(header_end);
    size_t column = (size_t)(strstr(r.out, "description") - r.out);
    unsigned rows = 0;
    for (const char *line = header_end + 1; *line; line = strchr(line, '\n') + 1) {
        size_t len = (size_t)(strchr(line, '\n') - line);
        cr_assert_gt(len, column, "%.*s", (int)len, line);
        cr_assert(line[column - 1] == ' ' && line[column] != ' ', "misaligned: %.*s", (int)len,
                  line);
        rows += line[0] != ' ';
    }
    cli_result_free(&r);
    r = cli_run("workloads", "--names", NULL);
    unsigned names = 0;
    for (unsigned i = 0; workload_at(i); i++) {
        char want[64];
        snprintf(want, sizeof want, "%s\n", workload_at(i)->name);
        cr_expect_not_null(strstr(r.out, want), "%s", want);
        names++;
    }
    cr_expect_eq(rows, names);
    cli_result_free(&r);
    r = cli_run("workloads", "extra", NULL);
    cr_expect_str_eq(r.err, "warpscope: workloads takes no arguments, not 'extra'\n");
    cli_result_free(&r);
}
