#!/usr/bin/env bash
# scripts/gpu-kit-check.sh WARPSCOPE FAKE_GPU: the scripts of the GPU run
# (docs/nvbit.md, "On a lent GPU machine") checked without a GPU, nvcc or
# NVBit, as `make test` runs them.  Stand-ins (tests/fake-gpu/) take the
# GPU's place: nvidia-smi and ncu on PATH, an NVBit tool that does nothing
# (FAKE_GPU/nvbit-tool.so) and CUDA programs that, under it, write the
# emulator's trace of their workload as a GPU would have recorded it
# (FAKE_GPU/gpu-trace).  Each runs in a copy of the scripts, never over
# this checkout's build/:
#   - scripts/gpu-validate.sh end to end on three workloads: the table's
#     rows, an NVBit run that fails (its overhead n/a and left out of the
#     median), one without jq (python3 reads the replays), NVBit runs
#     killed by their limit (timeout, then skipped), a deadline already
#     past (every step skipped), and the exit status of each, of bad usage
#     and of no GPU;
#   - scripts/gpu-device-run.sh on a kit of stand-ins: without a GPU it ends
#     with one-line reasons; with the stand-ins it probes, validates and
#     packs; either way $OUT stays within what a copy back takes (8 files
#     at most, each under 16 MiB, plain names);
#   - scripts/gpu-pack.sh splits the traces at its limit, and
#     scripts/gpu-kit.sh without NVBIT_PATH says so in one line.
# Never asserts on time: a hanging stand-in sleeps far longer than the
# limit that stops it.
set -u
ws=$(realpath "$1") fake=$(realpath "$2")
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
checks=0 failed=0
trap '[ $failed -gt 0 ] || rm -rf "$tmp"' EXIT
start=$(date +%s)
fail() { echo "gpu-kit check: $*"; failed=$((failed + 1)); }
# ok NAME COMMAND...: one check, failed when the command fails.
ok() {
    local name=$1
    shift
    checks=$((checks + 1))
    "$@" || fail "$name"
}
# status NAME WANT GOT
status() { ok "$1: exit status $3, expected $2" [ "$3" -eq "$2" ]; }
has() { grep -q -- "$2" "$1"; }
# The cells of workload $2's row in table $1, as "diff native nvbit over
# l1_gpu l1_ws l1_err l2_gpu l2_ws l2_err".
cells() { awk -F' *[|] *' -v w="$2" '$2 == w { print $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 }' "$1"; }
numbers() {
    local v
    for v; do [[ $v =~ ^[0-9]+(\.[0-9]+)?$ ]] || return 1; done
}

# A copy of the GPU run's scripts, with the workloads' stand-in programs.
workloads=$("$ws" workloads --names)
make_repo() {
    local repo=$1 w
    mkdir -p "$repo/scripts" "$repo/bench" "$repo/cuda"
    cp "$src"/scripts/gpu-{validate,device-run,pack,rebuild}.sh "$repo/scripts/"
    cp "$src"/bench/ranks-{counts,inputs}.sh "$repo/bench/"
    for w in $workloads; do cp "$src/tests/fake-gpu/program" "$repo/cuda/$w"; done
}
mkdir -p "$tmp/path" "$tmp/fake-bin"
cp "$src/tests/fake-gpu/nvidia-smi" "$src/tests/fake-gpu/ncu" "$tmp/path/"
ln -s "$ws" "$tmp/fake-bin/warpscope"
ln -s "$fake/gpu-trace" "$tmp/fake-bin/gpu-trace"
export PATH=$tmp/path:$PATH FAKE_GPU_BIN=$tmp/fake-bin
unset FAKE_GPU_NONE FAKE_NVBIT_FAIL FAKE_NVBIT_HANG FAKE_NCU_HANG NCU_EXTRA OUT

