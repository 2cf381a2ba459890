/* tests/test_coalesce.c: the coalescer of docs/metrics.md §2 on hand-worked records. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/coalesce.h"
#include "tests/coalesce_bytes.h"

/* A load record with lanes [0, lanes) active at base + lane * stride. */
static wst_record make_record(unsigned lanes, uint64_t base, uint64_t stride, unsigned size)
{
    return coalesce_test_record(lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1, base, stride, size);
}

static int run(const wst_record *rec, unsigned line, int half_warp, ws_request *out,
               coalesce_summary *summary)
{
    coalesce_config config = {.line_bytes = line, .half_warp = half_warp};
    ws_error err;
    cr_assert_eq(coalesce_config_check(&config, &err), 0);
    return coalesce_record(&config, rec, 2, out, summary, &err);
}

/* Coalesces and checks Req and both utilizations (docs/metrics.md §2). */
static void expect_coalesced(const wst_record *rec, unsigned line, int half_warp, int requests,
                             double line_u, double sector_u, ws_request *out)
{
    coalesce_summary sum;
    cr_assert_eq(run(rec, line, half_warp, out, &sum), requests);
    cr_assert_eq(sum.requests, (unsigned)requests);
    cr_assert_float_eq(coalesce_line_utilization(&sum), line_u, 1e-12);
    cr_assert_float_eq(coalesce_sector_utilization(&sum), sector_u, 1e-12);
}

/* Bits [lo, hi) of a 256-bit mask equal `expected_ones`, i.e. exact ranges. */
static int mask_bit(const ws_request *req, unsigned byte)
{
    return (int)(req->byte_mask[byte / 64] >> (byte % 64) & 1);
}

static void assert_mask_range(const ws_request *req, unsigned lo, unsigned hi, unsigned line)
{
    for (unsigned b = 0; b < line; b++)
        cr_assert_eq(mask_bit(req, b), b >= lo && b < hi, "byte %u of line %#llx", b,
                     (unsigned long long)req->line_addr);
}

/* S1 Fig. 1: 32 lanes × 4 B over bytes 96..223 -> two lines, U 25% and 75%,
 * instruction U = 128 / 256 = 50%. */
Test(coalesce, s1_figure1)
{
    wst_record rec = make_record(32, 96, 4, 4);
    ws_request out[COALESCE_MAX_REQUESTS];
    /* Used bytes are sector-aligned here, so sector U is 100%. */
    expect_coalesced(&rec, 128, 0, 2, 0.5, 1.0, out);
    cr_assert_eq(out[0].line_addr, 0);
    cr_assert_eq(out[1].line_addr, 128);
    cr_assert_eq(out[0].bytes_used, 32);
    cr_assert_eq(out[1].bytes_used, 96);
    cr_assert_float_eq(out[0].bytes_used / 128.0, 0.25, 1e-12);
    cr_assert_float_eq(out[1].bytes_used / 128.0, 0.75, 1e-12);
    cr_assert_eq(out[0].sector_mask, 0x8);
    cr_assert_eq(out[1].sector_mask, 0x7);
    assert_mask_range(&out[0], 96, 128, 128);
    assert_mask_range(&out[1], 0, 96, 128);
    /* Metadata is copied, indices and Req are set. */
    cr_assert_eq(out[1].index, 1);
    cr_assert_eq(out[0].req_count, 2);
    cr_assert_eq(out[1].kernel, 2);
    cr_assert_eq(out[1].cta, 7);
    cr_assert_eq(out[1].warp, 3);
    cr_assert_eq(out[1].pc, 5);
    cr_assert_eq(out[1].sm, 9);
    cr_assert_eq(out[1].cache_op, WST_OP_CA);
    cr_assert(coalesce_is_coherent(out[0].req_count));
}

/* Broadcast (one request, distinct bytes only, so never above 100%) and a
 * fully coalesced access. */
