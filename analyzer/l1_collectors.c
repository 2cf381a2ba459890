/* analyzer/l1_collectors.c: see l1_collectors.h. */
#include "analyzer/l1_collectors.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/falru.h"
#include "formats/trace.h"

l1_collectors *l1_collectors_new(uint32_t sms, uint32_t l1_lines, int generations,
                                 replay_results *res, replay_kernel *const *current,
                                 ws_error *err)
{
    l1_collectors *c = calloc(1, sizeof *c);
    if (!c)
        return ws_fail(err, "out of memory"), NULL;
    c->sms = sms;
    c->l1_lines = l1_lines;
    c->res = res;
    c->current = current;
    if (holders_init(&c->holders, sms) != 0 || !(c->fully = calloc(sms, sizeof *c->fully)) ||
        mask_counts_init(&c->remote, sms, sms, res->remote_holders) != 0) {
        ws_fail(err, "out of memory");
        goto fail;
    }
    if (!(c->classes = missclass_new(sms, err)) ||
        (generations && !(c->generations = locality_new(sms, err))))
        goto fail;
    return c;
fail:
    l1_collectors_free(c);
    return NULL;
}

int l1_collectors_sm_begin(l1_collectors *c, uint32_t sm, ws_error *err)
{
    if (!c->fully[sm] && !(c->fully[sm] = falru_new(c->l1_lines, err)))
        return -1;
    return 0;
}

void l1_collectors_free(l1_collectors *c)
{
    if (!c)
        return;
    for (uint32_t s = 0; c->fully && s < c->sms; s++)
        falru_free(c->fully[s]);
    free(c->fully);
    missclass_free(c->classes);
    locality_free(c->generations);
    holders_destroy(&c->holders);
    mask_counts_destroy(&c->remote);
    free(c);
}

int l1_collectors_kernel_end(l1_collectors *c, ws_error *err)
{
    replay_kernel *k = *c->current;
    k->end_copies = c->holders.copies;
    k->end_lines = c->holders.distinct;
    if (c->generations) {
        locality_end_kernel(c->generations);
        uint32_t n;
        const locality_pc *loc = locality_pcs(c->generations, &n);
        if (!(k->locality = malloc((n ? n : 1) * sizeof *loc)))
            return ws_fail(err, "out of memory");
        memcpy(k->locality, loc, n * sizeof *loc);
    }
    for (uint32_t s = 0; s < c->sms; s++)
        if (c->fully[s])
            falru_flush(c->fully[s]);
    holders_clear(&c->holders);
    return 0;
}

void l1_collectors_finish(l1_collectors *c)
{
    /* Once, not per kernel: a flush visits every row's planes, which on
     * Volta's 80 SMs cost more than the counting saved on bfs's many
     * kernels (bench/RESULTS.md, "Branch hier42"). */
    mask_counts_flush(&c->remote);
}