# ---- scripts/gpu-validate.sh ---------------------------------------------
repo=$tmp/val
make_repo "$repo"
mkdir -p "$repo/build/rel"
ln -s "$ws" "$repo/build/rel/warpscope"
mv "$repo/cuda" "$repo/build/cuda"
export WARPSCOPE_NVBIT_TOOL=$fake/nvbit-tool.so
validate() { bash "$repo/scripts/gpu-validate.sh" --sizes small --keep "$tmp/keep-$1" --out "$tmp/$1.md" "${@:2}" \
    >"$tmp/$1.log" 2>&1; }

# Three workloads, bfs's NVBit run failing.
rc=0
FAKE_NVBIT_FAIL=bfs validate three --only 2dconv,gemm,bfs || rc=$?
status "three workloads, one NVBit run failing" 1 $rc
for w in 2dconv gemm; do
    read -r diff native nvbit over l1_gpu l1_ws l1_err l2_gpu l2_ws l2_err <<<"$(cells "$tmp/three.md" $w)"
    ok "$w: diff '$diff', expected same" [ "$diff" = same ]
    ok "$w: times and overhead '$native $nvbit $over' are not numbers" numbers "$native" "$nvbit" "$over"
    ok "$w: the GPU's hit rates '$l1_gpu $l2_gpu', expected ncu's 60.0 60.0" [ "$l1_gpu $l2_gpu" = "60.0 60.0" ]
    ok "$w: warpscope's rates and errors '$l1_ws $l1_err $l2_ws $l2_err' are not numbers" \
        numbers "$l1_ws" "$l1_err" "$l2_ws" "$l2_err"
done
read -r diff native nvbit over l1_gpu l1_ws _ <<<"$(cells "$tmp/three.md" bfs)"
ok "bfs: '$diff $nvbit $over $l1_ws', expected 'n/a error n/a n/a' (no GPU trace, no overhead)" \
    [ "$diff $nvbit $over $l1_ws" = "n/a error n/a n/a" ]
# The median of the two overheads there are, not of three with a 0.0.
median=$(awk -F' *[|] *' '$2 == "2dconv" || $2 == "gemm" { s += $7 } END { printf "%.1fx", s / 2 }' "$tmp/three.md")
ok "the summary's median overhead is not $median, the median of 2dconv's and gemm's" \
    has "$tmp/three.md" "median NVBit overhead $median"
ok "the summary does not count 1 run not compared and 1 failed" \
    has "$tmp/three.md" "2 same, 0 differ, 0 failed, 1 not compared.*; 1 runs with a failed step"
ok "no phase log" has "$tmp/keep-three/phases.txt" "phase 3: Nsight Compute"
ok "ncu ran without --clock-control none" has "$tmp/keep-three/gemm-small/ncu.log" "^fake ncu: .*--clock-control none"
ok "the table does not say --clock-control none" has "$tmp/three.md" "(--clock-control none)"

# No jq on PATH: python3 reads the replays; no ncu: its columns are n/a.
mkdir -p "$tmp/nojq"
for t in awk basename bash cat chmod date dirname grep head mkdir mktemp mv nproc rm sleep sort tail tee timeout \
    nvidia-smi; do
    ln -s "$(command -v $t)" "$tmp/nojq/$t"
done
ln -s "$(python3 -c 'import sys; print(sys.executable)')" "$tmp/nojq/python3"
rc=0
PATH=$tmp/nojq validate nojq --only 2dconv,gemm || rc=$?
status "two workloads, no jq, no ncu" 0 $rc
read -r diff _ _ over l1_gpu l1_ws _ <<<"$(cells "$tmp/nojq.md" gemm)"
ok "no jq: gemm's '$diff $l1_gpu', expected 'same n/a'" [ "$diff $l1_gpu" = "same n/a" ]
ok "no jq: gemm's L1 hit rate '$l1_ws' (python3's) is not a number" numbers "$l1_ws"
ok "no ncu: the table does not say it is not installed" has "$tmp/nojq.md" "Nsight Compute not installed"

