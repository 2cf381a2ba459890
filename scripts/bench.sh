#!/usr/bin/env bash
# scripts/bench.sh: runs every benchmark program in build/rel/bench and
# rewrites bench/RESULTS.md from their outputs (each prints a Markdown section).
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/RESULTS.md.tmp
# Traces the benchmarks share (bench/bench_traces.h): recorded afresh per run.
rm -rf build/bench-traces
{
    echo "# Benchmark results"
    echo
    echo "Written by \`make bench\` on $(date -u +%Y-%m-%d), $(nproc) cores, $(uname -m)."
    echo
    for b in build/rel/bench/*; do
        [ -x "$b" ] || continue
        "$b"
        echo
    done
    bench/import-scaling.sh build/rel/warpscope
    echo
    # Every workload at --size large takes hours: only with BENCH_LARGE=1;
    # otherwise the last measured table is carried over as it was.
    if [ "${BENCH_LARGE:-0}" = 1 ]; then
        bench/large-runs.sh build/rel/warpscope
    elif [ -f bench/RESULTS.md ]; then
        awk '/^## The main job at --size large/ {on = 1} on && /^## / && !/--size large/ {on = 0} on' \
            bench/RESULTS.md
    fi
} > "$out"
mv "$out" bench/RESULTS.md
cat bench/RESULTS.md
