#!/usr/bin/env bash
# scripts/accelsim-check.sh ACCELSIM_DIR [WARPSCOPE_BIN]: runs the same traces
# through Accel-Sim's trace-driven simulator and through warpscope's replay
# with a matching cache geometry, and prints one Markdown table row per trace
# (docs/accelsim.md, "Checking against Accel-Sim").
#
# ACCELSIM_DIR is an Accel-Sim framework checkout whose gpu-simulator has been
# built (gpu-simulator/bin/release/accel-sim.out) with its GPGPU-Sim in
# gpu-simulator/gpgpu-sim.  Nothing of Accel-Sim is kept in this repository:
# the tested Volta config is read from ACCELSIM_DIR at run time and only
# warpscope's overrides are written, to a temporary file given as a later
# -config (GPGPU-Sim's option parser applies options in order, so the later
# file wins).
#
# Options (before ACCELSIM_DIR):
#   --only LIST   comma-separated subset of: vectoradd,matrixmul,gemm,atax,bfs,hotspot
#   --keep DIR    keep Accel-Sim's raw output, the overrides and warpscope's replay
#                 JSON of every trace in DIR/NAME/
# Environment: ACCELSIM_TIMEOUT (seconds per Accel-Sim run, default 3600),
#   ACCELSIM_CONFIG (tested config name, default SM7_QV100).
set -euo pipefail

