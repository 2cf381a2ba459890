/* tests/test_emu.c: the emulator's execution model on small hand-checked
 * kernels (collectors/emu/emu.h). */
#include <criterion/criterion.h>
#include <string.h>

#include "collectors/emu/emu.h"
#include "formats/memtrace.h"

typedef struct fixture {
    wst_memtrace *m;
    emu *e;
} fixture;

static fixture make(void)
{
    fixture f;
    f.m = wst_memtrace_new(NULL);
    wst_sink sink = wst_memtrace_sink(f.m);
    ws_error err;
    f.e = emu_new(&sink, 1ull << 30, &err);
    cr_assert_not_null(f.e, "%s", err.msg);
    return f;
}

static void done(fixture *f)
{
    emu_free(f->e);
    wst_memtrace_free(f->m);
}

static void launch(fixture *f, const char *name, emu_dim3 grid, emu_dim3 block, int barriers,
                   uint32_t shared, emu_kernel_fn fn, const void *args)
{
    emu_launch l = {.name = name, .grid = grid, .block = block, .uses_barriers = barriers,
                    .shared_bytes = shared, .kernel = fn, .args = args};
    ws_error err;
    cr_assert_eq(emu_launch_kernel(f->e, &l, &err), 0, "%s", err.msg);
}

static const wst_record *records(const fixture *f, uint32_t kernel, size_t *n)
{
    *n = f->m->per_kernel[kernel].count;
    return f->m->per_kernel[kernel].records;
}

/* ---- early exit ---- */
typedef struct vec_args {
    float *x, *out;
    unsigned n;
} vec_args;

static void vec_copy(emu_thread *t)
{
    const vec_args *a = t->args;
    unsigned i = t->blockIdx.x * t->blockDim.x + t->threadIdx.x;
    if (i >= a->n)
        return;
    float v = EMU_LD(t, float, &a->x[i]);
    EMU_ST(t, float, &a->out[i], v * 2);
}

Test(emu, early_exit_masks_and_addresses)
{
    fixture f = make();
    vec_args a = {emu_malloc(f.e, 100 * 4), emu_malloc(f.e, 100 * 4), 70};
    for (int i = 0; i < 100; i++)
        a.x[i] = (float)i;
    launch(&f, "vec_copy", (emu_dim3){2, 1, 1}, (emu_dim3){64, 1, 1}, 0, 0, vec_copy, &a);
    size_t n;
    const wst_record *r = records(&f, 0, &n);
    /* CTA 0: warps 0, 1 full (load + store each). CTA 1: threads 64..69 in
     * warp 0 (lanes 0..5); warp 1 has no active thread and no record. */
    cr_assert_eq(n, 6);
    cr_assert_eq(r[0].mask, 0xffffffffu);
    cr_assert_eq(r[0].kind, WST_LOAD);
    cr_assert_eq(r[1].kind, WST_STORE);
    cr_assert_eq(r[4].cta, 1);
    cr_assert_eq(r[4].mask, 0x3fu);
    uint64_t x_base = emu_device_address(f.e, a.x);
    cr_assert_eq(r[4].addr[5], x_base + 4 * 69);
    cr_assert_eq(r[2].addr[0], x_base + 4 * 32, "warp 1 starts at thread 32");
    cr_assert_eq(a.out[69], 138.0f, "the kernel really computed");
    cr_assert_eq(a.out[70], 0.0f);
    /* PC table: two sites, SASS and source line known. */
    const wst_kernel *k = &f.m->trace.kernels[0];
    cr_assert_eq(k->pc_count, 2);
    cr_assert_str_eq(k->pcs[0].sass, "LDG.E");
    cr_assert_str_eq(k->pcs[1].sass, "STG.E");
    cr_assert(strstr(k->pcs[0].file, "test_emu.c") != NULL);
    cr_assert_lt(k->pcs[0].offset, k->pcs[1].offset);
    done(&f);
}

/* Every emu_malloc is listed in the trace's allocation table, in order, at
 * the device addresses the records use; an empty one holds nothing and is
 * not listed. */
Test(emu, allocations_are_listed)
{
    fixture f = make();
    vec_args a = {emu_malloc(f.e, 100 * 4), NULL, 70};
    cr_assert_not_null(emu_malloc(f.e, 0));
    a.out = emu_malloc(f.e, 70 * 4);
    const wst_trace *t = &f.m->trace;
    cr_assert_eq(t->allocation_count, 2);
    cr_assert_eq(t->allocations[0].base, emu_device_address(f.e, a.x));
    cr_assert_eq(t->allocations[0].bytes, 400);
    cr_assert_eq(t->allocations[1].base, emu_device_address(f.e, a.out));
    cr_assert_eq(t->allocations[1].bytes, 280);
    done(&f);
}

