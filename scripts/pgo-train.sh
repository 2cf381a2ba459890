#!/usr/bin/env bash
# scripts/pgo-train.sh BIN DIR: the training run of the profile-guided
# release build (Makefile, "the release binary"; README "Building").
# BIN is the instrumented binary (build/pgo-gen/warpscope); every command
# it runs here adds its branch and call counts to the profile that the
# optimised build is then compiled with.  DIR is emptied and holds the
# traces and outputs; nothing is read or written outside it but the
# profile (next to BIN's objects) and the repository's GPU configs.
#
# The run is the commands users run, on embedded workloads recorded in the
# emulator, not the benchmark alone: recording with and without timing, a
# round trip through Accel-Sim's trace format (export, import: the form
# the Accel-Sim comparison reads), the functional and the timed replay
# and compare on two GPUs (the Accel-Sim mirrors of scripts/accelsim-mirror
# and two built-in presets) and two warp orders, analyze, bypass, profile
# with its HTML report, dump, info and diff.  A code path no command here
# takes is compiled as without a profile (-fprofile-partial-training).
# One thread everywhere: counts made by racing threads differ from run to
# run, and a profile that changed rebuilds its object.  It takes a few
# seconds; any command that fails stops the build.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BIN DIR" >&2; exit 2; }
bin=$(realpath "$1")
mirror=$(realpath "$(dirname "$0")/accelsim-mirror")
dir=$2
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"

ws() { "$bin" "$@" >/dev/null; }

ws --version
ws workloads
ws policies

# Traces: the workloads with the timing their ports state (gaps and the
# loads each record waits on), one without it, and two round trips
# through Accel-Sim's trace format.
timed_workloads=(bfs spmv kmeans backprop 2dconv gemm hotspot)
for w in "${timed_workloads[@]}"; do
    ws record --workload "$w" --size small --seed 2 --timing --quiet -o "$w.wst"
done
ws record --workload gaussian --size small --quiet -o gaussian.wst
for w in kmeans backprop; do
    ws export accelsim "$w.wst" -o "$w-accelsim"
    ws import accelsim "$w-accelsim/kernelslist.g" -o "$w-imported.wst"
    ws diff "$w.wst" "$w-imported.wst" || [ $? -eq 1 ] # 1: they differ, not an error
done

# The timed compare of the Accel-Sim comparison (docs/validation-timed.md),
# under both warp orders, as text and as JSON and CSV.
for w in "${timed_workloads[@]}" kmeans-imported backprop-imported; do
    for gpu in fermi volta; do
        for order in rr,gto rr,lrr; do
            ws compare "$w.wst" --gpu "$mirror/$gpu.json" --cache-op ignore --schedule "$order" \
                --policies lru,fifo --timed --threads 1 --quiet
        done
    done
done
ws compare bfs.wst --gpu "$mirror/volta.json" --policies lru,fifo,srrip,dacache-stall --timed \
    --threads 1 --quiet -o compare-timed.json --csv compare-timed
ws replay spmv.wst --gpu "$mirror/fermi.json" --timed --threads 1 --quiet --timeline timeline.json \
    -o replay-timed.json

# The functional replay, compare and the analysis, on built-in presets.
for gpu in volta fermi; do
    ws compare kmeans.wst --gpu "$gpu" --threads 1 --quiet -o "compare-$gpu.json"
    ws replay bfs.wst --gpu "$gpu" --schedule rr,lrr --threads 1 --quiet -o "replay-$gpu.json"
done
ws compare 2dconv.wst --policies lru,srrip+ccn,sharing-aware --threads 1 --quiet --csv compare-ccn
ws analyze backprop.wst --gpu volta --threads 1 --quiet -o analyze.json --csv analyze --html analyze.html
ws bypass kmeans.wst --threads 1 --quiet --json bypass.json
ws profile --workload nw --size small --threads 1 --quiet -o profile
ws report profile/report.json --html report.html

ws info spmv.wst
ws dump 2dconv.wst --csv
ws dump 2dconv.wst --order scheduled --gpu fermi --timed
