/* cli/analyze_ranks.c: see analyze_ranks.h.
 *
 * Messages from a rank r >= 1 to rank 0, in order: one per kernel of r's
 * block ('K' and the packed metrics_kernel, analyzer/metrics_pack.h), then
 * one last ('D' done, or 'F' failed: r keeps its error line for the
 * share's end).  Rank 0 always takes every rank's messages up to its last,
 * whether or not it failed itself, so that no sender waits for ever. */
#include "cli/analyze_ranks.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/metrics_pack.h"
#include "cli/cli.h"
#include "cli/trace_filter.h"
#include "util/ranks.h"

enum { MSG_KERNEL = 'K', MSG_DONE = 'D', MSG_FAILED = 'F' };

/* The rank (1..R-1) whose block holds kernel k: blocks are contiguous and
 * balanced by records, k going to the worker its records' midpoint falls in. */
static uint32_t kernel_owner(const wst_trace *t, uint32_t k, const uint64_t *before, uint64_t total)
{
    uint32_t workers = ranks_size() - 1;
    if (total == 0)
        return 1 + (uint32_t)((uint64_t)k * workers / (t->kernel_count ? t->kernel_count : 1));
    uint64_t mid = before[k] + t->kernels[k].record_count / 2;
    uint32_t w = (uint32_t)((unsigned __int128)mid * workers / total);
    return 1 + (w < workers ? w : workers - 1);
}

/* owners[k] for every kernel of t (malloc'd), NULL when out of memory. */
static uint32_t *kernel_owners(const wst_trace *t)
{
    uint32_t n = t->kernel_count;
    uint64_t *before = malloc((n + 1) * sizeof *before);
    uint32_t *owners = malloc((n ? n : 1) * sizeof *owners);
    if (before && owners) {
        before[0] = 0;
        for (uint32_t k = 0; k < n; k++)
            before[k + 1] = before[k] + t->kernels[k].record_count;
        for (uint32_t k = 0; k < n; k++)
            owners[k] = kernel_owner(t, k, before, before[n]);
    } else {
        free(owners);
        owners = NULL;
    }
    free(before);
    return owners;
}

struct analyze_ranks {
    uint32_t *owners;  /* [kernel_count] */
    uint8_t *finished; /* [ranks]: its last message taken */
    int peer_failed;   /* another rank said 'F': its line is the job's */
};

/* options.kernel_metrics on rank 0: kernel k's metrics from its owner. */
static int receive_kernel(void *ctx, metrics *m, uint32_t k, ws_error *err)
{
    analyze_ranks *s = ctx;
    uint32_t from = s->owners[k];
    unsigned char *msg;
    size_t size;
    if (s->finished[from])
        return ws_fail(err, "rank %u ended before kernel %u", from, k);
    if (ranks_recv(from, (void **)&msg, &size, err) != 0)
        return -1;
    int rc = -1;
    if (size && msg[0] == MSG_KERNEL) {
        metrics_kernel got;
        rc = metrics_kernel_unpack(msg + 1, size - 1, &got, err) == 0 &&
                     metrics_kernel_adopt(m, &got, err) == 0
                 ? 0
                 : -1;
        metrics_kernel_unpacked_free(&got);
    } else {
        s->finished[from] = 1;
        s->peer_failed = size && msg[0] == MSG_FAILED;
        ws_fail(err, "rank %u ended before kernel %u", from, k);
    }
    free(msg);
    return rc;
}

analyze_ranks *analyze_ranks_receive(const wst_trace *t, analysis_options *options, ws_error *err)
{
    analyze_ranks *s = calloc(1, sizeof *s);
    if (!s || !(s->owners = kernel_owners(t)) || !(s->finished = calloc(ranks_size(), 1))) {
        if (s)
            free(s->owners);
        free(s);
        ws_fail(err, "out of memory");
        return NULL;
    }
    options->metrics_where = METRICS_ELSEWHERE;
    options->kernel_metrics = receive_kernel;
    options->kernel_metrics_ctx = s;
    return s;
}

int analyze_ranks_peer_failed(const analyze_ranks *s) { return s && s->peer_failed; }

int analyze_ranks_end(analyze_ranks *s, int status)
{
    /* Every other rank's messages up to its last, whatever happened here. */
    for (uint32_t r = 1; r < ranks_size(); r++) {
        while (!s || !s->finished[r]) {
            unsigned char *msg;
            size_t size;
            ws_error err;
            if (ranks_recv(r, (void **)&msg, &size, &err) != 0) {
                status = status ? status : cli_fail(NULL, &err);
                break;
            }
            int last = !size || msg[0] != MSG_KERNEL;
            if (last && size && msg[0] == MSG_FAILED && s)
                s->peer_failed = 1;
            if (status == 0 && size && msg[0] == MSG_KERNEL)
                status = cli_error(NULL, "rank %u sent more kernels than its block", r);
            free(msg);
            if (last)
                break;
        }
    }
    /* A rank that failed holds the job's line; rank 0 keeps none of its own
     * ("rank 1 ended before kernel 7" would only hide why). */
    if (s && s->peer_failed)
        status = status ? status : 1;
    if (s) {
        free(s->owners);
        free(s->finished);
        free(s);
    }
    return ranks_share_end(status);
}

/* A rank's kernel_done: the kernel's metrics to rank 0. */
static int send_kernel(void *ctx, const analysis *a, uint32_t k, ws_error *err)
{
    (void)ctx;
    pack_bytes msg = {0};
    unsigned char head = MSG_KERNEL;
    int rc = pack_put(&msg, &head, 1) != 0 ? ws_fail(err, "out of memory")
             : metrics_kernel_pack(metrics_kernel_at(a->metrics, k), &msg, err) != 0
                 ? -1
                 : ranks_send(0, msg.data, msg.size, err);
    pack_bytes_free(&msg);
    return rc;
}

/* This rank's block of r's kernels: only its chunks are read from here on. */
static int keep_block(wst_reader *r, ws_error *err)
{
    const wst_trace *t = wst_reader_trace(r);
    uint32_t *owners = kernel_owners(t);
    uint8_t *keep = calloc(t->kernel_count ? t->kernel_count : 1, 1);
    int rc = owners && keep ? 0 : ws_fail(err, "out of memory");
    for (uint32_t k = 0; rc == 0 && k < t->kernel_count; k++)
        keep[k] = owners[k] == ranks_rank();
    if (rc == 0)
        rc = wst_reader_keep_kernels(r, keep, wst_reader_selection(r), err);
    free(owners);
    free(keep);
    return rc;
}

int analyze_ranks_send(const char *trace, int ignore_cache_ops, const gpu_config *config,
                       analysis_options options)
{
    ranks_own_share();
    ws_error err;
    int status = 0;
    wst_reader *r = cli_open_trace(trace, &err);
    if (!r || keep_block(r, &err) != 0) {
        status = cli_fail(trace, &err);
    } else {
        if (ignore_cache_ops)
            wst_reader_ignore_cache_ops(r);
        options.metrics_where = METRICS_ONLY;
        options.replay = 0;
        options.kernel_done = send_kernel;
        analysis *a = analysis_run(r, config, &options, NULL, &err);
        if (!a)
            status = cli_fail(trace, &err);
        analysis_free(a);
    }
    wst_reader_close(r);
    unsigned char last = status ? MSG_FAILED : MSG_DONE;
    if (ranks_send(0, &last, 1, &err) != 0 && status == 0)
        status = cli_fail(NULL, &err);
    return ranks_share_end(status);
}
