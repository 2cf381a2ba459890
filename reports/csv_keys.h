/* reports/csv_keys.h: the columns that name a kernel launch or a PC, the
 * same in every table so that pandas joins on them (docs/report-schema.md,
 * CSV tables): kernel_id (launch index), kernel (the name as the trace
 * holds it, mangled) and kernel_demangled (the reports' display name); for
 * a PC also pc_index (its row in the kernel's PC table), pc_offset (hex
 * text) and where it came from.  Formatted by reports/pc_label.h, as the
 * JSON and HTML reports' identifiers are. */
#ifndef WS_CSV_KEYS_H
#define WS_CSV_KEYS_H

#include "formats/trace.h"
#include "reports/csv_out.h"

#define CSV_KERNEL_COLUMNS "kernel_id", "kernel", "kernel_demangled"
#define CSV_PC_COLUMNS                                                                         \
    CSV_KERNEL_COLUMNS, "pc_index", "pc_offset", "sass", "source_file", "source_line"

void csv_row_kernel(csv_table *t, const wst_trace *trace, uint32_t kernel);
/* pc_offset: the PC's byte offset as pc_offset_text writes it. */
void csv_row_pc_offset(csv_table *t, uint64_t offset);
/* CSV_PC_COLUMNS of PC `pc` of launch `kernel`; unknown source is empty. */
void csv_row_pc(csv_table *t, const wst_trace *trace, uint32_t kernel, uint32_t pc);

#endif
