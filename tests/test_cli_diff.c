/* tests/test_cli_diff.c: `warpscope diff` on emulated traces, on small
 * traces written with one edit each, and on bad input (docs/diff.md). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "formats/wst.h"
#include "tests/helpers.h"
#include "tests/trace_gen.h"
#include "tests/workload_record.h"
#include "util/demangle.h"

#define ALLOC0 0x7f0000000000ULL
#define ALLOC1 0x7f0000001000ULL
#define LOCAL 0x7e0000000000ULL

typedef enum edit {
    EDIT_NONE,
    EDIT_MASK,     /* CTA 1 warp 1 record 0: half the lanes */
    EDIT_ADDRESS,  /* CTA 1 warp 1 record 2: lane 7 one word further */
    EDIT_PC,       /* CTA 1 warp 1 record 0: another load PC */
    EDIT_DROP,     /* CTA 1 warp 1 record 1 left out */
    EDIT_CACHE_OP, /* CTA 1 warp 1 record 0: cg instead of ca */
    EDIT_NO_OP     /* CTA 1 warp 1 record 0: no cache operator recorded */
} edit;

/* A small trace: kernel `name`, grid (grid_x,1,1), block 64 (two warps a
 * CTA).  Each warp loads its 32 floats of allocation 0 (PC 0x10), loads a
 * local word (0x30) and stores its floats to allocation 1 (0x20). */
typedef struct small {
    const char *name;
    uint32_t grid_x;
    int edit;
    uint64_t alloc1_shift; /* moves allocation 1 and every address in it */
    uint64_t pc_shift;     /* added to every PC offset */
    int no_table;          /* lists no allocations */
    int reverse_warps;     /* writes warp 1's records before warp 0's */
    int extra_kernel;      /* a second, empty launch */
} small;

static wst_record lanes_at(uint32_t cta, uint32_t warp, uint32_t pc, uint8_t kind, uint8_t space,
                           uint64_t base)
{
    wst_record r;
    memset(&r, 0, sizeof r);
    r.cta = cta;
    r.warp = warp;
    r.pc = pc;
    r.kind = kind;
    r.space = space;
    r.size = 4;
    r.mask = 0xffffffffu;
    for (int l = 0; l < 32; l++)
        r.addr[l] = base + 4u * l;
    return r;
}

static char *write_small(const char *dir, const char *file, const small *s)
{
    char *path = test_path(dir, file);
    ws_error err;
    wst_origin origin = {.collector = "test"};
    wst_writer *w = wst_writer_open(path, &origin, NULL, &err);
    cr_assert_not_null(w, "%s", err.msg);
    wst_allocation buffers[2] = {{ALLOC0, 4096}, {ALLOC1 + s->alloc1_shift, 4096}};
    for (int i = 0; i < 2 && !s->no_table; i++)
        cr_assert_eq(wst_writer_add_allocation(w, &buffers[i], &err), 0, "%s", err.msg);
    wst_pc pcs[4] = {{0x10 + s->pc_shift, "LDG.E", NULL, 0},
                     {0x20 + s->pc_shift, "STG.E", NULL, 0},
                     {0x30 + s->pc_shift, "LDL", NULL, 0},
                     {0x40 + s->pc_shift, "LDG.E", NULL, 0}};
    wst_kernel k = {.name = (char *)s->name, .grid = {s->grid_x, 1, 1}, .block = {64, 1, 1},
                    .pcs = pcs, .pc_count = 4};
    cr_assert_eq(wst_writer_add_kernel(w, &k, &err), 0, "%s", err.msg);
    for (uint32_t cta = 0; cta < 2; cta++)
        for (uint32_t i = 0; i < 2; i++) {
            uint32_t warp = s->reverse_warps ? 1 - i : i;
            uint64_t offset = (cta * 64 + warp * 32) * 4u;
            wst_record r[3] = {
                lanes_at(cta, warp, 0, WST_LOAD, WST_GLOBAL, ALLOC0 + offset),
                lanes_at(cta, warp, 2, WST_LOAD, WST_LOCAL, LOCAL + (cta * 2 + warp) * 128u),
                lanes_at(cta, warp, 1, WST_STORE, WST_GLOBAL,
                         ALLOC1 + s->alloc1_shift + offset)};
            r[0].cache_op = WST_OP_CA;
            int edited = cta == 1 && warp == 1;
            if (edited && s->edit == EDIT_MASK)
                r[0].mask = 0x0000ffffu;
            if (edited && s->edit == EDIT_ADDRESS)
                r[2].addr[7] += 4;
            if (edited && s->edit == EDIT_PC)
                r[0].pc = 3;
            if (edited && (s->edit == EDIT_CACHE_OP || s->edit == EDIT_NO_OP))
                r[0].cache_op = s->edit == EDIT_CACHE_OP ? WST_OP_CG : WST_OP_DEFAULT;
            for (int j = 0; j < 3; j++)
                if (!(edited && s->edit == EDIT_DROP && j == 1))
                    cr_assert_eq(wst_writer_add_record(w, 0, &r[j], &err), 0, "%s", err.msg);
        }
    if (s->extra_kernel)
        cr_assert_eq(wst_writer_add_kernel(w, &k, &err), 1, "%s", err.msg);
    cr_assert_eq(wst_writer_close(w, &err), 0, "%s", err.msg);
    return path;
}