static int refuse_allocation(void *ctx, const wst_allocation *a, ws_error *err)
{
    return ws_fail(err, "no room for allocation of %llu bytes", (unsigned long long)a->bytes);
}

/* An allocation the sink cannot list fails the next launch, saying why,
 * rather than leaving the table silently short. */
Test(emu, an_unlisted_allocation_fails_the_next_launch)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink sink = wst_memtrace_sink(m);
    sink.add_allocation = refuse_allocation;
    ws_error err;
    emu *e = emu_new(&sink, 1ull << 20, &err);
    vec_args a = {emu_malloc(e, 64 * 4), emu_malloc(e, 64 * 4), 64};
    cr_assert(a.x && a.out, "the memory itself is there");
    emu_launch l = {.name = "vec_copy", .grid = {1, 1, 1}, .block = {64, 1, 1}, .kernel = vec_copy,
                    .args = &a};
    cr_assert_eq(emu_launch_kernel(e, &l, &err), -1);
    cr_assert_str_eq(err.msg, "vec_copy: no room for allocation of 256 bytes");
    cr_assert_eq(m->trace.kernel_count, 0, "nothing recorded");
    emu_free(e);
    wst_memtrace_free(m);
}

/* ---- if/else reconverges after both sides ---- */
static void branches(emu_thread *t)
{
    const vec_args *a = t->args;
    unsigned i = t->threadIdx.x;
    float v;
    if (i % 2 == 0)
        v = EMU_LD(t, float, &a->x[i]);
    else
        v = EMU_LD(t, float, &a->x[100 - i]);
    EMU_ST(t, float, &a->out[i], v);
}

Test(emu, if_else_reconverges)
{
    fixture f = make();
    vec_args a = {emu_malloc(f.e, 128 * 4), emu_malloc(f.e, 128 * 4), 32};
    launch(&f, "branches", (emu_dim3){1, 1, 1}, (emu_dim3){32, 1, 1}, 0, 0, branches, &a);
    size_t n;
    const wst_record *r = records(&f, 0, &n);
    cr_assert_eq(n, 3, "then-side load, else-side load, one merged store");
    cr_assert_eq(r[0].mask, 0x55555555u);
    cr_assert_eq(r[1].mask, 0xaaaaaaaau);
    cr_assert_eq(r[2].mask, 0xffffffffu);
    done(&f);
}

/* ---- loop with divergent trip counts stays in lockstep per iteration ---- */
static void triangle(emu_thread *t)
{
    const vec_args *a = t->args;
    unsigned lane = t->threadIdx.x;
    float sum = 0;
    for (unsigned k = 0; k < lane % 4; k++)
        sum += EMU_LD(t, float, &a->x[k * 32 + lane]);
    EMU_ST(t, float, &a->out[lane], sum);
}

Test(emu, divergent_trip_counts)
{
    fixture f = make();
    vec_args a = {emu_malloc(f.e, 128 * 4), emu_malloc(f.e, 32 * 4), 32};
    launch(&f, "triangle", (emu_dim3){1, 1, 1}, (emu_dim3){32, 1, 1}, 0, 0, triangle, &a);
    size_t n;
    const wst_record *r = records(&f, 0, &n);
    /* Iteration k runs on lanes with lane%4 > k: masks 0xeeee.., 0xcccc..,
     * 0x8888..; then the store with every lane. */
    cr_assert_eq(n, 4);
    cr_assert_eq(r[0].mask, 0xeeeeeeeeu);
    cr_assert_eq(r[1].mask, 0xccccccccu);
    cr_assert_eq(r[2].mask, 0x88888888u);
    cr_assert_eq(r[3].mask, 0xffffffffu);
    cr_assert_eq(r[1].addr[2] - r[0].addr[2], 32 * 4, "iteration 1 reads row 1");
    done(&f);
}

/* ---- barriers: warp 1 reads what warp 0 wrote to shared memory ---- */
static void reverse_via_shared(emu_thread *t)
{
    const vec_args *a = t->args;
    float *tile = t->shared;
    unsigned i = t->threadIdx.x;
    tile[i] = EMU_LD(t, float, &a->x[i]);
    EMU_SYNC(t);
    EMU_ST(t, float, &a->out[i], tile[63 - i]);
}

