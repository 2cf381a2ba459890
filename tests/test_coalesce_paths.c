/* tests/test_coalesce_paths.c: the coalescer's shorter paths (analyzer/coalesce.c)
 * give exactly the requests of docs/metrics.md §2: the closed form for an
 * affine record of one byte range, runs of adjacent elements, lanes whole
 * lines apart, lanes taken in lane order or sorted, on hand-worked records
 * and on many random ones checked against the general path and against
 * the bytes one by one (tests/coalesce_bytes.c). */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/coalesce.h"
#include "tests/coalesce_bytes.h"

static int affine(const wst_record *rec, uint64_t stride, unsigned line, int half_warp,
                  ws_request *out)
{
    coalesce_config config = {.line_bytes = line, .half_warp = half_warp};
    return coalesce_record_affine(&config, rec, stride, 3, out, NULL, NULL);
}

/* One request's line, bytes used, sector mask and first two mask words. */
static void expect_request(const ws_request *req, uint64_t line_addr, unsigned bytes,
                           unsigned sectors, uint64_t word0, uint64_t word1)
{
    cr_assert_eq(req->line_addr, line_addr, "line %#llx", (unsigned long long)req->line_addr);
    cr_assert_eq(req->bytes_used, bytes, "line %#llx: %u bytes", (unsigned long long)line_addr,
                 req->bytes_used);
    cr_assert_eq(req->sector_mask, sectors, "line %#llx: sectors %#x",
                 (unsigned long long)line_addr, req->sector_mask);
    cr_assert_eq(req->byte_mask[0], word0, "line %#llx word 0", (unsigned long long)line_addr);
    cr_assert_eq(req->byte_mask[1], word1, "line %#llx word 1", (unsigned long long)line_addr);
    cr_assert_eq(req->byte_mask[2], 0);
    cr_assert_eq(req->byte_mask[3], 0);
}

/* The closed form, worked by hand.  32 lanes × 4 B from 0x1044 ask for
 * bytes 0x1044..0x10c3: line 0x1000 bytes 68-127 (60 bytes, sectors 2-3,
 * mask words bits 4-63 of word 1 and none of word 0), line 0x1080 bytes
 * 0-67 (68 bytes, sectors 0-2).  The metadata is the record's. */
Test(coalesce_paths, one_range_across_two_lines)
{
    wst_record rec = coalesce_test_record(UINT32_MAX, 0x1044, 4, 4);
    ws_request out[COALESCE_MAX_REQUESTS];
    cr_assert_eq(affine(&rec, 4, 128, 0, out), 2);
    expect_request(&out[0], 0x1000, 60, 0xc, 0, ~UINT64_C(0) << 4);
    expect_request(&out[1], 0x1080, 68, 0x7, ~UINT64_C(0), 0xf);
    for (unsigned i = 0; i < 2; i++) {
        cr_assert_eq(out[i].index, i);
        cr_assert_eq(out[i].req_count, 2);
        cr_assert_eq(out[i].group, 0);
        cr_assert_eq(out[i].kernel, 3);
        cr_assert_eq(out[i].cta, 7);
        cr_assert_eq(out[i].warp, 3);
        cr_assert_eq(out[i].pc, 5);
        cr_assert_eq(out[i].cache_op, WST_OP_CA);
        cr_assert_eq(out[i].sm, 9);
    }
}

/* One run of lanes, 5-12, 4 B from 0: bytes 20..51.  With 128 B lines one
 * request of 32 bytes in sectors 0-1; with 32 B lines line 0 holds bytes
 * 20-31 (12) and line 32 bytes 0-19 (20), sector 0 each. */
