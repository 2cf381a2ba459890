#!/usr/bin/env bash
# bench/decode-vs-zstd.sh [BIN_DIR] [WORKLOAD...]: decoding each embedded
# workload's .wst trace at --size "${SIZE:-medium}" against the floor, zstd
# alone decompressing the same frames in-process (`bench_wst --read`): to
# whole records (wst_cursor_next_batch) and to the scheduler's packed
# records (wst_cursor_next_packed).  One core; one Markdown row per trace.
#   bench/decode-vs-zstd.sh build/rel              # all 23 workloads
#   SIZE=large bench/decode-vs-zstd.sh build/rel gemm
set -euo pipefail
bin_dir=${1:-build/rel}
shift || true
for b in "$bin_dir/warpscope" "$bin_dir/bench/bench_wst"; do
    [ -x "$b" ] || { echo "decode-vs-zstd: $b: not an executable (make $b)" >&2; exit 1; }
done
[ $# -gt 0 ] || set -- $("$bin_dir/warpscope" workloads --names)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for w in "$@"; do
    "$bin_dir/warpscope" record --workload "$w" --size "${SIZE:-medium}" -o "$dir/$w.wst" --quiet
done
echo "## Decoding against the zstd floor (\`bench/decode-vs-zstd.sh\`)"
echo
echo "Each workload's trace at --size ${SIZE:-medium}, decoded whole on one core, best of 5:"
echo "to records (\`wst_cursor_next_batch\`) and to the scheduler's packed records"
echo "(\`wst_cursor_next_packed\`), each as a multiple of the floor: zstd alone"
echo "decompressing the same frames in-process.  Raw bytes are what zstd writes."
echo
bench=$(realpath "$bin_dir/bench/bench_wst")
(cd "$dir" && "$bench" --read $(printf "%s.wst " "$@"))
