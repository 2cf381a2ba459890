#!/usr/bin/env bash
# bench/ranks-inputs.sh BIN: the inputs the rank benchmarks time
# (bench/ranks-scaling.sh, bench/ranks-counts.sh), written to the current
# folder: the traces h.wst (hotspot medium), g.wst (gaussian medium, 510
# kernels) and s.wst (srad small), recorded side by side, and grid.json, a
# batch of 40 runs (2 traces x 2 presets x 10 policies).
set -euo pipefail
bin=$1
"$bin" record --workload hotspot --size medium -o h.wst --quiet >/dev/null &
"$bin" record --workload gaussian --size medium -o g.wst --quiet >/dev/null &
"$bin" record --workload srad --size small -o s.wst --quiet >/dev/null &
for job in $(jobs -p); do wait "$job"; done
cat >grid.json <<'GRID'
{
  "traces": ["h.wst", "s.wst"],
  "gpus": ["fermi", "volta"],
  "policies": ["lru", "fifo", "random", "lip", "bip", "dip", "srrip", "brrip", "drrip", "opt"]
}
GRID
