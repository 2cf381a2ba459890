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
# It runs in phases: first steps 1 and 2 of every run, alone on the machine
# so that their times are clean; then step 4's ncu runs, fewest kernels
# first, while step 3 and the replays run beside them (--jobs at a time).
# Every step has a time limit (--timeout), and nothing runs past --deadline:
# a step with no time left is `skipped`, one its limit killed `timeout`.
# After two NVBit runs (or two ncu runs) killed by their limit, the rest of
# that kind are skipped: the tool hangs there.
# It writes a Markdown table with the mean absolute errors to FILE.md,
# rewritten after each phase and each ncu run (so a run stopped midway
# leaves the table so far; cells not reached yet say `pending`), and prints
# a one-line summary.  Exit 1 if a step failed or timed out for some
# workload (a difference found by diff is a result, and a skipped step no
# failure), 2 on bad usage or a missing prerequisite.
#
# Needs: nvidia-smi and a GPU; build/rel/warpscope with the diff command;
# build/rel/warpscope-nvbit.so (make nvbit NVBIT_PATH=...); the CUDA
# programs build/cuda/NAME (make cuda-workloads); jq or python3.  ncu is
# optional.
#
# Options:
#   --out FILE      the table (required unless --dry-run)
#   --sizes LIST    comma-separated sizes (default small,medium)
#   --only LIST     comma-separated workloads (default: all of them)
#   --seed N        the seed of every run (default 1)
#   --gpu NAME      warpscope's preset or config for the replay (default hopper)
#   --keep DIR      keep traces, replays, ncu reports and logs in DIR/NAME-SIZE/
#                   (and DIR/phases.txt, the time of every step)
#   --timeout STEP=SECONDS  one step's time limit, 0 for none; steps and
#                   defaults: native=30 nvbit=75 ncu=120 emu=60 diff=60
#                   replay=180 (repeat the option for several)
#   --deadline T    end by T, in seconds since the epoch (date +%s) or +S
#                   from now: no step starts or runs past it
#   --jobs N        emulator, diff and replay steps at a time (default: cores)
#   --no-nvbit      no NVBit runs (no GPU traces: diff and replay are n/a)
#   --no-ncu        no Nsight Compute, even where it is installed
#   --after-gpu-runs CMD  run `bash -c CMD` once every native and NVBit run
#                   is done, before ncu (e.g. to copy the traces away)
#   --dry-run       print the commands instead of running them; checks only
#                   that warpscope runs
# ncu runs with --clock-control none (the clocks as the GPU sets them: a
# virtual machine may not let ncu lock them), plus any options in
# $NCU_EXTRA.
set -euo pipefail

die() { echo "gpu-validate: $*" >&2; exit 2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
ws=$repo/build/rel/warpscope
tool=${WARPSCOPE_NVBIT_TOOL:-$repo/build/rel/warpscope-nvbit.so}
programs=$repo/build/cuda
out="" sizes=small,medium only="" seed=1 gpu=hopper keep="" dry=0
deadline="" jobs=$(nproc 2>/dev/null || echo 2) use_nvbit=1 use_ncu=1 after_gpu_runs=""
declare -A step_limit=([native]=30 [nvbit]=75 [ncu]=120 [emu]=60 [diff]=60 [replay]=180)
need_value() { [ $# -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
    case "$1" in
    --out) need_value "$@"; out=$2; shift 2 ;;
    --sizes) need_value "$@"; sizes=$2; shift 2 ;;
    --only) need_value "$@"; only=$2; shift 2 ;;
    --seed) need_value "$@"; seed=$2; shift 2 ;;
    --gpu) need_value "$@"; gpu=$2; shift 2 ;;
    --keep) need_value "$@"; keep=$2; shift 2 ;;
    --timeout)
        need_value "$@"
        if ! [[ $2 =~ ^([a-z]+)=([0-9]+)$ ]] || [ -z "${step_limit[${BASH_REMATCH[1]}]:-}" ]; then
            die "--timeout: expected STEP=SECONDS with STEP one of native, nvbit, ncu, emu, diff, replay; got '$2'"
        fi
        step_limit[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
        shift 2 ;;
    --deadline) need_value "$@"; deadline=$2; shift 2 ;;
    --jobs) need_value "$@"; jobs=$2; shift 2 ;;
    --no-nvbit) use_nvbit=0; shift ;;
    --no-ncu) use_ncu=0; shift ;;
    --after-gpu-runs) need_value "$@"; after_gpu_runs=$2; shift 2 ;;
    --dry-run) dry=1; shift ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[ -n "${EPOCHREALTIME:-}" ] || die "needs bash 5 or later (EPOCHREALTIME)"
