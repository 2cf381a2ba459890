/* tests/test_wst_codec.c: the chunk model of versions 2 and 3 at the byte
 * level (docs/trace-format.md, "Address modes" and "History"): a looping
 * trace uses every address mode and decodes exactly, 2D thread blocks are
 * coded as tiles, and a record coded against a history the chunk does not
 * have, or a tile of no allowed width, is refused; the chunk table codes
 * runs in a byte an entry. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "formats/memtrace.h"
#include "formats/packed_record.h"
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

/* records[0..n), as one chunk of one frame. */
static encoded encode_records(const wst_record *records, uint32_t n)
{
    encoded e;
    memset(&e, 0, sizeof e);
    wst_bytes rows = {0};
    for (e.count = 0; e.count < n; e.count++)
        cr_assert_eq(wst_pack(&rows, &records[e.count]), 0);
    ws_error err;
    wst_frame_builder *f = wst_frame_builder_new();
    cr_assert_eq(wst_frame_add_chunk(f, &rows, e.count, &err), 0, "%s", err.msg);
    cr_assert_eq(wst_frame_finish(f, &e.raw, &err), 0);
    wst_frame_builder_free(f);
    wst_bytes_free(&rows);
    cr_assert_eq(wst_frame_parse(&e.layout, e.raw.data, e.raw.len, 1, &e.count, &err), 0, "%s",
                 err.msg);
    e.records = records;
    return e;
}

/* CTA 0's records of a looping trace, as one chunk of one frame. */
static encoded encode_cta0(const wst_memtrace *m)
{
    static wst_record chosen[20000];
    uint32_t n = 0;
    const wst_memkernel_records *per = &m->per_kernel[0];
    for (size_t i = 0; i < per->count; i++)
        if (per->records[i].cta == 0) {
            cr_assert_lt(n, 20000);
            chosen[n++] = per->records[i];
        }
    return encode_records(chosen, n);
}

static void free_encoded(encoded *e, wst_memtrace *m)
{
    wst_frame_layout_free(&e->layout);
    wst_bytes_free(&e->raw);
    wst_memtrace_free(m);
}

/* How many of e's records each address mode codes. */
static void count_modes(const encoded *e, unsigned modes[8])
{
    memset(modes, 0, 8 * sizeof *modes);
    const uint8_t *flags = e->raw.data + e->layout.column_begin[WST_COL_FLAGS];
    for (uint32_t i = 0; i < e->count; i++)
        modes[flags[i] >> 5]++;
}

static int64_t decode(const encoded *e, uint32_t warps, wst_record *out, ws_error *err)
{
    static wst_history history;
    wst_decoder d;
    cr_assert_eq(wst_decoder_start_v2(&d, &e->layout, 0, e->count, 0, 64, warps, WST_VERSION,
                                      &history, err), 0);
    return wst_decoder_next(&d, out, e->count, err);
}

static void check_decodes_exactly(const encoded *e, uint32_t warps)
{
    wst_record *out = calloc(e->count, sizeof *out);
    ws_error err;
    cr_assert_eq(decode(e, warps, out, &err), e->count, "%s", err.msg);
    for (uint32_t i = 0; i < e->count; i++)
        cr_assert(test_records_equal(&out[i], &e->records[i]), "record %u", i);
    free(out);
}

Test(wst_codec, looping_warps_use_every_mode_and_decode_exactly)
{
    wst_memtrace *m = test_looping_trace(9, 8, 8, 30);
    encoded e = encode_cta0(m);
    unsigned modes[8];
    count_modes(&e, modes);
    cr_assert_gt(modes[WST_MODE_STRIDE], e.count / 8, "PCs 3 and 7 are coalesced");
    cr_assert_gt(modes[WST_MODE_DELTAS], 0);
    cr_assert_gt(modes[WST_MODE_SHIFTED], e.count / 8, "most PC 0 and 4 records only move");
    cr_assert_gt(modes[WST_MODE_LANE_DELTAS], 0);
    check_decodes_exactly(&e, 8);
    free_encoded(&e, m);
}

Test(wst_codec, tiles_of_2d_blocks_use_mode_tiled_and_decode_exactly)
{
    wst_memtrace *m = test_tiled_trace(5, 4, 24);
    encoded e = encode_cta0(m);
    unsigned modes[8];
    count_modes(&e, modes);
    cr_assert_gt(modes[WST_MODE_TILED], e.count / 3, "most records are tiles");
    cr_assert_gt(modes[WST_MODE_STRIDE], 0, "PC 5's rows continue each other");
    cr_assert_gt(modes[WST_MODE_SHIFTED] + modes[WST_MODE_LANE_DELTAS], 0,
                 "a lane off its tile is coded against the tile");
    check_decodes_exactly(&e, 4);
    free_encoded(&e, m);
}