static const small base = {.name = "_Z5scalePfS_i", .grid_x = 2};

/* The tests on small traces: their directory and the unedited trace. */
static char *work_dir, *unedited;

static void write_base(void)
{
    work_dir = test_tmpdir();
    unedited = write_small(work_dir, "a.wst", &base);
}

static void remove_base(void)
{
    free(unedited);
    test_tmpdir_cleanup(work_dir);
}

/* Runs diff on a and b (extra options after), checks the exit status. */
static cli_result diff(const char *a, const char *b, const char *opt1, const char *opt2,
                       int status)
{
    cli_result r = cli_run("diff", a, b, opt1, opt2, NULL);
    cr_assert_eq(r.status, status, "diff %s %s: status %d\n%s%s", a, b, r.status, r.out, r.err);
    return r;
}

/* Runs diff on first and the small trace s, written as b.wst. */
static cli_result diff_small(const char *first, const small *s, const char *opt1,
                             const char *opt2, int status)
{
    char *b = write_small(work_dir, "b.wst", s);
    cli_result r = diff(first, b, opt1, opt2, status);
    free(b);
    return r;
}

static void expect_line(const cli_result *r, const char *line)
{
    cr_assert(strstr(r->out, line) != NULL, "expected '%s' in:\n%s", line, r->out);
}

/* The output starts with these lines: the first differences. */
static void expect_first(const cli_result *r, const char *lines)
{
    cr_assert(strncmp(r->out, lines, strlen(lines)) == 0, "expected first\n%sgot\n%s", lines,
              r->out);
}

Test(cli_diff, the_same_workload_recorded_twice_agrees)
{
    char *dir = test_tmpdir();
    char *a = test_path(dir, "a.wst"), *b = test_path(dir, "b.wst");
    cli_result r = cli_run("record", "--workload", "gaussian", "--seed", "3", "-o", a, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run("record", "--workload", "gaussian", "--seed", "3", "-o", b, NULL);
    cli_result_free(&r);
    r = diff(a, b, NULL, NULL, 0);
    cr_assert_eq(r.err[0], '\0', "%s", r.err);
    expect_line(&r, "kernels      126 compared (A 126, B 126)\n"); /* 2 × (64 − 1) launches */
    expect_line(&r, "records      25786 compared, 0 differ\n");
    expect_line(&r, "addresses    by allocation ordinal and offset (A lists 3, B 3); local "
                    "memory by\n             shape\n"); /* wrapped at 80 columns */
    expect_line(&r, "differences  0\nthe traces agree\n");
    cli_result_free(&r);
    free(a);
    free(b);
    test_tmpdir_cleanup(dir);
}

Test(cli_diff, other_seeds_and_sizes_differ)
{
    char *dir = test_tmpdir();
    char *paths[3];
    const char *runs[3][3] = {{"streamcluster", "small", "1"},
                              {"streamcluster", "small", "2"},
                              {"gaussian", "medium", "1"}};
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "%d.wst", i);
        paths[i] = test_path(dir, name);
        cli_result r = cli_run("record", "--workload", runs[i][0], "--size", runs[i][1], "--seed",
                               runs[i][2], "-o", paths[i], NULL);
        cr_assert_eq(r.status, 0, "%s", r.err);
        cli_result_free(&r);
    }
    /* streamcluster's points come from the seed, and its loads follow them:
     * the same kernels and launches, other addresses. */
    cli_result r = diff(paths[0], paths[1], "--max", "1", 1);
    expect_first(&r, "kernel_compute_cost launch 0 CTA (0,0,0) warp 0 record ");
    const char *field = strstr(r.out, ": address lane ");
    cr_assert(field && field < strchr(r.out, '\n'), "%s", r.out);
    expect_line(&r, "\n\nkernels      6 compared (A 6, B 6)\n");
    expect_line(&r, " (the first 1 above)\nthe traces differ\n");
    cli_result_free(&r);
    /* gaussian at 64 and 256: 2 × (n − 1) launches, Fan2 on a grid of
     * ⌈n / 4⌉ × ⌈n / 4⌉. */
    char *small_trace = test_path(dir, "g.wst");
    r = cli_run("record", "--workload", "gaussian", "-o", small_trace, NULL);
    cli_result_free(&r);
    r = diff(small_trace, paths[2], "--max", "100000", 1);
    expect_first(&r, "kernels: A 126, B 510\n");
    expect_line(&r, "\nFan2 launch 1: grid: A (16,16,1), B (64,64,1)\n");
    cli_result_free(&r);
    free(small_trace);
    for (int i = 0; i < 3; i++)
        free(paths[i]);
    test_tmpdir_cleanup(dir);
}

