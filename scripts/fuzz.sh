#!/usr/bin/env bash
# scripts/fuzz.sh BINARY SECONDS: fuzzes the readers of user files
# (tests/fuzz/fuzz_inputs.c) from a seed corpus of the real Accel-Sim
# traces, a small .wst, the GPU presets, lines of config overrides and
# edits of a real report.
# Findings land in build/fuzz/findings/.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1 seconds=${2:-60}
out=build/fuzz
mkdir -p "$out/corpus" "$out/scratch" "$out/findings"
seed() { # selector byte, file[, bytes kept: 8000]
    local name
    name=$(printf '%s' "$2" | tr '/' '_')
    { printf "\\x$1"; head -c "${3:-8000}" "$2"; } > "$out/corpus/seed-$1-$name"
}
for t in tests/fixtures/accelsim/*/kernel-*.traceg; do
    [ -f "$t" ] && seed 00 "$t"
done
# A small real trace (713 bytes); a recorded one would pass the input limit.
build/rel/warpscope import accelsim tests/fixtures/accelsim/vectoradd -o "$out/small.wst" >/dev/null
seed 01 "$out/small.wst"
# A trace in format version 1, which the reader still reads.
seed 01 tests/fixtures/wst-v1/lud-small.wst 19000
# The report the edits start from, and one edit to begin with.
build/rel/warpscope profile "$out/small.wst" --gpu volta -o "$out/report" --quiet >/dev/null
printf '\x03\x10\x00\x01' > "$out/corpus/seed-03-edit"
printf '\x04\x05max_warps_per_sm=64\n\x0132K:8:128:32\n\x00 30\n\x05l1.index=fermi-hash\n\x03srrip\n' \
    > "$out/corpus/seed-04-overrides"
for c in configs/*.json; do
    seed 02 "$c"
done
FUZZ_SCRATCH="$out/scratch" FUZZ_REPORT="$out/report/report.json" "$bin" "$out/corpus" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=20000 -artifact_prefix="$out/findings/" -print_final_stats=1