[ -n "$out" ] || [ $dry -eq 1 ] || die "--out FILE.md is required"
[[ $seed =~ ^[0-9]+$ ]] || die "--seed: expected a whole number, got '$seed'"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs: expected a positive number, got '$jobs'"
case $deadline in
"") deadline=0 ;;
+*) [[ $deadline =~ ^\+[0-9]+$ ]] || die "--deadline: expected epoch seconds or +SECONDS, got '$deadline'"
    deadline=$(($(date +%s) + ${deadline#+})) ;;
*) [[ $deadline =~ ^[0-9]+$ ]] || die "--deadline: expected epoch seconds or +SECONDS, got '$deadline'" ;;
esac

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
json=$(command -v jq >/dev/null && echo jq || { command -v python3 >/dev/null && echo python3; } || true)
if [ $dry -eq 0 ]; then
    if ! { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }; then
        die "no GPU: nvidia-smi is missing or fails"
    fi
    [ $use_nvbit -eq 0 ] || [ -r "$tool" ] || die "no NVBit tool at $tool (make nvbit NVBIT_PATH=..., docs/nvbit.md)"
    "$ws" diff --help >/dev/null 2>&1 || die "$ws has no diff command"
    missing=""
    for w in $workloads; do [ -x "$programs/$w" ] || missing="$missing $w"; done
    [ -z "$missing" ] || die "no CUDA programs for:$missing (make cuda-workloads)"
    [ -n "$json" ] || die "neither jq nor python3 installed"
    [ -w "$(dirname "$out")" ] || die "$out: cannot write in $(dirname "$out")"
fi
ncu=""
if [ $use_ncu -eq 1 ]; then
    ncu=$(command -v ncu || true)
    [ $dry -eq 0 ] || ncu=${ncu:-ncu}
fi
export WARPSCOPE_NVBIT_TOOL=$tool

if [ -n "$keep" ]; then
    mkdir -p "$keep" || die "cannot create $keep"
    work=$(cd "$keep" && pwd)
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-validate.XXXXXX")
fi
table_tmp="" cpu_pid=""
cleanup() {
    [ -z "$cpu_pid" ] || kill -- "$cpu_pid" 2>/dev/null || true
    [ -n "$keep" ] || rm -rf "$work"
    [ -z "$table_tmp" ] || rm -f "$table_tmp"
}
trap cleanup EXIT

# ---- steps ----------------------------------------------------------------

# Seconds left before the deadline (never below 0); a day without one.
left() {
    [ "$deadline" -gt 0 ] || { echo 86400; return; }
    local l=$((deadline - $(date +%s)))
    echo $((l > 0 ? l : 0))
}
# Step $1's limit: its own, or what is left if that is less; 0 = no time.
limit() {
    local own=${step_limit[$1]} l
    l=$(left)
    [ "$own" -gt 0 ] && [ "$own" -lt "$l" ] && l=$own
    echo "$l"
}

# Runs a command under a time limit (seconds), or prints it under --dry-run
# (to the script's stdout, fd 3, whatever the caller redirects).  Status 124
# (or 137) when the limit killed it; 125 when there was no time to start it.
exec 3>&1
run_for() {
    local secs=$1; shift
    if [ $dry -eq 1 ]; then
        printf '%q ' "$@" >&3
        echo >&3
        return 0
    fi
    [ "$secs" -gt 0 ] || return 125
    timeout -k 5 "$secs" "$@" </dev/null
}

# Wall-clock milliseconds of a command, its output to LOG; "error" if it
# fails, "timeout" if its limit killed it, "skipped" if no time was left.
timed_ms() {
    local log=$1 secs=$2; shift 2
    local start=$EPOCHREALTIME rc=0
    run_for "$secs" "$@" >"$log" 2>&1 || rc=$?
    case $rc in
    0) awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", (b - a) * 1000 }' ;;
    124 | 137) echo timeout ;;
    125) echo skipped ;;
    *) echo error ;;
    esac
}

