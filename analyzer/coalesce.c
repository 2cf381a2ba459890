/* analyzer/coalesce.c: warp instruction -> cache requests (docs/metrics.md §2).
 *
 * One lane group at a time (the warp, or each half-warp): its active
 * lanes' elements, or ranges of adjacent elements, are marked in
 * ascending order of their first line into the group's requests.  In that
 * order a mark's first line is the last request's, the one before it (the
 * previous element ran on into the next line: docs/metrics.md §2 counts
 * it in both), or a new one above them, so the requests come out
 * ascending by line (the §2 decision) with no search; a request's
 * distinct bytes and sectors are counted from its byte mask at the end,
 * or as it is marked where no two elements share a byte.
 *
 * The order comes free for most instructions.  Affine records (lane l at
 * addr[0] + l × stride) whose addresses do not wrap: one byte range (a
 * broadcast's one element, or one run of adjacent elements) in whole-warp
 * mode is cut into its lines in closed form; elements that touch or
 * overlap (0 < stride <= size) are one range per run of active lanes,
 * found from the mask, or, adjacent ones of at most 4 bytes inside one
 * line, one request whose bytes are the mask spread; lanes
 * whole lines apart make one request each from one template.  Other
 * groups are taken in lane order, as ranges when their first two lanes'
 * elements touch (tiles, rows of a stencil), and fall back to their
 * element starts sorted when a line would come out of order. */
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

/* A request of `record` (kernel index `kernel`) with its metadata and no
 * line, bytes or place yet: the template of the record's requests. */
static void coalesce_blank(const wst_record *record, uint32_t kernel, ws_request *blank)
{
    memset(blank, 0, sizeof *blank); /* padding too: requests compare whole */
    blank->kind = record->kind;
    blank->space = record->space;
    blank->cache_op = record->cache_op;
    blank->has_sm = record->has_sm;
    blank->sm = record->sm;
    blank->kernel = kernel;
    blank->cta = record->cta;
    blank->warp = record->warp;
    blank->pc = record->pc;
}

/* Lane `lane`'s address in an affine record: read from addr[0] and the
 * stride alone, for the scheduler writes no other lane of an affine
 * record it issues (packed_cta_expand_head). */
static inline uint64_t affine_lane(const wst_record *record, uint64_t stride, unsigned lane)
{
    return record->addr[0] + lane * stride;
}

static void coalesce_count_bytes(ws_request *req, unsigned line_bytes);

/* One lane group's requests as they are made. */
typedef struct group_out {
    ws_request *out;         /* the group's requests, ascending by line */
    unsigned count;
    unsigned first_index;    /* the instruction's requests before this group's */
    unsigned shift;          /* log2 of the line size */
    uint64_t at;             /* the line number of out[count - 1]; UINT64_MAX: none */
    const ws_request *blank; /* the record's metadata, no line, no bytes */
} group_out;

/* The request of line number `line`: the last one, the one before it, or
 * a new one above them (see the top of this file). */
static inline ws_request *coalesce_request(group_out *g, uint64_t line)
{
    if (line == g->at)
        return &g->out[g->count - 1];
    if (line + 1 == g->at) /* no line number reaches UINT64_MAX - 1 */
        return &g->out[g->count - 2];
    ws_request *req = &g->out[g->count];
    memcpy(req, g->blank, sizeof *req);
    req->line_addr = line << g->shift;
    req->index = (uint8_t)(g->first_index + g->count++);
    g->at = line;
    return req;
}

/* coalesce_request() for a mark whose lines may come out of order: NULL
 * when `line` would go between two requests (or below the one before the
 * last), which only sorting puts right. */
static inline ws_request *coalesce_request_in_order(group_out *g, uint64_t line)
{
    if (g->count && line < g->at &&
        !(line + 1 == g->at && g->count >= 2 && g->out[g->count - 2].line_addr == line << g->shift))
        return NULL;
    return coalesce_request(g, line);
}

/* Sets bits [offset, offset + length) of a line's byte mask; length <= 16
 * and the range lies inside the line. */