Test(wst_codec, a_tile_wider_than_16_lanes_or_narrower_than_2_is_refused)
{
    wst_memtrace *m = test_tiled_trace(5, 1, 1);
    encoded e = encode_cta0(m);
    /* Record 0 is PC 0's full tile of width 16: the lanes column starts
     * with log2 of its width. */
    uint8_t *lanes = e.raw.data + e.layout.column_begin[WST_COL_LANES];
    cr_assert_eq(e.raw.data[e.layout.column_begin[WST_COL_FLAGS]] >> 5, WST_MODE_TILED);
    cr_assert_eq(lanes[0], 4);
    static const uint8_t wrong[] = {5, 0};
    for (int i = 0; i < 2; i++) {
        lanes[0] = wrong[i];
        wst_record out[8];
        ws_error err;
        cr_assert_eq(decode(&e, 1, out, &err), -1);
        cr_assert(strstr(err.msg, "tile width out of range") != NULL, "%s", err.msg);
    }
    free_encoded(&e, m);
}

/* Decodes e both ways, as the corruption suite's files are read: whole
 * records then packed, and straight into the packed form.  Returns
 * whether the chunk was sound; the two ways must agree on that and, when
 * it is, on every packed byte. */
static int decode_both_ways(const encoded *e, uint32_t warps, wst_record *out)
{
    static wst_history history;
    wst_decoder d;
    ws_error err, direct_err;
    packed_cta from_records = {0}, direct = {0};
    cr_assert_eq(wst_decoder_start_v2(&d, &e->layout, 0, e->count, 0, 64, warps, WST_VERSION,
                                      &history, &err), 0);
    int64_t n = wst_decoder_next(&d, out, e->count, &err);
    if (n > 0)
        cr_assert_eq(packed_cta_append(&from_records, out, (size_t)n, &err), 0, "%s", err.msg);
    cr_assert_eq(wst_decoder_start_v2(&d, &e->layout, 0, e->count, 0, 64, warps, WST_VERSION,
                                      &history, &direct_err), 0);
    int64_t m = wst_decoder_next_packed(&d, &direct, e->count, &direct_err);
    int sound = n == e->count;
    cr_assert_eq(sound, m == e->count, "the two paths disagree: %s",
                 sound ? direct_err.msg : err.msg);
    if (sound) {
        cr_assert_eq(direct.count, from_records.count);
        cr_assert_eq(direct.lane_count, from_records.lane_count);
        cr_assert_eq(memcmp(direct.records, from_records.records,
                            direct.count * sizeof *direct.records), 0);
        if (direct.lane_count)
            cr_assert_eq(memcmp(direct.lanes, from_records.lanes,
                                direct.lane_count * sizeof *direct.lanes), 0);
    }
    packed_cta_free(&from_records);
    packed_cta_free(&direct);
    return sound;
}

/* Damaged chunks with no checksum to catch them (the columns past their
 * heads, a byte or two at a time): the decoder's own checks and its two
 * paths hold, whatever the bytes, on the tile records most of all. */
Test(wst_codec, damaged_tiles_decode_alike_on_both_paths)
{
    wst_memtrace *m = test_tiled_trace(8, 2, 12);
    encoded e = encode_cta0(m);
    wst_record *out = calloc(e.count, sizeof *out);
    cr_assert(decode_both_ways(&e, 2, out), "the undamaged chunk decodes");
    uint8_t *pristine = malloc(e.raw.len);
    memcpy(pristine, e.raw.data, e.raw.len);
    size_t from = e.layout.column_begin[WST_COL_FLAGS];
    uint64_t s = 20261125;
    unsigned sound = 0;
    for (int trial = 0; trial < 4000; trial++) {
        for (int k = 0; k < 1 + trial % 2; k++)
            e.raw.data[from + test_rand(&s) % (e.raw.len - from)] = (uint8_t)test_rand(&s);
        sound += (unsigned)decode_both_ways(&e, 2, out);
        memcpy(e.raw.data, pristine, e.raw.len);
    }
    cr_assert_gt(sound, 0, "some damage still decodes (an address moved), on both paths alike");
    free(pristine);
    free(out);
    free_encoded(&e, m);
}

