#!/usr/bin/env bash
# scripts/bench-guard.sh BASE [HEAD]: did a change lose speed?
#
# Builds both commits (HEAD defaults to HEAD) apart from this checkout, then
# times a fixed set of benches on each as interleaved pairs (BASE HEAD, then
# HEAD BASE, ...), so a drift of the machine's speed falls on both sides of
# a pair.  Each figure is the CPU time (user + system, GNU time) of a whole
# process: on a shared machine it moves less than the wall clock.  Prints,
# per bench, the median CPU seconds of each side and the HEAD/BASE ratio
# pair by pair: its median and its spread (lowest and highest pair).
#   LOSS   the median ratio is above 1.05 and no pair ran faster on HEAD:
#          a loss of more than 5% that the spread cannot explain;
#   gain   the median is below 0.95 and no pair ran slower on HEAD;
#   same   anything else (within 5%, or a spread that straddles 1).
# With fewer than 5 pairs a spread says too little: LOSS? and gain? are
# printed instead, and do not count.
# Then checks that every object whose source asks for a prefetch still
# holds a prefetch instruction.  Exits 1 if any bench or object shows a
# LOSS.  Not part of `make test`: tests never
# assert on time.  Every change to the analyzer, the formats or the cache
# model runs it against the commit it started from (bench/RESULTS.md, "The
# guard").
#
# The benches: exact reuse distance, global and per SM; one L1 of plain LRU;
# the fully-associative LRU (bench/guard/guard_kernels.c, compiled against
# each side's library); decoding (bench_wst --read); analyze, replay and
# compare (6 policies) of gemm, bfs and spmv at medium size, each side on
# the trace its own build recorded.
#
# Environment: RUNS pairs per bench (default 5); ONLY a regular expression
# on the bench names; GUARD_DIR where the builds are kept, one per commit,
# and reused (default ${TMPDIR:-/tmp}/warpscope-guard).
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 BASE [HEAD]" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-5} only=${ONLY:-.}
dir=${GUARD_DIR:-${TMPDIR:-/tmp}/warpscope-guard}
[ -x /usr/bin/time ] || { echo "$0: needs GNU time (/usr/bin/time; Debian: apt-get install time)" >&2; exit 2; }
base=$(git -C "$here" rev-parse --verify "$1^{commit}")
head=$(git -C "$here" rev-parse --verify "${2:-HEAD}^{commit}")
mkdir -p "$dir"

# ---- builds ------------------------------------------------------------------
libs="$(pkg-config --libs libzstd jansson 2>/dev/null || echo -lzstd -ljansson) -lcsv -llzma -lm -lpthread"
popcnt=$(grep -qw popcnt /proc/cpuinfo 2>/dev/null && echo -mpopcnt || true)
build() { # commit -> its tree, built (warpscope, bench_wst, guard_kernels, the traces)
    local tree=$dir/$1
    if [ ! -x "$tree/build/rel/guard_kernels" ]; then
        echo "building ${1:0:12} in $tree" >&2
        rm -rf "$tree" && mkdir -p "$tree"
        git -C "$here" archive "$1" | tar -x -C "$tree"
        make -C "$tree" -j2 build/rel/warpscope build/rel/bench/bench_wst >"$tree.build.log" 2>&1 ||
            { echo "$0: building ${1:0:12} failed: $tree.build.log" >&2; exit 2; }
        # One driver for both sides, from this checkout: only the library differs.
        cc -std=gnu11 -D_GNU_SOURCE -O3 $popcnt -I"$tree" "$here/bench/guard/guard_kernels.c" \
            "$tree/build/rel/libwarpscope.a" $libs -o "$tree/build/rel/guard_kernels" \
            >>"$tree.build.log" 2>&1 ||
            { echo "$0: guard_kernels against ${1:0:12} failed: $tree.build.log" >&2; exit 2; }
        for w in gemm bfs spmv; do
            "$tree/build/rel/warpscope" record --workload "$w" --size medium \
                -o "$tree/$w-medium.wst" --quiet >/dev/null
        done
    fi
}
build "$base"
build "$head"

