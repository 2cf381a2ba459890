/* reports/kernel_digest.c: see kernel_digest.h. */
#include "reports/kernel_digest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/report_doc.h"
#include "util/grow.h"

/* A kernel's PCs come before the rest of its entry (its name: the PCs'
 * groups), so each is read as it comes and held, as what the page keeps
 * of it, until the entry ends (issue 42: never the kernel's JSON tree). */
static int hold_pc(void *ctx, size_t index, json_t *pc, ws_error *err)
{
    (void)index;
    kernel_digest *d = ctx;
    if (!json_is_object(pc))
        return 0;
    if (ws_grow((void **)&d->held, &d->held_capacity, d->held_count + 1, sizeof *d->held) != 0 ||
        pc_seen_read(&d->pcs, pc, &d->held[d->held_count]) != 0)
        return ws_fail(err, "out of memory");
    d->held_count++;
    return 0;
}

static void drop_held(kernel_digest *d)
{
    for (size_t i = 0; i < d->held_count; i++)
        pc_seen_free(&d->held[i]);
    d->held_count = 0;
}

static int add_kernel(void *ctx, size_t index, json_t *kernel, ws_error *err)
{
    kernel_digest *d = ctx;
    double grid[3];
    if (report_nums(kernel, "grid", grid, 3) == 3 && grid[0] >= 1 && grid[1] >= 1 && grid[2] >= 1)
        d->largest_cta_distance = fmax(d->largest_cta_distance, grid[0] * grid[1] * grid[2] - 1);
    const char *name = report_str(kernel, "name");
    int failed = kernel_groups_add_kernel(&d->kernels, index, kernel) != 0;
    for (size_t i = 0; !failed && i < d->held_count; i++)
        failed = source_lines_add_pc(&d->lines, name, &d->held[i]) != 0 ||
                 pc_groups_add(&d->pcs, index, name, &d->held[i]) != 0;
    drop_held(d);
    return failed ? ws_fail(err, "out of memory") : 0;
}

int kernel_digest_build(kernel_digest *d, const json_t *doc, kernel_spool *spool, ws_error *err)
{
    memset(d, 0, sizeof *d);
    d->largest_cta_distance = -1;
    if (report_kernels_each_streamed(doc, spool, "pcs", hold_pc, add_kernel, d, err) != 0) {
        kernel_digest_free(d);
        return -1;
    }
    source_lines_sort(&d->lines);
    return 0;
}

void kernel_digest_free(kernel_digest *d)
{
    drop_held(d);
    free(d->held);
    d->held = NULL;
    d->held_capacity = 0;
    pc_groups_free(&d->pcs);
    kernel_groups_free(&d->kernels);
    source_lines_free(&d->lines);
}
