/* analyzer/sharing.c: inter-SM and inter-CTA sharing (docs/metrics.md §5, S0 §III).
 *
 * Per block we keep the set of SMs (a bitmask) and the sorted set of CTAs
 * that touched it during the current kernel.  Folding happens once per block
 * at kernel end. */
#include "analyzer/sharing.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/u64map.h"

#define SM_WORDS (SHARING_MAX_SMS / 64)

typedef struct block_state {
    uint64_t sms[SM_WORDS];
    uint32_t *ctas; /* sorted, distinct */
    uint32_t cta_count, cta_capacity;
    uint32_t first_cta; /* inline storage for the common single-CTA block */
} block_state;

struct sharing {
    uint32_t block_shift;
    u64map index; /* block id -> position in blocks[] */
    block_state *blocks;
    size_t block_count, block_capacity;
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
    if (!s || u64map_init(&s->index, 1024) != 0)
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
        if (s->blocks[i].ctas != &s->blocks[i].first_cta)
            free(s->blocks[i].ctas);
    s->block_count = 0;
    u64map_clear(&s->index);
}

void sharing_free(sharing *s)
{
    if (!s)
        return;
    drop_blocks(s);
    free(s->blocks);
    u64map_destroy(&s->index);
    free(s->results.sharers_hist);
    free(s->results.sm_matrix);
    free(s);
}

/* Inserts cta into the block's sorted set.  CTAs mostly arrive in order, so
 * the append path is checked first. */
static int add_cta(block_state *b, uint32_t cta)
{
    uint32_t n = b->cta_count;
    if (n && b->ctas[n - 1] == cta)
        return 0;
    uint32_t pos = n;
    if (n && b->ctas[n - 1] > cta) {
        uint32_t lo = 0, hi = n;
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (b->ctas[mid] < cta)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (b->ctas[lo] == cta)
            return 0;
        pos = lo;
    }
    if (n == b->cta_capacity) {
        uint32_t cap = b->cta_capacity * 2;
        uint32_t *grown = malloc(cap * sizeof *grown);
        if (!grown)
            return -1;
        memcpy(grown, b->ctas, n * sizeof *grown);
        if (b->ctas != &b->first_cta)
            free(b->ctas);
        b->ctas = grown;
        b->cta_capacity = cap;
    }
    memmove(b->ctas + pos + 1, b->ctas + pos, (n - pos) * sizeof *b->ctas);
    b->ctas[pos] = cta;
    b->cta_count = n + 1;
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
        /* Blocks holding their CTA inline pointed into the old array. */
        if (s->blocks != old)
            for (size_t i = 0; i < s->block_count; i++)
                if (s->blocks[i].cta_capacity == 1)
                    s->blocks[i].ctas = &s->blocks[i].first_cta;
        block_state *b = &s->blocks[s->block_count++];
        memset(b, 0, sizeof *b);
        b->first_cta = cta;
        b->ctas = &b->first_cta;
        b->cta_count = b->cta_capacity = 1;
        b->sms[sm / 64] = 1ULL << (sm % 64);
        return 0;
    }
    block_state *b = &s->blocks[*slot];
    b->sms[sm / 64] |= 1ULL << (sm % 64);
    if (add_cta(b, cta) != 0)
        return ws_fail(err, "out of memory");
    return 0;
}

static unsigned floor_log2(uint64_t v) { return 63u - (unsigned)__builtin_clzll(v); }

/* Histogram of |a - b| over all pairs of the sorted set, without visiting
 * every pair: small distances by a forward scan of the next few entries,
 * larger ones by counting entries in [c + 2^k, c + 2^(k+1)) with one
 * monotone pointer per bucket boundary (O(n × buckets) per block). */
static void fold_cta_distances(sharing_results *r, const uint32_t *ctas, uint32_t n)
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
        for (unsigned k = first_bucket; k <= SHARING_LOG2_BUCKETS && k < 64; k++) {
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

void sharing_end_kernel(sharing *s)
{
    sharing_results *r = &s->results;
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
        if (b->cta_count >= 2) {
            r->multi_cta_blocks++;
            fold_cta_distances(r, b->ctas, b->cta_count);
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