# The GPU's sector counts over every kernel of a run, from ncu's raw CSV:
# "l1_hits l1_sectors l2_hits l2_sectors".  ncu flushes L1 and L2 before
# each kernel (--cache-control all), so the replay flushes L2 between
# kernels too (--l2-cold); warpscope's L1 starts every kernel empty anyway.
# L1: global loads; L2: every sector the SMs (L1/TEX) send, reads and writes.
ncu_metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex.sum
read -r -a ncu_extra <<<"${NCU_EXTRA:-}"
hw_counts() {
    local dir=$1 secs=$2; shift 2
    run_for "$secs" "$ncu" --csv --page raw --print-units base --cache-control all --clock-control none \
        ${ncu_extra[@]+"${ncu_extra[@]}"} --metrics "$ncu_metrics" \
        --log-file "$dir/ncu.csv" "$@" >"$dir/ncu.log" 2>&1 || return $?
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

# The four sector counts of a replay's JSON, with jq or else python3.
json_counts() {
    if [ "$json" = jq ]; then
        jq -r '.summary | [.l1.sectors.hits, .l1.sectors.requests, .l2.sectors.hits, .l2.sectors.requests]
               | map(tostring) | join(" ")' "$1"
    else
        python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(" ".join(str(s[c]["sectors"][k]) for c, k in (("l1", "hits"), ("l1", "requests"), ("l2", "hits"), ("l2", "requests"))))' "$1"
    fi
}

# warpscope's sector counts from its replay of the GPU trace, the same four.
ws_counts() {
    local trace=$1 out_json=$2 secs=$3
    run_for "$secs" "$ws" replay "$trace" --gpu "$gpu" --set l2.sector=32 --schedule recorded --l2-cold \
        --quiet -o "$out_json" >/dev/null 2>"$out_json.log" || return $?
    [ $dry -eq 1 ] && return 0
    json_counts "$out_json"
}

# "HITS SECTORS" as a percentage, or n/a without sectors.
pct() { awk -v h="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.1f", 100 * h / n; else print "n/a" }'; }
# Two "HITS SECTORS" pairs ("l1_hits l1_sectors l2_hits l2_sectors") as "L1% L2%".
pct2() { echo "$(pct "$1" "$2") $(pct "$3" "$4")"; }
# |a - b| in percentage points, or n/a.
abs_err() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/) { d = a - b; printf "%.1f", d < 0 ? -d : d } else print "n/a" }'; }

# Each run's results are files in its directory, one word or "L1 L2" each:
# native.ms nvbit.ms diff.result hw.rate ws.rate (and hw.counts ws.counts);
# `failed` lists its failed steps.  A file is written whole (renamed into
# place): the table is read while the background steps write.
put() { printf '%s\n' "$2" >"$1.tmp" && mv "$1.tmp" "$1"; }
get() { if [ -s "$1" ]; then cat "$1"; else echo "${2:-pending}"; fi; }
fail_step() { echo "$2" >>"$1/failed"; }
# A rate file from a step's status and counts: the rates, or what stopped it
# ("timeout", "skipped", "error"), the two latter not failures of $dir.
put_rates() {
    local dir=$1 name=$2 step=$3 rc=$4 counts=$5
    if [ "$rc" -eq 0 ] && [ -n "$counts" ]; then
        # shellcheck disable=SC2086 # four numbers
        put "$dir/$name.rate" "$(pct2 $counts)"
        put "$dir/$name.counts" "$counts"
        return 0
    fi
    [ $dry -eq 0 ] || return 0
    case $rc in
    124 | 137) put "$dir/$name.rate" "timeout timeout"; fail_step "$dir" "$step: timeout" ;;
    125) put "$dir/$name.rate" "skipped skipped" ;;
    *) put "$dir/$name.rate" "error error"; fail_step "$dir" "$step: status $rc" ;;
    esac
}

