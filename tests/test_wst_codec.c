/* tests/test_wst_codec.c: version 2's chunk model at the byte level
 * (docs/trace-format.md, "Address modes" and "History"): a looping trace
 * uses every address mode and decodes exactly, and a record coded against
 * a history the chunk does not have is refused; the chunk table codes
 * runs in a byte an entry. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "formats/memtrace.h"
#include "formats/wst_chunk_table.h"
#include "formats/wst_codec.h"
#include "formats/wst_columns.h"
#include "formats/wst_history.h"
#include "tests/trace_gen.h"

typedef struct encoded {
    wst_bytes raw;
    wst_frame_layout layout;
    uint32_t count;
    const wst_record *records;
} encoded;

/* CTA 0's records of a looping trace, as one chunk of one frame. */
static encoded encode_cta0(const wst_memtrace *m)
{
    static wst_record chosen[20000];
    encoded e;
    memset(&e, 0, sizeof e);
    wst_bytes rows = {0};
    const wst_memkernel_records *per = &m->per_kernel[0];
    for (size_t i = 0; i < per->count; i++)
        if (per->records[i].cta == 0) {
            cr_assert_lt(e.count, 20000);
            chosen[e.count++] = per->records[i];
            cr_assert_eq(wst_pack(&rows, &per->records[i]), 0);
        }
    ws_error err;
    wst_frame_builder *f = wst_frame_builder_new();
    cr_assert_eq(wst_frame_add_chunk(f, &rows, e.count, &err), 0, "%s", err.msg);
    cr_assert_eq(wst_frame_finish(f, &e.raw, &err), 0);
    wst_frame_builder_free(f);
    wst_bytes_free(&rows);
    cr_assert_eq(wst_frame_parse(&e.layout, e.raw.data, e.raw.len, 1, &e.count, &err), 0, "%s",
                 err.msg);
    e.records = chosen;
    return e;
}

static int64_t decode(const encoded *e, uint32_t warps, wst_record *out, ws_error *err)
{
    static wst_history history;
    wst_decoder d;
    cr_assert_eq(wst_decoder_start_v2(&d, &e->layout, 0, e->count, 0, 64, warps, &history, err), 0);
    return wst_decoder_next(&d, out, e->count, err);
}

Test(wst_codec, looping_warps_use_every_mode_and_decode_exactly)
{
    wst_memtrace *m = test_looping_trace(9, 8, 8, 30);
    encoded e = encode_cta0(m);
    unsigned modes[8] = {0};
    const uint8_t *flags = e.raw.data + e.layout.column_begin[WST_COL_FLAGS];
    for (uint32_t i = 0; i < e.count; i++)
        modes[flags[i] >> 5]++;
    cr_assert_gt(modes[WST_MODE_STRIDE], e.count / 8, "PCs 3 and 7 are coalesced");
    cr_assert_gt(modes[WST_MODE_DELTAS], 0);
    cr_assert_gt(modes[WST_MODE_SHIFTED], e.count / 8, "most PC 0 and 4 records only move");
    cr_assert_gt(modes[WST_MODE_LANE_DELTAS], 0);
    wst_record *out = calloc(e.count, sizeof *out);
    ws_error err;
    cr_assert_eq(decode(&e, 8, out, &err), e.count, "%s", err.msg);
    for (uint32_t i = 0; i < e.count; i++)
        cr_assert(test_records_equal(&out[i], &e.records[i]), "record %u", i);
    free(out);
    wst_frame_layout_free(&e.layout);
    wst_bytes_free(&e.raw);
    wst_memtrace_free(m);
}

