/* tests/trace_gen.c: see trace_gen.h. */
#include "tests/trace_gen.h"

#include <criterion/criterion.h>

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

uint64_t test_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint32_t random_mask(uint64_t *s)
{
    switch (test_rand(s) % 4) {
    case 0: return 0;
    case 1: return 0xffffffffu;
    case 2: return (uint32_t)test_rand(s);
    default: return 1u << (test_rand(s) % 32);
    }
}

wst_memtrace *test_random_trace(uint64_t seed, uint32_t kernels, uint32_t records_per_kernel)
{
    uint64_t s = seed;
    wst_origin origin = {.collector = "test", .collector_version = "1", .gpu = NULL,
                         .workload = "random \"quoted\", trace"};
    wst_memtrace *m = wst_memtrace_new(&origin);
    wst_sink sink = wst_memtrace_sink(m);
    ws_error err;
    /* Two allocations over the addresses below: most records fall inside. */
    wst_allocation buffers[] = {{0x7f0000000000ULL, 32u << 20},
                                {0x7f0000000000ULL + (32u << 20), 64u << 20}};
    for (int i = 0; i < 2; i++)
        wst_sink_add_allocation(&sink, &buffers[i], &err);
    for (uint32_t k = 0; k < kernels; k++) {
        char name[64];
        snprintf(name, sizeof name, "kernel_%u<float>", k);
        wst_kernel kernel = {.name = name,
                             .grid = {4 + (uint32_t)(test_rand(&s) % 5), 2, 1},
                             .block = {64 + 32 * (uint32_t)(test_rand(&s) % 3), 1, 1},
                             .shared_mem_bytes = (uint32_t)(test_rand(&s) % 4096),
                             .registers_per_thread = (uint32_t)(test_rand(&s) % 64)};
        int index = wst_sink_add_kernel(&sink, &kernel, &err);
        uint32_t pcs = 1 + (uint32_t)(test_rand(&s) % 6);
        for (uint32_t p = 0; p < pcs; p++) {
            wst_pc pc = {.offset = 16 * p + 0x80,
                         .sass = p % 2 ? "LDG.E.32" : NULL,
                         .file = p % 3 == 0 ? "kernel.cu" : NULL,
                         .line = p % 3 == 0 ? 10 + p : 0};
            wst_sink_add_pc(&sink, (uint32_t)index, &pc, &err);
        }
        uint32_t records = k == 1 ? 0 : records_per_kernel; /* kernel 1 is empty */
        uint32_t ctas = kernel.grid.x * kernel.grid.y;
        uint32_t warps = kernel.block.x / 32;
        for (uint32_t i = 0; i < records; i++) {
            wst_record r;
            memset(&r, 0, sizeof r);
            r.cta = (uint32_t)(test_rand(&s) % ctas);
            r.warp = (uint32_t)(test_rand(&s) % warps);
            r.pc = (uint32_t)(test_rand(&s) % pcs);
            r.kind = (uint8_t)(test_rand(&s) % 3);
            r.space = (uint8_t)(test_rand(&s) % 2);
            r.cache_op = (uint8_t)(test_rand(&s) % WST_OP_COUNT);
            r.size = (uint8_t)(1u << (test_rand(&s) % 5));
            r.mask = random_mask(&s);
            if (test_rand(&s) % 2) {
                r.has_sm = 1;
                r.sm = (uint16_t)(test_rand(&s) % 200);
            }
            if (test_rand(&s) % 2) {
                r.has_time = 1;
                r.timestamp = test_rand(&s) % 3 ? 1000 + i * 7 : test_rand(&s);
            }
            uint64_t base = 0x7f0000000000ULL + (test_rand(&s) % (1u << 24)) * 4;
            int pattern = (int)(test_rand(&s) % 4);
            for (int l = 0; l < 32; l++) {
                if (!(r.mask & (1u << l)))
                    continue;
                switch (pattern) {
                case 0: r.addr[l] = base + 4u * l; break;                  /* coalesced */
                case 1: r.addr[l] = base + 512u * l; break;                /* strided */
                case 2: r.addr[l] = base - 8u * l; break;                  /* descending */
                default: r.addr[l] = test_rand(&s);                         /* anything */
                }
            }
            wst_sink_add_record(&sink, (uint32_t)index, &r, &err);
        }
    }
    return m;
}

