#!/usr/bin/env bash
# scripts/reproduce-ccn.sh [BIN] [SIZE] [OUT]: S3 chapter 4 (the Cooperative
# Caching Network) on the emulated workloads, for docs/reproduction.md.  On
# the fermi preset (S3 Table 4.1: 15 SMs, 16 KB 4-way L1s, GTO), for each
# workload: μRC under LRU (S3 Table 4.2), and the CCN with its throttler
# (ccn) and without (ccn-b): remote hit rate, the change in L1->L2 requests
# and DRAM bytes against LRU, hops per remote hit, and the throttler's
# decisions; functional and timed (--timed, docs/metrics.md §12: each hop
# costs --ccn-hop-cycles, a remote copy still in flight is no hit), and
# timed the speedup over LRU (LRU's cycles / the run's; S3 §4.5: +14.7%
# CCN-RT, +14.5% CCN-B on the kernels with reuse).  MODES="functional
# timed" by default, WORKLOADS="..." a subset.  Needs python3 for the tables.
set -euo pipefail
bin=$(realpath "${1:-build/rel/warpscope}") size=${2:-medium} out=${3:-$(mktemp -d)}
modes=${MODES:-functional timed}
mkdir -p "$out"
workloads=${WORKLOADS:-"gaussian backprop lud hotspot srad nw bfs pathfinder streamcluster kmeans atax bicg mvt
           gemm gesummv syrk syr2k 2dconv 3dconv covariance fdtd-2d gramschmidt spmv"}
for mode in $modes; do
    extra=(); [ "$mode" = timed ] && extra=(--timed)
    start=$(date +%s)
    for w in $workloads; do
        [ -f "$out/$w.wst" ] || "$bin" record --workload "$w" --size "$size" -o "$out/$w.wst" >/dev/null
        [ -f "$out/$w.$mode.ccn.json" ] ||
            "$bin" compare "$out/$w.wst" --gpu fermi --schedule rr,gto --policies lru,lru+ccn,lru+ccn-b \
                "${extra[@]}" --quiet -o "$out/$w.$mode.ccn.json" >/dev/null
    done
    echo "$mode: $(( $(date +%s) - start )) s wall" >&2
done
python3 - "$out" "$modes" $workloads <<'PY'
import json, sys
out, modes, workloads = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
# S3 Table 4.2's μRC for the benchmarks the suite shares (gemm stands for
# MapReduce's mm, srad for sradv2).
s3 = {"gemm": 4, "streamcluster": 18, "bfs": 3, "kmeans": 0, "nw": 8, "lud": 28,
      "backprop": 3, "hotspot": 29, "srad": 16}
for mode in modes:
    timed = mode == "timed"
    print(f"\n#### {mode} replay\n")
    print("| workload | S3 μRC | μRC | remote hit rate (ccn) | L1→L2 requests, ccn | L1→L2 requests, ccn-b | DRAM bytes, ccn | hops a hit | ring off (epochs) |"
          + (" speedup ccn | speedup ccn-b |" if timed else ""))
    print("|---|---|---|---|---|---|---|---|---|" + ("---|---|" if timed else ""))
    heavy = []
    cyc = lambda e: e["timed"]["cycles"]
    for w in workloads:
        p = {e["name"]: e for e in json.load(open(f"{out}/{w}.{mode}.ccn.json"))["policies"]}
        base, rt, b = p["lru"], p["lru+ccn"], p["lru+ccn-b"]
        req = lambda e: e["traffic"]["l1_to_l2_requests"]
        dram = lambda e: e["traffic"]["l2_to_dram_read_bytes"] + e["traffic"]["dram_write_bytes"]
        ch = lambda v, b0: f"{100 * (v / b0 - 1):+.1f}%" if b0 else "n/a"
        urc = base["urc"]
        c = rt["ccn"]
        rate = c["remote_hit_rate"]
        t = c["throttler"]
        print(f"| {w} | {str(s3[w]) + '%' if w in s3 else '—'} | {100 * urc:.1f}% | "
              f"{'n/a' if rate is None else f'{rate:.2f}'} | {ch(req(rt), req(base))} | {ch(req(b), req(base))} | "
              f"{ch(dram(rt), dram(base))} | {c['mean_hit_hops'] or 0:.1f} | {t['ring_off_epochs']} of {t['epochs']} |"
              + (f" {cyc(base) / cyc(rt):.3f} | {cyc(base) / cyc(b):.3f} |" if timed else ""))
        if urc is not None and urc > 0.10:
            heavy.append((w, rate or 0, req(rt) / req(base) - 1, req(b) / req(base) - 1,
                          b["ccn"]["remote_hit_rate"] or 0,
                          cyc(base) / cyc(rt) if timed else 0, cyc(base) / cyc(b) if timed else 0))
    mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
    print(f"\nSharing-heavy (μRC > 10%): {', '.join(h[0] for h in heavy)}. Mean over them: remote hit rate "
          f"ccn {mean([h[1] for h in heavy]):.2f}, ccn-b {mean([h[4] for h in heavy]):.2f}; L1→L2 requests "
          f"ccn {100 * mean([h[2] for h in heavy]):+.1f}%, ccn-b {100 * mean([h[3] for h in heavy]):+.1f}%"
          + (f"; speedup ccn {mean([h[5] for h in heavy]):.3f}, ccn-b {mean([h[6] for h in heavy]):.3f}" if timed else "") + ".")
PY
echo "CPU time (user, system) of this script and its children:" >&2; times >&2
