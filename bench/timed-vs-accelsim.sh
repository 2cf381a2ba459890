#!/usr/bin/env bash
# bench/timed-vs-accelsim.sh RUNS [WARPSCOPE_BIN] [PRESETS] [ACCELSIM_DIR]: how much faster
# a timed `compare` of lru and fifo is than Accel-Sim's two runs of the same
# trace (issue target: at least 300x on every workload; bench/RESULTS.md,
# "Timed replay against Accel-Sim: speed").
#
# RUNS is a directory kept by `scripts/timed-validate.sh ... --keep RUNS`:
# RUNS/W/W.wst is workload W's trace, RUNS/W/P-gto/accelsim.out Accel-Sim's
# run of it on preset P's mirror under gto.  Accel-Sim's time is the CPU
# time (user + system) of its LRU run, kept in RUNS/W/P-gto/accelsim.cpu;
# given ACCELSIM_DIR (an accel-sim-framework checkout with its simulator
# built), a run without that file is run again under time(1) to make it.
# Without either, the wall time Accel-Sim reports (gpgpu_simulation_time,
# whole seconds) is used and marked "wall": on a loaded machine it counts
# waiting for a core too (measured 3-6x its CPU time with load 10 on 2
# cores), so only CPU figures make the ratio.  The FIFO run the same
# comparison needs is taken to cost as much as the LRU one (the policy does
# not change what Accel-Sim simulates), so its side is twice that.
# warpscope's side is the CPU time (user + system,
# the least of 3 batches of 10 runs) of
#   warpscope compare W.wst --policies lru,fifo --timed --threads 1
# with the same mirror and order, so the ratio does not flatter warpscope
# on a loaded machine: Accel-Sim's wall time there includes waiting for a
# core, and the ratio says so by printing the load average.
set -euo pipefail
runs=${1:?usage: bench/timed-vs-accelsim.sh RUNS [WARPSCOPE_BIN] [PRESETS] [ACCELSIM_DIR]}
ws=$(realpath "${2:-build/rel/warpscope}") presets=${3:-fermi,volta} asdir=${4:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
[ -d "$runs" ] || { echo "timed-vs-accelsim: $runs: no such directory" >&2; exit 2; }
[ -x "$ws" ] || { echo "timed-vs-accelsim: $ws: not an executable" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# CPU seconds (user + system) of one command: the least of three batches of
# 10 runs, divided by 10 (time(1) counts in hundredths of a second).
cpu_seconds() {
    local best="" t
    for _ in 1 2 3; do
        /usr/bin/time -f "%U %S" -o "$tmp/time" sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do "$@" || exit 1; done' sh "$@" >/dev/null 2>"$tmp/err" ||
            { echo "timed-vs-accelsim: $* failed: $(tail -1 "$tmp/err")" >&2; exit 1; }
        t=$(awk '{printf "%.4f", ($1 + $2) / 10}' "$tmp/time")
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a < b)}'; then best=$t; fi
    done
    echo "$best"
}

# Accel-Sim's CPU seconds for run directory $1 of workload $2 on preset $3 (its
# configs are those timed-validate.sh copied there), measured once into
# accelsim.cpu by scripts/accelsim-run.sh.
accelsim_cpu() {
    local d=$1 w=$2 p=$3
    [ -f "$d/accelsim.cpu" ] && { cat "$d/accelsim.cpu"; return 0; }
    [ -n "$asdir" ] || return 1
    "$repo/scripts/accelsim-run.sh" "$asdir" "$runs/$w/export/kernelslist.g" "$d" "$p" "$tmp/as" ||
        return 1
    tee "$d/accelsim.cpu" <"$tmp/as/accelsim.cpu"
}

echo "# $(date -u +%F) warpscope $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| workload | preset | Accel-Sim, 2 runs (s) | warpscope timed compare lru,fifo (s, CPU) | ratio |"
echo "|---|---|---:|---:|---:|"
IFS=, read -r -a preset_list <<<"$presets"
least=""
for wd in "$runs"/*/; do
    w=$(basename "$wd")
    [ -f "$wd/$w.wst" ] || continue
    for p in "${preset_list[@]}"; do
        d=$wd/$p-gto
        [ "$(cat "$d/status" 2>/dev/null)" = ok ] || continue
        kind=CPU
        if ! as=$(accelsim_cpu "$d" "$w" "$p"); then
            kind=wall
            as=$(grep 'gpgpu_simulation_time' "$d/accelsim.out" | tail -1 | sed -E 's/.*\(([0-9]+) sec\).*/\1/')
            [ -n "$as" ] || continue
        fi
        cpu=$(cpu_seconds "$ws" compare "$wd/$w.wst" --gpu "$repo/scripts/accelsim-mirror/$p.json" \
            --cache-op ignore --schedule rr,gto --policies lru,fifo --timed --threads 1 --quiet \
            -o "$tmp/c.json")
        ratio=$(awk -v a="$as" -v c="$cpu" 'BEGIN{ printf "%.0f", 2 * a / c }')
        [ -n "$least" ] && [ "$least" -le "$ratio" ] || least=$ratio
        printf '| %s | %s | %s (%s) | %s | %s× |\n' "$w" "$p" "$(awk -v a="$as" 'BEGIN{printf "%.1f", 2 * a}')" "$kind" "$cpu" "$ratio"
    done
done
echo
echo "Least ratio: ${least:-none}×"
