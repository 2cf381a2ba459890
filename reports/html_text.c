/* reports/html_text.c: the words of the HTML report: each section's id,
 * its name in the contents line, its title and how to read it.  One table,
 * so the contents and the sections can never disagree, and the prose is
 * in one place to edit (docs/html-report.md says the same at length). */
#include "reports/html_page.h"

#include <string.h>

const html_section_text html_sections[] = {
    {"pc-reuse-heatmap", "PC reuse", "Reuse distance per PC",
     "One row per load PC (launches of a kernel merged), one column per log2 bucket "
     "of reuse distance: the distinct lines touched since the PC's line was last "
     "used. The colour is the share of the PC's accesses in that bucket; the last "
     "column is first touches (cold). Mass at the left means reuse a small cache "
     "catches; mass at the right or in cold means streaming. The per-SM view is "
     "what an L1 sees, the global view what the L2 sees."},
    {"sm-sharing-heatmap", "SM sharing", "Blocks shared between SMs",
     "Cell (x, y) counts the blocks that threads on both SM x and SM y touched. "
     "A bright band near the diagonal means neighbouring SMs share data (as CTA "
     "schedules that place consecutive CTAs on one SM exploit); a uniform field "
     "means data every SM reads. The colours span the least to the most shared "
     "pair of SMs, not 0 to the most, so differences between pairs show even "
     "when every pair shares much. The diagonal (blocks SM x touched at all) is "
     "grey, off the colour scale, with its count on hover."},
    {"cta-distance-chart", "CTA distance", "Sharing against CTA distance",
     "For every block touched by two or more CTAs, each pair of those CTAs "
     "counts once at its distance |a - b| in launch order (S0 Fig. 3). Distances "
     "1 to 15 have a bar each; from 16 on a bar spans a power-of-two range "
     "(16-31, 32-63, ...). So that wide bars do not tower by width alone, a bar "
     "is the pairs per unit of distance: its pairs divided by the distances it "
     "spans (hover for both). Pairs piled at small distances mean neighbouring "
     "CTAs share data, which placing them on the same SM turns into L1 hits."},
    {"access-heatmap", "access map", "Memory accessed over time",
     "Rows are address regions, lowest address at the top; each packs an equal "
     "number of the pages the trace touched, so the gaps between allocations "
     "are left out. Columns are time, in issued instructions. The "
     "colour (log scale) counts the line requests to a region in a time bin: "
     "a diagonal streak is a sweep through an array, a solid row a hot "
     "structure, a block boundary a kernel boundary."},
    {"mrc", "miss-ratio curves", "Miss-ratio curves",
     "The miss ratio a fully-associative LRU cache of each size would have, read "
     "off the reuse-distance histograms: the L1 curve from per-SM distances "
     "(size per SM), the L2 curve from global ones. Where a curve drops steeply, "
     "a little more capacity catches much reuse; a flat tail is streaming or "
     "cold data no size helps. Hollow points are bounds (past the exact range). "
     "Dashed lines mark the configured sizes."},
    {"replay", "replay", "Cache replay",
     "The trace replayed, in the analysis' issue order, through per-SM L1s and "
     "a shared L2 with the configured policies (docs/metrics.md \xc2\xa7"
     "7). Hit rates and "
     "traffic are those of a functional model: counts, not timing."},
    {"mpli", "MPLI", "Misses per load instruction (MPLI)",
     "Each dynamic warp load counts once, in the bucket of how many of its line "
     "requests missed in L1 (S4). Coherent loads make at most 2 requests, "
     "divergent ones more. Divergent loads stacked at 32 are the fully-missed "
     "scattered loads that DaCache-style management targets."},
    {"remote-holders", "remote holders", "Where L1 misses could have been found",
     "From the cache replay: cell (x, y) is the share of SM x's L1 misses whose "
     "line was, at the time of the miss, valid in SM y's L1 (S3 Fig. 4.2). A "
     "dark row means that SM's misses are often held next door, the case for "
     "cooperative caching between L1s."},
    {"policy-compare", "policies", "Policies compared",
     "Every policy replayed on the same issue order, so differences come from "
     "the policy alone (docs/metrics.md \xc2\xa7"
     "6). Traffic is also shown relative to the "
     "first policy listed: below 1\xc3\x97 saves bandwidth."},
    {"pc-table", "PC table", "Load PCs",
     "Every PC of every kernel, launches of one kernel merged. U is the load "
     "utilization at 128 B lines (bytes used / bytes moved). The locality class "
     "is the dominant kind of the L1 line generations the PC fills: streaming "
     "(never reused), intra (reused by the same warp), inter (by other warps) or "
     "both. L1 hit rate, the share of accesses worth bypassing (S1 Eq. 1) and the "
     "bypass verdict come from the cache replay when the report has one."},
};
const size_t html_section_count = sizeof html_sections / sizeof html_sections[0];

const html_section_text *html_section_find(const char *id)
{
    for (size_t i = 0; i < html_section_count; i++)
        if (strcmp(html_sections[i].id, id) == 0)
            return &html_sections[i];
    return NULL;
}
