#!/usr/bin/env bash
# scripts/reproduce-dacache.sh [BIN] [SIZE] [OUT]: DaCache's results (S4 §5.2-5.4)
# on the emulated memory-divergent workloads, for docs/reproduction.md.
# Records each workload at SIZE (default medium), replays it on the dacache
# preset under rr,gto with every policy S4 compares, functional and timed
# (--timed, docs/metrics.md §12; each policy drives its own issue stream),
# and prints the Markdown tables: L1 misses per 1000 global warp-loads
# (S4's MPKI counts all instructions; the ratios to LRU compare alike), the
# fully cached divergent and coherent loads, and (timed) the speedup over
# LRU = LRU's cycles / the policy's (S4 Fig. 8 reports IPC).  The S4 column
# is Fig. 10's direction per benchmark for the five techniques (MPKI up on
# ATAX, BICG, MVT, SYR; down elsewhere).  MODES="functional timed" by
# default.  Needs python3 for the tables.
set -euo pipefail
bin=$(realpath "${1:-build/rel/warpscope}") size=${2:-medium} out=${3:-$(mktemp -d)}
modes=${MODES:-functional timed}
mkdir -p "$out"
# S4 Table 1's memory-divergent benchmarks that the suite ports (IIX and
# PVC, MapReduce's, have no port).
workloads=${WORKLOADS:-"atax bicg mvt syrk syr2k gesummv kmeans streamcluster bfs spmv"}
policies=lru,srrip,dip,dacache-uncon,dacache-stall,dacache,static0,static1,static2,static3
for mode in $modes; do
    extra=(); [ "$mode" = timed ] && extra=(--timed)
    start=$(date +%s)
    for w in $workloads; do
        [ -f "$out/$w.wst" ] || "$bin" record --workload "$w" --size "$size" -o "$out/$w.wst" >/dev/null
        [ -f "$out/$w.$mode.json" ] ||
            "$bin" compare "$out/$w.wst" --gpu dacache --schedule rr,gto --policies "$policies" \
                "${extra[@]}" --quiet -o "$out/$w.$mode.json" >/dev/null
    done
    echo "$mode: $(( $(date +%s) - start )) s wall" >&2
done
python3 - "$out" "$modes" $workloads <<'PY'
import json, sys
out, modes, workloads = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
s4_up = {"atax", "bicg", "mvt", "syrk"}  # S4 Fig. 10: MPKI rises on ATAX, BICG, MVT, SYR
once = [w for w in workloads if w not in ("bicg", "mvt")]  # atax, bicg, mvt make the same accesses
mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
for mode in modes:
    runs = {w: {p["name"]: p for p in json.load(open(f"{out}/{w}.{mode}.json"))["policies"]}
            for w in workloads}
    names = list(runs[workloads[0]])
    print(f"\n#### {mode} replay\n")
    tables = [("L1 misses per 1000 global warp-loads", lambda p: 1000 * p["l1"]["misses"] / max(p["mpli"]["loads"], 1), True),
              ("fully cached divergent loads", lambda p: p["mpli"]["divergent"][0], False),
              ("fully cached coherent loads", lambda p: p["mpli"]["coherent"][0], False)]
    if mode == "timed":
        tables.append(("speedup over LRU (LRU's cycles / the policy's)",
                       lambda p: p["timed"]["cycles"], None))
    for title, value, s4 in tables:
        speedup = s4 is None
        print(f"{title}:\n")
        print("| workload | " + ("S4 Fig. 10 | " if s4 else "") + " | ".join(names) + " |")
        print("|---|" + ("---|" if s4 else "") + "---|" * len(names))
        ratios = {n: {} for n in names}
        for w in workloads:
            base = value(runs[w]["lru"])
            cells = []
            for n in names:
                v = value(runs[w][n])
                if speedup:
                    ratios[n][w] = base / v
                    cells.append(f"{base / v:.3f}")
                    continue
                if base:
                    ratios[n][w] = v / base
                cells.append(f"{v:.1f}" if isinstance(v, float) else str(v))
            print(f"| {w} | " + (("up" if w in s4_up else "down") + " | " if s4 else "") + " | ".join(cells) + " |")
        pad = "| " if s4 else ""
        if speedup:
            print("| **mean speedup** | " + " | ".join(f"{mean(list(ratios[n].values())):.3f}" for n in names) + " |")
            print("| **mean, atax/bicg/mvt once** | " + " | ".join(f"{mean([ratios[n][w] for w in once if w in ratios[n]]):.3f}" for n in names) + " |\n")
        else:
            print("| **vs LRU, mean of ratios** | " + pad + " | ".join(f"{100 * (mean(list(ratios[n].values())) - 1):+.1f}%" for n in names) + " |")
            print("| **same, atax/bicg/mvt once** | " + pad + " | ".join(f"{100 * (mean([ratios[n][w] for w in once if w in ratios[n]]) - 1):+.1f}%" for n in names) + " |\n")
PY
echo "CPU time (user, system) of this script and its children:" >&2; times >&2
