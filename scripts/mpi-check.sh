#!/usr/bin/env bash
# scripts/mpi-check.sh BIN [MPI]: warpscope under `mpirun -n R` writes the
# same bytes as one process (docs/analysis.md "Ranks"): compare, sweep and
# batch (R = 1..4) and analyze --l2-cold (kernels over ranks, R = 2, 3) split
# exactly; analyze with a warm L2 (R = 2, 4: neither by kernels nor by SMs),
# replay and profile run on rank 0 with a one-line reason.  A batch or a
# split analyze with a bad trace fails in one line naming the rank and the
# input and writes no output, and a resumed batch finishes the rest.  A
# static BIN reaches Open MPI through its twin (BIN's directory's
# warpscope-ranks, or ../libexec/warpscope/ installed) and, without it, runs
# on rank 0 saying why.  MPI is the Makefile's: 0 (a build without MPI) or no
# mpirun skips the check with a line that says so.  Never asserts on time.
set -euo pipefail
bin=$(realpath "$1")
if [ "${2:-1}" = 0 ]; then
    echo "mpi check skipped: warpscope built without MPI (no mpicc; scripts/deps.sh --install adds it)"
    exit 0
fi
if ! command -v mpirun >/dev/null 2>&1; then
    echo "mpi check skipped: mpirun not installed (scripts/deps.sh --install adds it)"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# As root Open MPI wants both variables; more ranks than cores is the point.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# The numbers are compared with one process's, never with constants, and the
# GPU is named so that a change of the default preset changes neither side.
gpu=(--gpu fermi)

fail() { echo "mpi-check: $*" >&2; exit 1; }

# same DIR1 DIR2: every output equal (the output lists hold inodes and times).
same() {
    diff -r -x .warpscope-outputs "$1" "$2" >/dev/null || { diff -r -x .warpscope-outputs "$1" "$2" | head -20 >&2; return 1; }
}

# ranks NAME R ARGS...: runs `warpscope ARGS` on R ranks (R = 0: without
# mpirun) in NAME.R/ (inputs are ../FILE, outputs relative, so that paths
# printed are alike), its stdout in NAME.R/stdout and its stderr beside, in
# NAME.R.stderr (notes such as "runs on rank 0" are no output).
ranks() {
    local name=$1 r=$2
    shift 2
    local dir="$name.$r"
    mkdir -p "$dir"
    if [ "$r" = 0 ]; then
        (cd "$dir" && "$bin" "$@" >stdout 2>"../$dir.stderr") || { cat "$dir.stderr" >&2; fail "warpscope $*: failed"; }
    else
        (cd "$dir" && mpirun -n "$r" "$bin" "$@" >stdout 2>"../$dir.stderr") ||
            { cat "$dir.stderr" >&2; fail "mpirun -n $r warpscope $*: failed"; }
    fi
}

# check NAME "R..." ARGS...: one process, then each R, byte for byte.
check() {
    local name=$1 rs=$2
    shift 2
    ranks "$name" 0 "$@"
    for r in $rs; do
        ranks "$name" "$r" "$@"
        same "$name.0" "$name.$r" || fail "$name: $r ranks differ from one process"
    done
    echo "mpi-check: $name: ranks $rs equal one process"
}

"$bin" record --workload gaussian --size small -o g.wst >/dev/null
"$bin" record --workload hotspot --size small -o h.wst >/dev/null
"$bin" record --workload bfs --size small -o b.wst >/dev/null
"$bin" record --workload backprop --size small -o p.wst >/dev/null

check compare "1 2 3 4" compare ../g.wst "${gpu[@]}" --quiet \
    --policies lru,fifo,random,dip,srrip,drrip,opt,bypass-table -o c.json --csv csv
check compare-systems "2 3" compare ../h.wst "${gpu[@]}" --quiet \
    --policies lru@lrr,srrip+ccn,lru+lcm,sharing-aware,opt -o c.json --csv csv