Test(coalesce_paths, one_run_of_lanes)
{
    wst_record rec = coalesce_test_record(0x1fe0, 0, 4, 4);
    ws_request out[COALESCE_MAX_REQUESTS];
    cr_assert_eq(affine(&rec, 4, 128, 0, out), 1);
    expect_request(&out[0], 0, 32, 0x3, ((UINT64_C(1) << 32) - 1) << 20, 0);
    cr_assert_eq(affine(&rec, 4, 32, 0, out), 2);
    expect_request(&out[0], 0, 12, 0x1, ((UINT64_C(1) << 12) - 1) << 20, 0);
    expect_request(&out[1], 32, 20, 0x1, (UINT64_C(1) << 20) - 1, 0);
}

/* A broadcast asks for the lowest active lane's element only, whatever the
 * other lanes hold: 8 B at 0x2ffc (lane 3 of a stride-0 record) runs from
 * line 0x2f80 (bytes 124-127, sector 3) into 0x3000 (bytes 0-3, sector 0).
 * At the top of the address space a 16 B element is cut at 2^64 - 1. */
Test(coalesce_paths, broadcast_element)
{
    wst_record rec = coalesce_test_record(0xfffffff8u, 0x2ffc, 0, 8);
    ws_request out[COALESCE_MAX_REQUESTS];
    cr_assert_eq(affine(&rec, 0, 128, 0, out), 2);
    expect_request(&out[0], 0x2f80, 4, 0x8, 0, UINT64_C(0xf) << 60);
    expect_request(&out[1], 0x3000, 4, 0x1, 0xf, 0);

    rec = coalesce_test_record(UINT32_MAX, UINT64_MAX - 3, 0, 16);
    cr_assert_eq(affine(&rec, 0, 128, 0, out), 1);
    expect_request(&out[0], UINT64_MAX - 127, 4, 0x8, 0, UINT64_C(0xf) << 60);
}

/* A negative stride: lanes ascend from the highest.  Lanes 0-3 at 0x10f8,
 * 0x10f0, 0x10e8, 0x10e0 (stride -8, 4 B): one line 0x1080 with bytes
 * 96-99, 104-107, 112-115, 120-123 (16 bytes, sector 3). */
Test(coalesce_paths, negative_stride_ascends_from_the_top_lane)
{
    wst_record rec = coalesce_test_record(0xf, 0x10f8, (uint64_t)-8, 4);
    ws_request out[COALESCE_MAX_REQUESTS];
    cr_assert_eq(affine(&rec, (uint64_t)-8, 128, 0, out), 1);
    expect_request(&out[0], 0x1080, 16, 0x8, 0, UINT64_C(0x0f0f0f0f) << 32);
}

/* Lanes whole lines apart (a column read down): one request per active
 * lane, each with the same bytes of its line.  Stride 256, 4 B from 0x1008,
 * lanes 0, 1 and 3, 128 B lines: lines 0x1000, 0x1100 and 0x1300, bytes
 * 8-11 of each (4 bytes, sector 0), in lane order.  From 0x107e each
 * element runs on into the next line: two requests per lane. */
Test(coalesce_paths, lanes_whole_lines_apart)
{
    wst_record rec = coalesce_test_record(0xb, 0x1008, 256, 4);
    ws_request out[COALESCE_MAX_REQUESTS];
    cr_assert_eq(affine(&rec, 256, 128, 0, out), 3);
    expect_request(&out[0], 0x1000, 4, 0x1, 0xf00, 0);
    expect_request(&out[1], 0x1100, 4, 0x1, 0xf00, 0);
    expect_request(&out[2], 0x1300, 4, 0x1, 0xf00, 0);
    for (unsigned i = 0; i < 3; i++) {
        cr_assert_eq(out[i].index, i);
        cr_assert_eq(out[i].req_count, 3);
        cr_assert_eq(out[i].pc, 5);
    }

    rec = coalesce_test_record(0x3, 0x107e, 256, 4);
    cr_assert_eq(affine(&rec, 256, 128, 0, out), 4);
    expect_request(&out[0], 0x1000, 2, 0x8, 0, UINT64_C(3) << 62);
    expect_request(&out[1], 0x1080, 2, 0x1, 0x3, 0);
    expect_request(&out[2], 0x1100, 2, 0x8, 0, UINT64_C(3) << 62);
    expect_request(&out[3], 0x1180, 2, 0x1, 0x3, 0);
}