# ---- the benches: name, then the command with @ for the side's tree ------------
benches=(
    "reuse-global|@/build/rel/guard_kernels reuse-global"
    "reuse-per-sm|@/build/rel/guard_kernels reuse-sm"
    "lru-l1|@/build/rel/guard_kernels lru"
    "falru|@/build/rel/guard_kernels falru"
    "decode|@/build/rel/bench/bench_wst --read @/gemm-medium.wst @/bfs-medium.wst @/spmv-medium.wst"
)
for w in gemm bfs spmv; do
    benches+=("analyze-$w|@/build/rel/warpscope analyze @/$w-medium.wst --gpu fermi --quiet -o @/out.json")
    benches+=("replay-$w|@/build/rel/warpscope replay @/$w-medium.wst --gpu fermi --quiet -o @/out.json")
    benches+=("compare-$w|@/build/rel/warpscope compare @/$w-medium.wst --gpu fermi --quiet \
--policies lru,fifo,random,dip,srrip,drrip -o @/out.json")
done

cpu_seconds() { # tree, command with @: prints user + system seconds
    local t
    t=$(mktemp)
    # shellcheck disable=SC2086 # the command is split on purpose
    /usr/bin/time -f '%U %S' -o "$t" ${2//@/$1} >/dev/null 2>&1 ||
        { echo "$0: failed in ${1##*/}: ${2//@/$1}" >&2; rm -f "$t"; exit 2; }
    awk 'END { printf "%.3f\n", $1 + $2 }' "$t"
    rm -f "$t"
}

echo "bench-guard: BASE ${base:0:12}, HEAD ${head:0:12}, $runs pairs each, $(nproc) cores;" \
    "at the start: $(uptime | sed 's/.*load/load/')"
printf '%-16s %9s %9s %8s %17s  %s\n' bench "BASE s" "HEAD s" ratio "spread (pairs)" verdict
losses=0
for entry in "${benches[@]}"; do
    name=${entry%%|*} cmd=${entry#*|}
    [[ $name =~ $only ]] || continue
    pairs=()
    for ((r = 0; r < runs; r++)); do
        if ((r % 2 == 0)); then
            a=$(cpu_seconds "$dir/$base" "$cmd"); b=$(cpu_seconds "$dir/$head" "$cmd")
        else
            b=$(cpu_seconds "$dir/$head" "$cmd"); a=$(cpu_seconds "$dir/$base" "$cmd")
        fi
        pairs+=("$a $b")
    done
    verdict=$(printf '%s\n' "${pairs[@]}" | awk -v name="$name" '
        function median(v, n,   i, j, t) {
            for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
            return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        }
        { n++; a[n] = $1; b[n] = $2; r[n] = $1 > 0 ? $2 / $1 : 1
          lo = n == 1 || r[n] < lo ? r[n] : lo; hi = n == 1 || r[n] > hi ? r[n] : hi }
        END {
            m = median(r, n)
            v = m > 1.05 && lo > 1 ? "LOSS" : m < 0.95 && hi < 1 ? "gain" : "same"
            if (n < 5 && v != "same") v = v "?" # too few pairs to judge
            printf "%-16s %9.3f %9.3f %8.3f %8.3f-%-8.3f  %s\n", name, median(a, n), median(b, n), m, lo, hi, v
        }')
    echo "$verdict"
    [[ $verdict == *LOSS ]] && losses=$((losses + 1))
done
# A prefetch the compiler deleted costs no test and no number, only time
# (0686c03 lost 1.4-1.7x of exact reuse that way: GCC took its prefetcher
# for a pure function and dropped the calls).  Every object whose source
# asks for a prefetch must hold a prefetch instruction.
for src in $(cd "$dir/$head" && grep -l -E '__builtin_prefetch|u64map_prefetch\(' \
                 $(find analyzer formats util -name '*.c')); do
    obj=$dir/$head/build/rel/${src%.c}.o
    # (grep reads it all: with pipefail, grep -q's early exit fails objdump)
    if [ -f "$obj" ] && ! objdump -d "$obj" | grep prefetch >/dev/null; then
        echo "LOSS: $src asks for a prefetch, and HEAD's $obj has none"
        losses=$((losses + 1))
    fi
done
echo "at the end: $(uptime | sed 's/.*load/load/'); $losses loss(es)"
[ "$losses" -eq 0 ]
