/* reports/csv_keys.c: see csv_keys.h. */
#include "reports/csv_keys.h"

void csv_row_kernel(csv_table *t, const wst_trace *trace, uint32_t kernel)
{
    csv_row_u64(t, kernel);
    csv_row_str(t, trace->kernels[kernel].name);
}

void csv_row_pc(csv_table *t, const wst_trace *trace, uint32_t kernel, uint32_t pc)
{
    const wst_pc *p = &trace->kernels[kernel].pcs[pc];
    csv_row_kernel(t, trace, kernel);
    csv_row_u64(t, pc);
    csv_row_hex(t, p->offset);
    csv_row_str(t, p->sass);
    csv_row_str(t, p->file);
    if (p->line)
        csv_row_u64(t, p->line);
    else
        csv_row_str(t, NULL); /* 0 means unknown: NaN to pandas, not line 0 */
}
