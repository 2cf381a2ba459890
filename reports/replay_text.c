/* reports/replay_text.c: see replay_text.h. */
#include "reports/replay_text.h"

#include <inttypes.h>

#include "reports/numfmt.h"
#include "reports/term.h"
#include "reports/timed_text.h"

static double pct(uint64_t num, uint64_t den) { return den ? 100.0 * (double)num / (double)den : 0.0; }

void replay_format_bytes(char *buf, size_t cap, uint64_t bytes)
{
    /* Powers of 1024: the IEC names say so. */
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        u++;
    }
    snprintf(buf, cap, u ? "%.2f %s" : "%.0f %s", v, units[u]);
}

#define GROUPED(v) numfmt_grouped(v).s
#define SHARE(num, den) numfmt_share((double)(num), (double)(den)).s

/* L1 and L2 request counts.  An L1 request bypassed (ld.cg, ld.cv, or a
 * bypassing policy) is neither a hit nor a looked-up miss: docs/metrics.md
 * §7.  Hit rates are of all requests, so bypassing never raises them. */
/* A sectored level's 32 B sectors beside its line requests (docs/metrics.md
 * §7): what Nsight Compute's sector hit rates count. */
static void sector_row(term_table *t, const char *name, const level_counts *l)
{
    uint64_t found = l->sector_hits + l->sector_pending_hits;
    term_table_cell(t, "%s", name);
    term_table_cell(t, "%s", GROUPED(l->sector_requests));
    term_table_cell(t, "-");
    term_table_cell(t, "%s", GROUPED(l->sector_hits));
    term_table_cell(t, "%s", GROUPED(l->sector_requests - found));
    term_table_cell(t, "%s", SHARE(l->sector_hits, l->sector_requests));
}

static void print_levels(FILE *out, const replay_results *r)
{
    const replay_counts *c = &r->total;
    term_table *t = term_table_new(2);
    term_table_column(t, "", TERM_LEFT, 0);
    term_table_column(t, "requests", TERM_RIGHT, 4);
    term_table_column(t, "bypassed", TERM_RIGHT, 1);
    term_table_column(t, "hits", TERM_RIGHT, 3);
    term_table_column(t, "misses", TERM_RIGHT, 2);
    term_table_column(t, "hit rate", TERM_RIGHT, 5);
    term_table_cell(t, "L1 (loads)");
    term_table_cell(t, "%s", GROUPED(c->l1.accesses));
    term_table_cell(t, "%s", GROUPED(c->l1.bypasses));
    term_table_cell(t, "%s", GROUPED(c->l1.hits));
    term_table_cell(t, "%s", GROUPED(c->l1.misses - c->l1.bypasses));
    term_table_cell(t, "%s", SHARE(c->l1.hits, c->l1.accesses));
    if (r->l1_sectored)
        sector_row(t, "  L1 sectors", &c->l1);
    term_table_cell(t, "L2");
    term_table_cell(t, "%s", GROUPED(c->l2.accesses));
    term_table_cell(t, "-");
    term_table_cell(t, "%s", GROUPED(c->l2.hits));
    term_table_cell(t, "%s", GROUPED(c->l2.misses));
    term_table_cell(t, "%s", SHARE(c->l2.hits, c->l2.accesses));
    if (r->l2_sectored)
        sector_row(t, "  L2 sectors", &c->l2);
    term_table_print(t, out, term_width(out));
    term_table_free(t);
    if (c->l1.pending_hits)
        term_field(
            out, "pending hits", "%s L1 requests merged into a pending miss; hit rate with them %s",
            GROUPED(c->l1.pending_hits), SHARE(c->l1.hits + c->l1.pending_hits, c->l1.accesses));
    if (c->l1.bypasses)
        term_field(out, "bypassed",
                   "%s of L1 load requests skip it (ld.cg/ld.cv, or the policy); what-if: "
                   "--cache-op ignore",
                   SHARE(c->l1.bypasses, c->l1.accesses));
}

