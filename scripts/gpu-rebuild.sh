#!/usr/bin/env bash
# scripts/gpu-rebuild.sh cuda DIR | tool DEST.so: scripts/gpu-device-run.sh's
# fallbacks, on the GPU machine, when what the kit (.gpu/, scripts/gpu-kit.sh)
# carries built does not run there: rebuilds it with that machine's nvcc,
# without make (`make nvbit` first checks the -dev packages of warpscope's
# build, scripts/deps.sh, which that machine need not have).
#   cuda DIR   every workload's CUDA program into DIR, with the Makefile's
#              CUDA_FLAGS (make cuda-workloads), one nvcc a core;
#   tool DEST  the NVBit tool, by the Makefile's nvbit rules: its two .cu
#              files compiled here with NVBIT_HOST_FLAGS and NVBIT_INJECT_FLAGS
#              for NVBIT_ARCH (default sm_90; nvcc 12.3 or later, which needs
#              no register cap, NVBIT_MAXRREG), linked with the kit's -fPIC objects of
#              warpscope's library and NVBit release (.gpu/fallback/) and its
#              shared libraries (.gpu/lib, .gpu/lib-sys).
# Run from the repository root.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/gpu-rebuild.sh cuda DIR | tool DEST.so" >&2; exit 2; }
cd "$(dirname "$0")/.."
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
kit=$PWD/.gpu
# A flag set the Makefile defines with :=, as its rules use it.
make_flags() { sed -n "s/^$1 *:= *//p" Makefile; }
case $1 in
cuda)
    dir=$2
    mkdir -p "$dir"
    eval "flags=($(make_flags CUDA_FLAGS))"
    # shellcheck disable=SC2154,SC2016 # flags: set by the eval; $1, $0: sh's
    printf '%s\n' collectors/workloads/cuda/*.cu |
        xargs -P "$(nproc)" -I{} sh -c 'src=$1; shift; "$@" -o "$0/$(basename "$src" .cu)" "$src"' \
            "$dir" {} "$nvcc" "${flags[@]}"
    echo "gpu-rebuild: $(find "$dir" -maxdepth 1 -type f | wc -l) programs in $dir"
    ;;
tool)
    dest=$(realpath -m "$2")
    arch=${NVBIT_ARCH:-sm_90}
    cuda=$(cd "$(dirname "$(readlink -f "$nvcc")")/.." && pwd)
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpu-rebuild.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    tar -xJf "$kit/fallback/nvbit-core.tar.xz" -C "$tmp"
    tar -xJf "$kit/fallback/pic.tar.xz" -C "$tmp"
    core=$tmp/core
    read -r major minor < <("$nvcc" --version | sed -n 's/.*release \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
    if [ "${major:-0}" -lt 12 ] || { [ "$major" -eq 12 ] && [ "${minor:-0}" -lt 3 ]; }; then
        echo "gpu-rebuild: nvcc $major.$minor: the tool needs 12.3 or later here" >&2
        exit 1
    fi
    eval "host=($(make_flags NVBIT_HOST_FLAGS)) inject=($(make_flags NVBIT_INJECT_FLAGS))"
    # shellcheck disable=SC2154 # host, inject: set by the eval
    "$nvcc" "${host[@]}" -arch="$arch" -I. -I"$core" collectors/nvbit/tool/tool.cu -o "$tmp/tool.o" &
    # shellcheck disable=SC2154
    "$nvcc" "${inject[@]}" -arch="$arch" -I. -I"$core" collectors/nvbit/tool/inject_funcs.cu \
        -o "$tmp/inject_funcs.o"
    wait $!
    # The kit's libraries under the names the linker looks for.
    mkdir -p "$tmp/link"
    for l in "$kit"/lib/*.so.* "$kit"/lib-sys/*.so.*; do
        [ -e "$l" ] || continue
        b=$(basename "$l")
        ln -sf "$l" "$tmp/link/${b%%.so.*}.so"
    done
    stubs=""
    for d in "$cuda/lib64/stubs" "$cuda"/targets/*/lib/stubs; do
        if [ -e "$d/libcuda.so" ]; then stubs=$d; break; fi
    done
    find "$tmp/pic" -name '*.o' | sort >"$tmp/objects"
    # shellcheck disable=SC2046 # object paths without spaces
    "$nvcc" -arch="$arch" -O3 -shared -o "$dest" "$tmp/tool.o" "$tmp/inject_funcs.o" $(cat "$tmp/objects") \
        -L"$core" -lnvbit ${stubs:+-L"$stubs"} -lcuda -lcudart_static \
        -L"$tmp/link" -lzstd -ljansson -lcsv -llzma -lm -lpthread -ldl -lrt
    echo "gpu-rebuild: built $dest"
    ;;
*) echo "gpu-rebuild: cuda or tool, not '$1'" >&2; exit 2 ;;
esac