check compare-timed "2 3" compare ../h.wst "${gpu[@]}" --quiet --timed --policies lru,srrip,opt \
    -o c.json --csv csv
check compare-timeline "3" compare ../h.wst "${gpu[@]}" --quiet --timed --policies lru,srrip,opt \
    -o c.json --timeline timeline.json
check sweep "1 2 3 4" sweep ../g.wst "${gpu[@]}" --quiet --n-max 4 -o s.json --csv csv \
    --html s.html
check sweep-timed "2 3" sweep ../h.wst "${gpu[@]}" --quiet --timed --n-max 3 -o s.json --csv csv
check analyze "2 4" analyze ../g.wst "${gpu[@]}" --quiet -o a.json --csv csv
# Kernels over ranks (many kernels: gaussian 126, bfs 20; backprop 2, fewer
# than the ranks that take them at 3), every output the split touches.
check analyze-l2-cold "2 3" analyze ../g.wst "${gpu[@]}" --quiet --l2-cold -o a.json --csv csv \
    --html a.html
check analyze-l2-cold-bfs "2 3" analyze ../b.wst "${gpu[@]}" --quiet --l2-cold --include-stores \
    --sample 0.5 -o a.json --csv csv
check analyze-l2-cold-backprop "3" analyze ../p.wst "${gpu[@]}" --quiet --l2-cold --threads 1 \
    -o a.json
# A rank's block is a selection of the user's kernel filter's selection.
check analyze-l2-cold-filter "3" analyze ../g.wst "${gpu[@]}" --quiet --l2-cold -k Fan2 \
    --launch-skip 3 --launch-count 40 -o a.json --csv csv
check replay "2" replay ../g.wst "${gpu[@]}" --quiet --l2-cold --l1-policy srrip -o r.json
check profile "2" profile ../g.wst "${gpu[@]}" --quiet --trials 2 --policies lru,srrip -o p
# Neither by kernels nor by SMs (docs/analysis.md "Ranks"): one line says both.
for r in 2 4; do
    grep -q "analyze: not split over $r ranks: .*kernel to kernel.*; by SM every rank would repeat the schedule.*; runs on rank 0" analyze.$r.stderr ||
        fail "analyze on $r ranks did not say why it runs on rank 0"
    [ "$(wc -l <analyze.$r.stderr)" = 1 ] || { cat analyze.$r.stderr >&2; fail "analyze on $r ranks: more than the one line"; }
done

cat >grid.json <<'GRID'
{
  "traces": ["../g.wst", "../h.wst"],
  "gpus": ["fermi", "volta"],
  "sets": [[], ["max_warps_per_sm=32"]],
  "policies": ["lru", "srrip", "opt"]
}
GRID
check batch "1 2 3 4" batch ../grid.json --quiet -o out
"$bin" compare g.wst "${gpu[@]}" --quiet --policies lru,srrip,opt --csv cmp >/dev/null
diff <(tail -n +2 cmp/compare.csv) <(sed -n 2,4p batch.0/out/batch.csv | cut -d, -f7-) >/dev/null ||
    fail "batch: the rows of g.wst on fermi differ from compare's"

# A bad trace: one line naming the rank and the input, no table; a resume
# after the fix replays only what is missing and equals the whole run.
head -c 5000 g.wst >bad.wst
sed 's#"\.\./h.wst"#"bad.wst"#; s#\.\./g.wst#g.wst#' grid.json >bad-grid.json
if mpirun -n 3 "$bin" batch bad-grid.json --quiet -o resumed >out 2>err; then
    fail "batch with a bad trace succeeded"
