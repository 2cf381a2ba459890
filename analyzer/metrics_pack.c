/* analyzer/metrics_pack.c: see metrics_pack.h.
 *
 * Layout: the kernel's totals struct, the PC array, then the exact counts
 * of every histogram in hist_at's order.  Pointers read back from struct
 * bytes are never used: each is replaced by its unpacked array. */
#include "analyzer/metrics_pack.h"

#include <stdlib.h>

#define TOTAL_HISTS (GRANULARITIES * SCOPES * 2)
#define PC_HISTS (SCOPES * 2)

static size_t hist_count(const metrics_kernel *k)
{
    return TOTAL_HISTS + (size_t)(k->pcs ? k->pc_count : 0) * PC_HISTS;
}

/* The i-th histogram of k: the totals' (granularity, scope; distance then
 * time), then each PC's (scope; distance then time). */
static reuse_hist *hist_at(const metrics_kernel *k, size_t i)
{
    reuse_pair *pair;
    if (i < TOTAL_HISTS) {
        pair = (reuse_pair *)&k->totals.reuse[i / 2 / SCOPES][i / 2 % SCOPES];
    } else {
        i -= TOTAL_HISTS;
        pair = &k->pcs[i / PC_HISTS].reuse[i % PC_HISTS / 2];
    }
    return i % 2 ? &pair->time : &pair->distance;
}

int metrics_kernel_pack(const metrics_kernel *k, pack_bytes *out, ws_error *err)
{
    int rc = pack_put(out, &k->totals, sizeof k->totals);
    rc |= pack_put_array(out, k->pcs, k->pc_count, sizeof *k->pcs);
    for (size_t i = 0; i < hist_count(k); i++) {
        const reuse_hist *h = hist_at(k, i);
        rc |= pack_put_array(out, h->exact, h->exact_limit, sizeof *h->exact);
    }
    return rc ? ws_fail(err, "out of memory packing a kernel's metrics") : 0;
}

void metrics_kernel_unpacked_free(metrics_kernel *k)
{
    for (size_t i = 0; i < hist_count(k); i++)
        reuse_hist_clear(hist_at(k, i));
    free(k->pcs);
    *k = (metrics_kernel){0};
}

int metrics_kernel_unpack(const void *data, size_t size, metrics_kernel *k, ws_error *err)
{
    pack_reader rd = {data, size, 0, 0};
    *k = (metrics_kernel){0};
    pack_get(&rd, &k->totals, sizeof k->totals);
    uint32_t sent_pcs = 0;
    uint64_t count = 0;
    pack_reader peek = rd;
    if (pack_get(&peek, &count, sizeof count) == 0 && count <= UINT32_MAX)
        sent_pcs = (uint32_t)count;
    k->pcs = rd.bad ? NULL : pack_get_array(&rd, sent_pcs, sizeof *k->pcs);
    k->pc_count = k->pcs ? sent_pcs : 0;
    /* Every histogram forgets the sender's pointer first, so that a short
     * read frees only what was read. */
    for (size_t i = 0; i < hist_count(k); i++)
        hist_at(k, i)->exact = NULL;
    for (size_t i = 0; !rd.bad && i < hist_count(k); i++) {
        reuse_hist *h = hist_at(k, i);
        /* No exact range: the sender's array was absent (NULL). */
        if (!(h->exact = pack_get_array(&rd, h->exact_limit, sizeof *h->exact)) && h->exact_limit)
            rd.bad = 1;
    }
    if (!k->pcs || rd.bad || rd.at != size) {
        metrics_kernel_unpacked_free(k);
        return ws_fail(err, "a kernel's packed metrics are short or inconsistent");
    }
    return 0;
}
