#!/usr/bin/env bash
# bench/timed-vs-functional.sh [WARPSCOPE_BIN] [SIZE]: the timed replay's
# cost against the functional replay's (bench/RESULTS.md, "Timed replay"):
# for gemm, bfs and spmv at SIZE (default medium), `replay --timed` and
# `replay` of the same trace as interleaved pairs (farm-bench --vs), so the
# ratio holds on a noisy machine.  Target: at most 4x.
set -euo pipefail
ws=$(realpath "${1:-build/rel/warpscope}") size=${2:-medium}
command -v farm-bench >/dev/null || { echo "timed-vs-functional: needs farm-bench" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
echo "# $(date -u +%F) $(git rev-parse --short HEAD 2>/dev/null || echo '?'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
for w in gemm bfs spmv; do
    "$ws" record --workload "$w" --size "$size" -o "$work/$w.wst" --quiet
    echo "== $w ($size): timed / functional"
    farm-bench -n 5 --timeout 600 --vs "$ws replay $work/$w.wst --gpu fermi --quiet" -- \
        "$ws" replay "$work/$w.wst" --gpu fermi --timed --quiet
done