/* Fills the mask and lanes of r (a 4-byte load whose CTA, warp and PC
 * are set) in iteration i of a kernel of `pcs` PCs. */
typedef void loop_fill_fn(wst_record *r, uint32_t i, uint32_t pcs, uint64_t *s);

/* One kernel whose two CTAs of `warps` warps loop over `pcs` PCs (16
 * bytes apart) `iterations` times, the CTAs' records interleaved. */
static wst_memtrace *loop_trace(char *workload, uint64_t seed, uint32_t warps, uint32_t pcs,
                                uint32_t iterations, loop_fill_fn *fill)
{
    uint64_t s = seed;
    wst_origin origin = {.collector = "test", .workload = workload};
    wst_memtrace *m = wst_memtrace_new(&origin);
    wst_sink sink = wst_memtrace_sink(m);
    ws_error err;
    wst_kernel kernel = {.name = workload, .grid = {2, 1, 1}, .block = {32 * warps, 1, 1}};
    wst_sink_add_kernel(&sink, &kernel, &err);
    for (uint32_t p = 0; p < pcs; p++) {
        wst_pc pc = {.offset = 16 * p};
        wst_sink_add_pc(&sink, 0, &pc, &err);
    }
    for (uint32_t i = 0; i < iterations; i++)
        for (uint32_t w = 0; w < warps; w++)
            for (uint32_t p = 0; p < pcs; p++)
                for (uint32_t cta = 0; cta < 2; cta++) {
                    wst_record r;
                    memset(&r, 0, sizeof r);
                    r.cta = cta;
                    r.warp = w;
                    r.pc = p;
                    r.size = 4;
                    fill(&r, i, pcs, &s);
                    wst_sink_add_record(&sink, 0, &r, &err);
                }
    return m;
}

static void looping_lanes(wst_record *r, uint32_t i, uint32_t pcs, uint64_t *s)
{
    /* Lanes finish one by one; all are back every 5th iteration. */
    r->mask = i % 5 == 4 ? 0xffffffffu : 0xffffffffu >> (i % 5 * 3);
    uint64_t row = 0x7f0000000000ULL + ((uint64_t)r->cta << 32) +
                   ((uint64_t)r->warp * pcs + r->pc) * 65536;
    for (unsigned l = 0; l < 32; l++) {
        /* Rows of uneven length: lanes do not form a stride. */
        uint64_t start = row + 4u * (l * l + (l * 7919u) % 13);
        switch (r->pc % 4) {
        case 0: r->addr[l] = start + 4u * i; break;
        case 1: r->addr[l] = start + 4u * i + 4u * (test_rand(s) % 3); break;
        case 2: r->addr[l] = row + (test_rand(s) % 4096) * 4; break;
        default: r->addr[l] = row + 4u * l + 128u * i; /* coalesced */
        }
    }
}

wst_memtrace *test_looping_trace(uint64_t seed, uint32_t warps, uint32_t pcs,
                                 uint32_t iterations)
{
    return loop_trace("looping", seed, warps, pcs, iterations, looping_lanes);
}

/* A tiled record's mask: see test_tiled_trace. */
static uint32_t tile_mask(uint64_t *s, unsigned log2_width, uint32_t iteration)
{
    unsigned width = 1u << log2_width;
    uint32_t row = (1u << width) - 1, edged = 0;
    for (unsigned r = 0; r < 32; r += width)
        edged |= (row & ~1u & ~(1u << (width - 1))) << r;
    switch (iteration % 6) {
    case 0: return 0xffffffffu;
    case 1: return 0xffffffffu >> (32 - 2 * width); /* two rows */
    case 2: return log2_width >= 2 ? edged : 0xffffffffu;
    case 3: return (uint32_t)test_rand(s) | 0x0f0f0f0fu;
    case 4: return 0x7u; /* three lanes: never a tile */
    default: return 0xffffffffu << width; /* the first row out */
    }
}