Test(coalesce, one_line_broadcast_and_fully_coalesced)
{
    ws_request out[COALESCE_MAX_REQUESTS];
    wst_record broadcast = make_record(32, 1000, 0, 8);
    expect_coalesced(&broadcast, 128, 0, 1, 8.0 / 128, 8.0 / 32, out);
    cr_assert_eq(out[0].line_addr, 896);
    cr_assert_eq(out[0].bytes_used, 8);
    wst_record full = make_record(32, 4096, 4, 4);
    expect_coalesced(&full, 128, 0, 1, 1.0, 1.0, out);
    cr_assert_eq(out[0].bytes_used, 128);
    cr_assert_eq(out[0].sector_mask, 0xf);
}

Test(coalesce, stride_two_halves_utilization)
{
    wst_record rec = make_record(32, 0, 8, 4);
    ws_request out[COALESCE_MAX_REQUESTS];
    expect_coalesced(&rec, 128, 0, 2, 0.5, 0.5, out);
    for (unsigned b = 0; b < 128; b++)
        cr_assert_eq(mask_bit(&out[0], b), (b % 8) < 4);
}

Test(coalesce, sixteen_byte_elements_make_four_lines)
{
    wst_record rec = make_record(32, 0, 16, 16);
    ws_request out[COALESCE_MAX_REQUESTS];
    coalesce_summary sum;
    cr_assert_eq(run(&rec, 128, 0, out, &sum), 4);
    for (unsigned i = 0; i < 4; i++) {
        cr_assert_eq(out[i].line_addr, 128 * i);
        cr_assert_eq(out[i].bytes_used, 128);
    }
    cr_assert_not(coalesce_is_coherent(sum.requests), "Req 4 is divergent");
}

Test(coalesce, element_spanning_a_line_counts_in_both)
{
    wst_record rec = make_record(1, 120, 0, 16);
    ws_request out[COALESCE_MAX_REQUESTS];
    coalesce_summary sum;
    cr_assert_eq(run(&rec, 128, 0, out, &sum), 2);
    assert_mask_range(&out[0], 120, 128, 128);
    assert_mask_range(&out[1], 0, 8, 128);
    cr_assert_eq(out[0].sector_mask, 0x8);
    cr_assert_eq(out[1].sector_mask, 0x1);
    cr_assert_eq(sum.bytes_used, 16);
}

Test(coalesce, spanning_the_64_bit_word_of_a_256_byte_line)
{
    wst_record rec = make_record(1, 56, 0, 16);
    ws_request out[COALESCE_MAX_REQUESTS];
    cr_assert_eq(run(&rec, 256, 0, out, NULL), 1);
    assert_mask_range(&out[0], 56, 72, 256);
    cr_assert_eq(out[0].sector_mask, 0x6);
}

Test(coalesce, empty_mask_makes_no_request)
{
    wst_record rec = make_record(0, 0, 4, 4);
    ws_request out[COALESCE_MAX_REQUESTS];
    expect_coalesced(&rec, 128, 0, 0, 0.0, 0.0, out);
}

Test(coalesce, requests_ascend_whatever_the_lane_order)
{
    wst_record rec = make_record(32, 0, 0, 4);
    for (unsigned lane = 0; lane < 32; lane++)
        rec.addr[lane] = (uint64_t)((lane * 13) % 32) * 4096 + 4 * (lane % 3);
    ws_request out[COALESCE_MAX_REQUESTS];
    cr_assert_eq(run(&rec, 128, 0, out, NULL), 32);
    for (unsigned i = 0; i < 32; i++) {
        cr_assert_eq(out[i].line_addr, 4096 * i);
        cr_assert_eq(out[i].index, i);
        cr_assert_eq(out[i].req_count, 32);
    }
}

Test(coalesce, worst_case_is_sixty_four_requests)
{
    /* Every lane's 16 B element crosses a 32 B line boundary. */
    wst_record rec = make_record(32, 24, 64, 16);
    ws_request out[COALESCE_MAX_REQUESTS];
    coalesce_summary sum;
    cr_assert_eq(run(&rec, 32, 0, out, &sum), COALESCE_MAX_REQUESTS);
    for (unsigned i = 1; i < COALESCE_MAX_REQUESTS; i++)
        cr_assert_gt(out[i].line_addr, out[i - 1].line_addr);
    cr_assert_eq(sum.bytes_used, 32 * 16);
}

