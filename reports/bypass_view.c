/* reports/bypass_view.c: see bypass_view.h. */
#include "reports/bypass_view.h"

#include <stdio.h>
#include <string.h>

#include "reports/pc_label.h"
#include "reports/replay_text.h"

const char *const bypass_outcome_names[BYPASS_OUTCOMES] = {"baseline", "bypass-table", "bypass-pc"};

double bypass_view_pct_change(uint64_t after, uint64_t before)
{
    return before ? 100.0 * ((double)after - (double)before) / (double)before : 0.0;
}

const char *bypass_view_u_words(int raw_bytes)
{
    return raw_bytes ? "of raw bytes" : "sector-rounded";
}

uint32_t bypass_view_recommended(const bypass_view *v)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < v->pc_count; i++)
        n += v->pcs[i].recommend != 0;
    return n;
}

/* The headline is traffic below L1, what bypassing is for (docs/metrics.md
 * §9): S1's miss rate over the loads still cached falls whenever loads
 * leave L1, useful or not, so it comes last and labelled so. */
void bypass_view_verdict(char *dst, size_t cap, const bypass_view *v)
{
    uint64_t before = v->outcomes[BYPASS_BASELINE].below_l1_bytes;
    uint64_t after = v->outcomes[BYPASS_WITH_PCS].below_l1_bytes;
    uint32_t recommended = bypass_view_recommended(v);
    char saved[32];
    replay_format_bytes(saved, sizeof saved, before > after ? before - after : 0);
    if (recommended && after < before)
        snprintf(dst, cap,
                 "bypass L1 at %u load PC%s: %s less traffic below L1 (L1 -> L2 and DRAM, %+.1f%%)",
                 recommended, recommended == 1 ? "" : "s", saved,
                 bypass_view_pct_change(after, before));
    else
        snprintf(dst, cap, "keep: no load PC lowers the traffic below L1 by bypassing it");
}

void bypass_view_where(bypass_where *w, const bypass_view_pc *pc, size_t width)
{
    pc_label(w->at, sizeof w->at, pc->kernel, pc->offset, width);
    source_label(w->source, sizeof w->source, pc->file, pc->line);
}

void bypass_view_change(char *dst, size_t cap, const bypass_view *v, const bypass_view_pc *pc)
{
    uint64_t before = v->outcomes[BYPASS_BASELINE].below_l1_bytes;
    if (pc->tested)
        snprintf(dst, cap, "%+.1f%%",
                 before ? 100.0 * (double)pc->traffic_change / (double)before : 0.0);
    else
        snprintf(dst, cap, "untested");
}

/* -dlcm=cg caches a whole file's global loads in L2 only: worth saying
 * when every load PC of the file is recommended. */
int bypass_view_whole_file(const bypass_view *v, uint32_t i, const char **base, char *saved,
                           size_t cap)
{
    const char *file = v->pcs[i].file;
    if (!file)
        return 0;
    int64_t together = 0;
    for (uint32_t j = 0; j < v->pc_count; j++) {
        const bypass_view_pc *other = &v->pcs[j];
        if (!other->file || strcmp(other->file, file) != 0)
            continue;
        if (j < i || !other->recommend) /* reported at its first PC, if all are recommended */
            return 0;
        together += other->traffic_change;
    }
    replay_format_bytes(saved, cap, (uint64_t)(-together));
    const char *slash = strrchr(file, '/');
    *base = slash ? slash + 1 : file;
    return 1;
}
