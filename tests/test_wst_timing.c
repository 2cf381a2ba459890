/* tests/test_wst_timing.c: the timing columns of version 4 at the byte
 * level (docs/trace-format.md, "Timing"): a frame lists them only when a
 * record carries timing, they decode exactly, and a gap or waits column
 * that ends early or holds a value out of range, or timing in a file of
 * an older version, is refused with one line. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "formats/wst_codec.h"
#include "formats/wst_columns.h"
#include "formats/wst_history.h"

typedef struct timed_frame {
    wst_bytes raw;
    wst_frame_layout layout;
    uint32_t count;
} timed_frame;

/* One chunk of records of warp 0, PC 0, one lane each, with the given
 * gaps and waits (has_waits where waits[i] != NO_WAITS). */
#define NO_WAITS UINT64_MAX
static timed_frame encode(const uint32_t *gaps, const uint64_t *waits, uint32_t count)
{
    timed_frame t = {.count = count};
    wst_bytes rows = {0};
    for (uint32_t i = 0; i < count; i++) {
        wst_record r;
        memset(&r, 0, sizeof r);
        r.size = 4;
        r.mask = 1;
        r.addr[0] = 0x1000 + 4 * i;
        r.gap = gaps[i];
        r.has_waits = waits[i] != NO_WAITS;
        r.waits = r.has_waits ? (uint32_t)waits[i] : 0;
        cr_assert_eq(wst_pack(&rows, &r), 0);
    }
    ws_error err;
    wst_frame_builder *f = wst_frame_builder_new();
    cr_assert_eq(wst_frame_add_chunk(f, &rows, count, &err), 0, "%s", err.msg);
    cr_assert_eq(wst_frame_finish(f, &t.raw, &err), 0);
    wst_frame_builder_free(f);
    wst_bytes_free(&rows);
    cr_assert_eq(wst_frame_parse(&t.layout, t.raw.data, t.raw.len, 1, &t.count, &err), 0, "%s",
                 err.msg);
    return t;
}

static void free_frame(timed_frame *t)
{
    wst_frame_layout_free(&t->layout);
    wst_bytes_free(&t->raw);
}

/* Decodes t as a file of `version` would: records, or -1 with err. */
static int64_t decode(const timed_frame *t, unsigned version, wst_record *out, ws_error *err)
{
    static wst_history history;
    wst_decoder d;
    if (wst_decoder_start_v2(&d, &t->layout, 0, t->count, 0, 1, 1, version, &history, err) != 0)
        return -1;
    return wst_decoder_next(&d, out, t->count, err);
}

static uint8_t *column(timed_frame *t, int c)
{
    return t->raw.data + t->layout.column_begin[c];
}

Test(wst_timing, extremes_decode_exactly)
{
    uint32_t gaps[] = {0, 1, 127, 128, UINT32_MAX, 0};
    uint64_t waits[] = {NO_WAITS, 0, 1, 1u << 31, UINT32_MAX, NO_WAITS};
    timed_frame t = encode(gaps, waits, 6);
    cr_assert(t.layout.timed);
    wst_record out[6];
    ws_error err;
    cr_assert_eq(decode(&t, 4, out, &err), 6, "%s", err.msg);
    for (int i = 0; i < 6; i++) {
        cr_assert_eq(out[i].gap, gaps[i]);
        cr_assert_eq(out[i].has_waits, waits[i] != NO_WAITS);
        cr_assert_eq(out[i].waits, waits[i] != NO_WAITS ? (uint32_t)waits[i] : 0);
    }
    /* gaps 1, 127: a byte each; 128: two; 2^32 - 1: five. */
    cr_assert_eq(t.layout.column_bytes[WST_COL_GAP], 1 + 1 + 2 + 5);
    free_frame(&t);
}