Test(emu, barrier_orders_shared_memory)
{
    fixture f = make();
    vec_args a = {emu_malloc(f.e, 64 * 4), emu_malloc(f.e, 64 * 4), 64};
    for (int i = 0; i < 64; i++)
        a.x[i] = (float)i + 1;
    launch(&f, "reverse", (emu_dim3){2, 1, 1}, (emu_dim3){64, 1, 1}, 1, 64 * 4,
           reverse_via_shared, &a);
    for (int i = 0; i < 64; i++)
        cr_assert_eq(a.out[i], 64.0f - i, "out[%d]", i);
    size_t n;
    const wst_record *r = records(&f, 0, &n);
    cr_assert_eq(n, 8, "2 CTAs x 2 warps x (load, store)");
    cr_assert_eq(r[0].kind, WST_LOAD);
    cr_assert_eq(r[1].kind, WST_LOAD, "both warps load before the barrier");
    cr_assert_eq(r[2].kind, WST_STORE);
    done(&f);
}

/* ---- sizes, atomics, cg, local ---- */
typedef struct mixed_args {
    uint8_t *bytes;
    uint16_t *halves;
    double *doubles;
    float *quads; /* 4 floats per lane */
    int *counter;
} mixed_args;

typedef struct float4_ {
    float v[4];
} float4_;

static void mixed(emu_thread *t)
{
    const mixed_args *a = t->args;
    unsigned i = t->threadIdx.x;
    uint8_t b = EMU_LD(t, uint8_t, &a->bytes[i]);
    uint16_t h = EMU_LD(t, uint16_t, &a->halves[i]);
    double d = EMU_LD_CG(t, double, &a->doubles[i]);
    float4_ q = EMU_LD(t, float4_, (const float4_ *)&a->quads[4 * i]);
    EMU_ATOMIC_ADD(t, int, a->counter, 1);
    float *scratch = emu_local(t);
    EMU_STL(t, float, &scratch[1], (float)(b + h + d + q.v[0]));
}

Test(emu, sizes_atomics_cg_local)
{
    fixture f = make();
    mixed_args a = {emu_malloc(f.e, 32), emu_malloc(f.e, 64), emu_malloc(f.e, 256),
                    emu_malloc(f.e, 512), emu_malloc(f.e, 4)};
    launch(&f, "mixed", (emu_dim3){1, 1, 1}, (emu_dim3){32, 1, 1}, 0, 0, mixed, &a);
    cr_assert_eq(*a.counter, 32, "atomics really add");
    size_t n;
    const wst_record *r = records(&f, 0, &n);
    cr_assert_eq(n, 6);
    uint8_t sizes[] = {1, 2, 8, 16, 4, 4};
    for (int i = 0; i < 6; i++)
        cr_assert_eq(r[i].size, sizes[i], "record %d", i);
    cr_assert_eq(r[2].cache_op, WST_OP_CG);
    cr_assert_eq(r[4].kind, WST_ATOMIC);
    cr_assert_eq(r[4].addr[7], r[4].addr[0], "every lane hits one counter");
    cr_assert_eq(r[5].space, WST_LOCAL);
    cr_assert_eq(r[5].addr[1] - r[5].addr[0], 4, "local memory interleaves lanes by 4 bytes");
    const wst_kernel *k = &f.m->trace.kernels[0];
    cr_assert_str_eq(k->pcs[2].sass, "LDG.E.CG.64");
    cr_assert_str_eq(k->pcs[3].sass, "LDG.E.128");
    cr_assert_str_eq(k->pcs[0].sass, "LDG.E.U8");
    cr_assert_str_eq(k->pcs[5].sass, "STL");
    done(&f);
}

Test(emu, deterministic_addresses_across_runs)
{
    uint64_t first_address = 0;
    for (int run = 0; run < 2; run++) {
        fixture f = make();
        emu_malloc(f.e, 1000);
        vec_args a = {emu_malloc(f.e, 64 * 4), emu_malloc(f.e, 64 * 4), 64};
        launch(&f, "vec_copy", (emu_dim3){1, 1, 1}, (emu_dim3){64, 1, 1}, 0, 0, vec_copy, &a);
        size_t n;
        const wst_record *r = records(&f, 0, &n);
        if (run == 0)
            first_address = r[0].addr[0];
        else
            cr_assert_eq(r[0].addr[0], first_address);
        cr_assert_eq(r[0].addr[0] % 256, 0, "allocations are 256-byte aligned");
        done(&f);
    }
}

Test(emu, invalid_launch_and_sync_without_barriers)
{
    fixture f = make();
    ws_error err;
    emu_launch bad = {.name = "bad", .grid = {1, 1, 1}, .block = {2048, 1, 1}, .kernel = vec_copy};
    cr_assert_eq(emu_launch_kernel(f.e, &bad, &err), -1);
    vec_args a = {emu_malloc(f.e, 64 * 4), emu_malloc(f.e, 64 * 4), 64};
    emu_launch no_barriers = {.name = "reverse", .grid = {1, 1, 1}, .block = {64, 1, 1},
                              .shared_bytes = 256, .kernel = reverse_via_shared, .args = &a};
    cr_assert_eq(emu_launch_kernel(f.e, &no_barriers, &err), -1);
    cr_assert(strstr(err.msg, "uses_barriers") != NULL, "%s", err.msg);
    done(&f);
}