void replay_text_summary(FILE *out, const replay_results *r)
{
    const replay_counts *c = &r->total;
    char l2b[32], dram_r[32], dram_w[32];
    replay_format_bytes(l2b, sizeof l2b, c->traffic.l1_to_l2_read_bytes + c->traffic.l1_to_l2_write_bytes);
    replay_format_bytes(dram_r, sizeof dram_r, c->traffic.dram_read_bytes);
    replay_format_bytes(dram_w, sizeof dram_w, c->traffic.dram_write_bytes);
    fprintf(out, "replay: L1 %s, L2 %s\n", r->l1_policy, r->l2_policy);
    print_levels(out, r);
    term_field(out, "L1 -> L2 bytes", "%14s", l2b);
    term_field(out, "DRAM", "%14s read, %s written", dram_r, dram_w);
    const mpli_counts *m = &c->mpli;
    char mpli[16] = "n/a";
    if (m->loads)
        snprintf(mpli, sizeof mpli, "%.2f", mpli_mean(m));
    term_field(out, "MPLI", "%14s  (fully cached %s, partial %s, fully missed %s)", mpli,
               SHARE(m->fully_cached, m->loads), SHARE(m->partially_cached, m->loads),
               SHARE(m->fully_missed, m->loads));
    const miss_counts *mc = &c->miss_classes;
    uint64_t classified = 0;
    for (int k = 0; k < MISS_CLASSES; k++)
        classified += mc->by_class[k];
    term_field(out, "L1 miss classes", "cold %s, intra-warp %s, inter-warp %s, write-evict %s",
               SHARE(mc->by_class[MISS_COLD], classified),
               SHARE(mc->by_class[MISS_INTRA_WARP], classified),
               SHARE(mc->by_class[MISS_INTER_WARP], classified),
               SHARE(mc->by_class[MISS_WRITE_EVICT], classified));
    term_field(out, "3C", "capacity %s, conflict %s of non-cold misses",
               SHARE(mc->capacity, mc->capacity + mc->conflict),
               SHARE(mc->conflict, mc->capacity + mc->conflict));
    term_field(out, "inter-warp hits", "%s of L1 hits",
               SHARE(c->inter_warp_hits, c->intra_warp_hits + c->inter_warp_hits));
    term_field(out, "uRC", "%s of global load misses held by another SM's L1",
               SHARE(c->remote_held_misses, c->l1_load_misses));
    if (r->ccn)
        replay_text_ccn(out, "CCN ring", r->ccn);
    if (r->lcm)
        replay_text_lcm(out, "LCM", r->lcm);
    if (r->timed)
        timed_text_summary(out, r);
}

void replay_text_lcm(FILE *out, const char *label, const lcm_results *l)
{
    const lcm_counts *c = &l->total;
    if (l->options.bypass)
        term_field(out, label,
                   "%.1f%% of global loads bypassed L1 as streaming (%" PRIu64
                   " requests); PCs turned streaming %" PRIu64 "x, back %" PRIu64 "x",
                   pct(c->bypassed_loads, c->loads), c->bypassed_requests, c->turned_streaming,
                   c->turned_back);
    if (l->options.coalesce)
        term_field(out, l->options.bypass ? "  coalescer" : label,
                   "%" PRIu64 " of %" PRIu64 " inter-warp requests merged (L1 requests "
                   "saved); flushes: %" PRIu64 " conflict, %" PRIu64 " window, %" PRIu64
                   " kernel end",
                   c->merged_requests, c->coalescer_requests, c->flushes_conflict,
                   c->flushes_window, c->flushes_kernel_end);
    term_field(out, "  monitors",
               "%.1f%% of loads decided alike by every warp's monitor and S2's single "
               "warp's (%s acts)",
               pct(c->agreed, c->loads), lcm_monitor_name(l->options.monitor));
}

/* An SM's remote hit rate, or -1 when it sent no request round the ring. */
static double sm_hit_rate(const ccn_results *ring, uint32_t sm)
{
    const ccn_counts *k = &ring->per_sm[sm];
    return k->requests ? (double)k->remote_hits / (double)k->requests : -1;
}

void replay_text_ccn(FILE *out, const char *label, const ccn_results *ring)
{
    const ccn_counts *c = &ring->total;
    term_field(out, label,
               "%.1f%% remote hit rate (%" PRIu64 " of %" PRIu64 " requests), "
               "%.1f%% fewer L1->L2 load requests, %.1f hops a hit",
               pct(c->remote_hits, c->requests), c->remote_hits, c->requests,
               pct(c->remote_hits, c->misses),
               c->remote_hits ? (double)c->hit_hops / (double)c->remote_hits : 0.0);
    /* Per SM: the spread of the remote hit rate (SMs that sent requests). */
    int lo = -1, hi = -1;
    for (uint32_t s = 0; s < ring->sms; s++) {
        double rate = sm_hit_rate(ring, s);
        if (rate < 0)
            continue;
        if (lo < 0 || rate < sm_hit_rate(ring, (uint32_t)lo))
            lo = (int)s;
        if (hi < 0 || rate > sm_hit_rate(ring, (uint32_t)hi))
            hi = (int)s;
    }
    if (lo >= 0)
        term_field(out, "  per SM", "remote hit rate from %.1f%% (SM %d) to %.1f%% (SM %d)",
                   100 * sm_hit_rate(ring, (uint32_t)lo), lo, 100 * sm_hit_rate(ring, (uint32_t)hi),
                   hi);
    if (ring->options.throttle)
        term_field(out, "  throttler",
                   "ring off in %" PRIu64 " of %" PRIu64 " SM epochs; %" PRIu64
                   " misses went straight to L2",
                   c->ring_off_epochs, c->epochs, c->throttled);
}

