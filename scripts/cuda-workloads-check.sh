#!/usr/bin/env bash
# scripts/cuda-workloads-check.sh WARPSCOPE: builds the CUDA program of every
# embedded workload (make cuda-workloads) and checks each binary against the
# emulator's trace of the same workload (docs/cuda-workloads.md), so that
# `make test` catches, on machines without a GPU:
#   - a workload without its collectors/workloads/cuda/NAME.cu, or one that
#     does not compile;
#   - kernel names that differ from the port's (the sm_90 SASS and the
#     compute_90 PTX must name exactly the kernels the emulator records: a
#     signature that mangles differently fails here);
#   - a kernel whose SASS lacks the global loads (LDG) or stores (STG), or
#     atomics (ATOMG or RED), that the port's kernel makes.
# cuobjdump and nvdisasm do not come with every CUDA toolkit install, so the
# binaries are read with binutils: the fatbin section (left uncompressed by
# the build), its sm_90 ELF and compute_90 PTX entries, and the opcode field
# of each 128-bit sm_90 instruction (its low 12 bits).
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
warpscope=${1:?usage: scripts/cuda-workloads-check.sh WARPSCOPE}
nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
if [ -z "$nvcc" ]; then
    echo "cuda workloads check: skipped (nvcc not installed)"
    exit 0
fi
fail() {
    echo "cuda workloads check: $*"
    exit 1
}
for tool in objcopy readelf od; do
    command -v "$tool" >/dev/null || fail "needs $tool (binutils, coreutils)"
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# sm_90 opcodes (bits 0-11 of an instruction).  EXIT ends every kernel, so
# a kernel without it means the encoding is not what this script reads.
LDG=981 STG=986 ATOMG=9a8 RED=98e EXIT=94d

# Unsigned little-endian integer of $3 bytes at offset $2 of file $1.
uint() { od -An -tu"$3" -j "$2" -N "$3" "$1" | tr -d ' '; }

# Splits binary $1's fatbin into entries $2/N.KIND.ARCH (kind 1 = PTX,
# 2 = ELF; arch 90 = sm_90 or compute_90).  A fatbin is a 16-byte header
# (magic, version, header size, body size) and entries, each a header (kind,
# version, header size, payload size, ..., arch at +28) and its payload.
split_fatbin() {
    local fat=$2/fatbin p=0 n=0 size start end e kind header payload arch
    objcopy -O binary --only-section=.nv_fatbin "$1" "$fat" 2>/dev/null || return 1
    size=$(stat -c %s "$fat")
    while [ $((p + 16)) -le "$size" ]; do
        if [ "$(uint "$fat" "$p" 4)" != $((0xba55ed50)) ]; then
            p=$((p + 8)) # alignment between fatbins
            continue
        fi
        start=$((p + $(uint "$fat" $((p + 6)) 2)))
        end=$((start + $(uint "$fat" $((p + 8)) 8)))
        for ((e = start; e < end; e += header + payload, n++)); do
            kind=$(uint "$fat" "$e" 2)
            header=$(uint "$fat" $((e + 4)) 4)
            payload=$(uint "$fat" $((e + 8)) 8)
            arch=$(uint "$fat" $((e + 28)) 4)
            tail -c +$((e + header + 1)) "$fat" | head -c "$payload" >"$2/$n.$kind.$arch"
        done
        p=$end
    done
}

# "NAME OFFSET SIZE" (hex) of every kernel's code section in ELF $1.
kernel_sections() {
    readelf -SW "$1" 2>/dev/null | sed -n 's/^ *\[ *[0-9]*\] *\.text\.//p' | awk '{print $1, $4, $5}'
}

