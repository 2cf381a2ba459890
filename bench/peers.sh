#!/usr/bin/env bash
# bench/peers.sh: warpscope's exact reuse distance beside public tools, on the
# same access streams: the global-load line requests of gemm, bfs and spmv in
# the analyzer's issue order, written by build/rel/bench/bench_streams.
#
# The peers are built elsewhere, never in this repository; give their build
# directories (a peer not given is skipped with a note):
#   LIBCACHESIM=DIR   libCacheSim's cmake build: DIR/bin/{cachesim,distUtil,mrcProfiler}
#   PARDA=DIR         parda's directory, with parda.x (sequential, text input)
# or as --libcachesim DIR / --parda DIR.  Other options:
#   --size small|medium|large (default large)   --max N (default 24 M requests, 0 = all)
#   --traces "gemm bfs spmv"                    --keep DIR (write the streams there, keep them)
# SHARDS_SEED (default 42, mrcProfiler's own default) seeds the SHARDS hash.
# SHARDS_SAMPLES=N (default 0: not run) also runs mrcProfiler's SHARDS at
# R = 0.01 and 0.001 with N independent seeds and prints the mean (min-max)
# error over the sizes of at least 1/R lines, to set beside bench_shards.
# mrcProfiler samples a line when XXH3(id XOR seed) <= R x 2^64, so small
# seeds (1, 2, 3, ...) turn line ids into their neighbours' and draw nearly
# the same sample; the seeds are i x 0x9E3779B97F4A7C15 >> 33, i = 1..N.
#
# Each tool runs once on each stream under /usr/bin/time (wall seconds, peak
# RSS), reading the stream from a file, so every time includes reading it.
# Prints a Markdown section: times, then the LRU miss-ratio curves at 1, 2, 4,
# ..., 65536 lines (128 B lines) with each curve's mean absolute error against
# warpscope's exact one.  Not part of `make test` or `make bench`.
set -euo pipefail
cd "$(dirname "$0")/.."

size=large max=$((24 << 20)) traces="gemm bfs spmv" keep=""
libcachesim=${LIBCACHESIM:-} parda=${PARDA:-} seed=${SHARDS_SEED:-42}
samples=${SHARDS_SAMPLES:-0}
while [ $# -gt 0 ]; do
    case $1 in
        --size) size=$2; shift 2 ;;
        --max) max=$2; shift 2 ;;
        --traces) traces=$2; shift 2 ;;
        --keep) keep=$2; shift 2 ;;
        --libcachesim) libcachesim=$2; shift 2 ;;
        --parda) parda=$2; shift 2 ;;
        *) echo "usage: [LIBCACHESIM=DIR] [PARDA=DIR] $0 [--size S] [--max N] [--traces LIST] [--keep DIR]" >&2
           exit 2 ;;
    esac
