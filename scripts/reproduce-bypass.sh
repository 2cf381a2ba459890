#!/usr/bin/env bash
# scripts/reproduce-bypass.sh [BIN] [SIZE] [OUT]: S1 (profiling-based L1
# bypass, Eq. 1) on the emulated Rodinia workloads, for docs/reproduction.md.
# On the fermi preset (S1 Table I: 15 SMs, 16 KB 4-way 128 B L1s, 768 KB L2),
# rr,gto, per workload and mode (functional, and timed: --timed,
# docs/metrics.md §12): the baseline (lru), the bypass table (bypass-table)
# and the recommended PCs (bypass-pc); global-load traffic (L1->L2 load
# bytes, S1 Fig. 5), the L1 miss rate of the loads that looked L1 up (S1
# Fig. 6) and, timed, the speedup = baseline cycles / the run's (S1 Fig. 4:
# cycles -13.8% on average, lud -40%+, gaussian +21.8%, streamcluster +3.4%).
# MODES="functional timed" by default, WORKLOADS="..." a subset.  Needs python3 for the tables.
set -euo pipefail
bin=$(realpath "${1:-build/rel/warpscope}") size=${2:-medium} out=${3:-$(mktemp -d)}
modes=${MODES:-functional timed}
mkdir -p "$out"
# S1 uses the Rodinia suite; these are its ports here.
workloads=${WORKLOADS:-"gaussian lud srad streamcluster backprop bfs hotspot kmeans nw pathfinder"}
for mode in $modes; do
    extra=(); [ "$mode" = timed ] && extra=(--timed)
    start=$(date +%s)
    for w in $workloads; do
        [ -f "$out/$w.wst" ] || "$bin" record --workload "$w" --size "$size" -o "$out/$w.wst" >/dev/null
        [ -f "$out/$w.$mode.json" ] ||
            "$bin" compare "$out/$w.wst" --gpu fermi --schedule rr,gto --policies lru,bypass-table,bypass-pc \
                "${extra[@]}" --quiet -o "$out/$w.$mode.json" >/dev/null
    done
    echo "$mode: $(( $(date +%s) - start )) s wall" >&2
done
python3 - "$out" "$modes" $workloads <<'PY'
import json, sys
out, modes, workloads = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
# S1's per-benchmark figures where its text gives them (Figs. 4-6).
s1 = {"lud": "cycles −40%+, miss rate −57.5%", "gaussian": "speedup 21.8%",
      "streamcluster": "traffic −3.8%, miss rate −44.8%, speedup 3.4%",
      "srad": "miss rate not lowered"}
mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
def figures(e):
    l1 = e["l1"]
    looked = l1["requests"] - l1["bypasses"]
    return {"traffic": e["traffic"]["l1_to_l2_read_bytes"],
            "miss": (l1["misses"] - l1["bypasses"]) / looked if looked else None,
            "cycles": e["timed"]["cycles"] if "timed" in e else None}
for mode in modes:
    timed = mode == "timed"
    print(f"\n#### {mode} replay\n")
    print("| workload | S1 | traffic, table | traffic, PCs | miss rate, table | miss rate, PCs |"
          + (" speedup, table | speedup, PCs |" if timed else ""))
    print("|---|---|---|---|---|---|" + ("---|---|" if timed else ""))
    sums = {k: [] for k in ("tt", "tp", "mt", "mp", "st", "sp")}
    for w in workloads:
        p = {e["name"]: figures(e) for e in json.load(open(f"{out}/{w}.{mode}.json"))["policies"]}
        b, t, c = p["lru"], p["bypass-table"], p["bypass-pc"]
        ch = lambda v, v0: (v / v0 - 1) if v0 and v is not None else None
        vals = {"tt": ch(t["traffic"], b["traffic"]), "tp": ch(c["traffic"], b["traffic"]),
                "mt": ch(t["miss"], b["miss"]), "mp": ch(c["miss"], b["miss"])}
        if timed:
            vals["st"], vals["sp"] = b["cycles"] / t["cycles"], b["cycles"] / c["cycles"]
        for k, v in vals.items():
            if v is not None:
                sums[k].append(v)
        pct = lambda v: "n/a" if v is None else f"{100 * v:+.1f}%"
        row = f"| {w} | {s1.get(w, '—')} | {pct(vals['tt'])} | {pct(vals['tp'])} | {pct(vals['mt'])} | {pct(vals['mp'])} |"
        if timed:
            row += f" {vals['st']:.3f} | {vals['sp']:.3f} |"
        print(row)
    row = (f"| **mean** | traffic −24.7%, miss rate −24.6%{', cycles −13.8%' if timed else ''} | "
           f"{100 * mean(sums['tt']):+.1f}% | {100 * mean(sums['tp']):+.1f}% | {100 * mean(sums['mt']):+.1f}% | {100 * mean(sums['mp']):+.1f}% |")
    if timed:
        row += f" {mean(sums['st']):.3f} | {mean(sums['sp']):.3f} |"
    print(row)
PY
echo "CPU time (user, system) of this script and its children:" >&2; times >&2
