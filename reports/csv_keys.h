/* reports/csv_keys.h: the columns that name a kernel launch or a PC, the
 * same in every table so that pandas joins on them (docs/report-schema.md,
 * CSV tables): kernel_id (launch index) and kernel (name); for a PC also
 * pc_index (its row in the kernel's PC table), pc_offset (hex text) and
 * where it came from. */
#ifndef WS_CSV_KEYS_H
#define WS_CSV_KEYS_H

#include "formats/trace.h"
#include "reports/csv_out.h"

#define CSV_KERNEL_COLUMNS "kernel_id", "kernel"
#define CSV_PC_COLUMNS                                                                         \
    CSV_KERNEL_COLUMNS, "pc_index", "pc_offset", "sass", "source_file", "source_line"

void csv_row_kernel(csv_table *t, const wst_trace *trace, uint32_t kernel);
/* CSV_PC_COLUMNS of PC `pc` of launch `kernel`; unknown source is empty. */
void csv_row_pc(csv_table *t, const wst_trace *trace, uint32_t kernel, uint32_t pc);

#endif