nvbit_timeouts=0 ncu_timeouts=0

# Phase 1, one run: native, then under NVBit, both timed.
gpu_runs() {
    local w=$1 size=$2 dir=$work/$1-$2 t
    mkdir -p "$dir"
    local prog=("$programs/$w" --size "$size" --seed "$seed")
    t=$(timed_ms "$dir/native.log" "$(limit native)" "${prog[@]}")
    put "$dir/native.ms" "$t"
    [[ $t =~ ^([0-9]|skipped) ]] || [ $dry -eq 1 ] || fail_step "$dir" "native: $t"
    if [ $use_nvbit -eq 0 ]; then
        put "$dir/nvbit.ms" "n/a"
    elif [ $nvbit_timeouts -ge 2 ]; then
        put "$dir/nvbit.ms" "skipped"
    else
        t=$(timed_ms "$dir/nvbit.log" "$(limit nvbit)" "$ws" record -o "$dir/gpu.wst" -- "${prog[@]}")
        put "$dir/nvbit.ms" "$t"
        [[ $t =~ ^([0-9]|skipped) ]] || [ $dry -eq 1 ] || fail_step "$dir" "nvbit: $t"
        [ "$t" != timeout ] || nvbit_timeouts=$((nvbit_timeouts + 1))
    fi
}

# Phase 2, one run (CPU only): the emulator's trace, diff, replay.
cpu_steps() {
    local w=$1 size=$2 dir=$work/$1-$2 rc=0 counts
    run_for "$(limit emu)" "$ws" record --workload "$w" --size "$size" --seed "$seed" --quiet -o "$dir/emu.wst" \
        >"$dir/emu.log" 2>&1 || rc=$?
    case $rc in
    0) ;;
    125) put "$dir/diff.result" skipped; put "$dir/ws.rate" "skipped skipped"; return 0 ;;
    *) fail_step "$dir" "emu record: status $rc" ;;
    esac
    if [ ! -s "$dir/gpu.wst" ] && [ $dry -eq 0 ]; then
        put "$dir/diff.result" "n/a"
        put "$dir/ws.rate" "n/a n/a"
        return 0
    fi
    rc=0
    run_for "$(limit diff)" "$ws" diff --pcs paired "$dir/emu.wst" "$dir/gpu.wst" >"$dir/diff.txt" 2>&1 || rc=$?
    case $rc in
    0) put "$dir/diff.result" same ;;
    1) put "$dir/diff.result" differs ;;
    124 | 137) put "$dir/diff.result" timeout; fail_step "$dir" "diff: timeout" ;;
    125) put "$dir/diff.result" skipped ;;
    *) put "$dir/diff.result" error; fail_step "$dir" "diff: status $rc" ;;
    esac
    rc=0
    counts=$(ws_counts "$dir/gpu.wst" "$dir/replay.json" "$(limit replay)") || rc=$?
    put_rates "$dir" ws replay "$rc" "$counts"
}

# Phase 3, one run: Nsight Compute.
ncu_run() {
    local w=$1 size=$2 dir=$work/$1-$2 counts rc=0
    if [ $ncu_timeouts -ge 2 ]; then
        put "$dir/hw.rate" "skipped skipped"
        return 0
    fi
    counts=$(hw_counts "$dir" "$(limit ncu)" "$programs/$w" --size "$size" --seed "$seed") || rc=$?
    put_rates "$dir" hw ncu "$rc" "$counts"
    [ $rc -ne 124 ] && [ $rc -ne 137 ] || ncu_timeouts=$((ncu_timeouts + 1))
}

