/* cli/compare_ranks.c: see compare_ranks.h. */
#include "cli/compare_ranks.h"

#include <stdlib.h>

#include "analyzer/results_pack.h"
#include "cli/cli.h"
#include "cli/rank_split.h"
#include "util/ranks.h"

uint32_t compare_entry_rank(uint32_t entry) { return entry % ranks_size(); }

void compare_unpacked_free(replay_results **unpacked, uint32_t count)
{
    for (uint32_t i = 0; unpacked && i < count; i++)
        results_unpacked_free(unpacked[i]);
    free(unpacked);
}

int compare_gather(const compare_set *set, hierarchy *const *hs, int status,
                   const replay_results **rs, replay_results ***unpacked)
{
    uint32_t me = ranks_rank(), ranks = ranks_size();
    results_bytes mine = {0};
    ws_error err;
    /* Rank 0's own results stay where they are; the others pack theirs. */
    for (uint32_t i = 0, j = 0; status == 0 && i < set->count; i++) {
        if (compare_entry_rank(i) != me)
            continue;
        const replay_results *r = hierarchy_results(hs[j++]);
        if (me == 0)
            rs[i] = r;
        else if (results_pack(r, &mine, &err) != 0)
            status = cli_fail(NULL, &err);
    }
    ranks_part *parts;
    status = cli_rank_gather(status, mine.data, mine.size, &parts);
    pack_bytes_free(&mine);
    *unpacked = NULL;
    if (!parts)
        return status;
    if (status == 0 && !(*unpacked = calloc(set->count, sizeof **unpacked)))
        status = cli_error(NULL, "out of memory");
    for (uint32_t r = 1; r < ranks && status == 0; r++) {
        size_t at = 0;
        for (uint32_t i = 0; i < set->count && status == 0; i++) {
            if (compare_entry_rank(i) != r)
                continue;
            if (!((*unpacked)[i] = results_unpack(parts[r].data, parts[r].size, &at, &err)))
                status = cli_error(NULL, "rank %u's results: %s", r, err.msg);
            rs[i] = (*unpacked)[i];
        }
    }
    ranks_parts_free(parts);
    return status;
}
