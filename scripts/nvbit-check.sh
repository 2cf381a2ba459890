#!/usr/bin/env bash
# scripts/nvbit-check.sh: compiles the NVBit tool's device and host code
# with nvcc against warpscope's own declarations of the NVBit API
# (collectors/nvbit/nvbit_decls), so API drift and syntax errors show up in
# `make test` on machines without NVBit or a GPU.  Compile only.
set -u
cd "$(dirname "$0")/.."
nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
if [ -z "$nvcc" ]; then
    echo "nvbit compile check: skipped (nvcc not installed)"
    exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in collectors/nvbit/tool/*.cu; do
    if ! "$nvcc" -std=c++17 -c -rdc=true -arch=sm_75 -I. -Icollectors/nvbit/nvbit_decls \
            "$f" -o "$out/$(basename "$f").o"; then
        echo "nvbit compile check: FAILED on $f"
        exit 1
    fi
done
echo "nvbit compile check: the tool compiles with $("$nvcc" --version | tail -1)"
