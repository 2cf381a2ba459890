/* cli/sweep_ranks.c: see sweep_ranks.h. */
#include "cli/sweep_ranks.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/rank_split.h"
#include "util/ranks.h"

/* The points sweep_owner gives this rank, in index order: whole points
 * (counters and, timed, cycles) back to back (the corners after the grid). */
static sweep_point *grid_slot(sweep_result *g, uint32_t index)
{
    if (index < g->count)
        return &g->points[index];
    return index == g->count ? &g->timed_base : &g->timed_one;
}

int sweep_gather(sweep_result *grid, int status)
{
    uint32_t me = ranks_rank(), ranks = ranks_size();
    size_t size = 0;
    sweep_point *mine = NULL;
    if (status == 0) {
        uint32_t total = grid->count + 2, n = 0;
        mine = malloc((size_t)total * sizeof *mine);
        if (!mine)
            status = cli_error(NULL, "out of memory");
        for (uint32_t i = 0; mine && i < total; i++)
            if (sweep_owner(grid->n_max, i, ranks) == me)
                mine[n++] = *grid_slot(grid, i);
        size = (size_t)n * sizeof *mine;
    }
    ranks_part *parts;
    status = cli_rank_gather(status, mine, size, &parts);
    free(mine);
    if (!parts)
        return status;
    /* Rank 0's own points are in place; the others' arrive in the order
     * they were packed. */
    for (uint32_t r = 1; r < ranks && status == 0; r++) {
        const sweep_point *c = parts[r].data;
        size_t n = parts[r].size / sizeof *c, used = 0;
        for (uint32_t i = 0; i < grid->count + 2; i++)
            if (sweep_owner(grid->n_max, i, ranks) == r) {
                if (used == n) {
                    status = cli_error(NULL, "rank %u sent %zu sweep points, fewer than its share", r, n);
                    break;
                }
                *grid_slot(grid, i) = c[used++];
            }
    }
    ranks_parts_free(parts);
    return status;
}
