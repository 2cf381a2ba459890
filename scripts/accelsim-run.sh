#!/usr/bin/env bash
# scripts/accelsim-run.sh ACCELSIM_DIR KERNELSLIST CONFIG_DIR PRESET OUT_DIR [TIMEOUT]:
# one run of Accel-Sim's trace-driven simulator with a warpscope mirror
# (docs/validation.md, "Timed replay against Accel-Sim"): Accel-Sim's tested
# SM7_QV100 config, then CONFIG_DIR's common.config, PRESET.config and
# order.config (as scripts/timed-validate.sh copies them into a run
# directory).  Writes OUT_DIR/accelsim.out (its output), accelsim.time
# (user and system seconds) and, when it finished, accelsim.cpu (their sum).
# TIMEOUT in seconds (default 0: none).  Exit status: the simulator's, 124
# on a timeout, 3 when it exited without finishing, 2 on a setup error.
# The one place that knows how Accel-Sim is started: timed-validate.sh and
# bench/timed-vs-accelsim.sh both call it.  Nothing of Accel-Sim is kept here.
set -u
[ $# -ge 5 ] || { echo "usage: scripts/accelsim-run.sh ACCELSIM_DIR KERNELSLIST CONFIG_DIR PRESET OUT_DIR [TIMEOUT]" >&2; exit 2; }
asdir=$1 list=$2 conf=$3 preset=$4 out=$5 timeout_s=${6:-0}
sim=$asdir/gpu-simulator/bin/release/accel-sim.out
gpgpusim_cfg=$asdir/gpu-simulator/gpgpu-sim/configs/tested-cfgs/SM7_QV100/gpgpusim.config
trace_cfg=$asdir/gpu-simulator/configs/tested-cfgs/SM7_QV100/trace.config
for f in "$sim" "$gpgpusim_cfg" "$trace_cfg" "$conf/common.config" "$conf/$preset.config" "$conf/order.config"; do
    [ -e "$f" ] || { echo "accelsim-run: $f not found" >&2; exit 2; }
done
# accel-sim.out links GPGPU-Sim's own libcudart.so (lib/gcc-*/cuda-*/release).
libdir=$(find "$asdir/gpu-simulator/gpgpu-sim/lib" -path '*/release/libcudart.so' -printf '%h\n' 2>/dev/null | head -1)
[ -n "$libdir" ] || { echo "accelsim-run: GPGPU-Sim's libcudart.so not found under $asdir/gpu-simulator/gpgpu-sim/lib" >&2; exit 2; }
mkdir -p "$out" || exit 2
cwd=$(mktemp -d) || exit 2 # Accel-Sim writes files into its working directory
trap 'rm -rf "$cwd"' EXIT
rm -f "$out/accelsim.cpu"
rc=0
{ (cd "$cwd" && LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    exec /usr/bin/time -f "%U %S" -o "$out/accelsim.time" timeout "$timeout_s" "$sim" -trace "$list" \
    -config "$gpgpusim_cfg" -config "$trace_cfg" -config "$conf/common.config" \
    -config "$conf/$preset.config" -config "$conf/order.config") >"$out/accelsim.out" 2>&1 || rc=$?; } 2>/dev/null
if [ "$rc" -eq 0 ] && ! grep -q '^GPGPU-Sim: \*\*\* exit detected \*\*\*' "$out/accelsim.out"; then rc=3; fi
[ "$rc" -ne 0 ] || awk '{printf "%.2f\n", $1 + $2}' "$out/accelsim.time" >"$out/accelsim.cpu"
exit "$rc"