/* Elements that overlap (stride 2, 4 B): a run of lanes is one range from
 * its first start to its last end.  From 0x1000, lanes 0-2 and 5-6: bytes
 * 0-7 and 10-15 of line 0x1000 (14 bytes, sector 0).  With 32 B lines
 * from 0x101c: lanes 0-2 reach 0x101c..0x1023 (line 0x1000 bytes 28-31,
 * line 0x1020 bytes 0-3), lanes 5-6 0x1026..0x102b (bytes 6-11).  Stride
 * 1, 16 B from 0x1018, lanes 0-1 and 3: the second run starts in line
 * 0x1000, before the first run's end in 0x1020: bytes 24-31 there, 0-10
 * in 0x1020. */
Test(coalesce_paths, overlapping_elements_are_one_range_per_run)
{
    wst_record rec = coalesce_test_record(0x67, 0x1000, 2, 4);
    ws_request out[COALESCE_MAX_REQUESTS];
    cr_assert_eq(affine(&rec, 2, 128, 0, out), 1);
    expect_request(&out[0], 0x1000, 14, 0x1, 0xfcff, 0);
    rec = coalesce_test_record(0x67, 0x101c, 2, 4);
    cr_assert_eq(affine(&rec, 2, 32, 0, out), 2);
    expect_request(&out[0], 0x1000, 4, 0x1, UINT64_C(0xf) << 28, 0);
    expect_request(&out[1], 0x1020, 10, 0x1, 0xfcf, 0);
    rec = coalesce_test_record(0xb, 0x1018, 1, 16);
    cr_assert_eq(affine(&rec, 1, 32, 0, out), 2);
    expect_request(&out[0], 0x1000, 8, 0x1, UINT64_C(0xff) << 24, 0);
    expect_request(&out[1], 0x1020, 11, 0x1, 0x7ff, 0);
    for (unsigned i = 0; i < 2; i++) {
        cr_assert_eq(out[i].index, i);
        cr_assert_eq(out[i].req_count, 2);
    }
}

/* Adjacent elements (stride = size) with holes, all in one line: one
 * request whose bytes are the active lanes' spread from the lowest one's
 * offset, worked by hand.  4 B from 0x1004, lanes 0, 1, 3 and 17: bytes
 * 4-11, 16-19 and 72-75 of line 0x1000 (16 bytes, sectors 0 and 2).  With
 * 256 B lines, lanes 0 and 31: bytes 4-7 and 128-131 (sectors 0 and 4),
 * the top lane's in word 2.  1 B from 0x2010, lanes 0-3 and 20-23: bytes
 * 16-19 and 36-39 (sectors 0 and 1).  2 B from 0x303c, lanes 0 and 2:
 * bytes 60-61 of word 0 and 64-65 of word 1 (sectors 1 and 2).
 * Half-warps: lanes 0 and 1, then 17, each group one request of its own.
 * From 0x103c lanes 0 and 17 take two lines: bytes 60-63 of 0x1000 and
 * 0-3 of 0x1080. */