static inline void coalesce_mark_bytes(uint64_t *mask, unsigned offset, unsigned length)
{
    unsigned word = offset / 64, bit = offset % 64;
    uint64_t ones = (UINT64_C(1) << length) - 1;
    mask[word] |= ones << bit;
    if (bit + length > 64)
        mask[word + 1] |= ones >> (64 - bit);
}

/* Sets bits lo..hi (inclusive, lo <= hi < line size) of a line's byte mask. */
static inline void coalesce_mark_range(uint64_t *mask, unsigned lo, unsigned hi)
{
    unsigned first = lo / 64, last = hi / 64;
    uint64_t from = UINT64_MAX << (lo % 64), to = UINT64_MAX >> (63 - hi % 64);
    if (first == last) {
        mask[first] |= from & to;
        return;
    }
    mask[first] |= from;
    for (unsigned w = first + 1; w < last; w++)
        mask[w] = UINT64_MAX;
    mask[last] |= to;
}

/* The element of `size` bytes at `addr`. */
static inline __attribute__((always_inline)) void
coalesce_element(group_out *g, uint64_t addr, unsigned size)
{
    unsigned line_bytes = 1u << g->shift, offset = (unsigned)addr & (line_bytes - 1);
    uint64_t line = addr >> g->shift;
    ws_request *req = coalesce_request(g, line);
    if (offset + size <= line_bytes) {
        coalesce_mark_bytes(req->byte_mask, offset, size);
    } else if (addr > UINT64_MAX - (size - 1)) { /* cut at 2^64 - 1: the last line */
        coalesce_mark_bytes(req->byte_mask, offset, line_bytes - offset);
    } else { /* runs on into the next line: counted in both (docs/metrics.md §2) */
        coalesce_mark_bytes(req->byte_mask, offset, line_bytes - offset);
        req = coalesce_request(g, line + 1);
        coalesce_mark_bytes(req->byte_mask, 0, offset + size - line_bytes);
    }
}

/* Bytes first..last (inclusive) a line at a time; -1, marking nothing, if
 * the first line would come out of order (coalesce_request_in_order). */
static inline __attribute__((always_inline)) int
coalesce_range_in_order(group_out *g, uint64_t first, uint64_t last)
{
    unsigned in_line = (1u << g->shift) - 1, lo = (unsigned)first & in_line;
    uint64_t line = first >> g->shift, end = last >> g->shift;
    ws_request *req = coalesce_request_in_order(g, line);
    if (!req)
        return -1;
    for (; line < end; lo = 0) {
        coalesce_mark_range(req->byte_mask, lo, in_line);
        req = coalesce_request(g, ++line);
    }
    coalesce_mark_range(req->byte_mask, lo, (unsigned)last & in_line);
    return 0;
}

/* Elements that touch or overlap (0 < stride <= size, addresses not
 * wrapping): each run of active lanes is one range, from its first lane's
 * start to its last lane's end, found from the mask a run at a time.  A
 * run starts above the last one's last start, so at worst in the line
 * before its end, which coalesce_request finds. */
static inline __attribute__((always_inline)) void
coalesce_runs(group_out *g, const wst_record *record, uint64_t stride, uint32_t active)
{
    unsigned size = record->size;
    while (active) {
        unsigned lo = (unsigned)__builtin_ctz(active);
        uint64_t run = (uint64_t)active >> lo;
        unsigned lanes = (unsigned)__builtin_ctzll(~run); /* run < 2^32: ~run has a zero */
        active &= (uint32_t)~(((UINT64_C(1) << lanes) - 1) << lo);
        uint64_t first = affine_lane(record, stride, lo);
        uint64_t last = first + (lanes - 1) * stride + (size - 1);
        coalesce_range_in_order(g, first, last < first ? UINT64_MAX : last);
    }
}

/* `bits` (at most 32) with each bit repeated 2^log2_size times, for
 * log2_size 0 to 2: a run of adjacent elements' mask as their bytes' one,
 * bit j for byte j from the lowest lane's first.  Spread by halving steps
 * (no BMI2 at -mpopcnt), then each lone bit filled out by a multiply: its
 * copies land in the zeros the steps left. */
