/* cli/replay_run.h: open a trace and replay it through K hierarchies, with
 * a progress bar; shared by replay, compare, bypass and profile. */
#ifndef WS_CLI_REPLAY_RUN_H
#define WS_CLI_REPLAY_RUN_H

#include "cli/replay_args.h"
#include "formats/wst.h"

/* On success the hierarchies are in out[0..count) and the open reader in
 * *reader (the caller frees both); else an exit status after a one-line
 * error naming the trace. */
int cli_replay(const replay_args *a, const hierarchy_options *options, uint32_t count,
               hierarchy **out, wst_reader **reader);

/* Same on an already open reader. */
int cli_replay_reader(const replay_args *a, wst_reader *r, const hierarchy_options *options,
                      uint32_t count, hierarchy **out);

#endif
