#!/usr/bin/env bash
# scripts/bench.sh: runs every benchmark program in build/rel/bench and
# rewrites bench/RESULTS.md from their outputs (each prints a Markdown section),
# keeping every section and subsection they did not print.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/RESULTS.md.tmp
# Traces the benchmarks share (bench/bench_traces.h): recorded afresh per run.
rm -rf build/bench-traces
# Each section says what it was measured on: a figure from a machine whose
# other core was busy does not reproduce on a quiet one, nor the reverse.
stamp() {
    echo "_Measured at commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(
        git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)'),"\
         "$(date -u '+%Y-%m-%d %H:%M') UTC, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start._"
}
{
    echo "# Benchmark results"
    echo
    echo "Written by \`make bench\` on $(date -u +%Y-%m-%d), $(nproc) cores, $(uname -m)."
    echo
    for b in build/rel/bench/*; do
        [ -x "$b" ] || continue
        s=$(stamp)
        "$b"
        echo
        echo "$s"
        echo
    done
    s=$(stamp)
    bench/import-scaling.sh build/rel/warpscope
    echo
    echo "$s"
    echo
    s=$(stamp)
    bench/decode-vs-zstd.sh build/rel
    echo
    echo "$s"
    echo
    # Every other section (measured by hand, or by a script that takes
    # hours or a peer built outside the repository) is carried over by
    # scripts/bench-results-merge.awk below.
    if [ "${BENCH_LARGE:-0}" = 1 ]; then
        bench/large-runs.sh build/rel/warpscope
    fi
} > "$out"
# What this run did not print (hand-measured sections, and subsections written
# under a printed section) is kept from the file as it was.
if [ -f bench/RESULTS.md ]; then
    awk -f scripts/bench-results-merge.awk "$out" bench/RESULTS.md >"$out.merged"
    mv "$out.merged" "$out"
fi
mv "$out" bench/RESULTS.md
cat bench/RESULTS.md
