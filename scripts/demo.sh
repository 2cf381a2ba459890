#!/usr/bin/env bash
# scripts/demo.sh BIN: the main job on the embedded default workload.
set -euo pipefail
bin=${1:-build/rel/warpscope}
"$bin" --version
"$bin" --help