/* e decodes exactly, whole and straight into the packed form alike; then
 * e (of records the caller holds) is freed. */
static void check_all_paths_then_free(encoded *e, uint32_t warps)
{
    check_decodes_exactly(e, warps);
    wst_record *out = calloc(e->count, sizeof *out);
    cr_assert(decode_both_ways(e, warps, out));
    free(out);
    wst_frame_layout_free(&e->layout);
    wst_bytes_free(&e->raw);
}

/* A random record of (warp, pc): affine, a tile, a gather, or the last
 * record of its warp and PC moved (on a subset of its lanes, at times one
 * lane off), which the writer codes against the history whatever shape
 * that record had (modes SHIFTED and LANE_DELTAS). */
static wst_record random_shape(uint64_t *s, const wst_record *last, uint32_t warp, uint32_t pc)
{
    wst_record r;
    memset(&r, 0, sizeof r);
    r.warp = warp;
    r.pc = pc;
    r.size = 4;
    r.mask = (uint32_t)test_rand(s) | (test_rand(s) % 2 ? 0xffffffffu : 0);
    r.mask = r.mask ? r.mask : 1;
    uint64_t base = test_rand(s) % (1ull << 40), step = test_rand(s) % 64 - 32;
    unsigned shape = last ? (unsigned)(test_rand(s) % 4) : (unsigned)(test_rand(s) % 3);
    unsigned log2_width = 1 + (unsigned)(test_rand(s) % 4);
    for (unsigned l = 0; l < 32; l++)
        switch (shape) {
        case 0: r.addr[l] = base + step * l; break;
        case 1:
            r.addr[l] = base + (l & ((1u << log2_width) - 1)) * step +
                        (l >> log2_width) * (test_rand(s) % 2 ? 4096 : 0 - 512ull);
            break;
        case 2: r.addr[l] = base + test_rand(s) % 65536; break;
        default: r.addr[l] = last->addr[l] + step * 8; break;
        }
    if (shape == 1) /* one row step for the whole tile */
        for (unsigned l = 0; l < 32; l++)
            r.addr[l] = base + (l & ((1u << log2_width) - 1)) * step + (l >> log2_width) * 2052;
    if (shape == 3) {
        r.mask = last->mask & (test_rand(s) % 2 ? 0xffffffffu : (uint32_t)test_rand(s));
        r.mask = r.mask ? r.mask : last->mask;
        if (test_rand(s) % 2)
            r.addr[test_rand(s) % 32] += test_rand(s) % 1000;
    }
    return r;
}

/* Records of every shape, each (warp, pc)'s history holding an affine, a
 * tiled or a lane-by-lane record in turn: decoded exactly, whole and
 * straight into the packed form alike. */
Test(wst_codec, records_coded_against_every_shape_of_history_decode_exactly)
{
    enum { WARPS = 4, PCS = 3, N = 3000 };
    static wst_record records[N];
    wst_record *last[WARPS][PCS] = {{0}};
    uint64_t s = 4242;
    for (uint32_t i = 0; i < N; i++) {
        uint32_t warp = (uint32_t)(test_rand(&s) % WARPS), pc = (uint32_t)(test_rand(&s) % PCS);
        records[i] = random_shape(&s, last[warp][pc], warp, pc);
        last[warp][pc] = &records[i];
    }
    encoded e = encode_records(records, N);
    unsigned modes[8];
    count_modes(&e, modes);
    for (unsigned m = WST_MODE_STRIDE; m <= WST_MODE_TILED; m++)
        cr_assert_gt(modes[m], N / 50, "mode %u: %u records", m, modes[m]);
    check_all_paths_then_free(&e, WARPS);
}

/* The slot of (warp, pc) by docs/trace-format.md, "History", written out
 * here apart from wst_history.h. */
static unsigned documented_slot(uint32_t warp, uint32_t pc)
{
    return (unsigned)(((uint64_t)warp * 0x9E3779B1u ^ (uint64_t)pc * 0x85EBCA77u) % 4294967296u) >>
           22;
}

/* The table is the documented direct-mapped one, however it is stored: a
 * pair that shares a slot replaces the earlier, a new chunk empties every
 * slot, and a chunk that uses every slot keeps the last pair of each.
 * Stored densely, a chunk that uses k slots takes k entries. */
