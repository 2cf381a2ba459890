/* analyzer/results_pack.c: see results_pack.h.
 *
 * Layout: the replay_results struct itself, then every array it points to
 * as (u64 element count, or NO_ARRAY for NULL; the elements), in a fixed
 * order; structs that point further (kernels, the CCN ring's and LCM's
 * results) are followed by their own arrays.  Pointers read back from the
 * struct bytes are never used: each is replaced by its unpacked array. */
#include "analyzer/results_pack.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

#define NO_ARRAY UINT64_MAX

static int put(results_bytes *b, const void *p, size_t n)
{
    if (ws_grow((void **)&b->data, &b->capacity, b->size + n, 1) != 0)
        return -1;
    if (n)
        memcpy(b->data + b->size, p, n);
    b->size += n;
    return 0;
}

static int put_array(results_bytes *b, const void *p, uint64_t count, size_t elem)
{
    uint64_t head = p ? count : NO_ARRAY;
    return put(b, &head, sizeof head) || (p && put(b, p, (size_t)count * elem)) ? -1 : 0;
}

static int put_string(results_bytes *b, const char *s)
{
    return put_array(b, s, s ? strlen(s) + 1 : 0, 1);
}

void results_bytes_free(results_bytes *b)
{
    free(b->data);
    *b = (results_bytes){0};
}

int results_pack(const replay_results *r, results_bytes *out, ws_error *err)
{
    int rc = put(out, r, sizeof *r);
    for (uint32_t i = 0; i < r->l1_policy_stat_count; i++)
        rc |= put_string(out, r->l1_policy_stats[i].name);
    for (uint32_t i = 0; i < r->l2_policy_stat_count; i++)
        rc |= put_string(out, r->l2_policy_stats[i].name);
    uint64_t sms = r->sms;
    rc |= put_array(out, r->sm_hits, sms, sizeof *r->sm_hits);
    rc |= put_array(out, r->sm_misses, sms, sizeof *r->sm_misses);
    rc |= put_array(out, r->sm_load_misses, sms, sizeof *r->sm_load_misses);
    rc |= put_array(out, r->remote_holders, sms * sms, sizeof *r->remote_holders);
    rc |= put_array(out, r->kernels, r->kernel_count, sizeof *r->kernels);
    for (uint32_t k = 0; r->kernels && k < r->kernel_count; k++) {
        const replay_kernel *rk = &r->kernels[k];
        rc |= put_array(out, rk->pcs, rk->pc_count, sizeof *rk->pcs);
        rc |= put_array(out, rk->locality, rk->pc_count, sizeof *rk->locality);
    }
    rc |= put_array(out, r->ccn, 1, sizeof *r->ccn);
    if (r->ccn) {
        const ccn_results *c = r->ccn;
        rc |= put_array(out, c->kernels, c->kernel_count, sizeof *c->kernels);
        rc |= put_array(out, c->per_sm, c->sms, sizeof *c->per_sm);
        rc |= put_array(out, c->timelines, c->sms, sizeof *c->timelines);
        rc |= put_array(out, c->distance_hits, (uint64_t)(c->kernel_count + 1) * c->sms,
                        sizeof *c->distance_hits);
    }
    rc |= put_array(out, r->lcm, 1, sizeof *r->lcm);
    if (r->lcm) {
        const lcm_results *m = r->lcm;
        rc |= put_array(out, m->kernels, m->kernel_count, sizeof *m->kernels);
        for (uint32_t k = 0; m->kernels && k < m->kernel_count; k++)
            rc |= put_array(out, m->kernels[k].pcs, m->kernels[k].pc_count, sizeof *m->kernels[k].pcs);
    }
    rc |= put_array(out, r->scheduler_stalls, sms * r->schedulers * STALL_CAUSES,
                    sizeof *r->scheduler_stalls);
    rc |= put_array(out, r->l2_queues, r->slices, sizeof *r->l2_queues);
    rc |= put_array(out, r->dram_queues, r->slices, sizeof *r->dram_queues);
    return rc ? ws_fail(err, "out of memory packing results") : 0;
}

