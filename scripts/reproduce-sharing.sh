#!/usr/bin/env bash
# scripts/reproduce-sharing.sh [BIN] [SIZE] [OUT]: S0's results (sharing-aware
# CTA scheduling and cache management) on the emulated workloads S0 shares
# with warpscope's suite, for docs/reproduction.md.  On the fermi preset
# (S0 Table I), GTO warps, functional and timed (--timed, docs/metrics.md
# §12): rr + LRU (the baseline), qx_adpt + LRU, rr + management, qx_adpt +
# management and bcs + management (`sharing-aware`); DRAM bytes, L1 miss
# rate, L2 misses per 1000 global warp-loads (S0's MPKI counts all
# instructions; the ratios to the baseline compare alike), replication at
# kernel end and from `analyze` the mean SMs per shared block under rr
# (functional), and
# (timed) the speedup over the baseline (its cycles / the run's; S0 §VI-B:
# execution time −7% with qx_adpt + management) and the share of shared-line
# L1 misses that merged into an MSHR.  MODES="functional timed" by default, WORKLOADS="..." a subset.
# Needs python3 for the tables.
set -euo pipefail
bin=$(realpath "${1:-build/rel/warpscope}") size=${2:-medium} out=${3:-$(mktemp -d)}
modes=${MODES:-functional timed}
mkdir -p "$out"
workloads=${WORKLOADS:-"gaussian backprop lud hotspot srad nw bfs pathfinder streamcluster kmeans atax bicg mvt
           gemm gesummv syrk syr2k 2dconv 3dconv covariance fdtd-2d gramschmidt"}
for mode in $modes; do
    extra=(); [ "$mode" = timed ] && extra=(--timed)
    start=$(date +%s)
    for w in $workloads; do
        [ -f "$out/$w.wst" ] || "$bin" record --workload "$w" --size "$size" -o "$out/$w.wst" >/dev/null
        for sched in rr qx_adpt; do
            [ -f "$out/$w.$mode.$sched.json" ] ||
                "$bin" compare "$out/$w.wst" --gpu fermi --schedule $sched,gto --policies lru,sharing-aware \
                    "${extra[@]}" --quiet -o "$out/$w.$mode.$sched.json" >/dev/null
        done
        [ -f "$out/$w.$mode.bcs.json" ] ||
            "$bin" compare "$out/$w.wst" --gpu fermi --schedule bcs,gto --policies sharing-aware \
                "${extra[@]}" --quiet -o "$out/$w.$mode.bcs.json" >/dev/null
        [ "$mode" != functional ] || [ -f "$out/$w.analyze.json" ] ||
            "$bin" analyze "$out/$w.wst" --gpu fermi --schedule rr,gto --quiet -o "$out/$w.analyze.json" >/dev/null
        # Replication at kernel end: the functional replay's (the timed
        # one's differs only by the lines still pending at the end).
        [ "$mode" != functional ] || [ -f "$out/$w.replay-rr.json" ] ||
            "$bin" replay "$out/$w.wst" --gpu fermi --schedule rr,gto --quiet \
                -o "$out/$w.replay-rr.json" >/dev/null
        [ "$mode" != functional ] || [ -f "$out/$w.replay-bcs.json" ] ||
            "$bin" replay "$out/$w.wst" --gpu fermi --schedule bcs,gto --manage sharing-aware \
                --quiet -o "$out/$w.replay-bcs.json" >/dev/null
    done
    echo "$mode: $(( $(date +%s) - start )) s wall" >&2
done
python3 - "$out" "$modes" $workloads <<'PY'
import json, sys
out, modes, workloads = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
runs = [("rr + LRU", "rr", "lru"), ("qx_adpt + LRU", "qx_adpt", "lru"),
        ("rr + mgmt", "rr", "sharing-aware"), ("qx_adpt + mgmt", "qx_adpt", "sharing-aware"),
        ("bcs + mgmt", "bcs", "sharing-aware")]
mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
fmt = lambda v: "null" if v is None else f"{v:.2f}"
for mode in modes:
    def load(w, sched, name):
        return next(p for p in json.load(open(f"{out}/{w}.{mode}.{sched}.json"))["policies"] if p["name"] == name)
    figures = [("DRAM bytes", lambda p: p["traffic"]["l2_to_dram_read_bytes"] + p["traffic"]["dram_write_bytes"]),
               ("L1 miss rate", lambda p: p["l1"]["misses"] / max(p["l1"]["requests"], 1)),
               ("L2 misses per 1000 global warp-loads", lambda p: 1000 * p["l2"]["misses"] / max(p["mpli"]["loads"], 1))]
    if mode == "timed":
        figures.append(("speedup over rr + LRU (its cycles / the run's)", lambda p: p["timed"]["cycles"]))
    print(f"\n#### {mode} replay")
    for title, value in figures:
        speedup = title.startswith("speedup")
        print(f"\n{title}:\n")
        print("| workload | " + " | ".join(r[0] for r in runs) + " |")
        print("|---|" + "---|" * len(runs))
        ratios = [[] for _ in runs]
        for w in workloads:
            base = value(load(w, "rr", "lru"))
            cells = []
            for i, (_, sched, name) in enumerate(runs):
                v = value(load(w, sched, name))
                if speedup:
                    ratios[i].append(base / v)
                    cells.append(f"{base / v:.3f}")
                    continue
                if base:
                    ratios[i].append(v / base)
                cells.append(f"{v:.3f}" if v < 10 else f"{v:.0f}")
            print(f"| {w} | " + " | ".join(cells) + " |")
        if speedup:
            print("| **mean speedup** | " + " | ".join(f"{mean(r):.3f}" for r in ratios) + " |")
        else:
            print("| **vs rr + LRU, mean of ratios** | " + " | ".join(f"{100 * (mean(r) - 1):+.1f}%" for r in ratios) + " |")
    if mode == "timed":
        print("\nShared-line L1 misses merged into an MSHR (S0 §VI-B: MSHR hits of shared blocks +11%), sharing-aware:\n")
        print("| workload | rr + mgmt | qx_adpt + mgmt | bcs + mgmt |")
        print("|---|---|---|---|")
        for w in workloads:
            cells = [fmt((load(w, s, "sharing-aware").get("l2_sharing") or {}).get("shared_mshr_hit_share"))
                     for s in ("rr", "qx_adpt", "bcs")]
            print(f"| {w} | " + " | ".join(cells) + " |")
    if mode != "functional":
        continue
    rep = lambda w, run: json.load(open(f"{out}/{w}.replay-{run}.json"))["summary"]["replication"]["kernel_end"]
    print("\nSharing (analyze, rr) and replication at kernel end (replay):\n")
    print("| workload | shared blocks | mean SMs per shared block | replication rr + LRU | replication bcs + mgmt |")
    print("|---|---|---|---|---|")
    sms = []
    for w in workloads:
        s = json.load(open(f"{out}/{w}.analyze.json"))["summary"]["sharing"]
        m = s["mean_sms_per_shared_block"]
        if m is not None:
            sms.append(m)
        print(f"| {w} | {s['shared_fraction'] or 0:.3f} | {fmt(m)} | {fmt(rep(w, 'rr'))} | {fmt(rep(w, 'bcs'))} |")
    print(f"\nMean SMs per shared block over the workloads: {mean(sms):.2f}")
PY
echo "CPU time (user, system) of this script and its children:" >&2; times >&2