static inline void coalesce_spread_bytes(uint64_t bits, unsigned log2_size, uint64_t bytes[2])
{
    if (log2_size == 0) {
        bytes[0] = bits, bytes[1] = 0;
    } else if (log2_size == 1) { /* 32 bits to 64 */
        uint64_t x = bits;
        x = (x | x << 16) & UINT64_C(0x0000ffff0000ffff);
        x = (x | x << 8) & UINT64_C(0x00ff00ff00ff00ff);
        x = (x | x << 4) & UINT64_C(0x0f0f0f0f0f0f0f0f);
        x = (x | x << 2) & UINT64_C(0x3333333333333333);
        x = (x | x << 1) & UINT64_C(0x5555555555555555);
        bytes[0] = x * 3, bytes[1] = 0;
    } else { /* 16 bits to 64, twice */
        for (unsigned half = 0; half < 2; half++) {
            uint64_t x = bits >> 16 * half & 0xffff;
            x = (x | x << 24) & UINT64_C(0x000000ff000000ff);
            x = (x | x << 12) & UINT64_C(0x000f000f000f000f);
            x = (x | x << 6) & UINT64_C(0x0303030303030303);
            x = (x | x << 3) & UINT64_C(0x1111111111111111);
            bytes[half] = x * 15;
        }
    }
}

/* Adjacent elements (stride = size, at most 4 bytes) whose active lanes,
 * holes and all, lie inside one line: one request, its byte mask the
 * lanes' mask spread to bytes and moved to the lowest lane's offset in
 * the line, at once, where each run of lanes was a range marked on its
 * own (bfs's byte flags and word arrays, lanes with holes: 4.5 runs a
 * warp).  Returns 1, the request made, or 0 when the group takes more
 * than one line or its addresses wrap. */
static int coalesce_adjacent_in_line(const wst_record *record, uint32_t active, unsigned shift,
                                     const ws_request *blank, unsigned first_index,
                                     ws_request *out)
{
    unsigned lo = (unsigned)__builtin_ctz(active), hi = 31u - (unsigned)__builtin_clz(active);
    unsigned size = record->size;
    uint64_t first = affine_lane(record, size, lo), last = affine_lane(record, size, hi) + (size - 1);
    if (last < first || first >> shift != last >> shift)
        return 0;
    uint64_t bytes[2], words[REQUEST_MASK_WORDS + 2] = {0};
    coalesce_spread_bytes(active >> lo, (unsigned)__builtin_ctz(size), bytes);
    unsigned offset = (unsigned)first & ((1u << shift) - 1), word = offset / 64, bit = offset % 64;
    words[word] = bytes[0] << bit;
    if (bit) {
        words[word + 1] = bytes[0] >> (64 - bit) | bytes[1] << bit;
        words[word + 2] = bytes[1] >> (64 - bit);
    } else {
        words[word + 1] = bytes[1];
    }
    memcpy(out, blank, sizeof *out);
    out->line_addr = first >> shift << shift;
    memcpy(out->byte_mask, words, sizeof out->byte_mask);
    out->index = (uint8_t)first_index;
    coalesce_count_bytes(out, 1u << shift);
    return 1;
}

/* Whether the lanes of `active` (not empty), lane l at addr[lowest] +
 * (l - lowest) × stride for a positive stride, ascend without wrapping. */
static int coalesce_no_wrap(const wst_record *record, uint32_t active, uint64_t stride)
{
    unsigned lo = (unsigned)__builtin_ctz(active), hi = 31u - (unsigned)__builtin_clz(active);
    uint64_t reach;
    return !__builtin_mul_overflow((uint64_t)(hi - lo), stride, &reach) &&
           affine_lane(record, stride, lo) <= UINT64_MAX - reach;
}

/* Two lanes' addresses at once (GCC's vector extension: one SSE2 register
 * on x86-64, plain pairs elsewhere). */
typedef uint64_t lane_pair __attribute__((vector_size(16)));

/* Bit l (l >= 1) set iff lane l's element starts inside lane l - 1's or
 * right after it: addr[l] - addr[l - 1] in 0..size, modulo 2^64.  For a
 * difference d and k = size + 1 <= 17 that is the top bit of (d - k) &
 * ~d: d < k borrows into it, and d >= 2^63 (a step down, or a long jump)
 * clears it through ~d.  Two lanes at a time, the top bits gathered in
 * place: a lane at a time it was 8 instructions a lane, 7% of backprop's
 * timed compare, whose tiles all come this way (bench/RESULTS.md,
 * "Branch coal43"). */