Test(cli_diff, each_edit_names_its_field_and_place, .init = write_base, .fini = remove_base)
{
    small reordered = base;
    reordered.reverse_warps = 1;
    cli_result r = diff_small(unedited, &reordered, NULL, NULL, 0);
    expect_line(&r, "warps        4 compared\n");
    expect_line(&r, "records      12 compared, 0 differ\n");
    cli_result_free(&r);
    static const struct {
        int edit;
        const char *first;
    } cases[] = {
        {EDIT_MASK,
         "scale launch 0 CTA (1,0,0) warp 1 record 0: mask: A 0xffffffff, B 0x0000ffff\n"},
        /* (CTA 1 × 64 + warp 1 × 32 + lane 7) × 4 = 0x19c */
        {EDIT_ADDRESS,
         "scale launch 0 CTA (1,0,0) warp 1 record 2: address lane 7: A alloc#1+0x19c, "
         "B alloc#1+0x1a0\n"},
        {EDIT_PC, "scale launch 0 CTA (1,0,0) warp 1 record 0: pc: A 0x10, B 0x40\n"},
        {EDIT_DROP, "scale launch 0 CTA (1,0,0) warp 1: records: A 3, B 2\n"
                    "scale launch 0 CTA (1,0,0) warp 1 record 1: pc: A 0x30, B 0x20\n"},
        {EDIT_CACHE_OP, "scale launch 0 CTA (1,0,0) warp 1 record 0: cache_op: A ca, B cg\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        small edited = base;
        edited.edit = cases[i].edit;
        r = diff_small(unedited, &edited, NULL, NULL, 1);
        expect_first(&r, cases[i].first);
        cli_result_free(&r);
    }
    /* A trace that records no cache operator says nothing about it. */
    small no_op = base;
    no_op.edit = EDIT_NO_OP;
    r = diff_small(unedited, &no_op, NULL, NULL, 0);
    cli_result_free(&r);
}

/* A dropped record is counted once per field it shifts, and the summary
 * adds them up. */
Test(cli_diff, summary_counts_by_field, .init = write_base, .fini = remove_base)
{
    small dropped = base;
    dropped.edit = EDIT_DROP;
    cli_result r = diff_small(unedited, &dropped, "--max", "0", 1);
    cr_assert_eq(r.out[0], 'k', "no difference printed: %s", r.out);
    /* Record 1 of that warp now meets the store: PC, kind, space and (the
     * local load's shape against a global address) the address differ. */
    expect_line(&r, "records      11 compared, 1 differ\n");
    expect_line(&r, "left out     A 1 records, B 0 ");
    expect_line(&r, "differences  5: records 1, pc 1, kind 1, space 1, address 1 "
                    "(the first 0 above)\n");
    cli_result_free(&r);
}

Test(cli_diff, shifted_bases_differ_only_without_allocation_tables, .init = write_base,
     .fini = remove_base)
{
    small shifted = base;
    shifted.alloc1_shift = 0x100000;
    cli_result r = diff_small(unedited, &shifted, NULL, NULL, 0);
    cli_result_free(&r);

    /* One trace without a table: both compared as recorded. */
    small bare = base, bare_shifted = shifted;
    bare.no_table = bare_shifted.no_table = 1;
    static const char *const first = "scale launch 0 CTA (0,0,0) warp 0 record 2: address lane 0: "
                                     "A 0x7f0000001000, B 0x7f0000101000\n";
    r = diff_small(unedited, &bare_shifted, NULL, NULL, 1);
    expect_first(&r, first);
    expect_line(&r, "addresses    as recorded: B lists no allocations; local memory by shape\n");
    cli_result_free(&r);
    char *c = write_small(work_dir, "c.wst", &bare);
    r = diff_small(c, &bare_shifted, NULL, NULL, 1);
    expect_first(&r, first);
    expect_line(&r, "as recorded: neither trace lists its allocations;");
    expect_line(&r, "differences  4: address 4");
    cli_result_free(&r);
    r = diff_small(c, &bare_shifted, "--ignore-bases", NULL, 0);
    expect_line(&r, "addresses    by shape (--ignore-bases)");
    cli_result_free(&r);
    /* --ignore-bases still sees a lane out of its place. */
    small moved = bare;
    moved.edit = EDIT_ADDRESS;
    r = diff_small(c, &moved, "--ignore-bases", NULL, 1);
    expect_first(&r, "scale launch 0 CTA (1,0,0) warp 1 record 2: address lane 7: "
                     "A base+0x1c, B base+0x20\n");
    cli_result_free(&r);
    free(c);
}

Test(cli_diff, pcs_by_offset_or_paired, .init = write_base, .fini = remove_base)
{
    small renumbered = base;
    renumbered.pc_shift = 0x1000;
    cli_result r = diff_small(unedited, &renumbered, NULL, NULL, 1);
    expect_line(&r, "differences  12: pc 12 ");
    cli_result_free(&r);
    r = diff_small(unedited, &renumbered, "--pcs", "paired", 0);
    cli_result_free(&r);
    /* Load 0x10 met 0x1010 first; at CTA 1 it meets 0x1040. */
    renumbered.edit = EDIT_PC;
    r = diff_small(unedited, &renumbered, "--pcs", "paired", 1);
    expect_first(&r, "scale launch 0 CTA (1,0,0) warp 1 record 0: pc: "
                     "A 0x10 (paired with 0x1010), B 0x1040\n\n");
    cli_result_free(&r);
}

Test(cli_diff, kernel_names_shapes_and_counts, .init = write_base, .fini = remove_base)
{
    /* A plain name equals the mangled one it demangles to. */
    small plain = base;
    plain.name = "scale";
    cli_result r = diff_small(unedited, &plain, NULL, NULL, 0);
    cli_result_free(&r);
    small renamed = base;
    renamed.name = "shift";
    r = diff_small(unedited, &renamed, NULL, NULL, 1);
    expect_first(&r, "scale launch 0: name: A scale, B shift\n\n");
    expect_line(&r, "records      12 compared, 0 differ\n");
    cli_result_free(&r);
    small wider = base;
    wider.grid_x = 3;
    r = diff_small(unedited, &wider, NULL, NULL, 1);
    expect_first(&r, "scale launch 0: grid: A (2,1,1), B (3,1,1)\n\n");
    expect_line(&r, "kernels      0 compared (A 1, B 1)\n");
    expect_line(&r, "left out     A 12 records, B 12 ");
    cli_result_free(&r);
    small more = base;
    more.extra_kernel = 1;
    r = diff_small(unedited, &more, NULL, NULL, 1);
    expect_first(&r, "kernels: A 1, B 2\n\n");
    cli_result_free(&r);
}

/* An emulated trace and edited copies of it, written through the writer
 * from the same recording: a copy agrees, a copy with allocation 1 (gemm's
 * B) elsewhere agrees, one changed mask is found where it was made. */
Test(cli_diff, edited_copies_of_an_emulated_trace)
{
    char *dir = test_tmpdir();
    char *recorded = test_record_trace(dir, "gemm");
    wst_memtrace *m = test_record_workload("gemm", SIZE_SMALL, 1, 0);
    char *copy = test_path(dir, "copy.wst");
    cr_assert_eq(test_write_memtrace(m, copy, NULL), 0);
    cli_result r = diff(recorded, copy, NULL, NULL, 0);
    cli_result_free(&r);

    wst_allocation *b = &m->trace.allocations[1];
    uint64_t from = b->base, to = b->base + b->bytes, shift = 1u << 20;
    for (size_t i = 0; i < m->per_kernel[0].count; i++) {
        wst_record *rec = &m->per_kernel[0].records[i];
        for (int l = 0; l < 32; l++)
            if ((rec->mask >> l & 1) && rec->addr[l] >= from && rec->addr[l] < to)
                rec->addr[l] += shift;
    }
    b->base += shift;
    char *moved = test_path(dir, "moved.wst");
    cr_assert_eq(test_write_memtrace(m, moved, NULL), 0);
    r = diff(recorded, moved, NULL, NULL, 0);
    cli_result_free(&r);

    wst_record *first = &m->per_kernel[0].records[0];
    uint32_t mask = first->mask;
    first->mask &= first->mask - 1; /* the lowest lane goes quiet */
    char *edited = test_path(dir, "edited.wst");
    cr_assert_eq(test_write_memtrace(m, edited, NULL), 0);
    r = diff(recorded, edited, NULL, NULL, 1);
    const wst_kernel *k = &m->trace.kernels[0];
    char name[128], expected[256];
    demangle_short(k->name, name, sizeof name);
    snprintf(expected, sizeof expected,
             "%s launch 0 CTA (%u,%u,0) warp %u record 0: mask: A 0x%08x, B 0x%08x\n", name,
             first->cta % k->grid.x, first->cta / k->grid.x, first->warp, mask, first->mask);
    expect_first(&r, expected);
    expect_line(&r, "records      33024 compared, 1 differ\n");
    cli_result_free(&r);
    wst_memtrace_free(m);
    free(recorded);
    free(copy);
    free(moved);
    free(edited);
    test_tmpdir_cleanup(dir);
}

/* Imported Accel-Sim traces list no allocations: compared as recorded. */
Test(cli_diff, imported_traces_compare_raw)
{
    char *dir = test_tmpdir();
    char *trace = test_import_accelsim(dir, "vectoradd");
    cli_result r = cli_run("info", trace, NULL);
    expect_line(&r, "allocs     none recorded\n");
    cli_result_free(&r);
    r = diff(trace, trace, NULL, NULL, 0);
    expect_line(&r, "addresses    as recorded: neither trace lists its allocations; local "
                    "memory by\n             shape\n"); /* wrapped at 80 columns */
    cli_result_free(&r);
    free(trace);
    test_tmpdir_cleanup(dir);
}

static void expect_error(cli_result r, const char *message)
{
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert_str_eq(r.err, message);
    cr_assert_eq(r.out[0], '\0', "%s", r.out);
    cli_result_free(&r);
}

Test(cli_diff, bad_input_is_one_line_and_status_2, .init = write_base, .fini = remove_base)
{
    char *missing = test_path(work_dir, "missing.wst"), *text = test_path(work_dir, "text.wst");
    cr_assert_eq(test_write_file(text, "not a trace\n", 12), 0);
    char message[512];
    snprintf(message, sizeof message, "warpscope: %s: cannot open: No such file or directory\n",
             missing);
    expect_error(cli_run("diff", unedited, missing, NULL), message);
    snprintf(message, sizeof message, "warpscope: %s: not a warpscope trace (bad magic)\n", text);
    expect_error(cli_run("diff", text, unedited, NULL), message);
    expect_error(cli_run("diff", unedited, NULL),
                 "warpscope: diff needs two trace files; see 'warpscope diff --help'\n");
    snprintf(message, sizeof message, "warpscope: diff compares two traces; '%s' is a third\n",
             unedited);
    expect_error(cli_run("diff", unedited, unedited, unedited, NULL), message);
    expect_error(cli_run("diff", unedited, unedited, "--max", "ten", NULL),
                 "warpscope: --max: expected a non-negative whole number, got 'ten'\n");
    expect_error(cli_run("diff", unedited, unedited, "--max", NULL),
                 "warpscope: diff: --max needs a value\n");
    expect_error(cli_run("diff", unedited, unedited, "--pcs", "index", NULL),
                 "warpscope: --pcs: 'offset' or 'paired', not 'index'\n");
    expect_error(cli_run("diff", unedited, unedited, "--ignore-base", NULL),
                 "warpscope: diff: unknown option '--ignore-base'; see 'warpscope diff --help'\n");
    cli_result r = cli_run("diff", "--help", NULL);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "0\nwhen the traces agree, 1 when they differ, 2 on an error") != NULL,
              "%s", r.out);
    cli_result_free(&r);
    free(missing);
    free(text);
}