Test(coalesce_paths, adjacent_elements_with_holes_in_one_line)
{
    ws_request out[COALESCE_MAX_REQUESTS];
    wst_record rec = coalesce_test_record(0x2000b, 0x1004, 4, 4);
    cr_assert_eq(affine(&rec, 4, 128, 0, out), 1);
    expect_request(&out[0], 0x1000, 16, 0x5, 0xf0ff0, 0xf00);
    cr_assert_eq(out[0].index, 0);
    cr_assert_eq(out[0].req_count, 1);
    cr_assert_eq(out[0].pc, 5);
    rec = coalesce_test_record(0x80000001u, 0x1004, 4, 4);
    cr_assert_eq(affine(&rec, 4, 256, 0, out), 1);
    static const uint64_t top_lane_in_word_2[REQUEST_MASK_WORDS] = {0xf0, 0, 0xf, 0};
    cr_assert(out[0].line_addr == 0x1000 && out[0].bytes_used == 8 && out[0].sector_mask == 0x11);
    cr_assert_eq(memcmp(out[0].byte_mask, top_lane_in_word_2, sizeof top_lane_in_word_2), 0);
    rec = coalesce_test_record(0x00f0000f, 0x2010, 1, 1);
    cr_assert_eq(affine(&rec, 1, 128, 0, out), 1);
    expect_request(&out[0], 0x2000, 8, 0x3, UINT64_C(0xf) << 16 | UINT64_C(0xf) << 36, 0);
    rec = coalesce_test_record(0x5, 0x303c, 2, 2);
    cr_assert_eq(affine(&rec, 2, 128, 0, out), 1);
    expect_request(&out[0], 0x3000, 4, 0x6, UINT64_C(0x3) << 60, 0x3);
    rec = coalesce_test_record(0x20003, 0x1004, 4, 4);
    cr_assert_eq(affine(&rec, 4, 128, 1, out), 2);
    expect_request(&out[0], 0x1000, 8, 0x1, 0xff0, 0);
    expect_request(&out[1], 0x1000, 4, 0x4, 0, 0xf00);
    cr_assert_eq(out[0].group, 0);
    cr_assert_eq(out[1].group, 1);
    cr_assert_eq(out[1].index, 1);
    cr_assert_eq(out[1].req_count, 2);
    rec = coalesce_test_record(0x20001, 0x103c, 4, 4);
    cr_assert_eq(affine(&rec, 4, 128, 0, out), 2);
    expect_request(&out[0], 0x1000, 4, 0x2, UINT64_C(0xf) << 60, 0);
    expect_request(&out[1], 0x1080, 4, 0x1, 0xf, 0);
}

/* Lanes adjacent modulo 2^64: 4 B at 2^64 - 8, 2^64 - 4, then 0 and 4.
 * Taken in lane order they would make one range wrapping past the top;
 * sorted, line 0 has bytes 0-7 (sector 0) and comes first, the last line
 * bytes 120-127 (sector 3), each 8 bytes. */
Test(coalesce_paths, adjacent_lanes_wrapping_past_the_top)
{
    wst_record rec = coalesce_test_record(0xf, 0, 0, 4);
    rec.addr[0] = UINT64_MAX - 7;
    rec.addr[1] = UINT64_MAX - 3;
    rec.addr[2] = 0;
    rec.addr[3] = 4;
    coalesce_config config = {.line_bytes = 128, .half_warp = 0};
    ws_request out[COALESCE_MAX_REQUESTS];
    cr_assert_eq(coalesce_record(&config, &rec, 3, out, NULL, NULL), 2);
    expect_request(&out[0], 0, 8, 0x1, 0xff, 0);
    expect_request(&out[1], UINT64_MAX - 127, 8, 0x8, 0, UINT64_C(0xff) << 56);
}

static uint64_t next_random(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return *seed >> 17 ^ *seed << 29;
}

/* Property: for random affine records (strides zero, equal to the size,
 * small, negative, larger than a line, whole lines apart (either way) or
 * huge; full, single-run, random
 * and single-lane masks; aligned, misaligned and near-2^64 bases; 32 to
 * 256 B lines; whole-warp and half-warp) the affine paths give exactly the
 * general path's requests, and both the bytes found one by one. */