/* Half-warp: lanes 0-15 and 16-31 coalesce separately; a line both groups
 * touch is requested twice, group 0 first. */
Test(coalesce, half_warp_groups)
{
    wst_record rec = make_record(32, 0, 4, 4); /* bytes 0..127: one line */
    ws_request out[COALESCE_MAX_REQUESTS];
    coalesce_summary sum;
    expect_coalesced(&rec, 128, 1, 2, 0.5, 1.0, out);
    cr_assert_eq(out[0].line_addr, 0);
    cr_assert_eq(out[1].line_addr, 0);
    cr_assert_eq(out[0].group, 0);
    cr_assert_eq(out[1].group, 1);
    assert_mask_range(&out[0], 0, 64, 128);
    assert_mask_range(&out[1], 64, 128, 128);

    /* Group 1 at lower addresses still comes after group 0. */
    for (unsigned lane = 0; lane < 32; lane++)
        rec.addr[lane] = lane < 16 ? 8192 + lane * 4 : (lane - 16) * 4;
    cr_assert_eq(run(&rec, 128, 1, out, &sum), 2);
    cr_assert_eq(out[0].line_addr, 8192);
    cr_assert_eq(out[1].line_addr, 0);
    cr_assert_eq(out[1].index, 1);
    cr_assert_eq(run(&rec, 128, 0, out, &sum), 2);
    cr_assert_eq(out[0].line_addr, 0, "whole-warp mode sorts across both halves");
}

Test(coalesce, sector_masks_follow_used_bytes)
{
    wst_record rec = make_record(4, 0, 64, 4); /* bytes 0,64,128,192 of a 256 B line */
    ws_request out[COALESCE_MAX_REQUESTS];
    expect_coalesced(&rec, 256, 0, 1, 16.0 / 256, 16.0 / 128, out);
    cr_assert_eq(out[0].sector_mask, 0x55);
    cr_assert_eq(run(&rec, 64, 0, out, NULL), 4);
    for (unsigned i = 0; i < 4; i++)
        cr_assert_eq(out[i].sector_mask, 0x1, "64 B lines have 2 sectors");
}

Test(coalesce, element_at_top_of_address_space_is_cut)
{
    wst_record rec = make_record(1, UINT64_MAX - 3, 0, 8);
    ws_request out[COALESCE_MAX_REQUESTS];
    coalesce_summary sum;
    cr_assert_eq(run(&rec, 128, 0, out, &sum), 1);
    cr_assert_eq(out[0].bytes_used, 4);
}

Test(coalesce, bad_config_and_size_rejected)
{
    ws_error err;
    unsigned bad[] = {0, 16, 96, 512};
    for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++) {
        coalesce_config config = {.line_bytes = bad[i]};
        cr_assert_eq(coalesce_config_check(&config, &err), -1);
        cr_assert(strstr(err.msg, "line size"), "%s", err.msg);
    }
    coalesce_config config = coalesce_config_default();
    cr_assert_eq(config.line_bytes, 128);
    wst_record rec = make_record(32, 0, 4, 3);
    ws_request out[COALESCE_MAX_REQUESTS];
    cr_assert_eq(coalesce_record(&config, &rec, 0, out, NULL, &err), -1);
    cr_assert(strstr(err.msg, "access size 3"), "%s", err.msg);
}

/* Property: on random records, every requested byte is in exactly the
 * request of its line, and the union of masks equals the lanes' bytes. */
