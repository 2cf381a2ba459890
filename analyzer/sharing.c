/* analyzer/sharing.c: inter-SM and inter-CTA sharing (docs/metrics.md §5, S0 §III).
 *
 * Per block we keep the set of SMs (a bitmask) and the set of CTAs that
 * touched it during the current kernel, as sorted runs of consecutive CTA
 * ids: neighbouring CTAs share blocks, so a block every CTA of a kernel
 * touches costs one run, not one entry per CTA (docs/metrics.md §5: the
 * state is 8 bytes per run, and the CTA-distance histogram stays exact).
 * Folding happens once per block at kernel end. */
#include "analyzer/sharing.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/u64map.h"

#define SM_WORDS (SHARING_MAX_SMS / 64)

/* CTA ids first..last, all of which touched the block. */
typedef struct cta_run {
    uint32_t first, last;
} cta_run;

typedef struct block_state {
    uint64_t sms[SM_WORDS];
    cta_run *runs; /* sorted, disjoint and never adjacent */
    uint32_t run_count, run_capacity;
    cta_run first_run; /* inline storage for the common single-run block */
} block_state;

struct sharing {
    uint32_t block_shift;
    u64map index; /* block id -> position in blocks[] */
    u64map seen;  /* every block id of the trace so far: distinct_blocks */
    block_state *blocks;
    size_t block_count, block_capacity;
    /* Scratch for the fold: prefix sums over a block's runs. */
    __int128 *fold_q;
    uint64_t *fold_len;
    size_t fold_capacity;
    /* A sparse block's CTAs one by one: room for SPARSE_RUN_LENGTH ×
     * fold_capacity of them. */
    uint32_t *fold_points;
    sharing_results results;
};

sharing *sharing_new(uint32_t sm_count, uint32_t block_bytes, ws_error *err)
{
    if (sm_count == 0 || sm_count > SHARING_MAX_SMS) {
        ws_fail(err, "sharing: SM count %u outside 1..%d", sm_count, SHARING_MAX_SMS);
        return NULL;
    }
    if (block_bytes == 0 || (block_bytes & (block_bytes - 1))) {
        ws_fail(err, "sharing: block size %u is not a power of two", block_bytes);
        return NULL;
    }
    sharing *s = calloc(1, sizeof *s);
    if (!s || u64map_init(&s->index, 1024) != 0 || u64map_init(&s->seen, 1024) != 0)
        goto oom;
    s->block_shift = (uint32_t)__builtin_ctz(block_bytes);
    s->results.sm_count = sm_count;
    s->results.sharers_hist = calloc(sm_count + 1, sizeof(uint64_t));
    s->results.sm_matrix = calloc((size_t)sm_count * sm_count, sizeof(uint64_t));
    if (!s->results.sharers_hist || !s->results.sm_matrix)
        goto oom;
    return s;
oom:
    ws_fail(err, "out of memory");
    sharing_free(s);
    return NULL;
}

static void drop_blocks(sharing *s)
{
    for (size_t i = 0; i < s->block_count; i++)
        if (s->blocks[i].runs != &s->blocks[i].first_run)
            free(s->blocks[i].runs);
    s->block_count = 0;
    u64map_clear(&s->index);
}

void sharing_free(sharing *s)
{
    if (!s)
        return;
    drop_blocks(s);
    free(s->blocks);
    free(s->fold_q);
    free(s->fold_len);
    free(s->fold_points);
    u64map_destroy(&s->index);
    u64map_destroy(&s->seen);
    free(s->results.sharers_hist);
    free(s->results.sm_matrix);
    free(s);
}

/* A block whose runs average at most this many CTAs is folded CTA by CTA
 * (fold_points), cheaper there than the run formulas. */
#define SPARSE_RUN_LENGTH 4

/* Room in the fold's scratch for a block of m runs, made while touching so
 * that the fold at kernel end cannot fail: prefix sums for m runs, and the
 * CTAs of a sparse block (at most SPARSE_RUN_LENGTH × m of them). */
