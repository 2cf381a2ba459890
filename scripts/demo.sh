#!/usr/bin/env bash
# scripts/demo.sh BIN: the main job on the embedded default workload.
# Records Rodinia gaussian in the CUDA-grid emulator and describes the trace.
set -euo pipefail
bin=${1:-build/rel/warpscope}
out=demo-out
mkdir -p "$out"
echo "== recording the default workload (gaussian, small) in the emulator"
"$bin" record --workload gaussian --size small --verify -o "$out/gaussian.wst"
echo
echo "== what the trace holds (first kernels)"
"$bin" info "$out/gaussian.wst" | sed -n 1,20p
echo
echo "== the first records of Fan2 at t = 0"
"$bin" dump "$out/gaussian.wst" --kernel 1 --cta 0
echo
echo "The trace is in $out/gaussian.wst; see README.md for the other commands."