/* ---- lanes that skip an if-body inside a loop do not run ahead ---- */
static void skip_in_loop(emu_thread *t)
{
    const vec_args *a = t->args;
    unsigned lane = t->threadIdx.x;
    for (unsigned k = 0; k < 3; k++) {
        float v = EMU_LD(t, float, &a->x[k * 32 + lane]);
        if ((lane + k) % 2 == 0)
            EMU_ST(t, float, &a->out[k * 32 + lane], v);
    }
}

Test(emu, skipped_if_body_keeps_iterations_in_lockstep)
{
    fixture f = make();
    vec_args a = {emu_malloc(f.e, 96 * 4), emu_malloc(f.e, 96 * 4), 32};
    launch(&f, "skip", (emu_dim3){1, 1, 1}, (emu_dim3){32, 1, 1}, 0, 0, skip_in_loop, &a);
    size_t n;
    const wst_record *r = records(&f, 0, &n);
    /* As a SIMT stack would: per iteration one full load, then the store of
     * the lanes whose condition holds. */
    cr_assert_eq(n, 6);
    for (unsigned k = 0; k < 3; k++) {
        cr_assert_eq(r[2 * k].kind, WST_LOAD);
        cr_assert_eq(r[2 * k].mask, 0xffffffffu, "iteration %u load", k);
        cr_assert_eq(r[2 * k + 1].kind, WST_STORE);
        cr_assert_eq(r[2 * k + 1].mask, k % 2 ? 0xaaaaaaaau : 0x55555555u, "iteration %u", k);
    }
    done(&f);
}

/* ---- nested loops with a divergent inner trip count ---- */
static void nested(emu_thread *t)
{
    const vec_args *a = t->args;
    unsigned lane = t->threadIdx.x;
    float sum = 0;
    for (unsigned i = 0; i < 2; i++) {
        sum += EMU_LD(t, float, &a->x[64 + lane]); /* outer body starts before the inner loop */
        for (unsigned k = 0; k < 1 + lane % 2; k++)
            sum += EMU_LD(t, float, &a->x[k * 32 + lane]);
        EMU_ST(t, float, &a->out[i * 32 + lane], sum);
    }
}

Test(emu, nested_loops_reconverge_each_outer_iteration)
{
    fixture f = make();
    vec_args a = {emu_malloc(f.e, 96 * 4), emu_malloc(f.e, 96 * 4), 32};
    launch(&f, "nested", (emu_dim3){1, 1, 1}, (emu_dim3){32, 1, 1}, 0, 0, nested, &a);
    size_t n;
    const wst_record *r = records(&f, 0, &n);
    /* Per outer iteration: outer load, inner load (all), inner load (odd
     * lanes), store (all). */
    cr_assert_eq(n, 8);
    uint32_t expected[] = {0xffffffffu, 0xffffffffu, 0xaaaaaaaau, 0xffffffffu};
    for (int i = 0; i < 8; i++)
        cr_assert_eq(r[i].mask, expected[i % 4], "record %d", i);
    done(&f);
}

/* The documented approximation: an inner loop that is also the first access
 * of its outer loop shares the outer loop's header, so lanes that finish the
 * inner loop early run on to the store (emu.h). */
static void nested_shared_header(emu_thread *t)
{
    const vec_args *a = t->args;
    unsigned lane = t->threadIdx.x;
    float sum = 0;
    for (unsigned i = 0; i < 2; i++) {
        for (unsigned k = 0; k < 1 + lane % 2; k++)
            sum += EMU_LD(t, float, &a->x[k * 32 + lane]);
        EMU_ST(t, float, &a->out[i * 32 + lane], sum);
    }
}

Test(emu, nested_loops_sharing_a_header_are_approximate)
{
    fixture f = make();
    vec_args a = {emu_malloc(f.e, 96 * 4), emu_malloc(f.e, 96 * 4), 32};
    launch(&f, "nested2", (emu_dim3){1, 1, 1}, (emu_dim3){32, 1, 1}, 0, 0, nested_shared_header,
           &a);
    size_t n;
    const wst_record *r = records(&f, 0, &n);
    uint64_t lanes = 0;
    for (size_t i = 0; i < n; i++)
        lanes += (uint64_t)__builtin_popcount(r[i].mask);
    cr_assert_eq(lanes, 2 * (32 + 16 + 32), "every lane access is recorded exactly once");
    cr_assert_eq(r[0].mask, 0xffffffffu);
    done(&f);
}