# A run's table row, from its files.
row() {
    local w=$1 size=$2 dir=$work/$1-$2 native nvbit over diff_result hw wsr l1_hw l2_hw l1_ws l2_ws
    native=$(get "$dir/native.ms") nvbit=$(get "$dir/nvbit.ms") diff_result=$(get "$dir/diff.result")
    # A time that is not a number (error, timeout, skipped) has no overhead.
    over=$(awk -v a="$native" -v b="$nvbit" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && a > 0 && b > 0) printf "%.1f", b / a; else print "n/a" }')
    if [ -n "$ncu" ]; then hw=$(get "$dir/hw.rate" "pending pending"); else hw="n/a n/a"; fi
    wsr=$(get "$dir/ws.rate" "pending pending")
    read -r l1_hw l2_hw <<<"$hw"
    read -r l1_ws l2_ws <<<"$wsr"
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$w" "$size" \
        "$diff_result" "$native" "$nvbit" "$over" "$l1_hw" "$l1_ws" "$(abs_err "$l1_hw" "$l1_ws")" \
        "$l2_hw" "$l2_ws" "$(abs_err "$l2_hw" "$l2_ws")"
}

# The closing line from the rows: runs, diff results, mean absolute errors
# and the median overhead (of the runs that have one).
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
            other = runs - result["same"] - result["differs"] - result["error"]
            printf "%d runs: diff %d same, %d differ, %d failed%s; mean absolute error L1 %s, L2 %s; median NVBit overhead %s\n",
                runs, result["same"], result["differs"], result["error"],
                other ? sprintf(", %d not compared (n/a, timeout, skipped or pending)", other) : "",
                mean("l1"), mean("l2"), median
        }'
}

