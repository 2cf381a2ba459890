#!/usr/bin/env bash
# scripts/demo.sh BIN: the main job on the embedded default workload:
# `warpscope profile` records Rodinia gaussian in the CUDA-grid emulator,
# analyzes it on the default GPU preset (hopper: the emulator's trace names
# no GPU), replays it, derives the advice, compares policies, and writes the
# report directory.  The finding that holds on hopper's 192 KiB sectored L1
# is not S1's bypass (the verdict is keep) but Fan2's uncoalesced loads
# (gaussian.c:40 and :38, coalesce accesses) and S0's CTA schedule.
set -euo pipefail
bin=${1:-build/rel/warpscope}
out=demo-out
echo "== warpscope profile --workload gaussian --size small -o $out"
echo
"$bin" profile --workload gaussian --size small -o "$out"
echo
echo "Open $out/report.html in any browser (docs/html-report.md)."
echo "Also in $out: report.json and the CSV tables (docs/report-schema.md), trace.wst."
