#!/usr/bin/env bash
# scripts/nvbit-check.sh [NVBIT_PATH]: checks the NVBit tool without a GPU.
#
# With no argument (as `make test` runs it): compiles the tool's device and
# host code with nvcc against warpscope's own declarations of the NVBit API
# (collectors/nvbit/nvbit_decls), so API drift and syntax errors show up on
# machines without NVBit or a GPU.  Compile only; skipped without nvcc.
#
# With NVBIT_PATH, an NVBit release (the directory holding core/), also:
#   1. every declaration in collectors/nvbit/nvbit_decls agrees with the
#      release's headers: function and method types, enum values, field
#      offsets and types (scripts/nvbit-decls-check.awk writes the checks);
#   2. every NVBit function the tool calls through the declarations has the
#      symbol libnvbit.a defines (catches a wrong linkage: NVBit's API is
#      extern "C", its Instr methods C++);
#   3. `make nvbit` builds build/rel/warpscope-nvbit.so against the release,
#      and the library resolves every symbol it needs (libnvbit, the CUDA
#      driver, the system's libraries);
#   4. the library preloads into a program and NVBit starts.
# Each problem is one line; the exit status is 1 if any check fails.
set -u
cd "$(dirname "$0")/.." || exit 2
nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
decls=collectors/nvbit/nvbit_decls
if [ $# -gt 1 ]; then
    echo "usage: scripts/nvbit-check.sh [NVBIT_PATH]" >&2
    exit 2
fi
if [ -z "$nvcc" ]; then
    if [ $# -eq 1 ]; then
        echo "nvbit check: nvcc not installed" >&2
        exit 1
    fi
    echo "nvbit compile check: skipped (nvcc not installed)"
    exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The tool against the declarations; the objects are kept for check 2.
for f in collectors/nvbit/tool/*.cu; do
    if ! "$nvcc" -std=c++17 -c -rdc=true -arch=sm_75 -I. -I$decls \
            "$f" -o "$out/$(basename "$f").o"; then
        echo "nvbit compile check: FAILED on $f"
        exit 1
    fi
done
echo "nvbit compile check: the tool compiles with $("$nvcc" --version | tail -1)"
[ $# -eq 0 ] && exit 0

release=$1
core=$release/core
version=$(sed -n 's/^#define NVBIT_VERSION "\(.*\)"/\1/p' "$core/nvbit.h" 2>/dev/null)
if [ -z "$version" ]; then
    echo "nvbit check: $core/nvbit.h: not found or without NVBIT_VERSION (NVBIT_PATH is the directory holding core/)" >&2
    exit 1
fi
failed=0

# 1. The declarations against the release's headers.  nvcc reports a failed
# check on the generated line, which ends in "// FILE:LINE NAME".
{
    echo '#include "nvbit.h"'
    echo '#include "nvbit_tool.h"'
    echo '#include "utils/channel.hpp"'
    awk -f scripts/nvbit-decls-check.awk $decls/nvbit.h $decls/nvbit_tool.h $decls/utils/channel.hpp
} >"$out/decls_check.cu" || exit 1
if ! "$nvcc" -std=c++17 -c -I"$core" "$out/decls_check.cu" -o "$out/decls_check.o" 2>"$out/decls_check.err"; then
    failed=1
    lines=$(sed -n 's/^.*decls_check\.cu(\([0-9]*\)): error.*/\1/p' "$out/decls_check.err" | sort -un)
    for n in $lines; do
        decl=$(sed -n "${n}s|.*// \(.*\)|\1|p" "$out/decls_check.cu")
        why=$(grep -m1 "decls_check\.cu($n): error" "$out/decls_check.err" | sed 's/.*error: //')
        case $why in
        "static assertion failed"*) why="differs from NVBit $version" ;;
        *) why="not as in NVBit $version: $why" ;;
        esac
        echo "nvbit check: ${decl:-decls_check.cu:$n}: $why ($core)"
    done
    [ -n "$lines" ] || echo "nvbit check: the declaration check does not compile against NVBit $version: $(grep -m1 error "$out/decls_check.err")"
