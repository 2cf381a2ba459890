#!/usr/bin/env bash
# scripts/gpu-validate.sh --out FILE.md [options]: the GPU half of
# warpscope's validation (docs/validation.md, "Against a GPU"), one command
# on a machine with an NVIDIA GPU.  For every workload at each size it:
#   1. runs the workload's CUDA program natively, timed;
#   2. records it under the NVBit tool (warpscope record -o gpu.wst -- ...),
#      timed: the tool's overhead is this over the native time;
#   3. records the emulator's trace of the same workload, size and seed, and
#      compares the two with `warpscope diff --pcs paired` (same / differs /
#      error; the emulator and the GPU number their PCs apart);
#   4. with Nsight Compute (ncu): measures the L1 sector hit rate of global
#      loads and the L2 sector hit rate of the SMs' traffic on the GPU, and
#      replays the GPU trace through warpscope on the --gpu preset with the
#      recorded schedule for the same two figures.
# It writes a Markdown table with the mean absolute errors to FILE.md and
# prints a one-line summary.  Exit 1 if a step failed for some workload
# (a difference found by diff is a result, not a failure), 2 on bad usage
# or a missing prerequisite.
#
# Needs: nvidia-smi and a GPU; build/rel/warpscope with the diff command;
# build/rel/warpscope-nvbit.so (make nvbit NVBIT_PATH=...); the CUDA
# programs build/cuda/NAME (make cuda-workloads); jq.  ncu is optional.
#
# Options:
#   --out FILE      the table (required unless --dry-run)
#   --sizes LIST    comma-separated sizes (default small,medium)
#   --only LIST     comma-separated workloads (default: all of them)
#   --seed N        the seed of every run (default 1)
#   --gpu NAME      warpscope's preset or config for the replay (default hopper)
#   --keep DIR      keep traces, replays, ncu reports and logs in DIR/NAME-SIZE/
#   --dry-run       print the commands instead of running them; checks only
#                   that warpscope runs
set -euo pipefail

die() { echo "gpu-validate: $*" >&2; exit 2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
ws=$repo/build/rel/warpscope
tool=${WARPSCOPE_NVBIT_TOOL:-$repo/build/rel/warpscope-nvbit.so}
programs=$repo/build/cuda
out="" sizes=small,medium only="" seed=1 gpu=hopper keep="" dry=0
need_value() { [ $# -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
    case "$1" in
    --out) need_value "$@"; out=$2; shift 2 ;;
    --sizes) need_value "$@"; sizes=$2; shift 2 ;;
    --only) need_value "$@"; only=$2; shift 2 ;;
    --seed) need_value "$@"; seed=$2; shift 2 ;;
    --gpu) need_value "$@"; gpu=$2; shift 2 ;;
    --keep) need_value "$@"; keep=$2; shift 2 ;;
    --dry-run) dry=1; shift ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[ -n "${EPOCHREALTIME:-}" ] || die "needs bash 5 or later (EPOCHREALTIME)"
[ -n "$out" ] || [ $dry -eq 1 ] || die "--out FILE.md is required"
[[ $seed =~ ^[0-9]+$ ]] || die "--seed: expected a whole number, got '$seed'"

# ---- prerequisites: each missing one stops here, in one line -------------
[ -x "$ws" ] || die "$ws not built (make)"
all_workloads=$("$ws" workloads --names) || die "$ws workloads --names failed"
workloads=${only//,/ }
workloads=${workloads:-$all_workloads}
for w in $workloads; do
    grep -qx -- "$w" <<<"$all_workloads" || die "unknown workload '$w' (warpscope workloads --names)"
done
for s in ${sizes//,/ }; do
    case $s in small | medium | large) ;; *) die "unknown size '$s' (small, medium, large)" ;; esac
done
if [ $dry -eq 0 ]; then
    if ! { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }; then
        die "no GPU: nvidia-smi is missing or fails"
    fi
    [ -r "$tool" ] || die "no NVBit tool at $tool (make nvbit NVBIT_PATH=..., docs/nvbit.md)"
    "$ws" diff --help >/dev/null 2>&1 || die "$ws has no diff command"
    missing=""
    for w in $workloads; do [ -x "$programs/$w" ] || missing="$missing $w"; done
    [ -z "$missing" ] || die "no CUDA programs for:$missing (make cuda-workloads)"
    command -v jq >/dev/null || die "jq not installed"
    [ -w "$(dirname "$out")" ] || die "$out: cannot write in $(dirname "$out")"
fi
ncu=$(command -v ncu || true)
[ $dry -eq 0 ] || ncu=${ncu:-ncu}
export WARPSCOPE_NVBIT_TOOL=$tool