Test(coalesce_paths, random_affine_records_equal_general_path_and_bytes)
{
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    uint64_t seed = 41;
    for (int iter = 0; iter < 20000; iter++) {
        unsigned size = sizes[next_random(&seed) % 5];
        uint64_t r = next_random(&seed), base;
        switch (r % 5) {
        case 0: base = next_random(&seed) % 100000; break;
        case 1: base = UINT64_MAX - next_random(&seed) % 700; break;
        case 2: base = next_random(&seed); break;
        case 3: base = (next_random(&seed) % 4096) * 16; break;
        default: base = (next_random(&seed) % 4096) * 128 + size * (r >> 8 & 7); break;
        }
        coalesce_config config = {.line_bytes = 32u << (r >> 10) % 4u, .half_warp = (int)(r >> 12 & 1)};
        int64_t stride, lines = (int64_t)(next_random(&seed) % 40);
        switch ((r >> 3) % 10) {
        case 0: stride = 0; break;
        case 1: stride = size; break;
        case 2: stride = -(int64_t)size; break;
        case 3: stride = (int64_t)(next_random(&seed) % 41) - 20; break;
        case 4: stride = (int64_t)(next_random(&seed) % 601) - 300; break;
        case 5: stride = (int64_t)next_random(&seed); break;
        case 6: stride = (int64_t)(next_random(&seed) % 5000); break;
        case 7: stride = (int64_t)size * (int64_t)(next_random(&seed) % 5); break;
        case 8: stride = (lines + 1) * config.line_bytes; break; /* one line apart or more */
        default: stride = -lines * config.line_bytes; break;
        }
        uint32_t mask;
        switch ((r >> 6) % 5) {
        case 0: mask = UINT32_MAX; break;
        case 1: mask = (uint32_t)next_random(&seed); break;
        case 2: /* one run of lanes */
            mask = (uint32_t)(((UINT64_C(1) << (next_random(&seed) % 33)) - 1)
                              << (next_random(&seed) % 8));
            break;
        case 3: mask = UINT32_C(1) << (next_random(&seed) % 32); break;
        default: mask = (uint32_t)(next_random(&seed) & next_random(&seed)); break;
        }
        wst_record rec = coalesce_test_record(mask, base, (uint64_t)stride, size);
        ws_request got[COALESCE_MAX_REQUESTS], want[COALESCE_MAX_REQUESTS];
        memset(got, 0xa5, sizeof got);
        memset(want, 0x5a, sizeof want);
        int n = coalesce_record_affine(&config, &rec, (uint64_t)stride, 3, got, NULL, NULL);
        int m = coalesce_record(&config, &rec, 3, want, NULL, NULL);
        cr_assert_eq(n, m, "iter %d: stride %lld size %u mask %#x", iter, (long long)stride, size,
                     mask);
        cr_assert_eq(memcmp(got, want, (size_t)n * sizeof *got), 0,
                     "iter %d: stride %lld size %u mask %#x base %#llx line %u half %d", iter,
                     (long long)stride, size, mask, (unsigned long long)base, config.line_bytes,
                     config.half_warp);
        coalesce_expect_bytes(&rec, &config, got, n, iter);
    }
}

/* A step from one lane's address to the next's drawn around the edge of
 * joining them in one range (docs/metrics.md §2): size, size + 1, less,
 * backwards, near 2^63 either way, anything. */
static uint64_t edge_step(uint64_t x, unsigned size)
{
    switch (x % 8) {
    case 0: return size;
    case 1: return size + 1;
    case 2: return (x >> 8) % (size + 1);
    case 3: return 0 - (x >> 8) % (size + 2);
    case 4: return (UINT64_C(1) << 63) - 1 + (x >> 8) % 3;
    case 5: return x >> 3;
    default: return size - (x >> 8) % 2;
    }
}

/* Property: records that are not affine (lanes scattered, repeated,
 * descending, wrapping past 2^64, crossing lines) give the bytes found
 * one by one, whether their lanes ascend or must be sorted.  Lanes taken
 * in lane order as ranges join a lane to the one before it exactly when
 * its element starts inside that one or right after it (a step of 0..size
 * bytes, modulo 2^64): one record in five has steps drawn around that
 * edge (size, size + 1), backwards, and near 2^63 either way. */
