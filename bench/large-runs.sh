#!/usr/bin/env bash
# bench/large-runs.sh [BIN] [WORKLOAD...]: the main job (`warpscope profile`)
# on every embedded workload at --size "${SIZE:-large}", one after another, with its
# wall time, CPU time and peak resident memory (GNU time's maximum RSS).
#   bench/large-runs.sh build/rel/warpscope            # all 23 workloads
#   bench/large-runs.sh build/rel/warpscope gemm bfs   # some of them
# Prints one Markdown table row per workload as each run ends, so a long
# session can be followed (or cut short) and its rows pasted into
# bench/RESULTS.md.  Each run's directory (trace included) is removed after
# it is measured: the large traces reach hundreds of MiB.
set -euo pipefail
bin=${1:-build/rel/warpscope}
shift || true
[ -x "$bin" ] || { echo "large-runs: $bin: not an executable (make build/rel/warpscope)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "large-runs: /usr/bin/time (GNU time) is needed for peak memory" >&2; exit 1; }
if [ $# -eq 0 ]; then
    set -- $("$bin" workloads --names)
fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "| workload | records | wall (s) | CPU (s) | peak RSS (MiB) |"
echo "|---|---:|---:|---:|---:|"
for w in "$@"; do
    if ! /usr/bin/time -f '%e %U %S %M' -o "$dir/time" \
        "$bin" profile --workload "$w" --size "${SIZE:-large}" --gpu fermi --quiet -o "$dir/$w" >"$dir/out" 2>&1; then
        echo "| $w | failed: $(tail -1 "$dir/out") | | | |"
        rm -rf "${dir:?}/$w"
        continue
    fi
    read -r wall user sys rss_kib <"$dir/time"
    records=$("$bin" info "$dir/$w/trace.wst" | awk '$1 == "records" {n = $2} END {print n}')
    printf '| %s | %s | %.1f | %.1f | %.0f |\n' "$w" "${records:-?}" "$wall" \
        "$(echo "$user + $sys" | bc)" "$(echo "$rss_kib / 1024" | bc)"
    rm -rf "${dir:?}/$w"
done
