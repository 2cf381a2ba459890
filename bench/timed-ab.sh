#!/usr/bin/env bash
# bench/timed-ab.sh RUNS N BIN_A BIN_B [BIN...] -- "W P" ...: an A/B of warpscope
# builds on the timed compare of the Accel-Sim comparison (bench/RESULTS.md,
# "Timed replay against Accel-Sim: speed"): N single runs of each build,
# interleaved (A, B, ..., A, B, ...) so that the machine's minute-to-minute
# drift falls on all alike, of
#   BIN compare RUNS/W/W.wst --gpu P mirror --cache-op ignore --policies lru,fifo --timed --threads 1 --quiet
# Prints per pair each build's least and median task-clock (ms) and their
# ratios to the first build's.  RUNS as kept by scripts/timed-validate.sh --keep.
set -euo pipefail
usage="usage: $0 RUNS N BIN_A BIN_B [BIN...] -- \"W P\" ..."
[ $# -ge 6 ] || { echo "$usage" >&2; exit 2; }
runs=$1 n=$2; shift 2
bins=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do bins+=("$(realpath "$1")"); shift; done
[ $# -gt 1 ] && [ ${#bins[@]} -ge 2 ] || { echo "$usage" >&2; exit 2; }
shift
command -v perf >/dev/null || { echo "timed-ab: perf not found" >&2; exit 2; }
mirror=$(cd "$(dirname "$0")/.." && pwd)/scripts/accelsim-mirror
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for pair in "$@"; do
    read -r w p <<<"$pair"
    for i in "${!bins[@]}"; do : >"$tmp/t$i"; done
    for ((k = 0; k < n; k++)); do
        for i in "${!bins[@]}"; do
            perf stat -x, -e task-clock -o "$tmp/stat" "${bins[$i]}" compare "$runs/$w/$w.wst" \
                --gpu "$mirror/$p.json" --cache-op ignore --policies lru,fifo --timed --threads 1 \
                --quiet >/dev/null 2>"$tmp/err" ||
                { echo "timed-ab: ${bins[$i]} failed on $w $p: $(tail -1 "$tmp/err")" >&2; exit 1; }
            awk -F, '/task-clock/{printf "%.3f\n", $1}' "$tmp/stat" >>"$tmp/t$i"
        done
    done
    line="$w $p:"
    for i in "${!bins[@]}"; do
        read -r lo med < <(sort -g "$tmp/t$i" | awk '{a[NR] = $1} END {print a[1], a[int((NR + 1) / 2)]}')
        [ "$i" -eq 0 ] && { lo0=$lo; med0=$med; }
        line="$line | $(basename "${bins[$i]}") least $lo ($(awk -v a="$lo" -v b="$lo0" 'BEGIN{printf "%.3f", a / b}')) median $med ($(awk -v a="$med" -v b="$med0" 'BEGIN{printf "%.3f", a / b}'))"
    done
    echo "$line"
done