# The opcodes of the code at hex offset $2, hex size $3 of file $1, one a line.
opcodes() {
    od -An -v -tx2 -w16 -j $((16#$2)) -N $((16#$3)) "$1" | awk '{print substr($1, 2)}' | sort -u
}

# "NAME L S A" for every kernel of trace $1: 1 where some launch of it made
# loads, stores, atomics.
emulated_kernels() {
    "$warpscope" info "$1" | awk '
        /^kernel [0-9]+ / { name = $3 }
        /^  CTAs .*\(loads / {
            for (i = 1; i < NF; i++) {
                if ($i == "(loads") l[name] += $(i + 1) + 0
                if ($i == "stores") s[name] += $(i + 1) + 0
                if ($i == "atomics") a[name] += $(i + 1) + 0
            }
        }
        END { for (k in l) print k, (l[k] > 0), (s[k] > 0), (a[k] > 0) }' | sort
}

# Build every program; a failure is reported below, per workload.
env -u MAKEFLAGS -u MFLAGS make -j2 -k --no-print-directory NVCC="$nvcc" cuda-workloads \
    >"$tmp/make.log" 2>&1

names=$("$warpscope" workloads --names) || fail "$warpscope workloads --names failed"
count=0
for name in $names; do
    src=collectors/workloads/cuda/$name.cu
    bin=build/cuda/$name
    [ -f "$src" ] || fail "$name: no CUDA program $src"
    if [ ! -x "$bin" ] || grep -q "build/cuda/$name\] Error" "$tmp/make.log"; then
        error=$(grep -F "$src" "$tmp/make.log" | grep -m1 error)
        fail "$name: $src does not build: ${error:-see make cuda-workloads}"
    fi

    "$warpscope" record --workload "$name" --size small --quiet -o "$tmp/$name.wst" >/dev/null ||
        fail "$name: the emulator cannot record it"
    emulated_kernels "$tmp/$name.wst" >"$tmp/$name.kernels"
    cut -d' ' -f1 "$tmp/$name.kernels" >"$tmp/$name.want"

    dir=$tmp/$name.fatbin
    mkdir "$dir"
    split_fatbin "$bin" "$dir" || fail "$name: $bin has no fatbin section"
    ptx=$(ls "$dir"/*.1.90 2>/dev/null | head -1)
    [ -n "$ptx" ] && grep -aq '^\.target sm_90' "$ptx" || fail "$name: $bin has no compute_90 PTX"
    grep -ao '\.entry [A-Za-z0-9_$]*' "$ptx" | cut -d' ' -f2 | sort -u >"$tmp/$name.ptx"
    diff -q "$tmp/$name.want" "$tmp/$name.ptx" >/dev/null ||
        fail "$name: PTX kernels ($(echo $(cat "$tmp/$name.ptx"))) differ from the emulator's ($(echo $(cat "$tmp/$name.want")))"

    : >"$tmp/$name.sass"
    for elf in "$dir"/*.2.90; do
        [ -e "$elf" ] || fail "$name: $bin has no sm_90 SASS"
        kernel_sections "$elf" | while read -r kernel offset size; do
            echo "$kernel" >>"$tmp/$name.sass"
            opcodes "$elf" "$offset" "$size" >"$tmp/$name.$kernel.ops"
        done
    done
    sort -u -o "$tmp/$name.sass" "$tmp/$name.sass"
    diff -q "$tmp/$name.want" "$tmp/$name.sass" >/dev/null ||
        fail "$name: SASS kernels ($(echo $(cat "$tmp/$name.sass"))) differ from the emulator's ($(echo $(cat "$tmp/$name.want")))"

    while read -r kernel loads stores atomics; do
        ops=$tmp/$name.$kernel.ops
        grep -qx $EXIT "$ops" || fail "$name: $kernel: no EXIT in its sm_90 code: not the encoding this check reads"
        [ "$loads" = 0 ] || grep -qx $LDG "$ops" || fail "$name: $kernel: no global load (LDG) in its SASS; the port loads"
        [ "$stores" = 0 ] || grep -qx $STG "$ops" || fail "$name: $kernel: no global store (STG) in its SASS; the port stores"
        [ "$atomics" = 0 ] || grep -qxE "$ATOMG|$RED" "$ops" ||
            fail "$name: $kernel: no global atomic (ATOMG/RED) in its SASS; the port makes atomics"
    done <"$tmp/$name.kernels"
    count=$((count + 1))
done
echo "cuda workloads check: $count programs match their emulator ports (kernel names, sm_90 SASS, compute_90 PTX), built with $("$nvcc" --version | tail -1)"
