/* reports/csv_tables.c: see csv_tables.h. */
#include "reports/csv_tables.h"

#include <stdlib.h>
#include <string.h>

#include "util/outfile.h"

int report_csv_open(csv_tables *t, const char *dir, ws_error *err)
{
    memset(t, 0, sizeof *t);
    if (ws_make_dir(dir, err) != 0)
        return -1;
    if (!(t->dir = strdup(dir)))
        return ws_fail(err, "out of memory");
    if (!(t->pcs = csv_pcs_open(dir, err)) || !(t->reuse = csv_reuse_open(dir, err))) {
        report_csv_abort(t);
        return -1;
    }
    return 0;
}

void report_csv_add_kernel(csv_tables *t, const analysis *a, const wst_trace *trace, uint32_t k)
{
    csv_pcs_add(t->pcs, a, trace, k);
    csv_reuse_add(t->reuse, a, trace, k);
}

int report_csv_commit(csv_tables *t, const analysis *a, ws_error *err)
{
    csv_table *pcs = t->pcs, *reuse = t->reuse;
    t->pcs = t->reuse = NULL;
    int rc = csv_table_commit(pcs, err);
    if (rc == 0)
        rc = csv_table_commit(reuse, err);
    else
        csv_table_abort(reuse);
    if (rc == 0)
        rc = csv_write_sharing(a, t->dir, err);
    report_csv_abort(t);
    return rc;
}

void report_csv_abort(csv_tables *t)
{
    csv_table_abort(t->pcs);
    csv_table_abort(t->reuse);
    free(t->dir);
    memset(t, 0, sizeof *t);
}
