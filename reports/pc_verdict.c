/* reports/pc_verdict.c: see pc_verdict.h. */
#include "reports/pc_verdict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "reports/numfmt.h"

#define HIGH_HIT_RATE 0.5 /* hits that make a bypass verdict look odd */

static void append(pc_verdict *v, const char *fmt, ...)
{
    size_t used = strlen(v->reason);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->reason + used, sizeof v->reason - used, fmt, ap);
    va_end(ap);
}

/* What the replay with the PC bypassed measured. */
static void traffic(pc_verdict *v, const pc_group *g)
{
    if (g->bypass_yes > 0 && g->bypass_yes < g->bypass_seen) /* only a report from elsewhere */
        append(v, "Launches disagree: bypass in %u of %u launches. ", g->bypass_yes, g->bypass_seen);
    double change = pc_group_traffic_change(g);
    if (isnan(change))
        append(v, "Not replayed with this PC bypassed: only the PCs with the most requests "
                  "are (--trials). ");
    else
        append(v, "Bypassed in a replay, it %s %s of L1\xe2\x86\x92L2 and DRAM traffic. ",
               change < 0 ? "saved" : "added", numfmt_bytes(fabs(change)).s);
}

/* Why the bytes went that way: S1's Eq. 1 on the lines it requests. */
static void lines(pc_verdict *v, const pc_group *g, int bypass, double hit_rate)
{
    double share = pc_group_bypass_share(g);
    int tried = !isnan(pc_group_traffic_change(g));
    if (!(share > 0)) {
        append(v, "None of its lines is bypass-worthy by Eq. 1. ");
        return;
    }
    if (bypass && hit_rate >= HIGH_HIT_RATE)
        append(v, "%s of its requests go to lines Eq. 1 calls bypass-worthy (U \xc3\x97 (1 + R) "
                  "< 1): they are reused, but too little of each line is used to pay for "
                  "whole-line fills. ",
               numfmt_percent(share).s);
    else if (bypass)
        append(v, "%s of its requests go to lines Eq. 1 calls bypass-worthy (U \xc3\x97 (1 + R) "
                  "< 1: little of each line used, little reuse). ",
               numfmt_percent(share).s);
    else if (tried)
        append(v, "%s of its requests go to lines Eq. 1 calls bypass-worthy, but Eq. 1 "
                  "judges each line and the replay the PC's whole traffic, which decides. ",
               numfmt_percent(share).s);
}

pc_verdict pc_verdict_of(const pc_group *g)
{
    pc_verdict v = {.word = NULL, .reason = ""};
    if (g->bypass_seen == 0)
        return v;
    int bypass = 2 * g->bypass_yes > g->bypass_seen;
    v.word = bypass ? "bypass" : "keep";
    double hit_rate = pc_group_l1_hit_rate(g);
    traffic(&v, g);
    lines(&v, g, bypass, hit_rate);
    const char *cls = pc_group_class(g);
    if (cls && strcmp(cls, "streaming") == 0 && hit_rate >= HIGH_HIT_RATE)
        append(&v, "Streaming describes the lines it fills (most never reused); its %s hit "
                   "rate counts its requests that found their line in L1, whoever filled it.",
               numfmt_percent(hit_rate).s);
    size_t len = strlen(v.reason); /* no trailing space */
    while (len > 0 && v.reason[len - 1] == ' ')
        v.reason[--len] = '\0';
    return v;
}