Test(coalesce, random_records_cover_exactly_the_lanes_bytes)
{
    uint64_t seed = 12345;
    for (int iter = 0; iter < 2000; iter++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        unsigned sizes[] = {1, 2, 4, 8, 16};
        wst_record rec = make_record(32, 0, 0, sizes[(seed >> 33) % 5]);
        rec.mask = (uint32_t)(seed >> 7);
        for (unsigned lane = 0; lane < 32; lane++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            rec.addr[lane] = (seed >> 20) % 2048;
        }
        unsigned line = 32u << (iter % 4);
        ws_request out[COALESCE_MAX_REQUESTS];
        int n = run(&rec, line, iter % 2, out, NULL);
        cr_assert_geq(n, 0);
        /* Expected bytes per (group, address). */
        for (unsigned group = 0; group < 2; group++) {
            static uint8_t want[2048 + 32];
            memset(want, 0, sizeof want);
            for (unsigned lane = 0; lane < 32; lane++)
                if ((rec.mask >> lane & 1) && (!(iter % 2) || lane / 16 == group))
                    memset(want + rec.addr[lane], 1, rec.size);
            for (unsigned a = 0; a < sizeof want; a++) {
                int found = 0;
                for (int i = 0; i < n; i++)
                    if (out[i].group == (iter % 2 ? group : 0) && a / line == out[i].line_addr / line)
                        found += mask_bit(&out[i], a % line);
                cr_assert_eq(found, want[a], "iter %d byte %u", iter, a);
            }
            if (!(iter % 2))
                break;
        }
    }
}

/* Property: the affine path gives exactly what the general path gives, on
 * affine records of every shape: coalesced, strided either way, broadcast,
 * overlapping, line-crossing, sparse masks and addresses wrapping past
 * 2^64 (where it must fall back). */
Test(coalesce, affine_path_equals_general_path)
{
    static const uint64_t strides[] = {0, 1, 2, 4, 8, 16, 3, 12, 64, 128, 4096,
                                       (uint64_t)-4, (uint64_t)-16, (uint64_t)-1, (uint64_t)-200};
    static const uint64_t bases[] = {0, 96, 4093, 1u << 20, UINT64_MAX - 100, UINT64_MAX - 3000};
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    uint64_t seed = 99;
    int checked = 0;
    for (size_t s = 0; s < sizeof strides / sizeof *strides; s++)
        for (size_t b = 0; b < sizeof bases / sizeof *bases; b++)
            for (size_t z = 0; z < 5; z++)
                for (int variant = 0; variant < 8; variant++) {
                    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                    wst_record rec = make_record(32, bases[b] + (seed >> 59), strides[s], sizes[z]);
                    if (variant & 1)
                        rec.mask = (uint32_t)(seed >> 13);
                    if (variant == 2)
                        rec.mask = 0;
                    coalesce_config config = {.line_bytes = 32u << (variant / 2 % 4),
                                              .half_warp = variant >= 4};
                    ws_request want[COALESCE_MAX_REQUESTS], got[COALESCE_MAX_REQUESTS];
                    coalesce_summary sw, sg;
                    int nw = coalesce_record(&config, &rec, 1, want, &sw, NULL);
                    /* It reads lane 0's address alone (the scheduler writes
                     * no other lane of an affine record): the rest are junk. */
                    wst_record lane0 = rec;
                    for (unsigned l = 1; l < WST_WARP_SIZE; l++)
                        lane0.addr[l] = seed ^ (l * 0x9e3779b97f4a7c15u);
                    int ng = coalesce_record_affine(&config, &lane0, strides[s], 1, got, &sg, NULL);
                    cr_assert_eq(ng, nw, "stride %#llx base %#llx size %u variant %d",
                                 (unsigned long long)strides[s], (unsigned long long)rec.addr[0],
                                 sizes[z], variant);
                    cr_assert_eq(memcmp(got, want, (size_t)nw * sizeof *got), 0,
                                 "stride %#llx base %#llx size %u variant %d",
                                 (unsigned long long)strides[s], (unsigned long long)rec.addr[0],
                                 sizes[z], variant);
                    cr_assert_eq(sg.bytes_used, sw.bytes_used);
                    checked++;
                }
    cr_assert_gt(checked, 3000);
}

/* An affine record of stride 8 and 4 B elements (the general path, lanes
 * taken in order) with lane 0's address alone written, as the scheduler
 * issues it: lanes at 0x2000 + 8l put lanes 0-15 in line 0x2000 and
 * 16-31 in line 0x2080 (128 B lines), 16 × 4 = 64 bytes each, every
 * sector touched. */