static const struct {
    unsigned log2_width;
    int64_t step, row_step;
} tile_shapes[] = {
    {4, 4, 2052},             /* srad: 16 floats a row */
    {2, 1024, 0},             /* gaussian: rows repeat */
    {1, 8, -4096},            /* narrow, rows going down */
    {3, -4, 1 << 20},         /* descending within a row */
    {4, 8, (int64_t)1 << 33}, /* a row step past 32 bits */
    {3, 16, 128},             /* rows continue each other: a stride */
};

static void tiled_lanes(wst_record *r, uint32_t i, uint32_t pcs, uint64_t *s)
{
    unsigned lw = tile_shapes[r->pc].log2_width;
    r->mask = tile_mask(s, lw, i + r->warp);
    uint64_t base = 0x7f0000000000ULL + ((uint64_t)r->cta << 36) +
                    ((uint64_t)r->warp * pcs + r->pc) * 65536 + 64u * i;
    for (unsigned l = 0; l < 32; l++)
        r->addr[l] = base + (uint64_t)tile_shapes[r->pc].step * (l & ((1u << lw) - 1)) +
                     (uint64_t)tile_shapes[r->pc].row_step * (l >> lw);
    if (r->pc == 0 && i % 3 == 2) /* one lane off the tile */
        r->addr[31] += 4;
}

wst_memtrace *test_tiled_trace(uint64_t seed, uint32_t warps, uint32_t iterations)
{
    return loop_trace("tiled", seed, warps, sizeof tile_shapes / sizeof *tile_shapes, iterations,
                      tiled_lanes);
}

void test_add_timing(wst_memtrace *m, uint64_t seed)
{
    uint64_t s = seed;
    static const uint32_t extreme_gaps[] = {1, 127, 128, UINT32_MAX};
    static const uint32_t extreme_waits[] = {0, 1u << 31, UINT32_MAX, 3};
    for (uint32_t k = 0; k < m->trace.kernel_count; k++) {
        m->trace.kernels[k].has_timing = 1;
        for (size_t i = 0; i < m->per_kernel[k].count; i++) {
            wst_record *r = &m->per_kernel[k].records[i];
            uint64_t pick = test_rand(&s) % 12;
            if (pick < 4)
                continue; /* none */
            r->gap = pick < 6 ? 0 : pick < 10 ? (uint32_t)(test_rand(&s) % 20)
                                               : extreme_gaps[test_rand(&s) % 4];
            r->has_waits = pick != 6;
            if (r->has_waits)
                r->waits = pick < 10 ? (uint32_t)(test_rand(&s) % 8) : extreme_waits[test_rand(&s) % 4];
        }
    }
}

void test_untimed_import(wst_memtrace *m)
{
    for (uint32_t k = 0; k < m->trace.kernel_count; k++)
        for (size_t i = 0; i < m->per_kernel[k].count; i++) {
            wst_record *r = &m->per_kernel[k].records[i];
            cr_assert(r->has_waits && r->waits == 0 && r->gap == 0,
                      "kernel %u record %zu: gap %u, waits %#x", k, i, r->gap, r->waits);
            r->has_waits = 0;
        }
}

int test_write_memtrace(const wst_memtrace *m, const char *path, const wst_writer_options *opts)
{
    ws_error err;
    wst_writer *w = wst_writer_open(path, &m->trace.origin, opts, &err);
    if (!w)
        return -1;
    for (uint32_t i = 0; i < m->trace.allocation_count; i++)
        if (wst_writer_add_allocation(w, &m->trace.allocations[i], &err) != 0)
            goto fail;
    for (uint32_t k = 0; k < m->trace.kernel_count; k++) {
        wst_kernel declared = m->trace.kernels[k];
        if (wst_writer_add_kernel(w, &declared, &err) < 0)
            goto fail;
        const wst_memkernel_records *per = &m->per_kernel[k];
        for (size_t i = 0; i < per->count; i++)
            if (wst_writer_add_record(w, k, &per->records[i], &err) != 0)
                goto fail;
    }
    return wst_writer_close(w, &err);
fail:
    wst_writer_abort(w);
    return -1;
}

