/* reports/advice_out.h: the advice (analyzer/advice.h, docs/metrics.md §9
 * "Advice") as every report gives it: report.json's `bypass.advice`,
 * advice.csv, the terminal and the HTML page.
 *
 * The JSON is made once from the advisor's results; the terminal, the CSV
 * table and the HTML page all read its items, in its order, through
 * advice_row_of, so each shows the same change with the same saving. */
#ifndef WS_ADVICE_OUT_H
#define WS_ADVICE_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "analyzer/bypass_advisor.h"
#include "formats/trace.h"

#define ADVICE_CSV "advice.csv"
#define ADVICE_MEASURE \
    "bytes below L1 (L1 -> L2 reads and writes, L2 <-> DRAM reads and writes): the baseline's minus with the change"

/* {"measure", "baseline_below_l1_bytes", "items": [...]} (docs/report-schema.md, ADVICE). */
json_t *advice_json(const bypass_advice *a, const wst_trace *t);

/* One item as the reports word it. */
typedef struct advice_row {
    char place[160];  /* its source line, its PC's label, or "every kernel" */
    char change[64];  /* the kind's words: "coalesce accesses" */
    char saved[32];   /* "595.00 KiB" */
    char share[16];   /* "-20.1%" of the baseline's bytes below L1 */
    const char *how;  /* "replay" (checked) or "estimate" */
    char why[400];    /* its PC and what the baseline measured */
} advice_row;
void advice_row_of(const json_t *item, advice_row *row);
/* 1 when items[i] is at the same place as items[i - 1] (its group goes on). */
int advice_same_place(const json_t *items, size_t i);

/* The terminal's list; nothing when there is no item. */
void advice_print(FILE *out, const json_t *advice);
/* DIR/advice.csv: one row per item, in rank order. */
int advice_write_csv(const char *dir, const json_t *advice, ws_error *err);

#endif