die() { echo "accelsim-check: $*" >&2; exit 2; }
note() { echo "accelsim-check: $*" >&2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
only="vectoradd,matrixmul,gemm,atax,bfs,hotspot"
keep=""
while [ $# -gt 0 ]; do
    case "$1" in
    --only) [ $# -ge 2 ] || die "--only needs a list"; only=$2; shift 2 ;;
    --keep) [ $# -ge 2 ] || die "--keep needs a directory"; keep=$2; shift 2 ;;
    -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) break ;;
    esac
done
if [ $# -lt 1 ] || [ $# -gt 2 ]; then die "usage: scripts/accelsim-check.sh [--only LIST] [--keep DIR] ACCELSIM_DIR [WARPSCOPE_BIN]"; fi
asdir=$(cd "$1" 2>/dev/null && pwd) || die "ACCELSIM_DIR $1: no such directory"
ws=${2:-$repo/build/rel/warpscope}
[ -x "$ws" ] || die "warpscope binary $ws not found or not executable (make build/rel/warpscope)"
command -v jq >/dev/null || die "jq not installed"
timeout_s=${ACCELSIM_TIMEOUT:-3600}
cfgname=${ACCELSIM_CONFIG:-SM7_QV100}

sim=$asdir/gpu-simulator/bin/release/accel-sim.out
[ -x "$sim" ] || die "$sim not found: build Accel-Sim's gpu-simulator in release mode first"
gpgpusim_cfg=$asdir/gpu-simulator/gpgpu-sim/configs/tested-cfgs/$cfgname/gpgpusim.config
trace_cfg=$asdir/gpu-simulator/configs/tested-cfgs/$cfgname/trace.config
[ -f "$gpgpusim_cfg" ] || die "$gpgpusim_cfg not found"
[ -f "$trace_cfg" ] || die "$trace_cfg not found"
# accel-sim.out links GPGPU-Sim's own libcudart.so (lib/gcc-*/cuda-*/release).
libdir=$(find "$asdir/gpu-simulator/gpgpu-sim/lib" -path '*/release/libcudart.so' -printf '%h\n' 2>/dev/null | head -1)
[ -n "$libdir" ] || die "GPGPU-Sim's libcudart.so not found under $asdir/gpu-simulator/gpgpu-sim/lib (is GPGPU-Sim built?)"
mirror=$repo/scripts/accelsim-mirror.json
[ -f "$mirror" ] || die "$mirror not found"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/accelsim-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ -n "$keep" ]; then mkdir -p "$keep" || die "cannot create $keep"; keep=$(cd "$keep" && pwd); fi

# warpscope's geometry (scripts/accelsim-mirror.json) in GPGPU-Sim's options.
# L1: 64 sets x 128 B x 4 ways, 32 B sectors, LRU, linear index;
#   write-through with write-allocate and lazy fetch-on-read (warpscope's
#   `allocate` write policy), as the tested config has it.  Not `L`
#   (local write-back, global write-through): GPGPU-Sim's lazy fetch-on-read
#   write miss writes through only under `T`, so with `L` global stores stay
#   in L1 as modified lines; MSHRs as in the tested config.  The adaptive L1/shared split is off, so the L1
#   stays 32 KB.
# L2: 48 memory channels x 1 sub-partition = 48 slices.  dramid@7 with a
#   channel count that is not a power of two makes GPGPU-Sim take the channel
#   as (address >> 7) mod 48 = line mod 48; the L2 set index is taken from the
#   partition address ((line div 48) within the slice), linear, 64 sets x 16
#   ways x 128 B = 96 KB a slice, 32 B sectors, write-back.  No partition hash.
# No L2 fill from the trace's memcpys; L1 invalidated between kernels, L2 kept.
cat >"$tmp/warpscope-overrides.config" <<'EOF'
-gpgpu_n_clusters 80
-gpgpu_n_cores_per_cluster 1
-gpgpu_n_mem 48
-gpgpu_n_sub_partition_per_mchannel 1
-gpgpu_memory_partition_indexing 0
-gpgpu_mem_addr_mapping dramid@7;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS
-gpgpu_adaptive_cache_config 0
-gpgpu_cache:dl1 S:64:128:4,L:T:m:L:L,A:512:8,16:0,32
-gpgpu_gmem_skip_L1D 0
-gpgpu_cache:dl2 S:64:128:16,L:B:m:L:L,A:192:4,32:0,32
-gpgpu_cache:dl2_texture_only 0
-gpgpu_perf_sim_memcpy 0
-gpgpu_flush_l1_cache 1
-gpgpu_flush_l2_cache 0
-gpgpu_scheduler gto
-gpgpu_memlatency_stat 14
EOF

# Accel-Sim's counters, from the last (cumulative) print of a run's stdout:
#   l1_acc l1_hit l1_pend l2_acc l2_hit l2_pend dram_rd
# L1 over load requests (GLOBAL_ACC_R + LOCAL_ACC_R), as warpscope's L1
# figures are; L2 over every access type (reads, writes, atomics, L1
# write-backs), as warpscope's L2 figures are.  Both count 32 B sector
# requests; l1_pend = HIT_RESERVED (a sector whose fill is on its way);
# dram_rd counts 32 B DRAM atoms read (docs/accelsim.md).
accelsim_counters() {
    awk '
        function grab(line, name,   v) { v = line; sub(/.*= */, "", v); last[name] = v + 0 }
        /^\tTotal_core_cache_stats_breakdown\[(GLOBAL|LOCAL)_ACC_R\]\[/ {
            split($0, p, /[][]/); l1[p[4]] = 0; grab($0, "L1|" p[2] "|" p[4]) }
        /^\tL2_cache_stats_breakdown\[[A-Z0-9_]+\]\[/ {
            split($0, p, /[][]/); types[p[2]] = 1; grab($0, "L2|" p[2] "|" p[4]) }
        /^total dram reads = / { grab($0, "dram") }
        function r1(st) { return last["L1|GLOBAL_ACC_R|" st] + last["L1|LOCAL_ACC_R|" st] }
        function all2(st,   t, n) { n = 0; for (t in types) n += last["L2|" t "|" st]; return n }
        END {
            printf "%d %d %d %d %d %d %d\n", r1("TOTAL_ACCESS"), r1("HIT"), r1("HIT_RESERVED"),
                all2("TOTAL_ACCESS"), all2("HIT"), all2("HIT_RESERVED"), last["dram"]
        }' "$1"
}

# warpscope's figures for the same columns, from `warpscope replay -o` JSON
# (report-schema.md, REPLAY's `sectors`): l1_acc l1_hit l2_acc l2_hit dram_rd.
warpscope_figures() {
    jq -r '.summary | [.l1.sectors.requests, .l1.sectors.hits, .l2.sectors.requests,
                       .l2.sectors.hits, ((.traffic.l2_to_dram_read_bytes / 32) | floor)]
                    | map(tostring) | join(" ")' "$1"
}

# Runs Accel-Sim on DIR/kernelslist.g into OUT; prints nothing, returns the
# simulator's status (124: timed out; 3: ran to its end without the exit line).
run_accelsim() {
    local list=$1 out=$2 work=$3 rc=0
    mkdir -p "$work"
    # The braces' 2>/dev/null keeps bash's own "Segmentation fault" job notice
    # off the terminal; the reason is reported from the output instead.
    { (cd "$work" && LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        exec timeout "$timeout_s" "$sim" -trace "$list" -config "$gpgpusim_cfg" -config "$trace_cfg" \
        -config "$tmp/warpscope-overrides.config") >"$out" 2>&1 || rc=$?; } 2>/dev/null
    if [ "$rc" -eq 0 ] && ! grep -q '^GPGPU-Sim: \*\*\* exit detected \*\*\*' "$out"; then rc=3; fi
    return "$rc"
}

# The last line of a failed run that says what went wrong.
failure_reason() {
    local out=$1 rc=$2 why
    why=$(grep -E 'Assertion|ERROR|Error|error|Segmentation|Aborted|terminate called|what\(\)' "$out" | tail -1 | cut -c1-160)
    [ -n "$why" ] || why=$(grep -v '^\s*$' "$out" | tail -1 | cut -c1-160)
    case "$rc" in
    124) echo "timed out after ${timeout_s}s" ;;
    134) echo "aborted: ${why}" ;;
    139) echo "segmentation fault; last output: ${why}" ;;
    *) echo "exit $rc: ${why}" ;;
    esac
}