/* ---- unpacking ---------------------------------------------------------- */

typedef struct reader {
    const unsigned char *data;
    size_t size, at;
    int bad;
} reader;

static int get(reader *rd, void *p, size_t n)
{
    if (rd->bad || n > rd->size - rd->at)
        return rd->bad = 1, -1;
    memcpy(p, rd->data + rd->at, n);
    rd->at += n;
    return 0;
}

/* A fresh copy of the next array, which must have `count` elements (or be
 * absent: NULL).  NULL also when short (rd->bad set). */
static void *get_array(reader *rd, uint64_t count, size_t elem)
{
    uint64_t head;
    if (get(rd, &head, sizeof head) != 0 || head == NO_ARRAY)
        return NULL;
    if (head != count || (elem && head > (rd->size - rd->at) / elem)) {
        rd->bad = 1;
        return NULL;
    }
    size_t n = (size_t)head * elem;
    void *p = malloc(n ? n : 1);
    if (!p || get(rd, p, n) != 0) {
        free(p);
        rd->bad = 1;
        return NULL;
    }
    return p;
}

/* A string array: its length is its own. */
static char *get_string(reader *rd)
{
    uint64_t head;
    if (get(rd, &head, sizeof head) != 0 || head == NO_ARRAY)
        return NULL;
    rd->at -= sizeof head;
    char *s = get_array(rd, head, 1);
    if (s && (head == 0 || s[head - 1] != '\0'))
        rd->bad = 1;
    return s;
}

void results_unpacked_free(replay_results *r)
{
    if (!r)
        return;
    for (uint32_t i = 0; i < r->l1_policy_stat_count; i++)
        free((char *)r->l1_policy_stats[i].name);
    for (uint32_t i = 0; i < r->l2_policy_stat_count; i++)
        free((char *)r->l2_policy_stats[i].name);
    free(r->sm_hits);
    free(r->sm_misses);
    free(r->sm_load_misses);
    free(r->remote_holders);
    for (uint32_t k = 0; r->kernels && k < r->kernel_count; k++) {
        free(r->kernels[k].pcs);
        free(r->kernels[k].locality);
    }
    free(r->kernels);
    if (r->ccn) {
        ccn_results *c = (ccn_results *)r->ccn;
        free(c->kernels);
        free(c->per_sm);
        free(c->timelines);
        free(c->distance_hits);
        free(c);
    }
    if (r->lcm) {
        lcm_results *m = (lcm_results *)r->lcm;
        for (uint32_t k = 0; m->kernels && k < m->kernel_count; k++)
            free(m->kernels[k].pcs);
        free(m->kernels);
        free(m);
    }
    free(r->scheduler_stalls);
    free((void *)r->l2_queues);
    free((void *)r->dram_queues);
    free(r);
}

/* Every pointer of a struct just read as bytes is cleared before anything
 * can fail, so results_unpacked_free never follows one from another rank. */
static void clear_pointers(replay_results *r)
{
    memset(r->l1_policy_stats, 0, sizeof r->l1_policy_stats);
    memset(r->l2_policy_stats, 0, sizeof r->l2_policy_stats);
    r->sm_hits = r->sm_misses = r->sm_load_misses = r->remote_holders = NULL;
    r->kernels = NULL;
    r->ccn = NULL;
    r->lcm = NULL;
    r->scheduler_stalls = NULL;
    r->l2_queues = r->dram_queues = NULL;
}

