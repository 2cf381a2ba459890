#!/usr/bin/env bash
# scripts/sass-gaps.sh [--listing] NAME: the evidence for a port's timing
# (docs/cuda-workloads.md, "Timing"): for every kernel of build/cuda/NAME
# (make cuda-workloads), the sm_90 instructions between its global memory
# instructions, in code order: "N LDG" says N instructions came since the
# previous LDG, STG, ATOMG, RED or EXIT.  With --listing, every instruction
# instead, one a line: its index, its opcode (a name for the memory, barrier
# and control ones the counts need, else the 12-bit opcode in hex) and, for
# a BRA, the index it branches to, so that a gap can be counted along the
# path a port's data takes (loop heads and tails, branches not taken).
# Reads the binary as scripts/cuda-workloads-check.sh does (binutils, no
# cuobjdump), with that script's own functions.
set -u
cd "$(dirname "$0")/.." || exit 2
listing=0
if [ "${1:-}" = --listing ]; then
    listing=1
    shift
fi
name=${1:?usage: scripts/sass-gaps.sh [--listing] NAME}
[ -x "build/cuda/$name" ] || { echo "sass-gaps: build/cuda/$name: run make cuda-workloads" >&2; exit 1; }
eval "$(sed -n '/^uint()/p;/^split_fatbin()/,/^}/p;/^kernel_sections()/,/^}/p' scripts/cuda-workloads-check.sh)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
split_fatbin "build/cuda/$name" "$tmp" || { echo "sass-gaps: build/cuda/$name has no fatbin" >&2; exit 1; }
for elf in "$tmp"/*.2.90; do
    kernel_sections "$elf" | while read -r kernel offset size; do
        echo "$kernel"
        if [ $listing = 1 ]; then
            # A BRA's target, in instructions from the next one: bits 16-23
            # of its offset field, the rest (signed) from bit 34 up, in units
            # of 4 bytes (sm_90; checked against loops' heads and the
            # self-branch that ends every kernel).
            od -An -v -tx2 -w16 -j $((16#$offset)) -N $((16#$size)) "$elf" | awk '
                function hex(s,    i, v) {
                    v = 0
                    for (i = 1; i <= length(s); i++)
                        v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
                    return v
                }
                BEGIN { name["981"] = "LDG"; name["986"] = "STG"; name["9a8"] = "ATOMG";
                        name["98e"] = "RED"; name["94d"] = "EXIT"; name["947"] = "BRA";
                        name["b1d"] = "BAR"; name["984"] = "LDS"; name["388"] = "STS";
                        name["944"] = "CALL"; name["950"] = "RET"; name["918"] = "NOP" }
                {
                    op = substr($1, 2)
                    if (op == "918") { n++; next }
                    line = sprintf("%5d %s", n, op in name ? name[op] : op)
                    if (op == "947") {
                        high = hex($4) * 65536 + hex($3)  # bits 32-63
                        high = int(high / 4)              # bits 34-63
                        if (high >= 2^29)
                            high -= 2^30
                        off = high * 256 + hex(substr($2, 3, 2))
                        line = line sprintf(" -> %d", n + 1 + off / 4)
                    }
                    print line
                    n++
                }'
            continue
        fi
        # The opcode is bits 0-11 of each 128-bit instruction.
        od -An -v -tx2 -w16 -j $((16#$offset)) -N $((16#$size)) "$elf" | awk '
            BEGIN { name["981"] = "LDG"; name["986"] = "STG"; name["9a8"] = "ATOMG";
                    name["98e"] = "RED"; name["94d"] = "EXIT" }
            { op = substr($1, 2) }
            op in name { printf "  %3d %s\n", n, name[op]; n = 0; next }
            { n++ }'
    done
done
