/* reports/kernel_digest.c: see kernel_digest.h. */
#include "reports/kernel_digest.h"

#include <math.h>
#include <string.h>

#include "reports/report_doc.h"

static int add_kernel(void *ctx, size_t index, json_t *kernel, ws_error *err)
{
    kernel_digest *d = ctx;
    double grid[3];
    if (report_nums(kernel, "grid", grid, 3) == 3 && grid[0] >= 1 && grid[1] >= 1 && grid[2] >= 1)
        d->largest_cta_distance = fmax(d->largest_cta_distance, grid[0] * grid[1] * grid[2] - 1);
    if (pc_groups_add_kernel(&d->pcs, index, kernel) != 0 ||
        kernel_groups_add_kernel(&d->kernels, index, kernel) != 0 ||
        source_lines_add_kernel(&d->lines, kernel) != 0)
        return ws_fail(err, "out of memory");
    return 0;
}

int kernel_digest_build(kernel_digest *d, const json_t *doc, kernel_spool *spool, ws_error *err)
{
    memset(d, 0, sizeof *d);
    d->largest_cta_distance = -1;
    if (report_kernels_each(doc, spool, add_kernel, d, err) != 0) {
        kernel_digest_free(d);
        return -1;
    }
    source_lines_sort(&d->lines);
    return 0;
}

void kernel_digest_free(kernel_digest *d)
{
    pc_groups_free(&d->pcs);
    kernel_groups_free(&d->kernels);
    source_lines_free(&d->lines);
}
