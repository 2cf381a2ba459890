#!/usr/bin/env bash
# scripts/timeline-view-check.sh WARPSCOPE CATAPULT [WORKLOAD] [GPU]: does a
# timed replay's `--timeline` open in Chrome's trace viewer?  (Issue #41's
# "opens in a trace viewer, checked in headless Chromium"; docs/replay.md,
# "Timeline".)
#
# Records WORKLOAD (default hotspot) at --size small, replays it --timed on
# GPU (default fermi) with --timeline, renders the trace into the viewer's
# own page with catapult's trace2html (CATAPULT: a checkout of
# github.com/catapult-project/catapult; it cannot be committed here, so this
# check is not part of `make test`), and has scripts/timeline-view.js load
# that page in headless Chromium and compare what the viewer parsed with what
# the trace holds.  Needs chromium, node and python3.  KEEP=DIR keeps the
# trace, page and outputs there.
set -euo pipefail
ws=$(realpath "${1:?usage: scripts/timeline-view-check.sh WARPSCOPE CATAPULT [WORKLOAD] [GPU]}")
catapult=${2:?usage: scripts/timeline-view-check.sh WARPSCOPE CATAPULT [WORKLOAD] [GPU]}
workload=${3:-hotspot} gpu=${4:-fermi}
repo=$(cd "$(dirname "$0")/.." && pwd)
trace2html=$catapult/tracing/bin/trace2html
[ -x "$trace2html" ] || { echo "timeline view: $trace2html: not found (CATAPULT is catapult's checkout)" >&2; exit 2; }
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || { echo "timeline view: no chromium on PATH" >&2; exit 2; }
command -v node >/dev/null || { echo "timeline view: needs node" >&2; exit 2; }
if [ -n "${KEEP:-}" ]; then
    dir=$KEEP; mkdir -p "$dir"
else
    dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
fi
"$ws" record --workload "$workload" --size small -o "$dir/$workload.wst" --quiet
"$ws" replay "$dir/$workload.wst" --gpu "$gpu" --timed --timeline "$dir/timeline.json" \
    -o "$dir/replay.json" --quiet >/dev/null
python3 "$trace2html" "$dir/timeline.json" --output "$dir/timeline.html" >/dev/null
node "$repo/scripts/timeline-view.js" "$browser" "$dir/timeline.html" "$dir/timeline.json"
