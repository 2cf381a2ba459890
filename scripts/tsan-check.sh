#!/usr/bin/env bash
# scripts/tsan-check.sh BIN: runs every threaded path of warpscope built with
# ThreadSanitizer (make check-tsan) on small embedded workloads: the
# analysis pass's consumer threads, compare's worker pool, several issue
# streams sharing one pool (P@ORDER, sweep), bypass trials and profile.
# Any data race report fails the run.
set -euo pipefail
bin=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
run() {
    if ! "$bin" "$@" --quiet >"$work/out" 2>"$work/err"; then
        echo "tsan-check: warpscope $*: failed" >&2
        head -40 "$work/err" >&2
        exit 1
    fi
}
for w in gemm bfs hotspot; do
    "$bin" record --workload "$w" --size small -o "$work/$w.wst" >/dev/null
    t="$work/$w.wst"
    run analyze "$t" --threads 4 -o "$work/a.json"
    run compare "$t" --threads 2 --policies lru,srrip,drrip,opt,lru+ccn,sharing-aware
    run compare "$t" --threads 2 --policies lru,lru@lrr,lru@ccws,srrip@pcal:4,2
    run sweep "$t" --threads 2 --n-max 4
    run bypass "$t" --threads 2 --trials 2 --csv "$work/hints"
done
run profile --workload gaussian --size small --threads 2 --trials 2 -o "$work/profile"
echo "tsan-check: no data race in the threaded paths"