static int reserve_fold(sharing *s, uint32_t m)
{
    if ((size_t)m + 1 <= s->fold_capacity)
        return 0;
    size_t points = 2 * (size_t)SPARSE_RUN_LENGTH * ((size_t)m + 1);
    uint32_t *p = realloc(s->fold_points, points * sizeof *p);
    if (!p)
        return -1;
    s->fold_points = p;
    size_t cap = 2 * ((size_t)m + 1);
    __int128 *q = realloc(s->fold_q, cap * sizeof *q);
    if (q)
        s->fold_q = q;
    uint64_t *len = realloc(s->fold_len, cap * sizeof *len);
    if (len)
        s->fold_len = len;
    if (!q || !len)
        return -1;
    s->fold_capacity = cap;
    return 0;
}

/* Adds cta to the block's runs.  CTAs mostly arrive in order, so extending
 * the last run is checked first. */
static int add_cta(block_state *b, uint32_t cta)
{
    uint32_t n = b->run_count;
    cta_run *last = &b->runs[n - 1];
    if (cta >= last->first && (uint64_t)cta <= (uint64_t)last->last + 1) {
        if (cta > last->last)
            last->last = cta;
        return 0;
    }
    uint32_t pos = n; /* the first run ending at or after cta */
    if (cta < last->first) {
        uint32_t lo = 0, hi = n - 1;
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (b->runs[mid].last < cta)
                lo = mid + 1;
            else
                hi = mid;
        }
        pos = lo;
        if (b->runs[pos].first <= cta)
            return 0;
    }
    int joins_left = pos > 0 && b->runs[pos - 1].last + 1 == cta;
    int joins_right = pos < n && b->runs[pos].first == cta + 1;
    if (joins_left && joins_right) {
        b->runs[pos - 1].last = b->runs[pos].last;
        memmove(b->runs + pos, b->runs + pos + 1, (n - pos - 1) * sizeof *b->runs);
        b->run_count = n - 1;
        return 0;
    }
    if (joins_left || joins_right) {
        if (joins_left)
            b->runs[pos - 1].last = cta;
        else
            b->runs[pos].first = cta;
        return 0;
    }
    if (n == b->run_capacity) {
        uint32_t cap = b->run_capacity * 2;
        cta_run *grown = malloc(cap * sizeof *grown);
        if (!grown)
            return -1;
        memcpy(grown, b->runs, n * sizeof *grown);
        if (b->runs != &b->first_run)
            free(b->runs);
        b->runs = grown;
        b->run_capacity = cap;
    }
    memmove(b->runs + pos + 1, b->runs + pos, (n - pos) * sizeof *b->runs);
    b->runs[pos] = (cta_run){cta, cta};
    b->run_count = n + 1;
    return 0;
}

void sharing_prefetch(const sharing *s, uint64_t addr)
{
    u64map_prefetch(&s->index, addr >> s->block_shift);
}

int sharing_touch(sharing *s, uint64_t addr, uint32_t sm, uint32_t cta, ws_error *err)
{
    if (sm >= s->results.sm_count)
        return ws_fail(err, "sharing: SM %u outside 0..%u", sm, s->results.sm_count - 1);
    int inserted;
    uint32_t *slot = u64map_upsert(&s->index, addr >> s->block_shift,
                                   (uint32_t)s->block_count, &inserted);
    if (!slot)
        return ws_fail(err, "out of memory");
    if (inserted) {
        block_state *old = s->blocks;
        if (ws_grow((void **)&s->blocks, &s->block_capacity, s->block_count + 1,
                    sizeof *s->blocks) != 0)
            return ws_fail(err, "out of memory");
        /* Blocks holding their run inline pointed into the old array. */
        if (s->blocks != old)
            for (size_t i = 0; i < s->block_count; i++)
                if (s->blocks[i].run_capacity == 1)
                    s->blocks[i].runs = &s->blocks[i].first_run;
        block_state *b = &s->blocks[s->block_count++];
        memset(b, 0, sizeof *b);
        b->first_run = (cta_run){cta, cta};
        b->runs = &b->first_run;
        b->run_count = b->run_capacity = 1;
        if (reserve_fold(s, 1) != 0)
            return ws_fail(err, "out of memory");
        b->sms[sm / 64] = 1ULL << (sm % 64);
        return 0;
    }
    block_state *b = &s->blocks[*slot];
    b->sms[sm / 64] |= 1ULL << (sm % 64);
    if (add_cta(b, cta) != 0 || reserve_fold(s, b->run_count) != 0)
        return ws_fail(err, "out of memory");
    return 0;
}