Test(coalesce_paths, random_scattered_records_match_the_bytes)
{
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    uint64_t seed = 4141;
    for (int iter = 0; iter < 20000; iter++) {
        unsigned size = sizes[next_random(&seed) % 5];
        uint64_t r = next_random(&seed);
        uint64_t base = r % 3 == 0 ? UINT64_MAX - next_random(&seed) % 2000
                                   : next_random(&seed) % 100000;
        wst_record rec = coalesce_test_record((uint32_t)next_random(&seed), base, size, size);
        if (r >> 4 & 1)
            rec.mask = UINT32_MAX;
        for (unsigned lane = 0; lane < WST_WARP_SIZE; lane++) {
            uint64_t x = next_random(&seed);
            switch ((r >> 8) % 5) {
            case 0: rec.addr[lane] = base + x % 300; break;          /* a few lines, any order */
            case 1: rec.addr[lane] = base - lane * (x % 3) * size; break; /* descending */
            case 2: rec.addr[lane] = rec.addr[x % (lane + 1)]; break;  /* lanes repeated */
            case 3: rec.addr[lane] = x % 4 ? base + lane * 60 : x; break; /* crossings, jumps */
            default: rec.addr[lane] = lane ? rec.addr[lane - 1] + edge_step(x, size) : base; break;
            }
        }
        coalesce_config config = {.line_bytes = 32u << (r >> 12) % 4, .half_warp = (int)(r >> 14 & 1)};
        ws_request got[COALESCE_MAX_REQUESTS];
        int n = coalesce_record(&config, &rec, 3, got, NULL, NULL);
        cr_assert_geq(n, 0);
        coalesce_expect_bytes(&rec, &config, got, n, iter);
    }
}

/* Lanes apart in ascending order (a positive stride past the element
 * size, not a whole line), taken in lane order from lane 0's address and
 * the stride alone, worked by hand.  Stride 32, 4 B from 0x1000, 32 lanes,
 * 128 B lines: 8 lines from 0x1000, each with bytes 0-3, 32-35, 64-67 and
 * 96-99 (16 bytes, sectors 0-3).  From 0x1002 (misaligned), lanes 0 and 1:
 * bytes 2-5 and 34-37 of line 0x1000 (8 bytes, sectors 0-1).  Stride 8
 * from 0x107e, lanes 0 and 1: lane 0 runs on into the next line (bytes
 * 126-127 of 0x1000, 0-1 of 0x1080), lane 1 is bytes 6-9 of 0x1080. */
Test(coalesce_paths, lanes_apart_ascend_in_lane_order)
{
    ws_request out[COALESCE_MAX_REQUESTS];
    wst_record rec = coalesce_test_record(UINT32_MAX, 0x1000, 32, 4);
    memset(rec.addr + 1, 0xff, sizeof rec.addr - sizeof rec.addr[0]); /* lane 0 alone is read */
    cr_assert_eq(affine(&rec, 32, 128, 0, out), 8);
    uint64_t word = UINT64_C(0xf) | UINT64_C(0xf) << 32;
    for (unsigned i = 0; i < 8; i++) {
        expect_request(&out[i], 0x1000 + 128 * i, 16, 0xf, word, word);
        cr_assert_eq(out[i].index, i);
        cr_assert_eq(out[i].req_count, 8);
    }

    rec = coalesce_test_record(0x3, 0x1002, 32, 4);
    cr_assert_eq(affine(&rec, 32, 128, 0, out), 1);
    expect_request(&out[0], 0x1000, 8, 0x3, UINT64_C(0x3c) | UINT64_C(0x3c) << 32, 0);

    rec = coalesce_test_record(0x3, 0x107e, 8, 4);
    cr_assert_eq(affine(&rec, 8, 128, 0, out), 2);
    expect_request(&out[0], 0x1000, 2, 0x8, 0, UINT64_C(3) << 62);
    expect_request(&out[1], 0x1080, 6, 0x1, 0x3c3, 0);
}
