/* reports/text.c: see text.h. */
#include "reports/text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "reports/numfmt.h"
#include "reports/pc_label.h"
#include "reports/term.h"

static double pct(double num, double den) { return den > 0 ? 100.0 * num / den : 0.0; }

/* A miss-ratio-curve point: "unresolved" below 1 / R lines of a SHARDS
 * sample (docs/metrics.md §3), "n/a" when nothing was requested. */
static numtext mrc_percent(const reuse_hist *hist, uint64_t lines, double rate)
{
    numtext t = {"unresolved"};
    double ratio = reuse_hist_miss_ratio(hist, lines, rate);
    if (reuse_hist_resolves(rate, lines))
        snprintf(t.s, sizeof t.s, isnan(ratio) ? "n/a" : "%.1f%%", 100 * ratio);
    return t;
}

static void add_group(text_group *g, const metrics_kernel *mk, const analysis_kernel *ak)
{
    g->launches++;
    const metrics_counts *c = &mk->totals.counts;
    g->counts.executions += c->executions;
    g->counts.requests += c->requests;
    g->counts.bytes_used += c->bytes_used;
    g->counts.sectors += c->sectors;
    g->counts.coherent += c->coherent;
    g->counts.divergent += c->divergent;
    g->l1_hits += ak->l1_hits;
    g->l1_misses += ak->l1_misses;
    for (uint32_t p = 0; p < ak->pc_count; p++)
        for (int k = 0; k < LOCALITY_CLASSES; k++)
            g->generations[k] += ak->locality[p].generations[k];
}

void report_text_add_kernel(text_groups *groups, const analysis *a, const wst_reader *r, uint32_t k)
{
    const wst_trace *t = wst_reader_trace(r);
    const char *name = t->kernels[k].name ? t->kernels[k].name : "?";
    uint32_t g = 0;
    while (g < groups->count && strcmp(groups->items[g].name, name) != 0)
        g++;
    if (g == groups->count) {
        if (groups->count == TEXT_GROUPS)
            return;
        memset(&groups->items[g], 0, sizeof groups->items[g]);
        groups->items[groups->count++].name = name;
    }
    add_group(&groups->items[g], metrics_kernel_at(a->metrics, k),
              analysis_kernel_at(a, k));
}

void report_text_summary(FILE *out, const analysis *a, const text_groups *groups)
{
    uint32_t line = a->config.l1.line_bytes;
    uint32_t n = groups->count;
    term_table *table = term_table_new(0);
    term_table_column(table, "kernel", TERM_LEFT, 0);
    term_table_column(table, "launches", TERM_RIGHT, 3);
    term_table_column(table, "loads", TERM_RIGHT, 9);
    term_table_column(table, "U line", TERM_RIGHT, 5);
    term_table_column(table, "U sect", TERM_RIGHT, 8);
    term_table_column(table, "coherent", TERM_RIGHT, 4);
    term_table_column(table, "L1 hits", TERM_RIGHT, 7);
    term_table_column(table, "streaming", TERM_RIGHT, 6);
    for (uint32_t g = 0; g < n; g++) {
        const text_group *x = &groups->items[g];
        uint64_t gens = 0;
        for (int k = 0; k < LOCALITY_CLASSES; k++)
            gens += x->generations[k];
        char label[64];
        kernel_label(label, sizeof label, x->name, 32);
        term_table_cell(table, "%s", label);
        term_table_cell(table, "%s", numfmt_grouped(x->launches).s);
        term_table_cell(table, "%s", numfmt_grouped(x->counts.executions).s);
        term_table_cell(table, "%.1f%%", 100 * metrics_utilization(&x->counts, line, GRAN_LINE));
        term_table_cell(table, "%.1f%%", 100 * metrics_utilization(&x->counts, line, GRAN_SECTOR));
        term_table_cell(table, "%.1f%%",
                        pct((double)x->counts.coherent, (double)x->counts.executions));
        term_table_cell(table, "%.1f%%",
                        pct((double)x->l1_hits, (double)(x->l1_hits + x->l1_misses)));
        term_table_cell(table, "%.1f%%",
                        pct((double)x->generations[LOCALITY_STREAMING], (double)gens));
    }
    term_table_print(table, out, term_width(out));
    term_table_free(table);
    const metrics_totals *s = metrics_summary(a->metrics);
    const reuse_hist *per_sm = &s->reuse[GRAN_LINE][SCOPE_PER_SM].distance;
    const reuse_hist *global = &s->reuse[GRAN_LINE][SCOPE_GLOBAL].distance;
    uint64_t l1_lines = cache_config_lines(&a->config.l1), l2_lines = cache_config_lines(&a->config.l2);
    const sharing_results *sh = sharing_get(a->sharing);
    term_printf(out, 2, "\nwhole trace (%s, %u SMs, L1 %llu KiB, L2 %llu KiB%s)", a->config.name,
                a->config.sms, (unsigned long long)a->config.l1.size_bytes / 1024,
                (unsigned long long)a->config.l2.size_bytes / 1024,
                a->options.l2_cold ? ", cold at each kernel" : "");
    term_field(out, "global loads", "%s, %s line requests, U %.1f%% (line) %.1f%% (sector)",
               numfmt_grouped(s->counts.executions).s, numfmt_grouped(s->counts.requests).s,
               100 * metrics_utilization(&s->counts, line, GRAN_LINE),
               100 * metrics_utilization(&s->counts, line, GRAN_SECTOR));
    /* every kernel, not only the listed groups */
    uint64_t bypasses = a->l1_bypasses, lru_requests = a->l1_hits + a->l1_misses;
    if (bypasses)
        term_field(out, "bypassing L1",
                   "%s of the line requests (%s) are ld.cg/ld.cv loads, which skip L1: L1 "
                   "figures cover the rest (what-if: --cache-op ignore)",
                   numfmt_share((double)bypasses, (double)lru_requests).s,
                   numfmt_grouped(bypasses).s);
    double rate = analysis_sample_rate(&a->options);
    term_field(out, "fully-assoc. LRU",
               "L1-sized miss ratio %s, L2-sized %s (from reuse distance%s)",
               mrc_percent(per_sm, l1_lines, rate).s, mrc_percent(global, l2_lines, rate).s,
               rate < 1.0 ? ", sampled" : "");
    term_field(out, "cold (first touch)", "%.1f%% of line requests",
               pct((double)global->cold, (double)global->total));
    uint32_t block = analysis_sharing_block(&a->options, &a->config);
    term_field(out, "shared across SMs",
               "%.1f%% of each launch's %u-byte blocks (%s distinct "
               "blocks, %s counted per launch); %.2f SMs per shared block",
               100 * sharing_shared_fraction(sh), block, numfmt_grouped(sh->distinct_blocks).s,
               numfmt_grouped(sh->blocks).s, sharing_mean_sms_per_shared_block(sh));
    term_field(out, "CTA pairs sharing", "%.1f%% at distance < %d (%s pairs)",
               100 * sharing_neighbour_pair_share(sh), SHARING_NEIGHBOUR_DISTANCE,
               numfmt_grouped(sh->cta_pairs).s);
}