int test_records_equal(const wst_record *a, const wst_record *b)
{
    if (a->cta != b->cta || a->warp != b->warp || a->pc != b->pc || a->kind != b->kind ||
        a->space != b->space || a->cache_op != b->cache_op || a->size != b->size ||
        a->mask != b->mask || a->has_sm != b->has_sm || a->has_time != b->has_time)
        return 0;
    if (a->has_sm && a->sm != b->sm)
        return 0;
    if (a->has_time && a->timestamp != b->timestamp)
        return 0;
    if (a->gap != b->gap || a->has_waits != b->has_waits || (a->has_waits && a->waits != b->waits))
        return 0;
    for (int l = 0; l < 32; l++)
        if ((a->mask & (1u << l)) && a->addr[l] != b->addr[l])
            return 0;
    return 1;
}

void test_write_pcs_trace(const char *path, uint32_t pcs, uint32_t empty)
{
    ws_error err;
    wst_origin origin = {.collector = "test"};
    wst_writer *w = wst_writer_open(path, &origin, NULL, &err);
    cr_assert_not_null(w, "%s", err.msg);
    wst_pc *table = calloc(pcs, sizeof *table);
    for (uint32_t i = 0; i < pcs; i++)
        table[i] = (wst_pc){.offset = 16u * i, .sass = "LDG.E"};
    wst_kernel k = {.name = "k", .grid = {1, 1, 1}, .block = {256, 1, 1}, .pcs = table, .pc_count = pcs};
    for (uint32_t i = 0; i <= empty; i++)
        cr_assert_eq(wst_writer_add_kernel(w, &k, &err), (int)i, "%s", err.msg);
    wst_record r = {.size = 4, .mask = 0xffffffffu};
    for (uint32_t i = 0; i < pcs; i++) {
        r.pc = i;
        r.warp = i % 8;
        for (int l = 0; l < WST_WARP_SIZE; l++)
            r.addr[l] = 0x100000 + 128u * i + 4u * (unsigned)l;
        cr_assert_eq(wst_writer_add_record(w, 0, &r, &err), 0, "%s", err.msg);
    }
    cr_assert_eq(wst_writer_close(w, &err), 0, "%s", err.msg);
    free(table);
}

wst_memtrace *test_lines_trace(const uint64_t *lines, size_t n, uint32_t ctas, uint32_t warps,
                               uint32_t records, uint32_t store_every, wst_space space)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink s = wst_memtrace_sink(m);
    ws_error err;
    wst_kernel kernel = {.name = "k", .grid = {ctas, 1, 1}, .block = {32 * warps, 1, 1}};
    cr_assert_geq(wst_sink_add_kernel(&s, &kernel, &err), 0);
    cr_assert_geq(wst_sink_add_pc(&s, 0, &(wst_pc){.offset = 0}, &err), 0);
    cr_assert_geq(wst_sink_add_pc(&s, 0, &(wst_pc){.offset = 16}, &err), 0);
    uint64_t seed = 46;
    for (uint32_t i = 0; i < records; i++)
        for (uint32_t cta = 0; cta < ctas; cta++)
            for (uint32_t w = 0; w < warps; w++) {
                wst_record r;
                memset(&r, 0, sizeof r);
                int store = store_every && test_rand(&seed) % store_every == 0;
                r.cta = cta;
                r.warp = w;
                r.pc = store;
                r.kind = (uint8_t)(store ? WST_STORE : WST_LOAD);
                r.space = (uint8_t)space;
                r.size = 4;
                r.mask = 1;
                r.addr[0] = lines[(i + test_rand(&seed) % 3 + w * 5 + cta * 11) % n] * 128;
                cr_assert_eq(wst_sink_add_record(&s, 0, &r, &err), 0, "%s", err.msg);
            }
    return m;
}