if [ -n "$keep" ]; then
    mkdir -p "$keep" || die "cannot create $keep"
    work=$(cd "$keep" && pwd)
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-validate.XXXXXX")
fi
table_tmp=""
trap '[ -n "$keep" ] || rm -rf "$work"; [ -z "$table_tmp" ] || rm -f "$table_tmp"' EXIT

# ---- steps ----------------------------------------------------------------

# Runs a command, or prints it under --dry-run (to the script's stdout,
# fd 3, whatever the caller redirects).
exec 3>&1
run() {
    if [ $dry -eq 1 ]; then
        printf '%q ' "$@" >&3
        echo >&3
    else
        "$@"
    fi
}

# Wall-clock milliseconds of a command, its output to LOG; "error" if it fails.
timed_ms() {
    local log=$1; shift
    local start=$EPOCHREALTIME
    if run "$@" >"$log" 2>&1; then
        awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", (b - a) * 1000 }'
    else
        echo error
    fi
}

# The GPU's sector counts over every kernel of a run, from ncu's raw CSV:
# "l1_hits l1_sectors l2_hits l2_sectors".  ncu flushes L1 and L2 before
# each kernel (--cache-control all), so the replay flushes L2 between
# kernels too (--l2-cold); warpscope's L1 starts every kernel empty anyway.
# L1: global loads; L2: every sector the SMs (L1/TEX) send, reads and writes.
ncu_metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex.sum
hw_counts() {
    local dir=$1; shift
    run "$ncu" --csv --page raw --print-units base --cache-control all --metrics "$ncu_metrics" \
        --log-file "$dir/ncu.csv" "$@" >"$dir/ncu.log" 2>&1 || return 1
    [ $dry -eq 1 ] && return 0
    awk -v want="$ncu_metrics" '
        BEGIN { n = split(want, names, ",") }
        /^"/ {
            line = substr($0, 2, length($0) - 2)
            k = split(line, f, /","/)
            if (!header) { for (i = 1; i <= k; i++) col[f[i]] = i; header = 1; next }
            if (f[col[names[1]]] !~ /^[0-9.,]+$/) next   # the units row
            for (j = 1; j <= n; j++) { v = f[col[names[j]]]; gsub(/,/, "", v); sum[j] += v }
            rows++
        }
        END {
            if (!rows) exit 1
            for (j = 1; j <= n; j++) if (!(names[j] in col)) exit 1
            printf "%d %d %d %d\n", sum[1], sum[2], sum[3], sum[4]
        }' "$dir/ncu.csv"
}

# warpscope's sector counts from its replay of the GPU trace, the same four.
ws_counts() {
    local trace=$1 json=$2
    run "$ws" replay "$trace" --gpu "$gpu" --set l2.sector=32 --schedule recorded --l2-cold \
        --quiet -o "$json" >/dev/null 2>"$json.log" || return 1
    [ $dry -eq 1 ] && return 0
    jq -r '.summary | [.l1.sectors.hits, .l1.sectors.requests, .l2.sectors.hits, .l2.sectors.requests]
           | map(tostring) | join(" ")' "$json"
}

# "HITS SECTORS" as a percentage, or n/a without sectors.
pct() { awk -v h="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.1f", 100 * h / n; else print "n/a" }'; }
# |a - b| in percentage points, or n/a.
abs_err() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/) { d = a - b; printf "%.1f", d < 0 ? -d : d } else print "n/a" }'; }