static inline __attribute__((always_inline)) uint32_t
coalesce_near_lanes(const uint64_t *addr, uint64_t size)
{
    uint64_t k = size + 1, d = addr[1] - addr[0];
    uint32_t near = (uint32_t)(((d - k) & ~d) >> 63) << 1;
    lane_pair gathered = {0, 0}, ks = {k, k};
    for (unsigned lane = 2; lane < WST_WARP_SIZE; lane += 2) { /* lanes lane, lane + 1 */
        lane_pair at, before;
        memcpy(&at, &addr[lane], sizeof at);
        memcpy(&before, &addr[lane - 1], sizeof before);
        lane_pair diff = at - before;
        gathered |= ((diff - ks) & ~diff) >> 63 << lane;
    }
    return near | (uint32_t)gathered[0] | (uint32_t)gathered[1] << 1;
}

/* The lanes of `active` in lane order as ranges: a lane whose element
 * starts inside the one before it or right after it (neighbouring lanes,
 * both active) continues that lane's range.  Which lanes do is found for
 * the whole warp in one pass over the addresses, and each range is marked
 * from its first and last lanes: coalesced and tiled instructions are a
 * few ranges, with no sorting.  -1 (the requests made so far to be
 * dropped) when a line would come out of order. */
static inline __attribute__((always_inline)) int
coalesce_in_lane_order(group_out *g, const uint64_t *addr, uint64_t size, uint32_t active)
{
    uint32_t near = coalesce_near_lanes(addr, size);
    uint32_t continues = active & active << 1 & near, firsts = active & ~continues;
    while (firsts) {
        unsigned lo = (unsigned)__builtin_ctz(firsts);
        firsts &= firsts - 1;
        unsigned hi = lo + (unsigned)__builtin_ctzll(~((uint64_t)continues >> (lo + 1)));
        uint64_t first = addr[lo], end = addr[hi], last = end + (size - 1);
        /* Elements ascend through the range, so the last lane's ends it,
         * unless the addresses wrapped past 2^64 on the way (end < first:
         * the range is at most 31 × 16 bytes long). */
        if (end < first ||
            coalesce_range_in_order(g, first, last < end ? UINT64_MAX : last) != 0)
            return -1;
    }
    return 0;
}

/* Whether a group's lanes look like ranges of adjacent elements, worth
 * taking in lane order: an affine record's elements touch or overlap
 * (0 < stride <= size, here only when they wrap past 2^64: the others
 * take shorter paths), or
 * a record's first two active lanes' elements do. */
static int coalesce_looks_like_ranges(const uint64_t *addr, uint64_t size, int affine,
                                      uint64_t stride, uint32_t active)
{
    if (affine)
        return stride <= size;
    uint32_t rest = active & (active - 1);
    return rest && addr[__builtin_ctz(rest)] - addr[__builtin_ctz(active)] <= size;
}

/* The element of `size` bytes at `addr`, aligned to its size (so inside
 * one 64-bit word and one sector of one line), marked and counted in the
 * request of its line: `req` when that is the last line's, else the one
 * coalesce_request gives.  Returns the element's request. */
static inline __attribute__((always_inline)) ws_request *
coalesce_aligned(group_out *g, ws_request *req, uint64_t addr, unsigned size)
{
    unsigned offset = (unsigned)addr & ((1u << g->shift) - 1);
    if (addr >> g->shift != g->at)
        req = coalesce_request(g, addr >> g->shift);
    req->byte_mask[offset / 64] |= ((UINT64_C(1) << size) - 1) << offset % 64;
    req->bytes_used = (uint16_t)(req->bytes_used + size);
    req->sector_mask |= (uint8_t)(1u << offset / REQUEST_SECTOR_BYTES);
    return req;
}

/* Puts `addr` into starts[0..n), which ascend, keeping them ascending:
 * one comparison when it is the highest so far (most lanes: lane order
 * ascends), an insertion otherwise (a group is short). */
