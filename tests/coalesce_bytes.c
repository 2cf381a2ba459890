/* tests/coalesce_bytes.c: see coalesce_bytes.h. */
#include "tests/coalesce_bytes.h"

#include <criterion/criterion.h>
#include <string.h>

wst_record coalesce_test_record(uint32_t mask, uint64_t base, uint64_t stride, unsigned size)
{
    wst_record rec;
    memset(&rec, 0, sizeof rec);
    rec.cta = 7;
    rec.warp = 3;
    rec.pc = 5;
    rec.kind = WST_LOAD;
    rec.space = WST_GLOBAL;
    rec.cache_op = WST_OP_CA;
    rec.size = (uint8_t)size;
    rec.has_sm = 1;
    rec.sm = 9;
    rec.mask = mask;
    for (unsigned lane = 0; lane < WST_WARP_SIZE; lane++)
        rec.addr[lane] = base + lane * stride;
    return rec;
}

/* One lane group's requests, byte by byte: lines[] ascending, masks[] the
 * bytes asked for in each.  Returns the count. */
static int group_bytes(const wst_record *rec, unsigned line, unsigned lo, unsigned hi,
                       uint64_t *lines, uint64_t masks[][REQUEST_MASK_WORDS])
{
    int n = 0;
    for (unsigned lane = lo; lane < hi; lane++) {
        if (!(rec->mask >> lane & 1))
            continue;
        for (unsigned b = 0; b < rec->size && rec->addr[lane] + b >= rec->addr[lane]; b++) {
            uint64_t addr = rec->addr[lane] + b, at = addr / line * line;
            int i = 0;
            while (i < n && lines[i] < at)
                i++;
            if (i == n || lines[i] != at) {
                memmove(&lines[i + 1], &lines[i], (size_t)(n - i) * sizeof *lines);
                memmove(&masks[i + 1], &masks[i], (size_t)(n - i) * sizeof *masks);
                memset(masks[i], 0, sizeof masks[i]);
                lines[i] = at;
                n++;
            }
            masks[i][(addr - at) / 64] |= UINT64_C(1) << ((addr - at) % 64);
        }
    }
    return n;
}

void coalesce_expect_bytes(const wst_record *rec, const coalesce_config *config,
                           const ws_request *got, int n, int iter)
{
    uint64_t lines[COALESCE_MAX_REQUESTS], masks[COALESCE_MAX_REQUESTS][REQUEST_MASK_WORDS];
    int want = 0, groups = config->half_warp ? 2 : 1;
    for (int g = 0; g < groups; g++) {
        unsigned lo = config->half_warp ? (unsigned)g * 16 : 0;
        unsigned hi = config->half_warp ? lo + 16 : WST_WARP_SIZE;
        int m = group_bytes(rec, config->line_bytes, lo, hi, lines, masks);
        for (int i = 0; i < m; i++, want++) {
            cr_assert_lt(want, n, "iter %d: too few requests", iter);
            const ws_request *req = &got[want];
            unsigned bytes = 0, sectors = 0;
            for (unsigned b = 0; b < config->line_bytes; b++)
                if (masks[i][b / 64] >> (b % 64) & 1) {
                    bytes++;
                    sectors |= 1u << (b / REQUEST_SECTOR_BYTES);
                }
            cr_assert_eq(req->line_addr, lines[i], "iter %d request %d", iter, want);
            cr_assert_eq(memcmp(req->byte_mask, masks[i], sizeof masks[i]), 0,
                         "iter %d request %d", iter, want);
            cr_assert_eq(req->bytes_used, bytes, "iter %d request %d", iter, want);
            cr_assert_eq(req->sector_mask, sectors, "iter %d request %d", iter, want);
            cr_assert_eq(req->group, g, "iter %d request %d", iter, want);
            cr_assert_eq(req->index, want, "iter %d request %d", iter, want);
        }
    }
    cr_assert_eq(n, want, "iter %d", iter);
    for (int i = 0; i < n; i++)
        cr_assert_eq(got[i].req_count, n, "iter %d", iter);
}
