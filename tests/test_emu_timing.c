/* tests/test_emu_timing.c: the timing a port states (emu_gap, emu_loaded,
 * emu_use; collectors/emu/emu_timing.h) becomes each warp record's gap and
 * waits, across a barrier and with lanes that differ in what they use. */
#include <criterion/criterion.h>
#include <string.h>

#include "collectors/emu/emu.h"
#include "formats/memtrace.h"

typedef struct timed_args {
    float *buf;
} timed_args;

/* Two warps; the comments give each warp record's expected timing. */
static void timed_kernel(emu_thread *t)
{
    float *buf = ((const timed_args *)t->args)->buf;
    emu_gap(t, 4);
    float a = EMU_LD(t, float, &buf[t->linear]); /* gap 4, waits none: load 0 */
    emu_value loaded_a = emu_loaded(t);
    float b = EMU_LD(t, float, &buf[64 + t->linear]); /* gap 0, waits none: load 1 */
    emu_value loaded_b = emu_loaded(t);
    emu_use(t, loaded_a);
    emu_gap(t, 1);
    emu_gap(t, 1);
    EMU_ST(t, float, &buf[128 + t->linear], a); /* gap 2, waits a: 2nd most recent, bit 1 */
    EMU_SYNC(t);
    if (t->linear % 32 < 16) /* half the lanes use b, after the barrier */
        emu_use(t, loaded_b);
    EMU_ST(t, float, &buf[192 + t->linear], b); /* gap 0, waits b: bit 0 */
    float c = EMU_ATOMIC_ADD(t, float, &buf[256], 1.0f); /* load 2 */
    emu_use(t, emu_loaded(t));
    emu_use(t, loaded_a);
    emu_gap(t, 7);
    EMU_ST(t, float, &buf[260 + t->linear], c); /* gap 7, waits c (bit 0) and a (bit 2) */
}

Test(emu_timing, stated_gaps_and_uses_become_record_timing)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink sink = wst_memtrace_sink(m);
    ws_error err;
    emu *e = emu_new(&sink, 1u << 20, &err);
    cr_assert_not_null(e, "%s", err.msg);
    emu_set_timing(e, 1);
    timed_args args = {emu_malloc(e, 512 * sizeof(float))};
    emu_launch l = {.name = "timed", .grid = {1, 1, 1}, .block = {64, 1, 1},
                    .uses_barriers = 1, .timed = 1, .kernel = timed_kernel, .args = &args};
    cr_assert_eq(emu_launch_kernel(e, &l, &err), 0, "%s", err.msg);
    cr_assert(m->trace.kernels[0].has_timing);
    static const struct {
        uint32_t gap, waits;
    } want[] = {{4, 0}, {0, 0}, {2, 0x2}, {0, 0x1}, {0, 0}, {7, 0x5}};
    const wst_memkernel_records *per = &m->per_kernel[0];
    cr_assert_eq(per->count, 12); /* six a warp */
    uint32_t seen[2] = {0, 0};
    for (size_t i = 0; i < per->count; i++) {
        const wst_record *r = &per->records[i];
        uint32_t at = seen[r->warp]++;
        cr_assert(r->has_waits);
        cr_assert_eq(r->gap, want[at].gap, "warp %u record %u: gap %u", r->warp, at, r->gap);
        cr_assert_eq(r->waits, want[at].waits, "warp %u record %u: waits %#x", r->warp, at,
                     r->waits);
    }
    emu_free(e);
    wst_memtrace_free(m);
}

/* A launch that states no timing records none, whatever it calls, and so
 * does a timed launch while timing is off (the default). */
Test(emu_timing, untimed_launch_records_blocking_loads)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink sink = wst_memtrace_sink(m);
    ws_error err;
    emu *e = emu_new(&sink, 1u << 20, &err);
    timed_args args = {emu_malloc(e, 512 * sizeof(float))};
    emu_launch l = {.name = "untimed", .grid = {1, 1, 1}, .block = {64, 1, 1},
                    .uses_barriers = 1, .kernel = timed_kernel, .args = &args};
    cr_assert_eq(emu_launch_kernel(e, &l, &err), 0, "%s", err.msg);
    l.timed = 1; /* timing is off */
    cr_assert_eq(emu_launch_kernel(e, &l, &err), 0, "%s", err.msg);
    emu_set_timing(e, 1);
    l.timed = 0;
    cr_assert_eq(emu_launch_kernel(e, &l, &err), 0, "%s", err.msg);
    for (uint32_t k = 0; k < 3; k++)
        cr_assert_not(m->trace.kernels[k].has_timing);
    for (uint32_t k = 0; k < 3; k++)
        for (size_t i = 0; i < m->per_kernel[k].count; i++) {
            const wst_record *r = &m->per_kernel[k].records[i];
            cr_assert(!r->has_waits && r->gap == 0 && r->waits == 0);
        }
    emu_free(e);
    wst_memtrace_free(m);
}