done
[ -x /usr/bin/time ] || { echo "peers.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

make --no-print-directory -s build/rel/bench/bench_streams >&2
streams=build/rel/bench/bench_streams
if [ -n "$keep" ]; then
    dir=$keep
    mkdir -p "$dir"
else
    dir=$(mktemp -d "${TMPDIR:-/tmp}/peers.XXXXXX")
    trap 'rm -rf "$dir"' EXIT
fi
out=$dir/out
mkdir -p "$out"

lcs_bin=""
if [ -n "$libcachesim" ]; then
    for d in "$libcachesim/bin" "$libcachesim"; do
        [ -x "$d/cachesim" ] && { lcs_bin=$d; break; }
    done
    [ -n "$lcs_bin" ] || { echo "peers.sh: no cachesim under $libcachesim" >&2; exit 1; }
fi
parda_bin=""
if [ -n "$parda" ]; then
    if [ -x "$parda/parda.x" ]; then parda_bin=$parda/parda.x; else parda_bin=$parda; fi
    [ -x "$parda_bin" ] || { echo "peers.sh: no parda.x at $parda" >&2; exit 1; }
fi

# The curve's cache sizes, in lines and in bytes for mrcProfiler (a plain
# number there is read as a fraction of the working set; "NB" is bytes).
sizes="" shards_sizes=""
for j in $(seq 0 16); do
    sizes="$sizes $((1 << j))"
    shards_sizes="$shards_sizes,$((128 << j))B"
done
shards_sizes=${shards_sizes#,}

# timed NAME CMD...: runs CMD with stdout to $out/NAME.out, stderr to
# $out/NAME.err, time and peak RSS to $out/NAME.time.
timed() {
    local name=$1; shift
    if ! /usr/bin/time -f '%e %M' -o "$out/$name.time" "$@" < /dev/null > "$out/$name.out" 2> "$out/$name.err"; then
        echo "peers.sh: $name failed:" >&2
        tail -5 "$out/$name.err" >&2
        echo "failed" > "$out/$name.time"
    fi
}

# Each curve file: one miss ratio a line, for the sizes above.
curve_from_hist() { # distance:count pairs on stdin (cold as a huge distance)
    awk -v sizes="$sizes" '
        { d[NR] = $1; c[NR] = $2; total += $2 }
        END {
            n = split(sizes, s, " ")
            for (i = 1; i <= n; i++) {
                hits = 0
                for (k = 1; k <= NR; k++) if (d[k] < s[i]) hits += c[k]
                printf "%.6f\n", total ? 1 - hits / total : 0
            }
        }'
}

echo "## warpscope beside public tools on the same streams (\`bench/peers.sh\`)"
echo
echo "Streams: the global-load line requests of the emulated traces at --size $size" \
     "($([ "$max" = 0 ] && echo all || echo "the first $((max >> 20)) M") of each;" \
     "all SMs' in the rr,gto issue order on fermi; 128 B lines), written by" \
     "\`bench_streams --out\` as libCacheSim oracleGeneral (24-byte records) and parda text" \
     "(one hex line id a line).  One run of each tool per stream, $(nproc) cores," \
     "\`/usr/bin/time\`: wall seconds and peak RSS, reading the file included."
echo
echo "| trace | requests | distinct lines | tool | seconds | peak RSS MiB | M requests/s |"
echo "|---|---:|---:|---|---:|---:|---:|"
# shellcheck disable=SC2086 # the trace names are words
"$streams" --size "$size" --max "$max" --out "$dir" $traces > "$out/streams.tsv"

skipped=()
[ -n "$parda_bin" ] || skipped+=("parda (no PARDA given)")
[ -n "$lcs_bin" ] || skipped+=("libCacheSim distUtil, cachesim and mrcProfiler (no LIBCACHESIM given)")
[ -n "$lcs_bin" ] && skipped+=("cachesim set-associative 16 KB 4-way: libCacheSim has no set-associative cache")

while read -r name requests distinct; do
    bin=$dir/$name.oracleGeneral.bin txt=$dir/$name.parda.txt
    cat "$bin" "$txt" > /dev/null # into the page cache, for every tool alike
    tools=()
    timed "$name.warpscope" "$streams" --mrc "$bin"
    awk 'f { print $2 } /^lines/ { f = 1 }' "$out/$name.warpscope.out" > "$out/$name.warpscope.curve"
    tools+=("warpscope:warpscope exact (\`bench_streams --mrc\`)")
    timed "$name.falru" "$streams" --lru 128 "$bin"
    tools+=("falru:warpscope falru LRU 16 KB (\`bench_streams --lru 128\`)")
    if [ -n "$parda_bin" ]; then
        timed "$name.parda" "$parda_bin" --input="$txt" --lines="$requests"
        awk '$1 ~ /^[0-9]+$/ { print $1, $2 } $1 == "#OVFL" || $1 == "#INF" { print 1e300, $2 }' \
            "$out/$name.parda.out" | curve_from_hist > "$out/$name.parda.curve"
        tools+=("parda:parda (sequential)")
    fi
    if [ -n "$lcs_bin" ]; then
        timed "$name.distutil" "$lcs_bin/distUtil" "$bin" oracleGeneral stack_dist cntTxt "$out/$name"
        tr ',' '\n' < "$out/$name.STACK_DIST.cnt" | awk -F: 'NF == 2 { print $1 + 0, $2 + 0 }' |
            curve_from_hist > "$out/$name.distutil.curve"
        tools+=("distutil:libCacheSim distUtil stack_dist")
        timed "$name.cachesim" "$lcs_bin/cachesim" "$bin" oracleGeneral LRU 16384 --num-thread=1 \
            -o "$out/$name.cachesim.result"
        tools+=("cachesim:libCacheSim cachesim LRU 16 KB")
        for rate in 0.01 0.001; do
            timed "$name.shards$rate" "$lcs_bin/mrcProfiler" "$bin" oracleGeneral --algo=LRU \
                --profiler=SHARDS --profiler-params="FIX_RATE,$rate,$seed" --size="$shards_sizes"
            awk '$1 ~ /^[0-9]+B$/ { print $2 }' "$out/$name.shards$rate.out" > "$out/$name.shards$rate.curve"
            tools+=("shards$rate:libCacheSim mrcProfiler SHARDS R=$rate")
        done
    fi
    for t in "${tools[@]}"; do
        key=${t%%:*} label=${t#*:}
        read -r secs kib < "$out/$name.$key.time" || true
        if [ "$secs" = failed ]; then
            echo "| $name | $requests | $distinct | $label | failed | | |"
        else
            awk -v n="$name" -v r="$requests" -v d="$distinct" -v l="$label" -v s="$secs" -v k="$kib" \
                'BEGIN { printf "| %s | %d | %d | %s | %.2f | %.1f | %.1f |\n", n, r, d, l, s, k / 1024, (s > 0 ? r / s / 1e6 : 0) }'
        fi
    done
    printf '%s\n' "${tools[@]}" > "$out/$name.tools"
done < "$out/streams.tsv"

echo
for s in "${skipped[@]}"; do echo "- Skipped: $s."; done
[ ${#skipped[@]} -eq 0 ] || echo

for name in $traces; do
    [ -f "$out/$name.tools" ] || continue
    keys=() header="| lines |" rule="|---:|"
    while IFS= read -r t; do
        key=${t%%:*}
        [ -s "$out/$name.$key.curve" ] || continue
        keys+=("$key") header="$header $key |" rule="$rule---:|"
    done < "$out/$name.tools"
    echo "Miss ratio of $name, fully-associative LRU, by capacity in lines:"
    echo
    echo "$header"
    echo "$rule"
    files=()
    for k in "${keys[@]}"; do files+=("$out/$name.$k.curve"); done
    echo "$sizes" | tr ' ' '\n' | sed '/^$/d' | paste - "${files[@]}" |
        awk -F'\t' '{ row = "| " $1 " |"; for (i = 2; i <= NF; i++) row = row " " $i " |"; print row }'
    # Mean absolute error of each curve against warpscope's (the first), over
    # every size and over the sizes a SHARDS sample at rate R resolves (from
    # 1 / R lines: every sampled reuse scales to 1 / R lines or more).
    least=""
    for k in "${keys[@]}"; do
        case $k in shards*) least="$least $(awk -v r="${k#shards}" 'BEGIN { print 1 / r }')" ;; *) least="$least 1" ;; esac
    done
    echo "$sizes" | tr ' ' '\n' | sed '/^$/d' | paste - "${files[@]}" | awk -F'\t' -v least="$least" '
        BEGIN { split(least, lo, " ") }
        { for (i = 2; i <= NF; i++) {
              e = $i > $2 ? $i - $2 : $2 - $i
              all[i] += e
              if ($1 >= lo[i - 1]) { part[i] += e; n[i]++ }
          } }
        END {
            row = "| MAE vs exact, all sizes |"; row2 = "| MAE vs exact, sizes from 1/R lines |"
            for (i = 2; i <= NF; i++) {
                row = row sprintf(" %.4f |", all[i] / NR)
                row2 = row2 sprintf(" %.4f (%d) |", part[i] / n[i], n[i])
            }
            print row; print row2
        }'
    if [ -f "$out/$name.cachesim.out" ]; then
        mr=$(grep -o 'miss ratio [0-9.]*' "$out/$name.cachesim.out" | awk '{ print $3 }')
        echo
        echo "cachesim LRU 16 KB (128 lines): miss ratio $mr (printed to 4 places);" \
             "warpscope at 128 lines: $(sed -n 8p "$out/$name.warpscope.curve") from the curve," \
             "$(awk '$1 == "miss_ratio" { print $2 }' "$out/$name.falru.out") from falru."
    fi
    echo
done

# mean (min-max) of mrcProfiler SHARDS's error over $samples independent seeds
if [ -n "$lcs_bin" ] && [ "$samples" -gt 0 ]; then
    echo "libCacheSim SHARDS over $samples independent seeds: mean (min-max) absolute error" \
         "over the sizes of at least 1/R lines, against warpscope's exact curve."
    echo
    echo "| trace | R = 0.01 | R = 0.001 |"
    echo "|---|---:|---:|"
    for name in $traces; do
        [ -s "$out/$name.warpscope.curve" ] || continue
        row="| $name |"
        for rate in 0.01 0.001; do
            : > "$out/$name.samples$rate"
            for i in $(seq 1 "$samples"); do
                s=$(( (i * 0x9E3779B97F4A7C15 >> 33) & 0x7FFFFFFF ))
                "$lcs_bin/mrcProfiler" "$dir/$name.oracleGeneral.bin" oracleGeneral --algo=LRU \
                    --profiler=SHARDS --profiler-params="FIX_RATE,$rate,$s" --size="$shards_sizes" |
                    awk '$1 ~ /^[0-9]+B$/ { print $2 }' > "$out/$name.sample.curve"
                echo "$sizes" | tr ' ' '\n' | sed '/^$/d' |
                    paste - "$out/$name.sample.curve" "$out/$name.warpscope.curve" |
                    awk -F'\t' -v r="$rate" '$1 * r >= 1 { e += ($2 > $3 ? $2 - $3 : $3 - $2); n++ }
                        END { printf "%.6f\n", e / n }' >> "$out/$name.samples$rate"
            done
            row="$row $(awk '{ s += $1; if (NR == 1 || $1 < lo) lo = $1; if ($1 > hi) hi = $1 }
                END { printf "%.4f (%.4f-%.4f)", s / NR, lo, hi }' "$out/$name.samples$rate") |"
        done
        echo "$row"
    done
    echo
fi