# NVBit runs that never end: killed by a limit of 1 s twice, then skipped.
rc=0
FAKE_NVBIT_HANG=all validate hang --only 2dconv,gemm,bfs --timeout nvbit=1 --no-ncu || rc=$?
status "NVBit runs that hang" 1 $rc
got=$(for w in 2dconv gemm bfs; do read -r _ _ nvbit _ <<<"$(cells "$tmp/hang.md" $w)"; echo -n "$nvbit "; done)
ok "hanging NVBit runs: '$got', expected 'timeout timeout skipped '" [ "$got" = "timeout timeout skipped " ]
ok "hanging NVBit runs: --no-ncu not said" has "$tmp/hang.md" "not used (--no-ncu)"

# A deadline already past: every step skipped, nothing failed.
rc=0
validate late --only 2dconv,gemm --deadline 1 || rc=$?
status "a deadline past" 0 $rc
read -r diff native nvbit over l1_gpu l1_ws _ <<<"$(cells "$tmp/late.md" gemm)"
ok "a deadline past: '$diff $native $nvbit $over $l1_gpu $l1_ws', expected skipped but the overhead" \
    [ "$diff $native $nvbit $over $l1_gpu $l1_ws" = "skipped skipped skipped n/a skipped skipped" ]
ok "a deadline past: the summary does not count 2 not compared" has "$tmp/late.md" "2 not compared"

# Bad usage, no GPU, and the dry run.
rc=0; validate bad --timeout sleep=3 || rc=$?
status "--timeout sleep=3" 2 $rc
rc=0; validate bad --only nosuch || rc=$?
status "an unknown workload" 2 $rc
rc=0; FAKE_GPU_NONE=1 validate nogpu || rc=$?
status "no GPU" 2 $rc
ok "no GPU: not said in one line" [ "$(cat "$tmp/nogpu.log")" = "gpu-validate: no GPU: nvidia-smi is missing or fails" ]
rc=0; bash "$repo/scripts/gpu-validate.sh" --dry-run --only gemm --sizes small >"$tmp/dry.log" 2>&1 || rc=$?
status "--dry-run" 0 $rc
ok "--dry-run: ncu's command lacks --clock-control none" has "$tmp/dry.log" "ncu .*--clock-control none"

# ---- scripts/gpu-device-run.sh -------------------------------------------
# The kit of stand-ins: warpscope, the tool, the programs.
repo=$tmp/dev
make_repo "$repo"
mkdir -p "$repo/.gpu/bin" "$repo/.gpu/lib" "$repo/.gpu/lib-sys"
cp "$ws" "$repo/.gpu/bin/warpscope"
cp "$fake/nvbit-tool.so" "$repo/.gpu/bin/warpscope-nvbit.so"
tar -C "$repo" -cJf "$repo/.gpu/cuda.tar.xz" cuda
rm -rf "$repo/cuda"
echo "warpscope GPU kit: stand-ins (scripts/gpu-kit-check.sh)" >"$repo/.gpu/MANIFEST.txt"
unset WARPSCOPE_NVBIT_TOOL
# within_limits NAME OUT: what a copy back takes.
within_limits() {
    local files big odd
    files=$(find "$2" -type f | wc -l)
    big=$(find "$2" -type f -size +16M | wc -l)
    odd=$(find "$2" -type f -printf '%f\n' | grep -cv '^[A-Za-z0-9._-]*$')
    ok "$1: \$OUT holds $files files, $big over 16 MiB, $odd with other characters in their names" \
        [ "$files-$big-$odd" = "$((files > 0 && files <= 8 ? files : -1))-0-0" ]
}
device() { OUT=$tmp/out-$1 timeout -k 5 120 bash "$repo/scripts/gpu-device-run.sh" --work "$tmp/work-$1" "${@:2}" \
    >"$tmp/dev-$1.log" 2>&1; }

rc=0
FAKE_GPU_NONE=1 device nogpu || rc=$?
status "the device run without a GPU" 1 $rc
ok "the device run without a GPU: no line saying so" has "$tmp/out-nogpu/probe.txt" "^no GPU: nvidia-smi fails: NVIDIA-SMI has failed"
ok "the device run without a GPU: gpu-validate's absence not said" has "$tmp/out-nogpu/probe.txt" "^gpu-validate not run: no GPU"
ok "the device run without a GPU: MPI's absence not said" has "$tmp/out-nogpu/probe.txt" "^MPI ranks: not run (no GPU"
ok "the device run without a GPU: no dry run packed" tar -xJf "$tmp/out-nogpu/raw.tar.xz" -C "$tmp" probe/dry-run.txt
ok "the device run without a GPU: the dry run is empty" has "$tmp/probe/dry-run.txt" "gpu-validate.sh\|warpscope record"
within_limits "the device run without a GPU" "$tmp/out-nogpu"

