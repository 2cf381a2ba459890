#!/usr/bin/env bash
# scripts/bench.sh: runs every benchmark program in build/rel/bench and
# rewrites bench/RESULTS.md from their outputs (each prints a Markdown section).
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
    # Sections measured apart are carried over as they were: what was
    # tried on the replay's and the decoder's hot paths (by hand, with perf), every workload
    # at --size large takes hours (run only with BENCH_LARGE=1), the peers
    # are built outside the repository (bench/peers.sh), and xz on the
    # exported text of every workload takes an hour (bench/format-vs-xz.sh).
    carry() { # the section whose heading starts with $1
        [ -f bench/RESULTS.md ] &&
            awk -v h="$1" 'index($0, h) == 1 {on = 1; print; next} on && /^## / {on = 0} on' \
                bench/RESULTS.md
    }
    carry "## Replay, measured apart" || true
    carry "## Exact reuse distance, measured apart" || true
    carry "## analyze of divergent traces, measured apart" || true
    carry "## The guard" || true
    carry "## Decoding, measured apart" || true
    carry "## warpscope beside its peers" || true
    carry "## .wst beside xz and zstd" || true
    if [ "${BENCH_LARGE:-0}" = 1 ]; then
        bench/large-runs.sh build/rel/warpscope
    else
        carry "## The main job at --size large" || true
    fi
} > "$out"
mv "$out" bench/RESULTS.md
cat bench/RESULTS.md