Test(wst_history, a_slot_holds_the_last_pair_of_its_chunk_and_a_chunk_starts_empty)
{
    static wst_history h;
    /* warp 0, pc 0 and the first warp of pc 0 that shares its slot (0). */
    uint32_t other = 1;
    while (documented_slot(other, 0) != documented_slot(0, 0))
        other++;
    wst_history_begin_chunk(&h);
    wst_history_slot *a = wst_history_slot_of(&h, 0, 0);
    cr_assert_not(wst_history_hit(&h, a, 0, 0), "the chunk starts empty");
    wst_history_claim(&h, a, 0, 0, 1);
    cr_assert(wst_history_hit(&h, wst_history_slot_of(&h, 0, 0), 0, 0));
    wst_history_slot *b = wst_history_slot_of(&h, other, 0);
    cr_assert_eq(b, a, "warp %u, pc 0 shares warp 0's slot", other);
    cr_assert_not(wst_history_hit(&h, b, other, 0));
    wst_history_claim(&h, b, other, 0, 1);
    cr_assert_not(wst_history_hit(&h, wst_history_slot_of(&h, 0, 0), 0, 0), "replaced");
    cr_assert(wst_history_hit(&h, wst_history_slot_of(&h, other, 0), other, 0));
    cr_assert_eq(h.used, 1, "one slot used: one entry");

    /* The next chunk: every pair of every slot, then every slot again. */
    wst_history_begin_chunk(&h);
    cr_assert_not(wst_history_hit(&h, wst_history_slot_of(&h, other, 0), other, 0));
    static uint32_t last_warp[WST_HISTORY_SLOTS]; /* + 1; 0: none yet */
    static uint8_t looked_up[WST_HISTORY_SLOTS];
    looked_up[documented_slot(other, 0)] = 1;
    unsigned distinct = 1;
    for (uint32_t warp = 0; distinct < WST_HISTORY_SLOTS || warp < 4 * WST_HISTORY_SLOTS; warp++) {
        unsigned slot = documented_slot(warp, 7);
        distinct += !looked_up[slot];
        looked_up[slot] = 1;
        last_warp[slot] = warp + 1;
        wst_history_slot *s = wst_history_slot_of(&h, warp, 7);
        cr_assert_eq(h.used, distinct, "an entry per slot looked up in the chunk");
        wst_history_claim(&h, s, warp, 7, warp | 1);
    }
    cr_assert_eq(h.used, WST_HISTORY_SLOTS);
    for (unsigned slot = 0; slot < WST_HISTORY_SLOTS; slot++) {
        uint32_t warp = last_warp[slot] - 1;
        wst_history_slot *s = wst_history_slot_of(&h, warp, 7);
        cr_assert(wst_history_hit(&h, s, warp, 7), "slot %u keeps warp %u", slot, warp);
        cr_assert_eq(s->mask, warp | 1);
    }
    cr_assert_eq(h.used, WST_HISTORY_SLOTS, "no slot takes a second entry");
}

/* Chunk after chunk through one table, each with many more (warp, pc)
 * pairs than slots, so that pairs share slots all the time and a slot's
 * entry of an earlier chunk is stale: the reader's table is the writer's
 * (every record coded against a history decodes exactly). */
Test(wst_codec, chunks_of_more_pairs_than_slots_decode_exactly_one_after_another)
{
    enum { WARPS = 64, PCS = 48, N = 6000 };
    static wst_record records[N];
    static wst_record *last[WARPS][PCS];
    uint64_t s = 20261129;
    for (int chunk = 0; chunk < 3; chunk++) {
        memset(last, 0, sizeof last);
        for (uint32_t i = 0; i < N; i++) {
            /* Half the records from a few pairs, so that most have a history. */
            uint32_t warp = (uint32_t)(test_rand(&s) % (i % 2 ? WARPS : 4));
            uint32_t pc = (uint32_t)(test_rand(&s) % (i % 2 ? PCS : 3));
            records[i] = random_shape(&s, last[warp][pc], warp, pc);
            last[warp][pc] = &records[i];
        }
        encoded e = encode_records(records, N);
        unsigned modes[8];
        count_modes(&e, modes);
        cr_assert_gt(modes[WST_MODE_SHIFTED] + modes[WST_MODE_LANE_DELTAS], N / 20,
                     "records coded against the history");
        check_all_paths_then_free(&e, WARPS);
    }
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
    free_encoded(&e, m);
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
    free_encoded(&e, m);
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
