#!/usr/bin/env bash
# scripts/fuzz.sh BINARY SECONDS [TARGET]: fuzzes the readers of user files
# (tests/fuzz/fuzz_inputs.c), one target at a time, each for SECONDS: the
# Accel-Sim importer, the .wst reader, GPU configs, saved reports (read;
# and drawn as HTML, the slow target) and the command-line config
# overrides (TARGET: just that one).  Each starts from
# its seed corpus in the repository, tests/fuzz/corpus/TARGET (read only);
# what it adds lands in build/fuzz/corpus/TARGET, findings in
# build/fuzz/findings/.  Prints each target's executions and rate.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1 seconds=${2:-60} only=${3:-}
out=build/fuzz
mkdir -p "$out/scratch" "$out/findings"
targets="accelsim wst config report html overrides"
if [ -n "$only" ]; then
    case " $targets " in
    *" $only "*) targets=$only ;;
    *) echo "fuzz.sh: no target '$only' (accelsim, wst, config, report, html, overrides)" >&2; exit 2 ;;
    esac
fi
for t in $targets; do
    mkdir -p "$out/corpus/$t"
    # A report seed is a whole document: mutations must be able to keep it.
    max_len=20000
    case $t in report | html) max_len=100000 ;; esac
    seeds=tests/fuzz/corpus/$t
    [ "$t" = html ] && seeds=tests/fuzz/corpus/report
    log="$out/fuzz-$t.log" cpu="$out/fuzz-$t.cpu"
    # CPU seconds too: on a shared machine the wall-clock rate says more
    # about the load than about the harness.
    timer=()
    [ -x /usr/bin/time ] && timer=(/usr/bin/time -f '%U %S' -o "$cpu")
    FUZZ_TARGET=$t FUZZ_SCRATCH="$out/scratch" "${timer[@]}" "$bin" "$out/corpus/$t" "$seeds" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=$max_len \
        -artifact_prefix="$out/findings/$t-" -print_final_stats=1 2> "$log" || {
        tail -40 "$log" >&2
        echo "fuzz.sh: target $t found a fault (see $out/findings/)" >&2
        exit 1
    }
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    per_cpu=
    [ -s "$cpu" ] && per_cpu=$(awk -v runs="$runs" '{ s = $1 + $2; if (s > 0) printf ", %d a CPU second", runs / s }' "$cpu")
    echo "fuzz $t: $runs executions in ${seconds} s, $rate a second$per_cpu"
done