static double relative(uint64_t v, uint64_t base) { return base ? (double)v / (double)base : 0.0; }

void compare_text_table(FILE *out, const char *const *names, const replay_results *const *r,
                        uint32_t count)
{
    /* Sector hit rates (docs/metrics.md §7) only when some level has
     * sectors; pending hits (hits on lines still in flight, timed replay)
     * only when some policy has them. */
    int l1_sectors = 0, l2_sectors = 0, pending = 0;
    for (uint32_t i = 0; i < count; i++) {
        l1_sectors |= r[i]->l1_sectored;
        l2_sectors |= r[i]->l2_sectored;
        pending |= r[i]->total.l1.pending_hits != 0;
    }
    term_table *t = term_table_new(2);
    term_table_column(t, "policy", TERM_LEFT, 0);
    term_table_column(t, "L1 hit", TERM_RIGHT, 9);
    if (pending)
        term_table_column(t, "L1 pend", TERM_RIGHT, 5);
    if (l1_sectors)
        term_table_column(t, "L1 sect", TERM_RIGHT, 1);
    term_table_column(t, "L2 hit", TERM_RIGHT, 6);
    if (l2_sectors)
        term_table_column(t, "L2 sect", TERM_RIGHT, 1);
    term_table_column(t, "MPLI", TERM_RIGHT, 2);
    term_table_column(t, "L1->L2", TERM_RIGHT, 8);
    term_table_column(t, "L1->L2 x", TERM_RIGHT, 7);
    term_table_column(t, "DRAM", TERM_RIGHT, 4);
    term_table_column(t, "DRAM x", TERM_RIGHT, 3);
    for (uint32_t i = 0; i < count; i++) {
        const replay_counts *c = &r[i]->total, *base = &r[0]->total;
        uint64_t l2 = c->traffic.l1_to_l2_read_bytes + c->traffic.l1_to_l2_write_bytes;
        uint64_t l2_base = base->traffic.l1_to_l2_read_bytes + base->traffic.l1_to_l2_write_bytes;
        uint64_t dram = c->traffic.dram_read_bytes + c->traffic.dram_write_bytes;
        uint64_t dram_base = base->traffic.dram_read_bytes + base->traffic.dram_write_bytes;
        char l2s[32], drams[32];
        replay_format_bytes(l2s, sizeof l2s, l2);
        replay_format_bytes(drams, sizeof drams, dram);
        term_table_cell(t, "%s", names[i]);
        term_table_cell(t, "%.1f%%", pct(c->l1.hits, c->l1.accesses));
        if (pending)
            term_table_cell(t, "%s", SHARE(c->l1.pending_hits, c->l1.accesses));
        if (l1_sectors)
            term_table_cell(
                t, "%s", r[i]->l1_sectored ? SHARE(c->l1.sector_hits, c->l1.sector_requests) : "-");
        term_table_cell(t, "%.1f%%", pct(c->l2.hits, c->l2.accesses));
        if (l2_sectors)
            term_table_cell(
                t, "%s", r[i]->l2_sectored ? SHARE(c->l2.sector_hits, c->l2.sector_requests) : "-");
        term_table_cell(t, "%.2f", mpli_mean(&c->mpli));
        term_table_cell(t, "%s", l2s);
        term_table_cell(t, "%.3f", relative(l2, l2_base));
        term_table_cell(t, "%s", drams);
        term_table_cell(t, "%.3f", relative(dram, dram_base));
    }
    term_table_print(t, out, term_width(out));
    term_table_free(t);
    if (pending)
        term_printf(out, 4,
                    "  L1 pend: L1 requests that found their line still in flight (pending "
                    "hits), counted apart from L1 hit; x: bytes relative to the first policy");
    int timed = 0;
    for (uint32_t i = 0; i < count; i++)
        timed |= r[i]->timed;
    if (timed)
        timed_text_table(out, names, r, count);
    for (uint32_t i = 0; i < count; i++) {
        if (r[i]->ccn)
            replay_text_ccn(out, names[i], r[i]->ccn);
        if (r[i]->lcm)
            replay_text_lcm(out, names[i], r[i]->lcm);
    }
}
