/* analyzer/results_pack.c: see results_pack.h.
 *
 * Layout: the replay_results struct itself, then every array it points to
 * as (u64 element count, or PACK_NO_ARRAY for NULL; the elements), in a fixed
 * order; structs that point further (kernels, the CCN ring's and LCM's
 * results) are followed by their own arrays.  Pointers read back from the
 * struct bytes are never used: each is replaced by its unpacked array. */
#include "analyzer/results_pack.h"

#include <stdlib.h>
#include <string.h>


static int put_string(pack_bytes *b, const char *s)
{
    return pack_put_array(b, s, s ? strlen(s) + 1 : 0, 1);
}

int results_pack(const replay_results *r, pack_bytes *out, ws_error *err)
{
    int rc = pack_put(out, r, sizeof *r);
    for (uint32_t i = 0; i < r->l1_policy_stat_count; i++)
        rc |= put_string(out, r->l1_policy_stats[i].name);
    for (uint32_t i = 0; i < r->l2_policy_stat_count; i++)
        rc |= put_string(out, r->l2_policy_stats[i].name);
    uint64_t sms = r->sms;
    rc |= pack_put_array(out, r->sm_hits, sms, sizeof *r->sm_hits);
    rc |= pack_put_array(out, r->sm_misses, sms, sizeof *r->sm_misses);
    rc |= pack_put_array(out, r->sm_load_misses, sms, sizeof *r->sm_load_misses);
    rc |= pack_put_array(out, r->remote_holders, sms * sms, sizeof *r->remote_holders);
    rc |= pack_put_array(out, r->kernels, r->kernel_count, sizeof *r->kernels);
    for (uint32_t k = 0; r->kernels && k < r->kernel_count; k++) {
        const replay_kernel *rk = &r->kernels[k];
        rc |= pack_put_array(out, rk->pcs, rk->pc_count, sizeof *rk->pcs);
        rc |= pack_put_array(out, rk->locality, rk->pc_count, sizeof *rk->locality);
    }
    rc |= pack_put_array(out, r->ccn, 1, sizeof *r->ccn);
    if (r->ccn) {
        const ccn_results *c = r->ccn;
        rc |= pack_put_array(out, c->kernels, c->kernel_count, sizeof *c->kernels);
        rc |= pack_put_array(out, c->per_sm, c->sms, sizeof *c->per_sm);
        rc |= pack_put_array(out, c->timelines, c->sms, sizeof *c->timelines);
        rc |= pack_put_array(out, c->distance_hits, (uint64_t)(c->kernel_count + 1) * c->sms,
                        sizeof *c->distance_hits);
    }
    rc |= pack_put_array(out, r->lcm, 1, sizeof *r->lcm);
    if (r->lcm) {
        const lcm_results *m = r->lcm;
        rc |= pack_put_array(out, m->kernels, m->kernel_count, sizeof *m->kernels);
        for (uint32_t k = 0; m->kernels && k < m->kernel_count; k++)
            rc |= pack_put_array(out, m->kernels[k].pcs, m->kernels[k].pc_count, sizeof *m->kernels[k].pcs);
    }
    rc |= pack_put_array(out, r->scheduler_stalls, sms * r->schedulers * STALL_CAUSES,
                    sizeof *r->scheduler_stalls);
    rc |= pack_put_array(out, r->l2_queues, r->slices, sizeof *r->l2_queues);
    rc |= pack_put_array(out, r->dram_queues, r->slices, sizeof *r->dram_queues);
    return rc ? ws_fail(err, "out of memory packing results") : 0;
}

/* ---- unpacking ---------------------------------------------------------- */

/* A string array: its length is its own. */
static char *get_string(pack_reader *rd)
{
    uint64_t head;
    if (pack_get(rd, &head, sizeof head) != 0 || head == PACK_NO_ARRAY)
        return NULL;
    rd->at -= sizeof head;
    char *s = pack_get_array(rd, head, 1);
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
    pack_reader rd = {data, size, *at, 0};
    replay_results *r = calloc(1, sizeof *r);
    if (!r)
        return ws_fail(err, "out of memory"), NULL;
    if (pack_get(&rd, r, sizeof *r) != 0) {
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
    r->sm_hits = pack_get_array(&rd, sms, sizeof *r->sm_hits);
    r->sm_misses = pack_get_array(&rd, sms, sizeof *r->sm_misses);
    r->sm_load_misses = pack_get_array(&rd, sms, sizeof *r->sm_load_misses);
    r->remote_holders = pack_get_array(&rd, sms * sms, sizeof *r->remote_holders);
    if (!rd.bad && (r->kernels = pack_get_array(&rd, kernel_count, sizeof *r->kernels))) {
        for (uint32_t k = 0; k < kernel_count; k++) /* the sender's pointers */
            r->kernels[k].pcs = NULL, r->kernels[k].locality = NULL;
        r->kernel_count = kernel_count;
        for (uint32_t k = 0; !rd.bad && k < kernel_count; k++) {
            replay_kernel *rk = &r->kernels[k];
            rk->pcs = pack_get_array(&rd, rk->pc_count, sizeof *rk->pcs);
            rk->locality = pack_get_array(&rd, rk->pc_count, sizeof *rk->locality);
        }
    }
    ccn_results *c = rd.bad ? NULL : pack_get_array(&rd, 1, sizeof *c);
    if (c) {
        ccn_results sent = *c;
        c->kernels = NULL, c->per_sm = NULL, c->timelines = NULL, c->distance_hits = NULL;
        r->ccn = c;
        c->kernels = pack_get_array(&rd, sent.kernel_count, sizeof *c->kernels);
        c->per_sm = pack_get_array(&rd, sent.sms, sizeof *c->per_sm);
        c->timelines = pack_get_array(&rd, sent.sms, sizeof *c->timelines);
        c->distance_hits = pack_get_array(&rd, (uint64_t)(sent.kernel_count + 1) * sent.sms,
                                     sizeof *c->distance_hits);
    }
    lcm_results *m = rd.bad ? NULL : pack_get_array(&rd, 1, sizeof *m);
    if (m) {
        uint32_t count = m->kernel_count;
        m->kernels = NULL, m->kernel_count = 0;
        r->lcm = m;
        if (!rd.bad && (m->kernels = pack_get_array(&rd, count, sizeof *m->kernels))) {
            for (uint32_t k = 0; k < count; k++)
                m->kernels[k].pcs = NULL;
            m->kernel_count = count;
            for (uint32_t k = 0; !rd.bad && k < count; k++)
                m->kernels[k].pcs = pack_get_array(&rd, m->kernels[k].pc_count, sizeof *m->kernels[k].pcs);
        }
    }
    if (!rd.bad)
        r->scheduler_stalls = pack_get_array(&rd, sms * r->schedulers * STALL_CAUSES,
                                        sizeof *r->scheduler_stalls);
    if (!rd.bad)
        r->l2_queues = pack_get_array(&rd, r->slices, sizeof *r->l2_queues);
    if (!rd.bad)
        r->dram_queues = pack_get_array(&rd, r->slices, sizeof *r->dram_queues);
    if (rd.bad) {
        results_unpacked_free(r);
        return ws_fail(err, "packed results cut short or inconsistent"), NULL;
    }
    *at = rd.at;
    return r;
}
