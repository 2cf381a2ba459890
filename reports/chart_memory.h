/* reports/chart_memory.h: the memory chart of the HTML report, after Nsight
 * Compute's memory workload analysis: boxes SM -> L1 -> L2 -> DRAM joined
 * by arrows, one row of arrows per kind of request, each labelled with its
 * requests, 32 B sectors and bytes, and the hit rates in the L1 and L2
 * boxes (docs/metrics.md §7, "Memory workload"). */
#ifndef WS_CHART_MEMORY_H
#define WS_CHART_MEMORY_H

#include <stdio.h>

/* The links the arrows stand for, left to right. */
enum { MEMORY_LINK_SM_L1, MEMORY_LINK_L1_L2, MEMORY_LINK_L2_DRAM, MEMORY_LINKS };

typedef struct memory_chart_flow {
    double requests, sectors, bytes; /* NaN requests: no arrow (the kind never takes the link) */
} memory_chart_flow;

typedef struct memory_chart_row {
    const char *name;     /* "loads" */
    const char *flows_as; /* how its data moves, for the hover text: "read", "written" */
    memory_chart_flow links[MEMORY_LINKS];
    double l1_hit_rate, l2_hit_rate; /* NaN: not defined (no requests, or write-through) */
} memory_chart_row;

typedef struct memory_chart {
    const char *label; /* for screen readers */
    unsigned rows;
    const memory_chart_row *row;
    const char *l2_note; /* under the L2 box's name, e.g. "6 slices" (may be NULL) */
} memory_chart;

void chart_memory(FILE *out, const memory_chart *c);

/* The L2 slice balance: one bar per slice of its requests (count of
 * them), the mean as a dashed line, the busiest slice in its own colour
 * (chart_slices.c). */
void chart_slices(FILE *out, const double *requests, unsigned count);

#endif