Test(coalesce, an_affine_record_needs_lane_0_alone)
{
    coalesce_config config = {.line_bytes = 128, .half_warp = 0};
    ws_request out[COALESCE_MAX_REQUESTS];
    wst_record rec = make_record(32, 0x2000, 8, 4);
    memset(rec.addr + 1, 0xff, sizeof rec.addr - sizeof rec.addr[0]);
    cr_assert_eq(coalesce_record_affine(&config, &rec, 8, 0, out, NULL, NULL), 2);
    cr_assert_eq(out[0].line_addr, 0x2000);
    cr_assert_eq(out[0].bytes_used, 64);
    cr_assert_eq(out[0].sector_mask, 0xf);
    cr_assert_eq(out[0].byte_mask[0], UINT64_C(0x0f0f0f0f0f0f0f0f));
    cr_assert_eq(out[1].line_addr, 0x2080);
    cr_assert_eq(out[1].bytes_used, 64);
}

/* Adjacent elements (stride = size) with inactive lanes: each run of
 * active lanes is one byte range.  Worked by hand: 4 B elements from
 * 0x1004, lanes 1-31 active, 128 B lines: lane 1 starts at 0x1008 and lane
 * 31 ends at 0x1083, so line 0x1000 has bytes 8-127 (120, sectors 0-3) and
 * line 0x1080 bytes 0-3 (4, sector 0).  Lanes 0, 1 and 3 from 0: one line,
 * bytes 0-7 and 12-15 (12). */
Test(coalesce, adjacent_elements_with_inactive_lanes)
{
    coalesce_config config = {.line_bytes = 128, .half_warp = 0};
    ws_request out[COALESCE_MAX_REQUESTS];
    wst_record rec = make_record(32, 0x1004, 4, 4);
    rec.mask = 0xfffffffeu;
    cr_assert_eq(coalesce_record_affine(&config, &rec, 4, 0, out, NULL, NULL), 2);
    cr_assert_eq(out[0].line_addr, 0x1000);
    cr_assert_eq(out[0].bytes_used, 120);
    cr_assert_eq(out[0].sector_mask, 0xf);
    cr_assert_eq(out[0].byte_mask[0], ~UINT64_C(0) << 8);
    cr_assert_eq(out[0].byte_mask[1], ~UINT64_C(0));
    cr_assert_eq(out[1].line_addr, 0x1080);
    cr_assert_eq(out[1].bytes_used, 4);
    cr_assert_eq(out[1].sector_mask, 0x1);
    cr_assert_eq(out[1].byte_mask[0], 0xf);

    rec = make_record(32, 0, 4, 4);
    rec.mask = 0xb; /* lanes 0, 1, 3 */
    cr_assert_eq(coalesce_record_affine(&config, &rec, 4, 0, out, NULL, NULL), 1);
    cr_assert_eq(out[0].bytes_used, 12);
    cr_assert_eq(out[0].byte_mask[0], UINT64_C(0xf0ff));
}

/* Property: for adjacent elements the runs of active lanes give exactly
 * the general path's requests, whatever the runs' shape: one lane, gaps
 * inside a line, runs sharing a line, a run across the half-warp boundary,
 * and ranges running past 2^64 - 1 (where the affine path falls back). */
