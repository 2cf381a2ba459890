/* analyzer/metrics_pack.c: see metrics_pack.h.
 *
 * Layout: the kernel's totals struct, the PC array, the exact counts of
 * each of the totals' histograms in total_hist's order, then each PC's
 * reuse (pc_reuse.h): its dense counts (absent while sparse) and its sparse
 * cells.  Pointers read back from struct bytes are never used: each is
 * replaced by its unpacked array. */
#include "analyzer/metrics_pack.h"

#include <stdlib.h>

#define TOTAL_HISTS (GRANULARITIES * SCOPES * 2)

/* The i-th histogram of the totals: (granularity, scope; distance then time). */
static reuse_hist *total_hist(const metrics_kernel *k, size_t i)
{
    reuse_pair *pair = (reuse_pair *)&k->totals.reuse[i / 2 / SCOPES][i / 2 % SCOPES];
    return i % 2 ? &pair->time : &pair->distance;
}

static uint32_t pc_count(const metrics_kernel *k) { return k->pcs ? k->pc_count : 0; }

int metrics_kernel_pack(const metrics_kernel *k, pack_bytes *out, ws_error *err)
{
    int rc = pack_put(out, &k->totals, sizeof k->totals);
    rc |= pack_put_array(out, k->pcs, k->pc_count, sizeof *k->pcs);
    for (size_t i = 0; i < TOTAL_HISTS; i++) {
        const reuse_hist *h = total_hist(k, i);
        rc |= pack_put_array(out, h->exact, h->exact_limit, sizeof *h->exact);
    }
    for (uint32_t p = 0; p < pc_count(k); p++) {
        const pc_reuse *r = &k->pcs[p].reuse;
        rc |= pack_put_array(out, r->dense, PC_REUSE_DENSE, sizeof *r->dense);
        rc |= pack_put_array(out, r->cells, r->cell_count, sizeof *r->cells);
    }
    return rc ? ws_fail(err, "out of memory packing a kernel's metrics") : 0;
}

void metrics_kernel_unpacked_free(metrics_kernel *k)
{
    for (size_t i = 0; i < TOTAL_HISTS; i++)
        reuse_hist_clear(total_hist(k, i));
    for (uint32_t p = 0; p < pc_count(k); p++)
        pc_reuse_free(&k->pcs[p].reuse);
    free(k->pcs);
    *k = (metrics_kernel){0};
}

/* One PC's reuse, whose struct came with the PC array: its own arrays, or
 * -1 when they are absent where the struct says they are not, or point
 * outside the dense form. */
static int unpack_pc_reuse(pack_reader *rd, pc_reuse *r)
{
    uint32_t cells = r->cell_count;
    int was_dense = r->dense != NULL, was_sparse = r->cells != NULL;
    *r = (pc_reuse){0};
    r->dense = pack_get_array(rd, PC_REUSE_DENSE, sizeof *r->dense);
    r->cells = pack_get_array(rd, cells, sizeof *r->cells);
    if (rd->bad || was_dense != (r->dense != NULL) || was_sparse != (r->cells != NULL) ||
        (r->cells == NULL && cells) || (r->dense && r->cells) || cells > PC_REUSE_CELLS_MAX)
        return -1;
    r->cell_count = r->cell_capacity = cells;
    for (uint32_t i = 0; i < cells; i++)
        if (r->cells[i].cell >= PC_REUSE_DENSE)
            return -1;
    return 0;
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
    /* Every histogram and PC forgets the sender's pointers first (the
     * flags of what was sent stay aside), so that a short read frees only
     * what was read. */
    for (size_t i = 0; i < TOTAL_HISTS; i++)
        total_hist(k, i)->exact = NULL;
    pc_reuse *sent = k->pc_count ? malloc(k->pc_count * sizeof *sent) : NULL;
    if (k->pc_count && !sent) {
        free(k->pcs);
        *k = (metrics_kernel){0};
        return ws_fail(err, "out of memory unpacking a kernel's metrics");
    }
    for (uint32_t p = 0; p < k->pc_count; p++) {
        sent[p] = k->pcs[p].reuse;
        k->pcs[p].reuse = (pc_reuse){0};
    }
    for (size_t i = 0; !rd.bad && i < TOTAL_HISTS; i++) {
        reuse_hist *h = total_hist(k, i);
        /* No exact range: the sender's array was absent (NULL). */
        if (!(h->exact = pack_get_array(&rd, h->exact_limit, sizeof *h->exact)) && h->exact_limit)
            rd.bad = 1;
    }
    for (uint32_t p = 0; !rd.bad && p < k->pc_count; p++) {
        k->pcs[p].reuse = sent[p];
        if (unpack_pc_reuse(&rd, &k->pcs[p].reuse) != 0)
            rd.bad = 1;
    }
    free(sent);
    if (!k->pcs || rd.bad || rd.at != size) {
        metrics_kernel_unpacked_free(k);
        return ws_fail(err, "a kernel's packed metrics are short or inconsistent");
    }
    return 0;
}