rc=0
device fake --only 2dconv,gemm --no-mpi --budget 120 || rc=$?
status "the device run on stand-ins" 0 $rc
ok "the device run on stand-ins: not every probe passed" has "$tmp/out-fake/probe.txt" "verdict .*: gpu=1 native=1 ncu=1 nvbit=1"
ok "the device run on stand-ins: results.md lacks 2 same" has "$tmp/out-fake/results.md" "^2 runs: diff 2 same"
tar -tJf "$tmp/out-fake/nvbit-traces.tar.xz" >"$tmp/traces.list" 2>&1
ok "the device run on stand-ins: the traces packed are $(tr '\n' ' ' <"$tmp/traces.list")" \
    [ "$(sort "$tmp/traces.list" | tr '\n' ' ')" = "probe/gpu.wst val/2dconv-small/gpu.wst val/gemm-small/gpu.wst " ]
tar -tJf "$tmp/out-fake/raw.tar.xz" >"$tmp/raw.list" 2>&1
ok "the device run on stand-ins: raw.tar.xz lacks ncu's CSV" has "$tmp/raw.list" "^val/gemm-small/ncu.csv$"
ok "the device run on stand-ins: raw.tar.xz lacks the phases" has "$tmp/raw.list" "^val/phases.txt$"
ok "the device run on stand-ins: no run.log" has "$tmp/out-fake/run.log" "done; .* holds:"
within_limits "the device run on stand-ins" "$tmp/out-fake"

mkdir -p "$repo/build/rel"
touch "$repo/build/rel/libwarpscope.a"
rc=0
device own --no-mpi || rc=$?
status "the device run over a build of its own" 2 $rc

# ---- scripts/gpu-pack.sh and scripts/gpu-kit.sh -----------------------------
mkdir -p "$tmp/pack/a" "$tmp/pack/b" "$tmp/pack/c"
for n in a:600 b:700 c:800; do head -c "${n#*:}" /dev/urandom >"$tmp/pack/${n%:*}/gpu.wst"; done
bash "$src/scripts/gpu-pack.sh" --limit 1000 traces "$tmp/pack" "$tmp/out-pack" >"$tmp/pack.log" 2>&1
ok "gpu-pack --limit 1000: the first archive is not a/gpu.wst alone" \
    [ "$(tar -tJf "$tmp/out-pack/nvbit-traces.tar.xz")" = a/gpu.wst ]
ok "gpu-pack --limit 1000: the second archive is not b/gpu.wst alone" \
    [ "$(tar -tJf "$tmp/out-pack/nvbit-traces-2.tar.xz")" = b/gpu.wst ]
ok "gpu-pack --limit 1000: c/gpu.wst not named as left out" has "$tmp/pack.log" "left out .*: c/gpu.wst"
rc=0
bash "$src/scripts/gpu-kit.sh" >"$tmp/kit.log" 2>&1 || rc=$?
status "gpu-kit.sh without NVBIT_PATH" 2 $rc
ok "gpu-kit.sh without NVBIT_PATH: '$(head -c 200 "$tmp/kit.log")', expected one line naming it" \
    [ "$(wc -l <"$tmp/kit.log") $(grep -c 'needs NVBIT_PATH' "$tmp/kit.log")" = "1 1" ]

if [ $failed -gt 0 ]; then
    echo "gpu-kit check: $failed of $checks checks failed (logs were in $tmp)"
    exit 1
fi
echo "gpu-kit check: $checks checks pass in $(($(date +%s) - start)) s (gpu-validate, gpu-device-run, gpu-pack, gpu-kit, on stand-ins)"