Test(wst_codec, a_record_coded_against_a_missing_history_is_refused)
{
    wst_memtrace *m = test_looping_trace(9, 8, 8, 30);
    encoded e = encode_cta0(m);
    /* The first record becomes warp 1's (its warp is the first byte of the
     * warp column): the next record of warp 0, PC 0 then refers to lanes
     * no earlier record of its warp and PC addressed. */
    uint8_t *warp = e.raw.data + e.layout.column_begin[WST_COL_WARP];
    cr_assert_eq(warp[0], 0);
    warp[0] = 1;
    wst_record *out = calloc(e.count, sizeof *out);
    ws_error err;
    cr_assert_eq(decode(&e, 8, out, &err), -1);
    cr_assert(strstr(err.msg, "no earlier record of its warp and PC") != NULL, "%s", err.msg);
    free(out);
    wst_frame_layout_free(&e.layout);
    wst_bytes_free(&e.raw);
    wst_memtrace_free(m);
}

Test(wst_codec, frame_heads_must_agree_with_the_chunk_table)
{
    wst_memtrace *m = test_looping_trace(9, 2, 2, 3);
    encoded e = encode_cta0(m);
    wst_frame_layout layout = {0};
    ws_error err;
    uint32_t wrong = e.count + 1;
    cr_assert_eq(wst_frame_parse(&layout, e.raw.data, e.raw.len, 1, &wrong, &err), -1);
    cr_assert(strstr(err.msg, "record count") != NULL, "%s", err.msg);
    cr_assert_eq(wst_frame_parse(&layout, e.raw.data, e.raw.len, 2, &e.count, &err), -1);
    cr_assert(strstr(err.msg, "chunk count") != NULL, "%s", err.msg);
    cr_assert_eq(wst_frame_parse(&layout, e.raw.data, e.raw.len - 1, 1, &e.count, &err), -1);
    cr_assert(strstr(err.msg, "do not fill") != NULL, "%s", err.msg);
    wst_frame_layout_free(&e.layout);
    wst_bytes_free(&e.raw);
    wst_memtrace_free(m);
}

Test(wst_codec, chunk_table_entries_round_trip_and_runs_take_one_byte)
{
    static const uint32_t entries[][3] = {
        {0, 0, 4096}, {0, 1, 4096}, {0, 2, 4096}, /* the common run */
        {0, 7, 12},   {0, 3, 12},   {2, 0, 1},    /* skips forward and back, a new kernel */
        {1, 4294967295u, 1u << 20}, {1, 0, 5},    /* extremes */
    };
    size_t n = sizeof entries / sizeof *entries;
    wst_bytes table = {0};
    wst_chunk_cursor previous = WST_CHUNK_CURSOR_START;
    for (size_t i = 0; i < n; i++) {
        size_t before = table.len;
        cr_assert_eq(wst_chunk_table_put(&table, &previous, entries[i][0], entries[i][1],
                                         entries[i][2]), 0);
        if (i == 1 || i == 2)
            cr_assert_eq(table.len - before, 1, "entry %zu: same kernel, next CTA, as many records", i);
    }
    wst_chunk_info got[8];
    ws_error err;
    cr_assert_eq(wst_chunk_table_read(table.data, table.len, n, got, &err), 0, "%s", err.msg);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(got[i].kernel, entries[i][0], "entry %zu", i);
        cr_assert_eq(got[i].cta, entries[i][1], "entry %zu", i);
        cr_assert_eq(got[i].records, entries[i][2], "entry %zu", i);
    }
    /* One entry fewer leaves bytes over; one more runs off the end. */
    cr_assert_eq(wst_chunk_table_read(table.data, table.len, n - 1, got, &err), -1);
    cr_assert(strstr(err.msg, "past the last") != NULL, "%s", err.msg);
    wst_chunk_info more[9];
    cr_assert_eq(wst_chunk_table_read(table.data, table.len, n + 1, more, &err), -1);
    cr_assert(strstr(err.msg, "malformed") != NULL, "%s", err.msg);
    /* Flag bits 3-7 are reserved; a CTA before 0 is out of range. */
    uint8_t reserved[] = {0x08}, before_zero[] = {0x02, 0x03};
    cr_assert_eq(wst_chunk_table_read(reserved, 1, 1, got, &err), -1);
    cr_assert_eq(wst_chunk_table_read(before_zero, 2, 1, got, &err), -1);
    cr_assert(strstr(err.msg, "out of range") != NULL, "%s", err.msg);
    wst_bytes_free(&table);
}
