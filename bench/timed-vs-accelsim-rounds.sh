#!/usr/bin/env bash
# bench/timed-vs-accelsim-rounds.sh RUNS ACCELSIM_DIR ROUNDS BIN [BIN...] -- "W P" ...
# The speed target of the timed replay (at least 300x faster than Accel-Sim's
# two runs; bench/RESULTS.md, "Timed replay against Accel-Sim: speed")
# measured with both tools in the same minutes: on this shared machine a
# run of either varies by a third from one minute to the next, so a ratio is
# only worth something when its two sides were measured together.  For each
# pair "W P" (workload W of RUNS, kept by scripts/timed-validate.sh --keep;
# preset P, fermi or volta), ROUNDS rounds of: one Accel-Sim run of the LRU
# mirror under gto (scripts/accelsim-run.sh; CPU seconds, user + system),
# then for each BIN the mean task-clock of batches of 20 runs (`perf stat -r
# 20`), as many batches as it takes for their runs to last as long as that
# Accel-Sim run (at most 200), of
#   BIN compare W.wst --gpu P mirror --cache-op ignore --policies lru,fifo --timed --threads 1 --quiet
# so that both sides of a round are exposed to the machine for as long.
# Each side's figure is its least over the rounds; the ratio is twice
# Accel-Sim's (its FIFO run costs what its LRU run does) over warpscope's.
# Prints one Markdown table row per pair: every round's figure, then each
# BIN's least and ratio, its ratio by each side's median round, and the load
# average at the end of the pair.  Where `make bench` built the probes, the
# last columns have, for each round, the core's speed (bench_core_speed's
# `wide` loop in ms, measured before Accel-Sim's run and before warpscope's
# batches: the core is shared at times and every issue-bound program is then
# slower by as much; bench/RESULTS.md, "The two speeds: the core is shared")
# and the load latency over 1.5 MB (ns, before warpscope's batches).
# Accel-Sim's runs last seconds and average over the core's two speeds,
# warpscope's runs last milliseconds and may fall in either, so a ratio by
# the least favours warpscope; the medians compare like with like.
set -euo pipefail
usage="usage: $0 RUNS ACCELSIM_DIR ROUNDS BIN [BIN...] -- \"W P\" ..."
[ $# -ge 6 ] || { echo "$usage" >&2; exit 2; }
runs=$1 asdir=$2 rounds=$3; shift 3
bins=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do bins+=("$(realpath "$1")"); shift; done
[ $# -gt 1 ] && [ ${#bins[@]} -gt 0 ] || { echo "$usage" >&2; exit 2; }
shift
command -v perf >/dev/null || { echo "timed-vs-accelsim-rounds: perf not found" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd); mirror=$repo/scripts/accelsim-mirror
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
probe=$repo/build/rel/bench/bench_memory_latency
[ -x "$probe" ] || probe=
speed=$repo/build/rel/bench/bench_core_speed
[ -x "$speed" ] || speed=
sorted() { tr ' ' '\n' <<<"$*" | grep . | sort -g; }
least() { sorted "$@" | head -1; }
# The median of the figures (the lower middle one of an even count).
median() { sorted "$@" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
# Twice Accel-Sim's seconds $1 over warpscope's milliseconds $2, as "NNNx".
ratio() { awk -v a="$1" -v w="$2" 'BEGIN{printf "%.0fx", 2 * a * 1000 / w}'; }
for pair in "$@"; do
    read -r w p <<<"$pair"
    [ -f "$runs/$w/$w.wst" ] || { echo "timed-vs-accelsim-rounds: $runs/$w/$w.wst not found" >&2; exit 2; }
    as=""; lat=""; core=""; declare -A ws=()
    for ((k = 0; k < rounds; k++)); do
        [ -z "$speed" ] || core="$core $("$speed" wide)"
        "$repo/scripts/accelsim-run.sh" "$asdir" "$runs/$w/export/kernelslist.g" "$runs/$w/$p-gto" \
            "$p" "$tmp/as" 900 >/dev/null 2>&1 ||
            { echo "timed-vs-accelsim-rounds: Accel-Sim failed on $w $p" >&2; exit 1; }
        cpu=$(cat "$tmp/as/accelsim.cpu")
        as="$as $cpu"
        [ -z "$probe" ] || lat="$lat $("$probe" 1536 | awk '{print $2}')"
        [ -z "$speed" ] || core="$core/$("$speed" wide)"
        for b in "${bins[@]}"; do
            sum=0 batches=0 target=$(awk -v a="$cpu" 'BEGIN{print a * 1000}')
            while :; do
                perf stat -x, -r 20 -e task-clock -o "$tmp/stat" "$b" compare "$runs/$w/$w.wst" \
                    --gpu "$mirror/$p.json" --cache-op ignore --policies lru,fifo --timed --threads 1 \
                    --quiet >/dev/null 2>"$tmp/err" ||
                    { echo "timed-vs-accelsim-rounds: $b failed on $w $p: $(tail -1 "$tmp/err")" >&2; exit 1; }
                sum=$(awk -v s="$sum" -F, '/task-clock/{print s + $1}' "$tmp/stat")
                batches=$((batches + 1))
                awk -v s="$sum" -v t="$target" -v n="$batches" 'BEGIN{exit !(s * 20 < t && n < 200)}' || break
            done
            ws[$b]="${ws[$b]:-} $(awk -v s="$sum" -v n="$batches" 'BEGIN{printf "%.2f", s / n}')"
        done
    done
    a=$(least "$as"); am=$(median "$as"); row="| $w | $p | $(awk -v a="$a" 'BEGIN{printf "%.2f", 2 * a}') (runs:$as) |"
    for b in "${bins[@]}"; do
        l=$(least "${ws[$b]}")
        m=$(median "${ws[$b]}")
        row="$row $(awk -v l="$l" 'BEGIN{printf "%.2f", l}') (${ws[$b]# }) | $(ratio "$a" "$l") | $(ratio "$am" "$m") |"
    done
    row="$row $(cut -d' ' -f1 /proc/loadavg) |"
    [ -z "$speed" ] || row="$row${core} |"
    [ -z "$probe" ] || row="$row${lat} |"
    echo "$row"
    unset ws
done
