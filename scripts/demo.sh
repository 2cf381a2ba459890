#!/usr/bin/env bash
# scripts/demo.sh BIN: the main job on the embedded default workload:
# `warpscope profile` records Rodinia gaussian in the CUDA-grid emulator,
# analyzes it, replays it, derives bypass hints, compares policies, and
# writes the report directory.
set -euo pipefail
bin=${1:-build/rel/warpscope}
out=demo-out
echo "== warpscope profile --workload gaussian --gpu fermi -o $out"
echo
"$bin" profile --workload gaussian --size small --gpu fermi -o "$out"
echo
echo "Open $out/report.html in any browser (docs/html-report.md)."
echo "Also in $out: report.json and the CSV tables (docs/report-schema.md), trace.wst."