fi
lines=$(grep -c '^warpscope:' err || true)
[ "$lines" = 1 ] || { cat err >&2; fail "batch with a bad trace: $lines error lines, not 1"; }
grep -q '^warpscope: rank [0-9]*: bad.wst: ' err || { cat err >&2; fail "the error does not name the rank and the trace"; }
[ ! -e resumed/batch.csv ] && [ ! -e resumed/batch.json ] || fail "a failed batch left a table"
finished=$(ls resumed/runs | wc -l)
[ "$finished" -gt 0 ] || fail "the failed batch kept none of its finished runs"
cp h.wst bad.wst
mpirun -n 2 "$bin" batch bad-grid.json -o resumed >out 2>err || { cat err >&2; fail "the resumed batch failed"; }
grep -q "batch: $finished of 24 runs already finished" err || { cat err >&2; fail "the resume replayed finished runs"; }
cmp <(sed 's#^\([0-9]*\),bad\.wst,#\1,../h.wst,#; s#^\([0-9]*\),g\.wst,#\1,../g.wst,#' resumed/batch.csv) batch.0/out/batch.csv || fail "the resumed batch's table differs"
echo "mpi-check: a failing rank ends the batch in one line; the resume finishes it"

# A split analyze of a corrupt trace: one line naming a rank and the input,
# no output (whichever rank meets the damage first says so).
python3 -c "
import sys
d = bytearray(open('g.wst', 'rb').read())
for i in range(len(d) // 2, len(d) // 2 + 2):
    d[i] ^= 0xff
open('torn.wst', 'wb').write(d)"
mkdir torn
if (cd torn && mpirun -n 3 "$bin" analyze ../torn.wst "${gpu[@]}" --quiet --l2-cold -o a.json \
        --csv csv >out 2>../torn.err); then
    fail "analyze of a corrupt trace succeeded"
fi
lines=$(grep -c '^warpscope:' torn.err || true)
[ "$lines" = 1 ] || { cat torn.err >&2; fail "analyze of a corrupt trace: $lines error lines, not 1"; }
grep -q '^warpscope: rank [0-9]*: \.\./torn\.wst: ' torn.err ||
    { cat torn.err >&2; fail "the error does not name the rank and the trace"; }
[ ! -e torn/a.json ] && [ ! -e torn/csv ] && [ ! -s torn/out ] || fail "a failed analyze left output"
echo "mpi-check: a corrupt trace ends the split analyze in one line, with no output"

# A statically linked warpscope hands each rank to its dynamically linked
# twin (util/ranks_twin.h), found beside it or, installed, in
# ../libexec/warpscope/.  Installed so, the split is the same; without the
# twin the ranks cannot talk: rank 0 alone does the work, saying why in one
# line, and writes the same bytes.
if ! readelf -l "$bin" | grep -q INTERP; then # no program interpreter: static
    twin=$(dirname "$bin")/warpscope-ranks
    [ -x "$twin" ] || fail "a static $bin has no twin $twin"
    mkdir -p inst/bin inst/libexec/warpscope lone
    cp "$bin" inst/bin/warpscope && cp "$twin" inst/libexec/warpscope/warpscope-ranks
    cp "$bin" lone/warpscope
    bin=$work/inst/bin/warpscope
    check compare-installed "2" compare ../g.wst "${gpu[@]}" --quiet --policies lru,srrip,opt -o c.json
    bin=$work/lone/warpscope
    check compare-lone "2" compare ../g.wst "${gpu[@]}" --quiet --policies lru,srrip,opt -o c.json
    grep -q "^warpscope: compare: not split over 2 ranks: cannot load Open MPI: a static build needs its MPI twin warpscope-ranks" compare-lone.2.stderr ||
        { cat compare-lone.2.stderr >&2; fail "a static warpscope without its twin did not say why it runs on rank 0"; }
    [ "$(wc -l <compare-lone.2.stderr)" = 1 ] || { cat compare-lone.2.stderr >&2; fail "without its twin: more than the one line"; }
    ! grep -q "not split" compare-installed.2.stderr ||
        { cat compare-installed.2.stderr >&2; fail "the installed static warpscope did not reach its twin"; }
    echo "mpi-check: a static warpscope splits through its twin, installed too, and without it runs on rank 0 saying why"
fi