# One workload at one size: prints its table row; returns 1 if a step failed.
validate() {
    local w=$1 size=$2 dir=$work/$1-$2 failed=0
    mkdir -p "$dir"
    local prog=("$programs/$w" --size "$size" --seed "$seed")
    local native nvbit over diff_result l1_hw=n/a l1_ws=n/a l2_hw=n/a l2_ws=n/a
    native=$(timed_ms "$dir/native.log" "${prog[@]}")
    nvbit=$(timed_ms "$dir/nvbit.log" "$ws" record -o "$dir/gpu.wst" -- "${prog[@]}")
    [ "$native" != error ] && [ "$nvbit" != error ] || failed=1
    over=$(awk -v a="$native" -v b="$nvbit" 'BEGIN { if (a > 0 && b > 0) printf "%.1f", b / a; else print "n/a" }')

    run "$ws" record --workload "$w" --size "$size" --seed "$seed" --quiet -o "$dir/emu.wst" \
        >"$dir/emu.log" 2>&1 || failed=1
    local rc=0
    run "$ws" diff --pcs paired "$dir/emu.wst" "$dir/gpu.wst" >"$dir/diff.txt" 2>&1 || rc=$?
    case $rc in 0) diff_result=same ;; 1) diff_result=differs ;; *) diff_result=error; failed=1 ;; esac

    local counts l1_hits l1_sectors l2_hits l2_sectors
    if [ -n "$ncu" ]; then
        if counts=$(hw_counts "$dir" "${prog[@]}") && [ -n "$counts" ]; then
            read -r l1_hits l1_sectors l2_hits l2_sectors <<<"$counts"
            l1_hw=$(pct "$l1_hits" "$l1_sectors") l2_hw=$(pct "$l2_hits" "$l2_sectors")
        elif [ $dry -eq 0 ]; then
            l1_hw=error l2_hw=error failed=1
        fi
    fi
    if counts=$(ws_counts "$dir/gpu.wst" "$dir/replay.json") && [ -n "$counts" ]; then
        read -r l1_hits l1_sectors l2_hits l2_sectors <<<"$counts"
        l1_ws=$(pct "$l1_hits" "$l1_sectors") l2_ws=$(pct "$l2_hits" "$l2_sectors")
    elif [ $dry -eq 0 ]; then
        l1_ws=error l2_ws=error failed=1
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$w" "$size" \
        "$diff_result" "$native" "$nvbit" "$over" "$l1_hw" "$l1_ws" "$(abs_err "$l1_hw" "$l1_ws")" \
        "$l2_hw" "$l2_ws" "$(abs_err "$l2_hw" "$l2_ws")"
    return $failed
}

# The closing lines from the rows: runs, diff results, mean absolute errors
# and the median overhead.
summarize() {
    awk -F' *[|] *' '
        function add(e, k) { if (e ~ /^[0-9.]+$/) { sum[k] += e; n[k]++ } }
        function mean(k) { return n[k] ? sprintf("%.1f pp over %d runs", sum[k] / n[k], n[k]) : "n/a" }
        $2 != "" {
            runs++; result[$4]++
            add($10, "l1"); add($13, "l2")
            if ($7 ~ /^[0-9.]+$/) over[++no] = $7 + 0
        }
        END {
            for (i = 2; i <= no; i++) for (j = i; j > 1 && over[j - 1] > over[j]; j--) { t = over[j]; over[j] = over[j - 1]; over[j - 1] = t }
            median = no ? sprintf("%.1fx", no % 2 ? over[(no + 1) / 2] : (over[no / 2] + over[no / 2 + 1]) / 2) : "n/a"
            printf "%d runs: diff %d same, %d differ, %d failed; mean absolute error L1 %s, L2 %s; median NVBit overhead %s\n",
                runs, result["same"], result["differs"], result["error"], mean("l1"), mean("l2"), median
        }'
}

# ---- the runs ---------------------------------------------------------------
[ $dry -eq 0 ] || echo "export WARPSCOPE_NVBIT_TOOL=$(printf %q "$tool")"
rows=$work/rows.md
: >"$rows"
failures=0
for size in ${sizes//,/ }; do
    for w in $workloads; do
        validate "$w" "$size" >>"$rows" || failures=$((failures + 1))
    done
done
if [ $dry -eq 1 ]; then
    exit 0
fi
summary=$(summarize <"$rows")
[ $failures -eq 0 ] || summary="$summary; $failures runs with a failed step${keep:+ (logs in $keep)}"

table_tmp=$(mktemp "$(dirname "$out")/.gpu-validate.XXXXXX") || die "cannot write beside $out"
{
    echo "# warpscope on a GPU: NVBit traces against the emulator, hit rates against Nsight Compute"
    echo
    echo "Written by scripts/gpu-validate.sh on $(date -u +%Y-%m-%d): $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)," \
        "$("$ws" --version 2>/dev/null | head -1), seed $seed, replay preset \`$gpu\` (L2 counted in 32 B sectors, recorded schedule, L2 cold at each kernel as under ncu)."
    if [ -n "$ncu" ]; then
        echo "Nsight Compute: $("$ncu" --version | tail -1)."
    else
        echo "Nsight Compute not installed: no hit rates from the GPU."
    fi
    echo
    echo "diff: \`warpscope diff\` of the emulator's trace and the GPU's (same / differs / error)."
    echo "Times are wall clock, whole program; overhead = NVBit ÷ native."
    echo "Hit rates in %, per 32 B sector: L1 over global loads, L2 over every sector the SMs send; errors in percentage points."
    echo
    echo "| workload | size | diff | native ms | NVBit ms | overhead × | L1 GPU | L1 warpscope | L1 abs. error | L2 GPU | L2 warpscope | L2 abs. error |"
    echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    cat "$rows"
    echo
    echo "$summary"
} >"$table_tmp"
mv "$table_tmp" "$out"
table_tmp=""
echo "gpu-validate: $summary; table in $out"
[ $failures -eq 0 ]
