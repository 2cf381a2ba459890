#!/usr/bin/env bash
# scripts/sass-gaps.sh NAME: the evidence for a port's timing
# (docs/cuda-workloads.md, "Timing"): for every kernel of build/cuda/NAME
# (make cuda-workloads), the sm_90 instructions between its global memory
# instructions, in code order: "N LDG" says N instructions came since the
# previous LDG, STG, ATOMG, RED or EXIT.  Reads the binary as
# scripts/cuda-workloads-check.sh does (binutils, no cuobjdump), with that
# script's own functions.
set -u
cd "$(dirname "$0")/.." || exit 2
name=${1:?usage: scripts/sass-gaps.sh NAME}
[ -x "build/cuda/$name" ] || { echo "sass-gaps: build/cuda/$name: run make cuda-workloads" >&2; exit 1; }
eval "$(sed -n '/^uint()/p;/^split_fatbin()/,/^}/p;/^kernel_sections()/,/^}/p' scripts/cuda-workloads-check.sh)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
split_fatbin "build/cuda/$name" "$tmp" || { echo "sass-gaps: build/cuda/$name has no fatbin" >&2; exit 1; }
for elf in "$tmp"/*.2.90; do
    kernel_sections "$elf" | while read -r kernel offset size; do
        echo "$kernel"
        # The opcode is bits 0-11 of each 128-bit instruction.
        od -An -v -tx2 -w16 -j $((16#$offset)) -N $((16#$size)) "$elf" | awk '
            BEGIN { name["981"] = "LDG"; name["986"] = "STG"; name["9a8"] = "ATOMG";
                    name["98e"] = "RED"; name["94d"] = "EXIT" }
            { op = substr($1, 2) }
            op in name { printf "  %3d %s\n", n, name[op]; n = 0; next }
            { n++ }'
    done
done
