#!/usr/bin/env bash
# scripts/same-reports.sh OLD_BIN NEW_BIN [SIZE] [SCHEDULES...]: are the reports
# of two warpscope builds byte-identical?  A refactor must change no number:
# for every embedded workload at SIZE (default small) each build records the
# trace (so a change of the trace format is checked too), then runs analyze,
# replay, compare (every replacement policy; the management systems and
# DaCache in the timed replay, --timed) and bypass on its own trace under each
# schedule (default rr,gto), and their JSON and CSV outputs are compared
# byte for byte (not the output list .warpscope-outputs, which holds file
# times and inodes: util/outset.c).  Prints one line
# per output that differs and a closing count; exits 1 if any differ.
# KEEP=DIR keeps the outputs there (DIR/a from OLD_BIN, DIR/b from NEW_BIN).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OLD_BIN NEW_BIN [SIZE] [SCHEDULES...]" >&2; exit 2; }
old=$(realpath "$1") new=$(realpath "$2") size=${3:-small}
shift $(( $# >= 3 ? 3 : 2 ))
schedules=("${@:-rr,gto}")
[ ${#schedules[@]} -gt 0 ] || schedules=(rr,gto)
if [ -n "${KEEP:-}" ]; then
    work=$KEEP; mkdir -p "$work"
else
    work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fi
workloads=$("$new" workloads --names)
policies=lru,fifo,random,lip,bip,dip,srrip,brrip,drrip,opt
systems=lru,sharing-aware,sa-fill,sa-local,dacache,dacache-stall
same=0 differ=0
run_both() { # name, then the command's arguments after the binary; outputs in OUT_A / OUT_B
    local name=$1; shift
    mkdir -p "$work/a/$name" "$work/b/$name"
    # Each build reads the trace it recorded, at the same path.
    "$old" record --workload "$w" --size "$size" -o "$trace" >/dev/null 2>&1
    (cd "$work/a/$name" && "$old" "$@" --quiet >stdout 2>stderr) || echo "old failed: $name" >&2
    "$new" record --workload "$w" --size "$size" -o "$trace" >/dev/null 2>&1
    (cd "$work/b/$name" && "$new" "$@" --quiet >stdout 2>stderr) || echo "new failed: $name" >&2
    for f in $(cd "$work/b/$name" && find . -type f ! -name stderr ! -name .warpscope-outputs | sort); do
        if cmp -s "$work/a/$name/$f" "$work/b/$name/$f"; then
            same=$((same + 1))
        else
            differ=$((differ + 1)); echo "differs: $name/${f#./}"
        fi
    done
}
for w in $workloads; do
    trace="$work/$w.wst"
    for s in "${schedules[@]}"; do
        tag="$w.${s//,/-}"
        run_both "$tag.analyze" analyze "$trace" --schedule "$s" -o report.json --csv csv
        run_both "$tag.replay" replay "$trace" --schedule "$s" -o replay.json
        run_both "$tag.compare" compare "$trace" --schedule "$s" --policies "$policies" \
            -o compare.json --csv csv
        run_both "$tag.systems" compare "$trace" --schedule "$s" --timed \
            --policies "$systems" -o compare.json --csv csv
        run_both "$tag.bypass" bypass "$trace" --schedule "$s" --csv csv --json hints.json
    done
done
echo "$same identical, $differ different"
[ "$differ" -eq 0 ]
