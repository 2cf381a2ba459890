#!/usr/bin/env bash
# scripts/same-timed.sh OLD_BIN NEW_BIN RUNS: are two builds' timed compares
# byte-identical on the Accel-Sim comparison's traces?  RUNS is a directory
# kept by `scripts/timed-validate.sh ACCELSIM_DIR --keep RUNS` (RUNS/W/W.wst
# for each workload W).  For each trace, both Accel-Sim mirrors
# (scripts/accelsim-mirror/fermi.json, volta.json) and both warp orders
# (rr,gto and rr,lrr), each build writes the JSON of
#   compare W.wst --cache-op ignore --policies lru,fifo --timed --threads 1
# and the two are compared byte for byte (23 workloads: 92 outputs).  The
# speed work on the timed replay (bench/RESULTS.md) checks every step with it,
# beside scripts/same-reports.sh.  Prints one line per output that differs and
# a closing count; exits 1 if any differ or a run fails.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 OLD_BIN NEW_BIN RUNS" >&2; exit 2; }
old=$(realpath "$1") new=$(realpath "$2") runs=$3
mirror=$(cd "$(dirname "$0")" && pwd)/accelsim-mirror
[ -d "$runs" ] || { echo "same-timed: $runs: no such directory" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
same=0 differ=0
for dir in "$runs"/*/; do
    w=$(basename "$dir")
    [ -f "$dir/$w.wst" ] || continue
    for gpu in fermi volta; do
        for order in rr,gto rr,lrr; do
            for side in a b; do
                bin=$old; [ $side = b ] && bin=$new
                "$bin" compare "$dir/$w.wst" --gpu "$mirror/$gpu.json" --cache-op ignore \
                    --schedule "$order" --policies lru,fifo --timed --threads 1 --quiet \
                    -o "$work/$side.json" >/dev/null 2>"$work/$side.err" ||
                    { echo "same-timed: $w $gpu $order: $bin failed: $(tail -1 "$work/$side.err")" >&2; exit 1; }
            done
            if cmp -s "$work/a.json" "$work/b.json"; then
                same=$((same + 1))
            else
                differ=$((differ + 1)); echo "differs: $w $gpu $order"
            fi
        done
    done
done
echo "timed compare: $same identical, $differ different"
[ "$differ" -eq 0 ]
