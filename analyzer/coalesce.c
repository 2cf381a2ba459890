/* analyzer/coalesce.c: warp instruction -> cache requests (docs/metrics.md §2).
 *
 * Per lane group: collect the first and last line of every active lane's
 * element into a sorted, duplicate-free array (insertion into a short sorted
 * array: lanes usually ascend, so the append fast path is taken), then mark
 * each lane's bytes in the request of its line(s).
 *
 * First, though, every group tries a shorter path (coalesce_ranges): its
 * lanes taken in address order (lane order, or the reverse for an affine
 * record with a negative stride) as ranges of adjacent elements, whose
 * lines are appended as they ascend (a lane coming back to a line already
 * requested finds it) with no sorting.  Most instructions are coalesced,
 * strided or tiled and take it; the rest (a new line that would go between
 * two, as gathers make, or addresses wrapping) fall back to the general
 * path, with the same requests. */
#include "analyzer/coalesce.h"

#include <string.h>

coalesce_config coalesce_config_default(void)
{
    return (coalesce_config){.line_bytes = COALESCE_LINE_DEFAULT, .half_warp = 0};
}

int coalesce_config_check(const coalesce_config *config, ws_error *err)
{
    unsigned line = config->line_bytes;
    if (line < REQUEST_LINE_MIN || line > REQUEST_LINE_MAX || (line & (line - 1)))
        return ws_fail(err, "line size %u: must be a power of two from %d to %d bytes",
                       line, REQUEST_LINE_MIN, REQUEST_LINE_MAX);
    return 0;
}

/* Inserts `line` into the sorted unique array lines[0..*count). */
static void coalesce_insert_line(uint64_t *lines, unsigned *count, uint64_t line)
{
    unsigned n = *count;
    if (n == 0 || line > lines[n - 1]) {
        lines[(*count)++] = line;
        return;
    }
    unsigned at = n;
    while (at > 0 && lines[at - 1] > line)
        at--;
    if (at > 0 && lines[at - 1] == line)
        return;
    memmove(&lines[at + 1], &lines[at], (n - at) * sizeof *lines);
    lines[at] = line;
    (*count)++;
}