static inline __attribute__((always_inline)) void coalesce_insert(uint64_t *starts, unsigned n,
                                                                  uint64_t addr)
{
    for (; n > 0 && starts[n - 1] > addr; n--)
        starts[n] = starts[n - 1];
    starts[n] = addr;
}

/* Every active lane's element in ascending order of address, sorted as
 * they are gathered (from the highest lane when `descending`: a negative
 * stride's lanes then come in order).  Elements aligned to their size
 * (most) lie inside one 64-bit word and one sector of one line, and take
 * the shortest loop, which also counts the requests' bytes and sectors as
 * it goes while no two elements share a byte (in address order, the test
 * of that holds for more of them).  Returns whether they are counted.
 * (Testing that the lanes' lines ascend, then sorting when they did not,
 * cost bfs's gathers more: bench/RESULTS.md, "Branch dec44".) */
static inline __attribute__((always_inline)) int
coalesce_lanes(group_out *g, const uint64_t *lane_addr, unsigned size, uint32_t active,
               int descending)
{
    uint64_t starts[WST_WARP_SIZE];
    unsigned n = 0;
    uint64_t misaligned = 0;
    if (descending) {
        for (; active; n++) {
            unsigned lane = 31u - (unsigned)__builtin_clz(active);
            active &= ~(UINT32_C(1) << lane);
            misaligned |= lane_addr[lane];
            coalesce_insert(starts, n, lane_addr[lane]);
        }
    } else {
        for (; active; active &= active - 1, n++) {
            uint64_t addr = lane_addr[__builtin_ctz(active)];
            misaligned |= addr;
            coalesce_insert(starts, n, addr);
        }
    }
    if (misaligned & (size - 1)) {
        for (unsigned i = 0; i < n; i++)
            coalesce_element(g, starts[i], size);
        return 0;
    }
    /* Below the first start, so that it passes the test below; at address 0
     * it fails it, and the bytes are counted from the masks: right too. */
    uint64_t before = starts[0] - 1;
    ws_request *req = NULL;
    int disjoint = 1;
    for (unsigned i = 0; i < n; i++) {
        uint64_t addr = starts[i];
        req = coalesce_aligned(g, req, addr, size);
        /* Elements aligned to one size, each starting above the one
         * before, share no byte. */
        disjoint &= addr > before;
        before = addr;
    }
    return disjoint;
}

/* An affine group's lanes when they ascend apart (a positive stride past
 * the element size, not wrapping: bfs's and kmeans's strided loads), in
 * lane order, which is address order: no lanes written out, none sorted.
 * Elements never share a byte, so an aligned group (its lowest lane and
 * its stride multiples of the size) is counted as it is marked.  Returns
 * whether it is counted. */
static inline __attribute__((always_inline)) int
coalesce_affine_apart(group_out *g, const wst_record *record, uint64_t stride, uint32_t active)
{
    unsigned size = record->size;
    if ((affine_lane(record, stride, (unsigned)__builtin_ctz(active)) | stride) & (size - 1)) {
        for (; active; active &= active - 1)
            coalesce_element(g, affine_lane(record, stride, (unsigned)__builtin_ctz(active)), size);
        return 0;
    }
    ws_request *req = NULL;
    for (; active; active &= active - 1)
        req = coalesce_aligned(g, req, affine_lane(record, stride, (unsigned)__builtin_ctz(active)),
                               size);
    return 1;
}

/* A request's distinct bytes and sectors, from its byte mask. */
static void coalesce_count_bytes(ws_request *req, unsigned line_bytes)
{
    unsigned bytes = 0, sectors = 0, words = line_bytes < 64 ? 1 : line_bytes / 64;
    for (unsigned w = 0; w < words; w++) {
        uint64_t m = req->byte_mask[w];
        bytes += (unsigned)__builtin_popcountll(m);
        sectors |= (unsigned)((uint32_t)m != 0) << (2 * w) | (unsigned)(m >> 32 != 0) << (2 * w + 1);
    }
    req->bytes_used = (uint16_t)bytes;
    req->sector_mask = (uint8_t)sectors;
}

/* Whether an affine group's elements lie one to a line, each at the same
 * offset in its own line and inside it: a positive stride that is a
 * multiple of the line size (a column read down, lines apart), not
 * wrapping. */
