#!/usr/bin/env bash
# scripts/reproduce-lcm.sh [BIN] [SIZE] [OUT]: S2 (locality-based cache
# management and warp scheduling) on the emulated workloads, for
# docs/reproduction.md.  On the kepler-s2 preset (S2 Table 2: 16 SMs, 4-way
# L1s, GTO) at 16, 32 and 48 KB of L1, for each of S2's benchmarks the suite
# has: the baseline (lru), lcm-bypass, lcm-coalesce, lcm, and lcm under the
# lws warp order; the L1 miss rate of the requests that looked L1 up (S2's:
# a bypassed request never reaches L1), the share of load requests L1 did
# not serve (bypasses count as misses, merged requests as served), and
# L1->L2 bytes.  Needs python3 for the tables.
set -euo pipefail
bin=$(realpath "${1:-build/rel/warpscope}") size=${2:-medium} out=${3:-$(mktemp -d)}
mkdir -p "$out"
# S2 Table 3 as the suite has it: BFS, BP, COV (convolution), GE, GRA, LUD,
# SRD, NW, HS; CFD, PTF and LCT have no port.
workloads="bfs backprop 2dconv gaussian gramschmidt lud srad nw hotspot"
for w in $workloads; do
    [ -f "$out/$w.wst" ] || "$bin" record --workload "$w" --size "$size" -o "$out/$w.wst" >/dev/null
    for kb in 16 32 48; do
        "$bin" compare "$out/$w.wst" --gpu kepler-s2 --l1 $((kb * 1024)):4:128 --schedule rr,gto \
            --policies lru,lcm-bypass,lcm-coalesce,lcm,lcm@lws --quiet -o "$out/$w.$kb.json" >/dev/null
    done
done
python3 - "$out" $workloads <<'PY'
import json, sys
out, workloads = sys.argv[1], sys.argv[2:]
systems = ["lcm-bypass", "lcm-coalesce", "lcm", "lcm@lws"]

def figures(e):
    l1 = e["l1"]
    merged = e["lcm"]["coalescer"]["merged_requests"] if "lcm" in e else 0
    looked = l1["requests"] - l1["bypasses"]
    return {"looked": (l1["misses"] - l1["bypasses"]) / looked if looked else 0.0,
            "unserved": l1["misses"] / (l1["requests"] + merged),
            "bytes": e["traffic"]["l1_to_l2_bytes"]}

rel = lambda v, b: 100 * (v / b - 1) if b else 0.0
for kb in (16, 32, 48):
    print(f"\n**{kb} KB L1** (change against the GTO baseline's figure)\n")
    print("| workload | baseline miss rate | " + " | ".join(f"{s}: miss rate / unserved / L1→L2 bytes" for s in systems) + " |")
    print("|---|---|" + "---|" * len(systems))
    sums = {s: [0.0, 0.0, 0.0] for s in systems}
    for w in workloads:
        p = {e["name"]: e for e in json.load(open(f"{out}/{w}.{kb}.json"))["policies"]}
        base = figures(p["lru"])
        cells = []
        for s in systems:
            f = figures(p[s])
            d = (rel(f["looked"], base["looked"]), rel(f["unserved"], base["unserved"]),
                 rel(f["bytes"], base["bytes"]))
            for i in range(3):
                sums[s][i] += d[i]
            cells.append(f"{d[0]:+.1f}% / {d[1]:+.1f}% / {d[2]:+.1f}%")
        print(f"| {w} | {100 * base['looked']:.1f}% | " + " | ".join(cells) + " |")
    n = len(workloads)
    print("| **mean** | | " + " | ".join(f"**{v[0] / n:+.1f}% / {v[1] / n:+.1f}% / {v[2] / n:+.1f}%**"
                                      for v in sums.values()) + " |")
PY