fi

# 2. The symbols the tool asks for through the declarations, by name: where
# libnvbit.a defines that name, it must define that very symbol.
nm -g --defined-only "$core/libnvbit.a" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u >"$out/defined"
for o in "$out"/*.cu.o; do nm -u "$o" | awk '{ print $2 }'; done | sort -u >"$out/wanted"
paste "$out/wanted" <(c++filt -p <"$out/wanted") | awk -F'\t' -v version="$version" '
    FILENAME == ARGV[1] { defined[$1] = 1; next }
    FILENAME == ARGV[2] { named[$1] = 1; next }
    ($2 in named) && !($1 in defined) {
        printf "nvbit check: %s: libnvbit.a %s defines %s under another symbol (linkage or parameters differ)\n", $1, version, $2
        bad = 1
    }
    END { exit bad }' "$out/defined" <(c++filt -p <"$out/defined") - || failed=1

# 3. The tool built against the release, and linked for good: every symbol
# it leaves undefined is defined by a library it names.  Without a driver,
# the CUDA toolkit's stub stands in for libcuda.so.1.
if ! make --no-print-directory nvbit NVBIT_PATH="$release" NVCC="$nvcc" >"$out/make.log" 2>&1; then
    echo "nvbit check: make nvbit NVBIT_PATH=$release failed: $(grep -m1 -E 'error|make nvbit:' "$out/make.log")"
    exit 1
fi
so=build/rel/warpscope-nvbit.so
stub=$(find "$(dirname "$nvcc")"/../lib64/stubs "$(dirname "$nvcc")"/../targets/*/lib/stubs \
    -name libcuda.so 2>/dev/null | head -1)
mkdir -p "$out/stub"
[ -n "$stub" ] && ln -s "$(realpath "$stub")" "$out/stub/libcuda.so.1"
LD_LIBRARY_PATH="$out/stub${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ldd "$so" >"$out/ldd"
if grep -q 'not found' "$out/ldd"; then
    failed=1
    echo "nvbit check: $so: $(grep -m1 'not found' "$out/ldd" | sed 's/^[[:space:]]*//')"
fi
awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' "$out/ldd" | while read -r lib; do
    nm -D --defined-only "$lib" | awk '{ print $3 }'
done | sed 's/@.*//' | sort -u >"$out/provided"
nm -D --undefined-only "$so" | awk '$1 == "U" { print $2 }' | sed 's/@.*//' | sort -u |
    comm -23 - "$out/provided" >"$out/unresolved"
if [ -s "$out/unresolved" ]; then
    failed=1
    echo "nvbit check: $so: symbols no library it names defines ($(wc -l <"$out/unresolved")): $(head -5 "$out/unresolved" | tr '\n' ' ')"
fi

# 4. Preloaded into a program: NVBit starts (it prints its banner; with no
# GPU it then stops with its own error), and nothing crashes.  Symbols are
# bound lazily: NVBit's error path crashes on the stub under LD_BIND_NOW;
# check 3 has looked every symbol up already.
LD_LIBRARY_PATH="$out/stub${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" WARPSCOPE_OUT="$out/true.wst" \
    timeout 60 env LD_PRELOAD="$PWD/$so" true >"$out/preload.log" 2>&1
status=$?
if ! grep -q "NVBit (NVidia Binary Instrumentation Tool v$version) Loaded" "$out/preload.log" || [ $status -ge 124 ]; then
    failed=1
    echo "nvbit check: $so does not load into a program (status $status): $(grep -v -m1 -E '^-+$' "$out/preload.log")"
fi
# A run that stops before its end (here NVBit, finding no GPU) leaves no
# temporary trace behind.
if ls -A "$out" | grep -q '^\.true\.wst\.tmp\.'; then
    failed=1
    echo "nvbit check: a stopped run left its temporary trace: $(ls -A "$out" | grep '^\.true\.wst')"
fi

if [ $failed -ne 0 ]; then
    exit 1
fi
echo "nvbit check: the declarations agree with NVBit $version, and build/rel/warpscope-nvbit.so links against it"
