#!/usr/bin/env bash
# bench/ranks-counts.sh BIN WORK OUT [RANKS]: warpscope's throughput on 1 to
# 16 MPI ranks, for a machine with that many cores (the GPU machine's run,
# scripts/gpu-device-run.sh; bench/RESULTS.md, "Ranks"): the commands and
# inputs of bench/ranks-scaling.sh, one run per rank count, in the order of
# RANKS (default 1,16,2,8,4: the most wanted first, should time run out),
# every rank at --threads 1.  For each run: the wall seconds, the CPU
# seconds (user + system) of all ranks, and of the busiest rank (each rank
# under its own GNU time, where there is one: /usr/bin/time or $GNU_TIME).
# The outputs of the most ranks are compared with one process's (the same
# bytes, docs/analysis.md "Ranks").  Writes the table to OUT (and stdout);
# the runs' outputs and errors stay in WORK.  A failing mpirun stops it in
# one line.  BIN is warpscope; a static one has its twin warpscope-ranks
# beside it (util/ranks_twin.h).
set -u
[ $# -ge 3 ] || { echo "usage: bench/ranks-counts.sh BIN WORK OUT [RANKS]" >&2; exit 2; }
ws=$(realpath "$1") work=$2 out=$3
ranks=${4:-1,16,2,8,4}
ranks=${ranks//,/ }
# shellcheck disable=SC2086 # the rank counts
sorted=$(printf '%s\n' $ranks | sort -n | tr '\n' ' ')
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
out=$(realpath "$out")
cd "$work" || exit 2
: >"$out"
log() { echo "$*" | tee -a "$out"; }
log "# MPI ranks: $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
log ""
command -v mpirun >/dev/null || { log "mpirun not installed"; exit 1; }
log "mpirun: $(command -v mpirun), $(mpirun --version 2>&1 | head -1)"
tm=${GNU_TIME:-/usr/bin/time}
"$tm" -f %e true >/dev/null 2>&1 || tm=""
log "GNU time: ${tm:-none (wall times only)}"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_hwloc_base_binding_policy=none
# Shared memory between the ranks of one machine, nothing else, and no
# plugin's missing library reported.
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_mca_base_component_show_load_errors=0 PMIX_MCA_gds=hash PMIX_MCA_psec=native

if ! timeout -k 5 30 mpirun -n 2 true >smoke.txt 2>&1; then
    log "mpirun -n 2 true fails: $(grep -v '^ *$' smoke.txt | head -4 | tr '\n' ' ')"
    exit 1
fi
bash "$here/ranks-inputs.sh" "$ws"
# Checked once with its error first: a run below that fails says only
# "error".
if ! timeout -k 5 60 mpirun -n 2 "$ws" compare s.wst --gpu fermi --threads 1 --quiet --policies lru,fifo \
    >check.txt 2>&1; then
    log "mpirun -n 2 warpscope compare fails: $(tail -4 check.txt | tr '\n' ' ')"
    exit 1
fi
log ""

# timed R NAME ARGS...: "wall cpu busiest" of warpscope ARGS on R ranks (1:
# one process, no mpirun); its stdout to NAME.R.out, its outputs (out/,
# a.json) to NAME.R.dir and NAME.R.json.
timed() {
    local r=$1 name=$2
    shift 2
    rm -rf out a.json rank.*
    local cmd=("$ws" "$@")
    [ -z "$tm" ] || cmd=("$tm" -f "%U %S" -o rank.0 "${cmd[@]}")
    if [ "$r" -gt 1 ]; then
        cmd=(mpirun -n "$r" "$ws" "$@")
        # shellcheck disable=SC2016 # expanded by each rank's sh
        [ -z "$tm" ] || cmd=(mpirun -n "$r" sh -c '"$0" -f "%U %S" -o "rank.$OMPI_COMM_WORLD_RANK" "$@"' "$tm" "$ws" "$@")
    fi
    local start=$EPOCHREALTIME rc=0
    timeout -k 5 120 "${cmd[@]}" >"$name.$r.out" 2>"$name.$r.err" || rc=$?
    local end=$EPOCHREALTIME
    [ ! -d out ] || { rm -rf "$name.$r.dir"; mv out "$name.$r.dir"; }
    [ ! -f a.json ] || mv a.json "$name.$r.json"
    cat rank.* 2>/dev/null | awk -v start="$start" -v end="$end" -v rc="$rc" '
        { c = $1 + $2; sum += c; if (c > max) max = c; n++ }
        END {
            w = end - start
            if (rc) printf "%.2f error(%d) -\n", w, rc
            else if (n) printf "%.2f %.2f %.2f\n", w, sum, max
            else printf "%.2f - -\n", w
        }'
}

top=${sorted% }
top=${top##* }
: >results.tsv
: >same.tsv
bench() {
    local title=$1 name=$2 r w c m
    shift 2
    for r in $ranks; do
        read -r w c m < <(timed "$r" "$name" "$@")
        printf '%s\t%s\t%s\t%s\t%s\n' "$title" "$r" "$w" "$c" "$m" >>results.tsv
        log "  $title, $r ranks: wall $w s, CPU $c s, busiest $m s"
    done
    # The same bytes from the most ranks as from one process; then the
    # bulky outputs go.
    local same=same
    cmp -s "$name.1.out" "$name.$top.out" || same="stdout differs"
    [ ! -f "$name.1.json" ] || cmp -s "$name.1.json" "$name.$top.json" || same="$same; a.json differs"
    [ ! -d "$name.1.dir" ] || diff -r -x .warpscope-outputs "$name.1.dir" "$name.$top.dir" >/dev/null 2>&1 ||
        same="$same; outputs differ"
    printf '%s\t%s\n' "$title" "$same" >>same.tsv
    rm -rf "$name".*.dir "$name".*.json
}
bench "compare, 8 policies" compare compare h.wst --gpu fermi --threads 1 --quiet \
    --policies lru,fifo,random,dip,srrip,drrip,opt,bypass-table
bench "batch, 40 runs" batch batch grid.json --threads 1 --quiet -o out
bench "sweep, N <= 8" sweep sweep h.wst --gpu fermi --threads 1 --quiet --n-max 8
bench "analyze --l2-cold, 510 kernels" analyze-l2cold analyze g.wst --gpu fermi --threads 1 --quiet --l2-cold -o a.json
rm -f ./*.wst

log ""
log "| command | ranks | wall s | wall speedup | CPU s, all ranks | busiest rank CPU s | CPU speedup (efficiency) | $top ranks = 1 process |"
log "|---|---:|---:|---:|---:|---:|---:|---|"
awk -F'\t' -v ranks="$sorted" -v top="$top" '
    FILENAME == ARGV[1] { same[$1] = $2; next }
    { k = $1; r = $2; w[k, r] = $3; c[k, r] = $4; m[k, r] = $5; if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
    END {
        nr = split(ranks, rs, " ")
        for (i = 1; i <= n; i++) {
            k = order[i]
            for (j = 1; j <= nr; j++) {
                r = rs[j]
                if (!((k, r) in w)) continue
                ws = (w[k, 1] > 0 && w[k, r] > 0) ? sprintf("%.2f", w[k, 1] / w[k, r]) : "n/a"
                cs = (m[k, r] + 0 > 0 && m[k, 1] + 0 > 0) ? sprintf("%.2f (%.0f%%)", m[k, 1] / m[k, r], 100 * m[k, 1] / m[k, r] / r) : "n/a"
                printf "| %s | %d | %s | %s | %s | %s | %s | %s |\n", k, r, w[k, r], ws, c[k, r], m[k, r], cs, r == top ? same[k] : ""
            }
        }
    }' same.tsv results.tsv | tee -a "$out"
log ""
log "1 rank: one process, no mpirun.  CPU speedup: one process's CPU over the busiest rank's (the critical path); efficiency: that over the rank count."
