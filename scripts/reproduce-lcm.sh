#!/usr/bin/env bash
# scripts/reproduce-lcm.sh [BIN] [SIZE] [OUT]: S2 (locality-based cache
# management and warp scheduling) on the emulated workloads, for
# docs/reproduction.md.  On the kepler-s2 preset (S2 Table 2: 16 SMs, 4-way
# L1s, GTO) at 16, 32 and 48 KB of L1, for each of S2's benchmarks the suite
# has: the baseline (lru), lcm-bypass, lcm-coalesce, lcm, and lcm under the
# lws warp order; the L1 miss rate of the requests that looked L1 up (S2's:
# a bypassed request never reaches L1), the share of load requests L1 did
# not serve (bypasses count as misses, merged requests as served), and
# L1->L2 bytes; functional and timed (--timed, docs/metrics.md §12), and
# timed the speedup over the baseline (its cycles / the system's; S2 §5:
# bypass 19%, coalescing 9%, LCM 23%, LCM + LWS 26%; LCM + LWS 26 / 18 / 11%
# at 16 / 32 / 48 KB).  MODES="functional timed" by default, WORKLOADS="..." a subset.  Needs python3
# for the tables.
set -euo pipefail
bin=$(realpath "${1:-build/rel/warpscope}") size=${2:-medium} out=${3:-$(mktemp -d)}
modes=${MODES:-functional timed}
mkdir -p "$out"
# S2 Table 3 as the suite has it: BFS, BP, COV (convolution), GE, GRA, LUD,
# SRD, NW, HS; CFD, PTF and LCT have no port.
workloads=${WORKLOADS:-"bfs backprop 2dconv gaussian gramschmidt lud srad nw hotspot"}
for mode in $modes; do
    extra=(); [ "$mode" = timed ] && extra=(--timed)
    start=$(date +%s)
    for w in $workloads; do
        [ -f "$out/$w.wst" ] || "$bin" record --workload "$w" --size "$size" -o "$out/$w.wst" >/dev/null
        for kb in 16 32 48; do
            [ -f "$out/$w.$mode.$kb.json" ] ||
                "$bin" compare "$out/$w.wst" --gpu kepler-s2 --l1 $((kb * 1024)):4:128 --schedule rr,gto \
                    --policies lru,lcm-bypass,lcm-coalesce,lcm,lcm@lws "${extra[@]}" --quiet \
                    -o "$out/$w.$mode.$kb.json" >/dev/null
        done
    done
    echo "$mode: $(( $(date +%s) - start )) s wall" >&2
done
python3 - "$out" "$modes" $workloads <<'PY'
import json, sys
out, modes, workloads = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
systems = ["lcm-bypass", "lcm-coalesce", "lcm", "lcm@lws"]

def figures(e):
    l1 = e["l1"]
    merged = e["lcm"]["coalescer"]["merged_requests"] if "lcm" in e else 0
    looked = l1["requests"] - l1["bypasses"]
    return {"looked": (l1["misses"] - l1["bypasses"]) / looked if looked else 0.0,
            "unserved": l1["misses"] / (l1["requests"] + merged),
            "bytes": e["traffic"]["l1_to_l2_bytes"]}

rel = lambda v, b: 100 * (v / b - 1) if b else 0.0
for mode, kb in [(m, k) for m in modes for k in (16, 32, 48)]:
    timed = mode == "timed"
    print(f"\n**{kb} KB L1, {mode} replay** (change against the GTO baseline's figure" + ("; speedup = its cycles / the system's" if timed else "") + ")\n")
    print("| workload | baseline miss rate | " + " | ".join(f"{s}: miss rate / unserved / L1→L2 bytes" + (" / speedup" if timed else "") for s in systems) + " |")
    print("|---|---|" + "---|" * len(systems))
    sums = {s: [0.0, 0.0, 0.0, 0.0] for s in systems}
    for w in workloads:
        p = {e["name"]: e for e in json.load(open(f"{out}/{w}.{mode}.{kb}.json"))["policies"]}
        base = figures(p["lru"])
        cells = []
        for s in systems:
            f = figures(p[s])
            d = (rel(f["looked"], base["looked"]), rel(f["unserved"], base["unserved"]),
                 rel(f["bytes"], base["bytes"]))
            for i in range(3):
                sums[s][i] += d[i]
            cell = f"{d[0]:+.1f}% / {d[1]:+.1f}% / {d[2]:+.1f}%"
            if timed:
                sp = p["lru"]["timed"]["cycles"] / p[s]["timed"]["cycles"]
                sums[s][3] += sp
                cell += f" / {sp:.3f}"
            cells.append(cell)
        print(f"| {w} | {100 * base['looked']:.1f}% | " + " | ".join(cells) + " |")
    n = len(workloads)
    print("| **mean** | | " + " | ".join(f"**{v[0] / n:+.1f}% / {v[1] / n:+.1f}% / {v[2] / n:+.1f}%"
                                      + (f" / {v[3] / n:.3f}" if timed else "") + "**"
                                      for v in sums.values()) + " |")
PY
echo "CPU time (user, system) of this script and its children:" >&2; times >&2