static int coalesce_lines_apart(const wst_record *record, uint64_t stride, uint32_t active,
                                unsigned shift)
{
    uint64_t in_line = (UINT64_C(1) << shift) - 1;
    return stride && (int64_t)stride > 0 && !(stride & in_line) &&
           (affine_lane(record, stride, (unsigned)__builtin_ctz(active)) & in_line) +
                   record->size <= in_line + 1 &&
           coalesce_no_wrap(record, active, stride);
}

/* coalesce_lines_apart()'s group: one request per active lane, all with
 * the same bytes of their lines, in lane order. */
static unsigned coalesce_one_per_lane(const wst_record *record, uint64_t stride, uint32_t active,
                                      unsigned shift, const ws_request *blank,
                                      unsigned first_index, ws_request *out)
{
    ws_request same = *blank;
    unsigned offset =
        (unsigned)affine_lane(record, stride, (unsigned)__builtin_ctz(active)) & ((1u << shift) - 1);
    coalesce_mark_bytes(same.byte_mask, offset, record->size);
    coalesce_count_bytes(&same, 1u << shift);
    unsigned count = 0;
    for (; active; active &= active - 1, count++) {
        out[count] = same;
        out[count].line_addr =
            affine_lane(record, stride, (unsigned)__builtin_ctz(active)) >> shift << shift;
        out[count].index = (uint8_t)(first_index + count);
    }
    return count;
}

/* The requests of the lanes of `group` in out[]; returns their count.
 * Not inlined: its helpers are, so that the group's state stays in
 * registers.  (One copy for affine and gathered records: two, each
 * knowing which, cost backprop's tiles more than they saved bfs's
 * gathers, bench/RESULTS.md "Branch coal43".) */
static __attribute__((noinline)) unsigned
coalesce_group(const wst_record *record, int affine, uint64_t stride, uint32_t group,
               unsigned shift, const ws_request *blank, unsigned first_index, ws_request *out)
{
    uint32_t active = record->mask & group;
    if (!active)
        return 0;
    if (affine && coalesce_lines_apart(record, stride, active, shift))
        return coalesce_one_per_lane(record, stride, active, shift, blank, first_index, out);
    if (affine && stride == record->size && stride <= 4 &&
        coalesce_adjacent_in_line(record, active, shift, blank, first_index, out))
        return 1;
    group_out g = {.out = out, .first_index = first_index, .shift = shift, .at = UINT64_MAX,
                   .blank = blank};
    int counted = 0;
    if (affine && stride == 0) /* a broadcast: the lowest active lane's bytes */
        coalesce_element(&g, affine_lane(record, stride, (unsigned)__builtin_ctz(active)),
                         record->size);
    else if (affine && stride <= record->size && coalesce_no_wrap(record, active, stride))
        coalesce_runs(&g, record, stride, active);
    else if (affine && (int64_t)stride > 0 && coalesce_no_wrap(record, active, stride))
        counted = coalesce_affine_apart(&g, record, stride, active);
    else {
        /* An affine record's lanes, written out here: the scheduler left
         * them to whoever reads them. */
        uint64_t lanes[WST_WARP_SIZE];
        const uint64_t *addr = record->addr;
        if (affine) {
            for (unsigned l = 0; l < WST_WARP_SIZE; l++)
                lanes[l] = affine_lane(record, stride, l);
            addr = lanes;
        }
        if (!coalesce_looks_like_ranges(addr, record->size, affine, stride, active) ||
            coalesce_in_lane_order(&g, addr, record->size, active) != 0) {
            g.count = 0;
            g.at = UINT64_MAX;
            counted = coalesce_lanes(&g, addr, record->size, active,
                                     affine && (int64_t)stride < 0);
        }
    }
    for (unsigned i = 0; !counted && i < g.count; i++)
        coalesce_count_bytes(&out[i], 1u << shift);
    return g.count;
}

/* Whether an affine record's active lanes (not none) ask for one range of
 * bytes, first..last, reaching no further than 2^64 - 1: a broadcast's one
 * element, or adjacent elements (stride = size) of one run of lanes. */