static unsigned floor_log2(uint64_t v) { return 63u - (unsigned)__builtin_clzll(v); }

/* The fold of one block's runs r[0..m): with C(x) = CTAs of the block <= x,
 * G(X) = C(0) + ... + C(X), and n CTAs in all, the pairs a < b with
 * b - a <= D number
 *     P(D) = sum over runs of (G(last + D) - G(first + D - 1)) - n(n+1)/2,
 * since every CTA a counts C(a + D) - C(a) partners and the C(a) add up to
 * 1 + 2 + ... + n.  G is exact from prefix sums over the runs, so each
 * distance bin, P(high) - P(low - 1), costs O(m log m), however many CTAs
 * the runs hold. */
typedef struct run_fold {
    const cta_run *runs;
    uint32_t m;
    const __int128 *q;     /* q[j] = sum over runs i < j of len(len+1)/2 - last×len */
    const uint64_t *len;   /* len[j] = CTAs in runs i < j */
    uint64_t n;
} run_fold;

static __int128 fold_g(const run_fold *f, uint64_t x)
{
    uint32_t lo = 0, hi = f->m; /* j = runs ending at or before x */
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (f->runs[mid].last <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    __int128 g = f->q[lo] + (__int128)x * f->len[lo];
    if (lo < f->m && f->runs[lo].first <= x) {
        __int128 t = (__int128)(x - f->runs[lo].first + 1);
        g += t * (t + 1) / 2;
    }
    return g;
}

static uint64_t fold_pairs_within(const run_fold *f, uint64_t d)
{
    __int128 p = -(__int128)f->n * (f->n + 1) / 2;
    for (uint32_t i = 0; i < f->m; i++)
        p += fold_g(f, (uint64_t)f->runs[i].last + d) - fold_g(f, (uint64_t)f->runs[i].first + d - 1);
    return (uint64_t)p;
}

/* Histogram of |a - b| over all pairs of the sorted CTAs, without visiting
 * every pair: small distances by a forward scan of the next few entries,
 * larger ones by counting entries in [c + 2^k, c + 2^(k+1)) with one
 * monotone pointer per bucket boundary (O(n × buckets) per block). */
static void fold_points(sharing_results *r, const uint32_t *ctas, uint32_t n)
{
    uint32_t boundary[SHARING_LOG2_BUCKETS + 1];
    unsigned first_bucket = floor_log2(SHARING_EXACT_DISTANCES);
    for (unsigned k = 0; k <= SHARING_LOG2_BUCKETS; k++)
        boundary[k] = 0;
    r->cta_pairs += (uint64_t)n * (n - 1) / 2;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t base = ctas[i];
        for (uint32_t j = i + 1; j < n && ctas[j] - base < SHARING_EXACT_DISTANCES; j++)
            r->cta_distance_exact[ctas[j] - base]++;
        /* boundary[k] = first index whose distance from ctas[i] is >= 2^k. */
        for (unsigned k = first_bucket; k <= SHARING_LOG2_BUCKETS; k++) {
            uint64_t limit = base + (1ULL << k);
            uint32_t p = boundary[k] > i ? boundary[k] : i + 1;
            while (p < n && ctas[p] < limit)
                p++;
            boundary[k] = p;
        }
        for (unsigned k = first_bucket; k < SHARING_LOG2_BUCKETS; k++)
            r->cta_distance_log2[k] += boundary[k + 1] - boundary[k];
    }
}

