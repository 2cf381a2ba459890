/* reports/cta_bins.c: see cta_bins.h. */
#include "reports/cta_bins.h"

#include <math.h>
#include <stdio.h>

#include "reports/report_doc.h"

#define EXACT 16
#define LOG2 64

static void add_bin(cta_bin *b, double low, double high, double pairs, double top)
{
    b->low = low;
    b->high = fmin(high, fmax(top, low));
    b->pairs = pairs;
    b->density = pairs / (b->high - b->low + 1);
    if (b->high > b->low)
        snprintf(b->label, sizeof b->label, "%.0f-%.0f", b->low, b->high);
    else
        snprintf(b->label, sizeof b->label, "%.0f", b->low);
}

unsigned cta_bins_read(const json_t *doc, double largest, cta_bin *bins, int *present)
{
    const json_t *s = report_at(doc, "summary.sharing");
    double exact[EXACT], log2[LOG2], low[LOG2], high[LOG2];
    size_t n_exact = report_nums(s, "cta_distance_exact", exact, EXACT);
    size_t n_log2 = report_nums(s, "cta_distance_log2", log2, LOG2);
    int bounds = report_nums(s, "cta_distance_log2_low", low, LOG2) == n_log2 &&
                 report_nums(s, "cta_distance_log2_high", high, LOG2) == n_log2;
    *present = n_exact > 0 || n_log2 > 0;
    double top = largest >= 0 ? largest : INFINITY;
    unsigned n = 0, used = 0;
    for (size_t d = 1; d < n_exact; d++) /* index = distance; 0 never counts */
        add_bin(&bins[n++], (double)d, (double)d, exact[d], top);
    for (size_t b = 0; b < n_log2 && n < CTA_BINS_MAX; b++) {
        double lo = bounds ? low[b] : exp2((double)b), hi = bounds ? high[b] : exp2((double)b + 1) - 1;
        if (hi < (double)n_exact) /* these distances are in the exact counts */
            continue;
        add_bin(&bins[n++], lo, hi, log2[b], top);
    }
    for (unsigned i = 0; i < n; i++)
        if (bins[i].pairs > 0)
            used = i + 1;
    return used;
}