/* Index of `line` in the sorted array; it is known to be there. */
static unsigned coalesce_find_line(const uint64_t *lines, unsigned count, uint64_t line)
{
    unsigned lo = 0, hi = count - 1;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (lines[mid] < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Sets bits [offset, offset + length) of a line's byte mask; length ≤ 16 and
 * the range lies inside the line. */
static void coalesce_mark_bytes(uint64_t *mask, unsigned offset, unsigned length)
{
    unsigned word = offset / 64, bit = offset % 64;
    uint64_t ones = (UINT64_C(1) << length) - 1;
    mask[word] |= ones << bit;
    if (bit + length > 64)
        mask[word + 1] |= ones >> (64 - bit);
}

/* Sets bits [lo, hi) of a line's byte mask; lo < hi ≤ line bytes. */
static void coalesce_mark_range(uint64_t *mask, unsigned lo, unsigned hi)
{
    if (hi - lo <= 16) { /* one element: coalesce_mark_bytes' two words at most */
        coalesce_mark_bytes(mask, lo, hi - lo);
        return;
    }
    for (unsigned w = lo / 64; w * 64 < hi; w++) {
        unsigned from = lo > w * 64 ? lo - w * 64 : 0, to = hi - w * 64 >= 64 ? 64 : hi - w * 64;
        uint64_t ones = to - from == 64 ? UINT64_MAX : ((UINT64_C(1) << (to - from)) - 1);
        mask[w] |= ones << from;
    }
}

/* Last byte of a lane's element, cut at 2^64 - 1 instead of wrapping. */
static uint64_t coalesce_last_byte(uint64_t addr, unsigned size)
{
    uint64_t last = addr + size - 1;
    return last < addr ? UINT64_MAX : last;
}

static void coalesce_finish_request(ws_request *req, unsigned line_bytes)
{
    unsigned bytes = 0, sectors = 0;
    for (unsigned w = 0; w < REQUEST_MASK_WORDS; w++) {
        uint64_t m = req->byte_mask[w];
        bytes += (unsigned)__builtin_popcountll(m);
        if ((uint32_t)m)
            sectors |= 1u << (2 * w);
        if (m >> 32)
            sectors |= 1u << (2 * w + 1);
    }
    req->bytes_used = (uint16_t)bytes;
    req->sector_mask = (uint8_t)(sectors & ((1u << (line_bytes / REQUEST_SECTOR_BYTES)) - 1));
}

static void coalesce_new_request(ws_request *req, uint64_t line, unsigned shift)
{
    memset(req, 0, sizeof *req);
    req->line_addr = line << shift;
}

/* Coalesces lanes [lane_lo, lane_hi) into out[]; returns the request count. */
static unsigned coalesce_group(const coalesce_config *config, const wst_record *record,
                               unsigned lane_lo, unsigned lane_hi, ws_request *out)
{
    unsigned shift = (unsigned)__builtin_ctz(config->line_bytes);
    unsigned size = record->size;
    uint64_t lines[COALESCE_MAX_REQUESTS];
    unsigned count = 0;

    for (unsigned lane = lane_lo; lane < lane_hi; lane++) {
        if (!(record->mask >> lane & 1))
            continue;
        uint64_t addr = record->addr[lane];
        uint64_t first = addr >> shift, last = coalesce_last_byte(addr, size) >> shift;
        coalesce_insert_line(lines, &count, first);
        if (last != first)
            coalesce_insert_line(lines, &count, last);
    }
    for (unsigned i = 0; i < count; i++)
        coalesce_new_request(&out[i], lines[i], shift);

    unsigned line_mask = config->line_bytes - 1, hint = 0;
    for (unsigned lane = lane_lo; lane < lane_hi; lane++) {
        if (!(record->mask >> lane & 1))
            continue;
        uint64_t addr = record->addr[lane], last = coalesce_last_byte(addr, size);
        uint64_t first_line = addr >> shift;
        if (lines[hint] != first_line)
            hint = coalesce_find_line(lines, count, first_line);
        unsigned offset = (unsigned)(addr & line_mask);
        if (last >> shift == first_line) {
            coalesce_mark_bytes(out[hint].byte_mask, offset, (unsigned)(last - addr) + 1);
        } else {
            /* Crosses into the next line, which is lines[hint + 1] (docs/metrics.md §2:
             * the element counts in both). */
            unsigned head = config->line_bytes - offset;
            coalesce_mark_bytes(out[hint].byte_mask, offset, head);
            coalesce_mark_bytes(out[hint + 1].byte_mask, 0, (unsigned)(last - addr) + 1 - head);
        }
    }
    for (unsigned i = 0; i < count; i++)
        coalesce_finish_request(&out[i], config->line_bytes);
    return count;
}

/* The request of `line` in out[0..*count), whose lines ascend: appended
 * if it follows the last one, found if it is there already (lanes may come
 * back to a line: tiles of a few lines, elements read again); -1 if it
 * would go between two (the general path sorts). */
static int coalesce_append_line(ws_request *out, unsigned *count, uint64_t line, unsigned shift)
{
    uint64_t addr = line << shift;
    unsigned n = *count;
    if (n == 0 || out[n - 1].line_addr < addr) {
        coalesce_new_request(&out[n], line, shift);
        return (int)(*count)++;
    }
    unsigned lo = 0, hi = n - 1; /* the first request at or above addr */
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (out[mid].line_addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return out[lo].line_addr == addr ? (int)lo : -1;
}

/* Marks bytes [start, last] in the requests of the lines they cover,
 * appended in order; -1 if a line lies before the last request's. */
static int coalesce_mark_span(unsigned shift, uint64_t start, uint64_t last, ws_request *out,
                              unsigned *count)
{
    uint64_t line_bytes = UINT64_C(1) << shift;
    if (start >> shift == last >> shift) { /* inside one line: most spans */
        int at = coalesce_append_line(out, count, start >> shift, shift);
        if (at < 0)
            return -1;
        unsigned from = (unsigned)(start & (line_bytes - 1));
        coalesce_mark_range(out[at].byte_mask, from, from + (unsigned)(last - start) + 1);
        return 0;
    }
    for (uint64_t line = start >> shift; line <= last >> shift; line++) {
        int at = coalesce_append_line(out, count, line, shift);
        if (at < 0)
            return -1;
        uint64_t lo = line << shift, hi = lo + (line_bytes - 1);
        uint64_t from = start > lo ? start : lo, to = last < hi ? last : hi;
        coalesce_mark_range(out[at].byte_mask, (unsigned)(from - lo), (unsigned)(to - lo) + 1);
    }
    return 0;
}

/* The lanes of `active` (one group's) as byte ranges: taken in lane order
 * (descending: highest first), each lane whose element starts right after
 * the previous one's joins its range, and each range is marked line by
 * line, its requests appended (coalesce_append_line).  Coalesced
 * instructions are one or a few ranges, so this needs no sorting.  -1 when
 * a new line would go between two requested ones (or an element would pass
 * 2^64 - 1): the general path decides. */
static int coalesce_ranges(const coalesce_config *config, const wst_record *record,
                           uint32_t active, int descending, ws_request *out)
{
    unsigned shift = (unsigned)__builtin_ctz(config->line_bytes), size = record->size;
    unsigned count = 0;
    uint64_t start = 0, last = 0;
    int open = 0;
    while (active) {
        unsigned lane = descending ? 31u - (unsigned)__builtin_clz(active)
                                   : (unsigned)__builtin_ctz(active);
        active &= ~(UINT32_C(1) << lane);
        uint64_t addr = record->addr[lane];
        if (addr > UINT64_MAX - (size - 1))
            return -1;
        if (open && last != UINT64_MAX && addr == last + 1) {
            last = addr + size - 1;
            continue;
        }
        if (open && coalesce_mark_span(shift, start, last, out, &count) != 0)
            return -1;
        start = addr;
        last = addr + size - 1;
        open = 1;
    }
    if (open && coalesce_mark_span(shift, start, last, out, &count) != 0)
        return -1;
    for (unsigned i = 0; i < count; i++)
        coalesce_finish_request(&out[i], config->line_bytes);
    return (int)count;
}

/* coalesce_ranges() for an affine group of adjacent elements (stride =
 * size): each run of consecutive active lanes is one range, found from the
 * mask a run at a time rather than a lane at a time. */
static int coalesce_runs(const coalesce_config *config, const wst_record *record,
                         uint32_t active, ws_request *out)
{
    unsigned shift = (unsigned)__builtin_ctz(config->line_bytes), size = record->size;
    unsigned count = 0;
    while (active) {
        unsigned lo = (unsigned)__builtin_ctz(active);
        uint64_t run = (uint64_t)active >> lo;
        unsigned lanes = (unsigned)__builtin_ctzll(~run); /* run < 2^32: ~run has a zero */
        active &= (uint32_t)~(((UINT64_C(1) << lanes) - 1) << lo);
        uint64_t start = record->addr[lo], bytes = (uint64_t)lanes * size;
        if (start > UINT64_MAX - (bytes - 1) ||
            coalesce_mark_span(shift, start, start + bytes - 1, out, &count) != 0)
            return -1;
    }
    for (unsigned i = 0; i < count; i++)
        coalesce_finish_request(&out[i], config->line_bytes);
    return (int)count;
}

/* One group: by ranges when it can (an affine record's lanes taken in
 * address order, so a negative stride from the highest lane, and adjacent
 * elements a run at a time; a broadcast asks for the lowest active lane's
 * bytes), else the general path. */
static unsigned coalesce_one_group(const coalesce_config *config, const wst_record *record,
                                   const uint64_t *stride, unsigned lane_lo, unsigned lane_hi,
                                   ws_request *out)
{
    unsigned lanes = lane_hi - lane_lo;
    uint32_t group = (uint32_t)(((UINT64_C(1) << lanes) - 1) << lane_lo);
    uint32_t active = record->mask & group;
    if (!active)
        return 0;
    if (stride && *stride == 0)
        active &= 0 - active;
    int n = stride && *stride == record->size
                ? coalesce_runs(config, record, active, out)
                : coalesce_ranges(config, record, active, stride && (int64_t)*stride < 0, out);
    if (n >= 0)
        return (unsigned)n;
    return coalesce_group(config, record, lane_lo, lane_hi, out);
}

/* coalesce_record(), affine when `stride` is not NULL. */
static int coalesce_any(const coalesce_config *config, const wst_record *record,
                        const uint64_t *stride, uint32_t kernel,
                        ws_request out[COALESCE_MAX_REQUESTS], coalesce_summary *summary,
                        ws_error *err)
{
    if (!wst_access_size_valid(record->size))
        return ws_fail(err, "access size %u: must be 1, 2, 4, 8 or 16 bytes", record->size);
    unsigned count;
    unsigned group0 = 0;
    if (config->half_warp) {
        unsigned half = WST_WARP_SIZE / 2;
        group0 = coalesce_one_group(config, record, stride, 0, half, out);
        count = group0 +
                coalesce_one_group(config, record, stride, half, WST_WARP_SIZE, out + group0);
    } else {
        count = coalesce_one_group(config, record, stride, 0, WST_WARP_SIZE, out);
    }

    for (unsigned i = 0; i < count; i++) {
        ws_request *req = &out[i];
        req->index = (uint8_t)i;
        req->req_count = (uint8_t)count;
        req->group = config->half_warp && i >= group0;
        req->kind = record->kind;
        req->space = record->space;
        req->cache_op = record->cache_op;
        req->has_sm = record->has_sm;
        req->sm = record->sm;
        req->kernel = kernel;
        req->cta = record->cta;
        req->warp = record->warp;
        req->pc = record->pc;
    }
    if (summary)
        *summary = coalesce_summarize(out, count, config->line_bytes);
    return (int)count;
}

int coalesce_record(const coalesce_config *config, const wst_record *record,
                    uint32_t kernel, ws_request out[COALESCE_MAX_REQUESTS],
                    coalesce_summary *summary, ws_error *err)
{
    return coalesce_any(config, record, NULL, kernel, out, summary, err);
}

int coalesce_record_affine(const coalesce_config *config, const wst_record *record,
                           uint64_t stride, uint32_t kernel,
                           ws_request out[COALESCE_MAX_REQUESTS], coalesce_summary *summary,
                           ws_error *err)
{
    return coalesce_any(config, record, &stride, kernel, out, summary, err);
}

coalesce_summary coalesce_summarize(const ws_request *requests, unsigned count, unsigned line_bytes)
{
    coalesce_summary s = {.requests = count, .line_bytes = line_bytes};
    for (unsigned i = 0; i < count; i++) {
        s.bytes_used += requests[i].bytes_used;
        s.sectors += (unsigned)__builtin_popcount(requests[i].sector_mask);
    }
    return s;
}

double coalesce_line_utilization(const coalesce_summary *summary)
{
    if (summary->requests == 0)
        return 0.0;
    return (double)summary->bytes_used / ((double)summary->requests * summary->line_bytes);
}

double coalesce_sector_utilization(const coalesce_summary *summary)
{
    if (summary->sectors == 0)
        return 0.0;
    return (double)summary->bytes_used / ((double)summary->sectors * REQUEST_SECTOR_BYTES);
}
