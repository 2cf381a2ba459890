#!/usr/bin/env bash
# scripts/demo.sh BIN: the main job on the embedded default workload:
# record Rodinia gaussian in the CUDA-grid emulator, then analyze it.
set -euo pipefail
bin=${1:-build/rel/warpscope}
out=demo-out
mkdir -p "$out"
echo "== recording the default workload (gaussian, small) in the CUDA-grid emulator"
"$bin" record --workload gaussian --size small --verify -o "$out/gaussian.wst"
"$bin" info "$out/gaussian.wst" | sed -n 1,9p
echo
echo "== analyzing it on the Fermi preset (scheduler rr,gto)"
"$bin" analyze "$out/gaussian.wst" --gpu fermi -o "$out/report.json" --csv "$out/tables" \
    --html "$out/report.html"
echo
echo "Report: $out/report.json (docs/report-schema.md); tables: $out/tables/*.csv"
echo "HTML report: $out/report.html, open it in any browser (docs/html-report.md)"