Test(coalesce, adjacent_element_runs_equal_general_path)
{
    static const uint32_t masks[] = {0xfffffffeu, 0x7fffffffu, 0xffff0000u, 0x0000ffffu,
                                     0xff00ff00u, 0xaaaaaaaau, 0x0f0f0f0fu, 0x80000001u,
                                     0xfffeffffu, 0x00018000u, 0x00000001u, 0xffffffffu};
    static const uint64_t bases[] = {0, 4, 100, 4093, 1u << 20, UINT64_MAX - 100, UINT64_MAX - 40};
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    int checked = 0;
    for (size_t m = 0; m < sizeof masks / sizeof *masks; m++)
        for (size_t b = 0; b < sizeof bases / sizeof *bases; b++)
            for (size_t z = 0; z < 5; z++)
                for (int variant = 0; variant < 8; variant++) {
                    wst_record rec = make_record(32, bases[b], sizes[z], sizes[z]);
                    rec.mask = masks[m];
                    coalesce_config config = {.line_bytes = 32u << (variant % 4),
                                              .half_warp = variant >= 4};
                    ws_request want[COALESCE_MAX_REQUESTS], got[COALESCE_MAX_REQUESTS];
                    int nw = coalesce_record(&config, &rec, 1, want, NULL, NULL);
                    int ng = coalesce_record_affine(&config, &rec, sizes[z], 1, got, NULL, NULL);
                    cr_assert_eq(ng, nw, "mask %#x base %#llx size %u variant %d", masks[m],
                                 (unsigned long long)bases[b], sizes[z], variant);
                    cr_assert_eq(memcmp(got, want, (size_t)nw * sizeof *got), 0,
                                 "mask %#x base %#llx size %u variant %d", masks[m],
                                 (unsigned long long)bases[b], sizes[z], variant);
                    checked++;
                }
    cr_assert_eq(checked, 12 * 7 * 5 * 8);
}

/* Property: records that are not affine but nearly coalesced (runs of
 * adjacent elements with jumps forward and back, repeated elements, rows
 * of a tile) give the requests found byte by byte, whichever path takes
 * them. */
Test(coalesce, runs_of_adjacent_elements_match_the_bytes)
{
    uint64_t seed = 777;
    for (int iter = 0; iter < 4000; iter++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        static const unsigned sizes[] = {1, 2, 4, 8, 16};
        unsigned size = sizes[(seed >> 33) % 5];
        wst_record rec = make_record(32, 0, 0, size);
        rec.mask = iter % 3 ? 0xffffffffu : (uint32_t)(seed >> 5);
        uint64_t addr = 4096 + (seed >> 40) % 512;
        for (unsigned lane = 0; lane < 32; lane++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            unsigned r = (unsigned)(seed >> 58); /* 0..63 */
            if (r < 3)
                addr += (seed >> 20) % 700; /* a jump forward */
            else if (r < 5)
                addr -= (seed >> 20) % 300; /* a jump back */
            else if (r == 5)
                addr -= size; /* the previous element again */
            rec.addr[lane] = addr;
            addr += size;
        }
        unsigned line = 32u << (iter % 4);
        int half = iter / 4 % 2;
        coalesce_config config = {.line_bytes = line, .half_warp = half};
        ws_request out[COALESCE_MAX_REQUESTS];
        int n = coalesce_record(&config, &rec, 0, out, NULL, NULL);
        coalesce_expect_bytes(&rec, &config, out, n, iter);
    }
}

/* A 4 x 4 tile read down its columns (gaussian's loads): lanes 0-3 touch
 * four lines 256 B apart, lanes 4-7 the same lines 4 B on, and so on.
 * Worked by hand with 128 B lines: four requests, lines 0x1000, 0x1100,
 * 0x1200 and 0x1300, each with bytes 0-15 (16 bytes, sector 0). */
Test(coalesce, tile_lanes_come_back_to_their_lines)
{
    coalesce_config config = {.line_bytes = 128, .half_warp = 0};
    wst_record rec = make_record(16, 0, 0, 4);
    for (unsigned lane = 0; lane < 16; lane++)
        rec.addr[lane] = 0x1000 + (lane % 4) * 0x100 + (lane / 4) * 4;
    ws_request out[COALESCE_MAX_REQUESTS];
    cr_assert_eq(coalesce_record(&config, &rec, 0, out, NULL, NULL), 4);
    for (unsigned i = 0; i < 4; i++) {
        cr_assert_eq(out[i].line_addr, 0x1000 + i * 0x100);
        cr_assert_eq(out[i].bytes_used, 16);
        cr_assert_eq(out[i].byte_mask[0], 0xffff);
        cr_assert_eq(out[i].sector_mask, 0x1);
    }
}