static int coalesce_one_range(const wst_record *record, uint64_t stride, uint64_t *first,
                              uint64_t *last)
{
    unsigned lo = (unsigned)__builtin_ctz(record->mask), size = record->size;
    uint64_t run = (uint64_t)record->mask >> lo, bytes;
    if (stride == 0)
        bytes = size;
    else if (stride == size && (run & (run + 1)) == 0) /* lanes lo, lo + 1, ... all active */
        bytes = (unsigned)__builtin_popcount(record->mask) * size;
    else
        return 0;
    *first = affine_lane(record, stride, lo);
    *last = *first + (bytes - 1);
    return *last >= *first;
}

/* The requests of bytes first..last, one per line, each with its share:
 * the whole instruction's requests in whole-warp mode. */
static int coalesce_range_requests(const wst_record *record, uint64_t first, uint64_t last,
                                   unsigned shift, uint32_t kernel, ws_request *out)
{
    unsigned in_line = (1u << shift) - 1;
    uint64_t line = first >> shift, end = last >> shift;
    unsigned count = (unsigned)(end - line) + 1;
    for (unsigned i = 0; i < count; i++, line++) {
        unsigned lo = i == 0 ? (unsigned)first & in_line : 0;
        unsigned hi = line == end ? (unsigned)last & in_line : in_line;
        ws_request *req = &out[i];
        coalesce_blank(record, kernel, req); /* written in place: most ranges are one line */
        req->line_addr = line << shift;
        coalesce_mark_range(req->byte_mask, lo, hi);
        req->bytes_used = (uint16_t)(hi - lo + 1);
        req->sector_mask = (uint8_t)(((2u << hi / REQUEST_SECTOR_BYTES) - 1) &
                                     ~((1u << lo / REQUEST_SECTOR_BYTES) - 1));
        req->index = (uint8_t)i;
        req->req_count = (uint8_t)count;
    }
    return (int)count;
}

/* coalesce_record(), or coalesce_record_affine() when `affine`: inlined in
 * each, the hottest path of every replay. */
static inline __attribute__((always_inline)) int
coalesce_any(const coalesce_config *config, const wst_record *record, int affine,
             uint64_t stride, uint32_t kernel, ws_request out[COALESCE_MAX_REQUESTS],
             coalesce_summary *summary, ws_error *err)
{
    if (!wst_access_size_valid(record->size))
        return ws_fail(err, "access size %u: must be 1, 2, 4, 8 or 16 bytes", record->size);
    unsigned shift = (unsigned)__builtin_ctz(config->line_bytes), count = 0;
    uint64_t first, last;
    if (affine && !config->half_warp && record->mask &&
        coalesce_one_range(record, stride, &first, &last)) {
        count = (unsigned)coalesce_range_requests(record, first, last, shift, kernel, out);
        if (summary)
            *summary = coalesce_summarize(out, count, config->line_bytes);
        return (int)count;
    }
    ws_request blank;
    coalesce_blank(record, kernel, &blank);
    unsigned groups = config->half_warp ? 2 : 1; /* half-warps: lanes 0-15 first, then 16-31 */
    uint32_t group = config->half_warp ? 0x0000ffffu : UINT32_MAX;
    for (unsigned i = 0; i < groups; i++, group = ~group) {
        blank.group = (uint8_t)i;
        count += coalesce_group(record, affine, stride, group, shift, &blank, count, out + count);
    }
    for (unsigned i = 0; i < count; i++)
        out[i].req_count = (uint8_t)count;
    if (summary)
        *summary = coalesce_summarize(out, count, config->line_bytes);
    return (int)count;
}

int coalesce_record(const coalesce_config *config, const wst_record *record,
                    uint32_t kernel, ws_request out[COALESCE_MAX_REQUESTS],
                    coalesce_summary *summary, ws_error *err)
{
    return coalesce_any(config, record, 0, 0, kernel, out, summary, err);
}

int coalesce_record_affine(const coalesce_config *config, const wst_record *record,
                           uint64_t stride, uint32_t kernel,
                           ws_request out[COALESCE_MAX_REQUESTS], coalesce_summary *summary,
                           ws_error *err)
{
    return coalesce_any(config, record, 1, stride, kernel, out, summary, err);
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
