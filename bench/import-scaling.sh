#!/usr/bin/env bash
# bench/import-scaling.sh [BIN]: import time against input size for the two
# shapes that were quadratic (bench/RESULTS.md, "Import scaling"):
#   - a raw Accel-Sim .trace with one record per CTA (the writer's memory
#     budget used to rescan every CTA buffer for each one it flushed);
#   - raw LDGSTS lines whose second halves never come (the pending halves
#     used to be a list scanned per line).
# Each is timed at N, 2N and 4N lines; linear scaling doubles the time per
# doubling.  Prints a Markdown table.
set -euo pipefail
bin=${1:-build/rel/warpscope}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

header() { # CTAs
    printf -- '-kernel name = _Z5shapev\n-kernel id = 1\n-grid dim = (%d,1,1)\n' "$1"
    printf -- '-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n'
    printf -- '-shmem base_addr = 0x00007f0001000000\n-local mem base_addr = 0x00007f0000000000\n'
    printf -- '-accelsim tracer version = 5\n-enable lineinfo = 0\n'
    printf -- '#traces format = PC mask dest_num ...\n'
}

write_trace() { # shape N path
    {
        header "$2"
        if [ "$1" = ctas ]; then
            awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++)
                printf "%d 0 0 0 0010 00000001 0 LDG.E 1 R2 4 1 0x%x 4 0\n", i, 4096 + 128 * i }'
        else
            awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++)
                printf "%d 0 0 0 0010 00000001 0 LDGSTS.E.BYPASS.128 2 R2 R4 16 1 0x%x 16 0\n", i, 4096 + 128 * i }'
        fi
    } >"$3"
}

seconds() { # command...: wall seconds
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

echo "## Import scaling (\`bench/import-scaling.sh\`)"
echo
echo "Raw Accel-Sim traces of N, 2N and 4N lines; linear scaling doubles the time per doubling."
echo
echo "| shape | lines | import (s) | × previous |"
echo "|---|---:|---:|---:|"
for shape in ctas ldgsts; do
    base=${N:-100000} prev=""
    for n in $base $((2 * base)) $((4 * base)); do
        write_trace "$shape" "$n" "$dir/kernel-1.trace"
        t=$(seconds "$bin" import accelsim "$dir/kernel-1.trace" -o "$dir/out.wst")
        ratio=$([ -n "$prev" ] && echo "scale=2; $t / $prev" | bc || echo "")
        label=$([ "$shape" = ctas ] && echo "one record per CTA" || echo "unmatched LDGSTS halves")
        printf '| %s | %d | %.2f | %s |\n' "$label" "$n" "$t" "$ratio"
        prev=$t
    done
done
