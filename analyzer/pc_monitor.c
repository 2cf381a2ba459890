/* analyzer/pc_monitor.c: see pc_monitor.h. */
#include "analyzer/pc_monitor.h"

#include <stdlib.h>
#include <string.h>

struct pc_monitor {
    uint32_t sms, pc_count;
    locality *generations;
    uint8_t *decided[PC_TABLES]; /* [sms × pc_count]: a locality_class or PC_UNDECIDED */
    pc_monitor_turns turns[PC_TABLES];
};

static void decide(pc_monitor *m, pc_monitor_table t, size_t at, locality_class c)
{
    uint8_t before = m->decided[t][at];
    int was = before == LOCALITY_STREAMING, is = c == LOCALITY_STREAMING;
    m->turns[t].to_streaming += !was && is;
    m->turns[t].back += was && !is;
    m->decided[t][at] = (uint8_t)c;
}

static void closed(void *ctx, uint32_t sm, uint32_t pc, locality_class c, int monitored)
{
    pc_monitor *m = ctx;
    if (pc >= m->pc_count)
        return;
    size_t at = (size_t)sm * m->pc_count + pc;
    decide(m, PC_EVERY_WARP, at, c);
    if (monitored)
        decide(m, PC_ONE_WARP, at, c);
}

pc_monitor *pc_monitor_new(uint32_t sms, uint32_t threshold, ws_error *err)
{
    pc_monitor *m = calloc(1, sizeof *m);
    if (!m)
        return ws_fail(err, "out of memory"), NULL;
    m->sms = sms;
    if (!(m->generations = locality_new(sms, err))) {
        free(m);
        return NULL;
    }
    locality_watch(m->generations, threshold, closed, m);
    return m;
}

void pc_monitor_free(pc_monitor *m)
{
    if (!m)
        return;
    locality_free(m->generations);
    for (int t = 0; t < PC_TABLES; t++)
        free(m->decided[t]);
    free(m);
}

int pc_monitor_begin_kernel(pc_monitor *m, uint32_t pc_count, ws_error *err)
{
    size_t n = (size_t)m->sms * (pc_count ? pc_count : 1);
    m->pc_count = 0;
    for (int t = 0; t < PC_TABLES; t++) {
        free(m->decided[t]);
        if (!(m->decided[t] = malloc(n)))
            return ws_fail(err, "out of memory");
        memset(m->decided[t], PC_UNDECIDED, n);
        m->turns[t] = (pc_monitor_turns){0};
    }
    if (locality_begin_kernel(m->generations, pc_count, err) != 0)
        return -1;
    m->pc_count = pc_count;
    return 0;
}

int pc_monitor_fill(pc_monitor *m, uint32_t sm, uint64_t line, uint32_t warp, uint32_t pc,
                    int monitored, ws_error *err)
{
    return locality_fill(m->generations, sm, line, warp, pc, monitored, err);
}

void pc_monitor_use(pc_monitor *m, uint32_t sm, uint64_t line, uint32_t warp)
{
    locality_hit(m->generations, sm, line, warp);
}

void pc_monitor_evict(pc_monitor *m, uint32_t sm, uint64_t line)
{
    locality_evict(m->generations, sm, line);
}

uint8_t pc_monitor_decision(const pc_monitor *m, pc_monitor_table t, uint32_t sm, uint32_t pc)
{
    return pc < m->pc_count ? m->decided[t][(size_t)sm * m->pc_count + pc] : PC_UNDECIDED;
}

pc_monitor_turns pc_monitor_turns_of(const pc_monitor *m, pc_monitor_table t)
{
    return m->turns[t];
}

const locality_pc *pc_monitor_pcs(const pc_monitor *m, uint32_t *pc_count)
{
    return locality_pcs(m->generations, pc_count);
}