replay_results *results_unpack(const unsigned char *data, size_t size, size_t *at, ws_error *err)
{
    reader rd = {data, size, *at, 0};
    replay_results *r = calloc(1, sizeof *r);
    if (!r)
        return ws_fail(err, "out of memory"), NULL;
    if (get(&rd, r, sizeof *r) != 0) {
        free(r);
        return ws_fail(err, "packed results cut short"), NULL;
    }
    uint32_t l1_stats = r->l1_policy_stat_count, l2_stats = r->l2_policy_stat_count;
    uint32_t kernel_count = r->kernel_count;
    policy_stat l1_sent[POLICY_MAX_STATS], l2_sent[POLICY_MAX_STATS]; /* their values */
    memcpy(l1_sent, r->l1_policy_stats, sizeof l1_sent);
    memcpy(l2_sent, r->l2_policy_stats, sizeof l2_sent);
    clear_pointers(r);
    r->l1_policy_stat_count = r->l2_policy_stat_count = 0;
    r->kernel_count = 0;
    if (l1_stats > POLICY_MAX_STATS || l2_stats > POLICY_MAX_STATS)
        rd.bad = 1;
    for (uint32_t i = 0; !rd.bad && i < l1_stats; i++, r->l1_policy_stat_count++)
        r->l1_policy_stats[i] = (policy_stat){get_string(&rd), l1_sent[i].value};
    for (uint32_t i = 0; !rd.bad && i < l2_stats; i++, r->l2_policy_stat_count++)
        r->l2_policy_stats[i] = (policy_stat){get_string(&rd), l2_sent[i].value};
    uint64_t sms = r->sms;
    r->sm_hits = get_array(&rd, sms, sizeof *r->sm_hits);
    r->sm_misses = get_array(&rd, sms, sizeof *r->sm_misses);
    r->sm_load_misses = get_array(&rd, sms, sizeof *r->sm_load_misses);
    r->remote_holders = get_array(&rd, sms * sms, sizeof *r->remote_holders);
    if (!rd.bad && (r->kernels = get_array(&rd, kernel_count, sizeof *r->kernels))) {
        for (uint32_t k = 0; k < kernel_count; k++) /* the sender's pointers */
            r->kernels[k].pcs = NULL, r->kernels[k].locality = NULL;
        r->kernel_count = kernel_count;
        for (uint32_t k = 0; !rd.bad && k < kernel_count; k++) {
            replay_kernel *rk = &r->kernels[k];
            rk->pcs = get_array(&rd, rk->pc_count, sizeof *rk->pcs);
            rk->locality = get_array(&rd, rk->pc_count, sizeof *rk->locality);
        }
    }
    ccn_results *c = rd.bad ? NULL : get_array(&rd, 1, sizeof *c);
    if (c) {
        ccn_results sent = *c;
        c->kernels = NULL, c->per_sm = NULL, c->timelines = NULL, c->distance_hits = NULL;
        r->ccn = c;
        c->kernels = get_array(&rd, sent.kernel_count, sizeof *c->kernels);
        c->per_sm = get_array(&rd, sent.sms, sizeof *c->per_sm);
        c->timelines = get_array(&rd, sent.sms, sizeof *c->timelines);
        c->distance_hits = get_array(&rd, (uint64_t)(sent.kernel_count + 1) * sent.sms,
                                     sizeof *c->distance_hits);
    }
    lcm_results *m = rd.bad ? NULL : get_array(&rd, 1, sizeof *m);
    if (m) {
        uint32_t count = m->kernel_count;
        m->kernels = NULL, m->kernel_count = 0;
        r->lcm = m;
        if (!rd.bad && (m->kernels = get_array(&rd, count, sizeof *m->kernels))) {
            for (uint32_t k = 0; k < count; k++)
                m->kernels[k].pcs = NULL;
            m->kernel_count = count;
            for (uint32_t k = 0; !rd.bad && k < count; k++)
                m->kernels[k].pcs = get_array(&rd, m->kernels[k].pc_count, sizeof *m->kernels[k].pcs);
        }
    }
    if (!rd.bad)
        r->scheduler_stalls = get_array(&rd, sms * r->schedulers * STALL_CAUSES,
                                        sizeof *r->scheduler_stalls);
    if (!rd.bad)
        r->l2_queues = get_array(&rd, r->slices, sizeof *r->l2_queues);
    if (!rd.bad)
        r->dram_queues = get_array(&rd, r->slices, sizeof *r->dram_queues);
    if (rd.bad) {
        results_unpacked_free(r);
        return ws_fail(err, "packed results cut short or inconsistent"), NULL;
    }
    *at = rd.at;
    return r;
}
