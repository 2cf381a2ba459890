#!/bin/sh
# hit_rates.sh REPORT.json: L1 hit rates and reuse from a warpscope report,
# with jq (docs/report-schema.md).  REPORT.json is what `warpscope profile`
# or `warpscope analyze -o` wrote.  Each step is one jq line to copy.
set -eu
report=${1:?usage: hit_rates.sh REPORT.json}
command -v jq >/dev/null || { echo "hit_rates.sh: needs jq" >&2; exit 1; }

echo "== whole trace: L1 and L2 of the replay"
jq -r '.summary.replay // empty
       | "L1 \(.l1_policy): \(.l1.hits) hits of \(.l1.requests) requests, hit rate \(.l1.hit_rate)",
         "L2 \(.l2_policy): \(.l2.hits) hits of \(.l2.requests) requests, hit rate \(.l2.hit_rate)"' "$report"

echo "== per kernel launch: kernel_id, kernel, L1 hit rate"
jq -r '.kernels[] | [.index, .name, (.metrics.replay.l1.hit_rate // "n/a")] | @tsv' "$report"

echo "== load PCs with the most L1 misses: kernel_id, kernel, pc_offset, sass, misses, hit rate"
# pc_offset in hex, as the CSV tables write it
jq -r 'def hex: [recurse(if . >= 16 then (. / 16 | floor) else empty end) | . % 16]
                | reverse | map("0123456789abcdef"[.:. + 1]) | "0x" + join("");
       [.kernels[] as $k | $k.pcs[] | select((.replay.l1_requests // 0) > 0)
        | [$k.index, $k.name, (.offset | hex), .sass, .replay.l1_misses, .replay.hit_rate]]
       | sort_by(-.[4]) | .[:10][] | @tsv' "$report"

echo "== per-SM reuse distance of L1 lines: low, high, requests (non-empty buckets)"
jq -r '.reuse_buckets as $b | .summary.reuse.line.per_sm.log2[]
       | [$b.log2_low[.[0]], $b.log2_high[.[0]], .[1]] | @tsv' "$report"

echo "== policies compared (profile only): policy, L1 hit rate, L1->L2 bytes"
jq -r '.compare.policies[]? | [.name, .l1.hit_rate, .traffic.l1_to_l2_bytes] | @tsv' "$report"
