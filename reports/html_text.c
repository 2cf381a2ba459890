/* reports/html_text.c: the words of the HTML report: each section's id,
 * its name in the contents line, its title and how to read it.  One table,
 * so the contents and the sections can never disagree, and the prose is
 * in one place to edit (docs/html-report.md says the same at length). */
#include "reports/html_page.h"

#include <string.h>

/* The load PC table's columns: what each measures, so that a row whose
 * figures seem to disagree (a streaming PC hitting often, a bypass verdict
 * beside a high hit rate) reads as what it is. */
static const html_column_text load_pc_columns[] = {
    {"PC", "the demangled kernel+0xOFF (a long kernel name shortened, the full one on "
           "hover), with file:line and SASS"},
    {"executions, requests", "the PC's counted warp loads, and their line requests"},
    {"U (line)", "bytes used / bytes moved at 128 B lines (docs/metrics.md \xc2\xa7" "2)"},
    {"locality", "the dominant class of the L1 line generations this PC filled, that is "
                 "of the lines its misses brought in: streaming (never reused), intra "
                 "(reused by the filling warp), inter (by other warps) or both "
                 "(docs/metrics.md \xc2\xa7" "4)"},
    {"L1 hit rate", "in the cache replay, the share of this PC's requests that found "
                    "their line in L1, whoever filled it: a streaming PC can hit often, "
                    "on lines others filled"},
    {"bypass-worthy", "the share of its requests to lines S1's Eq. 1 would bypass: "
                      "U \xc3\x97 (1 + R) < 1, R being the line's L1 hits per fill "
                      "(docs/metrics.md \xc2\xa7" "9)"},
    {"verdict", "bypass when a replay with this PC bypassing L1 moved fewer "
                "L1\xe2\x86\x92L2 and DRAM bytes, else keep (docs/metrics.md \xc2\xa7" "9); "
                "under it, what that replay measured and why"},
    {NULL, NULL},
};

const html_section_text html_sections[] = {
    {"bypass", "bypass", "L1 bypass: what to change",
     "The profile's main result (S1, docs/metrics.md \xc2\xa7" "9): which global loads should "
     "skip L1 and load through L2 only, in 32 B sectors (__ldcg), judged by the bytes moved "
     "below L1 (L1\xe2\x86\x92L2 and DRAM) when each load PC is replayed bypassed. The "
     "recommended PCs are listed at their source lines with what each saves; the table gives "
     "every load PC's share of requests to lines Eq. 1 marks bypass-worthy, its verdict and "
     "its traffic change; the last table replays the advice against the baseline."},
    {"pc-reuse-heatmap", "PC reuse", "Reuse distance per PC",
     "One row per load PC (launches of a kernel merged), one column per log2 bucket "
     "of reuse distance: the distinct lines touched since the PC's line was last "
     "used. The colour is the share of the PC's requests in that bucket; the last "
     "column is first touches (cold). Mass at the left means reuse a small cache "
     "catches; mass at the right or in cold means streaming. The red dashed lines "
     "mark the L1's and the L2's capacity in lines: a fully-associative LRU cache "
     "that size catches the reuse left of its line. The bar beside each row is "
     "the PC's share of all requests, so a row's weight shows. The per-SM view is "
     "what an L1 sees, the global view what the L2 sees."},
    {"sm-sharing-heatmap", "SM sharing", "Blocks shared between SMs",
     "Cell (x, y) counts the blocks that threads on both SM x and SM y touched. "
     "A bright band near the diagonal means neighbouring SMs share data (as CTA "
     "schedules that place consecutive CTAs on one SM exploit); a uniform field "
     "means data every SM reads. The colours run from 0 to the most shared pair, "
     "as every count's do, so near-equal counts look alike. The diagonal (blocks "
     "SM x touched at all) is grey, off the colour scale, with its count on "
     "hover."},
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
     "are left out; a row is named by the allocation it starts in and the offset "
     "into it (alloc 2 +16 KiB) when the trace lists allocations, else by its "
     "address. Columns are time, in issued instructions. The "
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
    {"memory", "memory chart", "Memory workload",
     "After Nsight Compute's memory chart, from the same replay (docs/metrics.md \xc2\xa7"
     "7): one row of arrows per kind of request, from the SMs towards DRAM, each with its "
     "requests, 32 B sectors and bytes; an arrow's thickness is its bytes. Loads read, stores "
     "and atomics write through L1, write-backs are dirty lines evicted. The L1 and L2 boxes "
     "give each kind's hit rate (L1: loads only). An arrow below L1 thicker than the one above "
     "is data moved that the lanes did not ask for; the excess sectors per source line say "
     "which accesses are not coalesced, and the L2 slices should share the requests evenly."},
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
     "In the functional replay every policy sees the same issue order, so "
     "differences come from the policy alone (docs/metrics.md \xc2\xa7" "6); in the "
     "timed replay (\xc2\xa7" "12) each policy drives its own order through its own "
     "hits and latencies, as on a GPU. Traffic is also shown relative to the "
     "first policy listed: below 1\xc3\x97 saves bandwidth."},
    {"pc-table", "load PCs", "Load PCs",
     "One row per load PC of each kernel name, its launches merged; open the "
     "launch count for each launch's figures. The columns:"},
    {"store-pcs", "store PCs", "Store and atomic PCs",
     "Global stores and atomics, one row per PC of each kernel name, launches "
     "merged, apart from the loads: the per-PC replay counts load requests only, "
     "so these PCs have no hit rate, locality or bypass verdict. In the replay a "
     "store writes through to L2; under the Fermi-era evict policy a store that "
     "hits evicts the L1 line, which the load missing next counts as a "
     "write-evict miss (docs/metrics.md \xc2\xa7" "7-8)."},
};
const size_t html_section_count = sizeof html_sections / sizeof html_sections[0];

const html_section_text *html_section_find(const char *id)
{
    for (size_t i = 0; i < html_section_count; i++)
        if (strcmp(html_sections[i].id, id) == 0)
            return &html_sections[i];
    return NULL;
}

const html_column_text *html_section_columns(const char *id)
{
    static const struct {
        const char *id;
        const html_column_text *columns;
    } lists[] = {{"pc-table", load_pc_columns}};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        if (strcmp(lists[i].id, id) == 0)
            return lists[i].columns;
    return NULL;
}