Test(wst_timing, a_frame_without_timing_lists_nine_columns)
{
    uint32_t gaps[] = {0, 0};
    uint64_t waits[] = {NO_WAITS, NO_WAITS};
    timed_frame t = encode(gaps, waits, 2);
    cr_assert_not(t.layout.timed);
    cr_assert_eq(t.raw.data[3] & 0x80, 0, "the frame head's bit 31 is clear");
    /* head, one chunk head of 4 + 9 × 4 bytes, then the columns */
    size_t columns = 0;
    for (int c = 0; c < WST_COLUMNS; c++)
        columns += t.layout.column_bytes[c];
    cr_assert_eq(t.raw.len, 4 + 40 + columns);
    free_frame(&t);
}

/* Two records whose `column` is cut to its first byte: the second's value
 * is missing. */
static void column_cut_short(int column, const uint32_t *gaps, const uint64_t *waits,
                             const char *error)
{
    timed_frame t = encode(gaps, waits, 2);
    t.layout.column_bytes[column] = 1;
    wst_record out[2];
    ws_error err;
    cr_assert_eq(decode(&t, 4, out, &err), -1);
    cr_assert_str_eq(err.msg, error);
    free_frame(&t);
}

Test(wst_timing, columns_ending_early)
{
    uint32_t gaps[] = {3, 5}, no_gaps[] = {0, 0};
    uint64_t waits[] = {1, 2}, no_waits[] = {NO_WAITS, NO_WAITS};
    column_cut_short(WST_COL_GAP, gaps, no_waits, "record 1: gap column ends early");
    column_cut_short(WST_COL_WAITS, no_gaps, waits, "record 1: waits column ends early");
}

Test(wst_timing, values_out_of_range)
{
    uint32_t gaps[] = {1, UINT32_MAX};
    uint64_t waits[] = {UINT32_MAX, NO_WAITS};
    wst_record out[2];
    ws_error err;

    timed_frame t = encode(gaps, waits, 2);
    column(&t, WST_COL_GAP)[0] = 0; /* a gap of 0 coded */
    cr_assert_eq(decode(&t, 4, out, &err), -1);
    cr_assert_str_eq(err.msg, "record 0: gap 0 outside 1..2^32-1");
    free_frame(&t);

    t = encode(gaps, waits, 2);
    column(&t, WST_COL_GAP)[1 + 4] = 0x1f; /* the second gap's fifth byte: 2^32 + ... */
    cr_assert_eq(decode(&t, 4, out, &err), -1);
    cr_assert(strstr(err.msg, "record 1: gap 8589934591 outside") != NULL, "%s", err.msg);
    free_frame(&t);

    t = encode(gaps, waits, 2);
    column(&t, WST_COL_WAITS)[4] = 0x1f;
    cr_assert_eq(decode(&t, 4, out, &err), -1);
    cr_assert_str_eq(err.msg, "record 0: waits 8589934591 past 32 bits");
    free_frame(&t);

    t = encode(gaps, waits, 2);
    column(&t, WST_COL_WAITS)[4] = 0x8f; /* a varint that runs off its column */
    cr_assert_eq(decode(&t, 4, out, &err), -1);
    cr_assert_str_eq(err.msg, "record 0: waits column ends early");
    free_frame(&t);
}

Test(wst_timing, timing_in_an_older_version_is_refused)
{
    uint32_t gaps[] = {2, 0};
    uint64_t waits[] = {NO_WAITS, NO_WAITS};
    wst_record out[2];
    ws_error err;
    timed_frame t = encode(gaps, waits, 2);
    cr_assert_eq(decode(&t, 3, out, &err), -1);
    cr_assert_str_eq(err.msg, "timing columns in a frame of version 3");
    free_frame(&t);

    /* A frame without timing columns, a record's timing bit set. */
    gaps[0] = 0;
    t = encode(gaps, waits, 2);
    column(&t, WST_COL_ATTR)[1] |= WST_ATTR_GAP;
    cr_assert_eq(decode(&t, 3, out, &err), -1);
    cr_assert_str_eq(err.msg, "record 1: timing bits in a file of version 3");
    cr_assert_eq(decode(&t, 4, out, &err), -1);
    cr_assert_str_eq(err.msg, "record 1: gap column ends early");
    free_frame(&t);
}