runs=()
for size in ${sizes//,/ }; do
    for w in $workloads; do runs+=("$w $size"); done
done

gpu_line="" ws_line="" ncu_line=""
# The table as it stands, to $out (atomically); $1: the phase reached.
# Also $work/summary.txt (the closing line) and $work/failures (a count).
write_table() {
    [ $dry -eq 0 ] || return 0
    local rows=$work/rows.md failures=0 r w size summary
    : >"$rows"
    for r in "${runs[@]}"; do
        read -r w size <<<"$r"
        row "$w" "$size" >>"$rows"
        [ ! -s "$work/$w-$size/failed" ] || failures=$((failures + 1))
    done
    summary=$(summarize <"$rows")
    [ $failures -eq 0 ] || summary="$summary; $failures runs with a failed step${keep:+ (logs in $keep)}"
    echo "$summary" >"$work/summary.txt"
    echo "$failures" >"$work/failures"
    table_tmp=$(mktemp "$(dirname "$out")/.gpu-validate.XXXXXX") || die "cannot write beside $out"
    {
        echo "# warpscope on a GPU: NVBit traces against the emulator, hit rates against Nsight Compute"
        echo
        echo "Written by scripts/gpu-validate.sh on $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $1:" \
            "$gpu_line, $ws_line, seed $seed, replay preset \`$gpu\` (L2 counted in 32 B sectors, recorded schedule, L2 cold at each kernel as under ncu)."
        echo "$ncu_line"
        echo
        echo "diff: \`warpscope diff\` of the emulator's trace and the GPU's (same / differs / error)."
        echo "Times are wall clock, whole program; overhead = NVBit ÷ native."
        echo "Hit rates in %, per 32 B sector: L1 over global loads, L2 over every sector the SMs send; errors in percentage points."
        echo "n/a: nothing to compare (no GPU trace, or a time that is not a number); pending: not reached yet;" \
            "skipped: no time left before the deadline, or its kind timed out twice; timeout: the step's own limit killed it."
        echo
        echo "| workload | size | diff | native ms | NVBit ms | overhead × | L1 GPU | L1 warpscope | L1 abs. error | L2 GPU | L2 warpscope | L2 abs. error |"
        echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        cat "$rows"
        echo
        echo "$summary"
    } >"$table_tmp"
    chmod 644 "$table_tmp"
    mv "$table_tmp" "$out"
    table_tmp=""
}

if [ $dry -eq 0 ]; then
    gpu_line=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
    ws_line=$("$ws" --version 2>/dev/null | head -1)
    if [ -n "$ncu" ]; then
        ncu_line="Nsight Compute: $("$ncu" --version 2>/dev/null | tail -1) (--clock-control none${NCU_EXTRA:+ $NCU_EXTRA})."
    elif [ $use_ncu -eq 0 ]; then
        ncu_line="Nsight Compute not used (--no-ncu): no hit rates from the GPU."
    else
        ncu_line="Nsight Compute not installed: no hit rates from the GPU."
    fi
fi

# ---- the runs ---------------------------------------------------------------
[ $dry -eq 0 ] || echo "export WARPSCOPE_NVBIT_TOOL=$(printf %q "$tool")"
phase_log=$work/phases.txt
: >"$phase_log"
t_start=$(date +%s)
stamp() { [ $dry -eq 1 ] || echo "$(date -u +%H:%M:%S) $(($(date +%s) - t_start)) s: $*" | tee -a "$phase_log" >&2; }

# 1. Native and NVBit, alone on the machine (their times are the overhead).
stamp "phase 1: native and NVBit runs (${#runs[@]})"
for r in "${runs[@]}"; do
    read -r w size <<<"$r"
    gpu_runs "$w" "$size"
    stamp "  $w $size: native $(get "$work/$w-$size/native.ms"), NVBit $(get "$work/$w-$size/nvbit.ms") (ms)"
done
write_table "phase 1 done (native and NVBit runs)"
if [ $dry -eq 0 ] && [ -n "$after_gpu_runs" ]; then
    stamp "after the GPU runs: $after_gpu_runs"
    timeout -k 5 120 bash -c "$after_gpu_runs" </dev/null || stamp "  status $?"
fi

# 2. The CPU steps, in the background while ncu runs.
stamp "phase 2: emulator traces, diff and replay (in the background, $jobs at a time)"
if [ $dry -eq 1 ]; then
    for r in "${runs[@]}"; do read -r w size <<<"$r"; cpu_steps "$w" "$size"; done
else
    (
        trap - EXIT
        running=0
        for r in "${runs[@]}"; do
            read -r w size <<<"$r"
            cpu_steps "$w" "$size" &
            running=$((running + 1))
            if [ $running -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
        done
        wait
    ) &
    cpu_pid=$!
fi

# 3. Nsight Compute, fewest kernels first (by the GPU trace; last without).
if [ -n "$ncu" ]; then
    stamp "phase 3: Nsight Compute"
    order=()
    for r in "${runs[@]}"; do
        read -r w size <<<"$r"
        k=""
        [ $dry -eq 1 ] || [ ! -s "$work/$w-$size/gpu.wst" ] ||
            k=$("$ws" info "$work/$w-$size/gpu.wst" 2>/dev/null | awk '$1 == "kernels" && !k { k = $2 } END { print k }' || true)
        order+=("${k:-999999} $w $size")
    done
    while read -r _ w size; do
        ncu_run "$w" "$size"
        [ $dry -eq 1 ] || { stamp "  $w $size: ncu $(get "$work/$w-$size/hw.rate")"; write_table "phase 3 (ncu) under way"; }
    done < <(printf '%s\n' "${order[@]}" | sort -s -n -k1,1)
fi

if [ -n "$cpu_pid" ]; then
    # The CPU steps hold to the deadline themselves: wait for them.
    wait "$cpu_pid" || true
    cpu_pid=""
fi
stamp "done"
[ $dry -eq 0 ] || exit 0
write_table "complete"
echo "gpu-validate: $(cat "$work/summary.txt"); table in $out"
[ "$(cat "$work/failures")" -eq 0 ]
