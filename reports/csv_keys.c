/* reports/csv_keys.c: see csv_keys.h. */
#include "reports/csv_keys.h"

#include <stdlib.h>
#include <string.h>

#include "reports/pc_label.h"

void csv_row_kernel(csv_table *t, const wst_trace *trace, uint32_t kernel)
{
    csv_row_u64(t, kernel);
    const char *name = trace->kernels[kernel].name;
    csv_memo *memo = csv_table_memo(t);
    if (memo->owner != trace || memo->key != kernel || !memo->text) {
        char shown[KERNEL_LABEL_MAX];
        kernel_label(shown, sizeof shown, name, 0);
        free(memo->text);
        memo->text = strdup(shown);
        memo->owner = trace;
        memo->key = kernel;
    }
    csv_row_str(t, name);
    csv_row_str(t, memo->text ? memo->text : "?");
}

void csv_row_pc_offset(csv_table *t, uint64_t offset)
{
    csv_row_str(t, pc_offset_text(offset).s);
}

void csv_row_pc(csv_table *t, const wst_trace *trace, uint32_t kernel, uint32_t pc)
{
    const wst_pc *p = &trace->kernels[kernel].pcs[pc];
    csv_row_kernel(t, trace, kernel);
    csv_row_u64(t, pc);
    csv_row_pc_offset(t, p->offset);
    csv_row_str(t, p->sass);
    csv_row_str(t, p->file);
    if (p->line)
        csv_row_u64(t, p->line);
    else
        csv_row_str(t, NULL); /* 0 means unknown: NaN to pandas, not line 0 */
}