static void fold_cta_distances(sharing *s, sharing_results *r, const cta_run *runs, uint32_t m)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < m; i++)
        n += (uint64_t)runs[i].last - runs[i].first + 1;
    if (n <= (uint64_t)SPARSE_RUN_LENGTH * m) {
        uint32_t at = 0;
        for (uint32_t i = 0; i < m; i++)
            for (uint64_t c = runs[i].first; c <= runs[i].last; c++)
                s->fold_points[at++] = (uint32_t)c;
        fold_points(r, s->fold_points, at);
        return;
    }
    s->fold_q[0] = 0;
    s->fold_len[0] = 0;
    for (uint32_t i = 0; i < m; i++) {
        uint64_t len = (uint64_t)runs[i].last - runs[i].first + 1;
        s->fold_q[i + 1] = s->fold_q[i] + (__int128)len * (len + 1) / 2 - (__int128)runs[i].last * len;
        s->fold_len[i + 1] = s->fold_len[i] + len;
    }
    run_fold f = {runs, m, s->fold_q, s->fold_len, s->fold_len[m]};
    uint64_t all = f.n * (f.n - 1) / 2, span = (uint64_t)runs[m - 1].last - runs[0].first;
    r->cta_pairs += all;
    /* Distances above the span have no pairs: stop there. */
    uint64_t below = 0; /* P(d - 1) */
    for (uint64_t d = 1; d < SHARING_EXACT_DISTANCES && d <= span; d++) {
        uint64_t upto = fold_pairs_within(&f, d);
        r->cta_distance_exact[d] += upto - below;
        below = upto;
    }
    for (unsigned k = floor_log2(SHARING_EXACT_DISTANCES);
         k < SHARING_LOG2_BUCKETS && (UINT64_C(1) << k) <= span; k++) {
        uint64_t high = (UINT64_C(1) << (k + 1)) - 1;
        uint64_t upto = high >= span ? all : fold_pairs_within(&f, high);
        r->cta_distance_log2[k] += upto - below;
        below = upto;
    }
}

/* Adds the kernel's block ids to the trace's: at kernel end, so the hot
 * path (sharing_touch) pays nothing for it. */
static void count_distinct(sharing *s)
{
    for (size_t i = 0; i < s->index.capacity; i++) {
        const u64map_slot *slot = &s->index.slots[i];
        int inserted;
        if ((slot->tag & U64MAP_USED) && u64map_upsert(&s->seen, slot->key, 0, &inserted) &&
            inserted)
            s->results.distinct_blocks++;
    }
}

void sharing_end_kernel(sharing *s)
{
    sharing_results *r = &s->results;
    count_distinct(s);
    uint32_t sms[SHARING_MAX_SMS];
    for (size_t i = 0; i < s->block_count; i++) {
        const block_state *b = &s->blocks[i];
        uint32_t count = 0;
        for (uint32_t w = 0; w < SM_WORDS; w++)
            for (uint64_t bits = b->sms[w]; bits; bits &= bits - 1)
                sms[count++] = w * 64 + (uint32_t)__builtin_ctzll(bits);
        r->blocks++;
        r->sharers_hist[count]++;
        if (count >= 2)
            r->shared_blocks++;
        for (uint32_t x = 0; x < count; x++)
            for (uint32_t y = 0; y < count; y++)
                r->sm_matrix[(size_t)sms[x] * r->sm_count + sms[y]]++;
        if (b->run_count > 1 || b->runs[0].last > b->runs[0].first) {
            r->multi_cta_blocks++;
            fold_cta_distances(s, r, b->runs, b->run_count);
        }
    }
    drop_blocks(s);
}

const sharing_results *sharing_get(const sharing *s) { return &s->results; }

static double ratio(double num, double den) { return den > 0 ? num / den : 0.0; }

double sharing_shared_fraction(const sharing_results *r)
{
    return ratio((double)r->shared_blocks, (double)r->blocks);
}

double sharing_mean_sms_per_block(const sharing_results *r)
{
    double total = 0;
    for (uint32_t k = 1; k <= r->sm_count; k++)
        total += (double)k * (double)r->sharers_hist[k];
    return ratio(total, (double)r->blocks);
}

double sharing_mean_sms_per_shared_block(const sharing_results *r)
{
    double total = 0;
    for (uint32_t k = 2; k <= r->sm_count; k++)
        total += (double)k * (double)r->sharers_hist[k];
    return ratio(total, (double)r->shared_blocks);
}

double sharing_multi_cta_fraction(const sharing_results *r)
{
    return ratio((double)r->multi_cta_blocks, (double)r->blocks);
}

uint64_t sharing_neighbour_pairs(const sharing_results *r)
{
    uint64_t near = 0;
    for (int d = 1; d < SHARING_NEIGHBOUR_DISTANCE; d++)
        near += r->cta_distance_exact[d];
    return near;
}

double sharing_neighbour_pair_share(const sharing_results *r)
{
    return ratio((double)sharing_neighbour_pairs(r), (double)r->cta_pairs);
}
