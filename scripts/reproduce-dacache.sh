#!/usr/bin/env bash
# scripts/reproduce-dacache.sh [BIN] [SIZE] [OUT]: DaCache's results (S4 §5.2-5.4)
# on the emulated memory-divergent workloads, for docs/reproduction.md.
# Records each workload at SIZE (default medium), replays it on the dacache
# preset under rr,gto with every policy S4 compares, functional and with
# --reserved-lines, and prints the Markdown tables: L1 misses per 1000
# global warp-loads (S4's MPKI counts all instructions; the ratios to LRU
# compare alike) and the fully cached divergent and coherent loads.  Needs
# python3 for the tables.
set -euo pipefail
bin=$(realpath "${1:-build/rel/warpscope}") size=${2:-medium} out=${3:-$(mktemp -d)}
mkdir -p "$out"
workloads="atax bicg mvt syrk syr2k gesummv spmv bfs"
policies=lru,srrip,dip,dacache-uncon,dacache-stall,dacache,static0,static1,static2,static3
for w in $workloads; do
    [ -f "$out/$w.wst" ] || "$bin" record --workload "$w" --size "$size" -o "$out/$w.wst" >/dev/null
    for mode in functional reserved; do
        extra=(); [ "$mode" = reserved ] && extra=(--reserved-lines)
        "$bin" compare "$out/$w.wst" --gpu dacache --schedule rr,gto --policies "$policies" \
            "${extra[@]}" --quiet -o "$out/$w.$mode.json" >/dev/null
    done
done
python3 - "$out" $workloads <<'PY'
import json, sys
out, workloads = sys.argv[1], sys.argv[2:]
for mode in ("functional", "reserved"):
    runs = {w: {p["name"]: p for p in json.load(open(f"{out}/{w}.{mode}.json"))["policies"]}
            for w in workloads}
    names = list(runs[workloads[0]])
    print(f"\n#### {mode} replay\n")
    for title, value in (("L1 misses per 1000 global warp-loads", lambda p: 1000 * p["l1"]["misses"] / max(p["mpli"]["loads"], 1)),
                         ("fully cached divergent loads", lambda p: p["mpli"]["divergent"][0]),
                         ("fully cached coherent loads", lambda p: p["mpli"]["coherent"][0])):
        print(f"{title}:\n")
        print("| workload | " + " | ".join(names) + " |")
        print("|---|" + "---|" * len(names))
        ratios = {n: [] for n in names}
        for w in workloads:
            base = value(runs[w]["lru"])
            cells = []
            for n in names:
                v = value(runs[w][n])
                if base:
                    ratios[n].append(v / base)
                cells.append(f"{v:.1f}" if isinstance(v, float) else str(v))
            print(f"| {w} | " + " | ".join(cells) + " |")
        mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
        print("| **vs LRU, mean of ratios** | " + " | ".join(f"{100 * (mean(ratios[n]) - 1):+.1f}%" for n in names) + " |\n")
PY
