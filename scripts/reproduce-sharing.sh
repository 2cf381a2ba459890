#!/usr/bin/env bash
# scripts/reproduce-sharing.sh [BIN] [SIZE] [OUT]: S0's results (sharing-aware
# CTA scheduling and cache management) on the emulated workloads S0 shares
# with warpscope's suite, for docs/reproduction.md.  On the fermi preset,
# GTO warps: rr + LRU (the baseline), qx_adpt + LRU, rr + management,
# qx_adpt + management and bcs + management (`sharing-aware`); DRAM bytes,
# L1 miss rate, L2 misses per 1000 global warp-loads (S0's MPKI counts all
# instructions; the ratios to the baseline compare alike), replication at
# kernel end, and from `analyze` the mean SMs per shared block under rr.
# Needs python3 for the tables.
set -euo pipefail
bin=$(realpath "${1:-build/rel/warpscope}") size=${2:-medium} out=${3:-$(mktemp -d)}
mkdir -p "$out"
workloads="gaussian backprop lud hotspot srad nw bfs pathfinder streamcluster kmeans atax bicg mvt
           gemm gesummv syrk syr2k 2dconv 3dconv covariance fdtd-2d gramschmidt"
for w in $workloads; do
    [ -f "$out/$w.wst" ] || "$bin" record --workload "$w" --size "$size" -o "$out/$w.wst" >/dev/null
    "$bin" compare "$out/$w.wst" --gpu fermi --schedule rr,gto --policies lru,sharing-aware --quiet \
        -o "$out/$w.rr.json" >/dev/null
    "$bin" compare "$out/$w.wst" --gpu fermi --schedule qx_adpt,gto --policies lru,sharing-aware --quiet \
        -o "$out/$w.qx_adpt.json" >/dev/null
    "$bin" compare "$out/$w.wst" --gpu fermi --schedule bcs,gto --policies sharing-aware --quiet \
        -o "$out/$w.bcs.json" >/dev/null
    "$bin" analyze "$out/$w.wst" --gpu fermi --schedule rr,gto --quiet -o "$out/$w.analyze.json" >/dev/null
    "$bin" replay "$out/$w.wst" --gpu fermi --schedule rr,gto --quiet -o "$out/$w.replay-rr.json" >/dev/null
    "$bin" replay "$out/$w.wst" --gpu fermi --schedule bcs,gto --manage sharing-aware --quiet \
        -o "$out/$w.replay-bcs.json" >/dev/null
done
python3 - "$out" $workloads <<'PY'
import json, sys
out, workloads = sys.argv[1], sys.argv[2:]
runs = [("rr + LRU", "rr", "lru"), ("qx_adpt + LRU", "qx_adpt", "lru"),
        ("rr + mgmt", "rr", "sharing-aware"), ("qx_adpt + mgmt", "qx_adpt", "sharing-aware"),
        ("bcs + mgmt", "bcs", "sharing-aware")]
def load(w, sched, name):
    return next(p for p in json.load(open(f"{out}/{w}.{sched}.json"))["policies"] if p["name"] == name)
figures = [("DRAM bytes", lambda p: p["traffic"]["l2_to_dram_read_bytes"] + p["traffic"]["dram_write_bytes"]),
           ("L1 miss rate", lambda p: p["l1"]["misses"] / max(p["l1"]["requests"], 1)),
           ("L2 misses per 1000 global warp-loads", lambda p: 1000 * p["l2"]["misses"] / max(p["mpli"]["loads"], 1))]
mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
for title, value in figures:
    print(f"\n{title}:\n")
    print("| workload | " + " | ".join(r[0] for r in runs) + " |")
    print("|---|" + "---|" * len(runs))
    ratios = [[] for _ in runs]
    for w in workloads:
        base = value(load(w, "rr", "lru"))
        cells = []
        for i, (_, sched, name) in enumerate(runs):
            v = value(load(w, sched, name))
            if base:
                ratios[i].append(v / base)
            cells.append(f"{v:.3f}" if v < 10 else f"{v:.0f}")
        print(f"| {w} | " + " | ".join(cells) + " |")
    print("| **vs rr + LRU, mean of ratios** | " + " | ".join(f"{100 * (mean(r) - 1):+.1f}%" for r in ratios) + " |")
print("\nSharing (analyze, rr) and replication at kernel end (replay):\n")
print("| workload | shared blocks | mean SMs per shared block | replication rr + LRU | replication bcs + mgmt |")
print("|---|---|---|---|---|")
sms = []
rep = lambda w, run: json.load(open(f"{out}/{w}.replay-{run}.json"))["summary"]["replication"]["kernel_end"]
fmt = lambda v: "null" if v is None else f"{v:.2f}"
for w in workloads:
    s = json.load(open(f"{out}/{w}.analyze.json"))["summary"]["sharing"]
    m = s["mean_sms_per_shared_block"]
    if m is not None:
        sms.append(m)
    print(f"| {w} | {s['shared_fraction'] or 0:.3f} | {fmt(m)} | {fmt(rep(w, 'rr'))} | "
          f"{fmt(rep(w, 'bcs'))} |")
print(f"\nMean SMs per shared block over the workloads: {mean(sms):.2f}")
PY
