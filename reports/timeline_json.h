/* reports/timeline_json.h: the timed replay's per-SM timeline as a Chrome
 * trace (the JSON that Perfetto and chrome://tracing open), `--timeline
 * FILE` (docs/replay.md, "Timeline").
 *
 * One process per SM with a track per CTA slot (each resident CTA a span)
 * and one per warp slot (each memory instruction a span, from issue to
 * its data back), and a GPU process with the kernels.  Timestamps are the
 * model's cycles (1 unit = 1 cycle), not a GPU's.  It is written as the
 * run goes, to a temporary file renamed at the end; past `max_events` it
 * keeps the kernels and CTAs and stops adding instructions, and says so. */
#ifndef WS_TIMELINE_JSON_H
#define WS_TIMELINE_JSON_H

#include <stdint.h>

#include "analyzer/replay.h"
#include "formats/trace.h"
#include "util/error.h"

typedef struct timeline_writer timeline_writer;

timeline_writer *timeline_open(const char *path, const wst_trace *trace, uint32_t sms,
                               uint64_t max_events, ws_error *err);
/* What the replay calls (replay_options.timeline); valid while w lives. */
const timed_observer *timeline_observer(timeline_writer *w);
/* Ends the document and puts it in place; frees w. */
int timeline_close(timeline_writer *w, ws_error *err);
/* Removes what was written; frees w.  NULL is a no-op. */
void timeline_abort(timeline_writer *w);

#endif