failed=0
rows=()
IFS=, read -r -a names <<<"$only"
for name in "${names[@]}"; do
    case "$name" in vectoradd | matrixmul | gemm | atax | bfs | hotspot) ;;
    *) die "unknown trace '$name' in --only (vectoradd,matrixmul,gemm,atax,bfs,hotspot)" ;; esac
done
for name in "${names[@]}"; do
    d=$tmp/$name
    mkdir -p "$d"
    case "$name" in
    vectoradd | matrixmul)
        tracedir=$repo/tests/fixtures/accelsim/$name
        [ -f "$tracedir/kernelslist.g" ] || die "fixture $tracedir/kernelslist.g missing"
        "$ws" import accelsim "$tracedir/kernelslist.g" -o "$d/$name.wst" >/dev/null 2>"$d/ws.err" ||
            die "warpscope import of $tracedir failed: $(tail -1 "$d/ws.err")"
        ;;
    gemm | atax | bfs | hotspot)
        "$ws" record --workload "$name" --size small --quiet -o "$d/$name.wst" >/dev/null 2>"$d/ws.err" ||
            die "warpscope record --workload $name failed: $(tail -1 "$d/ws.err")"
        "$ws" export accelsim "$d/$name.wst" -o "$d/export" >/dev/null 2>"$d/ws.err" ||
            die "warpscope export accelsim of $name failed: $(tail -1 "$d/ws.err")"
        tracedir=$d/export
        ;;
    esac
    "$ws" replay "$d/$name.wst" --gpu "$mirror" --cache-op ignore --quiet -o "$d/replay.json" \
        >/dev/null 2>"$d/ws.err" || die "warpscope replay of $name failed: $(tail -1 "$d/ws.err")"
    wsf=$(warpscope_figures "$d/replay.json")

    note "$name: running Accel-Sim on $tracedir/kernelslist.g"
    start=$SECONDS
    status=ok
    rc=0
    run_accelsim "$tracedir/kernelslist.g" "$d/accelsim.out" "$d/run" || rc=$?
    if [ "$rc" -ne 0 ]; then
        status="FAILED ($(failure_reason "$d/accelsim.out" "$rc"))"
        note "$name: Accel-Sim $status"
        failed=$((failed + 1))
        asf="- - - - - - -"
    else
        asf=$(accelsim_counters "$d/accelsim.out")
        note "$name: done in $((SECONDS - start))s"
    fi
    if [ -n "$keep" ]; then
        mkdir -p "$keep/$name"
        cp "$d/accelsim.out" "$d/replay.json" "$keep/$name/"
        cp "$tmp/warpscope-overrides.config" "$keep/$name/"
    fi
    status=${status//|//}
    status=${status//\`/\'}
    read -r a_l1 a_l1h a_l1p a_l2 a_l2h a_l2p a_dr <<<"$asf"
    read -r w_l1 w_l1h w_l2 w_l2h w_dr <<<"$wsf"
    rows+=("| $name | $a_l1 / $w_l1 | $a_l1h + $a_l1p / $w_l1h | $a_l2 / $w_l2 | $a_l2h + $a_l2p / $w_l2h | $a_dr / $w_dr | $status |")
done

echo "| trace | L1 sectors AS / WS | L1 sector hits AS (hit + pending) / WS | L2 sectors AS / WS | L2 sector hits AS (hit + pending) / WS | DRAM read sectors AS / WS | Accel-Sim |"
echo "|---|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
echo
echo "AS: Accel-Sim; WS: warpscope replay --gpu scripts/accelsim-mirror.json --cache-op ignore (functional: no pending hits)."
echo "L1: 32 B sectors of load requests; L2: 32 B sectors of every access; summed over kernels."
[ "$failed" -eq 0 ] || { note "$failed of ${#names[@]} Accel-Sim runs failed"; exit 1; }
