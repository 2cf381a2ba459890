/* reports/csv_tables.c: see csv_tables.h. */
#include "reports/csv_tables.h"

#include "util/outfile.h"

int report_csv_tables(const analysis *a, const wst_reader *r, const char *dir, ws_error *err)
{
    const wst_trace *t = wst_reader_trace(r);
    if (ws_make_dir(dir, err) != 0 || csv_write_pcs(a, t, dir, err) != 0 ||
        csv_write_reuse(a, t, dir, err) != 0 || csv_write_sharing(a, dir, err) != 0)
        return -1;
    return 0;
}
