#!/usr/bin/env bash
# scripts/gpu-device-run.sh [options]: warpscope's whole GPU check as one
# time-boxed command on a machine with an NVIDIA GPU and no network,
# reached with a copy of this checkout that carries .gpu/, the kit
# scripts/gpu-kit.sh builds (docs/nvbit.md, "On a lent GPU machine").  From
# the copy's root:
#     bash scripts/gpu-device-run.sh
# Results go to $OUT (default /tmp/warpscope-gpu-out) as they come, so an
# outer time limit that stops the run still leaves what it had: probe.txt,
# results.md, nvbit-traces.tar.xz (and -2), raw.tar.xz, run.log (the
# console), mpi.txt; seven files at most, each under 16 MiB.
# In order, the most wanted first:
#   0. places the kit's binaries in build/ (build/rel/warpscope, its twin
#      warpscope-ranks, warpscope-nvbit.so; build/cuda/*); PATH gets
#      .gpu/bin (jq), CUDA's bin (NVBit runs nvdisasm) and Nsight Compute's
#      folder, LD_LIBRARY_PATH the kit's libraries (.gpu/lib-sys's only
#      where the machine lacks them);
#   1. probe.txt: the machine, GPU, driver, nvcc, ncu; warpscope; one CUDA
#      program natively (--verify); ncu reading two counters on it; the
#      NVBit tool recording it.  Programs that do not run are rebuilt there
#      with its nvcc, a tool that does not load relinked
#      (scripts/gpu-rebuild.sh); what still fails is left out, saying so;
#   2. scripts/gpu-validate.sh --sizes small on every workload, ending 45 s
#      before the budget: its table to results.md as it goes, the NVBit
#      traces packed as soon as they are recorded (scripts/gpu-pack.sh);
#   3. the rest of the work folder to raw.tar.xz;
#   4. if a minute of the budget is left: warpscope on 1 to 16 MPI ranks
#      (bench/ranks-counts.sh; the kit's Open MPI where there is no mpirun)
#      to mpi.txt.
# Options:
#   --budget S       the whole run's target in seconds (default 360); give
#                    the outer time limit some 90 s more
#   --only LIST      gpu-validate's workloads, comma-separated (default all)
#   --sizes LIST     gpu-validate's sizes (default small)
#   --no-mpi         no step 4
#   --mpi-ranks LIST step 4's rank counts, in the order run (default 1,16,2,8,4)
#   --work DIR       the work folder, emptied first (default /tmp/warpscope-gpu)
#   --force          place the kit's binaries over this checkout's own build
# Exit 0 when gpu-validate ran (its table says how it went), 1 when it could
# not (no GPU, or no CUDA program runs: probe.txt says why), 2 on bad usage
# or without the kit.
set -u
t0=$(date +%s)
die() { echo "gpu-device-run: $*" >&2; exit 2; }
declare -A opt=([budget]=360 [only]="" [sizes]=small [mpi-ranks]="1,16,2,8,4" [work]=/tmp/warpscope-gpu)
mpi=1 force=0
while [ $# -gt 0 ]; do
    case "$1" in
    --budget | --only | --sizes | --mpi-ranks | --work)
        [ $# -ge 2 ] || die "$1 needs a value"
        opt[${1#--}]=$2
        shift 2 ;;
    --no-mpi) mpi=0; shift ;;
    --force) force=1; shift ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
done
budget=${opt[budget]} only=${opt[only]} sizes=${opt[sizes]} mpi_ranks=${opt[mpi-ranks]} work=${opt[work]}
if ! [[ $budget =~ ^[0-9]+$ ]] || [ "$budget" -lt 60 ]; then
    die "--budget: expected 60 seconds or more, got '$budget'"
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
kit=$repo/.gpu
cd "$repo" || exit 2
[ -x "$kit/bin/warpscope" ] || die "no kit in $kit (scripts/gpu-kit.sh NVBIT_PATH builds it)"
if [ -e build/rel/libwarpscope.a ] && [ $force -eq 0 ]; then
    die "build/ holds this checkout's own build: not placing the kit's binaries over it (--force to)"
fi
OUT=${OUT:-/tmp/warpscope-gpu-out}
mkdir -p "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
rm -rf "$work"
mkdir -p "$work/probe" "$work/env/lib-sys" "$work/env/bin" || die "cannot create $work"
work=$(cd "$work" && pwd)
end_validate=$((t0 + budget - 45))
end_all=$((t0 + budget))
probe=$OUT/probe.txt

el() { echo $(($(date +%s) - t0)); }
say() { echo "[$(el) s] $*"; }
# A line of the probe, to probe.txt and the console.
P() { echo "$*" | tee -a "$probe"; }
# Milliseconds since $1 (an EPOCHREALTIME).
ms_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f ms", (b - a) * 1000 }'; }
pack() { bash "$repo/scripts/gpu-pack.sh" "$1" "$work" "$OUT" | tee -a "$probe"; }

# ---- 0. the kit in place ---------------------------------------------------
place() {
    mkdir -p build/rel build/cuda
    cp "$kit/bin/warpscope" "$kit/bin/warpscope-nvbit.so" build/rel/
    [ ! -e "$kit/bin/warpscope-ranks" ] || cp "$kit/bin/warpscope-ranks" build/rel/
    tar -xJf "$kit/cuda.tar.xz" -C build 2>/dev/null ||
        python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$kit/cuda.tar.xz" build ||
        P "the kit's CUDA programs could not be unpacked"
    # CUDA's bin (nvcc, nvdisasm) and Nsight Compute's, where PATH lacks them.
    nvcc_path=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
    [ -z "$nvcc_path" ] || PATH=$PATH:$(dirname "$(readlink -f "$nvcc_path")"):$(dirname "$nvcc_path")
    ncu_path=$(command -v ncu || printf '%s\n' /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu |
        while read -r f; do [ ! -x "$f" ] || echo "$f"; done | sort -V | tail -1)
    [ -z "$ncu_path" ] || PATH=$PATH:$(dirname "$ncu_path")
    PATH=$kit/bin:$work/env/bin:$PATH
    # The base system's libraries only where this one lacks them.
    local l name known
    known=$(PATH=$PATH:/sbin:/usr/sbin ldconfig -p 2>/dev/null | awk '{ print $1 }')
    for l in "$kit"/lib-sys/*; do
        [ -e "$l" ] || continue
        name=$(basename "$l")
        grep -qxF "$name" <<<"$known" || [ -e "/lib/x86_64-linux-gnu/$name" ] || [ -e "/usr/lib/x86_64-linux-gnu/$name" ] ||
            [ -e "/usr/lib64/$name" ] || ln -s "$l" "$work/env/lib-sys/$name"
    done
    LD_LIBRARY_PATH=$kit/lib:$work/env/lib-sys${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export PATH LD_LIBRARY_PATH
}

# ---- 1. the probe ------------------------------------------------------------
probe_machine() {
    P "# warpscope on a GPU machine: probe ($(date -u '+%Y-%m-%d %H:%M:%S UTC'))"
    P "kit: $(head -1 "$kit/MANIFEST.txt" 2>/dev/null)"
    P "checkout: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout')"
    P ""
    P "## machine"
    P "uname: $(uname -a)"
    # shellcheck disable=SC1091 # the machine's own
    P "os: $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-?}"); $(getconf GNU_LIBC_VERSION 2>/dev/null)"
    P "cores: $(nproc); memory: $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
    P "tools: $(for t in xz python3 jq gcc make mpirun nvcc nvdisasm cuobjdump ncu; do
        printf '%s=%s ' $t "$(type -P $t >/dev/null && echo yes || echo no)"; done)"
    P "the kit's libraries of a base system in use (this one lacks them): $(find "$work/env/lib-sys" -mindepth 1 -printf '%f ')"
    P "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
    gpu_ok=0
    if command -v nvidia-smi >/dev/null && timeout 30 nvidia-smi -L >"$work/probe/smi.txt" 2>&1; then
        gpu_ok=1
        P "nvidia-smi -L: $(tr '\n' ' ' <"$work/probe/smi.txt")"
        P "gpu: $(timeout 30 nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,persistence_mode,compute_mode,mig.mode.current --format=csv 2>&1 | tr '\n' ';')"
    elif command -v nvidia-smi >/dev/null; then
        P "no GPU: nvidia-smi fails: $(head -1 "$work/probe/smi.txt")"
    else
        P "no GPU: nvidia-smi not installed"
    fi
    P "nvcc: ${nvcc_path:-none} $([ -z "$nvcc_path" ] || "$nvcc_path" --version 2>/dev/null | tail -1)"
    P "ncu: ${ncu_path:-none} $([ -z "$ncu_path" ] || timeout 60 "$ncu_path" --version 2>/dev/null | tail -1)"
    P ""
    P "## warpscope"
    local v
    if v=$(timeout 20 build/rel/warpscope --version 2>&1); then
        P "warpscope --version: $v ($(timeout 20 build/rel/warpscope workloads --names | wc -l) workloads)"
    else
        P "warpscope does not run: $v"
    fi
    P "jq: $(timeout 10 jq --version 2>&1 | head -1)"
    P "NVBit tool's libraries: $(ldd build/rel/warpscope-nvbit.so 2>&1 |
        awk '/not found/ && !/libcuda/ { printf "%s MISSING; ", $1 } /=> \// { n++ } END { printf "%d found", n }')"
    P "CUDA programs: $(find build/cuda -maxdepth 1 -type f | wc -l) in build/cuda"
}

# One CUDA program (2dconv small) natively, under ncu and under the tool.
probe_prog=(build/cuda/2dconv --size small --seed 1)
run_native() {
    local start=$EPOCHREALTIME rc=0
    timeout -k 5 60 "${probe_prog[@]}" --verify >"$work/probe/native.txt" 2>&1 </dev/null || rc=$?
    P "native --verify: status $rc, $(ms_since "$start"); $(head -c 300 "$work/probe/native.txt" | tr '\n' ' ')"
    return $rc
}
probe_ncu() {
    local start=$EPOCHREALTIME rc=0 value
    timeout -k 5 90 "$ncu_path" --clock-control none --cache-control all --csv --page raw --print-units base \
        --metrics lts__t_sectors_srcunit_tex.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
        "${probe_prog[@]}" >"$work/probe/ncu.txt" 2>&1 </dev/null || rc=$?
    value=$(awk -F'","' '/^"/ && NR > 1 { v = $NF; gsub(/"/, "", v); if (v ~ /^[0-9.,]+$/) { print v; exit } }' "$work/probe/ncu.txt")
    P "ncu --clock-control none: status $rc, $(ms_since "$start"), first counter: ${value:-none}"
    [ $rc -eq 0 ] && [ -n "$value" ] && return 0
    P "ncu said: $(grep -v '^"' "$work/probe/ncu.txt" | head -5 | tr '\n' ' ')"
    return 1
}
probe_nvbit() {
    local start=$EPOCHREALTIME rc=0
    rm -f "$work/probe/gpu.wst"
    timeout -k 5 75 build/rel/warpscope record -o "$work/probe/gpu.wst" -- "${probe_prog[@]}" \
        >"$work/probe/nvbit.txt" 2>&1 </dev/null || rc=$?
    P "NVBit record: status $rc, $(ms_since "$start")"
    if [ $rc -ne 0 ] || [ ! -s "$work/probe/gpu.wst" ]; then
        P "NVBit said: $(grep -v -E '^-+$|^ +[A-Z_]+ = ' "$work/probe/nvbit.txt" | tail -6 | tr '\n' ' ')"
        return 1
    fi
    P "NVBit trace: $(timeout 30 build/rel/warpscope info "$work/probe/gpu.wst" 2>&1 |
        grep -E '^(collector|kernels|records|allocs|timing)' | tr -s ' ' | tr '\n' ';')"
}
# rebuild WHAT DEST: scripts/gpu-rebuild.sh with this machine's nvcc.
rebuild() {
    local start log=$work/probe/rebuild-$1.txt
    start=$(date +%s)
    if timeout -k 5 240 bash scripts/gpu-rebuild.sh "$1" "$2" >"$log" 2>&1; then
        P "rebuilt ($1) in $(($(date +%s) - start)) s"
    else
        P "rebuild ($1) failed: $(tail -3 "$log" | tr '\n' ' ')"
        return 1
    fi
}
probe_gpu() {
    native_ok=0 ncu_ok=0 nvbit_ok=0
    [ "$gpu_ok" -eq 1 ] || return 0
    P ""
    P "## one CUDA program: ${probe_prog[*]}"
    if run_native; then
        native_ok=1
    elif [ -n "$nvcc_path" ]; then
        P "the kit's CUDA programs do not run: rebuilding them with this machine's nvcc"
        rebuild cuda build/cuda && run_native && native_ok=1
    fi
    [ $native_ok -eq 1 ] || return 0
    cuobjdump --list-elf build/cuda/2dconv >"$work/probe/cuobjdump.txt" 2>&1 &&
        P "cuobjdump --list-elf: $(tr '\n' ' ' <"$work/probe/cuobjdump.txt")"
    [ -z "$ncu_path" ] || ! probe_ncu || ncu_ok=1
    if probe_nvbit; then
        nvbit_ok=1
    elif [ -n "$nvcc_path" ] && grep -q -E 'cannot open shared object|undefined symbol|GLIBC|version .* not found' "$work/probe/nvbit.txt"; then
        P "the kit's NVBit tool does not load: relinking it with this machine's nvcc"
        rebuild tool build/rel/warpscope-nvbit.so && probe_nvbit && nvbit_ok=1
    fi
}

# ---- 2. the validation -------------------------------------------------------
validate() {
    val_status=none
    if [ "$gpu_ok" -eq 0 ] || [ "$native_ok" -eq 0 ]; then
        P "gpu-validate not run: $([ "$gpu_ok" -eq 0 ] && echo "no GPU" || echo "no CUDA program runs"); its --dry-run in raw.tar.xz (probe/dry-run.txt)"
        timeout 60 bash scripts/gpu-validate.sh --dry-run --sizes "$sizes" ${only:+--only "$only"} \
            >"$work/probe/dry-run.txt" 2>&1
        return 1
    fi
    local flags=(--sizes "$sizes" --seed 1 --gpu hopper --keep "$work/val" --out "$OUT/results.md"
        --deadline "$end_validate" --jobs 8 --after-gpu-runs
        "bash $(printf %q "$repo/scripts/gpu-pack.sh") traces $(printf %q "$work") $(printf %q "$OUT")")
    [ "$nvbit_ok" -eq 1 ] || flags+=(--no-nvbit)
    [ "$ncu_ok" -eq 1 ] || flags+=(--no-ncu)
    [ -z "$only" ] || flags+=(--only "$only")
    say "gpu-validate ${flags[*]}"
    # Its own deadline ends it; this, should that fail (never under 30 s:
    # timeout 0 would be none).
    local limit=$((end_validate - $(date +%s) + 30))
    timeout -k 10 $((limit > 30 ? limit : 30)) bash scripts/gpu-validate.sh "${flags[@]}"
    val_status=$?
    P "gpu-validate: status $val_status after $(el) s$([ $val_status -lt 124 ] || echo ' (stopped by its time limit)')"
    [ ! -s "$work/val/summary.txt" ] || P "summary: $(cat "$work/val/summary.txt")"
}

# ---- 4. many ranks -----------------------------------------------------------
# mpirun: the machine's, else the kit's Open MPI unpacked into / without
# replacing any file (tar --skip-old-files).
mpi_setup() {
    if command -v mpirun >/dev/null; then
        P "Open MPI: the machine's, $(command -v mpirun)"
    elif [ -e "$kit/mpi/openmpi.tar.xz" ] && [ "$(id -u)" -eq 0 ]; then
        tar -xJf "$kit/mpi/openmpi.tar.xz" -C / --skip-old-files 2>"$work/mpi/unpack.txt" ||
            { P "the kit's Open MPI could not be unpacked: $(head -2 "$work/mpi/unpack.txt" | tr '\n' ' ')"; return 1; }
        { ldconfig || /sbin/ldconfig; } 2>/dev/null
        ln -sf /usr/bin/orterun "$work/env/bin/mpirun"
        P "Open MPI: the kit's, unpacked into /"
    else
        P "no mpirun here, and the kit's Open MPI needs root and .gpu/mpi/openmpi.tar.xz"
        return 1
    fi
    # The twin opens libmpi.so where the kit's machine had it (the Makefile's
    # WS_LIBMPI); a machine's own Open MPI may keep it elsewhere.
    local libmpi=/usr/lib/x86_64-linux-gnu/openmpi/lib/libmpi.so
    if [ ! -e $libmpi ] && [ -e /usr/lib/x86_64-linux-gnu/libmpi.so.40 ]; then
        mkdir -p "$(dirname $libmpi)" && ln -s ../../libmpi.so.40 $libmpi
    fi
    [ -x /usr/bin/time ] || [ ! -e "$kit/mpi/time" ] || export GNU_TIME=$kit/mpi/time
}
ranks() {
    local left=$((end_all - $(date +%s)))
    if [ $mpi -eq 0 ]; then
        P "MPI ranks: not run (--no-mpi)"
    elif [ "$gpu_ok" -eq 0 ]; then
        P "MPI ranks: not run (no GPU: this is not the machine it is for)"
    elif [ $left -lt 60 ]; then
        P "MPI ranks: not run ($left s left)"
    else
        mkdir -p "$work/mpi"
        mpi_setup || return 0
        say "MPI ranks $mpi_ranks, $((left - 10)) s at most"
        timeout -k 5 $((left - 10)) bash bench/ranks-counts.sh build/rel/warpscope "$work/mpi" "$OUT/mpi.txt" "$mpi_ranks" |
            tail -40
        say "MPI ranks: status ${PIPESTATUS[0]}"
        pack raw
    fi
}

main() {
    : >"$probe"
    say "gpu-device-run: checkout $repo, OUT $OUT, work $work, budget $budget s"
    place
    probe_machine
    probe_gpu
    P ""
    P "## verdict after $(el) s: gpu=$gpu_ok native=$native_ok ncu=$ncu_ok nvbit=$nvbit_ok"
    local status=0
    validate || status=1
    pack traces
    pack raw
    ranks
    say "done; $OUT holds:"
    find "$OUT" -maxdepth 1 -type f -printf '  %10s %f\n' | sort -k2
    local files big odd
    files=$(find "$OUT" -type f | wc -l)
    big=$(find "$OUT" -type f -size +16M | wc -l)
    odd=$(find "$OUT" -type f -printf '%f\n' | grep -cv '^[A-Za-z0-9._-]*$')
    if [ "$files" -gt 8 ] || [ "$big" -gt 0 ] || [ "$odd" -gt 0 ]; then
        say "WARNING: $files files, $big over 16 MiB, $odd with other characters in their names"
    fi
    [ ! -s "$OUT/results.md" ] || tail -1 "$OUT/results.md"
    return $status
}
main 2>&1 | tee "$OUT/run.log"
exit "${PIPESTATUS[0]}"
