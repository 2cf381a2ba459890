/* cli/batch_table.c: see batch_table.h.
 *
 * Each run file holds its row with ratios to itself; here the *_vs_first
 * columns become ratios to the grid's first policy with the same trace,
 * GPU, overrides, system and warp order, as compare.csv's are to its first
 * entry.  Those runs are consecutive (policies vary fastest), so the table
 * streams: only the base row's figures are kept. */
#include "cli/batch_table.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/batch_store.h"
#include "cli/cli.h"
#include "reports/csv_out.h"
#include "reports/json_out.h"

enum { L2_BYTES, DRAM_READ, DRAM_WRITE, L2_VS, DRAM_VS, CYCLES, SPEEDUP, NAMED };
static const char *const named[NAMED] = {"l1_to_l2_bytes", "dram_read_bytes", "dram_write_bytes",
                                         "l1_to_l2_vs_first", "dram_vs_first", "cycles",
                                         "speedup_vs_first"};

static double cell_number(const batch_row *row, const int *at, int which)
{
    return at[which] < 0 ? NAN : strtod(row->cells[at[which]], NULL);
}

/* A cell as JSON: the key columns and names as strings, empty as null,
 * numbers as numbers. */
static json_t *cell_json(const char *text, int is_key)
{
    if (is_key)
        return json_string(text);
    if (!text[0])
        return json_null();
    char *end;
    long long i = strtoll(text, &end, 10);
    if (*end == '\0')
        return json_integer(i);
    double d = strtod(text, &end);
    if (*end == '\0' && isfinite(d))
        return json_real(d);
    return json_string(text);
}

int batch_table_write(const char *dir, const char *grid_path, const batch_grid *g,
                      const batch_run *runs, uint32_t count)
{
    ws_error err;
    char path[4096];
    csv_table *t = NULL;
    json_t *rows = json_array();
    batch_row row = {0};
    int at[NAMED];
    double base_l2 = NAN, base_dram = NAN, base_cycles = NAN;
    int status = 0;
    for (uint32_t i = 0; i < count && status == 0; i++) {
        const batch_run *run = &runs[i];
        if (batch_store_read(dir, g, run, &row, &err) != 0) {
            status = cli_fail(NULL, &err);
            break;
        }
        if (!t) { /* the first run's columns head the table */
            const char *header[1 + 256];
            header[0] = "run";
            for (size_t c = 0; c < row.columns; c++)
                header[1 + c] = row.header[c];
            snprintf(path, sizeof path, "%s/batch.csv", dir);
            if (!(t = csv_table_open(path, header, 1 + row.columns, &err))) {
                status = cli_fail(NULL, &err);
                break;
            }
            for (int n = 0; n < NAMED; n++) {
                at[n] = -1;
                for (size_t c = 0; c < row.columns; c++)
                    if (strcmp(row.header[c], named[n]) == 0)
                        at[n] = (int)c;
            }
        }
        double l2 = cell_number(&row, at, L2_BYTES);
        double dram = cell_number(&row, at, DRAM_READ) + cell_number(&row, at, DRAM_WRITE);
        double cycles = cell_number(&row, at, CYCLES);
        if (run->policy == 0)
            base_l2 = l2, base_dram = dram, base_cycles = cycles;
        json_t *o = json_object();
        json_object_set_new(o, "run", json_integer(run->index));
        csv_row_u64(t, run->index);
        for (size_t c = 0; c < row.columns; c++) {
            if ((int)c == at[L2_VS])
                csv_row_ratio(t, l2, base_l2);
            else if ((int)c == at[DRAM_VS])
                csv_row_ratio(t, dram, base_dram);
            else if ((int)c == at[SPEEDUP])
                csv_row_ratio(t, base_cycles, cycles);
            else
                csv_row_str(t, row.cells[c]);
        }
        csv_row_end(t);
        /* The JSON takes the same ratios, formatted as the CSV's. */
        for (size_t c = 0; c < row.columns; c++) {
            double v = NAN;
            int ratio = 1;
            if ((int)c == at[L2_VS])
                v = base_l2 > 0 ? l2 / base_l2 : NAN;
            else if ((int)c == at[DRAM_VS])
                v = base_dram > 0 ? dram / base_dram : NAN;
            else if ((int)c == at[SPEEDUP])
                v = cycles > 0 ? base_cycles / cycles : NAN;
            else
                ratio = 0;
            char text[32] = "";
            if (ratio && !isnan(v))
                snprintf(text, sizeof text, "%.6g", v);
            json_object_set_new(o, row.header[c],
                                cell_json(ratio ? text : row.cells[c],
                                          c < BATCH_KEY_COUNT + 3 /* policy names */));
        }
        json_array_append_new(rows, o);
        batch_row_free(&row);
    }
    batch_row_free(&row);
    if (status == 0 && t && csv_table_commit(t, &err) != 0)
        status = cli_fail(NULL, &err);
    else if (status != 0 && t)
        csv_table_abort(t);
    if (status == 0) {
        json_t *doc = json_pack("{s:s, s:i, s:s, s:s, s:o}", "schema", "warpscope-batch", "version", 1,
                                "warpscope_version", WARPSCOPE_VERSION, "grid", grid_path, "runs",
                                rows);
        rows = NULL;
        snprintf(path, sizeof path, "%s/batch.json", dir);
        if (report_json_write(path, doc, &err) != 0)
            status = cli_fail(NULL, &err);
        json_decref(doc);
    }
    json_decref(rows);
    return status;
}
