#!/usr/bin/env bash
# bench/ranks-scaling.sh [BIN] [PAIRS] [ONLY]: throughput against MPI ranks
# (bench/RESULTS.md, "Ranks"; docs/analysis.md "Ranks").  Times each command
# on one process and under `mpirun -n 2`, as PAIRS interleaved pairs (default
# 3), so that load from other work hits both sides alike; prints the median
# wall time of each side and their ratio; and, what load from other work
# does not change, the CPU time (user + system) of one process against that
# of the busiest of the two ranks: their ratio is the speedup an idle
# machine would give (the critical path), half of it the parallel
# efficiency; the CPU of both ranks over one process's is the work the split
# repeats (each rank decodes the whole trace).  Idle ranks yield
# (mpi_yield_when_idle) rather than spin while they wait in a gather.  Worker threads are held at one per
# rank (--threads 1) so that the ranks are the only parallelism measured.
#   compare   8 policies of hotspot medium (entries over ranks)
#   sweep     the (N, p) grid to N = 8 of hotspot medium (streams over ranks)
#   batch     40 runs: 2 traces x 2 presets x 10 policies (runs over ranks)
#   replay    --l2-cold of gaussian medium, 510 kernels (not split: rank 0)
#   analyze   gaussian medium, 510 kernels (not split: rank 0), and with
#             --l2-cold (the kernels' metrics over ranks 1..R-1)
# ONLY: run the rows whose name contains it (e.g. "l2-cold").
set -euo pipefail
bin=$(realpath "${1:-build/rel/warpscope}")
pairs=${2:-3}
only=${3:-}
command -v mpirun >/dev/null || { echo "ranks-scaling: mpirun not installed"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
bash "$here/ranks-inputs.sh" "$bin"

# timed R ARGS...: "wall cpu critical" of warpscope ARGS on R ranks (1: no
# mpirun): the wall seconds, the CPU seconds (user + system) of all ranks
# together, and the CPU seconds of the busiest rank (each rank timed by
# its own /usr/bin/time).
timed() {
    local r=$1
    shift
    rm -rf out rank.*
    local start end
    start=$(date +%s.%N)
    if [ "$r" -gt 1 ]; then
        mpirun -n "$r" sh -c '/usr/bin/time -f "%U %S" -o "rank.$OMPI_COMM_WORLD_RANK" "$0" "$@"' \
            "$bin" "$@" >/dev/null 2>&1
    else
        /usr/bin/time -f "%U %S" -o rank.0 "$bin" "$@" >/dev/null 2>&1
    fi
    end=$(date +%s.%N)
    cat rank.* | awk -v w="$(echo "$end - $start" | bc)" '
        { c = $1 + $2; sum += c; if (c > max) max = c }
        END { printf "%.2f %.2f %.2f\n", w, sum, max }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

bench() {
    local name=$1
    shift
    [[ -z "$only" || "$name" == *"$only"* ]] || return 0
    : >w1; : >w2; : >c1; : >c2; : >m2
    for _ in $(seq "$pairs"); do
        read -r w c m < <(timed 1 "$@"); echo "$w" >>w1; echo "$c" >>c1
        read -r w c m < <(timed 2 "$@"); echo "$w" >>w2; echo "$c" >>c2; echo "$m" >>m2
    done
    local w1 w2 c1 c2 m2
    w1=$(median <w1); w2=$(median <w2); c1=$(median <c1); c2=$(median <c2); m2=$(median <m2)
    awk -v n="$name" -v w1="$w1" -v w2="$w2" -v c1="$c1" -v c2="$c2" -v m2="$m2" 'BEGIN {
        s = w1 / w2; p = c1 / m2
        printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f (%.0f%%) | %.2f |\n",
               n, w1, w2, s, c1, m2, p, 50 * p, c2 / c1 }'
}

echo "| command | 1 rank wall s | 2 ranks wall s | wall speedup | 1 rank CPU s | busiest of 2 ranks CPU s | CPU speedup (efficiency) | CPU of 2 ranks ÷ 1 |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
bench "compare, 8 policies" compare h.wst --gpu fermi --threads 1 --quiet \
    --policies lru,fifo,random,dip,srrip,drrip,opt,bypass-table
bench "sweep, N <= 8" sweep h.wst --gpu fermi --threads 1 --quiet --n-max 8
bench "batch, 40 runs" batch grid.json --threads 1 --quiet -o out
bench "replay --l2-cold, 510 kernels" replay g.wst --gpu fermi --threads 1 --quiet --l2-cold
bench "analyze, 510 kernels" analyze g.wst --gpu fermi --threads 1 --quiet -o a.json
bench "analyze --l2-cold, 510 kernels" analyze g.wst --gpu fermi --threads 1 --quiet --l2-cold -o a.json
