#!/usr/bin/env bash
# bench/format-vs-xz.sh [BIN] [WORKLOAD...]: bytes per record of each
# embedded workload's .wst trace at --size "${SIZE:-medium}" beside the same
# trace exported as Accel-Sim text (`warpscope export accelsim`, the
# kernelslist and every kernel's file concatenated) and piped through
# `xz -6 -T1` and `zstd` at its default level 3 (one thread each).  Prints
# one Markdown row per workload as each ends.  The exported text of a large
# trace runs to GBs, and xz takes about 10 s per 100 MB of it on one core.
set -euo pipefail
bin=${1:-build/rel/warpscope}
shift || true
[ -x "$bin" ] || { echo "format-vs-xz: $bin: not an executable" >&2; exit 1; }
for tool in xz zstd; do
    command -v $tool >/dev/null || { echo "format-vs-xz: $tool is needed" >&2; exit 1; }
done
[ $# -gt 0 ] || set -- $("$bin" workloads --names)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
size=${SIZE:-medium}
echo "| workload ($size) | records | .wst (B/record) | text (B/record) | text \| xz -6 | text \| zstd | .wst / xz |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for w in "$@"; do
    "$bin" record --workload "$w" --size "$size" -o "$dir/t.wst" --quiet
    records=$("$bin" info "$dir/t.wst" | awk '$1 == "records" {print $2}')
    wst=$(stat -c %s "$dir/t.wst")
    "$bin" export accelsim "$dir/t.wst" -o "$dir/text" >/dev/null
    text() { cat "$dir/text/kernelslist.g"; ls "$dir/text" | grep -v kernelslist | sort -V |
             sed "s|^|$dir/text/|" | xargs cat; }
    raw=$(text | wc -c)
    xz=$(text | xz -6 -T1 | wc -c)
    zst=$(text | zstd -3 -T1 -q -c | wc -c)
    awk -v w="$w" -v n="$records" -v a="$wst" -v t="$raw" -v x="$xz" -v z="$zst" 'BEGIN {
        printf "| %s | %d | %.3f | %.1f | %.3f | %.3f | %.2f |\n", w, n, a / n, t / n, x / n, z / n, a / x }'
    rm -rf "$dir/text" "$dir/t.wst"
done
